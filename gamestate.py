# The board of a game of minesweep as the modules see it (a Board, handed
# over whole), and the state of a game besides its tiles, by how long it
# lasts: a Game (what it keeps and records), and what is Showing of it (the
# state it is in, what passes on the screen and its caches), last one game
# (new_game makes both afresh); the Settings, the player's choices, last
# from game to game (the language is saved for the next start, Q and X with
# a kept game); what the Window knows lasts only while it is open. And the State the game is
# in, which decides what a key or a click does, and the boards the game
# plays: the standard levels, and how big a board may be.
#
# As in the Code the Classics games, a game is one object: new_game makes a
# fresh Game instead of setting many variables back one by one. These are
# plain data, with no pgzero or pygame.
# Keep this file ASCII only, like minesweep.py.
import enum
import random
import re
from collections import namedtuple
from itertools import compress

import languages
import slowmotion
import wording


class State(enum.Enum):
    """What the game is doing, which decides what a key or a click does."""
    PLAY = "play"        # playing (or looking at a game that has ended)
    OFFER = "offer"      # at start, a kept game is offered: C goes on with it
    TYPING = "typing"    # G: a board number is being typed
    PAUSED = "paused"    # P: the board is hidden and the clock stands still
    TIMES = "times"      # B: the best times are shown
    AUTO = "auto"        # A or S: the solver plays
    REPLAY = "replay"    # slow motion: an opening is being replayed


# What a key and what a click do in one State: two functions, of the key,
# and of the click's (pos, button).
Mode = namedtuple("Mode", "key click")
# What the player sees of one tile: open, a flag, a question mark.
Marks = namedtuple("Marks", "isopen isflag isquestion")


# A board as the modules see it, handed over whole: its size and bombs (the
# chapter's ROWS, COLS and BOMBS), the neighbour table (around[cell]: the
# cells next to it), the cells (row * cols + col) that are bombs, flagged,
# open and question-marked, the number each tile shows (None while it is
# closed), and the chapter's failed and finished. minesweep.py's
# board_now() makes one from the chapter's own names.
class Board(namedtuple("Board", "rows cols bombs around bomb_cells flagged opened "
                                "questioned shown failed finished")):
    """A board, as plain data: sizes, cell sets and the numbers shown."""
    __slots__ = ()

    @property
    def left(self):
        """Bombs not flagged yet, as the counter shows it (below 0 with too many flags)."""
        return self.bombs - len(self.flagged)

    @property
    def size(self):
        """(rows, cols)."""
        return self.rows, self.cols


def board_of(size, around, tiles, ended=(False, False)):
    """The Board of these tiles (row by row, each with isbomb, isopen,
    isflag, isquestion and number): size is (rows, cols, bombs), ended is
    (failed, finished)."""
    # A big board has 40,000 tiles, made a Board after every move: each mark
    # is read in one list first, and the cells picked out of it (compress).
    cells = range(len(tiles))
    opened = [tile.isopen for tile in tiles]
    return Board(*size, around,
                 frozenset(compress(cells, [tile.isbomb for tile in tiles])),
                 frozenset(compress(cells, [tile.isflag for tile in tiles])),
                 frozenset(compress(cells, opened)),
                 frozenset(compress(cells, [tile.isquestion for tile in tiles])),
                 tuple([tile.number if tile.isopen else None for tile in tiles]), *ended)


def blank(rows, cols, bombs, around):
    """A Board of this size with nothing open, flagged or laid yet."""
    nothing = frozenset()
    return Board(rows, cols, bombs, around, nothing, nothing, nothing, nothing,
                 (None,) * (rows * cols), False, False)


def as_before(board, marks):
    """The board as it was before a move, from each tile's (isopen, isflag,
    isquestion) then: a move opens tiles and never closes one, so a tile
    open then shows the number it shows now."""
    def having(index):
        """The cells whose mark at index was set."""
        return frozenset(cell for cell, mark in enumerate(marks) if mark[index])
    opened = having(0)
    return board._replace(opened=opened, flagged=having(1), questioned=having(2),
                          shown=tuple(number if cell in opened else None
                                      for cell, number in enumerate(board.shown)),
                          failed=False, finished=False)


