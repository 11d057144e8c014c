"""The Chinese handout, chapter/handout.html: made by tools/make_handout.py
from the lesson steps and chapter/handout_zh.json, so it cannot drift from
them; every step's whole code on its page with its marks told apart, and a
file that needs nothing outside itself."""
import base64
import html.parser
import json
import os
import re
import shutil
import sys

import pygame
import pytest

from loadgame import CHAPTER, ROOT
from test_lesson import STEPS, lines_of, source, walkthrough
from test_student_sheet import needs_printing, pdf_pages, pdf_text, print_pdf

sys.path.insert(0, os.path.join(ROOT, "tools"))
import make_handout  # noqa: E402  (tools/ is not a package)
import make_zh_steps  # noqa: E402

HANDOUT = os.path.join(CHAPTER, "handout.html")
HANDOUT_ZH = os.path.join(CHAPTER, "handout_zh.html")
ZH = os.path.join(CHAPTER, "zh")
ZH_PAGES = 12
FONT = os.path.join(ROOT, "fonts", "minesweep_zh.ttf")
KINDS = {"NEW": "new", "PEEK": "peek", "RUN": "run", None: "old"}


def handout():
    """The committed handout's text."""
    with open(HANDOUT, encoding="utf-8") as f:
        return f.read()


def chinese():
    """The handout's Chinese text, as its data file has it."""
    with open(os.path.join(CHAPTER, "handout_zh.json"), encoding="utf-8") as f:
        return json.load(f)


class Pages(html.parser.HTMLParser):
    """The handout's sections: each one's text, and its code line by line."""

    def __init__(self):
        """Start with no sections."""
        super().__init__()
        self.sections = {}
        self.section = None
        self.line = None
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        """Note where a section and a line of code begin."""
        attrs = dict(attrs)
        if tag == "section":
            self.section = {"text": "", "code": [], "ids": []}
            self.sections[attrs["id"]] = self.section
        if self.section is not None and "id" in attrs:
            self.section["ids"].append(attrs["id"])
        if tag == "span" and attrs.get("class", "").startswith("l "):
            number = attrs["data-n"]
            self.line = [attrs["class"].split()[1],
                         int(number) if number.isdigit() else number, ""]
            self.section["code"].append(self.line)
            self.depth = 0
        elif tag == "span" and self.line is not None:
            self.depth += 1

    def handle_endtag(self, tag):
        """Note where a line of code or a section ends."""
        if tag == "span" and self.line is not None:
            if self.depth:
                self.depth -= 1
            else:
                self.line = None
        if tag == "section":
            self.section = None

    def handle_data(self, data):
        """Keep the text, the code's apart from the rest."""
        if self.line is not None:
            self.line[2] += data
        elif self.section is not None:
            self.section["text"] += data


def pages(path=HANDOUT):
    """The committed handout, read into its sections."""
    parser = Pages()
    with open(path, encoding="utf-8") as f:
        parser.feed(f.read())
    parser.close()
    return parser.sections


def expected_kinds(step):
    """What each line of a step is: its mark's kind, comment or blank."""
    code = iter(lines_of(step))
    kinds = []
    for line in source(step).splitlines():
        if not line.strip():
            kinds.append("blank")
        elif line.lstrip().startswith("#"):
            kinds.append("comment")
        else:
            mark = next(code)[1]
            kinds.append("fix" if mark and mark.startswith("FIX") else KINDS[mark])
    return kinds


def test_the_handout_is_what_the_tool_makes_now():
    assert handout() == make_handout.build(), \
        "run python tools/make_handout.py and commit chapter/handout.html"


def test_every_line_of_every_step_is_on_its_page_with_its_mark():
    found = pages()
    assert [name for name in found if name.startswith("step")] == [
        "step%02d" % number for number in range(1, len(STEPS) + 1)]
    for number, step in enumerate(STEPS, 1):
        code = found["step%02d" % number]["code"]
        assert [text for _, _, text in code] == source(step).splitlines(), step
        assert [n for _, n, _ in code] == list(range(1, len(code) + 1))
        assert [kind for kind, _, _ in code] == expected_kinds(step), step
    # The marks are told apart: NEW, FIX, PEEK and RUN each have a colour.
    css = handout()
    for kind in ("new", "fix", "peek", "run"):
        colour = re.search(r"\n\.%s \{ background: (#[0-9a-f]{6})" % kind, css)
        assert colour, kind
    colours = re.findall(r"\n\.(?:new|fix|peek|run) \{ background: (#[0-9a-f]{6})", css)
    assert len(set(colours)) == 4


def book_titles():
    """The book's section titles, from the README's walkthrough table."""
    rows = [line.split("|")[1:3] for line in walkthrough().splitlines()
            if re.match(r"\| 3\.\d\.\d \|", line)]
    return {number.strip(): title.strip() for number, title in rows}


