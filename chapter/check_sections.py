"""The chapter's sections 3.1.2 to 3.4.2, checked on a student's program.

check.py runs this module in a child process (check_sandbox.py's server),
which forks one confined process per program: it loads the program as
pgzrun does, headless (check_program.py), and checks what the program does
on boards it lays itself. Each finding is a key of check_texts.json with
its facts, so the words (Chinese or English) are chosen by check.py, not
here. A section that fails is written at once; then the repair search
(check_repair.py) looks for the line whose change makes it pass.
"""
import ast
import os
import sys

import check_book
import check_causes
import check_sandbox
from check_program import (BOARD, BOMB_TILE, BOMBS, CALL_SECONDS, COLS, CPU_SECONDS, FILE_BYTES,
                           LAST, LEFT, MEMORY, NUMBER_TILE, OPEN_ALL, PLACE_FIELDS, RIGHT, ROWS,
                           SECTIONS, SIZE, WINNING, Fail, FakeTile, Limit, Program, Stopped, Todo,
                           blame, in_function, with_code)
from check_repair import Unloaded, keeps_line, repaired

# The eight neighbours, in the book's order of its eight comparisons.
DIRECTIONS = [(0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (-1, 1), (1, -1), (1, 1)]
DIRECTION_KEYS = {(0, -1): "left", (0, 1): "right", (-1, 0): "up", (1, 0): "down",
                  (-1, -1): "up_left", (-1, 1): "up_right", (1, -1): "down_left",
                  (1, 1): "down_right"}


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




def section_313(program):
    """3.1.3: 15 x 15 Actor tiles of 25 px, in rows and columns, drawn."""
    mod = program.mod or program.load()    # the same load as the section before
    grid = program.tiles(mod)
    for tile in program.tile_list(mod):
        if (tile.width, tile.height) != (SIZE, SIZE):
            raise Fail("tile_size", program.lines.of_call("Actor"),
                       size="%s x %s" % (tile.width, tile.height))
    if set(grid) != {(r, c) for r in range(ROWS) for c in range(COLS)}:
        lefts = sorted({tile.left for tile in grid.values()})
        tops = sorted({tile.top for tile in grid.values()})
        if len(lefts) == COLS and len(tops) == ROWS and all(
                b - a == SIZE for places in (lefts, tops) for a, b in zip(places, places[1:])):
            # In rows and columns, but all moved (x set where the book sets left).
            raise Fail("tile_shifted", program.lines.of_name("left", None) or
                       program.lines.of_call("Actor"), left=nice(lefts[0]), top=nice(tops[0]))
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


def nice(number):
    """A number as a student writes it (12.5, or 0 rather than 0.0)."""
    return int(number) if number == int(number) else number


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
        if shuffle is not None and bury is not None and shuffle > bury:
            # There, but after the bombs are buried: too late to mix them.
            raise Fail("shuffle_after", shuffle, bury=bury)
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
    # The book's test has eight comparisons, and the words can say which
    # kind of slip to look for in them; a test of the student's own is told
    # only what it found (plain).
    plain = len(program.lines.conditions(program.name_of("get_neighbours"))) != 8
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
        facts = {"row": place[0] + 1, "col": place[1] + 1, "plain": plain}
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
        repaired(program, 0, f, write, options, sys.modules[__name__])
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
        repaired(program, index, outcome, write, options, sys.modules[__name__])
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


def quiet_env():
    """Headless and quiet: set before pygame is imported."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"


def check_here(path, work_file, write, confined, options=None):
    """In the program's own process: limits, pygame started, the checker's
    folder off the path, and the program checked."""
    check_sandbox.limit_memory(MEMORY, CPU_SECONDS, FILE_BYTES)
    import pygame  # noqa: F401  (started here, before the student's program)
    import pgzero.runner  # noqa: F401
    check_sandbox.speed_up_actors()
    with open(work_file, "rb") as f:
        if b"tkinter" in f.read():
            check_sandbox.stoppable_tk(Limit.check)
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
