"""Nothing lost, nothing false: the best-times file under faults
and racing processes, odd paths, odd timing, and missing pictures."""
import glob
import json
import math
import multiprocessing
import os
import random
import shutil
import stat
import subprocess
import sys

import pygame
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import datafiles
from conftest import tile_centre
from loadgame import ROOT
from test_classic import best_file, kept_times, win_beginner
from test_mainloop import click, run_loop

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
    folder = tmp_path / "data"
    for trial in range(200):
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


def test_cannot_move_aside_is_said_once(game, tmp_path, monkeypatch, capsys):
    folder = tmp_path / "data"
    folder.mkdir()
    best_file(tmp_path).write_bytes(b"corrupt")
    real_replace = os.replace

    def refuse_bak(src, dst):
        if str(dst).endswith(".bak"):
            raise PermissionError("read-only folder")
        return real_replace(src, dst)

    monkeypatch.setattr(game.os, "replace", refuse_bak)
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
    (folder / "tmpab12cd.tmp").write_text('{"Begi')          # an old killed save
    (folder / "best_times.json.4242.tmp").write_text("{")
    (folder / "notes.txt").write_text("not ours")
    win_beginner(game, 30.0)
    assert sorted(os.listdir(folder)) == ["best_times.json", "notes.txt"]


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks need rights there")
def test_a_symlinked_file_stays_a_symlink(game, tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    real = tmp_path / "synced" / "times.json"
    real.parent.mkdir()
    real.write_text('{"Expert": 100.0}')
    best_file(tmp_path).symlink_to(real)
    win_beginner(game, 30.0)
    assert best_file(tmp_path).is_symlink()
    assert kept_times(real) == {"Expert": 100.0, "Beginner": 30.0}


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
