"""The chapter's sections 3.1.2 to 3.4.2, checked on a student's program.

check.py runs this module in a child process, one per program: it loads the
program as pgzrun does, headless, and checks what the program does on boards
it lays itself. Each finding is a key of check_texts.json with its facts, so
the words (Chinese or English) are chosen by check.py, not here.
"""
import ast
import collections
import contextlib
import difflib
import errno
import io
import json
import os
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
import check_repair
import check_sandbox

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

# The eight neighbours, in the book's order of its eight comparisons.
DIRECTIONS = [(0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (-1, 1), (1, -1), (1, 1)]
DIRECTION_KEYS = {(0, -1): "left", (0, 1): "right", (-1, 0): "up", (1, 0): "down",
                  (-1, -1): "up_left", (-1, 1): "up_right", (1, -1): "down_left",
                  (1, 1): "down_right"}


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
    """A time limit around a piece of the student's code (where the system
    has SIGALRM; elsewhere the parent's limit on the whole process acts).
    The deadline is kept too, for loops of the checker's own that run the
    student's code (Tk's, below) and can look at the time themselves. With
    cpu, the limit is of the processor's time this process takes, not of
    the clock's: a changed program tried by the repair search is judged
    the same on a busy computer as on an idle one."""

    deadline = None
    clock = time.monotonic

    def __init__(self, seconds, cpu=False):
        self.seconds = seconds
        self.cpu = cpu and hasattr(signal, "ITIMER_PROF")
        self.outer = None

    def __enter__(self):
        self.outer = (Limit.deadline, Limit.clock)
        Limit.clock = time.process_time if self.cpu else time.monotonic
        Limit.deadline = Limit.clock() + self.seconds
        if hasattr(signal, "setitimer"):
            kind, timer = ((signal.SIGPROF, signal.ITIMER_PROF) if self.cpu else
                           (signal.SIGALRM, signal.ITIMER_REAL))
            signal.signal(kind, on_alarm)
            signal.setitimer(timer, self.seconds)

    def __exit__(self, *exc):
        if hasattr(signal, "setitimer"):
            signal.setitimer(signal.ITIMER_PROF if self.cpu else signal.ITIMER_REAL, 0)
        Limit.deadline, Limit.clock = self.outer
        return False

    @staticmethod
    def check():
        """Stop the student's code if its time is up."""
        if Limit.deadline is not None and Limit.clock() > Limit.deadline:
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


# ------------------------------------------------------- lines in the text


class Lines:
    """Where things are in the student's program (line numbers from 1)."""

    def __init__(self, tree):
        self.tree = tree
        self.defs = {node.name: node for node in ast.walk(tree)
                     if isinstance(node, ast.FunctionDef)}

    def all_names(self):
        """Every name and field name the program's text uses."""
        return {node.id for node in ast.walk(self.tree) if isinstance(node, ast.Name)} | {
            node.attr for node in ast.walk(self.tree) if isinstance(node, ast.Attribute)}

    def of_def(self, name):
        """The line of `def name`, or None."""
        node = self.defs.get(name)
        return node.lineno if node else None

    def of_assign(self, name):
        """The line of the module's first assignment to name, or None."""
        for node in self.tree.body:
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == name for t in node.targets):
                return node.lineno
        return None

    def of_call(self, name, inside=None):
        """The first line calling name (a function, or a method name)."""
        root = self.defs.get(inside) if inside else self.tree
        if root is None:
            return None
        for node in ast.walk(root):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if called == name:
                    return node.lineno
        return None

    def of_name(self, name, inside):
        """The first line in function inside (the whole program if None)
        that uses name, .name or the text name."""
        root = self.defs.get(inside) if inside else self.tree
        if root is None:
            return None
        found = [node.lineno for node in ast.walk(root)
                 if (isinstance(node, ast.Name) and node.id == name)
                 or (isinstance(node, ast.Attribute) and node.attr == name)
                 or (check_causes.is_constant(node) and check_causes.constant(node) == name)]
        return min(found) if found else None

    def changes(self, name):
        """The first line inside a function that empties or shortens the
        list name (clear, remove, pop, del, or a new value), or None."""
        for func in self.defs.values():
            for node in ast.walk(func):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and node.func.attr in ("clear", "remove", "pop") \
                        and isinstance(node.func.value, ast.Name) \
                        and node.func.value.id == name:
                    return node.lineno
                if isinstance(node, (ast.Assign, ast.Delete)) and any(
                        name in {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
                        for t in getattr(node, "targets", [])):
                    return node.lineno
        return None

    def appends_to(self, name):
        """Whether the program calls name.append(...) anywhere."""
        return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and
                   node.func.attr == "append" and isinstance(node.func.value, ast.Name) and
                   node.func.value.id == name for node in ast.walk(self.tree))

    def stores_of(self, attr):
        """The first line that sets a field named attr (block.attr = ...)."""
        found = [node.lineno for node in ast.walk(self.tree) if isinstance(
            node, ast.Attribute) and node.attr == attr and isinstance(node.ctx, ast.Store)]
        return min(found) if found else None

    def last_tile_field(self):
        """The line of the last field the tile-making loop sets (where a
        missing one belongs after), or None."""
        loops = check_causes.tile_loops(self.tree)
        if loops is None:
            return None
        found = [node.lineno for node in ast.walk(loops[1]) if isinstance(
            node, ast.Attribute) and isinstance(node.ctx, ast.Store)]
        return max(found) if found else None

    def field_in_branch(self, func, field, branch):
        """The line of `X.field = ...` in the body (or else) of the first if
        of func, or None."""
        node = self.defs.get(func)
        if node is None:
            return None
        for test in ast.walk(node):
            if isinstance(test, ast.If):
                for s in (test.body if branch == "body" else test.orelse):
                    for n in ast.walk(s):
                        if isinstance(n, ast.Attribute) and n.attr == field and \
                                isinstance(n.ctx, ast.Store):
                            return n.lineno
                return None
        return None

    def else_of(self, func):
        """The first line of the else part of the first if in func, or None."""
        node = self.defs.get(func)
        if node is None:
            return None
        for s in ast.walk(node):
            if isinstance(s, ast.If) and s.orelse:
                return s.orelse[0].lineno
        return None

    def of_loop(self, name):
        """The line of the module's first for loop over range(... name ...)."""
        for node in self.tree.body:
            if isinstance(node, ast.For) and any(
                    isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.iter)):
                return node.lineno
        return None

    def only_pass(self, name):
        """The line of `pass` if function name does nothing else, or None."""
        node = self.defs.get(name)
        if node is None:
            return None
        body = [s for s in node.body if not (isinstance(s, ast.Expr) and
                                             check_causes.is_constant(getattr(s, "value", None)))]
        if len(body) == 1 and isinstance(body[0], ast.Pass):
            return body[0].lineno
        return None

    def globals_in(self, name):
        """The names a function declares global."""
        node = self.defs.get(name)
        if node is None:
            return set()
        return {n for s in ast.walk(node) if isinstance(s, ast.Global) for n in s.names}

    def assigns_in(self, func, name):
        """The line of the first `name = ...` inside a function, or None."""
        node = self.defs.get(func)
        if node is None:
            return None
        for s in ast.walk(node):
            if isinstance(s, (ast.Assign, ast.AugAssign)):
                targets = s.targets if isinstance(s, ast.Assign) else [s.target]
                if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                    return s.lineno
        return None

    def isopen_set(self, func):
        """Where open_block marks its tile open: ('missing', def line),
        ('below', line) when after its loop, or ('ok', line)."""
        node = self.defs.get(func)
        if node is None or not node.args.args:
            return "missing", self.of_def(func)
        param = node.args.args[0].arg
        first_loop = None
        for s in node.body:
            if isinstance(s, (ast.For, ast.While)) and first_loop is None:
                first_loop = s.lineno
        for s in ast.walk(node):
            if isinstance(s, ast.Assign) and any(
                    isinstance(t, ast.Attribute) and t.attr == "isopen"
                    and isinstance(t.value, ast.Name) and t.value.id == param
                    for t in s.targets):
                if first_loop is not None and s.lineno > first_loop:
                    return "below", s.lineno
                return "ok", s.lineno
        return "missing", node.lineno

    def return_in_loop(self, func):
        """The line of a return inside a loop of function func, or None."""
        node = self.defs.get(func)
        if node is None:
            return None
        for loop in ast.walk(node):
            if isinstance(loop, (ast.For, ast.While)):
                for s in ast.walk(loop):
                    if isinstance(s, ast.Return):
                        return s.lineno
        return None

    def names_in(self, func):
        """The names get_neighbours gives a tile of its loop and the tile
        asked about (the book's block and bk)."""
        node = self.defs.get(func)
        other = node.args.args[0].arg if node is not None and node.args.args else "bk"
        loops = [s for s in ast.walk(node) if isinstance(s, ast.For)] if node else []
        tile = loops[0].target.id if loops and isinstance(loops[0].target, ast.Name) \
            else "block"
        return tile, other

    def conditions(self, func):
        """The parts of the longest `or` in a function: the comparisons of
        get_neighbours, one for each neighbour in the book."""
        node = self.defs.get(func)
        if node is None:
            return []
        ors = [n for n in ast.walk(node) if isinstance(n, ast.BoolOp)
               and isinstance(n.op, ast.Or)]
        return max(ors, key=lambda n: len(n.values)).values if ors else []


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
        # How long a load, and a call of the program's code, may take (with
        # seconds, of the processor's time: a program the repair search tries).
        self.seconds = seconds or (LOAD_SECONDS, CALL_SECONDS)
        self.cpu = seconds is not None
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
    def tracing(self, func):
        """The lines of the student's function func that run inside the
        with block (a set, filled as they run)."""
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
            mine = local if code.co_filename == path and code.co_name == func else None
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
            with Limit(self.seconds[0], self.cpu):
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
            with Limit(self.seconds[1], self.cpu):
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


