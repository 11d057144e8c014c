"""Make the classroom kit: one folder to copy onto a USB stick or a share,
for a room of computers with no internet.

    python tools/make_kit.py KIT
    python tools/make_kit.py KIT --python 3.8 3.11 --platform win_amd64
    python tools/make_kit.py KIT --python 3.8 3.13 --platform win_amd64 win32 here

KIT/wheels/ holds Pygame Zero, pygame and numpy (and nothing for the tests)
for Windows, 64-bit and 32-bit, on Python 3.7 to 3.13, and for the computer
and Python the kit is made on; KIT/wheels/README.txt lists each file with its
size and sha256. "--platform" names the kinds of computer: "here" is this
computer's (Linux or macOS, say), for each Python asked for; name the
Windows ones beside it to have them too. A second run reuses the wheels already there and fetches only
what is missing. The Windows installer (a .bat, run once as administrator)
and KIT/install.sh install from wheels/ with no network; the self-test (a
.bat, and selftest.sh), run as a student, says in a line each whether that
computer is ready for the lesson. The students' folder holds images, sounds,
the checker, the sheet and a program with the sheet's first two lines; the
teacher's the game, the handout, and the lesson plan, the teacher's page,
the README and a one-page card as web pages (and PDF, where Chromium prints
them). Until the kit is whole a file in it says it is not, and the
installers and the self-test refuse it. Their Chinese names, and the kit's
words, are in tools/kit/kit.json; the installers, the self-test and the
card are there too.
"""
import argparse
import glob
import hashlib
import html
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

import teacher_pages

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KIT_DATA = os.path.join(ROOT, "tools", "kit")
sys.path.insert(0, os.path.join(ROOT, "chapter"))
import check as chapter_check  # noqa: E402  (the checker, for the list of its files)
import check_book  # noqa: E402  (the lesson's steps the checker lines programs up with)
# 3.7 is Thonny 3.3's, still on many school computers.
PYTHONS = ["3.7", "3.8", "3.9", "3.10", "3.11", "3.12", "3.13"]
PLATFORMS = ["win_amd64", "win32"]
# "here": this computer's kind (Linux or macOS, say), for each Python asked
# for; a room of such computers with other Pythons than the teacher's.
HERE = "here"
# What a student's computer needs to run the game and the checker: pgzero
# and pygame as requirements.txt pins them (the releases the tests run on;
# that pygame is the last with wheels for 3.7 to 3.13), and the numpy pip
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
# The teacher's pages, made HTML (and PDF, where Chromium prints them) by
# their names in kit.json: Notepad would show their Markdown raw.
TEACHER_PAGES = [("docs/lesson_plan.zh.md", "lesson_plan", True),
                 ("docs/teacher.zh.md", "teacher_page", True),
                 ("README.zh.md", "readme_page", False)]
# The kit's own programs beside the wheels, from tools/kit/: each .bat by
# its name in kit.json (or its own), the rest as they are named there.
BATS = [("install.bat", "install_bat"), ("selftest.bat", "selftest_bat"),
        ("find_python.bat", None)]
SCRIPTS = ["install.sh", "selftest.sh", "find_python.sh", "selftest_window.py"]
CARD = "card.html"          # the teacher's card, in tools/kit/


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
    if tuple(int(part) for part in python.split(".")) < (3, 8):
        abi += "m"                      # a Python before 3.8 names its ABI cp37m
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
    """A page printed to PDF by headless Chromium; None, or why not
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


def printed(folder, name, said):
    """folder/name.html printed beside it as name.pdf; [] or the one line
    that says why there is no PDF."""
    why = print_pdf(os.path.join(folder, name + ".html"), os.path.join(folder, name + ".pdf"),
                    said["no_chromium"])
    return [said["no_pdf"].format(name=name, why=why)] if why else []


def first_lines():
    """The first two lines of the lesson's first step: the coding line and
    the title, as the sheet tells a student to begin."""
    with open(os.path.join(ROOT, "chapter", "zh", "step01_tiles.py"), encoding="utf-8") as f:
        return "".join(f.readlines()[:2])


def make_student(folder, names, said):
    """The students' folder: what a student's program and the checker need,
    and nothing named minesweep.py. What it says of a PDF not made, as lines."""
    # A kit made again writes its own files anew and leaves the others (a
    # program someone saved there, say) as they are.
    os.makedirs(folder, exist_ok=True)
    chapter = os.path.join(ROOT, "chapter")
    for kind in ("images", "sounds"):
        copy_tree(os.path.join(chapter, kind), os.path.join(folder, kind))
    for name in CHECKER_FILES:
        shutil.copyfile(os.path.join(chapter, name), os.path.join(folder, name))
    # The checker lines a program up with the book's stages, the lesson's
    # steps: in steps/, where a class run does not take them for programs.
    os.makedirs(os.path.join(folder, "steps"), exist_ok=True)
    for name, _ in check_book.STEPS:
        shutil.copyfile(os.path.join(chapter, name), os.path.join(folder, "steps", name))
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
    return printed(folder, names["sheet"], said)


def page_link(page, kit_names, teacher):
    """link(target) for teacher_pages: where a link of the page (a file of
    the project) goes from the teacher's folder: a page made HTML to its
    HTML, a file the teacher's folder has to itself, the rest nowhere."""
    def link(target):
        """The address in the teacher's folder, or None."""
        if re.match(r"[a-z]+://", target):
            return target
        path, _, anchor = target.partition("#")
        if not path:
            return target
        source = os.path.relpath(os.path.normpath(os.path.join(
            ROOT, os.path.dirname(page), path)), ROOT).replace(os.sep, "/")
        if source in kit_names:
            address = kit_names[source] + ".html"
        elif os.path.isfile(os.path.join(teacher, source)):
            address = source
        else:
            return None
        return address + ("#" + anchor if anchor else "")
    return link


