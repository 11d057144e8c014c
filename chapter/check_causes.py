"""Where a student's slip is: the statements of a program that may be the
cause of what a section saw, found by reading the program, not running it.

check_sections.py runs the program and sees what goes wrong (a tile not
opened, a crash); this module reads the program's text and finds the
statements that can make it so: one of the book's statements standing in
another place than in the book (under a return, out of its loop, at column
0), a comparison written where the book assigns, `=+` for `+=`, a function
calling itself with its own tile, a tile's place worked out from the other
loop's number, a tile's field set under a misspelt name. Each is a Cause:
its line, the key of its words in check_texts.json, its facts, and the
book's function it stands in. Nothing here imports pygame or runs the
student's code.
"""
import ast
import collections
import difflib

# The book's program, as printed at the end of the chapter, without its
# comments: what a student's statements are compared with.
BOOK = '''
import random
BOMBS = 20
ROWS = 15
COLS = 15
SIZE = 25
WIDTH = SIZE * COLS
HEIGHT = SIZE * ROWS
failed = False
finished = False
blocks = []
for i in range(ROWS):
    for j in range(COLS):
        block = Actor("minesweep_block")
        block.left = j * SIZE
        block.top = i * SIZE
        block.isbomb = False
        block.isopen = False
        block.isflag = False
        blocks.append(block)
random.shuffle(blocks)
for i in range(BOMBS):
    blocks[i].isbomb = True
def update():
    global finished
    if finished or failed:
        return
    for block in blocks:
        if not block.isbomb and not block.isopen:
            return
    finished = True
    sounds.win.play()
def draw():
    for block in blocks:
        block.draw()
    if finished:
        screen.draw.text("Finished", center=(WIDTH // 2, HEIGHT // 2),
                         fontsize=100, color="red")
    elif failed:
        screen.draw.text("Failed", center=(WIDTH // 2, HEIGHT // 2),
                         fontsize=100, color="red")
def on_mouse_down(pos, button):
    if failed or finished:
        return
    for block in blocks:
        if block.collidepoint(pos) and not block.isopen:
            if button == mouse.RIGHT:
                set_flag(block)
            elif button == mouse.LEFT and not block.isflag:
                if block.isbomb:
                    blow_up()
                else:
                    open_block(block)
def set_flag(block):
    if not block.isflag:
        block.image = "minesweep_flag"
        block.isflag = True
    else:
        block.image = "minesweep_block"
        block.isflag = False
def blow_up():
    global failed
    failed = True
    sounds.bomb.play()
    for i in range(BOMBS):
        blocks[i].image = "minesweep_bomb"
def open_block(bk):
    bk.isopen = True
    bombnum = get_bomb_number(bk)
    bk.image = "minesweep_number" + str(bombnum)
    if bombnum != 0:
        return
    for block in get_neighbours(bk):
        if not block.isopen:
            open_block(block)
def get_bomb_number(bk):
    num = 0
    for block in get_neighbours(bk):
        if block.isbomb:
            num += 1
    return num
def get_neighbours(bk):
    nblocks = []
    for block in blocks:
        if block.isopen:
            continue
        if block.x == bk.x - SIZE and block.y == bk.y:
            nblocks.append(block)
    return nblocks
'''
# (The book writes `elif failed:` in its listing and `if failed:` in 3.4.1:
# an elif written as an if of its own, or the other way round, is no slip.
# Its get_neighbours' eight comparisons are judged by check_sections itself.)

# The fields the book gives a tile.
TILE_FIELDS = ("left", "top", "isbomb", "isopen", "isflag", "image")
# The book's constants and their values: a student may name them otherwise.
BOOK_CONSTANTS = {"BOMBS": 20, "ROWS": 15, "COLS": 15, "SIZE": 25}

Cause = collections.namedtuple("Cause", "line key facts func")

