# Minesweeper for Pygame Zero, after the chapter "The power of recursive
# functions: Minesweeper". Run it with:   pgzrun minesweep.py
# or open it in Thonny or IDLE and press Run (python minesweep.py).
#
# Sections 3.1 to 3.4 follow the chapter. The sections marked
# "BEYOND THE CHAPTER" add what the classic desktop games have, and more.
# Beside this file: solver.py (the hints' reasoning), images/, sounds/,
# fonts/ and texts/ (the Chinese words); chapter/ builds the game step by
# step, as the chapter does.
# Keep this file ASCII only: pgzero reads it in the computer's own encoding.

import pgzrun
import argparse
import atexit
import functools
import inspect
import json
import locale
import os
import random
import re
import signal
import stat
import sys
import threading
import time

import pgzero
import pgzero.loaders
import pgzero.ptext
import pygame
from pgzero.loaders import UnsupportedFormat

# The solver (hints, autoplay, no-guess boards) lives beside this file, in
# solver.py; pgzrun, Thonny and python all look for it there.
try:
    from solver import Cell, Solver, choose_guess, keep_free, no_guess_layout
except ImportError as error:
    sys.exit("minesweep: cannot start: %s. solver.py belongs in the same "
             "folder as minesweep.py." % error)

# A friendly check instead of a confusing error further down.
pgzero_version = [int(part) if part.isdigit() else 0
                  for part in pgzero.__version__.split(".")]
if sys.version_info < (3, 8) or pgzero_version < [1, 2]:
    print("This game needs Python 3.8 or newer and Pygame Zero 1.2 or newer.")
    print("You have Python %s and Pygame Zero %s." %
          (sys.version.split()[0], pgzero.__version__))
    sys.exit(1)

ROWS = 15                # rows of tiles
COLS = 15                # columns of tiles
SIZE = 25                # size of one tile, px
BOMBS = 20               # bombs on the board
BAR = 40                 # height of the status bar above the grid, px
FOOT = 30                # height of the message line below the grid, px
MIN_WIDTH = 225          # narrowest window, so the status bar fits, px
MIN_HEIGHT = 160         # least height of the board's part of the window, px
MAX_SIDE = 200           # most rows or columns a board may have
GRID_LEFT = 0            # left edge of the grid, px (boards narrower than
                         # MIN_WIDTH are centred)
GRID_TOP = BAR           # top edge of the grid, px (boards shorter than
                         # MIN_HEIGHT are centred)
WIDTH = SIZE * COLS      # window width, px
HEIGHT = BAR + SIZE * ROWS + FOOT   # window height, px
TITLE = "Minesweeper"    # new_game adds the level

FACE_SIZE = 28           # the face button is a square this big, px
MAX_TIME = 999           # the timer stops here, s
MAX_BOARD = 999999999    # the largest board number

# The pictures in images/ and the sounds in sounds/ that the game uses;
# the tiles also come smaller, as minesweep_block_20 and so on.
TILE_PICTURES = (["minesweep_block", "minesweep_flag", "minesweep_bomb",
                  "minesweep_bomb_red", "minesweep_wrong", "minesweep_question"] +
                 ["minesweep_number%d" % n for n in range(9)])
PICTURES = TILE_PICTURES + ["face_play", "face_win", "face_lose"]
SOUNDS = ["bomb", "win"]

# The standard boards: key, name, rows, columns, bombs.
LEVELS = {
    "0": ("Chapter", 15, 15, 20),
    "1": ("Beginner", 9, 9, 10),
    "2": ("Intermediate", 16, 16, 40),
    "3": ("Expert", 16, 30, 99),
}

failed = False           # True once a bomb went off
finished = False         # True once every safe tile is open
blocks = []              # every tile, row by row: blocks[row * COLS + col]
neighbour_tables = {}    # (rows, cols) -> the cells around every cell


# ---------------------------------------------------------------------------
# Game state beyond the chapter. new_game() sets each game's part afresh;
# held, warned and the two settings last from one game to the next.
# ---------------------------------------------------------------------------
laid = False             # have the bombs been laid yet? (at the first click)
board_number = 0         # this game's number: the same number, the same board
started = False          # has the player clicked the grid yet?
timer = 0.0              # seconds since the first click, s
clicks = 0               # clicks on the grid in this game
stats = None             # 3BV, clicks and speed of a won game
new_best = False         # did this win set a best time (and was it saved)?
unsaved = False          # did this win's best time fail to save?
cursor = None            # (row, col) of the highlighted tile, or None
held = set()             # mouse buttons held down now
warned = set()           # console warnings already given, so each is said once
message = None           # news for the line below the grid, as words()
hint_move = None         # the hint shown: (block, isbomb, reason as words())
assisted = False         # did hints or autoplay help in this game?
autoplaying = False      # is the solver playing?
semiauto = False         # ... only its sure moves (S), stopping at a guess?
paused = False           # is the game paused (P), with the board hidden?
end_hidden = False       # has E or a click hidden "Finished" or "Failed"?
board_noguess = False    # was this board laid so that it needs no guess?
showing_times = False    # is the table of best times (B) showing?
times_table = {}         # the best times, read when B was pressed
checked = None           # (Tile.changes, flagwin) when update() last looked
                         # for a win
pointer = None           # where the mouse was last seen, px

# Settings that last from one game to the next.
questions = False        # does a right click also give question marks?
noguess = False          # are new boards laid so that no guess is needed?
flagwin = False          # is a game also won when exactly the bombs are flagged?


# ---------------------------------------------------------------------------
# 3.1 The tiles and the bombs
#
# The book makes the tiles with a double loop over the rows and columns,
# gives each Actor the booleans isbomb, isopen and isflag, then shuffles the
# list and puts bombs under its first BOMBS tiles. Here the same double loop
# is in new_game, so R and the level keys can build a fresh board, and each
# tile also knows its row and column, so its neighbours are found by
# arithmetic (fix a in the README). The bombs are laid at the first click,
# so the first click is never a bomb, and we shuffle a copy of the list, so
# blocks stays in row order (fix d).
# ---------------------------------------------------------------------------
def make_block(row, col):
    """Make one closed tile, with the chapter's three booleans."""
    # A Tile is the chapter's Actor that also notes when its picture
    # changes, so that draw() redraws only what changed (see "Drawing only
    # what changed"). Its place is where the tile is at full size with
    # nothing scrolled; tile_rect says where the view shows it.
    block = Tile("minesweep_block")
    block.left = col * SIZE
    block.top = BAR + row * SIZE
    block.row = row              # where the tile is, so neighbours are
    block.col = col              # found by arithmetic, not by a search
    block.isbomb = False         # is there a bomb under it?
    block.isopen = False         # has it been opened?
    block.isflag = False         # has the player put a flag on it?
    block.isquestion = False     # has the player put a question mark on it?
    block.number = None          # the number it shows once open
    return block


