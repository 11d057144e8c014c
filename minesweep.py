# Minesweeper for Pygame Zero, after the chapter "The power of recursive
# functions: Minesweeper". Run it with:   pgzrun minesweep.py
# or open it in Thonny or IDLE and press Run (python minesweep.py).
#
# Sections 3.1 to 3.4 follow the chapter. The sections marked
# "BEYOND THE CHAPTER" add what the classic desktop games have.
# Keep this file ASCII only: pgzero reads it in the computer's own encoding.

import pgzrun
import argparse
import json
import os
import random
import sys
import tempfile

import pgzero
import pygame
from pgzero.loaders import UnsupportedFormat

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
MAX_SIDE = 100           # most rows or columns a board may have
GRID_LEFT = 0            # left edge of the grid, px (boards narrower than
                         # MIN_WIDTH are centred)
WIDTH = SIZE * COLS      # window width, px
HEIGHT = BAR + SIZE * ROWS + FOOT   # window height, px
TITLE = "Minesweeper"

FACE_SIZE = 28           # the face button is a square this big, px
MAX_TIME = 999           # the timer stops here, s

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


# ---------------------------------------------------------------------------
# Game state beyond the chapter. new_game() sets all of it afresh.
# ---------------------------------------------------------------------------
laid = False             # have the bombs been laid yet? (at the first click)
started = False          # has the player clicked the grid yet?
timer = 0.0              # seconds since the first click, s
clicks = 0               # clicks on the grid in this game
blast = None             # the bomb that was clicked, drawn red
stats = None             # 3BV, clicks and speed of a won game
new_best = False         # did this win set a best time?
cursor = None            # (row, col) of the highlighted tile, or None
held = set()             # mouse buttons held down now
message = ""             # one line of news shown below the grid

# Settings that last from one game to the next.
questions = False        # does a right click also give question marks?


# ---------------------------------------------------------------------------
# 3.1 The tiles and the bombs
# ---------------------------------------------------------------------------
def make_block(row, col):
    """Make one closed tile, with the chapter's three booleans."""
    block = Actor("minesweep_block")
    block.left = GRID_LEFT + col * SIZE
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


def new_game(rows=15, cols=15, bombs=20):
    """Start a fresh game on a board of this size; the window follows it."""
    global ROWS, COLS, BOMBS, WIDTH, HEIGHT, GRID_LEFT, blocks
    global failed, finished, laid, started, timer, clicks, blast, stats
    global new_best, cursor, message
    check_board(rows, cols, bombs)
    ROWS, COLS, BOMBS = rows, cols, bombs
    WIDTH = max(SIZE * COLS, MIN_WIDTH)
    HEIGHT = BAR + SIZE * ROWS + FOOT
    GRID_LEFT = (WIDTH - SIZE * COLS) // 2
    blocks = [make_block(row, col) for row in range(ROWS) for col in range(COLS)]
    for block in blocks:
        block.neighbours = find_neighbours(block)
    # open_block calls itself once for every tile of an empty area, so a
    # large empty board needs more room for calls than Python gives at start.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), ROWS * COLS + 1000))
    failed = finished = laid = started = new_best = False
    timer = 0.0
    clicks = 0
    blast = stats = cursor = None
    message = ""


def block_at(row, col):
    """The tile at this row and column, or None outside the grid."""
    if 0 <= row < ROWS and 0 <= col < COLS:
        return blocks[row * COLS + col]
    return None


def find_neighbours(bk):
    """All the tiles around this one (up to eight), worked out from its place."""
    around = []
    for row in range(bk.row - 1, bk.row + 2):
        for col in range(bk.col - 1, bk.col + 2):
            block = block_at(row, col)
            if block is not None and block is not bk:
                around.append(block)
    return around


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


def lay_random_bombs(first):
    """Lay BOMBS bombs at random, away from the first tile clicked."""
    # Leave the clicked tile and its neighbours free so the first click
    # opens an area; on a crowded board leave just the clicked tile free.
    keep_free = [first] + first.neighbours
    if len(blocks) - len(keep_free) < BOMBS:
        keep_free = [first]
    # The chapter's idea: shuffle the tiles, then bomb the first BOMBS.
    # We shuffle a copy, so blocks stays in row order for block_at.
    shuffled = [block for block in blocks if block not in keep_free]
    random.shuffle(shuffled)
    lay_bombs([(block.row, block.col) for block in shuffled[:BOMBS]])


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


