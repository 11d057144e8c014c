# Minesweeper for Pygame Zero, after the chapter "The power of recursive
# functions: Minesweeper". Run it with:   pgzrun minesweep.py
# or open it in Thonny or IDLE and press Run (python minesweep.py).
# Sections 3.1 to 3.4 come first and follow the chapter; the sections marked
# "BEYOND THE CHAPTER" add what the classic desktop games have, and more,
# with the help of the small modules beside this file (docs/developers.md).
# Keep this file ASCII only: pgzero reads it in the computer's own encoding.

import os
import sys

# Two things are settled before pygame is first imported (import pgzrun,
# just below, imports it): its greeting, which a player does not need, and
# the sound driver, which on a computer with no sound card prints a screen
# of errors while it looks for one. Under pgzrun, pygame has started already.
NO_SOUND_CARD = False
if "pygame" not in sys.modules:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    # And pygame looks for setuptools' pkg_resources, which takes a fifth of
    # a second to load: pygame finds its own files as well without it, so it
    # is kept out until pygame has started (None: "no such module").
    sys.modules.setdefault("pkg_resources", None)
    try:
        from startup import no_sound_card, read_text
        NO_SOUND_CARD = "SDL_AUDIODRIVER" not in os.environ and no_sound_card(
            os.environ, sys.platform, read_text, os.path.exists)
    except ImportError:             # said below, with the other modules
        pass
    if NO_SOUND_CARD:
        os.environ["SDL_AUDIODRIVER"] = "dummy"

try:
    import pgzrun
finally:
    if sys.modules.get("pkg_resources", False) is None:
        del sys.modules["pkg_resources"]    # from now on it loads as usual
import atexit
import functools
import itertools
import random
import signal
import time

import pgzero
import pgzero.game
import pgzero.loaders
import pgzero.ptext
import pgzero.rect
import pygame
import pygame.freetype

# The modules beside this file: Python looks in the game's folder first.
try:
    import advice
    import bigstack
    import datafiles
    import gamestate
    import languages
    import scene
    import slowmotion
    import solver
    import startup
    import viewport
    import wording
    from gamestate import LEVELS, MAX_TIME, Mode, State
    from wording import words
except ImportError as error:
    sys.exit("minesweep: cannot start: %s. It belongs in the same folder as "
             "minesweep.py, with the other .py files that came with it." % error)

# A friendly check instead of a confusing error further down.
PGZERO_VERSION = [int(part) if part.isdigit() else 0
                  for part in pgzero.__version__.split(".")]
if sys.version_info < (3, 7) or PGZERO_VERSION < [1, 2]:
    print("This game needs Python 3.7 or newer and Pygame Zero 1.2 or newer.")
    print("You have Python %s and Pygame Zero %s." %
          (sys.version.split()[0], pgzero.__version__))
    sys.exit(1)

ROWS = 15                # rows of tiles
COLS = 15                # columns of tiles
SIZE = 25                # size of one tile, px
BOMBS = 20               # bombs on the board
BAR = viewport.BAR       # height of the status bar above the grid, px
# pgzero reads WIDTH, HEIGHT and TITLE every frame, so changing them
# changes the window: layout() sets WIDTH and HEIGHT for each board.
WIDTH = SIZE * COLS      # window width, px
HEIGHT = BAR + SIZE * ROWS + viewport.FOOT   # window height, px
TITLE = "Minesweeper"    # new_game adds the level and the board number

failed = False           # True once a bomb went off
finished = False         # True once every safe tile is open
blocks = []              # every tile, row by row: blocks[row * COLS + col]
play = showing = None    # the rest of the game, and what shows of it (below)


# ---------------------------------------------------------------------------
# 3.1 The tiles and the bombs
#
# The book makes the tiles with a double loop over the rows and columns,
# gives each Actor the booleans isbomb, isopen and isflag, then shuffles the
# list and puts bombs under its first BOMBS tiles. Here the same double loop
# is in new_game, so R and the level keys can build a fresh board, and each
# tile also knows its row and column, so its neighbours are found by
# arithmetic (fix a in docs/teacher.md). The bombs are laid at the first click,
# so the first click is never a bomb, and we shuffle a copy of the list, so
# blocks stays in row order (fix d).
# ---------------------------------------------------------------------------
def make_block(row, col):
    """Make one closed tile, with the chapter's three booleans."""
    block = Tile("minesweep_block")  # the book's Actor: Tile, beyond the chapter
    block.left = col * SIZE
    block.top = BAR + row * SIZE
    block.isbomb = False         # is there a bomb under it?
    block.isopen = False         # has it been opened?
    block.isflag = False         # has the player put a flag on it?
    block.row = row              # where the tile is, so neighbours are
    block.col = col              # found by arithmetic, not by a search
    block.isquestion = False     # has the player put a question mark on it?
    block.number = None          # the number it shows once open
    return block


def new_game(rows=None, cols=None, bombs=None, board=None):
    """Start a fresh game: ROWS x COLS with BOMBS unless given, any board number."""
    global ROWS, COLS, BOMBS, TITLE, blocks, failed, finished, play, showing
    # A board that cannot be played raises ValueError before anything changes.
    ROWS, COLS, BOMBS = gamestate.board_asked((ROWS, COLS, BOMBS), (rows, cols, bombs),
                                              board)
    clock.unschedule(autoplay_step)     # the solver stops playing the old board
    failed = finished = False
    play = gamestate.Game(random.randrange(1, 1000000) if board is None else board)
    showing = gamestate.Showing()
    TITLE = title()
    # The chapter's double loop: row by row, and in each row column by column.
    canvas.changed.clear()      # the old board's tiles need no drawing
    blocks = []
    # Python's garbage collector waits: a big board makes thousands of tiles at once.
    with bigstack.collector_waiting():
        for row in range(ROWS):
            for col in range(COLS):
                blocks.append(make_block(row, col))
        # Each tile keeps a list of the tiles around it (up to eight), worked
        # out once from the rows and columns instead of searched for every time.
        table = neighbour_table(ROWS, COLS)
        for cell, block in enumerate(blocks):
            block.neighbours = [blocks[other] for other in table[cell]]
    # open_block calls itself before it returns, so in an empty area up to
    # one call a tile waits inside the others: a large empty board needs more
    # room than Python gives at start (fix c); slow motion's recorder stands
    # between each two calls, so it needs twice that.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 2 * ROWS * COLS + 1000))