# ------------------------------------------------------------ the sections


def want(program, mod, name):
    """The function name of the program (under the program's own name for
    it), or why not: not written yet (Todo), or written under another name
    (Fail naming it)."""
    func = getattr(mod, program.name_of(name), None)
    if callable(func):
        return func
    near = program.near_facts(name)
    kind = Fail if near["near"] else Todo
    raise kind("todo_" + name, program.near_def(name), **near)


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


def own_or_book(program, mod, name):
    """The value of one of the book's constants, under its own name or a
    name of the student's with the book's value; None if neither."""
    if hasattr(mod, name):
        return getattr(mod, name)
    own = check_causes.own_constant(program.tree, name)
    return getattr(mod, own[0], None) if own else None


def section_312(program):
    """3.1.2: the window is SIZE * COLS by SIZE * ROWS."""
    mod = program.load()
    names = ("ROWS", "COLS", "SIZE", "WIDTH", "HEIGHT")
    if not any(hasattr(mod, name) for name in names):
        raise Todo("constant_missing", None, name="ROWS")
    for name, want_value in (("ROWS", ROWS), ("COLS", COLS), ("SIZE", SIZE)):
        value = own_or_book(program, mod, name)
        if value is None:
            raise Todo("constant_missing", None, name=name)
        if value != want_value:
            raise Fail("constant", program.lines.of_assign(name), name=name,
                       value=repr(value), want=want_value)
    for name, want_value in (("WIDTH", SIZE * COLS), ("HEIGHT", SIZE * ROWS)):
        if not hasattr(mod, name):
            raise Todo("constant_missing", None, name=name)
        if getattr(mod, name) != want_value:
            raise Fail("window", program.lines.of_assign(name), name=name,
                       value=repr(getattr(mod, name)), want=want_value)
    return "ok_312", {}


PLACE_FIELDS = ("block.left = j * SIZE", "block.top = i * SIZE")
MAKING = ("blocks.append(block)", 'block = Actor("minesweep_block")') + PLACE_FIELDS


def section_313(program):
    """3.1.3: 15 x 15 Actor tiles of 25 px, in rows and columns, drawn."""
    mod = program.mod or program.load()    # the same load as the section before
    grid = program.tiles(mod)
    for tile in program.tile_list(mod):
        if (tile.width, tile.height) != (SIZE, SIZE):
            raise Fail("tile_size", program.lines.of_call("Actor"),
                       size="%s x %s" % (tile.width, tile.height))
    if set(grid) != {(r, c) for r in range(ROWS) for c in range(COLS)}:
        raise blame(program, Fail("tile_places", program.lines.of_name("left", None) or
                                  program.lines.of_call("Actor")),
                    [""], PLACE_FIELDS, ("cause_place_index", "cause_field_typo") +
                    check_causes.MOVED)
    game = program.game(mod)
    want(program, mod, "draw")
    program.draw(game, mod)
    shown = 0
    for (row, col), tile in grid.items():
        x, y = col * SIZE + 3, row * SIZE + 3
        if game.screen.get_at((x, y))[:3] == tile._surf.get_at((3, 3))[:3]:
            shown += 1
    if shown < ROWS * COLS - 40:
        raise in_function(program, blame(program, Fail(
            "not_drawn", program.lines.of_def("draw"), shown=shown), ["draw"],
            ("block.draw()",)), "draw")
    return "ok_313", {}


def bomb_places(program, mod):
    """Where the program buried its bombs, or why it has none to show."""
    grid = program.tiles(mod)
    try:
        return {place for place, tile in grid.items() if tile.isbomb}
    except AttributeError:
        pass
    fail = Fail("todo_isbomb", program.lines.of_call("Actor"))
    found = blame(program, fail, [""], (), ("cause_field_typo",))
    if found is not fail:
        raise found
    raise Todo("todo_isbomb", None)


