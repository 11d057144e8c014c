# -*- coding: utf-8 -*-
# 扫雷游戏源代码，第 8 步（共 11 步）：用递归打开方块（3.3.2～3.3.4）

import pgzrun  # RUN
import random

BOMBS = 20               # 炸弹数量
ROWS = 15                # 方块行数
COLS = 15                # 方块列数
SIZE = 25                # 方块尺寸
WIDTH = SIZE * COLS      # 屏幕宽度
HEIGHT = SIZE * ROWS     # 屏幕高度
blocks = []              # 方块列表

# 将所有方块添加到场景中：i 是行号，j 是列号
for i in range(ROWS):
    for j in range(COLS):
        block = Actor("minesweep_block")
        block.left = j * SIZE       # 设置方块的水平位置
        block.top = i * SIZE        # 设置方块的垂直位置
        block.isbomb = False        # 标记方块是否埋设地雷
        block.isopen = False        # 标记方块是否被打开
        block.isflag = False        # 标记方块是否插上旗子
        blocks.append(block)

# 随机打乱方块列表的次序，这样前 BOMBS 个方块可能在窗口的任何地方
random.shuffle(blocks)

# 埋设地雷：在列表的前 BOMBS 个方块下面埋上地雷
for i in range(BOMBS):
    blocks[i].isbomb = True


# 绘制游戏图像：逐个调用方块的 draw() 方法显示方块
def draw():
    for block in blocks:
        block.draw()


# 处理鼠标点击事件：pos 是点击的位置，button 是按下的键
def on_mouse_down(pos, button):
    for block in blocks:
        # 若方块被鼠标点击，且该方块未曾打开
        if block.collidepoint(pos) and not block.isopen:
            # 若鼠标右键点击方块
            if button == mouse.RIGHT:
                set_flag(block)
            # 若鼠标左键点击方块，且方块没有插上旗子
            elif button == mouse.LEFT and not block.isflag:
                if block.isbomb:
                    blow_up()
                else:
                    open_block(block)


# 为方块插上旗子，或者取消旗子
def set_flag(block):
    # 先用伪代码写出做法：
    #     if 方块上没有旗子:  显示旗子的图片，标记方块已插上旗子
    #     else:               显示方块的图片，标记方块没有插旗子
    if not block.isflag:
        block.image = "minesweep_flag"
        block.isflag = True
    else:
        block.image = "minesweep_block"
        block.isflag = False


# 地雷爆炸。还没有写好：pass 先占住位置
def blow_up():
    pass


# 打开方块：这是一个递归函数
def open_block(bk):
    # 先用伪代码写出做法：
    #     标记 bk 已经打开，显示它周围的地雷数
    #     if 地雷数不是 0:  到这里结束
    #     else:             用同样的方法打开 bk 周围每个没打开的方块
    bk.isopen = True  # NEW
    bombnum = get_bomb_number(bk)  # NEW
    bk.image = "minesweep_number" + str(bombnum)  # NEW
    # 周围有地雷，显示数字：递归到这里结束
    if bombnum != 0:  # NEW
        return  # NEW
    # 若方块周围没有地雷，则递归地打开周围的方块
    for block in get_neighbours(bk):  # NEW
        if not block.isopen :  # NEW
            open_block(block)  # NEW


# 获取某方块周围的地雷数量
def get_bomb_number(bk):  # NEW
    num = 0  # NEW
    for block in get_neighbours(bk):  # NEW
        if block.isbomb:  # NEW
            num += 1  # NEW
    return num  # NEW


# 获取某方块周围所有没打开的方块：最多 8 个，斜着挨着的也算。
# 相邻的方块和 bk 左右差一个 SIZE，或上下差一个 SIZE，或者左右、上下都差。条件很长，
# 所以除了最后一行，每行末尾都有反斜杠 \，表示下一行接着写。
def get_neighbours(bk):  # NEW
    nblocks = []  # NEW
    for block in blocks:  # NEW
        if block.isopen:  # NEW
            continue  # NEW
        if block.x == bk.x - SIZE and block.y == bk.y \
          or block.x == bk.x + SIZE and block.y == bk.y \
          or block.x == bk.x and block.y == bk.y - SIZE \
          or block.x == bk.x and block.y == bk.y + SIZE \
          or block.x == bk.x - SIZE and block.y == bk.y - SIZE \
          or block.x == bk.x + SIZE and block.y == bk.y - SIZE \
          or block.x == bk.x - SIZE and block.y == bk.y + SIZE \
          or block.x == bk.x + SIZE and block.y == bk.y + SIZE :  # NEW
            nblocks.append(block)  # NEW
    return nblocks  # NEW


pgzrun.go()  # RUN

# open_block 会调用自己，所以点一下就可能打开一大片。点到地雷还没有反应。
# 点开一大片时，画面会卡一秒左右，
# 第 11 步会说明原因，并让它变快。
# 运行：python chapter/zh/step08_recursion.py（或在 Thonny、IDLE 里按“运行”）
# 第 1 行写 utf-8，因为这个文件按 UTF-8 保存；你的文件第 1 行也这样写，不要抄教材的 gb18030。
# 中文 Windows 上不要用 pgzrun 命令运行它（见 README.zh.md），在 Thonny 里按“运行”就行。
# 行末的标记：
#   NEW    这一节教材第一次给出的代码
#   RUN    不是教材的代码：有了它，在 Thonny 或 IDLE 里按“运行”也能启动游戏
# 行末的反斜杠 \ 表示这条语句在下一行继续，
# 写在最后一行末尾的标记对这几行都有效。
