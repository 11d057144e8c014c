"""A student's program, loaded and run as Pygame Zero runs it, headless.

Each section of check_sections.py loads the program afresh (a module made
as pgzrun makes it), lays the checker's own board on its tiles, sends it
clicks through Pygame Zero's own game object and draws its frames, each
piece of the student's code under a time limit. An error raised in the
student's code becomes a Fail: the key of its words in check_texts.json,
its line where the program's text shows one, and its facts. The
checker's constants (the sections, the board it lays) are here too.
"""
import ast
import collections
import contextlib
import difflib
import errno
import io
import random
import re
import signal
import sys
import time
import tokenize
import traceback
import types

import check_book
import check_causes
from check_lines import Lines

SECTIONS = ["3.1.2", "3.1.3", "3.1.4", "3.2.1", "3.2.2", "3.3.1", "3.3.2",
            "3.3.3", "3.3.4", "3.4.1", "3.4.2"]
ROWS = COLS = 15
SIZE = 25
BOMBS = 20
# After the program has loaded, the recursion limit is this low, so an
# open_block that never stops is caught quickly. The book's open_block goes
# at most one call deeper per safe tile (205 of them), well within it.
RECURSION_LIMIT = 450
# Seconds one load, or one section, may take before it is stopped.
LOAD_SECONDS = 2.0
CALL_SECONDS = 2.0
LEFT, RIGHT = 1, 3
LOAD_SEED = 1000
MEMORY = 1536 * 1024 * 1024
CPU_SECONDS = 120
# The largest file a program may write (where the system can say so): a
# program that would fill the disk gets an error at the line that writes.
FILE_BYTES = 64 * 1024 * 1024

# The board every section after 3.1.4 is checked on (row, column from 0):
# tile (0, 0) is closed in by three bombs, so one click at OPEN_ALL opens
# every other safe tile and (0, 0) is the last one to win.
BOARD = [(0, 1), (1, 0), (1, 1), (0, 14), (14, 14)] + [
    (r, c) for r in range(6, 9) for c in range(6, 11)]
OPEN_ALL = (4, 3)
LAST = (0, 0)
NUMBER_TILE = (5, 7)
BOMB_TILE = (6, 6)

# The section where the book first writes each of its functions.
BOOK_SECTION_OF = {"draw": "3.1.3", "on_mouse_down": "3.2.1", "set_flag": "3.2.2",
                   "open_block": "3.3.1", "blow_up": "3.3.1", "get_neighbours": "3.3.2",
                   "get_bomb_number": "3.3.3", "update": "3.4.2"}

# A program's write that fails because the disk is full, or because the
# file would be larger than FILE_BYTES: the key of its words.
DISK_FULL = {errno.ENOSPC: "disk_full_write", errno.EFBIG: "file_too_big"}
if hasattr(errno, "EDQUOT"):
    DISK_FULL[errno.EDQUOT] = "disk_full_write"



class Fail(Exception):
    """A section did not pass: the key of its words, its line, its facts."""

    def __init__(self, key, line=None, **facts):
        Exception.__init__(self, key)
        self.key, self.line, self.facts = key, line, facts


class Todo(Fail):
    """A section whose code is not written yet (no function, only `pass`,
    no handler): "not yet", not a mistake."""


class Stopped(BaseException):
    """The program ran past its time (a BaseException, so that a student's
    own `except Exception` does not swallow it)."""


def on_alarm(signum, frame):
    """The time is up: stop the student's code where it is."""
    raise Stopped()


