"""Classic play: first click, chords, status bar, levels, the end
of a game, question marks, best times, keyboard and statistics."""
import json
import os
import re
import subprocess
import sys

import pygame
import pytest

import advice
import gamestate
import solver
import startup
import viewport
from conftest import board, picture, tile_centre
from loadgame import ROOT, load_game


def press(game, name):
    """Press a key by its pgzero name, as pgzero would call on_key_down."""
    game.on_key_down(getattr(game.keys, name))


def mouse(game, row, col, button):
    """A click (press and release) on a tile."""
    game.on_mouse_down(tile_centre(game, row, col), button)
    game.on_mouse_up(button)


# 1. The first click ------------------------------------------------------
@pytest.mark.parametrize("row, col", [(0, 0), (15, 29), (8, 15), (0, 17), (9, 0)])
def test_first_click_opens_an_area(game, row, col):
    for _ in range(20):
        game.new_game(16, 30, 99)
        mouse(game, row, col, game.mouse.LEFT)
        clicked = game.block_at(row, col)
        assert not game.failed
        assert sum(b.isbomb for b in game.blocks) == 99
        assert clicked.isopen and clicked.number == 0
        assert not any(b.isbomb for b in clicked.neighbours)


def test_each_tile_is_an_actor_of_its_own(game):
    # A tile copies the first Actor's state of its picture: it must share
    # nothing that one tile can change without the others.
    game.new_game(3, 3, 1)
    first, other = game.block_at(0, 0), game.block_at(2, 2)
    assert first._rect is not other._rect
    for name, value in first.__dict__.items():
        if value is other.__dict__.get(name):
            unchanging = (tuple, str, int, float, pygame.Surface, type(None))
            assert isinstance(value, unchanging), name
    placed = other.pos
    first.pos = (300, 300)
    first.image = "minesweep_flag"
    assert other.pos == placed and other.image == "minesweep_block"
    assert first.collidepoint((300, 300)) and not other.collidepoint((300, 300))


def test_first_click_on_a_crowded_board_keeps_only_that_tile_free(game):
    for _ in range(20):
        game.new_game(4, 4, 8)          # 16 tiles - 9 free < 8 bombs
        mouse(game, 1, 1, game.mouse.LEFT)
        assert not game.failed and game.block_at(1, 1).isopen
        assert sum(b.isbomb for b in game.blocks) == 8
    game.new_game(3, 3, 8)
    mouse(game, 2, 2, game.mouse.LEFT)          # the only safe tile: a win
    assert game.finished and game.block_at(2, 2).number == 3


def test_a_laid_board_is_not_moved_by_the_first_click(game):
    board(game, 3, 3, [(1, 1)])
    mouse(game, 1, 1, game.mouse.LEFT)
    assert game.failed
    assert [(b.row, b.col) for b in game.blocks if b.isbomb] == [(1, 1)]


# 2. Chords ----------------------------------------------------------------
def chord_board(game):
    """A 1 at (1,1) whose bomb is at (0,0); flags and opens as needed."""
    board(game, 4, 4, [(0, 0), (3, 3)])
    game.open_block(game.block_at(1, 1))
    return game


def test_middle_click_chords_and_zeros_flood(game):
    chord_board(game)
    mouse(game, 1, 1, game.mouse.MIDDLE)          # no flag yet: nothing
    assert picture(game)[0] == "####"
    mouse(game, 0, 0, game.mouse.RIGHT)
    mouse(game, 1, 1, game.mouse.MIDDLE)
    # The chord opens the last safe tiles: a win, and every bomb gets a flag.
    assert picture(game) == ["F100",
                             "1100",
                             "0011",
                             "001F"]
    assert game.finished and not game.failed


def test_left_click_on_an_open_number_chords(game):
    chord_board(game)
    mouse(game, 0, 0, game.mouse.RIGHT)
    mouse(game, 1, 1, game.mouse.LEFT)
    assert picture(game)[0] == "F100"


