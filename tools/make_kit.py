"""Make the classroom kit: one folder to copy onto a USB stick or a share,
for a room of computers with no internet.

    python tools/make_kit.py KIT
    python tools/make_kit.py KIT --python 3.8 3.11 --platform win_amd64
    python tools/make_kit.py KIT --python 3.8 3.13 --platform win_amd64 win32 here

KIT/wheels/ holds Pygame Zero, pygame and numpy (and nothing for the tests)
for Windows, 64-bit and 32-bit, on Python 3.8 to 3.13, and for the computer
and Python the kit is made on; KIT/wheels/README.txt lists each file with its
size and sha256. "--platform" names the kinds of computer: "here" is this
computer's (Linux or macOS, say), for each Python asked for; name the
Windows ones beside it to have them too. A second run reuses the wheels already there and fetches only
what is missing. The Windows installer (a .bat) and KIT/install.sh install
from wheels/ with no network. The students' folder holds images, sounds, the
checker, the sheet and a program with the sheet's first two lines; the teacher's the game, the handout
and the lesson plan. Their Chinese names, and the kit's words, are in
tools/kit/kit.json.
"""
import argparse
import glob
import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KIT_DATA = os.path.join(ROOT, "tools", "kit")
sys.path.insert(0, os.path.join(ROOT, "chapter"))
import check as chapter_check  # noqa: E402  (the checker, for the list of its files)
PYTHONS = ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"]
PLATFORMS = ["win_amd64", "win32"]
# "here": this computer's kind (Linux or macOS, say), for each Python asked
# for; a room of such computers with other Pythons than the teacher's.
HERE = "here"
# What a student's computer needs to run the game and the checker: pgzero
# and pygame as requirements.txt pins them (the releases the tests run on;
# that pygame is the last with wheels for 3.8 to 3.13), and the numpy pip
# chooses for each Python.
def pins(names):
    """The lines of requirements.txt that pin these packages."""
    with open(os.path.join(ROOT, "requirements.txt"), encoding="utf-8") as f:
        return [line.strip() for line in f if line.split("==")[0] in names]


PACKAGES = pins(("pgzero", "pygame")) + ["numpy"]
# The game's folders, copied whole into the teacher's folder.
GAME_FOLDERS = ["images", "sounds", "fonts", "texts"]
# What the checker needs beside it, in the students' folder: its files, as
# it lists them itself.
CHECKER_FILES = chapter_check.CHECKER_FILES
LANGUAGES = "languages.py"   # ... and the game's table of languages, from its folder
TEACHER_DOCS = ["docs/lesson_plan.zh.md", "docs/teacher.zh.md"]


def kit_data():
    """The kit's names and words (tools/kit/kit.json)."""
    with open(os.path.join(KIT_DATA, "kit.json"), encoding="utf-8") as f:
        return json.load(f)


def say(text):
    """Print, whatever the console's encoding can show."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    sys.stdout.write(text.encode(encoding, "replace").decode(encoding) + "\n")
    sys.stdout.flush()


# ------------------------------------------------------------- the wheels


def target_options(platform, python):
    """pip's options for the wheels of one Python on one platform (HERE:
    this computer's, which pip knows by itself)."""
    if platform == HERE:
        return ["--only-binary=:all:", "--python-version", python]
    abi = "cp" + python.replace(".", "")
    return ["--only-binary=:all:", "--platform", platform, "--python-version", python,
            "--implementation", "cp", "--abi", abi]


def pip_download(wheels, options):
    """Download the packages for one target into wheels: from what is there
    already if that is enough, else from the package registry. None when it
    worked, else pip's last line of why not."""
    base = [sys.executable, "-m", "pip", "download", "--disable-pip-version-check",
            "-q", "-d", wheels] + options + PACKAGES
    offline = subprocess.run(base + ["--no-index", "--find-links", wheels],
                             capture_output=True, text=True)
    if offline.returncode == 0:
        return None
    online = subprocess.run(base, capture_output=True, text=True)
    if online.returncode == 0:
        return None
    lines = [line.strip() for line in (online.stderr + online.stdout).splitlines()
             if line.strip()]
    return lines[-1] if lines else "pip %d" % online.returncode


