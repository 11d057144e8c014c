"""The modules beside minesweep.py, on their own: plain data in and out.

These tests load no game and no pygame (test_house.py runs them where
pygame and pgzero cannot even be imported), so they use no fixture of
conftest.py either.
"""
import ast
import csv
import errno
import functools
import json
import os
import stat
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import advice  # noqa: E402
import bigstack  # noqa: E402
import datafiles  # noqa: E402
import gamestate  # noqa: E402
import languages  # noqa: E402
import scene  # noqa: E402
import slowmotion  # noqa: E402
import solver  # noqa: E402
import startup  # noqa: E402
import viewport  # noqa: E402
import wording  # noqa: E402


def cells(cols, *places):
    """Cell numbers of (row, col) places."""
    return {row * cols + col for row, col in places}


# The view -------------------------------------------------------------------
def test_the_view_fits_boards_to_the_desktop():
    sizes = viewport.tile_sizes(25)
    view = viewport.fit(15, 15, (1366, 768), sizes, None, False, lambda width, most: 30)
    assert (view.tile, view.rows, view.cols) == (25, 15, 15)
    assert (view.width, view.height) == (375, viewport.BAR + 375 + 30)
    big = viewport.fit(100, 200, (1366, 768), sizes, None, False, lambda width, most: 30)
    assert big.tile == 16 and big.cols == 1366 // 16 and big.rows < 100
    assert big.width <= 1366 and big.height <= 768
    # Slow motion shows the largest tiles the whole board fits at.
    panel = viewport.fit(9, 9, (1366, 768), sizes, None, True, lambda width, most: 30)
    assert panel.tile == 50 and panel.width == 450 + viewport.PANEL
    assert panel.height >= min(viewport.PANEL_HEIGHT, 768 - viewport.ROOM[1])


def test_a_view_is_fitted_in_a_window_or_full_screen_as_its_fitting_says():
    board = gamestate.Board(16, 30, 99, (), frozenset(), frozenset(), frozenset(),
                            frozenset(), (None,) * 480, False, False)
    def footer(width, most):
        """A footer 60 px high at any width."""
        return 60
    window = viewport.Fitting((1366, 768), 25, None, False, False, footer)
    full = window._replace(full=True)
    assert vars(viewport.fitted(board, window)) == vars(viewport.fit(
        16, 30, (1366, 768), viewport.tile_sizes(25), None, False, footer))
    assert vars(viewport.fitted(board, full)) == vars(viewport.fit_full(
        16, 30, (1366, 768), 25, None, False, footer))
    assert viewport.next_tile(25, board, window) == viewport.next_zoom(
        25, 25, 16, 30, (1366, 768), False, footer)
    assert viewport.next_tile(25, board, full) == viewport.next_full_zoom(
        25, 16, 30, (1366, 768), 25, False, footer)
    assert viewport.fitted(board, window).tile != viewport.fitted(board, full).tile


def test_full_screen_fills_the_screen_with_the_largest_tiles_that_fit():
    def footer(width, most):
        return 104              # four lines at 20 px
    screen = (1366, 768)
    view = viewport.fit_full(15, 15, screen, 25, None, False, footer)
    assert (view.width, view.height) == screen and view.whole()
    assert view.tile == 40      # 15 rows of 44 px would leave no room for the footer
    assert view.left == (1366 - 600) // 2
    assert view.top + 600 <= 768 - 104 and view.board_height() == 768 - viewport.BAR - 104
    expert = viewport.fit_full(16, 30, screen, 25, None, False, footer)
    assert expert.whole() and expert.tile == 36
    # The slow-motion panel takes its share of the width; a board too big scrolls.
    panel = viewport.fit_full(15, 15, screen, 25, None, True, footer)
    assert panel.panel == 683 and panel.tile * 15 <= 1366 - 683 and panel.width == 1366
    big = viewport.fit_full(100, 200, screen, 25, None, False, footer)
    assert big.tile == 16 and not big.whole() and (big.width, big.height) == screen
    # Z's size is kept; each size full screen chooses has its pictures.
    assert viewport.fit_full(15, 15, screen, 25, 20, False, footer).tile == 20
    assert {viewport.fit_full(rows, cols, size, 25, None, slowmo, footer).tile
            for rows, cols in ((9, 9), (15, 15), (16, 16), (16, 30))
            for size in ((1024, 768), screen, (1920, 1080), (3840, 2160))
            for slowmo in (False, True)} <= set(
        (25,) + viewport.SMALLER + viewport.LARGER + viewport.FULL)
    assert viewport.full_panel((1024, 768)) == viewport.FULL_PANEL[1]
    narrow = viewport.fit_full(15, 15, (800, 600), 25, None, True, footer)
    assert (narrow.width, narrow.height) == (800, 600)     # never more than the screen
    assert viewport.full_panel((3840, 2160)) == viewport.FULL_PANEL[2]