# A plain value written in a program: Python 3.8 and newer read each as
# ast.Constant; 3.7 (Thonny 3.3's) as Num, Str or NameConstant.
CONSTANTS = ("Constant", "Num", "Str", "Bytes", "NameConstant")


def is_constant(node):
    """Whether node is a value written as it is (a number, a text, True)."""
    return type(node).__name__ in CONSTANTS


def constant(node):
    """The value of a node that is_constant says is one."""
    for field in ("value", "n", "s"):
        if hasattr(node, field):
            return getattr(node, field)
    return None


def end_line(node):
    """The last line of a statement (Python 3.7's ast has no end_lineno:
    there, the last line any part of it starts on)."""
    last = getattr(node, "end_lineno", None)
    if last is not None:
        return last
    return max(getattr(n, "lineno", 0) for n in ast.walk(node))
# The keys of a Cause that is one of the book's statements out of place.
MOVED = ("cause_outside_def", "cause_other_def", "cause_else_missing", "cause_in_if_not_else",
         "cause_indent_in",
         "cause_indent_out", "cause_moved", "cause_below_return")


# ------------------------------------------------ statements and places


def signature(node):
    """What a statement says, leaving out the statements inside it: the
    same text in the book and in a student's program gives the same
    signature, wherever it stands."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return "def " + node.name
    if isinstance(node, (ast.For, ast.While, ast.If)):
        parts = [type(node).__name__]
        for field in ("target", "iter", "test"):
            if hasattr(node, field):
                parts.append(ast.dump(getattr(node, field)))
        return "|".join(parts)
    if isinstance(node, ast.stmt):
        return ast.dump(node)
    return None


def has_exit(node):
    """Whether a statement holds a return, continue or break of its own
    function or loop (not of a function defined inside it)."""
    for child in ast.walk(node):
        if isinstance(child, (ast.Return, ast.Continue, ast.Break)):
            return True
    return False


class Place(collections.namedtuple("Place", "node func chain exits holders")):
    """Where a statement stands: its function ('' at module level), the
    compound statements around it from the outside in (their kind and
    branch), how many statements before it in its block can leave early,
    and the nodes of those compound statements."""


def places(tree):
    """Every statement of a module with its Place, in the order of the text."""
    found = []

    def visit(body, func, chain, holders):
        """The statements of one block, and the blocks inside them."""
        exits = 0
        for node in body:
            found.append(Place(node, func, tuple(chain), exits, tuple(holders)))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(node.body, node.name, [], [])
            elif isinstance(node, (ast.For, ast.While, ast.If)):
                kind = type(node).__name__
                visit(node.body, func, chain + [(kind, "body")], holders + [node])
                visit(node.orelse, func, chain + [(kind, "else")], holders + [node])
            if has_exit(node) and not isinstance(node, (ast.FunctionDef, ast.For, ast.While)):
                exits += 1
    visit(tree.body, "", [], [])
    return found


def unique(found):
    """{(function, signature): Place} for the statements whose signature is
    there once in their function, and {signature: Place} for those there
    once in the whole program."""
    in_func = collections.Counter((p.func, signature(p.node)) for p in found)
    anywhere = collections.Counter(signature(p.node) for p in found)
    return ({(p.func, signature(p.node)): p for p in found
             if in_func[(p.func, signature(p.node))] == 1},
            {signature(p.node): p for p in found if anywhere[signature(p.node)] == 1})


BOOK_LINES = BOOK.splitlines()
BOOK_PLACES = unique(places(ast.parse(BOOK)))


def book_text(node):
    """A statement's first line in the book, as printed."""
    return BOOK_LINES[node.lineno - 1].strip()


