# Start-up of minesweep: the options of `python minesweep.py`, the files
# the game needs beside it (pictures, sounds, each language's texts and font),
# the window, and the signals that stop the game.
#
# No pgzero or pygame: the game hands in what loads a file or opens the
# display. Keep this file ASCII only, like minesweep.py.
import argparse
import glob
import os

from gamestate import board_fault
from viewport import FACE_SIZE
from languages import BY_CODE, FONTS, LANGUAGES, TABLE
from wording import TEXTS

# The pictures in images/ and the sounds in sounds/ that the game uses;
# the tiles also come in the view's other sizes, as minesweep_block_20 and
# so on.
TILE_PICTURES = (["minesweep_block", "minesweep_flag", "minesweep_bomb",
                  "minesweep_bomb_red", "minesweep_wrong", "minesweep_question"] +
                 ["minesweep_number%d" % n for n in range(9)])
PICTURES = TILE_PICTURES + ["face_play", "face_win", "face_lose"]
SOUNDS = ["bomb", "win"]
# Each font of the languages, and the file of each language's texts
# besides English's (which are in wording.py), as languages.TABLE has them.
FONT_FILES = {name: os.path.join("fonts", name + ".ttf") for name in FONTS}
TEXT_FILES = {row.code: os.path.join("texts", row.texts) for row in TABLE if row.texts}
FONT_SAMPLE = "".join(row.own for row in TABLE)   # letters the start draws with a font
SHOWN_LACKING = 5        # most letters a font lacks that a line names
STOP_SIGNALS = ("SIGTERM", "SIGHUP")   # the system's "please stop"; a closed terminal
DISPLAY_TRIES = 12       # times to ask X11 again for the window (0.25 s apart)


class CommandLine(argparse.ArgumentParser):
    """argparse, but a mistake is one clear line instead of a usage screen."""

    def error(self, message):
        """Stop with one line that says what is wrong."""
        self.exit(2, "minesweep: %s\n" % message)


