"""The students' sheet, chapter/student.html: made by tools/make_handout.py
from the steps, so it cannot drift from them. For each step only the lines
it adds and where they go, the old lines they replace, the questions
without their answers, and a small board whose calls the game's own
--calls writes; it prints on at most four A4 pages. The teacher's handout
keeps every line number on paper."""
import csv
import html
import html.parser
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tokenize

import pygame
import pytest

from loadgame import CHAPTER, ROOT
from test_lesson import STEPS

sys.path.insert(0, os.path.join(ROOT, "tools"))
import make_handout  # noqa: E402  (tools/ is not a package)
import make_zh_steps  # noqa: E402

SHEET = os.path.join(CHAPTER, "student.html")
HANDOUT = os.path.join(CHAPTER, "handout.html")
FONT = os.path.join(ROOT, "fonts", "minesweep_zh.ttf")
PAGES = 4


def read(path):
    """A file's text."""
    with open(path, encoding="utf-8") as f:
        return f.read()


def data(name):
    """One of the chapter's Chinese data files."""
    with open(os.path.join(CHAPTER, name), encoding="utf-8") as f:
        return json.load(f)


class Sheet(html.parser.HTMLParser):
    """A page's sections: each one's text, its printed lines (kind, number,
    text), and its tables' cells (class, text) row by row."""

    def __init__(self):
        """Start with no sections."""
        super().__init__()
        self.sections, self.section, self.line, self.cell = {}, None, None, None

    def handle_starttag(self, tag, attrs):
        """Note where a section, a printed line, a table or a cell begins."""
        attrs = dict(attrs)
        if tag == "section":
            self.section = {"text": "", "lines": [], "tables": []}
            self.sections[attrs["id"]] = self.section
        elif self.section is None:
            return
        elif tag == "span" and "data-n" in attrs:
            self.line = [attrs.get("class", ""), attrs["data-n"], ""]
            self.section["lines"].append(self.line)
        elif tag == "table":
            self.section["tables"].append([])
        elif tag == "tr":
            self.section["tables"][-1].append([])
        elif tag == "td":
            self.cell = [attrs.get("class", ""), ""]
            self.section["tables"][-1][-1].append(self.cell)

    def handle_endtag(self, tag):
        """Note where a line, a cell or a section ends."""
        if tag == "span":
            self.line = None
        elif tag == "td":
            self.cell = None
        elif tag == "section":
            self.section = None

    def handle_data(self, text):
        """Keep the text where it belongs."""
        if self.line is not None:
            self.line[2] += text
        elif self.cell is not None:
            self.cell[1] += text
        elif self.section is not None:
            self.section["text"] += text


def sections(path):
    """A page's sections, by id."""
    parser = Sheet()
    parser.feed(read(path))
    parser.close()
    return parser.sections


@pytest.fixture(scope="module")
def board():
    """The worksheet's bombs and calls, worked out once."""
    return make_handout.worksheet_board(data("student_zh.json")["worksheet"]["board"])


def code_of(text):
    """Each line of code of a step, without its comment, by line number
    (comment lines and blank lines are left out)."""
    lines = text.splitlines()
    found = {}
    comments = {}
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.start[1]
    for number, line in enumerate(lines, 1):
        if line.strip() and not line.lstrip().startswith("#"):
            found[number] = line[:comments.get(number, len(line))].rstrip()
    return found


def test_the_sheet_and_the_handout_are_what_the_tool_makes_now(board):
    # (Compared first, so a failure does not spell out the font's letters.)
    same = [read(SHEET) == make_handout.build_student(board),
            read(HANDOUT) == make_handout.build(board)]
    assert same == [True, True], \
        "run python tools/make_handout.py and commit chapter/student.html and handout.html"


def test_each_step_on_the_sheet_turns_the_step_before_into_it():
    # The step before, less the lines the sheet strikes out (by their old
    # numbers), is the step, less the lines the sheet adds (by their new
    # numbers): the sheet holds every line each step adds, and nothing else.
    found, chinese = sections(SHEET), make_zh_steps.build()
    assert [name for name in found if name.startswith("step")] == [
        "step%02d" % number for number in range(1, len(STEPS) + 1)]
    before = {}
    for number, step in enumerate(STEPS, 1):
        after = code_of(chinese[step])
        lines = found["step%02d" % number]["lines"]
        added = {int(n): text for kind, n, text in lines if "add" in kind.split()}
        gone = {int(n): text for kind, n, text in lines if kind == "gone"}
        assert added, step
        assert [code for n, code in sorted(before.items()) if n not in gone] == \
            [code for n, code in sorted(after.items()) if n not in added], step
        for n, text in gone.items():
            assert text == before[n], (step, n)         # the old code, struck out
        for n, text in added.items():
            # The line as the Chinese step has it, its Chinese comment too,
            # less its NEW mark: every line here is new.
            assert text == re.sub(r"\s*# NEW$", "", chinese[step].splitlines()[n - 1])
        # Every piece comes with a Chinese comment.
        for kind, n, text in lines:
            if kind == "note":
                assert re.search("[\u4e00-\u9fff]", text)
        before = after


