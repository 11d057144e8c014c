"""tools/make_kit.py, the classroom kit: a small kit (one Windows Python on
one platform, and this computer's own) is made by a real run of the tool,
its wheels reused from a folder kept between runs; its folders hold what a
teacher and a student need, the installer is one a Chinese Windows console
reads (and, where Wine is installed, runs: its choice of Python and what it
says), the checker runs from a copy of the students' folder, and the game
runs from the teacher's."""
import contextlib
import glob
import hashlib
import html
import html.parser
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

import pytest

try:
    import fcntl
except ImportError:         # Windows, which has its own cmd and no Wine
    fcntl = None

from conftest import look_again
from loadgame import CHAPTER, ROOT
from test_student_sheet import needs_printing, pdf_pages, print_pdf
from test_window import x_server

sys.path.insert(0, CHAPTER)
import check  # noqa: E402  (chapter/check.py: the checker's own list of its files)
import check_book  # noqa: E402

TOOL = os.path.join(ROOT, "tools", "make_kit.py")
with open(os.path.join(ROOT, "tools", "kit", "kit.json"), encoding="utf-8") as f:
    NAMES = json.load(f)["names"]
# Wheels fetched once are kept here for the next run of the tests.
CACHE = os.path.join(tempfile.gettempdir(), "minesweep-kit-wheels")
STUDENT, TEACHER, BAT = NAMES["student"], NAMES["teacher"], NAMES["install_bat"]
PROGRAM, README = NAMES["program"], NAMES["readme"]
SELFTEST, UNFINISHED = NAMES["selftest_bat"], NAMES["unfinished"]
NOT_PASSED = "\u6ca1\u901a\u8fc7"           # the checker's mark for a failed section
MADE = "\u505a\u597d\u4e86"                  # the kit's last word: made
ADMIN_WORDS = "\u4ee5\u7ba1\u7406\u5458\u8eab\u4efd\u8fd0\u884c"   # run as administrator
TEACHERS_COMPUTER = "\u8001\u5e08\u7684\u7535\u8111"          # the teacher's computer
# pygame 2.6 has wheels for Python 3.7 to 3.13 only (README, "Python 3.14 and newer").
HAS_WHEELS = sys.version_info[:2] <= (3, 13)


def make_kit(folder, *options, env=None):
    """Run the tool for a kit in folder, with the wheels kept from earlier
    runs; the finished run. Its new wheels are kept for the next."""
    if os.path.isdir(CACHE):
        shutil.copytree(CACHE, str(folder / "wheels"), dirs_exist_ok=True)
    done = subprocess.run([sys.executable, TOOL, str(folder)] + list(options),
                          capture_output=True, text=True, encoding="utf-8", timeout=600,
                          env=env)
    os.makedirs(CACHE, exist_ok=True)
    for name in os.listdir(str(folder / "wheels")):
        if name.endswith(".whl") and not os.path.exists(os.path.join(CACHE, name)):
            # Whole or not at all: another test process may be reading it.
            part = os.path.join(CACHE, "%s.%d.part" % (name, os.getpid()))
            shutil.copyfile(str(folder / "wheels" / name), part)
            os.replace(part, os.path.join(CACHE, name))
    return done


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """A kit for Python 3.11 on win_amd64, made by the tool; what it printed."""
    folder = tmp_path_factory.mktemp("kit") / "KIT"
    done = make_kit(folder, "--python", "3.11", "--platform", "win_amd64")
    assert done.returncode == 0, done.stderr
    return folder, done.stdout


