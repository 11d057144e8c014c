# -*- coding: utf-8 -*-
# 扫雷 saolei  —— 第3章
import pgzrun
import random

BOMBS = 20      # lei de shuliang
ROWS = 15
COLS = 15
SIZE = 25
WIDTH = SIZE * COLS
HEIGHT = SIZE * ROWS
failed = False
finished = False
fangkuai_men = []   # suoyou de fangkuai

for hang in range(ROWS):
    for lie in range(COLS):
        fk = Actor("minesweep_block")
        fk.left = lie * SIZE
        fk.top = hang * SIZE
        fk.isbomb = False
        fk.isopen = False
        fk.isflag = False
        fangkuai_men.append(fk)

random.shuffle(fangkuai_men)

for n in range(BOMBS):
    fangkuai_men[n].isbomb = True


def update():
    global finished
    if finished or failed:
        return
    for fk in fangkuai_men:
        if not fk.isbomb and not fk.isopen:
            return
    finished = True
    sounds.win.play()


def draw():
    for fk in fangkuai_men:
        fk.draw()
    if finished:
        screen.draw.text("Finished", center=(WIDTH // 2, HEIGHT // 2),
                         fontsize=100, color="red")
    elif failed:
        screen.draw.text("Failed", center=(WIDTH // 2, HEIGHT // 2),
                         fontsize=100, color="red")


def on_mouse_down(pos, button):
    if failed or finished:
        return
    for fk in fangkuai_men:
        if fk.collidepoint(pos) and not fk.isopen:
            if button == mouse.RIGHT:
                set_flag(fk)
            elif button == mouse.LEFT and not fk.isflag:
                if fk.isbomb:
                    blow_up()
                else:
                    open_block(fk)


# cha qizi
def set_flag(fk):
    if not fk.isflag:
        fk.image = "minesweep_flag"
        fk.isflag = True
    else:
        fk.image = "minesweep_block"
        fk.isflag = False


# zha le
def blow_up():
    global failed
    failed = True
    sounds.bomb.play()
    for n in range(BOMBS):
        fangkuai_men[n].image = "minesweep_bomb"


# dakai fangkuai (digui)
def open_block(bk):
    bk.isopen = True
    lei = get_bomb_number(bk)
    bk.image = "minesweep_number" + str(lei)
    if lei != 0:
        return
    for fk in get_neighbours(bk):
        if not fk.isopen :
            open_block(fk)


# shu yi shu zhouwei you ji ge lei
def get_bomb_number(bk):
    for fk in get_neighbours(bk):
        num = 0
        if fk.isbomb:
            num += 1
    return num


# zhouwei de 8 ge fangkuai
def get_neighbours(bk):
    zhouwei = []
    for fk in fangkuai_men:
        if fk.isopen:
            continue
        if fk.x == bk.x - SIZE and fk.y == bk.y \
          or fk.x == bk.x + SIZE and fk.y == bk.y \
          or fk.x == bk.x and fk.y == bk.y - SIZE \
          or fk.x == bk.x and fk.y == bk.y + SIZE \
          or fk.x == bk.x - SIZE and fk.y == bk.y - SIZE \
          or fk.x == bk.x + SIZE and fk.y == bk.y - SIZE \
          or fk.x == bk.x - SIZE and fk.y == bk.y + SIZE \
          or fk.x == bk.x + SIZE and fk.y == bk.y + SIZE :
            zhouwei.append(fk)
    return zhouwei


pgzrun.go()