# ---------------------------------------------------------------------------
# 3.2 Flags
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
# ---------------------------------------------------------------------------
def open_block(bk):
    """Open a safe tile; if no bomb is around it, open its neighbours too."""
    bk.isopen = True
    bk.isquestion = False
    bombnum = get_bomb_number(bk)
    bk.number = bombnum
    bk.image = "minesweep_number" + str(bombnum)
    if bombnum != 0:
        return
    # No bomb around: every neighbour is safe, so open each one the same way.
    # A flag stops the flood: the player put it there on purpose.
    for block in get_neighbours(bk):
        if not block.isopen and not block.isflag:
            open_block(block)


# ---------------------------------------------------------------------------
# 3.4 Winning and losing
# ---------------------------------------------------------------------------
def blow_up(clicked=None):
    """A bomb went off: the game is lost and the bombs are shown."""
    global failed, blast
    failed = True
    blast = clicked
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
    global finished, stats, new_best
    finished = True
    for block in blocks:
        if block.isbomb and not block.isflag:
            block.isflag = True
            block.isquestion = False
            block.image = "minesweep_flag"
    stats = game_stats()
    new_best = record_best_time(level_name(), timer)
    play_sound("win")


def play_sound(name):
    """Play a sound if the computer can; a game without sound still plays."""
    # With no audio device pgzero's mixer never starts and any play() fails,
    # so we check first and carry on in silence.
    if not pygame.mixer.get_init():
        return
    try:
        getattr(sounds, name).play()
    except (pygame.error, UnsupportedFormat, AttributeError) as error:
        say_once("sound", "minesweep: cannot play sound %r: %s" % (name, error))


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: the player's moves, as the classic games have them
# ---------------------------------------------------------------------------
def click_open(block):
    """Left click or Space: open a closed tile, or chord on an open number."""
    if block.isopen:
        chord(block)
        return
    if block.isflag:
        return
    if not laid:
        lay_random_bombs(block)
    if block.isbomb:
        blow_up(block)
    else:
        open_block(block)


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


def grid_action(block, action):
    """Do one move on the grid: start the clock, count the click."""
    global started, clicks
    if failed or finished:
        return
    started = True
    clicks += 1
    action(block)


