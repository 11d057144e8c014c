"""The lesson steps in Chinese, chapter/zh/: made by tools/make_zh_steps.py
from the English steps, the same code on the same line numbers with the
book's Chinese comments, UTF-8 with a coding line; each runs with
`python stepNN.py` (as Thonny's Run starts it) under a locale that is not
UTF-8, draws its board from its own pictures, and does what its English
step does."""
import filecmp
import io
import json
import os
import shutil
import subprocess
import sys
import tokenize

import pytest

try:
    import fcntl
except ImportError:         # Windows: no localedef either
    fcntl = None

from loadgame import CHAPTER, ROOT
from test_lesson import STEPS

sys.path.insert(0, os.path.join(ROOT, "tools"))
import make_zh_steps  # noqa: E402  (tools/ is not a package)

ZH = os.path.join(CHAPTER, "zh")

# Put on the path of a step's own Python process as sitecustomize, this
# seeds the random numbers (so the English and the Chinese step lay the same
# bombs), and at the first frame notes a fingerprint of the window, asks
# for the two sounds, and clicks: right on the block at row 3, column 3,
# left on row 7, column 7; then the window closes. When Python ends it
# writes what it saw as one JSON line on stdout.
HARNESS = r'''
import atexit, hashlib, json, locale, random, sys
sys.modules.setdefault("pkg_resources", None)   # pygame starts quicker without it
import pygame
import pgzero.game
if sys.modules.get("pkg_resources", False) is None:
    del sys.modules["pkg_resources"]

random.seed(7)
seen = {"encoding": locale.getpreferredencoding(False), "frames": 0}
real = pgzero.game.PGZeroGame.get_draw_func


def get_draw_func(self):
    draw = real(self)

    def drawn():
        draw()
        seen["frames"] += 1
        if seen["frames"] == 1:
            surface = pygame.display.get_surface()
            pixels = getattr(pygame.image, "tobytes", None) or pygame.image.tostring
            seen["frame"] = hashlib.sha1(pixels(surface, "RGB")).hexdigest()
            seen["size"] = surface.get_size()
            main = sys.modules["__main__"]
            try:
                main.sounds.bomb, main.sounds.win
                seen["sounds"] = "found"
            except Exception as error:
                seen["sounds"] = type(error).__name__
            for button, place in ((3, (87, 87)), (1, (187, 187))):
                pygame.event.post(pygame.event.Event(
                    pygame.MOUSEBUTTONDOWN, pos=place, button=button))
            pygame.event.post(pygame.event.Event(pygame.QUIT))
    return drawn


def report():
    main = sys.modules["__main__"]
    seen["images"] = [block.image for block in getattr(main, "blocks", [])]
    print("SEEN " + json.dumps(seen))


pgzero.game.PGZeroGame.get_draw_func = get_draw_func
atexit.register(report)
'''


def code_of(text):
    """Each line of a step without its comment (a blank for a comment line)."""
    lines = text.splitlines()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            row, col = token.start
            lines[row - 1] = lines[row - 1][:col].rstrip()
    return lines


def english(step):
    """The English step's text."""
    with open(os.path.join(CHAPTER, step), encoding="ascii") as f:
        return f.read()


def chinese(step):
    """The Chinese step's bytes, as a student's computer gets them."""
    with open(os.path.join(ZH, step), "rb") as f:
        return f.read()


@pytest.fixture(scope="module")
def gb18030(tmp_path_factory):
    """A Chinese locale that is not UTF-8, as {LOCPATH, LC_ALL}, or None
    where this computer cannot make one."""
    # localedef takes half a minute of a core for GB18030: made once for
    # the whole run, in the folder every worker (pytest-xdist) shares, the
    # first worker to ask making it while the others wait.
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    folder = shared / "locale-gb18030"
    with open(str(shared / "locale-gb18030.lock"), "a") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "tried").exists():
            make_gb18030(folder)
    if not (folder / "zh_CN.GB18030").exists():
        return None
    return {"LOCPATH": str(folder), "LC_ALL": "zh_CN.GB18030"}


