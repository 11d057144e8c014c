"""chapter/check.py, the checker of a student's own chapter program: the
book's program and the lesson's last step pass every section, each lesson
step gets what a teacher expects, and mistakes students make (each a small
edit of the book's listing) are told at the right section, with the right
words and the student's own line. The checker runs once over a folder of
programs, and its --json is read."""
import json
import os
import re
import string
import subprocess
import sys

import pytest

try:
    import fcntl
except ImportError:         # Windows: no lock, and each worker may check the class
    fcntl = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECK = os.path.join(ROOT, "chapter", "check.py")
BOOK = os.path.join(ROOT, "tests", "check_programs", "book_gb18030.py")
with open(os.path.join(ROOT, "chapter", "check_texts.json"), encoding="utf-8") as f:
    LANGS = list(json.load(f))          # the languages the checker speaks
SECTIONS = ["3.1.2", "3.1.3", "3.1.4", "3.2.1", "3.2.2", "3.3.1", "3.3.2",
            "3.3.3", "3.3.4", "3.4.1", "3.4.2"]


def texts(lang="zh"):
    """The checker's words."""
    with open(os.path.join(ROOT, "chapter", "check_texts.json"), encoding="utf-8") as f:
        return json.load(f)[lang]


def pattern(key, lang="zh"):
    """A message of the checker as a pattern (a fact in braces: anything)."""
    def loose(text):
        """text with each fact in braces standing for anything."""
        return ".*".join(re.escape(part) for part in re.split(r"\{[^}]*\}", text))
    words = texts(lang)
    # What the program did may come first (before a cause found in its
    # text, or a repair proven); after it, what to change the line to (the
    # repair proven), a name close to the one mistyped ("did you mean
    # ...?"), the function where no line is named, the other line a repair
    # changes, and the section where the slip shows first.
    saw = ".*" if key.startswith(("cause_", "repair_")) else ""
    repair = "|".join(loose(text) for name, text in words["messages"].items()
                      if name.startswith("repair_"))
    after = "(%s)?" % repair + "".join("(%s)?" % loose(words[part]) for part in (
        "fix_after", "near", "in_func", "also_line", "seen_at"))
    # A proven repair says only what was seen first (the "saw" words), where
    # there are such words for the key, then the repair.
    said = loose(words["messages"][key])
    if key in words["saw"]:
        said = "(%s|%s\\s*[\u3002.]?)" % (said, loose(words["saw"][key].strip()))
    return re.compile("%s%s%s" % (saw, said, after), re.S)


def book():
    """The book's listing, as printed at the end of the chapter."""
    with open(BOOK, "rb") as f:
        return f.read().decode("gb18030")


def line_of(text, piece, nth=1):
    """The line number (from 1) of the nth line holding piece."""
    found = [i + 1 for i, line in enumerate(text.splitlines()) if piece in line]
    return found[nth - 1]


def edit(old, new, count=1):
    """An edit of the book's text: old becomes new (it must be there)."""
    def change(text):
        """The text with the edit made."""
        assert old in text, old
        return text.replace(old, new, count)
    return change