def test_the_wheels_are_the_games_and_nothing_for_the_tests(kit):
    folder, _ = kit
    wheels = sorted(os.listdir(str(folder / "wheels")))
    assert any(re.match(r"pgzero-1\.2\.1-py3-none-any\.whl$", name) for name in wheels)
    for package in ("pygame", "numpy"):
        assert any(re.match(r"%s-.*-cp311-cp311-win_amd64\.whl$" % package, name)
                   for name in wheels), package
        here = "cp%d%d" % sys.version_info[:2]
        assert not HAS_WHEELS or any(name.startswith(package + "-") and "-%s-" % here in name
                   and "win" not in name for name in wheels), package
    assert not [name for name in wheels if re.match(
        r"(pytest|hypothesis|pluggy|iniconfig|execnet|attrs|sortedcontainers)", name, re.I)]
    # README.txt names each wheel with its size and sha256.
    listed = {}
    with open(str(folder / "wheels" / "README.txt"), encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[0].endswith(".whl"):
                listed[parts[0]] = (int(parts[1]), parts[2])
    whl = [name for name in wheels if name.endswith(".whl")]
    assert sorted(listed) == whl
    for name in whl:
        with open(str(folder / "wheels" / name), "rb") as f:
            data = f.read()
        assert listed[name] == (len(data), hashlib.sha256(data).hexdigest()), name


def test_the_installer_is_gbk_with_crlf_and_needs_no_network(kit):
    folder, _ = kit
    data = (folder / BAT).read_bytes()
    assert data.startswith(b"@echo off\r\nchcp 936 >nul\r\n")
    assert b"\n" not in data.replace(b"\r\n", b"")
    text = data.decode("gbk")
    assert '--no-index --find-links "%WHEELS%" pgzero' in text
    assert 'set "WHEELS=%~dp0wheels"' in text
    # py first, then python; and Thonny's own Python in its usual folders.
    assert 'call "%~dp0find_python.bat"' in text
    order = [(folder / "find_python.bat").read_bytes().decode("gbk").index(word) for word in (
        'set "PY=py"', 'set "PY=python"', r"%LOCALAPPDATA%\Programs\Thonny\python.exe",
        r"C:\Program Files\Thonny\python.exe", r"C:\Program Files (x86)\Thonny\python.exe")]
    assert order == sorted(order)
    # Thonny runs programs with its own Python: it gets them too, if it is there.
    assert 'call :install "%PY%"' in text and 'call :install "%THONNY%"' in text
    assert "\u6ca1\u6709\u627e\u5230 Python" in text       # no Python found, in Chinese
    # Every .bat: Windows' line ends, and no Chinese letter whose second
    # byte is one that cmd reads as a sign of its own.
    bats = [name for name in os.listdir(str(folder)) if name.endswith(".bat")]
    assert sorted(bats) == sorted([BAT, SELFTEST, "find_python.bat"])
    for name in bats:
        data = (folder / name).read_bytes()
        assert b"\n" not in data.replace(b"\r\n", b""), name
        for letter in set(data.decode("gbk")):
            assert not set(letter.encode("gbk")[1:]) & set(b'|^&<>%"()!'), (name, letter)
    sh = (folder / "install.sh").read_text(encoding="utf-8")
    assert '--no-index --find-links "$wheels" pgzero' in sh
    for name in ("install.sh", "selftest.sh"):
        assert os.access(str(folder / name), os.X_OK), name


def test_the_students_folder_holds_what_a_student_needs_and_no_minesweep_py(kit):
    folder, _ = kit
    student = folder / STUDENT
    names = set(os.listdir(str(student)))
    assert {"images", "sounds", "steps", "languages.py", PROGRAM, README} <= names
    # Every file of the checker's own list, and each of the lesson's steps
    # in steps/ (the book the checker lines a program up with).
    assert set(check.CHECKER_FILES) <= names
    assert sorted(os.listdir(str(student / "steps"))) == sorted(
        name for name, _ in check_book.STEPS)
    assert any(name.endswith(".html") for name in names)
    assert sorted(os.listdir(str(student / "images"))) == sorted(
        os.listdir(os.path.join(CHAPTER, "images")))
    for where, _, files in os.walk(str(student)):
        assert "minesweep.py" not in files, where
    # The program begins as the sheet's first step: UTF-8, its coding line
    # saying so, then the title, with Windows' line ends.
    with open(os.path.join(CHAPTER, "zh", "step01_tiles.py"), encoding="utf-8") as f:
        first = f.read().splitlines()[:2]
    assert first[0] == "# -*- coding: utf-8 -*-"
    program = (student / PROGRAM).read_bytes()
    assert program.decode("utf-8") == "\r\n".join(first) + "\r\n"
    readme = (student / README).read_bytes()
    assert readme.startswith(b"\xef\xbb\xbf") and b"\n" not in readme.replace(b"\r\n", b"")
    pdfs = [name for name in names if name.endswith(".pdf")]
    if shutil.which("chromium"):
        assert len(pdfs) == 1 and (student / pdfs[0]).read_bytes().startswith(b"%PDF")


def test_the_kit_says_what_it_made_and_the_two_lines(kit):
    folder, said = kit
    files = sum(len(names) for _, _, names in os.walk(str(folder)))
    assert re.search(r"\b%d\b" % files, said)
    assert re.search(r"[0-9.]+ MB", said)
    assert "X:\\KIT\\" + BAT in said and "xcopy" in said
    assert "X:\\KIT\\" + SELFTEST in said and ADMIN_WORDS in said
    # How long the download took, and the rest: a second run of a kit on
    # another line or computer takes as long as its own of each.
    took = [line for line in said.splitlines() if line.count("\u79d2") == 2]   # seconds
    assert len(took) == 1 and len(re.findall(r"\d+", took[0])) == 2, said


@pytest.mark.skipif(not shutil.which("chromium"), reason="stopped while Chromium prints")
def test_a_kit_stopped_while_it_is_made_says_so_and_is_refused(tmp_path):
    folder = tmp_path / "KIT"
    options = ("--python", "3.11", "--platform", "win_amd64")

    def stopped(when):
        """The tool started again on the kit, and stopped dead once when() is true."""
        if os.path.isdir(CACHE):
            shutil.copytree(CACHE, str(folder / "wheels"), dirs_exist_ok=True)
        making = subprocess.Popen([sys.executable, TOOL, str(folder)] + list(options),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  start_new_session=True)
        try:
            while making.poll() is None and not when():
                look_again()
        finally:
            os.killpg(making.pid, signal.SIGKILL)       # the tool and its Chromium
            making.wait()

    # Stopped while Chromium prints the sheet: the teacher's folder is not
    # there yet, and a file says the kit is not finished.
    sheet = folder / STUDENT / (NAMES["sheet"] + ".html")
    stopped(sheet.exists)
    assert not (folder / TEACHER / "chapter").exists()
    assert (folder / UNFINISHED).is_file()
    # Made whole, the file is gone; stopped as it is made again, it is back,
    # and the installer and the self-test of the kit made before refuse it.
    assert make_kit(folder, *options).returncode == 0
    assert not (folder / UNFINISHED).exists() and (folder / TEACHER / "chapter").is_dir()
    stopped((folder / UNFINISHED).exists)
    assert (folder / UNFINISHED).is_file()
    for script in ("install.sh", "selftest.sh"):
        done = subprocess.run(["sh", str(folder / script)], env=no_network(
            PYTHON=sys.executable), capture_output=True, text=True, encoding="utf-8",
            timeout=120)
        assert done.returncode == 1 and NOT_FINISHED in done.stdout, done.stdout
        assert FOUND not in done.stdout and PASSED not in done.stdout


def book(folder, name, change=lambda text: text):
    """The book's whole program, the lesson's step 10 with the book's
    gb18030 line, saved as GB18030 as a student's would be."""
    with open(os.path.join(CHAPTER, "zh", "step10_win.py"), encoding="utf-8") as f:
        text = f.read().replace("# -*- coding: utf-8 -*-", "# -*- coding:gb18030 -*-", 1)
    (folder / name).write_bytes(change(text).encode("gb18030"))


def test_the_checker_runs_from_a_copy_of_the_students_folder(kit, tmp_path):
    folder, _ = kit
    copy = tmp_path / "desk" / STUDENT
    shutil.copytree(str(folder / STUDENT), str(copy))
    book(copy, "book.py")
    book(copy, "wrong.py", lambda text: text.replace("bk.isopen = True", "bk.isopen = False"))
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    run = [sys.executable, "check.py"]
    passed = subprocess.run(run + ["book.py"], cwd=str(copy), capture_output=True,
                            text=True, encoding="utf-8", env=env, timeout=300)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    failed = subprocess.run(run + ["wrong.py"], cwd=str(copy), capture_output=True,
                            text=True, encoding="utf-8", env=env, timeout=300)
    assert failed.returncode == 1
    assert "[%s] 3.3.4" % NOT_PASSED in failed.stdout and "RecursionError" in failed.stdout
    # The line is named: the book's steps are there to line the program up with.
    line = [n for n, text in enumerate((copy / "wrong.py").read_text(encoding="gb18030")
                                       .splitlines(), 1) if "bk.isopen = False" in text][0]
    assert "\u7b2c %d \u884c" % line in failed.stdout, failed.stdout
    # The whole folder: the students' programs, not the checker's own files.
    every = subprocess.run(run + ["--json", "."], cwd=str(copy), capture_output=True,
                           text=True, encoding="utf-8", env=env, timeout=300)
    files = re.findall(r'"file": "([^"]+)"', every.stdout)
    assert sorted(os.path.basename(name) for name in files) == sorted(
        ["book.py", "wrong.py", PROGRAM])
    # And so from another checker: a teacher's, given the student's folder.
    teachers = subprocess.run([sys.executable, os.path.join(CHAPTER, "check.py"), "--json",
                               str(copy)], capture_output=True, text=True, encoding="utf-8",
                              env=env, timeout=300)
    files = re.findall(r'"file": "([^"]+)"', teachers.stdout)
    assert sorted(os.path.basename(name) for name in files) == sorted(
        ["book.py", "wrong.py", PROGRAM])


def test_the_game_runs_from_the_teachers_folder(kit, tmp_path):
    folder, _ = kit
    teacher = folder / TEACHER
    assert (teacher / "chapter" / "handout.html").is_file()
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               MINESWEEP_DATA_DIR=str(tmp_path / "data"))
    done = subprocess.run([sys.executable, "minesweep.py", "--check"], cwd=str(teacher),
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "checked" in done.stdout


class Links(html.parser.HTMLParser):
    """The addresses a page links to and shows, and whether it has a table."""

    def __init__(self):
        """Nothing read yet."""
        super().__init__()
        self.targets, self.tables = [], 0

    def handle_starttag(self, tag, attrs):
        """Note each link's and picture's address, and each table."""
        self.targets += [value for name, value in attrs if name in ("href", "src")]
        self.tables += tag == "table"


def links_of(page):
    """What a page of the kit links to and shows, read by an HTML parser."""
    parser = Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


def test_the_teachers_pages_open_in_a_browser_with_every_link_in_the_kit(kit):
    folder, _ = kit
    teacher = folder / TEACHER
    for key in ("lesson_plan", "teacher_page", "readme_page", "card"):
        page = teacher / (NAMES[key] + ".html")
        text = page.read_text(encoding="utf-8")
        # A page, not Markdown that Notepad would show with | tables and fences.
        assert text.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in text
        assert "|---" not in text and "```" not in text and "](" not in text, key
        found = links_of(page)
        assert key == "card" or found.tables, key
        for target in found.targets:
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = target.partition("#")[0]
            assert (teacher / path).is_file(), (key, target)
        if shutil.which("chromium") and key != "readme_page":
            assert (teacher / (NAMES[key] + ".pdf")).read_bytes().startswith(b"%PDF"), key
    # The lesson plan leads to the teacher's page, the handout and its pictures' page.
    plan = links_of(teacher / (NAMES["lesson_plan"] + ".html")).targets
    assert NAMES["teacher_page"] + ".html" in plan and "chapter/handout_zh.html" in plan
    assert not list(teacher.glob("**/*.md"))


@needs_printing
def test_the_teachers_card_prints_on_one_a4_page(kit, tmp_path):
    folder, _ = kit
    pdf = print_pdf(str(folder / TEACHER / (NAMES["card"] + ".html")), tmp_path / "card.pdf")
    assert pdf_pages(pdf) == 1
    # A4 is 595 x 842 points.
    box = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf)
    assert [round(float(side)) for side in box.groups()] == [595, 842]


