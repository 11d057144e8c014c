"""The lesson steps in chapter/: the book's program, section by section.

Each step is the one before plus the lines its section of the book adds,
marked "# NEW"; lines that are not the book's carry "# FIX", "# PEEK" or
"# RUN". The book's whole program is written out below (without its Chinese
comments) so the tests can hold every step against it, and every step runs
as pgzrun runs it and does what its section promises."""
import difflib
import filecmp
import io
import json
import os
import re
import sys
import tokenize

import pgzero.loaders
import pygame
import pytest

from loadgame import CHAPTER, ROOT, load_game, with_screen
from test_mainloop import click, run_loop

STEPS = ["step01_tiles.py", "step02_bombs_first.py", "step03_shuffle.py",
         "step04_right_click.py", "step05_flag_pass.py", "step06_flags.py",
         "step07_left_click.py", "step08_recursion.py", "step09_lose.py",
         "step10_win.py", "step11_fixes.py"]
BOOK_STEPS = STEPS[:-1]
LAST_BOOK_STEP, FIXES = "step10_win.py", "step11_fixes.py"
SIZE = 25
MARK = re.compile(r"# (NEW|PEEK|RUN|FIX [a-f])$")

# The book's whole program, its code lines in its order, as its listing at
# the end of the chapter prints them (its comments are left out).
BOOK = r'''
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
        if not block.isopen :
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
        if block.x == bk.x - SIZE and block.y == bk.y \
          or block.x == bk.x + SIZE and block.y == bk.y \
          or block.x == bk.x and block.y == bk.y - SIZE \
          or block.x == bk.x and block.y == bk.y + SIZE \
          or block.x == bk.x - SIZE and block.y == bk.y - SIZE \
          or block.x == bk.x + SIZE and block.y == bk.y - SIZE \
          or block.x == bk.x - SIZE and block.y == bk.y + SIZE \
          or block.x == bk.x + SIZE and block.y == bk.y + SIZE :
            nblocks.append(block)
    return nblocks
'''.strip("\n").splitlines()

# The lines each section of the book shows first (or prints in bold), in
# the order they stand in the program.
BOOK_NEW = {
    "step01_tiles.py": BOOK[2:7] + BOOK[9:15] + BOOK[18:19] + BOOK[31:34],
    "step02_bombs_first.py": BOOK[1:2] + BOOK[15:16] + BOOK[20:22],
    "step03_shuffle.py": BOOK[0:1] + BOOK[19:20],
    "step04_right_click.py": BOOK[40:41] + BOOK[43:44] + [
        "        if block.collidepoint(pos):"] + BOOK[45:47],
    "step05_flag_pass.py": ["def set_flag(block):", "    pass"],
    "step06_flags.py": BOOK[17:18] + BOOK[53:59],
    "step07_left_click.py": BOOK[16:17] + BOOK[44:45] + BOOK[47:52] + [
        "def blow_up():", "    pass", "def open_block(bk):", "    pass"],
    "step08_recursion.py": BOOK[66:95],
    "step09_lose.py": BOOK[7:8] + ["    if failed:"] + BOOK[38:40] + BOOK[60:65],
    "step10_win.py": BOOK[8:9] + BOOK[22:31] + BOOK[34:38] + BOOK[41:43],
    "step11_fixes.py": [],
}

# Lines of code a step may take away, besides "pass" placeholders and PEEK
# lines: a line the book itself rewrites, or in the fixes step the book's
# lines that a fix replaces.
REWRITTEN = {
    "step07_left_click.py": ["if block.collidepoint(pos):"],
    "step10_win.py": ["if failed:"],
    "step11_fixes.py": ["if not block.isopen :", "for i in range(BOMBS):",
                        'blocks[i].image = "minesweep_bomb"'] + [
        line.strip() for line in BOOK[85:93]],
}


def source(step):
    """The text of a step."""
    with open(os.path.join(CHAPTER, step), encoding="ascii") as f:
        return f.read()