# name: (edit, section that fails, key of its words, (piece, nth) of its line,
# or None where the words say where to write what is missing)
MISTAKES = {
    "isopen_below": (
        lambda t: edit(" :\n            open_block(block)\n",
                       " :\n            open_block(block)\n    bk.isopen = True\n")(
            edit("    bk.isopen = True\n", "")(t)),
        "3.3.4", "isopen_below", ("    bk.isopen = True", 1)),
    # The missing line is named by the line it goes below.
    "isopen_missing": (edit("    bk.isopen = True\n", ""), "3.3.4", "isopen_missing",
                       ("def open_block", 1)),
    "wrong_comparison": (
        edit("or block.x == bk.x + SIZE and block.y == bk.y - SIZE",
             "or block.x == bk.x + SIZE and block.y == bk.y + SIZE"),
        "3.3.2", "neighbours_missing", ("block.x == bk.x + SIZE and block.y == bk.y + SIZE", 1)),
    "own_tile": (edit("or block.x == bk.x and block.y == bk.y - SIZE \\",
                      "or block.x == bk.x and block.y == bk.y \\"),
                 "3.3.2", "neighbours_self", ("or block.x == bk.x and block.y == bk.y \\", 1)),
    "count_from_one": (edit("    num = 0\n", "    num = 1\n"), "3.3.3", "count_from_one",
                       ("num = 1", 1)),
    "return_in_loop": (edit("            num += 1\n    return num",
                            "            num += 1\n        return num"),
                       "3.3.3", "count_return_in_loop", ("        return num", 1)),
    "flag_stays": (edit('        block.image = "minesweep_block"\n        block.isflag = False',
                        '        block.image = "minesweep_flag"\n        block.isflag = False'),
                   "3.2.2", "flag_off_image", ('block.image = "minesweep_flag"', 2)),
    "buttons_swapped": (
        lambda t: t.replace("button == mouse.RIGHT", "button == mouse.X").replace(
            "button == mouse.LEFT", "button == mouse.RIGHT").replace(
            "button == mouse.X", "button == mouse.LEFT"),
        "3.2.1", "buttons_swapped", ("if button == mouse.LEFT", 1)),
    "bombs_19": (edit("BOMBS = 20", "BOMBS = 19"), "3.1.4", "bombs_constant",
                 ("BOMBS = 19", 1)),
    # The shuffle goes below the loop that makes the tiles.
    "no_shuffle": (edit("random.shuffle(blocks)\n", ""), "3.1.4", "no_shuffle",
                   ("        blocks.append(block)", 1)),
    # The missing global belongs just below the def line.
    "no_global_failed": (edit("    global failed\n", ""), "3.4.1", "global_failed",
                         ("def blow_up", 1)),
    # update() runs at the first frame, before any click: seen at 3.1.2,
    # a slip of 3.4.2's, whose line it is.
    "no_global_finished": (edit("    global finished\n", ""), "3.4.2", "unbound",
                           ("def update", 1)),
    # A win is judged on the checker's own board, first laid at 3.2.1: seen
    # there, a slip of 3.4.2's.
    "win_at_once": (edit("if not block.isbomb and not block.isopen:",
                         "if not block.isbomb and block.isopen:"),
                    "3.4.2", "win_at_once", ("if not block.isbomb and block.isopen:", 1)),
    "never_win": (edit("if not block.isbomb and not block.isopen:", "if not block.isopen:"),
                  "3.4.2", "never_win", ("        if not block.isopen:", 1)),
    "picture_name": (edit('"minesweep_number" + str(bombnum)',
                          '"minesweep_numbers" + str(bombnum)'),
                     "3.3.4", "no_image", ('"minesweep_numbers"', 1)),
    "bomb_picture": (edit('blocks[i].image = "minesweep_bomb"',
                          'blocks[i].image = "minesweep_bombs"'),
                     "3.4.1", "no_image", ('"minesweep_bombs"', 1)),
    "sound_name": (edit("sounds.bomb.play()", "sounds.boom.play()"), "3.4.1", "no_sound",
                   ("sounds.boom.play()", 1)),
    # A program that cannot start is told at the section of its faulty line.
    "missing_colon": (edit("def draw():", "def draw()"), "3.1.3", "syntax_colon",
                      ("def draw()", 1)),
    "chinese_colon": (edit("def blow_up():", "def blow_up()\uff1a"), "3.3.1",
                      "syntax_chinese", ("def blow_up()", 1)),
    "indentation": (edit("    global failed\n    failed = True",
                         "global failed\n    failed = True"),
                    "3.4.1", "indent_expected", ("global failed", 1)),
    # It loops for ever once the last tile made is a bomb: on the board the
    # program buries itself at 3.1.4's second load (the checker seeds each
    # load, so always there), and on the checker's own board.
    "endless_update": (edit("    for block in blocks:\n        if not block.isbomb",
                            "    while blocks:\n        if not block.isbomb"),
                       "3.4.2", "endless", ("    while blocks:", 1)),
    # The same loop, its body a call of a function of the program's own
    # that takes its time (in one line, no loop): the stop lands in the
    # function nearly always, and the loop is named.
    "endless_in_a_call": (lambda t: edit(
        "    for block in blocks:\n        if not block.isbomb and not block.isopen:",
        "    while blocks:\n        if still_closed(block):")(edit(
            "def update():", "def still_closed(bk):\n    counted = sum(range(100000))\n"
            "    return not bk.isbomb and not bk.isopen\n\n\ndef update():")(t)),
        "3.4.2", "endless", ("    while blocks:", 1)),
    "clicks_after_end": (edit("    if failed or finished:\n        return\n", ""),
                         "3.4.2", "after_win", ("def on_mouse_down", 1)),
    "waits_for_input": (edit("import random\n", "import random\nname = input('?')\n"),
                        "3.1.2", "input", ("input(", 1)),
    "raises_at_import": (edit("random.shuffle(blocks)", "random.shufle(blocks)"),
                         "3.1.4", "no_module_attr", ("random.shufle", 1)),
    "endless_at_import": (lambda t: t + "while True:\n    pass\n", "3.1.2", "endless_load",
                          ("while True:", 1)),
    "no_flag_check": (edit("elif button == mouse.LEFT and not block.isflag:",
                           "elif button == mouse.LEFT:"),
                      "3.3.1", "left_on_flag", ("elif button == mouse.LEFT:", 1)),
    "no_open_check": (edit("if block.collidepoint(pos) and not block.isopen:",
                           "if block.collidepoint(pos):"),
                      "3.3.1", "click_on_open", ("if block.collidepoint(pos):", 1)),
    "no_failed_text": (edit('    elif failed:\n        screen.draw.text("Failed", center=(WIDTH '
                            '// 2, HEIGHT // 2),\n                         fontsize=100, '
                            'color="red")\n', ""),
                       "3.4.1", "no_failed_text", ('fontsize=100, color="red")', 1)),
    "no_return_on_number": (edit("    if bombnum != 0:\n        return\n", ""),
                            "3.3.4", "open_bomb", ('bk.image = "minesweep_number"', 1)),
    "wrong_width": (edit("WIDTH = SIZE * COLS", "WIDTH = SIZE + COLS"), "3.1.2", "window",
                    ("WIDTH = SIZE + COLS", 1)),
    "left_not_times_size": (edit("block.left = j * SIZE", "block.left = j"), "3.1.3",
                            "tile_stacked", ("block.left = j", 1)),
    "empties_blocks": (edit("    for block in blocks:\n        block.draw()\n",
                            "    for block in blocks:\n        block.draw()\n"
                            "    blocks.clear()\n"),
                       "3.1.3", "blocks_changed", ("blocks.clear()", 1)),
    "mouse_parameters": (
        lambda t: t.replace("def on_mouse_down(pos, button):",
                            "def on_mouse_down(position, button):").replace(
            "collidepoint(pos)", "collidepoint(position)"),
        "3.2.1", "mouse_args", ("def on_mouse_down", 1)),
    "no_append": (edit("        blocks.append(block)\n", ""), "3.1.3", "index_no_append",
                  ("        block.isflag = False", 1)),
    # Opening every safe tile (3.3.4) wins, and the frame after it plays
    # the sound: seen at 3.3.4, a slip in 3.4.2's line.
    "sound_typo": (edit("sounds.win.play()", "sound.win.play()"), "3.4.2", "name",
                   ("sound.win.play()", 1)),
    "finished_in_loop": (edit("            return\n    finished = True",
                              "            return\n        finished = True"),
                         "3.4.2", "cause_indent_out", ("        finished = True", 1)),
    "indent_one_short": (edit("        block.isbomb = False", "       block.isbomb = False"),
                         "3.1.4", "indent_unmatched", ("       block.isbomb = False", 1)),
    "mouse_lowercase": (edit("elif button == mouse.LEFT", "elif button == mouse.left"),
                        "3.3.1", "no_module_attr", ("mouse.left", 1)),
    "number_without_str": (edit('"minesweep_number" + str(bombnum)', '"minesweep_number" + bombnum'),
                           "3.3.4", "str_plus_number", ('"minesweep_number" + bombnum', 1)),
    "no_coding_line": (lambda t: t.split("\n", 1)[1], "3.1.2", "not_utf8",
                       ("minesweep.py", 1)),
    # Six slips seen on programs the checker had never seen, each at its line.
    "shuffle_returns_none": (edit("random.shuffle(blocks)", "blocks = random.shuffle(blocks)"),
                             "3.1.4", "repair_replace", ("blocks = random.shuffle", 1)),
    "open_when_zero": (edit("if bombnum != 0:", "if bombnum == 0:"), "3.3.4",
                       "repair_replace", ("if bombnum == 0:", 1)),
    "own_neighbours_diagonal": (lambda t: t[:t.index("        if block.x == bk.x - SIZE")] +
                                "        if abs(block.x - bk.x) == SIZE and "
                                "abs(block.y - bk.y) == SIZE:\n" +
                                t[t.index("            nblocks.append(block)"):],
                                "3.3.2", "repair_replace", ("abs(block.x - bk.x)", 1)),
    "count_flags": (edit("        if block.isbomb:\n            num += 1",
                         "        if block.isflag:\n            num += 1"),
                    "3.3.3", "repair_replace", ("        if block.isflag:", 1)),
    "x_for_left": (edit("block.left = j * SIZE", "block.x = j * SIZE"), "3.1.3",
                   "tile_shifted", ("block.x = j * SIZE", 1)),
    "shuffle_after_bombs": (lambda t: edit("random.shuffle(blocks)\n", "")(t).replace(
        "    blocks[i].isbomb = True\n", "    blocks[i].isbomb = True\nrandom.shuffle(blocks)\n",
        1), "3.1.4", "repair_move", ("random.shuffle(blocks)", 1)),
}


