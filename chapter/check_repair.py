"""The repair search: a line is named only when changing it is shown to fix
the program.

When a section fails, the candidates are small changes of the program: the
book's version of each statement that differs from it (check_book.py), and
small edits of the student's own lines (an operator, a comparison, and/or,
a `not` added or taken away, another name in the same function, a number
off by one, a Pygame Zero name in the wrong case, a picture or sound name
from the folder, call brackets). Each is tried by running the failing
section, and the sections before it, on the changed program, in the same
process as the program itself (the one the sandbox confines). The first
that makes them pass, likeliest first, proves its line; where a smaller
change on the same line also proves, that one is reported. Where no single
change proves out, pairs of the book's changes are tried, within the time
the search has. Nothing here knows a section: the caller's test says pass
or not.
"""
import collections
import difflib
import os
import re
import time

import check_book
from check_program import (BOOK_SECTION_OF, CALL_SECONDS, LOAD_SECONDS, SECTIONS, Fail, Program,
                           Todo)

# The comparisons a slip turns into one another, and the other swaps of
# one word for another that students make.
SWAPS = {"==": ["!="], "!=": ["=="], "<": ["<=", ">"], "<=": ["<", ">="], ">": [">=", "<"],
         ">=": [">", "<="], "and": ["or"], "or": ["and"], "+": ["-"], "-": ["+"],
         "+=": ["="], "-=": ["+="], "*": ["//"], "/": ["//"], "break": ["continue"],
         "continue": ["break"], "True": ["False"], "False": ["True"], "if": ["elif"],
         "elif": ["if"]}
# The fields of a tile, and which may stand for which.
FIELDS = [["isbomb", "isopen", "isflag"], ["left", "top", "x", "y"]]
# Pygame Zero's names, whose case a student gets wrong.
CASED = {"mouse": ["LEFT", "RIGHT", "MIDDLE"], "keys": []}
CONDITION_HEADS = ("if", "elif", "while")
# The book's edits in the order they are tried, where all else is equal: a
# statement changed before one added or taken away.
KINDS = ["replace", "rename", "indent", "own", "move", "insert", "delete"]

Tried = collections.namedtuple("Tried", "edit proven")


def own_edits(lined, lines, pictures=(), sounds=()):
    """The small edits of the student's statements at lines (the first
    lines of statements), each an Edit of kind 'own'."""
    found = []
    starts = line_starts(lined.source)
    for statement in lined.found:
        if statement.first not in lines:
            continue
        base = starts[statement.first - 1]
        text = lined.source[base:starts[statement.last] if statement.last < len(starts)
                            else len(lined.source)].rstrip("\r\n")
        section = lined.section_at(statement.first)
        for splices in mutants(statement, lined, pictures, sounds):
            new = text
            for start, end, word in sorted(splices, reverse=True):
                new = new[:start - base] + word + new[end - base:]
            found.append(check_book.Edit("own", statement.first,
                                         (statement.first, statement.last),
                                         (statement.last, new.splitlines()), section, "", 1))
    return found


def indents(lined, lines):
    """A statement of the student's (with all it holds) one level further
    in, or out: a line typed at the wrong depth."""
    found = []
    source = lined.source.splitlines()
    for place, statement in enumerate(lined.found):
        if statement.first not in lines:
            continue
        last = statement.last
        for s in lined.found[place + 1:] if statement.words()[-1] == ":" else []:
            if s.depth <= statement.depth:
                break
            last = s.last
        text = source[statement.first - 1:last]
        section = lined.section_at(statement.first)
        for shift in (1, -1):
            if shift < 0 and statement.depth == 0:
                continue
            if shift > 0 and statement.depth == 0 and not in_a_function(statement, lined):
                continue            # into a function it is never part of: hidden, not fixed
            moved = [lined.shifted(line, shift) for line in text]
            found.append(check_book.Edit("indent", statement.first, (statement.first, last),
                                         (last, moved), section, "", 1))
    return found


def in_a_function(statement, lined):
    """Whether the book has a statement like this one inside a function:
    only then may a change move it from the module's level into one (a
    line moved into a function that never runs hides a slip)."""
    words = tuple(check_book.shape(statement, lined.rename))
    return any(line.statement.depth > 0 and tuple(line.statement.words()) == words
               for line in lined.book)


def moves(lined, lines):
    """A line of the student's moved one statement down (into the block a
    statement right below it opens) or up: a line put one place off."""
    found = []
    source = lined.source.splitlines()
    body = lined.found
    for place, statement in enumerate(body):
        if statement.first not in lines or statement.last != statement.first or \
                statement.words()[-1] == ":":
            continue
        text = source[statement.first - 1].strip()
        section = lined.section_at(statement.first)
        if statement.depth == 0 and not in_a_function(statement, lined):
            continue
        if place + 1 < len(body):
            below = body[place + 1]
            depth = below.depth + (1 if below.words()[-1] == ":" else 0)
            found.append(check_book.Edit(
                "own", statement.first, (statement.first, statement.first),
                (below.first, [lined.indent * depth + text]), section, "", 1))
        if place > 0:
            above = body[place - 1]
            found.append(check_book.Edit(
                "own", statement.first, (statement.first, statement.first),
                (above.first - 1, [above.indent + text]), section, "", 1))
    return found


