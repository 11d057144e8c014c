"""The game's files judged in one pass and within bounds: crafted data files
that once took minutes, numbers too large to show, a data folder whose name
is not UTF-8, kept games without a board number; pictures of the wrong
size and a font that lacks letters of a text, named by --check; and the
tools the docs name, run with their smallest options."""
import json
import os
import signal
import subprocess
import sys
import time

import pygame
import pytest

import datafiles
import gamestate
import startup
import wording
from conftest import in_state
from loadgame import ROOT, load_game
from test_classic import best_file, kept_times, win_beginner
from test_reliability import (HANG, OTHER, TESTS, backups, chinese_everywhere,
                              copy_game, game_env, in_time, kept_3x3, needs_other_user,
                              run_child, run_copy, save_round, shared)  # noqa: F401

# A saved_game.json of 256 KB, the largest file the game reads: a quote,
# then 131,071 escaped quotes. A regular expression that skipped strings
# tried every quote as a string's start and read on to the end each time.
CRAFTED = '"' + '\\"' * 131071


# Crafted files are judged in one pass ----------------------------------------------------
def test_a_crafted_256_kb_file_is_judged_in_one_pass(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "saved_game.json").write_text(CRAFTED)
    assert (folder / "saved_game.json").stat().st_size == datafiles.DATA_LIMIT - 1
    # A bound on a hang (run_child fails the test after HANG s), not a speed claim.
    done = run_child([sys.executable, os.path.join(ROOT, "minesweep.py"), "--check"],
                     env=game_env(tmp_path), cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("could not be read") == 1
    assert backups(folder) == [CRAFTED.encode()]


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX users and modes")
def test_crafted_files_another_user_left_in_a_sticky_folder_end_in_time(shared):
    # Another user's files in a class folder with the sticky bit cannot be
    # set aside: each is judged again at every step, and every step ends.
    python = needs_other_user()
    room = shared / "class"
    room.mkdir()
    os.chmod(room, 0o1777)
    for name in ("best_times.json", "settings.json", "saved_game.json"):
        (room / name).write_text(CRAFTED)
    steps, said, fds = save_round(room, user=OTHER, python=python)
    assert in_time(steps), steps
    assert steps["win"][0] == "unsaved" and steps["B"][0] is None
    assert steps["close"][0] is False and steps["kept"][0] is None
    assert [(room / name).read_text() for name in ("best_times.json", "settings.json",
                                                   "saved_game.json")] == [CRAFTED] * 3


def test_nesting_is_still_counted_outside_strings_only():
    deep = "[" * 21 + "]" * 21
    assert wording.too_deep(deep, 20) and not wording.too_deep(deep, 21)
    # Brackets in strings, escaped quotes and backslashes do not count.
    text = '{"a\\"[[[": "\\\\", "b": "[[[[\\"]]", "c": [[1]]}'
    assert json.loads(text)["b"] == '[[[["]]'
    assert not wording.too_deep(text, 3) and wording.too_deep(text, 2)
    assert wording.too_deep('"\\\\"' + deep, 20)       # the string ended at its quote
    assert not wording.too_deep(CRAFTED + deep, 20)   # never ended: all one string
    assert wording.too_deep('"' + '\\"' * 1000 + '"' + deep, 20)


def test_a_file_nested_too_deep_after_a_long_string_is_set_aside(game, tmp_path, capsys):
    content = ('{"Beginner": "' + '\\"' * 60000 + '", "x": ' + "[" * 25 + "]" * 25
               + "}").encode()
    best_file(tmp_path).parent.mkdir()
    best_file(tmp_path).write_bytes(content)
    win_beginner(game, 30.0)
    assert game.play.record == "new"
    assert backups(tmp_path / "data") == [content]
    assert kept_times(best_file(tmp_path)) == {"Beginner": 30.0}
    assert "nested deeper than 20" in capsys.readouterr().out


# Numbers too large to show or to work with -----------------------------------------------
@pytest.mark.parametrize("record", [10 ** 400, {"time": 10 ** 400, "date": "2026-11-30"},
                                    gamestate.MAX_TIME + 0.001, 10 ** 20])
def test_a_best_time_too_large_is_set_aside_and_b_draws(shown, tmp_path, record):
    content = json.dumps({"Beginner": record}).encode()
    best_file(tmp_path).parent.mkdir()
    best_file(tmp_path).write_bytes(content)
    shown.on_key_down(shown.keys.B)
    shown.draw()
    assert in_state(shown, "TIMES") and shown.showing.times == {}
    assert backups(tmp_path / "data") == [content]


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_number_json_cannot_write_back_sets_the_settings_aside_and_l_keeps(
        game, tmp_path, capsys, number):
    content = ('{"language": "en", "zoom": %s}' % number).encode()
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_bytes(content)
    again = load_game()
    again.new_game(9, 9, 10, board=8)
    again.on_key_down(again.keys.L)
    assert again.settings.language == "zh"
    assert json.loads((data / "settings.json").read_text()) == {"language": "zh"}
    assert backups(data) == [content]
    said = [line for line in capsys.readouterr().out.splitlines() if "settings" in line]
    assert len(said) == 1 and "moved it to" in said[0], said


def test_the_longest_time_the_timer_shows_is_still_a_record(shown, tmp_path):
    best_file(tmp_path).parent.mkdir()
    best_file(tmp_path).write_text(json.dumps({"Beginner": gamestate.MAX_TIME}))
    shown.on_key_down(shown.keys.B)
    shown.draw()
    assert shown.showing.times == {"Beginner": gamestate.MAX_TIME}


def kept_file(tmp_path, monkeypatch, game):
    """Write a kept game into a data folder of tmp_path: its bytes."""
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path))
    content = json.dumps(game).encode()
    (tmp_path / "saved_game.json").write_bytes(content)
    return content


