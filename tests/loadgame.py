"""Load minesweep.py the way pgzrun does, headless, for tests and tools."""
import atexit
import functools
import os
import signal
import sys
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "minesweep.py")
CHAPTER = os.path.join(ROOT, "chapter")
# The game's folder is on the import path, as pgzrun puts it there: the
# tests import solver.py the way the game does.
sys.path.insert(0, ROOT)

# SDL reads these when pygame starts, so they must be set before the import.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # quiet workers

# pygame looks for setuptools' pkg_resources as it starts, a fifth of a
# second of each test process that starts it; the game keeps it out too.
sys.modules.setdefault("pkg_resources", None)
import pygame  # noqa: E402
import pgzero.runner  # noqa: E402  (it starts pygame and the mixer)
import pgzero.game  # noqa: E402
import pgzero.loaders  # noqa: E402
import pgzero.ptext  # noqa: E402
if sys.modules.get("pkg_resources", False) is None:
    del sys.modules["pkg_resources"]        # from now on it loads as usual
import pygame.freetype  # noqa: E402

import scene  # noqa: E402  (the game's own modules: the game imports the same ones)
import wording  # noqa: E402



class MeasuredFont:
    """A real font whose texts' sizes are measured once for every game
    this process loads: each new game measures the same texts in the same
    fonts (its footer's room, at start), and the answer cannot change."""

    def __init__(self, font):
        """Nothing measured yet in this font."""
        self.font, self.sizes = font, {}

    def size(self, text):
        """font.size(text), measured the first time only."""
        if text not in self.sizes:
            self.sizes[text] = self.font.size(text)
        return self.sizes[text]

    def __getattr__(self, name):
        """Everything else is the font's own."""
        return getattr(self.font, name)


measured = {}               # id of a font pgzero has loaded -> its MeasuredFont


def measured_getfont(fontname=None, fontsize=None, *options):
    """pgzero's getfont, its font measured once (the game's scene.Measure asks it)."""
    # pgzero keeps each font it loads for the whole process (the tests do
    # not forget them), so a font is the same object in every game loaded.
    font = pgzero.loaders.getfont(fontname, fontsize, *options)
    if id(font) not in measured:
        measured[id(font)] = MeasuredFont(font)
    return measured[id(font)]


class Measures:
    """scene.Measure for every game this process loads from one folder:
    each new game fits the same texts to the same widths in the same fonts
    (its footer's room, at start), and the answers cannot change, since
    pgzero keeps each font it loads for the whole process."""

    def __init__(self, make):
        """No game loaded yet; make is scene.Measure itself."""
        self.make, self.kept = make, {}     # images folder -> its scene.Measure

    def for_folder(self, folder):
        """A maker of scene.Measure, as the script calls it, for this folder."""
        def measure(getfont):
            """The folder's Measure, made the first time it is asked for."""
            if folder not in self.kept:
                self.kept[folder] = self.make(getfont)
            return self.kept[folder]
        return measure


measures = Measures(scene.Measure)


def file_state(path):
    """A file's size, time and place on the disk, or None if it cannot be read."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns, info.st_ino


class KeptFont(pygame.freetype.Font):
    """A freetype font that says which letters it draws once for every game
    this process loads: each game asks of the same font file about the same
    letters at start, and the answer is the file's."""

    asked = {}                  # (path, its file_state, size, text) -> metrics

    def get_metrics(self, text, *options):
        """pygame.freetype's get_metrics, worked out the first time only."""
        key = (self.path, file_state(self.path), self.size, text) + options
        if key not in self.asked or key[1] is None:
            self.asked[key] = super().get_metrics(text, *options)
        return self.asked[key]


texts_read = {}             # (path, the file's bytes) -> what read_texts gave
read_texts = wording.read_texts