def check_board(rows, cols, bombs):
    """Raise ValueError with a clear message unless the board can be played."""
    for name, value in (("rows", rows), ("cols", cols), ("bombs", bombs)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError("%s must be a whole number, not %r" % (name, value))
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise ValueError("rows and cols must be 1..%d (got %d x %d)"
                         % (MAX_SIDE, rows, cols))
    if not 0 <= bombs <= rows * cols - 1:
        raise ValueError("bombs must be 0..%d on a %d x %d board (got %d)"
                         % (rows * cols - 1, rows, cols, bombs))


def new_game(rows=None, cols=None, bombs=None, board=None):
    """Start a fresh game; the size is ROWS, COLS and BOMBS unless given,
    and the board number a new random one unless given."""
    global ROWS, COLS, BOMBS, TITLE, blocks, last_opening, board_number
    global failed, finished, laid, started, timer, clicks, stats
    global new_best, unsaved, cursor, message, hint_move, assisted
    global before_move, postmortem, undos, paused, end_hidden, board_noguess
    rows = ROWS if rows is None else rows
    cols = COLS if cols is None else cols
    bombs = BOMBS if bombs is None else bombs
    check_board(rows, cols, bombs)
    if board is not None and not (isinstance(board, int) and 0 <= board <= MAX_BOARD):
        raise ValueError("a board number must be 0..%d (got %r)" % (MAX_BOARD, board))
    stop_autoplay()
    end_replay()
    ROWS, COLS, BOMBS = rows, cols, bombs
    board_number = random.randrange(1, 1000000) if board is None else board
    postmortem = None
    TITLE = title()
    # The chapter's double loop: row by row, and in each row column by column.
    # (Each new tile is noted for the next draw(); the old board's are not
    # needed any more.)
    changed_tiles.clear()
    blocks = []
    for row in range(ROWS):
        for col in range(COLS):
            blocks.append(make_block(row, col))
    # Each tile keeps a list of the tiles around it (up to eight), worked
    # out once from the rows and columns instead of searched for every time.
    table = neighbour_table(ROWS, COLS)
    for cell, block in enumerate(blocks):
        block.neighbours = [blocks[other] for other in table[cell]]
    # open_block calls itself once for every tile of an empty area, so a
    # large empty board needs more room for calls than Python gives at start.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), ROWS * COLS + 1000))
    failed = finished = laid = started = new_best = unsaved = assisted = False
    paused = end_hidden = board_noguess = False
    timer = 0.0
    clicks = 0
    stats = cursor = hint_move = last_opening = before_move = postmortem = None
    undos = 0
    message = None
    layout()
    scroll(-ROWS, -COLS)                # a new board shows its top left


def block_at(row, col):
    """The tile at this row and column, or None outside the grid."""
    if 0 <= row < ROWS and 0 <= col < COLS:
        return blocks[row * COLS + col]
    return None


def cell_of(block):
    """A tile's cell number, row * COLS + col: its place in blocks."""
    return block.row * COLS + block.col


def neighbour_table(rows, cols):
    """For every cell number (row * cols + col), the cells around it."""
    if (rows, cols) not in neighbour_tables:
        table = []
        for row in range(rows):
            for col in range(cols):
                table.append([r * cols + c
                              for r in range(max(row - 1, 0), min(row + 2, rows))
                              for c in range(max(col - 1, 0), min(col + 2, cols))
                              if (r, c) != (row, col)])
        neighbour_tables[(rows, cols)] = table
    return neighbour_tables[(rows, cols)]


def lay_bombs(cells):
    """Put bombs at exactly these (row, col) cells and nowhere else."""
    global BOMBS, laid
    places = set(cells)
    for row, col in places:
        if block_at(row, col) is None:
            raise ValueError("no tile at row %r, col %r" % (row, col))
    for block in blocks:
        block.isbomb = (block.row, block.col) in places
    BOMBS = len(places)
    laid = True


def board_random(first):
    """The random numbers of this board: the same for the same board number,
    size and first tile, on every computer and every Python 3."""
    # Python seeds a generator from a text the same way everywhere, and
    # shuffle and sample give the same results from the same seed (a test
    # pins some boards so we would know if that ever changed).
    return random.Random("minesweep board %d: %d x %d, %d bombs, first %d%s" % (
        board_number, ROWS, COLS, BOMBS, cell_of(first),
        ", no guess" if noguess else ""))


def lay_random_bombs(first):
    """Lay BOMBS bombs at random, away from the first tile clicked."""
    # Leave the clicked tile and its neighbours free so the first click
    # opens an area; on a crowded board leave just the clicked tile free.
    free = keep_free(cell_of(first), neighbour_table(ROWS, COLS), BOMBS)
    # The chapter's idea: shuffle the tiles, then bomb the first BOMBS.
    # We shuffle a copy, so blocks stays in row order for block_at, and
    # with the board's own generator, so a board number gives the same board.
    shuffled = [block for block in blocks
                if cell_of(block) not in free]
    board_random(first).shuffle(shuffled)
    lay_bombs([(block.row, block.col) for block in shuffled[:BOMBS]])


def lay_first_bombs(first):
    """At the first click: a no-guess board if that mode is on, else random."""
    global message, board_noguess
    if noguess:
        cells = no_guess_layout(ROWS, COLS, BOMBS, cell_of(first),
                                neighbour_table(ROWS, COLS), board_random(first))
        if cells is not None:
            lay_bombs([(cell // COLS, cell % COLS) for cell in cells])
            board_noguess = True
            return
        message = words("no_guess_failed")
    lay_random_bombs(first)


# ---------------------------------------------------------------------------
# 3.2 Flags
#
# The book's on_mouse_down asks every tile collidepoint(pos) to find the one
# under the mouse, and a right click calls set_flag, first written as "pass",
# then filled in to swap the picture and isflag. set_flag here is the same,
# with a third mark, the question mark, when Q turns it on. on_mouse_down
# (near the end of the file) finds the tile by arithmetic instead, in
# block_under, because asking every tile is slow on a big board.
# ---------------------------------------------------------------------------
def set_flag(block):
    """Right click: put a flag on a closed tile, or take it off again."""
    # With question marks on, the order is flag, question mark, nothing.
    if block.isflag:
        block.isflag = False
        block.isquestion = questions
    elif block.isquestion:
        block.isquestion = False
    else:
        block.isflag = True
    if block.isflag:
        block.image = "minesweep_flag"
    elif block.isquestion:
        block.image = "minesweep_question"
    else:
        block.image = "minesweep_block"


# ---------------------------------------------------------------------------
# 3.3 Opening tiles: the recursion
#
# The book's left click (3.3.1): a closed tile without a flag either blows
# up (a bomb) or opens (open_block). get_neighbours (3.3.2) finds the closed
# tiles around a tile, get_bomb_number (3.3.3) counts their bombs, and
# open_block (3.3.4) opens a tile and, when no bomb is around it, calls
# itself for each neighbour. Here click_open also chords on an open number
# and lays the bombs at the first click; get_neighbours reads a list each
# tile keeps (fix a); a flag stops the flood (fix b); and new_game gives
# Python room for as many calls inside each other as there are tiles (fix c).
# ---------------------------------------------------------------------------
def click_open(block):
    """Left click or Space: open a closed tile, or chord on an open number."""
    if block.isopen:
        chord(block)                # beyond the chapter, see below
        return
    if block.isflag:
        return
    if not laid:
        lay_first_bombs(block)      # beyond the chapter: a safe first click
    if block.isbomb:
        blow_up(block)
    else:
        open_block(block)


def get_neighbours(bk):
    """The tiles around this one that are not open yet."""
    return [block for block in bk.neighbours if not block.isopen]


def get_bomb_number(bk):
    """How many bombs are around this tile."""
    num = 0
    for block in get_neighbours(bk):
        if block.isbomb:
            num += 1
    return num


def open_block(bk):
    """Open a safe tile; if no bomb is around it, open its neighbours too."""
    record_call(bk)                 # slow motion (V) only: see below
    bk.isopen = True
    bk.isquestion = False
    bombnum = get_bomb_number(bk)
    bk.number = bombnum
    bk.image = "minesweep_number" + str(bombnum)
    # Where the recursion stops: a tile with a number (a bomb is near).
    if bombnum != 0:
        return
    # Where it calls itself: no bomb around, so every neighbour is safe and
    # is opened the same way. It stops at a neighbour that is open already
    # and at one with a flag: the player put the flag there on purpose.
    for block in get_neighbours(bk):
        if not block.isopen and not block.isflag:
            open_block(block)


# ---------------------------------------------------------------------------
# 3.4 Winning and losing
#
# The book's blow_up sets failed, plays sounds.bomb and shows the bombs as
# blocks[0] to blocks[BOMBS - 1], right only because of the shuffle; its
# update() sets finished when every safe tile is open, plays sounds.win, and
# draw() writes "Failed" or "Finished". Here blow_up shows each tile whose
# isbomb is true (fix d), marks the bomb that went off and the wrong flags as
# the classic games do, and play_sound plays only where there is a sound
# card (fix e). update() still checks for a win (near the end of the file).
# ---------------------------------------------------------------------------
def blow_up(clicked=None):
    """A bomb went off: the game is lost and the bombs are shown."""
    global failed
    failed = True
    play_sound("bomb")
    # Show every bomb, cross out the wrong flags, leave the right ones.
    for block in blocks:
        if block.isbomb and not block.isflag:
            block.image = "minesweep_bomb"
        elif block.isflag and not block.isbomb:
            block.image = "minesweep_wrong"
    if clicked is not None:
        clicked.image = "minesweep_bomb_red"


def all_safe_open():
    """True when every tile without a bomb is open."""
    for block in blocks:
        if not block.isbomb and not block.isopen:
            return False
    return True


def win():
    """Every safe tile is open: flag the bombs, keep the score, cheer."""
    global finished, stats, new_best, unsaved, hint_move
    finished = True
    hint_move = None
    # Won by flags (seed 001's way): the safe tiles left open themselves.
    deeply(open_the_rest)
    for block in blocks:
        if block.isbomb and not block.isflag:
            block.isflag = True
            block.isquestion = False
            block.image = "minesweep_flag"
    stats = game_stats()
    # A game the solver helped with sets no record.
    if not assisted and not undos and level_name() is not None:
        # A no-guess board is a different game: its times are kept apart.
        kind = NOGUESS_RECORD if board_noguess else "%s"
        outcome = record_best_time(kind % level_name(), timer)
        new_best, unsaved = outcome == "new", outcome == "unsaved"
    play_sound("win")


def open_the_rest():
    """Open every safe tile still closed."""
    for block in blocks:
        if not block.isbomb and not block.isopen:
            open_block(block)


def play_sound(name):
    """Play a sound if the computer can; a game without sound still plays."""
    # With no audio device pgzero's mixer never starts and any play() fails,
    # so we check first and carry on in silence.
    if not pygame.mixer.get_init():
        return
    try:
        getattr(sounds, name).play()
    except (pygame.error, UnsupportedFormat, AttributeError, KeyError) as error:
        say_once("sound", "minesweep: cannot play sound %r: %s" % (name, error))


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: the player's moves, as the classic games have them
# ---------------------------------------------------------------------------
def click_flag(block):
    """Right click or F: cycle the flag on a closed tile."""
    if not block.isopen:
        set_flag(block)


def chord(block):
    """Open every unflagged neighbour of a number that has all its flags."""
    if not block.isopen or not block.number:
        return
    around = get_neighbours(block)
    flags = sum(1 for other in around if other.isflag)
    if flags != block.number:
        return
    to_open = [other for other in around if not other.isflag]
    # A wrong flag means one of these is a bomb: it goes off, as in the classics.
    for other in to_open:
        if other.isbomb:
            blow_up(other)
            return
    for other in to_open:
        if not other.isopen:
            open_block(other)


# open_block calls itself once for every tile of an empty area, so on an
# empty 200 x 200 board the calls go 40,000 deep. Python before 3.11 keeps
# each call on the computer's own stack as well, which holds only a few
# thousand of them (8 MB on Linux, 1 MB on Windows), and Python then stops
# without a word. A thread can be given a stack as big as the board needs.
DEEP = 2000              # tiles a board may have before moves get their own stack
STACK_PER_TILE = 2048    # stack for one call of open_block, bytes (Python
                         # 3.10 uses 400 to 600)


def deeply(action, *args):
    """Do action(*args); on a big board in a thread with room on its stack
    for one call of open_block per tile."""
    if ROWS * COLS <= DEEP:
        return action(*args)
    outcome = []

    def run():
        """The action, with what it returned or raised."""
        try:
            outcome.append((True, action(*args)))
        except BaseException as error:      # raised again below, as it was
            outcome.append((False, error))

    worker = threading.Thread(target=run, name="minesweep move")
    try:
        before = threading.stack_size(max(ROWS * COLS * STACK_PER_TILE, 2 ** 25))
        try:
            worker.start()
        finally:
            threading.stack_size(before)
    except (ValueError, RuntimeError):
        return action(*args)                # this computer cannot give more
    worker.join()
    done, value = outcome[0]
    if not done:
        raise value
    return value


def grid_action(block, action):
    """Do one move on the grid: start the clock, count the click."""
    global started, clicks, hint_move, message, postmortem
    if failed or finished:
        return
    clicks += 1
    hint_move = None
    message = None
    remember_board()
    changes = Tile.changes
    if slowmo:
        deeply(recorded, action, block)
    else:
        deeply(action, block)
    # The clock starts at the first click that changes the board (a middle
    # click on a closed tile, say, changes nothing).
    started = started or Tile.changes != changes
    if failed:
        postmortem = explain_loss(block, action)
    # The move that opens the last safe tile wins at once, so nothing later
    # in the same frame (a second click, on a bomb) can undo the win.
    if laid and not failed and (all_safe_open() or flagwin and all_bombs_flagged()):
        win()


def face_rect():
    """Where the face button is."""
    return Rect((board_width() - FACE_SIZE) // 2, (BAR - FACE_SIZE) // 2,
                FACE_SIZE, FACE_SIZE)


def bombs_left():
    """Bombs minus flags; it goes negative when there are too many flags."""
    return BOMBS - sum(1 for block in blocks if block.isflag)


def level_of(rows, cols, bombs):
    """The name of the standard level of this size, or None for a custom one."""
    for name, level_rows, level_cols, level_bombs in LEVELS.values():
        if (level_rows, level_cols, level_bombs) == (rows, cols, bombs):
            return name
    return None


def level_name():
    """The name of the standard level being played, or None for a custom one."""
    return level_of(ROWS, COLS, BOMBS)


def board_words(rows, cols, bombs):
    """A board's level, or its size if custom, as words()."""
    name = level_of(rows, cols, bombs)
    return words(name) if name else words("custom", rows=rows, cols=cols, bombs=bombs)


def title():
    """The window's title: the game, the level and the board number."""
    return say("title", level=board_words(ROWS, COLS, BOMBS), board=board_number)


def move_cursor(drow, dcol):
    """Move the keyboard cursor, staying on the grid; the view follows it.
    The first press starts from the tile under the mouse, if there is one."""
    global cursor
    if cursor is None:
        under = block_under(pointer) if pointer is not None else None
        if under is None:
            cursor = (view_row + view_rows // 2, view_col + view_cols // 2)
            follow(*cursor)
            return
        cursor = (under.row, under.col)
    cursor = (min(max(cursor[0] + drow, 0), ROWS - 1),
              min(max(cursor[1] + dcol, 0), COLS - 1))
    follow(*cursor)


def say_once(topic, text):
    """Print a warning on the console, once per topic per run."""
    if topic not in warned:
        warned.add(topic)
        print(text)


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: statistics of a won game
# ---------------------------------------------------------------------------
def board_3bv():
    """Bechtel's board benchmark value: the fewest clicks that clear the board.

    It is the number of openings (connected areas of zeros, each cleared by
    one click) plus the safe tiles that are not zero and touch no zero.
    """
    zero = {block for block in blocks
            if not block.isbomb and get_bomb_number(block) == 0}
    seen = set()
    openings = 0
    for start in zero:
        if start in seen:
            continue
        openings += 1
        seen.add(start)
        todo = [start]
        while todo:
            for other in todo.pop().neighbours:
                if other in zero and other not in seen:
                    seen.add(other)
                    todo.append(other)
    lonely = sum(1 for block in blocks
                 if not block.isbomb and block not in zero
                 and not any(other in zero for other in block.neighbours))
    return openings + lonely


def game_stats():
    """3BV, clicks, 3BV per second and efficiency of the game just won."""
    bbbv = board_3bv()
    seconds = max(timer, 0.001)
    return {"3bv": bbbv, "clicks": clicks, "time": timer,
            "3bv_per_s": bbbv / seconds,
            "efficiency": bbbv / clicks if clicks else 0.0}


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: best times, kept in the user's data folder
#
# What is promised (README, "Reliability"): the file is written whole or not
# at all; a file the game cannot use is moved aside, never overwritten, and
# never over an earlier one; two games saving at once both keep their
# records; and "New best time" is shown only when the record was saved.
# ---------------------------------------------------------------------------
DATA_LIMIT = 256 * 1024         # largest file of the game's that is read, bytes
LOCK_WAIT = 3.0                  # longest wait for another game's save, s
LOCK_STALE = 2.0                 # a lock this old was left by a crash, s


class SaveError(Exception):
    """The best times could not be saved; the text says why."""


def home_folder():
    """The user's home folder, or None when there is no sure one."""
    home = os.environ.get("HOME")
    if home is not None and not os.path.isabs(home):
        home = None                 # HOME="" or a relative path: not trusted
    if home is None:
        try:
            import pwd
            home = pwd.getpwuid(os.getuid()).pw_dir
        except (ImportError, KeyError):
            home = os.environ.get("USERPROFILE")
    return home if home and os.path.isabs(home) else None


def data_dir():
    """The folder for best times, or None when there is no usable one.

    MINESWEEP_DATA_DIR if set (a relative one is taken from the game's own
    folder, not from wherever the game was started), else the system's place.
    """
    chosen = os.environ.get("MINESWEEP_DATA_DIR")
    if chosen:
        chosen = os.path.expanduser(chosen)
        return os.path.join(pgzero.loaders.root, chosen)   # kept if absolute
    home = home_folder()
    if sys.platform == "win32":
        base = os.environ.get("APPDATA") or (
            home and os.path.join(home, "AppData", "Roaming"))
    elif sys.platform == "darwin":
        base = home and os.path.join(home, "Library", "Application Support")
    else:
        # The XDG rules: a relative XDG_DATA_HOME is to be ignored.
        base = os.environ.get("XDG_DATA_HOME")
        if not base or not os.path.isabs(base):
            base = home and os.path.join(home, ".local", "share")
    return os.path.join(base, "minesweep") if base else None


def data_file(name):
    """The path of one of the game's files (where a symlink points, if it is one)."""
    folder = data_dir()
    if folder is None:
        raise SaveError("no home folder to keep them in (set MINESWEEP_DATA_DIR)")
    return os.path.realpath(os.path.join(folder, name))


def best_times_file():
    """The path of the best-times file."""
    return data_file("best_times.json")


def lock_data(folder):
    """Wait until no other game is saving, and take the lock; its path."""
    lock = os.path.join(folder, "minesweep.lock")
    give_up = time.monotonic() + LOCK_WAIT
    while True:
        try:
            handle = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            try:
                if time.time() - os.path.getmtime(lock) > LOCK_STALE:
                    os.remove(lock)         # left by a game that stopped mid-save
                    continue
            except OSError:
                continue                    # it went away: try again
            if time.monotonic() > give_up:
                raise SaveError("another game kept %s locked" % lock)
            time.sleep(0.005)
        else:
            os.write(handle, str(os.getpid()).encode("ascii"))
            os.close(handle)
            return lock


def set_aside(path, why, what):
    """Move a bad file to a new NAME.bak (never over an earlier one); say so."""
    number, backup = 1, path + ".bak"
    while os.path.lexists(backup):
        number += 1
        backup = "%s.%d.bak" % (path, number)
    try:
        os.replace(path, backup)
    except OSError as error:
        say_once("aside " + path, "minesweep: cannot read %s in %s (%s), and "
                 "cannot move it aside (%s); it will not be saved."
                 % (what, path, why, error))
        raise SaveError("cannot move %s aside" % path)
    print("minesweep: %s in %s could not be read (%s); moved it to %s."
          % (what, path, why, backup))


def good_time(seconds):
    """True for a time the game writes: finite, 0 or more (a first click
    can win at once, in no time)."""
    return (isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
            and 0 <= seconds < float("inf"))


def good_record(record):
    """True for one level's record: a time, or (since dates were kept) a
    time and the day it was set."""
    if isinstance(record, dict):
        return (set(record) == {"time", "date"} and good_time(record["time"])
                and isinstance(record["date"], str) and len(record["date"]) <= 10)
    return good_time(record)


def good_times(times):
    """True for what the game itself writes: level names to records."""
    return isinstance(times, dict) and len(times) <= 100 and all(
        isinstance(level, str) and good_record(record)
        for level, record in times.items())


def time_of(record):
    """A record's time, s."""
    return record["time"] if isinstance(record, dict) else record


def date_of(record):
    """The day a record was set, or "" if it is older than dates."""
    return record["date"] if isinstance(record, dict) else ""


def read_data(path, check, what):
    """What the file holds, or None if there is none; a file that check
    finds fault with (a text saying what is wrong) is set aside."""
    try:
        with open(path, "rb") as f:
            data = f.read(DATA_LIMIT + 1)
    except FileNotFoundError:
        return None
    except OSError as error:
        set_aside(path, error, what)    # a folder, say, where the file should be
        return None
    if len(data) > DATA_LIMIT:
        set_aside(path, "larger than %d bytes" % DATA_LIMIT, what)
        return None
    try:
        value = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError) as error:
        set_aside(path, error, what)
        return None
    fault = check(value)
    if fault:
        set_aside(path, fault, what)
        return None
    return value


def clean_leftovers(folder):
    """Remove the temporary files of saves that were stopped half-way."""
    for name in os.listdir(folder):
        if name.endswith(".tmp") and (name.startswith("tmp") or name.startswith(
                ("best_times.json.", "saved_game.json."))):
            try:
                os.remove(os.path.join(folder, name))
            except OSError:
                pass                    # still in use, or not ours to remove


def write_data(path, value):
    """Write a file whole or not at all: a temporary file, then a rename."""
    temp = "%s.%d.tmp" % (path, os.getpid())
    text = json.dumps(value, indent=1, sort_keys=True, allow_nan=False)
    try:
        # Created like any new file (the umask applies); an old file's mode
        # is kept.
        handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        with os.fdopen(handle, "w", encoding="utf-8") as f:
            f.write(text)
        if os.path.exists(path):
            os.chmod(temp, stat.S_IMODE(os.stat(path).st_mode))
        os.replace(temp, path)
    except OSError:
        if os.path.exists(temp):
            os.remove(temp)             # leave no half-written file behind
        raise


def with_data(name, check, what, change):
    """Under the lock: read a file of the game's, let change(value) say what
    to write (a new value, or None for nothing), and write it. change's value."""
    path = data_file(name)
    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, exist_ok=True)
        lock = lock_data(folder)
    except OSError as error:
        raise SaveError(str(error))
    try:
        clean_leftovers(folder)
        new = change(read_data(path, check, what))
        if new is not None:
            write_data(path, new)
        return new
    except OSError as error:
        raise SaveError(str(error))
    finally:
        try:
            os.remove(lock)
        except OSError:
            pass


def times_fault(times):
    """What is wrong with a best-times file's contents, or "" if nothing."""
    return "" if good_times(times) else "not a list of times"


def read_kept(name, check, what):
    """What a file of the game's holds, read under the lock, or None if there
    is none (no folder is made just to look) or it cannot be read."""
    found = []
    try:
        if os.path.lexists(data_file(name)):
            with_data(name, check, what, found.append)
    except SaveError:
        pass
    return found[0] if found else None


def load_best_times():
    """Best times by level; {} when there are none or they cannot be read."""
    return read_kept("best_times.json", times_fault, "best times") or {}


NOGUESS_RECORD = "%s, no guess"  # the name a level's no-guess record is kept under
TIMES_FONT = 28          # largest size of the table of best times, px


def show_times():
    """B: read the best times and show them."""
    global showing_times, times_table
    times_table = load_best_times()
    showing_times = True


def times_lines():
    """The table of best times as lines: each level, then its no-guess
    boards, each time with its date."""
    lines = [say("times_title"), ""]
    for heading, kind in (("times_normal", "%s"), ("times_noguess", NOGUESS_RECORD)):
        lines.append(say(heading))
        for key in ("1", "2", "3", "0"):
            name = LEVELS[key][0]
            record = times_table.get(kind % name)
            if record is None:
                lines.append(say("times_none", level=words(name)))
            else:
                lines.append(say("times_line", level=words(name),
                                 time="%.2f" % time_of(record),
                                 date=date_of(record) or "-"))
        lines.append("")
    lines.append(say("times_close"))
    return lines


def record_best_time(level, seconds):
    """Keep this time, with today's date, if it beats the level's best:
    "new" if it did and was saved, "slower" if it did not beat it,
    "unsaved" if it could not be saved."""
    def keep_if_better(times):
        """The times with this one in, if it is the level's best; else None."""
        times = times or {}
        if level in times and time_of(times[level]) <= seconds:
            return None
        record = {"time": round(seconds, 3), "date": time.strftime("%Y-%m-%d")}
        return dict(times, **{level: record})

    try:
        return "new" if with_data("best_times.json", times_fault, "best times",
                                  keep_if_better) else "slower"
    except SaveError as error:
        say_once("save", "minesweep: cannot save best times in %s: %s"
                 % (data_dir() or "any folder", error))
        return "unsaved"


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: boards a class can share, games kept when the window
# closes, and the flag win of the lessons (seed 001)
# ---------------------------------------------------------------------------
SAVE_FORMAT = 1          # the saved game's format; a newer one is set aside
MARKS = ".o" + "F?"      # a tile in a saved game: closed, open, flag, question

typing = None            # the board number being typed after G, or None
waiting = None           # a saved game offered at start (C continues it)


def start_tile():
    """The tile to click first: with the same number, the same board for all."""
    seed = "minesweep board %d: %d x %d start" % (board_number, ROWS, COLS)
    return random.Random(seed).randrange(ROWS * COLS)


def all_bombs_flagged():
    """Seed 001's second way to win: every bomb flagged, and no other tile."""
    return all(block.isflag == block.isbomb for block in blocks)


def saved_fault(value):
    """What is wrong with a saved game, or "" if nothing."""
    if not isinstance(value, dict) or not isinstance(value.get("format"), int):
        return "not a saved game"
    if value["format"] > SAVE_FORMAT:
        return "saved by a newer version of the game"
    try:
        check_board(value["rows"], value["cols"], value["bombs"])
    except (KeyError, TypeError):
        return "not a saved game"
    except ValueError as error:
        return "a board this version cannot play: %s" % error
    try:
        cells = value["rows"] * value["cols"]
        bombs, marks = value["under"], value["marks"]
        good = (isinstance(value["board"], int) and 0 <= value["board"] <= MAX_BOARD
                and isinstance(bombs, str) and isinstance(marks, str)
                and len(bombs) == len(marks) == cells and set(bombs) <= {".", "*"}
                and bombs.count("*") == value["bombs"] and set(marks) <= set(MARKS)
                and all(not (b == "*" and m == "o") for b, m in zip(bombs, marks))
                and isinstance(value["timer"], (int, float))
                and 0 <= value["timer"] <= MAX_TIME
                and isinstance(value["clicks"], int) and value["clicks"] >= 0
                and isinstance(value["undos"], int) and value["undos"] >= 0
                and all(isinstance(value[key], bool)
                        for key in ("assisted", "questions", "flagwin"))
                and isinstance(value.get("noguess", False), bool))
    except (KeyError, TypeError):
        return "not a saved game"
    return "" if good else "not a saved game"


def game_to_save():
    """This game as the saved file holds it, or None if there is none to keep."""
    if not laid or failed or finished:
        return None
    marks = "".join("o" if block.isopen else "F" if block.isflag
                    else "?" if block.isquestion else "." for block in blocks)
    return {"format": SAVE_FORMAT, "rows": ROWS, "cols": COLS, "bombs": BOMBS,
            "board": board_number, "marks": marks,
            "under": "".join("*" if block.isbomb else "." for block in blocks),
            "timer": round(timer, 3), "clicks": clicks, "undos": undos,
            "assisted": assisted, "questions": questions, "flagwin": flagwin,
            "noguess": board_noguess}


def save_on_exit():
    """When the window closes (or Ctrl+Q, or the system ends the game): keep
    a game in progress for the next start."""
    game = game_to_save()
    if game is None:
        return
    try:
        with_data("saved_game.json", saved_fault, "the saved game",
                  lambda old: game)
        print("minesweep: this game is kept; start the game again to go on")
    except SaveError as error:
        print("minesweep: cannot keep this game: %s" % error)


def find_saved_game():
    """At start: offer a saved game if there is a good one."""
    global waiting, message
    waiting = read_kept("saved_game.json", saved_fault, "the saved game")
    if waiting is not None:
        message = words("saved_waiting", level=board_words(
            waiting["rows"], waiting["cols"], waiting["bombs"]),
            board=waiting["board"], seconds=int(waiting["timer"]))


def resume(game):
    """Put a saved game back, exactly as it was, and forget the file."""
    global started, timer, clicks, undos, assisted, questions, flagwin, message
    global board_noguess
    new_game(game["rows"], game["cols"], game["bombs"], game["board"])
    lay_bombs([(cell // COLS, cell % COLS) for cell, under in enumerate(game["under"])
               if under == "*"])
    for block, mark in zip(blocks, game["marks"]):
        if mark == "o":
            block.isopen = True
            block.number = get_bomb_number(block)
            block.image = "minesweep_number%d" % block.number
        elif mark in "F?":
            block.isflag, block.isquestion = mark == "F", mark == "?"
            block.image = "minesweep_flag" if mark == "F" else "minesweep_question"
    started = True
    timer, clicks, undos = game["timer"], game["clicks"], game["undos"]
    assisted, questions, flagwin = game["assisted"], game["questions"], game["flagwin"]
    board_noguess = game.get("noguess", False)      # not in the first saves
    try:
        os.remove(data_file("saved_game.json"))
    except (OSError, SaveError):
        pass                            # it is replaced at the next close anyway
    message = words("welcome_back", board=board_number)


def answer_waiting(key):
    """The first key after a saved game was offered: C takes it back."""
    global waiting, message
    game, waiting = waiting, None
    message = None
    if key == keys.C:
        resume(game)
        return True
    return False


def type_board_number(key):
    """G, then digits and Enter: play that board number (Esc: never mind)."""
    global typing, message
    digits = {getattr(keys, "K_%d" % n): str(n) for n in range(10)}
    digits.update({getattr(keys, "KP%d" % n): str(n) for n in range(10)})
    if key in digits and len(typing) < len(str(MAX_BOARD)):
        typing += digits[key]
    elif key == keys.BACKSPACE:
        typing = typing[:-1]
    elif key in (keys.RETURN, keys.KP_ENTER) and typing:
        number, typing = int(typing), None
        new_game(board=number)
        message = words("board_chosen", board=number)
        return
    elif key == keys.ESCAPE:
        typing = None
        message = None
        return
    message = words("typing", digits=typing)


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: custom boards from the command line
# ---------------------------------------------------------------------------
class CommandLine(argparse.ArgumentParser):
    """argparse, but a mistake is one clear line instead of a usage screen."""

    def error(self, text):
        """Stop with one line that says what is wrong."""
        self.exit(2, "minesweep: %s\n" % text)


def board_from_command_line(argv):
    """Rows, cols and bombs from --rows, --cols and --bombs; exits if impossible."""
    parser = CommandLine(prog="python minesweep.py",
                         description="Minesweeper for Pygame Zero.")
    parser.add_argument("--rows", type=int, default=ROWS,
                        help="1..%d (%d)" % (MAX_SIDE, ROWS))
    parser.add_argument("--cols", type=int, default=COLS,
                        help="1..%d (%d)" % (MAX_SIDE, COLS))
    parser.add_argument("--bombs", type=int, default=BOMBS,
                        help="0..rows*cols-1 (%d)" % BOMBS)
    parser.add_argument("--board", type=int, default=None,
                        help="the board number 0..%d (a new one each game)" % MAX_BOARD)
    parser.add_argument("--flag-win", action="store_true",
                        help="also win when exactly the bombs are flagged")
    parser.add_argument("--lang", choices=["en", "zh"],
                        help="the game's language (else the computer's own)")
    parser.add_argument("--check", action="store_true",
                        help="check that every picture and sound is there, then stop")
    args = parser.parse_args(argv)
    try:
        check_board(args.rows, args.cols, args.bombs)
    except ValueError as error:
        parser.error(str(error))
    if args.board is not None and not 0 <= args.board <= MAX_BOARD:
        parser.error("the board number must be 0..%d (got %d)" % (MAX_BOARD, args.board))
    if args.check:                      # start() has checked the files already
        choose_language(args.lang)
        print("minesweep: checked the pictures, sounds and texts; the game "
              "speaks %s" % {"en": "English", "zh": "Chinese"}[language])
        sys.exit(0)
    return args.rows, args.cols, args.bombs, args.board, args.flag_win, args.lang


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: a solver that explains itself (hints, autoplay and
# boards that need no guess). It sees only what the player sees: the open
# numbers and how many bombs there are. It never trusts the player's flags
# and never looks at isbomb of a closed tile.
# ---------------------------------------------------------------------------
AUTO_TICK = 0.15         # time between two autoplay moves, s
AUTO_BIG = 1000          # boards of more tiles get several moves a tick
AUTO_BUDGET = 0.08       # ... for up to this long, s


def visible_board():
    """What the player sees: each tile's number if it is open, else None."""
    return [block.number if block.isopen else None for block in blocks]


def is_useful(fact):
    """A fact worth showing: a safe tile, or a bomb the player has not flagged."""
    cell, isbomb, reason = fact
    return not isbomb or not blocks[cell].isflag


def hint():
    """The move the H key shows: (block, isbomb, reason), or None.

    isbomb is True or False for a sure move, None for a guess; the reason
    is in the player's language.
    """
    move = find_hint()
    return move and (move[0], move[1], speak(move[2]))


def find_hint():
    """The next move and why: (block, isbomb, words), or None."""
    moves = find_moves()
    return moves[0] if moves else None


def find_moves():
    """The moves one look at the board finds, each (block, isbomb, words):
    the sure moves of the first rule that finds any, or else the best guess;
    [] when there is none."""
    if not laid or failed or finished:
        return []
    solver = Solver(ROWS, COLS, BOMBS, visible_board(), neighbour_table(ROWS, COLS))
    solver.run(enough=lambda s: any(is_useful(fact) for fact in s.facts))
    moves = [(blocks[cell], isbomb, fact_words(isbomb, why))
             for cell, isbomb, why in solver.facts if is_useful((cell, isbomb, why))]
    if moves or not solver.chances:
        return moves
    guess = choose_guess(solver)
    return [(blocks[guess.cell], None, guess_reason(guess, solver))]


def fact_words(isbomb, why):
    """A sure move's reason as the hint says it: "Safe: ..." or "Bomb: ..."."""
    return words("hint_bomb" if isbomb else "hint_safe", why=why)


def guess_reason(guess, solver):
    """Why this guess, in words: its chance, and what it may give next."""
    lowest = min(solver.chances.values())
    text = words("guess", cell=Cell(guess.cell), chance=round(100 * guess.chance))
    if solver.capped:
        return words("guess_rough", guess=text)
    if guess.win is not None:
        return words("guess_win", guess=text, win=round(100 * guess.win))
    if guess.forced:
        return words("guess_" + guess.forced, guess=text)
    if round(guess.chance, 9) <= round(lowest, 9):
        text = words("guess_lowest", guess=text)
    else:
        text = words("guess_not_lowest", guess=text, lowest=round(100 * lowest))
    if guess.sure_next is not None:
        text = words("guess_next", guess=text, sure=round(100 * guess.sure_next))
    if guess.cut is not None:
        text = words("guess_cut", guess=text, done=guess.cut[0], all=guess.cut[1])
    return text


def bomb_chances_exact():
    """Every closed tile's chance of a bomb, from what the player sees, and
    whether the chances are exact (False when the search was too big)."""
    solver = Solver(ROWS, COLS, BOMBS, visible_board(),
                    neighbour_table(ROWS, COLS)).run()
    chances = dict(solver.chances or {})
    for cell, isbomb in solver.known.items():
        chances[cell] = 1.0 if isbomb else 0.0
    exact = not solver.capped
    return {blocks[cell]: chance for cell, chance in chances.items()}, exact


def bomb_chances():
    """Every closed tile's chance of a bomb, from what the player sees."""
    return bomb_chances_exact()[0]


def show_hint():
    """H: find a move and show it with its reason."""
    global hint_move, assisted, message
    hint_move = find_hint()
    if hint_move is None:
        message = words("hints_later") if not laid else words("game_over")
    else:
        assisted = True
        follow(hint_move[0].row, hint_move[0].col)


def flag_surely(block):
    """Put a flag on a tile, whatever mark it has now."""
    while not block.isflag:
        set_flag(block)


def open_surely(block):
    """Take any flag off a tile, then open it."""
    while block.isflag:
        set_flag(block)
    click_open(block)


def autoplay_step():
    """The automatic player's moves for one tick: one, so a class can
    follow it; on a big board, every sure move of one look at the board,
    and more looks for up to AUTO_BUDGET (one move a tick would take an
    hour on 100 x 200)."""
    if ROWS * COLS <= AUTO_BIG:
        autoplay_moves(None)
        return
    end = time.perf_counter() + AUTO_BUDGET
    while autoplay_moves(end) and time.perf_counter() < end:
        pass


def autoplay_moves(end):
    """The automatic player's next move, shown with its reason; with a time
    to end by, all the sure moves one look finds until then. False when it
    has stopped or must wait."""
    global hint_move
    if failed or finished:
        stop_autoplay()
        return False
    if replay is not None:
        return False                    # wait for the replay to end
    if not laid:
        grid_action(block_at(ROWS // 2, COLS // 2), click_open)
        return True
    moves = find_moves()
    if not moves:
        stop_autoplay()
        return False
    if semiauto and moves[0][1] is None:
        stop_autoplay()                 # S: hand the board back at a guess
        hint_move = moves[0]
        return False
    for number, move in enumerate(moves if end else moves[:1]):
        if number and time.perf_counter() > end:
            break                       # the rest are found again next tick
        block, isbomb, reason = move
        # A sure move stays sure; an earlier one may have made it already.
        if block.isopen or isbomb and block.isflag:
            continue
        grid_action(block, flag_surely if isbomb else open_surely)
        follow(block.row, block.col)
        if failed or finished:
            return False
        hint_move = move                # show the move it made, and why
    return True


def start_autoplay(sure_only=False):
    """A: let the solver play, one move a tick, so a class can watch it;
    S (sure_only): only its sure moves, stopping where a guess is needed."""
    global autoplaying, semiauto, assisted
    if failed or finished:
        return
    autoplaying = assisted = True
    semiauto = sure_only
    clock.schedule_interval(autoplay_step, AUTO_TICK)


def stop_autoplay():
    """Stop the automatic player."""
    global autoplaying
    autoplaying = False
    clock.unschedule(autoplay_step)


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: learning from a loss. The post-mortem says, from what
# the player could see just before the fatal move, whether a safe move
# existed; U takes the fatal move back; S lets the solver make every sure
# move and hands the board back at a guess.
# ---------------------------------------------------------------------------
before_move = None       # the board just before the last move (for U and why)
postmortem = None        # after a loss: (what happened, in words; a tile to
                         # outline or None; its colour)
GREEN, ORANGE = (0, 200, 0), (255, 140, 0)   # outlines: a safe tile, a guess
undos = 0                # moves taken back in this game


def remember_board():
    """Keep the board as it is before a move, for the post-mortem and U:
    the picture of every tile. During a game a tile's picture says all
    the player sees of it (open and its number, a flag, a question mark),
    and one name a tile is quicker to keep than all that on a big board."""
    global before_move
    before_move = [block.image for block in blocks]


def number_in(picture):
    """The number an open tile's picture shows, or None for a closed tile."""
    if picture.startswith("minesweep_number"):
        return int(picture[-1])
    return None


def shown_before():
    """visible_board() as it was before the last move."""
    return [number_in(picture) for picture in before_move]


def chances_text(chance):
    """A chance of a bomb as a student says it: "1 in 5 (20%)"."""
    if 0 < chance <= 0.5:
        return words("one_in", n=round(1 / chance), percent=round(100 * chance))
    return words("percent", percent=round(100 * chance))


def explain_loss(block, action):
    """Why the move on this tile lost, judged from the board before it."""
    shown = shown_before()
    solver = Solver(ROWS, COLS, BOMBS, shown, neighbour_table(ROWS, COLS)).run()
    reasons = {cell: why for cell, isbomb, why in solver.facts}
    if action is chord:
        flag = next(other for other in block.neighbours
                    if other.isflag and not other.isbomb)
        cell = cell_of(flag)
        if solver.known.get(cell) is False:
            return (words("chord_shown", cell=Cell(cell), why=reasons[cell]),
                    flag, GREEN)
        return words("chord_guess", cell=Cell(cell)), flag, ORANGE
    cell = cell_of(block)
    if solver.known.get(cell) is True:
        return words("sure_bomb", cell=Cell(cell), why=reasons[cell]), block, ORANGE
    safe = [fact for fact in solver.facts if not fact[1] and shown[fact[0]] is None]
    if safe:
        other, isbomb, why = safe[0]
        return words("sure_safe", cell=Cell(other), why=why), blocks[other], GREEN
    chances = solver.chances
    if solver.capped:
        return words("guessed_rough"), None, None
    best = min(chances.values())
    safest = [other for other in chances if chances[other] == best]
    text = words("guessed", chance=chances_text(chances[cell]))
    if chances[cell] > best:
        return (words("guessed_safer", text=text, cell=Cell(safest[0]),
                      best=chances_text(best)), blocks[safest[0]], ORANGE)
    return words("guessed_best", text=text), None, None


def take_back():
    """U after a loss: the board as it was before the fatal move."""
    global failed, postmortem, undos, message
    if not failed:
        message = words("u_later")
        return
    for block, picture in zip(blocks, before_move):
        block.number = number_in(picture)
        block.isopen = block.number is not None
        block.isflag = picture == "minesweep_flag"
        block.isquestion = picture == "minesweep_question"
        block.image = picture
    failed = False
    postmortem = None
    undos += 1
    message = words("taken_back", count=undos)
    layout()


def postmortem_text():
    """The post-mortem as the line below the grid says it."""
    return say("take_it_back", text=postmortem[0])


def footer_height():
    """The height of the line below the grid: taller while its words need it."""
    return footer[3]


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: slow motion (V), to watch the recursion
#
# With slow motion on, open_block runs exactly as always, but record_call
# notes each call and which call made it. After the click the replay shows
# those notes one step at a time: the call numbers, the calls waiting on the
# stack, where each call stops, and open_block's own lines. W shows the same
# opening done with a queue instead, as a loop (breadth first) would do it.
# ---------------------------------------------------------------------------
PANEL = 340              # width of the slow-motion panel, px
PANEL_HEIGHT = 540       # least height of the window while it shows, px
SPEEDS = [1, 2, 4, 8, 15, 30, 60, 120]   # replay speeds, steps per second
START_SPEED = 3          # the speed a replay starts at (an index into SPEEDS)
CHAIN_ENDS = 3           # calls shown at each end of a long chain

# The same opening done with a queue, as lessons on this game (seeds 001
# and 003) write it. The replay runs these lines on the recorded opening.
QUEUE_LINES = [
    "queue = [the tile clicked]",
    "while queue:",
    "    bk = queue.pop(0)",
    "    bk.isopen = True",
    "    if get_bomb_number(bk) != 0:",
    "        continue",
    "    for block in get_neighbours(bk):",
    "        if block not in queue and not block.isflag:",
    "            queue.append(block)",
]

slowmo = False           # is slow motion on?
trace = None             # while a move is recorded: [(tile, caller's tile)]
replay = None            # the replay being shown, or None
last_opening = None      # (trace, tiles open before) of the last opening
speed = START_SPEED      # index into SPEEDS


def record_call(bk):
    """Slow motion: note that open_block(bk) has started, and who called it."""
    if trace is None:
        return
    # Two frames up is whoever called open_block: open_block itself (then
    # its own bk is the caller's tile) or the click that started the flood.
    caller = sys._getframe(2)
    if caller.f_code is open_block.__code__:
        trace.append((bk, caller.f_locals["bk"]))
    else:
        trace.append((bk, None))


def recorded(action, block):
    """Do a move while noting the calls of open_block; start a replay if the
    move opened an area."""
    global trace, last_opening
    before = {other for other in blocks if other.isopen}
    trace = []
    try:
        action(block)
    finally:
        calls, trace = trace, None
    if len(calls) > 1:
        last_opening = (calls, before)
        start_replay("stack")


class Replay:
    """One replay of a recorded opening, stepped by update()."""

    def __init__(self, kind, calls, before):
        """Get ready to show these calls ("stack") or the queue ("queue")."""
        self.kind = kind
        self.calls = calls                  # [(tile, caller's tile or None)]
        self.before = before                # the tiles open before the move
        self.hidden = {tile for tile, caller in calls}
        self.number = {}                    # tile -> its call number
        self.stack = []                     # the calls running, outermost first
        self.queue = []                     # the queue, in the queue replay
        self.deepest = 0                    # deepest stack, or longest queue
        self.paused = False
        self.wait = 0.0                     # time until the next step, s
        self.step = ("start", None, words("replay_start"), None)
        steps = recursion_steps if kind == "stack" else queue_steps
        self.steps = steps(self)

    def open(self, tile):
        """Show a tile open and give it the next call number."""
        self.hidden.discard(tile)
        self.number[tile] = len(self.number) + 1

    def closed_around(self, bk):
        """What get_neighbours(bk) gave at this point of the move."""
        return [other for other in bk.neighbours
                if other not in self.before and other not in self.number]

    def advance(self):
        """Show the next step; False when there is none."""
        self.step = next(self.steps, None)
        return self.step is not None


def recursion_steps(rp):
    """The steps of the recorded flood, in the order its calls ran.

    A step is (kind, tile, what happens, a word of open_block's line).
    """
    callers = iter(rp.calls)
    upcoming = next(callers, None)
    frames = []            # for each call on the stack: its steps so far

    def call(bk):
        """The steps of one call of open_block(bk), its own part only."""
        rp.stack.append(bk)
        rp.deepest = max(rp.deepest, len(rp.stack))
        rp.open(bk)
        yield ("call", bk, words("call_starts", cell=Cell(cell_of(bk)),
                                 number=rp.number[bk], depth=len(rp.stack)),
               "get_bomb_number")
        if bk.number != 0:
            yield ("return", bk, words("call_number", number=bk.number), "return")
        else:
            yield ("loop", bk, words("call_loop"), "for block")
            for block in rp.closed_around(bk):
                if upcoming is not None and upcoming[0] is block \
                        and upcoming[1] is bk:
                    yield ("call-next", block, None, None)
                elif block.isflag:
                    yield ("skip", block, words("call_flag", cell=Cell(cell_of(block))),
                           "if not block")
                else:
                    yield ("skip", block, words("call_open", cell=Cell(cell_of(block))),
                           "if not block")
            yield ("done", bk, words("call_done"), "for block")
        rp.stack.pop()

    while upcoming is not None:
        frames.append(call(upcoming[0]))
        upcoming = next(callers, None)
        while frames:
            step = next(frames[-1], None)
            if step is None:
                frames.pop()
            elif step[0] == "call-next":
                frames.append(call(step[1]))
                upcoming = next(callers, None)
            else:
                yield step


def queue_steps(rp):
    """The steps of the same opening done with a queue (breadth first)."""
    rp.queue = [tile for tile, caller in rp.calls if caller is None]
    rp.deepest = len(rp.queue)
    while rp.queue:
        bk = rp.queue.pop(0)
        rp.open(bk)
        if bk.number != 0:
            yield ("take", bk, words("queue_number", cell=Cell(cell_of(bk)),
                                     number=bk.number), "continue")
            continue
        joining = [block for block in rp.closed_around(bk)
                   if block not in rp.queue and not block.isflag]
        rp.queue.extend(joining)
        rp.deepest = max(rp.deepest, len(rp.queue))
        yield ("take", bk, words("queue_zero", cell=Cell(cell_of(bk)),
                                 count=len(joining)), "queue.append")


def deepest_call(calls):
    """How many calls of a recorded flood were running at once, at most."""
    depth = {None: 0}
    for tile, caller in calls:
        depth[tile] = depth[caller] + 1
    return max(depth.values())


def start_replay(kind):
    """Show the last opening again, as recursion ("stack") or a queue."""
    global replay
    if last_opening is not None:
        replay = Replay(kind, *last_opening)


def end_replay():
    """Stop a replay: the board shows as it really is."""
    global replay
    replay = None


def replay_update(dt):
    """Step the replay on by the time that passed."""
    if replay is None or replay.paused:
        return
    replay.wait -= dt
    while replay is not None and replay.wait <= 0:
        replay.wait += 1 / SPEEDS[speed]
        replay_step()


def replay_step():
    """One step of the replay; at the end the board shows as it is."""
    if not replay.advance():
        end_replay()


def toggle_slowmo():
    """V: slow motion on or off; the window grows for its panel."""
    global slowmo, message
    slowmo = not slowmo
    end_replay()
    layout()
    message = words("slowmo_on") if slowmo else words("slowmo_off")


def change_speed(step):
    """+ and -: a faster or slower replay."""
    global speed
    speed = min(max(speed + step, 0), len(SPEEDS) - 1)


def replay_key(key):
    """Keys while a replay shows; True if the key was the replay's."""
    if key in (keys.ESCAPE, keys.V):
        end_replay()
        if key == keys.V:
            toggle_slowmo()
    elif key == keys.SPACE:
        replay.paused = True
        replay_step()
    elif key in (keys.PLUS, keys.EQUALS, keys.KP_PLUS):
        change_speed(1)
    elif key in (keys.MINUS, keys.KP_MINUS):
        change_speed(-1)
    elif key == keys.W:
        start_replay("queue" if replay.kind == "stack" else "stack")
    elif key == keys.L:
        toggle_language()               # the replay goes on, in other words
    elif key in LEVEL_KEYS or key == keys.R:
        return False
    else:
        replay.paused = not replay.paused
    return True


def open_block_lines():
    """open_block's own lines as this file has them, without comments."""
    # pgzero's loaders know the game's folder; __file__ may not (README).
    code = open_block.__code__
    path = os.path.join(pgzero.loaders.root, os.path.basename(code.co_filename))
    try:
        with open(path, encoding="ascii") as f:
            lines = f.read().splitlines()
    except (OSError, ValueError):
        return []
    lines = inspect.getblock(lines[code.co_firstlineno - 1:])
    return [line.split("  #")[0].rstrip() for line in lines if line.strip()
            and not line.strip().startswith(("#", '"""'))]


def stack_chain(stack):
    """The calls on the stack, outermost first, shortened in the middle."""
    names = ["open_block(%d,%d)" % (tile.row + 1, tile.col + 1) for tile in stack]
    if len(names) > 2 * CHAIN_ENDS + 1:
        names = names[:CHAIN_ENDS] + [say("panel_more", count=(
            len(names) - 2 * CHAIN_ENDS))] + names[-CHAIN_ENDS:]
    return " -> ".join(names)


def replay_status():
    """The panel's words about where the replay is (or the last one was)."""
    if replay is None:
        if last_opening is None:
            return say("panel_idle")
        calls = last_opening[0]
        return say("panel_last", calls=len(calls), deepest=deepest_call(calls))
    done = len(replay.number)
    if replay.kind == "stack":
        return "\n".join([say("panel_call", done=done, total=len(replay.calls)),
                          say("panel_depth", depth=len(replay.stack),
                              deepest=replay.deepest),
                          say("panel_limit", limit=sys.getrecursionlimit())])
    return "\n".join([say("panel_tile", done=done, total=len(replay.calls)),
                      say("panel_queue", length=len(replay.queue),
                          longest=replay.deepest)])


# Colours of the replay's marks: (red, green, blue, opacity).
RUNNING = (255, 200, 0, 150)     # the call running now
WAITING = (60, 140, 255, 110)    # calls waiting on the stack, or in the queue
SKIPPED = (230, 0, 0)            # a neighbour the loop skips
tints = {}                       # (colour, size) -> a see-through tile


def tint(colour):
    """A see-through square the size of a tile, made once per colour."""
    if (colour, tile) not in tints:
        square = pygame.Surface((tile, tile), pygame.SRCALPHA)
        square.fill(colour)
        tints[(colour, tile)] = square
    return tints[(colour, tile)]


def draw_replay_marks():
    """Call numbers on the tiles, and the stack (or queue) in colour."""
    waiting = replay.stack[:-1] if replay.kind == "stack" else replay.queue
    for block in waiting:
        if in_view(block.row, block.col):
            screen.blit(tint(WAITING), tile_rect(block.row, block.col))
    running = replay.step[1] if replay.step[0] in ("take",) else (
        replay.stack[-1] if replay.stack else None)
    if running is not None and in_view(running.row, running.col):
        screen.blit(tint(RUNNING), tile_rect(running.row, running.col))
    for block, number in replay.number.items():
        if in_view(block.row, block.col):
            place = tile_rect(block.row, block.col).move(-1, 0).bottomright
            screen.draw.text(str(number), bottomright=place,
                             fontsize=13 if number < 100 else 11, color=(0, 0, 0),
                             owidth=1, ocolor=(255, 255, 255))
    if replay.step[0] == "skip":
        draw_frame(replay.step[1].row, replay.step[1].col, SKIPPED)


def draw_lines(text, x, y, width, fontsize, colour):
    """A text broken into lines at (x, y); the y below it."""
    fontname, fontsize = font_for(text), text_size(text, fontsize)
    lines = wrap(text, fontname, fontsize, width)
    screen.draw.text("\n".join(lines), topleft=(x, y), fontname=fontname,
                     fontsize=fontsize, color=colour)
    return y + len(lines) * pgzero.ptext.getfont(fontname, fontsize).get_linesize()


def draw_panel():
    """The slow-motion panel right of the board: where the replay is, the
    calls on the stack, and the code with the line being run."""
    left = board_width()
    screen.draw.filled_rect(Rect(left, 0, PANEL, HEIGHT), (235, 235, 225))
    x, y, width = left + 10, 8, PANEL - 20
    title = say("panel_title" if replay is None or replay.kind == "stack"
                else "panel_queue_title")
    y = draw_lines(title, x, y, width, 22, (0, 0, 120)) + 2
    y = draw_lines(replay_status(), x, y, width, 18, "black") + 4
    if replay is not None:
        y = draw_lines(speak(replay.step[2]), x, y, width, 18, (150, 0, 0)) + 4
        if replay.kind == "stack":
            y = draw_lines(say("panel_stack"), x, y, width, 16, (0, 60, 160))
            y = draw_lines(stack_chain(replay.stack), x, y, width, 16, "black")
        y += 6
    draw_code(x, y, width)
    draw_text(say("panel_keys", speed=SPEEDS[speed]),
              bottomleft=(x, HEIGHT - 6), width=width, fontsize=16,
              color=(60, 60, 60))


def draw_code(x, y, width):
    """open_block's lines (or the queue's), the one being run highlighted."""
    queue = replay is not None and replay.kind == "queue"
    lines = QUEUE_LINES if queue else open_block_lines()
    word = replay.step[3] if replay is not None else None
    current = next((i for i, line in enumerate(lines) if word and word in line), None)
    top = y
    screen.draw.filled_rect(Rect(x - 4, top - 2, width + 8, 16 * len(lines) + 4),
                            (255, 255, 255))
    for index, line in enumerate(lines):
        if index == current:
            screen.draw.filled_rect(Rect(x - 4, y - 1, width + 8, 16), RUNNING[:3])
        indent = len(line) - len(line.lstrip())
        screen.draw.text(line.strip(), topleft=(x + 5 * indent, y), fontsize=16,
                         color="black")
        y += 16


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: the game's words, in English or Chinese
#
# Everything the game draws is said with say(key, facts...), from TEXTS
# below (English) or texts/zh.json (Chinese, read as UTF-8: this file stays
# ASCII). A message is kept as its key and facts, not as text, so pressing L
# changes every word on the screen at once. Cells among the facts are named
# as "row 4, col 7" (in English) or in the Chinese way.
# ---------------------------------------------------------------------------
TEXTS = {
    "place": "row {row}, col {col}",
    "place_short": "({row},{col})",
    # Reasons the solver gives (it gives their names and facts).
    "touches_one": "the {number} at {at} already touches a bomb at {bomb}",
    "touches_many": "the {number} at {at} already touches {count} bombs",
    "no_bomb": "the {number} at {at} has no bomb around it",
    "only_closed": "the {number} at {at} has only {closed} closed neighbour{closed_s}",
    "needs_more": "the {number} at {at} needs {left} more bomb{left_s} and has only "
                  "{closed} closed neighbour{closed_s} left",
    "subset_safe": "every closed neighbour of the {number_a} at {at_a} is also "
                   "next to the {number_b} at {at_b}, so {cell} is safe",
    "subset_bomb": "every closed neighbour of the {number_a} at {at_a} is also "
                   "next to the {number_b} at {at_b}, so {cell} is a bomb",
    "counting": "counting all the bombs left",
    "no_way": "no way the bombs can lie puts one at {cell}",
    "every_way": "every way the bombs can lie puts one at {cell}",
    "hint_safe": "Safe: {why}",
    "hint_bomb": "Bomb: {why}",
    "guess": "Guess: {cell}: {chance}% chance of a bomb",
    "guess_rough": "{guess}, the lowest the rules see (too many ways to count)",
    "guess_lowest": "{guess}, the lowest",
    "guess_not_lowest": "{guess} (the lowest is {lowest}%)",
    "guess_next": "{guess}; if safe, {sure}% chance of a sure move next",
    "guess_win": "{guess}: the best chance to win the game, {win}%",
    "guess_fifty": "{guess}: a 50/50 that no other move can ever settle, so it is "
                   "taken now",
    "guess_cut": "{guess} (a big board: {done} of {all} cells weighed in time)",
    "guess_or_safe": "{guess}: if it is a bomb, it is half of a 50/50 that would have "
                     "to be guessed anyway, so it is taken now",
    # After a loss.
    "chord_shown": "The chord trusted a wrong flag at {cell}, and the board showed "
                   "it: {why}.",
    "chord_guess": "The chord trusted a wrong flag at {cell}; nothing on the board "
                   "showed it was wrong: the flag was a guess.",
    "sure_bomb": "Avoidable: {cell} was surely a bomb: {why}.",
    "sure_safe": "Avoidable: {cell} was surely safe: {why}.",
    "guessed_rough": "No safe move was found by the rules (too many ways to count "
                     "exactly): you guessed.",
    "guessed": "No safe move existed: you guessed, with a {chance} chance of a bomb.",
    "guessed_safer": "{text} The safest guess was {cell}, at {best}.",
    "guessed_best": "{text} That was as safe as any guess.",
    "one_in": "1 in {n} ({percent}%)",
    "percent": "{percent}%",
    "take_it_back": "{text}  U: take it back.",
    # The line below the grid.
    "no_guess_failed": "No no-guess board found in time: this one may need a guess",
    "saved_waiting": "A saved game is waiting ({level}, board {board}, {seconds} s): "
                     "C goes on with it, any other key or click starts afresh",
    "custom": "{rows} x {cols}, {bombs} bomb{bombs_s}",
    "welcome_back": "Welcome back to board {board}",
    "board_chosen": "Board {board}: click the green tile first to get the same game "
                    "as everyone",
    "typing": "Board number: {digits}_   Enter: play it   Esc: never mind",
    "hints_later": "Hints start after the first click",
    "game_over": "The game is over: R for a new one",
    "u_later": "U takes back a move that lost, once the game is lost",
    "taken_back": "Move taken back ({count} so far): no record for this game",
    "slowmo_on": "Slow motion on: the next opening replays step by step",
    "slowmo_off": "Slow motion off",
    "flagwin_on": "Flag win on: a game is also won when exactly the bombs are flagged",
    "flagwin_off": "Flag win off",
    "noguess_on": "No-guess boards on, from the next game (R starts one)",
    "noguess_on_now": "No-guess boards on: this board will need no guess",
    "noguess_off": "No-guess boards off, from the next game (R starts one)",
    "noguess_off_now": "No-guess boards off: this board is laid at random",
    "zoom": "Tiles of {size} px (Z: another size)",
    "chinese_missing": "The Chinese texts could not be read: see the console",
    "mode_view": "In view: rows {top}-{bottom} of {rows}, cols {left}-{right} of "
                 "{cols} (wheel, Shift+wheel: scroll)",
    "mode_questions": "?-marks on",
    "mode_noguess": "no-guess on",
    "mode_slowmo": "slow motion on",
    "mode_flagwin": "flag win on",
    "mode_auto": "autoplay (any key stops)",
    "mode_sure": "sure moves only (any key stops)",
    "keys": "H\u00a0hint  A\u00a0auto  S\u00a0sure  N\u00a0no-guess  V\u00a0slow  "
            "Q\u00a0?  X\u00a0flag\u00a0win  G\u00a0board\u00a0no.  P\u00a0pause  "
            "B\u00a0best\u00a0times  Z\u00a0zoom  L\u00a0{other}  R\u00a0new  "
            "1\u00a02\u00a03\u00a00\u00a0level",
    # The end of a game.
    "title": "Minesweeper: {level}, board {board}",
    "finished": "Finished",
    "failed": "Failed",
    "end_board": "Board {board}",
    "end_time": "Time {time} s   3BV {bbbv}",
    "end_clicks": "Clicks {clicks}   3BV/s {speed}",
    "end_efficiency": "Efficiency {percent}%",
    "new_best": "New best time for {level}!",
    "new_best_noguess": "New best time for {level}, no-guess boards!",
    "end_toggle": "E or a click on the board: hide or show the word",
    "paused": "Paused: P or a click goes on",
    # The table of best times (B).
    "times_title": "Best times",
    "times_normal": "Boards laid at random",
    "times_noguess": "No-guess boards",
    "times_none": "{level}: none yet",
    "times_line": "{level}: {time} s on {date}",
    "times_close": "Any key or click closes this table",
    "not_saved": "Best time not saved (see the console)",
    "taken_back_end": "Moves taken back: {count} (no record)",
    "helped": "Hints or autoplay helped: no record",
    "Chapter": "Chapter", "Beginner": "Beginner", "Intermediate": "Intermediate",
    "Expert": "Expert",
    # Slow motion.
    "replay_start": "Click: pause. Space: one step.",
    "call_starts": "open_block{cell:short} starts: call {number}, depth {depth}",
    "call_number": "It shows {number}, a number: return",
    "call_loop": "No bomb around: open each closed neighbour",
    "call_flag": "{cell:short} has a flag: skip it",
    "call_open": "{cell:short} is open already: skip it",
    "call_done": "All its neighbours are done: return",
    "queue_number": "Take {cell:short} from the front and open it: it shows {number}, "
                    "so nothing joins the queue",
    "queue_zero": "Take {cell:short} from the front and open it: no bomb around, so "
                  "its closed neighbours not yet in the queue join the back ({count})",
    "panel_title": "Slow motion: open_block",
    "panel_queue_title": "The same opening with a queue",
    "panel_idle": "Click a tile that opens an area: the opening replays here, call "
                  "by call.",
    "panel_last": "The last opening: {calls} calls of open_block, at most {deepest} "
                  "inside each other. W: watch it again, done with a queue.",
    "panel_call": "call {done} of {total}",
    "panel_tile": "tile {done} of {total}",
    "panel_depth": "depth {depth}, deepest so far {deepest}",
    "panel_limit": "Python's recursion limit: {limit}",
    "panel_queue": "queue length {length}, longest so far {longest}",
    "panel_stack": "Calls waiting on the stack, outermost first:",
    "panel_more": "... {count} more ...",
    "panel_keys": "Click or P: pause or go on.  Space: one step.  + and -: speed ({speed} "
                  "steps a second).  Esc: end.  W: the other way (queue or recursion).  "
                  "V: off.",
}


language = "en"          # the language the game speaks: "en" or "zh"
texts = {"en": TEXTS}    # the texts of each language read so far
FONTS = {"zh": "minesweep_zh"}   # fonts/ files with the glyphs a language needs


def read_texts(name):
    """The texts of a language from texts/NAME.json, or None (said once)."""
    path = os.path.join(pgzero.loaders.root, "texts", name + ".json")
    try:
        with open(path, encoding="utf-8") as f:
            table = json.load(f)
    except (OSError, ValueError) as error:
        say_once("texts", "minesweep: cannot read %s (%s); the game speaks "
                 "English." % (path, error))
        return None
    if not isinstance(table, dict) or not all(
            isinstance(table.get(key), str) for key in TEXTS):
        say_once("texts", "minesweep: %s lacks some texts; the game speaks "
                 "English." % path)
        return None
    return table


def set_language(name):
    """Speak this language from now on, if its texts and font can be had."""
    global language
    if name != "en" and FONTS.get(name) is None:
        return False
    if name != "en" and name not in texts:
        table = read_texts(name)
        if table is None:
            return False
        texts[name] = table
    language = name
    return True


class Place:
    """A cell as the player reads it: "row 4, col 7", "(4,7)", or in Chinese."""

    def __init__(self, cell):
        """Remember the cell's row and column, counted from 1."""
        self.row, self.col = cell // COLS + 1, cell % COLS + 1

    def __format__(self, spec):
        """The cell in words; the spec "short" asks for the short form."""
        return say("place_short" if spec == "short" else "place",
                   row=self.row, col=self.col)


def say(key, **facts):
    """A text in the player's language, with its facts put in."""
    template = texts.get(language, TEXTS).get(key, TEXTS[key])
    spoken = {}
    for name, value in facts.items():
        if isinstance(value, tuple):
            value = speak(value)            # words inside words
        elif isinstance(value, Cell):
            value = Place(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            spoken[name + "_s"] = "" if value == 1 else "s"
        spoken[name] = value
    return template.format(**spoken)


def words(key, **facts):
    """Something to say later, in the language of that moment."""
    return (key, facts)


def speak(said):
    """Words kept by words(), said now; "" for nothing."""
    return say(said[0], **said[1]) if said else ""


def font_for(text):
    """The font that has every letter of this text (None: pgzero's own)."""
    if any(ord(letter) > 0x2000 for letter in text):
        return FONTS["zh"]
    return None


def check_fonts():
    """Without the Chinese font the game speaks English only (said once)."""
    path = os.path.join(pgzero.loaders.root, "fonts", FONTS["zh"] + ".ttf")
    if not os.path.isfile(path):
        say_once("texts", "minesweep: %s is missing: the game speaks English "
                 "(python tools/make_font.py makes it)" % path)
        FONTS["zh"] = None


# Chinese letters (and their punctuation) may have a line break between any
# two of them; other words break only at spaces (a no-break space holds).
CHINESE = "\u2e80-\u9fff\u3000-\u303f\uff00-\uffef"
PIECES = re.compile("[%s]| +|[^ %s]+" % (CHINESE, CHINESE))
ZH_SCALE = 0.85          # the Chinese font's letters are larger at one size


@functools.lru_cache(maxsize=512)
def wrap(text, fontname, fontsize, width):
    """The lines of text no wider than width px, in this font and size."""
    font = pgzero.ptext.getfont(fontname, fontsize)
    lines = []
    for paragraph in text.split("\n"):
        line = ""
        for piece in PIECES.findall(paragraph):
            if line and font.size(line + piece)[0] > width:
                lines.append(line.rstrip())
                line = piece.lstrip()
            else:
                line += piece
        lines.append(line.rstrip())
    return lines


def text_size(text, fontsize):
    """The size to draw a text at: Chinese a little smaller, to match."""
    return round(fontsize * ZH_SCALE) if font_for(text) else fontsize


def draw_text(text, width=None, fontsize=20, **where):
    """screen.draw.text, in a font that has the text's letters; with width,
    the lines are broken to fit (Chinese between any two letters). Where
    the text went, as a Rect."""
    fontname, fontsize = font_for(text), text_size(text, fontsize)
    if width is not None:
        text = "\n".join(wrap(text, fontname, fontsize, width))
    return put_text(text, fontname, fontsize, **where)


def put_text(text, fontname, fontsize, **where):
    """Draw a text in exactly this font and size; where it went, as a Rect."""
    picture, place = pgzero.ptext.draw(text, surf=screen.surface,
                                       fontname=fontname, fontsize=fontsize, **where)
    return Rect(place, picture.get_size())


@functools.lru_cache(maxsize=256)
def fit_lines(text, width, most, largest):
    """A text broken into lines no wider than width px, at the largest size
    from largest down to 10 px whose lines fit in most px of height; at 10 px
    the lines that do not fit are cut, with "..." at the end.
    (lines, font, size, height)."""
    fontname = font_for(text)
    for size in range(largest, 9, -1):
        fontsize = text_size(text, size)
        font = pgzero.ptext.getfont(fontname, fontsize)
        lines = wrap(text, fontname, fontsize, width)
        if fontsize <= 10 or len(lines) * font.get_linesize() <= most:
            break
    keep = max(most // font.get_linesize(), 1)
    if len(lines) > keep:
        lines = lines[:keep]
        last = lines[-1]
        while last and font.size(last + "...")[0] > width:
            last = last[:-1]
        lines[-1] = last + "..."
    return tuple(lines), fontname, fontsize, len(lines) * font.get_linesize()


def settings_fault(value):
    """What is wrong with the settings file, or "" if nothing."""
    good = isinstance(value, dict) and value.get("language") in ("en", "zh")
    return "" if good else "not the game's settings"


def remember_language():
    """Keep the language chosen with L for the next start (beside the best times)."""
    try:
        with_data("settings.json", settings_fault, "the settings",
                  lambda old: dict(old or {}, language=language))
    except SaveError as error:
        say_once("settings", "minesweep: cannot keep the language: %s" % error)


def system_language():
    """The language the computer speaks: "zh" for Chinese, else "en"."""
    names = [os.environ.get(name, "") for name in ("LANGUAGE", "LC_ALL",
                                                    "LC_MESSAGES", "LANG")]
    try:
        names.append(locale.getlocale()[0] or "")
    except ValueError:
        pass
    for name in names:
        if name:
            return "zh" if name.lower().startswith(("zh", "chinese")) else "en"
    return "en"


def choose_language(asked):
    """At start: --lang, else MINESWEEP_LANG, else the choice kept from last
    time, else the computer's own language."""
    chosen = asked or os.environ.get("MINESWEEP_LANG", "")
    if chosen not in ("en", "zh"):
        kept = read_kept("settings.json", settings_fault, "the settings")
        chosen = kept["language"] if kept else system_language()
    set_language(chosen)


def toggle_language():
    """L: English or Chinese."""
    global message, TITLE
    if not set_language("zh" if language == "en" else "en"):
        message = words("chinese_missing")
        return
    TITLE = title()
    remember_language()


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: a view that fits any screen
#
# The book's window is one 25 px square per tile, which is fine for 15 x 15.
# A board of 100 x 200 would need a window 5000 px wide, so here the window
# is never larger than the desktop: the tiles get smaller (20 or 16 px, drawn
# by tools/make_assets.py) and, if even that is too big, the window shows part
# of the board and scrolls (mouse wheel, Shift+wheel, the arrow keys). Z picks
# the tile size by hand. The standard levels fit at 25 px, as in the book.
# ---------------------------------------------------------------------------
TILE_SIZES = (SIZE, 20, 16)  # tile sizes the view may use, largest first, px
ROOM = (0, 80)           # what the window leaves free of the desktop for a
                         # title bar and a task bar, px
FOOT_FONT = 16           # size of the footer's text, px (10 px at the least)
WHEEL_STEP = 3           # rows or columns one turn of the wheel scrolls

desktop = None           # (width, height) of the desktop, read at start-up
tile = SIZE              # a tile's size on the screen now, px
zoom = None              # the tile size chosen with Z, or None to fit
view_row = view_col = 0  # the first row and column in view
view_rows = ROWS         # how many rows are in view
view_cols = COLS         # ... and how many columns
footer = ((), None, FOOT_FONT, FOOT)   # the footer's lines, font, size
                                        # and height


def desktop_size():
    """The size of the desktop the window opens on (pygame knows it before
    the window opens); 1024 x 768 if it cannot tell."""
    if desktop is not None:
        return desktop
    try:
        return tuple(pygame.display.get_desktop_sizes()[0])
    except (pygame.error, IndexError, AttributeError):
        return (1024, 768)


def window_room():
    """The largest window the desktop has room for, px."""
    width, height = desktop_size()
    return max(width - ROOM[0], MIN_WIDTH), max(height - ROOM[1], 2 * MIN_HEIGHT)


def board_width():
    """The width of the board's part of the window: the tiles in view, or
    MIN_WIDTH if they are narrower."""
    return max(tile * view_cols, MIN_WIDTH)


def board_height():
    """The height of the board's part of the window (at least MIN_HEIGHT)."""
    return max(tile * view_rows, MIN_HEIGHT)


def choose_tile(room_width, room_height):
    """The tile size: Z's choice, else the largest whole board fits at."""
    if zoom is not None:
        return zoom
    for size in TILE_SIZES:
        if COLS * size <= room_width and ROWS * size <= room_height:
            return size
    return TILE_SIZES[-1]


def layout():
    """Size the window for the board, the footer's words and the slow-motion
    panel, never larger than the desktop; keep the view on the board."""
    global WIDTH, HEIGHT, GRID_LEFT, GRID_TOP, tile, view_rows, view_cols, footer
    room_width, room_height = window_room()
    if slowmo:
        room_width -= PANEL
    # The footer needs the width first, and the rows in view need the footer.
    tile = choose_tile(room_width, room_height - BAR - FOOT)
    view_cols = min(COLS, max(room_width // tile, 1))
    footer = footer_lines(board_width(), room_height // 3)
    room_rows = (room_height - BAR - footer_height()) // tile
    view_rows = min(ROWS, max(room_rows, 1))
    GRID_LEFT = (board_width() - tile * view_cols) // 2
    GRID_TOP = BAR + (board_height() - tile * view_rows) // 2
    WIDTH = board_width()
    HEIGHT = BAR + board_height() + footer_height()
    if slowmo:
        WIDTH += PANEL
        HEIGHT = max(HEIGHT, min(PANEL_HEIGHT, room_height))
    scroll(0, 0)


def tile_rect(row, col):
    """Where the view shows a tile, in window px."""
    return Rect(GRID_LEFT + (col - view_col) * tile,
                GRID_TOP + (row - view_row) * tile, tile, tile)


def in_view(row, col):
    """True if the tile at this row and column is in the view."""
    return (view_row <= row < view_row + view_rows
            and view_col <= col < view_col + view_cols)


def block_under(pos):
    """The tile under a point of the window, or None."""
    col = (int(pos[0]) - GRID_LEFT) // tile
    row = (int(pos[1]) - GRID_TOP) // tile
    if 0 <= row < view_rows and 0 <= col < view_cols:
        return block_at(view_row + row, view_col + col)
    return None


def scroll(drows, dcols):
    """Move the view by rows and columns, staying on the board."""
    global view_row, view_col
    view_row = min(max(view_row + drows, 0), ROWS - view_rows)
    view_col = min(max(view_col + dcols, 0), COLS - view_cols)


def follow(row, col):
    """Bring this tile into view: a step at a time when it is next to the
    view's edge (as the cursor moves), else with the tile in the middle."""
    if not in_view(row, col):
        scroll(row - view_rows // 2 - view_row, col - view_cols // 2 - view_col)
        return
    # Keep a tile to spare round the cursor where the view has room.
    if view_rows > 2:
        scroll(min(row - 1 - view_row, 0) + max(row + 2 - view_row - view_rows, 0), 0)
    if view_cols > 2:
        scroll(0, min(col - 1 - view_col, 0) + max(col + 2 - view_col - view_cols, 0))


def change_zoom():
    """Z: the next smaller tile size, then back to the largest."""
    global zoom, message
    sizes = list(TILE_SIZES)
    zoom = sizes[(sizes.index(tile) + 1) % len(sizes)]
    layout()
    if cursor is not None:
        follow(*cursor)
    message = words("zoom", size=tile)


def wheel(button):
    """The mouse wheel scrolls the rows; with Shift, the columns."""
    step = -WHEEL_STEP if button == mouse.WHEEL_UP else WHEEL_STEP
    if keyboard.lshift or keyboard.rshift:
        scroll(0, step)
    else:
        scroll(step, 0)


def tile_picture(name):
    """A tile's picture at the size the view shows tiles."""
    return pictures.get((name, tile)) or pictures.setdefault(
        (name, tile), images.load(name if tile == SIZE else "%s_%d" % (name, tile)))


pictures = {}            # (picture name, size) -> the picture, loaded once


DISPLAY_TRIES = 12       # times to ask X11 again for the window (0.25 s apart)


def prepare_window():
    """Ask SDL for a window that stays on the screen and is cheap to show."""
    # A window that grows (a bigger level, slow motion) keeps its top left
    # corner, and could run off the screen: SDL centres it again instead.
    os.environ.setdefault("SDL_VIDEO_CENTERED", "1")
    # On Linux, show the window straight through X11 (MIT-SHM) rather than
    # through OpenGL: without a graphics card OpenGL is done by the
    # processor, and showing a still window 60 times a second then takes a
    # quarter of a core. SDL decides once, when the display starts, so the
    # display is started again (pgzero opened it before this file ran).
    if (not sys.platform.startswith("linux")
            or "SDL_FRAMEBUFFER_ACCELERATION" in os.environ
            or os.environ.get("SDL_VIDEODRIVER", "x11") != "x11"):
        return
    os.environ["SDL_FRAMEBUFFER_ACCELERATION"] = "0"
    if not pygame.display.get_init():
        return
    pygame.display.quit()
    # Now and then X11 refuses a new client for a moment ("x11 not
    # available", seen under Xvfb): try again for a few seconds.
    for attempt in range(DISPLAY_TRIES):
        try:
            pygame.display.init()
            pygame.display.set_mode((100, 100))   # as pgzero had it: pictures
            return                                # load only once a window is set
        except pygame.error as error:
            problem = error
            pygame.display.quit()
            time.sleep(0.25)
    sys.exit("minesweep: cannot open a window: %s" % problem)


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: drawing only what changed
#
# The chapter draws every tile in every frame (for block in blocks:
# block.draw()), and the lesson steps still do. That costs little on 15 x 15,
# but on 100 x 200 it takes most of a core even when nothing happens. So the
# full game keeps the tiles in view in a picture of their own (the canvas),
# redraws there only the tiles whose picture changed, and when nothing in the
# window changed at all, draw() does nothing: the window keeps what it shows.
# ---------------------------------------------------------------------------
class Tile(Actor):
    """The chapter's Actor, which also notes when its picture changes."""
    changes = 0                      # pictures changed since the game began

    def set_image(self, name):
        """Change the picture, and note the tile for the next draw()."""
        if "_surf" in self.__dict__:
            # Every tile picture is 25 x 25 px, so the tile need not be
            # measured and placed again, which is most of what the Actor's
            # own image setter costs (pgzero 1.2.1 keeps the picture in
            # _image_name, _orig_surf and _surf).
            self._image_name = name
            self._orig_surf = self._surf = images.load(name)
        else:
            Actor.image.fset(self, name)    # the first picture sizes the Actor
        Tile.changes += 1
        changed_tiles.add(self)

    # block.image reads as the Actor's does; block.image = ... also notes it.
    image = property(Actor.image.fget, set_image)


changed_tiles = set()    # tiles whose picture changed since the last draw()


class Canvas:
    """What the window shows now, so that draw() can skip what is the same."""
    scene = None         # the scene() last drawn
    grid = None          # a picture of the tiles in view
    grid_view = None     # the view that picture was drawn for
    counter = (None, 0)  # (the tiles' state, bombs_left() then)


canvas = Canvas()


def counter_value():
    """bombs_left() for the status bar, counted again only when a tile's
    picture changed (every flag does), since counting takes time on a big
    board."""
    now = (Tile.changes, id(blocks), BOMBS)
    if canvas.counter[0] != now:
        canvas.counter = (now, bombs_left())
    return canvas.counter[1]


def scene():
    """Everything besides the tiles that the window shows: when it and the
    tiles are the same as last frame, the window needs no drawing."""
    # A window that changed size is blank: its size is part of the scene.
    return (screen.surface.get_size(), id(screen.surface), tile, view_row, view_col,
            view_rows, view_cols, min(int(timer), MAX_TIME), failed, finished,
            laid, board_number, cursor, hint_move, postmortem, footer, slowmo,
            end_hidden, paused, showing_times, language, Tile.changes,
            replay is None, speed)


def shown_picture(block):
    """The picture a tile shows now (during a replay, closed until opened)."""
    if replay is not None and block in replay.hidden:
        return "minesweep_block"
    return block.image


def paint_tile(block):
    """Draw one tile onto the canvas."""
    canvas.grid.blit(tile_picture(shown_picture(block)),
                     ((block.col - view_col) * tile, (block.row - view_row) * tile))


def paint_rows(rows, cols):
    """Draw these rows and columns of the board (ranges) onto the canvas."""
    for row in rows:
        for block in blocks[row * COLS + cols.start:row * COLS + cols.stop]:
            paint_tile(block)


def paint_tiles():
    """Bring the canvas up to date: when the view moved, shift what it shows
    and draw the rows and columns that came into view; when the size of the
    view changed (or a replay shows), draw every tile in view; then draw the
    tiles that changed."""
    old = canvas.grid_view
    canvas.grid_view = (tile, view_row, view_col, view_rows, view_cols,
                        replay is not None)
    rows = range(view_row, view_row + view_rows)
    cols = range(view_col, view_col + view_cols)
    # A replay shows tiles closed that are open: draw them all while it
    # shows, and once more when it ends.
    if old is None or old[0] != tile or old[3:5] != (view_rows, view_cols) or (
            replay is not None or old[5]):
        canvas.grid = pygame.Surface((tile * view_cols, tile * view_rows))
        paint_rows(rows, cols)
    elif old[1:3] != (view_row, view_col):
        down, right = view_row - old[1], view_col - old[2]
        canvas.grid.scroll(-right * tile, -down * tile)
        new_rows = range(max(view_row, old[1] + view_rows), rows.stop) if down > 0 else (
            range(view_row, min(rows.stop, old[1])))
        new_cols = range(max(view_col, old[2] + view_cols), cols.stop) if right > 0 else (
            range(view_col, min(cols.stop, old[2])))
        paint_rows(new_rows, cols)
        paint_rows(rows, new_cols)
    for block in changed_tiles:
        # A tile of an earlier board may still be noted: skip it.
        if block_at(block.row, block.col) is block and in_view(block.row, block.col):
            paint_tile(block)
    changed_tiles.clear()


# ---------------------------------------------------------------------------
# Drawing (draw only looks at the game; it never changes it)
# ---------------------------------------------------------------------------
def draw_status_bar():
    """Bombs left, the face and the timer, above the grid."""
    screen.draw.filled_rect(Rect(0, 0, board_width(), BAR), (192, 192, 192))
    left = counter_value()
    counter = "%03d" % left if left >= 0 else "-%02d" % min(-left, 99)
    seconds = "%03d" % min(int(timer), MAX_TIME)
    # A board of 1000 bombs or more needs a wider counter.
    wide = max(52, pgzero.ptext.getfont(None, 30).size(counter)[0] + 8)
    for text, x, width in ((counter, 6, wide), (seconds, board_width() - 58, 52)):
        screen.draw.filled_rect(Rect(x, 7, width, 26), (0, 0, 0))
        draw_text(text, center=(x + width // 2, 21), fontsize=30, color=(255, 0, 0))
    face = "face_win" if finished else "face_lose" if failed else "face_play"
    screen.blit(face, face_rect().topleft)


def draw_frame(row, col, colour):
    """A frame two pixels thick round one tile, if it is in view."""
    if in_view(row, col):
        frame = tile_rect(row, col)
        screen.draw.rect(frame, colour)
        screen.draw.rect(frame.inflate(-2, -2), colour)


def draw_highlights():
    """Yellow round the tile under the mouse or the keyboard cursor; the
    hint in green (safe), red (bomb) or orange (a guess); after a loss, the
    tile the post-mortem names, in green."""
    if not laid:
        start = start_tile()
        draw_frame(start // COLS, start % COLS, GREEN)
    if cursor is not None:
        draw_frame(cursor[0], cursor[1], (255, 215, 0))
    if postmortem is not None and postmortem[1] is not None:
        draw_frame(postmortem[1].row, postmortem[1].col, postmortem[2])
    if hint_move is not None:
        block, isbomb, reason = hint_move
        colour = {False: GREEN, True: (230, 0, 0), None: ORANGE}
        draw_frame(block.row, block.col, colour[isbomb])


def end_lines():
    """The lines of a won game: board, time, 3BV, clicks, speed, a record."""
    lines = [say("end_board", board=board_number),
             say("end_time", time="%.2f" % stats["time"], bbbv=stats["3bv"]),
             say("end_clicks", clicks=stats["clicks"],
                 speed="%.2f" % stats["3bv_per_s"]),
             say("end_efficiency", percent=round(100 * stats["efficiency"]))]
    if new_best:
        lines.append(say("new_best_noguess" if board_noguess else "new_best",
                         level=words(level_name())))
    elif unsaved:
        lines.append(say("not_saved"))
    elif undos:
        lines.append(say("taken_back_end", count=undos))
    elif assisted:
        lines.append(say("helped"))
    return lines


def board_area():
    """The board's part of the window, between the status bar and the footer."""
    return Rect(0, BAR, board_width(), board_height())


def draw_end():
    """The chapter's "Failed" or "Finished" over the board (the rest of the
    end is in the footer); E or a click on the board hides the word."""
    if end_hidden or not (finished or failed):
        return
    area = board_area()
    size = min(100, area.width // 5, area.height // 2)
    # See-through, so the bomb that went off still shows under the word.
    draw_text(say("finished" if finished else "failed"), center=area.center,
              fontsize=size, color="red", owidth=1, ocolor="white",
              alpha=0.8 if finished else 0.6)


def draw_cover(text):
    """Grey over the board and a few words on it: the pause."""
    area = board_area()
    screen.draw.filled_rect(area, (160, 160, 160))
    lines, fontname, fontsize, high = fit_lines(text, area.width - 16,
                                                area.height - 16, 22)
    put_text("\n".join(lines), fontname, fontsize, center=area.center,
             color="black", align="center")


def footer_words():
    """What the line below the grid says: after a game, how it ended."""
    if postmortem is not None:
        return postmortem_text() + "\n" + say("end_toggle")
    if finished and stats is not None:
        return "\n".join(end_lines() + [say("end_toggle")])
    if failed:
        return say("end_toggle")
    return footer_text()


def footer_lines(width, most):
    """The footer's lines for a window this wide, no taller than most px;
    the footer is never lower than the key list, so that it keeps its
    height while hints come and go. (lines, font, size, height)"""
    lines, fontname, fontsize, high = fit_lines(footer_words(), width - 8,
                                                most - 8, FOOT_FONT)
    keys_high = fit_lines(key_list(), width - 8, most - 8, FOOT_FONT)[3]
    return lines, fontname, fontsize, max(FOOT, high + 8, keys_high + 8)


def key_list():
    """The modes that are on and the keys, for the line below the grid."""
    modes = [key for key, on in (("mode_questions", questions),
                                 ("mode_noguess", noguess),
                                 ("mode_slowmo", slowmo),
                                 ("mode_flagwin", flagwin),
                                 ("mode_sure" if semiauto else "mode_auto",
                                  autoplaying)) if on]
    # The key list has a no-break space inside each pair, so that a line
    # breaks between pairs.
    other = "English" if language == "zh" else (
        "\u4e2d\u6587" if FONTS["zh"] else "Chinese")      # Chinese, in Chinese
    said = [say(mode) for mode in modes] + [say("keys", other=other)]
    if view_rows < ROWS or view_cols < COLS:
        # Which part of the board the view shows, so no one misses the rest.
        said.insert(0, say("mode_view", top=view_row + 1, bottom=view_row + view_rows,
                           rows=ROWS, left=view_col + 1, right=view_col + view_cols,
                           cols=COLS))
    return "   ".join(said)


def footer_text():
    """The line below the grid: a hint, news, or the modes and the keys."""
    if hint_move is not None:
        return speak(hint_move[2])
    if message:
        return speak(message)
    return key_list()


def draw_footer():
    """The line below the grid, as layout() broke it into lines."""
    top = BAR + board_height()
    # Down to the window's foot: with the slow-motion panel it is taller.
    screen.draw.filled_rect(Rect(0, top, board_width(), HEIGHT - top),
                            (192, 192, 192))
    lines, fontname, fontsize, high = footer
    if lines:
        put_text("\n".join(lines), fontname, fontsize, topleft=(4, top + 4),
                 color="black")


def draw_times():
    """B: the best time of each level, with its date; no-guess boards apart."""
    screen.fill((235, 235, 225))
    text = "\n".join(times_lines())
    # One line a record reads best: the largest size at which every line
    # fits whole, else lines broken to fit.
    fontname = font_for(text)
    for size in range(TIMES_FONT, 9, -1):
        fontsize = text_size(text, size)
        font = pgzero.ptext.getfont(fontname, fontsize)
        if (all(font.size(line)[0] <= WIDTH - 16 for line in text.split("\n"))
                and text.count("\n") * font.get_linesize() <= HEIGHT - 32):
            put_text(text, fontname, fontsize, center=(WIDTH // 2, HEIGHT // 2),
                     align="left", color="black")
            return
    lines, fontname, fontsize, high = fit_lines(text, WIDTH - 16, HEIGHT - 16,
                                                TIMES_FONT)
    put_text("\n".join(lines), fontname, fontsize, topleft=(8, 8), color="black")


def draw_board():
    """The tiles in view (from the canvas), and what goes on top of them."""
    paint_tiles()
    if canvas.grid.get_size() != board_area().size:
        screen.draw.filled_rect(board_area(), (128, 128, 128))   # round a small grid
    screen.blit(canvas.grid, (GRID_LEFT, GRID_TOP))
    if replay is not None:
        draw_replay_marks()
    elif paused:
        draw_cover(say("paused"))
    else:
        draw_highlights()
        draw_end()


# ---------------------------------------------------------------------------
# The Pygame Zero hooks
# ---------------------------------------------------------------------------
def update(dt):
    """Run the clock and check for a win, as the chapter does."""
    global timer, checked
    replay_update(dt)
    layout()                    # the footer's words may need another height
    if finished or failed or paused:
        return
    if started:
        timer = min(timer + dt, MAX_TIME)
    # Looking at every tile takes time on a big board, so only after a change.
    if laid and checked != (Tile.changes, flagwin):
        checked = (Tile.changes, flagwin)
        if all_safe_open() or flagwin and all_bombs_flagged():
            win()


def draw():
    """Draw the status bar, the tiles and the end of game, when any changed."""
    # The book draws every tile here, every frame; see "Drawing only what
    # changed" for why this game keeps them in a canvas instead.
    now = scene()
    if now == canvas.scene and not changed_tiles and replay is None:
        return      # the window still shows this; pgzero shows it again
    canvas.scene = now
    if showing_times:
        draw_times()
        return
    draw_status_bar()
    draw_board()
    draw_footer()
    if slowmo:
        draw_panel()


def on_mouse_down(pos, button):
    """Left opens, right flags, middle chords; the face restarts; the wheel
    scrolls."""
    global cursor, waiting, typing, pointer, paused, showing_times, end_hidden
    pointer = pos
    if button in (mouse.WHEEL_UP, mouse.WHEEL_DOWN):
        wheel(button)
        return
    held.add(button)
    if waiting is not None or typing is not None:
        waiting = typing = None             # a click: start afresh
    if showing_times or paused:
        showing_times = paused = False      # a click only closes the table
        return                              # or ends the pause
    if replay is not None:
        replay.paused = not replay.paused   # a click pauses the replay
        return
    if autoplaying:
        stop_autoplay()                     # a click only stops the solver
        return
    if face_rect().collidepoint(pos) and button == mouse.LEFT:
        new_game()
        return
    block = block_under(pos)
    if block is None:
        return
    if failed or finished:
        end_hidden = not end_hidden         # look at the board, or the word
        return
    cursor = (block.row, block.col)
    if button == mouse.LEFT:
        grid_action(block, click_open)
    elif button == mouse.RIGHT and block.isopen and mouse.LEFT in held:
        grid_action(block, chord)           # left and right together
    elif button == mouse.RIGHT:
        grid_action(block, click_flag)
    elif button == mouse.MIDDLE:
        grid_action(block, chord)


def on_mouse_up(button):
    """Forget a button that was let go."""
    held.discard(button)


def on_mouse_move(pos):
    """Highlight the tile under the mouse."""
    global cursor, pointer
    pointer = pos
    block = block_under(pos)
    if block is not None:
        cursor = (block.row, block.col)


# The keys that move the cursor, as (rows, cols) steps.
ARROWS = {keys.UP: (-1, 0), keys.DOWN: (1, 0),
          keys.LEFT: (0, -1), keys.RIGHT: (0, 1)}
# The number keys, on the main keyboard and the keypad, name a level.
LEVEL_KEYS = {keys.K_0: "0", keys.K_1: "1", keys.K_2: "2", keys.K_3: "3",
              keys.KP0: "0", keys.KP1: "1", keys.KP2: "2", keys.KP3: "3"}


def on_key_down(key):
    """Keys: arrows, Space, F, R, Q, H, A, S, U, G, L, X, V, W, N, P, B, E, Z
    and the levels 1, 2, 3 and 0 (the README's Controls says what each does)."""
    global questions, noguess, flagwin, message, typing, paused, showing_times
    global end_hidden
    if showing_times:
        showing_times = False               # any key closes the table
        return
    if paused:
        if key == keys.P:
            paused = False                  # P goes on; other keys wait
        return
    if replay is not None and replay_key(key):
        return
    if waiting is not None and answer_waiting(key):
        return
    if typing is not None:
        type_board_number(key)
        return
    end_replay()
    if autoplaying:
        stop_autoplay()                     # any key only stops the solver
        return
    if key in ARROWS:
        move_cursor(*ARROWS[key])
    elif key in (keys.SPACE, keys.RETURN, keys.F) and cursor is not None:
        action = click_flag if key == keys.F else click_open
        grid_action(block_at(*cursor), action)
    elif key == keys.R:
        new_game()
    elif key in LEVEL_KEYS:
        name, rows, cols, bombs = LEVELS[LEVEL_KEYS[key]]
        new_game(rows, cols, bombs)
    elif key == keys.Q:
        questions = not questions
    elif key == keys.H:
        show_hint()
    elif key == keys.A:
        start_autoplay()
    elif key == keys.S:
        start_autoplay(sure_only=True)
    elif key == keys.U:
        take_back()
    elif key == keys.G:
        typing = ""
        type_board_number(None)
    elif key == keys.L:
        toggle_language()
    elif key == keys.X:
        flagwin = not flagwin
        message = words("flagwin_on") if flagwin else words("flagwin_off")
    elif key == keys.V:
        toggle_slowmo()
    elif key == keys.W and slowmo:
        start_replay("queue")
    elif key == keys.P:
        paused = started and not (failed or finished)
    elif key == keys.B:
        show_times()
    elif key == keys.E:
        end_hidden = not end_hidden
    elif key == keys.Z:
        change_zoom()
    elif key == keys.N:
        noguess = not noguess
        message = words(("noguess_on" if noguess else "noguess_off") +
                        ("" if laid else "_now"))


# ---------------------------------------------------------------------------
# Start-up
# ---------------------------------------------------------------------------
def check_assets():
    """Stop with one clear message if a picture is missing; a missing sound
    is said once and the game plays without it."""
    # pgzero looks for them beside the script, wherever it was started from.
    smaller = ["%s_%d" % (name, size) for name in TILE_PICTURES
               for size in TILE_SIZES if size != SIZE]
    for folder, names, ext in (("images", PICTURES + smaller, ".png"),
                               ("sounds", SOUNDS, ".wav")):
        where = os.path.join(pgzero.loaders.root, folder)
        missing = [name + ext for name in names
                   if not os.path.isfile(os.path.join(where, name + ext))]
        if missing and folder == "images":
            sys.exit("minesweep: cannot start: %s missing in %s. Make the "
                     "pictures again with: python tools/make_assets.py"
                     % (", ".join(missing), where))
        if missing:
            say_once("sound", "minesweep: %s missing in %s: the game plays "
                     "without it (python tools/make_assets.py makes it)"
                     % (", ".join(missing), where))


def start():
    """The first board: ROWS, COLS and BOMBS at the top, or the command line."""
    global flagwin, desktop
    check_assets()
    check_fonts()
    prepare_window()
    desktop = desktop_size()
    # pgzrun marks itself with sys._pgzrun and refuses options of its own,
    # so only "python minesweep.py --rows 20 --cols 30 --bombs 99" has them.
    if not getattr(sys, "_pgzrun", False):
        rows, cols, bombs, board, flagwin, lang = board_from_command_line(sys.argv[1:])
        choose_language(lang)
        new_game(rows, cols, bombs, board)
    else:
        choose_language(None)
        try:
            new_game()
        except ValueError as error:
            sys.exit("minesweep: %s; change ROWS, COLS or BOMBS at the top of "
                     "minesweep.py" % error)
    find_saved_game()
    # Closing the window, Ctrl+Q and the system's "please stop" all end up
    # in atexit, where a game in progress is kept for the next start.
    atexit.register(save_on_exit)
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(0))


start()

pgzrun.go()
