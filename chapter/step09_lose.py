# -*- coding: utf-8 -*-
# Minesweeper source code, step 09 of 11: losing the game (3.4.1)

import pgzrun  # RUN
import random
import pygame  # FIX e

BOMBS = 20               # how many bombs
ROWS = 15                # rows of blocks
COLS = 15                # columns of blocks
SIZE = 25                # size of a block, in pixels
WIDTH = SIZE * COLS      # width of the window
HEIGHT = SIZE * ROWS     # height of the window
failed = False           # has the player lost?  # NEW
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
    if failed:  # NEW
        screen.draw.text("Failed", center=(WIDTH // 2, HEIGHT // 2),  # NEW
                         fontsize=100, color="red")  # NEW


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


# A bomb goes off: the game is lost, and every bomb shows.
def blow_up():
    global failed  # NEW
    failed = True  # NEW
    # FIX e: with no sound card there is no mixer, and then playing a sound
    # stops the game with an error. Play it only if there is a mixer.
    if pygame.mixer.get_init():  # FIX e
        sounds.bomb.play()  # NEW
    for i in range(BOMBS):  # NEW
        blocks[i].image = "minesweep_bomb"  # NEW


# Open a block: the recursive function.
def open_block(bk):
    # The plan first, in pseudo-code:
    #     mark bk open, and show how many bombs are around it
    #     if that number is not 0:  stop here
    #     else:                     open each closed block around bk the same way
    bk.isopen = True
    bombnum = get_bomb_number(bk)
    bk.image = "minesweep_number" + str(bombnum)
    # A number: the recursion stops here.
    if bombnum != 0:
        return
    # No bomb around bk: open the blocks around it the same way (recursion).
    for block in get_neighbours(bk):
        if not block.isopen :
            open_block(block)


# How many bombs are around the block bk.
def get_bomb_number(bk):
    num = 0
    for block in get_neighbours(bk):
        if block.isbomb:
            num += 1
    return num


# The closed blocks around the block bk: up to 8, diagonals too. A block
# next to bk is SIZE pixels away across, down, or both. The condition is
# long, so each line but the last ends in a backslash \ and goes on below.
def get_neighbours(bk):
    nblocks = []
    for block in blocks:
        if block.isopen:
            continue
        if block.x == bk.x - SIZE and block.y == bk.y \
          or block.x == bk.x + SIZE and block.y == bk.y \
          or block.x == bk.x and block.y == bk.y - SIZE \
          or block.x == bk.x and block.y == bk.y + SIZE \
          or block.x == bk.x - SIZE and block.y == bk.y - SIZE \
          or block.x == bk.x + SIZE and block.y == bk.y - SIZE \
          or block.x == bk.x - SIZE and block.y == bk.y + SIZE \
          or block.x == bk.x + SIZE and block.y == bk.y + SIZE :
            nblocks.append(block)
    return nblocks


pgzrun.go()  # RUN

# A left click on a bomb: a bang, every bomb shows, and "Failed".
# Run it:  pgzrun chapter/step09_lose.py  (or Run in Thonny or IDLE)
# FIX f: line 1 says utf-8, not the book's gb18030, and only English letters
# (ASCII) are in this file, so every computer reads it the same way.
# Marks at the end of a line:
#   NEW    the book shows this line first in this section
#   FIX e  not in the book: without it the step stops with an error on a
#          computer that has no sound card
#   RUN    not in the book: lets the Run button of Thonny or IDLE start it
# A line that ends in a backslash \ goes on in the next line, and the mark
# at the end of the last line is for all of them.
