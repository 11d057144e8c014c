"""Learning from a loss: the post-mortem is true, U takes the
fatal move back, and S plays only sure moves."""
import random

import pytest

import advice
import scene
import solver
from conftest import (board, footer, in_state, open_every_safe_tile, picture, tile_centre,
                      tile_states)
from test_solver import layouts, position, tick


def lose_on(game, row, col, action="click_open"):
    """Make the move at (row, col), which must lose."""
    game.play.started = True
    game.grid_action(game.block_at(row, col), getattr(game, action))
    assert game.failed
    return game.play.postmortem


def said(game):
    """The post-mortem in words."""
    return game.speak(game.play.postmortem.said)


def shown_before(game):
    """What the player saw just before the last move."""
    return [block.number if isopen else None
            for block, (isopen, isflag, isquestion) in zip(game.blocks, game.play.before)]


def check_verdict(game, clicked, action):
    """The post-mortem of the game just lost is true, checked by counting
    every layout of the board as it was before the move. Its kind."""
    said, cell, kind = game.play.postmortem
    tile = None if cell is None else game.blocks[cell]
    text = game.speak(said)
    shown = shown_before(game)
    every = layouts(game, shown)
    cols = game.COLS

    def sure(cell, isbomb):
        return all((cell in layout) == isbomb for layout in every)

    if action == "chord":
        flag = tile.row * cols + tile.col
        assert tile.isflag and not tile.isbomb
        if "and the board showed it" in text:
            assert sure(flag, False)
            return "chord shown"
        assert not sure(flag, False)
        return "chord guess"
    clicked_cell = clicked[0] * cols + clicked[1]
    if "surely a bomb" in text:
        assert tile is game.block_at(*clicked) and sure(clicked_cell, True)
        return "sure bomb"
    if text.startswith("Avoidable:"):
        named = tile.row * cols + tile.col
        assert shown[named] is None and sure(named, False) and not tile.isbomb
        assert "row %d, col %d" % (tile.row + 1, tile.col + 1) in text
        return "sure safe"
    assert text.startswith("No safe move existed")
    closed = [c for c, number in enumerate(shown) if number is None]
    assert not any(sure(c, False) for c in closed)
    chance = sum(clicked_cell in layout for layout in every) / len(every)
    assert "%d%%)" % round(100 * chance) in text or "%d%%" % round(100 * chance) in text
    lowest = min(sum(c in layout for layout in every) / len(every) for c in closed)
    if tile is not None:
        named = tile.row * cols + tile.col
        assert sum(named in layout for layout in every) / len(every) == \
            pytest.approx(lowest)
        assert chance > lowest
        return "forced, a safer guess existed"
    assert chance == pytest.approx(lowest)
    return "forced"


# Each kind, on a hand-laid board ----------------------------------------------
def test_a_forced_guess(game):
    position(game, 2, 3, [(0, 0)], [(1, 2)])
    lose_on(game, 0, 0)
    # What was said, as facts: a guess, the best there was, at 1 in 2. The
    # words themselves are the texts' to choose, in either language.
    assert game.play.postmortem.said == ("guessed_best", {"text": (
        "guessed", {"chance": ("one_in", {"n": 2, "percent": 50})})})
    assert "50%" in said(game)
    assert check_verdict(game, (0, 0), "click_open") == "forced"


def test_a_single_number_showed_the_bomb(game):
    position(game, 3, 3, [(0, 0)], [(2, 2)])
    lose_on(game, 0, 0)
    assert said(game) == ("Avoidable: row 1, col 1 was surely a bomb: "
                                  "the 1 at row 1, col 2 has only 1 closed neighbour, just as many as "
                          "its bombs.")
    assert check_verdict(game, (0, 0), "click_open") == "sure bomb"


def test_two_numbers_showed_a_safe_tile(game):
    position(game, 4, 5, [(3, 4), (3, 1)], [(0, 0)])
    lose_on(game, 3, 4)
    said, cell, kind = game.play.postmortem
    tile = game.blocks[cell]
    text = game.speak(said)
    assert text == ("Avoidable: row 4, col 3 was surely safe: every closed "
                    "neighbour of the 1 at row 3, col 1 is also next to the 1 at row 3, col 2, "
                    "and both still need the same number of bombs, so row 4, col 3 is safe.")
    assert (tile.row, tile.col) == (3, 2) and kind == advice.SAFE
    assert check_verdict(game, (3, 4), "click_open") == "sure safe"