def where_lines(page):
    """The sheet's sentences that say where a change goes, as plain text."""
    return [html.unescape(re.sub(r"<[^>]+>", "", found))
            for found in re.findall(r'<p class="where">(.*?)</p>', page)]


def test_each_change_says_where_it_goes_by_the_code_not_by_line_numbers():
    found = sections(SHEET)
    said = where_lines(read(SHEET))
    # Where the book's own rewrites go, in words: the old code is quoted,
    # as a student who left the comments out has other line numbers.
    for words in ("\u5728 on_mouse_down() \u51fd\u6570\u91cc\uff0c\u628a\u539f\u6765\u7684 "
                  "if block.collidepoint(pos): \u8fd9\u4e00\u884c\u6362\u6210",
                  "\u5728 open_block() \u51fd\u6570\u91cc\uff0c\u628a\u539f\u6765\u7684 "
                  "if not block.isopen : \u8fd9\u4e00\u884c\u6362\u6210",
                  "\u5728 draw() \u51fd\u6570\u91cc\uff0c\u628a\u539f\u6765\u7684 "
                  "if failed: \u8fd9\u4e00\u884c\u6362\u6210",
                  "\u5220\u53bb\u539f\u6765\u7684 blocks[i].image = \"minesweep_bomb\" "
                  "\u8fd9\u4e00\u884c"):
        assert any(words in line for line in said), words
    # (in on_mouse_down(), replace the old line "if block.collidepoint(pos):",
    # ... / take away the old line of the PEEK mark)
    assert "\u63a5\u5728 set_flag(block) \u8fd9\u4e00\u884c\u540e\u9762" in "".join(said)
    assert not [line for line in said if re.search(r"\u7b2c ?\d+ ?\u884c", line)]
    assert [kind for kind, _, _ in found["step04"]["lines"]][0] == "gone"


def label_pattern(label):
    """A label of the sheet as a pattern: each {name} in it stands for anything."""
    parts = re.split(r"\{(\w+)\}", label)
    return "".join(re.escape(part) if n % 2 == 0 else "(?P<%s>.+?)" % part
                   for n, part in enumerate(parts))


def top_level_blocks(text):
    """A step's code lines (stripped of comments and spaces) under each line
    at the left edge: its functions and top-level loops, by their first line."""
    blocks, header = {}, None
    for number, code in sorted(code_of(text).items()):
        if not code.startswith(" "):
            header = code
        blocks.setdefault(header, []).append(code.strip())
    return blocks


def test_each_line_the_sheet_says_to_follow_is_found_once_where_it_says():
    # A student looks for the quoted line from the top of the function or
    # loop the sentence names (or of the whole file): it must be there once,
    # or the new lines go to the wrong place.
    labels = data("student_zh.json")["labels"]
    after = re.compile(label_pattern(labels["after"]))
    in_function = re.compile(label_pattern(labels["in_function"]))
    in_block = re.compile(label_pattern(labels["in_block"]))
    after_function = re.compile(label_pattern(labels["after_function"]))
    # What stands between the spot and the rest, as in "{spot}, {what}:".
    between = labels["where"].split("{spot}")[1].split("{what}")[0]
    chinese, page, checked = make_zh_steps.build(), read(SHEET), 0
    for number, step in enumerate(STEPS, 1):
        section = re.search(r'<section class="step" id="step%02d">(.*?)</section>' % number,
                            page, re.S).group(1)
        blocks = top_level_blocks(chinese[step])
        everything = [code for lines in blocks.values() for code in lines]
        for line in where_lines(section):
            spot, _, what = line.partition(between)
            scope = everything
            found = in_function.fullmatch(spot)
            if found:
                heads = [head for head in blocks if head.startswith(
                    "def %s(" % found.group("name"))]
                assert len(heads) == 1, (step, line)
                scope = blocks[heads[0]]
            found = in_block.fullmatch(spot)
            if found:
                assert found.group("code") in blocks, (step, line)
                scope = blocks[found.group("code")]
            found = after.search(what)
            if found:
                assert scope.count(found.group("code")) == 1, (step, line)
                checked += 1
            found = after_function.search(what)
            if found:
                assert len([head for head in blocks if head.startswith(
                    "def %s(" % found.group("name"))]) == 1, (step, line)
                checked += 1
    assert checked >= 20


