# -*- coding: utf-8 -*-

import pgzrun
import random

BOMBS = 20
ROWS = 15
COLS = 15
SIZE = 25
WIDTH = SIZE * COLS
HEIGHT = SIZE * ROWS
blocks = []

for i in range(ROWS):
    for j in range(COLS):
        block = Actor("minesweep_block")
        block.left = j * SIZE
        block.top = i * SIZE
        block.isbomb = False
        block.isopen = False
        block.isflag = False
        blocks.append(block)

random.shuffle(blocks)

for i in range(BOMBS):
    blocks[i].isbomb = True


def draw():
    for block in blocks:
        block.draw()


def on_mouse_down(pos, button):
    for block in blocks:
        if block.collidepoint(pos) and not block.isopen:
            if button == mouse.RIGHT:
                set_flag(block)
            elif button == mouse.LEFT and not block.isflag:
                if block.isbomb:
                    blow_up()
                else:
                    open_block(block)


def set_flag(block):
    if not block.isflag:
        block.image = "minesweep_flag"
        block.isflag = True
    else:
        block.image = "minesweep_block"
        block.isflag = False


def blow_up():
    pass


def open_block(bk):
    bk.isopen = True
    bombnum = get_bomb_number(bk)
    bk.image = "minesweep_number" + str(bombnum)
    if bombnum != 0:
        return
    for block in get_neighbours(bk):
        if not block.isopen :
            open_block(block)


def get_bomb_number(bk):
    num = 0
    for block in get_neighbours(bk):
        if block.isbomb:
            num += 1
    return num


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
