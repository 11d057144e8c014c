"""The chapter's game: its names, its rules, and the fixes a to f."""
import locale
import os
import sys

import pygame
import pytest
from pgzero.loaders import SoundLoader, UnsupportedFormat

import viewport
from conftest import board, picture
from loadgame import ROOT, SCRIPT, load_game


def test_chapter_names_and_start_board(game):
    assert (game.ROWS, game.COLS, game.SIZE, game.BOMBS) == (15, 15, 25, 20)
    assert game.WIDTH == game.SIZE * game.COLS
    assert (game.view.left, game.view.top, game.view.tile) == (0, game.BAR, game.SIZE)
    assert game.HEIGHT == game.BAR + game.SIZE * game.ROWS + game.view.footer
    assert game.failed is False and game.finished is False
    assert len(game.blocks) == 225
    for name in ("set_flag", "open_block", "get_neighbours", "get_bomb_number",
                 "blow_up", "update", "draw", "on_mouse_down", "new_game",
                 "lay_bombs", "block_at"):
        assert callable(getattr(game, name)), name
    for block in game.blocks:
        assert (block.isbomb, block.isopen, block.isflag) == (False, False, False)
        assert block.image == "minesweep_block"


def test_the_board_the_modules_see_is_the_chapters(game):
    board(game, 3, 4, [(0, 0), (2, 3)])
    game.grid_action(game.block_at(0, 3), game.click_open)
    game.set_flag(game.block_at(0, 0))
    seen = game.board_now()
    assert (seen.rows, seen.cols, seen.bombs) == (game.ROWS, game.COLS, game.BOMBS)
    assert seen.around == game.neighbour_table(3, 4)
    assert seen.bomb_cells == {0, 11} and seen.flagged == {0}
    assert seen.opened == {cell for cell, block in enumerate(game.blocks) if block.isopen}
    assert seen.shown == tuple(block.number if block.isopen else None
                               for block in game.blocks)
    assert (seen.failed, seen.finished) == (game.failed, game.finished)
    game.grid_action(game.block_at(2, 3), game.click_open)
    assert game.board_now().failed is True


def test_block_at_and_tile_places(game):
    game.new_game(4, 6, 3)
    game.update(0)                      # the next frame lays the board out
    tile = game.block_at(2, 5)
    assert (tile.row, tile.col) == (2, 5)
    # The Actor stands where the book puts it; the view draws it centred
    # in the window, which is wider and taller than 4 x 6 tiles.
    assert (tile.left, tile.top) == (5 * game.SIZE, game.BAR + 2 * game.SIZE)
    assert game.view.tile_rect(2, 5) == (game.view.left + 125, game.view.top + 50, 25, 25)
    assert game.view.left == (viewport.MIN_WIDTH - 6 * 25) // 2
    assert game.view.top == game.BAR + (viewport.MIN_HEIGHT - 4 * 25) // 2
    assert game.block_at(4, 0) is None and game.block_at(0, -1) is None


def test_lay_bombs_exactly_there(game):
    board(game, 5, 5, [(0, 0), (4, 4), (2, 3)])
    bombs = {(b.row, b.col) for b in game.blocks if b.isbomb}
    assert bombs == {(0, 0), (4, 4), (2, 3)}
    assert game.BOMBS == 3
    with pytest.raises(ValueError):
        game.lay_bombs([(5, 0)])


@pytest.mark.parametrize("rows, cols, bombs", [
    (0, 5, 1), (5, 0, 1), (201, 5, 1), (5, 201, 1), (3, 3, 9), (3, 3, -1),
    (2.5, 3, 1), ("9", 9, 10), (True, 3, 1)])
def test_impossible_boards_are_refused(game, rows, cols, bombs):
    with pytest.raises(ValueError) as error:
        game.new_game(rows, cols, bombs)
    text = str(error.value)
    assert "must be" in text
    # The board the player had is kept.
    assert (game.ROWS, game.COLS, len(game.blocks)) == (15, 15, 225)