def test_the_students_file_has_a_name_of_its_own():
    said = where_lines(read(SHEET))
    # The file of their own, "not minesweep.py": that is the game, which it would overwrite.
    assert "\u6211\u7684\u626b\u96f7.py" in said[0]
    assert "\u4e0d\u8981\u53eb minesweep.py" in said[0]
    assert "\u6bd4\u5982 minesweep.py" not in read(SHEET)
    # Its first step starts at line 1: the utf-8 coding line every student keeps.
    first = [line for line in sections(SHEET)["step01"]["lines"] if line[1].isdigit()]
    assert first[0][1:] == ["1", "# -*- coding: utf-8 -*-"]


def test_the_sheet_warns_of_the_books_coding_line(tmp_path):
    page = html.unescape(read(SHEET))
    assert "Thonny" in page and "# -*- coding:gb18030 -*-" in page
    assert "SyntaxError: encoding problem: gb18030" in page
    # A program that begins with the book's line, saved as UTF-8 (as Notepad
    # or VS Code saves it): Python stops as the sheet says, and what the checker says of
    # it is what the sheet quotes.
    with open(os.path.join(CHAPTER, "zh", STEPS[0]), encoding="utf-8") as f:
        lines = f.read().splitlines()
    typed = tmp_path / "typed.py"
    typed.write_text("\n".join(["# -*- coding:gb18030 -*-"] + lines[1:]) + "\n",
                     encoding="utf-8")
    ran = subprocess.run([sys.executable, str(typed)], capture_output=True, timeout=60)
    assert b"SyntaxError: encoding problem: gb18030" in ran.stderr
    done = subprocess.run([sys.executable, os.path.join(CHAPTER, "check.py"), "--lang", "zh",
                           "--json", str(typed)], capture_output=True, timeout=300)
    checks = json.loads(done.stdout.decode("utf-8"))[0]["checks"]
    says = next(check["message"] for check in checks if check["ok"] is False)
    assert "gb18030" in says and says in page


NEEDED = "\u6ca1\u6709\u58f0\u5361\u7684\u7535\u8111\u624d\u9700\u8981"   # only a PC with no sound card needs it


def test_the_sound_guard_is_marked_as_ours_and_the_books_lines_are_not_wrong(tmp_path):
    found, chinese, told = sections(SHEET), make_zh_steps.build(), 0
    for number, step in enumerate(STEPS, 1):
        lines = found["step%02d" % number]["lines"]
        guards = [kind for kind, n, text in lines if text.rstrip().endswith("# FIX e")]
        others = [kind for kind, n, text in lines
                  if "add" in kind.split() and not text.rstrip().endswith("# FIX e")]
        if not guards:
            continue
        # Told apart from the book's lines, and, the first time, said who needs them.
        assert all(kind.split() == ["add", "ours"] for kind in guards), step
        assert all(kind.split() == ["add"] for kind in others), step
        assert (NEEDED in found["step%02d" % number]["text"]) == (told == 0), step
        told += 1
    assert told == 2                    # steps 9 and 10
    # A student who types the book's lines as printed, with no guard, is
    # not wrong: the checker passes the book's program so.
    lines = chinese[STEPS[9]].splitlines()
    book, drop = [], 0
    for line in lines:
        if line.rstrip().endswith("# FIX e"):
            drop = len(line) - len(line.lstrip()) + 4 if line.strip().startswith("if") else 0
            continue
        if drop and line.startswith(" " * drop):
            line = line[4:]
        else:
            drop = 0
        book.append(line)
    text = "\n".join(book) + "\n"
    assert "pygame" not in text.replace("pgzrun", "") and "sounds.win.play()" in text
    program = tmp_path / "book.py"
    program.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, os.path.join(CHAPTER, "check.py"), "--json",
                           str(program)], capture_output=True, text=True, encoding="utf-8",
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_questions_are_there_and_their_answers_are_not():
    found, text, sheet = sections(SHEET), data("handout_zh.json"), data("student_zh.json")
    page = read(SHEET)
    for number, step in enumerate(text["steps"], 1):
        here = found["step%02d" % number]["text"]
        for question, answer in step["questions"]:
            assert question in here
            assert answer not in page
        for question, answer in sheet["questions"].get(step["file"], []):
            assert question in here
            assert answer not in page
    assert len(sheet["questions"]["step08_recursion.py"]) == 2
    # The grid to write the calls in is empty.
    grid = found["board"]["tables"][1]
    assert all(cell[1] == "" for row in grid[1:] for cell in row)