def wrong_flag(board, cell):
    """The first flag next to cell that marks no bomb (the flag a chord on
    cell trusted, after it lost), or None."""
    return next((other for other in board.around[cell]
                 if other in board.flagged and other not in board.bomb_cells), None)


# A choice of the player's that a key turns over: its field in Settings
# (False at a first start), its key, the states whose keys turn it over,
# the words that say it is now on and now off (None: nothing said), the
# footer's word while it is on (None: none), whether a kept game keeps it
# for the next start, and the choice it works within (None: on its own).
# The footer lists the words of the choices that are on in this order.
Choice = namedtuple("Choice", "name key modes on off shown kept within")
CHOICES = {choice.name: choice for choice in (
    # Q: does a right click give question marks?
    Choice("questions", "Q", (State.PLAY,), None, None, "mode_questions", True, None),
    # N: are new boards laid to need no guess?
    Choice("noguess", "N", (State.PLAY,), "noguess_on", "noguess_off", "mode_noguess",
           False, None),
    # V: does an opening replay step by step? (in a replay: V ends it)
    Choice("slowmo", "V", (State.PLAY, State.REPLAY), "slowmo_on", "slowmo_off",
           "mode_slowmo", False, None),
    # T: does a replay ask for each next call? (only slow motion replays)
    Choice("predict", "T", (State.PLAY, State.REPLAY), "predict_on", "predict_off",
           "mode_predict", False, "slowmo"),
    # X: is flagging exactly the bombs a win?
    Choice("flagwin", "X", (State.PLAY,), "flagwin_on", "flagwin_off", "mode_flagwin",
           True, None),
)}


# Keys by their names in pgzero's keys: the ones that move the cursor, as
# (rows, cols) steps; the keys that make a replay faster (1) or slower (-1).
# (LEVEL_KEYS, the number keys of the levels, are below the LEVELS.)
ARROWS = {"UP": (-1, 0), "DOWN": (1, 0), "LEFT": (0, -1), "RIGHT": (0, 1)}
SPEED_KEYS = {"PLUS": 1, "EQUALS": 1, "KP_PLUS": 1, "MINUS": -1, "KP_MINUS": -1}


def by_key(keys, named):
    """A table of keys by their names (named) as a table of the keys
    themselves, found in keys (pgzero's)."""
    return {getattr(keys, name): value for name, value in named.items()}


def key_table(*parts):
    """One table of what each key does, from these tables of keys; a
    ValueError names a key that two of them give a meaning."""
    # A key in two tables would silently mean only the last one's.
    table = {}
    for part in parts:
        for key, action in part.items():
            if key in table:
                raise ValueError("the key %s has two meanings: %r and %r" % (
                    getattr(key, "name", key), table[key], action))
            table[key] = action
    return table


class Fields:
    """Something whose True-or-False fields the keys turn over."""

    def flip(self, name):
        """Turn a True-or-False field over (a key: Q, N, X, V, T, E); its new value."""
        setattr(self, name, not getattr(self, name))
        return getattr(self, name)


class Game(Fields):
    """One game besides its tiles and the chapter's failed and finished:
    what it keeps (on disk too) and records."""

    def __init__(self, board):
        """A game of this board number that has not begun."""
        self.board = board          # the same number gives the same board
        self.laid = False           # have the bombs been laid? (at the first click)
        self.noguess = False        # ... so that no guess is needed?
        self.flagwon = False        # was it won by flags (X), not by opening?
        self.started = False        # has a move changed the board? (the clock runs)
        self.timer = 0.0            # seconds since then, s
        self.clicks = 0             # clicks on the grid
        self.undos = 0              # lost moves taken back with U
        self.assisted = False       # did hints or autoplay help?
        self.sure_only = False      # S: does the solver stop at a guess?
        self.stats = None           # 3BV, clicks and speed of a won game
        self.record = None          # a win's best time: "new", "slower", "unsaved"
        self.before = None          # each tile's (isopen, isflag, isquestion) before a move
        self.postmortem = None      # after a loss: an advice.Loss
        self.opening = None         # the last opening recorded in slow motion


