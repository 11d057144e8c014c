"""Nothing lost, nothing false, nothing outside the data folder touched,
nothing hanging: the game's files under faults, racing processes, links,
pipes, odd locks and a full disk; odd paths, odd timing; missing and
broken pictures, sounds, texts and font; signals; kept games."""
import ast
import glob
import json
import math
import multiprocessing
import os
import pathlib
import random
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time

import pygame
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import datafiles
from conftest import board, footer, in_state, lock_naps, open_every_safe_tile, tile_centre
from loadgame import ROOT, SCRIPT, load_game
from test_classic import best_file, kept_times, win_beginner
from test_mainloop import click, run_loop
from test_share import a_game_in_progress

LEVELS = ["Beginner", "Intermediate", "Expert", "Chapter"]


def backups(folder):
    """The contents of every set-aside copy in the folder."""
    return [(folder / name).read_bytes() for name in sorted(os.listdir(folder))
            if name.endswith(".bak")]


# 1. Deeply nested JSON ---------------------------------------------------------
def test_deeply_nested_json_is_set_aside_not_a_crash(game, tmp_path, capsys):
    content = b"[" * 2000 + b"]" * 2000
    best_file(tmp_path).parent.mkdir()
    best_file(tmp_path).write_bytes(content)
    win_beginner(game, 30.0)
    assert game.play.record == "new"
    assert backups(tmp_path / "data") == [content]
    assert kept_times(best_file(tmp_path)) == {"Beginner": 30.0}
    assert capsys.readouterr().out.count("could not be read") == 1


# 2. Racing processes -------------------------------------------------------------
def race(game, barrier, jobs, results):
    """In a child process: wait for the others, then save each (level, time)."""
    barrier.wait()
    for level, seconds in jobs:
        results.put((level, seconds, datafiles.record_best_time(
            game.data_folder(), level, seconds, game.say_once)))


def run_racers(game, jobs_per_process):
    """Start one process per list of jobs at the same moment; wait for all."""
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(len(jobs_per_process))
    results = context.Queue()
    racers = [context.Process(target=race, args=(game, barrier, jobs, results))
              for jobs in jobs_per_process]
    for racer in racers:
        racer.start()
    got = [results.get(timeout=60) for jobs in jobs_per_process for job in jobs]
    for racer in racers:
        racer.join(timeout=60)
        assert racer.exitcode == 0
    return got


@pytest.mark.skipif(sys.platform == "win32", reason="uses fork")
def test_two_games_winning_at_once_lose_nothing(game, tmp_path):
    # A save that reads, sets aside or writes outside the lock fails in
    # nearly every trial here (196 and 199 of 200 did): 50 trials are plenty.
    folder = tmp_path / "data"
    for trial in range(50):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        original = b"corrupt %d \x00\xff" % trial
        best_file(tmp_path).write_bytes(original)
        levels = random.Random(trial).sample(LEVELS, 2)
        run_racers(game, [[(levels[0], 10.0 + trial)], [(levels[1], 20.0 + trial)]])
        assert kept_times(best_file(tmp_path)) == {
            levels[0]: 10.0 + trial, levels[1]: 20.0 + trial}, trial
        assert backups(folder) == [original], trial
        assert sorted(os.listdir(folder)) == ["best_times.json", "best_times.json.bak"]