def card_text(folder):
    """The teacher's card's words, without its marks."""
    page = (folder / TEACHER / (NAMES["card"] + ".html")).read_text(encoding="utf-8")
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def test_the_card_has_a_command_for_each_part_of_the_lesson_and_slow_motions_keys(kit):
    folder, _ = kit
    text = card_text(folder)
    teacher = folder / TEACHER
    # Every program it names is in the teacher's folder, or the students'.
    named = re.findall(r"(chapter\\[\w\\]+\.py|\bstep\d\d_\w+\.py|\w+\.py)", text)
    assert len(set(named)) >= 10
    for name in set(named):
        path = name.replace("\\", "/")
        if path.startswith("step"):
            path = "chapter/zh/" + path
        assert (teacher / path).is_file() or (folder / STUDENT / path).is_file() \
            or path == "make_kit.py", name
    # Slow motion in full screen, as the lesson plan runs it.
    slow = [line for line in text.splitlines() if "minesweep.py --board 103" in line]
    assert slow and all("--fullscreen" in line for line in slow)
    # Slow motion's keys, as the game's own key list names them.
    with open(os.path.join(ROOT, "texts", "zh.json"), encoding="utf-8") as f:
        keys = json.load(f)["panel_keys"].replace("\u200b", "")
    for pair in keys.split("  "):
        key, _, meaning = pair.partition(" ")
        assert key + re.sub(r"\uff08.*\{speed\}.*\uff09", "", meaning) in text, pair
    # What to do when the installer or the self-test fails.
    assert BAT in text and SELFTEST in text and ADMIN_WORDS in text