def misplaced(found, lines):
    """Causes: the book's statements that stand elsewhere in the student's
    program than in the book: in another function or at column 0, in or
    out of a loop or an if, without its else, below a return. Only the
    outermost of a group is named (an `if` at column 0 takes its body with
    it). Each names the book's statement (fact "book")."""
    causes, moved = [], set()
    by_func, by_sig = BOOK_PLACES
    for (func, sig), place in unique(found)[0].items():
        book = by_func.get((func, sig)) or by_sig.get(sig)
        if book is None or isinstance(place.node, ast.FunctionDef):
            continue
        if any(id(holder) in moved for holder in place.holders):
            continue
        facts = {"code": lines.text(place.node.lineno), "func": book.func,
                 "book": book_text(book.node)}
        if (place.func, plain_chain(place)) != (book.func, plain_chain(book)):
            moved.add(id(place.node))
            causes.append(where_it_belongs(place, book, facts, lines))
        elif place.exits > book.exits == 0:
            causes.append(Cause(place.node.lineno, "cause_below_return", facts, place.func))
    return causes


def plain_steps(place):
    """A Place's chain as (kind, branch, holder), with the step into an
    else that holds only an if (an elif) left out: an elif written as an
    if of its own, or the other way round, stands in the same place."""
    steps = []
    for (kind, branch), holder in zip(place.chain, place.holders):
        if branch == "else" and len(holder.orelse) == 1 and isinstance(
                holder.orelse[0], ast.If):
            continue
        steps.append((kind, branch, holder))
    return steps


def plain_chain(place):
    """The kinds and branches of a Place's plain steps."""
    return tuple((kind, branch) for kind, branch, _ in plain_steps(place))


def where_it_belongs(place, book, facts, lines):
    """The Cause for a statement of the book's that stands elsewhere."""
    if place.func != book.func:
        facts["other"] = place.func
        key = "cause_outside_def" if not place.func else "cause_other_def"
        return Cause(place.node.lineno, key, facts, place.func)
    mine, theirs = plain_steps(place), plain_steps(book)
    kinds_mine, kinds_theirs = plain_chain(place), plain_chain(book)
    if len(mine) == len(theirs) and kinds_mine[:-1] == kinds_theirs[:-1] and \
            kinds_mine[-1] == (kinds_theirs[-1][0], "body") and kinds_theirs[-1][1] == "else":
        facts["holder"] = book_text(theirs[-1][2])
        return Cause(place.node.lineno, "cause_in_if_not_else", facts, place.func)
    if kinds_mine == kinds_theirs[:len(mine)]:
        kind, branch, holder = theirs[len(mine)]
        facts["holder"] = book_text(holder)
        key = "cause_else_missing" if branch == "else" else "cause_indent_in"
    elif kinds_theirs == kinds_mine[:len(theirs)]:
        facts["holder"] = lines.text(mine[len(theirs)][2].lineno)
        key = "cause_indent_out"
    else:
        facts["holder"] = book_text(theirs[-1][2]) if theirs else ""
        key = "cause_moved"
    return Cause(place.node.lineno, key, facts, place.func)


# ------------------------------------------------ slips of one statement


class Lines:
    """The program's lines, to quote them."""

    def __init__(self, source):
        self.all = source.splitlines()

    def text(self, line):
        """Line number line (from 1), without its indent and comment."""
        if not 1 <= line <= len(self.all):
            return ""
        text = self.all[line - 1]
        if "#" in text and '"' not in text and "'" not in text:
            text = text.split("#", 1)[0]
        return text.strip()


def functions(tree):
    """{name: def node} of the module's functions (the first of each name)."""
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            found.setdefault(node.name, node)
    return found


def func_of(tree, line):
    """The name of the function whose text holds line ('' if none)."""
    best, depth = "", -1
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.lineno <= line <= end_line(node):
            if node.lineno > depth:
                best, depth = node.name, node.lineno
    return best


def bare_comparisons(tree, lines):
    """Causes: `x == value` standing alone as a statement, which changes
    nothing (the book assigns there, with one =)."""
    causes = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Compare) and \
                len(node.value.ops) == 1 and isinstance(node.value.ops[0], ast.Eq):
            code = lines.text(node.lineno)
            name, _, value = code.partition("==")
            causes.append(Cause(node.lineno, "cause_compare_not_assign", {
                "code": code, "name": name.strip(), "value": value.strip()},
                func_of(tree, node.lineno)))
    return causes


