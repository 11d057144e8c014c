"""A student's program lined up with the book's, statement by statement.

The book's program, stage by stage, is the lesson's steps beside this file
(step01_tiles.py ... step10_win.py): each line the book shows first in a
section is marked NEW there, and the lines that are not the book's (the
RUN lines that start a program from an editor, the FIX lines for a
computer without a sound card, the PEEK line) are left out here. A
student's program is read as its statements (logical lines, each with its
depth), whatever Python thinks of it: a program that does not compile is
lined up too. Its functions are paired with the book's by name, or by what
they hold; its names with the book's by where they stand; and then each
function's statements with the book's, in order, by their words.

Each statement that differs from the book's, is missing, is extra, stands
at another depth or in another place gives one Edit: the book's version, in
the student's own names. check_repair.py tries them. Nothing here runs a
program.
"""
import builtins
import collections
import difflib
import keyword
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
# Where the lesson's steps are: beside this file (the game's chapter
# folder), or in steps/ beside it (the classroom kit's students' folder).
STEP_FOLDERS = (HERE, os.path.join(HERE, "steps"))

# The lesson's steps, each with the section it ends with; step 08 writes
# three sections at once, told apart by the function a line is in.
STEPS = [("step01_tiles.py", "3.1.3"), ("step02_bombs_first.py", "3.1.4"),
         ("step03_shuffle.py", "3.1.4"), ("step04_right_click.py", "3.2.1"),
         ("step05_flag_pass.py", "3.2.2"), ("step06_flags.py", "3.2.2"),
         ("step07_left_click.py", "3.3.1"), ("step08_recursion.py", "3.3.4"),
         ("step09_lose.py", "3.4.1"), ("step10_win.py", "3.4.2")]
SECTION_OF_FUNCTION = {"get_neighbours": "3.3.2", "get_bomb_number": "3.3.3",
                       "open_block": "3.3.4"}
# Step 01's module lines before the tiles are the scene's (3.1.2).
SCENE = ("ROWS", "COLS", "SIZE", "WIDTH", "HEIGHT")

# Names a program never chooses: Python's, and those Pygame Zero gives it.
FIXED_NAMES = set(keyword.kwlist) | set(dir(builtins)) | {
    "Actor", "screen", "sounds", "images", "music", "mouse", "keys", "keyboard",
    "clock", "animate", "tone", "Rect", "ZRect", "random", "pgzrun", "pygame", "math",
    "WIDTH", "HEIGHT", "TITLE", "draw", "update", "on_mouse_down", "on_mouse_up",
    "on_mouse_move", "on_key_down", "on_key_up", "self"}


# ------------------------------------------------------------ statements

# Python's tokens, as far as lining up needs them: strings first (a # in a
# string is no comment), then comments, numbers, names (Chinese ones too),
# operators longest first, and any other sign on its own (a Chinese comma).
TOKEN = re.compile(r"""
    (?P<string>(?:[rRbBuUfF]{0,2})(?:'''[\s\S]*?'''|\"\"\"[\s\S]*?\"\"\"|'(?:\\.|[^'\\\n])*'?
                                   |"(?:\\.|[^"\\\n])*"?))
  | (?P<comment>\#[^\r\n]*)
  | (?P<number>\d[\d_]*(?:\.\d*)?(?:[eE][-+]?\d+)?j?|\.\d+)
  | (?P<name>[^\W\d]\w*)
  | (?P<op>\*\*=|//=|>>=|<<=|->|:=|==|!=|<=|>=|\+=|-=|\*=|/=|%=|&=|\|=|\^=|//|\*\*|<<|>>
          |[-+*/%&|^~<>=.,:;@()\[\]{}])
  | (?P<newline>\r?\n)
  | (?P<space>[ \t\f\r]+|\\\r?\n)
  | (?P<other>.)
""", re.VERBOSE)
OPENING, CLOSING = "([{", ")]}"

Token = collections.namedtuple("Token", "kind text start end")

