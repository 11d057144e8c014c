"""chapter/check.py against programs written to do harm, in a class run:
each spoils at most its own verdict, never another program's, the
teacher's files or the checker's. Every run is the real checker, from a
copy of its folder, on real files; where this computer has Landlock
(Linux 5.13 and newer), the programs are confined, and the runs are made
again as on a computer without it (check_sandbox's one question to the
system answering "none"), where the attacks on other programs' checks must
fail all the same."""
import json
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHAPTER = os.path.join(ROOT, "chapter")
BOOK = os.path.join(ROOT, "tests", "check_programs", "book_gb18030.py")

sys.path.insert(0, CHAPTER)
import check_sandbox  # noqa: E402

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self"),
                                reason="the attacks reach processes through Linux's /proc")

CONFINED = check_sandbox.confinement()
needs_landlock = pytest.mark.skipif(CONFINED != "all", reason="needs Landlock 6 (Linux 6.12)")

# Writes into the pipe that carries the answers of the process that checks
# the programs in turn (its parent's standard output), fifty times "done",
# and an answer in the server's own form.
WRITES_INTO_THE_ANSWERS = """import os
fd = os.open("/proc/%d/fd/1" % os.getppid(), os.O_WRONLY)
for _ in range(50):
    os.write(fd, b"done\\n")
    os.write(fd, b'{"token": "x", "status": "done", "found": []}\\n')
"""

# Leaves a process behind (forked twice, out of its group with setsid) that
# looks for the checker's files in the temporary folder, every other
# check's too, and writes a passing answer into each, over and over; the
# program itself keeps running as long as it can, so that the process
# works while the other programs are checked.
FORGES_VERDICTS = """import json, os, time
PASSED = json.dumps([{"section": s, "ok": True, "key": "ok_312", "line": None, "facts": {}}
                     for s in ["3.1.2", "3.1.3", "3.1.4", "3.2.1", "3.2.2", "3.3.1",
                               "3.3.2", "3.3.3", "3.3.4", "3.4.1", "3.4.2"]])
ROOM = os.path.dirname(os.getcwd())
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        while True:
            try:
                for folder in os.listdir(ROOM):
                    if folder.startswith("minesweep-"):
                        for name in os.listdir(os.path.join(ROOM, folder)):
                            if name.endswith(".json"):
                                with open(os.path.join(ROOM, folder, name), "w") as f:
                                    f.write(PASSED)
            except OSError:
                pass
    os._exit(0)
end = time.monotonic() + 8
while time.monotonic() < end:
    try:
        time.sleep(0.05)
    except BaseException:
        pass
"""

# Stops the process that checks it (its parent), and the checker itself
# (its parent's parent), with the signal that cannot be caught.
STOPS_THE_CHECKER = """import os, signal
os.kill(os.getppid(), signal.SIGSTOP)
"""
STOPS_THE_TEACHERS_CHECKER = """import os, signal
with open("/proc/%d/stat" % os.getppid()) as f:
    checker = int(f.read().rsplit(")", 1)[1].split()[1])
os.kill(checker, signal.SIGSTOP)
"""

# The teacher's files: the program finds the class folder from its own
# name as Python compiled it, and the checker's folder from its modules.
WRITES_IN_THE_HOME = """import os
with open(os.path.join(os.path.expanduser("~"), "planted.txt"), "w") as f:
    f.write("was here")
"""
PLANTS_IN_THE_CLASS = """import os, sys
folder = os.path.dirname(sys._getframe().f_code.co_filename)
with open(os.path.join(folder, "planted.py"), "w") as f:
    f.write("print('was here')")
"""
DELETES_IN_THE_CLASS = """import os, sys
folder = os.path.dirname(sys._getframe().f_code.co_filename)
os.remove(os.path.join(folder, "b_victim.py"))
"""
READS_THE_ANSWERS = """import os, sys
folder = os.path.dirname(os.path.dirname(sys._getframe().f_code.co_filename))
with open(os.path.join(folder, "answers.txt"), encoding="utf-8") as f:
    raise ValueError(f.read())
"""
CHANGES_THE_CHECKERS_WORDS = """import os, check_causes
folder = os.path.dirname(check_causes.__file__)
with open(os.path.join(folder, "check_texts.json"), "a") as f:
    f.write("spoilt")
"""

