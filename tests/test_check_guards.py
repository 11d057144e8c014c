"""chapter/check.py under attack: entries of a class folder that are no
programs, report paths that would lose a program, programs that write their
own verdict, fill the disk, leave processes behind, open windows, or have
names that look like options. Each run is a real checker run on real files;
every program is reported, and nothing of the checker's is left behind."""
import errno
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECK = os.path.join(ROOT, "chapter", "check.py")
BOOK = os.path.join(ROOT, "tests", "check_programs", "book_gb18030.py")
STEP11 = os.path.join(ROOT, "chapter", "step11_fixes.py")


def texts(lang="zh"):
    """The checker's words."""
    with open(os.path.join(ROOT, "chapter", "check_texts.json"), encoding="utf-8") as f:
        return json.load(f)[lang]


def run_check(tmp_path, *args, cwd=None, timeout=600, env=None, checker=CHECK):
    """The checker run as a teacher runs it, with its temporary folders in
    a folder of the test's own (to see that it leaves nothing there)."""
    temp = tmp_path / "temp"
    temp.mkdir(exist_ok=True)
    env = dict(env if env is not None else os.environ)
    env["TMPDIR"] = str(temp)
    return subprocess.run([sys.executable, checker] + list(args), capture_output=True,
                          text=True, encoding="utf-8", timeout=timeout,
                          cwd=str(cwd or tmp_path), env=env)


# The checker as it runs where Linux has no Landlock (older than 5.13) or on
# macOS: the same parent and child, with the one function that asks the
# system for Landlock answering "none". Run as check.py is.
WITHOUT_LANDLOCK = """\
import runpy, sys
sys.path.insert(0, {chapter!r})
import check_sandbox
check_sandbox.landlock_version = lambda: 0
if sys.argv[1:2] in (["--serve"], ["--alone"]):      # the child, started by the parent
    runpy.run_path({child!r}, run_name="__main__")
else:
    import check
    check.CHILD = __file__
    sys.exit(check.run(sys.argv[1:]))
"""


def without_landlock(tmp_path):
    """The checker's command where it cannot confine a program."""
    wrapper = tmp_path / "check_without_landlock.py"
    chapter = os.path.join(ROOT, "chapter")
    wrapper.write_text(WITHOUT_LANDLOCK.format(chapter=chapter,
                                               child=os.path.join(chapter, "check_sections.py")),
                       encoding="utf-8")
    return str(wrapper)


def left_behind(tmp_path):
    """What the checker left in its temporary folder."""
    return sorted(os.listdir(str(tmp_path / "temp")))


def by_name(done):
    """The --json results of a run, by file name."""
    return {os.path.basename(r["file"]): r for r in json.loads(done.stdout)}