# The board being played, kept whole while the recursion limit's
# demonstration (K) plays a board of its own: the chapter's ROWS, COLS,
# BOMBS, blocks, failed and finished, the window's title, and the Game and
# what was Showing of it.
Stash = namedtuple("Stash", "rows cols bombs title blocks failed finished play showing")


class Showing(Fields):
    """What the window shows of this game for now, never kept on disk: the
    state the game is in, what passes on the screen, and what is worked out
    once for it."""

    def __init__(self):
        """Nothing shown yet of the game besides the board."""
        self.state = State.PLAY     # what a key or a click does now (MODES)
        self.back_to = None         # ... once the replay showing ends
        self.offered = None         # the kept game offered at start
        self.times = {}             # the best times shown with B
        self.end_hidden = False     # has E hidden "Finished" or "Failed"?
        self.checked = None         # what update() last looked for a win at
        self.start = None           # (board, rows, cols) and its start_tile
        self.cursor = None          # (row, col) of the highlighted tile
        self.focus = None           # (row, col) the view should bring into sight
        self.message = None         # news for the footer, as words()
        self.hint = None            # the hint shown: an advice.Move
        self.replay = None          # the replay being shown
        self.stash = None           # the board played before K's demonstration: a Stash
        self.typed = ""             # the digits typed after G

    def start_cell(self, board, rows, cols):
        """start_tile of this board number and size, worked out once (each frame asks)."""
        if self.start is None or self.start[0] != (board, rows, cols):
            self.start = ((board, rows, cols), start_tile(board, rows, cols))
        return self.start[1]

    def look_again(self, seen):
        """Whether to look for a win again: seen, what the board is now (the
        tiles' changes and X), is not what the last look saw."""
        if self.checked == seen:
            return False
        self.checked = seen
        return True

    def show_replay(self, replay):
        """Show a replay (a slowmotion.Replay); when it ends, the game goes
        back to the state it was in before the first of the replays shown."""
        if self.replay is None:
            self.back_to = self.state
        self.replay, self.state = replay, State.REPLAY

    def end_replay(self):
        """The replay showing ends: back to the state it came from."""
        self.state, self.replay = self.back_to, None

    def stop_auto(self):
        """The solver stops playing: the game is in play again, now or once
        the replay the solver is watching ends."""
        if self.state is State.AUTO:
            self.state = State.PLAY
        elif self.replay is not None and self.back_to is State.AUTO:
            self.back_to = State.PLAY


# The game's state, by how long each part lives: what the window shows is
# drawn from all four (scene.Scene).
Lives = namedtuple("Lives", "play showing settings window")


class Settings(Fields):
    """The player's choices, which last from one game to the next (the
    language is saved for the next start, Q and X with a kept game)."""

    def __init__(self):
        """The choices of a first start."""
        for name in CHOICES:        # questions, noguess, flagwin, slowmo, predict
            setattr(self, name, False)
        self.speed = slowmotion.START_SPEED   # the replay's speed, an index
        self.order = "reading"      # O: the neighbours' order, "reading" or "book"
        self.zoom = None            # Z: the tile size chosen, or None to fit
        self.other_zoom = None      # ... the other of the window's and full screen's
        self.language = languages.ENGLISH   # a code of languages.TABLE

    def faster(self, step):
        """+ and - in slow motion: the next speed up or down."""
        self.speed = min(max(self.speed + step, 0), len(slowmotion.SPEEDS) - 1)

    def speak(self, language, texts):
        """Speak a language from now on if its texts were read (texts, by
        language): whether it is spoken."""
        if language not in texts:
            return False
        self.language = language
        return True

    def working(self, name):
        """True if a choice is on and works now: so is the one it works within."""
        within = CHOICES[name].within
        return getattr(self, name) and (within is None or self.working(within))

    def toggle(self, name, laid=True):
        """Turn a choice over, and what to say of it (None: nothing); a
        no-guess board is laid so from the next game, or this one if its
        bombs are not laid yet."""
        choice = CHOICES[name]
        said = choice.on if self.flip(name) else choice.off
        if said and name == "noguess" and not laid:
            said += "_now"
        return said and wording.words(said)