class Limit:
    """A time limit around a piece of the student's code: of the processor's
    time this process takes (SIGPROF), so that a busy computer judges a
    program as an idle one does, and of the clock's, WALL times over
    (SIGALRM), for code that waits without working (time.sleep); where the
    system has neither (Windows), the parent's limit on the whole process
    acts. The deadlines are kept too, for loops of the checker's own that
    run the student's code (Tk's) and can look at the time themselves."""

    deadlines = None
    WALL = 3

    def __init__(self, seconds):
        self.seconds = seconds
        self.outer = None

    def __enter__(self):
        self.outer = Limit.deadlines
        Limit.deadlines = (time.process_time() + self.seconds,
                           time.monotonic() + self.seconds * self.WALL)
        if hasattr(signal, "setitimer"):
            signal.signal(signal.SIGALRM, on_alarm)
            signal.setitimer(signal.ITIMER_REAL, self.seconds * self.WALL)
            if hasattr(signal, "ITIMER_PROF"):
                signal.signal(signal.SIGPROF, on_alarm)
                signal.setitimer(signal.ITIMER_PROF, self.seconds)

    def __exit__(self, *exc):
        if hasattr(signal, "setitimer"):
            signal.setitimer(signal.ITIMER_REAL, 0)
            if hasattr(signal, "ITIMER_PROF"):
                signal.setitimer(signal.ITIMER_PROF, 0)
        Limit.deadlines = self.outer
        return False

    @staticmethod
    def check():
        """Stop the student's code if its time is up."""
        if Limit.deadlines is not None and (time.process_time() > Limit.deadlines[0] or
                                            time.monotonic() > Limit.deadlines[1]):
            raise Stopped()


# ---------------------------------------------------------------- the text


BOM = b"\xef\xbb\xbf"


def read_source(path, notes):
    """The program's text, decoded by its coding line as Python does; a
    note in notes where Python reads it but not as its author meant."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as e:
        if data.startswith(BOM):
            # Notepad's "UTF-8 with BOM" before the book's gb18030 line.
            raise Fail("bom_coding", 1, coding=str(e))
        if "invalid or missing" not in str(e):
            raise Fail("bad_coding", 1, coding=str(e))
        encoding = "utf-8"            # no coding line, and not UTF-8 either
    if not text_coding(encoding):
        # A codec that is no text encoding Python reads a program in
        # (undefined, rot13, punycode, utf-16, an EBCDIC one): the coding line.
        raise Fail("bad_coding", 1, coding="coding: %s" % encoding)
    says_gb = encoding.replace("-", "").replace("_", "").lower() in ("gb18030", "gbk",
                                                                     "gb2312", "cp936")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        if says_gb and is_utf8(data):
            raise Fail("utf8_says_gb", 1, coding=encoding, at=line)   # line 1 is the fix
        raise Fail("not_utf8" if encoding.startswith("utf") else "bad_bytes",
                   line, coding=encoding)
    if says_gb and is_utf8(data) and any(byte > 127 for byte in data):
        # It decodes, but as other letters than the author typed (an editor
        # such as Notepad saved UTF-8): comments only, so the program runs, but a Chinese
        # word in a string would show as nonsense.
        notes.append(("note_utf8_says_gb", 1, {"coding": encoding}))
    return text


def text_coding(encoding):
    """Whether a coding line's encoding reads a program's ASCII as ASCII,
    as Python needs of it."""
    sample = b"# coding\nROWS = 15  # +-*/\n"
    try:
        return sample.decode(encoding) == sample.decode("ascii")
    except (LookupError, UnicodeError, TypeError, ValueError):
        return False


def is_utf8(data):
    """Whether bytes are UTF-8 text."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


SYNTAX_HINTS = [          # (a piece of Python's message, the key of our words)
    ("expected ':'", "syntax_colon"),
    ("was never closed", "syntax_unclosed"),
    ("unmatched", "syntax_unmatched"),
    ("unterminated string", "syntax_quote"),
    ("EOL while scanning", "syntax_quote"),
    ("invalid character", "syntax_chinese"),
    ("invalid non-printable", "syntax_chinese"),
    ("Perhaps you forgot a comma", "syntax_comma"),
    ("Maybe you meant '=='", "syntax_equals"),
    ("expected an indented block", "indent_expected"),
    ("unexpected indent", "indent_unexpected"),
    ("unindent does not match", "indent_unmatched"),
    ("does not match", "syntax_closing"),     # after "unindent does not match"
    ("inconsistent use of tabs", "indent_tabs"),
]