def plus_equals(tree, lines):
    """Causes: `num =+ 1` (num becomes +1) where `num += 1` adds one."""
    causes = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.UnaryOp) and \
                isinstance(node.value.op, (ast.UAdd, ast.USub)) and len(node.targets) == 1:
            code = lines.text(node.lineno)
            sign = "+" if isinstance(node.value.op, ast.UAdd) else "-"
            if "=" + sign in code.replace(" ", ""):
                causes.append(Cause(node.lineno, "cause_plus_equals", {
                    "code": code, "name": code.split("=", 1)[0].strip(), "sign": sign},
                    func_of(tree, node.lineno)))
    return causes


def calls_itself_with_its_tile(tree, lines):
    """Causes: a function that, in a loop over other tiles, calls itself
    with its own tile (open_block(bk) for open_block(block))."""
    causes = []
    for func in functions(tree).values():
        if not func.args.args:
            continue
        param = func.args.args[0].arg
        for loop in ast.walk(func):
            if not isinstance(loop, ast.For) or not isinstance(loop.target, ast.Name):
                continue
            for node in ast.walk(loop):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                        node.func.id == func.name and node.args and isinstance(
                        node.args[0], ast.Name) and node.args[0].id == param != \
                        loop.target.id:
                    causes.append(Cause(node.lineno, "cause_calls_itself_with_own", {
                        "code": lines.text(node.lineno), "func": func.name,
                        "param": param, "tile": loop.target.id}, func.name))
    return causes


def scopes(tree):
    """The module and each function: the places loops are counted in."""
    return [tree] + list(functions(tree).values())


def loops_in(scope):
    """The for loops of one scope (not those of functions inside it)."""
    found = []
    for node in ast.walk(scope):
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            found.append(node)
    return found


def other_loop_variable(tree, lines):
    """Causes: a loop over i that picks blocks[j], j being another loop's
    variable (left over from it, the same number every time)."""
    causes = []
    for scope in scopes(tree):
        loops = loops_in(scope)
        for loop in loops:
            others = {other.target.id for other in loops if other is not loop and not (
                other.lineno <= loop.lineno <= end_line(other))}
            others.discard(loop.target.id)
            for node in ast.walk(loop):
                if isinstance(node, ast.Subscript):
                    index = node.slice.value if hasattr(ast, "Index") and isinstance(
                        node.slice, ast.Index) else node.slice
                    if isinstance(index, ast.Name) and index.id in others and \
                            index.id not in names_in(loop.iter):
                        causes.append(Cause(node.lineno, "cause_other_loop_var", {
                            "code": lines.text(node.lineno), "used": index.id,
                            "loopvar": loop.target.id}, func_of(tree, node.lineno)))
    return causes


def parameter_in_loop(tree, lines):
    """Causes: in a loop over the tiles around bk, a test of bk itself
    (bk.isbomb) where the book tests each tile of the loop (block.isbomb)."""
    causes = []
    for func in functions(tree).values():
        if not func.args.args:
            continue
        param = func.args.args[0].arg
        for loop in loops_in(func):
            tile = loop.target.id
            if tile == param:
                continue
            for node in ast.walk(loop):
                if isinstance(node, ast.If) and node is not loop:
                    used = names_in(node.test)
                    if param in used and tile not in used:
                        causes.append(Cause(node.lineno, "cause_parameter_in_loop", {
                            "code": lines.text(node.lineno), "param": param, "tile": tile,
                            "func": func.name}, func.name))
    return causes


def tile_parameter(tree, func):
    """The name of func's one parameter (the book's bk), or None."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == func and \
                len(node.args.args) == 1:
            return node.args.args[0].arg
    return None


def loop_variable_of(tree, func, name):
    """Whether name is the variable of a for loop in func."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == func:
            return any(isinstance(n, ast.For) and isinstance(n.target, ast.Name) and
                       n.target.id == name for n in ast.walk(node))
    return False