ATTACKS = {"attack_pipe": WRITES_INTO_THE_ANSWERS, "attack_forge": FORGES_VERDICTS,
           "attack_stop": STOPS_THE_CHECKER, "attack_stop_teacher": STOPS_THE_TEACHERS_CHECKER,
           "attack_home": WRITES_IN_THE_HOME, "attack_plant": PLANTS_IN_THE_CLASS,
           "attack_delete": DELETES_IN_THE_CLASS, "attack_read": READS_THE_ANSWERS,
           "attack_words": CHANGES_THE_CHECKERS_WORDS}
# The attacks on files, which only confinement stops.
ON_FILES = ("attack_home", "attack_plant", "attack_delete", "attack_read", "attack_words")

# The checker as it runs where it cannot confine a program (see
# tests/test_check_guards.py): the child is started through this file too.
WITHOUT_LANDLOCK = """\
import runpy, sys
sys.path.insert(0, {chapter!r})
import check_sandbox
check_sandbox.landlock_version = lambda: 0
if sys.argv[1:2] in (["--serve"], ["--alone"]):
    runpy.run_path({child!r}, run_name="__main__")
else:
    import check
    check.CHILD = __file__
    sys.exit(check.run(sys.argv[1:]))
"""


def checker_copy(tmp_path):
    """A copy of the checker's folder (its files, pictures and sounds, and
    the game's table of languages beside them), as the kit's students'
    folder holds it."""
    folder = tmp_path / "checker"
    folder.mkdir()
    for name in os.listdir(CHAPTER):
        path = os.path.join(CHAPTER, name)
        if name.startswith("check") and os.path.isfile(path):
            shutil.copyfile(path, str(folder / name))
    for kind in ("images", "sounds"):
        shutil.copytree(os.path.join(CHAPTER, kind), str(folder / kind))
    shutil.copyfile(os.path.join(ROOT, "languages.py"), str(folder / "languages.py"))
    return folder


def snapshot(*folders):
    """Every file under folders, with its bytes."""
    found = {}
    for folder in folders:
        for where, _, names in os.walk(str(folder)):
            for name in names:
                path = os.path.join(where, name)
                with open(path, "rb") as f:
                    found[path] = f.read()
    return found


def teacher(tmp_path, correct, attacks):
    """The teacher's home, with answers.txt in it, and the class folder in
    the home: correct copies of the book's program and the attacks."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "answers.txt").write_text("the answers of the test", encoding="utf-8")
    folder = home / "class"
    folder.mkdir()
    with open(BOOK, "rb") as f:
        book = f.read()
    for n in range(correct):
        (folder / ("book%02d.py" % n)).write_bytes(book)
    (folder / "b_victim.py").write_bytes(book)
    for name in attacks:
        (folder / (name + ".py")).write_text(ATTACKS[name], encoding="utf-8")
    return home, folder


def class_run(tmp_path, home, folder, unconfined=False):
    """The checker's class run of folder with --json, as the teacher in
    home starts it: (its results by file name, its error output)."""
    checker = checker_copy(tmp_path) if not (tmp_path / "checker").exists() \
        else tmp_path / "checker"
    script = str(checker / "check.py")
    if unconfined:
        script = str(tmp_path / "check_without_landlock.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(WITHOUT_LANDLOCK.format(chapter=str(checker),
                                            child=str(checker / "check_sections.py")))
    temp = tmp_path / "temp"
    temp.mkdir(exist_ok=True)
    env = dict(os.environ, HOME=str(home), TMPDIR=str(temp))
    done = subprocess.run([sys.executable, script, "--json", "--lang", "en", str(folder)],
                          capture_output=True, text=True, encoding="utf-8", timeout=600,
                          cwd=str(home), env=env)
    assert os.listdir(str(temp)) == []
    return {os.path.basename(r["file"]): r for r in json.loads(done.stdout)}, done.stderr


def first_failure(result):
    """The check at which a program stopped."""
    return next(check for check in result["checks"] if check["ok"] is not True)


def words():
    """The checker's English words."""
    with open(os.path.join(CHAPTER, "check_texts.json"), encoding="utf-8") as f:
        return json.load(f)["en"]