def lines_of(step):
    """Each line of code of a step as (text without its comment, mark).

    A line that ends in a backslash goes on in the next line, so its mark
    is the mark at the end of the statement. Comments and blanks are left out.
    """
    text = source(step)
    comments = {}
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0] - 1] = token
    found = []
    for index, line in enumerate(text.splitlines()):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        mark = None
        if index in comments:
            comment = comments[index].string
            assert not ("NEW" in comment and "FIX" in comment), (step, line)
            marked = MARK.search(comment)
            mark = marked.group(1) if marked else None
            line = line[:comments[index].start[1]]
        found.append([line.rstrip(), mark])
    for index in reversed(range(len(found) - 1)):
        if found[index][0].endswith("\\"):
            found[index][1] = found[index + 1][1]
    return [tuple(item) for item in found]


def book_lines(step):
    """The step's code that is the book's: no FIX, PEEK or RUN lines."""
    return [line for line, mark in lines_of(step) if mark in (None, "NEW")]


def load_step(step, edit=None):
    """Load a step as pgzrun loads it (its own images/ and sounds/)."""
    return load_game(step[:-3], os.path.join(CHAPTER, step), edit=edit)


@pytest.fixture(autouse=True)
def recursion_limit_kept():
    """Put Python's recursion limit back: the fixes step sets its own."""
    limit = sys.getrecursionlimit()
    yield
    sys.setrecursionlimit(limit)


def place(block):
    """(row, col) of a step's block, from where it is drawn."""
    return block.top // SIZE, block.left // SIZE


def block_of(mod, row, col):
    """A step's block at this row and column (the list is shuffled)."""
    return next(b for b in mod.blocks if place(b) == (row, col))


def lay(mod, cells, in_front=True):
    """Put a step's bombs exactly at these (row, col) cells.

    in_front keeps what the book's program keeps: the bombs are the first
    blocks of the list (its blow_up shows blocks[0] to blocks[BOMBS - 1]).
    """
    for block in mod.blocks:
        block.isbomb = place(block) in cells
    if in_front:
        mod.blocks.sort(key=lambda block: not block.isbomb)
    mod.BOMBS = len(cells)


def centre(row, col):
    """The window position of the middle of a block."""
    return col * SIZE + SIZE // 2, row * SIZE + SIZE // 2


def drawn(mod, row, col):
    """The pixels the window shows for one block."""
    area = pygame.Rect(col * SIZE, row * SIZE, SIZE, SIZE)
    return pygame.image.tobytes(mod.screen.surface.subsurface(area), "RGB")


def picture(name):
    """The pixels of one of the chapter's pictures, as the window has them."""
    image = pygame.image.load(os.path.join(CHAPTER, "images", name + ".png"))
    return pygame.image.tobytes(image.convert(), "RGB")


def test_the_files_sort_in_the_order_of_the_lesson():
    found = [name for name in os.listdir(CHAPTER) if name.endswith(".py")
             and not name.startswith("check")]
    assert sorted(found) == STEPS


@pytest.mark.parametrize("step", STEPS)
def test_each_step_is_ascii_and_says_its_section_and_how_to_run_it(step):
    text = source(step)
    compile(text, step, "exec")
    # Line 1 is the coding line and line 2 the title, as the book's listing begins.
    coding, title = text.splitlines()[:2]
    with open(os.path.join(CHAPTER, "handout_zh.json"), encoding="utf-8") as f:
        sections = {s["file"]: s["section"] for s in json.load(f)["steps"]}
    assert coding == "# -*- coding: utf-8 -*-"
    assert title.startswith("# Minesweeper source code, ")
    assert re.findall(r"3\.\d\.\d", title) == re.findall(r"3\.\d\.\d", sections[step])
    assert re.findall(r"3\.\d\.\d", title), title
    assert "step %s of %d" % (step[4:6], len(STEPS)) in title
    assert "pgzrun chapter/%s " % step in text
    assert "\n# FIX f: " in text
    code = lines_of(step)
    assert code[0] == ("import pgzrun", "RUN")
    assert code[-1] == ("pgzrun.go()", "RUN")
    assert [line for line, mark in code if mark == "RUN"] == ["import pgzrun", "pgzrun.go()"]