def test_a_wrong_flag_makes_the_chord_lose(game):
    chord_board(game)
    mouse(game, 0, 1, game.mouse.RIGHT)           # wrong: the bomb is at (0,0)
    mouse(game, 1, 1, game.mouse.MIDDLE)
    assert game.failed
    assert picture(game)[0][:2] == "!X"
    assert picture(game)[3][3] == "*"


def test_too_many_flags_do_not_chord(game):
    chord_board(game)
    mouse(game, 0, 0, game.mouse.RIGHT)
    mouse(game, 0, 1, game.mouse.RIGHT)
    mouse(game, 1, 1, game.mouse.MIDDLE)
    assert not game.failed and picture(game)[2] == "####"


def test_left_and_right_together_chord(game):
    chord_board(game)
    mouse(game, 0, 0, game.mouse.RIGHT)
    mouse(game, 1, 1, game.mouse.RIGHT)           # right alone: nothing
    assert picture(game)[2] == "####"
    game.on_mouse_down(tile_centre(game, 2, 2), game.mouse.LEFT)      # held elsewhere
    game.on_mouse_down(tile_centre(game, 1, 1), game.mouse.RIGHT)
    game.on_mouse_up(game.mouse.RIGHT)
    game.on_mouse_up(game.mouse.LEFT)
    assert picture(game)[0] == "F100"


# 3. Status bar and timer -------------------------------------------------
def test_bombs_left_counts_flags_and_can_go_negative(game):
    board(game, 3, 3, [(0, 0)])
    assert game.now_showing().board.left == 1
    for row, col in [(0, 0), (0, 1), (0, 2)]:
        mouse(game, row, col, game.mouse.RIGHT)
    assert game.now_showing().board.left == -2


def test_timer_starts_at_the_first_click_and_stops_at_the_end(game):
    board(game, 2, 2, [(0, 0)])
    game.update(5.0)
    assert game.play.timer == 0
    mouse(game, 1, 1, game.mouse.LEFT)
    game.update(0.5)
    game.update(0.75)
    assert game.play.timer == pytest.approx(1.25)
    mouse(game, 0, 0, game.mouse.LEFT)
    game.update(3.0)
    assert game.failed and game.play.timer == pytest.approx(1.25)


def test_timer_stops_at_999(game):
    board(game, 2, 2, [(0, 0)])
    mouse(game, 0, 0, game.mouse.RIGHT)
    for _ in range(1100):
        game.update(1.0)
    assert game.play.timer == 999


def test_status_bar_shows_the_counter(shown):
    def counter():
        shown.draw()
        box = shown.screen.surface.subsurface((6, 7, 52, 26))
        return pygame.image.tobytes(box, "RGB")

    board(shown, 3, 3, [(0, 0)])
    before = counter()
    assert counter() == before
    mouse(shown, 0, 0, shown.mouse.RIGHT)
    assert counter() != before


# 4. Restart and levels ------------------------------------------------------
@pytest.mark.parametrize("key, size", [("K_1", (9, 9, 10)), ("K_2", (16, 16, 40)),
                                       ("K_3", (16, 30, 99)), ("K_0", (15, 15, 20)),
                                       ("KP3", (16, 30, 99))])
def test_level_keys(game, key, size):
    game.new_game(5, 5, 1)
    press(game, key)
    game.update(0)                      # the next frame lays the board out
    assert (game.ROWS, game.COLS, game.BOMBS) == size
    assert game.WIDTH == max(size[1] * 25, viewport.MIN_WIDTH)
    assert game.TITLE == "Minesweeper: %s, board %d" % (game.LEVELS[key[-1]][0],
                                                      game.play.board)


@pytest.mark.parametrize("key, state", [("H", "PLAY"), ("F11", "PLAY"), ("K_2", "PLAY"),
                                        ("R", "REPLAY"), ("ESCAPE", "REPLAY")])
def test_a_choice_on_a_key_that_means_something_else_stops_the_game(game, monkeypatch,
                                                                    key, state):
    # Else the choice's key would quietly take the key's other meaning away.
    choice = gamestate.Choice("extra", key, (gamestate.State[state],), None, None, None,
                              False, None)
    monkeypatch.setitem(gamestate.CHOICES, "extra", choice)
    with pytest.raises(ValueError, match="the key %s has two meanings" % key):
        load_game()
    monkeypatch.setitem(gamestate.CHOICES, "extra", choice._replace(key="Y"))
    tables = load_game()
    assert game.keys.Y in getattr(tables, state + "_KEYS")     # a free key is taken


