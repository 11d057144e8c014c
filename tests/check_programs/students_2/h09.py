import pgzrun
import random

炸弹数 = 20
ROWS = 15
COLS = 15
SIZE = 25
WIDTH = SIZE * COLS
HEIGHT = SIZE * ROWS
failed = False
finished = False
blocks = []

# 摆好所有方块
for 行 in range(ROWS):
    for 列 in range(COLS):
        方块 = Actor("minesweep_block")
        方块.left = 列 * SIZE
        方块.top = 行 * SIZE
        方块.isbomb = False
        方块.isopen = False
        方块.isflag = False
        blocks.append(方块)

random.shuffle(blocks)
for n in range(炸弹数):
    blocks[n].isbomb = True


def update():
    global finished
    if finished or failed:
        return
    for b in blocks:
        if not b.isbomb and not b.isopen:
            return
    finished = True
    sounds.win.play()


def draw():
    for b in blocks:
        b.draw()
    if failed:
        screen.draw.text("Failed", center=(WIDTH // 2, HEIGHT // 2), fontsize=100, color="red")
    elif finished:
        screen.draw.text("Finished", center=(WIDTH // 2, HEIGHT // 2), fontsize=100, color="red")


def on_mouse_down(pos, button):
    if failed or finished:
        return
    for b in blocks:
        if not b.collidepoint(pos) or b.isopen:
            continue
        if button == mouse.LEFT:
            if b.isflag:
                continue
            if b.isbomb:
                blow_up()
            else:
                open_block(b)
        elif button == mouse.RIGHT:
            set_flag(b)


def set_flag(b):
    b.isflag = not b.isflag
    if b.isflag:
        b.image = "minesweep_flag"
    else:
        b.image = "minesweep_block"


def blow_up():
    global failed
    failed = True
    sounds.bomb.play()
    for b in blocks:
        if b.isbomb:
            b.image = "minesweep_bomb"


def open_block(bk):
    bk.isopen = True
    数 = get_bomb_number(bk)
    bk.image = f"minesweep_number{数}"
    if 数 > 0:
        return
    for b in get_neighbours(bk):
        if not b.isopen:
            open_block(b)


def get_bomb_number(bk):
    return len([b for b in get_neighbours(bk) if b.isbomb])


# 周围的方块：x 和 y 都最多差一个 SIZE，而且不是它自己
def get_neighbours(bk):
    邻居 = []
    for b in blocks:
        if b.isopen or b is bk:
            continue
        if abs(b.x - bk.x) <= SIZE and abs(b.y - bk.y) <= SIZE:
            邻居.append(b)
    return 邻居


pgzrun.go()