# Statements a student may have that are not the book's, and right: those
# that start the program from an editor, and the sound card's guard.
# Pygame Zero's hooks, whose parameters it hands over by their names.
HOOKS = ("on_mouse_down", "on_mouse_up", "on_mouse_move", "on_key_down", "on_key_up",
         "update", "draw")
NOT_THE_BOOKS = {("import", "pgzrun"), ("pgzrun", ".", "go", "(", ")"), ("import", "pygame"),
                 ("if", "pygame", ".", "mixer", ".", "get_init", "(", ")", ":")}


class Statement(collections.namedtuple("Statement", "first last depth tokens indent")):
    """A logical line: its first and last line (from 1), its depth (0 at
    the left edge), its tokens, and the text of its indentation."""

    def words(self):
        """The statement's tokens' texts."""
        return [token.text for token in self.tokens]

    def head(self):
        """The statement's first word (def, for, if, a name ...)."""
        return self.tokens[0].text if self.tokens else ""


def statements(source):
    """The statements of a program, in order, with their depth worked out
    as Python does from the indentation (a tab to the next multiple of 8)."""
    found, tokens, depth_of = [], [], []
    widths = [0]
    line, line_start, first, indent = 1, 0, None, ""
    brackets = 0
    for match in TOKEN.finditer(source):
        kind, text = match.lastgroup, match.group()
        if kind == "newline" or (kind == "space" and text.startswith("\\")):
            line += 1
            if kind == "newline" and brackets == 0 and tokens:
                found.append(Statement(first, line - 1, depth_of[0], tokens, indent))
                tokens, depth_of = [], []
            if kind == "newline":
                line_start = match.end()
            continue
        if kind in ("space", "comment"):
            continue
        if not tokens:
            first = line
            indent = source[line_start:match.start()]
            width = len(indent.expandtabs(8))
            while width < widths[-1]:
                widths.pop()
            if width > widths[-1]:
                widths.append(width)
            depth_of = [len(widths) - 1]
        if kind == "op" and text in OPENING:
            brackets += 1
        elif kind == "op" and text in CLOSING:
            brackets = max(0, brackets - 1)
        tokens.append(Token(kind, text, match.start(), match.end()))
        line += text.count("\n")
    if tokens:
        found.append(Statement(first, line, depth_of[0], tokens, indent))
    return found


# ---------------------------------------------------------------- units


class Unit(collections.namedtuple("Unit", "name params body")):
    """A function (its name, its parameters' names, its body's statements,
    the def first) or the module's own statements (name '')."""


def units(found):
    """The program's functions and its module part, by name ('' for the
    module): {name: Unit}; a second function of one name is left out."""
    result = {"": Unit("", [], [])}
    current = None
    for statement in found:
        words = statement.words()
        if current is not None and statement.depth > current[0]:
            current[1].body.append(statement)
            continue
        current = None
        if words[:1] == ["def"] and len(words) > 1:
            params = parameters(words)
            unit = Unit(words[1], params, [statement])
            if words[1] not in result:
                result[words[1]] = unit
            current = (statement.depth, unit)
            continue
        result[""].body.append(statement)
    return result


def parameters(words):
    """The parameters' names of a def's words."""
    if "(" not in words:
        return []
    inside = words[words.index("(") + 1:]
    names, level = [], 0
    for place, word in enumerate(inside):
        if word == ")" and level == 0:
            break
        level += word in OPENING
        level -= word in CLOSING
        if level == 0 and re.match(r"[^\W\d]\w*$", word) and (
                place == 0 or inside[place - 1] == ","):
            names.append(word)
    return names


# ------------------------------------------------------------- the book


class BookLine(collections.namedtuple("BookLine", "statement section text")):
    """A statement of the book's, the section that writes it, and its text."""


