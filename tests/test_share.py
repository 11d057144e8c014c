"""Boards a class can share, games kept when the window closes, and the
flag win."""
import glob
import hashlib
import json
import os
import subprocess
import sys

import pytest

import gamestate
import solver
from conftest import board, footer, open_every_safe_tile, picture, tile_states
from loadgame import ROOT, load_game

# Board 42 of each level, its first click on the marked start tile: the
# start tile, and a fingerprint of where the bombs are (sha256 of a string,
# one "*" or "." a tile, row by row). Plain and no-guess.
PINNED = {
    ("1", False): (74, "714381e873ebb1a4"), ("1", True): (74, "fe04508a8d4ed16e"),
    ("2", False): (145, "5f13ea68d337077c"), ("2", True): (145, "a7b0a7054aed2170"),
    ("3", False): (308, "75def3d1f1360db6"), ("3", True): (308, "98756b58bdbed866"),
    ("0", False): (209, "483f4e774dbe25b2"), ("0", True): (209, "793b3e3fe6b37709"),
}


def fingerprint(game):
    """Where the bombs are, in short."""
    under = "".join("*" if block.isbomb else "." for block in game.blocks)
    return hashlib.sha256(under.encode()).hexdigest()[:16]


def play_board_42(game, key, noguess):
    """Board 42 of a level, opened at its start tile."""
    name, rows, cols, bombs = game.LEVELS[key]
    game.settings.noguess = noguess
    game.new_game(rows, cols, bombs, board=42)
    start = gamestate.start_tile(game.play.board, game.ROWS, game.COLS)
    game.grid_action(game.blocks[start], game.click_open)
    return start


@pytest.mark.parametrize("key, noguess", sorted(PINNED))
def test_known_board_numbers_give_known_boards(game, key, noguess, monkeypatch):
    # Time enough that the no-guess search is never cut short by the clock.
    monkeypatch.setattr(solver, "NO_GUESS_TIME", 60.0)
    start = play_board_42(game, key, noguess)
    assert (start, fingerprint(game)) == PINNED[(key, noguess)]
    assert game.showing.message is None             # a no-guess board was found
    assert not game.block_at(start // game.COLS, start % game.COLS).isbomb


def test_the_same_number_the_same_board_in_another_process(game, tmp_path):
    code = ("import sys; sys.path.insert(0, 'tests')\n"
            "from loadgame import load_game\n"
            "from test_share import fingerprint, play_board_42\n"
            "game = load_game()\n"
            "print(play_board_42(game, '3', False), fingerprint(game))\n")
    outs = set()
    for seed in ("1", "2"):                  # two processes, different hashing
        env = dict(os.environ, PYTHONHASHSEED=seed, SDL_VIDEODRIVER="dummy",
                   SDL_AUDIODRIVER="dummy", MINESWEEP_DATA_DIR=str(tmp_path))
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        outs.add(done.stdout.split("\n")[-2])
    assert outs == {"308 %s" % PINNED[("3", False)][1]}


def test_a_different_first_click_is_still_safe(game):
    name, rows, cols, bombs = game.LEVELS["3"]
    game.new_game(rows, cols, bombs, board=42)
    game.grid_action(game.block_at(0, 0), game.click_open)
    assert game.block_at(0, 0).isopen and not game.failed


CROSS_VERSION = '''
import random, sys
sys.path.insert(0, ".")
import gamestate
import solver
x = list(range(30)); random.Random("minesweep board 7: 16 x 30").shuffle(x)
rows, cols = 16, 30
around = [[r * cols + c for r in range(max(row - 1, 0), min(row + 2, rows))
           for c in range(max(col - 1, 0), min(col + 2, cols)) if (r, c) != (row, col)]
          for row in range(rows) for col in range(cols)]
mines = solver.no_guess_layout(gamestate.blank(rows, cols, 99, around), 100,
                               random.Random("minesweep 7"))
print(x, sorted(mines))
'''


def test_boards_are_the_same_on_every_python():
    pythons = [sys.executable] + sorted(glob.glob(os.path.expanduser(
        "~/.pyenv/versions/3.*/bin/python3")))
    outs = {}
    for python in pythons:
        done = subprocess.run([python, "-c", CROSS_VERSION], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        if done.returncode == 0:
            outs[python] = done.stdout
    assert sys.executable in outs
    assert len(set(outs.values())) == 1, outs


# G: typing a board number ----------------------------------------------------
def test_g_then_digits_then_enter_plays_that_board(game):
    game.new_game(9, 9, 10)
    for key in ("G", "K_4", "K_2", "K_7", "BACKSPACE", "RETURN"):
        game.on_key_down(getattr(game.keys, key))
    assert game.play.board == 42 and (game.ROWS, game.COLS) == (9, 9)
    assert "board 42" in game.TITLE and "green tile" in game.speak(game.showing.message)
    number = game.play.board
    for key in ("G", "K_9", "ESCAPE"):
        game.on_key_down(getattr(game.keys, key))
    assert game.play.board == number and game.showing.state is not game.State.TYPING
    game.on_key_down(game.keys.G)
    game.on_key_down(game.keys.R)               # ignored while typing
    assert game.play.board == number and "Board number: _" in game.speak(game.showing.message)


def test_the_command_line_takes_a_board_number(tmp_path):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               MINESWEEP_DATA_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "minesweep.py", "--board", "-1"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().endswith("the board number must be 0..999999999 (got -1)")


# Keeping a game when the window closes ---------------------------------------------
def a_game_in_progress(game):
    """A Beginner game with opened tiles, a flag, a question mark and time."""
    board(game, 9, 9, [(0, 0), (0, 8), (8, 0), (8, 8), (4, 4), (2, 6), (6, 2),
                       (6, 6), (2, 2), (4, 8)])
    game.play.board = 77
    game.play.started = True
    game.grid_action(game.block_at(0, 4), game.click_open)
    game.grid_action(game.block_at(2, 2), game.click_flag)
    game.settings.questions = True
    game.grid_action(game.block_at(8, 5), game.click_flag)
    game.grid_action(game.block_at(8, 5), game.click_flag)
    game.update(37.25)
    return game


def state(game):
    """Everything a resumed game must have back."""
    return (picture(game), tile_states(game), game.play.timer, game.play.clicks,
            game.play.board, game.BOMBS, game.settings.questions, game.settings.flagwin,
            [b.isbomb for b in game.blocks])


def test_save_then_resume_gives_back_the_whole_game(game, tmp_path, capsys):
    a_game_in_progress(game)
    before = state(game)
    game.save_on_exit()
    assert "this game is kept" in capsys.readouterr().out
    again = load_game()
    assert again.showing.offered is not None and "C goes on" in footer(again)
    again.on_key_down(again.keys.C)
    assert state(again) == before
    # The file stays, so a crash loses nothing; it goes when the game ends.
    assert os.path.exists(tmp_path / "data" / "saved_game.json")
    again.update(1.0)
    assert again.play.timer == 38.25


def test_any_other_key_starts_afresh_and_keeps_the_file(game, tmp_path):
    a_game_in_progress(game)
    game.save_on_exit()
    saved = (tmp_path / "data" / "saved_game.json").read_bytes()
    again = load_game()
    again.on_key_down(again.keys.K_2)
    assert again.showing.offered is None and (again.ROWS, again.COLS) == (16, 16)
    assert (tmp_path / "data" / "saved_game.json").read_bytes() == saved


def test_nothing_is_kept_of_a_game_not_started_or_ended(game, tmp_path):
    game.new_game(9, 9, 10)
    game.save_on_exit()
    board(game, 2, 2, [(0, 0)])
    for cell in [(0, 1), (1, 0), (1, 1)]:
        game.grid_action(game.block_at(*cell), game.click_open)
    assert game.finished
    game.save_on_exit()
    assert not os.path.exists(tmp_path / "data" / "saved_game.json")


@pytest.mark.parametrize("content", [b"", b'{"format": 1, "rows": 9', b"\xff\xfe",
                                     b'{"format": 99, "rows": 9}', b"[1, 2, 3]"])
def test_a_bad_saved_game_is_set_aside_with_one_line(tmp_path, monkeypatch, capsys,
                                                     content):
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path))
    (tmp_path / "saved_game.json").write_bytes(content)
    game = load_game()
    assert game.showing.offered is None and len(game.blocks) == 225
    assert (tmp_path / "saved_game.json.bak").read_bytes() == content
    out = capsys.readouterr().out
    assert out.count("could not be read") == 1
    if b"99" in content:
        assert "newer version" in out