def test_each_choice_works_by_its_key_in_each_of_its_states(game):
    # Only play and a replay have tables of keys that a choice joins.
    tables = {gamestate.State.PLAY: game.PLAY_KEYS, gamestate.State.REPLAY: game.REPLAY_KEYS}
    for choice in gamestate.CHOICES.values():
        for state in choice.modes:
            assert tables[state][getattr(game.keys, choice.key)].args == (choice.name,)


def test_r_and_the_face_restart_the_same_size(game):
    board(game, 5, 6, [(0, 0)])
    assert game.TITLE == "Minesweeper: 5 x 6, 1 bomb, board %d" % game.play.board
    mouse(game, 0, 0, game.mouse.LEFT)
    assert game.failed
    press(game, "R")
    assert not game.failed and (game.ROWS, game.COLS, game.BOMBS) == (5, 6, 1)
    assert not game.play.laid and all(b.image == "minesweep_block" for b in game.blocks)
    game.lay_bombs([(0, 0)])
    mouse(game, 0, 0, game.mouse.LEFT)
    game.on_mouse_down(game.Rect(game.view.face_rect()).center, game.mouse.LEFT)
    assert not game.failed and game.play.clicks == 0 and game.play.timer == 0


def test_board_from_command_line(game):
    def options(argv):
        """The board options as a tuple."""
        args = startup.options(argv, game.ROWS, game.COLS, game.BOMBS)
        return args.rows, args.cols, args.bombs, args.board, args.flag_win, args.lang

    assert options(["--rows", "20", "--cols", "30", "--bombs", "99"]) == (
        20, 30, 99, None, False, None)
    assert options([]) == (15, 15, 20, None, False, None)
    assert options(["--board", "42", "--flag-win", "--lang", "zh"]) == (
        15, 15, 20, 42, True, "zh")


@pytest.mark.parametrize("args, text", [
    (["--rows", "0"], "rows and cols must be 1..200"),
    (["--bombs", "225"], "bombs must be 0..224"),
    (["--cols", "x"], "invalid int value"),
    (["--size", "3"], "unrecognized arguments")])
def test_an_impossible_command_line_is_one_clear_line(args, text):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    done = subprocess.run([sys.executable, "minesweep.py"] + args, cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if "minesweep" in line]
    assert len(lines) == 1 and text in lines[0], done.stderr


# 5. The end of a game -------------------------------------------------------
def test_the_lost_board(game):
    board(game, 3, 4, [(0, 0), (0, 3), (2, 3)])
    mouse(game, 0, 0, game.mouse.RIGHT)           # right flag
    mouse(game, 1, 1, game.mouse.RIGHT)           # wrong flag
    mouse(game, 2, 3, game.mouse.LEFT)
    assert picture(game) == ["F##*",
                             "#X##",
                             "###!"]
    mouse(game, 2, 0, game.mouse.LEFT)            # after the end: nothing
    mouse(game, 0, 1, game.mouse.RIGHT)
    game.on_key_down(game.keys.SPACE)
    game.on_key_down(game.keys.F)
    assert picture(game)[2] == "###!" and picture(game)[0] == "F##*"


def test_the_won_board(game):
    board(game, 2, 3, [(0, 0), (0, 2)])
    for row, col in [(0, 1), (1, 0), (1, 1), (1, 2)]:
        mouse(game, row, col, game.mouse.LEFT)
    game.update(0.1)
    assert game.finished
    assert picture(game) == ["F2F", "121"]
    assert game.now_showing().board.left == 0
    mouse(game, 0, 0, game.mouse.RIGHT)
    assert picture(game) == ["F2F", "121"]