def run_check(*args, timeout=600, env=None):
    """The checker run as a student or teacher runs it (env: settings of
    the computer besides the tests' own)."""
    return subprocess.run([sys.executable, CHECK] + list(args), capture_output=True,
                          text=True, encoding="utf-8", timeout=timeout, cwd=ROOT,
                          env=dict(os.environ, **(env or {})))


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    """One checker run over the seeded mistakes, the book and the steps."""
    # The run takes ten seconds or more of a core: it is made once for the
    # whole test run, in the folder every worker (pytest-xdist) shares, the
    # first worker to ask running it while the others wait for its answer.
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER") and fcntl is not None:
        shared = shared.parent      # without a lock (Windows) each worker runs it
    folder = shared / "class"
    answer = shared / "class-checked.json"
    with open(str(shared / "class.lock"), "a") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        if not answer.exists():
            check_the_class(folder, answer)
    with open(str(answer), encoding="utf-8") as f:
        results = json.load(f)
    return {os.path.basename(r["file"])[:-3]: r for r in results}, folder


def check_the_class(folder, answer):
    """Write the seeded mistakes and the book into folder, check them and
    the steps, and keep the checker's answer in the file answer."""
    folder.mkdir(exist_ok=True)
    text = book()
    for name, (change, _, _, _) in MISTAKES.items():
        with open(os.path.join(folder, name + ".py"), "wb") as f:
            f.write(change(text).encode("gb18030"))
    with open(BOOK, "rb") as src, open(os.path.join(folder, "book.py"), "wb") as f:
        f.write(src.read())
    steps = os.path.join(ROOT, "chapter")
    done = run_check("--json", str(folder), steps)
    assert done.returncode == 1, done.stderr
    json.loads(done.stdout)                 # a whole answer, or no file at all
    part = "%s.%d" % (answer, os.getpid())
    with open(part, "w", encoding="utf-8") as f:
        f.write(done.stdout)
    os.replace(part, str(answer))