def test_the_mouse_finds_the_tile_the_view_draws():
    view = viewport.fit(30, 50, (800, 600), viewport.tile_sizes(25), None, False,
                        lambda width, most: 40)
    view.scroll(7, 11)
    for row in range(view.row, view.row + view.rows):
        for col in range(view.col, view.col + view.cols):
            left, top, width, height = view.tile_rect(row, col)
            assert view.cell_under((left + width // 2, top + height // 2)) == (row, col)
    assert view.cell_under((0, 0)) is None


def test_scrolling_stays_on_the_board_and_follow_brings_a_tile_in():
    view = viewport.fit(100, 100, (800, 600), viewport.tile_sizes(25), None, False,
                        lambda width, most: 40)
    view.scroll(-5, -5)
    assert (view.row, view.col) == (0, 0)
    view.scroll(1000, 1000)
    assert (view.row, view.col) == (100 - view.rows, 100 - view.cols)
    view.follow(3, 4)
    assert view.in_view(3, 4)


def test_repaint_draws_what_came_into_view():
    key = viewport.TilesKey(tile=16, row=10, col=20, rows=30, cols=40, replay=None)
    assert viewport.repaint(None, key)[0] is True
    whole, shift, areas = viewport.repaint(key, key._replace(row=12))
    assert not whole and shift == (2, 0)
    assert areas[0] == (range(40, 42), range(20, 60)) and list(areas[1][1]) == []
    assert viewport.repaint(key, key._replace(tile=20))[0] is True         # zoomed


def test_the_wheel_scrolls_and_the_cursor_stays_on_the_mouses_tile():
    view = viewport.fit(100, 100, (800, 600), viewport.tile_sizes(25), None, False,
                        lambda width, most: 40)
    left, top, width, height = view.tile_rect(2, 3)
    mouse = (left + width // 2, top + height // 2)
    assert view.wheel(False, False, mouse, (2, 3)) == (2 + viewport.WHEEL_STEP, 3)
    assert view.row == viewport.WHEEL_STEP
    # A cursor elsewhere (moved with the arrow keys) stays where it was.
    assert view.wheel(False, True, mouse, (0, 0)) == (0, 0)
    assert view.col == viewport.WHEEL_STEP
    assert view.wheel(True, False, mouse, None) is None and view.row == 0


def test_z_goes_round_every_size_that_fits():
    sizes = viewport.zoom_sizes(25, 15, 15, (1920, 1080), False, lambda width, most: 30)
    seen = [25]
    for _ in sizes:
        seen.append(viewport.next_zoom(seen[-1], 25, 15, 15, (1920, 1080), False,
                                       lambda width, most: 30))
    assert sorted(set(seen)) == sorted(sizes) and seen[-1] == 25
    assert viewport.next_zoom(7, 25, 15, 15, (1920, 1080), False,
                              lambda width, most: 30) == sizes[0]


def test_the_cells_of_an_area_stay_on_the_board():
    areas = [(range(0, 2), range(3, 6)), (range(4, 6), range(0, 1))]
    assert viewport.cells_in(areas, 5, 4) == [3, 7, 16]
    assert viewport.cells_in([], 5, 4) == []


def test_a_picture_and_a_tint_are_made_once():
    canvas, made = viewport.Canvas(), []
    load = (lambda name: made.append(name) or name.upper())
    assert canvas.picture("minesweep_flag", load) == "MINESWEEP_FLAG"
    assert canvas.picture("minesweep_flag", load) == "MINESWEEP_FLAG"
    make = (lambda colour, size: made.append((colour, size)) or size)
    assert canvas.tint((1, 2, 3), 25, make) == canvas.tint((1, 2, 3), 25, make) == 25
    assert canvas.tint((1, 2, 3), 40, make) == 40
    assert made == ["minesweep_flag", ((1, 2, 3), 25), ((1, 2, 3), 40)]


def test_the_view_is_fitted_again_only_when_what_it_fits_changed():
    canvas, tiles, other = viewport.Canvas(), ["tile"], ["tile"]
    assert canvas.refit(tiles, (9, 9, 25), None) is False      # the first board
    assert canvas.refit(tiles, (9, 9, 25), None) is None
    assert canvas.refit(tiles, (9, 9, 32), None) is True       # Z: the same board
    assert canvas.refit(tiles, (9, 9, 32), (4, 4)) is True     # a tile to show
    assert canvas.refit(other, (9, 9, 32), None) is False      # a new board, equal tiles
    assert canvas.refit(other, (9, 9, 32), None) is None


def test_the_board_is_seen_again_only_when_its_tiles_changed():
    canvas, made = viewport.Canvas(), []
    make = (lambda: made.append(len(made)) or len(made))
    assert canvas.board_seen((0, 7, False), make) == 1
    assert canvas.board_seen((0, 7, False), make) == 1
    assert canvas.board_seen((1, 7, False), make) == 2
    assert canvas.board_seen((1, 7, True), make) == 3 and made == [0, 1, 2]


# The words --------------------------------------------------------------------
def test_say_puts_the_facts_and_cells_in_words():
    table = wording.TEXTS
    said = wording.say(table, "hint_bomb", {"why": wording.words(
        "only_closed", number=2, at=solver.Cell(7), closed=2)}, 5)
    assert said == ("Bomb: the 2 at row 2, col 3 has only 2 closed neighbours, just as "
                    "many as its bombs")
    assert wording.speak(table, None, 5) == ""


def test_wrap_breaks_english_at_spaces_and_chinese_between_words():
    width_of = len                                  # one px a letter
    assert wording.wrap("one two three", width_of, 8) == ["one two", "three"]
    # Chinese: at a break mark (taken out), after punctuation, before an
    # opening bracket; the letters of "efficiency 43%" stay together.
    mark, comma = wording.MARK, "\uff0c"
    assert wording.wrap("\u4e00\u4e8c" + mark + "\u4e09\u56db", width_of, 3) == [
        "\u4e00\u4e8c", "\u4e09\u56db"]
    assert wording.wrap("\u4e00" + comma + "\u6548\u738743%", width_of, 5) == [
        "\u4e00" + comma, "\u6548\u738743%"]
    assert wording.wrap("\u4e00\u4e8c\uff08\u4e09\uff09", width_of, 3) == [
        "\u4e00\u4e8c", "\uff08\u4e09\uff09"]
    # Only a word wider than a whole line is broken inside, as a last resort.
    assert wording.wrap("\u4e00\u4e8c\u4e09\u56db", width_of, 2) == [
        "\u4e00\u4e8c", "\u4e09\u56db"]
    # Three lines do not fit in 20 px at any size: two, the last cut short.
    assert wording.fit_lines("a b c d e f", 3, 20, 16, lambda size: (len, 10)) == (
        ("a b", "..."), 10, 20)
    assert wording.fit_lines("a b c d e f", 3, 30, 16, lambda size: (len, 10)) == (
        ("a b", "c d", "e f"), 16, 30)


def test_the_language_comes_from_the_command_line_the_choice_or_the_system():
    assert languages.choose("zh", {}, lambda: "en") == "zh"
    assert languages.choose(None, {"MINESWEEP_LANG": "zh"}, lambda: "en") == "zh"
    assert languages.choose(None, {}, lambda: "zh") == "zh"
    assert languages.system_language({"LANG": "zh_CN.UTF-8"}, None) == "zh"
    assert languages.system_language({"LANG": "de_DE.UTF-8"}, None) == "en"
    assert languages.choose("zh-TW", {"LANG": "zh_CN.UTF-8"}, lambda: "zh") == "zh-TW"
    assert languages.choose(None, {}, lambda: "zh-TW") == "zh-TW"
    assert languages.choose(None, {"LANG": "zh_HK.UTF-8"}, lambda: "fr") == "zh-TW"
    # The checker speaks the book's Chinese when the computer names no language
    # it has words for, and only those.
    assert languages.choose(None, {"LANG": "C.UTF-8"}, lambda: None, default="zh") == "zh"
    assert languages.choose(None, {"LANG": "en_GB.UTF-8"}, lambda: None, default="zh") == "en"
    assert languages.choose("zh-TW", {"LANG": "C"}, lambda: None, default="zh",
                            among=("en", "zh")) == "zh"
    assert languages.choose(None, {"LANG": "zh_TW.UTF-8"}, lambda: None, default="en",
                            among=("en", "zh")) == "zh"


def test_each_language_is_one_row_of_the_table():
    assert languages.LANGUAGES == ("en", "zh", "zh-TW") and languages.ENGLISH == "en"
    assert startup.TEXT_FILES == {"zh": os.path.join("texts", "zh.json"),
                                  "zh-TW": os.path.join("texts", "zh-TW.json")}
    assert startup.FONT_FILES == {"minesweep_zh": os.path.join("fonts", "minesweep_zh.ttf")}
    # The English texts are the game's own; every other language has a file.
    assert [row.texts is None for row in languages.TABLE] == [True, False, False]


@pytest.mark.parametrize("name, language", [
    ("zh_TW.UTF-8", "zh-TW"), ("zh_HK", "zh-TW"), ("zh_MO.UTF-8", "zh-TW"),
    ("zh_TW.Big5", "zh-TW"), ("zh-Hant-HK", "zh-TW"), ("zh_CN.GB18030", "zh"),
    ("zh_SG.UTF-8", "zh"), ("zh", "zh"), ("zh-Hans-HK", "zh"),
    # Windows names its locales in English words.
    ("Chinese (Traditional)_Taiwan", "zh-TW"), ("Chinese_Taiwan", "zh-TW"),
    ("Chinese (Traditional)_Hong Kong SAR", "zh-TW"), ("Chinese_Hong Kong S.A.R.", "zh-TW"),
    ("Chinese (Traditional)_Macao SAR", "zh-TW"), ("Chinese (Simplified)_China", "zh"),
    ("Chinese_People's Republic of China", "zh"), ("Chinese (Simplified)_Singapore", "zh"),
    ("English_United States", "en"), ("C", "en")])
def test_each_kind_of_chinese_computer_gets_its_own_letters(name, language):
    # As the environment says it (Linux, macOS), or as Python's locale
    # module reads it when the environment says nothing (Windows).
    assert languages.system_language({"LANG": name}, None) == language
    assert languages.system_language({}, name) == language
    assert languages.system_language({"LANGUAGE": "", "LC_ALL": name, "LANG": "en_US"},
                                     None) == language


def test_l_goes_through_the_languages_read_in_turn():
    every = {"en": {}, "zh": {}, "zh-TW": {}}
    assert [wording.following(name, every) for name in wording.LANGUAGES] == [
        ("zh", False), ("zh-TW", False), ("en", False)]
    # A language whose texts could not be read is passed over, and said so.
    assert wording.following("en", {"en": {}, "zh-TW": {}}) == ("zh-TW", True)
    assert wording.following("zh-TW", {"en": {}, "zh-TW": {}}) == ("en", False)
    assert wording.following("en", {"en": {}}) == ("en", True)
    # The key list names the next one in its own letters.
    fonts = set(languages.FONTS)
    assert [wording.l_label(name, every, fonts) for name in wording.LANGUAGES] == [
        "\u7b80\u4f53\u4e2d\u6587", "\u7e41\u9ad4\u4e2d\u6587", "English"]
    assert wording.l_label("en", {"en": {}}, fonts) == "\u7b80\u4f53\u4e2d\u6587"
    # Without its font a language is named in English letters.
    assert wording.l_label("en", {"en": {}}, set()) == "Chinese (Simplified)"


def test_a_broken_text_file_is_said_not_raised(tmp_path):
    path = tmp_path / "zh.json"
    path.write_bytes(b"{broken")
    table, problem = wording.read_texts(str(path))
    assert table is None and "cannot read" in problem
    path.write_text(json.dumps({"keys": "only one"}), encoding="utf-8")
    assert wording.read_texts(str(path)) == (None, "%s lacks some texts" % path)


# The kept files -----------------------------------------------------------------
class Owner:
    """Something holding a kept game's fields, as a Game and the Settings do."""

    def __init__(self, **fields):
        """Hold these fields."""
        self.__dict__.update(fields)


def kept_board(tiles):
    """The 2 x 2 board of these KeptTiles, as the game hands it to kept_game."""
    def having(mark):
        """The cells whose tile has this mark."""
        return frozenset(cell for cell, tile in enumerate(tiles) if getattr(tile, mark))
    return gamestate.Board(2, 2, len(having("isbomb")), solver.neighbour_table(2, 2),
                           having("isbomb"), having("isflag"), having("isopen"),
                           having("isquestion"), (None,) * 4, False, False)


def test_a_kept_game_reads_back_as_it_was(tmp_path):
    play = Owner(timer=12.3456, clicks=4, undos=0, assisted=False, noguess=True)
    settings = Owner(questions=True, flagwin=False)
    tiles = [datafiles.KeptTile(*tile) for tile in (
        (True, False, True, False), (False, True, False, False),
        (False, False, False, True), (False, False, False, False))]
    kept = datafiles.kept_game(kept_board(tiles), 42, {"game": play, "settings": settings})
    assert datafiles.kept_fault(kept) == ""
    assert datafiles.kept_tiles(kept) == tiles
    assert datafiles.kept_fields(kept)["timer"] == ("game", 12.346)
    assert datafiles.kept_fields(kept)["questions"] == ("settings", True)
    datafiles.keep_game(str(tmp_path), kept, lambda topic, line: None)
    assert datafiles.read_start(str(tmp_path), lambda topic, line: None) == (None, kept)
    # Put back on new objects, each field goes to its owner.
    game_back, settings_back = Owner(), Owner()
    datafiles.put_fields(kept, {"game": game_back, "settings": settings_back})
    assert (game_back.timer, game_back.clicks, game_back.noguess) == (12.346, 4, True)
    assert settings_back.questions is True and not hasattr(game_back, "questions")


@pytest.mark.parametrize("change, fault", [
    ({"rows": 0}, "a board this version cannot play"), ({"format": 2}, "newer version"),
    ({"marks": "o..."}, "not a saved game"), ({"clicks": True}, "not a saved game"),
    ({"timer": 1000}, "not a saved game")])
def test_a_kept_game_that_could_not_be_kept_is_refused(change, fault):
    play = Owner(timer=1.0, clicks=1, undos=0, assisted=False, noguess=False)
    settings = Owner(questions=False, flagwin=False)
    tiles = [datafiles.KeptTile(True, False, False, False)] + [
        datafiles.KeptTile(False, False, False, False)] * 3
    kept = dict(datafiles.kept_game(kept_board(tiles), 7, {"game": play,
                                                          "settings": settings}), **change)
    assert fault in datafiles.kept_fault(kept)


def test_best_times_keep_only_a_better_time(tmp_path):
    folder, quiet = str(tmp_path), (lambda topic, line: None)
    assert datafiles.record_best_time(folder, "Beginner", 30.0, quiet) == "new"
    assert datafiles.record_best_time(folder, "Beginner", 31.0, quiet) == "slower"
    assert datafiles.record_best_time(folder, "Beginner", 29.5, quiet) == "new"
    times = datafiles.load_best_times(folder, quiet)
    assert datafiles.time_of(times["Beginner"]) == 29.5
    assert datafiles.record_best_time(None, "Beginner", 1.0, quiet) == "unsaved"


def test_a_win_sets_a_record_of_its_own_kind_or_none(tmp_path):
    folder, quiet = str(tmp_path), (lambda topic, line: None)
    game = gamestate.Game(1)
    game.timer = 20.0
    assert datafiles.record_win(folder, "Beginner", game, quiet) == "new"
    game.timer, game.noguess = 25.0, True
    assert datafiles.record_win(folder, "Beginner", game, quiet) == "new"
    game.timer, game.noguess, game.flagwon = 26.0, False, True
    assert datafiles.record_win(folder, "Beginner", game, quiet) == "new"
    times = datafiles.load_best_times(folder, quiet)
    assert sorted(times) == ["Beginner", "Beginner, flag win", "Beginner, no guess"]
    assert datafiles.time_of(times["Beginner, flag win"]) == 26.0
    game.flagwon, game.undos = False, 1
    assert datafiles.record_win(folder, "Beginner", game, quiet) is None
    game.undos, game.assisted = 0, True
    assert datafiles.record_win(folder, "Beginner", game, quiet) is None
    game.assisted = False
    assert datafiles.record_win(folder, None, game, quiet) is None


# The game's state and its boards --------------------------------------------------
def test_boards_are_checked_and_named():
    assert gamestate.board_fault(15, 15, 20) == ""
    assert "rows and cols must be" in gamestate.board_fault(0, 15, 1)
    assert "bombs must be 0..8" in gamestate.board_fault(3, 3, 9)
    assert "board number" in gamestate.board_fault(3, 3, 1, -1)
    assert gamestate.level_name(16, 30, 99) == "Expert"
    assert gamestate.level_name(16, 30, 98) is None


class LaidTile:
    """A tile as a board_of() reads it: its marks and its number."""

    def __init__(self, mark):
        """A tile of one letter: b bomb, f flag, q question mark, digit open, . closed."""
        self.isbomb, self.isflag, self.isquestion = mark == "b", mark == "f", mark == "q"
        self.isopen = mark.isdigit()
        self.number = int(mark) if self.isopen else None


def test_a_board_is_its_tiles_as_cell_sets():
    # A hand-laid 2 x 3 board: a bomb at 0, flag at 1, open 1 at 3 and 0 at 5.
    tiles = [LaidTile(mark) for mark in "bf.1q0"]
    around = solver.neighbour_table(2, 3)
    board = gamestate.board_of((2, 3, 1), around, tiles, (True, False))
    assert (board.rows, board.cols, board.bombs, board.size) == (2, 3, 1, (2, 3))
    assert board.around is around
    assert (board.bomb_cells, board.flagged, board.opened, board.questioned) == (
        {0}, {1}, {3, 5}, {4})
    assert board.shown == (None, None, None, 1, None, 0)
    assert (board.failed, board.finished, board.left) == (True, False, 0)
    # Before a move that opened 5 and took the flag off 1: only 3 was open.
    before = gamestate.as_before(board, [(False, True, False), (False, True, False),
                                         (False, False, False), (True, False, False),
                                         (False, False, True), (False, False, False)])
    assert (before.opened, before.flagged, before.questioned) == ({3}, {0, 1}, {4})
    assert before.shown == (None, None, None, 1, None, None)
    assert (before.failed, before.finished, before.bomb_cells) == (False, False, {0})


def test_a_board_asked_for_keeps_what_was_not_asked():
    assert gamestate.board_asked((15, 15, 20), (None, None, None)) == (15, 15, 20)
    assert gamestate.board_asked((15, 15, 20), (9, None, 10)) == (9, 15, 10)
    with pytest.raises(ValueError, match="bombs must be"):
        gamestate.board_asked((15, 15, 20), (3, 3, None))
    with pytest.raises(ValueError, match="board number"):
        gamestate.board_asked((15, 15, 20), (None, None, None), -1)


def test_a_board_number_gives_the_same_random_numbers():
    board = gamestate.blank(9, 9, 10, solver.neighbour_table(9, 9))
    first = gamestate.board_random(42, board, 40, False).random()
    assert gamestate.board_random(42, board, 40, False).random() == first
    assert gamestate.board_random(42, board, 40, True).random() != first
    assert gamestate.start_tile(42, 9, 9) == gamestate.start_tile(42, 9, 9)


def test_a_new_game_has_not_begun():
    game, showing = gamestate.Game(5), gamestate.Showing()
    assert showing.state is gamestate.State.PLAY and not game.laid and game.timer == 0.0


def test_a_game_keeps_what_it_keeps_and_records_and_the_rest_is_shown():
    # The mode, what passes on the screen and what is worked out for it are
    # the Showing's; a replay knows nothing of the game's mode.
    passing = {"state", "back_to", "offered", "times", "end_hidden", "checked", "start"}
    assert not passing & set(vars(gamestate.Game(5)))
    assert passing <= set(vars(gamestate.Showing()))
    # When the game in progress was last kept on disk is the window's.
    assert {"played", "kept_played", "tried"} <= set(vars(gamestate.Window().keeping))
    calls, numbers, around, bombs = board_3x4()
    assert not hasattr(opening_3x4(calls, numbers, bombs).replay("stack"), "back_to")


def test_the_start_cell_is_the_boards_and_a_flip_turns_a_field_over():
    shown = gamestate.Showing()
    assert shown.start_cell(42, 9, 9) == gamestate.start_tile(42, 9, 9)
    assert shown.start_cell(42, 16, 30) == gamestate.start_tile(42, 16, 30)
    assert shown.start_cell(43, 16, 30) == gamestate.start_tile(43, 16, 30)
    game = gamestate.Game(42)
    assert game.flip("noguess") is True and game.noguess is True
    settings = gamestate.Settings()
    assert settings.flip("questions") is True and settings.flip("questions") is False


# Slow motion ------------------------------------------------------------------------
def test_the_recorder_notes_each_call_and_its_caller():
    calls = []
    names = {}

    def count_down(n):
        """A recursive function that calls itself by its name, as open_block does."""
        if n:
            names["count_down"](n - 1)

    names["count_down"] = slowmotion.recorder(count_down, lambda n: n, calls)
    names["count_down"](3)
    assert calls == [(3, None), (2, 3), (1, 2), (0, 1)]
    assert slowmotion.deepest_call(calls) == 4


def board_3x4():
    """A 3 x 4 board with one bomb top right, flooded from the bottom left:
    the calls open_block makes there, and what they show."""
    around = solver.neighbour_table(3, 4)
    bombs = {3}
    numbers = {cell: sum(other in bombs for other in around[cell]) for cell in range(12)}
    calls, opened = [], set()

    def open_block(cell, caller):
        """open_block on plain cells: the chapter's recursion."""
        calls.append((cell, caller))
        opened.add(cell)
        if numbers[cell]:
            return
        for other in [o for o in around[cell] if o not in opened]:
            if other not in opened:
                open_block(other, cell)

    open_block(8, None)
    return calls, numbers, around, bombs


def opening_3x4(calls, numbers, bombs):
    """The Opening of board_3x4's calls: nothing open or flagged before."""
    before = laid(3, 4, bombs, [None] * 12)
    after = laid(3, 4, bombs, [numbers[cell] if cell in dict(calls) else None
                               for cell in range(12)])
    return slowmotion.Opening(calls, before, after)


def test_a_replay_steps_forward_and_back_to_the_same_place():
    calls, numbers, around, bombs = board_3x4()
    replay = opening_3x4(calls, numbers, bombs).replay("stack")
    seen = []
    while replay.forward():
        seen.append((replay.position, list(replay.stack), dict(replay.number),
                     set(replay.hidden), replay.deepest()))
    assert len(seen) == len(replay.steps) and not replay.hidden
    for position, stack, number, hidden, deepest in reversed(seen):
        assert (replay.position, replay.stack, replay.number, replay.hidden,
                replay.deepest()) == (position, stack, number, hidden, deepest)
        replay.back()
    assert replay.position == -1 and replay.hidden == set(replay.cells)


def test_a_tile_shows_closed_until_the_replay_opens_it_and_then_its_call_number():
    calls, numbers, around, bombs = board_3x4()
    replay = opening_3x4(calls, numbers, bombs).replay("stack")
    first = calls[0][0]
    assert replay.picture(first, "minesweep_number0", True) == "minesweep_block"
    assert replay.picture(min(bombs), "minesweep_flag", True) == "minesweep_flag"
    while first not in replay.number:
        assert replay.forward()
    assert replay.picture(first, "minesweep_number2", True) == "minesweep_number0"
    # Too small a tile has no room for the call's number: the tile's own picture.
    assert replay.picture(first, "minesweep_number2", False) == "minesweep_number2"


def step_facts(steps):
    """Everything a replay's steps say and change, as plain tuples."""
    return [tuple(getattr(step, name) for name in slowmotion.Step.__slots__)
            for step in steps]


def test_a_big_replay_makes_each_step_only_as_it_comes_to_it():
    # A click on an empty 60 x 60 board makes about 25,000 steps: recording
    # it makes none of them, only their depths for the chart.
    around = solver.neighbour_table(60, 60)
    numbers = [0] * 3600
    calls = slowmotion.flood_calls([0], set(), numbers, set(), around)
    before = gamestate.Board(60, 60, 0, around, frozenset(), frozenset(), frozenset(),
                              frozenset(), (None,) * 3600, False, False)
    after = before._replace(opened=frozenset(cell for cell, _ in calls), shown=tuple(numbers))
    replay = slowmotion.Opening(calls, before, after).replay("stack")
    assert len(replay.steps) > 20000 and replay.steps.made == []
    for _ in range(5):
        replay.forward()
    replay.back()
    assert len(replay.steps.made) == 5 and replay.deepest() == 2
    # Made late, each step is the one it would have been made at once.
    whole = list(slowmotion.recursion_steps(calls, set(), numbers, set(), around))
    assert step_facts(replay.steps) == step_facts(whole)
    assert replay.depths == slowmotion.depths_of("stack", whole)
    assert replay.steps[-1] is replay.steps.made[-1] and replay.steps[-1].kind == "end"
    assert step_facts(replay.steps[3:6]) == step_facts(whole[3:6])


def test_a_recursions_depths_are_worked_out_as_its_steps_have_them():
    # Bombs, a flag the flood stops at, tiles open before, a click that is
    # a number, and a chord's several first calls: the depths counted without
    # the steps are the steps' own.
    around = solver.neighbour_table(9, 9)
    bombs = cells(9, (0, 4), (3, 3), (3, 4), (6, 7), (8, 0))
    numbers = [sum(other in bombs for other in around[cell]) for cell in range(81)]
    flags = cells(9, (5, 5))
    before = cells(9, (8, 8), (7, 8))
    for roots in ([0], [4 * 9 + 5], [2 * 9 + 4], [0, 80, 8 * 9 + 2]):
        calls = slowmotion.flood_calls(roots, before, numbers, flags, around)
        steps = list(slowmotion.recursion_steps(calls, before, numbers, flags, around))
        depths = slowmotion.recursion_depths(calls, before, numbers, around)
        assert depths == slowmotion.depths_of("stack", steps), roots
        assert sum(step.kind == "end" for step in steps) == len(
            [cell for cell, caller in calls if caller is None])


def test_the_queue_replay_is_the_solvers_flood():
    calls, numbers, around, bombs = board_3x4()
    replay = opening_3x4(calls, numbers, bombs).replay("queue")
    order = []
    while replay.forward():
        order.append(replay.step().cell)
    assert order == [cell for cell, number in solver.flood(8, bombs, around,
                                                           lambda cell: True)]
    assert sorted(order) == sorted(cell for cell, caller in calls)


def test_each_step_of_a_queue_replay_is_at_a_line_of_the_code_shown():
    # The panel finds the line to highlight by its text: a line renamed in
    # open_block_queue (and so in QUEUE_CODE) must be renamed here too.
    named = (slowmotion.TAKES_NUMBER, slowmotion.TAKES_ZERO, slowmotion.JOINS)
    assert all(line in slowmotion.QUEUE_CODE for line in named)
    assert len(set(named)) == 3
    calls, numbers, around, bombs = board_3x4()
    replay = opening_3x4(calls, numbers, bombs).replay("queue")
    lines = set()
    while replay.forward():
        lines.add(replay.step().code)
    assert lines == set(named)
    # A name changed, or a line added, in the queue's code moves none of them.
    renamed = tuple(line.replace("queue", "todo") for line in slowmotion.QUEUE_CODE)
    assert slowmotion.queue_lines(renamed) == tuple(
        line.replace("queue", "todo") for line in named)
    code = slowmotion.QUEUE_CODE
    longer = code[:6] + ("        bk.number = bombnum",) + code[6:]
    assert slowmotion.queue_lines(longer) == named


def test_the_calls_are_written_to_a_csv_file_or_said_in_one_line(tmp_path):
    calls, numbers, around, bombs = board_3x4()
    opening = opening_3x4(calls, numbers, bombs)
    path = str(tmp_path / "calls.csv")
    speak = functools.partial(wording.speak, wording.TEXTS, cols=4)
    fault, said = slowmotion.write_calls(path, opening, "reading", speak)
    assert fault is None and said == "Wrote the %d calls of open_block to %s, and the " \
        "board to %s" % (len(calls), path, str(tmp_path / "calls_board.txt"))
    with open(path, "rb") as f:
        assert f.read(3) == b"\xef\xbb\xbf"           # a BOM: Excel reads it as UTF-8
    with open(path, encoding="utf-8-sig", newline="") as f:
        title, *rows = list(csv.reader(f))
    # The order is said once, in the first line, with the click.
    assert title == ["The %d calls of open_block after clicking (3,1), neighbours in "
                     "reading order (top left to bottom right)" % len(calls)]
    assert rows[0] == ["call", "row", "col", "depth", "bombs", "stop", "caller", "last"]
    assert len(rows) == 1 + len(calls)
    assert rows[1] == ["1", "3", "1", "1", "0", "", "", str(len(calls))]   # cell 8
    # caller: the number of the call that made it; last: the last call made
    # inside it (its own number if none): the calls between are its own.
    number = {cell: place for place, (cell, caller) in enumerate(calls, 1)}
    ancestors = {None: []}
    for cell, caller in calls:
        ancestors[cell] = ancestors[caller] + [caller]
    for place, (cell, caller) in enumerate(calls, 1):
        inside = [later for later, (other, _) in enumerate(calls, 1)
                  if later > place and cell in ancestors[other]]
        assert rows[place][6:] == ["" if caller is None else str(number[caller]),
                                   str(max(inside, default=place))]
    with open(tmp_path / "calls_board.txt", encoding="utf-8-sig") as f:
        board = f.read().splitlines()
    assert "count from 1" in board[0] and board[3].split() == ["1", "2", "3", "4"]
    assert [line.split()[1:] for line in board[4:7]] == [
        [str(number[row * 4 + col]) if row * 4 + col in number else "#"
         for col in range(4)] for row in range(3)]
    fault, said = slowmotion.write_calls(str(tmp_path), opening, "reading", speak)  # a folder
    assert fault.startswith("minesweep: cannot write the calls to ") and "\n" not in fault


def test_a_text_is_measured_once_in_each_font_and_size():
    class Font:
        """A font whose letters are size / 2 px wide, its lines size px apart."""

        def __init__(self, size):
            self.size_px, self.measured = size, []

        def size(self, text):
            self.measured.append(text)
            return len(text) * self.size_px // 2, self.size_px

        def get_linesize(self):
            return self.size_px
    fonts = {}
    measure = scene.Measure(lambda name, size: fonts.setdefault((name, size), Font(size)))
    width_of, line = measure.font(None, 20)
    assert (width_of("abcd"), width_of("abcd"), line) == (40, 40, 20)
    assert fonts[None, 20].measured == ["abcd"]
    assert measure.font(None, 20)[0] is width_of and measure.font(None, 10)[1] == 10
    fitted = measure.fit("one two three", 60, 40, 20, None)
    assert fitted[:2] == (("one two", "three"), 17)
    assert fitted is measure.fit("one two three", 60, 40, 20, None)
    assert fitted == wording.fit_lines("one two three", 60, 40, 20,
                                       lambda size: measure.font(None, size))


def test_the_panel_shows_a_function_without_its_comments():
    lines = ["def f(x):", '    """Say what it does."""', "    # why", "    return x  # so",
             "", '    """A docstring', '    of two lines."""', "    pass"]
    assert slowmotion.code_lines(lines) == ["def f(x):", "    return x", "    pass"]


# The solver's words ------------------------------------------------------------------
def test_a_chance_is_one_in_n_only_when_it_is_that():
    assert advice.chances_text(0.2) == ("one_in", {"n": 5, "percent": 20})
    assert advice.chances_text(1 / 3) == ("one_in", {"n": 3, "percent": 33})
    assert advice.chances_text(0.125) == ("one_in", {"n": 8, "percent": 12})
    # 40% is not "1 in 2", nor 30% "1 in 3": the percent alone.
    assert advice.chances_text(0.4) == ("percent", {"percent": 40})
    assert advice.chances_text(0.3) == ("percent", {"percent": 30})
    assert advice.chances_text(0.75) == ("percent", {"percent": 75})


def test_3bv_counts_openings_and_lonely_numbers():
    assert advice.board_3bv(cells(3, (0, 0)), solver.neighbour_table(3, 3)) == 1
    assert advice.board_3bv(cells(3, (1, 1)), solver.neighbour_table(3, 3)) == 8


def test_a_lost_chord_names_the_first_flag_that_marks_no_bomb():
    # 0 1 2 / 3 4 5: bombs at 1 and 5; flags at 0, 1 and 3; the chord was on 4.
    board = laid(2, 3, {1, 5}, [None, None, None, None, 2, None], {0, 1, 3})
    assert gamestate.wrong_flag(board, 4) == 0
    assert gamestate.wrong_flag(board._replace(flagged=frozenset({1, 3})), 4) == 3
    assert gamestate.wrong_flag(board._replace(flagged=frozenset({1})), 4) is None


def seen(rows, cols, bombs, shown, flags=()):
    """A board as the player sees it: these numbers shown, these cells flagged."""
    return laid(rows, cols, set(), shown, flags)._replace(bombs=bombs)


def laid(rows, cols, bomb_cells, shown, flags=()):
    """A hand-laid board: bombs at these cells, these numbers shown, these flags."""
    return gamestate.Board(rows, cols, len(bomb_cells), solver.neighbour_table(rows, cols),
                           frozenset(bomb_cells), frozenset(flags),
                           frozenset(cell for cell, number in enumerate(shown)
                                     if number is not None),
                           frozenset(), tuple(shown), False, False)


def test_a_loss_with_a_sure_safe_tile_names_it():
    # 1 x 4 with one bomb, only the 0 at the right open: its neighbour was
    # surely safe, and the player opened the left end instead (the bomb).
    loss = advice.explain_loss(seen(1, 4, 1, [None, None, None, 0]), 0)
    assert loss.said.key == "sure_safe" and loss.cell == 2 and loss.outline == advice.SAFE


def test_the_hint_is_a_sure_move_when_there_is_one():
    moves = advice.moves(seen(1, 3, 1, [None, 1, 0]))
    assert [(cell, isbomb) for cell, isbomb, why in moves] == [(0, True)]
    assert advice.moves(seen(1, 3, 1, [None, 1, 0], flags={0})) == []


# What the window shows -----------------------------------------------------------------
class MonospaceFont:
    """A font as pgzero gives one: letters size / 2 px wide, lines size px high."""

    def __init__(self, fontname, size):
        """The font of this name at this size."""
        self.height = size

    def size(self, text):
        """(width, height) of a text, px."""
        return len(text) * self.height // 2, self.height

    def get_linesize(self):
        """The height of a line, px."""
        return self.height


def window(finished=False, failed=False, state="PLAY"):
    """The shapes of a 9 x 9 window."""
    view = viewport.fit(9, 9, (1366, 768), viewport.tile_sizes(25), None, False,
                        lambda width, most: 60)
    play, showing = gamestate.Game(7), gamestate.Showing()
    showing.state = gamestate.State[state]
    play.stats = advice.game_stats(10, 12, 20.0)
    board = laid(9, 9, set(range(10)), [None] * 81)._replace(failed=failed,
                                                             finished=finished)
    lives = gamestate.Lives(play, showing, gamestate.Settings(), gamestate.Window())
    return scene.Scene(board, lives, view, scene.Measure(MonospaceFont)).shapes()


def texts(shapes):
    """The texts among shapes."""
    return [shape.text for shape in shapes if isinstance(shape, scene.Text)]


def test_a_shape_equals_only_a_shape_of_its_own_kind():
    # The game draws the window again only when its shapes changed: a frame
    # where a box of the same rect and colour was is a change.
    rect, colour = (0, 0, 10, 10), (230, 0, 0)
    assert scene.Box(rect, colour) == scene.Box(rect, colour)
    assert hash(scene.Box(rect, colour)) == hash(scene.Box(rect, colour))
    assert scene.Box(rect, colour) != scene.Frame(rect, colour)
    assert [scene.Tint(rect, colour)] != [scene.Box(rect, colour)]
    assert not scene.Box(rect, colour) == (rect, colour)


def test_the_window_says_how_the_game_ended():
    assert "Finished" in texts(window(finished=True))
    assert "Failed" in texts(window(failed=True))
    playing = texts(window())
    assert "Finished" not in playing and any("H\u00a0hint" in text for text in playing)
    assert any("Best times" in text for text in texts(window(state="TIMES")))


# Start-up ------------------------------------------------------------------------------------
def test_the_command_line_and_the_files_the_game_needs(tmp_path):
    args = startup.options(["--rows", "20", "--lang", "zh"], 15, 15, 20)
    assert (args.rows, args.cols, args.lang) == (20, 15, "zh")
    pictures, sounds, font = startup.missing(str(tmp_path), (20, 16))
    assert len(pictures) == len(startup.PICTURES) + 2 * len(startup.TILE_PICTURES)
    assert font and sounds
    assert startup.missing(ROOT, viewport.SMALLER) == ([], [], [])


def test_a_deep_recursion_gets_room_on_its_own_stack():
    def depth(n):
        """Call itself n deep."""
        return 0 if n == 0 else 1 + depth(n - 1)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(50000)
    try:
        assert bigstack.deeply(40000, depth, 30000) == 30000
    finally:
        sys.setrecursionlimit(limit)


def test_the_collector_waits_while_tiles_are_made_and_then_goes_on_as_it_was():
    import gc
    was_on = gc.isenabled()
    try:
        gc.enable()
        with bigstack.collector_waiting():
            assert not gc.isenabled()
        assert gc.isenabled()
        with pytest.raises(KeyError):       # a failed board gives it back too
            with bigstack.collector_waiting():
                raise KeyError("tile")
        assert gc.isenabled()
        gc.disable()                        # off before: it stays off
        with bigstack.collector_waiting():
            pass
        assert not gc.isenabled()
    finally:
        (gc.enable if was_on else gc.disable)()


# Texts that cannot fail on the screen -----------------------------------------------
def test_a_text_that_cannot_be_drawn_or_filled_in_is_refused(tmp_path):
    path = tmp_path / "zh.json"
    good = {key: "x" for key in wording.TEXTS}
    for title, problem in [
            ("{levle}", "puts in {levle}, which the English text does not have"),
            ("{level", "cannot have its facts put in"), ("}", "cannot have its facts put in"),
            ("{level!r}", "in a way the game does not know"),
            ("{board:>5}", "in a way the game does not know"),
            ("a\u0000", "U+0000"), ("a\ud800", "U+D800"), ("a\u001b", "U+001B")]:
        path.write_text(json.dumps(dict(good, title=title)))
        table, said = wording.read_texts(str(path))
        assert table is None and said.startswith("%s: the text 'title' " % path), said
        assert problem in said
    # Fewer facts than the English, a cell put in short, and a plural
    # ending are all right.
    path.write_text(json.dumps(dict(good, title="{board}", subset_safe="{cell:short}",
                                    only_closed="{closed_s}")))
    assert wording.read_texts(str(path))[1] == ""
    path.write_text('{"notes": ' + "[" * 100000 + "]" * 100000 + "}")
    assert "nested deeper" in wording.read_texts(str(path))[1]


def test_json_nesting_is_measured_outside_strings():
    assert not wording.too_deep('{"a": [1, {"b": "[[[[{{{{"}]}', 3)
    assert wording.too_deep('{"a": [1, {"b": [[]]}]}', 3)
    assert not wording.too_deep('{"a\\"": "[[[[\\"[[[["}', 1)


# The data folder's files ------------------------------------------------------------
def test_a_date_is_a_real_one_as_the_game_writes_it():
    assert datafiles.good_date("2026-11-30") and datafiles.good_date("2024-02-29")
    for date in ["2026-02-30", "2026-1-05", "2026-13-01", "0000-01-01", "2026-12-01\n",
                 "\u0662\u0660\u0662\u0666-01-05", "\u0000", "\ud800", "", 20261130]:
        assert not datafiles.good_date(date), date
        assert datafiles.times_fault({"Beginner": {"time": 5.0, "date": date}})


def test_a_kept_game_is_offered_with_its_level_board_and_whole_seconds():
    assert datafiles.kept_facts(kept_2x2(timer=3.9)) == {
        "level": gamestate.board_words(2, 2, 1), "board": 7, "seconds": 3}
    assert datafiles.kept_facts(kept_2x2(rows=9, cols=9, bombs=10))["level"] == \
        gamestate.board_words(9, 9, 10)


def test_a_kept_games_bombs_are_laid_where_they_were():
    assert datafiles.kept_bombs(kept_2x2()) == [(0, 0)]
    assert datafiles.kept_bombs(kept_2x2(rows=2, cols=3, under=".*...*")) == [(0, 1), (1, 2)]
    assert [tile.isbomb for tile in datafiles.kept_tiles(kept_2x2())] == [True] + [False] * 3


def test_a_worksheet_is_refused_over_the_games_own_files_and_its_data(tmp_path):
    game, data = tmp_path / "game", tmp_path / "data"
    game.mkdir()
    data.mkdir()
    (game / "minesweep.py").write_text("# the game\n")
    own = [str(game / "minesweep.py")]
    sheet, chart = str(tmp_path / "calls.csv"), str(tmp_path / "calls.map.csv")
    assert datafiles.sheets_refused([sheet, chart], str(data), own) == ""
    refused = datafiles.sheets_refused([sheet, own[0]], str(data), own)
    assert refused.startswith("minesweep: cannot write the calls to %s: " % own[0])
    refused = datafiles.sheets_refused([str(data / "settings.json")], str(data), own)
    assert "a name of the game's own files in its data folder" in refused
    assert datafiles.sheets_refused([sheet], None, own) == ""
    assert (not (game / "calls.csv").exists()) and os.listdir(str(data)) == []


def kept_2x2(**change):
    """A kept 2 x 2 game with the bomb in the first tile and the last open."""
    return dict({"format": 1, "rows": 2, "cols": 2, "bombs": 1, "board": 7,
                 "under": "*...", "marks": "...o", "timer": 3.5, "clicks": 1, "undos": 0,
                 "assisted": False, "noguess": False, "questions": False,
                 "flagwin": False}, **change)


def test_a_kept_game_must_be_in_progress_and_reachable():
    assert datafiles.kept_fault(kept_2x2()) == ""
    assert datafiles.kept_fault(kept_2x2(marks="F..o")) == ""        # no flag win
    assert "every safe tile is open" in datafiles.kept_fault(kept_2x2(marks=".ooo"))
    assert "exactly the bombs" in datafiles.kept_fault(kept_2x2(marks="F..o", flagwin=True))
    for change in ({"marks": "F..."}, {"clicks": 0}, {"undos": 2}):
        assert "could not have reached" in datafiles.kept_fault(kept_2x2(**change))


def test_a_game_in_progress_is_kept_every_30_s_of_play_and_not_twice_a_second():
    keeping, game, other = gamestate.Keeping(), gamestate.Game(1), gamestate.Game(2)
    assert not keeping.due(None, 100.0, 0.0)            # no game in progress
    assert not keeping.due(game, 29.5, 100.0)
    assert keeping.due(game, 0.5, 100.0)                # 30 s of play
    # That try failed (nothing holds it): the next is a second later.
    assert not keeping.due(game, 0.0, 100.5) and keeping.due(game, 0.0, 101.0)
    keeping.holds(game, "as kept")
    assert not keeping.due(game, 29.0, 200.0) and keeping.due(game, 1.0, 200.0)
    assert keeping.left(game) is None                   # still being played
    # The kept game is forgotten once it ends (nothing in progress) or
    # another is played, whose play is counted from nothing.
    assert not keeping.due(other, 20.0, 300.0)
    assert keeping.left(other) == "as kept" and keeping.left(other) is None
    keeping.holds(other, "other kept")
    assert keeping.left(None) == "other kept"


def test_a_lock_is_stale_when_old_from_the_future_its_game_gone_or_unchanged():
    stale = datafiles.stale_why
    host, mine = "here", "%d here" % os.getpid()
    assert stale(0.5, 0.5, "1 elsewhere", host) == ""
    assert "ago" in stale(datafiles.LOCK_STALE + 1, 0, "", host)
    assert "future" in stale(-datafiles.LOCK_STALE - 1, 0, "", host)
    assert "unchanged" in stale(0.5, datafiles.LOCK_STALE + 0.1, "", host)
    if os.name == "posix":
        assert "no longer running" in stale(0.5, 0.5, mine, host)      # not held by us
        assert stale(0.5, 0.5, "%d here" % os.getppid(), host) == ""    # alive
        assert stale(0.5, 0.5, "%d there" % os.getppid(), host) == ""
    for odd in ("", "x", "12 34 56", "\u0663 here", "99999999999999999999 here"):
        assert datafiles.owner_state(odd, host) != "gone"


def test_a_lock_that_cannot_be_written_is_removed_and_closed(tmp_path, monkeypatch):
    opened = []
    real_open, real_close = os.open, os.close

    def full(handle, data):
        """A disk with no room left."""
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(datafiles.os, "write", full)
    monkeypatch.setattr(datafiles.os, "open", lambda *args: opened.append(
        real_open(*args)) or opened[-1])
    monkeypatch.setattr(datafiles.os, "close", lambda handle: opened.remove(handle)
                        or real_close(handle))
    said = []
    assert datafiles.record_best_time(str(tmp_path), "Beginner", 1.0,
                                      lambda topic, line: said.append(line)) == "unsaved"
    assert opened == [] and os.listdir(tmp_path) == []
    assert "No space left on device" in said[0]


def test_a_file_is_on_the_disk_before_the_rename_and_its_folder_after(tmp_path, monkeypatch):
    done = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(handle):
        """Note what is flushed: a file (with its size) or a folder."""
        info = os.fstat(handle)
        done.append(("flush folder",) if stat.S_ISDIR(info.st_mode) else
                    ("flush file", info.st_size))
        real_fsync(handle)

    def replace(old, new):
        """Note the rename."""
        done.append(("rename", os.path.basename(new)))
        real_replace(old, new)

    monkeypatch.setattr(datafiles.os, "fsync", fsync)
    monkeypatch.setattr(datafiles.os, "replace", replace)
    datafiles.record_best_time(str(tmp_path), "Beginner", 1.0, lambda topic, line: None)
    size = os.path.getsize(tmp_path / "best_times.json")
    if hasattr(os, "O_DIRECTORY"):
        assert done == [("flush file", size), ("rename", "best_times.json"),
                        ("flush folder",)]
    else:
        assert done == [("flush file", size), ("rename", "best_times.json")]


# Start-up -------------------------------------------------------------------------------
def test_a_broken_code_font_and_no_sound_card_are_each_said_and_the_game_goes_on(tmp_path):
    mono = tmp_path / "minesweep_mono.ttf"
    mono.write_bytes(b"\0" * 16)

    def load(path):
        """A font loader that refuses what is no font, as pygame's does."""
        with open(path, "rb") as f:
            if f.read(4) != b"\0\1\0\0":
                raise OSError("unknown file format\nmore")
        return path
    usable, said = startup.code_font_and_sound(str(mono), load, True)
    assert not usable and [topic for topic, line in said] == ["no sound", "mono"]
    assert "%s cannot be used (unknown file format)" % mono in said[1][1]
    mono.write_bytes(b"\0\1\0\0")
    assert startup.code_font_and_sound(str(mono), load, False) == (True, [])


def test_every_file_is_loaded_at_start_and_each_broken_one_named(tmp_path):
    for sub, names in (("images", startup.picture_names(viewport.SMALLER)),
                       ("sounds", startup.SOUNDS)):
        (tmp_path / sub).mkdir()
        for name in names:
            (tmp_path / sub / (name + (".png" if sub == "images" else ".wav"))).write_text("")
    (tmp_path / "fonts").mkdir()
    font = startup.FONT_FILES["minesweep_zh"]
    (tmp_path / font).write_text("")
    (tmp_path / "texts").mkdir()
    for path in startup.TEXT_FILES.values():
        (tmp_path / path).write_text("{}")

    def refuse(bad):
        """A loader that refuses these names, as pygame refuses a broken file;
        a picture it loads has the size the game draws it at."""
        def load(name):
            """Load a file, or fail as its library would."""
            if name in bad:
                raise ValueError("Unsupported image format\nmore detail")
            return startup.picture_size(name, 25)
        return load

    load = {"images": refuse({"face_win"}), "sounds": refuse({"win"}),
            "fonts": refuse({str(tmp_path / font)}), "texts": wording.read_texts}
    fatal, said, texts, fonts = startup.problems(str(tmp_path), (25,) + viewport.SMALLER, load)
    assert "face_win.png cannot be read (Unsupported image format)" in fatal
    assert texts == {} and fonts == set() and len(said) == 4
    load["images"] = refuse(())
    fatal, said, texts, fonts = startup.problems(str(tmp_path), (25,) + viewport.SMALLER, load)
    assert fatal is None and len(said) == 4
    assert [topic for topic, line in said[2:]] == ["texts zh", "texts zh-TW"]
    # --check names each broken file, and stops for them.
    fatal, said, texts, fonts = startup.problems(str(tmp_path), (25,) + viewport.SMALLER, load,
                                                 True)
    assert fatal == "minesweep: 4 broken files (see above)"
    for path, (topic, line) in zip([os.path.join("sounds", "win.wav"), font,
                                    startup.TEXT_FILES["zh"], startup.TEXT_FILES["zh-TW"]],
                                   said):
        assert topic == line and str(tmp_path / path) in line
    fatal, said, texts, fonts = startup.problems(str(tmp_path), (25,) + viewport.SMALLER, {
        "images": refuse(()), "sounds": None, "fonts": lambda path: lambda text: [],
        "texts": lambda path: ({"title": os.path.basename(path)}, "")}, True)
    assert (fatal, said, texts, fonts) == (None, [], {"zh": {"title": "zh.json"},
                                                      "zh-TW": {"title": "zh-TW.json"}},
                                           {"minesweep_zh"})
    # One language's texts missing: the other is read, and the missing one is said.
    os.remove(tmp_path / startup.TEXT_FILES["zh"])
    with open(os.path.join(ROOT, startup.TEXT_FILES["zh-TW"]), encoding="utf-8") as f:
        (tmp_path / startup.TEXT_FILES["zh-TW"]).write_text(f.read(), encoding="utf-8")
    fatal, said, texts, fonts = startup.problems(str(tmp_path), (25,) + viewport.SMALLER, {
        "images": refuse(()), "sounds": None, "fonts": lambda path: lambda text: [],
        "texts": wording.read_texts})
    assert fatal is None and sorted(texts) == ["zh-TW"]
    assert [topic for topic, line in said] == ["texts zh"]
    assert "instead of Chinese (Simplified)" in said[0][1]


class FakeSignals:
    """Python's signal module, as far as the game uses it."""
    SIG_IGN = "ignore"
    SIGTERM, SIGHUP = 15, 1

    def __init__(self):
        """No handler yet."""
        self.handlers = {}

    def signal(self, number, handler):
        """Set a handler."""
        self.handlers[number] = handler


def test_sigterm_and_sighup_stop_the_game_once():
    signals, stops = FakeSignals(), []
    startup.stop_on_signals(signals, lambda: stops.append(1))
    assert set(signals.handlers) == {15, 1}
    signals.handlers[1](1, None)
    assert stops == [1] and signals.handlers == {15: "ignore", 1: "ignore"}


class FakeDisplay:
    """pygame.display, refusing the window a number of times; its desktops'
    sizes (or the error asking for them raises)."""

    def __init__(self, refusals, desktops=((1366, 768),)):
        """A display that is up, and will refuse so many times."""
        self.refusals, self.tries, self.desktops = refusals, 0, desktops

    def get_desktop_sizes(self):
        """The desktops' (width, height)s."""
        if isinstance(self.desktops, Exception):
            raise self.desktops
        return list(self.desktops)

    def get_init(self):
        """The display is up."""
        return True

    def quit(self):
        """Stop the display."""

    def init(self):
        """Start the display, or refuse."""
        self.tries += 1
        if self.tries <= self.refusals:
            raise OSError("x11 not available")

    def set_mode(self, size):
        """Open the window."""


def test_the_desktop_size_is_asked_for_or_unknown():
    assert startup.desktop(FakeDisplay(0, [[1366, 768], [800, 600]]), OSError) == (1366, 768)
    assert startup.desktop(FakeDisplay(0, []), OSError) is None
    assert startup.desktop(FakeDisplay(0, OSError("no video")), OSError) is None


class FakePygame:
    """pygame as open_window sees it: a FakeDisplay refused this many times first."""

    error = OSError

    def __init__(self, refusals):
        """pygame with this display."""
        self.display = FakeDisplay(refusals)


def test_the_window_is_asked_for_again_a_few_times():
    environ, naps = {"SDL_VIDEODRIVER": "x11"}, []
    assert startup.open_window(FakePygame(2), environ, "linux", naps.append) is None
    assert naps == [0.25, 0.25] and environ["SDL_FRAMEBUFFER_ACCELERATION"] == "0"
    refused = startup.open_window(FakePygame(100), {}, "linux", naps.append)
    assert str(refused) == "x11 not available"
    assert startup.open_window(FakePygame(100), {}, "win32", naps.append) is None


def test_no_sound_card_is_told_apart_from_a_card_or_a_sound_server():
    files = {"/proc/asound/cards": "--- no soundcards ---\n"}
    sockets = set()

    def quiet(environ, platform="linux"):
        """no_sound_card on the files and sockets above."""
        return startup.no_sound_card(environ, platform, files.get, sockets.__contains__)

    assert quiet({})
    assert quiet({"XDG_RUNTIME_DIR": "/run/user/1000"})
    assert not quiet({}, platform="win32") and not quiet({}, platform="darwin")
    assert not quiet({"PULSE_SERVER": "tcp:10.0.0.1"})
    sockets.add("/run/user/1000/pulse/native")
    assert not quiet({"XDG_RUNTIME_DIR": "/run/user/1000"})
    sockets.clear()
    sockets.add("/run/user/1000/pipewire-0")
    assert not quiet({"XDG_RUNTIME_DIR": "/run/user/1000"})
    files["/proc/asound/cards"] = " 0 [PCH ]: HDA-Intel - HDA Intel PCH\n"
    assert not quiet({})
    del files["/proc/asound/cards"]     # no ALSA at all, as in a container
    sockets.clear()
    assert quiet({})


def test_one_won_judges_a_game_and_a_kept_game_alike():
    tile = datafiles.KeptTile
    opened = [tile(True, False, False, False), tile(False, True, False, False)]
    flagged = [tile(True, False, True, False), tile(False, False, False, False)]
    wrong = [tile(True, False, False, False), tile(False, False, True, False)]
    assert gamestate.won(opened, False) and gamestate.won(opened, True)
    assert not gamestate.won(flagged, False) and gamestate.won(flagged, True)
    assert not gamestate.won(wrong, False) and not gamestate.won(wrong, True)


def test_a_new_kept_field_may_begin_as_none(monkeypatch):
    # A field added later, whose first value is None: a game kept before it
    # existed is still a good one, and resumes with None.
    monkeypatch.setattr(datafiles, "KEPT_FIELDS", datafiles.KEPT_FIELDS + (
        ("hinted_at", lambda value: value is None or datafiles.is_count(value), "game",
         None),))
    play = Owner(timer=1.0, clicks=1, undos=0, assisted=False, noguess=False,
                 hinted_at=3)
    settings = Owner(questions=False, flagwin=False)
    tiles = [datafiles.KeptTile(True, False, False, False),
             datafiles.KeptTile(False, True, False, False)] + [
        datafiles.KeptTile(False, False, False, False)] * 2
    kept = datafiles.kept_game(kept_board(tiles), 7, {"game": play, "settings": settings})
    assert datafiles.kept_fault(kept) == "" and kept["hinted_at"] == 3
    del kept["hinted_at"]
    assert datafiles.kept_fault(kept) == ""
    assert datafiles.kept_fields(kept)["hinted_at"] == ("game", None)
    del kept["clicks"]                      # a field that was always there
    assert datafiles.kept_fault(kept) == "not a saved game"


def test_every_choice_is_in_a_key_list_of_every_language():
    # A choice that works in a replay is listed among the panel's keys;
    # one that works in play alone, in the footer's key list.
    tables = [wording.TEXTS] + [wording.read_texts(os.path.join(ROOT, path))[0]
                                for path in startup.TEXT_FILES.values()]
    for table in tables:
        for choice in gamestate.CHOICES.values():
            text = table["panel_keys" if gamestate.State.REPLAY in choice.modes else "keys"]
            listed = {pair.split("\u00a0")[0].rstrip(":") for pair in scene.pairs(text)}
            assert choice.key in listed, (choice.name, text)


def test_each_choice_starts_off_and_says_its_words_when_turned():
    settings = gamestate.Settings()
    for name, choice in gamestate.CHOICES.items():
        assert getattr(settings, name) is False
        on = settings.toggle(name)
        assert getattr(settings, name) is True and on == (choice.on and wording.words(
            choice.on))
        assert settings.toggle(name) == (choice.off and wording.words(choice.off))


def test_a_run_of_replays_goes_back_to_the_state_before_the_first():
    showing = gamestate.Showing()
    showing.state = gamestate.State.AUTO
    showing.show_replay("the stack's replay")
    assert (showing.state, showing.back_to) == (gamestate.State.REPLAY, gamestate.State.AUTO)
    showing.show_replay("the queue's replay")       # W: the same opening, a queue
    assert (showing.replay, showing.back_to) == ("the queue's replay", gamestate.State.AUTO)
    showing.end_replay()
    assert (showing.state, showing.replay) == (gamestate.State.AUTO, None)



def test_a_warning_is_given_once_per_topic_while_the_window_is_open():
    window = gamestate.Window()
    assert window.first_time("no sound") is True
    assert window.first_time("mono") is True
    assert window.first_time("no sound") is False
    assert gamestate.Window().first_time("no sound") is True     # a new window


def test_the_win_is_looked_for_again_only_after_a_change():
    showing = gamestate.Showing()
    assert showing.look_again((0, False)) is True
    assert showing.look_again((0, False)) is False
    assert showing.look_again((0, True)) is True        # X turned over
    assert showing.look_again((1, True)) is True        # a tile changed
    assert showing.look_again((1, True)) is False


def test_the_solver_stops_now_or_once_the_replay_it_watches_ends():
    State = gamestate.State
    showing = gamestate.Showing()
    showing.state = State.AUTO
    showing.stop_auto()
    assert showing.state is State.PLAY
    showing.state = State.AUTO
    showing.show_replay("the stack's replay")
    showing.stop_auto()
    assert (showing.state, showing.back_to) == (State.REPLAY, State.PLAY)
    showing.end_replay()
    assert showing.state is State.PLAY
    showing.state = State.PAUSED            # not playing: nothing changes
    showing.stop_auto()
    assert showing.state is State.PAUSED


def test_a_language_is_spoken_only_once_its_texts_were_read():
    settings = gamestate.Settings()
    texts = {languages.ENGLISH: wording.TEXTS, "zh": {"title": "x"}}
    assert settings.speak("zh", texts) is True and settings.language == "zh"
    assert settings.speak("zh-TW", texts) is False and settings.language == "zh"
    assert settings.speak(languages.ENGLISH, texts) and settings.language == languages.ENGLISH


def test_a_key_given_two_meanings_in_one_state_is_refused():
    assert gamestate.key_table({"H": "hint"}, {"Q": "marks"}) == {"H": "hint", "Q": "marks"}
    with pytest.raises(ValueError, match="the key H has two meanings"):
        gamestate.key_table({"H": "hint", "R": "new"}, {"H": "marks"})


def test_the_keys_named_in_the_tables_are_found_in_pgzeros_keys():
    import types
    names = list(gamestate.ARROWS) + list(gamestate.LEVEL_KEYS) + list(gamestate.SPEED_KEYS)
    keys = types.SimpleNamespace(**{name: "key " + name for name in names})
    assert gamestate.by_key(keys, gamestate.ARROWS)["key LEFT"] == (0, -1)
    levels = gamestate.by_key(keys, gamestate.LEVEL_KEYS)
    assert levels["key K_2"] == levels["key KP2"] == "2" and len(levels) == 8
    assert sorted(gamestate.by_key(keys, gamestate.SPEED_KEYS).values()) == [-1, -1, 1, 1, 1]
    with pytest.raises(AttributeError):         # a name pgzero does not have
        gamestate.by_key(types.SimpleNamespace(), {"UP": (-1, 0)})


def test_the_footer_names_each_choice_that_works_now_in_the_table_order():
    settings = gamestate.Settings()
    settings.predict = True             # predict works only within slow motion
    assert not settings.working("predict")
    settings.slowmo = settings.flagwin = True
    assert [choice.shown for choice in gamestate.CHOICES.values()
            if settings.working(choice.name)] == ["mode_slowmo", "mode_predict",
                                                  "mode_flagwin"]
    # Each choice's footer word is a text, and only kept choices come with a kept game.
    assert all(choice.shown in wording.TEXTS for choice in gamestate.CHOICES.values())
    kept = {name for name, check, whose, first in datafiles.KEPT_FIELDS
            if whose == "settings"}
    assert kept == {"questions", "flagwin"} == {
        choice.name for choice in gamestate.CHOICES.values() if choice.kept}


def test_the_footer_keeps_room_for_every_reason_the_solver_gives():
    with open(os.path.join(ROOT, "solver.py"), encoding="ascii") as f:
        tree = ast.parse(f.read())
    given = {call.args[2].value for call in ast.walk(tree) if isinstance(call, ast.Call)
             and getattr(call.func, "attr", "") == "learn"}
    assert len(given) == 10 and given == set(solver.REASONS)
    assert set(solver.REASONS) <= set(wording.TEXTS)


def test_the_footer_keeps_room_for_every_news_the_game_can_give():
    # Every words() the game puts in showing.message, and every choice's words
    # (with "_now" for no-guess, said before a board's bombs are laid).
    with open(os.path.join(ROOT, "minesweep.py"), encoding="ascii") as f:
        tree = ast.parse(f.read())
    given = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Attribute) and target.attr == "message"
                and getattr(target.value, "id", "") == "showing"
                for target in ast.walk(node.targets[0])):
            given |= {call.args[0].value for call in ast.walk(node.value)
                      if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "words"}
    for choice in gamestate.CHOICES.values():
        given |= {said for said in (choice.on, choice.off) if said}
    given |= {"noguess_on_now", "noguess_off_now"}
    assert {"zoom", "game_over", "typing", "recursion_demo"} <= given
    assert given <= set(scene.NEWS), given - set(scene.NEWS)


@pytest.mark.parametrize("name", ["advice", "bigstack", "datafiles", "gamestate", "scene",
                                  "slowmotion", "solver", "startup", "viewport", "wording"])
def test_each_module_imports_first_on_its_own(name):
    # minesweep.py imports startup before anything else (to settle the sound
    # driver before pygame starts): every module must import first, alone,
    # whatever the modules it imports import in turn.
    done = subprocess.run([sys.executable, "-c", "import %s" % name], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