def test_the_last_book_step_is_the_books_program():
    ours = book_lines(LAST_BOOK_STEP)
    assert [line.strip() for line in ours] == [line.strip() for line in BOOK]
    # The same indentation too, but for the book's sounds, which sit one
    # step further in, under the FIX e line that asks for a sound card.
    fix_e = [line for line, mark in lines_of(LAST_BOOK_STEP) if mark == "FIX e"]
    assert fix_e == ["import pygame", "    if pygame.mixer.get_init():",
                     "    if pygame.mixer.get_init():"]
    for line, book in zip(ours, BOOK):
        if "sounds." in book:
            assert line == "    " + book
        else:
            assert line == book


@pytest.mark.parametrize("step", STEPS)
def test_each_step_marks_new_exactly_the_lines_its_section_shows(step):
    # (Their indentation is held against the book's whole program above.)
    new = [line.strip() for line, mark in lines_of(step) if mark == "NEW"]
    assert new == [line.strip() for line in BOOK_NEW[step]]


@pytest.mark.parametrize("before, after", list(zip(STEPS, STEPS[1:])))
def test_each_step_is_the_one_before_plus_marked_lines(before, after):
    old, new = lines_of(before), lines_of(after)
    matcher = difflib.SequenceMatcher(None, [line for line, _ in old],
                                      [line for line, _ in new], autojunk=False)
    removed = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for (_, was), (line, mark) in zip(old[i1:i2], new[j1:j2]):
                # A line kept keeps its mark, but NEW is only new once.
                assert mark == (None if was == "NEW" else was), (after, line)
        else:
            removed += [(line.strip(), mark) for line, mark in old[i1:i2]]
            for line, mark in new[j1:j2]:
                if after == FIXES:
                    assert mark in ("FIX a", "FIX b", "FIX c", "FIX d"), (after, line)
                else:
                    assert mark in ("NEW", "FIX e", "PEEK"), (after, line)
    gone = sorted(line for line, mark in removed if line != "pass" and mark != "PEEK")
    assert gone == sorted(REWRITTEN.get(after, [])), (after, gone)
    assert [line for line, mark in new if mark == "RUN"] == ["import pgzrun", "pgzrun.go()"]


def test_fixes_stay_apart_from_the_books_lines():
    for step in BOOK_STEPS:
        fixes = {mark for _, mark in lines_of(step) if mark and mark.startswith("FIX")}
        assert fixes <= {"FIX e"}, step
        if "sounds." in source(step):
            assert fixes == {"FIX e"}, step
    marks = {mark for _, mark in lines_of(FIXES)}
    assert {"FIX a", "FIX b", "FIX c", "FIX d", "FIX e"} <= marks
    assert "NEW" not in marks and "PEEK" not in marks
    # Every fix says why, in a comment just above its first line.
    text = source(FIXES)
    for letter in "abcd":
        assert re.search(r"\n *# FIX %s: .+\n" % letter, text), letter


def test_the_book_lines_the_chapter_talks_about_are_there():
    recursion = "\n".join(line for line, _ in lines_of("step08_recursion.py"))
    assert recursion.count("block.x == bk.x") == 8
    assert recursion.count("block.y == bk.y") == 8
    assert recursion.count(" \\\n") == 7
    for step in STEPS[6:-1]:
        assert "        if block.collidepoint(pos) and not block.isopen:" in book_lines(step)
    for step in ("step09_lose.py", "step10_win.py"):
        assert '        blocks[i].image = "minesweep_bomb"' in book_lines(step)
    fixed = "\n".join(line for line, _ in lines_of(FIXES))
    assert "block.x ==" not in fixed and "blocks[i].image" not in fixed