def tile_loops(tree):
    """The loops that make the tiles: (outer For, inner For) at module level
    whose inner body makes an Actor, or None."""
    for node in tree.body:
        if isinstance(node, ast.For):
            for inner in node.body:
                if isinstance(inner, ast.For) and any(
                        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and
                        n.func.id == "Actor" for n in ast.walk(inner)):
                    return node, inner
    return None


def range_runs(call, constants):
    """How many times range(...) in call runs, its arguments worked out
    from numbers and constants; None where that cannot be told."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and
            call.func.id == "range" and 1 <= len(call.args) <= 3 and not call.keywords):
        return None
    try:
        values = [value_of(arg, constants) for arg in call.args]
        return len(range(*values))
    except (TypeError, ValueError, ZeroDivisionError):
        return None


def value_of(node, constants):
    """The whole number an expression of numbers, constants, + and - makes."""
    if is_constant(node) and type(constant(node)) is int:
        return constant(node)
    if isinstance(node, ast.Name) and node.id in constants:
        return constants[node.id]
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        left, right = value_of(node.left, constants), value_of(node.right, constants)
        return left + right if isinstance(node.op, ast.Add) else left - right
    raise TypeError("not a plain number")


def module_numbers(tree):
    """The program's module-level constants that are whole numbers."""
    numbers = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], ast.Name) and is_constant(node.value) and \
                type(constant(node.value)) is int:
            numbers[node.targets[0].id] = constant(node.value)
    return numbers


def tile_ranges(tree, lines):
    """Causes: a loop making the tiles that runs too few or too many times
    (range(1, ROWS) makes 14 rows; the book's range(ROWS) makes 15)."""
    loops = tile_loops(tree)
    if loops is None:
        return []
    constants = module_numbers(tree)
    causes = []
    for loop, axis, book in zip(loops, ("row", "col"), ("ROWS", "COLS")):
        if "COLS" in names_in(loops[0].iter):
            axis, book = {"row": ("col", "COLS"), "col": ("row", "ROWS")}[axis]
        want = BOOK_CONSTANTS[book]
        runs = range_runs(loop.iter, constants)
        if runs is not None and runs != want:
            causes.append(Cause(loop.lineno, "cause_tile_range", {
                "code": lines.text(loop.lineno), "runs": runs, "want": want,
                "axis": axis, "book": book, "last": want - 1}, ""))
    return causes


def last_line_without_return(tree, func):
    """The last line of func if it gives nothing back (no return with a
    value anywhere in it): where the book's return goes. None otherwise."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == func:
            if any(isinstance(n, ast.Return) and n.value is not None
                   for n in ast.walk(node)):
                return None
            return end_line(node.body[-1])
    return None


def names_in(node):
    """The plain names an expression uses."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def place_index(tree, lines):
    """Causes: a tile's left worked out from the row's number, or its top
    from the column's (the book: left = j * SIZE, top = i * SIZE)."""
    loops = tile_loops(tree)
    if loops is None:
        return []
    outer, inner = loops
    if not isinstance(outer.target, ast.Name) or not isinstance(inner.target, ast.Name):
        return []
    row, col = outer.target.id, inner.target.id
    # Whichever loop runs over COLS gives the column, as the book's j does.
    if "COLS" in names_in(outer.iter) and "ROWS" in names_in(inner.iter):
        row, col = col, row
    want = {"left": (col, row), "top": (row, col), "x": (col, row), "y": (row, col)}
    causes = []
    for node in ast.walk(inner):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], ast.Attribute) and node.targets[0].attr in want:
            right, wrong = want[node.targets[0].attr]
            used = names_in(node.value)
            if wrong in used and right not in used:
                causes.append(Cause(node.lineno, "cause_place_index", {
                    "code": lines.text(node.lineno), "field": node.targets[0].attr,
                    "right": right, "wrong": wrong,
                    "axis": "row" if node.targets[0].attr in ("top", "y") else "col"}, ""))
    return causes