def section_314(program):
    """3.1.4: isbomb on exactly BOMBS tiles, shuffled (two loads differ).
    The count may have a name of the student's own: what is laid decides."""
    mod = program.mod or program.load()    # the same load as the section before
    own = check_causes.own_constant(program.tree, "BOMBS")
    count_name = "BOMBS" if hasattr(mod, "BOMBS") else (own[0] if own else None)
    try:
        first = bomb_places(program, mod)
    except Todo:
        raise Todo("todo_bombs" if count_name is None else "todo_isbomb", None)
    bury = program.lines.of_loop(count_name) if count_name else None
    if hasattr(mod, "BOMBS") and mod.BOMBS != BOMBS:
        raise Fail("bombs_constant", program.lines.of_assign("BOMBS"),
                   value=repr(mod.BOMBS))
    if not first and bury is None:       # no loop yet: nothing to check in it
        raise Todo("todo_bombs" if count_name is None else "todo_isbomb", None)
    if len(first) != BOMBS:
        raise blame(program, Fail("bombs_count", bury, count=len(first)), [""],
                    ("blocks[i].isbomb = True", "block.isbomb = False",
                     "random.shuffle(blocks)"), check_causes.MOVED + (
                        "cause_other_loop_var", "cause_field_typo",
                        "cause_compare_not_assign"))
    second = bomb_places(program, program.load())
    in_order = {divmod(i, COLS) for i in range(BOMBS)}
    if first == second == in_order:
        shuffle = program.lines.of_call("shuffle")
        if shuffle is None and not program.written_beyond("3.1.4"):
            raise Todo("no_shuffle", None, bury=bury or "")    # the book's own stage
        # Without a shuffle there is no line to name: the message says where
        # it goes (before the loop that buries the bombs).
        raise blame(program, Fail("no_shuffle", shuffle, bury=bury or ""), [""],
                    ("random.shuffle(blocks)",))
    if first == second:
        raise Fail("same_bombs", program.lines.of_call("seed") or bury)
    return "ok_314", {}


class Recorder:
    """Stands in for set_flag, open_block and blow_up while the clicks are
    checked, so that a mistake in them shows at their own section."""

    def __init__(self, program, mod, grid):
        self.calls = []
        self.where = {id(tile): place for place, tile in grid.items()}
        for name in ("set_flag", "open_block", "blow_up"):
            mod.__dict__[program.name_of(name)] = self.stand_in(name)

    def stand_in(self, name):
        """A function that only notes that it was called."""
        def called(*args):
            """Note the call and the tile it was given."""
            tiles = [self.where.get(id(arg), "?") for arg in args]
            self.calls.append((name, tuple(tiles)))
        return called

    def take(self):
        """The calls since the last take."""
        calls, self.calls = self.calls, []
        return calls


def clicks(program):
    """A fresh program on the board, its game, and a Recorder."""
    mod = program.load()
    grid = program.lay(mod)
    game = program.game(mod)
    return mod, grid, game, Recorder(program, mod, grid)


def skipped_if(program, lines, func, calling):
    """The line of the if in func that ran and kept the code calling
    `calling` from running (its test said no), from the lines that ran."""
    node = program.lines.defs.get(func)
    if node is None:
        return None
    for test in ast.walk(node):
        if not isinstance(test, ast.If) or test.lineno not in lines:
            continue
        body = test.body
        holds = any(isinstance(n, ast.Call) and getattr(n.func, "id", getattr(
            n.func, "attr", None)) == calling for s in body for n in ast.walk(s))
        ran = any(s.lineno <= line <= check_causes.end_line(s) for s in body for line in lines)
        if holds and not ran:
            return test.lineno
    return None


RIGHT_CLICK = ("set_flag(block)", "if button == mouse.RIGHT:",
               "if block.collidepoint(pos) and not block.isopen:")


def section_321(program):
    """3.2.1: a right click calls set_flag with the tile clicked."""
    mod, grid, game, rec = clicks(program)
    button_line = min([line for line in (program.lines.of_name(
        "RIGHT", "on_mouse_down"), program.lines.of_name("LEFT", "on_mouse_down")) if line] or
        [program.lines.of_def("on_mouse_down")])
    for place in [(2, 3), (7, 12), (14, 0)]:
        with program.tracing("on_mouse_down") as lines:
            program.click(game, place, RIGHT)
        right = rec.take()
        flags = [call for call in right if call[0] == "set_flag"]
        if not flags:
            # Whether the left button flags instead; a left click's own
            # mistakes are for 3.3.1 to find.
            try:
                program.click(game, place, LEFT)
            except Fail:
                pass
            if any(call[0] == "set_flag" for call in rec.take()):
                raise Fail("buttons_swapped", button_line)
            facts = {"row": place[0] + 1, "col": place[1] + 1}
            fail = blame(program, Fail("right_nothing", button_line, **facts),
                         ["on_mouse_down"], RIGHT_CLICK)
            skipped = skipped_if(program, lines, "on_mouse_down", "set_flag")
            if fail.key == "right_nothing" and skipped:
                fail = Fail("right_skipped_if", skipped, code=program.causes.lines.text(
                    skipped), **facts)
            raise fail
        if len(flags) > 1:
            raise Fail("right_many", program.lines.of_call("collidepoint") or button_line,
                       count=len(flags))
        if flags[0][1] != (place,):
            raise Fail("right_wrong_tile", program.lines.of_call("set_flag", "on_mouse_down"),
                       row=place[0] + 1, col=place[1] + 1)
    return "ok_321", {}


SET_FLAG = ('block.image = "minesweep_flag"', "block.isflag = True",
            'block.image = "minesweep_block"', "block.isflag = False", "if not block.isflag:")


def section_322(program):
    """3.2.2: set_flag puts a flag on and takes it off (picture and isflag)."""
    mod = program.load()
    grid = program.lay(mod)
    set_flag = want(program, mod, "set_flag")
    passing = program.lines.only_pass("set_flag")
    if passing:
        raise Todo("flag_pass", passing)
    tile = grid[(3, 4)]
    where = program.lines.of_def("set_flag")
    for turn in range(2):
        program.run("set_flag", set_flag, tile)
        program.frame()
        if tile.image != "minesweep_flag" or getattr(tile, "isflag", None) is not True:
            field = "image" if tile.image != "minesweep_flag" else "isflag"
            line = program.lines.field_in_branch("set_flag", field, "body") or where
            raise in_function(program, blame(program, Fail(
                "flag_on_" + field, line, image=tile.image), ["set_flag"], SET_FLAG),
                "set_flag")
        program.run("set_flag", set_flag, tile)
        program.frame()
        if tile.image != "minesweep_block" or getattr(tile, "isflag", None) is not False:
            field = "image" if tile.image != "minesweep_block" else "isflag"
            line = program.lines.field_in_branch("set_flag", field, "else") or \
                program.lines.else_of("set_flag") or where
            raise in_function(program, blame(program, Fail(
                "flag_off_" + field, line, image=tile.image), ["set_flag"], SET_FLAG),
                "set_flag")
    return "ok_322", {}


