"""The modules beside minesweep.py, on their own: plain data in and out.

These tests load no game and no pygame (test_house.py runs them where
pygame and pgzero cannot even be imported), so they use no fixture of
conftest.py either.
"""
import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import advice  # noqa: E402
import bigstack  # noqa: E402
import datafiles  # noqa: E402
import gamestate  # noqa: E402
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
    key = (16, 10, 20, 30, 40, None)
    assert viewport.repaint(None, key)[0] is True
    whole, shift, areas = viewport.repaint(key, (16, 12, 20, 30, 40, None))
    assert not whole and shift == (2, 0)
    assert areas[0] == (range(40, 42), range(20, 60)) and list(areas[1][1]) == []
    assert viewport.repaint(key, (20, 10, 20, 30, 40, None))[0] is True   # zoomed


# The words --------------------------------------------------------------------
def test_say_puts_the_facts_and_cells_in_words():
    table = wording.TEXTS
    said = wording.say(table, "hint_bomb", {"why": wording.words(
        "only_closed", number=2, at=solver.Cell(7), closed=2)}, 5)
    assert said == ("Bomb: the 2 at row 2, col 3 has only 2 closed neighbours, just as "
                    "many as its bombs")
    assert wording.speak(table, None, 5) == ""


def test_wrap_breaks_english_at_spaces_and_chinese_anywhere():
    width_of = len                                  # one px a letter
    assert wording.wrap("one two three", width_of, 8) == ["one two", "three"]
    assert wording.wrap("\u4e00\u4e8c\u4e09\u56db", width_of, 2) == [
        "\u4e00\u4e8c", "\u4e09\u56db"]
    # Three lines do not fit in 20 px at any size: two, the last cut short.
    assert wording.fit_lines("a b c d e f", 3, 20, 16, lambda size: (len, 10)) == (
        ("a b", "..."), 10, 20)
    assert wording.fit_lines("a b c d e f", 3, 30, 16, lambda size: (len, 10)) == (
        ("a b", "c d", "e f"), 16, 30)


def test_the_language_comes_from_the_command_line_the_choice_or_the_system():
    assert wording.choose("zh", {}, lambda: "en") == "zh"
    assert wording.choose(None, {"MINESWEEP_LANG": "zh"}, lambda: "en") == "zh"
    assert wording.choose(None, {}, lambda: "zh") == "zh"
    assert wording.system_language({"LANG": "zh_CN.UTF-8"}, None) == "zh"
    assert wording.system_language({"LANG": "de_DE.UTF-8"}, None) == "en"


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


def test_a_kept_game_reads_back_as_it_was(tmp_path):
    play = Owner(timer=12.3456, clicks=4, undos=0, assisted=False, noguess=True)
    settings = Owner(questions=True, flagwin=False)
    tiles = [(True, False, True, False), (False, True, False, False),
             (False, False, False, True), (False, False, False, False)]
    kept = datafiles.kept_game(2, 2, 1, 42, tiles, {"game": play, "settings": settings})
    assert datafiles.kept_fault(kept) == ""
    assert datafiles.kept_tiles(kept) == tiles
    assert datafiles.kept_fields(kept)["timer"] == ("game", 12.346)
    assert datafiles.kept_fields(kept)["questions"] == ("settings", True)
    datafiles.keep_game(str(tmp_path), kept, lambda topic, line: None)
    assert datafiles.kept_game_found(str(tmp_path), lambda topic, line: None) == kept


@pytest.mark.parametrize("change, fault", [
    ({"rows": 0}, "a board this version cannot play"), ({"format": 2}, "newer version"),
    ({"marks": "o..."}, "not a saved game"), ({"clicks": True}, "not a saved game"),
    ({"timer": 1000}, "not a saved game")])