def place(text):
    """ROW,COL as the hints say them (from 1) for --at: (row, col) from 0."""
    try:
        row, col = (int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("give ROW,COL, such as 8,8 (got %r)" % text)
    return row - 1, col - 1


def options(argv, rows, cols, bombs):
    """The options of `python minesweep.py`, with these rows, cols and bombs
    unless given; exits with one line if the board cannot be played. Its
    asked is True if a board was asked for (its size or its number)."""
    parser = CommandLine(prog="python minesweep.py",
                         description="Minesweeper for Pygame Zero.")
    parser.add_argument("--rows", type=int, help="(%d)" % rows)
    parser.add_argument("--cols", type=int, help="(%d)" % cols)
    parser.add_argument("--bombs", type=int, help="(%d)" % bombs)
    parser.add_argument("--board", type=int, default=None,
                        help="the board number (a new one each game)")
    parser.add_argument("--flag-win", action="store_true",
                        help="also win when exactly the bombs are flagged")
    parser.add_argument("--lang", choices=list(LANGUAGES),
                        help="the game's language: %s (else the computer's own)" % ", ".join(
                            "%s %s" % (row.code, row.name) for row in TABLE))
    parser.add_argument("--fullscreen", action="store_true",
                        help="fill the screen, for a projector (F11 goes in and out)")
    parser.add_argument("--check", action="store_true",
                        help="load every picture, sound, text and the font, name "
                             "each broken one, then stop")
    parser.add_argument("--calls", metavar="FILE",
                        help="write the calls of open_block that the first click makes "
                             "to a CSV file, then stop (no window)")
    parser.add_argument("--at", type=place, metavar="ROW,COL",
                        help="with --calls, the first click (from 1; the middle)")
    parser.add_argument("--order", choices=["reading", "book"],
                        help="with --calls, the neighbours' order: reading (top left "
                             "to bottom right) or the book's shuffled blocks list")
    args = parser.parse_args(argv)
    if args.calls is not None and not args.calls.strip():
        parser.error("--calls needs the name of a file to write, such as calls.csv")
    if args.calls is None and (args.at is not None or args.order is not None):
        parser.error("--%s goes with --calls FILE, which writes the first click's calls"
                     % ("at" if args.at is not None else "order"))
    args.order = args.order or "reading"
    args.asked = any(value is not None for value in (args.rows, args.cols, args.bombs,
                                                     args.board))
    args.rows = rows if args.rows is None else args.rows
    args.cols = cols if args.cols is None else args.cols
    args.bombs = bombs if args.bombs is None else args.bombs
    fault = board_fault(args.rows, args.cols, args.bombs, args.board)
    if fault:
        parser.error(fault)
    if args.at is None:
        args.at = (args.rows // 2, args.cols // 2)
    if not (0 <= args.at[0] < args.rows and 0 <= args.at[1] < args.cols):
        parser.error("--at must be a tile of the board, 1..%d,1..%d"
                     % (args.rows, args.cols))
    return args


# The game's folders beside minesweep.py, each with every folder in it: the
# pictures and words it needs, and the lesson, the checker, the tools, the
# docs and the tests that come with it.
OWN_FOLDERS = ("images", "sounds", "texts", "fonts", "chapter", "tools", "docs", "tests",
               ".ci")
# The files beside minesweep.py that are the game's: its programs and
# pages (by how their names end) and its lists of what to install.
OWN_ENDINGS = (".py", ".md")
OWN_STARTS = ("requirements", "pytest.ini")


def own_files(root):
    """The game's own folders and files in its folder, root, which nothing
    it writes may replace: each folder of OWN_FOLDERS and every folder in
    it, and the files named as OWN_ENDINGS and OWN_STARTS say (a worksheet
    of the user's own beside them may be written again)."""
    folders = [where for name in OWN_FOLDERS
               for where, _, _ in os.walk(os.path.join(root, name))]
    return folders + [os.path.join(root, name) for name in sorted(os.listdir(root))
                      if name.endswith(OWN_ENDINGS) or name.startswith(OWN_STARTS)]


def picture_names(sizes):
    """Every picture the game shows; sizes are the tile sizes besides the book's."""
    return PICTURES + ["%s_%d" % (name, size) for name in TILE_PICTURES for size in sizes]


def missing(root, sizes):
    """The files the game needs that are not in its folder, root: (the
    pictures, the sounds, the fonts), each a list of paths; sizes are the
    tile sizes besides the book's."""
    wanted = ([os.path.join("images", name + ".png") for name in picture_names(sizes)],
              [os.path.join("sounds", name + ".wav") for name in SOUNDS],
              list(FONT_FILES.values()))
    return tuple([os.path.join(root, path) for path in paths
                  if not os.path.isfile(os.path.join(root, path))] for paths in wanted)


def checked(language):
    """What --check says when every file is there."""
    return ("minesweep: checked the pictures, sounds and texts; the game speaks %s"
            % BY_CODE[language].name)


def picture_size(name, book):
    """The (width, height) in px of a picture, as tools/make_assets.py draws
    it; book is the book's tile size."""
    if name.startswith("face_"):
        return FACE_SIZE, FACE_SIZE
    size = name.rsplit("_", 1)[-1]
    return (int(size),) * 2 if size.isdigit() else (book, book)


def loaded(name, load):
    """What load(name) gives, and "", or None and why it cannot be used."""
    try:
        return load(name), ""
    except Exception as error:   # a loader raises whatever its library raises
        return None, str(error).strip().split("\n")[0] or type(error).__name__


def unusable(names, load):
    """The names among these that load(name) cannot use: [(name, why)]."""
    broken = []
    for name in names:
        value, why = loaded(name, load)
        if why:
            broken.append((name, why))
    return broken


def unfit_pictures(names, load, book):
    """The pictures among these that load(name) (their size) cannot use, or
    that are not the size the game draws them at: [(name, what is wrong)]."""
    # A picture of another size would leave gaps between the tiles, or
    # cover its neighbours.
    unfit = []
    for name in names:
        size, why = loaded(name, load)
        want = picture_size(name, book)
        if why:
            unfit.append((name, "cannot be read (%s)" % why))
        elif tuple(size) != want:
            unfit.append((name, "is %d x %d px, not %d x %d px" % (tuple(size) + want)))
    return unfit


def drawn_texts(path, read, lacking, font=""):
    """A file of texts, read by read(path), that its font (the file font)
    draws whole (lacking(text) is the letters it lacks; None: no font to
    ask): (table, "") or (None, what is wrong)."""
    # A letter the font lacks would show as a box on the screen.
    table, problem = read(path)
    if table is None or lacking is None:
        return table, problem
    # Each letter asked about once: the texts repeat their letters many
    # times over, and asking the font takes time for each.
    asked = "".join(sorted(set("".join(table.get(key, "") for key in TEXTS))))
    letters = sorted({letter for letter in lacking(asked) if not letter.isspace()})
    if not letters:
        return table, ""
    named = ", ".join("%s (U+%04X)" % (letter, ord(letter))
                      for letter in letters[:SHOWN_LACKING])
    return None, ("the font %s cannot draw %d letter%s of %s: %s%s (python "
                  "tools/make_font.py makes it again with every letter)" % (
                      font, len(letters), "" if len(letters) == 1 else "s", path, named,
                      ", ..." if len(letters) > SHOWN_LACKING else ""))


def other_texts(root):
    """Every file of texts in root's texts/ besides the ones the game reads."""
    read = {os.path.join(root, name) for name in TEXT_FILES.values()}
    return [path for path in sorted(glob.glob(os.path.join(glob.escape(root), "texts",
                                                            "*.json")))
            if path not in read]


# Each file is loaded now by load[kind] ("images" and "sounds" take a name,
# "fonts" and "texts" a path; a kind that is None is not tried), so that the
# game never meets a broken one mid-game: "images" gives a picture's size,
# "fonts" what the font lacks of a text (see drawn_texts). The line to stop
# with is for a missing or broken picture, or with check (--check) any broken
# file, every file of texts included; with check each line is its own topic,
# so that every one is said.
def problems(root, sizes, load, check=False):
    """The game's files in root, for tiles of these sizes, the book's first:
    (a line to stop with, (topic, line)s, the texts read of each language
    besides English, by its code, and the fonts that can be used)."""
    book, sizes = sizes[0], sizes[1:]
    pictures, sounds, fonts = missing(root, sizes)
    said, stop, broken = [], ["%s missing" % path for path in pictures], []
    if sounds:
        said.append(("sound", "minesweep: %s missing: the game plays without it "
                     "(python tools/make_assets.py makes it)" % ", ".join(sounds)))
    have = [name for name in picture_names(sizes)
            if os.path.join(root, "images", name + ".png") not in pictures]
    for name, why in unfit_pictures(have, load["images"], book):
        broken.append(os.path.join(root, "images", name + ".png"))
        stop.append("%s %s" % (broken[-1], why))
    have = [name for name in SOUNDS if os.path.join(root, "sounds", name + ".wav")
            not in sounds] if load["sounds"] else []
    for name, why in unusable(have, load["sounds"]):
        path = os.path.join(root, "sounds", name + ".wav")
        broken.append(path)
        said.append(("sound " + name, "minesweep: %s cannot be played (%s): the game "
                     "plays without it (python tools/make_assets.py makes it again)"
                     % (path, why)))
    # Each font, and what it lacks of a text: a language whose font is
    # missing or broken is not spoken (English is, in pgzero's own font).
    lacking = {}
    for name, path in FONT_FILES.items():
        path = os.path.join(root, path)
        instead = " and ".join(row.name for row in TABLE if row.font == name and row.texts)
        if path in fonts:
            said.append(("texts " + path, "minesweep: %s is missing: the game speaks English "
                         "instead of %s (python tools/make_font.py makes it)"
                         % (path, instead)))
            continue
        lacking[name], why = loaded(path, load["fonts"])
        if why:
            del lacking[name]
            broken.append(path)
            said.append(("texts " + path, "minesweep: %s cannot be used (%s): the game speaks "
                         "English instead of %s (python tools/make_font.py makes it "
                         "again)" % (path, why, instead)))
    # A language's texts are read even without its font, to name a broken file.
    texts = {}
    for language, name in sorted(TEXT_FILES.items()):
        font = BY_CODE[language].font
        path = os.path.join(root, name)
        table, problem = drawn_texts(path, load["texts"], lacking.get(font),
                                     FONT_FILES[font])
        if table is not None:
            if font in lacking:
                texts[language] = table
            continue
        if os.path.lexists(path):
            broken.append(path)
        said.append(("texts " + language, "minesweep: %s; the game speaks English "
                     "instead of %s." % (problem, BY_CODE[language].name)))
    # Another file of texts is checked against the first font there.
    font = next(iter(lacking), None)
    for path in other_texts(root) if check else []:
        table, problem = drawn_texts(path, load["texts"], lacking.get(font),
                                     FONT_FILES.get(font, ""))
        if table is None:
            broken.append(path)
            said.append(("texts " + path, "minesweep: %s." % problem))
    # A font is used (for English too) once it has drawn a language's texts
    # whole: a font put in its place that has English letters alone is not.
    fonts = {BY_CODE[language].font for language in texts}
    fatal = stop and ("minesweep: cannot start: %s. Make the pictures again with: python "
                      "tools/make_assets.py" % ", ".join(stop))
    if check:                       # --check names every file, and fails for any broken
        said = [(line, line) for topic, line in said]
        fatal = fatal or broken and "minesweep: %d broken file%s (see above)" % (
            len(broken), "" if len(broken) == 1 else "s")
    return fatal or None, said, texts, fonts


def font_lacking(pygame, path):
    """Load the font at path with pygame and draw with it: what it lacks
    of a text, as a function of the text."""
    # pygame.freetype says which letters a font has no drawing of, where
    # pygame.font would draw each as a box.
    pygame.font.Font(path, 20).render(FONT_SAMPLE, True, (0, 0, 0))
    pygame.freetype.init()
    font = pygame.freetype.Font(path, 20)
    return lambda text: [letter for letter, metrics in zip(text, font.get_metrics(text))
                         if metrics is None]


def code_font_and_sound(path, load, silent):
    """Slow motion's font for code at path, loaded by load(path), and the
    sound card (silent: none was found): (whether the font can be used,
    the (topic, line)s to say)."""
    said = [("no sound", "minesweep: no sound card found: the game plays in silence.")
            ] if silent else []
    for path, why in unusable([path], load):
        said.append(("mono", "minesweep: %s cannot be used (%s): slow motion shows its code "
                     "in another font (python tools/make_font.py makes it)" % (path, why)))
        return False, said
    return True, said


def desktop(display, refused):
    """The desktop's (width, height) from pygame.display (display; refused,
    its error), known before the window opens; None if it cannot say."""
    try:
        return tuple(display.get_desktop_sizes()[0])
    except (refused, IndexError, AttributeError):
        return None


def open_window(pygame, environ, platform, sleep):
    """Open pygame.display as a window: None, or why not (a pygame.error)."""
    display, refused = pygame.display, pygame.error
    # A window that grows keeps its top left corner and could run off the
    # screen: SDL centres it again instead.
    environ.setdefault("SDL_VIDEO_CENTERED", "1")
    # On Linux, show the window through X11 rather than OpenGL, which
    # without a graphics card takes a quarter of a core for a still window.
    # SDL decides when the display starts, and pgzero has started it, so it
    # is started again.
    if (not platform.startswith("linux") or "SDL_FRAMEBUFFER_ACCELERATION" in environ
            or environ.get("SDL_VIDEODRIVER", "x11") != "x11"):
        return None
    environ["SDL_FRAMEBUFFER_ACCELERATION"] = "0"
    if not display.get_init():
        return None
    # Now and then X11 refuses a new client for a moment ("x11 not
    # available", seen under Xvfb): it is asked again for a few seconds.
    for attempt in range(DISPLAY_TRIES):
        display.quit()
        try:
            display.init()
            display.set_mode((100, 100))   # as pgzero had it
            return None
        except refused as error:
            problem = error
            sleep(0.25)
    return problem


def stop_on_signals(signals, stop, stopped_before=lambda: False):
    """Call stop() at the first SIGTERM or SIGHUP (signals: Python's signal
    module), or now if stopped_before() says one came already."""
    # A second one, while the game is being kept, is ignored.
    def stopping(number, frame):
        """A stop signal: ignore the next ones, and stop."""
        for name in STOP_SIGNALS:
            if hasattr(signals, name):
                signals.signal(getattr(signals, name), signals.SIG_IGN)
        stop()

    stopping.stops_the_game = True
    for name in STOP_SIGNALS:
        if hasattr(signals, name):
            signals.signal(getattr(signals, name), stopping)
    # Until now SDL's own handler took a stop signal and left a quit event
    # for a running game to see; the display is opened again at start,
    # which would drop that event, so it is looked for once the game's own
    # handlers are in (a signal from then on comes to them).
    if stopped_before():
        stop()


def hold_stop_signals(signals):
    """From now on ignore SIGTERM and SIGHUP where they would stop the game."""
    # Once the closing save has begun it finishes: a stop signal then would
    # end it half-way, and the game in progress would be lost. A handler
    # that is not the game's (a test's own process) is left as it is.
    for name in STOP_SIGNALS:
        number = getattr(signals, name, None)
        if number is not None and getattr(signals.getsignal(number), "stops_the_game",
                                          False):
            signals.signal(number, signals.SIG_IGN)


def read_text(path):
    """The text of the file at path, or None if it cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read(100000)
    except OSError:
        return None


def no_sound_card(environ, platform, read, exists):
    """True on Linux with no sound card and no sound server, where SDL would
    only print errors while it looks for one (read(path): a file's text, or
    None; exists(path): whether it is there)."""
    if not platform.startswith("linux") or environ.get("PULSE_SERVER"):
        return False
    cards = read("/proc/asound/cards")
    if cards is not None and "no soundcards" not in cards:
        return False
    # A sound server (PulseAudio or PipeWire) may still play sound, through
    # the network or a device that ALSA does not list.
    runtime = environ.get("XDG_RUNTIME_DIR", "")
    return not (runtime and any(exists(os.path.join(runtime, name)) for name in (
        os.path.join("pulse", "native"), "pipewire-0")))