def test_the_book_and_the_last_step_pass_every_section(checked):
    results, _ = checked
    for name in ("book", "step10_win", "step11_fixes"):
        assert results[name]["reached"] == "3.4.2", results[name]
        assert [c["ok"] for c in results[name]["checks"]] == [True] * 11
        assert [c["section"] for c in results[name]["checks"]] == SECTIONS


STEPS = {   # step: (reached, the key of the words of the next section)
    "step01_tiles": ("3.1.3", "todo_bombs"),
    "step02_bombs_first": ("3.1.3", "no_shuffle"),
    "step03_shuffle": ("3.1.4", "no_mouse"),
    "step04_right_click": ("3.2.1", "todo_set_flag"),
    "step05_flag_pass": ("3.2.1", "flag_pass"),
    "step06_flags": ("3.2.2", "left_nothing"),
    "step07_left_click": ("3.3.1", "todo_get_neighbours"),
    "step08_recursion": ("3.3.4", "blow_pass"),
    "step09_lose": ("3.4.1", "no_update"),
}


@pytest.mark.parametrize("step", sorted(STEPS))
def test_each_lesson_step_is_told_what_is_still_to_write(checked, step):
    # A step is right as far as it goes: the next section is "not yet",
    # never failed, and the ones after it wait.
    results, _ = checked
    reached, key = STEPS[step]
    result = results[step]
    assert result["reached"] == reached
    checks = result["checks"]
    failing = SECTIONS.index(reached) + 1
    assert [c["ok"] for c in checks] == [True] * failing + [None] * (11 - failing)
    assert checks[failing]["todo"] is True
    assert not any(c.get("todo") for c in checks[:failing] + checks[failing + 1:])
    assert pattern(key).fullmatch(checks[failing]["message"]), checks[failing]
    assert all(c["message"] == texts()["not_checked_todo"] for c in checks[failing + 1:])


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_each_mistake_is_told_at_its_section_with_its_line(checked, name):
    results, folder = checked
    change, section, key, where = MISTAKES[name]
    result = results[name]
    checks = {c["section"]: c for c in result["checks"]}
    index = SECTIONS.index(section)
    assert result["reached"] == (SECTIONS[index - 1] if index else None), result
    failed = checks[section]
    assert failed["ok"] is False
    assert pattern(key).fullmatch(failed["message"]), failed["message"]
    want = line_of(change(book()), *where) if where else None
    assert failed["line"] == want, (failed, where)


def test_the_words_of_some_mistakes_name_what_is_wrong(checked):
    results, _ = checked
    said = {name: [c for c in r["checks"] if c["ok"] is not True][0]["message"]
            for name, r in results.items() if r["reached"] != "3.4.2"}
    assert "\u53f3\u4e0a\u65b9" in said["wrong_comparison"]          # up-right
    assert "\u7b2c 8 \u884c\u7b2c 8 \u5217" in said["wrong_comparison"]   # row 8, column 8
    assert "minesweep_numbers0" in said["picture_name"]
    assert "minesweep_bombs" in said["bomb_picture"]
    assert "shuffle" in said["raises_at_import"]
    assert "global finished" in said["no_global_finished"]
    assert "mouse.LEFT" in said["mouse_lowercase"]
    assert "\u7b2c %d \u884c" % line_of(book(), "    bk.isopen = True") not in said[
        "isopen_below"]
    # A line of code is quoted, so one ending in ":" never runs into the
    # sentence's own colon ("...:\uff1a").
    assert "\u884c\u201cif not block.isopen:\u201d\uff0c" in said["never_win"]
    assert not [text for text in said.values() if ":\uff1a" in text or ":\uff0c" in text]


def test_the_six_slips_are_told_as_they_are(checked):
    results, _ = checked
    said = {name: [c for c in r["checks"] if c["ok"] is not True][0]["message"]
            for name, r in results.items() if r["reached"] != "3.4.2"}
    # Tiles moved half a tile are told moved, not stacked.
    assert "(-12.5, 0)" in said["x_for_left"] and "\u53e0" not in said["x_for_left"]
    # A shuffle after the bombs is told misplaced, not missing.
    assert "\u8fd8\u5dee" not in said["shuffle_after_bombs"]     # "still to write"
    assert "\u653e\u9519\u4e86\u5730\u65b9" in said["shuffle_after_bombs"]  # "in the wrong place"
    # A test of the student's own is not told of the book's eight comparisons.
    assert "8 \u4e2a\u5224\u65ad" not in said["own_neighbours_diagonal"]
    # The cause is named with what the line should be.
    assert "if block.isbomb:" in said["count_flags"]
    assert "if bombnum != 0:" in said["open_when_zero"]
    assert "\u201crandom.shuffle(blocks)\u201d" in said["shuffle_returns_none"]