KEEP_EVERY = 30.0        # most play between two keeps of a game in progress, s
KEEP_GAP = 1.0           # least time between two tries to keep it, s


class Keeping:
    """When a window keeps the game in progress on disk, and which it kept:
    every KEEP_EVERY s of play (a crash loses no more), until it ends or
    another game is played; then the file is forgotten."""

    def __init__(self):
        """Nothing kept yet."""
        self.game = None            # the Game the kept file holds, by this window
        self.kept = None            # ... as the file holds it
        self.playing = None         # the Game whose play is counted
        self.played = 0.0           # ... seconds of it played in this window, not capped, s
        self.kept_played = 0.0      # ... when it was last kept, s
        self.tried = None           # when the window last tried to keep it (a clock), s

    def left(self, playing):
        """The kept game to forget now that playing (the game in progress,
        or None) is not it: None while it is still played, or none is kept."""
        if self.game is None or self.game is playing:
            return None
        left, self.game, self.kept = self.kept, None, None
        return left

    def due(self, playing, dt, now):
        """dt s more of playing (or None): whether to try to keep it now, at
        the clock's now (a try is noted, and the next waits KEEP_GAP s)."""
        if playing is None:
            return False
        self.count(playing)
        self.played += dt
        if self.played - self.kept_played < KEEP_EVERY or (
                self.tried is not None and now - self.tried < KEEP_GAP):
            return False
        self.tried = now
        return True

    def holds(self, game, kept):
        """The kept file holds this game now, as kept."""
        self.count(game)
        self.game, self.kept, self.kept_played = game, kept, self.played

    def count(self, game):
        """Count the play of this game, from nothing if another was counted."""
        if game is not self.playing:
            self.playing, self.played, self.kept_played = game, 0.0, 0.0


class Window:
    """What lasts only while this window is open: never saved."""

    def __init__(self):
        """What is known before the start-up has looked."""
        self.texts = {languages.ENGLISH: wording.TEXTS}   # each language's, read at start
        self.fonts = set(languages.FONTS)   # the languages' fonts that could be loaded
        self.mono = True            # ... and slow motion's font for code?
        self.desktop = (1024, 768)  # the desktop's size, px, read at start-up
        self.said = set()           # console warnings given, each said once
        self.keeping = Keeping()    # the game in progress kept on disk, and when
        self.pointer = None         # where the mouse was last seen, px
        self.held = set()           # mouse buttons held down now
        self.fullscreen = False     # F11 or --fullscreen: does the game fill the screen?
        self.refit = 0              # ... just left: frames to check the window's size in
        self.limit = 1000           # Python's recursion limit, as the panel shows it

    def first_time(self, topic):
        """Whether a console warning on this topic is given for the first time
        while the window is open (it is noted as given)."""
        if topic in self.said:
            return False
        self.said.add(topic)
        return True


MAX_SIDE = 200           # most rows or columns a board may have
MAX_BOARD = 999999999    # the largest board number
MAX_TIME = 999           # the timer stops here, s
# The standard boards: key, name, rows, columns, bombs.
LEVELS = {
    "0": ("Chapter", 15, 15, 20),
    "1": ("Beginner", 9, 9, 10),
    "2": ("Intermediate", 16, 16, 40),
    "3": ("Expert", 16, 30, 99),
}
# The number key of each level, on the main keyboard and the keypad, by
# its name in pgzero's keys.
LEVEL_KEYS = {prefix + level: level for prefix in ("K_", "KP") for level in LEVELS}