def test_new_game_resizes_the_window(game):
    game.new_game(16, 30, 99)
    game.update(0)                      # the next frame lays the board out
    assert game.WIDTH == 30 * game.SIZE
    assert game.HEIGHT == game.BAR + 16 * game.SIZE + game.view.footer
    game.new_game(100, 100, 9999)
    assert len(game.blocks) == 10000


def test_get_neighbours_are_the_closed_tiles_around(game):
    board(game, 3, 3, [(0, 0)])
    centre = game.block_at(1, 1)
    assert len(game.get_neighbours(centre)) == 8
    assert {(b.row, b.col) for b in game.get_neighbours(game.block_at(0, 0))} \
        == {(0, 1), (1, 0), (1, 1)}
    game.block_at(0, 1).isopen = True
    assert game.block_at(0, 1) not in game.get_neighbours(centre)


def test_get_bomb_number(game):
    board(game, 3, 3, [(0, 0), (0, 2), (2, 1)])
    assert game.get_bomb_number(game.block_at(1, 1)) == 3
    assert game.get_bomb_number(game.block_at(1, 0)) == 2
    assert game.get_bomb_number(game.block_at(2, 2)) == 1


def test_set_flag_toggles(game):
    board(game, 3, 3, [(0, 0)])
    tile = game.block_at(1, 1)
    game.set_flag(tile)
    assert tile.isflag and tile.image == "minesweep_flag"
    game.set_flag(tile)
    assert not tile.isflag and tile.image == "minesweep_block"


def test_open_block_floods_and_stops_at_numbers(game):
    board(game, 4, 5, [(0, 4)])
    game.open_block(game.block_at(3, 0))
    assert picture(game) == ["0001#",
                             "00011",
                             "00000",
                             "00000"]


def test_open_block_on_a_number_opens_one_tile(game):
    board(game, 3, 3, [(0, 0)])
    game.open_block(game.block_at(1, 1))
    assert picture(game) == ["###", "#1#", "###"]


def test_a_flag_stops_the_flood(game):
    # Fix b: the book's flood opened flagged tiles.
    board(game, 3, 5, [])
    flagged = game.block_at(1, 2)
    game.set_flag(flagged)
    game.open_block(game.block_at(0, 0))
    assert flagged.isflag and not flagged.isopen
    assert flagged.image == "minesweep_flag"
    assert picture(game)[1] == "00F00"


class CountingList(list):
    """A list that counts how often something walks through all of it."""
    walks = 0

    def __iter__(self):
        CountingList.walks += 1
        return super().__iter__()


def test_the_flood_never_scans_the_whole_board(game):
    # Fix a: the book's get_neighbours walked every tile on every call, so a
    # flood was quadratic. Ours looks neighbours up by row and column.
    board(game, 30, 30, [])
    game.blocks = CountingList(game.blocks)
    CountingList.walks = 0
    game.open_block(game.block_at(0, 0))
    assert all(b.isopen for b in list.__iter__(game.blocks))
    assert CountingList.walks == 0


def test_empty_100x100_board_floods_without_recursion_error(game):
    # Fix c: the book's recursion passed Python's limit on an empty 40x40 board.
    sys.setrecursionlimit(1000)
    board(game, 100, 100, [])
    game.open_block(game.block_at(50, 50))
    assert all(b.isopen and b.image == "minesweep_number0" for b in game.blocks)


def test_blow_up_shows_the_bombs_by_isbomb(game):
    # Fix d: the book showed blocks[:BOMBS], right only after its shuffle.
    board(game, 3, 3, [(2, 2), (1, 2)])
    game.blow_up()
    assert game.failed
    assert picture(game) == ["###", "##*", "##*"]


