"""The teacher's pages of docs/ (Markdown) as HTML pages that a school's
Windows computer opens in its browser, for the classroom kit's teacher's
folder: Notepad would show their Markdown with its | tables and ``` fences.

Only what the pages use is read: headings, paragraphs, lists (nested, with
code inside), tables, fenced code, `code`, **bold**, links, pictures and
<!-- comments -->. A link is sent through link(target), which gives its
address in the HTML, or None for its words alone (a page left out of the
kit, say).
"""
import html
import re

FENCE = re.compile(r"^( *)```")
HEADING = re.compile(r"^(#{1,6}) +(.*?) *#*$")
ITEM = re.compile(r"^( *)([-*]|\d+\.) +")
CODE = re.compile(r"`([^`]+)`")
KEPT = re.compile("\x00(\\d+)\x00")

CSS = """
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { font-family: "Microsoft YaHei", "PingFang SC", "Noto Sans CJK SC",
  "WenQuanYi Micro Hei", "Droid Sans Fallback", sans-serif; font-size: 17px;
  line-height: 1.65; color: #111; background: #fff; max-width: 60em;
  margin: 0 auto; padding: 0.5em 1.2em 3em; }
h1 { font-size: 1.7em; margin: 0.4em 0 0.3em; }
h2 { font-size: 1.35em; margin: 1.3em 0 0.3em; padding-top: 0.3em;
  border-top: 2px solid #ccc; }
h3 { font-size: 1.1em; margin: 1em 0 0.2em; }
p, li { margin: 0.35em 0; }
code, pre { font-family: Consolas, "DejaVu Sans Mono", Menlo, "Courier New",
  monospace; font-size: 0.9em; }
code { background: #f1f1f1; padding: 0 0.2em; border-radius: 3px; }
pre { background: #f6f6f6; border: 1px solid #ddd; padding: 0.5em 0.8em;
  white-space: pre-wrap; overflow-wrap: anywhere; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.92em; }
th, td { border: 1px solid #aaa; padding: 0.25em 0.5em; vertical-align: top;
  text-align: left; }
th { background: #eee; white-space: nowrap; }
img { max-width: 48%; max-height: 24em; border: 1px solid #ccc; margin: 0.2em; }
a { color: #1f5fb0; }
@page { size: A4; margin: 14mm 13mm; }
@media print {
  body { font-size: 10pt; max-width: none; padding: 0; }
  h2 { break-after: avoid; }
  tr, pre, img { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
"""


def slug(heading):
    """A heading's anchor, as GitHub makes it (the pages link to them so)."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def wide(letter):
    """Is this a Chinese letter or a full-width sign (no space around it)?"""
    return ord(letter) >= 0x2e80


def joined(lines):
    """A paragraph's lines as one: Chinese runs on with no space between."""
    text = ""
    for line in (line.strip() for line in lines):
        if text and line and not (wide(text[-1]) or wide(line[0])):
            text += " "
        text += line
    return text


def inline(text, link):
    """A line of Markdown as HTML: code, pictures, links and bold."""
    kept = []

    def keep(found):
        """Put a code span aside, so nothing inside it is read as Markdown."""
        kept.append(found.group(1))
        return "\x00%d\x00" % (len(kept) - 1)

    text = html.escape(CODE.sub(keep, text), quote=False)

    def picture(found):
        """A picture, where link finds it."""
        where = link(html.unescape(found.group(2)))
        return '<img alt="%s" src="%s">' % (found.group(1), html.escape(where)) \
            if where else ""

    def anchor(found):
        """A link, or its words alone when link gives no address."""
        where = link(html.unescape(found.group(2)))
        return '<a href="%s">%s</a>' % (html.escape(where), found.group(1)) \
            if where else found.group(1)

    text = re.sub(r"!\[([^\]]*)\]\(([^)\s]+)\)", picture, text)
    text = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", anchor, text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
    return KEPT.sub(lambda found: "<code>%s</code>" % html.escape(
        kept[int(found.group(1))], quote=False), text)