NUMBERS_COMPARED = re.compile(r"(\d+)[^.;:()]*?(?:should be|should have|there should be) (\d+)")


def test_no_message_calls_a_right_count_wrong(tmp_path):
    # Stacked tiles: 225 of them, in 15 places. Never "225 tiles; it should
    # be 225": a message that compares two numbers never has them equal.
    program = tmp_path / "stacked.py"
    program.write_bytes(edit("block.left = j * SIZE", "block.left = i * SIZE")(book()).encode(
        "gb18030"))
    results = [json.loads(run_check("--json", "--lang", "en", str(program)).stdout)[0]]
    folders = [os.path.join(ROOT, "tests", "check_programs", name)
               for name in ("students", "students_2", "students_3", "students_4")]
    done = run_check("--json", "--lang", "en", *folders)
    results += json.loads(done.stdout)
    compared = 0
    for result in results:
        for check in result["checks"]:
            for first, second in NUMBERS_COMPARED.findall(check["message"] or ""):
                compared += 1
                assert first != second, check["message"]
    assert compared >= 2
    stacked = [c for c in results[0]["checks"] if c["ok"] is False][0]["message"]
    assert "225" in stacked and "15 places" in stacked


def test_no_loop_burying_bombs_is_told_bombs_are_still_to_bury(tmp_path):
    # The top of the listing typed (BOMBS = 20, isbomb = False) but not yet
    # the loop: there is no loop to check, the bombs are still to bury.
    text = edit("for i in range(BOMBS):\n    blocks[i].isbomb = True\n", "")(book())
    program = tmp_path / "no_loop.py"
    program.write_bytes(text.encode("gb18030"))
    [result] = json.loads(run_check("--json", str(program)).stdout)
    assert result["reached"] == "3.1.3"
    assert pattern("todo_isbomb").fullmatch(result["checks"][2]["message"])


def test_english_words_and_the_exit_status(tmp_path):
    good = tmp_path / "good"
    good.mkdir()
    with open(BOOK, "rb") as src:
        (good / "book.py").write_bytes(src.read())
    done = run_check("--json", "--lang", "en", str(good))
    assert done.returncode == 0, done.stderr
    [result] = json.loads(done.stdout)
    assert result["file"] == str(good / "book.py")
    assert set(result) == {"file", "reached", "checks", "notes"}
    assert all(set(c) == {"section", "ok", "message", "line"} for c in result["checks"])
    assert result["notes"] == []
    assert result["checks"][0]["message"] == texts("en")["messages"]["ok_312"]
    bad = tmp_path / "nothing_here.py"
    assert run_check(str(bad)).returncode == 2
    assert run_check("--html", str(bad / "page.html"), str(good)).returncode == 2
    empty = tmp_path / "empty.py"
    empty.write_text("", encoding="utf-8")
    [result] = json.loads(run_check("--json", str(empty)).stdout)
    assert pattern("constant_missing").fullmatch(result["checks"][0]["message"])
    assert run_check("--lang", "xx", str(good)).returncode == 2


def test_the_teachers_page_has_a_row_per_program(checked, tmp_path):
    results, folder = checked
    page = tmp_path / "class.html"
    programs = [str(folder / "book.py"), str(folder / "never_win.py"),
                str(folder / "missing_colon.py")]
    done = run_check("--html", str(page), *programs)
    assert done.returncode == 1
    text = page.read_text(encoding="utf-8")
    assert text.count("<tr><td>") == 3
    assert "never_win.py" in text and "missing_colon.py" in text
    assert texts()["sections"]["3.3.4"] in text
    for key in ("never_win", "syntax_colon"):
        assert pattern(key).search(text.replace("&quot;", '"').replace("&#x27;", "'"))


def test_no_display_gives_one_clear_line(tmp_path):
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    done = subprocess.run([sys.executable, CHECK], capture_output=True, text=True,
                          encoding="utf-8", env=env, timeout=120, cwd=str(tmp_path))
    assert done.returncode == 2
    assert done.stdout.strip() == texts()["no_display"]


def test_under_pgzrun_it_checks_and_ends_by_itself(tmp_path):
    # Thonny's Pygame Zero mode runs a file with pgzrun, which would open a
    # game window and wait for ever after the checker's own code.
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    code = "import sys; from pgzero.runner import main; sys.argv = ['pgzrun', %r]; main()" % (
        CHECK)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          encoding="utf-8", env=env, timeout=120, cwd=str(tmp_path))
    assert done.returncode == 2, done.stderr
    assert done.stdout.strip().splitlines()[-1] == texts()["no_display"]


