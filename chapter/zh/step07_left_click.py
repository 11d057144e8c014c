# -*- coding: utf-8 -*-
# 扫雷游戏源代码，第 7 步（共 11 步）：完善鼠标事件处理（3.3.1）

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
        block.isopen = False        # 标记方块是否被打开  # NEW
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
        if block.collidepoint(pos) and not block.isopen:  # NEW
            # 若鼠标右键点击方块
            if button == mouse.RIGHT:
                set_flag(block)
            # 若鼠标左键点击方块，且方块没有插上旗子
            elif button == mouse.LEFT and not block.isflag:  # NEW
                if block.isbomb:  # NEW
                    blow_up()  # NEW
                else:  # NEW
                    open_block(block)  # NEW


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
def blow_up():  # NEW
    pass  # NEW


# 打开方块。还没有写好：pass 先占住位置
def open_block(bk):  # NEW
    pass  # NEW


pgzrun.go()  # RUN

# 左键单击埋了地雷的方块会调用 blow_up，单击安全的方块会调用 open_block；
# 这两个函数现在都只有 pass，所以还看不到变化。
# 运行：python chapter/zh/step07_left_click.py（或在 Thonny、IDLE 里按“运行”）
# 第 1 行写 utf-8，因为这个文件按 UTF-8 保存；你的文件第 1 行也这样写，不要抄教材的 gb18030。
# 中文 Windows 上不要用 pgzrun 命令运行它（见 README.zh.md），在 Thonny 里按“运行”就行。
# 行末的标记：
#   NEW    这一节教材第一次给出的代码（教材中印成粗体）
#   RUN    不是教材的代码：有了它，在 Thonny 或 IDLE 里按“运行”也能启动游戏