def test_the_exact_search_showed_a_safe_tile(game):
    position(game, 4, 3, [(2, 2), (1, 0)], [(1, 1)])
    lose_on(game, 2, 2)
    assert said(game) == ("Avoidable: row 4, col 1 was surely safe: no "
                                  "way the bombs can lie that fits every number puts one at "
                                  "row 4, col 1.")
    assert check_verdict(game, (2, 2), "click_open") == "sure safe"


def test_counting_the_bombs_showed_a_safe_tile(game):
    # Found by trying random boards: the first sure tile is proved by
    # counting the bombs left, as Simon Tatham's players so often missed.
    rng = random.Random(21)
    for _ in range(5000):
        rows, cols = rng.randint(2, 5), rng.randint(2, 5)
        bombs = rng.sample([(r, c) for r in range(rows) for c in range(cols)],
                           rng.randint(1, min(4, rows * cols - 1)))
        safe = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in bombs]
        position(game, rows, cols, bombs, rng.sample(safe, rng.randint(1, len(safe))))
        if game.won_now():
            continue
        clicked = rng.choice(bombs)
        lose_on(game, *clicked)
        if "counting all the bombs left" in said(game):
            assert check_verdict(game, clicked, "click_open") in ("sure safe",
                                                                  "sure bomb")
            return
    pytest.fail("no board where counting was the way")


def test_chord_verdicts_are_true(game):
    rng = random.Random(22)
    kinds = set()
    for _ in range(400):
        rows, cols = rng.randint(2, 5), rng.randint(3, 5)
        bombs = rng.sample([(r, c) for r in range(rows) for c in range(cols)],
                           rng.randint(1, 3))
        safe = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in bombs]
        position(game, rows, cols, bombs, rng.sample(safe, rng.randint(1, len(safe))))
        numbers = [b for b in game.blocks if b.isopen and b.number
                   and any(not o.isopen for o in b.neighbours)]
        if not numbers:
            continue
        target = rng.choice(numbers)
        closed = [o for o in target.neighbours if not o.isopen]
        wrong = [o for o in closed if not o.isbomb]
        if not wrong or len(closed) < target.number:
            continue
        # Flag exactly target.number of its closed neighbours, one of them wrong.
        flags = [rng.choice(wrong)]
        others = [o for o in closed if o is not flags[0]]
        flags += rng.sample(others, target.number - 1)
        for flag in flags:
            game.set_flag(flag)
        if not any(o.isbomb for o in closed if o not in flags):
            continue
        game.play.started = True
        game.grid_action(target, game.chord)
        assert game.failed
        kinds.add(check_verdict(game, None, "chord"))
    assert kinds == {"chord shown", "chord guess"}


# Every post-mortem is true -------------------------------------------------------
def test_every_post_mortem_of_a_random_player_is_true(game):
    rng = random.Random(23)
    kinds = {}
    for _ in range(400):
        rows, cols = rng.randint(2, 5), rng.randint(2, 6)
        game.new_game(rows, cols, rng.randint(1, min(6, rows * cols - 1)))
        while not (game.failed or game.finished):
            closed = [b for b in game.blocks if not b.isopen]
            block = rng.choice(closed)
            if rng.random() < 0.2:
                game.grid_action(block, game.click_flag)
            elif not block.isflag:
                game.grid_action(block, game.click_open)
                if game.failed:
                    kind = check_verdict(game, (block.row, block.col), "click_open")
                    kinds[kind] = kinds.get(kind, 0) + 1
    assert set(kinds) == {"forced", "forced, a safer guess existed", "sure safe",
                          "sure bomb"}, kinds


