# -*- coding: utf-8 -*-

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
        block.isopen = False  # dakai le
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
        if block.collidepoint(pos) and not block.isopen:
            # youjian
            if button == mouse.RIGHT:
                set_flag(block)
            # zuojian
            elif button == mouse.LEFT and not block.isflag:
                if block.isbomb:
                    blow_up()
                else:
                    open_block(block)


# cha qizi
def set_flag(block):
    if not block.isflag:
        block.image = "minesweep_flag"
        block.isflag = True
    else:
        block.image = "minesweep_block"
        block.isflag = False


# zhale
def blow_up():
    pass


# dakai fangkuai
def open_block(bk):
    bk.isopen = True
    bombnum = get_bomb_number(bk)
    bk.image = "minesweep_number" + str(bombnum)
    if bombnum == 0:
        return
    # digui
    for block in get_neighbours(bk):
        if not block.isopen :
            open_block(block)


# zhou wei you ji ge lei
def get_bomb_number(bk):
    num = 0
    for block in get_neighbours(bk):
        if block.isbomb:
            num += 1
    return num


# zhou wei de fangkuai
def get_neighbours(bk):
    nblocks = []
    for block in blocks:
        if block.isopen:
            continue
        if block.x == bk.x - SIZE and block.y == bk.y \
          or block.x == bk.x + SIZE and block.y == bk.y \
          or block.x == bk.x and block.y == bk.y - SIZE \
          or block.x == bk.x and block.y == bk.y + SIZE \
          or block.x == bk.x - SIZE and block.y == bk.y - SIZE \
          or block.x == bk.x + SIZE and block.y == bk.y - SIZE \
          or block.x == bk.x - SIZE and block.y == bk.y + SIZE \
          or block.x == bk.x + SIZE and block.y == bk.y + SIZE :
            nblocks.append(block)
    return nblocks


pgzrun.go()
