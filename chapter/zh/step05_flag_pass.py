# -*- coding: utf-8 -*-
# 扫雷游戏源代码，第 5 步（共 11 步）：定义插旗函数，先只写 pass（3.2.2）

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
        # 若方块被鼠标点击
        if block.collidepoint(pos):
            # 若鼠标右键点击方块
            if button == mouse.RIGHT:
                set_flag(block)


# 为方块插上旗子。还没有写好：pass 什么也不做，只是占住位置，
# 这样在想好怎么写之前，程序也能运行。
def set_flag(block):  # NEW
    pass  # NEW


pgzrun.go()  # RUN

# set_flag 还什么都不做，但右键单击不会再让程序停下了。
# 运行：python chapter/zh/step05_flag_pass.py（或在 Thonny、IDLE 里按“运行”）
# 第 1 行写 utf-8，因为这个文件按 UTF-8 保存；你的文件第 1 行也这样写，不要抄教材的 gb18030。
# 中文 Windows 上不要用 pgzrun 命令运行它（见 README.zh.md），在 Thonny 里按“运行”就行。
# 行末的标记：
#   NEW    这一节教材第一次给出的代码
#   RUN    不是教材的代码：有了它，在 Thonny 或 IDLE 里按“运行”也能启动游戏