@pytest.mark.parametrize("change", [{"clicks": 10 ** 4000}, {"clicks": 10 ** 9 + 1},
                                    {"clicks": 10 ** 4000, "undos": 10 ** 3999}])
def test_a_kept_game_with_a_count_too_large_is_set_aside(tmp_path, monkeypatch, capsys,
                                                         change):
    content = kept_file(tmp_path, monkeypatch, kept_3x3(**change))
    game = load_game()
    assert game.showing.offered is None and not in_state(game, "OFFER")
    assert (tmp_path / "saved_game.json.bak").read_bytes() == content
    assert capsys.readouterr().out.count("could not be read") == 1


@pytest.mark.parametrize("board", [None, 1.5, -1, "5", True, gamestate.MAX_BOARD + 1])
def test_a_kept_game_without_a_whole_board_number_in_range_is_set_aside(
        tmp_path, monkeypatch, capsys, board):
    content = kept_file(tmp_path, monkeypatch, kept_3x3(board=board))
    game = load_game()
    assert game.showing.offered is None and not in_state(game, "OFFER")
    assert (tmp_path / "saved_game.json.bak").read_bytes() == content
    out = capsys.readouterr().out
    assert out.count("could not be read") == 1 and "a board this version cannot" in out


def test_a_kept_game_with_counts_in_range_and_an_open_empty_tile_is_offered(tmp_path,
                                                                           monkeypatch):
    # Flags taken off after the opening leave an open empty tile with closed
    # neighbours: play reaches it, so it is kept.
    for kept in (kept_3x3(clicks=10 ** 9, undos=10 ** 9, board=gamestate.MAX_BOARD),
                 kept_3x3(marks="........o", board=0)):
        kept_file(tmp_path, monkeypatch, kept)
        game = load_game()
        assert game.showing.offered == kept