LEFT_CLICK = ("open_block(block)", "blow_up()", "if block.isbomb:",
              "elif button == mouse.LEFT and not block.isflag:",
              "if block.collidepoint(pos) and not block.isopen:")


def left_branch_written(program):
    """Whether on_mouse_down has a left button's part yet (its LEFT, or a
    call of open_block or blow_up)."""
    node = program.lines.defs.get("on_mouse_down")
    if node is None:
        return False
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute) and n.attr.upper() == "LEFT":
            return True
        if isinstance(n, ast.Call) and getattr(n.func, "id", None) in ("open_block",
                                                                      "blow_up"):
            return True
    return False


def section_331(program):
    """3.3.1: a left click opens a safe tile, blows up a bomb, does nothing
    on a flag; no click does anything on an open tile."""
    mod, grid, game, rec = clicks(program)
    left_line = program.lines.of_name("LEFT", "on_mouse_down") or \
        program.lines.of_def("on_mouse_down")
    if not left_branch_written(program):
        raise Todo("left_nothing", None)
    if not hasattr(grid[OPEN_ALL], "isopen") and "isopen" not in program.lines.all_names():
        raise Todo("todo_isopen", None)
    with program.tracing("on_mouse_down") as lines:
        program.click(game, OPEN_ALL, LEFT)
    calls = rec.take()
    if ("open_block", (OPEN_ALL,)) not in calls:
        if calls and calls[0][0] == "blow_up":
            raise Fail("left_bomb_swapped", program.lines.of_name(
                "isbomb", "on_mouse_down") or left_line)
        fail = blame(program, Fail("left_nothing", left_line), ["on_mouse_down"],
                     LEFT_CLICK)
        skipped = skipped_if(program, lines, "on_mouse_down", "open_block")
        if fail.key == "left_nothing" and skipped:
            fail = Fail("left_skipped_if", skipped, code=program.causes.lines.text(skipped))
        raise fail
    if any(call[0] == "blow_up" for call in calls):
        raise blame(program, Fail("left_safe_blows", program.lines.of_call(
            "blow_up", "on_mouse_down") or left_line), ["on_mouse_down"], LEFT_CLICK)
    with program.tracing("on_mouse_down") as lines:
        program.click(game, BOMB_TILE, LEFT)
    calls = rec.take()
    if not any(call[0] == "blow_up" for call in calls):
        fail = blame(program, Fail("left_no_blow", program.lines.of_name(
            "isbomb", "on_mouse_down") or left_line), ["on_mouse_down"], LEFT_CLICK)
        skipped = skipped_if(program, lines, "on_mouse_down", "blow_up")
        if fail.key == "left_no_blow" and skipped:
            fail = Fail("left_skipped_if_bomb", skipped, code=program.causes.lines.text(
                skipped))
        raise fail
    if any(call[0] == "open_block" for call in calls):
        raise blame(program, Fail("left_bomb_opens", program.lines.of_call(
            "open_block", "on_mouse_down") or left_line), ["on_mouse_down"], LEFT_CLICK)
    tile = grid[(10, 2)]
    tile.isflag = True
    tile.image = "minesweep_flag"
    program.click(game, (10, 2), LEFT)
    if rec.take():
        raise blame(program, Fail("left_on_flag", left_line), ["on_mouse_down"], LEFT_CLICK)
    tile = grid[(11, 3)]
    if not hasattr(tile, "isopen"):
        fail = Fail("todo_isopen", program.lines.of_call("Actor"))
        raise blame(program, fail, [""], (), ("cause_field_typo",))
    tile.isopen = True
    tile.image = "minesweep_number0"
    for button in (LEFT, RIGHT):
        program.click(game, (11, 3), button)
        if rec.take():
            raise Fail("click_on_open", program.lines.of_name(
                "collidepoint", "on_mouse_down") or left_line)
    return "ok_331", {}
def tiles_matched(program, part, tile, other):
    """The places (row, column, from the tile asked about) that one part
    of get_neighbours' condition says are next to it."""
    code = compile(ast.Expression(part), program.path, "eval")
    centre = FakeTile(7, 7, SIZE)
    hits = set()
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            names = dict(program.mod.__dict__)
            names.update({tile: FakeTile(7 + dr, 7 + dc, SIZE), other: centre})
            try:
                if eval(code, names):
                    hits.add((dr, dc))
            except Exception:        # a part that needs more than a tile
                pass
    return hits


def neighbours_line(program, extra):
    """The line of the comparison in get_neighbours that is wrong, found by
    trying each one on tiles around a tile."""
    parts = program.lines.conditions("get_neighbours")
    tile, other = program.lines.names_in("get_neighbours")
    matched = []
    try:
        with Limit(CALL_SECONDS):
            for part in parts:
                matched.append((part.lineno, tiles_matched(program, part, tile, other)))
    except Stopped:
        matched = []
    if len(matched) == 8:
        for (line, hits), direction in zip(matched, DIRECTIONS):
            if hits != {direction}:
                return line
    for line, hits in matched:
        if hits & set(extra) or not hits:
            return line
    return program.lines.of_def("get_neighbours")


NEIGHBOURS = ("return nblocks", "nblocks.append(block)", "nblocks = []", "continue",
              "if block.isopen:")


def section_332(program):
    """3.3.2: get_neighbours gives exactly the tiles around one."""
    mod = program.load()
    grid = program.lay(mod)
    get_neighbours = want(program, mod, "get_neighbours")
    where = {id(tile): place for place, tile in grid.items()}
    funcs = ["get_neighbours"]
    for place in [(7, 7), (0, 0), (0, 7), (7, 0), (14, 14), (14, 7), (7, 14), (0, 14),
                  (14, 0), (3, 11)]:
        got = program.run("get_neighbours", get_neighbours, grid[place])
        if got is None:
            raise in_function(program, blame(program, Fail(
                "neighbours_none", program.lines.of_def("get_neighbours")), funcs,
                NEIGHBOURS), "get_neighbours")
        got = [where.get(id(tile), "?") for tile in got]
        want_set = {(place[0] + dr, place[1] + dc) for dr, dc in DIRECTIONS
                    if 0 <= place[0] + dr < ROWS and 0 <= place[1] + dc < COLS}
        missing = sorted(want_set - set(got))
        extra = sorted(p for p in set(got) - want_set if p != "?")
        facts = {"row": place[0] + 1, "col": place[1] + 1}
        if place in got:
            raise in_function(program, blame(program, Fail(
                "neighbours_self", neighbours_line(program, [(0, 0)]), **facts), funcs,
                NEIGHBOURS), "get_neighbours")
        if missing:
            rel = (missing[0][0] - place[0], missing[0][1] - place[1])
            fail = Fail("neighbours_missing", None, side=DIRECTION_KEYS[rel],
                        nrow=missing[0][0] + 1, ncol=missing[0][1] + 1, **facts)
            found = blame(program, fail, funcs, NEIGHBOURS)
            if found is fail:
                found = Fail(fail.key, neighbours_line(program, []), **fail.facts)
            raise in_function(program, found, "get_neighbours")
        if extra:
            rel = [(p[0] - place[0], p[1] - place[1]) for p in extra]
            raise in_function(program, blame(program, Fail(
                "neighbours_extra", neighbours_line(program, rel), nrow=extra[0][0] + 1,
                ncol=extra[0][1] + 1, **facts), funcs, NEIGHBOURS), "get_neighbours")
        if len(got) != len(set(got)):
            raise blame(program, Fail("neighbours_twice", program.lines.of_call(
                "append", "get_neighbours"), **facts), funcs, NEIGHBOURS)
    return "ok_332", {}


