"""tools/make_kit.py, the classroom kit: a small kit (one Windows Python on
one platform, and this computer's own) is made by a real run of the tool,
its wheels reused from a folder kept between runs; its folders hold what a
teacher and a student need, the installer is one a Chinese Windows console
reads (and, where Wine is installed, runs: its choice of Python and what it
says), the checker runs from a copy of the students' folder, and the game
runs from the teacher's."""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

try:
    import fcntl
except ImportError:         # Windows, which has its own cmd and no Wine
    fcntl = None

from loadgame import CHAPTER, ROOT

TOOL = os.path.join(ROOT, "tools", "make_kit.py")
# Wheels fetched once are kept here for the next run of the tests.
CACHE = os.path.join(tempfile.gettempdir(), "minesweep-kit-wheels")
STUDENT, TEACHER, BAT = "\u5b66\u751f", "\u8001\u5e08", "\u5b89\u88c5.bat"
PROGRAM, README = "\u6211\u7684\u626b\u96f7.py", "\u8bf4\u660e.txt"
NOT_PASSED = "\u6ca1\u901a\u8fc7"           # the checker's mark for a failed section
# pygame 2.6 has wheels for Python 3.8 to 3.13 only (README, "Python 3.14 and newer").
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
    order = [text.index(word) for word in (
        'set "PY=py"', 'set "PY=python"', r"%LOCALAPPDATA%\Programs\Thonny\python.exe",
        r"C:\Program Files\Thonny\python.exe", r"C:\Program Files (x86)\Thonny\python.exe")]
    assert order == sorted(order)
    # Thonny runs programs with its own Python: it gets them too, if it is there.
    assert 'call :install "%PY%"' in text and 'call :install "%THONNY%"' in text
    assert "\u6ca1\u6709\u627e\u5230 Python" in text       # no Python found, in Chinese
    # No Chinese letter's second byte is one that cmd reads as a sign of its own.
    for letter in set(text):
        assert not set(letter.encode("gbk")[1:]) & set(b'|^&<>%"()!'), letter
    sh = (folder / "install.sh").read_text(encoding="utf-8")
    assert '--no-index --find-links "$wheels" pgzero' in sh
    assert os.access(str(folder / "install.sh"), os.X_OK)


def test_the_students_folder_holds_what_a_student_needs_and_no_minesweep_py(kit):
    folder, _ = kit
    student = folder / STUDENT
    names = set(os.listdir(str(student)))
    assert {"images", "sounds", "check.py", "check_sections.py", "check_causes.py",
            "check_sandbox.py", "check_texts.json", "languages.py", PROGRAM, README} <= names
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
    assert (teacher / "docs" / "lesson_plan.zh.md").is_file()
    assert (teacher / "docs" / "teacher.zh.md").is_file()
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               MINESWEEP_DATA_DIR=str(tmp_path / "data"))
    done = subprocess.run([sys.executable, "minesweep.py", "--check"], cwd=str(teacher),
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "checked" in done.stdout


@pytest.mark.skipif(not HAS_WHEELS, reason="no pygame 2.6 wheels for this Python")
def test_install_sh_installs_into_a_fresh_environment_with_no_network(kit, tmp_path):
    folder, _ = kit
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = str(venv / "bin" / "python")
    # pip may look nowhere but the kit's wheels: no index, no other folder.
    env = {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}
    env.update(PIP_CONFIG_FILE=os.devnull, PYTHON=python, PIP_NO_INDEX="1")
    done = subprocess.run(["sh", str(folder / "install.sh")], env=env, capture_output=True,
                          text=True, encoding="utf-8", timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "\u88c5\u597d\u4e86" in done.stdout                  # installed, in Chinese
    listed = subprocess.run([python, "-m", "pip", "list", "--format=freeze"], env=env,
                            capture_output=True, text=True, timeout=120).stdout
    names = {line.split("==")[0].lower() for line in listed.split()}
    assert {"pgzero", "pygame", "numpy"} <= names
    assert not names & {"pytest", "hypothesis", "pytest-xdist"}


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
    """run(path, thonny, bad_thonny): the kit's installer run by Wine's cmd
    with that PATH and that Thonny; its exit status and what it said."""
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
    shutil.copyfile(str(kit[0] / BAT), os.path.join(kit_there, BAT))
    with open(os.path.join(kit_there, "enter.txt"), "wb") as f:
        f.write(b"\r\n")                      # the key that pause waits for

    def run(path, thonny=None):
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
        lines = ["@echo off", "set \"PATH=C:\\fake;C:\\windows\\system32;C:\\windows\"",
                 "set \"LOCALAPPDATA=C:\\local\"",
                 "call \"C:\\kit\\%s\" > C:\\kit\\said.txt 2>&1 < C:\\kit\\enter.txt" % BAT,
                 "exit /b %errorlevel%"]
        with open(os.path.join(kit_there, "run.bat"), "wb") as f:
            f.write("\r\n".join(lines).encode("gbk") + b"\r\n")
        done = subprocess.run([WINE, "cmd", "/c", "C:\\kit\\run.bat"], env=env,
                              capture_output=True, timeout=300)
        with open(os.path.join(kit_there, "said.txt"), "rb") as f:
            return done.returncode, f.read().decode("gbk", "replace")
    yield run
    lock.close()                            # and with it the lock


FOUND = "\u627e\u5230\u7684 Python\uff1a"          # found Python:
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
    code, said = wine([("python.exe", True)], ("Program Files (x86)/Thonny", False))
    assert code == 1, said
    assert FOUND + "python\r\n" in said
    thonny = "C:\\Program Files (x86)\\Thonny\\python.exe"
    assert FOUND + thonny in said and NOT_INSTALLED + "\uff1a" + thonny in said
    assert INSTALLED not in said