def passed(result):
    """Whether a program passed all eleven sections."""
    return all(check["ok"] is True for check in result["checks"])


@needs_landlock
def test_forty_correct_programs_pass_beside_every_attack(tmp_path):
    home, folder = teacher(tmp_path, 40, ATTACKS)
    checker = checker_copy(tmp_path)
    before = snapshot(home, checker)
    results, said = class_run(tmp_path, home, folder)
    assert said == ""
    # Every correct program passes; every program has a verdict of its own.
    assert sorted(results) == sorted(
        ["book%02d.py" % n for n in range(40)] + ["b_victim.py"] +
        [name + ".py" for name in ATTACKS])
    assert [name for name, result in results.items() if name.startswith(("book", "b_"))
            and not passed(result)] == []
    assert [name for name in ATTACKS if passed(results[name + ".py"])] == []
    # The teacher's files and the checker's are as they were, byte for byte.
    assert snapshot(home, checker) == before
    # Each attack is stopped at its own line with Python's PermissionError,
    # and the report says the checker kept the program in its folder.
    lines = {"attack_pipe": 2, "attack_stop": 2, "attack_stop_teacher": 2,
             "attack_home": 2, "attack_plant": 3, "attack_delete": 3, "attack_read": 3,
             "attack_words": 3}
    for name, line in lines.items():
        stopped = first_failure(results[name + ".py"])
        assert stopped["section"] == "3.1.2", (name, stopped)
        assert stopped["line"] == line, (name, stopped)
        assert "PermissionError" in stopped["message"], (name, stopped)
        assert stopped["message"].endswith(" " + words()["kept_in"]), (name, stopped)
    assert "the answers of the test" not in json.dumps(results)


def test_without_landlock_attacks_on_other_checks_fail_all_the_same(tmp_path):
    # Where the checker cannot confine a program (older Linux, macOS), it
    # says so once, and a program still cannot write another's answer,
    # stop the run, or forge a verdict: the answers travel through pipes
    # with a token, a stopped check is that program's time-out, and no
    # verdict is ever a file.
    attacks = ("attack_pipe", "attack_forge", "attack_stop", "attack_stop_teacher")
    home, folder = teacher(tmp_path, 16, attacks)
    results, said = class_run(tmp_path, home, folder, unconfined=True)
    assert said.strip() == words()["confined"]["none"]
    assert [name for name, result in results.items() if name.startswith(("book", "b_"))
            and not passed(result)] == []
    assert [name for name in attacks if passed(results[name + ".py"])] == []
    # The program that stops its checker is out of time, and so said.
    stopped = first_failure(results["attack_stop.py"])
    assert stopped["message"] == words()["messages"]["child_timeout"].format(seconds=60)


@needs_landlock
def test_a_program_checked_alone_cannot_reach_the_teachers_files(tmp_path):
    # A student checking one program of their own is confined the same way.
    home, folder = teacher(tmp_path, 0, ON_FILES)
    checker = checker_copy(tmp_path)
    before = snapshot(home, checker)
    for name in ON_FILES:
        temp = tmp_path / "temp"
        temp.mkdir(exist_ok=True)
        done = subprocess.run(
            [sys.executable, str(checker / "check.py"), "--json", "--lang", "en",
             str(folder / (name + ".py"))], capture_output=True, text=True, encoding="utf-8",
            timeout=600, cwd=str(home), env=dict(os.environ, HOME=str(home), TMPDIR=str(temp)))
        [result] = json.loads(done.stdout)
        assert "PermissionError" in first_failure(result)["message"], name
    assert snapshot(home, checker) == before