def bombs_around(place):
    """How many of BOARD's bombs are around place (not counting itself)."""
    return sum((place[0] + dr, place[1] + dc) in BOARD for dr, dc in DIRECTIONS)


COUNTING = ("num = 0", "num += 1", "return num", "if block.isbomb:")


def section_333(program):
    """3.3.3: get_bomb_number counts the bombs around a tile."""
    mod = program.mod or program.load()    # the same load as the section before
    grid = program.lay(mod)
    get_bomb_number = want(program, mod, "get_bomb_number")
    answers = []
    for place in [LAST, NUMBER_TILE, OPEN_ALL, (13, 13), (2, 2), (7, 5), (5, 5), (9, 8)]:
        got = program.run("get_bomb_number", get_bomb_number, grid[place])
        answers.append((place, got, bombs_around(place)))
    wrong = [(place, got, truth) for place, got, truth in answers if got != truth]
    if not wrong:
        return "ok_333", {}
    place, got, truth = wrong[0]
    facts = {"row": place[0] + 1, "col": place[1] + 1, "got": repr(got), "want": truth}
    funcs = ["get_bomb_number"]
    early = program.lines.return_in_loop("get_bomb_number")
    if early:
        raise Fail("count_return_in_loop", early, **facts)
    last = check_causes.last_line_without_return(program.tree, "get_bomb_number")
    if all(got is None for _, got, _ in answers) and last:
        raise Fail("count_no_return", last, **facts)    # return num goes after it
    if all(got is None for _, got, _ in answers):
        raise in_function(program, blame(program, Fail(
            "count_none", program.lines.of_def("get_bomb_number"), **facts), funcs,
            COUNTING), "get_bomb_number")
    found = blame(program, Fail("count_wrong", None, **facts), funcs, COUNTING)
    if found.line is not None:
        raise found
    if all(isinstance(got, int) and got == truth + 1 for _, got, truth in answers):
        raise Fail("count_from_one", program.lines.assigns_in("get_bomb_number", "num") or
                   program.lines.of_def("get_bomb_number"), **facts)
    raise in_function(program, Fail("count_wrong", program.lines.of_def("get_bomb_number"),
                                    **facts), "get_bomb_number")
def flood(start, opened):
    """The tiles the book's rules open from a click at start."""
    todo, new = [start], set()
    while todo:
        place = todo.pop()
        if place in opened or place in new or place in BOARD:
            continue
        new.add(place)
        if bombs_around(place) == 0:
            todo.extend((place[0] + dr, place[1] + dc) for dr, dc in DIRECTIONS
                        if 0 <= place[0] + dr < ROWS and 0 <= place[1] + dc < COLS)
    return new


def opened_tiles(grid):
    """The places of the tiles the program says are open."""
    return {place for place, tile in grid.items() if getattr(tile, "isopen", False)}


OPENING = ("bk.isopen = True", "bombnum = get_bomb_number(bk)",
           'bk.image = "minesweep_number" + str(bombnum)', "if bombnum != 0:", "return",
           "if not block.isopen:", "open_block(block)", "for block in get_neighbours(bk):")


def section_334(program):
    """3.3.4: open_block opens exactly the area the rules give, with numbers."""
    mod = program.load()
    grid = program.lay(mod)
    open_block = want(program, mod, "open_block")
    passing = program.lines.only_pass("open_block")
    if passing:
        raise Todo("open_pass", passing)
    where = program.lines.of_def("open_block")
    funcs = ["open_block", "get_bomb_number", "get_neighbours"]
    opened = set()
    for place in (OPEN_ALL, LAST):
        program.run("open_block", open_block, grid[place])
        program.frame()
        should = opened | flood(place, opened)
        now = opened_tiles(grid)
        facts = {"row": place[0] + 1, "col": place[1] + 1}
        bombs = sorted(now & set(BOARD))
        if bombs:
            raise in_function(program, blame(program, Fail(
                "open_bomb", program.lines.of_name("bombnum", "open_block") or where,
                nrow=bombs[0][0] + 1, ncol=bombs[0][1] + 1, **facts), funcs, OPENING),
                "open_block")
        if should - now:
            p = sorted(should - now)[0]
            shown = grid[p].image.startswith("minesweep_number")
            raise in_function(program, blame(program, Fail(
                "open_shown_not_open" if shown else "open_too_few", where, nrow=p[0] + 1,
                ncol=p[1] + 1, **facts), funcs, OPENING), "open_block")
        if now - should:
            p = sorted(now - should)[0]
            raise in_function(program, blame(program, Fail(
                "open_too_many", where, nrow=p[0] + 1, ncol=p[1] + 1, **facts), funcs,
                OPENING), "open_block")
        for p in sorted(now):
            picture = "minesweep_number%d" % bombs_around(p)
            if grid[p].image != picture:
                raise in_function(program, blame(program, Fail(
                    "open_picture", program.lines.of_name("image", "open_block") or where,
                    nrow=p[0] + 1, ncol=p[1] + 1, image=grid[p].image, want=picture),
                    funcs, OPENING), "open_block")
        opened = now
    return "ok_334", {}


LOSING = ("global failed", "failed = True", 'blocks[i].image = "minesweep_bomb"',
          "for i in range(BOMBS):", "elif failed:",
          'screen.draw.text("Failed", center=(WIDTH // 2, HEIGHT // 2),')