def test_without_pygame_zero_it_says_what_to_install(tmp_path):
    code = ("import sys, runpy; sys.modules['pgzero'] = None; sys.argv = [%r, %r]; "
            "runpy.run_path(%r, run_name='__main__')" % (CHECK, BOOK, CHECK))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          encoding="utf-8", timeout=120, cwd=str(tmp_path))
    assert done.returncode == 2, done.stderr
    assert done.stdout.strip() == texts()["no_pgzero"]


def test_every_finding_has_words_in_every_language():
    code = ""
    for name in sorted(os.listdir(os.path.join(ROOT, "chapter"))):
        if name.startswith("check_") and name.endswith(".py"):
            with open(os.path.join(ROOT, "chapter", name), encoding="ascii") as f:
                code += f.read()
    keys = set(re.findall(r'(?:Fail|Todo|kind|Cause)\(\s*(?:[a-z.]+,\s*)?"([a-z_0-9]+)"', code))
    keys |= {"flag_%s_%s" % (way, field) for way in ("on", "off") for field in ("image", "isflag")}
    keys |= set(re.findall(r'"(ok_3\d\d)"', code))
    hints = code[code.index("SYNTAX_HINTS = ["):code.index("]\n", code.index("SYNTAX_HINTS"))]
    keys |= {hint for _, hint in re.findall(r'\("([^"]+)", "([a-z_]+)"\),', hints)}
    keys |= {"todo_" + name for name in re.findall(r'want\(program, mod, "([a-z_]+)"\)', code)}
    keys |= set(re.findall(r'key = "([a-z_]+)"', code)) | {"child_timeout", "child_died"}
    keys |= set(re.findall(r'"(cause_[a-z_]+)"', code)) | set(re.findall(r'"(note_[a-z_]+)"', code))
    keys -= {"todo_", "flag_on_", "flag_off_", "repair_"}
    # A proven repair's words, by the kind of its change.
    keys |= {"repair_" + kind for kind in ("replace", "rename", "indent", "own", "move",
                                           "insert", "insert_start", "delete")}
    assert len(keys) > 100
    for lang in LANGS:
        assert keys <= set(texts(lang)["messages"]), sorted(keys - set(texts(lang)["messages"]))
        assert set(texts(lang)["messages"]) == set(texts("en")["messages"])
        # What a program did, said before the cause found in its text.
        assert set(texts(lang)["saw"]) == set(texts("en")["saw"])
    assert set(texts("zh")["saw"]) <= set(texts("zh")["messages"])


def flat(words, where=""):
    """Every text of a language's words, by its place ("messages/ok_312")."""
    if isinstance(words, str):
        return {where: words}
    return {place: text for key, value in words.items()
            for place, text in flat(value, where + "/" + key).items()}


def test_the_traditional_chinese_language_is_taiwans_with_the_same_facts():
    simplified, traditional = flat(texts("zh")), flat(texts("zh-TW"))
    assert set(simplified) == set(traditional)
    for place, text in simplified.items():
        facts = {name for _, name, _, _ in string.Formatter().parse(text) if name}
        assert facts == {name for _, name, _, _ in string.Formatter().parse(
            traditional[place]) if name}, place
    every = "".join(traditional.values())
    # Taiwan's words for a program, a file, a call, a list and passing (not
    # the mainland's), and its quotation marks; a row and a column are
    # named as Taiwan names them, and the mainland's word for a row is left
    # for a line of the program.
    for mainland in ("\u7a0b\u5e8f", "\u6587\u4ef6", "\u8c03\u7528", "\u8abf\u7528",
                     "\u5217\u8868", "\u901a\u8fc7", "\u900f\u904e", "\u201c"):
        assert mainland not in every, mainland
    assert texts("zh-TW")["axes"] == {"row": "\u5217", "col": "\u6b04"}
    cells = r"\u7b2c (\{n?row\}|\d+) %s\u7b2c (\{n?col\}|\d+) %s"    # row r, column c
    for place, text in simplified.items():
        assert re.findall(cells % ("\u884c", "\u5217"), text) == re.findall(
            cells % ("\u5217", "\u6b04"), traditional[place]), place
        assert not re.search(r"\{n?(row|col)\} \u884c", traditional[place]), place