def block_under(pos):
    """The tile under a point of the window, or None."""
    x, y = pos
    if x < GRID_LEFT or y < BAR:
        return None
    return block_at((y - BAR) // SIZE, (x - GRID_LEFT) // SIZE)


def face_rect():
    """Where the face button is."""
    return Rect((WIDTH - FACE_SIZE) // 2, (BAR - FACE_SIZE) // 2,
                FACE_SIZE, FACE_SIZE)


def bombs_left():
    """Bombs minus flags; it goes negative when there are too many flags."""
    return BOMBS - sum(1 for block in blocks if block.isflag)


def level_name():
    """The name of the standard level being played, or None for a custom one."""
    for name, rows, cols, bombs in LEVELS.values():
        if (rows, cols, bombs) == (ROWS, COLS, BOMBS):
            return name
    return None


def move_cursor(drow, dcol):
    """Move the keyboard cursor, staying on the grid."""
    global cursor
    if cursor is None:
        cursor = (ROWS // 2, COLS // 2)
    else:
        cursor = (min(max(cursor[0] + drow, 0), ROWS - 1),
                  min(max(cursor[1] + dcol, 0), COLS - 1))


def say_once(topic, text, said=set()):
    """Print a warning on the console, once per topic per run."""
    if topic not in said:
        said.add(topic)
        print(text)


# ---------------------------------------------------------------------------
# BEYOND THE CHAPTER: statistics of a won game
# ---------------------------------------------------------------------------
def board_3bv():
    """Bechtel's board benchmark value: the fewest clicks that clear the board.

    It is the number of openings (connected areas of zeros, each cleared by
    one click) plus the safe tiles that are not zero and touch no zero.
    """
    def count(block):
        return sum(1 for other in block.neighbours if other.isbomb)

    zero = {block for block in blocks if not block.isbomb and count(block) == 0}
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
# ---------------------------------------------------------------------------
def data_dir():
    """The folder for best times: MINESWEEP_DATA_DIR, or the system's place."""
    if os.environ.get("MINESWEEP_DATA_DIR"):
        return os.environ["MINESWEEP_DATA_DIR"]
    home = os.path.expanduser("~")
    if sys.platform == "win32":
        base = os.environ.get("APPDATA") or os.path.join(home, "AppData", "Roaming")
    elif sys.platform == "darwin":
        base = os.path.join(home, "Library", "Application Support")
    else:
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
    return os.path.join(base, "minesweep")


def best_times_file():
    """The path of the best-times file."""
    return os.path.join(data_dir(), "best_times.json")


def set_aside(path, why):
    """Move a bad file to a free NAME.bak name so nothing is lost; say so."""
    backup = path + ".bak"
    number = 1
    while os.path.exists(backup):
        number += 1
        backup = "%s.%d.bak" % (path, number)
    try:
        os.replace(path, backup)
    except OSError as error:
        print("minesweep: cannot read best times in %s (%s), and cannot move "
              "it aside (%s); best times will not be saved." % (path, why, error))
        return False
    print("minesweep: best times in %s could not be read (%s); "
          "moved it to %s and started a new list." % (path, why, backup))
    return True


def load_best_times():
    """Best times by level; {} when there are none, None when unusable."""
    path = best_times_file()
    if not os.path.exists(path):
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            times = json.load(f)
    except (OSError, ValueError) as error:
        return {} if set_aside(path, error) else None
    good = isinstance(times, dict) and all(
        isinstance(value, (int, float)) and not isinstance(value, bool)
        and value >= 0 for value in times.values())
    if not good:
        return {} if set_aside(path, "not a list of times") else None
    return times


def save_best_times(times):
    """Write the best times whole or not at all (a temp file, then a rename)."""
    folder = data_dir()
    try:
        os.makedirs(folder, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as f:
            json.dump(times, f, indent=1, sort_keys=True)
        os.replace(temp, best_times_file())
    except OSError as error:
        say_once("save", "minesweep: cannot save best times in %s: %s"
                 % (folder, error))


def record_best_time(level, seconds):
    """Keep this time if it beats the level's best; True if it did."""
    if level is None:
        return False
    times = load_best_times()
    if times is None:
        return False
    if level in times and times[level] <= seconds:
        return False
    times[level] = round(seconds, 3)
    save_best_times(times)
    return True


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
    parser.add_argument("--rows", type=int, default=15, help="1..100 (15)")
    parser.add_argument("--cols", type=int, default=15, help="1..100 (15)")
    parser.add_argument("--bombs", type=int, default=20,
                        help="0..rows*cols-1 (20)")
    args = parser.parse_args(argv)
    try:
        check_board(args.rows, args.cols, args.bombs)
    except ValueError as error:
        parser.error(str(error))
    return args.rows, args.cols, args.bombs


# ---------------------------------------------------------------------------
# Drawing (draw only looks at the game; it never changes it)
# ---------------------------------------------------------------------------
def draw_status_bar():
    """Bombs left, the face and the timer, above the grid."""
    screen.draw.filled_rect(Rect(0, 0, WIDTH, BAR), (192, 192, 192))
    left = bombs_left()
    counter = "%03d" % left if left >= 0 else "-%02d" % min(-left, 99)
    seconds = "%03d" % min(int(timer), MAX_TIME)
    for text, x in ((counter, 6), (seconds, WIDTH - 6 - 52)):
        screen.draw.filled_rect(Rect(x, 7, 52, 26), (0, 0, 0))
        screen.draw.text(text, center=(x + 26, 21), fontsize=30,
                         color=(255, 0, 0))
    face = "face_win" if finished else "face_lose" if failed else "face_play"
    screen.blit(face, face_rect().topleft)


def draw_cursor():
    """A yellow frame round the tile under the mouse or the keyboard cursor."""
    if cursor is not None:
        row, col = cursor
        frame = Rect(GRID_LEFT + col * SIZE, BAR + row * SIZE, SIZE, SIZE)
        screen.draw.rect(frame, (255, 215, 0))
        screen.draw.rect(frame.inflate(-2, -2), (255, 215, 0))


def end_lines():
    """The lines under "Finished": time, 3BV, clicks, speed, a new best."""
    lines = ["Time %.2f s   3BV %d" % (stats["time"], stats["3bv"]),
             "Clicks %d   3BV/s %.2f" % (stats["clicks"], stats["3bv_per_s"]),
             "Efficiency %d%%" % round(100 * stats["efficiency"])]
    if new_best:
        lines.append("New best time for %s!" % level_name())
    return lines


def draw_end():
    """The chapter's "Failed" or "Finished", and the statistics of a win."""
    centre = (WIDTH // 2, BAR + SIZE * ROWS // 2)
    size = min(100, WIDTH // 5)
    if finished:
        screen.draw.text("Finished", center=centre, fontsize=size,
                         color="red", owidth=1, ocolor="white")
        screen.draw.text("\n".join(end_lines()),
                         midtop=(centre[0], centre[1] + size // 2),
                         fontsize=min(24, WIDTH // 12), color="black",
                         background=(255, 255, 255), align="center")
    elif failed:
        screen.draw.text("Failed", center=centre, fontsize=size,
                         color="red", owidth=1, ocolor="white")


def footer_text():
    """The line below the grid: news if there is any, else the mode and keys."""
    if message:
        return message
    name = level_name() or "Custom %dx%d, %d bombs" % (ROWS, COLS, BOMBS)
    marks = "on" if questions else "off"
    return "%s   ?-marks %s (Q)   R new game, 1 2 3 0 levels" % (name, marks)


def draw_footer():
    """The message line below the grid."""
    box = Rect(2, BAR + SIZE * ROWS + 2, WIDTH - 4, FOOT - 4)
    screen.draw.filled_rect(Rect(0, BAR + SIZE * ROWS, WIDTH, FOOT),
                            (192, 192, 192))
    screen.draw.textbox(footer_text(), box, color="black")


# ---------------------------------------------------------------------------
# The Pygame Zero hooks
# ---------------------------------------------------------------------------
def update(dt):
    """Run the clock and check for a win, as the chapter does."""
    global timer
    if finished or failed:
        return
    if started:
        timer = min(timer + dt, MAX_TIME)
    if laid and all_safe_open():
        win()


def draw():
    """Draw the status bar, the tiles and the end of game."""
    screen.fill((128, 128, 128))
    draw_status_bar()
    for block in blocks:
        block.draw()
    draw_cursor()
    draw_end()
    draw_footer()


def on_mouse_down(pos, button):
    """Left opens, right flags, middle chords; the face restarts."""
    global cursor
    held.add(button)
    if face_rect().collidepoint(pos) and button == mouse.LEFT:
        new_game(ROWS, COLS, BOMBS)
        return
    block = block_under(pos)
    if block is None:
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
    global cursor
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
    """Keys: arrows, Space, F, R, Q and the level keys 1, 2, 3 and 0."""
    global questions
    if key in ARROWS:
        move_cursor(*ARROWS[key])
    elif key in (keys.SPACE, keys.RETURN, keys.F) and cursor is not None:
        action = click_flag if key == keys.F else click_open
        grid_action(block_at(*cursor), action)
    elif key == keys.R:
        new_game(ROWS, COLS, BOMBS)
    elif key in LEVEL_KEYS:
        name, rows, cols, bombs = LEVELS[LEVEL_KEYS[key]]
        new_game(rows, cols, bombs)
    elif key == keys.Q:
        questions = not questions


# ---------------------------------------------------------------------------
# Start-up
# ---------------------------------------------------------------------------
# pgzrun gives the script no arguments, and marks itself with sys._pgzrun;
# "python minesweep.py --rows 20 --cols 30 --bombs 99" gives a custom board.
if getattr(sys, "_pgzrun", False):
    new_game()
else:
    new_game(*board_from_command_line(sys.argv[1:]))

pgzrun.go()