@pytest.mark.skipif(sys.platform == "win32", reason="uses fork")
def test_two_games_saving_200_records_each_keep_the_best(game, tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    original = b'{"Beginner": "corrupt"}'
    best_file(tmp_path).write_bytes(original)
    jobs = [[(random.Random(p * 1000 + i).choice(LEVELS),
              round(random.Random(p * 1000 + i).uniform(1, 999), 3))
             for i in range(200)] for p in range(2)]
    results = run_racers(game, jobs)
    best = {}
    for level, seconds in jobs[0] + jobs[1]:
        best[level] = min(best.get(level, math.inf), seconds)
    assert kept_times(best_file(tmp_path)) == best
    assert backups(folder) == [original]
    assert all(outcome in ("new", "slower") for level, seconds, outcome in results)


def test_a_set_aside_never_replaces_an_earlier_one(game, tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    for number in range(3):
        best_file(tmp_path).write_bytes(b"bad %d" % number)
        win_beginner(game, 30.0 - number)
    assert sorted(backups(folder)) == [b"bad 0", b"bad 1", b"bad 2"]


def test_a_stale_lock_does_not_block_a_save(game, tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    lock = folder / "minesweep.lock"
    lock.write_text("12345")
    old = os.path.getmtime(lock) - 3600
    os.utime(lock, (old, old))                  # left by a game that crashed
    win_beginner(game, 30.0)
    assert game.play.record == "new" and not lock.exists()


# 3. No false "New best time" ----------------------------------------------------
def test_a_failed_save_says_so_not_new_best(game, tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a folder")
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(blocker / "sub"))
    win_beginner(game, 30.0)
    assert game.play.record != "new"
    assert "Best time not saved (see the console)" in game.now_showing().end_lines()
    assert not any("New best" in line for line in game.now_showing().end_lines())
    win_beginner(game, 20.0)
    assert game.play.record == "unsaved"
    assert "Best time not saved (see the console)" in game.now_showing().end_lines()
    assert capsys.readouterr().out.count("cannot save best times") == 1


def refuse_moving_aside(monkeypatch, game):
    """The game's renames to a .bak file fail, as in a read-only folder."""
    real_replace = os.replace

    def refuse_bak(src, dst):
        if str(dst).endswith(".bak"):
            raise PermissionError("read-only folder")
        return real_replace(src, dst)

    monkeypatch.setattr(game.os, "replace", refuse_bak)


def test_cannot_move_aside_is_said_once(game, tmp_path, monkeypatch, capsys):
    folder = tmp_path / "data"
    folder.mkdir()
    best_file(tmp_path).write_bytes(b"corrupt")
    refuse_moving_aside(monkeypatch, game)
    win_beginner(game, 30.0)
    win_beginner(game, 20.0)
    assert game.play.record != "new"
    assert best_file(tmp_path).read_bytes() == b"corrupt"
    assert capsys.readouterr().out.count("cannot move it aside") == 1


# 4. Odd paths ------------------------------------------------------------------
def test_odd_paths(game, monkeypatch, tmp_path):
    monkeypatch.delenv("MINESWEEP_DATA_DIR")
    monkeypatch.setattr(game.sys, "platform", "linux")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", "relative/xdg")        # the spec: ignore it
    assert game.data_folder() == str(tmp_path / "home" / ".local" / "share" / "minesweep")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert game.data_folder() == str(tmp_path / "xdg" / "minesweep")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", "")
    home = game.data_folder()
    assert home is None or (os.path.isabs(home) and home != "/.local/share/minesweep")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MINESWEEP_DATA_DIR", "~/data")
    assert game.data_folder() == str(tmp_path / "home" / "data")
    monkeypatch.setenv("MINESWEEP_DATA_DIR", "saves")          # beside the game
    assert game.data_folder() == os.path.join(ROOT, "saves")


def test_no_home_at_all_means_no_saving_not_a_crash(game, monkeypatch, capsys):
    monkeypatch.delenv("MINESWEEP_DATA_DIR")
    monkeypatch.setattr(datafiles, "home_folder", lambda environ: None)
    monkeypatch.setattr(game.sys, "platform", "linux")
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert game.data_folder() is None
    win_beginner(game, 30.0)
    assert game.play.record != "new"
    assert "cannot save best times" in capsys.readouterr().out


# 5. Leftovers, symlinks, modes, Infinity ------------------------------------------
def test_leftover_temporary_files_are_cleaned_up(game, tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "tmpab12cd34.tmp").write_text('{"Begi')        # an old version's killed save
    os.utime(folder / "tmpab12cd34.tmp", (time.time() - 2 * 24 * 3600,) * 2)   # days ago
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    (folder / ("best_times.json.%d.tmp" % ended.pid)).write_text("{")    # its game ended
    (folder / "notes.txt").write_text("not ours")
    win_beginner(game, 30.0)
    assert sorted(os.listdir(folder)) == ["best_times.json", "notes.txt"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_the_file_keeps_a_normal_mode(game, tmp_path):
    old_mask = os.umask(0o022)
    try:
        win_beginner(game, 30.0)
        assert stat.S_IMODE(os.stat(best_file(tmp_path)).st_mode) == 0o644
        os.chmod(best_file(tmp_path), 0o664)
        win_beginner(game, 20.0)
        assert stat.S_IMODE(os.stat(best_file(tmp_path)).st_mode) == 0o664
    finally:
        os.umask(old_mask)


@pytest.mark.parametrize("content", [b'{"Beginner": Infinity}', b'{"Beginner": NaN}',
                                     b'{"Beginner": -5}', b'{"Beginner": -0.5}',
                                     b'{"Beginner": {"time": 5}}', b'{"Beginner": true}',
                                     b'{"Beginner": {"time": 5, "date": 20261130}}',
                                     b'{"Beginner": {"time": -1, "date": "2026-11-30"}}',
                                     b'{"Beginner": {"time": 5, "date": "x", "by": "me"}}'])
def test_only_times_the_game_could_write_are_accepted(game, tmp_path, content):
    best_file(tmp_path).parent.mkdir()
    best_file(tmp_path).write_bytes(content)
    win_beginner(game, 30.0)
    assert backups(tmp_path / "data") == [content]
    text = best_file(tmp_path).read_text()
    assert kept_times(best_file(tmp_path)) == {"Beginner": 30.0}
    assert "Infinity" not in text


def test_a_win_in_no_time_is_kept_and_read_back(game, tmp_path, capsys):
    # A first click can win at once, before the clock has ticked: 0 s.
    for _ in range(2):
        game.new_game(9, 9, 10)
        game.lay_bombs([(0, c) for c in range(9)] + [(8, 0)])
        game.grid_action(game.block_at(5, 5), game.click_open)
        assert game.finished and game.play.timer == 0
    assert kept_times(best_file(tmp_path)) == {"Beginner": 0.0}
    assert backups(tmp_path / "data") == []
    assert "could not be read" not in capsys.readouterr().out


# 6. A large file ---------------------------------------------------------------
def test_a_huge_file_is_set_aside_without_reading_it(game, tmp_path, monkeypatch):
    content = b'{"Beginner": 10.0}' + b" " * (datafiles.DATA_LIMIT + 1)
    best_file(tmp_path).parent.mkdir()
    best_file(tmp_path).write_bytes(content)
    reads = []
    real_load = datafiles.json.loads
    monkeypatch.setattr(datafiles.json, "loads", lambda text: reads.append(len(text))
                        or real_load(text))
    win_beginner(game, 30.0)
    assert all(size <= datafiles.DATA_LIMIT for size in reads)
    assert backups(tmp_path / "data") == [content]
    assert kept_times(best_file(tmp_path)) == {"Beginner": 30.0}


# Arbitrary files --------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8),
                                                                inner, max_size=4),
    max_leaves=12)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.one_of(st.binary(max_size=200),
                         json_values.map(lambda v: json.dumps(v).encode()),
                         st.dictionaries(st.sampled_from(LEVELS), st.floats(),
                                         max_size=4).map(
                             lambda v: json.dumps(v).encode())))
def test_load_best_times_takes_any_file(game, tmp_path_factory, monkeypatch, content):
    folder = tmp_path_factory.mktemp("any")
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(folder))
    path = folder / "best_times.json"
    path.write_bytes(content)
    times = datafiles.load_best_times(game.data_folder(), game.say_once)
    assert isinstance(times, dict)
    for level, seconds in times.items():
        assert isinstance(level, str) and isinstance(seconds, (int, float))
        assert not isinstance(seconds, bool) and math.isfinite(seconds) and seconds >= 0
    if path.exists():
        assert path.read_bytes() == content     # kept as it was: it was good
    else:
        assert backups(folder) == [content] and times == {}