def section_341(program):
    """3.4.1: a bomb: failed, every bomb shown, a text on the screen."""
    mod = program.load()
    grid = program.lay(mod)
    game = program.game(mod)
    want(program, mod, "blow_up")
    passing = program.lines.only_pass("blow_up")
    if passing:
        raise Todo("blow_pass", passing)
    if program.state(mod, "failed") is not False:
        kind = Todo if "failed" not in program.lines.all_names() else Fail
        raise kind("todo_failed", program.lines.of_assign("failed"))
    if program.draw(game, mod):
        raise blame(program, Fail("text_too_soon", program.lines.of_call("text", "draw")),
                    ["draw", ""], LOSING)
    program.click(game, BOMB_TILE, LEFT)
    funcs = ["blow_up", "draw", ""]
    if program.state(mod, "failed") is not True:
        if "failed" not in program.lines.globals_in("blow_up"):
            raise Fail("global_failed", program.lines.of_def("blow_up"))
        raise in_function(program, blame(program, Fail(
            "not_failed", program.lines.of_def("blow_up")), funcs, LOSING), "blow_up")
    if "bomb" not in program.played:
        raise in_function(program, Fail("no_bomb_sound", program.lines.of_def("blow_up"),
                                        played=", ".join(program.played)), "blow_up")
    hidden = [p for p in BOARD if grid[p].image != "minesweep_bomb"]
    if hidden:
        raise in_function(program, blame(program, Fail(
            "bombs_hidden", program.lines.of_name("image", "blow_up") or
            program.lines.of_def("blow_up"), nrow=hidden[0][0] + 1, ncol=hidden[0][1] + 1,
            count=len(hidden)), funcs, LOSING), "blow_up")
    if not program.draw(game, mod):
        raise in_function(program, blame(program, Fail(
            "no_failed_text", program.lines.of_name("failed", "draw") or
            program.lines.of_def("draw")), ["draw", ""], LOSING), "draw")
    return "ok_341", {}


WINNING = ("global finished", "finished = True", "if finished or failed:",
           "if not block.isbomb and not block.isopen:", "return", "for block in blocks:",
           "if finished:", 'screen.draw.text("Finished", center=(WIDTH // 2, HEIGHT // 2),')


def section_342(program):
    """3.4.2: every safe tile open wins, not before; clicks after the end
    do nothing."""
    mod = program.load()
    grid = program.lay(mod)
    game = program.game(mod)
    if not callable(getattr(mod, "update", None)):
        near = program.near_facts("update")
        raise (Fail if near["near"] else Todo)("no_update", program.near_def("update"),
                                               **near)
    program.update(game)
    check = program.lines.of_def("update")
    funcs = ["update", "draw", ""]
    if program.state(mod, "finished") is True:
        raise in_function(program, with_code(program, blame(program, Fail(
            "win_at_once", program.lines.of_name("isopen", "update") or check), funcs,
            WINNING)), "update")
    if program.state(mod, "finished") is not False:
        kind = Todo if "finished" not in program.lines.all_names() else Fail
        raise kind("todo_finished", program.lines.of_assign("finished"))
    program.click(game, OPEN_ALL, LEFT)
    program.update(game)
    if program.state(mod, "finished"):
        raise in_function(program, with_code(program, blame(program, Fail(
            "win_too_soon", program.lines.of_name("isopen", "update") or check), funcs,
            WINNING)), "update")
    if program.draw(game, mod):
        raise blame(program, Fail("text_too_soon", program.lines.of_call("text", "draw")),
                    ["draw", ""], WINNING)
    program.click(game, LAST, LEFT)
    program.update(game)
    if program.state(mod, "finished") is not True:
        if "finished" not in program.lines.globals_in("update"):
            raise Fail("global_finished", program.lines.of_def("update"))
        raise in_function(program, with_code(program, blame(program, Fail(
            "never_win", program.lines.of_name("isopen", "update") or check), funcs,
            WINNING)), "update")
    if "win" not in program.played:
        raise in_function(program, Fail("no_win_sound", program.lines.of_def("update"),
                                        played=", ".join(program.played)), "update")
    if not program.draw(game, mod):
        raise in_function(program, blame(program, Fail(
            "no_finished_text", program.lines.of_name("finished", "draw") or
            program.lines.of_def("draw")), ["draw", ""], WINNING), "draw")
    after_end(program, game, mod, grid, "after_win")
    mod = program.load()
    grid = program.lay(mod)
    game = program.game(mod)
    program.click(game, BOMB_TILE, LEFT)
    program.update(game)
    after_end(program, game, mod, grid, "after_fail")
    return "ok_342", {}


def after_end(program, game, mod, grid, key):
    """Clicks after the end of a game change nothing."""
    before = {place: (tile.image, getattr(tile, "isflag", None), getattr(
        tile, "isopen", None)) for place, tile in grid.items()}
    failed = program.state(mod, "failed")
    for place, button in (((12, 2), RIGHT), ((3, 12), LEFT), ((14, 14), LEFT)):
        program.click(game, place, button)
    after = {place: (tile.image, getattr(tile, "isflag", None), getattr(
        tile, "isopen", None)) for place, tile in grid.items()}
    if after != before or program.state(mod, "failed") != failed:
        raise blame(program, Fail(key, program.lines.of_def("on_mouse_down")),
                    ["on_mouse_down"], ("if failed or finished:",))


CHECKS = [section_312, section_313, section_314, section_321, section_322, section_331,
          section_332, section_333, section_334, section_341, section_342]


# ------------------------------------------------------------- the child


def speed_up_actors():
    """Reading an Actor's left, top, x or y is slow in Pygame Zero 1.2
    (every read goes through __getattr__); the same values, read directly,
    make the book's open_block three to five times faster here."""
    from pgzero.actor import Actor
    if not hasattr(Actor, "DELEGATED_ATTRIBUTES") or not all(
            isinstance(Actor.__dict__.get(name), property) for name in ("x", "y")):
        return                     # another Pygame Zero: leave its Actor as it is
    Actor.DELEGATED_ATTRIBUTES = frozenset(Actor.DELEGATED_ATTRIBUTES)
    for name in Actor.DELEGATED_ATTRIBUTES:
        if name not in Actor.__dict__:
            setattr(Actor, name, property(lambda self, name=name: getattr(self._rect, name)))
    # x and y, read up to sixteen times a tile in the book's get_neighbours,
    # are kept in the tile's own __dict__ once worked out, and forgotten
    # whenever anything of the tile is set.
    setters = {"x": Actor.x.fset, "y": Actor.y.fset}
    plain_set = Actor.__setattr__

    def set_and_forget(self, name, value):
        """Set name as Pygame Zero does, and forget the x and y kept."""
        kept = self.__dict__
        kept.pop("x", None)
        kept.pop("y", None)
        if name in setters:
            setters[name](self, value)
        else:
            plain_set(self, name, value)
        kept.pop("x", None)
        kept.pop("y", None)

    Actor.__setattr__ = set_and_forget
    Actor.x = KeptPosition(0)
    Actor.y = KeptPosition(1)


class KeptPosition:
    """An Actor's x or y, worked out as Pygame Zero does and then kept in
    the tile's __dict__, where the next read finds it at once."""

    def __init__(self, axis):
        self.axis = axis
        self.name = "xy"[axis]

    def __get__(self, actor, owner=None):
        if actor is None:
            return self
        rect = actor._rect
        value = (rect.x, rect.y)[self.axis] + actor._anchor[self.axis]
        actor.__dict__[self.name] = value
        return value


