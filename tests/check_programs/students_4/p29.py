# saolei youxi
import random

BOMBS = 20
ROWS = 15
COLS = 15
SIZE = 25
WIDTH = SIZE * COLS
HEIGHT = SIZE * ROWS
failed = False
finished = False
blocks = []

# zuo 15*15 ge fangkuai
for i in range(ROWS):
    for j in range(COLS):
        b = Actor("minesweep_block")
        b.left = j * SIZE
        b.top = i * SIZE
        b.isbomb = False
        b.isopen = False
        b.isflag = False
        blocks.append(b)

random.shuffle(blocks)
for i in range(BOMBS):
    blocks[i].isbomb = True


def draw():
    for b in blocks:
        b.draw()
    if finished:
        screen.draw.text("Finished", center=(WIDTH // 2, HEIGHT // 2), fontsize=100, color="red")
    elif failed:
        screen.draw.text("Failed", center=(WIDTH // 2, HEIGHT // 2), fontsize=100, color="red")


def on_mouse_down(pos, button):
    if failed or finished:
        return
    for b in blocks:
        if b.collidepoint(pos) and not b.isopen:
            if button == mouse.RIGHT:
                set_flag(b)
            elif button == mouse.LEFT and not b.isflag:
                if b.isbomb:
                    blow_up()
                else:
                    open_block(b)


def set_flag(b):
    if not b.isflag:
        b.image = "minesweep_flag"
        b.isflag = True
    else:
        b.image = "minesweep_block"
        b.isflag = False


def blow_up():
    global failed
    failed = True
    sounds.bomb.play()
    for i in range(BOMBS):
        blocks[i].image = "minesweep_bomb"


def open_block(bk):
    bk.isopen = True
    bombnum = get_bomb_number(bk)
    bk.image = "minesweep_number" + str(bombnum)
    if bombnum != 0:
        return
    for b in get_neighbours(bk):
        if not b.isopen:
            open_block(b)


def get_neighbours(bk):
    nblocks = []
    for b in blocks:
        if b.isopen:
            continue
        if b.x == bk.x - SIZE and b.y == bk.y \
          or b.x == bk.x + SIZE and b.y == bk.y \
          or b.x == bk.x and b.y == bk.y - SIZE \
          or b.x == bk.x and b.y == bk.y + SIZE \
          or b.x == bk.x - SIZE and b.y == bk.y - SIZE \
          or b.x == bk.x + SIZE and b.y == bk.y - SIZE \
          or b.x == bk.x - SIZE and b.y == bk.y + SIZE \
          or b.x == bk.x + SIZE and b.y == bk.y + SIZE :
            nblocks.append(b)
    return nblocks


def get_bomb_number(bk):
    num = 0
    for b in get_neighbours(bk):
        if b.isbomb:
            num += 1
    return num


# panduan ying le mei you
def update():
    global finished
    if finished or failed:
        return
    for b in blocks:
        if not b.isbomb or not b.isopen:
            return
    finished = True
    sounds.win.play()