# A data folder whose name is not UTF-8 ---------------------------------------------------
@pytest.mark.skipif(sys.platform == "win32", reason="a name of bytes: POSIX")
def test_a_data_folder_whose_name_is_not_utf8_is_named_safely(tmp_path):
    folder = os.path.join(os.fsencode(str(tmp_path)), b"J\xfcrgen")
    os.mkdir(folder)
    for name in (b"best_times.json", b"settings.json", b"saved_game.json"):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(b"corrupt")
    # A console that refuses what is not UTF-8, as on a computer set to
    # LANG=en_US.UTF-8 (Python is lenient in the C locale only).
    env = dict(game_env(tmp_path), LANG="en_US.UTF-8", PYTHONIOENCODING="utf-8:strict",
               MINESWEEP_DATA_DIR=os.fsdecode(folder))
    env.pop("LC_ALL", None)
    code = ("import sys; sys.path.insert(0, %r)\n"
            "from loadgame import load_game\n"
            "from test_classic import win_beginner\n"
            "game = load_game()\n"
            "game.on_key_down(game.keys.B)\n"
            "game.on_key_down(game.keys.ESCAPE)\n"
            "win_beginner(game, 30.0)\n"
            "print(game.play.record)\n" % TESTS)
    done = run_child([sys.executable, "-c", code], env=env, cwd=str(tmp_path))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    lines = [line for line in done.stdout.splitlines() if "could not be read" in line]
    assert len(lines) == 3 and all("J\\xfcrgen" in line for line in lines)
    assert done.stdout.split()[-1] == "new"
    assert sorted(os.listdir(folder)) == [b"best_times.json", b"best_times.json.bak",
                                          b"saved_game.json.bak", b"settings.json.bak"]


def test_a_line_can_always_be_printed():
    line = "moved it to /home/J\udcfcrgen/\u6700\u4f73/best_times.json.bak \ud800"
    assert datafiles.console_line(line, "utf-8") == (
        "moved it to /home/J\\xfcrgen/\u6700\u4f73/best_times.json.bak \\ud800")
    assert datafiles.console_line(line, "ascii") == (
        "moved it to /home/J\\xfcrgen/\\u6700\\u4f73/best_times.json.bak \\ud800")
    assert datafiles.console_line("plain", "cp1252") == "plain"


# --check: each picture's size, and every letter of every text in the font -------------
def checked(tmp_path, folder):
    """--check on a copy of the game: (its exit code, its lines about files)."""
    done = run_copy(folder, tmp_path, "--check")
    assert "Traceback" not in done.stderr, done.stderr
    lines = [line for line in (done.stdout + done.stderr).splitlines()
             if line.startswith("minesweep:")]
    return done.returncode, lines


def save_picture(path, size):
    """A plain picture of this size, as a PNG."""
    pygame.image.save(pygame.Surface(size), str(path))


@pytest.mark.parametrize("name, size, want", [
    ("minesweep_block.png", (1, 1), "25 x 25"), ("minesweep_flag_16.png", (25, 25), "16 x 16"),
    ("face_win.png", (25, 25), "28 x 28"), ("minesweep_number8_50.png", (50, 49), "50 x 50")])
def test_a_picture_of_the_wrong_size_is_named_by_the_check_and_stops_the_start(
        tmp_path, name, size, want):
    folder = copy_game(tmp_path)
    save_picture(folder / "images" / name, size)
    code, lines = checked(tmp_path, folder)
    assert code == 1
    assert lines == ["minesweep: cannot start: %s is %d x %d px, not %s px. Make the "
                     "pictures again with: python tools/make_assets.py"
                     % ((folder / "images" / name,) + size + (want,))]
    done = run_copy(folder, tmp_path)
    assert done.returncode == 1 and lines[0] in done.stderr


def test_pictures_have_the_sizes_the_game_draws_them_at():
    assert startup.picture_size("minesweep_block", 25) == (25, 25)
    assert startup.picture_size("minesweep_bomb_red", 30) == (30, 30)
    assert startup.picture_size("minesweep_number3_16", 25) == (16, 16)
    assert startup.picture_size("face_lose", 25) == (28, 28)
    for name in startup.picture_names((16, 20, 32, 40, 50)):
        made = pygame.image.load(os.path.join(ROOT, "images", name + ".png"))
        assert made.get_size() == startup.picture_size(name, 25), name


