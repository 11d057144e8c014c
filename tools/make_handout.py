"""Make chapter/handout.html: the lesson steps on pages, with Chinese notes.

Run from the project folder:  python tools/make_handout.py
It reads every chapter/step*.py and the Chinese text of each step from
chapter/handout_zh.json (UTF-8), and writes one HTML file that any browser
opens without the internet: the Chinese font fonts/minesweep_zh.ttf is put
inside it. Each step gets its own page (for A4 printing) with the book's
section and title, what the step adds, questions for the class, and the
step's whole code, with the marked lines coloured. The teacher's answers are
on the last pages. Run it again after changing a step or the Chinese text
(and after python tools/make_font.py if the text has new letters): a test
checks that the handout is what this tool makes now.
"""
import base64
import html
import io
import json
import os
import re
import sys
import tokenize

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHAPTER = os.path.join(ROOT, "chapter")
TEXT = os.path.join(CHAPTER, "handout_zh.json")
FONT = os.path.join(ROOT, "fonts", "minesweep_zh.ttf")
HANDOUT = os.path.join(CHAPTER, "handout.html")

# A mark is the last thing in a line's comment: "# NEW", "# FIX e", ...
MARK = re.compile(r"# (NEW|PEEK|RUN|FIX [a-f])$")

# Printing on A4: the height a page has for text (297 mm less the margins),
# and how big the code's letters may be on paper, in points. A short step
# gets big letters on one page; a long one the fewest pages it fits on
# with letters no smaller than SMALLEST.
PAGE_MM = 297 - 2 * 11
LARGEST, SMALLEST = 9.5, 7.2
LINE, BLANK = 1.18, 0.5          # a code line's height and a blank line's, in em
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
@page { size: A4; margin: 11mm 12mm; }
@media print {
  body { font-size: 10.5pt; max-width: none; padding: 0; }
  section { break-before: page; border-top: none; margin-top: 0;
    padding-top: 0; }
  pre.code { font-size: var(--print-size, 8pt); line-height: 1.18; border: none;
    overflow: visible; }
  pre.code .l { min-height: 1.18em; }
  pre.code .l.blank { min-height: 0.5em; line-height: 0.5em; }
  pre.code .l.blank::before { content: none; }
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
    kinds = [kind for kind, _, _ in classify(source)]
    ems = sum(BLANK if kind == "blank" else LINE for kind in kinds)
    pages = 1
    while True:
        room = (PAGE_MM * pages - header_mm(step)) * 0.92
        size = min(LARGEST, room / (ems * POINT_MM))
        if size >= SMALLEST:
            return round(size, 1)
        pages += 1


def code_html(source):
    """The whole code of a step as a <pre>, one span a line."""
    rows = []
    for number, (kind, line, start) in enumerate(classify(source), 1):
        if start is None:
            body = html.escape(line)
        else:
            comment = line[start:]
            mark = MARK.search(comment)
            cut = mark.start() if mark else len(comment)
            body = "%s<i>%s</i>" % (html.escape(line[:start]),
                                    html.escape(comment[:cut]))
            if mark:
                body += "<b>%s</b>" % html.escape(comment[cut:])
        rows.append('<span class="l %s" data-n="%d">%s</span>' % (kind, number, body))
    # The lines are blocks already: a newline between them would show as
    # an empty line inside <pre>.
    return '<pre class="code">' + "".join(rows) + "</pre>"


def step_page(number, step, text):
    """One step's page: heading, what it adds, questions, and its code."""
    labels = text["labels"]
    source = read_step(step["file"])
    parts = ['<section class="step" id="step%02d" style="--print-size: %.1fpt">'
             % (number, print_size(step, source)),
             '<h2><span class="sec">%s</span>%s</h2>' % (
                 html.escape(step["section"]), html.escape(step["title"])),
             '<p class="file">%s &middot; %s chapter/%s</p>' % (
                 html.escape(labels["step"].format(n=number)),
                 html.escape(labels["file"]), html.escape(step["file"])),
             "<h3>%s</h3>" % html.escape(labels["adds"])]
    parts += ["<p>%s</p>" % html.escape(sentence) for sentence in step["text"]]
    parts.append("<h3>%s</h3>" % html.escape(labels["questions"]))
    parts.append('<ol class="q">')
    for index, (question, _) in enumerate(step["questions"], 1):
        parts.append('<li id="q%02d-%d">%s <a href="#a%02d-%d">%s</a></li>' % (
            number, index, html.escape(question), number, index,
            html.escape(labels["answer"])))
    parts.append("</ol>")
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


def build():
    """The whole handout, as text."""
    text = read_text()
    steps = text["steps"]
    named = [step["file"] for step in steps]
    if named != step_files():
        raise SystemExit("make_handout: chapter/handout_zh.json has the steps %s,\n"
                         "but chapter/ has %s" % (named, step_files()))
    with open(FONT, "rb") as f:
        font = base64.b64encode(f.read()).decode("ascii")
    body = [first_page(text, steps)]
    body += [step_page(number, step, text) for number, step in enumerate(steps, 1)]
    body.append(answers_page(text, steps))
    return ("<!DOCTYPE html>\n"
            '<html lang="zh-CN">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            "<title>%s %s</title>\n<style>%s</style>\n</head>\n<body>\n%s\n"
            "</body>\n</html>\n" % (html.escape(text["title"]),
                                    html.escape(text["subtitle"]),
                                    CSS % {"font": font}, "\n".join(body)))


def main():
    """Write the handout beside the steps."""
    page = build()
    with open(HANDOUT, "w", encoding="utf-8", newline="\n") as f:
        f.write(page)
    print("wrote %s (%d steps, %d bytes)" % (HANDOUT, len(step_files()),
                                             len(page.encode("utf-8"))))


if __name__ == "__main__":
    sys.exit(main())