def test_each_page_has_its_section_its_title_and_chinese_for_the_class():
    found, text, titles = pages(), chinese(), book_titles()
    assert [step["file"] for step in text["steps"]] == STEPS
    for number, step in enumerate(text["steps"], 1):
        page = found["step%02d" % number]["text"]
        assert step["section"] in page and step["title"] in page
        assert "chapter/" + step["file"] in page
        numbers = re.findall(r"3\.\d\.\d", step["section"])
        title_line = source(step["file"]).splitlines()[1]
        assert numbers == re.findall(r"3\.\d\.\d", title_line)
        if "\u4e4b\u540e" not in step["section"]:         # not "after 3.4.2"
            low, high = numbers[0], numbers[-1]
            for section, title in titles.items():
                if low <= section <= high:
                    assert title in step["title"], (step["file"], section)
        assert 2 <= len(step["text"]) <= 3
        for sentence in step["text"]:
            assert re.search("[\u4e00-\u9fff]", sentence) and sentence in page
        assert len(step["questions"]) >= 2
        for question, _ in step["questions"]:
            assert question in page


def test_the_answers_are_on_the_teachers_pages_linked_both_ways():
    found, text = pages(), chinese()
    answers = found["answers"]
    for number, step in enumerate(text["steps"], 1):
        for index, (question, answer) in enumerate(step["questions"], 1):
            assert question in answers["text"] and answer in answers["text"]
            assert answer not in found["step%02d" % number]["text"]
            assert "a%02d-%d" % (number, index) in answers["ids"]
            assert "q%02d-%d" % (number, index) in found["step%02d" % number]["ids"]
    page = handout()
    assert page.count('href="#a') == page.count('href="#q') == sum(
        len(step["questions"]) for step in text["steps"])


def test_the_handout_needs_nothing_outside_itself_and_prints_on_a4():
    page = handout()
    inside = re.sub(r"data:font/ttf;base64,[A-Za-z0-9+/=]+", "", page)
    assert not re.search(r"https?:|file:|url\((?!\))|@import", inside)
    assert "<script" not in page and "<link" not in page and "<img" not in page
    assert re.findall(r'(?:src|href)="([^"#][^"]*)"', page) == []
    fonts = re.findall(r"data:font/ttf;base64,([A-Za-z0-9+/=]+)", page)
    with open(FONT, "rb") as f:
        assert fonts == [base64.b64encode(f.read()).decode("ascii")]
    assert "@page { size: A4;" in page
    printing = page[page.index("@media print"):]
    assert "section { break-before: page;" in printing


def test_the_font_has_every_letter_of_the_handout():
    pygame.font.init()
    font = pygame.font.Font(FONT, 20)
    missing = font.metrics("\ue000")[0]         # a letter no font has
    letters = set(json.dumps(chinese(), ensure_ascii=False))
    lacking = sorted(letter for letter in letters if not letter.isspace()
                     and font.metrics(letter)[0] == missing)
    assert lacking == []


def test_every_step_gets_letters_big_enough_to_read_on_paper():
    sizes = [float(size) for size in re.findall(r"--print-size: ([0-9.]+)pt", handout())]
    assert len(sizes) == len(STEPS)
    assert all(make_handout.SMALLEST <= size <= make_handout.LARGEST for size in sizes)
    assert sizes[0] == make_handout.LARGEST


def test_the_tool_stops_on_a_step_without_chinese_text(tmp_path, monkeypatch):
    folder = tmp_path / "chapter"
    shutil.copytree(CHAPTER, folder)
    shutil.copy(folder / STEPS[-1], folder / "step12_more.py")
    monkeypatch.setattr(make_handout, "CHAPTER", str(folder))
    monkeypatch.setattr(make_handout, "TEXT", str(folder / "handout_zh.json"))
    with pytest.raises(SystemExit) as stop:
        make_handout.build()
    assert "step12_more.py" in str(stop.value)


def test_the_pages_are_written_whole_or_not_at_all(tmp_path):
    old = [tmp_path / name for name in ("a.html", "b.html", "c.html")]
    for path in old:
        path.write_text("old", encoding="utf-8")
    # A named pipe in a page's place (writing would wait for ever for a
    # reader), a folder, a page in a folder that is not there: each is
    # refused in one line, and no page is changed.
    os.mkfifo(str(tmp_path / "pipe.html"))
    (tmp_path / "folder.html").mkdir()
    for bad in ("pipe.html", "folder.html", "gone/d.html"):
        pages = [(str(path), "new") for path in old] + [(str(tmp_path / bad), "new")]
        with pytest.raises(SystemExit) as stop:
            make_handout.write_pages(pages)
        said = str(stop.value)
        assert bad.split("/")[-1] in said and "\n" not in said.strip(), said
        assert [path.read_text(encoding="utf-8") for path in old] == ["old"] * 3
        assert sorted(os.listdir(str(tmp_path))) == [
            "a.html", "b.html", "c.html", "folder.html", "pipe.html"]
    make_handout.write_pages([(str(path), "new") for path in old])
    assert [path.read_text(encoding="utf-8") for path in old] == ["new"] * 3


