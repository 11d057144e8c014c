# -*- coding: utf-8 -*-
# Minesweeper source code, step 08 of 11: opening blocks by recursion (3.3.2 to 3.3.4)

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
        block.isopen = False        # has it been opened?
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
        if block.collidepoint(pos) and not block.isopen:
            # the right button
            if button == mouse.RIGHT:
                set_flag(block)
            # the left button, on a block without a flag
            elif button == mouse.LEFT and not block.isflag:
                if block.isbomb:
                    blow_up()
                else:
                    open_block(block)


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
def blow_up():
    pass


# Open a block: the recursive function.
def open_block(bk):
    # The plan first, in pseudo-code:
    #     mark bk open, and show how many bombs are around it
    #     if that number is not 0:  stop here
    #     else:                     open each closed block around bk the same way
    bk.isopen = True  # NEW
    bombnum = get_bomb_number(bk)  # NEW
    bk.image = "minesweep_number" + str(bombnum)  # NEW
    # A number: the recursion stops here.
    if bombnum != 0:  # NEW
        return  # NEW
    # No bomb around bk: open the blocks around it the same way (recursion).
    for block in get_neighbours(bk):  # NEW
        if not block.isopen :  # NEW
            open_block(block)  # NEW


# How many bombs are around the block bk.
def get_bomb_number(bk):  # NEW
    num = 0  # NEW
    for block in get_neighbours(bk):  # NEW
        if block.isbomb:  # NEW
            num += 1  # NEW
    return num  # NEW


# The closed blocks around the block bk: up to 8, diagonals too. A block
# next to bk is SIZE pixels away across, down, or both. The condition is
# long, so each line but the last ends in a backslash \ and goes on below.
def get_neighbours(bk):  # NEW
    nblocks = []  # NEW
    for block in blocks:  # NEW
        if block.isopen:  # NEW
            continue  # NEW
        if block.x == bk.x - SIZE and block.y == bk.y \
          or block.x == bk.x + SIZE and block.y == bk.y \
          or block.x == bk.x and block.y == bk.y - SIZE \
          or block.x == bk.x and block.y == bk.y + SIZE \
          or block.x == bk.x - SIZE and block.y == bk.y - SIZE \
          or block.x == bk.x + SIZE and block.y == bk.y - SIZE \
          or block.x == bk.x - SIZE and block.y == bk.y + SIZE \
          or block.x == bk.x + SIZE and block.y == bk.y + SIZE :  # NEW
            nblocks.append(block)  # NEW
    return nblocks  # NEW


pgzrun.go()  # RUN

# open_block calls itself, so one click can open a whole area. A bomb does
# nothing yet. A click that opens a big area takes about a second here:
# step 11 shows why, and makes it fast.
# Run it:  pgzrun chapter/step08_recursion.py  (or Run in Thonny or IDLE)
# FIX f: line 1 says utf-8, not the book's gb18030, and only English letters
# (ASCII) are in this file, so every computer reads it the same way.
# Marks at the end of a line:
#   NEW    the book shows this line first in this section
#   RUN    not in the book: lets the Run button of Thonny or IDLE start it
# A line that ends in a backslash \ goes on in the next line, and the mark
# at the end of the last line is for all of them.
