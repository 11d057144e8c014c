"""The solver's searches, on positions laid by hand or at random, without
the game: the exact count family by family, positions derived from one
another, and the whole-game search at the end."""
import importlib
import itertools
import math
import random
import sys

import pytest

import solver


def random_view(rng, rows, cols, bombs, opened_share=0.4):
    """A random board as the solver sees it: (shown, bomb cells), with some
    safe cells opened (a 0 opens its neighbours, as in the game)."""
    around = solver.neighbour_table(rows, cols)
    mines = set(rng.sample(range(rows * cols), bombs))
    shown = [None] * (rows * cols)
    safe = [cell for cell in range(rows * cols) if cell not in mines]
    for cell in rng.sample(safe, max(1, int(len(safe) * opened_share))):
        solver.reveal_cells(shown, mines, around, cell)
    return shown, mines


def every_layout(shown, around, bombs, known=None):
    """Every set of bomb cells that fits the numbers shown (and the known
    bombs and safe cells), by trying every choice: the plain way."""
    known = known or {}
    closed = [cell for cell, number in enumerate(shown) if number is None]
    out = []
    for layout in itertools.combinations(closed, bombs):
        layout = set(layout)
        if all((cell in layout) == isbomb for cell, isbomb in known.items()) and \
                all(sum(other in layout for other in around[cell]) == number
                    for cell, number in enumerate(shown) if number is not None):
            out.append(layout)
    return out


def plain_steps(clues):
    """How many steps a plain backtracking search of one group takes: one
    for every family count tried (a node of its tree), families in the
    order weigh_families takes them, each bounded by what its clues still
    need and have room for."""
    order = solver.families(clues)
    need = [clue[3] for clue in clues]
    room = [len(clue[2]) for clue in clues]

    def nodes(index):
        """The nodes of the tree from family index on."""
        if index == len(order):
            return 1
        members, cells = order[index]
        for m in members:
            room[m] -= len(cells)
        low = max([0] + [need[m] - room[m] for m in members])
        high = min([len(cells)] + [need[m] for m in members])
        total = 1
        for count in range(low, high + 1):
            for m in members:
                need[m] -= count
            total += nodes(index + 1)
            for m in members:
                need[m] += count
        for m in members:
            room[m] += len(cells)
        return total

    return nodes(0)


def test_the_count_family_by_family_matches_every_layout():
    rng = random.Random(41)
    checked = 0
    while checked < 200:
        rows, cols = rng.randint(2, 5), rng.randint(3, 6)
        bombs = rng.randint(1, min(8, rows * cols - 2))
        shown, mines = random_view(rng, rows, cols, bombs)
        around = solver.neighbour_table(rows, cols)
        if all(number is not None for number in shown):
            continue
        seen = solver.Solver(rows, cols, bombs, shown, around)
        chances = seen.search()
        every = every_layout(shown, around, bombs)
        assert seen.total == len(every)
        for cell, chance in chances.items():
            assert chance == pytest.approx(sum(cell in layout for layout in every)
                                           / len(every), abs=1e-12)
        # Each group's steps are those of a plain backtracking search.
        for group in solver.split_groups(seen.open_clues()):
            alone = solver.Solver(rows, cols, bombs, shown, around)
            alone.weigh_families(group)
            assert alone.steps == plain_steps(group)
        checked += 1


def test_the_solver_counts_ways_on_a_python_without_math_comb(monkeypatch):
    # Python 3.7, which older Thonny brings, has no math.comb.
    monkeypatch.delattr(math, "comb", raising=False)
    monkeypatch.delitem(sys.modules, "solver")
    old = importlib.import_module("solver")
    for n in range(0, 40):
        for k in range(-1, n + 2):
            expected = math.factorial(n) // (math.factorial(k) * math.factorial(n - k)) \
                if 0 <= k <= n else 0
            assert old.comb_or_0(n, k) == expected, (n, k)
    assert old.comb_or_0(400, 37) == solver.comb_or_0(400, 37)


