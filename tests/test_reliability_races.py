"""Races and stops, with real processes: a game paused while it holds the
lock or before its rename, a lock taken from a game, locks of ended games
and of reused process numbers, other programs' temporary files, a stop
signal early in start-up under a real X server and during the closing
save, and a worksheet sent where it must not go."""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

import pytest

import datafiles
from loadgame import ROOT, SCRIPT
from conftest import lock_naps, look_again
from test_classic import kept_times, win_beginner

TESTS = os.path.dirname(os.path.abspath(__file__))
PAUSEROUND = os.path.join(TESTS, "pauseround.py")
HANG = 60                   # the test's own wait for a process that may hang, s
LINUX = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")
HOST = socket.gethostname()


def stopped(pid):
    """True once the process is stopped (SIGSTOP): its state in /proc is T."""
    with open("/proc/%d/stat" % pid, "rb") as f:
        return f.read().rsplit(b")", 1)[-1].split()[0] == b"T"


def paused_save(folder, level, seconds, moment):
    """A game saving this record in a process of its own, stopped at moment."""
    game = subprocess.Popen([sys.executable, PAUSEROUND, "save", str(folder), level,
                             str(seconds), moment], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + HANG
    while not stopped(game.pid):
        assert game.poll() is None, game.communicate()
        assert time.monotonic() < deadline, "the save never came to its pause"
        look_again()
    return game


def go_on(game):
    """Let a stopped save go on: (what record_best_time gave, what it said)."""
    game.send_signal(signal.SIGCONT)
    out, err = game.communicate(timeout=HANG)
    assert game.returncode == 0, out + err
    return json.loads(out.strip().splitlines()[-1])


def save_now(folder, level, seconds):
    """Another game saving a record now, in a process of its own: (outcome, said)."""
    done = subprocess.run([sys.executable, PAUSEROUND, "save", str(folder), level,
                           str(seconds), "none"], capture_output=True, text=True,
                          timeout=HANG)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def made_old(path):
    """Make a file look as if it was last changed an hour ago (past any stale age)."""
    os.utime(path, (time.time() - 3600,) * 2)


# A lock held by a running game of this computer is not stale ------------------------
@LINUX
@pytest.mark.parametrize("moment", ["locked", "flushed"])
def test_a_paused_game_keeps_its_lock_and_nothing_is_lost(tmp_path, moment):
    # Game A stops while it holds the lock: just after taking it, or (a slow
    # disk) once its new file is flushed, before the rename. Its lock looks
    # an hour old; game B must not take it, nor remove A's temporary file.
    folder = tmp_path / "data"
    folder.mkdir()
    a = paused_save(folder, "Beginner", 10.0, moment)
    try:
        lock = folder / "minesweep.lock"
        made_old(lock)
        held = lock.read_bytes()
        left = sorted(os.listdir(folder))
        outcome, said = save_now(folder, "Expert", 90.0)
        assert outcome == "unsaved" and "locked" in said[0]
        assert lock.read_bytes() == held and sorted(os.listdir(folder)) == left
    finally:
        outcome, said = go_on(a)
    assert outcome == "new"
    assert save_now(folder, "Expert", 90.0)[0] == "new"
    assert kept_times(folder / "best_times.json") == {"Beginner": 10.0, "Expert": 90.0}
    assert sorted(os.listdir(folder)) == ["best_times.json"]


@LINUX
def test_a_game_whose_lock_was_taken_says_not_saved_and_undoes_nothing(tmp_path):
    # On a folder shared by two computers a paused game's lock is taken by
    # its age, and the other game saves: the first must not put back what
    # it read before.
    folder = tmp_path / "data"
    folder.mkdir()
    a = paused_save(folder, "Beginner", 10.0, "flushed")
    try:
        lock = folder / "minesweep.lock"
        lock.unlink()                               # taken by another computer's game
        lock.write_text("4321 another-computer -")
        best = folder / "best_times.json"
        best.write_text('{"Expert": {"time": 90.0, "date": "2026-12-01"}}')
    finally:
        outcome, said = go_on(a)
    assert outcome == "unsaved"
    assert "another game took" in said[0]
    assert kept_times(best) == {"Expert": 90.0}
    assert sorted(os.listdir(folder)) == ["best_times.json", "minesweep.lock"]
    assert lock.read_text() == "4321 another-computer -"


def test_a_lock_of_an_ended_game_is_stale_at_once(game, tmp_path, monkeypatch):
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    folder = tmp_path / "data"
    folder.mkdir()
    text = "%d %s 123456" % (ended.pid, HOST)
    (folder / "minesweep.lock").write_text(text)
    assert lock_naps(monkeypatch, lambda: win_beginner(game, 30.0)) == 0
    assert game.play.record == "new"
    # Not the 2 s of an old lock: stale when just made and never yet watched.
    assert datafiles.stale_why(0.0, 0.0, text, HOST)


@LINUX
def test_a_lock_of_a_reused_process_number_is_stale_at_once(game, tmp_path, monkeypatch):
    # The process number is in use again, by a process that started at
    # another time than the game that made the lock.
    other = os.getppid()
    started = datafiles.process_start(other)
    assert started
    folder = tmp_path / "data"
    folder.mkdir()
    text = "%d %s %d" % (other, HOST, int(started) + 1)
    (folder / "minesweep.lock").write_text(text)
    assert lock_naps(monkeypatch, lambda: win_beginner(game, 30.0)) == 0
    assert game.play.record == "new"
    assert datafiles.stale_why(0.0, 0.0, text, HOST)


def test_the_start_of_a_process_tells_it_from_a_new_one():
    here = datafiles.process_start(os.getpid())
    assert here and datafiles.process_start(os.getpid()) == here
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    assert datafiles.process_start(ended.pid) is None
    assert datafiles.owner_state(datafiles.lock_owner(), HOST) == "gone"   # this one's
    assert datafiles.owner_state("%d %s %s" % (os.getppid(), HOST, datafiles.process_start(
        os.getppid())), HOST) == "alive"
    assert datafiles.owner_state("%d elsewhere 1" % os.getppid(), HOST) == "unknown"


@pytest.mark.skipif(shutil.which("ps") is None or os.name != "posix", reason="needs ps")
def test_without_proc_ps_tells_a_process_start():
    # macOS and the BSDs have no /proc: there ps is asked.
    here = datafiles.ps_start(os.getpid())
    assert here and datafiles.ps_start(os.getpid()) == here
    assert here != datafiles.ps_start(1) or os.getpid() == 1
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    assert datafiles.ps_start(ended.pid) is None


# Only the game's own leftovers, of games that have ended -----------------------------
@LINUX
def test_only_leftovers_of_ended_games_and_day_old_ones_are_removed(game, tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    running = os.getppid()
    files = {
        "tmpab12cd34.tmp": False,                       # another program's, today's
        "tmpzz99yy88.tmp": True,                        # an older version's, days old
        "best_times.json.%d.tmp" % ended.pid: True,     # its game has ended
        "saved_game.json.%d.3.tmp" % ended.pid: True,
        "best_times.json.%d.tmp" % running: False,      # a running game's
        "settings.json.%d.2.tmp" % running: False,
    }
    for name in files:
        (folder / name).write_text("{")
    os.utime(folder / "tmpzz99yy88.tmp", (time.time() - 2 * 24 * 3600,) * 2)
    win_beginner(game, 30.0)
    assert sorted(os.listdir(folder)) == sorted(
        ["best_times.json"] + [name for name, gone in files.items() if not gone])


# Stop signals early in start-up, under a real X server --------------------------------
@pytest.fixture(scope="module")
def display():
    """A private X server (the real-window tests' own); its display name."""
    if shutil.which("Xvfb") is None or shutil.which("xdotool") is None:
        pytest.skip("needs Xvfb and xdotool")
    import test_window
    yield from test_window.x_server()


@pytest.mark.parametrize("delay", [0.0, 0.03, 0.06, 0.1, 0.15, 0.2, 0.4])
def test_a_stop_signal_just_after_pygame_starts_ends_the_game(display, tmp_path, delay):
    # SDL takes SIGTERM as a quit event until the game's own handlers are
    # in, and the display is opened again at start: the event must not be
    # lost. The delay is when the signal is sent, after pygame's greeting.
    env = dict(os.environ, DISPLAY=display, SDL_VIDEODRIVER="x11",
               SDL_AUDIODRIVER="dummy", PYTHONUNBUFFERED="1", PYTHONFAULTHANDLER="1",
               MINESWEEP_DATA_DIR=str(tmp_path / "data"))
    # The game hides pygame's greeting, so pygame is imported first here and
    # says when it has started; then the game runs as python minesweep.py.
    start = ("import sys; sys.path.insert(0, %r); sys.argv = [%r]; import pygame; "
             "print('pygame started', flush=True); import runpy; "
             "runpy.run_path(%r, run_name='__main__')" % (ROOT, SCRIPT, SCRIPT))
    game = subprocess.Popen([sys.executable, "-c", start], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert game.stdout.readline().startswith("pygame started")
        time.sleep(delay)               # the moment of the signal, not a wait for a result
        game.send_signal(signal.SIGTERM)
        try:
            out, err = game.communicate(timeout=15)     # a bound on a hang
        except subprocess.TimeoutExpired:
            # Where it hangs: Python's fault handler prints every thread's
            # stack at SIGABRT.
            game.send_signal(signal.SIGABRT)
            out, err = game.communicate(timeout=15)
            pytest.fail("the game did not end at SIGTERM:\n" + out + err)
        # Now and then X11 refuses a new client for a moment (see
        # test_window.launch): the game then ends too, saying so.
        assert game.returncode in (0, -signal.SIGTERM) or "x11 not available" in out + err, err
        assert "Traceback" not in err, err
    finally:
        if game.poll() is None:
            game.kill()
            game.communicate()


# A stop signal during the closing save --------------------------------------------------
@LINUX
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_stop_signal_during_the_closing_save_lets_it_finish(tmp_path, name):
    # The window closes; the closing save's file is on the disk (a slow
    # disk: the process is stopped there) when a stop signal comes.
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               MINESWEEP_DATA_DIR=str(tmp_path / "data"))
    game = subprocess.Popen([sys.executable, PAUSEROUND, "close"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + HANG
        while not stopped(game.pid):
            assert game.poll() is None, game.communicate()
            assert time.monotonic() < deadline, "the closing save never came to its pause"
            look_again()
        game.send_signal(getattr(signal, name))
        game.send_signal(signal.SIGCONT)
        out, err = game.communicate(timeout=HANG)
    finally:
        if game.poll() is None:
            game.kill()
            game.communicate()
    assert game.returncode == 0, out + err
    assert "Exception ignored" not in err and "Traceback" not in err, err
    assert "this game is kept" in out
    with open(tmp_path / "data" / "saved_game.json", encoding="utf-8") as f:
        kept = json.load(f)
    assert datafiles.kept_fault(kept) == "" and kept["board"] == 77


# Where the worksheet may go -------------------------------------------------------------
def calls_to(tmp_path, target, cwd=ROOT):
    """python minesweep.py --calls TARGET, headless: the finished process."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               MINESWEEP_DATA_DIR=str(tmp_path / "data"))
    try:
        return subprocess.run([sys.executable, SCRIPT, "--calls", str(target)], cwd=cwd,
                              env=env, capture_output=True, text=True, timeout=HANG)
    except subprocess.TimeoutExpired:
        pytest.fail("hung: --calls %s was still running after %d s" % (target, HANG))


def refused_with_one_line(done, why):
    """The worksheet was refused, with one line saying why."""
    lines = [line for line in done.stderr.splitlines() if line.startswith("minesweep:")]
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert len(lines) == 1 and "cannot write the calls" in lines[0] and why in lines[0]


@pytest.mark.skipif(os.name != "posix", reason="POSIX pipes and links")
def test_the_worksheet_goes_only_to_a_regular_file_never_the_games_own(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    records = b'{"Expert": {"time": 90.0, "date": "2026-12-01"}}'
    (data / "best_times.json").write_bytes(records)
    (data / "settings.json").write_bytes(b'{"language": "zh"}')
    os.mkfifo(tmp_path / "pipe")
    refused_with_one_line(calls_to(tmp_path, tmp_path / "pipe"), "a named pipe")
    refused_with_one_line(calls_to(tmp_path, tmp_path), "a folder")
    refused_with_one_line(calls_to(tmp_path, data / "best_times.json"), "the game's own")
    os.link(data / "best_times.json", tmp_path / "hard.csv")       # the same file
    refused_with_one_line(calls_to(tmp_path, tmp_path / "hard.csv"), "the game's own")
    (tmp_path / "link.csv").symlink_to(data / "settings.json")
    refused_with_one_line(calls_to(tmp_path, tmp_path / "link.csv"), "the game's own")
    assert (data / "best_times.json").read_bytes() == records
    assert (data / "settings.json").read_bytes() == b'{"language": "zh"}'
    for target in (tmp_path / "new.csv", tmp_path / "old.csv"):
        if target.name == "old.csv":
            target.write_text("an earlier worksheet\n")
        done = calls_to(tmp_path, target)
        assert done.returncode == 0, done.stderr
        # The game speaks Chinese here (settings.json): its first line, the
        # click, says so.
        assert target.read_text(encoding="utf-8-sig").lstrip("\"").startswith("\u70b9\u51fb")


def game_run(tmp_path, *args, env=None, limit_bytes=None):
    """python minesweep.py ARGS, headless, in tmp_path: the finished process
    (with a largest file size, as on a disk that fills, if limit_bytes)."""
    env = dict(env or os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               MINESWEEP_DATA_DIR=str(tmp_path / "data"))

    def limit():
        """In the child: files no larger than limit_bytes."""
        import resource
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))
    try:
        return subprocess.run([sys.executable, SCRIPT] + list(args), cwd=str(tmp_path),
                              env=env, capture_output=True, text=True, timeout=HANG,
                              preexec_fn=limit if limit_bytes else None)
    except subprocess.TimeoutExpired:
        pytest.fail("hung: %s was still running after %d s" % (args, HANG))


@pytest.mark.skipif(os.name != "posix", reason="POSIX links")
def test_the_worksheet_never_goes_into_the_data_folder_under_any_name(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (tmp_path / "into_data.csv").symlink_to(data / "minesweep.lock")    # a dangling link
    for name in ("minesweep.lock", "saved_game.json", "settings.json.bak",
                 "best_times.json.123.tmp"):
        refused_with_one_line(calls_to(tmp_path, data / name), "the game's own files in its data folder")
    refused_with_one_line(calls_to(tmp_path, tmp_path / "into_data.csv"),
                          "the game's own files in its data folder")
    assert os.listdir(str(data)) == []
    # Any other name there is the user's to choose.
    assert calls_to(tmp_path, data / "calls.csv").returncode == 0


@pytest.mark.skipif(os.name != "posix", reason="POSIX pipes")
def test_the_worksheet_replaces_what_is_at_its_path_and_never_opens_it(tmp_path):
    # A named pipe made at the path after it was looked at: the files are
    # written beside it and renamed over it, so nothing waits for a reader.
    os.mkfifo(str(tmp_path / "x.csv"))
    datafiles.write_whole([(str(tmp_path / "x.csv"), b"calls\n"),
                           (str(tmp_path / "x_board.txt"), b"board\n")])
    assert (tmp_path / "x.csv").read_bytes() == b"calls\n"
    assert (tmp_path / "x_board.txt").read_bytes() == b"board\n"
    assert sorted(os.listdir(str(tmp_path))) == ["x.csv", "x_board.txt"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX file size limits")
def test_a_worksheet_that_does_not_fit_leaves_the_old_one_whole(tmp_path):
    done = game_run(tmp_path, "--rows", "3", "--cols", "3", "--bombs", "0", "--calls",
                    "x.csv")
    assert done.returncode == 0, done.stderr
    before = [(tmp_path / name).read_bytes() for name in ("x.csv", "x_board.txt")]
    done = game_run(tmp_path, "--rows", "60", "--cols", "60", "--bombs", "0", "--calls",
                    "x.csv", limit_bytes=20000)
    refused_with_one_line(done, "File too large")
    assert [(tmp_path / name).read_bytes() for name in ("x.csv", "x_board.txt")] == before
    assert sorted(set(os.listdir(str(tmp_path))) - {"data"}) == ["x.csv", "x_board.txt"]


def test_the_worksheets_line_is_printed_on_any_console(tmp_path):
    done = game_run(tmp_path, "--lang", "zh", "--calls", "x.csv",
                    env=dict(os.environ, PYTHONIOENCODING="cp1252"))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "x.csv" in done.stdout and "\\u" in done.stdout
    assert (tmp_path / "x.csv").exists() and (tmp_path / "x_board.txt").exists()


def test_an_empty_worksheet_name_is_one_clear_line_not_a_game(tmp_path):
    done = game_run(tmp_path, "--calls", "")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--calls needs the name of a file" in done.stderr.strip().splitlines()[-1]


def test_the_worksheets_options_without_a_worksheet_are_one_clear_line_not_a_game(tmp_path):
    # --at and --order choose the worksheet's click and order: without
    # --calls they would be ignored while a game opens as if they were not
    # there.
    for args, option in ((("--at", "3,3"), "--at"), (("--order", "book"), "--order")):
        done = game_run(tmp_path, *args)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.strip().splitlines()[-1] == (
            "minesweep: %s goes with --calls FILE, which writes the first click's calls"
            % option)


def test_the_worksheet_never_replaces_a_file_of_the_lesson_the_checker_or_the_docs(tmp_path):
    # Every file that comes with the game is refused, in every folder of
    # it (the checker, the lesson's steps, their Chinese copies, the tools,
    # the docs, the tests) and beside it (the READMEs, requirements.txt);
    # a worksheet of the user's own beside the game is written, and again.
    game = tmp_path / "game"
    shutil.copytree(ROOT, str(game), ignore=shutil.ignore_patterns(".git", "__pycache__"))
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               MINESWEEP_DATA_DIR=str(tmp_path / "data"))
    for target in ("chapter/check.py", "chapter/check_texts.json", "chapter/step08_recursion.py",
                   "chapter/zh/step08_recursion.py", "chapter/images/minesweep_flag.png",
                   "tools/kit/kit.json", "docs/teacher.md", "tests/conftest.py",
                   "README.zh.md", "requirements.txt", ".ci/run"):
        before = (game / target).read_bytes()
        done = subprocess.run([sys.executable, str(game / "minesweep.py"), "--calls",
                               target], cwd=str(game), env=env, capture_output=True,
                              text=True, timeout=HANG)
        refused_with_one_line(done, "the game's own")
        assert (game / target).read_bytes() == before, target
    for _ in range(2):
        done = subprocess.run([sys.executable, str(game / "minesweep.py"), "--calls",
                               "calls.csv"], cwd=str(game), env=env, capture_output=True,
                              text=True, timeout=HANG)
        assert done.returncode == 0, done.stdout + done.stderr
        assert (game / "calls.csv").stat().st_size > 0


def test_the_worksheet_never_replaces_the_games_own_files(tmp_path):
    # A copy of the game, so that its files can be aimed at safely.
    game = tmp_path / "game"
    game.mkdir()
    for name in os.listdir(ROOT):
        if name.endswith(".py"):
            shutil.copy(os.path.join(ROOT, name), game)
    for sub in ("images", "sounds", "texts", "fonts"):
        shutil.copytree(os.path.join(ROOT, sub), game / sub)
    for target in ("texts/zh.json", "images/face_win.png", "solver.py", "minesweep.py"):
        before = (game / target).read_bytes()
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                   MINESWEEP_DATA_DIR=str(tmp_path / "data"))
        done = subprocess.run([sys.executable, str(game / "minesweep.py"), "--calls",
                               target], cwd=str(game), env=env, capture_output=True,
                              text=True, timeout=HANG)
        refused_with_one_line(done, "the game's own")
        assert (game / target).read_bytes() == before, target
