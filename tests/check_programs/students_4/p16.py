import pgzrun
import random

BOMBS = 20    # dilei shuliang
ROWS = 15    # hangshu
COLS = 15    # lieshu
SIZE = 25    # fangkuai daxiao
WIDTH = SIZE * COLS    # kuan
HEIGHT = SIZE * ROWS    # gao
blocks = []    # suoyou fangkuai

# chuangjian fangkuai
for i in range(ROWS):
    for j in range(COLS):
        block = Actor("minesweep_block")
        block.left = j * SIZE
        block.top = i * SIZE
        block.isbomb = False  # you lei
        block.isflag = False  # cha qi le
        blocks.append(block)

# daluan
random.shuffle(blocks)

# mai lei
for i in range(BOMBS):
    blocks[i].isbomb = True


# hua
def draw():
    for block in blocks:
        block.draw()


# shubiao
def on_mouse_down(pos, button):
    for block in blocks:
        if block.collidepoint(pos):
            # youjian
            if button == mouse.RIGHT:
                set_flag(block)


# cha qizi
def set_flag(block):
    if not block.isflag:
        block.image = "minesweep_flag"
        block.isflag = True
    else:
        block.image = "minesweep_block"
        block.isflag = False


pgzrun.go()