def test_the_sheet_asks_a_student_to_run_only_what_the_students_folder_has(kit):
    folder, _ = kit
    student = folder / STUDENT
    sheet = (student / (NAMES["sheet"] + ".html")).read_text(encoding="utf-8")
    words = html.unescape(re.sub(r"<[^>]+>", "", sheet))
    for sentence in re.split("[\u3002\n]", words):
        for program in re.findall(r"python (\S+\.py)", sentence):
            assert (student / program).is_file() or TEACHERS_COMPUTER in sentence, sentence


def no_network(**more):
    """An environment where pip may look nowhere but the kit's wheels."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1", **more)
    return env


def fresh_python(python, folder):
    """A fresh virtual environment of that Python in folder; its python."""
    subprocess.run([python, "-m", "venv", str(folder)], check=True, timeout=300)
    return str(folder / "bin" / "python")


@pytest.fixture(scope="module")
def installed(kit, tmp_path_factory):
    """A fresh environment that the kit's install.sh installed into: its
    python, and what install.sh said."""
    if not HAS_WHEELS:
        pytest.skip("no pygame 2.6 wheels for this Python")
    python = fresh_python(sys.executable, tmp_path_factory.mktemp("venv") / "venv")
    done = subprocess.run(["sh", str(kit[0] / "install.sh")], env=no_network(PYTHON=python),
                          capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return python, done.stdout


def test_install_sh_installs_into_a_fresh_environment_with_no_network(installed):
    python, said = installed
    assert "\u88c5\u597d\u4e86" in said                  # installed, in Chinese
    listed = subprocess.run([python, "-m", "pip", "list", "--format=freeze"],
                            env=no_network(), capture_output=True, text=True,
                            timeout=120).stdout
    names = {line.split("==")[0].lower() for line in listed.split()}
    assert {"pgzero", "pygame", "numpy"} <= names
    assert not names & {"pytest", "hypothesis", "pytest-xdist"}


def self_test(kit, python, student, **env):
    """selftest.sh run with this Python for this students' folder, on a
    screen (Xvfb's where there is one, else SDL's dummy): its lines."""
    env = no_network(PYTHON=python, **env)
    with contextlib.ExitStack() as stack:
        if shutil.which("Xvfb"):
            env.update(DISPLAY=next(stack.enter_context(contextlib.closing(x_server()))),
                       SDL_VIDEODRIVER="x11")
        else:
            env.update(SDL_VIDEODRIVER="dummy")
        done = subprocess.run(["sh", str(kit / "selftest.sh"), str(student)], env=env,
                              capture_output=True, text=True, encoding="utf-8",
                              timeout=300)
    assert done.stderr == ""
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    for line in lines:
        assert re.search("[\u4e00-\u9fff]", line), line
    return done.returncode, lines


def test_the_self_test_passes_on_a_fresh_install_from_the_kit(kit, installed, tmp_path):
    folder, _ = kit
    python, _ = installed
    student = tmp_path / STUDENT
    shutil.copytree(str(folder / STUDENT), str(student))
    code, lines = self_test(folder, python, student, SDL_AUDIODRIVER="dummy")
    assert code == 0 and lines[-1] == READY, lines
    # Pygame Zero, the window, the checker, the sound card, the folder.
    assert [line[:len(PASSED)] for line in lines[1:-1]] == [PASSED] * 5, lines
    assert sorted(os.listdir(str(student))) == sorted(os.listdir(str(folder / STUDENT)))
    # No sound card is said, and is no reason not to have the lesson.
    code, lines = self_test(folder, python, student, SDL_AUDIODRIVER="no such card")
    assert code == 0 and lines[-1] == READY, lines
    assert len([line for line in lines if line.startswith(NOTE)]) == 1


def test_the_self_test_names_what_to_fix_on_linux(kit, tmp_path):
    folder, _ = kit
    bare = fresh_python(sys.executable, tmp_path / "bare")      # no Pygame Zero there
    code, lines = self_test(folder, bare, tmp_path / "nowhere")
    assert code == 1 and lines[-1].startswith(NOT_READY), lines
    assert "install.sh" in lines[-1]
    assert len([line for line in lines if line.startswith(FAILED)]) == 2   # and no folder


def older_python(version):
    """This computer's Python of that version (pyenv's, or on the PATH), or None."""
    found = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/%s.*/bin/python" % version)))
    return found[-1] if found else shutil.which("python" + version)


PYTHON37 = older_python("3.7")


@pytest.mark.skipif(PYTHON37 is None, reason="no Python 3.7 on this computer")
def test_a_kit_for_python_37_installs_and_runs_the_game_there(tmp_path):
    # Thonny 3.3, on many school computers still, brings Python 3.7.
    folder = tmp_path / "KIT"
    done = make_kit(folder, "--python", "3.7", "--platform", "win_amd64", "win32", "here")
    assert done.returncode == 0, done.stderr
    assert "3.7" not in done.stdout.split(MADE)[0], done.stdout   # no wheels missing
    wheels = os.listdir(str(folder / "wheels"))
    for platform in ("win_amd64", "win32", "linux"):
        for package in ("pygame", "numpy"):
            assert any(name.startswith(package + "-") and "-cp37-cp37m-" in name
                       and platform in name for name in wheels), (package, platform)
    venv = tmp_path / "venv37"
    subprocess.run([PYTHON37, "-m", "venv", str(venv)], check=True, timeout=300)
    python = str(venv / "bin" / "python")
    env = {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}
    env.update(PIP_CONFIG_FILE=os.devnull, PYTHON=python, PIP_NO_INDEX="1")
    installed = subprocess.run(["sh", str(folder / "install.sh")], env=env,
                               capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               MINESWEEP_DATA_DIR=str(tmp_path / "data"))
    game = subprocess.run([python, "minesweep.py", "--check"], cwd=str(folder / TEACHER),
                          env=env, capture_output=True, text=True, timeout=120)
    assert game.returncode == 0, game.stdout + game.stderr
    assert "checked" in game.stdout


def test_a_python_with_no_wheels_is_named_and_the_rest_made(tmp_path):
    folder = tmp_path / "KIT"
    done = make_kit(folder, "--python", "3.11", "3.99", "--platform", "win_amd64")
    assert done.returncode == 0, done.stderr
    missing = [line for line in done.stdout.splitlines() if "3.99" in line]
    assert len(missing) == 1 and "win_amd64" in missing[0]
    assert (folder / STUDENT / "check.py").is_file()
    assert any("cp311-cp311-win_amd64" in name for name in os.listdir(str(folder / "wheels")))


def test_a_python_version_that_is_not_one_is_refused(tmp_path):
    done = subprocess.run([sys.executable, TOOL, str(tmp_path / "KIT"), "--python", "3.x"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "3.x" in done.stderr
    assert not (tmp_path / "KIT").exists()


def test_without_chromium_the_kit_is_made_and_says_the_pdf_is_missing(tmp_path):
    folder = tmp_path / "KIT"
    env = dict(os.environ, PATH=str(tmp_path / "nothing here"))
    done = make_kit(folder, "--python", "3.11", "--platform", "win_amd64", env=env)
    assert done.returncode == 0, done.stderr
    # The reason, in a sentence of its own: "there is no Chromium here."
    assert "\u6ca1\u6709 Chromium\u3002" in done.stdout
    names = os.listdir(str(folder / STUDENT))
    assert any(name.endswith(".html") for name in names)
    assert not any(name.endswith(".pdf") for name in names)


def test_here_adds_this_computers_wheels_for_another_python(tmp_path):
    other = "3.12" if sys.version_info[:2] != (3, 12) else "3.11"
    folder = tmp_path / "KIT"
    done = make_kit(folder, "--python", other, "--platform", "here")
    assert done.returncode == 0, done.stderr
    tag = "-cp%s-cp%s-" % ((other.replace(".", ""),) * 2)
    wheels = os.listdir(str(folder / "wheels"))
    for package in ("pygame", "numpy"):
        assert any(name.startswith(package + "-") and tag in name and "win" not in name
                   for name in wheels), package


def test_a_kit_made_again_keeps_what_else_is_in_its_folders(tmp_path):
    folder = tmp_path / "KIT"
    options = ("--python", "3.11", "--platform", "win_amd64")
    assert make_kit(folder, *options).returncode == 0
    student = folder / STUDENT
    (student / "saved.py").write_bytes(b"# a program saved here\n")
    (student / PROGRAM).write_bytes(b"# work in progress\n")
    (student / "check.py").unlink()
    done = make_kit(folder, *options)
    assert done.returncode == 0, done.stderr
    assert (student / "saved.py").read_bytes() == b"# a program saved here\n"
    assert (student / PROGRAM).read_bytes() == b"# work in progress\n"
    assert (student / "check.py").is_file()             # the kit's own, made anew


# ----------------------------------------------- the installer under Wine's cmd
# Wine's cmd reads the installer .bat as a Chinese Windows does, when its locale is
# Chinese. No Windows Python runs there, so two of Windows' own programs stand
# in for one: whoami ends well whatever it is asked, ipconfig ends badly.
WINE = shutil.which("wine64") or shutil.which("wine") or (
    "/usr/lib/wine/wine64" if os.path.exists("/usr/lib/wine/wine64") else None)
WINE_PREFIX = os.path.join(tempfile.gettempdir(), "minesweep-wine")


def chinese_locale():
    """A Chinese UTF-8 locale of this computer's, or None."""
    try:
        names = subprocess.run(["locale", "-a"], capture_output=True, text=True,
                               timeout=30).stdout.split()
    except OSError:
        return None
    return next((name for name in names if name.lower() in ("zh_cn.utf8", "zh_cn.utf-8")),
                None)