def read_step(name):
    """A lesson step's text, with the lines that are not the book's taken
    out (RUN, FIX, PEEK); the lines a FIX line held are moved out with it.
    With each line, whether the book shows it first in that step (NEW)."""
    for folder in STEP_FOLDERS:
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            break
    with open(path, encoding="utf-8") as f:
        raw = f.read().splitlines()
    lines, marks, skipped_depth = [], [], None
    for text in raw:
        code = text.split("#", 1)[0] if not text.lstrip().startswith("#") else ""
        depth = len(text) - len(text.lstrip())
        if skipped_depth is not None and code.strip() and depth > skipped_depth:
            text = text[4:]             # out of the FIX line's if, to the book's depth
        elif code.strip():
            skipped_depth = None
        if re.search(r"#\s*(RUN|FIX|PEEK)\b", text):
            if code.rstrip().endswith(":"):
                skipped_depth = depth
            continue
        lines.append(text)
        marks.append(bool(re.search(r"#\s*NEW\b", text)))
    return "\n".join(lines) + "\n", marks


def stage(number):
    """The book's program at a step (1 to 10), read once: its statements,
    each with the section that writes it."""
    if number not in STAGES:
        STAGES[number] = read_stage(number)
    return STAGES[number]


def read_stage(number):
    """The book's program at a step (1 to 10): its statements, each with
    the section that writes it (where the step that first shows it, or
    shows it changed, marks it NEW)."""
    sections = {}
    for name, section in STEPS[:number]:
        text, marks = read_step(name)
        lines = text.splitlines()
        for key, statement in keyed(statements(text)):
            new = any(marks[line - 1] for line in range(statement.first, statement.last + 1)
                      if line - 1 < len(marks))
            if new or key not in sections:
                sections[key] = section_of(section, statement, key[0])
    text, _ = read_step(STEPS[number - 1][0])
    lines = text.splitlines()
    return [BookLine(statement, sections[key], joined(lines, statement))
            for key, statement in keyed(statements(text))]


def keyed(found):
    """Each statement with what tells it from every other: its function,
    its words, and how many the same came before it there."""
    func, seen = "", collections.Counter()
    for statement in found:
        if statement.depth == 0:
            func = statement.words()[1] if statement.head() == "def" and \
                len(statement.tokens) > 1 else ""
        words = tuple(statement.words())
        seen[func, words] += 1
        yield (func, words, seen[func, words]), statement


def section_of(section, statement, func):
    """The section of a line new in a step: step 01's scene constants are
    3.1.2's, and step 08 writes three functions, each its own section."""
    if section == "3.1.3" and statement.depth == 0 and statement.head() in SCENE:
        return "3.1.2"
    if section == "3.3.4":
        return SECTION_OF_FUNCTION.get(func, section)
    return section


def joined(lines, statement):
    """A statement's text on one line (a backslash's lines joined)."""
    parts = []
    for line in range(statement.first, statement.last + 1):
        text = lines[line - 1].split("  #", 1)[0].rstrip()
        parts.append(text.rstrip("\\").rstrip() if line < statement.last else text)
    first = parts[0].strip()
    return " ".join([first] + [part.strip() for part in parts[1:]])


def stage_section(number):
    """The last section a step of the book writes (step 1: 3.1.3)."""
    return STEPS[number - 1][1]


def stage_of(found):
    """The step a student's program has reached: the book's stage it is
    most like, statement by statement, whatever its names (of two as alike,
    the later)."""
    ours = sorted(blank(statement) for statement in found
                  if tuple(statement.words()) not in NOT_THE_BOOKS)
    best, reached = -1.0, 1
    for number in range(1, len(STEPS) + 1):
        theirs = sorted(blank(line.statement) for line in stage(number))
        score = difflib.SequenceMatcher(None, ours, theirs, autojunk=False).ratio()
        if score >= best:
            best, reached = score, number
    return reached


# ------------------------------------------------------------ lining up


class Edit(collections.namedtuple("Edit", "kind line remove add section book size")):
    """One change of a student's program: kind (replace, insert, delete,
    indent, move, or an edit of the student's own line), the line it names,
    the lines it removes ((first, last), or None), what it adds ((after
    line, [texts])), the section of the book that writes that statement,
    the book's statement in the student's names ('' for none), and how many
    words it changes (the smallest proven change is reported)."""


