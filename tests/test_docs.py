"""The README and the pages in docs/ stay true: every link and picture is
there, the README's commands are the ones CI runs, the README stays short,
README.zh.md and README.zh-TW.md name only what the game itself says, and
the project speaks of itself alone."""
import glob
import json
import os
import re
import subprocess

import pytest

from loadgame import ROOT

PAGES = ["README.md", "README.zh.md", "README.zh-TW.md"] + sorted(
    os.path.relpath(path, ROOT) for path in glob.glob(os.path.join(ROOT, "docs", "*.md")))


def read(name):
    """A file of the project, as text."""
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        return f.read()


@pytest.mark.parametrize("page", PAGES)
def test_every_link_and_picture_is_there(page):
    for target in re.findall(r"\]\(([^)]+)\)", read(page)):
        if re.match(r"[a-z]+://", target):
            continue                                  # a web address
        path, _, anchor = target.partition("#")
        where = os.path.normpath(os.path.join(ROOT, os.path.dirname(page), path)) \
            if path else os.path.join(ROOT, page)
        assert os.path.exists(where), (page, target)
        if anchor:
            headings = re.findall(r"^#+ (.+)$", read(os.path.relpath(where, ROOT)), re.M)
            slugs = {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
                     for heading in headings}
            assert anchor in slugs, (page, target)


def commands(page):
    """The lines of the first code block after a page's install heading."""
    text = read(page)
    block = re.search(r"```\n(.*?)```", text[text.index("**3. "):], re.S)
    return block.group(1).strip().splitlines()


def test_the_readme_starts_with_install_and_is_short():
    text = read("README.md")
    assert len(text) <= 12000
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings[0] == "Install and play"
    for page in ("docs/teacher.md", "docs/solver.md", "docs/reliability.md",
                 "docs/speed.md", "docs/developers.md"):
        assert "(%s)" % page in text, page


def test_the_readmes_commands_are_the_ones_ci_runs():
    install, run, tests = commands("README.md")
    assert commands("README.zh.md") == [install, run, tests]
    assert commands("README.zh-TW.md") == [install, run, tests]
    ci = read(".ci/run")
    # CI says "$PY" for python, and asks pip to be quiet.
    said = [line.strip().replace('"$PY"', "python").replace(" -q", "")
            .replace(" --root-user-action=ignore", "") for line in ci.splitlines()]
    assert install in said and tests in said
    assert run == "python minesweep.py"
    # The real-window test starts the game exactly so (as Thonny's Run does).
    assert '[sys.executable, "minesweep.py"' in read("tests/test_window.py")
    ce_install = [line for line in read("README.md").splitlines()
                  if "requirements-ce.txt" in line and line.startswith("python")]
    assert ce_install and all(line.replace("python -m pip", "").strip() in " ".join(
        said) for line in ce_install)


def game_texts(name="zh.json"):
    """Every text the game says in a Chinese (texts/name), as patterns (a
    fact in braces stands for anything)."""
    with open(os.path.join(ROOT, "texts", name), encoding="utf-8") as f:
        # Without the break marks (zero-width spaces) a text may have.
        texts = [text.replace("\u200b", "") for text in json.load(f).values()]
    return [re.compile(".*".join(re.escape(part) for part in re.split(r"\{[^}]*\}", text)))
            for text in texts]


def test_the_chinese_readme_quotes_only_what_the_game_says():
    text = read("README.zh.md")
    patterns = game_texts()
    quoted = re.findall("\u201c([^\u201d]+)\u201d", text)     # between Chinese quotes
    assert len(quoted) > 20
    for term in quoted:
        assert any(pattern.search(term) or term in pattern.pattern.replace("\\", "")
                   for pattern in patterns), term
    # The keys of its table of controls are the game's own.
    with open(os.path.join(ROOT, "texts", "zh.json"), encoding="utf-8") as f:
        keys = json.load(f)["keys"]
    for key, meaning in re.findall(r"^\| ([A-Z]) \| \u201c([^\u201d]+)\u201d", text, re.M):
        assert "%s %s" % (key, meaning) in keys or meaning in keys, (key, meaning)
    # One quote style for what the game says, and the old words are gone.
    assert '"' not in re.sub(r"`[^`]*`|```.*?```", "", text, flags=re.S)
    for old in ("\u53cc\u51fb", "\u4e0d\u7528\u731c", "\u68cb\u76d8\u53f7",
                "\u786e\u5b9a\u6b65"):          # double-click, no-guess, board no., sure step
        assert old not in text, old