def block_at(row, col):
    """The tile at this row and column, or None outside the grid."""
    if 0 <= row < ROWS and 0 <= col < COLS:
        return blocks[row * COLS + col]
    return None


def cell_of(block):
    """A tile's cell number, row * COLS + col: its place in blocks."""
    return block.row * COLS + block.col


# For every cell of a board, the cells around it, worked out once a size.
neighbour_table = functools.lru_cache(maxsize=8)(solver.neighbour_table)


def lay_bombs(cells):
    """Put bombs at exactly these (row, col) cells and nowhere else."""
    global BOMBS
    places = set(cells)
    for row, col in places:
        if block_at(row, col) is None:
            raise ValueError("no tile at row %r, col %r" % (row, col))
    for block in blocks:
        block.isbomb = (block.row, block.col) in places
    BOMBS = len(places)
    play.laid = True


def lay_first_bombs(first):
    """At the first click: a no-guess board if N is on, else the chapter's shuffle."""
    board = board_now()
    # The board's own random numbers: the same board number gives the same board.
    rng = gamestate.board_random(play.board, board, cell_of(first), settings.noguess)
    if settings.noguess:
        cells = solver.no_guess_layout(board, cell_of(first), rng)
        if cells is not None:
            lay_bombs([divmod(cell, COLS) for cell in cells])
            play.noguess = True
            return
        showing.message = words("no_guess_failed")
    # The first click opens an area; on a crowded board only it is free.
    free = solver.keep_free(cell_of(first), board.around, BOMBS)
    # The chapter's idea: shuffle the tiles, then bomb the first BOMBS.
    # We shuffle a copy, so blocks stays in row order for block_at, and
    # with the board's own generator.
    shuffled = [block for block in blocks if cell_of(block) not in free]
    rng.shuffle(shuffled)
    lay_bombs([(block.row, block.col) for block in shuffled[:BOMBS]])


# ---------------------------------------------------------------------------
# 3.2 Flags
#
# The book's on_mouse_down asks every tile collidepoint(pos) to find the one
# under the mouse, and a right click calls set_flag, first written as "pass",
# then filled in to swap the picture and isflag. set_flag here is the same,
# with a third mark, the question mark, when Q turns it on. on_mouse_down
# (near the end of the file) finds the tile by arithmetic instead (the
# view's cell_under), because asking every tile is slow on a big board.
# ---------------------------------------------------------------------------
def set_flag(block):
    """Right click: put a flag on a closed tile, or take it off again."""
    if not block.isflag and not block.isquestion:
        block.image = "minesweep_flag"
        block.isflag = True
    elif block.isflag and settings.questions:
        # Beyond the book: with Q on, the order is flag, question mark, nothing.
        block.image = "minesweep_question"
        block.isflag = False
        block.isquestion = True
    else:
        block.image = "minesweep_block"
        block.isflag = False
        block.isquestion = False


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
    if not play.laid:
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
# card (fix e). update() still looks for a win (near the end of the file).
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


def won_now():
    """True when every safe tile is open, or (X) exactly the bombs are flagged."""
    return play.laid and not failed and gamestate.won(blocks, settings.flagwin)


def win():
    """The game is won: open what is left, flag the bombs, keep the score, cheer."""
    global finished
    finished = True
    showing.hint = None
    play.flagwon = not all(block.isopen for block in blocks if not block.isbomb)
    bigstack.deeply(ROWS * COLS, open_the_rest)   # a flag win leaves some closed
    for block in blocks:
        if block.isbomb and not block.isflag:
            block.isflag, block.isquestion = True, False
            block.image = picture_of(block)
    board = board_now()
    bbbv = advice.board_3bv(board.bomb_cells, board.around)
    play.stats = advice.game_stats(bbbv, play.clicks, play.timer)
    play.record = datafiles.record_win(data_folder(), gamestate.level_name(
        ROWS, COLS, BOMBS), play, say_once)
    play_sound("win")


def open_the_rest():
    """Open every safe tile still closed."""
    for block in blocks:
        if not block.isbomb and not block.isopen:
            open_block(block)


def play_sound(name):
    """Play a sound if the computer can; a game without sound still plays."""
    # With no audio device pgzero's mixer never starts, and any play() would fail.
    if not pygame.mixer.get_init():
        return
    try:
        getattr(sounds, name).play()
    except (pygame.error, pgzero.loaders.UnsupportedFormat, AttributeError,
            KeyError) as error:
        say_once("sound " + name, "minesweep: cannot play sound %r: %s" % (name, error))


def put_marks(marks):
    """Put every tile's isopen, isflag and isquestion back as marks have
    them, with its number and its picture (U after a loss, and a kept game)."""
    for block, mark in zip(blocks, marks):
        block.isopen, block.isflag = mark.isopen, mark.isflag
        block.isquestion = mark.isquestion
    for block in blocks:
        block.number = get_bomb_number(block) if block.isopen else None
        block.image = picture_of(block)


def picture_of(block):
    """The picture a tile shows in play: its number once open, else its mark."""
    if block.isopen:
        return "minesweep_number%d" % block.number
    if block.isflag:
        return "minesweep_flag"
    return "minesweep_question" if block.isquestion else "minesweep_block"


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: the board as the modules beside this file see it, made
# from the chapter's own ROWS, COLS, BOMBS, blocks, failed and finished: the
# one place where the tiles become cell numbers (gamestate.Board). And the
# tiles: each is the chapter's Actor; a Tile also notes when its picture
# changes, so that draw() draws only what changed, and is quick to make and
# to change: a big board has thousands of tiles.
# ---------------------------------------------------------------------------
def board_now():
    """The board being played, as a gamestate.Board."""
    return gamestate.board_of((ROWS, COLS, BOMBS), neighbour_table(ROWS, COLS), blocks,
                              (failed, finished))


def rect_field(name):
    """A tile's field that is its rectangle's: left, top, collidepoint, ..."""
    return property(lambda tile: getattr(tile._rect, name),
                    lambda tile, value: setattr(tile._rect, name, value))


