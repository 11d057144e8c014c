"""The solver in the game: hints that explain themselves and never lie, exact
bomb chances, autoplay and no-guess boards."""
import functools
import itertools
import random
import re
import subprocess
import sys

import pytest

import advice
import gamestate
import scene
import solver
from conftest import board, footer, hint, in_state, picture
from loadgame import ROOT


def position(game, rows, cols, bombs, opened, flags=()):
    """A hand-laid board with these tiles opened and flagged."""
    board(game, rows, cols, bombs)
    for row, col in opened:
        if not game.block_at(row, col).isopen:
            game.open_block(game.block_at(row, col))
    for row, col in flags:
        game.set_flag(game.block_at(row, col))
    return game


def bomb_chances(game):
    """Every closed tile's chance of a bomb, from what the player sees, and
    whether the chances are exact."""
    found, exact = advice.chances(game.ROWS, game.COLS, game.BOMBS, game.board_now().shown,
                                  game.neighbour_table(game.ROWS, game.COLS))
    return {game.blocks[cell]: chance for cell, chance in found.items()}, exact


def where(move):
    """A hint as ((row, col), isbomb, reason)."""
    block, isbomb, reason = move
    return (block.row, block.col), isbomb, reason


# The rules, in order, each with the reason a student reads -----------------
def test_single_number_bomb(game):
    position(game, 3, 3, [(0, 0)], [(2, 2)])
    assert where(hint(game)) == (
        (0, 0), True, "Bomb: the 1 at row 1, col 2 has only 1 closed neighbour, "
        "just as many as its bombs")


def test_single_number_safe_after_a_flagged_bomb(game):
    # The flag is not trusted, but the 1 at (2,1) proves the bomb itself;
    # the flagged bomb is no news, so the hint goes on to a safe tile.
    position(game, 2, 3, [(0, 0)], [(1, 0), (1, 1), (0, 1)], flags=[(0, 0)])
    assert picture(game) == ["F1#", "11#"]
    assert where(hint(game)) == (
        (0, 2), False, "Safe: the 1 at row 1, col 2 already touches a bomb at row 1, col 1, "
        "so no other tile around it hides one")


def test_a_zero_next_to_a_flag(game):
    position(game, 3, 3, [(2, 2)], [], flags=[(0, 1)])
    game.open_block(game.block_at(0, 0))
    assert picture(game)[0] == "0F#"
    move = where(hint(game))
    assert move == ((0, 1), False, "Safe: the empty tile (0) at row 1, col 1 has no bomb "
                    "around it")


def test_subset_rule_safe(game):
    position(game, 4, 5, [(3, 4), (3, 1)], [(0, 0)])
    assert picture(game)[2:] == ["11111", "#####"]
    assert where(hint(game)) == (
        (3, 2), False, "Safe: every closed neighbour of the 1 at row 3, col 1 is also "
        "next to the 1 at row 3, col 2, and both still need the same number of bombs, "
        "so row 4, col 3 is safe")


def test_subset_rule_bomb(game):
    position(game, 4, 5, [(2, 0), (1, 3), (3, 3), (1, 2)],
             [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1), (2, 2), (3, 0), (3, 2)])
    assert where(hint(game)) == (
        (2, 0), True, "Bomb: every closed neighbour of the 1 at row 1, col 2 is also "
        "next to the 2 at row 2, col 2, and the second number needs just enough more "
        "bombs to fill its other closed tiles, so row 3, col 1 is a bomb")


def test_counting_the_bombs_left(game):
    # Both bombs are flagged and proven; the last closed tile can only be safe.
    position(game, 2, 4, [(0, 0), (0, 3)], [(1, 1), (1, 2)], flags=[(0, 0), (0, 3)])
    game.open_block(game.block_at(1, 0))
    game.open_block(game.block_at(1, 3))
    assert picture(game) == ["F##F", "1111"]
    move = where(hint(game))
    assert move[1] is False and move[0] in [(0, 1), (0, 2)]
    assert move[2].startswith("Safe: ")