def won(tiles, flagwin):
    """True when every safe tile is open, or (flagwin, X) exactly the bombs
    are flagged: tiles are the game's, or a kept game's, each with isbomb,
    isopen and isflag."""
    if all(tile.isopen for tile in tiles if not tile.isbomb):
        return True
    return flagwin and all(tile.isflag == tile.isbomb for tile in tiles)


def board_asked(now, asked, board=None):
    """The (rows, cols, bombs) of a new board: asked's, or now's where asked
    has None; ValueError if that board cannot be played."""
    rows, cols, bombs = (old if new is None else new for old, new in zip(now, asked))
    fault = board_fault(rows, cols, bombs, board)
    if fault:
        raise ValueError(fault)
    return rows, cols, bombs


def board_fault(rows, cols, bombs, board=None):
    """What is wrong with a board, or "" if it can be played."""
    for name, value in (("rows", rows), ("cols", cols), ("bombs", bombs)):
        if not isinstance(value, int) or isinstance(value, bool):
            return "%s must be a whole number, not %r" % (name, value)
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        return "rows and cols must be 1..%d (got %d x %d)" % (MAX_SIDE, rows, cols)
    if not 0 <= bombs <= rows * cols - 1:
        return "bombs must be 0..%d on a %d x %d board (got %d)" % (
            rows * cols - 1, rows, cols, bombs)
    if board is not None and (not isinstance(board, int) or isinstance(board, bool)
                              or not 0 <= board <= MAX_BOARD):
        return "the board number must be 0..%d (got %r)" % (MAX_BOARD, board)
    return ""


def level_name(rows, cols, bombs):
    """The name of the standard level of this size, or None for a custom one."""
    for name, level_rows, level_cols, level_bombs in LEVELS.values():
        if (level_rows, level_cols, level_bombs) == (rows, cols, bombs):
            return name
    return None


def time_text(seconds):
    """A time as the game shows it, in seconds with two decimals: the same
    for a time just played and the same time read back from the file (which
    keeps it to three)."""
    return "%.2f" % round(round(seconds, 3), 2)


def board_words(rows, cols, bombs):
    """A board's level, or its size if custom, as words() to say."""
    name = level_name(rows, cols, bombs)
    return wording.words(name) if name else wording.words(
        "custom", rows=rows, cols=cols, bombs=bombs)


def board_random(number, board, first, noguess):
    """The random numbers of a board (its size and bombs: a Board): the same
    for the same board number, size and first cell, on every computer and
    every Python 3."""
    # Python seeds a generator from a text the same way everywhere, and
    # shuffle and sample give the same results from the same seed (a test
    # pins some boards so we would know if that ever changed).
    return random.Random("minesweep board %d: %d x %d, %d bombs, first %d%s" % (
        number, board.rows, board.cols, board.bombs, first, ", no guess" if noguess else ""))


def book_order(board, rows, cols, bombs):
    """The order of the book's shuffled blocks list for this board, as cell
    numbers: its bombs first (bombs, a set of cells), then the other tiles,
    each part shuffled by the board number."""
    # A random stream of its own, so the bombs of every board stay as they
    # are; the book's get_neighbours meets the tiles in this order.
    rng = random.Random("minesweep board %d: %d x %d, %d bombs, book order" % (
        board, rows, cols, len(bombs)))
    first = sorted(bombs)
    rest = [cell for cell in range(rows * cols) if cell not in bombs]
    rng.shuffle(first)
    rng.shuffle(rest)
    return first + rest


def start_tile(board, rows, cols):
    """The cell to click first: with the same board number, the same board
    for everyone."""
    return random.Random("minesweep board %d: %d x %d start" % (
        board, rows, cols)).randrange(rows * cols)


def typed(digits, key):
    """A board number being typed after G, after a key (by its name): a
    digit, on the main keys or the keypad, adds itself; BACKSPACE takes the
    last off; any other key changes nothing."""
    digit = key[-1:] if re.fullmatch("(K_|KP_?)[0-9]", key) else ""
    if digit and len(digits) < len(str(MAX_BOARD)):
        return digits + digit
    return digits[:-1] if key == "BACKSPACE" else digits
