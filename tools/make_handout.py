"""Make chapter/handout.html and chapter/handout_zh.html: the lesson steps
on pages, for the teacher (the English steps with Chinese notes, and the
Chinese steps of chapter/zh, to project); and chapter/student.html, the
students' short sheet.

Run from the project folder:  python tools/make_handout.py
It reads every chapter/step*.py (and chapter/zh/) and the Chinese text of
each step from chapter/handout_zh.json (UTF-8), and writes the three HTML
files, which any browser opens without the internet: the Chinese font
fonts/minesweep_zh.ttf is put inside each. Each step gets its own page (for
A4 printing) with the book's section and title, what the step adds,
questions for the class, and the step's code, with the marked lines
coloured (the whole code in handout.html; in handout_zh.html the lines the
step changes, with the unchanged ones folded). The teacher's answers are
on the last pages. Run it again after changing a step or the Chinese text
(and after python tools/make_font.py if the text has new letters): a test
checks that the handout is what this tool makes now.

The students' sheet (its own Chinese in chapter/student_zh.json) has, for
each step, only the lines it adds, where they go and the old lines they
replace, printed from the Chinese steps (tools/make_zh_steps.py); the
questions without answers; and a small board to follow open_block's calls
on, worked out by the game's own code, as "python minesweep.py --calls"
does. Its answers are on the handout's last page.
"""
import argparse
import base64
import collections
import csv
import difflib
import html
import io
import json
import os
import re
import stat
import subprocess
import sys
import tempfile
import tokenize

import make_zh_steps

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHAPTER = os.path.join(ROOT, "chapter")
TEXT = os.path.join(CHAPTER, "handout_zh.json")
FONT = os.path.join(ROOT, "fonts", "minesweep_zh.ttf")
HANDOUT = os.path.join(CHAPTER, "handout.html")
HANDOUT_ZH = os.path.join(CHAPTER, "handout_zh.html")
STUDENT = os.path.join(CHAPTER, "student.html")
STUDENT_TEXT = os.path.join(CHAPTER, "student_zh.json")

# A mark is the last thing in a line's comment: "# NEW", "# FIX e", ...
MARK = re.compile(r"# (NEW|PEEK|RUN|FIX [a-f])$")
BOOK_CODING = "# -*- coding:gb18030 -*-"     # the first line of the book's listing
SOUND_GUARD = "# FIX e"     # the mark of the lines that keep a PC with no sound card going

# Printing on A4: the height a page has for text (297 mm less the margins),
# and how big the code's letters may be on paper, in points. A short step
# gets big letters on one page; a long one the fewest pages it fits on
# with letters no smaller than SMALLEST.
PAGE_MM = 297 - 2 * 11
LARGEST, SMALLEST = 9.5, 7.2
LINE = 1.18                      # a code line's height, in em (a blank line's too:
                                 # it keeps its number, so the numbers go on)
POINT_MM = 25.4 / 72

CSS = """
@font-face { font-family: "MinesweepZH"; src: url(data:font/ttf;base64,%(font)s)
  format("truetype"); }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { font-family: "MinesweepZH", "Microsoft YaHei", "PingFang SC",
  "Noto Sans CJK SC", sans-serif; font-size: 21px; line-height: 1.6;
  color: #111; background: #fff; max-width: 70em; margin: 0 auto;
  padding: 0.5em 1.2em 3em; }
h1 { font-size: 1.8em; margin: 0.3em 0 0.2em; }
h2 { font-size: 1.45em; margin: 0.2em 0 0.1em; }
h3 { font-size: 1.1em; margin: 0.8em 0 0.2em; color: #333; }
p { margin: 0.3em 0; }
section { padding-top: 0.6em; border-top: 3px solid #bbb; margin-top: 1.4em; }
section.intro { border-top: none; margin-top: 0; }
.file { font-family: Consolas, "DejaVu Sans Mono", Menlo, "Courier New",
  monospace; color: #555; font-size: 0.85em; }
.sec { color: #b00000; margin-right: 0.5em; }
ol.q li { margin: 0.15em 0; }
ol.q a, a.back { font-size: 0.8em; color: #1f5fb0; }
.legend td { padding: 0.25em 0.6em; vertical-align: top; }
.legend td.m { white-space: nowrap; }
pre.code { font-family: Consolas, "DejaVu Sans Mono", Menlo, "Courier New",
  monospace; font-size: min(20px, 1.42vw); line-height: 1.32; margin: 0.3em 0;
  padding: 0.3em 0; background: #fcfcfc; border: 1px solid #ddd;
  overflow-x: auto; }
pre.code .l { display: block; position: relative; padding-left: 3.6em;
  white-space: pre; min-height: 1.32em; border-left: 0.35em solid transparent; }
pre.code .l::before { content: attr(data-n); position: absolute; left: 0;
  width: 2.6em; text-align: right; color: #999; font-weight: normal; }
pre.code i { font-style: normal; color: #707070; }
pre.code b { color: #a05a00; }
pre.code .fix b { color: #1f5fb0; }
pre.code .peek b { color: #6a2fb0; }
pre.code .run b { color: #555; }
.l.comment { color: #707070; }
.new { background: #fff0a0; border-left-color: #d9a400 !important;
  font-weight: bold; }
.fix { background: #d3e9ff; border-left: 0.35em dashed #1f6fd0 !important; }
.peek { background: #ecdcff; border-left: 0.35em dotted #7a3fc0 !important; }
.run { background: #e9e9e9; border-left-color: #8a8a8a !important; }
.legend .swatch { font-family: Consolas, "DejaVu Sans Mono", monospace;
  padding: 0 0.4em; border-left: 0.35em solid transparent; }
.answers dt { font-weight: bold; margin-top: 0.4em; }
.answers dd { margin: 0 0 0.2em 1.5em; }
table.grid { border-collapse: collapse; margin: 0.3em 0; }
table.grid td, table.grid th { border: 1px solid #000; text-align: center;
  padding: 0; font-weight: normal; }
table.grid th { border: none; font-size: 0.8em; color: #333; }
table.big td { width: 3.2em; height: 2em; }
td.bomb { background: #bbb; }
td.click { border: 3px solid #000 !important; font-weight: bold; }
@page { size: A4; margin: 11mm 12mm; }
@media print {
  body { font-size: 10.5pt; max-width: none; padding: 0; }
  section { break-before: page; border-top: none; margin-top: 0;
    padding-top: 0; }
  pre.code { font-size: var(--print-size, 8pt); line-height: 1.18; border: none;
    overflow: visible; }
  pre.code .l { min-height: 1.18em; }
  ol.q a, a.back { display: none; }
  h3 { break-after: avoid; }
}
"""