def texts_with(letters):
    """texts/zh.json with these letters added to its title."""
    with open(os.path.join(ROOT, "texts", "zh.json"), encoding="utf-8") as f:
        table = json.load(f)
    table["title"] += letters
    return json.dumps(table, ensure_ascii=False).encode("utf-8")


LACKING = "\u9f98"      # a letter of old writing no text of the game uses


def test_a_font_without_chinese_letters_fails_the_check_and_leaves_english(
        tmp_path, monkeypatch):
    folder = copy_game(tmp_path)
    # pygame's own font: it has English letters only.
    default = os.path.join(os.path.dirname(pygame.__file__), pygame.font.get_default_font())
    (folder / "fonts" / "minesweep_zh.ttf").write_bytes(open(default, "rb").read())
    code, lines = checked(tmp_path, folder)
    texts = sorted(os.listdir(folder / "texts"))
    assert code == 1 and len(lines) == len(texts) + 1
    for line in lines[:-1]:
        assert line.startswith("minesweep: the font fonts/minesweep_zh.ttf cannot draw ")
        assert "python tools/make_font.py" in line
    for name in texts:          # each file of texts named, in whichever order
        assert any(str(folder / "texts" / name) in line for line in lines[:-1]), name
    assert lines[-1] == "minesweep: %d broken file%s (see above)" % (
        len(texts), "" if len(texts) == 1 else "s")
    chinese_everywhere(monkeypatch)
    game = load_game(script=str(folder / "minesweep.py"))
    assert game.settings.language == "en" and not game.window.fonts


def test_a_letter_the_font_lacks_in_the_chinese_texts_fails_the_check(tmp_path,
                                                                      monkeypatch):
    folder = copy_game(tmp_path)
    (folder / "texts" / "zh.json").write_bytes(texts_with(LACKING))
    code, lines = checked(tmp_path, folder)
    assert code == 1
    assert lines == ["minesweep: the font fonts/minesweep_zh.ttf cannot draw 1 letter of "
                     "%s: %s (U+9F98) (python tools/make_font.py makes it again with every "
                     "letter); the game speaks English instead of Chinese (Simplified)."
                     % (folder / "texts" / "zh.json", LACKING),
                     "minesweep: 1 broken file (see above)"]
    chinese_everywhere(monkeypatch)
    game = load_game(script=str(folder / "minesweep.py"))
    assert game.settings.language == "en"


def test_every_file_of_texts_is_checked_for_letters_the_font_lacks(tmp_path):
    folder = copy_game(tmp_path)
    (folder / "texts" / "zz.json").write_bytes(texts_with(LACKING + "\u9f96"))
    code, lines = checked(tmp_path, folder)
    assert code == 1
    assert lines == ["minesweep: the font fonts/minesweep_zh.ttf cannot draw 2 letters of "
                     "%s: \u9f96 (U+9F96), %s (U+9F98) (python tools/make_font.py makes it "
                     "again with every letter)." % (folder / "texts" / "zz.json", LACKING),
                     "minesweep: 1 broken file (see above)"]


def test_the_games_own_files_pass_the_check(tmp_path):
    code, lines = checked(tmp_path, copy_game(tmp_path))
    assert code == 0 and lines == [
        "minesweep: checked the pictures, sounds and texts; the game speaks English"]


# The tools the docs name run ---------------------------------------------------------------
# Each with its smallest options, so that a function renamed in the game
# breaks a test rather than a benchmark run weeks later.
TOOL_WAIT = 300          # the test's wait for a tool on a busy machine: a bound on a hang, s


@pytest.mark.parametrize("args", [
    ["bench_solver.py", "--rule", "corner", "--games", "2", "--levels", "Expert",
     "--jobs", "1"]])
