# minesweeper - chapter 3
# written by me, Thonny pygame zero mode

import random

BOMBS = 20
ROWS = 15
COLS = 15
SIZE = 25
WIDTH = SIZE*COLS
HEIGHT = SIZE*ROWS
failed = False
finished = False
tiles = []

for r in range(ROWS):
    for c in range(COLS):
        t = Actor("minesweep_block")
        t.left = c*SIZE
        t.top = r*SIZE
        t.isbomb = False
        t.isopen = False
        t.isflag = False
        tiles.append(t)

random.shuffle(tiles)
for t in tiles[:BOMBS]:
    t.isbomb = True


def update():
    global finished
    if finished or failed:
        return
    if all(t.isopen for t in tiles if not t.isbomb):
        finished = True
        sounds.win.play()


def draw():
    screen.clear()
    for t in tiles:
        t.draw()
    if finished:
        screen.draw.text("Finished", center=(WIDTH//2, HEIGHT//2), fontsize=100, color="red")
    elif failed:
        screen.draw.text("Failed", center=(WIDTH//2, HEIGHT//2), fontsize=100, color="red")


def on_mouse_down(pos, button):
    if failed or finished:
        return
    for t in tiles:
        if t.collidepoint(pos) and not t.isopen:
            if button == mouse.RIGHT:
                set_flag(t)
            elif button == mouse.LEFT and not t.isflag:
                if t.isbomb:
                    blow_up()
                else:
                    open_block(t)


def set_flag(t):
    t.isflag = not t.isflag
    if t.isflag:
        t.image = "minesweep_flag"
    else:
        t.image = "minesweep_block"


def blow_up():
    global failed
    failed = True
    sounds.bomb.play()
    for t in tiles:
        if t.isbomb:
            t.image = "minesweep_bomb"


def open_block(bk):
    bk.isopen = True
    n = get_bomb_number(bk)
    bk.image = "minesweep_number" + str(n)
    if n != 0:
        return
    for t in get_neighbours(bk):
        if not t.isopen:
            open_block(t)


def get_bomb_number(bk):
    return len([t for t in get_neighbours(bk) if t.isbomb])


def get_neighbours(bk):
    result = []
    for t in tiles:
        if t.isopen:
            continue
        if t.x == bk.x - SIZE and t.y == bk.y \
          or t.x == bk.x + SIZE and t.y == bk.y \
          or t.x == bk.x and t.y == bk.y - SIZE \
          or t.x == bk.x and t.y == bk.y + SIZE \
          or t.x == bk.x - SIZE and t.y == bk.y - SIZE \
          or t.x == bk.x + SIZE and t.y == bk.y - SIZE \
          or t.x == bk.x - SIZE and t.y == bk.y + SIZE \
          or t.x == bk.x + SIZE and t.y == bk.y + SIZE:
            result.append(t)
    return result