def compile_source(source, path):
    """The program compiled, or a Fail naming the line and what is missing."""
    try:
        return compile(source, path, "exec", dont_inherit=True), ast.parse(source)
    except SyntaxError as e:
        key = "syntax_other"
        for piece, hint in SYNTAX_HINTS:
            if piece in (e.msg or ""):
                key = hint
                break
        else:
            if isinstance(e, IndentationError):
                key = "indent_other"
        text = (e.text or "").strip()
        raise Fail(key, e.lineno, python=e.msg or "", code=text)


# ----------------------------------------------------------- the program


def is_actor(thing):
    """Whether a thing is a tile as the book makes them (an Actor)."""
    return hasattr(thing, "image") and hasattr(thing, "left") and hasattr(thing, "_surf")


class FakeTile:
    """A tile at a place, for working out what one comparison matches."""

    def __init__(self, row, col, size):
        self.row, self.col = row, col
        self.left, self.top = col * size, row * size
        self.x, self.y = self.left + size / 2, self.top + size / 2
        self.isopen = self.isbomb = self.isflag = False


class Sounds:
    """Pygame Zero's sounds as a program sees them, each play noted in
    played: a sound is found as Pygame Zero finds it (a missing one stops
    the program with Pygame Zero's own words)."""

    def __init__(self, loader, played):
        self._loader, self._played = loader, played

    def __getattr__(self, name):
        return PlayedSound(name, getattr(self._loader, name), self._played)


class PlayedSound:
    """One sound: play() notes its name; anything else is the sound's own."""

    def __init__(self, name, sound, played):
        self._name, self._sound, self._played = name, sound, played

    def play(self, *args, **kwargs):
        """Note that the sound was played."""
        self._played.append(self._name)

    def __getattr__(self, name):
        return getattr(self._sound, name)


def both(first, second):
    """A local trace function that calls two, for as long as either wants."""
    def trace(frame, event, arg):
        """Each of the two, while it follows the frame."""
        nonlocal first, second
        first = first(frame, event, arg) if first else None
        second = second(frame, event, arg) if second else None
        return trace if first or second else None
    return trace