def shape(statement, rename):
    """A statement's words with each name of the program's own put through
    rename (student's name -> book's name); a name rename does not know is
    kept as it is, and an attribute (after a dot) is put through it too."""
    words = []
    for place, token in enumerate(statement.tokens):
        text = token.text
        if token.kind == "name" and text not in FIXED_NAMES:
            text = rename.get(text, text)
        words.append(text)
    return tuple(words)


def blank(statement):
    """A statement's words with every name of the program's own blanked
    out: its shape, whatever the names."""
    return tuple("_" if token.kind == "name" and token.text not in FIXED_NAMES and not (
        place and statement.tokens[place - 1].text == ".") else token.text
        for place, token in enumerate(statement.tokens))


class LinedUp:
    """A student's program lined up with the book's at the stage it reached:
    which function is which, which name is which, and the edits that would
    make each statement the book's."""

    def __init__(self, source, stage_number=None):
        self.source = source
        self.found = statements(source)
        self.stage = stage_number or stage_of(self.found)
        self.book = stage(self.stage)
        self.book_units = units([line.statement for line in self.book])
        self.book_line = {id(line.statement): line for line in self.book}
        self.units = units(self.found)
        self.pairs = self.pair_units()
        self.rename = self.names()
        self.indent = indent_unit(self.found)
        self.twins = {}                  # a student's statement (by id) -> the book's
        self.all_edits = self.edits()

    # --- which function is which

    def pair_units(self):
        """{student function: book function} ('' the module's part for both)."""
        pairs = {"": ""}
        mine = [name for name in self.units if name]
        book = [name for name in self.book_units if name]
        for name in list(book):
            if name in mine:
                pairs[name] = name
                mine.remove(name)
                book.remove(name)
        for name in list(book):
            near = difflib.get_close_matches(name, mine, 1, 0.75)
            if near:
                pairs[near[0]] = name
                mine.remove(near[0])
                book.remove(name)
        scored = sorted(((self.likeness(self.units[m], self.book_units[b]), m, b)
                         for m in mine for b in book), reverse=True)
        for score, m, b in scored:
            if score >= 0.6 and m in mine and b in book and len(
                    self.units[m].params) == len(self.book_units[b].params):
                pairs[m] = b
                mine.remove(m)
                book.remove(b)
        return pairs

    @staticmethod
    def likeness(unit, book_unit):
        """How alike two functions' bodies are, whatever their names."""
        return difflib.SequenceMatcher(None, [blank(s) for s in unit.body[1:]],
                                       [blank(s) for s in book_unit.body[1:]]).ratio()

    # --- which name is which

    def names(self):
        """{student's name: book's name}, from the functions paired, their
        parameters, and the names that stand in the same places in
        statements of the same shape."""
        votes = collections.defaultdict(collections.Counter)
        for mine, book in self.pairs.items():
            if mine != book:
                votes[mine][book] += 5
            for m, b in zip(self.units[mine].params, self.book_units[book].params):
                votes[m][b] += 5
        for mine, book in self.pairs.items():
            ours, theirs = self.units[mine].body, self.book_units[book].body
            matcher = difflib.SequenceMatcher(None, [blank(s) for s in ours],
                                              [blank(s) for s in theirs], autojunk=False)
            for tag, i1, i2, j1, j2 in matcher.get_opcodes():
                if tag not in ("equal", "replace") or i2 - i1 != j2 - j1:
                    continue
                for a, b in zip(ours[i1:i2], theirs[j1:j2]):
                    if len(a.tokens) != len(b.tokens):
                        continue
                    for x, y in zip(a.tokens, b.tokens):
                        if x.kind == y.kind == "name" and x.text not in FIXED_NAMES \
                                and y.text not in FIXED_NAMES:
                            votes[x.text][y.text] += 1
        rename = {}
        for mine, counted in votes.items():
            (best, count), = counted.most_common(1)
            if best != mine and count >= 2 and mine not in self.book_names():
                rename[mine] = best
        return rename

    def book_names(self):
        """Every name the book's program uses."""
        return {token.text for line in self.book for token in line.statement.tokens
                if token.kind == "name"}

    # --- the edits

    def edits(self):
        """Every edit that makes one statement of the student's the book's;
        a statement taken out in one place and missing in another is moved."""
        found, self.taken, self.missing = [], [], []
        for mine, book in self.pairs.items():
            found.extend(self.unit_edits(self.units[mine], self.book_units[book]))
        for a, body in self.taken:
            for after, b, unit, theirs in self.missing:
                if shape(a, self.rename) == tuple(b.words()) and unit.body is not body:
                    found.append(self.move(a, after, b, body, self.held(b, theirs)))
        return [edit for edit in found if edit is not None]

    def section_at(self, line):
        """The section that writes the student's statement at line: that of
        the book's statement it lines up with, else of the nearest one
        before it in its function, else of its function; '' if none."""
        found = [s for s in self.found if s.first <= line <= s.last]
        if not found:
            return ""
        statement = found[0]
        if id(statement) in self.twins:
            return self.section(self.twins[id(statement)])
        # A statement in another place than the book's: where the book has it.
        same = [line for line in self.book if tuple(line.statement.words()) == tuple(
            shape(statement, self.rename))]
        if len(same) == 1:
            return same[0].section
        unit = self.unit_of(statement)
        body = self.units[unit].body if unit in self.units else []
        for s in reversed([s for s in body if s.first <= line]):
            if id(s) in self.twins:
                return self.section(self.twins[id(s)])
        book = self.pairs.get(unit)
        if unit and book is not None and self.book_units[book].body:
            return self.section(self.book_units[book].body[0])
        # Before the program's first statement of the book's: the scene's;
        # in a function of the student's own: not known.
        return "" if unit else "3.1.2"

    def calls(self, name):
        """The student's functions that function name calls."""
        unit = self.units.get(name)
        if unit is None:
            return []
        called = []
        for statement in unit.body[1:]:
            words = statement.words()
            for place, word in enumerate(words[:-1]):
                if words[place + 1] == "(" and word in self.units and word != name and \
                        word not in called and (place == 0 or words[place - 1] != "."):
                    called.append(word)
        return called

    def function_at(self, line):
        """The name of the student's function that holds line ('' if none)."""
        found = [s for s in self.found if s.first <= line <= s.last]
        return self.unit_of(found[0]) if found else ""

    def unit_edits(self, unit, book_unit):
        """The edits of one function (or the module's part)."""
        ours = [s for s in unit.body if tuple(s.words()) not in NOT_THE_BOOKS]
        theirs = book_unit.body
        keys = [shape(s, self.rename) for s in ours]
        book_keys = [tuple(s.words()) for s in theirs]
        matcher = difflib.SequenceMatcher(None, keys, book_keys, autojunk=False)
        found, deleted, inserted, shifted = [], [], [], []
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                for a, b in zip(ours[i1:i2], theirs[j1:j2]):
                    self.twins[id(a)] = b
                    if a.depth != b.depth:
                        shifted.append((a, b))
                continue
            pairs = self.closest(ours[i1:i2], theirs[j1:j2])
            self.twins.update((id(a), b) for a, b in pairs)     # alike: the same statement
            paired_ours = {id(a) for a, _ in pairs}
            paired_book = {id(b) for _, b in pairs}
            left_ours = [a for a in ours[i1:i2] if id(a) not in paired_ours]
            left_book = [b for b in theirs[j1:j2] if id(b) not in paired_book]
            # What is left at one place, the student's for the book's: a
            # statement written otherwise (break for continue, a test of
            # the student's own for the book's).
            pairs += list(zip(left_ours, left_book))
            for a, b in pairs:
                found.append(self.replace(a, b))
            deleted += left_ours
            after = ours[i1 - 1] if i1 > 0 else None
            inserted += [(after, b) for b in left_book]
        found.extend(self.reindent(run, ours) for run in runs(shifted, ours))
        for a in deleted:
            twin = [(after, b) for after, b in inserted
                    if shape(a, self.rename) == tuple(b.words())]
            if twin:
                found.append(self.move(a, *twin[0], body=ours,
                                       held=self.held(twin[0][1], theirs)))
            found.append(self.delete(a, ours))
            self.taken.append((a, ours))
        self.missing += [(after, b, unit, theirs) for after, b in inserted]
        for place, (after, b) in enumerate(inserted):
            found.append(self.insert(after, b, unit, ours, theirs))
            # A statement that holds others, missing with all it holds (an
            # `if ...: return`): added whole, as one change.
            held = self.held(b, theirs)
            whole = [c for a, c in inserted[place + 1:place + 1 + len(held)] if a is after]
            if held and whole == held:
                edit = self.insert(after, b, unit, ours, theirs)
                extra = [self.indent * c.depth + self.text_of(c) for c in held]
                first = min([self.section(c) for c in held] + [edit.section])
                found.append(edit._replace(add=(edit.add[0], edit.add[1][:1] + extra +
                                                edit.add[1][1:]), size=edit.size + len(held),
                                           section=first))
        if unit.name and unit.params != book_unit.params and book_unit.name in HOOKS:
            found.append(self.renamed(unit, book_unit))
        if unit.name and unit.name != book_unit.name and book_unit.name in HOOKS:
            # Pygame Zero finds a hook by its exact name: on_mouse_dowm is no hook.
            found.append(self.replace(unit.body[0], book_unit.body[0], exact=True))
        return [edit for edit in found if edit is not None]

    @staticmethod
    def closest(ours, theirs):
        """Pairs of a student's statement and the book's it is most like
        (at least half alike), each used once, in order."""
        pairs, start = [], 0
        for a in ours:
            best, best_score = None, 0.5
            for place in range(start, len(theirs)):
                score = difflib.SequenceMatcher(None, a.words(), theirs[place].words()).ratio()
                if score > best_score:
                    best, best_score = place, score
            if best is not None:
                pairs.append((a, theirs[best]))
                start = best + 1
        return pairs

    def text_of(self, book_statement, keep=None):
        """The book's statement in the student's names (but keep), on one line."""
        inverse = {book: mine for mine, book in self.rename.items() if book != keep}
        text = self.book_line[id(book_statement)].text
        return "".join(inverse.get(match.group(), match.group())
                       if match.lastgroup == "name" else match.group()
                       for match in TOKEN.finditer(text))

    def section(self, book_statement):
        """The section that writes a statement of the book's."""
        return self.book_line[id(book_statement)].section

    def replace(self, a, b, exact=False):
        """The student's statement a made the book's b; where a runs over
        several lines and only one of them changes, that one line. With
        exact, the book's function name is kept even where the student's
        name stands for it."""
        text = self.text_of(b, keep=b.words()[1] if exact else None)
        size = changed_words(a.words(), shape_words(text))
        if a.last > a.first:
            narrow = self.narrowed(a, text, size)
            if narrow is not None:
                return narrow._replace(section=self.section(b))
        return Edit("replace", a.first, (a.first, a.last),
                    (a.last, [self.indent * b.depth + text]), self.section(b), text, size)

    def narrowed(self, a, text, size):
        """The edit of the one line of statement a that changes to make it
        text, or None if more than one line changes."""
        ours, theirs = a.words(), shape_words(text)
        matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
        changes = []
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                continue
            if i1 == i2:            # words added: after the word before them
                left = right = a.tokens[i1 - 1].end if i1 else a.tokens[0].start
                new = " " + join_words(theirs[j1:j2]) if i1 else join_words(
                    theirs[j1:j2]) + " "
            else:
                left, right = a.tokens[i1].start, a.tokens[i2 - 1].end
                new = join_words(theirs[j1:j2])
            changes.append((left, right, new))
        lines = {self.source.count("\n", 0, left) + 1 for left, _, _ in changes} | {
            self.source.count("\n", 0, right) + 1 for _, right, _ in changes}
        if len(lines) != 1:
            return None
        line = lines.pop()
        start = self.source.rfind("\n", 0, changes[0][0]) + 1
        end = self.source.find("\n", start)
        physical = self.source[start:end if end >= 0 else len(self.source)].rstrip("\r")
        for left, right, new in reversed(changes):
            physical = physical[:left - start] + new + physical[right - start:]
        return Edit("replace", line, (line, line), (line, [physical]), "", physical.strip(),
                    size)

    def reindent(self, run, body):
        """A run of the student's statements (in a row, each out by the
        same number of levels from the book's) at the book's depth."""
        (a, b), last = run[0], run[-1][0]
        lines = self.source.splitlines()[a.first - 1:last.last]
        shift = b.depth - a.depth
        moved = [self.shifted(line, shift) for line in lines]
        return Edit("indent", a.first, (a.first, last.last), (last.last, moved),
                    self.section(b), self.text_of(b), 1)

    @staticmethod
    def end_of(a, body):
        """The last line of the block statement a holds."""
        last = a.last
        for s in body:
            if s.first > a.first:
                if s.depth <= a.depth:
                    break
                last = s.last
        return last

    def shifted(self, line, shift):
        """A line moved shift levels of indentation to the right (or left)."""
        if shift > 0:
            return self.indent * shift + line
        for _ in range(-shift):
            line = line[len(self.indent):] if line.startswith(self.indent) else line.lstrip()
        return line

    def delete(self, a, body):
        """The student's statement a taken out (a block statement with all
        it holds)."""
        last = self.end_of(a, body) if a.tokens[-1].text == ":" else a.last
        # A statement the book does not have is of the section of the book's
        # nearest before it in its function; at the module's level, of the
        # failing section (the caller's).
        section = self.section_at(a.first) if self.unit_of(a) else ""
        return Edit("delete", a.first, (a.first, last), (last, []), section, "",
                    len(a.tokens))

    def insert(self, after, b, unit, ours, theirs):
        """The book's statement b added after the student's after (or at
        the start of the function, or of the program); a statement that
        holds others (an if, a for) is put around the student's statements
        that are the book's it holds."""
        if after is None:
            at = unit.body[0].last if unit.name else self.top_of_program()
        else:
            at = after.last
        text = self.text_of(b)
        added = [self.indent * b.depth + text]
        held = self.held(b, theirs)
        following = [s for s in ours if s.first > at]
        run = []
        for s in following:
            if id(s) in self.twins and self.twins[id(s)] in held and s.depth <= b.depth + 1:
                run.append(s)
            else:
                break
        # The line named is the one below which the missing one goes (the
        # first of the program where it goes at the very start).
        named = at if at else (following[0].first if following else 1)
        if text.endswith(":") and run:
            lines = self.source.splitlines()[run[0].first - 1:run[-1].last]
            shift = b.depth + 1 - run[0].depth
            added += [self.shifted(line, shift) for line in lines]
            return Edit("insert", named, (run[0].first, run[-1].last), (at, added),
                        self.section(b), text, len(b.tokens))
        return Edit("insert", named, None, (at, added), self.section(b), text, len(b.tokens))

    @staticmethod
    def held(b, theirs):
        """The book's statements that statement b holds (its block)."""
        after = theirs[theirs.index(b) + 1:] if b in theirs else []
        held = []
        for s in after:
            if s.depth <= b.depth:
                break
            held.append(s)
        return held

    def renamed(self, unit, book_unit):
        """A hook of Pygame Zero's whose parameters have other names than
        Pygame Zero hands over: each renamed to the book's, everywhere in it."""
        names = dict(zip(unit.params, book_unit.params))
        first, last = unit.body[0].first, unit.body[-1].last
        lines = self.source.splitlines()[first - 1:last]
        text = "\n".join(lines)
        new = "".join(names.get(m.group(), m.group()) if m.lastgroup == "name" else m.group()
                      for m in TOKEN.finditer(text))
        book_def = self.text_of(book_unit.body[0])
        return Edit("rename", first, (first, last), (last, new.split("\n")),
                    self.section(book_unit.body[0]), book_def, 1)

    def move(self, a, after, b, body, held=()):
        """The student's statement a moved to where the book has it (with
        what it holds, a statement that holds others), at the book's depth."""
        text = self.text_of(b)
        last = self.end_of(a, body) if held else a.last
        if after is not None and a.first <= after.first <= last:
            return None
        at = after.last if after is not None else self.top_of_program()
        lines = self.source.splitlines()[a.first - 1:last]
        moved = [self.shifted(line, b.depth - a.depth) for line in lines]
        return Edit("move", a.first, (a.first, last), (at, moved), self.section(b), text, 1)

    def near_section(self, a, body):
        """The section of the book's statement nearest before a, lined up."""
        unit_book = self.book_units[self.pairs.get(self.unit_of(a), "")] \
            if self.unit_of(a) in self.pairs else None
        if unit_book is None or not unit_book.body:
            return ""
        return self.section(unit_book.body[0])

    def unit_of(self, a):
        """The name of the student's function that holds statement a."""
        for name, unit in self.units.items():
            if any(s is a for s in unit.body):
                return name
        return ""

    def top_of_program(self):
        """The line after which a module statement missing at the start goes:
        after the imports and the coding line."""
        last = 0
        for s in self.units[""].body:
            if s.head() in ("import", "from"):
                last = s.last
            else:
                break
        return last


