# -*- coding: utf-8 -*-
# Minesweeper source code, step 11 of 11: the book's game with our fixes (After 3.4.2)

import pgzrun  # RUN
import random
import pygame  # FIX e
import sys  # FIX c

BOMBS = 20               # how many bombs
ROWS = 15                # rows of blocks
COLS = 15                # columns of blocks
SIZE = 25                # size of a block, in pixels
WIDTH = SIZE * COLS      # width of the window
HEIGHT = SIZE * ROWS     # height of the window
failed = False           # has the player lost?
finished = False         # has the player won?
blocks = []              # the list of all blocks

# FIX c: open_block calls itself before it returns, so in a big empty area
# hundreds of calls wait inside each other. Python allows only about 1000,
# and an empty board of about 35 x 35 to 40 x 40 needs more (it depends on
# where you click), so the limit is raised to the number of blocks.
sys.setrecursionlimit(max(1000, ROWS * COLS + 100))  # FIX c

# Put every block on the scene: i is its row, j its column.
for i in range(ROWS):
    for j in range(COLS):
        block = Actor("minesweep_block")
        block.left = j * SIZE       # how far across
        block.top = i * SIZE        # how far down
        block.isbomb = False        # is a bomb buried under it?
        block.isopen = False        # has it been opened?
        block.isflag = False        # is there a flag on it?
        # FIX a: each block remembers its row and column, so finding the
        # blocks around it needs two small numbers, not x and y eight times.
        block.row = i  # FIX a
        block.col = j  # FIX a
        blocks.append(block)

# Mix up the order of the list, so the first BOMBS blocks can be anywhere.
random.shuffle(blocks)

# Bury the bombs under the first BOMBS blocks of the list.
for i in range(BOMBS):
    blocks[i].isbomb = True


# Update the game: Pygame Zero calls update() many times a second, so this
# is where the game sees that the player has won.
def update():
    global finished
    if finished or failed:
        return
    # Is every block without a bomb open? One that is still closed: not yet.
    for block in blocks:
        if not block.isbomb and not block.isopen:
            return
    finished = True
    # FIX e: with no sound card there is no mixer, and then playing a sound
    # stops the game with an error. Play it only if there is a mixer.
    if pygame.mixer.get_init():  # FIX e
        sounds.win.play()


# Draw the game: every block draws itself.
def draw():
    for block in blocks:
        block.draw()
    if finished:
        screen.draw.text("Finished", center=(WIDTH // 2, HEIGHT // 2),
                         fontsize=100, color="red")
    elif failed:
        screen.draw.text("Failed", center=(WIDTH // 2, HEIGHT // 2),
                         fontsize=100, color="red")


# Handle a click of the mouse. pos is where it was, button which button.
def on_mouse_down(pos, button):
    # Once the game is over, a click does nothing.
    if failed or finished:
        return
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
    global failed
    failed = True
    # FIX e: with no sound card there is no mixer, and then playing a sound
    # stops the game with an error. Play it only if there is a mixer.
    if pygame.mixer.get_init():  # FIX e
        sounds.bomb.play()
    # FIX d: ask each block if it hides a bomb. blocks[0] to blocks[19] are
    # the bombs only as long as nothing changes the order of the list.
    for block in blocks:  # FIX d
        if block.isbomb:  # FIX d
            block.image = "minesweep_bomb"  # FIX d


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
    # FIX b: the player put a flag there on purpose, so the opening does
    # not open a block with a flag (the book's code opened it).
    for block in get_neighbours(bk):
        if not block.isopen and not block.isflag:  # FIX b
            open_block(block)


# How many bombs are around the block bk.
def get_bomb_number(bk):
    num = 0
    for block in get_neighbours(bk):
        if block.isbomb:
            num += 1
    return num


# The closed blocks around the block bk: up to 8, diagonals too.
def get_neighbours(bk):
    nblocks = []
    for block in blocks:
        if block.isopen:
            continue
        # FIX a: a block next to bk is at most one row and one column away,
        # and is not bk. Pygame Zero works block.x and block.y out each time
        # they are read, and the book read them up to 16 times a block.
        if abs(block.row - bk.row) <= 1 and abs(block.col - bk.col) <= 1 \
          and block is not bk:  # FIX a
            nblocks.append(block)
    return nblocks


pgzrun.go()  # RUN

# It plays as step 10 does, but a click that opens an area is fast (FIX a),
# a flag stops the opening (FIX b), a huge board works (FIX c), and the
# bombs are shown by asking each block (FIX d).
# Run it:  pgzrun chapter/step11_fixes.py  (or Run in Thonny or IDLE)
# FIX f: line 1 says utf-8, not the book's gb18030, and only English letters
# (ASCII) are in this file, so every computer reads it the same way.
# Marks at the end of a line:
#   FIX a, FIX b, FIX c, FIX d
#          not in the book: each changes what the book's code does, and
#          the comment above it says why
#   FIX e  not in the book: without it the step stops with an error on a
#          computer that has no sound card
#   RUN    not in the book: lets the Run button of Thonny or IDLE start it
# A line that ends in a backslash \ goes on in the next line, and the mark
# at the end of the last line is for all of them.
