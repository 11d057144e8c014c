# -*- coding: utf-8 -*-
# Minesweeper source code, step 03 of 11: burying the bombs at random (3.1.4)

import pgzrun  # RUN
import random  # NEW

BOMBS = 20               # how many bombs
ROWS = 15                # rows of blocks
COLS = 15                # columns of blocks
SIZE = 25                # size of a block, in pixels
WIDTH = SIZE * COLS      # width of the window
HEIGHT = SIZE * ROWS     # height of the window
blocks = []              # the list of all blocks

# Put every block on the scene: i is its row, j its column.
for i in range(ROWS):
    for j in range(COLS):
        block = Actor("minesweep_block")
        block.left = j * SIZE       # how far across
        block.top = i * SIZE        # how far down
        block.isbomb = False        # is a bomb buried under it?
        blocks.append(block)

# Mix up the order of the list, so the first BOMBS blocks can be anywhere.
random.shuffle(blocks)  # NEW

# Bury the bombs under the first BOMBS blocks of the list.
for i in range(BOMBS):
    blocks[i].isbomb = True
    blocks[i].image = "minesweep_bomb"  # PEEK


# Draw the game: every block draws itself.
def draw():
    for block in blocks:
        block.draw()


pgzrun.go()  # RUN

# random.shuffle mixes up the list first, so the bombs move every game.
# Run it:  pgzrun chapter/step03_shuffle.py  (or Run in Thonny or IDLE)
# FIX f: line 1 says utf-8, not the book's gb18030, and only English letters
# (ASCII) are in this file, so every computer reads it the same way.
# Marks at the end of a line:
#   NEW    the book shows this line first in this section
#   PEEK   not in the book: shows the bombs, so the class can see where
#          they are; delete the line and the bombs are hidden, as in the game
#   RUN    not in the book: lets the Run button of Thonny or IDLE start it