def fetch_wheels(wheels, pythons, platforms):
    """Every target's wheels in the folder; the (python, platform, why) of
    each that could not be had."""
    os.makedirs(wheels, exist_ok=True)
    missing = []
    for platform in platforms:
        for python in pythons:
            why = pip_download(wheels, target_options(platform, python))
            if why:
                missing.append((python, "this computer" if platform == HERE else platform,
                                why))
    # And this computer's own, for its Python, as plain pip chooses them;
    # wheels only, since a classroom computer has nothing to build with.
    why = pip_download(wheels, ["--only-binary=:all:"])
    if why:
        missing.append(("%d.%d" % sys.version_info[:2], "this computer", why))
    return missing


def sha256(path):
    """The sha256 of a file, in hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_wheels_readme(wheels):
    """wheels/README.txt: each wheel with its size and sha256."""
    names = sorted(name for name in os.listdir(wheels) if name.endswith(".whl"))
    width = max([len(name) for name in names] + [4])
    lines = ["Pygame Zero and what it needs, to install with no network:",
             "  python -m pip install --no-index --find-links wheels pgzero",
             "", "%-*s %12s  %s" % (width, "file", "bytes", "sha256")]
    for name in names:
        path = os.path.join(wheels, name)
        lines.append("%-*s %12d  %s" % (width, name, os.path.getsize(path), sha256(path)))
    with open(os.path.join(wheels, "README.txt"), "w", encoding="utf-8", newline="\r\n") as f:
        f.write("\n".join(lines) + "\n")


# ------------------------------------------------------------ the folders


def read_data(name):
    """A text file of tools/kit/, as text."""
    with open(os.path.join(KIT_DATA, name), encoding="utf-8") as f:
        return f.read()


def write_text(path, text, encoding, crlf):
    """Write a text in one encoding, with Windows' line ends if crlf."""
    with open(path, "w", encoding=encoding, newline="\r\n" if crlf else "\n") as f:
        f.write(text)


def copy_tree(source, target):
    """A folder copied whole over what is there, without Python's caches."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
                    dirs_exist_ok=True)


def print_pdf(html, pdf, no_browser):
    """The sheet printed to PDF by headless Chromium; None, or why not
    (no_browser when there is no Chromium at all)."""
    browser = next((shutil.which(name) for name in ("chromium", "chromium-browser",
                                                    "google-chrome", "chrome")
                    if shutil.which(name)), None)
    if browser is None:
        return no_browser
    profile = tempfile.mkdtemp(prefix="minesweep-kit-")
    try:
        done = subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu",
             "--user-data-dir=" + profile, "--no-pdf-header-footer",
             "--print-to-pdf=" + pdf, pathlib.Path(os.path.abspath(html)).as_uri()],
            capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        return str(e)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    if done.returncode != 0 or not os.path.isfile(pdf):
        return (done.stderr.strip().splitlines() or ["exit %d" % done.returncode])[-1]
    return None


def first_lines():
    """The first two lines of the lesson's first step: the coding line and
    the title, as the sheet tells a student to begin."""
    with open(os.path.join(ROOT, "chapter", "zh", "step01_tiles.py"), encoding="utf-8") as f:
        return "".join(f.readlines()[:2])


def make_student(folder, names, said):
    """The students' folder: what a student's program and the checker need,
    and nothing named minesweep.py. None, or why the PDF is missing."""
    # A kit made again writes its own files anew and leaves the others (a
    # program someone saved there, say) as they are.
    os.makedirs(folder, exist_ok=True)
    chapter = os.path.join(ROOT, "chapter")
    for kind in ("images", "sounds"):
        copy_tree(os.path.join(chapter, kind), os.path.join(folder, kind))
    for name in CHECKER_FILES:
        shutil.copyfile(os.path.join(chapter, name), os.path.join(folder, name))
    # The checker speaks the game's languages, from the game's table of them.
    shutil.copyfile(os.path.join(ROOT, LANGUAGES), os.path.join(folder, LANGUAGES))
    sheet = os.path.join(folder, names["sheet"] + ".html")
    shutil.copyfile(os.path.join(chapter, "student.html"), sheet)
    # The program begins as the sheet's first step does, so its lines are
    # numbered as the handout's, and its coding line tells the truth: the
    # file is saved as UTF-8. One already there may hold work.
    program = os.path.join(folder, names["program"])
    if not os.path.exists(program):
        write_text(program, first_lines(), "utf-8", crlf=True)
    # Notepad shows UTF-8 with a BOM and Windows' line ends as it should.
    write_text(os.path.join(folder, names["readme"]), read_data("student_readme.txt"),
               "utf-8-sig", crlf=True)
    return print_pdf(sheet, os.path.join(folder, names["sheet"] + ".pdf"),
                     said["no_chromium"])


def linked_pictures(page):
    """The pictures a page of docs/ shows, beside it."""
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        targets = re.findall(r"\]\(([^)/]+\.png)\)", f.read())
    return [os.path.join("docs", name) for name in targets]


def make_teacher(folder):
    """The teacher's folder: the game ready to run, the chapter with its
    handout and checker, the lesson plan and the teacher's page."""
    os.makedirs(folder, exist_ok=True)
    for path in glob.glob(os.path.join(ROOT, "*.py")):
        shutil.copyfile(path, os.path.join(folder, os.path.basename(path)))
    for name in GAME_FOLDERS + ["chapter"]:
        copy_tree(os.path.join(ROOT, name), os.path.join(folder, name))
    os.makedirs(os.path.join(folder, "docs"), exist_ok=True)
    pages = TEACHER_DOCS + sorted({picture for page in TEACHER_DOCS
                                   for picture in linked_pictures(page)})
    for page in pages + ["README.zh.md"]:
        shutil.copyfile(os.path.join(ROOT, page), os.path.join(folder, page))


