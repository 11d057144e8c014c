# Chapter 3, step 3b (sections 3.3.2 to 3.3.4): open_block is written, and it
# calls itself, so one click on a tile with no bomb around opens a whole area.
# Run it with:  pgzrun chapter/step3_recursion.py
# or open it in Thonny or IDLE and press Run.
#
# The lines this step adds end in "# NEW", like the bold lines of the book.
# This file is ASCII only, so it runs on every computer (fix f in the README).
import pgzrun
import random
import sys  # NEW

BOMBS = 20               # how many bombs
ROWS = 15                # rows of tiles
COLS = 15                # columns of tiles
SIZE = 25                # size of one tile, px
WIDTH = SIZE * COLS      # window width, px
HEIGHT = SIZE * ROWS     # window height, px
blocks = []              # every tile on the board

# Fix c: open_block calls itself once for each tile of an empty area, and
# Python allows only about 1000 calls inside each other: big boards need more.
sys.setrecursionlimit(max(1000, ROWS * COLS + 100))  # NEW

# 3.1.3 A double loop makes the tiles: i counts the rows, j the columns.
for i in range(ROWS):
    for j in range(COLS):
        block = Actor("minesweep_block")
        block.left = j * SIZE        # across: the column times the size
        block.top = i * SIZE         # down: the row times the size
        block.isbomb = False         # is a bomb hidden under this tile?
        # 3.2.2 Is there a flag on this tile? Not at the start.
        block.isflag = False
        # 3.3.1 Has the tile been opened? Not at the start.
        block.isopen = False
        # Fix a: each tile remembers its row and column, so its neighbours
        # are found by comparing two small numbers, not pixel positions.
        block.row = i  # NEW
        block.col = j  # NEW
        blocks.append(block)

# 3.1.4 Shuffle the tiles, then give bombs to the first BOMBS of them,
# so the bombs lie somewhere new in every game.
random.shuffle(blocks)
for i in range(BOMBS):
    blocks[i].isbomb = True


# Draw the game: every tile draws itself.
def draw():
    for block in blocks:
        block.draw()


# 3.2.1 A mouse click: collidepoint tells which tile is under the mouse,
# and the button tells what to do with it.
def on_mouse_down(pos, button):
    for block in blocks:
        # 3.3.1 An open tile takes no more clicks, left or right.
        if block.isopen:
            continue
        if block.collidepoint(pos):
            if button == mouse.RIGHT:
                set_flag(block)
            # 3.3.1 A left click opens a tile that has no flag on it.
            elif button == mouse.LEFT and not block.isflag:
                if block.isbomb:
                    blow_up()
                else:
                    open_block(block)


# 3.2.2 Put a flag on a tile, or take it off. The pseudo-code first:
#     if the tile has no flag: show the flag picture, and now it has one
#     else: show the plain tile again, and now it has none
def set_flag(block):
    if not block.isflag:
        block.image = "minesweep_flag"
        block.isflag = True
    else:
        block.image = "minesweep_block"
        block.isflag = False


# 3.3.1 A bomb goes off. Not written yet: "pass" holds the place.
def blow_up():
    pass


# 3.3.4 Open a tile: the recursive function. The pseudo-code first:
#     mark the tile open and show how many bombs are around it
#     if that number is not 0: stop here (return)
#     else: open every closed neighbour the same way
def open_block(bk):
    bk.isopen = True  # NEW
    bombnum = get_bomb_number(bk)  # NEW
    bk.image = "minesweep_number" + str(bombnum)  # NEW
    # Where the recursion stops: a tile with a number.
    if bombnum != 0:  # NEW
        return  # NEW
    # Where it calls itself: no bomb around, so every neighbour is safe.
    # It skips tiles already open, and (fix b) tiles with a flag: the
    # player put the flag there on purpose, and the book's code opened it.
    for block in get_neighbours(bk):  # NEW
        if not block.isopen and not block.isflag:  # NEW
            open_block(block)  # NEW


# 3.3.2 The closed tiles around this one: at most 8, diagonals too.
def get_neighbours(bk):  # NEW
    nblocks = []  # NEW
    for block in blocks:  # NEW
        if block.isopen:  # NEW
            continue  # NEW
        # Fix a: one row and one column away at most, and not bk itself.
        # The book compared x and y in eight ways, which took about a
        # second for every click that opens an area.
        if (abs(block.row - bk.row) <= 1 and abs(block.col - bk.col) <= 1  # NEW
                and block is not bk):  # NEW
            nblocks.append(block)  # NEW
    return nblocks  # NEW


# 3.3.3 How many bombs are around this tile.
def get_bomb_number(bk):  # NEW
    num = 0  # NEW
    for block in get_neighbours(bk):  # NEW
        if block.isbomb:  # NEW
            num += 1  # NEW
    return num  # NEW


pgzrun.go()