def read_text():
    """The Chinese text of the handout, as the data file has it."""
    with open(TEXT, encoding="utf-8") as f:
        return json.load(f)


def step_files():
    """The lesson steps' file names, in the order of the lesson."""
    return sorted(name for name in os.listdir(CHAPTER)
                  if name.startswith("step") and name.endswith(".py"))


def read_step(name):
    """The text of one step (steps are ASCII, like every .py file here)."""
    with open(os.path.join(CHAPTER, name), encoding="ascii") as f:
        return f.read()


def classify(source):
    """Each line of a step as (kind, text, comment_start).

    kind is new, fix, peek or run for a marked line of code, old for a line
    of code with no mark, comment for a line that is only a comment, and
    blank. comment_start is where the line's own comment begins, or None.
    A line that ends in a backslash goes on in the next line, so it gets the
    mark of the line it goes on to.
    """
    lines = source.splitlines()
    comments = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0] - 1] = token.start[1]
    kinds = []
    for index, line in enumerate(lines):
        if not line.strip():
            kinds.append("blank")
        elif line.lstrip().startswith("#"):
            kinds.append("comment")
        else:
            start = comments.get(index)
            found = MARK.search(line[start:]) if start is not None else None
            kinds.append(found.group(1).split()[0].lower() if found else "old")
    for index in reversed(range(len(lines) - 1)):
        if lines[index].endswith("\\") and kinds[index] != "comment":
            kinds[index] = kinds[index + 1]
    return [(kinds[i], line, comments.get(i) if kinds[i] != "comment" else None)
            for i, line in enumerate(lines)]


def text_width(text):
    """How wide a text is, in Chinese letters (a Latin letter is about half)."""
    return sum(1.0 if ord(letter) > 0x2e80 else 0.55 for letter in text)


