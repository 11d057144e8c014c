"""Random play (hypothesis): whatever the player does, the rules hold."""
import random

import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st

import scene
import solver
import viewport
from conftest import tile_centre
from loadgame import load_game


KEYS = ["UP", "DOWN", "LEFT", "RIGHT", "SPACE", "RETURN", "F", "R", "Q",
        "K_0", "K_1", "ESCAPE", "A", "H", "N", "Z", "V", "V", "W", "P", "PLUS",
        "MINUS", "U", "U", "S"]
BUTTONS = [1, 2, 3, 4, 5]

boards = st.integers(1, 6).flatmap(lambda rows: st.integers(1, 6).flatmap(
    lambda cols: st.tuples(st.just(rows), st.just(cols),
                           st.integers(0, rows * cols - 1))))
# Mostly the middles of tiles (worked out on the board being played),
# sometimes any point: the bar, the face, the message line, outside.
points = st.one_of(
    st.tuples(st.just("tile"), st.integers(0, 6), st.integers(0, 6)),
    st.tuples(st.just("tile"), st.integers(0, 6), st.integers(0, 6)),
    st.tuples(st.just("tile"), st.integers(0, 6), st.integers(0, 6)),
    st.tuples(st.just("xy"), st.integers(-30, 260), st.integers(-30, 260)))
clicks = st.tuples(st.just("click"), points, st.sampled_from(BUTTONS))
actions = st.one_of(
    clicks, clicks, clicks, clicks,
    st.tuples(st.just("down"), points, st.sampled_from(BUTTONS)),
    st.tuples(st.just("up"), st.just(None), st.sampled_from(BUTTONS)),
    st.tuples(st.just("move"), points, st.just(None)),
    st.tuples(st.just("key"), st.sampled_from(KEYS), st.just(None)),
    st.tuples(st.just("tick"), st.floats(0, 2), st.just(None)))


def where(game, point):
    """A window position from a point of the strategy."""
    kind, a, b = point
    if kind == "xy":
        return (a, b)
    return tile_centre(game, a, b)


def do(game, action):
    """Play one action as pgzero would deliver it."""
    kind, what, button = action
    if kind in ("click", "down", "move"):
        what = where(game, what)
    if kind in ("click", "down"):
        game.on_mouse_down(what, game.mouse(button))
    if kind in ("click", "up"):
        game.on_mouse_up(game.mouse(button))
    if kind == "move":
        game.on_mouse_move(what)
    if kind == "key":
        game.on_key_down(getattr(game.keys, what))
    if kind == "tick":
        game.update(what)


def seen(game):
    """What the player sees of the grid."""
    return [block.image for block in game.blocks]


def check_rules(game):
    """The rules that must hold after every step."""
    for block in game.blocks:
        if block.isopen:
            assert not block.isflag and not block.isquestion
            count = sum(other.isbomb for other in block.neighbours)
            assert block.image == "minesweep_number%d" % count
            assert not block.isbomb
        assert not (block.isflag and block.isquestion)
    if game.play.laid:
        assert sum(block.isbomb for block in game.blocks) == game.BOMBS
    all_open = all(block.isopen for block in game.blocks if not block.isbomb)
    assert game.finished == (game.play.laid and all_open and not game.failed)
    assert not (game.failed and game.finished)
    assert 0 <= game.play.timer <= 999
    # A post-mortem exactly while a game is lost, and room for it below.
    assert (game.play.postmortem is not None) == game.failed
    height = game.BAR + game.view.board_height() + game.view.footer
    slowmo = game.settings.slowmo
    assert game.HEIGHT == (max(height, viewport.PANEL_HEIGHT) if slowmo else height)
    footer = [shape for shape in game.now_showing().footer() if isinstance(shape, scene.Text)][0]
    assert not footer.text.endswith("...")
    check_slow_motion(game)


