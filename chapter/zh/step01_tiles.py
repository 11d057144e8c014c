# -*- coding: utf-8 -*-
# 扫雷游戏源代码，第 1 步（共 11 步）：创建游戏场景，生成方块阵列（3.1.2、3.1.3）

import pgzrun  # RUN

ROWS = 15                # 方块行数  # NEW
COLS = 15                # 方块列数  # NEW
SIZE = 25                # 方块尺寸  # NEW
WIDTH = SIZE * COLS      # 屏幕宽度  # NEW
HEIGHT = SIZE * ROWS     # 屏幕高度  # NEW
blocks = []              # 方块列表  # NEW

# 将所有方块添加到场景中：i 是行号，j 是列号
for i in range(ROWS):  # NEW
    for j in range(COLS):  # NEW
        block = Actor("minesweep_block")  # NEW
        block.left = j * SIZE       # 设置方块的水平位置  # NEW
        block.top = i * SIZE        # 设置方块的垂直位置  # NEW
        blocks.append(block)  # NEW


# 绘制游戏图像：逐个调用方块的 draw() 方法显示方块
def draw():  # NEW
    for block in blocks:  # NEW
        block.draw()  # NEW


pgzrun.go()  # RUN

# 225 个没打开的方块，15 行 15 列。现在点鼠标还没有反应。
# 运行：python chapter/zh/step01_tiles.py（或在 Thonny、IDLE 里按“运行”）
# 第 1 行写 utf-8，因为这个文件按 UTF-8 保存；你的文件第 1 行也这样写，不要抄教材的 gb18030。
# 中文 Windows 上不要用 pgzrun 命令运行它（见 README.zh.md），在 Thonny 里按“运行”就行。
# 行末的标记：
#   NEW    这一节教材第一次给出的代码
#   RUN    不是教材的代码：有了它，在 Thonny 或 IDLE 里按“运行”也能启动游戏
