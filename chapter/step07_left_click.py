# -*- coding: utf-8 -*-
# Minesweeper source code, step 07 of 11: the whole mouse click (3.3.1)

import pgzrun  # RUN
import random

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
        block.isopen = False        # has it been opened?  # NEW
        block.isflag = False        # is there a flag on it?
        blocks.append(block)

# Mix up the order of the list, so the first BOMBS blocks can be anywhere.
random.shuffle(blocks)

# Bury the bombs under the first BOMBS blocks of the list.
for i in range(BOMBS):
    blocks[i].isbomb = True


# Draw the game: every block draws itself.
def draw():
    for block in blocks:
        block.draw()


# Handle a click of the mouse. pos is where it was, button which button.
def on_mouse_down(pos, button):
    for block in blocks:
        # Is the click inside this block, and is the block still closed?
        if block.collidepoint(pos) and not block.isopen:  # NEW
            # the right button
            if button == mouse.RIGHT:
                set_flag(block)
            # the left button, on a block without a flag
            elif button == mouse.LEFT and not block.isflag:  # NEW
                if block.isbomb:  # NEW
                    blow_up()  # NEW
                else:  # NEW
                    open_block(block)  # NEW


# Put a flag on a block, or take it off.
def set_flag(block):
    # The plan first, in pseudo-code:
    #     if the block has no flag:  show the flag, and now it has one
    #     else:                      show the plain block, and now it has none
    if not block.isflag:
        block.image = "minesweep_flag"
        block.isflag = True
    else:
        block.image = "minesweep_block"
        block.isflag = False


# A bomb goes off. Not written yet: "pass" keeps the place.
def blow_up():  # NEW
    pass  # NEW


# Open a block. Not written yet: "pass" keeps the place.
def open_block(bk):  # NEW
    pass  # NEW


pgzrun.go()  # RUN

# A left click calls blow_up on a bomb and open_block on a safe block;
# both are only "pass" yet, so nothing shows.
# Run it:  pgzrun chapter/step07_left_click.py  (or Run in Thonny or IDLE)
# FIX f: line 1 says utf-8, not the book's gb18030, and only English letters
# (ASCII) are in this file, so every computer reads it the same way.
# Marks at the end of a line:
#   NEW    the book shows this line first in this section (in bold here)
#   RUN    not in the book: lets the Run button of Thonny or IDLE start it