def test_exact_search_finds_what_the_rules_miss(game):
    position(game, 4, 3, [(2, 2), (1, 0)], [(1, 1)])
    assert where(hint(game)) == (
        (3, 0), False, "Safe: no way the bombs can lie that fits every number puts one "
        "at row 4, col 1")
    position(game, 3, 2, [(2, 0), (1, 0), (1, 1), (2, 1)], [(0, 0)])
    assert where(hint(game)) == (
        (2, 0), True, "Bomb: every way the bombs can lie that fits every number puts "
        "one at row 3, col 1")


def test_a_guess_when_nothing_is_sure(game):
    position(game, 2, 3, [(0, 0)], [(1, 2)])
    # One bomb in the two cells left, and nothing can ever tell them apart.
    assert where(hint(game)) == (
        (0, 0), None, "Guess: row 1, col 1: 50% chance of a bomb: a 50/50 that no "
        "other move can ever settle, so it is taken now")
    # A 2 over three closed cells: three layouts are left, the whole game is
    # searched, and whichever cell is opened wins one time in three.
    position(game, 2, 2, [(0, 0), (1, 0)], [(0, 1)])
    assert where(hint(game)) == (
        (0, 0), None, "Guess: row 1, col 1: 67% chance of a bomb: the best chance "
        "to win the game, 33%")


def test_no_hint_before_the_first_click_or_after_the_end(game):
    game.new_game(9, 9, 10)
    assert hint(game) is None
    game.on_key_down(game.keys.H)
    assert game.speak(game.showing.message) == "Hints start after the first click"
    position(game, 2, 2, [(0, 0)], [])
    game.blow_up(game.block_at(0, 0))
    assert hint(game) is None


def test_the_h_key_shows_the_hint(shown):
    position(shown, 3, 3, [(0, 0)], [(2, 2)])
    shown.on_key_down(shown.keys.H)
    assert footer(shown) == ("Bomb: the 1 at row 1, col 2 has only 1 closed neighbour, "
                             "just as many as its bombs")
    shown.draw()
    corner = shown.screen.surface.get_at(shown.Rect(shown.view.tile_rect(0, 0)).topleft)
    assert tuple(corner)[:3] == scene.HINT_COLOURS[True]     # the red frame of a bomb
    shown.on_mouse_down(shown.Rect(shown.view.tile_rect(0, 0)).center, shown.mouse.RIGHT)
    assert shown.showing.hint is None             # a move clears the hint


# Never lies; exact chances; sees only what the player sees -------------------
def random_position(game, rng, max_side=5, max_bombs=8):
    """A random small board with some safe tiles opened and some flags."""
    rows, cols = rng.randint(1, max_side), rng.randint(2, max_side)
    bombs = rng.randint(1, min(rows * cols - 1, max_bombs))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    position(game, rows, cols, rng.sample(cells, bombs), [])
    safe = [b for b in game.blocks if not b.isbomb]
    for block in rng.sample(safe, rng.randint(1, len(safe))):
        if not block.isopen and rng.random() < 0.4:
            game.open_block(block)
    if not any(b.isopen for b in game.blocks):
        game.open_block(safe[0])
    for block in game.blocks:
        if not block.isopen and rng.random() < 0.2:
            game.set_flag(block)                  # right or wrong
    return game


def brute_force_chances(game):
    """Every layout of the bombs that fits the open numbers, counted."""
    every = layouts(game)
    return {b: sum(game.cell_of(b) in layout for layout in every) / len(every)
            for b in game.blocks if not b.isopen}


def test_hints_never_lie(game):
    rng = random.Random(4)
    sure = 0
    for _ in range(1000):
        random_position(game, rng, max_side=7, max_bombs=12)
        move = hint(game)
        if move is None:
            assert all(b.isopen or b.isbomb for b in game.blocks)
            continue
        block, isbomb, reason = move
        assert not block.isopen
        if isbomb is not None:
            sure += 1
            assert block.isbomb == isbomb, reason
            assert reason.startswith("Bomb: " if isbomb else "Safe: ")
        else:
            assert reason.startswith("Guess: ")
    assert sure > 500