# 6. Question marks ----------------------------------------------------------
def test_question_marks(game):
    board(game, 2, 2, [(0, 0)])
    tile = game.block_at(1, 1)
    mouse(game, 1, 1, game.mouse.RIGHT)
    mouse(game, 1, 1, game.mouse.RIGHT)
    assert picture(game)[1][1] == "#"              # off: flag, nothing
    press(game, "Q")
    assert game.settings.questions
    marks = []
    for _ in range(3):
        mouse(game, 1, 1, game.mouse.RIGHT)
        marks.append(picture(game)[1][1])
    assert marks == ["F", "?", "#"]
    mouse(game, 1, 1, game.mouse.RIGHT)
    mouse(game, 1, 1, game.mouse.RIGHT)
    assert tile.isquestion and not tile.isflag
    mouse(game, 1, 1, game.mouse.LEFT)            # a question mark opens
    assert tile.isopen and not tile.isquestion and picture(game)[1][1] == "1"
    press(game, "Q")
    assert not game.settings.questions


# 7. Best times -----------------------------------------------------------------
def win_beginner(game, seconds):
    """Win a hand-laid Beginner board in this many seconds."""
    bombs = [(0, c) for c in range(9)] + [(8, 0)]
    game.new_game(9, 9, 10)
    game.lay_bombs(bombs)
    mouse(game, 0, 0, game.mouse.RIGHT)         # a flag starts the clock
    game.update(seconds)
    mouse(game, 5, 5, game.mouse.LEFT)          # opens every safe tile: a win
    assert game.finished and game.play.timer == seconds


def best_file(tmp_path):
    return tmp_path / "data" / "best_times.json"


def kept_times(path):
    """The times a best-times file keeps, by level; every record the game
    writes also has the day it was set."""
    times = {}
    for level, record in json.loads(path.read_text()).items():
        if isinstance(record, dict):
            assert re.fullmatch(r"\d{4}-\d\d-\d\d", record["date"])
            record = record["time"]
        times[level] = record
    return times


def test_a_best_time_is_kept_and_announced(game, tmp_path):
    win_beginner(game, 12.5)
    assert game.play.record == "new"
    assert kept_times(best_file(tmp_path)) == {"Beginner": 12.5}
    assert "New best time for Beginner!" in game.now_showing().end_lines()
    win_beginner(game, 20.0)
    assert game.play.record != "new"
    assert kept_times(best_file(tmp_path)) == {"Beginner": 12.5}
    win_beginner(game, 7.25)
    assert kept_times(best_file(tmp_path)) == {"Beginner": 7.25}
    assert os.listdir(tmp_path / "data") == ["best_times.json"]


def test_a_custom_board_keeps_no_best_time(game, tmp_path):
    board(game, 2, 2, [(0, 0)])
    for row, col in [(0, 1), (1, 0), (1, 1)]:
        mouse(game, row, col, game.mouse.LEFT)
    game.update(0.1)
    assert game.finished and game.play.record != "new"
    assert not best_file(tmp_path).exists()


@pytest.mark.parametrize("content", [b"{not json", b"[1, 2]", b'{"Beginner": "fast"}',
                                     b"\xff\xfe\x00garbage"])
def test_a_corrupt_best_times_file_is_moved_aside(game, tmp_path, capsys, content):
    best_file(tmp_path).parent.mkdir()
    best_file(tmp_path).write_bytes(content)
    win_beginner(game, 30.0)
    backup = tmp_path / "data" / "best_times.json.bak"
    assert backup.read_bytes() == content
    assert kept_times(best_file(tmp_path)) == {"Beginner": 30.0}
    out = capsys.readouterr().out
    assert out.count("could not be read") == 1 and "best_times.json.bak" in out
    win_beginner(game, 10.0)                      # a second old file is kept too
    assert backup.read_bytes() == content
    assert "could not be read" not in capsys.readouterr().out


def test_an_unreadable_best_times_file_is_not_overwritten(game, tmp_path, capsys):
    folder = best_file(tmp_path)
    folder.mkdir(parents=True)                   # a folder where the file should be
    (folder / "keep.txt").write_text("mine")
    win_beginner(game, 30.0)
    assert (tmp_path / "data" / "best_times.json.bak" / "keep.txt").read_text() == "mine"
    assert "could not be read" in capsys.readouterr().out


