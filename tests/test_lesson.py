"""The lesson steps in chapter/ (issue 7): each is the step before plus its
new lines marked "# NEW", each runs as pgzrun runs it, and each does what its
section of the chapter promises."""
import difflib
import filecmp
import os
import re

import pygame
import pytest

from loadgame import CHAPTER, ROOT, load_game, with_screen
from test_mainloop import click, run_loop

STEPS = ["step1_tiles.py", "step2_flags_pass.py", "step2_flags.py",
         "step3_open_pass.py", "step3_recursion.py", "step4_win_lose.py"]
SIZE = 25


def source(step):
    """The text of a step."""
    with open(os.path.join(CHAPTER, step), encoding="ascii") as f:
        return f.read()


def is_code(line):
    """A line that does something: not blank, not only a comment."""
    return bool(line.strip()) and not line.strip().startswith("#")


def unmarked(line):
    """The line without its "# NEW" mark."""
    return re.sub(r"\s*# NEW$", "", line)


def load_step(step):
    """Load a step as pgzrun loads it (its own images/ and sounds/)."""
    return load_game(step[:-3], os.path.join(CHAPTER, step))


def place(block):
    """(row, col) of a step's tile, from where it is drawn."""
    return block.top // SIZE, block.left // SIZE


def lay(mod, cells):
    """Put the bombs of a step's board exactly at these (row, col) cells."""
    for block in mod.blocks:
        block.isbomb = place(block) in cells


def tile(mod, row, col):
    """A step's tile at this row and column (the list is shuffled)."""
    return next(b for b in mod.blocks if place(b) == (row, col))


def centre(row, col):
    """The window position of the middle of a tile."""
    return col * SIZE + SIZE // 2, row * SIZE + SIZE // 2


def test_the_steps_exist_in_order_and_are_ascii():
    found = sorted(name for name in os.listdir(CHAPTER) if name.endswith(".py"))
    assert found == sorted(STEPS)
    for step in STEPS:
        text = source(step)
        compile(text, step, "exec")
        assert "import pgzrun" in text and text.rstrip().endswith("pgzrun.go()")


@pytest.mark.parametrize("before, after", list(zip(STEPS, STEPS[1:])))
def test_each_step_marks_exactly_its_new_lines(before, after):
    old = [unmarked(line) for line in source(before).splitlines()]
    new_lines = source(after).splitlines()
    new = [unmarked(line) for line in new_lines]
    added, removed = set(), []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            removed.extend(old[i1:i2])
        if tag in ("replace", "insert"):
            added.update(range(j1, j2))
    for index, line in enumerate(new_lines):
        if not is_code(line):
            continue
        if index in added:
            assert line.endswith("# NEW"), "%s: new line not marked: %r" % (after, line)
        else:
            assert not line.endswith("# NEW"), "%s: old line marked: %r" % (after, line)
    # What a step takes away is only the placeholders its section fills in.
    gone = [line.strip() for line in removed if is_code(line)]
    assert all(line == "pass" for line in gone), gone
    assert added, "a step must add something"


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


def test_step1_draws_the_closed_board_with_20_bombs():
    mod = load_step("step1_tiles.py")
    with_screen(mod)
    assert (mod.ROWS, mod.COLS, mod.WIDTH, mod.HEIGHT) == (15, 15, 375, 375)
    assert sorted(place(b) for b in mod.blocks) == [
        (r, c) for r in range(15) for c in range(15)]
    assert sum(b.isbomb for b in mod.blocks) == 20
    mod.draw()
    closed = pygame.image.load(os.path.join(CHAPTER, "images", "minesweep_block.png"))
    for row, col in [(0, 0), (7, 7), (14, 14), (3, 11)]:
        area = pygame.Rect(col * SIZE, row * SIZE, SIZE, SIZE)
        drawn = mod.screen.surface.subsurface(area)
        assert pygame.image.tobytes(drawn, "RGB") == \
            pygame.image.tobytes(closed.convert(), "RGB")


def test_step1_lays_new_bombs_each_run():
    boards = {frozenset(place(b) for b in load_step("step1_tiles.py").blocks
                        if b.isbomb) for _ in range(3)}
    assert len(boards) > 1


def test_step2a_right_click_calls_the_placeholder():
    mod = load_step("step2_flags_pass.py")
    mod.on_mouse_down(centre(2, 3), mod.mouse.RIGHT)
    assert all(b.image == "minesweep_block" for b in mod.blocks)