def test_a_kept_game_that_could_not_be_kept_is_refused(change, fault):
    play = Owner(timer=1.0, clicks=1, undos=0, assisted=False, noguess=False)
    settings = Owner(questions=False, flagwin=False)
    tiles = [(True, False, False, False)] + [(False, False, False, False)] * 3
    kept = dict(datafiles.kept_game(2, 2, 1, 7, tiles, {"game": play,
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


# The game's state and its boards --------------------------------------------------
def test_boards_are_checked_and_named():
    assert gamestate.board_fault(15, 15, 20) == ""
    assert "rows and cols must be" in gamestate.board_fault(0, 15, 1)
    assert "bombs must be 0..8" in gamestate.board_fault(3, 3, 9)
    assert "board number" in gamestate.board_fault(3, 3, 1, -1)
    assert gamestate.level_name(16, 30, 99) == "Expert"
    assert gamestate.level_name(16, 30, 98) is None


def test_a_board_number_gives_the_same_random_numbers():
    first = gamestate.board_random(42, 9, 9, 10, 40, False).random()
    assert gamestate.board_random(42, 9, 9, 10, 40, False).random() == first
    assert gamestate.board_random(42, 9, 9, 10, 40, True).random() != first
    assert gamestate.start_tile(42, 9, 9) == gamestate.start_tile(42, 9, 9)


def test_a_new_game_has_not_begun():
    game = gamestate.Game(5)
    assert game.state is gamestate.State.PLAY and not game.laid and game.timer == 0.0


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


def test_a_replay_steps_forward_and_back_to_the_same_place():
    calls, numbers, around, bombs = board_3x4()
    replay = slowmotion.Opening(calls, set(), numbers, set(), bombs, around).replay("stack")
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


def test_the_queue_replay_is_the_solvers_flood():
    calls, numbers, around, bombs = board_3x4()
    replay = slowmotion.Opening(calls, set(), numbers, set(), bombs, around).replay("queue")
    order = []
    while replay.forward():
        order.append(replay.step().cell)
    assert order == [cell for cell, number in solver.flood(8, bombs, around,
                                                           lambda cell: True)]
    assert sorted(order) == sorted(cell for cell, caller in calls)


def test_the_panel_shows_a_function_without_its_comments():
    lines = ["def f(x):", '    """Say what it does."""', "    # why", "    return x  # so",
             "", "def g():"]
    assert slowmotion.function_lines(lines, 1) == ["def f(x):", "    return x"]


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


def test_a_loss_with_a_sure_safe_tile_names_it():
    # 1 x 4 with one bomb, only the 0 at the right open: its neighbour was
    # surely safe, and the player opened the left end instead (the bomb).
    said, cell, kind = advice.explain_loss(1, 4, 1, [None, None, None, 0],
                                           solver.neighbour_table(1, 4), 0)
    assert said[0] == "sure_safe" and cell == 2 and kind == advice.SAFE


def test_the_hint_is_a_sure_move_when_there_is_one():
    moves = advice.moves(1, 3, 1, [None, 1, 0], solver.neighbour_table(1, 3), set())
    assert [(cell, isbomb) for cell, isbomb, why in moves] == [(0, True)]
    assert advice.moves(1, 3, 1, [None, 1, 0], solver.neighbour_table(1, 3), {0}) == []


# What the window shows -----------------------------------------------------------------
def monospace(fontname, size):
    """A font of letters size / 2 px wide and lines size px high."""
    return (lambda text: len(text) * size // 2), size


def window(finished=False, failed=False, state="PLAY"):
    """The shapes of a 9 x 9 window."""
    view = viewport.fit(9, 9, (1366, 768), viewport.tile_sizes(25), None, False,
                        lambda width, most: 60)
    play = gamestate.Game(7)
    play.state = gamestate.State[state]
    play.stats = advice.game_stats(10, 12, 20.0)
    board = scene.Board(9, 9, 10, 10, failed, finished, 1000, (), (), view.width,
                        view.height)
    settings = gamestate.Settings()
    return scene.Scene(board, play, settings, view, monospace).shapes()


def texts(shapes):
    """The texts among shapes."""
    return [shape[1] for shape in shapes if shape[0] == "text"]


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