class Program:
    """One student's program, loaded afresh for each section."""

    def __init__(self, path, work_file, confined=False, source=None, seconds=None):
        self.path = path
        self.work_file = work_file
        # Whether the program is kept inside its work folder (Landlock):
        # then a file it may not open is the checker's doing, and said so.
        self.confined = confined
        # How long a load, and a call of the program's code, may take.
        self.seconds = seconds or (LOAD_SECONDS, CALL_SECONDS)
        self.notes = []
        self.list_name = "blocks"
        self._names = None
        if source is None:
            source = read_source(work_file, self.notes)
        self.source = source
        try:
            self.code, tree = compile_source(source, path)
        except Fail as f:
            f.source = source          # for the repair search
            raise
        self.tree = tree
        self.lines = Lines(tree)
        self.causes = check_causes.Causes(tree, source)
        self.notes.extend(check_causes.pgzrun_notes(tree))
        self.mod = None
        self.pg = None
        self.loads = 0
        self.laid = False

    def written_beyond(self, section):
        """Whether the program has code of a section after this one (a
        function the book writes later): then what this section lacks is a
        slip, not something still to write."""
        later = SECTIONS[SECTIONS.index(section) + 1:]
        return any(name in self.lines.defs for name, where in BOOK_SECTION_OF.items()
                   if where in later)

    @contextlib.contextmanager
    def tracing(self, func=None):
        """The lines of the student's function func (without func, of the
        whole program) that run inside the with block (a set, filled as
        they run)."""
        ran = set()
        path = self.path

        def local(frame, event, arg):
            """Note each line of func as it runs."""
            if event == "line":
                ran.add(frame.f_lineno)
            return local

        old = sys.gettrace()

        def calls(frame, event, arg):
            """Follow func's own frames (and whatever a tracer already
            running follows: the repair search's)."""
            code = frame.f_code
            mine = local if code.co_filename == path and func in (None, code.co_name) \
                else None
            theirs = old(frame, event, arg) if old is not None else None
            return both(mine, theirs) if mine and theirs else (mine or theirs)

        sys.settrace(calls)
        try:
            yield ran
        finally:
            sys.settrace(old)

    def student_frames(self, tb):
        """The frames of a traceback that are in the student's program."""
        return [(f.name, f.lineno) for f in traceback.extract_tb(tb)
                if f.filename == self.path]

    def load(self):
        """A fresh module running the program, as pgzrun makes it."""
        import pgzero.runner
        mod = types.ModuleType("student")
        mod.__file__ = self.work_file
        sys.modules["student"] = mod
        sys._pgzrun = True
        sys.setrecursionlimit(1000)
        pgzero.runner.prepare_mod(mod)
        # prepare_mod copies pgzero's builtins in, their __file__ too: the
        # program's __file__ is its own copy, as when Thonny runs it, so
        # nothing it does beside __file__ touches pgzero's own files.
        mod.__file__, mod.__name__ = self.work_file, "student"
        # Each sound the program plays is noted (and not played): the bomb
        # at a loss and the win sound at a win are part of the book's game.
        self.played = []
        mod.sounds = Sounds(mod.sounds, self.played)
        self.mod, self.pg, self.laid = mod, None, False
        # The program's own random board is the same at every check, and
        # differs from one load to the next (3.1.4 compares two).
        self.loads += 1
        random.seed(LOAD_SEED + self.loads)
        try:
            with Limit(self.seconds[0]):
                exec(self.code, mod.__dict__)
        except BaseException as e:           # whatever it is, it is the student's
            raise self.diagnose(e, "load")
        finally:
            sys.setrecursionlimit(RECURSION_LIMIT)
        # How many tiles the program made is 3.1.3's to judge; from now on
        # none may go missing.
        blocks = self.tile_list(mod)
        self.made = len(blocks) if isinstance(blocks, list) else None
        self.frame()
        return mod

    def frame(self):
        """One frame as Pygame Zero runs it: update(), then draw(), each
        only if the program has it: a crash in either is found at the
        section whose action led to it, as the student would see it."""
        game = self.game(self.mod)
        for name in ("update", "draw"):
            func = getattr(self.mod, name, None)
            if not callable(func) or not hasattr(func, "__code__"):
                continue
            try:
                call = game.get_update_func() if name == "update" else game.get_draw_func()
            except TypeError as e:             # draw(x): Pygame Zero's own refusal
                raise Fail("crash", self.lines.of_def(name), what=name,
                           python="TypeError: %s" % e)
            if name == "update":
                self.run(name, call, 1 / 60)
                self.won_too_soon()
            else:
                self.run(name, call)

    def won_too_soon(self):
        """A Fail if update() has set finished while a safe tile is still
        closed (the player would see Finished at once). Judged on the
        checker's own board only, not on the program's random one."""
        blocks = self.tile_list()
        if not self.laid or self.state(self.mod, "finished") is not True or \
                not isinstance(blocks, list):
            return
        closed = [tile for tile in blocks if getattr(tile, "isbomb", True) is False
                  and getattr(tile, "isopen", True) is False]
        if closed:
            raise in_function(self, with_code(self, blame(self, Fail(
                "win_at_once", self.lines.of_name("isopen", "update") or
                self.lines.of_def("update")), ["update"], WINNING)), "update")

    def run(self, what, func, *args):
        """Call a piece of the student's code with a time limit; its errors
        become a Fail naming the line."""
        try:
            with Limit(self.seconds[1]):
                result = func(*args)
        except Fail:
            raise
        except BaseException as e:
            raise self.diagnose(e, what)
        self.kept_blocks(what)
        return result

    def kept_blocks(self, what):
        """A Fail if the student's code has taken tiles out of blocks."""
        blocks = self.tile_list()
        made = getattr(self, "made", None)
        if self.mod is not None and made and (not isinstance(blocks, list) or
                                              len(blocks) < made):
            raise Fail("blocks_changed", self.lines.changes(self.list_name), what=what,
                       count=len(blocks) if isinstance(blocks, list) else 0)

    def diagnose(self, e, what):
        """A Fail for an error raised in the student's code: what Python
        said, and the line of its cause where the program's text shows it."""
        frames = self.student_frames(e.__traceback__)
        line = frames[-1][1] if frames else None
        facts = {"what": what, "python": "%s: %s" % (type(e).__name__, e)}
        funcs = [name for name, _ in reversed(frames)]
        deep = collections.Counter(frames).most_common(1)
        if isinstance(e, Stopped) and deep and deep[0][1] > 100:
            return self.recursion(frames, facts)      # a recursion still going
        if isinstance(e, Stopped):
            loop = self.endless_loop(frames)
            found = Fail("endless_load" if what == "load" else "endless", loop, **facts)
            return blame(self, found, funcs, None, ("cause_compare_not_assign",
                                                    "cause_plus_equals"))
        if isinstance(e, RecursionError):
            return self.recursion(frames, facts)
        if isinstance(e, EOFError):
            return Fail("input", self.lines.of_call("input") or line, **facts)
        if isinstance(e, SystemExit):
            return Fail("exit", line, **facts)
        if isinstance(e, MemoryError):
            return Fail("memory", line, **facts)
        if isinstance(e, OSError) and e.errno in DISK_FULL:
            return Fail(DISK_FULL[e.errno], line, most=FILE_BYTES // (1024 * 1024), **facts)
        if isinstance(e, PermissionError) and self.confined:
            # A file outside the program's own folder: the checker's walls,
            # said beside Python's words so the student knows why.
            return Fail("crash", line, kept_in=True, **facts)
        if isinstance(e, UnboundLocalError):
            name = str(e).split("'")[1] if "'" in str(e) else "?"
            looped = funcs and check_causes.loop_variable_of(self.tree, funcs[0], name)
            if funcs and (looped or not hasattr(self.mod, name)):
                # Not a global the function forgot: a name the function
                # gives a value only further down (its loop's block), used
                # here where its own tile is meant.
                tile = check_causes.tile_parameter(self.tree, funcs[0])
                return Fail("unbound_later" if tile and looped else "unbound_later_other", line,
                            name=name, near=tile, func=funcs[0],
                            code=self.causes.lines.text(line or 0), **facts)
            # The missing `global name` belongs just below the def line.
            return Fail("unbound", self.lines.of_def(funcs[0]) if funcs else line, name=name,
                        read=line, **facts)
        text = str(e.args[0]) if e.args else ""
        if "No image found like" in text:
            return Fail("no_image", line, name=text.split("'")[1], **facts)
        if "No sound found like" in text:
            return Fail("no_sound", line, name=text.split("'")[1], **facts)
        if isinstance(e, IndexError):
            return self.index_error(line, what, funcs, facts)
        if isinstance(e, NameError):
            name = getattr(e, "name", None) or text.split("'")[1]
            return self.missing_name(name, line, facts, e.__traceback__)
        if isinstance(e, AttributeError) and "'Actor' object" in text:
            return self.tile_field(getattr(e, "name", "") or text.split("'")[3], line,
                                   facts)
        if isinstance(e, AttributeError) and "module" in text:
            # Python 3.10 and newer name the module and the name; before,
            # only the words of the error do ("module 'random' has no ...").
            said = re.match(r"module '([\w.]+)' has no attribute '(\w+)'", text)
            name = getattr(e, "name", None) or (said.group(2) if said else None)
            owner = getattr(e, "obj", None) or (sys.modules.get(said.group(1)) if said
                                                else None)
            if name:
                near = difflib.get_close_matches(name, dir(owner), 1) if owner else []
                return Fail("no_module_attr", line, name=name, near=near[0] if near else "",
                            **facts)
        if isinstance(e, TypeError) and ("concatenate str" in text
                                         or "'int' and 'str'" in text):
            return Fail("str_plus_number", line, **facts)   # a picture name + a number
        if isinstance(e, AttributeError):
            return self.constant_case(e, text, line, facts)
        return Fail("crash", line, **facts)

    def endless_loop(self, frames):
        """The line named for code stopped at its time limit: the line of
        the innermost loop among the student's frames that are in one, else
        the innermost line (None if no frame is the student's)."""
        # Where the alarm finds a loop differs between Pythons and from run
        # to run (the loop's line, its body, a function the body calls): the
        # loop's own line is named, the same on every one.
        loops = {node.lineno for node in ast.walk(self.tree)
                 if isinstance(node, (ast.For, ast.While, ast.AsyncFor))}
        for _, line in reversed(frames):
            loop = check_causes.enclosing_loop(self.tree, line)
            if loop != line or line in loops:
                return loop
        return frames[-1][1] if frames else None

    def index_error(self, line, what, funcs, facts):
        """An IndexError: where blocks is shorter than the book makes it,
        the statement that made it so."""
        blocks = self.tile_list()
        if isinstance(blocks, list) and not blocks and not self.lines.appends_to(
                self.list_name):
            return Fail("index_no_append", self.lines.last_tile_field() or line, **facts)
        if isinstance(blocks, list) and len(blocks) < ROWS * COLS:
            facts = dict(facts, count=len(blocks))
            found = blame(self, Fail("index_blocks", line, **facts), [""], MAKING)
            return found
        return Fail("index", line, **facts)

    def tile_field(self, name, line, facts):
        """A tile has no field name: misspelt where it is set (the cause is
        that line), misspelt here (this line), or never set at all."""
        blocks = self.tile_list()
        tile = blocks[0] if isinstance(blocks, list) and blocks else None
        has = [n for n in vars(tile) if not n.startswith("_")] if tile is not None else []
        near = difflib.get_close_matches(name, has, 1, 0.7)
        if name in check_causes.TILE_FIELDS and near:
            store = self.lines.stores_of(near[0])
            if store:
                return Fail("field_set_misspelt", store, name=name, typo=near[0],
                            read=line, **facts)
        if near:
            return Fail("field_read_misspelt", line, name=name, near=near[0], **facts)
        return Fail("no_attribute", self.lines.last_tile_field() or line, name=name,
                    read=line, **facts)

    def constant_case(self, e, text, line, facts):
        """mouse.left for mouse.LEFT (or keys.space): Pygame Zero's names of
        buttons and keys are capitals, and the enum's own message is one word."""
        from pgzero.constants import mouse
        from pgzero.keyboard import keys
        name = getattr(e, "name", None) or text
        for names in (mouse, keys):
            if getattr(e, "obj", names) is names and name.isidentifier() \
                    and name != name.upper() and name.upper() in names.__members__:
                return Fail("no_module_attr", line, name=names.__name__ + "." + name,
                            near=names.__name__ + "." + name.upper(), **facts)
        return Fail("crash", line, **facts)

    def missing_name(self, name, line, facts, tb=None):
        """A name the program uses but never made: a book's function not
        written yet, the book's name of a constant the student named in
        their own way, a tile's name from another function, a misspelling."""
        if name in ("set_flag", "open_block", "blow_up", "get_neighbours",
                    "get_bomb_number"):
            near = self.near_facts(name)
            if near["near"]:
                return Fail("name_misspelt_def", line, name=name, near=near["near"],
                            def_line=self.lines.of_def(near["near"]), **facts)
            return Fail("name_todo", line, name=name, **facts)
        if name == "pgzrun":
            return Fail("no_import_pgzrun", line, **facts)
        own = check_causes.own_constant(self.tree, name)
        if own:
            return Fail("name_own_constant", line, name=name, own=own[0],
                        own_line=own[1], **facts)
        local = self.local_names(tb)
        tile = [n for n in local if n in ("block", "bk")]
        if name in ("bk", "block") and tile:
            return Fail("name_other_tile", line, name=name, near=tile[0],
                        code=self.causes.lines.text(line or 0), **facts)
        near = difflib.get_close_matches(name, local + [n for n in dir(self.mod or types)
                                                        if not n.startswith("_")], 1)
        return Fail("name", line, name=name, near=near[0] if near else "", **facts)

    def local_names(self, tb):
        """The names of the innermost frame of the student's in a traceback."""
        names = []
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.path:
                names = list(tb.tb_frame.f_locals)
            tb = tb.tb_next
        return names

    def recursion(self, frames, facts):
        """An endless recursion: the line where a function calls itself."""
        inner = frames[:-1]
        count = collections.Counter(inner)
        if not count:
            return Fail("recursion_other", frames[-1][1] if frames else None, **facts)
        (func, line), _ = count.most_common(1)[0]
        # The book's bk.isopen = True typed as a comparison marks nothing
        # open, and the tiles open each other for ever: that line is the cause.
        itself = self.causes.find([func], None, ("cause_calls_itself_with_own",
                                                 "cause_compare_not_assign"))
        if itself is not None and itself.key == "cause_compare_not_assign" and \
                "isopen" in itself.facts["name"]:
            return Fail("recursion_compare", itself.line, **dict(facts, **itself.facts))
        if itself is not None:
            return Fail(itself.key, itself.line, saw="recursion_open",
                        **dict(facts, **itself.facts))
        if func == "open_block":
            where, at = self.lines.isopen_set("open_block")
            if where == "below":
                return Fail("isopen_below", line, set_line=at, **facts)
            if where == "missing":
                return Fail("isopen_missing", line, **facts)
            return Fail("recursion_open", line, **facts)
        return Fail("recursion_other", line, func=func, **facts)

    # -------------------------------------------------- the tiles and clicks

    def name_of(self, book_name):
        """The program's own name for one of the book's names (a function,
        a flag of the game), by lining the program up with the book: a
        function that stands where the book's set_flag stands, whatever its
        name, is the program's set_flag. The book's name where none is found."""
        if self._names is None:
            try:
                lined = check_book.LinedUp(self.source)
                self._names = {book: mine for mine, book in lined.pairs.items() if mine}
                self._names.update({book: mine for mine, book in lined.rename.items()
                                    if book not in self._names})
            except (OSError, IndexError, KeyError, ValueError, RecursionError):
                self._names = {}
        mine = self._names.get(book_name, book_name)
        if self.mod is not None and not hasattr(self.mod, mine):
            return book_name
        return mine

    def state(self, mod, book_name, default=None):
        """The value of one of the book's game flags (failed, finished),
        under the program's own name for it."""
        return getattr(mod, self.name_of(book_name), default)

    def tile_list(self, mod=None):
        """The program's list of tiles, whatever its name: the book's blocks,
        or the module's list that holds the most Actors (its name is kept in
        list_name); blocks, or None, where no list holds an Actor."""
        mod = mod or self.mod
        names = vars(mod) if mod is not None else {}
        lists = [(sum(1 for tile in value[:ROWS * COLS * 2] if is_actor(tile)), name)
                 for name, value in list(names.items())
                 if isinstance(value, list) and not name.startswith("_")]
        best = max(lists) if lists else (0, None)
        self.list_name = best[1] if best[0] else "blocks"
        found = names.get(self.list_name)
        return found if isinstance(found, list) else None

    def tiles(self, mod):
        """blocks, checked enough to lay a board: {(row, col): tile}."""
        blocks = self.tile_list(mod)
        if not isinstance(blocks, list):
            raise Fail("no_blocks", self.lines.of_assign("blocks"))
        grid = {}
        for tile in blocks:
            if not hasattr(tile, "left") or not hasattr(tile, "image"):
                raise Fail("not_actor", self.lines.of_call("append"))
            grid[(int(tile.top // SIZE), int(tile.left // SIZE))] = tile
        if len(blocks) != ROWS * COLS or len(grid) != ROWS * COLS:
            line = self.lines.of_call("Actor")
            books = MAKING
            if len(blocks) == ROWS * COLS:
                line = self.lines.of_name("left", None) or line
                books = PLACE_FIELDS
            # 225 tiles in fewer places: stacked, not too few (no count is
            # called wrong that is right).
            key = "tile_count" if len(blocks) != ROWS * COLS else "tile_stacked"
            raise blame(self, Fail(key, line, count=len(blocks), places=len(grid),
                                   list=self.list_name),
                        [""], books, ("cause_tile_range", "cause_place_index",
                                      "cause_field_typo") +
                        check_causes.MOVED)
        return grid

    def lay(self, mod):
        """Bombs where BOARD says, first in blocks: {(row, col): tile}."""
        grid = self.tiles(mod)
        bombs = [grid[place] for place in BOARD]
        for place, tile in grid.items():
            tile.isbomb = place in BOARD
        blocks = self.tile_list(mod)
        others = [tile for tile in blocks if not tile.isbomb]
        blocks[:] = bombs + others
        self.laid = True
        return grid

    def game(self, mod):
        """Pygame Zero's own game object, to send clicks and draw frames."""
        import pgzero.game
        import pygame
        if self.pg is not None and self.pg.mod is mod:
            return self.pg
        game = pgzero.game.PGZeroGame(mod)
        game.reinit_screen()
        self.pg = game
        # Pygame Zero's own way of calling on_mouse_down, without the
        # spelling check of load_handlers (slow, and it only prints).
        handler = getattr(mod, "on_mouse_down", None)
        if callable(handler):
            game.handlers[pygame.MOUSEBUTTONDOWN] = game.prepare_handler(handler)
        return game

    def click(self, game, place, button):
        """A click in the middle of the tile at place, as pygame sends it."""
        import pygame
        row, col = place
        event = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=button,
                                   pos=(col * SIZE + SIZE // 2, row * SIZE + SIZE // 2))
        handler = game.handlers.get(pygame.MOUSEBUTTONDOWN)
        if handler is None:
            near = self.near_facts("on_mouse_down")
            kind = Fail if near["near"] else Todo
            raise kind("no_mouse", self.near_def("on_mouse_down"), **near)
        try:
            self.run("click", handler, event)
        except Fail as f:
            said = f.facts.get("python", "")
            if "Event' object has no attribute" in said:
                raise Fail("mouse_args", self.lines.of_def("on_mouse_down"))
            raise
        self.frame()

    def near_def(self, name):
        """The line of a function whose name is close to name, if any."""
        near = self.near_facts(name).get("near")
        return self.lines.of_def(near) if near else None

    def near_facts(self, name):
        """{'near': a defined function's name close to name}, or {}."""
        near = difflib.get_close_matches(name, list(self.lines.defs), 1, 0.75)
        return {"near": near[0]} if near else {"near": ""}

    def update(self, game):
        """One frame's update, as Pygame Zero calls it."""
        func = game.get_update_func()
        if func is None:
            raise Fail("no_update", self.near_def("update"), **self.near_facts("update"))
        self.run("update", func, 1 / 60)

    def draw(self, game, mod):
        """One frame drawn; returns the texts it wrote on the screen."""
        import pgzero.screen
        written = []
        painter = pgzero.screen.SurfacePainter
        original = painter.text

        def text(self_, *args, **kwargs):
            """Remember what is written, and write it."""
            written.append(str(args[0]) if args else "")
            return original(self_, *args, **kwargs)

        painter.text = text
        try:
            mod.screen.clear()
            self.run("draw", game.get_draw_func())
        finally:
            painter.text = original
        return written


# ------------------------------------------- the sections' common words


PLACE_FIELDS = ("block.left = j * SIZE", "block.top = i * SIZE")
MAKING = ("blocks.append(block)", 'block = Actor("minesweep_block")') + PLACE_FIELDS


WINNING = ("global finished", "finished = True", "if finished or failed:",
           "if not block.isbomb and not block.isopen:", "return", "for block in blocks:",
           "if finished:", 'screen.draw.text("Finished", center=(WIDTH // 2, HEIGHT // 2),')


def blame(program, fail, funcs, books=None, keys=None):
    """The Cause of a section's failure where the program's text shows one
    (in one of funcs, '' for module level): a Fail naming the cause's line,
    with what the section saw; else the failure as it is."""
    cause = program.causes.find(funcs, books, keys)
    if cause is None:
        return fail
    facts = dict(fail.facts)
    facts.update(cause.facts)
    facts["saw"] = fail.key
    return Fail(cause.key, cause.line, **facts)


def with_code(program, fail):
    """The failure with the text of its line as the fact code."""
    if fail.line is None or "code" in fail.facts:
        return fail
    return Fail(fail.key, fail.line, code=program.causes.lines.text(fail.line), **fail.facts)


def in_function(program, fail, func):
    """A failure whose line would only be a function's def: said to be in
    that function, with no line named (the def line is not the fault)."""
    if fail.line is not None and fail.line == program.lines.of_def(func):
        facts = dict(fail.facts)
        facts["in_func"] = func
        return Fail(fail.key, None, **facts)
    return fail
