import pgzrun
import random

ROWS = 15
COLS = 15
SIZE = 25
WIDTH = SIZE * COLS
HEIGHT = SIZE * ROWS
MINES = 20
failed = False
finished = False
blocks = []

for row in range(ROWS):
    for column in range(COLS):
        tile = Actor("minesweep_block")
        tile.left = column * SIZE
        tile.top = row * SIZE
        tile.isbomb = False
        tile.isopen = False
        tile.isflag = False
        blocks.append(tile)

random.shuffle(blocks)
for tile in blocks[:MINES]:
    tile.isbomb = True


def update():
    global finished
    if finished or failed:
        return
    if all(t.isopen for t in blocks if not t.isbomb):
        finished = True
        sounds.win.play()


def draw():
    screen.clear()
    for tile in blocks:
        tile.draw()
    if failed:
        screen.draw.text("Failed", center=(WIDTH // 2, HEIGHT // 2), fontsize=100, color="red")
    elif finished:
        screen.draw.text("Finished", center=(WIDTH // 2, HEIGHT // 2), fontsize=100, color="red")


def on_mouse_down(pos, button):
    if failed or finished:
        return
    for tile in blocks:
        if not tile.collidepoint(pos) or tile.isopen:
            continue
        if button == mouse.LEFT:
            if tile.isflag:
                return
            if tile.isbomb:
                blow_up()
            else:
                open_block(tile)
        elif button == mouse.RIGHT:
            set_flag(tile)
        return


def set_flag(tile):
    tile.isflag = not tile.isflag
    if tile.isflag:
        tile.image = "minesweep_flag"
    else:
        tile.image = "minesweep_block"


def blow_up():
    global failed
    failed = True
    sounds.bomb.play()
    for tile in blocks:
        if tile.isbomb:
            tile.image = "minesweep_bomb"


def open_block(tile):
    tile.isopen = True
    n = get_bomb_number(tile)
    tile.image = f"minesweep_number{n}"
    if n > 0:
        return
    for other in get_neighbours(tile):
        if not other.isopen:
            open_block(other)


def get_bomb_number(tile):
    return sum(1 for other in get_neighbours(tile) if other.isbomb)


def get_neighbours(tile):
    result = []
    for other in blocks:
        if other.isopen or other is tile:
            continue
        if abs(other.x - tile.x) <= SIZE and abs(other.y - tile.y) <= SIZE:
            result.append(other)
    return result


pgzrun.go()