def runs(shifted, body):
    """The pairs (student's statement, book's) whose depths differ, in runs
    of statements in a row out by the same number of levels."""
    found = []
    for a, b in shifted:
        shift = b.depth - a.depth
        if found and body.index(a) == body.index(found[-1][-1][0]) + 1 and \
                found[-1][-1][1].depth - found[-1][-1][0].depth == shift:
            found[-1].append((a, b))
        else:
            found.append([(a, b)])
    return found


def join_words(words):
    """Words as Python writes them: no space around a dot or inside brackets."""
    text = ""
    for word in words:
        if text and not (word in ".,:)]" or text[-1] in ".([" or (
                word in "([" and (text[-1].isalnum() or text[-1] in "_)]"))):
            text += " "
        text += word
    return text


def shape_words(text):
    """The words of a line of text."""
    return [m.group() for m in TOKEN.finditer(text) if m.lastgroup not in (
        "space", "comment", "newline")]


def changed_words(a, b):
    """How many words differ between two statements."""
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in matcher.get_opcodes()
               if tag != "equal")


def indent_unit(found):
    """The student's own indentation step (four spaces, two, a tab ...)."""
    steps = collections.Counter()
    for a, b in zip(found, found[1:]):
        if b.depth == a.depth + 1 and b.indent.startswith(a.indent):
            steps[b.indent[len(a.indent):]] += 1
    return steps.most_common(1)[0][0] if steps else "    "


def apply(source, edit):
    """The program's text with one edit made."""
    lines = source.splitlines()
    newline = "\r\n" if "\r\n" in source else "\n"
    after, added = edit.add
    if edit.remove is not None:
        first, last = edit.remove
        if first <= after:
            lines[first - 1:last] = []
            after = after - (last - first + 1) if after >= last else first - 1
            if edit.kind in ("replace", "indent"):
                after = first - 1
        else:
            lines[first - 1:last] = []
    lines[after:after] = added
    return newline.join(lines) + newline


# The book's stages, read once, before any program runs (a checked program
# cannot read this folder): {step: statements}.
STAGES = {}


def read_all():
    """Read every stage of the book now; False if the steps are not there
    (then nothing is lined up, and no line is proven)."""
    try:
        for number in range(1, len(STEPS) + 1):
            stage(number)
    except (OSError, KeyError, IndexError, ValueError):
        STAGES.clear()
        return False
    return True
