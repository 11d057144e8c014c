# Chapter 3, step 4 (section 3.4): the game can be lost (a bomb goes off:
# "Failed") and won (every safe tile open: "Finished"). The game is complete.
# Run it with:  pgzrun chapter/step4_win_lose.py
# or open it in Thonny or IDLE and press Run.
#
# The lines this step adds end in "# NEW", like the bold lines of the book.
# This file is ASCII only, so it runs on every computer (fix f in the README).
import pgzrun
import random
import sys

import pygame  # NEW

BOMBS = 20               # how many bombs
ROWS = 15                # rows of tiles
COLS = 15                # columns of tiles
SIZE = 25                # size of one tile, px
WIDTH = SIZE * COLS      # window width, px
HEIGHT = SIZE * ROWS     # window height, px
blocks = []              # every tile on the board
failed = False           # did a bomb go off?  # NEW
finished = False         # is every safe tile open?  # NEW

# Fix c: open_block calls itself once for each tile of an empty area, and
# Python allows only about 1000 calls inside each other: big boards need more.
sys.setrecursionlimit(max(1000, ROWS * COLS + 100))

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
        block.row = i
        block.col = j
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
    # 3.4 Say how the game ended, in the middle of the window.
    if finished:  # NEW
        screen.draw.text("Finished", center=(WIDTH // 2, HEIGHT // 2),  # NEW
                         fontsize=100, color="red")  # NEW
    elif failed:  # NEW
        screen.draw.text("Failed", center=(WIDTH // 2, HEIGHT // 2),  # NEW
                         fontsize=100, color="red")  # NEW


# 3.2.1 A mouse click: collidepoint tells which tile is under the mouse,
# and the button tells what to do with it.
def on_mouse_down(pos, button):
    # 3.4 Once the game has ended, clicks do nothing.
    if failed or finished:  # NEW
        return  # NEW
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


# 3.4.1 A bomb goes off: the game is lost, it bangs, and every bomb shows.
def blow_up():
    global failed  # NEW
    failed = True  # NEW
    # Fix e: a computer without a sound card cannot play sounds, and the
    # book's code stopped with an error there. Ask the mixer first.
    if pygame.mixer.get_init():  # NEW
        sounds.bomb.play()  # NEW
    # Fix d: the book showed blocks[0] to blocks[BOMBS - 1], the bombs only
    # while nothing has changed the list's order. Ask every tile instead.
    for block in blocks:  # NEW
        if block.isbomb:  # NEW
            block.image = "minesweep_bomb"  # NEW


# 3.3.4 Open a tile: the recursive function. The pseudo-code first:
#     mark the tile open and show how many bombs are around it
#     if that number is not 0: stop here (return)
#     else: open every closed neighbour the same way
def open_block(bk):
    bk.isopen = True
    bombnum = get_bomb_number(bk)
    bk.image = "minesweep_number" + str(bombnum)
    # Where the recursion stops: a tile with a number.
    if bombnum != 0:
        return
    # Where it calls itself: no bomb around, so every neighbour is safe.
    # It skips tiles already open, and (fix b) tiles with a flag: the
    # player put the flag there on purpose, and the book's code opened it.
    for block in get_neighbours(bk):
        if not block.isopen and not block.isflag:
            open_block(block)


# 3.3.2 The closed tiles around this one: at most 8, diagonals too.
def get_neighbours(bk):
    nblocks = []
    for block in blocks:
        if block.isopen:
            continue
        # Fix a: one row and one column away at most, and not bk itself.
        # The book compared x and y in eight ways, which took about a
        # second for every click that opens an area.
        if (abs(block.row - bk.row) <= 1 and abs(block.col - bk.col) <= 1
                and block is not bk):
            nblocks.append(block)
    return nblocks


# 3.3.3 How many bombs are around this tile.
def get_bomb_number(bk):
    num = 0
    for block in get_neighbours(bk):
        if block.isbomb:
            num += 1
    return num


# 3.4.2 The game is won when every tile without a bomb is open.
# Pygame Zero calls update() many times a second, so it checks here.
def update():  # NEW
    global finished  # NEW
    if finished or failed:  # NEW
        return  # NEW
    for block in blocks:  # NEW
        if not block.isbomb and not block.isopen:  # NEW
            return  # NEW
    finished = True  # NEW
    if pygame.mixer.get_init():  # NEW
        sounds.win.play()  # NEW


pgzrun.go()