def test_the_checker_speaks_each_language_asked_for_or_the_computers_own(tmp_path):
    # A right click that calls nothing: the checker names the tile clicked.
    program = tmp_path / "right.py"
    program.write_bytes(book().replace("                set_flag(block)\n",
                                       "                pass\n", 1).encode("gb18030"))
    said = {}
    for lang in LANGS:
        [result] = json.loads(run_check("--json", "--lang", lang, str(program)).stdout)
        said[lang] = [check["message"] for check in result["checks"] if check["ok"] is False]
        assert len(said[lang]) == 1 and pattern("right_nothing", lang).fullmatch(
            said[lang][0]), said[lang]
    assert "\u7b2c 3 \u884c\u7b2c 4 \u5217" in said["zh"][0]        # row 3, column 4
    assert "\u7b2c 3 \u5217\u7b2c 4 \u6b04" in said["zh-TW"][0]
    assert "row 3, column 4" in said["en"][0]
    # Without --lang, as the game chooses: MINESWEEP_LANG, then the computer's
    # language, and the book's when it names none the checker speaks.
    empty = tmp_path / "empty.py"
    empty.write_text("", encoding="utf-8")
    for env, lang in (({"LANG": "zh_TW.UTF-8"}, "zh-TW"), ({"LANG": "C.UTF-8"}, "zh"),
                      ({"LC_ALL": "Chinese (Traditional)_Taiwan.950"}, "zh-TW"),
                      ({"LANG": "en_GB.UTF-8"}, "en"), ({"LANG": "de_DE.UTF-8"}, "zh"),
                      ({"LANG": "zh_HK.UTF-8", "MINESWEEP_LANG": "en"}, "en")):
        done = run_check(str(empty), env=env)
        assert done.stdout.splitlines()[1] == texts(lang)["intro"], env
    page = tmp_path / "class.html"
    assert run_check("--lang", "zh-TW", "--html", str(page), str(empty)).returncode == 1
    assert '<html lang="zh-TW">' in page.read_text(encoding="utf-8")


def test_a_program_runs_in_a_temporary_folder_with_limits(tmp_path):
    # Two programs that tell, in the words of their own error, where they
    # run, their memory limit, and (in draw, after loading) the recursion limit.
    (tmp_path / "where.py").write_text(
        "import os, resource\n"
        "raise ValueError(os.getcwd() + ' ' + str(resource.getrlimit(resource.RLIMIT_AS)[0]))\n",
        encoding="utf-8")
    text = book().replace("def draw():\n", "def draw():\n    import sys\n"
                          "    raise ValueError('limit %d' % sys.getrecursionlimit())\n")
    (tmp_path / "depth.py").write_bytes(text.encode("gb18030"))
    done = run_check("--json", "--lang", "en", str(tmp_path))
    results = {os.path.basename(r["file"]): r["checks"] for r in json.loads(done.stdout)}
    said = results["where.py"][0]["message"]
    # No change of a line makes this program work: no line is named, and
    # where Python stopped it is said.
    assert results["where.py"][0]["line"] is None
    assert said.endswith(texts("en")["stopped_at"].format(stopped=2))
    said = said[:-len(texts("en")["stopped_at"].format(stopped=2))]
    folder, limit = said.rsplit("ValueError: ", 1)[1].split()
    assert folder != str(tmp_path) and "minesweep-check-" in folder
    assert not os.path.exists(folder)             # removed when the check ended
    assert 0 < int(limit) <= 2 ** 31
    # draw() runs at the first frame, right after loading.
    stopped = [c for c in results["depth.py"] if c["ok"] is not True][0]
    assert "ValueError: limit 450" in stopped["message"]


def test_one_bad_program_never_stops_the_others(tmp_path):
    for name in ("a_book.py", "z_book.py"):
        with open(BOOK, "rb") as src:
            (tmp_path / name).write_bytes(src.read())
    # It stops the process that started it, and then checks nothing.
    (tmp_path / "m_stops_its_parent.py").write_text(
        "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nraise SystemExit\n",
        encoding="utf-8")
    done = run_check("--json", str(tmp_path))
    results = {os.path.basename(r["file"]): r for r in json.loads(done.stdout)}
    assert done.returncode == 1
    assert results["a_book.py"]["reached"] == results["z_book.py"]["reached"] == "3.4.2"
    assert results["m_stops_its_parent.py"]["checks"][0]["ok"] is False


def test_the_teachers_three_are_told_at_their_own_line(tmp_path):
    text = book()
    programs = {
        # A NameError on a left click: 3.3.1 is where left clicks start.
        "left_bk": edit("                    open_block(block)", "                    open_block(bk)"),
        # The recursion opens the tile itself again and again.
        "loop_bk": edit(" :\n            open_block(block)\n", " :\n            open_block(bk)\n"),
        # The row decides top: the line of top is named, not left's.
        "top_j": edit("block.top = i * SIZE", "block.top = j * SIZE"),
    }
    for name, change in programs.items():
        (tmp_path / (name + ".py")).write_bytes(change(text).encode("gb18030"))
    done = run_check("--json", str(tmp_path))
    results = {os.path.basename(r["file"])[:-3]: [c for c in r["checks"] if c["ok"] is False][0]
               for r in json.loads(done.stdout)}
    for name, section, piece in (("left_bk", "3.3.1", "open_block(bk)"),
                                 ("loop_bk", "3.3.4", "            open_block(bk)"),
                                 ("top_j", "3.1.3", "block.top = j * SIZE")):
        failed = results[name]
        assert failed["section"] == section, failed
        assert failed["line"] == line_of(programs[name](text), piece), failed
    assert "block" in results["left_bk"]["message"]
    said = results["loop_bk"]["message"]
    assert "open_block(bk)" in said and "\u65c1\u8fb9\u7684\u65b9\u5757 block" in said   # the tile next to it
    assert "bombnum" not in said            # not the stop conditions, which are right
    assert "block.top" in results["top_j"]["message"]