def read_texts_once(path):
    """wording.read_texts, each file's text read whole and judged once: a
    file changed is judged afresh. The table given is the caller's own copy."""
    try:
        with open(path, "rb") as f:
            key = (path, f.read())
    except OSError:
        return read_texts(path)
    if key not in texts_read:
        texts_read[key] = read_texts(path)
    table, problem = texts_read[key]
    return (None if table is None else dict(table)), problem


kept_pictures = {}          # images folder -> (folder_state, its pictures loaded)


def folder_state(folder):
    """Each file in a folder with its size, time and place on the disk
    (None if the folder cannot be read): a picture changed changes it."""
    try:
        with os.scandir(folder) as entries:
            return sorted((entry.name, info.st_size, info.st_mtime_ns, info.st_ino)
                          for entry in entries for info in [entry.stat()])
    except OSError:
        return None


@functools.lru_cache(maxsize=8)
def compiled(source, filename):
    """The code of a script's text, compiled once for all the tests that run it."""
    return compile(source, filename, "exec", dont_inherit=True)


def load_game(name="minesweep", script=SCRIPT, edit=None, own_process=False):
    """A fresh module running a script, as `pgzrun minesweep.py` makes it.

    edit, if given, changes the source text first, as a student would;
    own_process: the process is the game's alone, and ends as the game's does.
    """
    if not pygame.display.get_init() or not pygame.mixer.get_init():
        # pgzero's loop quits the display and the mixer when it ends.
        pygame.init()
    with open(script, encoding="ascii") as f:
        source = f.read()
    if edit is not None:
        source = edit(source)
    code = compiled(source, os.path.basename(script))
    mod = types.ModuleType(name)
    mod.__file__ = script
    # pgzero keeps loaded pictures by name, whatever folder they came from:
    # each script gets its own images/ and sounds/. The pictures a game
    # loaded are kept for the next game of the same folder, as long as not
    # one of its files has changed; sounds are loaded afresh (a sound made
    # with a mixer since quit would crash pygame).
    folder = os.path.join(os.path.dirname(os.path.abspath(script)), "images")
    now = folder_state(folder)
    if now is None or kept_pictures.get(folder, (None,))[0] != now:
        kept_pictures[folder] = (now, {})
    pgzero.loaders.images.cache = kept_pictures[folder][1]
    pgzero.loaders.sounds.cache.clear()
    for loader in (pgzero.loaders.images, pgzero.loaders.sounds):
        loader.have_root = False
    sys.modules[name] = mod
    sys._pgzrun = True
    pgzero.runner.prepare_mod(mod)
    # The game hands pgzero's getfont to its scene.Measure as it starts:
    # for that alone, the one that measures each text once in this process;
    # and while it starts, what it works out from files that are the same
    # for every game (the texts judged, the letters the font draws, the
    # footer's texts fitted) is worked out once, for as long as the files
    # stay the same.
    real = (pgzero.ptext.getfont, scene.Measure, wording.read_texts,
            pygame.freetype.Font)
    pgzero.ptext.getfont, scene.Measure = measured_getfont, measures.for_folder(folder)
    wording.read_texts, pygame.freetype.Font = read_texts_once, KeptFont
    try:
        exec(code, mod.__dict__)
    finally:
        (pgzero.ptext.getfont, scene.Measure, wording.read_texts,
         pygame.freetype.Font) = real
    # The game keeps a game in progress when its process ends, and stops
    # on SIGTERM and SIGHUP: not in the tests' own process (a test runs a
    # real game process for that).
    if hasattr(mod, "save_on_exit") and not own_process:
        atexit.unregister(mod.save_on_exit)
        for name in ("SIGTERM", "SIGHUP"):
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), signal.SIG_DFL)
    return mod


def draw_afresh(mod):
    """Draw the whole window, as the first frame of a game does: the game
    forgets what its canvas says the window shows already."""
    mod.canvas.scene = mod.canvas.grid_view = None
    mod.draw()


def with_screen(mod):
    """Give the game its window (a dummy one), so draw() can run."""
    game = pgzero.game.PGZeroGame(mod)
    game.reinit_screen()
    return game