# 7. Two clicks in one frame ------------------------------------------------------
def test_a_bomb_clicked_after_the_winning_click_in_one_frame(game):
    game.new_game(3, 3, 1)
    game.lay_bombs([(0, 0)])
    pygame.event.clear()
    click(tile_centre(game, 2, 2), 1)           # opens every safe tile: a win
    click(tile_centre(game, 0, 0), 1)           # the bomb, in the same frame
    assert run_loop(game, frames=1) == 1
    assert game.finished and not game.failed


def test_a_win_is_decided_at_the_move(game):
    game.new_game(3, 3, 1)
    game.lay_bombs([(0, 0)])
    game.on_mouse_down(tile_centre(game, 2, 2), game.mouse.LEFT)
    assert game.finished                        # before any update()
    game.on_mouse_down(tile_centre(game, 0, 0), game.mouse.LEFT)
    assert not game.failed


# 8. Missing pictures and sounds ----------------------------------------------------
def copy_game(tmp_path):
    """The game and its pictures and sounds, copied to a new folder."""
    folder = tmp_path / "game"
    folder.mkdir()
    for name in glob.glob(os.path.join(ROOT, "*.py")):     # the game and its modules
        shutil.copy(name, folder)
    for sub in ("images", "sounds", "texts", "fonts"):
        shutil.copytree(os.path.join(ROOT, sub), folder / sub)
    return folder


def run_copy(folder, tmp_path, *args):
    """Run the copied game headless with python, from another folder."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               MINESWEEP_DATA_DIR=str(tmp_path / "data"))
    return subprocess.run([sys.executable, str(folder / "minesweep.py"), *args],
                          cwd=str(tmp_path), env=env, capture_output=True,
                          text=True, timeout=60)


def test_a_missing_picture_is_named_at_start(tmp_path):
    folder = copy_game(tmp_path)
    os.remove(folder / "images" / "face_win.png")
    done = run_copy(folder, tmp_path, "--check")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    message = done.stdout + done.stderr
    assert "face_win.png" in message and str(folder / "images") in message
    assert "python tools/make_assets.py" in message


def test_a_missing_sound_is_not_fatal(tmp_path):
    folder = copy_game(tmp_path)
    os.remove(folder / "sounds" / "win.wav")
    done = run_copy(folder, tmp_path, "--check")
    assert done.returncode == 0, done.stderr
    assert "win.wav" in done.stdout and "Traceback" not in done.stderr


def test_a_missing_sound_does_not_stop_a_win(game, monkeypatch):
    def missing(name):
        raise KeyError("No sound found like 'win'")
    monkeypatch.setattr(type(game.sounds), "__getattr__", lambda self, name: missing(name))
    game.new_game(1, 2, 1)
    game.lay_bombs([(0, 0)])
    game.on_mouse_down(tile_centre(game, 0, 1), game.mouse.LEFT)
    assert game.finished


def test_a_missing_solver_is_named_at_start(tmp_path):
    folder = copy_game(tmp_path)
    os.remove(folder / "solver.py")
    done = run_copy(folder, tmp_path, "--check")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "No module named 'solver'" in done.stderr
    assert "belongs in the same folder as minesweep.py" in done.stderr


# For the files around the data folder and for real processes -------------------
TESTS = os.path.dirname(os.path.abspath(__file__))
PLAYROUND = os.path.join(TESTS, "playround.py")
SAVEROUND = os.path.join(TESTS, "saveround.py")
NAMES = ["best_times.json", "settings.json", "saved_game.json"]
LIMIT = datafiles.LOCK_WAIT + 1.0   # longest a step may take (room for a busy machine), s
HANG = 60                   # the test's own wait for a process that may hang, s
OTHER = 65534               # another user ("nobody"), for the shared-folder tests
ROOTED = hasattr(os, "geteuid") and os.geteuid() == 0
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="POSIX links, pipes and modes")


def snapshot(folder):
    """Everything under a folder, links not followed: {path: what it is and holds}."""
    seen = {}
    for where, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(where, name)
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                seen[path] = ("link", os.readlink(path))
            elif stat.S_ISREG(info.st_mode):
                with open(path, "rb") as f:
                    seen[path] = ("file", f.read(), info.st_mode, info.st_mtime_ns)
            else:
                seen[path] = (stat.S_IFMT(info.st_mode), info.st_mode, info.st_rdev)
    return seen


def outside_world(tmp_path):
    """A folder beside the data folder: homework, and others' files named like the game's."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "homework.txt").write_text("my homework\n")
    (outside / "tmpkde1234.tmp").write_text("another program's")
    (outside / "tmpab12cd34.tmp").write_text("named like an old version's")
    (outside / "best_times.json.77.tmp").write_text("named like the game's own")
    return outside


def run_child(args, env=None, user=None, cwd=None):
    """Run a process; one still running after HANG seconds has hung, and fails the test."""
    try:
        return subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True,
                              timeout=HANG, **({"user": user, "group": user}
                                               if user is not None else {}))
    except subprocess.TimeoutExpired:
        pytest.fail("hung: %s was still running after %d s" % (" ".join(args), HANG))