def test_the_budget_counts_the_steps_of_a_plain_search():
    # One group: a row of numbers under a closed row, as along a wall. The
    # plain backtracking search tries every count of every family: that
    # many steps fit in the budget, one fewer do not.
    rows, cols = 2, 10
    around = solver.neighbour_table(rows, cols)
    shown = [None] * cols + [1] * cols
    seen = solver.Solver(rows, cols, 4, shown, around)
    group = solver.split_groups(seen.open_clues())[0]
    steps = plain_steps(group)
    assert steps > 10
    ways, families = seen.weigh_group(group)
    assert ways == {4: 1} and seen.steps == steps and not seen.capped
    small = solver.Solver(rows, cols, 4, shown, around)
    small.steps = solver.SEARCH_BUDGET - steps + 1      # one step too few
    small.weigh_families(group)
    assert small.capped
    exact = solver.Solver(rows, cols, 4, shown, around)
    exact.steps = solver.SEARCH_BUDGET - steps           # just enough
    assert exact.weigh_families(group) == (ways, families) and not exact.capped


def test_a_derived_position_is_the_position_read_afresh():
    rng = random.Random(42)
    checked = 0
    while checked < 300:
        rows, cols = rng.randint(3, 9), rng.randint(3, 9)
        bombs = rng.randint(1, rows * cols // 4 + 1)
        shown, mines = random_view(rng, rows, cols, bombs, opened_share=0.2)
        around = solver.neighbour_table(rows, cols)
        closed = [cell for cell, number in enumerate(shown) if number is None]
        safe = [cell for cell in closed if cell not in mines]
        if not safe:
            continue
        known = {cell: True for cell in rng.sample(sorted(mines), min(2, len(mines)))}
        base = solver.Solver(rows, cols, bombs, shown, around, known)
        base.search()
        cell = rng.choice(safe)
        number = sum(other in mines for other in around[cell])
        after = base.after(cell, number)
        opened = list(shown)
        opened[cell] = number
        fresh = solver.Solver(rows, cols, bombs, opened, around,
                              {other: isbomb for other, isbomb in known.items()
                               if other != cell})
        assert (after.shown, after.known, after.clues) == \
            (fresh.shown, fresh.known, fresh.clues)
        # The shared memo gives the same answer, in the same order, with
        # the same steps counted.
        assert list(after.search().items()) == list(fresh.search().items())
        assert (after.total, after.steps, after.capped) == \
            (fresh.total, fresh.steps, fresh.capped)
        # With other cells known instead, and nothing opened.
        other = rng.choice(closed)
        fixed = dict(known)
        fixed[other] = True
        assert list(base.after(known=fixed).search().items()) == \
            list(solver.Solver(rows, cols, bombs, shown, around, fixed).search().items())
        checked += 1


@pytest.mark.parametrize("number", [1, 2])
def test_a_first_click_that_shows_a_number_is_followed_by_a_sensible_guess(number):
    # Expert, first click in the top-left corner (the corner rule of the
    # published results): it shows a number and nothing is sure. The three
    # cells next to it hold that many bombs between them, a 1/3 or 2/3
    # chance each, worse than the rest (about 1 in 5): the guess is one of
    # the lowest chance, away from the corner, weighed one move ahead.
    rows, cols, bombs = 16, 30, 99
    around = solver.neighbour_table(rows, cols)
    shown = [None] * (rows * cols)
    shown[0] = number
    seen = solver.Solver(rows, cols, bombs, shown, around).run()
    assert not seen.facts
    guess = solver.choose_guess(seen)
    lowest = min(seen.chances.values())
    assert guess.chance == pytest.approx(lowest, abs=1e-9)
    assert guess.cell not in around[0]
    assert seen.chances[around[0][0]] == pytest.approx(number / 3)
    assert guess.score is not None and guess.forced is None and guess.win is None
    # A 3 there: its three neighbours are bombs, and the guess still keeps
    # away from them.
    shown[0] = 3
    seen = solver.Solver(rows, cols, bombs, shown, around).run()
    assert sorted(cell for cell, isbomb, why in seen.facts if isbomb) == sorted(around[0])
    assert solver.choose_guess(seen).cell not in around[0]