def make_gb18030(folder):
    """Make the zh_CN.GB18030 locale in folder, if this computer can; note
    that it was tried either way."""
    folder.mkdir(exist_ok=True)
    try:
        made = subprocess.run(["localedef", "-i", "zh_CN", "-f", "GB18030",
                               str(folder / "zh_CN.GB18030")],
                              capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        made = None
    if made is None or made.returncode not in (0, 1):
        shutil.rmtree(str(folder / "zh_CN.GB18030"), ignore_errors=True)
    (folder / "tried").write_text("")


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    """A folder with the sitecustomize that watches a step run."""
    folder = tmp_path_factory.mktemp("harness")
    (folder / "sitecustomize.py").write_text(HARNESS, encoding="ascii")
    return str(folder)


def run_step(path, cwd, harness, extra=None, command=None):
    """Run a step in its own Python, headless, the way Thonny's Run does:
    (return code, what the harness saw, the last line of stderr)."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("LC_", "LANG", "PYTHONIOENCODING", "PYTHONUTF8"))}
    env.update({"LANG": "C", "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                "PYTHONPATH": harness, "MINESWEEP_DATA_DIR": cwd})
    env.update(extra or {})
    done = subprocess.run(command or [sys.executable, path], cwd=cwd, env=env,
                          capture_output=True, timeout=120)
    out = done.stdout.decode("ascii", "replace")
    seen = [json.loads(line[5:]) for line in out.splitlines() if line.startswith("SEEN ")]
    errors = [line for line in done.stderr.decode("utf-8", "replace").splitlines()
              if line.strip() and not line.startswith("ALSA")]
    return done.returncode, (seen or [None])[-1], errors[-1] if errors else ""


def test_the_chinese_steps_are_what_the_tool_makes_now():
    made = make_zh_steps.build()
    assert sorted(made) == STEPS == make_zh_steps.step_files(ZH)
    for step, text in made.items():
        assert chinese(step) == text.encode("utf-8"), \
            "run python tools/make_zh_steps.py and commit chapter/zh/"


def test_the_same_code_on_the_same_line_numbers_comments_aside():
    for step in STEPS:
        text = chinese(step).decode("utf-8")
        assert len(text.splitlines()) == len(english(step).splitlines()), step
        assert code_of(text) == code_of(english(step)), step
        # Comment lines stay comment lines, and a mark stays at its line's end.
        for ours, theirs in zip(text.splitlines(), english(step).splitlines()):
            assert ours.lstrip().startswith("#") == theirs.lstrip().startswith("#")
            mark = make_zh_steps.MARK.search(theirs)
            if mark and not theirs.lstrip().startswith("#"):
                assert ours.endswith(mark.group(1)), (step, ours)


def numbered_code(text):
    """A step's lines of code, each as (its line number, its code without
    its comment); blank lines and comment lines left out."""
    return [(number, code) for number, code in enumerate(code_of(text), 1) if code.strip()]


def test_a_step_begins_as_the_books_listing_and_ends_with_what_it_says_of_itself():
    # The book's listing: the coding line, the title, a blank line, the code.
    for step in STEPS:
        for text, title in ((chinese(step).decode("utf-8"),
                             "# \u626b\u96f7\u6e38\u620f\u6e90\u4ee3\u7801"),
                            (english(step), "# Minesweeper source code")):
            lines = text.splitlines()
            assert lines[0] == "# -*- coding: utf-8 -*-", step
            assert lines[1].startswith(title) and lines[2] == "", (step, lines[1])
            assert lines[3] == "import pgzrun  # RUN", step
            # After pgzrun.go() come only comments: what the step says of itself.
            last = numbered_code(text)[-1]
            assert last[1] == "pgzrun.go()" and lines[last[0]] == "", step
            assert all(line.startswith("#") for line in lines[last[0] + 1:]), step
            assert len(lines) - last[0] >= 4, step


def test_a_line_of_code_keeps_its_number_while_the_code_above_it_is_the_same():
    # A student types the code, not the comments: a comment that grows or
    # shrinks from one step to the next must not move the code below it.
    for text_of in (lambda step: chinese(step).decode("utf-8"), english):
        for low, first in enumerate(STEPS):
            for second in STEPS[low + 1:]:
                pairs = zip(numbered_code(text_of(first)), numbered_code(text_of(second)))
                for (here, code), (there, other) in pairs:
                    if code != other:
                        break
                    assert here == there, (first, second, code, here, there)


def test_each_step_is_utf8_says_so_and_has_the_books_chinese_comments():
    # Comments from the book's listing, word for word (written with \u
    # escapes: every .py file here is ASCII).
    book = {
        "step01_tiles.py": [
            "# \u65b9\u5757\u884c\u6570",
            "# \u65b9\u5757\u5217\u6570",
            "# \u5c4f\u5e55\u5bbd\u5ea6",
            "# \u5c06\u6240\u6709\u65b9\u5757\u6dfb\u52a0\u5230\u573a\u666f\u4e2d",
            "# \u8bbe\u7f6e\u65b9\u5757\u7684\u6c34\u5e73\u4f4d\u7f6e",
            "# \u7ed8\u5236\u6e38\u620f\u56fe\u50cf",
        ],
        "step03_shuffle.py": [
            "# \u968f\u673a\u6253\u4e71\u65b9\u5757\u5217\u8868\u7684\u6b21\u5e8f",
            "# \u57cb\u8bbe\u5730\u96f7",
            "# \u70b8\u5f39\u6570\u91cf",
        ],
        "step07_left_click.py": [
            "# \u82e5\u65b9\u5757\u88ab\u9f20\u6807\u70b9\u51fb\uff0c\u4e14\u8be5\u65b9\u5757\u672a\u66fe\u6253\u5f00",
            "# \u82e5\u9f20\u6807\u53f3\u952e\u70b9\u51fb\u65b9\u5757",
            "# \u5904\u7406\u9f20\u6807\u70b9\u51fb\u4e8b\u4ef6",
            "# \u6807\u8bb0\u65b9\u5757\u662f\u5426\u88ab\u6253\u5f00",
        ],
        "step08_recursion.py": [
            "# \u82e5\u65b9\u5757\u5468\u56f4\u6ca1\u6709\u5730\u96f7\uff0c\u5219\u9012\u5f52\u5730\u6253\u5f00\u5468\u56f4\u7684\u65b9\u5757",
            "# \u83b7\u53d6\u67d0\u65b9\u5757\u5468\u56f4\u7684\u5730\u96f7\u6570\u91cf",
            "# \u6253\u5f00\u65b9\u5757",
        ],
        "step10_win.py": [
            "# \u68c0\u67e5\u662f\u5426\u6240\u6709\u6ca1\u57cb\u5730\u96f7\u7684\u65b9\u5757\u90fd\u88ab\u6253\u5f00",
            "# \u66f4\u65b0\u6e38\u620f\u903b\u8f91",
            "# \u5730\u96f7\u7206\u70b8\u540e\u663e\u793a\u6240\u6709\u5730\u96f7",
            "# \u6e38\u620f\u5b8c\u6210\u6807\u8bb0",
        ],
    }
    for step in STEPS:
        raw = chinese(step)
        text = raw.decode("utf-8")
        assert text.splitlines()[0] == "# -*- coding: utf-8 -*-"
        # Python reads the file by its coding line, whatever the computer's.
        assert tokenize.detect_encoding(io.BytesIO(raw).readline)[0] == "utf-8"
        compile(raw, step, "exec")
        assert "python chapter/zh/%s" % step in text and "README.zh.md" in text
        # Every comment line is in Chinese now: none is left as the English
        # has it, but for the coding line both begin with.
        for ours, theirs in zip(text.splitlines()[1:], english(step).splitlines()[1:]):
            if theirs.lstrip().startswith("#"):
                assert ours != theirs, (step, ours)
        for words in book.get(step, []):
            assert words in text, (step, words)


def test_the_pictures_and_sounds_are_beside_the_chinese_steps():
    for folder in make_zh_steps.FOLDERS:
        names = sorted(os.listdir(os.path.join(CHAPTER, folder)))
        assert names and sorted(os.listdir(os.path.join(ZH, folder))) == names
        match, mismatch, errors = filecmp.cmpfiles(
            os.path.join(CHAPTER, folder), os.path.join(ZH, folder), names, shallow=False)
        assert mismatch == [] and errors == []


def test_the_tool_names_a_comment_it_has_no_chinese_for(tmp_path, monkeypatch):
    data = make_zh_steps.read_data()
    del data["inline"]["rows of blocks"]
    with pytest.raises(make_zh_steps.Missing, match="rows of blocks"):
        make_zh_steps.build(data)
    data = make_zh_steps.read_data()
    data["blocks"]["Once the game is over, a click does nothing."].append("two lines")
    with pytest.raises(make_zh_steps.Missing, match="2 lines of Chinese for the 1"):
        make_zh_steps.build(data)
    # main() says so in one line, and writes nothing.
    (tmp_path / "steps_zh.json").write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(make_zh_steps, "DATA", str(tmp_path / "steps_zh.json"))
    monkeypatch.setattr(make_zh_steps, "ZH", str(tmp_path / "zh"))
    said = make_zh_steps.main()
    assert said.startswith("make_zh_steps: ") and "\n" not in said
    assert not (tmp_path / "zh").exists()


def test_the_tool_places_the_pictures_and_sounds(tmp_path, monkeypatch):
    monkeypatch.setattr(make_zh_steps, "ZH", str(tmp_path / "zh"))
    copied = make_zh_steps.place_assets()
    assert len(copied) == sum(len(os.listdir(os.path.join(CHAPTER, folder)))
                              for folder in make_zh_steps.FOLDERS)
    assert make_zh_steps.place_assets() == []       # the second time: nothing to do


@pytest.mark.parametrize("step", STEPS)
def test_each_step_runs_as_thonny_runs_it_and_does_what_its_english_step_does(
        step, harness, gb18030, tmp_path):
    folder = tmp_path / "zh"
    shutil.copytree(ZH, folder)         # no data file or cache lands in chapter/
    theirs = run_step(os.path.join(CHAPTER, step), str(tmp_path), harness)
    assert theirs[1] is not None and theirs[1]["frames"] >= 1, theirs
    locales = [({}, str(folder), step)]                     # LANG=C, beside the script
    if gb18030 is not None:
        locales.append((gb18030, str(tmp_path), os.path.join("zh", step)))
    for extra, cwd, path in locales:
        ours = run_step(path, cwd, harness, extra)
        assert ours[0] == theirs[0] and ours[2] == theirs[2], (extra, ours, theirs)
        seen = ours[1]
        assert seen["frame"] == theirs[1]["frame"] and seen["size"] == [375, 375]
        assert seen["images"] == theirs[1]["images"]
        assert seen["sounds"] == theirs[1]["sounds"] == "found"
        if extra:
            assert seen["encoding"].lower() == "gb18030"
    if step == "step04_right_click.py":      # the book's NameError, in both
        assert "NameError: name 'set_flag' is not defined" in theirs[2]
    else:
        assert theirs[0] == 0


def test_pgzrun_reads_a_chinese_step_in_the_locales_encoding(harness, gb18030, tmp_path):
    # What README.zh.md tells: pgzero 1.2.1's pgzrun opens the script in the
    # computer's own encoding, so a UTF-8 step stops before it starts on a
    # Chinese computer; with PYTHONUTF8=1 it reads it as UTF-8.
    if gb18030 is None:
        pytest.skip("this computer cannot make a GB18030 locale")
    pgzrun = shutil.which("pgzrun")
    if pgzrun is None:
        pytest.skip("no pgzrun on the path")
    step = os.path.join(ZH, STEPS[0])
    stopped = run_step(step, str(tmp_path), harness, gb18030, [pgzrun, step])
    assert stopped[0] != 0 and stopped[2].startswith("UnicodeDecodeError: 'gb18030'")
    utf8 = dict(gb18030, PYTHONUTF8="1")
    ran = run_step(step, str(tmp_path), harness, utf8, [pgzrun, step])
    assert ran[0] == 0 and ran[1]["frames"] >= 1