def test_an_unwritable_data_folder_does_not_stop_the_game(game, tmp_path, monkeypatch,
                                                          capsys):
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a folder")
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(blocker / "sub"))
    win_beginner(game, 30.0)
    assert "cannot save best times" in capsys.readouterr().out


@pytest.mark.parametrize("platform, env, expected", [
    ("win32", {"APPDATA": "/appdata"}, "/appdata/minesweep"),
    ("darwin", {}, "~/Library/Application Support/minesweep"),
    ("linux", {"XDG_DATA_HOME": "/xdg"}, "/xdg/minesweep"),
    ("linux", {}, "~/.local/share/minesweep")])
def test_data_folder_by_system(game, monkeypatch, platform, env, expected):
    monkeypatch.delenv("MINESWEEP_DATA_DIR")
    for name in ("APPDATA", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(game.sys, "platform", platform)
    assert game.data_folder() == os.path.expanduser(expected).replace("/", os.sep)


# 8. Keyboard -----------------------------------------------------------------
def test_keyboard_cursor_open_and_flag(game):
    board(game, 3, 3, [(0, 0)])
    press(game, "SPACE")                          # no cursor yet: nothing
    assert game.play.clicks == 0
    press(game, "UP")
    assert game.showing.cursor == (1, 1)
    for _ in range(5):
        press(game, "UP")
        press(game, "LEFT")
    assert game.showing.cursor == (0, 0)
    press(game, "F")
    assert picture(game)[0][0] == "F"
    press(game, "RIGHT")
    press(game, "DOWN")
    press(game, "SPACE")
    assert picture(game)[1][1] == "1"
    press(game, "SPACE")                          # a chord on the 1
    assert picture(game) == ["F10", "110", "000"]


def test_the_mouse_moves_the_highlight(game):
    board(game, 3, 3, [])
    game.on_mouse_move(tile_centre(game, 2, 1))
    assert game.showing.cursor == (2, 1)
    game.on_mouse_move((1, 1))                    # on the bar: it stays
    assert game.showing.cursor == (2, 1)


# 9. Statistics -----------------------------------------------------------------
@pytest.mark.parametrize("rows, cols, bombs, value", [
    (3, 3, [(0, 0)], 1),
    (1, 5, [(0, 2)], 2),
    (3, 3, [(0, 0), (0, 2), (2, 0), (2, 2)], 5),
    (1, 3, [(0, 0), (0, 2)], 1),
    (3, 5, [(1, 2)], 4)])
def test_3bv(rows, cols, bombs, value):
    cells = {row * cols + col for row, col in bombs}
    assert advice.board_3bv(cells, solver.neighbour_table(rows, cols)) == value


def test_statistics_of_a_win(game):
    board(game, 1, 5, [(0, 2)])
    mouse(game, 0, 0, game.mouse.LEFT)
    mouse(game, 0, 2, game.mouse.RIGHT)
    game.update(2.0)
    mouse(game, 0, 4, game.mouse.LEFT)
    game.update(0.0)
    assert game.finished
    assert game.play.stats["3bv"] == 2 and game.play.stats["clicks"] == 3
    assert game.play.stats["3bv_per_s"] == pytest.approx(1.0)
    assert game.play.stats["efficiency"] == pytest.approx(2 / 3)
    assert game.now_showing().end_lines()[:4] == [
        "Board %d" % game.play.board,
        "Time 2.00 s   3BV 2 (the fewest clicks that clear this board)",
        "Clicks 3", "Efficiency 67%   3BV/s 1.00"]


def test_a_failed_save_leaves_no_temporary_file(game, tmp_path, monkeypatch, capsys):
    def refuse(src, dst):
        raise PermissionError("the file is open in another program")

    win_beginner(game, 30.0)                      # a first best time, saved
    monkeypatch.setattr(game.os, "replace", refuse)
    win_beginner(game, 10.0)
    assert "cannot save best times" in capsys.readouterr().out
    assert os.listdir(tmp_path / "data") == ["best_times.json"]
    assert kept_times(best_file(tmp_path)) == {"Beginner": 30.0}
