"""Fixtures: a fresh copy of the game for every test, loaded as pgzrun does."""
import os
import time

import pytest

import datafiles
from loadgame import load_game, with_screen

# The tests run as on a computer whose settings name no language: the game
# and the checker choose theirs from them as they start (the game English,
# the checker the book's Chinese), and a test that wants another says so.
for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "MINESWEEP_LANG"):
    os.environ.pop(name, None)
os.environ["LANG"] = "C.UTF-8"

# The tests that take longest (10 s or more each on a 2-core machine), the
# longest first: a test's name, or the start of its name and parameters. They start first: pytest-xdist (--dist worksteal in
# pytest.ini) gives each worker its share of the tests in order, and an idle
# worker takes over tests still waiting on another, so no worker is left
# with one long test at the end while the other has nothing to do.
SLOW = ["test_the_window_keeps_its_size_through_a_game[100-200",
        "test_a_simulated_class_of_forty_is_shown_save_by_save_and_no_half_write_is_judged",
        "test_two_hundred_files_are_all_shown",
        "test_a_board_of_100_by_200_in_a_real_window",
        "test_each_step_runs_as_thonny_runs_it_and_does_what_its_english_step_does",
        "test_closing_keeps_the_game_for_the_next_start",
        "test_forming_fifties_are_counted_exactly",
        "test_two_games_winning_at_once_lose_nothing",
        "test_hints_never_lie",
        "test_chances_match_brute_force",
        "test_autoplay_plays_a_big_board_to_the_end_and_a_level_a_move_a_tick",
        "test_a_move_on_a_big_board_gets_a_stack_for_its_whole_flood",
        "test_every_board_fits_and_its_words_fit[200-200",
        "test_every_tile_can_be_reached[200-200",
        "test_every_board_fits_and_its_words_fit[100-200",
        "test_every_tile_can_be_reached[100-200",
        "test_looking_ahead_equals_counting_every_layout",
        "test_play_in_a_real_window",
        "test_slow_motion_in_a_real_window",
        "test_the_tools_the_docs_name_run",
        "test_chinese_lines_break_only_between_words_at_every_width",
        "test_the_worksheet_goes_only_to_a_regular_file_never_the_games_own",
        "test_drawing_only_what_changed_draws_what_a_fresh_drawing_does",
        "test_random_play_keeps_the_rules"]
# A chapter board whose middle tile opens 140 tiles (tools/screenshot.py's too).
SLOW_BOMBS = [(0, 7), (0, 13), (1, 13), (2, 10), (4, 3), (4, 5), (6, 1), (6, 5),
              (6, 10), (8, 5), (8, 9), (9, 9), (9, 13), (11, 3), (11, 10),
              (12, 5), (13, 3), (13, 12), (14, 2), (14, 14)]


def pytest_collection_modifyitems(items):
    """The slowest tests first (SLOW's order), then the rest as collected."""
    def rank(item):
        """Where the test comes in SLOW (after all of it if it is not there)."""
        # "name" is every test of that name; "name[params" those parameters.
        return next((place for place, name in enumerate(SLOW) if item.name == name
                     or item.name.startswith(name if "[" in name else name + "[")),
                    len(SLOW))
    items.sort(key=rank)


@pytest.fixture
def game(tmp_path, monkeypatch):
    """A freshly loaded minesweep module; best times go to a temporary folder."""
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path / "data"))
    game = load_game()
    yield game
    game.stop_autoplay()            # pgzero's clock is shared by every test


@pytest.fixture
def shown(game):
    """The game with its (dummy) window, so draw() can run."""
    with_screen(game)
    return game


def board(game, rows, cols, bombs_at):
    """A hand-laid board: this size, bombs exactly at these cells."""
    game.new_game(rows, cols, len(bombs_at))
    game.lay_bombs(bombs_at)
    game.layout()                   # as the next frame does
    return game


def footer(game):
    """What the line below the grid says now."""
    return game.now_showing().footer_words()


def in_state(game, name):
    """True if the game is in this state (PLAY, PAUSED, TIMES, AUTO, ...)."""
    return game.showing.state is game.State[name]


def tile_centre(game, row, col):
    """The window position of the middle of a tile."""
    game.view_this_board()          # a board made since the last frame
    # The view shows tile (view_row, view_col) at the grid's top left corner,
    # each tile `tile` px square.
    return (game.view.left + (col - game.view.col) * game.view.tile + game.view.tile // 2,
            game.view.top + (row - game.view.row) * game.view.tile + game.view.tile // 2)


def picture(game):
    """The board as the player sees it: one string a row.

    '#' closed, 'F' flag, '?' question mark, '0'-'8' open numbers,
    '*' bomb, '!' the red bomb, 'X' a wrong flag.
    """
    marks = {"minesweep_block": "#", "minesweep_flag": "F",
             "minesweep_question": "?", "minesweep_bomb": "*",
             "minesweep_bomb_red": "!", "minesweep_wrong": "X"}
    rows = []
    for row in range(game.ROWS):
        line = ""
        for col in range(game.COLS):
            image = game.block_at(row, col).image
            line += marks.get(image, image[-1])
        rows.append(line)
    return rows


def open_every_safe_tile(game):
    """Win the game by hand: take off any marks and open every safe tile."""
    for block in game.blocks:
        if not block.isbomb and not block.isopen:
            while block.isflag or block.isquestion:
                game.set_flag(block)
            game.grid_action(block, game.click_open)


def hint(game):
    """The move H would show, as (block, isbomb (None: a guess), reason), or None."""
    moves = game.find_moves()
    if not moves:
        return None
    return game.blocks[moves[0].cell], moves[0].isbomb, game.speak(moves[0].why)


def tile_states(game):
    """Everything the player sees of every tile, and what it knows of it."""
    return [(block.isopen, block.isflag, block.isquestion, block.number,
             block.image) for block in game.blocks]


# Between two looks at another process a test waits for (its window, a
# save come to its pause), a short pause: a loop that looks without one
# takes a core from the very process it waits for.
LOOK_AGAIN = 0.02       # s


def look_again():
    """Pause a moment before looking once more at a process we wait for."""
    time.sleep(LOOK_AGAIN)


def lock_naps(monkeypatch, action):
    """How many times the game napped between two looks at another game's
    lock while action() ran (each nap still sleeps)."""
    naps, sleep = [], time.sleep

    def counted(seconds):
        """time.sleep, counting the lock's naps."""
        if seconds == datafiles.LOCK_NAP:
            naps.append(seconds)
        sleep(seconds)
    monkeypatch.setattr(time, "sleep", counted)
    try:
        action()
    finally:
        monkeypatch.setattr(time, "sleep", sleep)
    return len(naps)