def test_no_audio_device_plays_on_silently(game):
    # Fix e: with no audio device pgzero's sounds raise on play().
    pygame.mixer.quit()
    game.sounds = SoundLoader("sounds")      # nothing loaded yet, as at start
    with pytest.raises(UnsupportedFormat):
        game.sounds.bomb.play()              # what the book's code would do
    board(game, 2, 2, [(0, 0)])
    game.blow_up(game.block_at(0, 0))
    assert game.failed
    game.new_game(2, 2, 1)
    game.lay_bombs([(0, 0)])
    for row, col in [(0, 1), (1, 0), (1, 1)]:
        game.open_block(game.block_at(row, col))
    game.update(0.1)
    assert game.finished


def test_a_broken_sound_file_is_reported_not_raised(game, capsys):
    game.play_sound("no_such_sound")
    assert "cannot play sound 'no_such_sound'" in capsys.readouterr().out


def test_every_python_file_is_ascii_only():
    # Fix f: pgzrun reads the script in the locale's encoding (GBK, cp1252...),
    # and Python reads the modules it imports (solver.py) as UTF-8 unless told.
    scripts = [SCRIPT] + [os.path.join(folder, name)
                          for folder in (ROOT, os.path.join(ROOT, "chapter"),
                                         os.path.join(ROOT, "tools"),
                                         os.path.join(ROOT, "tests"))
                          for name in sorted(os.listdir(folder)) if name.endswith(".py")]
    assert len(scripts) > 20
    for script in scripts:
        with open(script, "rb") as f:
            data = f.read()
        bad = [i for i, byte in enumerate(data) if byte > 127]
        assert bad == [], "%s: non-ASCII bytes at offsets %s" % (script, bad[:5])
        for encoding in ("gbk", "cp1252", "cp936", locale.getpreferredencoding()):
            compile(data.decode(encoding), script, "exec")


def test_win_is_found_by_update(game):
    board(game, 2, 3, [(0, 0)])
    game.open_block(game.block_at(1, 2))
    game.update(0.1)
    assert not game.finished
    for row, col in [(0, 1), (1, 0), (1, 1)]:
        game.open_block(game.block_at(row, col))
    game.update(0.1)
    assert game.finished and not game.failed


def test_draw_shows_failed_and_finished(shown):
    shown.new_game(2, 2, 1)
    shown.lay_bombs([(0, 0)])
    shown.draw()
    before = shown.screen.surface.copy()
    shown.blow_up(shown.block_at(0, 0))
    shown.draw()
    after = shown.screen.surface
    # The red bomb tile is drawn where the closed tile was.
    centre = shown.Rect(shown.view.tile_rect(0, 0)).move(3, 3).topleft
    assert before.get_at(centre)[:3] != after.get_at(centre)[:3]
    assert after.get_at(centre)[:3] == (255, 0, 0)


def edit_constants(rows, bombs):
    """Change ROWS and BOMBS at the top of the script, as the book invites."""
    def edit(text):
        text = text.replace("\nROWS = 15 ", "\nROWS = %d " % rows, 1)
        return text.replace("\nBOMBS = 20 ", "\nBOMBS = %d " % bombs, 1)
    return edit


def test_the_constants_at_the_top_choose_the_board(tmp_path, monkeypatch):
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path))
    game = load_game(edit=edit_constants(10, 40))
    assert (game.ROWS, game.COLS, game.BOMBS) == (10, 15, 40)
    assert len(game.blocks) == 150
    assert game.HEIGHT == game.BAR + 10 * game.SIZE + game.view.footer
    game.new_game()                       # R: the same board again
    assert (game.ROWS, game.COLS, game.BOMBS, len(game.blocks)) == (10, 15, 40, 150)
    game.on_key_down(game.keys.K_1)       # the level keys still work
    assert (game.ROWS, game.COLS, game.BOMBS) == (9, 9, 10)
    game.on_key_down(game.keys.R)
    assert (game.ROWS, game.COLS, game.BOMBS) == (9, 9, 10)


def test_impossible_constants_stop_with_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path))
    with pytest.raises(SystemExit) as stop:
        load_game(edit=edit_constants(15, 300))
    assert str(stop.value) == ("minesweep: bombs must be 0..224 on a 15 x 15 "
                               "board (got 300); change ROWS, COLS or BOMBS at "
                               "the top of minesweep.py")