def run_calls(worksheet, folder, lang="en"):
    """The game's own worksheet of the board: python minesweep.py --calls."""
    os.makedirs(folder, exist_ok=True)
    out = os.path.join(folder, "calls.csv")
    env = dict(os.environ, MINESWEEP_DATA_DIR=folder, SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy")
    row, col = worksheet["click"]
    done = subprocess.run(
        [sys.executable, "minesweep.py", "--lang", lang, "--calls", out,
         "--board", str(worksheet["number"]),
         "--rows", str(worksheet["rows"]), "--cols", str(worksheet["cols"]),
         "--bombs", str(worksheet["bombs"]), "--at", "%d,%d" % (row, col)],
        cwd=ROOT, env=env, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    with open(out, encoding="utf-8-sig", newline="") as f:     # with its BOM
        rows = list(csv.reader(f))
    # The column names are the line just above the first call's (a title may
    # come before them).
    first = next(index for index, row in enumerate(rows) if row[:1] == ["1"])
    return [dict(zip(rows[first - 1], row)) for row in rows[first:]]


def test_the_board_is_the_games_and_the_key_is_what_calls_writes(tmp_path):
    sheet = data("student_zh.json")["worksheet"]
    worksheet = sheet["board"]
    rows, cols = worksheet["rows"], worksheet["cols"]
    calls = run_calls(worksheet, str(tmp_path))
    found = sections(SHEET)["board"]
    small, grid = found["tables"]
    assert len(small) == len(grid) == rows + 1
    assert all(len(row) == cols for row in small[1:] + grid[1:])
    bombs = {(r, c) for r, row in enumerate(small[1:], 1) for c, cell in enumerate(row, 1)
             if "bomb" in cell[0]}
    assert len(bombs) == worksheet["bombs"]
    assert all(cell[1] == sheet["bomb"] for r, c in bombs for cell in [small[r][c - 1]])
    clicked = [(r, c) for r, row in enumerate(small[1:], 1) for c, cell in enumerate(row, 1)
               if "click" in cell[0]]
    assert clicked == [tuple(worksheet["click"])]
    # The bombs in words too, in reading order, rows and columns from 1.
    places = re.findall(r"\((\d+),(\d+)\)", found["text"])
    assert [(int(r), int(c)) for r, c in places] == sorted(bombs)
    assert "--board %d " % worksheet["number"] in found["text"]
    # Each tile the calls opened shows as many of the sheet's bombs around
    # it as the game counted, and none of them is a bomb.
    assert calls[0]["call"] == "1" and (int(calls[0]["row"]), int(calls[0]["col"])) \
        == tuple(worksheet["click"])
    for call in calls:
        r, c = int(call["row"]), int(call["col"])
        assert (r, c) not in bombs
        around = sum((r + dr, c + dc) in bombs for dr in (-1, 0, 1) for dc in (-1, 0, 1))
        assert around == int(call["bombs"]), call
    # The teacher's key has each call's order and depth where --calls says.
    key = sections(HANDOUT)["sheet-answers"]["tables"][0]
    written = {(r, c): cell[1] for r, row in enumerate(key[1:], 1)
               for c, cell in enumerate(row, 1) if cell[1]}
    assert written == {(int(call["row"]), int(call["col"])): "%s/%s" % (
        call["call"], call["depth"]) for call in calls}
    assert max(int(call["depth"]) for call in calls) >= 5     # deep enough to see


def test_the_click_is_the_start_tile_the_game_frames_for_that_board():
    import gamestate
    worksheet = data("student_zh.json")["worksheet"]["board"]
    row, col = worksheet["click"]
    start = gamestate.start_tile(worksheet["number"], worksheet["rows"], worksheet["cols"])
    assert divmod(start, worksheet["cols"]) == (row - 1, col - 1)
    # The tool stops on a click that is not the game's start tile.
    other = dict(worksheet, click=[row, col % worksheet["cols"] + 1])
    with pytest.raises(SystemExit) as stop:
        make_handout.worksheet_board(other)
    assert "row %d, column %d" % (row, col) in str(stop.value)


def test_the_sheet_names_the_csv_columns_as_the_game_writes_them_in_chinese(tmp_path):
    worksheet = data("student_zh.json")["worksheet"]["board"]
    english = run_calls(worksheet, str(tmp_path / "en"), "en")
    chinese = run_calls(worksheet, str(tmp_path / "zh"), "zh")
    heading = list(english[0])
    names = {name: list(chinese[0])[heading.index(name)] for name in ("call", "depth")}
    text = html.unescape(sections(SHEET)["board"]["text"])
    # "... is which call it is", "... is which depth"
    assert "\u201c%s\u201d\u4e00\u5217\u662f\u7b2c\u51e0\u6b21\u8c03\u7528" % names["call"] in text
    assert "\u201c%s\u201d\u4e00\u5217\u662f\u7b2c\u51e0\u5c42" % names["depth"] in text
    assert "call \u662f" not in text and "depth \u662f" not in text


def test_the_teachers_pages_answer_the_sheets_questions():
    answers = sections(HANDOUT)["sheet-answers"]["text"]
    for questions in data("student_zh.json")["questions"].values():
        for question, answer in questions:
            assert question in answers and answer in answers


def test_the_font_has_every_letter_of_the_sheet():
    pygame.font.init()
    font = pygame.font.Font(FONT, 20)
    missing = font.metrics("\ue000")[0]         # a letter no font has
    text = re.sub(r"<style>.*?</style>", "", read(SHEET), flags=re.S)
    letters = set(re.sub(r"<[^>]+>", "", text))
    lacking = sorted(letter for letter in letters if ord(letter) > 127
                     and not letter.isspace() and font.metrics(letter)[0] == missing)
    assert lacking == []


def test_the_tool_stops_on_a_change_without_a_chinese_comment(monkeypatch, tmp_path, board):
    sheet = data("student_zh.json")
    del sheet["notes"]["step03_shuffle.py|import random"]
    path = tmp_path / "student_zh.json"
    path.write_text(json.dumps(sheet, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setattr(make_handout, "STUDENT_TEXT", str(path))
    with pytest.raises(SystemExit) as stop:
        make_handout.build_student(board)
    assert "step03_shuffle.py|import random" in str(stop.value)


# Printing, as a teacher does from a browser: headless Chromium and poppler.
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PDFTOTEXT = shutil.which("pdftotext")
needs_printing = pytest.mark.skipif(
    not (CHROMIUM and PDFTOTEXT) and not os.environ.get("MINESWEEP_REQUIRE_WINDOW"),
    reason="no chromium or pdftotext to print with")


def print_pdf(page, out):
    """Print an HTML file to a PDF on A4, as a browser's Print does; its bytes."""
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                        "--disable-background-networking", "--disable-component-update",
                        "--disable-sync", "--no-first-run", "--user-data-dir=" + profile,
                        "--no-pdf-header-footer", "--print-to-pdf=" + str(out),
                        "file://" + page], capture_output=True, timeout=300)
    with open(out, "rb") as f:
        return f.read()


def pdf_text(path):
    """A PDF's text as pdftotext lays it out, pages apart by form feeds."""
    done = subprocess.run([PDFTOTEXT, "-layout", str(path), "-"],
                          capture_output=True, timeout=120)
    return done.stdout.decode("utf-8")


def pdf_pages(pdf):
    """How many pages a PDF has, counted from its page objects."""
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


@needs_printing
def test_the_sheet_prints_on_at_most_four_pages(tmp_path):
    pdf = print_pdf(SHEET, tmp_path / "student.pdf")
    pages = pdf_pages(pdf)
    assert 1 <= pages <= PAGES, pages
    text = pdf_text(tmp_path / "student.pdf")
    assert text.count("\f") >= pages - 1
    # Everything is on paper: the last step's last line and the board.
    assert "and block is not bk:" in text
    assert data("student_zh.json")["worksheet"]["title"] in text


@needs_printing
def test_the_handout_keeps_every_line_number_on_paper(tmp_path):
    print_pdf(HANDOUT, tmp_path / "handout.pdf")
    text = pdf_text(tmp_path / "handout.pdf")
    ends = ["chapter/" + step for step in STEPS[1:]] + [
        data("handout_zh.json")["labels"]["answers_title"]]
    for step, end in zip(STEPS, ends):
        start = text.index("chapter/" + step)
        page = text[start:text.index(end, start)]
        count = len(read(os.path.join(CHAPTER, step)).splitlines())
        numbers = []
        for line in page.splitlines():
            found = re.match(r"\s*(\d+)(?:\s|$)", line)
            if found and int(found.group(1)) == len(numbers) + 1:
                numbers.append(int(found.group(1)))
            if len(numbers) == count:
                break
        # Blank lines too: every number from 1 to the last line, in order.
        assert numbers == list(range(1, count + 1)), step