def test_chances_match_brute_force(game):
    rng = random.Random(8)
    for _ in range(150):
        random_position(game, rng)
        chances = bomb_chances(game)[0]
        expected = brute_force_chances(game)
        assert set(chances) == set(expected)
        for block, chance in expected.items():
            assert chances[block] == pytest.approx(chance, abs=1e-12)
            assert (chances[block] in (0.0, 1.0)) == (chance in (0.0, 1.0))


def test_the_solver_sees_only_what_the_player_sees(game, monkeypatch):
    # Time enough that no guess is cut short by the clock: the same board
    # must give the same answer, on a busy machine too.
    monkeypatch.setattr(solver, "GUESS_TIME", 60.0)
    rng = random.Random(9)
    for _ in range(300):
        random_position(game, rng)
        move = hint(game)
        before = (move and where(move), bomb_chances(game)[0])
        # Shuffle what lies under the closed tiles: the solver cannot tell.
        for block in game.blocks:
            if not block.isopen:
                block.isbomb = rng.random() < 0.5
        move = hint(game)
        assert (move and where(move), bomb_chances(game)[0]) == before


def test_hint_and_chances_change_nothing(game):
    rng = random.Random(10)
    for _ in range(100):
        random_position(game, rng)
        state = [(b.isbomb, b.isopen, b.isflag, b.isquestion, b.image)
                 for b in game.blocks]
        flags = (game.failed, game.finished, game.play.clicks, game.play.timer)
        hint(game)
        bomb_chances(game)[0]
        assert [(b.isbomb, b.isopen, b.isflag, b.isquestion, b.image)
                for b in game.blocks] == state
        assert (game.failed, game.finished, game.play.clicks, game.play.timer) == flags


def test_a_huge_board_gives_true_hints(game):
    rows = cols = 100
    bombs = [(r, c) for r in range(2, 100) for c in range(100) if (r * 7 + c * 3) % 5 == 0]
    position(game, rows, cols, bombs, [(0, 0)])
    assert sum(b.isopen for b in game.blocks) > 100
    block, isbomb, reason = hint(game)
    assert isbomb is not None and block.isbomb == isbomb
    chances = bomb_chances(game)[0]
    assert len(chances) == sum(not b.isopen for b in game.blocks)
    for block, chance in chances.items():
        if chance in (0.0, 1.0):
            assert block.isbomb == (chance == 1.0)


def capped_position(game, rng):
    """A random position where nothing is sure and the search needs more
    than one step."""
    while True:
        random_position(game, rng, max_side=7, max_bombs=12)
        seen = solver.Solver(game.ROWS, game.COLS, game.BOMBS, game.board_now().shown,
                             game.neighbour_table(game.ROWS, game.COLS)).run()
        if seen.chances and seen.steps > 1 and not seen.facts:
            return game


def test_a_search_too_big_is_capped_and_says_so(game, monkeypatch):
    # With a budget of one step, any search that needs more is cut short:
    # the chances are rough (never 0 or 1 unless the rules proved it), the
    # caller is told, and the hint says so.
    rng = random.Random(12)
    for _ in range(20):
        capped_position(game, rng)
        exact, exact_sure = bomb_chances(game)
        assert exact_sure
        monkeypatch.setattr(solver, "SEARCH_BUDGET", 1)
        rough, sure = bomb_chances(game)
        assert not sure and set(rough) == set(exact)
        for block, chance in rough.items():
            assert chance not in (0.0, 1.0) or chance == exact[block]
        block, isbomb, reason = hint(game)
        assert isbomb is None and reason.endswith("(too many ways to count)")
        # The budget is for each search, not for all of them together.
        seen = solver.Solver(game.ROWS, game.COLS, game.BOMBS, game.board_now().shown,
                             game.neighbour_table(game.ROWS, game.COLS))
        seen.search()
        assert seen.capped and seen.total is None
        monkeypatch.setattr(solver, "SEARCH_BUDGET", 60000)
        seen.search()
        assert not seen.capped and seen.total


# Autoplay ----------------------------------------------------------------------
def tick(game, moves):
    """Let pgzero's clock run for this many autoplay ticks, as its loop does."""
    for _ in range(moves):
        game.clock.tick(game.AUTO_TICK)
        game.update(game.AUTO_TICK)