def stoppable_tk():
    """Tk's mainloop waits inside Tcl, where the time limit's signal is
    never seen: a program that opens a Tk window would keep it open until
    the whole check's limit. Here Tk's loop handles one event at a time in
    Python, and stops at the limit of the section it runs in."""
    try:
        import tkinter
    except ImportError:
        return

    def alive(tk):
        """Whether Tk's main window is still there."""
        try:
            return bool(tk.getboolean(tk.call("winfo", "exists", ".")))
        except tkinter.TclError:
            return False

    def mainloop(widget=None, n=0):
        """Tk's events, handled until its window closes or the time is up."""
        root = widget or getattr(tkinter, "_default_root", None)
        if root is None:
            raise RuntimeError("too early to run the main loop: no Tk window")
        tk = root.tk
        while alive(tk):
            Limit.check()
            if not tk.dooneevent(tkinter._tkinter.DONT_WAIT):
                time.sleep(0.01)

    tkinter.Misc.mainloop = mainloop
    tkinter.mainloop = lambda n=0: mainloop(None, n)


def limit_memory():
    """At most MEMORY bytes and CPU_SECONDS of processor time, where the
    system can say so (not on Windows): a program that fills the memory
    gets a MemoryError, not the whole computer."""
    try:
        import resource
    except ImportError:
        return
    for name, value in (("RLIMIT_AS", MEMORY), ("RLIMIT_CPU", CPU_SECONDS),
                        ("RLIMIT_FSIZE", FILE_BYTES)):
        which = getattr(resource, name, None)
        if which is None:
            continue
        soft, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        try:
            resource.setrlimit(which, (value, hard))
        except (ValueError, OSError):
            pass


def check(path, work_file, write, confined=False, options=None):
    """Check one program, section by section, writing each finding as it
    is made (the parent reads them even if the program ends this process).
    A section that fails is written at once, with what the program did;
    then the repair search looks for the line whose change makes the
    program pass, and a finding that names it is written after it."""
    options = options or {}
    try:
        program = Program(path, work_file, confined)
    except Fail as f:
        found = finding(SECTIONS[0], f)
        found["notes"] = []
        write(found)
        program = Unloaded(path, work_file, confined, f)
        repaired(program, 0, f, write, options)
        return
    notes = [{"key": key, "line": line, "facts": facts} for key, line, facts in program.notes]
    for index, section in enumerate(SECTIONS):
        outcome = run_section(program, index)
        found = finding(section, outcome)
        if index == 0:
            found["notes"] = notes
        if outcome is None:
            write(found)
            continue
        if isinstance(outcome, Todo) and not program.written_beyond(section):
            write(found)                      # not yet written: nothing to repair
            return
        if not keeps_line(outcome):
            # No line is named before a repair proves one; where Python
            # stopped the program is a fact, and said as one.
            stopped = {"stopped": found["line"]} if found["line"] and \
                "python" in found["facts"] else {}
            found = dict(found, line=None, facts=dict(found["facts"], **stopped))
        write(found)
        repaired(program, index, outcome, write, options)
        return


def run_section(program, index):
    """Run one section on the program: None if it passes, else the Fail
    (a Todo for a section not written yet)."""
    try:
        CHECKS[index](program)
    except Fail as f:
        return f
    except Stopped:
        return Fail("endless", None)
    return None


def finding(section, outcome):
    """The finding of a section: passed (outcome None), not yet written (a
    Todo) or failed (a Fail)."""
    if outcome is None:
        return {"section": section, "ok": True, "key": "ok_" + section.replace(".", ""),
                "line": None, "facts": {}}
    found = {"section": section, "ok": False, "key": outcome.key, "line": outcome.line,
             "facts": dict(outcome.facts)}
    if isinstance(outcome, Todo):
        found.update(ok=None, todo=True)
    return found


# A program Python cannot read as text: no statement of it can be changed.
UNREADABLE = ("bad_coding", "bom_coding", "utf8_says_gb", "not_utf8", "bad_bytes")
# Python's own words on a program it cannot read name their line: kept.
PYTHONS_LINE = ("syntax_", "indent_", "bad_coding", "bom_coding", "utf8_says_gb", "not_utf8",
                "bad_bytes")


def keeps_line(outcome):
    """Whether a failure's line stands before any repair proves it: where
    Python itself cannot read the program, the loop a program was stopped
    in (a fact, as Python's own line is), and a section not written yet."""
    return isinstance(outcome, Todo) or outcome.key.startswith(PYTHONS_LINE) or \
        outcome.key in KEPT_LINES or bool(outcome.facts.get("kept_in"))


# Lines that are facts of what the program did, not guesses at a cause: the
# loop a program was stopped in, the line that wrote too much or ended the
# program, a file it tried to open outside its folder (kept_in), and a
# pgzrun.go() with no import pgzrun above it (a line of Thonny's, not the
# book's, so nothing to repair).
KEPT_LINES = ("endless", "endless_load", "no_import_pgzrun", "file_too_big",
              "disk_full_write", "exit")


class Unloaded:
    """A program Python could not even compile, as the repair search sees it."""

    def __init__(self, path, work_file, confined, fail):
        self.path, self.work_file, self.confined = path, work_file, confined
        self.source = getattr(fail, "source", None)


# The processor's time a repair search has, and the time a load and a call
# of a changed program may take in it (of the processor's time: as long as
# the program itself may take, so that a repair is held to the same tests).
REPAIR_SECONDS = 3.0
TRY_SECONDS = (LOAD_SECONDS, CALL_SECONDS)


def repaired(program, index, outcome, write, options):
    """Search for the change that makes the program pass the section at
    index; if one is proven, write the findings it gives: the sections its
    line's section comes after as passed, and the failure at that section
    naming the line. Nothing is written if none is proven."""
    seconds = options.get("repair_seconds", REPAIR_SECONDS)
    if seconds <= 0 or program.source is None or outcome.key in UNREADABLE + (
            "no_import_pgzrun",):
        return                  # a file Python cannot read as text: its coding line
    try:
        lined = check_book.LinedUp(program.source)
    except (OSError, IndexError, KeyError, ValueError, RecursionError):
        return                      # the book's steps are not there to line up with
    # A program that did not even load is proven only whole: as far as the
    # student has written it (no line of it ran to be judged before).
    written = SECTIONS.index(check_book.stage_section(lined.stage)) if index == 0 and \
        getattr(program, "mod", None) is None or loaded_badly(outcome) else index

    def passes(text, edits):
        """Whether the changed program passes the failing section, those
        before it, and the section of each changed line."""
        last = max([index, written] + [SECTIONS.index(e.section) for e in edits
                                       if e.section in SECTIONS])
        try:
            trial = Program(program.path, program.work_file, program.confined, source=text,
                            seconds=TRY_SECONDS)
        except Fail:
            return False
        trial._names = getattr(program, "_names", None)    # the same names, found once
        # The failing section first: most changes fail there, at once.
        order = [index] + [i for i in range(last + 1) if i != index]
        return all(run_section(trial, i) is None for i in order)
    search = check_repair.Search(program.source, lined, passes, seconds)
    hints = [outcome.line] + list(getattr(outcome, "hints", []))
    funcs = section_functions(SECTIONS[index], lined)
    ran = lines_run(program, index)
    own_lines = [s.first for func in funcs for s in lined.units[func].body[1 if func else 0:]]
    # The lines that ran in the failing section first: a slip in a line that
    # never ran shows nothing (a missing line is the book's edits' to find).
    own_lines.sort(key=lambda line: (lined.function_at(line) == "", line not in ran))
    proven = search.run(hints, funcs, own_lines, *assets(program.work_file))
    if proven is None:
        return
    edits = proven if isinstance(proven, list) else [proven]
    edit = edits[0]
    section = edit.section if edit.section in SECTIONS else SECTIONS[index]
    at = SECTIONS.index(section)
    for between in range(index, at):
        write(finding(SECTIONS[between], None))
    write(repair_finding(program, lined, outcome, edits, section, SECTIONS[index]))