def test_the_chapter_pictures_and_sounds_are_the_games():
    for folder in ("images", "sounds"):
        names = os.listdir(os.path.join(CHAPTER, folder))
        assert names
        match, mismatch, errors = filecmp.cmpfiles(
            os.path.join(CHAPTER, folder), os.path.join(ROOT, folder), names,
            shallow=False)
        assert mismatch == [] and errors == []
    pictures = {name[:-4] for name in os.listdir(os.path.join(CHAPTER, "images"))}
    assert pictures == {"minesweep_block", "minesweep_flag", "minesweep_bomb"} | {
        "minesweep_number%d" % n for n in range(9)}


@pytest.mark.parametrize("step", STEPS)
def test_each_step_loads_and_draws_its_board(step):
    mod = load_step(step)
    with_screen(mod)
    assert (mod.ROWS, mod.COLS, mod.WIDTH, mod.HEIGHT) == (15, 15, 375, 375)
    assert sorted(place(b) for b in mod.blocks) == [
        (r, c) for r in range(15) for c in range(15)]
    mod.draw()
    shown_bombs = "# PEEK" in source(step)
    closed, bomb = picture("minesweep_block"), picture("minesweep_bomb")
    for block in mod.blocks:
        row, col = place(block)
        hidden = getattr(block, "isbomb", False) and shown_bombs
        assert drawn(mod, row, col) == (bomb if hidden else closed), (step, row, col)


def test_the_first_bombs_lie_under_the_first_20_blocks_and_show():
    boards = set()
    for _ in range(3):
        mod = load_step("step02_bombs_first.py")
        boards.add(frozenset(place(b) for b in mod.blocks if b.isbomb))
    first = {(0, col) for col in range(15)} | {(1, col) for col in range(5)}
    assert boards == {frozenset(first)}
    with_screen(mod)
    mod.draw()
    assert drawn(mod, 1, 4) == picture("minesweep_bomb")
    assert drawn(mod, 1, 5) == picture("minesweep_block")


def test_the_shuffle_lays_new_bombs_each_run_and_shows_them():
    boards = set()
    for _ in range(3):
        mod = load_step("step03_shuffle.py")
        bombs = frozenset(place(b) for b in mod.blocks if b.isbomb)
        assert len(bombs) == 20
        boards.add(bombs)
    assert len(boards) > 1
    with_screen(mod)
    mod.draw()
    for row, col in bombs:
        assert drawn(mod, row, col) == picture("minesweep_bomb")


def test_a_right_click_stops_at_the_missing_set_flag_as_the_book_says():
    mod = load_step("step04_right_click.py")
    pygame.event.clear()
    click(centre(3, 3), 1)                      # left: nothing yet
    assert run_loop(mod, frames=2) == 2
    mod = load_step("step04_right_click.py")
    pygame.event.clear()
    click(centre(3, 3), 3)
    with pytest.raises(NameError, match="set_flag"):
        run_loop(mod)


def test_the_placeholder_set_flag_lets_a_right_click_through():
    mod = load_step("step05_flag_pass.py")
    pygame.event.clear()
    click(centre(2, 3), 3)
    assert run_loop(mod) == 3
    assert all(b.image == "minesweep_block" for b in mod.blocks)


def test_a_right_click_puts_a_flag_on_and_takes_it_off():
    mod = load_step("step06_flags.py")
    target = block_of(mod, 2, 3)
    pygame.event.clear()
    click(centre(2, 3), 3)
    click(centre(9, 9), 3)
    click(centre(9, 9), 3)
    click(centre(5, 5), 1)                      # left: nothing yet
    assert run_loop(mod) == 3
    assert target.isflag and target.image == "minesweep_flag"
    assert [place(b) for b in mod.blocks if b.isflag] == [(2, 3)]
    assert [place(b) for b in mod.blocks if b.image != "minesweep_block"] == [(2, 3)]