def test_autoplay_wins_a_board_that_needs_no_guess(game):
    position(game, 4, 5, [(3, 4), (3, 1)], [])
    game.grid_action(game.block_at(0, 0), game.click_open)
    game.on_key_down(game.keys.A)
    assert in_state(game, "AUTO") and "autoplay" in footer(game) or game.showing.hint
    tick(game, 40)
    assert game.finished and not in_state(game, "AUTO")
    assert game.play.assisted and game.play.record != "new"
    assert game.showing.hint is None              # no stale hint on the end screen


def test_autoplay_plays_one_move_a_tick_and_any_key_stops_it(game):
    # A fixed board: on about one random Expert board in 300 the solver's
    # first guess is a bomb within four moves, and the game ends there.
    game.new_game(16, 30, 99, board=1)
    game.on_key_down(game.keys.A)
    tick(game, 1)
    assert game.play.laid and game.play.clicks == 1         # the first click, in the middle
    assert game.block_at(8, 15).isopen
    tick(game, 3)
    assert game.play.clicks == 4
    game.on_key_down(game.keys.Z)
    assert not in_state(game, "AUTO")
    tick(game, 10)
    assert game.play.clicks == 4
    game.on_key_down(game.keys.A)
    tick(game, 1)
    game.on_mouse_down(game.Rect(game.view.tile_rect(0, 0)).center, game.mouse.LEFT)
    clicks = game.play.clicks
    tick(game, 10)
    assert not in_state(game, "AUTO") and game.play.clicks == clicks


def test_autoplay_takes_off_wrong_flags(game):
    position(game, 4, 5, [(3, 4), (3, 1)], [(0, 0)], flags=[(3, 2)])
    game.on_key_down(game.keys.A)
    tick(game, 60)
    assert game.finished