def line_starts(source):
    """Where each line of the text starts (the offset of line n is at n - 1)."""
    starts = [0]
    for place, letter in enumerate(source):
        if letter == "\n":
            starts.append(place + 1)
    return starts


def mutants(statement, lined, pictures, sounds):
    """The statement changed in one small way: each a list of splices
    (start, end, new words) of the program's text, likeliest first (an
    operator or a comparison, a `not`, a field, a number, a picture or
    sound, then another name)."""
    tokens = statement.tokens
    words = statement.words()
    names = names_near(statement, lined)
    found = []

    def change(place, new, rank=0):
        """The word at place replaced by new."""
        found.append((rank, [(tokens[place].start, tokens[place].end, new)]))

    # The same slip made at each place a word stands (a `<` for `<=` in both
    # halves of a test): one change.
    for word in set(words):
        places = [p for p, w in enumerate(words) if w == word]
        if len(places) > 1:
            for other in SWAPS.get(word, []):
                found.append((0, [(tokens[p].start, tokens[p].end, other) for p in places]))
    for place, token in enumerate(tokens):
        word = token.text
        before = words[place - 1] if place else ""
        for other in SWAPS.get(word, []):
            change(place, other)
        if word == "=" and words[0] in CONDITION_HEADS:
            change(place, "==")
        if word == "==" and words[0] not in CONDITION_HEADS and "=" not in words:
            change(place, "=")
        if word == "=" and place + 1 < len(words) and words[place + 1] in ("+", "-"):
            found.append((0, [(token.start, tokens[place + 1].end, words[place + 1] + "=")]))
        if word == "not" and place + 1 < len(tokens):
            found.append((0, [(token.start, tokens[place + 1].start, "")]))
        if re.match(r"\d+$", word):
            number = int(word)
            for other in (number - 1, number + 1):
                if other >= 0:
                    change(place, str(other), 1)
        if token.kind == "string":
            quote = word[-1]
            for near in close_names(word.strip("'\"rRbBuUfF"), pictures + sounds):
                change(place, quote + near + quote, 1)
        if before == ".":
            for group in FIELDS:
                if word in group:
                    for other in group:
                        if other != word:
                            change(place, other, 1)
            owner = words[place - 2] if place >= 2 else ""
            for other in CASED.get(owner, []):
                if other.lower() == word.lower() and other != word:
                    change(place, other)
            if owner == "sounds":
                for near in close_names(word, sounds):
                    change(place, near, 1)
            continue
        target = place == 0 and statement.depth == 0 and len(words) > 1 and words[1] == "="
        if token.kind == "name" and word in names and not target:
            for other in names[word]:
                change(place, other, 2)
        if words[0] in CONDITION_HEADS and place > 0 and before in (
                "if", "elif", "while", "and", "or") and word != "not":
            found.append((0, [(token.start, token.start, "not ")]))
    if words and words[-1] in ("play", "draw") and "(" not in words:
        found.append((0, [(tokens[-1].end, tokens[-1].end, "()")]))
    return [splices for _, splices in sorted(found, key=lambda pair: pair[0])]


def names_near(statement, lined):
    """For each name of the program's own a slip may have swapped, the
    names it may stand for: a tile, a loop's number or a list for another
    of the function's (or the module's), a constant for another constant."""
    unit = lined.units.get(lined.unit_of(statement)) or lined.units[""]
    kinds = collections.defaultdict(set)
    for s in unit.body + lined.units[""].body:
        words = s.words()
        if words[:1] == ["for"] and len(words) > 1:
            kinds["loop"].add(words[1])
        if words[:1] == ["def"]:
            kinds["loop"].update(unit.params if s is unit.body[0] else [])
        for place, token in enumerate(s.tokens):
            if token.kind == "name" and token.text not in check_book.FIXED_NAMES and not (
                    place and s.tokens[place - 1].text == "."):
                if token.text.isupper():
                    kinds["constant"].add(token.text)
    kinds["loop"].update(unit.params)
    swaps = {}
    for kind, group in kinds.items():
        for name in group:
            swaps[name] = sorted(group - {name})
    return swaps


def close_names(word, choices):
    """The names among choices close to word (a mistyped picture or sound)."""
    return [c for c in difflib.get_close_matches(word, list(choices), 2, 0.6) if c != word]