def cells(row):
    """A table row's cells, split at the bars outside code."""
    parts, cell, in_code = [], "", False
    for letter in row.strip().strip("|"):
        if letter == "`":
            in_code = not in_code
        if letter == "|" and not in_code:
            parts.append(cell.strip())
            cell = ""
        else:
            cell += letter
    return parts + [cell.strip()]


def table(rows, link):
    """A Markdown table (its head, the line of dashes, its rows) as HTML."""
    head = "".join("<th>%s</th>" % inline(cell, link) for cell in cells(rows[0]))
    body = ["<tr>%s</tr>" % "".join("<td>%s</td>" % inline(cell, link)
                                    for cell in cells(row)) for row in rows[2:]]
    return "<table><thead><tr>%s</tr></thead><tbody>%s</tbody></table>" % (
        head, "".join(body))


def indent(line):
    """How many spaces a line starts with."""
    return len(line) - len(line.lstrip(" "))


def starts_block(line):
    """Does this line begin something other than a paragraph's next line?"""
    return bool(FENCE.match(line) or HEADING.match(line) or line.startswith("|")
                or ITEM.match(line) or line.startswith("<!--"))


def list_html(lines, start, link):
    """The list that begins at line start: (its HTML, the line after it)."""
    first = ITEM.match(lines[start])
    level, ordered = len(first.group(1)), first.group(2)[0].isdigit()
    items, at = [], start
    while at < len(lines):
        item = ITEM.match(lines[at])
        if not item or len(item.group(1)) != level:
            break
        column, body = item.end(), [lines[at][item.end():]]
        at += 1
        while at < len(lines):
            line = lines[at]
            if not line.strip():
                ahead = at
                while ahead < len(lines) and not lines[ahead].strip():
                    ahead += 1
                if ahead == len(lines) or indent(lines[ahead]) <= level:
                    break
                body += [""] * (ahead - at)
                at = ahead
                continue
            if indent(line) <= level and (starts_block(line) or not body[-1].strip()):
                break
            body.append(line[column:] if not line[:column].strip() else line.strip())
            at += 1
        inner = blocks(body, link)
        if inner.count("<p>") == 1 and inner.startswith("<p>"):
            inner = inner[3:].replace("</p>", "", 1)
        items.append("<li>%s</li>" % inner)
    tag = "ol" if ordered else "ul"
    begins = ' start="%s"' % first.group(2)[:-1] if ordered and first.group(2) != "1." else ""
    return "<%s%s>%s</%s>" % (tag, begins, "".join(items), tag), at


def blocks(lines, link):
    """Markdown lines as HTML, block by block."""
    out, at = [], 0
    while at < len(lines):
        line = lines[at]
        if not line.strip():
            at += 1
        elif FENCE.match(line):
            cut = indent(line)
            end = at + 1
            while end < len(lines) and not FENCE.match(lines[end].strip()):
                end += 1
            code = [text[cut:] if not text[:cut].strip() else text
                    for text in lines[at + 1:end]]
            out.append("<pre><code>%s</code></pre>" % html.escape("\n".join(code),
                                                                 quote=False))
            at = end + 1
        elif line.startswith("<!--"):
            while "-->" not in lines[at]:
                at += 1
            at += 1
        elif HEADING.match(line):
            marks, words = HEADING.match(line).groups()
            out.append('<h%d id="%s">%s</h%d>' % (len(marks), html.escape(slug(words)),
                                                  inline(words, link), len(marks)))
            at += 1
        elif line.startswith("|"):
            end = at
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            out.append(table(lines[at:end], link))
            at = end
        elif ITEM.match(line):
            made, at = list_html(lines, at, link)
            out.append(made)
        else:
            end = at + 1
            while end < len(lines) and lines[end].strip() and not starts_block(lines[end]):
                end += 1
            out.append("<p>%s</p>" % inline(joined(lines[at:end]), link))
            at = end
    return "\n".join(out)


def page(markdown, link):
    """A Markdown page as a whole HTML page (its first heading its title)."""
    heading = re.search(r"^# +(.+)$", markdown, re.M)
    title = re.sub(r"[`*]", "", heading.group(1)) if heading else ""
    return ('<!DOCTYPE html>\n<html lang="zh-CN">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n%s\n</body>\n</html>\n'
            % (html.escape(title), CSS, blocks(markdown.splitlines(), link)))
