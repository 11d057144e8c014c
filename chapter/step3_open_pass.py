# Chapter 3, step 3a (section 3.3.1): a left click now calls blow_up on a
# bomb and open_block on a safe tile; both only hold their place ("pass").
# Run it with:  pgzrun chapter/step3_open_pass.py
# or open it in Thonny or IDLE and press Run.
#
# The lines this step adds end in "# NEW", like the bold lines of the book.
# This file is ASCII only, so it runs on every computer (fix f in the README).
import pgzrun
import random

BOMBS = 20               # how many bombs
ROWS = 15                # rows of tiles
COLS = 15                # columns of tiles
SIZE = 25                # size of one tile, px
WIDTH = SIZE * COLS      # window width, px
HEIGHT = SIZE * ROWS     # window height, px
blocks = []              # every tile on the board

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
        block.isopen = False  # NEW
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
        if block.isopen:  # NEW
            continue  # NEW
        if block.collidepoint(pos):
            if button == mouse.RIGHT:
                set_flag(block)
            # 3.3.1 A left click opens a tile that has no flag on it.
            elif button == mouse.LEFT and not block.isflag:  # NEW
                if block.isbomb:  # NEW
                    blow_up()  # NEW
                else:  # NEW
                    open_block(block)  # NEW


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
def blow_up():  # NEW
    pass  # NEW


# 3.3.1 Open a tile. Not written yet: "pass" holds the place.
def open_block(bk):  # NEW
    pass  # NEW


pgzrun.go()