def make_installers(kit, names):
    """The .bat in the encoding and line ends of a Chinese Windows' console,
    and install.sh for Linux and macOS."""
    bat = read_data("install.bat")
    assert bat.startswith("@echo off\nchcp 936 >nul\n")
    write_text(os.path.join(kit, names["install_bat"]), bat, "gbk", crlf=True)
    sh = os.path.join(kit, "install.sh")
    write_text(sh, read_data("install.sh"), "utf-8", crlf=False)
    os.chmod(sh, 0o755)


def folder_size(folder):
    """The number of files in a folder and their bytes."""
    files = size = 0
    for where, _, names in os.walk(folder):
        for name in names:
            files += 1
            size += os.path.getsize(os.path.join(where, name))
    return files, size


def make_kit(kit, pythons=PYTHONS, platforms=PLATFORMS):
    """Make the whole kit; what it says when done, as lines."""
    data = kit_data()
    names, said = data["names"], data["said"]
    os.makedirs(kit, exist_ok=True)
    wheels = os.path.join(kit, "wheels")
    missing = fetch_wheels(wheels, pythons, platforms)
    write_wheels_readme(wheels)
    make_installers(kit, names)
    no_pdf = make_student(os.path.join(kit, names["student"]), names, said)
    make_teacher(os.path.join(kit, names["teacher"]))
    lines = [said["missing"].format(python=python, platform=platform, why=why)
             for python, platform, why in missing]
    if no_pdf:
        lines.append(said["no_pdf"].format(why=no_pdf))
    files, size = folder_size(kit)
    lines += [said["made"].format(folder=os.path.abspath(kit), files=files,
                                  size="%.1f MB" % (size / 1e6)),
              "", said["lines"], said["line_install"], said["line_copy"], "",
              said["unix"], said["then"]]
    return lines


def main(argv):
    """Make the kit the command line asks for."""
    parser = argparse.ArgumentParser(prog="make_kit.py", description=__doc__.splitlines()[0])
    parser.add_argument("folder", help="where to make the kit")
    parser.add_argument("--python", nargs="+", default=PYTHONS, metavar="X.Y",
                        help="the Pythons (default: 3.8 to 3.13)")
    parser.add_argument("--platform", nargs="+", default=PLATFORMS,
                        choices=PLATFORMS + [HERE],
                        help="the kinds of computer (default: both Windows ones); 'here' "
                        "is this computer's kind, for each of the Pythons: name the "
                        "Windows ones beside it to have them too")
    args = parser.parse_args(argv)
    bad = [python for python in args.python if not re.match(r"^3\.\d+$", python)]
    if bad:
        parser.error("not a Python version like 3.11: %s" % " ".join(bad))
    for line in make_kit(args.folder, args.python, args.platform):
        say(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
