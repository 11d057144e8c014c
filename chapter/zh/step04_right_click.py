# -*- coding: utf-8 -*-
# 扫雷游戏源代码，第 4 步（共 11 步）：使用鼠标右键来操作（3.2.1）

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
def on_mouse_down(pos, button):  # NEW
    for block in blocks:  # NEW
        # 若方块被鼠标点击
        if block.collidepoint(pos):  # NEW
            # 若鼠标右键点击方块
            if button == mouse.RIGHT:  # NEW
                set_flag(block)  # NEW


pgzrun.go()  # RUN

# 右键单击会调用 set_flag，可是它还没有定义，所以程序会停下并报错
# NameError: name 'set_flag' is not defined，和教材里说的一样。
# 从这一步起去掉了 PEEK 那一行：地雷藏起来了，和真正的游戏一样。
# 运行：python chapter/zh/step04_right_click.py（或在 Thonny、IDLE 里按“运行”）
# 第 1 行写 utf-8，因为这个文件按 UTF-8 保存；你的文件第 1 行也这样写，不要抄教材的 gb18030。
# 中文 Windows 上不要用 pgzrun 命令运行它（见 README.zh.md），在 Thonny 里按“运行”就行。
# 行末的标记：
#   NEW    这一节教材第一次给出的代码
#   RUN    不是教材的代码：有了它，在 Thonny 或 IDLE 里按“运行”也能启动游戏
