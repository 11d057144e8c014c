# -*- coding: utf-8 -*-
# 扫雷 （我自己的写法）
import pgzrun
import random

BOMBS = 20
ROWS = 15
COLS = 15
SIZE = 25
WIDTH = SIZE * COLS
HEIGHT = SIZE * ROWS
failed = False
finished = False
fangkuai = []   # 所有的方块


# 做一个方块
def zuo_fangkuai(hang, lie):
    fk = Actor("minesweep_block")
    fk.left = lie * SIZE
    fk.top = hang * SIZE
    fk.isbomb = False
    fk.isopen = False
    fk.isflag = False
    return fk


for hang in range(ROWS):
    for lie in range(COLS):
        fangkuai.append(zuo_fangkuai(hang, lie))

random.shuffle(fangkuai)
for n in range(BOMBS):
    fangkuai[n].isbomb = True


def draw():
    for fk in fangkuai:
        fk.draw()
    if finished:
        screen.draw.text("Finished", center=(WIDTH // 2, HEIGHT // 2), fontsize=100, color="red")
    elif failed:
        screen.draw.text("Failed", center=(WIDTH // 2, HEIGHT // 2), fontsize=100, color="red")


def update():
    global finished
    if finished or failed:
        return
    for fk in fangkuai:
        if not fk.isbomb and not fk.isopen:
            return
    finished = True
    sounds.win.play()


def on_mouse_down(pos, button):
    if failed or finished:
        return
    for fk in fangkuai:
        if fk.collidepoint(pos) and not fk.isopen:
            if button == mouse.RIGHT:
                set_flag(fk)
            elif button == mouse.LEFT and not fk.isflag:
                if fk.isbomb:
                    blow_up()
                else:
                    open_block(fk)


# 右键：插旗 / 拔旗
def set_flag(fk):
    if fk.isflag:
        fk.image = "minesweep_block"
        fk.isflag = False
    else:
        fk.image = "minesweep_flag"
        fk.isflag = True


def blow_up():
    global failed
    failed = True
    sounds.bomb.play()
    for n in range(BOMBS):
        fangkuai[n].image = "minesweep_bomb"


# 打开方块（递归）
def open_block(bk):
    bk.isopen = True
    leishu = get_bomb_number(bk)
    bk.image = "minesweep_number" + str(leishu)
    if leishu != 0:
        return
    for fk in get_neighbours(bk):
        if not fk.isopen:
            open_block(fk)


def get_bomb_number(bk):
    num = 0
    for fk in get_neighbours(bk):
        if fk.isbomb:
            num = num + 1
    return num


# 周围的方块：x 和 y 都只差一个 SIZE 以内
def get_neighbours(bk):
    linju = []
    for fk in fangkuai:
        if fk.isopen or fk == bk:
            continue
        if abs(fk.x - bk.x) <= SIZE and abs(fk.y - bk.y) <= SIZE:
            linju.append(fk)
    return linju


pgzrun.go()