def tile_field_typos(tree, lines):
    """Causes: a tile's field set under a name close to one of the book's
    (block.isopne = False) where the book's name is not set in the same
    function (or at module level, where the tiles are made)."""
    stored = collections.defaultdict(list)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            stored[(func_of(tree, node.lineno), node.attr)].append(node.lineno)
    causes = []
    for (func, name), at in sorted(stored.items()):
        if name in TILE_FIELDS:
            continue
        near = difflib.get_close_matches(name, TILE_FIELDS, 1, 0.7)
        same_but_case = [field for field in TILE_FIELDS if field.lower() == name.lower()]
        if same_but_case:
            near = same_but_case            # isFlag for isflag: another name to Python
        if near and (same_but_case or (func, near[0]) not in stored):
            causes.append(Cause(at[0], "cause_field_typo", {
                "code": lines.text(at[0]), "typo": name, "name": near[0]}, func))
    return causes


def enclosing_loop(tree, line):
    """The line of the innermost for or while loop whose text holds line
    (line itself if none does): where an endless loop is named."""
    best = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.While)) and node.lineno <= line <= end_line(node):
            if best is None or node.lineno > best.lineno:
                best = node
    return best.lineno if best is not None else line


def own_constant(tree, book_name):
    """(name, line) of a module-level constant the student made with the
    value the book gives book_name, under another name; or None."""
    value = BOOK_CONSTANTS.get(book_name)
    if value is None:
        return None
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], ast.Name) and is_constant(node.value) and \
                constant(node.value) == value and node.targets[0].id != book_name and \
                node.targets[0].id not in BOOK_CONSTANTS:
            return node.targets[0].id, node.lineno
    return None


# ------------------------------------------------ Thonny's notes


def pgzrun_notes(tree):
    """Notes on how the program starts in Thonny: `import pgzrun` without
    `pgzrun.go()` at the end, or pgzrun.go() before the end."""
    imported = [node.lineno for node in tree.body if isinstance(node, ast.Import) and any(
        alias.name == "pgzrun" for alias in node.names)]
    goes = [node for node in tree.body if isinstance(node, ast.Expr) and isinstance(
        node.value, ast.Call) and isinstance(node.value.func, ast.Attribute) and
        node.value.func.attr == "go" and isinstance(node.value.func.value, ast.Name) and
        node.value.func.value.id == "pgzrun"]
    notes = []
    if imported and not goes:
        notes.append(("note_no_go", imported[0], {}))
    if goes and tree.body[-1] is not goes[-1]:
        notes.append(("note_go_not_last", goes[-1].lineno, {}))
    return notes


# ------------------------------------------------ all of them


class Causes:
    """Everything in one program that may cause a section to fail."""

    def __init__(self, tree, source):
        self.tree = tree
        self.lines = Lines(source)
        found = places(tree)
        self.all = (calls_itself_with_its_tile(tree, self.lines) +
                    parameter_in_loop(tree, self.lines) +
                    other_loop_variable(tree, self.lines) +
                    bare_comparisons(tree, self.lines) + plus_equals(tree, self.lines) +
                    place_index(tree, self.lines) + tile_ranges(tree, self.lines) +
                    tile_field_typos(tree, self.lines) +
                    misplaced(found, self.lines))

    def find(self, funcs, books=None, keys=None):
        """The first Cause standing in one of funcs (in funcs' order; ''
        for module level), of one of keys if given; a statement out of
        place counts only if it is one of books (the book's own lines) when
        books is given. None if there is none."""
        for func in funcs:
            for cause in self.all:
                if cause.func != func or (keys is not None and cause.key not in keys):
                    continue
                if cause.key in MOVED and books is not None and \
                        cause.facts.get("book") not in books:
                    continue
                return cause
        return None