def game_env(tmp_path, **more):
    """The environment of a headless game whose files go to tmp_path/data."""
    return dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                MINESWEEP_DATA_DIR=str(tmp_path / "data"), **more)


def last_json(out):
    """The JSON a round printed last."""
    return json.loads(out.strip().splitlines()[-1])


def play_round(tmp_path):
    """playround.py in a process of its own: (its steps, what it printed)."""
    done = run_child([sys.executable, PLAYROUND], env=game_env(tmp_path), cwd=str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    return last_json(done.stdout)["steps"], done.stdout


def save_round(folder, user=None, python=sys.executable, limit=None):
    """saveround.py in a process of its own, as user: (steps, what it said, descriptors)."""
    args = [python, SAVEROUND, str(folder)] + ([] if limit is None else [str(limit)])
    done = run_child(args, user=user, cwd=os.path.dirname(str(folder)))
    assert done.returncode == 0, done.stdout + done.stderr
    found = last_json(done.stdout)
    return found["steps"], done.stdout, found["fds"]


def in_time(steps):
    """True if every step ended within the lock's wait (and a little room)."""
    return all(seconds < LIMIT for value, seconds in steps.values())


def other_python():
    """A Python that OTHER can run (this one may be in root's home), or None."""
    if not ROOTED:
        return None
    for python in (sys.executable, "/usr/bin/python3", "/usr/local/bin/python3"):
        try:
            if subprocess.run([python, "-c", "import json"], user=OTHER, group=OTHER,
                              capture_output=True, timeout=30).returncode == 0:
                return python
        except (OSError, subprocess.SubprocessError):
            continue
    return None


@pytest.fixture
def shared():
    """A folder every user can reach (pytest's own are root's alone), removed after."""
    folder = tempfile.mkdtemp(prefix="minesweep-shared-")
    os.chmod(folder, 0o755)
    yield pathlib.Path(folder)
    for where, dirs, files in os.walk(folder):
        for name in dirs:
            os.chmod(os.path.join(where, name), 0o755)
    shutil.rmtree(folder, ignore_errors=True)


def needs_other_user():
    """OTHER's Python, or skip: only root can run a process as another user."""
    python = other_python()
    if python is None:
        pytest.skip("needs root, to run the game's files as another user")
    return python


# Links in the data folder: set aside or left alone, never followed ---------------
def link_target(outside, kind):
    """Something outside the data folder for a link to point at."""
    if kind == "a file":
        return outside / "homework.txt"
    if kind == "a missing file":
        return outside / "nothing_here.json"
    if kind == "a named pipe":
        os.mkfifo(outside / "pipe")
        return outside / "pipe"
    if kind == "a device":
        try:
            os.mknod(outside / "device", stat.S_IFCHR | 0o666, os.makedev(1, 3))
        except (OSError, AttributeError):
            pytest.skip("cannot make a device node here")
        return outside / "device"
    return outside                      # a folder


@POSIX
@pytest.mark.parametrize("kind", ["a file", "a missing file", "a named pipe", "a device",
                                  "a folder"])
def test_a_link_in_the_data_folder_is_set_aside_never_followed(tmp_path, kind):
    outside = outside_world(tmp_path)
    target = link_target(outside, kind)
    folder = tmp_path / "data"
    folder.mkdir()
    for name in NAMES:
        (folder / name).symlink_to(target)
    before = snapshot(outside)
    steps, said = play_round(tmp_path)          # start, a win, B, L, a game kept
    assert snapshot(outside) == before
    assert in_time(steps), steps
    assert steps["win"][0] == "new" and steps["B"][0][0] == "TIMES"
    for name in NAMES:                          # moved aside, still the same link
        assert os.readlink(folder / (name + ".bak")) == str(target)
        assert stat.S_ISREG(os.lstat(folder / name).st_mode)
    assert said.count("it is a symbolic link, not a file") == 3


@POSIX
def test_leftovers_are_only_the_games_own_regular_files(game, tmp_path, capsys):
    outside = outside_world(tmp_path)
    before = snapshot(outside)
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "tmpkde1234.tmp").write_text("another program's, not the game's")
    (folder / "settings.json.4242.2.tmp").write_text("{")     # the game's own
    (folder / "saved_game.json.77.tmp").symlink_to(outside / "best_times.json.77.tmp")
    win_beginner(game, 30.0)
    assert sorted(os.listdir(folder)) == ["best_times.json", "saved_game.json.77.tmp",
                                          "tmpkde1234.tmp"]
    assert snapshot(outside) == before
    assert capsys.readouterr().out.count("is left alone") == 1


@POSIX
def test_a_link_planted_in_a_shared_class_folder_touches_no_pupils_file(shared):
    python = needs_other_user()
    pupil = shared / "pupil"                    # another pupil's own folder and file
    pupil.mkdir()
    homework = pupil / "homework.txt"
    homework.write_text("my homework\n")
    for path in (pupil, homework):
        os.chown(path, OTHER, OTHER)
    room = shared / "class"                     # the class's folder: everyone writes
    room.mkdir()
    os.chmod(room, 0o1777)
    for name in NAMES:                          # planted by someone else (root here)
        (room / name).symlink_to(homework)
    before = snapshot(pupil)
    steps, said, fds = save_round(room, user=OTHER, python=python)
    assert snapshot(pupil) == before
    assert in_time(steps), steps
    assert steps["win"][0] == "unsaved" and steps["B"][0] is None
    assert steps["kept"][0] is None and "cannot keep this game" in said
    assert all(os.path.islink(room / name) for name in NAMES)