def give_rect_fields(tile_class):
    """Give a class a property for each of the Actor's rectangle's names."""
    for name in Actor.DELEGATED_ATTRIBUTES:
        setattr(tile_class, name, rect_field(name))


class Tile(Actor):
    """The chapter's Actor, which also notes when its picture changes."""
    changes = 0                      # pictures changed since the game began
    first = {}                       # a picture's name -> its first Actor's state
    pictures = {}                    # a picture's name -> the picture, loaded once
    # An Actor asks at every field set whether the name is its rectangle's;
    # a tile has a property for each of those (below), and sets the others
    # (isopen, ...) as any object does, which is quicker: a board has thousands.
    __setattr__ = object.__setattr__

    def __init__(self, image):
        """Actor(image) at (0, 0); the Actor's own work is done once a picture."""
        # Loading, measuring and anchoring the picture are most of an Actor's cost:
        # a tile copies the first one's state, with a rectangle of its own.
        if image not in Tile.first:
            Tile.first[image] = Actor(image).__dict__
        self.__dict__.update(Tile.first[image])
        self.__dict__["_rect"] = pgzero.rect.ZRect(self._rect)
        self.image = image           # noted for the next draw(), as below

    def set_image(self, name):
        """Change the picture, and note the tile for the next draw()."""
        # Every tile picture is 25 x 25 px: the tile need not be measured and
        # placed again (pgzero keeps it in _image_name, _orig_surf and _surf).
        if name not in Tile.pictures:
            Tile.pictures[name] = images.load(name)
        self._image_name = name
        self._orig_surf = self._surf = Tile.pictures[name]
        Tile.changes += 1
        canvas.changed.add(self)

    # block.image reads as the Actor's; block.image = ... also notes it for draw().
    image = property(Actor.image.fget, set_image)


give_rect_fields(Tile)


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: the player's moves, as the classic games have them.
# new_game makes a game afresh: play (a gamestate.Game) and what shows of it
# (showing); settings last from game to game, and what the window knows
# (window) while it is open. showing.state says what a key or a click does (MODES).
# ---------------------------------------------------------------------------
settings = gamestate.Settings()
window = gamestate.Window()


def over():
    """True once the game is lost or won."""
    return failed or finished


def say_once(topic, text):
    """Print a warning on the console, once per topic per run."""
    if window.first_time(topic):
        datafiles.tell(text)


def click_flag(block):
    """Right click or F: cycle the flag on a closed tile."""
    if not block.isopen:
        set_flag(block)


def chord(block):
    """Open every unflagged neighbour of a number that has all its flags."""
    if not block.isopen or not block.number:
        return
    to_open = [other for other in get_neighbours(block) if not other.isflag]
    if len(get_neighbours(block)) - len(to_open) != block.number:
        return
    # A wrong flag means one of these is a bomb: it goes off, as in the classics.
    for other in to_open:
        if other.isbomb:
            blow_up(other)
            return
    for other in to_open:
        if not other.isopen:
            open_block(other)


def grid_action(block, action):
    """Do one move on the grid: count it, start the clock, see if it ended the game."""
    if over():
        return
    play.clicks += 1
    showing.hint = showing.message = None
    # All the player sees of each tile, for the post-mortem and U.
    # Plain tuples: a big board makes 40,000 before every move, and the
    # Marks a loss needs are made only then (take_back).
    play.before = [(tile.isopen, tile.isflag, tile.isquestion) for tile in blocks]
    changes = Tile.changes
    if settings.slowmo:
        bigstack.deeply(ROWS * COLS, recorded, action, block)
    else:
        bigstack.deeply(ROWS * COLS, action, block)
    # The clock starts at the first click that changes the board (a middle
    # click on a closed tile, say, changes nothing).
    play.started = play.started or Tile.changes != changes
    if failed:
        explain_loss(block)
    # The move that opens the last safe tile wins at once, so nothing later
    # in the same frame (a second click, on a bomb) can undo the win.
    if won_now():
        win()
    keep_or_forget(0)


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: hints, autoplay and learning from a loss, by a solver
# that sees only what the player sees (solver.py; its words in advice.py).
# ---------------------------------------------------------------------------
AUTO_TICK = 0.15         # time between two autoplay moves, s
AUTO_BIG = 1000          # boards of more tiles get several moves a tick
AUTO_BUDGET = 0.08       # ... for up to this long, s


def find_moves():
    """The moves one look at the board finds: [advice.Move]."""
    if not play.laid or over():
        return []
    return advice.moves(board_now())


def show_hint():
    """H: find a move and show it with its reason."""
    moves = find_moves()
    if not moves:
        showing.message = words("hints_later") if not play.laid else words("game_over")
        return
    showing.hint, play.assisted = moves[0], True
    showing.focus = divmod(showing.hint.cell, COLS)


def make_sure(block, isbomb):
    """Autoplay's move: flag a bomb, or take any flag off a safe tile and open it."""
    while block.isflag != bool(isbomb):
        set_flag(block)
    if not isbomb:
        click_open(block)


def autoplay_step():
    """One tick of autoplay: one move; on a big board, sure moves for AUTO_BUDGET s."""
    big, end = ROWS * COLS > AUTO_BIG, time.perf_counter() + AUTO_BUDGET
    while autoplay_look(big) and big and time.perf_counter() < end:
        pass