def test_step2b_right_click_toggles_a_flag_and_left_does_nothing():
    mod = load_step("step2_flags.py")
    target = tile(mod, 2, 3)
    mod.on_mouse_down(centre(2, 3), mod.mouse.RIGHT)
    assert target.isflag and target.image == "minesweep_flag"
    assert sum(b.isflag for b in mod.blocks) == 1
    mod.on_mouse_down(centre(2, 3), mod.mouse.RIGHT)
    assert not target.isflag and target.image == "minesweep_block"
    mod.on_mouse_down(centre(5, 5), mod.mouse.LEFT)
    assert all(b.image == "minesweep_block" for b in mod.blocks)


def test_step3a_left_click_reaches_the_placeholders():
    mod = load_step("step3_open_pass.py")
    lay(mod, {(0, 0)})
    calls = []
    mod.blow_up = lambda: calls.append("blow_up")
    mod.open_block = lambda bk: calls.append(place(bk))
    mod.on_mouse_down(centre(0, 0), mod.mouse.LEFT)
    mod.on_mouse_down(centre(4, 4), mod.mouse.LEFT)
    mod.on_mouse_down(centre(6, 6), mod.mouse.RIGHT)
    mod.on_mouse_down(centre(6, 6), mod.mouse.LEFT)     # a flag: not opened
    assert calls == ["blow_up", (4, 4)]


def flood_model(rows, cols, bombs, start, flags=()):
    """The tiles a click opens, worked out without the game's code."""
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


def test_step3b_floods_as_the_rules_say():
    mod = load_step("step3_recursion.py")
    bombs = {(0, 4), (1, 4), (2, 4), (3, 3), (4, 2), (4, 1), (4, 0), (9, 9),
             (12, 2), (7, 13)}
    lay(mod, bombs)
    mod.on_mouse_down(centre(10, 10), mod.mouse.RIGHT)   # a flag stops the flood
    mod.on_mouse_down(centre(14, 14), mod.mouse.LEFT)
    expected = flood_model(15, 15, bombs, (14, 14), flags={(10, 10)})
    opened = {place(b): b for b in mod.blocks if b.isopen}
    assert set(opened) == set(expected) and len(opened) > 100
    for cell, number in expected.items():
        assert opened[cell].image == "minesweep_number%d" % number
    assert tile(mod, 10, 10).image == "minesweep_flag"
    assert tile(mod, 0, 0).isopen is False          # fenced in by bombs
    # A bomb does nothing yet: blow_up is still "pass".
    mod.on_mouse_down(centre(0, 4), mod.mouse.LEFT)
    assert tile(mod, 0, 4).image == "minesweep_block"


def test_step4_loses_on_a_bomb():
    mod = load_step("step4_win_lose.py")
    with_screen(mod)
    bombs = {(3, 3), (8, 1), (11, 12)}
    lay(mod, bombs)
    mod.on_mouse_down(centre(8, 1), mod.mouse.LEFT)
    assert mod.failed and not mod.finished
    assert {place(b) for b in mod.blocks if b.image == "minesweep_bomb"} == bombs
    mod.update()
    assert not mod.finished
    mod.on_mouse_down(centre(0, 14), mod.mouse.LEFT)    # the game is over
    assert not any(b.isopen for b in mod.blocks)
    mod.draw()


def test_step4_wins_through_pgzeros_loop():
    mod = load_step("step4_win_lose.py")
    bombs = {(0, 0), (14, 14)}
    lay(mod, bombs)
    pygame.event.clear()
    click(centre(7, 7), 1)                  # opens all but two corners' numbers
    assert run_loop(mod) == 3
    assert mod.finished and not mod.failed
    assert sum(not b.isopen for b in mod.blocks) == 2


def test_step4_plays_without_a_sound_card():
    mod = load_step("step4_win_lose.py")
    lay(mod, {(5, 5)})
    pygame.mixer.quit()
    try:
        mod.on_mouse_down(centre(5, 5), mod.mouse.LEFT)
        assert mod.failed
    finally:
        pygame.mixer.init()


def walkthrough():
    """The README's walkthrough section, up to the next "## " heading."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("## Walkthrough")
    end = text.index("\n## ", start + 1)
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
    # Python's and pgzero's words, and the tiles' own (collidepoint is an
    # Actor's, isbomb and the rest each tile's).
    builtins_and_words = {"pass", "isbomb", "isopen", "isflag", "pgzero", "pygame",
                          "import", "pgzrun", "collidepoint", "UnicodeDecodeError"}
    for name in names - builtins_and_words:
        assert hasattr(game, name), name


def test_every_picture_the_readmes_show_exists():
    for readme in ("README.md", "README.zh.md"):
        with open(os.path.join(ROOT, readme), encoding="utf-8") as f:
            pictures = re.findall(r"\]\((docs/[^)]+\.png)\)", f.read())
        assert pictures, readme
        for picture in pictures:
            assert os.path.exists(os.path.join(ROOT, picture)), (readme, picture)