# The lock: every way through it ends in time ---------------------------------------
def make_odd_lock(lock, kind):
    """A lock that is not a file the game made."""
    if kind in ("a folder", "an old folder"):
        lock.mkdir()
        if kind == "an old folder":
            os.utime(lock, (time.time() - 3600,) * 2)
    elif kind == "a dangling link":
        lock.symlink_to(lock.parent / "gone" / "nowhere")
    else:
        (lock.parent.parent / "elsewhere.txt").write_text("not a lock")
        lock.symlink_to(lock.parent.parent / "elsewhere.txt")


@POSIX
@pytest.mark.parametrize("kind", ["a folder", "an old folder", "a dangling link",
                                  "a link to a file"])
def test_a_lock_that_is_not_a_file_ends_in_time_with_not_saved(tmp_path, kind):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "settings.json").write_text('{"language": "en"}')
    lock = folder / "minesweep.lock"
    make_odd_lock(lock, kind)
    around = snapshot(tmp_path)
    steps, said, fds = save_round(folder)
    assert in_time(steps), steps
    assert steps["win"][0] == "unsaved" and steps["B"][0] == {}
    assert "not a lock the game made" in said
    assert snapshot(tmp_path) == around         # the lock, and all else, as it was
    # The game's own start (it reads the settings under the lock) ends in time too.
    begun = time.monotonic()
    done = run_child([sys.executable, SCRIPT, "--check"], env=game_env(tmp_path),
                     cwd=str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert time.monotonic() - begun < LIMIT + 15     # python and pygame start too


def stale(lock):
    """Make the lock a crashed game's: made an hour ago."""
    lock.write_text("12345 elsewhere")
    os.utime(lock, (time.time() - 3600,) * 2)


@POSIX
def test_a_stale_lock_in_a_read_only_folder_ends_in_time(tmp_path, shared):
    python, user = (needs_other_user(), OTHER) if ROOTED else (sys.executable, None)
    folder = (shared if ROOTED else tmp_path) / "data"
    folder.mkdir()
    best_file(folder.parent).write_text('{"Expert": {"time": 99.5, "date": "2026-11-30"}}')
    stale(folder / "minesweep.lock")
    os.chmod(folder, 0o555)                     # as root: read-only for OTHER only
    try:
        steps, said, fds = save_round(folder, user=user, python=python)
    finally:
        os.chmod(folder, 0o755)
    assert in_time(steps), steps
    assert steps["win"][0] == "unsaved"
    # Reading needs no lock: a save replaces a file whole.
    assert steps["B"][0] == {"Expert": {"time": 99.5, "date": "2026-11-30"}}
    assert "minesweep.lock" in said and (folder / "minesweep.lock").exists()


@POSIX
def test_another_users_stale_lock_in_a_sticky_folder_ends_in_time(shared):
    python = needs_other_user()
    room = shared / "class"
    room.mkdir()
    os.chmod(room, 0o1777)
    stale(room / "minesweep.lock")              # root's: OTHER may not remove it
    steps, said, fds = save_round(room, user=OTHER, python=python)
    assert in_time(steps), steps
    assert steps["win"][0] == "unsaved" and "cannot remove" in said


def planted_lock(folder, text, age):
    """A lock with this text, changed age seconds ago (negative: in the future)."""
    folder.mkdir(exist_ok=True)
    lock = folder / "minesweep.lock"
    lock.write_text(text)
    os.utime(lock, (time.time() - age,) * 2)


def test_a_lock_from_the_future_is_stale(game, tmp_path, monkeypatch):
    # A crashed game's lock on a share whose clock runs ahead, or on a
    # computer whose clock was set back: an hour in the future.
    folder = tmp_path / "data"
    a_game_in_progress(game)
    game.save_on_exit()
    planted_lock(folder, "12345 elsewhere", -3600)
    again = load_game()
    assert again.showing.offered is not None
    planted_lock(folder, "12345 elsewhere", -3600)
    assert lock_naps(monkeypatch, lambda: win_beginner(again, 30.0)) == 0
    assert again.play.record == "new"
    planted_lock(folder, "12345 elsewhere", -3600)
    again.on_key_down(again.keys.B)
    assert in_state(again, "TIMES") and "Beginner" in again.showing.times
    # Stale at the first look, not after LOCK_STALE s unchanged: the reason
    # is there before the game has watched the lock for any time at all.
    assert datafiles.stale_why(-3600, 0.0, "12345 elsewhere", socket.gethostname())


def test_a_lock_whose_game_has_ended_is_stale_at_once(game, tmp_path, monkeypatch):
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    text = "%d %s" % (ended.pid, socket.gethostname())
    planted_lock(tmp_path / "data", text, 0)
    assert lock_naps(monkeypatch, lambda: win_beginner(game, 30.0)) == 0
    assert game.play.record == "new"
    # Not the 2 s of an old lock: stale when just made and never yet watched.
    assert datafiles.stale_why(0.0, 0.0, text, socket.gethostname())


def test_b_says_when_the_times_cannot_be_read(shown, tmp_path, monkeypatch):
    best_file(tmp_path).parent.mkdir()
    best_file(tmp_path).write_bytes(b"corrupt")
    refuse_moving_aside(monkeypatch, shown)
    shown.on_key_down(shown.keys.B)
    assert in_state(shown, "PLAY")
    assert "The best times could not be read (see the console)" in footer(shown)
    shown.draw()


# A stop signal during start-up -----------------------------------------------------
def hold_lock(lock, stop):
    """Hold the lock as a game saving now would, kept fresh, until stop is set."""
    lock.write_text("%d %s" % (os.getpid(), socket.gethostname()))
    while not stop.wait(0.2):
        os.utime(lock)
    lock.unlink()


def sleeping(pid):
    """True while the process sleeps in time.sleep (Linux's wait channel)."""
    try:
        with open("/proc/%d/wchan" % pid) as f:
            return "nanosleep" in f.read()
    except OSError:
        return False


@pytest.mark.skipif(not os.path.exists("/proc/self/wchan"), reason="needs Linux's /proc")
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_stop_signal_during_start_up_ends_the_game_at_once(tmp_path, name):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "settings.json").write_text('{"language": "en"}')
    stop = threading.Event()
    holder = threading.Thread(target=hold_lock, args=(folder / "minesweep.lock", stop))
    holder.start()
    game = subprocess.Popen([sys.executable, SCRIPT], cwd=str(tmp_path),
                            env=game_env(tmp_path), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + HANG
        # Start-up waits for the lock, napping between looks.
        while not sleeping(game.pid):
            assert game.poll() is None and time.monotonic() < deadline
            time.sleep(0.005)
        sent = time.monotonic()
        game.send_signal(getattr(signal, name))
        out, err = game.communicate(timeout=HANG)
        # Well before the lock's wait would have ended (it is held all along).
        assert time.monotonic() - sent < datafiles.LOCK_WAIT * 2 / 3
        assert game.returncode == 0 and "Traceback" not in err, err
    finally:
        stop.set()
        holder.join()
        if game.poll() is None:
            game.kill()
            game.communicate()


# Named pipes where the files should be ---------------------------------------------
@POSIX
def test_a_named_pipe_for_a_file_is_set_aside_without_waiting(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    for name in NAMES:
        os.mkfifo(folder / name)
    steps, said = play_round(tmp_path)
    assert in_time(steps), steps
    assert steps["win"][0] == "new" and steps["B"][0][0] == "TIMES"
    for name in NAMES:
        assert stat.S_ISFIFO(os.lstat(folder / (name + ".bak")).st_mode)
        assert stat.S_ISREG(os.lstat(folder / name).st_mode)
    assert said.count("it is a named pipe, not a file") == 3


# A full disk -------------------------------------------------------------------------
@POSIX
@pytest.mark.parametrize("limit", [0, 300])
def test_a_full_disk_leaves_no_lock_and_no_open_file(tmp_path, limit):
    # Past RLIMIT_FSIZE a write fails as on a full disk: at once (0), or
    # after the lock is made, when the file is written (300 bytes).
    folder = tmp_path / "data"
    folder.mkdir()
    times = {"Level %d" % n: {"time": 100.0 + n, "date": "2026-11-30"} for n in range(40)}
    best_file(tmp_path).write_text(json.dumps(times))
    old = best_file(tmp_path).read_bytes()
    steps, said, fds = save_round(folder, limit=limit)
    assert steps["win"][0] == steps["win again"][0] == "unsaved"
    # No lock is left behind to make the next save wait for it to grow old,
    # no half-written file, and no descriptor open.
    assert all(seconds < 1.0 for value, seconds in steps.values()), steps
    assert best_file(tmp_path).read_bytes() == old
    assert set(os.listdir(folder)) <= {"best_times.json", "settings.json", "saved_game.json"}
    assert fds[0] is None or fds[0] == fds[1]


def mounted_tmpfs(where):
    """Mount a small tmpfs at where (root only); False if it cannot be had."""
    where.mkdir()
    try:
        return subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)],
                              capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@POSIX