# No-guess boards ------------------------------------------------------------
@pytest.mark.parametrize("level", ["K_1", "K_2", "K_3"])
def test_no_guess_boards_need_no_guess(game, level, monkeypatch):
    # Time enough that no search is cut short by the clock: on a busy
    # machine, Expert's no-guess board was given up after 1.5 s.
    monkeypatch.setattr(solver, "NO_GUESS_TIME", 60.0)
    random.seed(11)
    game.on_key_down(game.keys.N)
    assert game.settings.noguess and "no-guess on" in footer(game) or game.showing.message
    game.on_key_down(getattr(game.keys, level))
    for _ in range(3):
        game.new_game(game.ROWS, game.COLS, game.BOMBS)
        first = game.block_at(game.ROWS // 2, game.COLS // 3)
        game.grid_action(first, game.click_open)
        assert game.showing.message is None
        mines = {b.row * game.COLS + b.col for b in game.blocks if b.isbomb}
        assert len(mines) == game.BOMBS
        assert solver.sure_moves_clear(game.ROWS, game.COLS, mines,
                                       first.row * game.COLS + first.col,
                                       game.neighbour_table(game.ROWS, game.COLS)) is None
        game.on_key_down(game.keys.A)
        tick(game, 700)
        assert game.finished


def test_no_guess_gives_up_with_a_note(game, monkeypatch):
    monkeypatch.setattr(solver, "NO_GUESS_TRIES", 0)
    game.on_key_down(game.keys.N)
    game.new_game(16, 30, 99)
    game.grid_action(game.block_at(5, 5), game.click_open)
    assert game.play.laid and sum(b.isbomb for b in game.blocks) == 99
    assert footer(game) == "No no-guess board found in time: this one may need a guess"


def test_solver_keys_at_any_moment(game):
    # H, A and N before the first click, mid-game, after a loss and while
    # the solver plays: each does what it says, or says why not, and then
    # the game goes on drawing.
    State = game.State
    for setup in range(4):
        game.new_game(9, 9, 10)
        if setup >= 1:
            game.grid_action(game.block_at(4, 4), game.click_open)
        if setup == 2:
            game.blow_up()
        if setup == 3:
            game.on_key_down(game.keys.A)
            assert game.showing.state == State.AUTO
        for key in [game.keys.H, game.keys.A, game.keys.N] * 3:
            state, noguess = game.showing.state, game.settings.noguess
            over = game.failed or game.finished
            game.showing.hint = game.showing.message = None
            game.on_key_down(key)
            if state == State.AUTO:
                assert game.showing.state == State.PLAY, key   # any key stops it
            elif key == game.keys.H and (over or not game.play.laid):
                assert game.showing.hint is None
                assert game.showing.message.key == ("game_over" if over else "hints_later")
            elif key == game.keys.H:
                assert not game.block_at(*divmod(game.showing.hint.cell, 9)).isopen
            elif key == game.keys.A:
                assert game.showing.state == (State.PLAY if over else State.AUTO)
            else:
                assert game.settings.noguess != noguess
            tick(game, 1)
            assert game.now_showing().shapes()
    game.new_game(100, 100, 3000)
    for key in [game.keys.H, game.keys.A, game.keys.N, game.keys.SPACE]:
        game.on_key_down(key)
        tick(game, 1)
        assert game.now_showing().shapes()
    assert game.showing.state == State.PLAY


# The solver's own module, and its guesses -----------------------------------------
def layouts(game, shown=None):
    """Every layout of the bombs (frozensets of cells) that fits the numbers
    shown: on the board as it is, unless given another view of it."""
    shown = game.board_now().shown if shown is None else shown
    closed = [cell for cell, number in enumerate(shown) if number is None]
    around = game.neighbour_table(game.ROWS, game.COLS)
    return [frozenset(layout) for layout in itertools.combinations(closed, game.BOMBS)
            if all(sum(other in layout for other in around[cell]) == number
                   for cell, number in enumerate(shown) if number is not None)]


def weigh_by_enumeration(game, cell):
    """One move ahead by counting layouts: (P(safe and a sure move next),
    P(safe) x the expected blend of the two safest next moves, how many
    numbers the cell can show)."""
    every = layouts(game)
    around = game.neighbour_table(game.ROWS, game.COLS)
    by_number = {}
    for layout in every:
        if cell not in layout:
            number = sum(other in layout for other in around[cell])
            by_number.setdefault(number, []).append(layout)
    sure = score = 0.0
    rest = [other for other, number in enumerate(game.board_now().shown)
            if number is None and other != cell]
    for group in by_number.values():
        share = len(group) / len(every)
        safety = sorted((sum(b not in layout for layout in group) / len(group)
                         for b in rest), reverse=True)
        if not rest or safety[0] in (0, 1):
            sure += share
        if not rest or safety[0] == 0:
            score += share                  # only bombs left: won
        else:
            second = safety[1] if len(safety) > 1 else safety[0]
            score += share * (4 * safety[0] + second) / 5
    return sure, score, len(by_number)


def guess_position(game, rng, known_bombs=False):
    """A random small position where no tile is sure; with known_bombs, a
    slightly bigger one where some tiles may be sure bombs (none sure safe),
    as when the solver must guess in a game."""
    while True:
        random_position(game, rng, max_side=6 if known_bombs else 5,
                        max_bombs=7 if known_bombs else 6)
        seen = solver.Solver(game.ROWS, game.COLS, game.BOMBS, game.board_now().shown,
                             game.neighbour_table(game.ROWS, game.COLS)).run()
        if seen.chances and all(known_bombs and isbomb for cell, isbomb, why in seen.facts):
            return seen


def test_looking_ahead_equals_counting_every_layout(game, monkeypatch):
    monkeypatch.setattr(solver, "ENDGAME_LAYOUTS", 0)     # the look-ahead alone
    rng = random.Random(14)
    for _ in range(150):
        seen = guess_position(game, rng)
        fifty = solver.forced_fifty(seen)
        influence, pseudo = ({}, None) if fifty else solver.fifty_influence(seen)
        guess = solver.choose_guess(seen)
        if fifty or pseudo is not None:
            # Nothing to weigh: the game tree tests below show why.
            assert guess.cell in (fifty or [pseudo]) and guess.score is None
            assert guess.forced == ("fifty" if fifty else "or_safe")
            continue
        candidates = solver.guess_candidates(seen, influence)
        expected = {cell: weigh_by_enumeration(game, cell) for cell in candidates}
        for cell in candidates:
            weighed = solver.weigh(seen, cell)
            assert weighed[:2] == pytest.approx(expected[cell][:2], abs=1e-9)
            assert weighed[2] == expected[cell][2]
        # The 50/50s a cell may settle count too (a weight, not a fact); a
        # living cell beats a dead one.
        rank = {cell: (numbers > 1,
                       round(score * solver.fifty_factor(seen, influence, cell), 9))
                for cell, (sure, score, numbers) in expected.items()}
        assert rank[guess.cell] == pytest.approx(max(rank.values()), abs=1e-8)
        assert guess.forced is None


def test_a_guess_past_its_time_is_the_lowest_chance(game):
    rng = random.Random(15)
    seen = guess_position(game, rng)
    assert solver.Endgame(seen, give_up=0.0001).best_move() is None
    guess = solver.choose_guess(seen, give_up=0.0001)     # long past
    assert guess.cell == solver.best_guess(seen.chances, seen.around)
    assert guess.score is None
    # Looking for forming 50/50s stops in time too.
    while not list(solver.forming_fifties(seen)):
        seen = guess_position(game, rng, known_bombs=True)
    assert list(solver.forming_fifties(seen, give_up=0.0001)) == []
    assert solver.fifty_influence(seen, give_up=0.0001) == ({}, None)


def test_the_solver_imports_without_pygame_or_pgzero():
    code = ("import sys\n"
            "sys.modules['pygame'] = sys.modules['pgzero'] = None\n"
            "import solver\n"
            "around = [[1], [0]]\n"
            "seen = solver.Solver(1, 2, 1, [None, None], around).run()\n"
            "print(seen.chances)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "{0: 0.5, 1: 0.5}"


def literal_best_chance(game, first=None):
    """The best chance to win from this position, by trying every move to
    the end of the game on every layout: the game tree, written plainly.
    With first, the best chance when that cell is opened first."""
    shown = game.board_now().shown
    closed = [cell for cell, number in enumerate(shown) if number is None]
    around = game.neighbour_table(game.ROWS, game.COLS)
    every = layouts(game)

    def reveal(cell, layout, opened):
        """The cells a click opens (a 0 opens its closed neighbours too)."""
        out, todo = {}, [cell]
        while todo:
            here = todo.pop()
            if here in out or here in opened:
                continue
            out[here] = sum(o in layout for o in around[here])
            if out[here] == 0:
                todo.extend(o for o in around[here] if shown[o] is None)
        return out

    def opening(cell, layouts, opened):
        """The chance to win by opening cell now, then playing as well as
        possible."""
        outcomes = {}
        for layout in layouts:
            if cell not in layout:
                seen = reveal(cell, layout, opened)
                outcomes.setdefault(tuple(sorted(seen.items())), []).append(layout)
        return sum(len(group) * best(group, opened | {c for c, _ in seen})
                   for seen, group in outcomes.items()) / len(layouts)

    def best(layouts, opened):
        """The chance to win, playing as well as possible from here."""
        left = [c for c in closed if c not in opened]
        if all(c in layout for layout in layouts for c in left):
            return 1.0
        return max(opening(cell, layouts, opened) for cell in left)

    if first is not None:
        return opening(first, every, frozenset())
    return best(every, frozenset())


def test_the_endgame_finds_the_best_chance_to_win(game):
    rng = random.Random(31)
    checked = 0
    while checked < 60:
        seen = guess_position(game, rng)
        if seen.total > solver.ENDGAME_LAYOUTS or \
                sum(n is None for n in game.board_now().shown) > 10:
            continue
        found = solver.Endgame(seen).best_move()
        assert found is not None
        cell, chance = found
        assert chance == pytest.approx(literal_best_chance(game), abs=1e-9)
        assert game.board_now().shown[cell] is None
        guess = solver.choose_guess(seen)
        if guess.forced:
            # A 50/50 goes first (its own tests show it is as good).
            assert solver.forced_fifty(seen) or \
                solver.fifty_influence(seen)[1] is not None
        else:
            assert guess.win == pytest.approx(chance) and guess.cell == cell
        checked += 1


def test_the_endgame_gives_up_when_too_big(game, monkeypatch):
    rng = random.Random(32)
    seen = guess_position(game, rng)
    monkeypatch.setattr(solver, "ENDGAME_NODES", 1)
    assert solver.Endgame(seen).best_move() is None
    assert solver.choose_guess(seen).win is None     # the look-ahead decides


def test_a_forced_fifty_is_found_and_guessed_first(game, monkeypatch):
    # Top row open: 1 2 and a closed corner; bombs at (1, 0) and (1, 2).
    # The 1 says one bomb lies in (1, 0) and (1, 1), but (0, 2) and (1, 2),
    # still closed, touch only (1, 1): they could tell the two apart.
    position(game, 2, 3, [(1, 0), (1, 2)], [(0, 0), (0, 1)])
    seen = solver.Solver(2, 3, 2, game.board_now().shown,
                         game.neighbour_table(2, 3)).run()
    assert not seen.facts and seen.chances[3] == 0.5
    assert solver.forced_fifty(seen) is None
    # Two 1s over two closed cells: nothing can ever tell them apart.
    position(game, 2, 2, [(1, 1)], [(0, 0), (0, 1)])
    seen = solver.Solver(2, 2, 1, game.board_now().shown,
                         game.neighbour_table(2, 2)).run()
    assert sorted(solver.forced_fifty(seen)) == [2, 3]
    monkeypatch.setattr(solver, "ENDGAME_LAYOUTS", 0)    # else the endgame says it
    guess = solver.choose_guess(seen)
    assert guess.forced == "fifty" and guess.cell in (2, 3) and guess.chance == 0.5
    block, isbomb, reason = hint(game)
    assert isbomb is None and "50/50" in reason and "taken now" in reason


def tree_positions(game, rng, pick, count, tries=50000):
    """Small positions where nothing is sure and pick(seen) finds something,
    with at most 9 closed tiles, so that the whole game tree can be written
    out: yields (seen, found), count of them at most."""
    for _ in range(tries):
        seen = guess_position(game, rng, known_bombs=True)
        if sum(n is None for n in game.board_now().shown) > 9:
            continue
        found = pick(seen)
        if found is not None:
            yield seen, found
            count -= 1
            if count == 0:
                return


def test_taking_a_forced_fifty_first_is_the_best_chance_to_win(game):
    checked = 0
    for seen, (a, b) in tree_positions(game, random.Random(33), solver.forced_fifty, 40):
        # One bomb in the two in every layout, and a chance of one half.
        assert all((a in layout) != (b in layout) for layout in layouts(game))
        assert seen.chances[a] == seen.chances[b] == 0.5
        best = literal_best_chance(game)
        assert literal_best_chance(game, a) == pytest.approx(best, abs=1e-9)
        assert literal_best_chance(game, b) == pytest.approx(best, abs=1e-9)
        checked += 1
    assert checked == 40


def test_forming_fifties_are_counted_exactly(game):
    rng = random.Random(35)
    found = 0
    while found < 40:
        seen = guess_position(game, rng, known_bombs=True)
        every = layouts(game)
        around = game.neighbour_table(game.ROWS, game.COLS)
        shown = game.board_now().shown
        # Every pair side by side, walled in by at most one cell not yet a
        # known bomb, in some layout a 50/50: looked for one by one.
        expected = []
        for a in range(game.ROWS * game.COLS):
            for b in (a + 1, a + game.COLS):
                if b >= len(shown) or b == a + 1 and b % game.COLS == 0 or \
                        shown[a] is not None or shown[b] is not None or \
                        {a, b} & set(seen.known):
                    continue
                walls = (set(around[a]) ^ set(around[b])) - {a, b}
                missing = {w for w in walls if w not in seen.known}
                if len(missing) <= 1 and all(shown[w] is None and
                                             seen.known.get(w) is not False
                                             for w in walls) and \
                        any(a in layout and b not in layout and missing <= layout
                            for layout in every):
                    expected.append((a, b))
        found_here = list(solver.forming_fifties(seen))
        assert [(a, b) for a, b, walls, ways in found_here] == expected
        for a, b, walls, ways in found_here:
            bombs = {a, *walls}
            assert ways == sum(bombs <= layout and b not in layout for layout in every)
            # The mirror: as many layouts with b a bomb and a safe.
            assert ways == sum({b, *walls} <= layout and a not in layout
                               for layout in every)
            found += 1


def test_a_fifty_or_safe_cell_first_is_the_best_chance_to_win(game):
    def fifty_or_safe(seen):
        """The cell that is a 50/50 or safe, if no 50/50 is forced."""
        return None if solver.forced_fifty(seen) else solver.fifty_influence(seen)[1]

    checked = 0
    for seen, cell in tree_positions(game, random.Random(36), fifty_or_safe, 30):
        # In every layout where it is a bomb, a 50/50 forms around it.
        assert literal_best_chance(game, cell) == \
            pytest.approx(literal_best_chance(game), abs=1e-9)
        checked += 1
    assert checked == 30


def test_weighing_stops_once_a_cell_cannot_win(game):
    rng = random.Random(34)
    checked = 0
    while checked < 100:
        seen = guess_position(game, rng)
        for cell in solver.guess_candidates(seen):
            weighed = solver.weigh(seen, cell)
            score = weighed[1]
            above = solver.weigh(seen, cell, beat=score - 1e-6)
            assert above == weighed                    # not stopped
            below = solver.weigh(seen, cell, beat=score + 0.05)
            assert below[1] < score + 0.05             # stopped, or the same
            checked += 1


def test_a_big_board_guess_stops_weighing_in_time_and_says_so(game, monkeypatch):
    # No time at all to weigh: the guess is the lowest chance, and the hint
    # says how many of the cells worth weighing were weighed: none.
    monkeypatch.setattr(solver, "BIG_LOOK_TIME", 0.0)
    rng = random.Random(37)
    while True:
        game.new_game(50, 50, 600, rng.randrange(gamestate.MAX_BOARD))
        game.grid_action(game.block_at(25, 25), game.click_open)
        game.on_key_down(game.keys.S)         # every sure move, up to a guess
        tick(game, 300)
        found = hint(game)                    # None: S won the game
        if found and found[1] is None and "weighed in time" in found[2]:
            reason = found[2]
            break
        assert rng.random() < 0.99            # a guess like this turns up soon
    assert re.search(r"the lowest \(a big board: 0 of \d+ cells weighed in time\)$",
                     reason)
    # A board under BIG_BOARD tiles weighs every cell.
    monkeypatch.setattr(solver, "BIG_BOARD", 50 * 50)
    assert "weighed in time" not in hint(game)[2]


def test_flood_opens_as_a_queue_does():
    # 3 x 4, one bomb at the top right (cell 3). From the bottom left the
    # zeros spread ring by ring; the 1s beside the bomb stop the flood.
    #   0 0 1 *        cells  0  1  2  3
    #   0 0 1 1               4  5  6  7
    #   0 0 0 0               8  9 10 11
    around = solver.neighbour_table(3, 4)
    opened = solver.flood(8, {3}, around, lambda cell: cell != 3)
    assert opened == [(8, 0), (4, 0), (5, 0), (9, 0), (0, 0), (1, 0), (2, 1),
                      (6, 1), (10, 0), (7, 1), (11, 0)]
    # A cell the flood may not open (a flag in the game) stays closed, and
    # the zeros beyond it are reached round it or not at all.
    opened = solver.flood(8, {3}, around, lambda cell: cell not in (3, 4, 5, 9))
    assert opened == [(8, 0)]


def test_reveal_cells_writes_the_flood_into_what_is_shown():
    around = solver.neighbour_table(3, 4)
    shown = [None] * 12
    assert solver.reveal_cells(shown, {3}, around, 8) == 11
    assert shown == [0, 0, 1, None, 0, 0, 1, 1, 0, 0, 0, 0]
    assert solver.reveal_cells(shown, {3}, around, 0) == 0      # open already


def test_neighbour_table_lists_the_eight_cells_around():
    table = solver.neighbour_table(3, 4)
    assert table[0] == [1, 4, 5]
    assert table[5] == [0, 1, 2, 4, 6, 8, 9, 10]
    assert table[11] == [6, 7, 10]
