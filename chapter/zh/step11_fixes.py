# -*- coding: utf-8 -*-
# 扫雷游戏源代码，第 11 步（共 11 步）：教材的游戏加上我们的修正（3.4.2 之后）

import pgzrun  # RUN
import random
import pygame  # FIX e
import sys  # FIX c

BOMBS = 20               # 炸弹数量
ROWS = 15                # 方块行数
COLS = 15                # 方块列数
SIZE = 25                # 方块尺寸
WIDTH = SIZE * COLS      # 屏幕宽度
HEIGHT = SIZE * ROWS     # 屏幕高度
failed = False           # 游戏失败标记
finished = False         # 游戏完成标记
blocks = []              # 方块列表

# FIX c：open_block 还没返回就又调用自己，所以在一大片空白里，
# 会有几百次调用一层套一层地等着返回。Python 默认只允许大约 1000 层，
# 大约 35×35 到 40×40 的空棋盘就不够用了（要看点在哪里），
# 所以方块很多时，把上限提高到方块数再加 100。
sys.setrecursionlimit(max(1000, ROWS * COLS + 100))  # FIX c

# 将所有方块添加到场景中：i 是行号，j 是列号
for i in range(ROWS):
    for j in range(COLS):
        block = Actor("minesweep_block")
        block.left = j * SIZE       # 设置方块的水平位置
        block.top = i * SIZE        # 设置方块的垂直位置
        block.isbomb = False        # 标记方块是否埋设地雷
        block.isopen = False        # 标记方块是否被打开
        block.isflag = False        # 标记方块是否插上旗子
        # FIX a：每个方块记住自己的行号和列号，找周围的方块时只要比较
        # 行号和列号，不用把 x 和 y 比较 8 次。
        block.row = i  # FIX a
        block.col = j  # FIX a
        blocks.append(block)

# 随机打乱方块列表的次序，这样前 BOMBS 个方块可能在窗口的任何地方
random.shuffle(blocks)

# 埋设地雷：在列表的前 BOMBS 个方块下面埋上地雷
for i in range(BOMBS):
    blocks[i].isbomb = True


# 更新游戏逻辑：Pygame Zero 每秒调用 update() 约 60 次，
# 所以在这里检查玩家是不是赢了。
def update():
    global finished
    if finished or failed:
        return
    # 检查是否所有没埋地雷的方块都被打开：只要还有一个没打开，就还没赢
    for block in blocks:
        if not block.isbomb and not block.isopen:
            return
    finished = True
    # FIX e：电脑没有声卡，就没有混音器（mixer），这时播放声音会报错，
    # 游戏就停了。所以先检查有没有混音器，有才播放。
    if pygame.mixer.get_init():  # FIX e
        sounds.win.play()


# 绘制游戏图像：逐个调用方块的 draw() 方法显示方块
def draw():
    for block in blocks:
        block.draw()
    if finished:
        screen.draw.text("Finished", center=(WIDTH // 2, HEIGHT // 2),
                         fontsize=100, color="red")
    elif failed:
        screen.draw.text("Failed", center=(WIDTH // 2, HEIGHT // 2),
                         fontsize=100, color="red")


# 处理鼠标点击事件：pos 是点击的位置，button 是按下的键
def on_mouse_down(pos, button):
    # 游戏结束后，点击不再起作用
    if failed or finished:
        return
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


# 地雷爆炸后显示所有地雷，游戏失败
def blow_up():
    global failed
    failed = True
    # FIX e：电脑没有声卡，就没有混音器（mixer），这时播放声音会报错，
    # 游戏就停了。所以先检查有没有混音器，有才播放。
    if pygame.mixer.get_init():  # FIX e
        sounds.bomb.play()
    # FIX d：逐个检查每个方块下面有没有地雷。只有列表的次序一直没变过，
    # blocks[0] 到 blocks[19] 才正好是那 20 颗地雷。
    for block in blocks:  # FIX d
        if block.isbomb:  # FIX d
            block.image = "minesweep_bomb"  # FIX d


# 打开方块：这是一个递归函数
def open_block(bk):
    # 先用伪代码写出做法：
    #     标记 bk 已经打开，显示它周围的地雷数
    #     if 地雷数不是 0:  到这里结束
    #     else:             用同样的方法打开 bk 周围每个没打开的方块
    bk.isopen = True
    bombnum = get_bomb_number(bk)
    bk.image = "minesweep_number" + str(bombnum)
    # 周围有地雷，显示数字：递归到这里结束
    if bombnum != 0:
        return
    # 若方块周围没有地雷，则递归地打开周围的方块。
    # FIX b：旗子是玩家有意插的，所以自动打开时跳过插了旗子的方块
    # （教材的代码会把它打开）。
    for block in get_neighbours(bk):
        if not block.isopen and not block.isflag:  # FIX b
            open_block(block)


# 获取某方块周围的地雷数量
def get_bomb_number(bk):
    num = 0
    for block in get_neighbours(bk):
        if block.isbomb:
            num += 1
    return num


# 获取某方块周围所有没打开的方块：最多 8 个，斜着挨着的也算
def get_neighbours(bk):
    nblocks = []
    for block in blocks:
        if block.isopen:
            continue
        # FIX a：和 bk 相邻的方块，行号、列号都最多相差 1，而且不是 bk 自己。
        # Pygame Zero 每读一次 block.x 或 block.y 都要重新计算一遍，
        # 而教材的写法每个方块最多要读 16 次。
        if abs(block.row - bk.row) <= 1 and abs(block.col - bk.col) <= 1 \
          and block is not bk:  # FIX a
            nblocks.append(block)
    return nblocks


pgzrun.go()  # RUN

# 玩法和第 10 步一样，但点开一大片时很快（FIX a），旗子能挡住自动打开（FIX b），
# 很大的棋盘也能用（FIX c），失败时逐个检查每个方块来显示地雷（FIX d）。
# 每处修正的原因写在它上方的注释里。
# 运行：python chapter/zh/step11_fixes.py（或在 Thonny、IDLE 里按“运行”）
# 第 1 行写 utf-8，因为这个文件按 UTF-8 保存；你的文件第 1 行也这样写，不要抄教材的 gb18030。
# 中文 Windows 上不要用 pgzrun 命令运行它（见 README.zh.md），在 Thonny 里按“运行”就行。
# 行末的标记：
#   FIX a、FIX b、FIX c、FIX d
#          不是教材的代码：每一处都改变了教材代码的做法，
#          上面的注释说明了原因
#   FIX e  不是教材的代码：没有它，在没有声卡的电脑上
#          程序会报错停下
#   RUN    不是教材的代码：有了它，在 Thonny 或 IDLE 里按“运行”也能启动游戏
# 行末的反斜杠 \ 表示这条语句在下一行继续，
# 写在最后一行末尾的标记对这几行都有效。
