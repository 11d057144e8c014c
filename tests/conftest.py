"""Fixtures: a fresh copy of the game for every test, loaded as pgzrun does."""
import pytest

from loadgame import load_game, with_screen


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
    return game.play.state is game.State[name]


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
    return (game.blocks[moves[0][0]], moves[0][1], game.speak(moves[0][2])) if moves else None


def tile_states(game):
    """Everything the player sees of every tile, and what it knows of it."""
    return [(block.isopen, block.isflag, block.isquestion, block.number,
             block.image) for block in game.blocks]