def copy(source, target):
    """A copy of a program, byte for byte."""
    with open(source, "rb") as f:
        target.write_bytes(f.read())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_entries_that_are_no_programs_are_reported_and_the_rest_checked(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    copy(STEP11, folder / "a.py")
    os.symlink("/nonexistent", str(folder / "b.py"))       # a dangling link
    (folder / "d.py").mkdir()                               # a folder named d.py
    os.mkfifo(str(folder / "f.py"))                         # a named pipe
    os.symlink("l.py", str(folder / "l.py"))                # a link to itself
    page = tmp_path / "r.html"
    done = run_check(tmp_path, "--json", "--html", str(page), str(folder))
    assert done.returncode == 1, done.stderr
    assert done.stderr == ""
    results = by_name(done)
    assert sorted(results) == ["a.py", "b.py", "d.py", "f.py", "l.py"]
    assert results["a.py"]["reached"] == "3.4.2"
    said = texts()["messages"]["not_a_file"]
    for name in ("b.py", "d.py", "f.py", "l.py"):
        first = results[name]["checks"][0]
        assert first["ok"] is False and first["message"] == said, name
        assert all(c["ok"] is None for c in results[name]["checks"][1:])
    text = page.read_text(encoding="utf-8")
    assert text.count("<tr><td>") == 5 and "f.py" in text
    assert left_behind(tmp_path) == []
    shown = run_check(tmp_path, "--lang", "en", str(folder))
    assert shown.returncode == 1 and shown.stderr == ""
    for name in ("a.py", "b.py", "d.py", "f.py", "l.py"):
        assert os.path.join(str(folder), name) in shown.stdout
    assert shown.stdout.count(texts("en")["messages"]["not_a_file"]) == 4
    assert left_behind(tmp_path) == []


def test_the_report_never_takes_a_programs_place_nor_waits_on_a_pipe(tmp_path):
    folder = tmp_path / "t"
    folder.mkdir()
    for name in ("a", "b", "c"):
        copy(STEP11, folder / (name + ".py"))
    with open(STEP11, "rb") as f:
        program = f.read()
    why = texts()["html_why"]

    def refused(page, *programs, key):
        """The run refuses page with the words of key, and loses nothing."""
        done = run_check(tmp_path, "--html", page, *programs)
        assert done.returncode == 2, done.stdout
        assert done.stdout.strip() == texts()["html_refused"].format(path=page,
                                                                     why=why[key])
        for name in ("a", "b", "c"):
            assert (folder / (name + ".py")).read_bytes() == program

    # The shell's t/*.py: the first program is taken for the page's name.
    refused(*sorted(str(p) for p in folder.glob("*.py")), key="program")
    os.link(str(folder / "b.py"), str(tmp_path / "b.html"))
    refused(str(tmp_path / "b.html"), str(folder / "b.py"), key="checked")
    for own in ("check_texts.json", "handout.html"):
        before = open(os.path.join(ROOT, "chapter", own), "rb").read()
        refused(os.path.join(ROOT, "chapter", own), str(folder / "a.py"), key="own")
        assert open(os.path.join(ROOT, "chapter", own), "rb").read() == before
    refused("", str(folder / "a.py"), key="empty")
    if hasattr(os, "mkfifo"):
        os.mkfifo(str(tmp_path / "report.fifo"))
        refused(str(tmp_path / "report.fifo"), str(folder / "a.py"), key="not_a_file")
    page = tmp_path / "report.html"
    done = run_check(tmp_path, "--html", str(page), str(folder / "a.py"))
    assert done.returncode == 0, done.stdout
    assert "a.py" in page.read_text(encoding="utf-8")
    assert [name for name in os.listdir(str(tmp_path)) if name.startswith(".check-")] == []
    assert left_behind(tmp_path) == []


# A program that writes what a passing check would have written, where the
# checker once read its answer (result.json, in the folder the program runs
# in), and ends.
WRITES_ITS_VERDICT = """import json, os
passed = [{"section": s, "ok": True, "key": "ok_312", "line": None, "facts": {}}
          for s in ["3.1.2", "3.1.3", "3.1.4", "3.2.1", "3.2.2", "3.3.1", "3.3.2",
                    "3.3.3", "3.3.4", "3.4.1", "3.4.2"]]
with open("result.json", "w") as f:
    json.dump(passed, f)
os._exit(0)
"""

# A program that finds where the checker's answer goes (the pipe of its
# answers, in the checker's own frames, as only a program written to cheat
# would), puts there an answer the checker never writes, and ends.
WRITES_A_STRANGE_VERDICT = """import os, sys
frame = sys._getframe()
while frame is not None:
    answers = frame.f_locals.get("answers")
    if isinstance(answers, int):
        os.write(answers, %r)
        os._exit(0)
    frame = frame.f_back
"""


def test_a_program_cannot_write_its_own_verdict(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    copy(BOOK, folder / "a_book.py")
    copy(BOOK, folder / "z_book.py")
    (folder / "cheat.py").write_text(WRITES_ITS_VERDICT, encoding="utf-8")
    strange = {"unknown_key": [{"section": "3.1.2", "ok": True, "key": "no_such_words",
                                "line": None, "facts": {}}],
               "not_a_list": {"section": "3.1.2"},
               "bad_facts": [{"section": "3.1.2", "ok": False, "key": "crash",
                              "line": 3, "facts": {"saw": ["a list"]}}],
               "out_of_order": [{"section": "3.4.2", "ok": True, "key": "ok_312",
                                 "line": None, "facts": {}}]}
    for name, verdict in strange.items():
        lines = verdict if isinstance(verdict, list) else [verdict]
        answer = "".join(json.dumps(line) + "\n" for line in lines).encode("ascii")
        (folder / (name + ".py")).write_text(WRITES_A_STRANGE_VERDICT % (answer,),
                                             encoding="utf-8")
    for args in (["--json"], ["--json", "--html", str(tmp_path / "r.html")]):
        done = run_check(tmp_path, *(args + [str(folder)]))
        assert done.returncode == 1 and done.stderr == "", done.stderr
        results = by_name(done)
        assert results["a_book.py"]["reached"] == results["z_book.py"]["reached"] == "3.4.2"
        assert results["cheat.py"]["reached"] is None
        assert results["cheat.py"]["checks"][0]["ok"] is False
        for name in strange:
            first = results[name + ".py"]["checks"][0]
            assert first["ok"] is False, name
            assert first["message"] == texts()["messages"]["unchecked"], name
        assert left_behind(tmp_path) == []
    # One program alone is checked in a process of its own: the same holds.
    for name in ("cheat.py", "unknown_key.py"):
        [alone] = json.loads(run_check(tmp_path, "--json", str(folder / name)).stdout)
        assert alone["reached"] is None and alone["checks"][0]["ok"] is False



def test_a_program_whose_name_starts_with_a_dash_is_checked(tmp_path):
    copy(STEP11, tmp_path / "-dash.py")
    done = run_check(tmp_path, "--json", "-dash.py")
    assert done.returncode == 0, done.stdout + done.stderr
    [result] = json.loads(done.stdout)
    assert result["file"] == "-dash.py" and result["reached"] == "3.4.2"
    for lang in ("zh", "en"):
        done = run_check(tmp_path, "--lang", lang, "-gone.py")
        assert done.returncode == 2 and done.stderr == ""
        assert done.stdout.strip() == texts(lang)["unknown_option"].format(option="-gone.py")
    done = run_check(tmp_path, "--json", "--", "-dash.py")
    assert json.loads(done.stdout)[0]["reached"] == "3.4.2"


def tk_there():
    """Whether this Python has tkinter (the child's is this one)."""
    try:
        import tkinter  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.skipif(not tk_there(), reason="no tkinter in this Python")
def test_a_tk_window_never_shows_on_the_teachers_screen_and_its_loop_is_stopped(tmp_path):
    from test_window import missing, x_server
    if missing and os.environ.get("MINESWEEP_REQUIRE_WINDOW") != "1":
        pytest.skip("needs %s" % ", ".join(missing))
    server = x_server((800, 600))
    screen = next(server)
    try:
        (tmp_path / "window.py").write_text(
            "import tkinter\nroot = tkinter.Tk()\nroot.mainloop()\n", encoding="utf-8")
        # A program that finds a screen of its own (as on a computer where
        # windows need no display named) has its Tk loop stopped in time;
        # where the program is confined, it cannot even reach the screen.
        (tmp_path / "own_screen.py").write_text(
            "import os, tkinter\nos.environ['DISPLAY'] = os.environ['SHOW_ON']\n"
            "root = tkinter.Tk()\nroot.title('hello')\nroot.mainloop()\n",
            encoding="utf-8")
        env = dict(os.environ, DISPLAY=screen, SHOW_ON=screen)
        for checker in (CHECK, without_landlock(tmp_path)):
            for name in ("window.py", "own_screen.py"):
                done = run_check(tmp_path, "--json", "--lang", "en", name, env=env,
                                 checker=checker)
                [result] = json.loads(done.stdout)
                first = result["checks"][0]
                assert first["ok"] is False, first
                if name == "window.py" or (checker == CHECK and confined() == "all"):
                    # Where Python stopped it is said (no change of a line
                    # makes this program a game, so none is named).
                    assert first["line"] is None and "TclError" in first["message"], first
                    assert re.search(r"line [23]\.\)", first["message"]), first
                else:
                    assert first["line"] == 5, first
                    assert first["message"] == texts("en")["messages"]["endless_load"].format(
                        when="")
    finally:
        next(server, None)


def confined():
    """What this computer keeps a checked program from (check_sandbox)."""
    sys.path.insert(0, os.path.join(ROOT, "chapter"))
    import check_sandbox
    return check_sandbox.confinement()


# A program that starts a process that outlives it: the process writes a
# mark in the program's folder and sleeps; with setsid it leaves the
# program's process group too. The program waits for the mark, then stops
# with an error that names the process, which the report then shows.
LEAVES_A_PROCESS = """import os, time
LEAVES = %r
if os.fork() == 0:
    if LEAVES:
        os.setsid()
    with open("mark-%%d" %% os.getpid(), "w") as f:
        f.write("x")
    time.sleep(300)
    os._exit(0)
while not any(name.startswith("mark-") for name in os.listdir(".")):
    time.sleep(0.01)
raise RuntimeError("left " + [n for n in os.listdir(".") if n.startswith("mark-")][0])
"""


def alive(pid):
    """Whether the process pid is still running (not gone, not a zombie)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def left_processes(results):
    """The processes the programs said they left behind."""
    return [int(re.search(r"mark-(\d+)", check["message"]).group(1))
            for result in results for check in result["checks"]
            if "mark-" in (check["message"] or "")]


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")
def test_processes_a_program_starts_end_with_its_check(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    copy(STEP11, folder / "book.py")
    for name, leaves in (("stays_in_group", False), ("leaves_group", True)):
        (folder / (name + ".py")).write_text(LEAVES_A_PROCESS % (leaves,), encoding="utf-8")
    alone = tmp_path / "alone.py"
    alone.write_text(LEAVES_A_PROCESS % (True,), encoding="utf-8")
    left = []
    try:
        for checker in (CHECK, without_landlock(tmp_path)):
            done = run_check(tmp_path, "--json", str(folder), checker=checker)
            assert by_name(done)["book.py"]["reached"] == "3.4.2"
            results = list(by_name(done).values())
            results += json.loads(run_check(tmp_path, "--json", str(alone),
                                            checker=checker).stdout)
            left += left_processes(results)
        assert len(left) == 6
        assert [pid for pid in left if alive(pid)] == []
    finally:
        for pid in left:
            try:
                os.kill(pid, 9)
            except OSError:
                pass


# A program that writes a file far larger than any game needs (a file with a
# hole: it takes no room on the disk, whatever its size).
WRITES_A_HUGE_FILE = """f = open("huge.bin", "wb")
f.seek(1024 * 1024 * 1024)
f.write(b"x")
f.close()
"""

# A program that fills the disk of the checker's temporary folder with
# files it leaves outside its own folder, until the disk is full.
FILLS_THE_DISK = """import os
for n in range(100000):
    with open("filler%d.bin" % n, "wb") as f:
        f.write(b"x" * 1024 * 1024)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="no file size limit on Windows")
def test_a_program_that_writes_too_much_is_told_so_at_its_line(tmp_path):
    (tmp_path / "huge.py").write_text(WRITES_A_HUGE_FILE, encoding="utf-8")
    programs = ["huge.py"]
    if os.path.exists("/dev/full"):         # a disk that is always full
        (tmp_path / "full.py").write_text(
            'with open("/dev/full", "wb") as f:\n    f.write(b"x")\n', encoding="utf-8")
        programs.append("full.py")
    done = run_check(tmp_path, "--json", "--lang", "en", *programs)
    results = by_name(done)
    words = texts("en")["messages"]
    first = results["huge.py"]["checks"][0]
    assert first["line"] == 4, first
    said = words["file_too_big"].format(when=texts("en")["when"]["load"], most=64,
                                        python="OSError: [Errno %d] File too large"
                                        % errno.EFBIG)
    assert first["message"] == said, first
    if "full.py" in results:
        first = results["full.py"]["checks"][0]
        assert "the disk is full" in first["message"] and first["line"] is not None, first
    assert left_behind(tmp_path) == []


def small_disk(folder):
    """Mount a 4 MB disk (in memory) at folder; False where that cannot be
    done (it needs the administrator)."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        return False
    folder.mkdir()
    return subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)],
                          capture_output=True).returncode == 0


def fill_up(disk):
    """Fill the disk with files, but for one page: room for Python's look
    at whether the temporary folder can be written (a few bytes), not for a
    program's copy."""
    small = []
    for n, size in enumerate([1024 * 1024] * 3 + [4096] * 1024):
        path = str(disk / ("filler%d.bin" % n))
        try:
            with open(path, "wb") as f:
                f.write(b"x" * size)
        except OSError:
            os.unlink(path)
            continue
        if size == 4096:
            small.append(path)
    os.unlink(small[-1])


def test_a_full_disk_is_named_for_every_program_it_stops(tmp_path):
    disk = tmp_path / "disk"
    if not small_disk(disk):
        pytest.skip("needs a small disk of its own (mount, as the administrator)")
    try:
        folder = tmp_path / "c"
        folder.mkdir()
        (tmp_path / "fills.py").write_text(FILLS_THE_DISK, encoding="utf-8")
        for name in ("a_book.py", "b_book.py"):
            copy(BOOK, folder / name)

        def check(*paths):
            """The checker run with its temporary folders on the small disk."""
            done = subprocess.run([sys.executable, CHECK, "--json", "--lang", "en"] +
                                  [str(path) for path in paths], capture_output=True,
                                  text=True, encoding="utf-8", timeout=600,
                                  cwd=str(tmp_path), env=dict(os.environ, TMPDIR=str(disk)))
            assert done.stderr == ""
            return by_name(done)
        # The program fills the disk from its own folder.
        [said] = check(tmp_path / "fills.py")["fills.py"]["checks"][:1]
        assert "the disk is full" in said["message"].lower(), said
        # The disk is full to the last byte (of the teacher's files): a
        # program's copy cannot be made, and every program is told so.
        fill_up(disk)
        results = check(folder)
        for name in ("a_book.py", "b_book.py"):
            assert results[name]["checks"][0]["message"] == \
                texts("en")["messages"]["disk_full"], results[name]["checks"][0]
        assert [name for name in os.listdir(str(disk)) if not name.startswith("filler")] == []
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True)