def check_slow_motion(game):
    """Slow motion leaves nothing stale: no recording between moves, a
    replay only of this board's tiles, a window that fits the mode."""
    assert game.open_block.__name__ == "open_block" and game.open_block.__module__ != (
        "slowmotion")                               # no recorder left standing in
    panel = viewport.panel_width(game.window.desktop) if game.settings.slowmo else 0
    assert game.WIDTH == game.view.board_width() + panel
    cells = set(range(len(game.blocks)))
    if game.play.opening is not None:
        calls, before = game.play.opening.calls, game.play.opening.before
        assert {cell for cell, caller in calls} <= cells and before <= cells
        assert all(game.blocks[cell].isopen for cell, caller in calls)
    if game.showing.replay is not None:
        assert game.settings.slowmo and game.play.opening is not None
        rp = game.showing.replay
        recorded = set(rp.cells)
        assert rp.hidden | set(rp.number) == recorded
        assert not rp.hidden & set(rp.number)
        assert set(rp.stack) <= set(rp.number)


@pytest.fixture(scope="module")
def one_game(tmp_path_factory):
    """One game module for every example (a new board each); best times of
    won games go to a temporary folder."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MINESWEEP_DATA_DIR", str(tmp_path_factory.mktemp("data")))
        yield load_game("minesweep_property")


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(board=boards, hand_laid=st.booleans(), seed=st.integers(0, 2 ** 16),
       steps=st.lists(actions, min_size=10, max_size=60))
def test_random_play_keeps_the_rules(one_game, board, hand_laid, seed, steps):
    game = one_game
    game.new_game(*board)
    if hand_laid:
        rows, cols, bombs = board
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        game.lay_bombs(random.Random(seed).sample(cells, bombs))
    game.window.held.clear()
    for action in steps:
        before_end = game.failed or game.finished
        picture = seen(game)
        size = (game.ROWS, game.COLS, game.BOMBS)
        do(game, action)
        game.update(0.0)
        check_rules(game)
        if action == ("key", "U", None) and before_end and game.failed is False:
            continue                # U took the fatal move back: allowed
        restart = action[0] == "key" and action[1] in ("R", "K_0", "K_1") \
            or action[0] in ("click", "down") and action[2] == 1 \
            and game.Rect(game.view.face_rect()).collidepoint(where(game, action[1]))
        if before_end and not restart:
            # Nothing but a restart changes a game that has ended.
            assert seen(game) == picture and (game.ROWS, game.COLS, game.BOMBS) == size
        if game.finished or game.failed:
            event("a game was won" if game.finished else "a game was lost")
    game.stop_autoplay()


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(board=st.integers(1, 9).flatmap(lambda rows: st.integers(1, 9).flatmap(
    lambda cols: st.tuples(st.just(rows), st.just(cols),
                           st.integers(0, rows * cols - 1)))),
       seed=st.integers(0, 2 ** 16), opened=st.integers(0, 4), flags=st.integers(0, 4))
def test_the_solvers_flood_opens_what_open_block_opens(one_game, board, seed, opened,
                                                        flags):
    # The game's flood is the recursive open_block; the solver's (and the
    # queue replay's) is solver.flood. On any board, with tiles open and
    # flags down already, both open the same tiles with the same numbers.
    game = one_game
    rows, cols, bombs = board
    rng = random.Random(seed)
    game.new_game(rows, cols, bombs)
    cells = list(range(rows * cols))
    game.lay_bombs([divmod(cell, cols) for cell in rng.sample(cells, bombs)])
    safe = [block for block in game.blocks if not block.isbomb]
    for block in rng.sample(safe, min(opened, len(safe) - 1)):
        game.open_block(block)
    for block in rng.sample(game.blocks, min(flags, len(cells))):
        if not block.isopen:
            game.set_flag(block)
    closed = [block for block in safe if not block.isopen and not block.isflag]
    if not closed:
        return
    start = rng.choice(closed)
    may_open = {game.cell_of(block) for block in game.blocks
                if not block.isopen and not block.isflag}
    bomb_cells = {game.cell_of(block) for block in game.blocks if block.isbomb}
    before = {game.cell_of(block) for block in game.blocks if block.isopen}
    expected = solver.flood(game.cell_of(start), bomb_cells,
                            game.neighbour_table(rows, cols), may_open.__contains__)
    game.open_block(start)
    got = {(game.cell_of(block), block.number) for block in game.blocks
           if block.isopen and game.cell_of(block) not in before}
    assert got == set(expected)
    assert len(expected) == len(got)            # each tile opened once