def pictures(page):
    """The pictures a page of the project shows, as paths in the project."""
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        targets = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", f.read())
    return [os.path.relpath(os.path.normpath(os.path.join(ROOT, os.path.dirname(page), target)),
                            ROOT) for target in targets]


def card_html():
    """The teacher's card, with slow motion's keys as the game names them."""
    with open(os.path.join(ROOT, "texts", "zh.json"), encoding="utf-8") as f:
        keys = json.load(f)["panel_keys"].replace("\u200b", "")
    rows = []
    for pair in keys.split("  "):
        key, _, meaning = pair.partition(" ")
        meaning = re.sub(r"\uff08[^\uff08]*\{speed\}[^\uff09]*\uff09", "", meaning)
        rows.append("<div><b>%s</b>%s</div>" % (html.escape(key), html.escape(meaning)))
    return read_data(CARD).replace("<!-- slow motion's keys -->", "\n".join(rows))


def make_teacher(folder, names, said):
    """The teacher's folder: the game ready to run, the chapter with its
    handout and checker, and the teacher's pages as HTML (the lesson plan,
    the teacher's page, the README, the card), with their pictures; what
    it says of a PDF not made, as lines."""
    os.makedirs(folder, exist_ok=True)
    for path in glob.glob(os.path.join(ROOT, "*.py")):
        shutil.copyfile(path, os.path.join(folder, os.path.basename(path)))
    for name in GAME_FOLDERS + ["chapter"]:
        copy_tree(os.path.join(ROOT, name), os.path.join(folder, name))
    kit_names = {page: names[key] for page, key, _ in TEACHER_PAGES}
    for page, _, _ in TEACHER_PAGES:
        for picture in pictures(page):
            os.makedirs(os.path.join(folder, os.path.dirname(picture)), exist_ok=True)
            shutil.copyfile(os.path.join(ROOT, picture), os.path.join(folder, picture))
    unsaid = []
    for page, key, pdf in TEACHER_PAGES:
        with open(os.path.join(ROOT, page), encoding="utf-8") as f:
            made = teacher_pages.page(f.read(), page_link(page, kit_names, folder))
        write_text(os.path.join(folder, names[key] + ".html"), made, "utf-8", crlf=False)
        if pdf:
            unsaid += printed(folder, names[key], said)
    write_text(os.path.join(folder, names["card"] + ".html"), card_html(), "utf-8",
               crlf=False)
    return unsaid + printed(folder, names["card"], said)


def filled(text, names):
    """A text of tools/kit/ with the kit's names put in ({student}, ...)."""
    for key, name in names.items():
        text = text.replace("{%s}" % key, name)
    return text


def make_installers(kit, names):
    """The .bat files in the encoding and line ends of a Chinese Windows'
    console, the shell scripts for Linux and macOS, and the self-test's
    look at the game's window."""
    for source, key in BATS:
        bat = filled(read_data(source), names)
        assert key is None or bat.startswith("@echo off\nchcp 936 >nul\n"), source
        write_text(os.path.join(kit, names[key] if key else source), bat, "gbk", crlf=True)
    for name in SCRIPTS:
        path = os.path.join(kit, name)
        write_text(path, filled(read_data(name), names), "utf-8", crlf=False)
        if name.endswith(".sh"):
            os.chmod(path, 0o755)


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
    # Until the kit is whole, a file says it is not: the installers and the
    # self-test refuse a kit whose making was stopped half-way.
    unfinished = os.path.join(kit, names["unfinished"])
    write_text(unfinished, said["unfinished"], "utf-8-sig", crlf=True)
    started = time.monotonic()
    wheels = os.path.join(kit, "wheels")
    missing = fetch_wheels(wheels, pythons, platforms)
    fetched = time.monotonic()
    write_wheels_readme(wheels)
    lines = [said["missing"].format(python=python, platform=platform, why=why)
             for python, platform, why in missing]
    lines += make_student(os.path.join(kit, names["student"]), names, said)
    lines += make_teacher(os.path.join(kit, names["teacher"]), names, said)
    make_installers(kit, names)
    os.remove(unfinished)
    files, size = folder_size(kit)
    lines += [said["made"].format(folder=os.path.abspath(kit), files=files,
                                  size="%.1f MB" % (size / 1e6)),
              said["took"].format(download=round(fetched - started),
                                  rest=round(time.monotonic() - fetched)),
              "", said["lines"], said["line_install"], said["line_copy"],
              said["line_selftest"], "", said["unix"], said["then"]]
    return lines


def main(argv):
    """Make the kit the command line asks for."""
    parser = argparse.ArgumentParser(prog="make_kit.py", description=__doc__.splitlines()[0])
    parser.add_argument("folder", help="where to make the kit")
    parser.add_argument("--python", nargs="+", default=PYTHONS, metavar="X.Y",
                        help="the Pythons (default: 3.7 to 3.13)")
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