def test_a_program_gone_before_its_turn_is_told_and_the_rest_checked(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    # The first program checked moves the last one away as it loads, as a
    # student renaming a file while the class run goes on would (where the
    # checker cannot confine a program; where it can, the program itself
    # cannot, and the student's own renaming is what moves it).
    (folder / "a_moves.py").write_text(
        "import os\nos.rename(%r, %r)\n" % (str(folder / "z_gone.py"),
                                           str(tmp_path / "z_moved.py")), encoding="utf-8")
    copy(BOOK, folder / "b_book.py")
    copy(BOOK, folder / "z_gone.py")
    done = run_check(tmp_path, "--json", "--lang", "en", str(folder),
                     checker=without_landlock(tmp_path))
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip() == texts("en")["confined"]["none"]
    results = by_name(done)
    assert sorted(results) == ["a_moves.py", "b_book.py", "z_gone.py"]
    assert results["b_book.py"]["reached"] == "3.4.2"
    first = results["z_gone.py"]["checks"][0]
    assert first["message"] == texts("en")["messages"]["unreadable"].format(
        why=os.strerror(2)), first
    assert left_behind(tmp_path) == []


def test_a_programs_file_is_its_own_copy_never_pgzeros(tmp_path):
    # pgzero's prepare_mod gives a module the __file__ of its own builtins:
    # a program writing beside __file__ (a score file, say) would write into
    # pgzero's package. Checked, it writes beside its own copy, as when Thonny
    # runs it, and pgzero's folder is left as it was.
    import pgzero
    package = os.path.dirname(os.path.abspath(pgzero.__file__))
    before = sorted(os.listdir(package))
    with open(STEP11, encoding="utf-8") as f:
        program = f.read().replace(
            "import random\n",
            "import random\nimport os\nwith open(os.path.join(os.path.dirname(__file__), "
            "'score.txt'), 'w') as score:\n    score.write(__file__)\n", 1)
    (tmp_path / "p.py").write_text(program, encoding="utf-8")
    done = run_check(tmp_path, "--json", "p.py")
    assert done.returncode == 0, done.stdout + done.stderr
    after = sorted(os.listdir(package))
    stray = os.path.join(package, "score.txt")
    if os.path.exists(stray):           # so that a failure here leaves no trace
        os.remove(stray)
    assert after == before
    assert by_name(done)["p.py"]["reached"] == "3.4.2"


def test_a_page_in_the_checkers_folder_may_be_written_again(tmp_path):
    # In the classroom kit the students' folder is the checker's own: the
    # teacher's page written there once may be written there again, and the
    # checker's other files there are never written over.
    folder = tmp_path / "kit"
    shutil.copytree(os.path.join(ROOT, "chapter"), str(folder),
                    ignore=shutil.ignore_patterns("zh", "step*", "*.html"))
    checker = str(folder / "check.py")
    copy(STEP11, folder / "a.py")
    for _ in range(2):
        done = subprocess.run([sys.executable, checker, "--html", "r.html", "a.py"],
                              capture_output=True, text=True, encoding="utf-8",
                              timeout=600, cwd=str(folder))
        assert done.returncode == 0, done.stdout + done.stderr
    refused = subprocess.run([sys.executable, checker, "--html", "check_texts.json",
                              "a.py"], capture_output=True, text=True, encoding="utf-8",
                             timeout=600, cwd=str(folder))
    assert refused.returncode == 2 and json.loads((folder / "check_texts.json").read_text(
        encoding="utf-8"))


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_output_that_cannot_be_written_is_one_line_or_nothing(tmp_path):
    # The results into a full disk: one line on the error output, in the
    # class's language. Into a pipe whose reader has gone (`| head -1`):
    # nothing more, and no traceback.
    copy(BOOK, tmp_path / "a.py")
    copy(BOOK, tmp_path / "b.py")
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, CHECK, "--json", "--lang", "en",
                               str(tmp_path / "a.py")], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=600, cwd=str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [texts("en")["unsaid"].format(
        why=os.strerror(errno.ENOSPC))]
    reader = subprocess.Popen([sys.executable, CHECK, "--lang", "en", str(tmp_path / "a.py"),
                               str(tmp_path / "b.py")], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, cwd=str(tmp_path))
    assert reader.stdout.readline().startswith("Programs to check")
    reader.stdout.close()
    reader.wait(timeout=600)
    assert reader.returncode == 2 and reader.stderr.read() == ""