def loaded_badly(outcome):
    """Whether a failure is the program's own start failing (it stops, or
    never ends, before a section's test could begin)."""
    return outcome.key.startswith(PYTHONS_LINE) or outcome.facts.get("what") == "load" or \
        outcome.key in ("endless_load", "exit")


def lines_run(program, index):
    """The lines of the student's program that run when the section at
    index is checked again on a fresh load (a set; empty if it cannot be)."""
    ran = set()
    path = program.path

    def local(frame, event, arg):
        """Note each line of the student's code as it runs."""
        if event == "line":
            ran.add(frame.f_lineno)
        return local

    def calls(frame, event, arg):
        """Follow only the student's own frames."""
        return local if frame.f_code.co_filename == path else None

    try:
        trial = Program(program.path, program.work_file, program.confined,
                        source=program.source, seconds=TRY_SECONDS)
    except Fail:
        return ran
    old = sys.gettrace()
    sys.settrace(calls)
    try:
        run_section(trial, index)
    finally:
        sys.settrace(old)
    return ran


def repair_finding(program, lined, outcome, edits, section, seen):
    """The finding that names a proven repair's line: what the program did,
    the student's line and what it should be."""
    edit = edits[0]
    facts = dict(outcome.facts)
    lines = program.source.splitlines()
    first, last = edit.remove or (edit.line, edit.line)
    if edit.kind in ("indent", "rename"):
        last = first                          # the first line says what moves
    code = " ".join(line.strip() for line in lines[first - 1:last]) if edit.remove else ""
    fix = " ".join(text.strip() for text in edit.add[1][:1 if edit.kind in (
        "indent", "rename") else None])
    kind = edit.kind
    if kind in ("own", "replace") and code == fix:
        kind = "indent"                       # only the spaces before it change
    if kind == "indent":
        facts["deeper"] = len(edit.add[1][0]) - len(edit.add[1][0].lstrip()) > len(
            lines[first - 1]) - len(lines[first - 1].lstrip())
    facts.update(code=code, fix=fix, symptom=outcome.key)
    facts.pop("in_func", None)
    if section != seen:
        facts["seen"] = seen
    if edit.kind in ("insert", "move"):
        at = edit.add[0]
        above = [s for s in lined.found if s.last == at]
        facts["after"] = " ".join(line.strip() for line in lines[
            above[0].first - 1:at]) if above else ""
    key = "repair_" + kind
    if kind == "insert" and not facts["after"]:
        key = "repair_insert_start"
    if outcome.line == edit.line and not keeps_line(outcome) and len(edits) == 1:
        key = outcome.key                 # the section's own words for this slip
        del facts["symptom"]
    if len(edits) > 1:
        facts["also"] = edits[1].line
    return {"section": section, "ok": False, "key": key, "line": edit.line, "facts": facts}


def section_functions(section, lined):
    """The student's functions a section's test exercises, likeliest first:
    the one the section writes, those it runs, the functions of the
    student's own that these call, and the module's part last."""
    book = [name for name, where in BOOK_SECTION_OF.items() if where == section]
    book += [name for name in EXERCISED.get(section, ()) if name not in book]
    inverse = {theirs: mine for mine, theirs in lined.pairs.items()}
    mine = [inverse.get(name, name) for name in book]
    mine = [name for name in mine if name in lined.units]
    for name in list(mine):
        mine += [called for called in lined.calls(name) if called not in mine]
    return mine + [""]


# The functions each section's test runs besides the one it writes.
EXERCISED = {"3.1.3": ("draw",), "3.2.1": ("on_mouse_down",), "3.2.2": ("set_flag",),
             "3.3.1": ("on_mouse_down",), "3.3.3": ("get_neighbours",),
             "3.3.4": ("get_bomb_number", "get_neighbours"), "3.4.1": ("blow_up", "draw"),
             "3.4.2": ("update", "draw", "on_mouse_down")}


def assets(work_file):
    """The names of the pictures and sounds beside the program's copy."""
    folder = os.path.dirname(work_file)
    found = []
    for kind in ("images", "sounds"):
        try:
            names = os.listdir(os.path.join(folder, kind))
        except OSError:
            names = []
        found.append(tuple(sorted(os.path.splitext(name)[0] for name in names)))
    return found


def quiet_env():
    """Headless and quiet: set before pygame is imported."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"


def check_here(path, work_file, write, confined, options=None):
    """In the program's own process: limits, pygame started, the checker's
    folder off the path, and the program checked."""
    limit_memory()
    import pygame  # noqa: F401  (started here, before the student's program)
    import pgzero.runner  # noqa: F401
    speed_up_actors()
    with open(work_file, "rb") as f:
        if b"tkinter" in f.read():
            stoppable_tk()
    # The program runs in its work folder, never beside the checker: what
    # it imports or opens by a name alone is found there, not here.
    sys.path[:] = [entry for entry in sys.path
                   if os.path.realpath(entry or ".") != os.path.realpath(HERE)]
    check(path, work_file, write, confined, options)


# The folder of this file, which a checked program may not read: with the
# teacher's home, it is kept out of the folders opened to the program.
HERE = os.path.dirname(os.path.abspath(__file__))


def child_main(argv):
    """python check_sections.py --serve SECONDS (programs asked on stdin),
    or --alone SECONDS PROGRAM WORK_FILE (where nothing forks: Windows)."""
    quiet_env()
    check_book.read_all()           # before any program runs: it cannot read them
    seconds = float(argv[1])
    if argv[0] == "--serve":
        avoid = [HERE, os.path.expanduser("~"), os.getcwd()]
        check_sandbox.serve(seconds, check_here, avoid)
    else:
        check_sandbox.serve_alone(argv[1:], check_here)


if __name__ == "__main__":
    child_main(sys.argv[1:])