def test_a_full_tmpfs_leaves_no_lock_behind(tmp_path):
    disk = tmp_path / "disk"
    if not (ROOTED and mounted_tmpfs(disk)):
        pytest.skip("needs root and a tmpfs it may mount")
    try:
        folder = disk / "data"
        folder.mkdir()
        best_file(disk).write_text('{"Expert": {"time": 99.5, "date": "2026-11-30"}}')
        with open(disk / "filler", "wb", buffering=0) as f:   # fill it to the last byte
            try:
                while True:
                    f.write(b"\0" * 4096)
            except OSError:
                pass
        before = snapshot(folder)
        steps, said, fds = save_round(folder)
        assert steps["win"][0] == "unsaved" and "No space left" in said
        assert all(seconds < 1.0 for value, seconds in steps.values()), steps
        assert snapshot(folder) == before
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True, timeout=30)


# Broken pictures, sounds, texts and font ---------------------------------------------
@pytest.mark.parametrize("name", ["minesweep_bomb_red.png", "face_win.png",
                                  "minesweep_number3_16.png"])
def test_a_broken_picture_is_named_at_start_never_met_mid_game(tmp_path, name):
    folder = copy_game(tmp_path)
    (folder / "images" / name).write_text("a text file, named like a picture")
    for args in (["--check"], []):              # --check, and a plain start
        done = run_copy(folder, tmp_path, *args)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert "%s cannot be read" % (folder / "images" / name) in done.stderr
        assert "python tools/make_assets.py" in done.stderr


def test_a_broken_sound_is_named_by_the_check_and_the_game_plays_on(tmp_path, monkeypatch,
                                                                    capsys):
    folder = copy_game(tmp_path)
    (folder / "sounds" / "win.wav").write_text("a text file, named like a sound")
    done = run_copy(folder, tmp_path, "--check")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert str(folder / "sounds" / "win.wav") in done.stdout
    game = load_game(script=str(folder / "minesweep.py"))
    game.new_game(1, 2, 1)
    game.lay_bombs([(0, 0)])
    game.grid_action(game.block_at(0, 1), game.click_open)
    assert game.finished
    assert [line for line in capsys.readouterr().out.splitlines() if "win.wav" in line] \
        == ["minesweep: %s cannot be played ('%s' is not in a supported audio format.): the "
            "game plays without it (python tools/make_assets.py makes it again)"
            % ((folder / "sounds" / "win.wav",) * 2)]