def header_mm(step):
    """About how tall a step's page is above its code, when printed."""
    text_line = 10.5 * 1.6 * POINT_MM            # the body text's line, mm
    per_line = 49                                 # Chinese letters in a line
    lines = sum(-(-text_width(sentence) // per_line) for sentence in step["text"])
    lines += sum(-(-(text_width(question) + 3) // per_line)
                 for question, _ in step["questions"])
    headings = 12 + 7 + 3 * 9 + 8                 # title, file, 3 headings, gaps
    return headings + lines * (text_line + 1)


def print_size(step, source):
    """The code's letter size on paper for this step, in points."""
    ems = LINE * len(classify(source))
    pages = 1
    while True:
        room = (PAGE_MM * pages - header_mm(step)) * 0.92
        size = min(LARGEST, room / (ems * POINT_MM))
        if size >= SMALLEST:
            return round(size, 1)
        pages += 1


def code_row(kind, number, line, start):
    """One line of code as the handout prints it: its number, its code, its
    comment set apart and its mark in colour."""
    if start is None:
        body = html.escape(line)
    else:
        comment = line[start:]
        mark = MARK.search(comment)
        cut = mark.start() if mark else len(comment)
        body = "%s<i>%s</i>" % (html.escape(line[:start]), html.escape(comment[:cut]))
        if mark:
            body += "<b>%s</b>" % html.escape(comment[cut:])
    return '<span class="l %s" data-n="%d">%s</span>' % (kind, number, body)


def code_html(source):
    """The whole code of a step as a <pre>, one span a line."""
    rows = [code_row(kind, number, line, start)
            for number, (kind, line, start) in enumerate(classify(source), 1)]
    # The lines are blocks already: a newline between them would show as
    # an empty line inside <pre>.
    return '<pre class="code">' + "".join(rows) + "</pre>"


def step_head(number, step, labels, folder, style=""):
    """The top of a step's page: heading, file, what it adds and the
    questions (the section is left open for the code)."""
    parts = ['<section class="step" id="step%02d"%s>' % (number, style),
             '<h2><span class="sec">%s</span>%s</h2>' % (
                 html.escape(step["section"]), html.escape(step["title"])),
             '<p class="file">%s &middot; %s %s%s</p>' % (
                 html.escape(labels["step"].format(n=number)),
                 html.escape(labels["file"]), folder, html.escape(step["file"])),
             "<h3>%s</h3>" % html.escape(labels["adds"])]
    parts += ["<p>%s</p>" % html.escape(sentence) for sentence in step["text"]]
    parts.append("<h3>%s</h3>" % html.escape(labels["questions"]))
    parts.append('<ol class="q">')
    for index, (question, _) in enumerate(step["questions"], 1):
        parts.append('<li id="q%02d-%d">%s <a href="#a%02d-%d">%s</a></li>' % (
            number, index, html.escape(question), number, index,
            html.escape(labels["answer"])))
    parts.append("</ol>")
    return parts


def step_page(number, step, text):
    """One step's page: heading, what it adds, questions, and its code."""
    labels = text["labels"]
    source = read_step(step["file"])
    parts = step_head(number, step, labels, "chapter/",
                      ' style="--print-size: %.1fpt"' % print_size(step, source))
    parts.append("<h3>%s</h3>" % html.escape(labels["code"]))
    parts.append(code_html(source))
    parts.append("</section>")
    return "\n".join(parts)


def first_page(text, steps):
    """The title, how to read the marks, and the list of steps."""
    labels = text["labels"]
    parts = ['<section class="intro" id="intro">',
             "<h1>%s</h1>" % html.escape(text["title"]),
             "<h2>%s</h2>" % html.escape(text["subtitle"])]
    parts += ["<p>%s</p>" % html.escape(paragraph) for paragraph in text["intro"]]
    parts.append("<h3>%s</h3>" % html.escape(labels["legend_title"]))
    parts.append('<table class="legend">')
    for kind, mark, meaning in text["legend"]:
        parts.append('<tr><td class="m"><span class="swatch %s">%s</span></td>'
                     "<td>%s</td></tr>" % (kind, html.escape(mark) or "&nbsp;",
                                           html.escape(meaning)))
    parts.append("</table>")
    parts.append("<h3>%s</h3>" % html.escape(labels["contents"]))
    parts.append("<ol>")
    for number, step in enumerate(steps, 1):
        parts.append('<li><a href="#step%02d">%s %s</a></li>' % (
            number, html.escape(step["section"]), html.escape(step["title"])))
    parts.append("</ol>")
    parts.append("<p>%s</p>" % html.escape(labels["answers_note"]))
    parts.append("</section>")
    return "\n".join(parts)


def answers_page(text, steps):
    """The teacher's pages: every question again, with its short answer."""
    labels = text["labels"]
    parts = ['<section class="answers" id="answers">',
             "<h2>%s</h2>" % html.escape(labels["answers_title"]),
             "<p>%s</p>" % html.escape(labels["answers_note"])]
    for number, step in enumerate(steps, 1):
        parts.append("<h3>%s &middot; %s %s</h3>" % (
            html.escape(labels["step"].format(n=number)),
            html.escape(step["section"]), html.escape(step["title"])))
        parts.append("<dl>")
        for index, (question, answer) in enumerate(step["questions"], 1):
            parts.append('<dt id="a%02d-%d">%d. %s</dt><dd>%s '
                         '<a class="back" href="#q%02d-%d">%s</a></dd>' % (
                             number, index, index, html.escape(question),
                             html.escape(answer), number, index,
                             html.escape(labels["back"])))
        parts.append("</dl>")
    parts.append("</section>")
    return "\n".join(parts)


# ---------------------------------------------------------------------------
# The students' sheet, chapter/student.html: for each step only the lines it
# adds, where they go and which old lines they replace, with the Chinese
# comments of the steps in chapter/zh/; the questions without their answers;
# and a small board to follow open_block's calls on. The teacher's answers
# to its own questions and to the board are on the handout's last pages.

# One place where a step changes the step before: the lines it takes away
# (numbered as in the step before), the lines it adds (numbered as in this
# step), and the line of this step just before them (None at the very top).
Change = collections.namedtuple("Change", "removed added anchor")
SHORT = 12      # a piece of at most this many lines is kept on one page

STUDENT_CSS = """
@font-face { font-family: "MinesweepZH"; src: url(data:font/ttf;base64,%(font)s)
  format("truetype"); }
body { font-family: "MinesweepZH", "Microsoft YaHei", "PingFang SC",
  "Noto Sans CJK SC", sans-serif; font-size: 17px; line-height: 1.45;
  color: #000; background: #fff; max-width: 62em; margin: 0 auto;
  padding: 0.5em 1em 2em; }
h1 { font-size: 1.45em; margin: 0 0 0.2em; }
h1 small { font-size: 0.7em; font-weight: normal; margin-left: 0.6em; }
h2 { font-size: 1.08em; margin: 0.7em 0 0.15em; padding-top: 0.25em;
  border-top: 1.5px solid #000; }
h2 .file, .mono { font-family: Consolas, "DejaVu Sans Mono", Menlo,
  "Courier New", monospace; }
h2 .file { font-weight: normal; font-size: 0.8em; margin-left: 0.8em; }
p { margin: 0.2em 0; }
.where { margin: 0.35em 0 0.05em; font-weight: bold; }
.where code, .q code { font-family: Consolas, "DejaVu Sans Mono", Menlo,
  "Courier New", monospace; font-weight: normal; background: #eee;
  padding: 0 0.2em; }
pre { font-family: Consolas, "DejaVu Sans Mono", Menlo, "Courier New",
  "MinesweepZH", monospace; font-size: 0.86em; line-height: 1.22; margin: 0 0 0.2em;
  white-space: pre; overflow-x: auto; }
pre span { display: block; padding-left: 3em; position: relative;
  min-height: 1.22em; }
pre span::before { content: attr(data-n); position: absolute; left: 0;
  width: 2.3em; text-align: right; color: #444; }
pre .add { font-weight: bold; border-left: 3px solid #000; }
pre .add.ours { font-weight: normal; font-style: italic; border-left: 3px dashed #000; }
p.ours { border-left: 3px dashed #000; padding-left: 0.5em; margin: 0.1em 0 0.3em; }
pre i { font-style: normal; font-weight: normal; color: #333; }
pre .c { color: #333; }
pre .gone { text-decoration: line-through; color: #555; }
pre .note { color: #333; }
ol.q { margin: 0.25em 0 0.2em; padding-left: 1.8em; }
ol.q li { margin: 0.05em 0; }
.new { border: 1px solid #000; border-radius: 3px; font-size: 0.8em;
  padding: 0 0.25em; margin-right: 0.3em; }
.boards { display: flex; gap: 2em; align-items: flex-start; margin-top: 0.4em; }
table.grid { border-collapse: collapse; }
table.grid td, table.grid th { border: 1px solid #000; text-align: center;
  padding: 0; font-weight: normal; }
table.grid th { border: none; font-size: 0.8em; color: #333; }
table.small td { width: 1.6em; height: 1.6em; }
table.big td { width: 3.2em; height: 2em; }
td.bomb { background: #bbb; font-weight: bold; }
td.click { border: 3px solid #000 !important; font-weight: bold; }
.caption { font-size: 0.85em; margin-top: 0.2em; }
.warn { border: 1.5px solid #000; padding: 0.2em 0.4em; margin: 0.3em 0; }
@page { size: A4; margin: 6mm 9mm; }
@media print {
  body { font-size: 8.8pt; line-height: 1.28; max-width: none; padding: 0; }
  pre { font-size: 7.6pt; line-height: 1.12; overflow: visible; }
  pre span { min-height: 1.12em; }
  h2 { margin-top: 0.5em; }
  .where { margin-top: 0.2em; }
  pre span.blank { min-height: 0.45em; line-height: 0.45em; }
  pre span.blank::before { content: none; }
  h2, .where { break-after: avoid; }
  pre.short, .boards, li { break-inside: avoid; }
  section.board h2, section.board p { break-after: avoid; }
}
"""


def checker_says_of_the_books_coding_line():
    """What chapter/check.py says, in Chinese, of step 1 typed with the book's
    first line "# -*- coding:gb18030 -*-" and saved as UTF-8, as Notepad or
    VS Code would save it: the checker itself is asked, so the sheet quotes its
    words as they are."""
    chinese = make_zh_steps.build()[step_files()[0]].splitlines()
    with tempfile.TemporaryDirectory() as folder:
        typed = os.path.join(folder, "typed.py")
        with open(typed, "w", encoding="utf-8", newline="\n") as f:
            f.write("\n".join([BOOK_CODING] + chinese[1:]) + "\n")
        done = subprocess.run([sys.executable, os.path.join(CHAPTER, "check.py"),
                               "--lang", "zh", "--json", typed],
                              capture_output=True, timeout=300)
    checks = json.loads(done.stdout.decode("utf-8"))[0]["checks"]
    return next(check["message"] for check in checks if check["ok"] is False)


def read_student_text():
    """The Chinese text of the students' sheet, as its data file has it."""
    with open(STUDENT_TEXT, encoding="utf-8") as f:
        return json.load(f)


def code_lines(source):
    """A step's lines of code (no blanks or comment lines) as (number, the
    code without its comment, kind)."""
    found = []
    for number, (kind, line, start) in enumerate(classify(source), 1):
        if kind not in ("blank", "comment"):
            found.append((number, (line if start is None else line[:start]).rstrip(),
                          kind))
    return found


def changes(before, after):
    """Where the step after changes the step before, in order, as Changes."""
    old, new = code_lines(before), code_lines(after)
    matcher = difflib.SequenceMatcher(None, [code for _, code, _ in old],
                                      [code for _, code, _ in new], autojunk=False)
    return [Change(old[low:high], new[start:end], new[start - 1] if start else None)
            for op, low, high, start, end in matcher.get_opcodes() if op != "equal"]


def indent(line):
    """How many spaces a line starts with."""
    return len(line) - len(line.lstrip())


def within(lines, number, labels):
    """Where in the program line number is: which function or loop, in
    words (as HTML)."""
    line = lines[number - 1]
    if indent(line) == 0:
        return html.escape(labels["new_function"] if line.startswith("def ")
                           else labels["top"])
    for above in range(number - 1, 0, -1):
        text = lines[above - 1]
        if text.strip() and not text.lstrip().startswith("#") and indent(text) == 0:
            name = re.match(r"def (\w+)\(", text)
            if name:
                return html.escape(labels["in_function"].format(name=name.group(1)))
            code = text[:make_zh_steps.comment_starts(text).get(0, len(text))].strip()
            return html.escape(labels["in_block"]).format(code=quoted(code))
    return html.escape(labels["top"])


def enclosing_function(lines, number):
    """The name of the function line number is in, or None at the top level."""
    for above in range(number, 0, -1):
        text = lines[above - 1]
        if text.strip() and not text.lstrip().startswith("#") and indent(text) == 0:
            name = re.match(r"def (\w+)\(", text)
            return name.group(1) if name else None
    return None


def quoted(code):
    """A piece of code inside a sentence, as HTML."""
    return "<code>%s</code>" % html.escape(code.rstrip("\\ ").strip())


def shown_lines(lines, change):
    """The line numbers of a step to print for a change: the added lines,
    the comments just above them, and what is between; a change at the very
    top starts at line 1, the coding line and the title."""
    first, last = change.added[0][0], change.added[-1][0]
    if change.anchor is None:
        return list(range(1, last + 1))
    while first > 1 and lines[first - 2].lstrip().startswith("#"):
        first -= 1
    return list(range(first, last + 1))


def line_html(number, line, kind, start=None):
    """One printed line: its number, its code, its comment (from start) set apart."""
    if start is None:
        body = html.escape(line)
    else:
        body = "%s<i>%s</i>" % (html.escape(line[:start]), html.escape(line[start:]))
    return '<span class="%s" data-n="%s">%s</span>' % (kind, number, body)


def has_chinese(text):
    """Is there a Chinese letter in the text?"""
    return any("\u4e00" <= letter <= "\u9fff" for letter in text)


def change_key(name, change):
    """How the sheet's data file names a change: file|first line it adds (or
    -first line it takes away)."""
    if change.added:
        return "%s|%s" % (name, change.added[0][1].strip())
    return "%s|-%s" % (name, change.removed[0][1].strip())


def lines_words(removed, labels):
    """Old lines in words, by their code (as HTML): one line, or the first
    to the last; a student who left out the comments has other numbers."""
    if len(removed) == 1:
        return html.escape(labels["line"]).format(code=quoted(removed[0][1]))
    return html.escape(labels["lines"]).format(
        first=quoted(removed[0][1]), last=quoted(removed[-1][1]), count=len(removed))


def where_html(change, lines, labels):
    """Where a change goes, in words: its function or loop, the line it
    follows, and which old lines it replaces or takes away."""
    if change.added:
        spot = within(lines, change.added[0][0], labels)
    else:
        spot = within(lines, change.anchor[0], labels)
    if change.removed and change.added:
        what = html.escape(labels["replaces"]).format(
            lines=lines_words(change.removed, labels))
    elif change.removed:
        what = html.escape(labels["removes"]).format(
            lines=lines_words(change.removed, labels))
    elif change.anchor is None:
        what = html.escape(labels["start"])
    elif change.added[0][1].startswith("def ") and enclosing_function(lines, change.anchor[0]):
        # A new function goes after the whole function above it: a line of
        # that function may be found elsewhere too, and would say to indent.
        what = html.escape(labels["after_function"]).format(
            name=enclosing_function(lines, change.anchor[0]))
    else:
        what = html.escape(labels["after"]).format(code=quoted(change.anchor[1]))
    return html.escape(labels["where"]).format(spot=spot, what=what)


def change_html(name, change, chinese, text, first_step):
    """One change of a step: where it goes in words, then its lines."""
    labels, lines = text["labels"], chinese.splitlines()
    where = html.escape(labels["new_file"]) if first_step else where_html(
        change, lines, labels)
    rows = ["<pre>"]
    rows += [line_html(number, line, "gone") for number, line, _ in change.removed]
    numbers = shown_lines(lines, change) if change.added else []
    note = text["notes"].get(change_key(name, change))
    if note is None and not any(has_chinese(lines[n - 1]) for n in numbers):
        raise SystemExit("make_handout: chapter/student_zh.json has no note for %r"
                         % change_key(name, change))
    if note is not None:
        rows.append('<span class="note" data-n="">%s</span>' % html.escape("# " + note))
    added = {number for number, _, _ in change.added}
    if change.anchor is None:
        # The very top: the coding line and the title are to be typed too.
        added.update(number for number in numbers[:change.added[0][0] - 1]
                     if lines[number - 1].strip())
    starts = make_zh_steps.comment_starts(chinese)
    for number in numbers:
        line = lines[number - 1]
        if number in added:
            # Every line printed here is new: its NEW mark would say nothing.
            line = re.sub(r"\s*# NEW$", "", line)
            # The sound card's guard is this project's, not the book's.
            kind = "add ours" if line.rstrip().endswith(SOUND_GUARD) else "add"
            rows.append(line_html(number, line, kind, starts.get(number - 1)))
        else:
            rows.append(line_html(number, line, "c" if line.strip() else "blank"))
    rows.append("</pre>")
    # A few lines stay on one page; a long piece may go on over the page.
    if len(rows) <= SHORT + 2:
        rows[0] = '<pre class="short">'
    return '<p class="where">%s</p>\n%s' % (where, "".join(rows))


def student_steps(handout_text, text):
    """Every step on the students' sheet, in order."""
    chinese = make_zh_steps.build()
    labels, parts, before, guarded = text["labels"], [], "", False
    extra = text["questions"]
    for number, step in enumerate(handout_text["steps"], 1):
        name = step["file"]
        source = read_step(name)
        parts.append('<section class="step" id="step%02d">' % number)
        parts.append('<h2>%s &middot; %s %s<span class="file">chapter/zh/%s</span></h2>' % (
            html.escape(labels["step"].format(n=number)), html.escape(step["section"]),
            html.escape(step["title"]), html.escape(name)))
        lines, pieces = chinese[name].splitlines(), changes(before, source)
        guarding = [piece for piece in pieces if any(
            lines[added - 1].rstrip().endswith(SOUND_GUARD) for added, _, _ in piece.added)]
        for change in pieces:
            parts.append(change_html(name, change, chinese[name], text, number == 1))
            if not guarded and guarding and change is guarding[-1]:
                # The first step with the sound card's guard says, under its
                # last piece, whose those lines are and who needs them.
                parts.append('<p class="ours">%s</p>' % html.escape(labels["ours"]))
                guarded = True
        parts.append('<ol class="q">')
        for question, _ in step["questions"]:
            parts.append("<li>%s</li>" % html.escape(question))
        for question, _ in extra.get(name, []):
            parts.append('<li><span class="new">%s</span>%s</li>' % (
                html.escape(labels["new_question"]), html.escape(question)))
        parts.append("</ol>\n</section>")
        before = source
    return parts


def worksheet_board(board):
    """The worksheet's board as the game lays it: its bombs, and the calls of
    open_block at its first click, as "python minesweep.py --calls" writes
    them: ([(row, col)], [(call, row, col, depth)]), rows and cols from 1."""
    tests = os.path.join(ROOT, "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)
    import loadgame     # the game, loaded the way pgzrun does, headless
    kept = os.environ.get("MINESWEEP_DATA_DIR")
    with tempfile.TemporaryDirectory() as folder:
        os.environ["MINESWEEP_DATA_DIR"] = folder       # no saved game comes in
        try:
            mod = loadgame.load_game("minesweep_worksheet")
            mod.new_game(board["rows"], board["cols"], board["bombs"], board["number"])
            row, col = board["click"]
            # The game frames a start tile in green for a numbered board and
            # asks the class to click it first: the sheet's click must be it.
            start = mod.showing.start_cell(mod.play.board, mod.ROWS, mod.COLS)
            if start != (row - 1) * mod.COLS + col - 1:
                raise SystemExit(
                    "make_handout: board %d starts at row %d, column %d in the game, "
                    "not at the click of chapter/student_zh.json %s" % (
                        board["number"], start // mod.COLS + 1, start % mod.COLS + 1,
                        board["click"]))
            mod.recorded(mod.click_open, mod.block_at(row - 1, col - 1))
            calls = [(call, cell // mod.COLS + 1, cell % mod.COLS + 1, depth)
                     for call, cell, depth, *_ in mod.slowmotion.calls_table(
                         mod.play.opening)]
            bombs = [(block.row + 1, block.col + 1) for block in mod.blocks
                     if block.isbomb]
        finally:
            if kept is None:
                del os.environ["MINESWEEP_DATA_DIR"]
            else:
                os.environ["MINESWEEP_DATA_DIR"] = kept
    return sorted(bombs), calls


def csv_columns(board, calls):
    """The names the game gives the worksheet's columns of call order and
    depth in Chinese: its own --calls run on the worksheet's board, the
    columns found by what they hold (calls: as worksheet_board gives them)."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "calls.csv")
        env = dict(os.environ, MINESWEEP_DATA_DIR=folder, SDL_VIDEODRIVER="dummy",
                   SDL_AUDIODRIVER="dummy")
        subprocess.run([sys.executable, os.path.join(ROOT, "minesweep.py"), "--lang", "zh",
                        "--calls", path, "--board", str(board["number"]),
                        "--rows", str(board["rows"]), "--cols", str(board["cols"]),
                        "--bombs", str(board["bombs"]),
                        "--at", "%d,%d" % tuple(board["click"])],
                       env=env, capture_output=True, timeout=120, check=True)
        with open(path, encoding="utf-8-sig", newline="") as f:
            rows = list(csv.reader(f))
    wanted = {"call": [str(call) for call, _, _, _ in calls],
              "depth": [str(depth) for _, _, _, depth in calls]}
    for top in range(len(rows) - len(calls)):
        below = rows[top + 1:top + 1 + len(calls)]
        found = {}
        for name, values in wanted.items():
            for column, title in enumerate(rows[top]):
                if [row[column] if column < len(row) else None for row in below] == values:
                    found.setdefault(name, title)
        if len(found) == len(wanted):
            return found
    raise SystemExit("make_handout: the game's calls.csv has no columns of the calls' "
                     "order and depth")


def grid_html(board, bombs, cells, size):
    """A board as a table, rows and columns numbered from 1: bombs shaded,
    the click framed, and in each cell what cells gives it."""
    rows = ['<table class="grid %s"><tr><th></th>%s</tr>' % (size, "".join(
        "<th>%d</th>" % col for col in range(1, board["cols"] + 1)))]
    for row in range(1, board["rows"] + 1):
        tds = []
        for col in range(1, board["cols"] + 1):
            kind = []
            if (row, col) in bombs:
                kind.append("bomb")
            if [row, col] == list(board["click"]):
                kind.append("click")
            tds.append('<td%s>%s</td>' % (' class="%s"' % " ".join(kind) if kind else "",
                                          html.escape(cells.get((row, col), ""))))
        rows.append("<tr><th>%d</th>%s</tr>" % (row, "".join(tds)))
    rows.append("</table>")
    return "".join(rows)


def board_words(board, bombs, labels):
    """The board in words: its number, size, bombs and click."""
    return labels["where"].format(
        number=board["number"], rows=board["rows"], cols=board["cols"],
        bombs=board["bombs"], row=board["click"][0], col=board["click"][1],
        places=labels["join"].join("(%d,%d)" % place for place in bombs))


def worksheet_html(text, bombs, columns):
    """The students' board and the empty grid for open_block's calls
    (columns: the names of the calls.csv columns to compare with)."""
    sheet, board = text["worksheet"], text["worksheet"]["board"]
    small = {place: sheet["bomb"] for place in bombs}
    small[tuple(board["click"])] = sheet["click"]
    parts = ['<section class="board" id="board">',
             "<h2>%s</h2>" % html.escape(sheet["title"]),
             "<p>%s</p>" % html.escape(board_words(board, bombs, sheet)),
             ]
    parts += ["<p>%s</p>" % html.escape(line) for line in sheet["text"]]
    parts.append('<div class="boards"><div>%s<p class="caption">%s</p></div>'
                 '<div>%s<p class="caption">%s</p></div></div>' % (
                     grid_html(board, bombs, small, "small"),
                     html.escape(sheet["small_caption"]),
                     grid_html(board, bombs, {tuple(board["click"]): ""}, "big"),
                     html.escape(sheet["big_caption"])))
    parts += ["<p>%s</p>" % html.escape(line.format(
        row=board["click"][0], col=board["click"][1], **dict(board, **columns)))
        for line in sheet["after"]]
    parts.append("</section>")
    return "\n".join(parts)


def build_student(board=None):
    """The students' sheet, as text (board: the worksheet's bombs and calls,
    worked out by worksheet_board when not given)."""
    handout_text, text = read_text(), read_student_text()
    checked_steps(handout_text)
    bombs, calls = board or worksheet_board(text["worksheet"]["board"])
    columns = csv_columns(text["worksheet"]["board"], calls)
    body = ['<h1>%s<small>%s</small></h1>' % (html.escape(text["title"]),
                                               html.escape(text["subtitle"]))]
    body += ["<p>%s</p>" % html.escape(line) for line in text["intro"]]
    body.append('<p class="warn">%s</p>' % html.escape(text["thonny"].format(
        checker=checker_says_of_the_books_coding_line())))
    body += student_steps(handout_text, text)
    body.append(worksheet_html(text, bombs, columns))
    return html_page(text["title"], text["subtitle"], STUDENT_CSS, body)


def sheet_answers(text, board):
    """The teacher's answers to the students' sheet: its own questions, and
    the board with each call's order and depth filled in."""
    labels, sheet = text["labels"], text["worksheet"]
    bombs, calls = board
    parts = ['<section class="answers" id="sheet-answers">',
             "<h2>%s</h2>" % html.escape(labels["answers_title"])]
    for name, questions in text["questions"].items():
        parts.append("<dl>")
        for question, answer in questions:
            parts.append("<dt>%s</dt><dd>%s</dd>" % (html.escape(question),
                                                     html.escape(answer)))
        parts.append("</dl>")
    parts.append("<h3>%s</h3>" % html.escape(sheet["title"]))
    parts.append("<p>%s</p>" % html.escape(board_words(sheet["board"], bombs, sheet)))
    cells = {(row, col): "%d/%d" % (call, depth) for call, row, col, depth in calls}
    parts.append(grid_html(sheet["board"], bombs, cells, "big"))
    parts.append("<p>%s</p>" % html.escape(sheet["key"].format(
        calls=len(calls), deepest=max(depth for _, _, _, depth in calls))))
    parts.append("</section>")
    return "\n".join(parts)


def checked_steps(text):
    """The data file's steps, which must be the steps in chapter/."""
    named = [step["file"] for step in text["steps"]]
    if named != step_files():
        raise SystemExit("make_handout: chapter/handout_zh.json has the steps %s,\n"
                         "but chapter/ has %s" % (named, step_files()))
    return text["steps"]


def html_page(title, subtitle, css, body):
    """A whole page that needs nothing outside itself, the font inside its CSS."""
    with open(FONT, "rb") as f:
        font = base64.b64encode(f.read()).decode("ascii")
    return ("<!DOCTYPE html>\n"
            '<html lang="zh-CN">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            "<title>%s %s</title>\n<style>%s</style>\n</head>\n<body>\n%s\n"
            "</body>\n</html>\n" % (html.escape(title), html.escape(subtitle),
                                    css.replace("%(font)s", font), "\n".join(body)))


def build(board=None):
    """The whole handout, as text (board: the worksheet's bombs and calls,
    worked out by worksheet_board when not given)."""
    text = read_text()
    steps = checked_steps(text)
    student = read_student_text()
    board = board or worksheet_board(student["worksheet"]["board"])
    body = [first_page(text, steps)]
    body += [step_page(number, step, text) for number, step in enumerate(steps, 1)]
    body.append(answers_page(text, steps))
    body.append(sheet_answers(student, board))
    return html_page(text["title"], text["subtitle"], CSS, body)


# ---------------------------------------------------------------------------
# The Chinese handout, chapter/handout_zh.html: the same pages with the code
# of the Chinese steps (chapter/zh/, the book's Chinese comments), to project
# and to print. Step 1 is there whole; each later step shows the lines it
# changes in full, a line of code on each side, and folds the rest into one
# line that says which lines are the same as in the step before. Every line
# shown keeps its number in the step, so it reads as the step's own file.

CONTEXT = 1     # unchanged lines shown on each side of a change
FOLD_LEAST = 3  # fewer unchanged lines than this are shown, not folded
HEAD = 3        # the coding line, the title and a blank line begin every step
END_MARK = re.compile(r"\s*# (?:NEW|PEEK|RUN|FIX [a-f])$")

ZH_CSS = """
pre.code .l.fold { color: #555; background: #f1f1f1; font-style: italic;
  white-space: normal; border-left: 0.35em dotted #aaa; }
pre.code .l.gone { color: #777; text-decoration: line-through; }
@media print {
  section.step { break-before: auto; padding-top: 0.5em; border-top: 1.5px solid #999;
    margin-top: 0.6em; }
  section.answers { break-before: page; font-size: 9.5pt; line-height: 1.45; }
  section#sheet-answers { break-before: auto; margin-top: 1em; }
  body { font-size: 10pt; line-height: 1.5; }
  pre.code { font-size: 8.2pt; line-height: 1.16; }
  pre.code .l { min-height: 1.16em; }
  h2, h3 { break-after: avoid; }
  ol.q li, .answers dt, .answers dd { break-inside: avoid; }
}
"""


def without_mark(line):
    """A line without the mark at its end: a line that only loses its NEW
    mark in the next step is the same line there."""
    return END_MARK.sub("", line).rstrip()


def about_start(lines):
    """Where a step's last comment block begins (what it says about itself,
    after pgzrun.go()): the index just after its last line of code."""
    last = max(index for index, line in enumerate(lines)
               if line.strip() and not line.lstrip().startswith("#"))
    return last + 1


def folded_rows(before, after):
    """A step's lines for the Chinese handout, as (kind, number, text) rows:
    "head" for its first lines folded (number is (first, last); after the
    first step only the title's number changes there), "line" for a line of
    the step (number is its line number), "gone" for a
    line of the step before that this step takes away, "fold" for unchanged
    lines left out (number is (first, last)), "about" for the comment block
    at the end."""
    old, new = before.splitlines(), after.splitlines()
    end, old_end = about_start(new), about_start(old) if old else 0
    # After the first step, the coding line, the title and the blank line
    # below it are one folded line: only the title's step number changes.
    top = HEAD if old else 0
    matcher = difflib.SequenceMatcher(
        None, [without_mark(line) for line in old[top:old_end]],
        [without_mark(line) for line in new[top:end]], autojunk=False)
    changed, gone = set(), {}
    for op, low, high, start, stop in matcher.get_opcodes():
        if op == "equal":
            continue
        changed.update(range(top + start, top + stop))
        # Old code taken away is shown struck out where it stood, before
        # what replaces it; an old comment is not.
        gone.setdefault(top + start, []).extend(
            line for line in old[top + low:top + high]
            if line.strip() and not line.lstrip().startswith("#"))
        if start == stop:               # lines taken away: show what is round them
            changed.update(index for index in (top + start - 1, top + start)
                           if top <= index < end)
    shown = {near for index in changed
             for near in range(index - CONTEXT, index + CONTEXT + 1) if top <= near < end}
    hidden = [index for index in range(top, end) if index not in shown]
    # A short run of unchanged lines is shown: folding it would save nothing.
    runs, run = [], []
    for index in hidden:
        if run and index != run[-1] + 1:
            runs.append(run)
            run = []
        run.append(index)
    if run:
        runs.append(run)
    folds = {run[0]: run for run in runs if len(run) >= FOLD_LEAST}
    shown.update(index for run in runs if len(run) < FOLD_LEAST for index in run)
    rows, index = ([("head", (1, top), "")] if top else []), top
    while index < end:
        if index in folds:
            run = folds[index]
            rows.append(("fold", (run[0] + 1, run[-1] + 1), ""))
            index = run[-1] + 1
            continue
        rows += [("gone", None, line) for line in gone.get(index, [])]
        rows.append(("line", index + 1, new[index]))
        index += 1
    rows += [("gone", None, line) for line in gone.get(end, [])]
    if end < len(new):
        rows.append(("about", (end + 1, len(new)), ""))
    return rows


def folded_html(before, after, number, labels):
    """A step's code for the Chinese handout as a <pre>: its changed lines
    coloured as the handout colours them, the rest folded."""
    kinds = classify(after)
    rows = []
    for kind, where, line in folded_rows(before, after):
        if kind == "line":
            mark, text, start = kinds[where - 1]
            rows.append(code_row(mark, where, text, start))
        elif kind == "gone":
            rows.append('<span class="l gone" data-n="">%s</span>' % html.escape(line))
        else:
            words = labels[kind]
            rows.append('<span class="l fold" data-n="&#8942;">%s</span>' % html.escape(
                words.format(first=where[0], last=where[1], n=number - 1)))
    return '<pre class="code">' + "".join(rows) + "</pre>"


def zh_step_page(number, step, labels, before, after):
    """One step of the Chinese handout: heading, what it adds, questions, and
    the lines of its Chinese code that changed."""
    parts = step_head(number, step, labels, "chapter/zh/")
    parts.append("<h3>%s</h3>" % html.escape(
        labels["code_first"] if number == 1 else labels["code_changed"].format(n=number - 1)))
    parts.append(folded_html(before, after, number, labels))
    parts.append("</section>")
    return "\n".join(parts)


def build_zh(board=None):
    """The Chinese handout, as text (board: the worksheet's bombs and calls,
    worked out by worksheet_board when not given)."""
    text = read_text()
    steps = checked_steps(text)
    zh = text["zh"]
    legend = [(kind, mark, zh["legend_old"] if kind == "old" else meaning)
              for kind, mark, meaning in text["legend"]]
    page_text = dict(text, subtitle=zh["subtitle"], intro=zh["intro"], legend=legend,
                     labels=dict(text["labels"], **zh["labels"]))
    student = read_student_text()
    board = board or worksheet_board(student["worksheet"]["board"])
    chinese = make_zh_steps.build()
    body, before = [first_page(page_text, steps)], ""
    for number, step in enumerate(steps, 1):
        body.append(zh_step_page(number, step, page_text["labels"], before,
                                 chinese[step["file"]]))
        before = chinese[step["file"]]
    body.append(answers_page(page_text, steps))
    body.append(sheet_answers(student, board))
    return html_page(text["title"], zh["subtitle"], CSS + ZH_CSS, body)


def write_pages(pages):
    """Write every (path, text) page, all or none: each to a new file beside
    its place, renamed into it once every one is written. A place that holds
    something other than an ordinary file (a folder, a named pipe, a link) is
    refused, and so is a page that cannot be written: one line, and no page
    is changed."""
    modes = []
    for path, _ in pages:
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            mode = stat.S_IFREG | 0o644             # a new page, readable by all
        except OSError as error:
            raise SystemExit("make_handout: cannot write %s: %s; no page was changed"
                             % (path, error.strerror or error))
        if not stat.S_ISREG(mode):
            raise SystemExit("make_handout: %s is not an ordinary file; no page was changed"
                             % path)
        modes.append(stat.S_IMODE(mode))
    written = []
    try:
        for (path, text), mode in zip(pages, modes):
            handle, part = tempfile.mkstemp(prefix=".%s." % os.path.basename(path),
                                            suffix=".part", dir=os.path.dirname(path))
            written.append(part)
            with open(handle, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            os.chmod(part, mode)
    except OSError as error:
        for part in written:
            os.remove(part)
        raise SystemExit("make_handout: cannot write %s: %s; no page was changed"
                         % (path, error.strerror or error))
    for (path, _), part in zip(pages, written):
        os.replace(part, path)


def main():
    """Write the teacher's handouts and the students' sheet beside the steps."""
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    board = worksheet_board(read_student_text()["worksheet"]["board"])
    pages = [(HANDOUT, build(board)), (HANDOUT_ZH, build_zh(board)),
             (STUDENT, build_student(board))]
    write_pages(pages)
    for path, page in pages:
        print("wrote %s (%d steps, %d bytes)" % (path, len(step_files()),
                                                 len(page.encode("utf-8"))))


if __name__ == "__main__":
    sys.exit(main())