class Search:
    """One repair search: the program's text, its lining up with the book,
    and a test (a changed program's text -> whether the failing section
    and those before it pass)."""

    def __init__(self, source, lined, test, seconds):
        self.source = source
        self.lined = lined
        self.test = test
        # The processor's time of this process, so that a busy computer
        # gives the search as many tries as an idle one; and the clock's
        # ten times over, so that it always ends.
        self.deadline = time.process_time() + seconds
        self.wall = time.monotonic() + 10 * seconds
        self.tried = set()
        self.count = 0

    def out_of_time(self):
        """Whether the search has used its time."""
        return time.process_time() > self.deadline or time.monotonic() > self.wall

    def proves(self, edit, *more):
        """Whether the program with edit (and more) made passes."""
        text = self.source
        for one in sorted((edit,) + more, key=lambda e: -(e.remove or e.add)[0]):
            text = check_book.apply(text, one)
        if text in self.tried or self.out_of_time():
            return False
        self.tried.add(text)
        self.count += 1
        return self.test(text, (edit,) + more)

    def first_proven(self, edits):
        """The first edit of edits that makes the program pass, or None."""
        for edit in edits:
            if self.out_of_time():
                return None
            if self.proves(edit):
                return edit
        return None

    def run(self, hints, funcs, own_lines, pictures=(), sounds=()):
        """The smallest proven repair (an Edit, or a pair of them as a
        tuple), or None: the book's edits first (those on hinted lines and
        in the failing section's functions first, smaller first), then the
        student's own lines' edits, then pairs of the book's edits."""
        book = ordered(self.lined.all_edits, hints, funcs, self.lined)
        proven = self.first_proven(book)
        if proven is not None:
            if proven.size > 2 and proven.kind == "replace":
                smaller = own_edits(self.lined, {proven.line}, pictures, sounds)
                better = self.first_proven(smaller)
                if better is not None:
                    return better
            return proven
        lines = [line for line in hints if line] + [line for line in own_lines
                                                    if line not in hints]
        chosen = set(lines)
        own = (own_edits(self.lined, chosen, pictures, sounds) +
               indents(self.lined, chosen) + moves(self.lined, chosen))
        book_lines = {edit.line for edit in book}
        own.sort(key=lambda e: (lines.index(e.line) if e.line in lines else len(lines),
                                e.line not in book_lines))
        proven = self.first_proven(own)
        if proven is not None:
            return proven
        for first in range(min(len(book), 6)):
            for second in range(first + 1, min(len(book), 6)):
                if self.out_of_time():
                    return None
                a, b = book[first], book[second]
                if overlap(a, b):
                    continue
                if self.proves(a, b):
                    return [a, b]
        return None


def overlap(a, b):
    """Whether two edits touch the same lines."""
    def span(edit):
        """The lines an edit touches."""
        first, last = edit.remove or (edit.add[0], edit.add[0])
        return set(range(first, max(last, edit.add[0]) + 1))
    return bool(span(a) & span(b))


def ordered(edits, hints, funcs, lined):
    """The book's edits, likeliest first: on a hinted line, then in the
    failing section's functions, then the rest; smaller first in each."""
    def rank(edit):
        """Where an edit stands in the order."""
        near = min([abs(edit.line - hint) for hint in hints if hint] or [999])
        hinted = 0 if near == 0 else (1 if near <= 2 else 2)
        inside = 0 if lined.function_at(edit.line) in funcs else 1
        return (hinted, inside, KINDS.index(edit.kind), edit.size, edit.line)
    return sorted(edits, key=rank)


# ------------------------------------------------- after a section fails


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


def repaired(program, index, outcome, write, options, sections):
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
        return all(sections.run_section(trial, i) is None for i in order)
    search = Search(program.source, lined, passes, seconds)
    hints = [outcome.line] + list(getattr(outcome, "hints", []))
    funcs = section_functions(SECTIONS[index], lined)
    ran = lines_run(program, index, sections)
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
        write(sections.finding(SECTIONS[between], None))
    write(repair_finding(program, lined, outcome, edits, section, SECTIONS[index]))


def loaded_badly(outcome):
    """Whether a failure is the program's own start failing (it stops, or
    never ends, before a section's test could begin)."""
    return outcome.key.startswith(PYTHONS_LINE) or outcome.facts.get("what") == "load" or \
        outcome.key in ("endless_load", "exit")


def lines_run(program, index, sections):
    """The lines of the student's program that run when the section at
    index is checked again on a fresh load (a set; empty if it cannot be)."""
    try:
        trial = Program(program.path, program.work_file, program.confined,
                        source=program.source, seconds=TRY_SECONDS)
    except Fail:
        return set()
    with trial.tracing() as ran:
        sections.run_section(trial, index)
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
    code = " ".join(bare(line) for line in lines[first - 1:last]) if edit.remove else ""
    fix = " ".join(bare(text) for text in edit.add[1][:1 if edit.kind in (
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
        facts["after"] = " ".join(bare(line) for line in lines[
            above[0].first - 1:at]) if above else ""
    key = "repair_" + kind
    if kind == "insert" and not facts["after"]:
        key = "repair_insert_start"
    if outcome.line == edit.line and not keeps_line(outcome) and len(edits) == 1 and \
            kind in ("replace", "own", "indent"):
        key = outcome.key                 # the section's own words for this slip
        del facts["symptom"]
    if len(edits) > 1:
        facts["also"] = edits[1].line
    return {"section": section, "ok": False, "key": key, "line": edit.line, "facts": facts}


def bare(line):
    """A line of code as a message quotes it: without its indentation, its
    comment or a backslash that carries it on."""
    words = [m for m in check_book.TOKEN.finditer(line) if m.lastgroup == "comment"]
    if words:
        line = line[:words[0].start()]
    return line.strip().rstrip("\\").strip()


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