def chinese_everywhere(monkeypatch):
    """A computer set to Chinese, as the classroom's are (LANG=zh_CN.UTF-8)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "MINESWEEP_LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")


@pytest.mark.parametrize("damage", ["cut short", "not a font", "empty"])
def test_a_broken_font_leaves_english_and_fails_the_check(tmp_path, monkeypatch, capsys,
                                                          damage):
    folder = copy_game(tmp_path)
    font = folder / "fonts" / "minesweep_zh.ttf"
    font.write_bytes({"cut short": font.read_bytes()[:10000], "not a font": b"x" * 5000,
                      "empty": b""}[damage])
    chinese_everywhere(monkeypatch)
    done = run_copy(folder, tmp_path, "--check")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "%s cannot be used" % font in done.stdout
    game = load_game(script=str(folder / "minesweep.py"))
    assert game.settings.language == "en"
    game.layout()
    game.on_key_down(game.keys.L)
    assert game.settings.language == "en"
    assert capsys.readouterr().out.count("minesweep_zh.ttf cannot be used") == 1


def damaged_texts(damage):
    """texts/zh.json with one kind of damage, as bytes."""
    with open(os.path.join(ROOT, "texts", "zh.json"), encoding="utf-8") as f:
        table = json.load(f)
    title = table["title"]
    if damage == "nested deep":
        return (json.dumps(table)[:-1] + ', "notes": ' + "[" * 100000 + "]" * 100000
                + "}").encode()
    table["title"] = {"a misspelt fact": title.replace("{level}", "{levle}"),
                      "a lone brace": title + "{", "a NUL": title + "\u0000",
                      "half a surrogate pair": title + "\ud800"}[damage]
    return json.dumps(table).encode()


@pytest.mark.parametrize("damage", ["a misspelt fact", "a lone brace", "a NUL",
                                    "half a surrogate pair", "nested deep"])
def test_broken_chinese_texts_leave_english_and_fail_the_check(tmp_path, monkeypatch,
                                                               damage):
    folder = copy_game(tmp_path)
    (folder / "texts" / "zh.json").write_bytes(damaged_texts(damage))
    chinese_everywhere(monkeypatch)
    done = run_copy(folder, tmp_path, "--check")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stdout.count(str(folder / "texts" / "zh.json")) == 1
    assert "the game speaks English" in done.stdout
    # A whole game, L and drawing, in a process of its own: a deep file once
    # crashed Python itself there, on a big board, whose flood goes deep.
    side = 200 if damage == "nested deep" else 15
    code = ("import sys; sys.path.insert(0, %r)\n"
            "from loadgame import load_game, with_screen\n"
            "game = load_game(script=%r)\n"
            "with_screen(game)\n"
            "game.new_game(%d, %d, %d)\n"
            "game.grid_action(game.block_at(%d, %d), game.click_open)\n"
            "for key in (game.keys.L, game.keys.B, game.keys.L):\n"
            "    game.on_key_down(key); game.layout(); game.draw()\n"
            "print(game.settings.language, game.speak(game.showing.message))\n"
            % (TESTS, str(folder / "minesweep.py"), side, side, side * side // 10,
               side // 2, side // 2))
    done = run_child([sys.executable, "-c", code], env=game_env(tmp_path), cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("the game speaks English") == 1
    # L passed over the broken Simplified texts to the Traditional ones, and said so.
    assert done.stdout.strip().splitlines()[-1].startswith(
        "zh-TW The texts of a language could not")


# Dates in the best times ---------------------------------------------------------------
@pytest.mark.parametrize("date", ["\u0000", "\ud800", "2026-02-30", "2026-1-05",
                                  "\u0662\u0660\u0662\u0666-01-05", "0000-01-01",
                                  "2026-12-01\n", "2026-13-01"])
def test_only_a_real_date_as_the_game_writes_it_is_accepted(shown, tmp_path, date):
    content = json.dumps({"Beginner": {"time": 5.0, "date": date}}).encode()
    best_file(tmp_path).parent.mkdir()
    best_file(tmp_path).write_bytes(content)
    shown.on_key_down(shown.keys.B)
    shown.draw()                                # B draws whatever the file held
    assert in_state(shown, "TIMES") and shown.showing.times == {}
    assert backups(tmp_path / "data") == [content]


# Kept games that are already over, or that play could not have reached ---------------
def kept_3x3(**change):
    """A kept game of a 3 x 3 board with a bomb in the corner, one tile open."""
    game = {"format": 1, "rows": 3, "cols": 3, "bombs": 1, "board": 5,
            "under": "*........", "marks": ".o.......", "timer": 4.0, "clicks": 1,
            "undos": 0, "assisted": False, "noguess": True, "questions": False,
            "flagwin": False}
    return dict(game, **change)


@pytest.mark.parametrize("change, why", [
    ({"marks": ".oooooooo"}, "already over: every safe tile is open"),
    ({"marks": "F........", "flagwin": True}, "already over: exactly the bombs are flagged"),
    ({"marks": "Fo.......", "flagwin": True}, "already over: exactly the bombs are flagged"),
    ({"marks": "F........"}, "play could not have reached"),
    ({"clicks": 0}, "play could not have reached"),
    ({"undos": 2}, "play could not have reached")])
def test_a_kept_game_already_over_or_never_played_is_set_aside(tmp_path, monkeypatch,
                                                               capsys, change, why):
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path))
    content = json.dumps(kept_3x3(**change)).encode()
    (tmp_path / "saved_game.json").write_bytes(content)
    game = load_game()
    assert game.showing.offered is None and not in_state(game, "OFFER")
    assert (tmp_path / "saved_game.json.bak").read_bytes() == content
    out = capsys.readouterr().out
    assert out.count("could not be read") == 1 and why in out


def test_a_kept_game_in_progress_is_still_offered(tmp_path, monkeypatch):
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path))
    for kept in (kept_3x3(), kept_3x3(marks="Fo.......")):   # the flag win is off
        (tmp_path / "saved_game.json").write_text(json.dumps(kept))
        game = load_game()
        assert game.showing.offered == kept


# A game in progress kept from time to time; the kept file after C ---------------------
def walled(game):
    """A game in progress: a wall of bombs keeps the opening to its right."""
    board(game, 9, 9, [(row, 4) for row in range(9)] + [(0, 0)])
    game.grid_action(game.block_at(8, 8), game.click_open)
    assert game.play.started and not (game.failed or game.finished)
    return tmp_kept(game)


def tmp_kept(game):
    """The path of the kept game of this test's game."""
    return os.path.join(game.data_folder(), "saved_game.json")