# Taking a move back ------------------------------------------------------------
def test_u_takes_back_the_fatal_move(game, tmp_path):
    board(game, 9, 9, [(0, 0), (0, 8), (8, 0), (8, 8), (4, 4), (2, 6), (6, 2),
                       (6, 6), (2, 2), (4, 8)])
    game.grid_action(game.block_at(0, 4), game.click_open)
    game.grid_action(game.block_at(8, 4), game.click_flag)
    game.set_flag(game.block_at(8, 4))
    game.settings.questions = True
    game.grid_action(game.block_at(8, 5), game.click_flag)
    game.grid_action(game.block_at(8, 5), game.click_flag)   # a question mark
    game.update(12.5)
    before = (picture(game), tile_states(game), game.now_showing().board.left,
              game.play.timer)
    width, height = game.WIDTH, game.HEIGHT
    lose_on(game, 4, 4)
    # The footer holds all the words, uncut, and the window has room for it.
    game.layout()                              # as update() does every frame
    drawn = [shape for shape in game.now_showing().footer() if isinstance(shape, scene.Text)][0]
    assert drawn.text.replace(" ", "").replace("\n", "") == (
        footer(game).replace(" ", "").replace("\n", ""))
    assert game.HEIGHT == game.BAR + game.view.board_height() + game.view.footer
    game.update(5.0)                           # the clock stops at a loss
    game.on_key_down(game.keys.U)
    assert not game.failed and game.play.postmortem is None
    assert (picture(game), tile_states(game), game.now_showing().board.left,
            game.play.timer) == before
    assert (game.WIDTH, game.HEIGHT) == (width, height)
    game.update(1.0)
    assert game.play.timer == 13.5                  # and goes on
    assert game.play.undos == 1 and "1 so far" in footer(game)
    # Win the rest: no record for a game with a move taken back.
    open_every_safe_tile(game)
    assert game.finished and game.play.record != "new"
    assert "Moves taken back: 1 (no record)" in game.now_showing().end_lines()


def test_u_takes_back_a_losing_chord_twice(game):
    # The 1 at (2,2) touches (1,1) and (2,1); the flag goes on the wrong one.
    board(game, 2, 3, [(0, 0)])
    game.grid_action(game.block_at(1, 2), game.click_open)
    assert picture(game) == ["#10", "#10"]
    for times in (1, 2):
        game.grid_action(game.block_at(1, 0), game.click_flag)
        game.grid_action(game.block_at(1, 1), game.chord)
        assert game.failed and game.play.postmortem.cell == game.cell_of(game.block_at(1, 0))
        assert said(game).endswith("the flag was a guess.")
        game.on_key_down(game.keys.U)
        assert picture(game) == ["#10", "F10"] and game.play.undos == times
        game.grid_action(game.block_at(1, 0), game.click_flag)   # off again


def test_u_during_a_game_does_nothing(game):
    board(game, 3, 3, [(0, 0)])
    game.grid_action(game.block_at(2, 2), game.click_open)
    state = tile_states(game)
    game.on_key_down(game.keys.U)
    assert tile_states(game) == state and game.play.undos == 0
    assert game.speak(game.showing.message).startswith("U takes back")


# Semi-automatic play --------------------------------------------------------------
def test_s_plays_sure_moves_and_hands_back_at_a_guess(game):
    random.seed(24)                     # the boards the game lays
    stopped_at_guess = won = 0
    for _ in range(30):
        game.new_game(16, 16, 40)
        game.grid_action(game.block_at(8, 8), game.click_open)
        game.on_key_down(game.keys.S)
        assert game.play.sure_only
        tick(game, 300)
        assert not game.failed and not in_state(game, "AUTO")
        if game.finished:
            won += 1
            continue
        cell, isbomb, reason = game.showing.hint
        assert isbomb is None and game.speak(reason).startswith("Guess: ")
        # It stopped with safe tiles still closed, none of them provable.
        assert any(not b.isopen and not b.isbomb for b in game.blocks)
        seen = solver.Solver(16, 16, 40, game.board_now().shown,
                             game.neighbour_table(16, 16)).run()
        assert not any(not isbomb and game.board_now().shown[cell] is None
                       for cell, isbomb in seen.known.items())
        stopped_at_guess += 1
    assert won and stopped_at_guess


def test_any_key_stops_s(game):
    game.new_game(16, 30, 99)
    game.grid_action(game.block_at(8, 8), game.click_open)
    game.on_key_down(game.keys.S)
    game.on_key_down(game.keys.Z)
    assert not in_state(game, "AUTO")


@pytest.mark.parametrize("button", ["LEFT", "MIDDLE"])
def test_a_chord_by_any_click_on_a_number_blames_its_wrong_flag(game, button):
    # A left click on an open number chords as a middle click does: a loss
    # by either is the chord's, whose wrong flag is what went wrong.
    board(game, 1, 3, [(0, 2)])
    for col, pressed in ((1, "LEFT"), (0, "RIGHT"), (1, button)):
        game.on_mouse_down(tile_centre(game, 0, col), getattr(game.mouse, pressed))
        game.on_mouse_up(getattr(game.mouse, pressed))
    assert game.failed
    loss = game.play.postmortem
    assert loss.cell == 0 and loss.outline == advice.RISKY
    assert "(1,1)" in said(game) or "row 1, col 1" in said(game)