def test_the_tools_the_docs_name_run(tmp_path, args):
    done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", args[0])] + args[1:],
                          env=game_env(tmp_path), cwd=ROOT, capture_output=True, text=True,
                          timeout=TOOL_WAIT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "|" in done.stdout


def test_the_solver_benchmark_takes_level_names_in_any_case_and_refuses_others(tmp_path):
    tool = [sys.executable, os.path.join(ROOT, "tools", "bench_solver.py"), "--rule",
            "corner", "--games", "2", "--jobs", "1", "--levels"]
    done = subprocess.run(tool + ["beginner,EXPERT"], env=game_env(tmp_path), cwd=ROOT,
                          capture_output=True, text=True, timeout=TOOL_WAIT)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [line.split("|")[1].strip() for line in done.stdout.splitlines()
            if line.startswith("| ") and not line.startswith("| level")]
    assert rows == ["Beginner", "Expert"]
    done = subprocess.run(tool + ["expret"], env=game_env(tmp_path), cwd=ROOT,
                          capture_output=True, text=True, timeout=TOOL_WAIT)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines()[-1].endswith(
        "--levels: expret is not a level; the levels are Beginner,Intermediate,Expert")


def test_the_solver_benchmark_refuses_counts_below_one_in_a_line(tmp_path):
    tool = [sys.executable, os.path.join(ROOT, "tools", "bench_solver.py"), "--rule", "corner"]
    for args in (["--jobs", "0"], ["--jobs", "-1"], ["--games", "0"], ["--games", "-3"],
                 ["--big", "-1"], ["--jobs", "two"]):
        done = subprocess.run(tool + args, env=game_env(tmp_path), cwd=ROOT,
                              capture_output=True, text=True, timeout=TOOL_WAIT)
        assert done.returncode == 2 and done.stdout == "", args
        assert "Traceback" not in done.stderr, args
        assert done.stderr.splitlines()[-1].endswith(
            "argument %s: %s is not a whole number of %d or more" % (
                args[0], args[1], 0 if args[0] == "--big" else 1)), done.stderr


def children_of(pid):
    """The processes whose parent is pid (from Linux's /proc)."""
    found = []
    for name in os.listdir("/proc"):
        try:
            with open("/proc/%s/stat" % name) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[1] == str(pid) and fields[0] != "Z":
            found.append(int(name))
    return found


def running(pid):
    """Whether process pid runs (is there and not a zombie)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")
def test_the_solver_benchmarks_workers_are_the_cores_and_end_with_it(tmp_path):
    # Asked for far more workers than cores, it starts as many as there are
    # cores, says so, and when it is killed (even by SIGKILL), none of them
    # is left waiting for work.
    cores = os.cpu_count() or 1
    for stop in (signal.SIGTERM, signal.SIGKILL):
        tool = subprocess.Popen(
            [sys.executable, os.path.join(ROOT, "tools", "bench_solver.py"), "--jobs", "100000",
             "--games", "100000", "--levels", "expert"], env=game_env(tmp_path), cwd=ROOT,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            said = tool.stdout.readline()
            assert said.strip() == ("--jobs 100000: this computer has %d cores, so %d "
                                    "processes play" % (cores, cores))
            workers, deadline = [], time.monotonic() + TOOL_WAIT
            while len(workers) < cores and time.monotonic() < deadline:
                workers = children_of(tool.pid)     # the pool starts its workers
            assert len(workers) == cores
            tool.send_signal(stop)
            tool.wait(timeout=TOOL_WAIT)
            deadline = time.monotonic() + TOOL_WAIT
            while any(running(pid) for pid in workers) and time.monotonic() < deadline:
                pass                                # the kernel ends them as the tool ends
            assert [pid for pid in workers if running(pid)] == []
        finally:
            if tool.poll() is None:
                tool.kill()
                tool.wait()