def test_thonny_and_the_first_line(tmp_path):
    text = book()
    utf8_comments = text.encode("utf-8")
    cases = {
        # pgzrun imported, never started: right under pgzrun, a note for Thonny.
        "no_go.py": text.replace("\n", "\nimport pgzrun\n", 1).encode("gb18030"),
        # started, never imported: a NameError as it starts.
        "no_import.py": (text + "pgzrun.go()\n").encode("gb18030"),
        # Notepad's "UTF-8 with BOM" before the book's coding line.
        "bom.py": b"\xef\xbb\xbf" + utf8_comments,
        # The book's gb18030 line in a file an editor such as Notepad saved as UTF-8.
        "utf8_says_gb.py": utf8_comments,
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
    done = run_check("--json", str(tmp_path))
    results = {os.path.basename(r["file"]): r for r in json.loads(done.stdout)}
    no_go = results["no_go.py"]
    assert no_go["reached"] == "3.4.2"
    assert [n["line"] for n in no_go["notes"]] == [2]
    assert "pgzrun.go()" in no_go["notes"][0]["message"]
    first = results["no_import.py"]["checks"][0]
    assert first["ok"] is False and pattern("no_import_pgzrun").fullmatch(first["message"])
    assert first["line"] == len(text.splitlines()) + 1
    first = results["bom.py"]["checks"][0]
    assert first["ok"] is False and pattern("bom_coding").fullmatch(first["message"])
    assert "BOM" in first["message"]
    # GB18030 reads most UTF-8 Chinese as other letters without an error:
    # the program runs, with a note; where it cannot read a line, a failure.
    said = results["utf8_says_gb.py"]
    if said["checks"][0]["ok"] is False:
        assert pattern("utf8_says_gb").fullmatch(said["checks"][0]["message"])
    else:
        assert pattern("note_utf8_says_gb").fullmatch(said["notes"][0]["message"])


def test_not_yet_written_has_its_own_mark(tmp_path):
    step = os.path.join(ROOT, "chapter", "step05_flag_pass.py")
    done = run_check(step)
    assert done.returncode == 1
    marks = re.findall(r"^  \[([^\]]+)\] (3\.\d\.\d)", done.stdout, re.M)
    words = texts()
    assert marks[4] == (words["todo"], "3.2.2")
    assert words["failed"] not in [mark for mark, _ in marks]
    page = tmp_path / "class.html"
    run_check("--html", str(page), step)
    assert page.read_text(encoding="utf-8").count('class="mark todo"') == 1


def test_a_coding_line_python_cannot_read_a_program_in_is_named(tmp_path):
    # A codec that is no text encoding (undefined, rot13, punycode), one
    # that does not read ASCII as ASCII (UTF-16, EBCDIC's cp037): the
    # coding line is the fault, at line 1, never "ended by itself" nor "a
    # Chinese sign".
    text = book()
    for coding in ("undefined", "rot13", "punycode", "utf-16", "cp037"):
        (tmp_path / ("c_%s.py" % coding.replace("-", ""))).write_bytes(
            text.replace("coding:gb18030", "coding: " + coding, 1).encode("gb18030"))
    done = run_check("--json", str(tmp_path))
    for result in json.loads(done.stdout):
        first = result["checks"][0]
        assert first["ok"] is False and first["line"] == 1, result
        assert pattern("bad_coding").fullmatch(first["message"]), result


def test_every_file_of_the_checker_is_on_its_own_list():
    # The classroom kit copies the checker by its list: a file left off it
    # would be missing on every student's computer.
    sys.path.insert(0, os.path.join(ROOT, "chapter"))
    import check
    there = {name for name in os.listdir(os.path.join(ROOT, "chapter"))
             if name.startswith("check") and name.endswith((".py", ".json", ".html"))}
    assert set(check.CHECKER_FILES) == there


def test_a_failing_section_is_told_before_its_line_is_proven(tmp_path):
    # The class's live page shows what a program did as soon as it is
    # seen, and the line once the repair search proves it: each finding is
    # handed over as the check writes it, the failure first without a line.
    sys.path.insert(0, os.path.join(ROOT, "chapter"))
    import check
    program = tmp_path / "slip.py"
    program.write_bytes(edit("if bombnum != 0:", "if bombnum == 0:")(book()).encode("gb18030"))
    seen = []
    found = check.run_program(str(program), on_finding=seen.append)
    failing = [f for f in seen if f["ok"] is False]
    assert [f["section"] for f in failing] == ["3.3.4", "3.3.4"]
    assert failing[0]["line"] is None and failing[1]["line"] == line_of(
        edit("if bombnum != 0:", "if bombnum == 0:")(book()), "if bombnum == 0:")
    assert check.merged(seen) == found
    # A caller that cannot wait turns the search off: the failure alone.
    seen = []
    found = check.run_program(str(program), on_finding=seen.append,
                              options={"repair_seconds": 0})
    assert [f["line"] for f in seen if f["ok"] is False] == [None] and found[-1]["line"] is None
