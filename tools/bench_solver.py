"""How well and how fast the solver plays. Not a test: it prints a table.

Run from the project folder:  python tools/bench_solver.py [games per level]

The rules of the published results: the first click opens an area (the
clicked cell and its neighbours hold no bomb) and is made at [3,3] on
Beginner and Intermediate, [4,4] on Expert (row and column from 1 at the
top left). After it the solver plays: all sure moves, and when there is
none, the best guess (lowest chance of a bomb; ties as in best_guess).
"""
import math
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests"))
from loadgame import load_game  # noqa: E402

LEVELS = [("Beginner", 9, 9, 10, (2, 2)),
          ("Intermediate", 16, 16, 40, (2, 2)),
          ("Expert", 16, 30, 99, (3, 3))]
# Published win rates with this rule (PSEQ, PSEQ-D256, JSMinesweeper).
ANCHORS = {"Beginner": "97.1% / 97.2%", "Intermediate": "88.9% / 89.1%",
           "Expert": "52.8% / 53.5% (JSMinesweeper 54.3%)"}


def play(game, rows, cols, bombs, first, rng, hint_times):
    """One game by the solver on a fresh random board: True if won."""
    around = game.neighbour_table(rows, cols)
    free = game.keep_free(first, around, bombs)
    mines = set(rng.sample([c for c in range(rows * cols) if c not in free], bombs))
    shown = [None] * (rows * cols)
    opened = game.reveal_cells(shown, mines, around, first)
    known = {}
    while opened < rows * cols - bombs:
        start = time.perf_counter()
        solver = game.Solver(rows, cols, bombs, shown, known)
        solver.run(enough=lambda s: any(not isbomb for _, isbomb, _ in s.facts))
        hint_times.append(time.perf_counter() - start)
        safe = [c for c, isbomb in solver.known.items()
                if not isbomb and shown[c] is None]
        if not safe:
            guess = game.best_guess(solver.chances, rows, cols)
            if guess in mines:
                return False
            safe = [guess]
        for cell in safe:
            opened += game.reveal_cells(shown, mines, around, cell)
        known = {c: True for c, isbomb in solver.known.items() if isbomb}
    return True


def wilson(wins, games):
    """A 95% confidence interval for a win rate (Wilson's score interval)."""
    z = 1.96
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) \
        / (1 + z * z / games)
    return centre - half, centre + half


def game_hint_times(game, rng, positions=40):
    """Time hint() itself, on Expert positions played into the real game."""
    times = []
    while len(times) < positions:
        game.new_game(16, 30, 99)
        first = game.block_at(3, 3)
        game.grid_action(first, game.click_open)
        for _ in range(rng.randint(0, 60)):
            move = game.hint()
            if move is None or game.failed or game.finished:
                break
            block, isbomb, reason = move
            game.grid_action(block, game.flag_surely if isbomb else game.open_surely)
        if game.failed or game.finished:
            continue
        start = time.perf_counter()
        game.hint()
        times.append(time.perf_counter() - start)
    return times


def no_guess_times(game, rows, cols, bombs, first, rng, boards):
    """Seconds to lay each of some no-guess boards, and how many failed."""
    times, failures = [], 0
    for _ in range(boards):
        start = time.perf_counter()
        mines = game.no_guess_layout(rows, cols, bombs, first, rng)
        times.append(time.perf_counter() - start)
        failures += mines is None
    return times, failures


def main():
    """Play and print the table."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rng = random.Random(2026)
    game = load_game()
    print("%d games per level, seed 2026\n" % games)
    print("| level | win rate (95% CI) | published | ms per game | ms per hint "
          "| no-guess board ms (mean / worst, fails) |")
    print("|---|---|---|---|---|---|")
    for name, rows, cols, bombs, (row, col) in LEVELS:
        first = row * cols + col
        hint_times, wins = [], 0
        start = time.perf_counter()
        for _ in range(games):
            wins += play(game, rows, cols, bombs, first, rng, hint_times)
        per_game = (time.perf_counter() - start) / games
        low, high = wilson(wins, games)
        ng, fails = no_guess_times(game, rows, cols, bombs, first, rng,
                                   max(10, games // 20))
        print("| %s | %.1f%% (%.1f-%.1f) | %s | %.1f | %.2f | %.0f / %.0f, %d of %d |" % (
            name, 100 * wins / games, 100 * low, 100 * high, ANCHORS[name],
            1000 * per_game, 1000 * statistics.mean(hint_times),
            1000 * statistics.mean(ng), 1000 * max(ng), fails, len(ng)))
    times = game_hint_times(game, rng)
    print("\nhint() on %d Expert positions in the game: median %.1f ms, worst %.1f ms"
          % (len(times), 1000 * statistics.median(times), 1000 * max(times)))


if __name__ == "__main__":
    main()