def test_the_whole_click_reaches_the_placeholders_and_skips_open_blocks():
    mod = load_step("step07_left_click.py")
    lay(mod, {(0, 0)})
    block_of(mod, 4, 4).isopen = True           # as if open_block had opened it
    pygame.event.clear()
    click(centre(0, 0), 1)                      # blow_up: pass
    click(centre(8, 8), 1)                      # open_block: pass
    click(centre(4, 4), 3)                      # open: takes no flag
    click(centre(6, 6), 3)
    click(centre(6, 6), 1)                      # a flag: left does nothing
    assert run_loop(mod) == 3
    assert [place(b) for b in mod.blocks if b.isflag] == [(6, 6)]
    assert [place(b) for b in mod.blocks if b.isopen] == [(4, 4)]
    assert all(b.image == "minesweep_block" for b in mod.blocks if not b.isflag)


def flood_model(rows, cols, bombs, start, flags=()):
    """The blocks a click opens, worked out without the steps' code."""
    def number(cell):
        r, c = cell
        return sum((r + dr, c + dc) in bombs
                   for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    opened, todo = set(), [start]
    while todo:
        cell = todo.pop()
        if cell in opened or cell in flags:
            continue
        opened.add(cell)
        if number(cell) == 0:
            r, c = cell
            todo.extend((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                        if 0 <= r + dr < rows and 0 <= c + dc < cols)
    return {cell: number(cell) for cell in opened}


FENCE = {(0, 4), (1, 4), (2, 4), (3, 3), (4, 2), (4, 1), (4, 0), (9, 9),
         (12, 2), (7, 13)}


def flood(step, flag=(10, 10)):
    """Lay the fenced board, put a flag in the open area, click a corner."""
    mod = load_step(step)
    lay(mod, FENCE)
    pygame.event.clear()
    click(centre(*flag), 3)
    click(centre(14, 14), 1)
    assert run_loop(mod) == 3
    return mod, {place(b): b for b in mod.blocks if b.isopen}


def test_the_recursion_opens_the_area_and_opens_flags_as_the_book_does():
    mod, opened = flood("step08_recursion.py")
    expected = flood_model(15, 15, FENCE, (14, 14))
    assert set(opened) == set(expected) and len(opened) > 100
    for cell, number in expected.items():
        assert opened[cell].image == "minesweep_number%d" % number
    assert (10, 10) in opened                   # the book's flood took the flag
    assert block_of(mod, 0, 0).isopen is False  # fenced in by bombs
    # A bomb does nothing yet: blow_up is still "pass".
    mod.on_mouse_down(centre(0, 4), mod.mouse.LEFT)
    assert block_of(mod, 0, 4).image == "minesweep_block"


def test_the_fixes_step_stops_the_flood_at_a_flag():
    mod, opened = flood(FIXES)
    expected = flood_model(15, 15, FENCE, (14, 14), flags={(10, 10)})
    assert set(opened) == set(expected) and len(opened) > 100
    for cell, number in expected.items():
        assert opened[cell].image == "minesweep_number%d" % number
    assert block_of(mod, 10, 10).image == "minesweep_flag"


def test_fix_a_finds_the_same_neighbours_as_the_book():
    book, fixed = load_step(LAST_BOOK_STEP), load_step(FIXES)
    for mod in (book, fixed):
        for block in mod.blocks:
            block.isopen = (place(block)[0] * 7 + place(block)[1] * 3) % 5 == 0
    for row in range(15):
        for col in range(15):
            found = [{place(b) for b in mod.get_neighbours(block_of(mod, row, col))}
                     for mod in (book, fixed)]
            assert found[0] == found[1], (row, col)
            assert len(found[0]) <= 8 and (row, col) not in found[0]


@pytest.mark.parametrize("step", ["step09_lose.py", LAST_BOOK_STEP, FIXES])
def test_a_bomb_loses_shows_every_bomb_and_says_failed(step):
    mod = load_step(step)
    bombs = {(3, 3), (8, 1), (11, 12)}
    lay(mod, bombs)
    pygame.event.clear()
    click(centre(8, 1), 1)
    assert run_loop(mod) == 3
    assert mod.failed
    assert not getattr(mod, "finished", False)
    assert {place(b) for b in mod.blocks if b.image == "minesweep_bomb"} == bombs
    with_screen(mod)
    mod.draw()
    middle = mod.screen.surface.subsurface(pygame.Rect(60, 160, 255, 55))
    red = [x for x in range(255) if middle.get_at((x, 27))[:3] == (255, 0, 0)]
    assert red, "the red word Failed across the middle"


@pytest.mark.parametrize("step", [LAST_BOOK_STEP, FIXES])
def test_opening_every_safe_block_wins_and_ends_the_game(step):
    mod = load_step(step)
    lay(mod, {(0, 0), (14, 14)})
    pygame.event.clear()
    click(centre(7, 7), 1)                      # opens all but the two bombs
    assert run_loop(mod) == 3
    assert mod.finished and not mod.failed
    assert sorted(place(b) for b in mod.blocks if not b.isopen) == [(0, 0), (14, 14)]
    mod.on_mouse_down(centre(0, 0), mod.mouse.LEFT)     # the game is over
    assert not mod.failed
    with_screen(mod)
    mod.draw()
    middle = mod.screen.surface.subsurface(pygame.Rect(0, 160, 375, 55))
    assert any(middle.get_at((x, 27))[:3] == (255, 0, 0) for x in range(375))


def test_fix_d_shows_the_bombs_wherever_they_are_in_the_list():
    bombs = {(2, 2), (13, 6)}
    shown = {}
    for step in (LAST_BOOK_STEP, FIXES):
        mod = load_step(step)
        lay(mod, bombs, in_front=False)
        mod.blocks.sort(key=lambda block: block.isbomb)  # the bombs last
        mod.blow_up()
        shown[step] = {place(b) for b in mod.blocks if b.image == "minesweep_bomb"}
    assert shown[FIXES] == bombs
    assert shown[LAST_BOOK_STEP] != bombs       # the book's blocks[0], blocks[1]


def without_fix(letter):
    """An edit that takes a step's FIX lines of this letter out again."""
    def edit(text):
        text = re.sub(r"( *)if pygame\.mixer\.get_init\(\):  # FIX e\n\1    ",
                      r"\1", text) if letter == "e" else text
        return "\n".join(line for line in text.split("\n")
                         if not line.endswith("# FIX %s" % letter))
    return edit


@pytest.mark.parametrize("step", ["step09_lose.py", LAST_BOOK_STEP, FIXES])
def test_fix_e_plays_on_without_a_sound_card(step):
    for edit, works in ((None, True), (without_fix("e"), False)):
        mod = load_step(step, edit=edit)
        lay(mod, {(5, 5)})
        for block in mod.blocks:
            block.isopen = not block.isbomb
        # pgzero keeps a sound it has loaded as an attribute of "sounds",
        # which load_game does not forget: forget it here, as a computer
        # without a sound card never had it (and playing a sound made with
        # a mixer that is gone crashes pygame).
        for name in ("bomb", "win"):
            vars(pgzero.loaders.sounds).pop(name, None)
        pygame.mixer.quit()
        try:
            if works:
                mod.on_mouse_down(centre(5, 5), mod.mouse.LEFT)
                assert mod.failed
                if hasattr(mod, "update"):
                    mod.failed = False
                    mod.update()
                    assert mod.finished
            else:
                with pytest.raises(Exception, match="supported audio format"):
                    mod.on_mouse_down(centre(5, 5), mod.mouse.LEFT)
        finally:
            pygame.mixer.init()


def test_fix_c_floods_a_board_bigger_than_pythons_limit():
    def big(text):
        return text.replace("ROWS = 15", "ROWS = 34").replace("COLS = 15", "COLS = 34")

    def empty_in_rows(mod):
        """No bombs and the list in row order: the flood goes 1156 calls deep."""
        lay(mod, set())
        mod.blocks.sort(key=place)

    mod = load_step(FIXES, edit=big)
    empty_in_rows(mod)
    mod.on_mouse_down(centre(33, 0), mod.mouse.LEFT)
    assert all(b.isopen for b in mod.blocks) and len(mod.blocks) == 34 * 34
    sys.setrecursionlimit(1000)
    mod = load_step(FIXES, edit=lambda text: without_fix("c")(big(text)))
    empty_in_rows(mod)
    with pytest.raises(RecursionError):
        mod.on_mouse_down(centre(33, 0), mod.mouse.LEFT)


def walkthrough():
    """The teacher's guide on the chapter and the lesson steps, up to the
    section on what goes beyond the chapter."""
    with open(os.path.join(ROOT, "docs", "teacher.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("## The chapter beside the code")
    end = text.index("\n## Beyond the chapter", start + 1)
    return text[start:end]


def test_the_walkthrough_points_at_code_that_exists(game):
    rows = [line.split("|")[1:-1] for line in walkthrough().splitlines()
            if re.match(r"\| 3\.\d\.\d \|", line)]
    assert [row[0].strip() for row in rows] == [
        "3.1.1", "3.1.2", "3.1.3", "3.1.4", "3.2.1", "3.2.2",
        "3.3.1", "3.3.2", "3.3.3", "3.3.4", "3.4.1", "3.4.2"]
    names = set()
    for row in rows:
        assert re.search("[\u4e00-\u9fff]", row[1]), "a Chinese heading"
        for column in (row[3], row[4]):
            names.update(re.findall(r"`([^`]+)`", column))
    # Every file or folder named anywhere in the walkthrough, and every
    # name in its "in minesweep.py" and "in chapter/" columns.
    names.update(re.findall(r"`((?:chapter|images|tools)/[^`\s]*)`", walkthrough()))
    assert len(names) > 20
    for name in names:
        if "/" in name:
            assert os.path.exists(os.path.join(ROOT, name)), name
        else:
            assert hasattr(game, name), name


def test_both_readmes_name_every_step_in_their_teacher_tables():
    with open(os.path.join(ROOT, "README.zh.md"), encoding="utf-8") as f:
        chinese = f.read()
    english = walkthrough()
    for text in (english, chinese):
        named = re.findall(r"^\| `chapter/(step\d\d_\w+\.py)` \|", text, re.M)
        assert named == STEPS
        assert "chapter/handout.html" in text


def test_the_chinese_readme_points_at_code_that_exists(game):
    with open(os.path.join(ROOT, "README.zh.md"), encoding="utf-8") as f:
        text = f.read()
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        assert "README.zh.md" in f.read()
    names = set(re.findall(r"`([A-Za-z_][A-Za-z_0-9]*)`", text))
    paths = set(re.findall(r"`((?:chapter|images|tools|texts|fonts)/[^`\s]*)`", text))
    assert len(names) > 20 and len(paths) > 8
    for path in paths:
        assert os.path.exists(os.path.join(ROOT, path)), path
    # Python's, pgzero's and the shell's words, and the tiles' own (collidepoint is an
    # Actor's, isbomb and the rest each tile's).
    builtins_and_words = {"pass", "isbomb", "isopen", "isflag", "pgzero", "pygame",
                          "import", "pgzrun", "collidepoint", "UnicodeDecodeError",
                          "RecursionError", "cd", "cmd", "python",
                          "zh_TW", "zh_HK", "zh_MO",     # ... locales' names
                          "MINESWEEP_LANG",              # ... an environment variable
                          "bk", "for", "return"}         # ... and the book's code
    # The rest are the game's, or a module's beside it (solver.flood).
    modules = [game] + [sys.modules[module] for module in ("solver", "slowmotion")]
    missing = [name for name in sorted(names - builtins_and_words)
               if not any(hasattr(module, name) for module in modules)]
    assert missing == []


def test_every_picture_the_readmes_show_exists():
    for readme in ("README.md", "README.zh.md"):
        with open(os.path.join(ROOT, readme), encoding="utf-8") as f:
            pictures = re.findall(r"\]\((docs/[^)]+\.png)\)", f.read())
        assert pictures, readme
        for picture_file in pictures:
            assert os.path.exists(os.path.join(ROOT, picture_file)), (readme, picture_file)