def test_a_line_taken_away_is_struck_out_where_it_stood():
    # Step 8 replaces open_block's pass with its body and adds two functions
    # below: the pass is struck out under open_block's first lines, not at
    # the end of get_neighbours.
    chinese, before = make_zh_steps.build(), None
    for step in STEPS:
        after = chinese[step]
        if before is not None:
            old, new = before.splitlines(), after.splitlines()
            rows = make_handout.folded_rows(before, after)
            for at, (kind, number, text) in enumerate(rows):
                if kind != "gone" or rows[at - 1][0] == "gone":
                    continue
                above = rows[at - 1]
                assert above[0] == "line", (step, text)
                # Just under the line above it there, or the code above it
                # (the old comments between are not struck out).
                stood_under = set()
                for index, line in enumerate(old):
                    if line == text and index:
                        stood_under.add(make_handout.without_mark(old[index - 1]))
                        code = [above for above in old[:index] if above.strip()
                                and not above.lstrip().startswith("#")]
                        stood_under.add(make_handout.without_mark(code[-1]))
                assert make_handout.without_mark(new[above[1] - 1]) in stood_under, \
                    (step, text, above)
        before = after


NEEDED = "\u6ca1\u6709\u58f0\u5361\u7684\u7535\u8111\u624d\u9700\u8981"   # only a PC with no sound card needs it


def test_the_handouts_say_the_sound_guard_is_ours_and_who_needs_it():
    for path in (HANDOUT, HANDOUT_ZH):
        found, guards = pages(path), 0
        for number, step in enumerate(STEPS, 1):
            # Each step that adds a guard says so on its page.
            now = source(step).count("pygame.mixer.get_init():  # FIX e")
            if now > guards:
                assert NEEDED in found["step%02d" % number]["text"], (path, step)
            guards = now
        assert guards


# The Chinese handout, chapter/handout_zh.html: the Chinese steps' code,
# step 1 whole, each later step's changed lines in full and the rest folded.

def chinese_step(step):
    """The lines of a step of chapter/zh/."""
    with open(os.path.join(ZH, step), encoding="utf-8") as f:
        return f.read().splitlines()


def test_the_chinese_handout_is_what_the_tool_makes_now():
    with open(HANDOUT_ZH, encoding="utf-8") as f:
        assert f.read() == make_handout.build_zh(), \
            "run python tools/make_handout.py and commit chapter/handout_zh.html"


def test_every_line_the_chinese_handout_shows_is_that_line_of_its_step():
    found = pages(HANDOUT_ZH)
    before = []
    for number, step in enumerate(STEPS, 1):
        code = found["step%02d" % number]["code"]
        lines = chinese_step(step)
        assert "chapter/zh/" + step in found["step%02d" % number]["text"]
        shown = [(n, text) for kind, n, text in code if isinstance(n, int)]
        for n, text in shown:
            assert text == lines[n - 1], (step, n)
        # The numbers go up, and the folded lines are exactly those not shown.
        folds = [re.findall(r"\d+", text)[:2] for kind, n, text in code if kind == "fold"]
        covered = [n for n, _ in shown]
        for first, last in folds:
            covered += range(int(first), int(last) + 1)
        assert sorted(covered) == list(range(1, len(lines) + 1)), step
        assert [n for n, _ in shown] == sorted(n for n, _ in shown)
        # Every line of code that is new in this step is shown in full.
        plain = [make_handout.without_mark(line) for line in before]
        for n, line in enumerate(lines, 1):
            if line.strip() and not line.lstrip().startswith("#") \
                    and make_handout.without_mark(line) not in plain:
                assert n in dict(shown), (step, n, line)
        if number == 1:
            end = make_handout.about_start(lines)
            assert [n for n, _ in shown] == list(range(1, end + 1))
        # The comments of the Chinese step are on the page, not the English ones.
        assert any("\u65b9\u5757" in text for _, text in shown), step
        before = lines


@needs_printing
def test_the_chinese_handout_prints_on_a4_with_the_answers_last(tmp_path):
    pdf = print_pdf(HANDOUT_ZH, tmp_path / "handout_zh.pdf")
    count = pdf_pages(pdf)
    assert 1 <= count <= ZH_PAGES, count
    on_paper = pdf_text(tmp_path / "handout_zh.pdf").split("\f")
    where = {}
    for page, text in enumerate(on_paper, 1):
        for step in STEPS:
            if "chapter/zh/" + step in text:
                where.setdefault(step, page)
        if chinese()["labels"]["answers_title"] in text:
            where.setdefault("answers", page)
    assert list(where) == STEPS + ["answers"]
    assert where["answers"] > where[STEPS[-1]]
    # The README says how many pages it prints on.
    with open(os.path.join(ROOT, "README.zh.md"), encoding="utf-8") as f:
        readme = f.read()
    assert "handout_zh.html" in readme
    assert "A4 \u7eb8\u4e0a\u5370 %d \u9875" % count in readme, count