def test_the_traditional_readme_quotes_only_what_the_game_says():
    # Taiwan quotes with corner brackets: what is between them is the game's own words.
    text = read("README.zh-TW.md")
    patterns = game_texts("zh-TW.json")
    quoted = re.findall("\u300c([^\u300d]+)\u300d", text)
    assert len(quoted) > 20
    for term in quoted:
        assert any(pattern.search(term) or term in pattern.pattern.replace("\\", "")
                   for pattern in patterns), term
    with open(os.path.join(ROOT, "texts", "zh-TW.json"), encoding="utf-8") as f:
        keys = json.load(f)["keys"]
    pairs = re.findall(r"^\| ([A-Z]) \| \u300c([^\u300d]+)\u300d", text, re.M)
    assert len(pairs) > 8
    for key, meaning in pairs:
        assert "%s %s" % (key, meaning) in keys, (key, meaning)
    # It says how to start the game in Traditional Chinese.
    assert "python minesweep.py --lang zh-TW" in text
    assert "python minesweep.py --check --lang zh-TW" in text
    assert "README.zh-TW.md" in read("README.zh.md") and "README.zh-TW.md" in read("README.md")


def test_the_project_speaks_of_itself_alone():
    # Written in pieces, so that this file does not name them itself.
    words = "|".join(["seed" + " 00", "seed" + "00", r"\bsess" + r"ion\b", "iss" + "ue [0-9]"])
    done = subprocess.run(["git", "grep", "-n", "-i", "-E", words], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.stdout == "", done.stdout


def code_spans(text):
    """The `code` of a page outside its code blocks, spaces made single."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return {re.sub(r"\s+", " ", span) for span in re.findall(r"`([^`]+)`", text)}


def test_the_chinese_teachers_page_says_all_the_english_one_does():
    english, chinese = read("docs/teacher.md"), read("docs/teacher.zh.md")
    # Each section in the same order, its English heading noted below its own.
    headings = re.findall(r"^## (.+)$", english, re.M)
    noted = re.findall(r"^## .+\n<!-- en: (.+) -->$", chinese, re.M)
    assert noted == headings
    # Every name, file, command and number in code the English page gives,
    # but the game's own English words, which the Chinese page says in Chinese.
    import wording
    screen = [re.compile(".*".join(re.escape(part) for part in re.split(
        r"\{[^}]*\}", text)) + "$") for text in wording.TEXTS.values()]
    missing = [span for span in code_spans(english) - code_spans(chinese)
               if not any(pattern.match(span) for pattern in screen)]
    assert missing == []
    # Linked both ways, and from the Chinese README.
    assert "(teacher.zh.md)" in english and "(docs/teacher.zh.md)" in read("README.zh.md")
    assert "(docs/lesson_plan.zh.md)" in read("README.zh.md")


def test_the_teachers_pages_give_the_reason_for_the_limit_the_panel_only_names():
    # K's last step says the game's limit in a class's words; the sum behind
    # it (fix c: room for a call a tile, twice over for the recorder, and
    # 1000 for what runs below the first call) is the teacher's to explain.
    import slowmotion
    tiles = slowmotion.DEMO * slowmotion.DEMO
    sum_ = "%d = 2 \u00d7 %d + 1000" % (2 * tiles + 1000, tiles)
    for page, words in (("docs/teacher.md", ("recorder", "fix c")),
                        ("docs/teacher.zh.md", ("\u8bb0\u5f55\u5668", "\u4fee\u6b63 c"))):
        text = read(page)
        assert sum_ in text, page
        paragraph = text[text.index(sum_) - 600:text.index(sum_) + 600]
        assert all(word in paragraph for word in words), page


def test_the_lesson_plan_runs_slow_motion_full_screen_with_the_games_own_options():
    import startup
    plan = read("docs/lesson_plan.zh.md")
    commands = re.findall(r"`python minesweep\.py([^`]*)`", plan)
    assert len(commands) >= 3
    for options in commands:
        startup.options(options.split(), 15, 15, 20)      # one line and exit if not
    # Slow motion (V pressed) on the projector: full screen, readable from the back row.
    slow = [line for line in plan.splitlines() if re.search(r"\u6309 \**V\b", line)
            and "python minesweep.py" in line]
    assert len(slow) >= 2
    for line in slow:
        for options in re.findall(r"`python minesweep\.py([^`]*)`", line):
            assert "--fullscreen" in options.split(), line


def test_the_lesson_plans_setup_runs_the_installer_as_administrator_and_the_self_test():
    plan = read("docs/lesson_plan.zh.md")
    setup = plan[plan.index("## "):plan.index("## ", plan.index("## ") + 3)]
    assert "\u4ee5\u7ba1\u7406\u5458\u8eab\u4efd\u8fd0\u884c" in setup   # run as administrator
    assert "\u81ea\u68c0.bat" in setup                                        # the self-test
    assert "\u8fd9\u53f0\u7535\u8111\u53ef\u4ee5\u4e0a\u8bfe" in setup      # its verdict