class Clock:
    """The game's time module, its monotonic clock moved on by hand."""

    def __init__(self):
        """The clock at some moment."""
        self.now = 1000.0

    def monotonic(self):
        """The clock's time, s."""
        return self.now

    def __getattr__(self, name):
        """The rest of the time module."""
        return getattr(time, name)


def test_a_game_in_progress_is_kept_every_30_s_of_play_at_most_once_a_second(
        game, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(game, "time", clock)
    kept = walled(game)
    # A frame keeps the game as it was before the frame's own time is added.
    game.update(29.0)
    assert not os.path.exists(kept)
    game.update(1.5)                            # 30 s of play: kept
    with open(kept) as f:
        assert json.load(f)["timer"] == 29.0
    game.update(31.0)                           # 30 s more, but within a second
    with open(kept) as f:
        assert json.load(f)["timer"] == 29.0
    clock.now += 0.99
    game.update(0.1)                            # still within the second
    with open(kept) as f:
        assert json.load(f)["timer"] == 29.0
    clock.now += 0.02
    game.update(0.5)
    with open(kept) as f:
        assert json.load(f)["timer"] == 61.6
    game.on_key_down(game.keys.P)               # paused: no play, nothing kept
    clock.now += 1.05
    game.update(100.0)
    with open(kept) as f:
        assert json.load(f)["timer"] == 61.6


def test_after_c_the_kept_file_stays_until_the_game_ends(game, tmp_path):
    a_game_in_progress(game)
    game.save_on_exit()
    saved = (tmp_path / "data" / "saved_game.json").read_bytes()
    again = load_game()
    again.on_key_down(again.keys.C)
    again.update(0.1)
    # A kill -9 or a power cut now still finds the game at the next start.
    assert (tmp_path / "data" / "saved_game.json").read_bytes() == saved
    open_every_safe_tile(again)                 # the game ends: the file goes
    assert again.finished and not os.path.exists(tmp_path / "data" / "saved_game.json")


@pytest.mark.parametrize("how", ["lost", "left"])
def test_a_game_lost_or_left_forgets_the_kept_file(game, how):
    kept = walled(game)
    game.update(30.0)
    assert os.path.exists(kept)
    if how == "lost":
        game.grid_action(game.block_at(0, 4), game.click_open)
        assert game.failed
    else:
        game.on_key_down(game.keys.R)
        game.update(0.1)
    assert not os.path.exists(kept)


def test_a_game_kept_by_another_window_is_not_forgotten(game, tmp_path):
    a_game_in_progress(game)
    game.save_on_exit()
    first = load_game()                         # one window goes on with it
    first.on_key_down(first.keys.C)
    second = load_game()                        # another starts afresh, and closes
    second.on_key_down(second.keys.R)
    walled(second)
    second.save_on_exit()
    theirs = (tmp_path / "data" / "saved_game.json").read_bytes()
    open_every_safe_tile(first)
    assert first.finished
    assert (tmp_path / "data" / "saved_game.json").read_bytes() == theirs


# The tests' own X server ------------------------------------------------------------
def test_every_x_server_of_the_tests_and_tools_never_resets():
    # Xvfb resets when its last client leaves, and the game closes and opens
    # its display once at start: a window opened during a reset can vanish.
    servers = []
    for path in glob.glob(os.path.join(ROOT, "tests", "*.py")) + glob.glob(
            os.path.join(ROOT, "tools", "*.py")):
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            words = [element.value for element in getattr(node, "elts", [])
                     if isinstance(element, ast.Constant)]
            if isinstance(node, ast.List) and words[:1] == ["Xvfb"] and len(words) > 1:
                servers.append((os.path.basename(path), words))
    assert len(servers) >= 2
    assert all("-noreset" in words for path, words in servers), servers


# The promises' own list ------------------------------------------------------------------
def test_every_test_docs_reliability_names_is_there():
    with open(os.path.join(ROOT, "docs", "reliability.md"), encoding="utf-8") as f:
        named = re.findall(r"`(?:tests/(test_\w+\.py)::)?(test_\w+)`", f.read())
    assert len(named) > 40
    for path, name in named:
        with open(os.path.join(TESTS, path or "test_reliability.py"), encoding="utf-8") as f:
            assert re.search(r"^def %s\(" % name, f.read(), re.M), (path, name)


def test_a_paused_game_does_not_try_again_to_keep_what_could_not_be_kept(game, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(game, "time", clock)
    kept = walled(game)
    # Another running game holds the data folder's lock: the keep fails.
    os.makedirs(game.data_folder(), exist_ok=True)
    with open(os.path.join(game.data_folder(), "minesweep.lock"), "w") as f:
        f.write("%d %s" % (os.getppid(), socket.gethostname()))
    game.update(31.0)
    assert not os.path.exists(kept) and game.window.keeping.tried == clock.now
    tried = clock.now
    game.on_key_down(game.keys.P)               # paused: no play, no more tries
    for _ in range(5):
        clock.now += 1.5
        game.update(1.0)
    assert game.window.keeping.tried == tried
