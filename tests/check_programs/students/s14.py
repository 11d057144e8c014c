# -*- coding: utf-8 -*-
# 我的扫雷
import pgzrun
import random

BOMB_NUM = 20
ROWS = 15
COLS = 15
SIZE = 25
WIDTH = SIZE * COLS
HEIGHT = SIZE * ROWS
failed = False
finished = False
blocks = []

# 行 r，列 c
for r in range(ROWS):
    for c in range(COLS):
        b = Actor("minesweep_block", topleft=(c * SIZE, r * SIZE))
        b.r = r
        b.c = c
        b.isbomb = False
        b.isopen = False
        b.isflag = False
        blocks.append(b)

random.shuffle(blocks)
for n, b in enumerate(blocks):
    if n < BOMB_NUM:
        b.isbomb = True


def update():
    global finished
    if finished or failed:
        return
    for b in blocks:
        if not b.isbomb and not b.isopen:
            break
    else:
        finished = True
        sounds.win.play()


def draw():
    for b in blocks:
        b.draw()
    if finished:
        screen.draw.text("Finished", center=(WIDTH // 2, HEIGHT // 2),
                         fontsize=100, color="red")
    if failed:
        screen.draw.text("Failed", center=(WIDTH // 2, HEIGHT // 2),
                         fontsize=100, color="red")


def on_mouse_down(pos, button):
    if failed or finished:
        return
    for b in blocks:
        if b.collidepoint(pos) and not b.isopen:
            if button == mouse.LEFT and not b.isflag:
                if not b.isbomb:
                    open_block(b)
                else:
                    blow_up()
            elif button == mouse.RIGHT:
                set_flag(b)


def set_flag(b):
    if b.isflag:
        b.image = "minesweep_block"
        b.isflag = False
    else:
        b.image = "minesweep_flag"
        b.isflag = True


def blow_up():
    global failed
    failed = True
    sounds.bomb.play()
    for i in range(BOMB_NUM):
        blocks[i].image = "minesweep_bomb"


# 不用递归：把要打开的方块放进一个列表，一个一个地打开
def open_block(bk):
    todo = [bk]
    while todo:
        b = todo.pop()
        if b.isopen:
            continue
        b.isopen = True
        num = get_bomb_number(b)
        b.image = "minesweep_number%d" % num
        if num == 0:
            todo.extend(get_neighbours(b))


def get_bomb_number(bk):
    num = 0
    for b in get_neighbours(bk):
        if b.isbomb:
            num = num + 1
    return num


def get_neighbours(bk):
    near = []
    for b in blocks:
        if b.isopen or b is bk:
            continue
        if abs(b.r - bk.r) <= 1 and abs(b.c - bk.c) <= 1:
            near.append(b)
    return near


pgzrun.go()
