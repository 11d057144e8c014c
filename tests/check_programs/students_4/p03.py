# -*- coding: utf-8 -*-
# saolei.py
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
cells = []

for r in range(ROWS):
    for c in range(COLS):
        cell = Actor("minesweep_block")
        cell.left = c * SIZE
        cell.top = r * SIZE
        cell.isbomb = False
        cell.isopen = False
        cell.isflag = False
        cells.append(cell)

random.shuffle(cells)
for k in range(BOMBS):
    cells[k].isbomb = True


def update():
    global finished
    if finished or failed:
        return
    for cell in cells:
        if not cell.isbomb and not cell.isopen:
            return
    finished = True
    sounds.win.play()


def draw():
    for cell in cells:
        cell.draw()
    if finished:
        screen.draw.text("Finished", center=(WIDTH // 2, HEIGHT // 2), fontsize=100, color="red")
    elif failed:
        screen.draw.text("Failed", center=(WIDTH // 2, HEIGHT // 2), fontsize=100, color="red")


def on_mouse_down(pos, button):
    if failed or finished:
        return
    for cell in cells:
        if cell.collidepoint(pos) and not cell.isopen:
            if button == mouse.RIGHT:
                set_flag(cell)
            elif button == mouse.LEFT and not cell.isflag:
                if cell.isbomb:
                    blow_up()
                else:
                    open_block(cell)


def set_flag(cell):
    if not cell.isflag:
        cell.image = "minesweep_flag"
        cell.isflag = True
    else:
        cell.image = "minesweep_block"
        cell.isflag = False


def blow_up():
    global failed
    failed = True
    sounds.bomb.play()
    for k in range(BOMBS):
        cells[k].image = "minesweep_bomb"


def open_block(bk):
    bk.isopen = True
    bombnum = get_bomb_number(bk)
    bk.image = "minesweep_number" + str(bombnum)
    if bombnum != 0:
        return
    for cell in get_neighbours(bk):
        if not cell.isopen:
            open_block(cell)


def get_bomb_number(bk):
    num = 0
    for cell in get_neighbours(bk):
        if cell.isbomb:
            num += 1
    return num


# 8 ge linju: x he y dou cha bu dao yi ge ge zi
def get_neighbours(bk):
    nb = []
    for cell in cells:
        if cell.isopen:
            continue
        if abs(cell.x - bk.x) < SIZE and abs(cell.y - bk.y) < SIZE:
            nb.append(cell)
    return nb


pgzrun.go()