def test_a_saved_game_too_big_for_this_version_is_set_aside(game, tmp_path, capsys):
    a_game_in_progress(game)
    game.save_on_exit()
    path = tmp_path / "data" / "saved_game.json"
    saved = json.loads(path.read_text())
    saved["rows"] = 1000
    path.write_text(json.dumps(saved))
    again = load_game()
    assert again.showing.offered is None and "rows and cols must be" in capsys.readouterr().out


def test_a_resumed_game_keeps_its_record_only_if_unassisted(game, tmp_path):
    a_game_in_progress(game)
    game.play.assisted = True
    game.save_on_exit()
    again = load_game()
    again.on_key_down(again.keys.C)
    open_every_safe_tile(again)
    assert again.finished and again.play.record != "new"


# The flag win ----------------------------------------------------------------
def test_the_flag_win_is_off_by_default(game):
    board(game, 3, 3, [(0, 0), (2, 2)])
    game.grid_action(game.block_at(0, 2), game.click_open)
    for cell in [(0, 0), (2, 2)]:
        game.grid_action(game.block_at(*cell), game.click_flag)
    assert not game.settings.flagwin and not game.finished
    # Turned on with exactly the bombs flagged already, the next frame wins.
    game.update(0.1)
    game.on_key_down(game.keys.X)
    game.update(0.1)
    assert game.finished and not game.failed


def test_the_flag_win_when_exactly_the_bombs_are_flagged(game):
    game.on_key_down(game.keys.X)
    assert game.settings.flagwin and "flag win on" in footer(game).lower()
    board(game, 3, 3, [(0, 0), (2, 2)])
    game.grid_action(game.block_at(0, 2), game.click_open)
    game.grid_action(game.block_at(0, 0), game.click_flag)
    game.grid_action(game.block_at(1, 0), game.click_flag)     # wrong
    game.grid_action(game.block_at(2, 2), game.click_flag)
    assert not game.finished                    # a wrong flag: no win
    game.grid_action(game.block_at(1, 0), game.click_flag)     # taken off
    assert game.finished and not game.failed
    assert all(b.isopen for b in game.blocks if not b.isbomb)
    assert picture(game) == ["F10", "121", "01F"]


def test_the_flag_win_needs_every_bomb(game):
    game.settings.flagwin = True
    board(game, 3, 3, [(0, 0), (2, 2)])
    game.grid_action(game.block_at(0, 2), game.click_open)
    game.grid_action(game.block_at(0, 0), game.click_flag)
    game.update(0.1)
    assert not game.finished
