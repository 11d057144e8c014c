# Chapter 3, step 1 (sections 3.1.2 to 3.1.4): a 15 x 15 board of tiles
# with 20 bombs hidden under them. Nothing answers the mouse yet.
# Run it with:  pgzrun chapter/step1_tiles.py
# or open it in Thonny or IDLE and press Run.
#
# Every line here is new. In the later steps the lines that step adds end
# in "# NEW", like the bold lines of the book.
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


pgzrun.go()
