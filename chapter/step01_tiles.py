# -*- coding: utf-8 -*-
# Minesweeper source code, step 01 of 11: the scene and the blocks (3.1.2 and 3.1.3)

import pgzrun  # RUN

ROWS = 15                # rows of blocks  # NEW
COLS = 15                # columns of blocks  # NEW
SIZE = 25                # size of a block, in pixels  # NEW
WIDTH = SIZE * COLS      # width of the window  # NEW
HEIGHT = SIZE * ROWS     # height of the window  # NEW
blocks = []              # the list of all blocks  # NEW

# Put every block on the scene: i is its row, j its column.
for i in range(ROWS):  # NEW
    for j in range(COLS):  # NEW
        block = Actor("minesweep_block")  # NEW
        block.left = j * SIZE       # how far across  # NEW
        block.top = i * SIZE        # how far down  # NEW
        blocks.append(block)  # NEW


# Draw the game: every block draws itself.
def draw():  # NEW
    for block in blocks:  # NEW
        block.draw()  # NEW


pgzrun.go()  # RUN

# 225 closed blocks, 15 rows of 15. Nothing answers the mouse yet.
# Run it:  pgzrun chapter/step01_tiles.py  (or Run in Thonny or IDLE)
# FIX f: line 1 says utf-8, not the book's gb18030, and only English letters
# (ASCII) are in this file, so every computer reads it the same way.
# Marks at the end of a line:
#   NEW    the book shows this line first in this section
#   RUN    not in the book: lets the Run button of Thonny or IDLE start it