@pytest.fixture
def wine(kit):
    """run(path, thonny, bat, student): one of the kit's .bat files (the
    installer unless named) run by Wine's cmd with that PATH (a fltmc.exe
    in it that works: run as administrator) and that Thonny, given the
    students' folder if one is named; its exit status and what it said."""
    if WINE is None or chinese_locale() is None or fcntl is None:
        pytest.skip("needs Wine and a zh_CN.UTF-8 locale")
    env = dict(os.environ, WINEPREFIX=WINE_PREFIX, WINEDEBUG="-all",
               LANG=chinese_locale(), LC_ALL=chinese_locale())
    # One test at a time in the one Wine folder (the test processes run at
    # once), since Thonny's folders there are the same for every test.
    lock = open(WINE_PREFIX + ".lock", "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    drive = os.path.join(WINE_PREFIX, "drive_c")
    if not os.path.isdir(os.path.join(drive, "windows", "system32")):
        subprocess.run([WINE, "cmd", "/c", "ver"], env=env, capture_output=True, timeout=300)
    system = os.path.join(drive, "windows", "system32")
    kit_there = os.path.join(drive, "kit")
    shutil.rmtree(kit_there, ignore_errors=True)
    os.makedirs(os.path.join(kit_there, "wheels"))
    for name in os.listdir(str(kit[0])):
        if name.endswith(".bat"):
            shutil.copyfile(str(kit[0] / name), os.path.join(kit_there, name))
    with open(os.path.join(kit_there, "enter.txt"), "wb") as f:
        f.write(b"\r\n")                      # the key that pause waits for

    def run(path, thonny=None, bat=BAT, student=None):
        """Run it; thonny: where Thonny's python.exe is and whether it works."""
        for where in ("fake", "local", "Program Files (x86)"):
            shutil.rmtree(os.path.join(drive, where), ignore_errors=True)
        for name, works in path:
            os.makedirs(os.path.join(drive, "fake"), exist_ok=True)
            shutil.copyfile(os.path.join(system, "whoami.exe" if works else "ipconfig.exe"),
                            os.path.join(drive, "fake", name))
        if thonny:
            folder, works = thonny
            os.makedirs(os.path.join(drive, folder))
            shutil.copyfile(os.path.join(system, "whoami.exe" if works else "ipconfig.exe"),
                            os.path.join(drive, folder, "python.exe"))
        given = ' "C:\\kit\\%s"' % student if student else ""
        lines = ["@echo off", "set \"PATH=C:\\fake;C:\\windows\\system32;C:\\windows\"",
                 "set \"LOCALAPPDATA=C:\\local\"",
                 "call \"C:\\kit\\%s\"%s > C:\\kit\\said.txt 2>&1 < C:\\kit\\enter.txt"
                 % (bat, given), "exit /b %errorlevel%"]
        with open(os.path.join(kit_there, "run.bat"), "wb") as f:
            f.write("\r\n".join(lines).encode("gbk") + b"\r\n")
        done = subprocess.run([WINE, "cmd", "/c", "C:\\kit\\run.bat"], env=env,
                              capture_output=True, timeout=300)
        with open(os.path.join(kit_there, "said.txt"), "rb") as f:
            return done.returncode, f.read().decode("gbk", "replace")
    run.kit = kit_there
    yield run
    lock.close()                            # and with it the lock


FOUND = "\u627e\u5230\u7684 Python\uff1a"          # found Python:
ACCOUNT = "\u8d26\u6237\uff1a"                       # account:
IS_ADMIN = "\uff0c\u662f\u7ba1\u7406\u5458"             # , is an administrator
NOT_ADMIN = "\uff0c\u4e0d\u662f\u7ba1\u7406\u5458"      # , is not an administrator
NOT_FINISHED = "\u5957\u4ef6\u6ca1\u6709\u505a\u5b8c"     # the kit is not finished
PASSED, FAILED = "[\u901a\u8fc7]", "[\u6ca1\u901a\u8fc7]"   # [passed], [not passed]
NOTE = "[\u6ce8\u610f]"                                       # [note]
READY = "\u8fd9\u53f0\u7535\u8111\u53ef\u4ee5\u4e0a\u8bfe"   # this PC is ready for the lesson
NOT_READY = "\u8fd9\u53f0\u7535\u8111\u8fd8\u4e0d\u80fd\u4e0a\u8bfe\uff1a"   # not yet ready:
INSTALLED = "\u88c5\u597d\u4e86"                     # installed
NO_PYTHON = "\u6ca1\u6709\u627e\u5230 Python"       # no Python found
NOT_INSTALLED = "\u6ca1\u80fd\u88c5\u8fdb\u8fd9\u4e2a Python"  # could not install into this Python


def test_the_installer_installs_into_py_and_into_thonnys_own_python(wine):
    code, said = wine([("py.exe", True), ("python.exe", True)],
                      ("local/Programs/Thonny", True))
    assert code == 0, said
    assert said.count(FOUND) == 2 and FOUND + "py\r\n" in said
    assert FOUND + "C:\\local\\Programs\\Thonny\\python.exe" in said
    assert INSTALLED in said and "C:\\kit\\wheels" in said


def test_the_installer_says_what_to_do_when_there_is_no_python(wine):
    code, said = wine([])
    assert code == 1
    assert NO_PYTHON in said and FOUND not in said
    assert "--no-index --find-links \"C:\\kit\\wheels\" pgzero" in said


def test_the_installer_takes_python_when_py_is_not_there_and_names_a_failure(wine):
    code, said = wine([("fltmc.exe", True), ("python.exe", True)],
                      ("Program Files (x86)/Thonny", False))
    assert code == 1, said
    assert FOUND + "python\r\n" in said
    thonny = "C:\\Program Files (x86)\\Thonny\\python.exe"
    assert FOUND + thonny in said and NOT_INSTALLED + "\uff1a" + thonny in said
    assert INSTALLED not in said


def test_as_administrator_the_installer_says_so_and_installs_for_every_account(wine):
    code, said = wine([("fltmc.exe", True), ("py.exe", True)])
    assert code == 0, said
    assert re.search(ACCOUNT + r"\S+" + IS_ADMIN, said), said
    assert FOUND + "py\r\n" in said and INSTALLED in said


def test_a_students_account_is_told_to_run_the_installer_as_administrator(wine):
    # Not an administrator: a Python of this account's own gets Pygame Zero;
    # Thonny, shared by every account, is left alone, with the way to do it.
    code, said = wine([("python.exe", True)], ("Program Files (x86)/Thonny", False))
    assert code == 1, said
    assert re.search(ACCOUNT + r"\S+" + NOT_ADMIN, said), said
    thonny = "C:\\Program Files (x86)\\Thonny\\python.exe"
    assert FOUND + thonny in said and NOT_INSTALLED not in said
    assert said.splitlines().count(FOUND + "python") == 1
    assert ADMIN_WORDS in said and INSTALLED not in said


def test_the_installer_and_the_self_test_refuse_a_kit_not_finished(wine):
    with open(os.path.join(wine.kit, UNFINISHED), "w", encoding="utf-8") as f:
        f.write("...")
    for bat in (BAT, SELFTEST):
        code, said = wine([("py.exe", True)], bat=bat)
        assert code == 1 and NOT_FINISHED in said and FOUND not in said, (bat, said)
        assert PASSED not in said


def chinese_lines(said):
    """The lines a .bat said, each checked to be in Chinese."""
    lines = [line for line in said.splitlines() if line.strip()]
    for line in lines:
        assert re.search("[\u4e00-\u9fff]", line), line
    return lines


def test_the_self_test_says_each_check_in_a_line_of_chinese_and_last_its_verdict(wine):
    os.makedirs(os.path.join(wine.kit, STUDENT))
    code, said = wine([("py.exe", True)], ("local/Programs/Thonny", True), bat=SELFTEST,
                      student=STUDENT)
    assert code == 0, said
    lines = chinese_lines(said)
    assert lines[-1] == READY
    # Two Pythons with Pygame Zero, the window, the checker, the sound card,
    # the students' folder: each on a line of its own, as passed.
    assert [line[:len(PASSED)] for line in lines[1:-1]] == [PASSED] * 6, lines
    assert ("C:\\kit\\" + STUDENT) in lines[-2]
    assert not os.listdir(os.path.join(wine.kit, STUDENT))       # nothing left there


def test_the_self_test_names_what_to_fix(wine):
    # No Python at all: install one, then run the installer as administrator.
    os.makedirs(os.path.join(wine.kit, STUDENT))
    code, said = wine([("python.exe", False)], bat=SELFTEST, student=STUDENT)
    assert code == 1
    lines = chinese_lines(said)
    assert lines[-1].startswith(NOT_READY) and BAT in lines[-1] and ADMIN_WORDS in lines[-1]
    assert any(line.startswith(FAILED) for line in lines)
    # No students' folder where it was said to be: how to copy it there.
    code, said = wine([("py.exe", True)], bat=SELFTEST, student="nowhere")
    assert code == 1
    lines = chinese_lines(said)
    assert lines[-1].startswith(NOT_READY) and "xcopy" in lines[-1], lines
