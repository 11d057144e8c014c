"""Make chapter/zh/: the lesson steps with the book's Chinese comments.

Run from the project folder:  python tools/make_zh_steps.py
It reads every chapter/step*.py and the Chinese comments in
chapter/steps_zh.json (UTF-8), and writes chapter/zh/stepNN_*.py: the same
code on the same line numbers, only each comment in Chinese. The Chinese
files are UTF-8 and say so in their first line, which Python honours
(python stepNN.py, Thonny's Run). Pygame Zero finds pictures and sounds
beside the script it runs, so the tool copies chapter/images and
chapter/sounds into chapter/zh/ too (git keeps one copy of a file that is
the same in two places).

A step begins as the book's listing does: line 1 the coding line, line 2
the title, then the code, so a line of code keeps its line number from step
to step wherever the code above it is the same. What a step says about
itself stands at the end, after pgzrun.go().

In the data file, "titles" gives each step's title (its line 2), and
"about" the comment block at its end, line by line ("@name" stands for the
lines of snippets[name], and {file} for the step's file name); "blocks" gives a comment of whole lines
(the English lines joined by spaces, without their "# ") as Chinese lines,
as many as the English has; "inline" gives a comment after code. The marks
at the end of a line (# NEW, # FIX e, ...) stay as they are. A comment with
no Chinese, or Chinese with the wrong number of lines, stops the tool with
a line saying which, so the Chinese steps cannot drift from the English.
Run it again after changing a step or the data file: a test checks that
chapter/zh/ is what this tool makes now.
"""
import filecmp
import io
import json
import os
import re
import shutil
import sys
import tokenize

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHAPTER = os.path.join(ROOT, "chapter")
ZH = os.path.join(CHAPTER, "zh")
DATA = os.path.join(CHAPTER, "steps_zh.json")
FOLDERS = ("images", "sounds")

# A mark is the last thing in a line's comment: "# NEW", "# FIX e", ...
MARK = re.compile(r"(\s*# (?:NEW|PEEK|RUN|FIX [a-f]))$")
CODING = "# -*- coding: utf-8 -*-"


class Missing(Exception):
    """A comment of a step that the data file has no Chinese for."""


def read_data():
    """The Chinese comments, as the data file has them."""
    with open(DATA, encoding="utf-8") as f:
        return json.load(f)


def step_files(folder=CHAPTER):
    """The lesson steps' file names, in the order of the lesson."""
    return sorted(name for name in os.listdir(folder)
                  if name.startswith("step") and name.endswith(".py"))


def comment_starts(source):
    """Where each line's comment begins, by line index."""
    starts = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            starts[token.start[0] - 1] = token.start[1]
    return starts


def comment_runs(lines):
    """The runs of whole-line comments: (first, end) line indexes, each run
    one indentation."""
    runs, index = [], 0
    while index < len(lines):
        indent = indent_of(lines[index])
        end = index
        while end < len(lines) and lines[end].lstrip().startswith("#") \
                and indent_of(lines[end]) == indent:
            end += 1
        if end > index:
            runs.append((index, end))
            index = end
        else:
            index += 1
    return runs


def indent_of(line):
    """The spaces in front of a line."""
    return line[:len(line) - len(line.lstrip())]


def words_of(line):
    """A comment line's words, without its indentation and "# "."""
    return re.sub(r"^#\s?", "", line.strip())


def title(name, data, english):
    """A step's first two lines in Chinese: the coding line and the title."""
    if len(english) != 2 or english[0] != CODING:
        raise Missing("%s: the step must begin with the lines %r and its title"
                      % (name, CODING))
    if name not in data["titles"]:
        raise Missing("%s: no Chinese title" % name)
    return [CODING, data["titles"][name]]


def about(name, data, count):
    """What a step says about itself, in Chinese: its last comment block,
    count lines long."""
    lines = []
    for item in data["about"].get(name, []):
        if item.startswith("@"):
            lines += data["snippets"][item[1:]]
        else:
            lines.append(item)
    lines = [line.format(file=name) for line in lines]
    if not lines:
        raise Missing("%s: no Chinese about the step" % name)
    if len(lines) != count:
        raise Missing("%s: the Chinese about the step has %d lines, the English %d"
                      % (name, len(lines), count))
    return lines


def block(name, english, data):
    """A comment of whole lines in Chinese, with the English lines' indentation."""
    key = " ".join(words_of(line) for line in english)
    chinese = data["blocks"].get(key)
    if chinese is None:
        raise Missing("%s: no Chinese for the comment %r" % (name, key))
    if len(chinese) != len(english):
        raise Missing("%s: %d lines of Chinese for the %d of %r" % (
            name, len(chinese), len(english), key))
    indent = indent_of(english[0])
    return [indent + ("# " + line if line else "#") for line in chinese]


def inline(name, line, start, data):
    """A line of code with its comment in Chinese and its mark kept."""
    comment = line[start:]
    mark = MARK.search(comment)
    words = comment[:mark.start()] if mark else comment
    kept = mark.group(1) if mark else ""
    if not words.strip():
        return line
    key = words_of(words)
    chinese = data["inline"].get(key)
    if chinese is None:
        raise Missing("%s: no Chinese for the comment %r" % (name, key))
    return "%s# %s%s" % (line[:start], chinese, kept)


def translate(name, source, data):
    """The Chinese step: the same code, each comment in Chinese."""
    lines = source.splitlines()
    out = list(lines)
    for first, end in comment_runs(lines):
        if first == 0:
            out[first:end] = title(name, data, lines[first:end])
        elif end == len(lines):
            out[first:end] = about(name, data, end - first)
        else:
            out[first:end] = block(name, lines[first:end], data)
    starts = comment_starts(source)
    for index, line in enumerate(lines):
        if index in starts and not line.lstrip().startswith("#"):
            out[index] = inline(name, line, starts[index], data)
    return "\n".join(out) + "\n"


def build(data=None):
    """Every Chinese step, as {file name: text}."""
    data = read_data() if data is None else data
    made = {}
    for name in step_files():
        with open(os.path.join(CHAPTER, name), encoding="ascii") as f:
            made[name] = translate(name, f.read(), data)
    return made


def place_assets():
    """Copy the steps' pictures and sounds beside the Chinese steps, where
    Pygame Zero looks for them; the names of files copied."""
    copied = []
    for folder in FOLDERS:
        source, target = os.path.join(CHAPTER, folder), os.path.join(ZH, folder)
        os.makedirs(target, exist_ok=True)
        for name in sorted(os.listdir(source)):
            there = os.path.join(target, name)
            if not (os.path.exists(there)
                    and filecmp.cmp(os.path.join(source, name), there, shallow=False)):
                shutil.copyfile(os.path.join(source, name), there)
                copied.append(folder + "/" + name)
    return copied


def main():
    """Write the Chinese steps and their pictures and sounds into chapter/zh/."""
    try:
        made = build()
    except Missing as problem:
        return "make_zh_steps: %s (add it to chapter/steps_zh.json)" % problem
    os.makedirs(ZH, exist_ok=True)
    for name, text in made.items():
        with open(os.path.join(ZH, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    copied = place_assets()
    print("wrote %d steps in %s, copied %d pictures and sounds" % (
        len(made), ZH, len(copied)))
    return None


if __name__ == "__main__":
    sys.exit(main())