def autoplay_look(every):
    """Look once and make the first move (every: all found); False to stop or wait."""
    if showing.state is State.REPLAY:
        return False                    # wait for the replay to end
    if showing.state is not State.AUTO or over():
        return stop_autoplay()
    if not play.laid:
        return grid_action(block_at(ROWS // 2, COLS // 2), click_open) or True
    moves = find_moves()
    if not moves or play.sure_only and moves[0].isbomb is None:
        showing.hint = moves[0] if moves else None  # S: back to the player at a guess
        return stop_autoplay()
    for move in moves if every else moves[:1]:
        block = blocks[move.cell]
        if block.isopen or move.isbomb and block.isflag:
            continue                    # an earlier move of this look made it
        grid_action(block, functools.partial(make_sure, isbomb=move.isbomb))
        showing.focus = (block.row, block.col)
        if over():
            return stop_autoplay()
        showing.hint = move             # the move it made, and why
    return True


def start_autoplay(sure_only=False):
    """A: the solver plays, one move a tick; S (sure_only): up to a guess."""
    if not over():
        showing.state, play.sure_only, play.assisted = State.AUTO, sure_only, True
        clock.schedule_interval(autoplay_step, AUTO_TICK)


def stop_autoplay(*event):
    """Stop autoplay (also a key or click, the event, while it plays); False."""
    clock.unschedule(autoplay_step)
    showing.stop_auto()
    return False


def explain_loss(block):
    """After a losing move: why it lost, judged from the board before it."""
    before, cell = gamestate.as_before(board_now(), play.before), cell_of(block)
    # A move on a tile open before it was a chord (a left click too), and lost by a flag.
    wrong_flag = gamestate.wrong_flag(before, cell) if cell in before.opened else None
    play.postmortem = advice.explain_loss(before, cell, wrong_flag)


def take_back():
    """U after a loss: the board as it was before the fatal move."""
    global failed
    if not failed:
        showing.message = words("u_later")
        return
    put_marks([gamestate.Marks._make(marks) for marks in play.before])
    failed, play.postmortem, play.undos = False, None, play.undos + 1
    showing.message = words("taken_back", count=play.undos)


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: slow motion (V), to watch the recursion. A move runs
# with a recorder standing in for the name open_block, which notes each call
# and its caller; open_block itself runs exactly as always. The replay shows
# the calls one step at a time; W, the same opening with a queue; O, the
# neighbours in the book's order (its shuffled blocks list) or reading order.
# ---------------------------------------------------------------------------
def recorded(action, block):
    """Do a move while a recorder stands in for open_block; replay what it opened."""
    global open_block
    before, real, calls = board_now(), open_block, []
    open_block = slowmotion.recorder(real, cell_of, calls)
    try:
        action(block)
    finally:
        open_block = real
    if calls:
        after = board_now()
        play.opening = slowmotion.Opening(calls, before, after, gamestate.book_order(
            play.board, after.rows, after.cols, after.bomb_cells))
    if len(calls) > 1:
        start_replay("stack")


def start_replay(kind):
    """Show the last opening again, as recursion ("stack") or a queue."""
    if play.opening is not None:
        showing.show_replay(play.opening.replay(kind, settings.order))
        showing.replay.predict = settings.predict


def end_replay():
    """Stop a replay: the board as it is (after K, the board played before)."""
    if showing.stash is not None:
        put_board(showing.stash)
    elif showing.replay is not None:
        showing.end_replay()


def put_board(stash):
    """Play the board kept in a gamestate.Stash again, as it was."""
    global ROWS, COLS, BOMBS, TITLE, blocks, failed, finished, play, showing
    ROWS, COLS, BOMBS, TITLE, blocks, failed, finished, play, showing = stash


def recursion_demo():
    """K in slow motion: replay an empty 40 x 40 board's opening to its RecursionError."""
    # First with Python's usual recursion limit; Esc puts back the board played.
    stash = gamestate.Stash(rows=ROWS, cols=COLS, bombs=BOMBS, title=TITLE, blocks=blocks,
                            failed=failed, finished=finished, play=play, showing=showing)
    for limit in (slowmotion.USUAL_LIMIT, None):
        new_game(slowmotion.DEMO, slowmotion.DEMO, 0)
        lay_bombs([])
        middle = block_at(slowmotion.DEMO // 2, slowmotion.DEMO // 2)
        if limit:               # first as the book's game would run it
            message = slowmotion.run_with_limit(limit, open_block, middle)
            opened = len(board_now().opened)
    # Then recorded, with room for every call: the calls come in the same
    # order, and the replay stops where Python stopped.
    recorded(click_open, middle)
    if message is not None:
        showing.show_replay(play.opening.error_replay(opened, message,
                                                      sys.getrecursionlimit()))
    showing.stash = stash
    showing.message = words("recursion_demo", limit=slowmotion.USUAL_LIMIT)


def switch_order():
    """O in a replay: the same click again, the neighbours in the book's or reading order."""
    if showing.stash is not None:
        return          # the limit's demonstration keeps the reading order
    settings.order = "book" if settings.order == "reading" else "reading"
    start_replay(showing.replay.kind)


def toggle(name):
    """Q, N, X, V and T: turn a choice over, and say which way it is now."""
    # V ends a replay; layout() then makes room for the slow-motion panel.
    if name == "slowmo":
        while showing.replay is not None or showing.stash is not None:
            end_replay()        # K's replay, then the one it was started from
    showing.message = settings.toggle(name, play.laid) or showing.message
    if showing.replay is not None:
        showing.replay.predict = settings.predict


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: the game's words, in each language (wording.py, languages.py)
# ---------------------------------------------------------------------------
def speak(said):
    """Words kept by words(), said now; "" for nothing."""
    return wording.speak(window.texts[settings.language], said, COLS)


def set_language(name):
    """Speak this language from now on, if its texts and font were read at start."""
    return settings.speak(name, window.texts)


def toggle_language():
    """L: the next language of languages.TABLE, kept for the next start."""
    global TITLE
    name, passed = wording.following(settings.language, window.texts)
    if passed:          # a language whose texts or font could not be read
        showing.message = words("texts_missing")
    if name != settings.language and set_language(name):
        TITLE = title()
        datafiles.keep_language(data_folder(), settings.language, say_once)


def title():
    """The window's title: the game, the level and the board number."""
    return speak(words("title", level=gamestate.board_words(ROWS, COLS, BOMBS),
                       board=play.board))


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: the files kept between games (datafiles.py): best
# times, the language chosen, and a game kept when the window closed
# ---------------------------------------------------------------------------
def data_folder():
    """The folder of the game's files, or None when there is no usable one."""
    return datafiles.data_dir(os.environ, pgzero.loaders.root, sys.platform)


def show_times():
    """B: read the best times and show them, or say they cannot be read."""
    times = datafiles.load_best_times(data_folder(), say_once)
    if times is None:
        showing.message = words("times_unread")
    else:
        showing.times, showing.state = times, State.TIMES


def kept_now():
    """The game being played, as the kept file holds it."""
    return datafiles.kept_game(board_now(), play.board, {"game": play, "settings": settings})


def save_on_exit():
    """When the window closes or the game is stopped: keep a game in progress."""
    startup.hold_stop_signals(signal)   # a closing save, once begun, finishes
    if showing is not None and showing.stash is not None:
        put_board(showing.stash)    # the board played before the demonstration
    if play is not None and play.laid and not over():
        datafiles.keep_game(data_folder(), kept_now(), say_once)


def keep_or_forget(dt):
    """Keep a game in progress now and then; forget it once it ends or is left."""
    playing = play if play.laid and not over() else None
    left = window.keeping.left(playing)
    if left is not None:
        datafiles.forget_game(data_folder(), left, say_once)
    paused = showing.state is State.PAUSED      # not played: nothing kept meanwhile
    if window.keeping.due(None if paused else playing, dt, time.monotonic()):
        kept = kept_now()
        if datafiles.keep_game(data_folder(), kept, say_once, closing=False):
            window.keeping.holds(play, kept)


def resume(kept):
    """Put a kept game back, exactly as it was, and forget the file."""
    new_game(kept["rows"], kept["cols"], kept["bombs"], kept["board"])
    lay_bombs(datafiles.kept_bombs(kept))
    put_marks(datafiles.kept_tiles(kept))
    datafiles.put_fields(kept, {"game": play, "settings": settings})
    play.started = True
    window.keeping.holds(play, kept)    # the file stays until the game ends or is left
    showing.message = words("welcome_back", board=play.board)


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: a view that fits any screen (viewport.py), drawn only
# where it changed. The book draws every tile in every frame, most of a core
# on 100 x 200. Here scene.py lists what the window shows as shapes, the
# tiles in view are kept in a picture (the canvas), and when nothing changed,
# draw() does nothing.
# ---------------------------------------------------------------------------
view = None              # the view of the board now: a viewport.View
canvas = viewport.Canvas()  # what the window shows, kept to draw only changes
measure = scene.Measure(pgzero.ptext.getfont)   # the texts' sizes, in real fonts
REFITS = 3               # frames that look at the window's size after full screen


def layout():
    """Fit the window to the board, footer and panel, never larger than the desktop."""
    global WIDTH, HEIGHT, view
    same = canvas.refit(blocks, fit_inputs(), showing.focus)
    if same is None:
        return      # each frame asks: fit it again only when what it fits changed
    view = viewport.fitted(board_now(), fitting(), view if same else None)
    if showing.focus is not None:
        view.follow(*showing.focus)
        showing.focus = None
    WIDTH, HEIGHT = view.width, view.height


def fitting():
    """What the view is fitted to besides the board (a viewport.Fitting)."""
    return viewport.Fitting(desktop=window.desktop, book=SIZE, zoom=settings.zoom,
                            panel=settings.slowmo, full=window.fullscreen,
                            footer_for=footer_room)


def fit_inputs():
    """What the view is fitted to: the board's size, fitting() and the footer's languages."""
    return (ROWS, COLS, len(window.texts)) + fitting()


def toggle_fullscreen():
    """F11: fill the screen, or go back to the window."""
    # pgzero opens its display again, with its DISPLAY_FLAGS, whenever WIDTH
    # or HEIGHT change: the flag is set there so that it lasts. The window
    # is never as tall as the desktop (viewport.ROOM), so the size changes.
    window.fullscreen = not window.fullscreen
    # Each has its own Z: the window comes back at the size it had.
    settings.zoom, settings.other_zoom = settings.other_zoom, settings.zoom
    pgzero.game.DISPLAY_FLAGS = pygame.FULLSCREEN if window.fullscreen else 0
    if window.fullscreen and pygame.display.get_surface() is not None:
        # Where no window manager places it (seen under X11), a window made
        # full screen stays where it was: first the screen's size, centred.
        pygame.display.set_mode(window.desktop)
    window.refit = 0 if window.fullscreen else REFITS
    canvas.scene = None                 # a new display shows nothing yet
    layout()


def refit_window():
    """Back from full screen: make the window the size the game asked for."""
    # With no window manager (seen under X11) SDL leaves the window as big
    # as the screen until it is asked again, once it has seen its events:
    # it is asked in the next few frames.
    if not window.refit or pygame.display.get_surface() is None:
        return
    window.refit -= 1
    if pygame.display.get_window_size() != (WIDTH, HEIGHT):
        pygame.display.set_mode((WIDTH, HEIGHT))
        canvas.scene = None


def footer_room(width, most):
    """How tall the footer is, for as long as its words can get."""
    return footer_rooms(width, most, *fit_inputs())


@functools.lru_cache(maxsize=64)
def footer_rooms(width, most, *depends_on):
    """footer_room's answer, kept: it is worked out from many long texts."""
    return now_showing().footer_height(width, most)


def move_cursor(drow, dcol):
    """Move the keyboard cursor (at first, to the tile under the mouse)."""
    showing.cursor = showing.focus = view.moved(showing.cursor, drow, dcol,
                                                window.pointer)


def change_zoom():
    """Z: the next tile size (viewport.next_tile says which)."""
    settings.zoom = viewport.next_tile(view.tile, board_now(), fitting())
    showing.focus = showing.cursor
    showing.message = words("zoom", size=settings.zoom)


def block_under(pos):
    """The tile under a point of the window, or None."""
    cell = view.cell_under(pos)
    return None if cell is None else block_at(*cell)


def now_showing():
    """What the window shows now, laid out by scene.py."""
    # Making the board takes time on a big board: only after a change (a
    # flag, an open tile and the end each change a picture).
    seen = canvas.board_seen((Tile.changes, id(blocks), BOMBS, failed, finished), board_now)
    window.limit = sys.getrecursionlimit()
    return scene.Scene(seen, gamestate.Lives(play, showing, settings, window), view,
                       measure)


def tile_picture(name):
    """A tile's picture at the size the view shows tiles."""
    return canvas.picture(name if view.tile == SIZE else "%s_%d" % (name, view.tile),
                          images.load)


def paint(block):
    """Draw one tile onto the canvas (during a replay, closed until opened)."""
    picture = block.image
    if showing.replay is not None:     # it writes its call numbers on tiles big enough
        picture = showing.replay.picture(cell_of(block), picture,
                                         view.tile >= scene.SMALL_MARKS)
    where = ((block.col - view.col) * view.tile, (block.row - view.row) * view.tile)
    canvas.grid.blit(tile_picture(picture), where)


def paint_tiles(key):
    """Bring the canvas up to date for the view of key, then the changed tiles."""
    whole, (down, right), areas = viewport.repaint(canvas.grid_view, key)
    canvas.grid_view = key
    if whole:
        canvas.grid = pygame.Surface((view.tile * view.cols, view.tile * view.rows))
    else:
        canvas.grid.scroll(-right * view.tile, -down * view.tile)
    for cell in viewport.cells_in(areas, ROWS, COLS):
        paint(blocks[cell])
    for block in canvas.changed:
        # A tile of an earlier board may still be noted: skip it.
        if blocks[cell_of(block)] is block and view.in_view(block.row, block.col):
            paint(block)
    canvas.changed.clear()


def see_through(colour, size):
    """A tile of a colour (with its alpha) to lay over a tile."""
    tile = pygame.Surface((size, size), pygame.SRCALPHA)
    tile.fill(colour)
    return tile


def draw_box(shape):
    """A filled rect."""
    screen.draw.filled_rect(Rect(shape.rect), shape.colour)


def draw_frame(shape):
    """A rect's outline, 2 px thick."""
    screen.draw.rect(Rect(shape.rect), shape.colour)
    screen.draw.rect(Rect(shape.rect).inflate(-2, -2), shape.colour)


def draw_text(shape):
    """A text, and where it went, as a Rect."""
    picture, place = pgzero.ptext.draw(shape.text, surf=screen.surface,
                                       fontname=shape.font, fontsize=shape.size,
                                       **dict(shape.options))
    return Rect(place, picture.get_size())


@functools.lru_cache(maxsize=1024)
def digits_picture(text, width, height, colour, outline):
    """A number's digits, height px high and at most width wide, outlined in white."""
    def ink(colour):
        """The digits in this colour, cut to their own pixels, scaled to fit."""
        # Drawn twice as large as needed, then made smaller: crisp edges.
        drawn = pgzero.ptext.getfont(None, 2 * height + 2).render(text, True, colour)
        drawn = drawn.subsurface(drawn.get_bounding_rect())
        wide = min(width, max(1, round(drawn.get_width() * height / drawn.get_height())))
        return pygame.transform.smoothscale(drawn, (wide, height))
    digits = ink(colour)
    picture = pygame.Surface((digits.get_width() + 2 * outline, height + 2 * outline),
                             pygame.SRCALPHA)
    if outline:
        white = ink((255, 255, 255))
        for place in itertools.product(range(2 * outline + 1), repeat=2):
            picture.blit(white, place)
    picture.blit(digits, (outline, outline))
    return picture


def draw_digits(shape):
    """A number centred in its box; and where its digits went, as a Rect."""
    picture = digits_picture(shape.text, *shape.box[2:], shape.colour, shape.outline)
    left, top, width, height = shape.box
    place = Rect(0, 0, picture.get_width() - 2 * shape.outline, height)
    place.center = (left + width // 2, top + height // 2)
    screen.blit(picture, (place.left - shape.outline, place.top - shape.outline))
    return place


def draw_picture(shape):
    """One of the game's pictures."""
    screen.blit(shape.name, shape.topleft)


def draw_tint(shape):
    """A tile seen through a colour."""
    screen.blit(canvas.tint(shape.colour, view.tile, see_through), shape.rect[:2])


def draw_tiles(shape):
    """The picture of the tiles in view, brought up to date first."""
    paint_tiles(shape.key)
    screen.blit(canvas.grid, (view.left, view.top))


def draw_line(shape):
    """Lines through points."""
    pygame.draw.lines(screen.surface, shape.colour, False, shape.points, 2)


def draw_fill(shape):
    """The whole window in one colour."""
    screen.fill(shape.colour)


# How each kind of scene.py's shapes is drawn.
DRAWERS = {scene.Box: draw_box, scene.Frame: draw_frame, scene.Text: draw_text,
           scene.Picture: draw_picture, scene.Tint: draw_tint, scene.Tiles: draw_tiles,
           scene.Line: draw_line, scene.Fill: draw_fill, scene.Digits: draw_digits}


def draw_shape(shape):
    """Put one of scene.py's shapes on the window (a text: and say where)."""
    return DRAWERS[type(shape)](shape)


# ---------------------------------------------------------------------------
# The Pygame Zero hooks
# ---------------------------------------------------------------------------
def update(dt):
    """Run the clock and look for a win, as the chapter does."""
    if showing.replay is not None and not showing.replay.run(
            dt, slowmotion.SPEEDS[settings.speed]):
        end_replay()
    layout()                    # a new board, Z, V or the desktop may change the view
    refit_window()
    if showing.stash is not None:
        return                  # the recursion limit's demonstration is not played
    keep_or_forget(dt)
    if over() or showing.state is State.PAUSED:
        return
    if play.started and showing.state is not State.REPLAY:     # a replay is not play
        play.timer = min(play.timer + dt, MAX_TIME)
    # Looking at every tile takes time on a big board, so only after a change.
    if showing.look_again((Tile.changes, settings.flagwin)) and won_now():
        win()


def draw():
    """Draw the window, when anything on it changed."""
    # The book draws every tile here, every frame; see above for why this
    # game keeps them in a canvas instead.
    now = ((id(screen.surface), screen.surface.get_size()), now_showing().shapes())
    if now == canvas.scene and not canvas.changed:
        return      # the window still shows this; pgzero shows it again
    canvas.scene = now
    for shape in now[1]:
        draw_shape(shape)


def on_mouse_down(pos, button):
    """A click: the wheel scrolls; what else it does depends on the state (MODES)."""
    window.pointer = pos
    view_this_board()
    if button in (mouse.WHEEL_UP, mouse.WHEEL_DOWN):    # with Shift, the columns
        shift = keyboard.lshift or keyboard.rshift
        showing.cursor = view.wheel(button == mouse.WHEEL_UP, shift, pos, showing.cursor)
        return
    window.held.add(button)
    MODES[showing.state].click(pos, button)


def on_mouse_up(button):
    """Forget a button that was let go."""
    window.held.discard(button)


def on_mouse_move(pos):
    """Highlight the tile under the mouse (while it is over the window)."""
    window.pointer = pos
    view_this_board()
    block = block_under(pos)
    if block is not None:
        showing.cursor = (block.row, block.col)


def on_key_down(key):
    """A key: F11 in any state; else what it does depends on the state (MODES)."""
    view_this_board()
    if key == keys.F11:
        toggle_fullscreen()
        return
    MODES[showing.state].key(key)


def view_this_board():
    """Lay out a board made since the last frame, before a key or click uses it."""
    if canvas.board is not blocks:
        layout()


def play_click(pos, button):
    """A click in play: the face restarts; on the grid, open, flag or chord."""
    if Rect(view.face_rect()).collidepoint(pos) and button == mouse.LEFT:
        new_game()
        return
    block = block_under(pos)
    if block is None:
        return
    if over():
        hide_end()                              # look at the board, or the word
        return
    showing.cursor = (block.row, block.col)
    if button == mouse.LEFT:
        grid_action(block, click_open)
    elif button == mouse.RIGHT and block.isopen and mouse.LEFT in window.held:
        grid_action(block, chord)               # left and right together
    elif button == mouse.RIGHT:
        grid_action(block, click_flag)
    elif button == mouse.MIDDLE:
        grid_action(block, chord)


def at_cursor(action):
    """Space, Enter and F: do a move on the tile under the keyboard cursor."""
    if showing.cursor is not None:
        grid_action(block_at(*showing.cursor), action)


def afresh(handler):
    """A key or a click that leaves the state for play, then plays."""
    def leave(*event):
        """Back to play, then the key or click does what it does there."""
        showing.state, showing.message = State.PLAY, None
        handler(*event)
    return leave


def offer_key(key):
    """The first key after a kept game was offered: C takes it back."""
    if key == keys.C:
        resume(showing.offered)
    else:
        afresh(MODES[State.PLAY].key)(key)


def typing_key(key):
    """G, then digits and Enter: play that board number (Esc: never mind)."""
    if key in (keys.RETURN, keys.KP_ENTER) and showing.typed:
        new_game(board=int(showing.typed))
        showing.message = words("board_chosen", board=play.board)
    elif key == keys.ESCAPE:
        showing.state, showing.message = State.PLAY, None
    else:                           # G itself (key None) starts afresh
        showing.typed = gamestate.typed("" if key is None else showing.typed,
                                        getattr(key, "name", ""))
        showing.state, showing.message = State.TYPING, words("typing", digits=showing.typed)


def leave_replay(key):
    """R and 0-3 in a replay: end it, then the key does what it does there."""
    end_replay()
    MODES[showing.state].key(key)


def replay_click(pos=None, button=None):
    """A click pauses a replay or lets it go on (or is the guess it asks for)."""
    cell = pos and view.cell_under(pos)
    if showing.replay.asking() and cell is not None:
        showing.replay.guess(cell[0] * COLS + cell[1])
    else:
        showing.replay.paused = not showing.replay.paused


def set_state(state):
    """A key or a click that puts the game in this state."""
    def enter(*event):
        """Enter the state."""
        showing.state = state
    return enter


def pause():
    """P: hide the board and stop the clock, once a game has begun and until it ends."""
    if play.started and not over():
        showing.state = State.PAUSED


def hide_end():
    """E, or a click on an ended game: hide "Finished" or "Failed", or show it again."""
    showing.flip("end_hidden")


def demo_key():
    """K in slow motion: the recursion limit's demonstration (not while it shows)."""
    if settings.slowmo and showing.stash is None:
        recursion_demo()


def queue_key():
    """W in slow motion: the last opening again with a queue (in a replay: the other way)."""
    if settings.slowmo:
        now = showing.replay.kind if showing.replay is not None else None
        start_replay("stack" if now == "queue" else "queue")


def step_on():
    """Right or Space in a replay: one step on; after the last, the replay ends."""
    if not showing.replay.one_step():
        end_replay()


def replay_does(move, *args):
    """Left, Home and End: move (a slowmotion.Replay method) the replay back or to an end."""
    move(showing.replay, *args)


def by_table(table, otherwise=None):
    """A state's keys: each does what the table says (any other: otherwise, or nothing)."""
    def press(key):
        """Do what the table says of this key."""
        action = table.get(key, otherwise)
        if action is not None:
            action()
    return press


def choice_keys(state):
    """The keys that turn over a choice in this state (gamestate.CHOICES)."""
    return {getattr(keys, choice.key): functools.partial(toggle, choice.name)
            for choice in gamestate.CHOICES.values() if state in choice.modes}


# The keys that move the cursor, and the number keys that name a level.
ARROWS = gamestate.by_key(keys, gamestate.ARROWS)
LEVEL_KEYS = gamestate.by_key(keys, gamestate.LEVEL_KEYS)
# What each key does in play. A key may have one meaning in a state:
# key_table refuses one given two (a choice's key among them).
PLAY_KEYS = gamestate.key_table({
    keys.SPACE: functools.partial(at_cursor, click_open),
    keys.RETURN: functools.partial(at_cursor, click_open),
    keys.F: functools.partial(at_cursor, click_flag),
    keys.R: new_game,
    keys.H: show_hint,
    keys.A: start_autoplay,
    keys.S: functools.partial(start_autoplay, sure_only=True),
    keys.U: take_back,
    keys.G: functools.partial(typing_key, None),
    keys.L: toggle_language,
    keys.K: demo_key,
    keys.W: queue_key,
    keys.P: pause,
    keys.B: show_times,
    keys.E: hide_end,
    keys.Z: change_zoom,
    keys.F11: toggle_fullscreen,        # in every state (on_key_down)
}, {key: functools.partial(new_game, *LEVELS[level][1:])
    for key, level in LEVEL_KEYS.items()}, {
    key: functools.partial(move_cursor, *step) for key, step in ARROWS.items()},
    choice_keys(State.PLAY))
# What each key does while a replay shows.
REPLAY_KEYS = gamestate.key_table({
    keys.ESCAPE: end_replay,
    keys.RIGHT: step_on,
    keys.LEFT: functools.partial(replay_does, slowmotion.Replay.back),
    keys.HOME: functools.partial(replay_does, slowmotion.Replay.jump, False),
    keys.END: functools.partial(replay_does, slowmotion.Replay.jump, True),
    keys.K: demo_key,
    keys.SPACE: step_on,
    keys.W: queue_key,
    keys.O: switch_order,
    keys.L: toggle_language,            # the replay goes on, in other words
    keys.F11: toggle_fullscreen,
}, {key: functools.partial(settings.faster, step)
    for key, step in gamestate.by_key(keys, gamestate.SPEED_KEYS).items()},
    {key: functools.partial(leave_replay, key) for key in list(LEVEL_KEYS) + [keys.R]},
    choice_keys(State.REPLAY))
# What a key and a click do in each state: Mode(key, click). In play, a key
# not in PLAY_KEYS does nothing; in a replay, one not in REPLAY_KEYS pauses
# it; while paused only P goes on; any key or click closes the best times;
# while the solver plays, a key or a click only stops it.
MODES = {
    State.PLAY: Mode(by_table(PLAY_KEYS), play_click),
    State.OFFER: Mode(offer_key, afresh(play_click)),
    State.TYPING: Mode(typing_key, afresh(play_click)),
    State.PAUSED: Mode(by_table({keys.P: set_state(State.PLAY)}), set_state(State.PLAY)),
    State.TIMES: Mode(set_state(State.PLAY), set_state(State.PLAY)),
    State.AUTO: Mode(stop_autoplay, stop_autoplay),
    State.REPLAY: Mode(by_table(REPLAY_KEYS, replay_click), replay_click),
}


# ---------------------------------------------------------------------------
# Start-up
# ---------------------------------------------------------------------------
def check_assets(check):
    """Load every picture, sound, text and the font now (--check: stop if any is bad)."""
    # A missing or broken picture stops the game; without a sound, or the
    # texts or font of a language, it plays on (silent, or in English), said once.
    fatal, said, texts, fonts = startup.problems(
        pgzero.loaders.root, viewport.every_size(SIZE), {
            "images": lambda name: images.load(name).get_size(),
            "sounds": sounds.load if pygame.mixer.get_init() else None,
            "fonts": functools.partial(startup.font_lacking, pygame),
            "texts": wording.read_texts}, check)
    # Slow motion's code in letters of one width; without the font, pgzero's own.
    window.mono, more = startup.code_font_and_sound(
        os.path.join(pgzero.loaders.root, "fonts", scene.CODE_FONT + ".ttf"),
        lambda path: pygame.font.Font(path, 18),
        NO_SOUND_CARD or not pygame.mixer.get_init())
    for topic, line in said + more:
        say_once(topic, line)
    window.fonts = fonts
    window.texts.update(texts)
    if fatal:
        sys.exit(fatal)


def prepare_window():
    """Ask SDL for a window that stays on the screen and is cheap to show."""
    problem = startup.open_window(pygame, os.environ, sys.platform, time.sleep)
    if problem is not None:
        sys.exit("minesweep: cannot open a window: %s" % problem)


def write_worksheet(args):
    """--calls: write the first click's calls and the board, say where, and stop."""
    atexit.unregister(save_on_exit)     # a worksheet's board is not kept
    # Only a regular file or a new one: not a named pipe (the game would
    # wait for a reader), never one of the game's own files or its data.
    refused = datafiles.sheets_refused((args.calls, slowmotion.map_path(args.calls)),
                                       data_folder(), startup.own_files(pgzero.loaders.root))
    if refused:
        sys.exit(refused)
    recorded(click_open, block_at(*args.at))
    fault, said = slowmotion.write_calls(args.calls, play.opening, args.order, speak)
    if said:
        datafiles.tell(said)
    sys.exit(fault)


def start():
    """The first board: ROWS, COLS and BOMBS at the top, or the command line."""
    # Closing the window, Ctrl+Q, SIGTERM and SIGHUP all end up in atexit,
    # where a game in progress is kept. SDL has made SIGTERM a quit event only
    # a running game sees: the game's own handlers come first, for start-up too.
    atexit.register(save_on_exit)
    startup.stop_on_signals(signal, lambda: sys.exit(0),
                            lambda: pygame.event.peek(pygame.QUIT))
    # pgzrun marks itself with sys._pgzrun and refuses options of its own,
    # so only "python minesweep.py --rows 20 --cols 30 --bombs 99" has them.
    args = None if getattr(sys, "_pgzrun", False) else startup.options(
        sys.argv[1:], ROWS, COLS, BOMBS)
    check_assets(args is not None and args.check)
    # The language: --lang, MINESWEEP_LANG, the last choice, or the computer's.
    language, kept = datafiles.read_start(data_folder(), say_once)
    set_language(languages.choose(args and args.lang, os.environ, lambda: language))
    if args and args.check:
        print(startup.checked(settings.language))
        sys.exit(0)
    if not (args and args.calls):
        prepare_window()
    window.desktop = startup.desktop(pygame.display, pygame.error) or window.desktop
    try:
        new_game(*((args.rows, args.cols, args.bombs, args.board) if args else ()))
    except ValueError as error:
        sys.exit("minesweep: %s; change ROWS, COLS or BOMBS at the top of "
                 "minesweep.py" % error)
    if args:
        settings.flagwin = args.flag_win
        if args.calls:      # the first click's calls as a worksheet, then stop
            write_worksheet(args)
        if args.fullscreen:
            toggle_fullscreen()
    if kept is not None and not (args and args.asked):     # a board asked for is played
        showing.offered, showing.state = kept, State.OFFER
        showing.message = words("saved_waiting", **datafiles.kept_facts(kept))
    layout()
    # Where the mouse was over pgzero's first, small window means nothing on
    # the game's: no tile is highlighted until the mouse really moves.
    pygame.event.clear(pygame.MOUSEMOTION)


start()

pgzrun.go()
