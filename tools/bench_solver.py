"""How well and how fast the solver plays. Not a test: it prints tables.

Run from the project folder:
    python tools/bench_solver.py [--games N] [--jobs J] [--rule RULE]
                                 [--compare OLD NEW ...] [--old-solver FILE]
                                 [--set NAME=VALUE ...] [--old-set NAME=VALUE ...]
                                 [--levels L,L] [--big N]

The two rules of the published results (as the MineSweeperProb project's
GameMgr.cpp lays its boards), chosen by --rule:
    opening  the first click opens an area (the clicked cell and its
             neighbours hold no bomb) and is made at [3,3] on Beginner
             and Intermediate, [4,4] on Expert (row and column from 1 at
             the top left); the default
    corner   the first click is made at the top-left corner [1,1] and is
             only sure to hold no bomb: it may show a number, and then the
             solver's first move is a guess
After it the solver plays: all sure moves, and when there is none, a
guess by the chosen way of guessing:
    lowest  the lowest chance of a bomb (ties: fewest neighbours, top left)
    ahead   the game's rule (solver.choose_guess): when few layouts are
            left, the move with the best chance to win the whole game;
            else the cells nearly as safe as the safest, weighed one move
            ahead
    ahead_only  the same without the whole-game search at the end
Every board has its own generator, seeded with the text "SEED:LEVEL:I"
(with the corner rule "SEED:LEVEL:corner:I"), so the levels are
independent and two ways of guessing play exactly the same boards
(--compare prints each one's paired gain over the one before). The
solver's play checks every cell it calls safe against the real bombs, so a
solver bug stops the benchmark instead of counting as a loss. With
--old-solver, the first rule of --compare is played by another solver.py
(an earlier version, say, from `git show REV:solver.py > /tmp/old.py`);
--set and --old-set change the solver's constants (ENDGAME_LAYOUTS=500, say) for
the rules after the first, or for the first.
"""
import argparse
import functools
import importlib.util
import math
import multiprocessing
import os
import random
import signal
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests"))
from loadgame import load_game  # noqa: E402
import gamestate  # noqa: E402  (loadgame puts the game's folder on the path)
import solver  # noqa: E402

LEVELS = [("Beginner", 9, 9, 10), ("Intermediate", 16, 16, 40),
          ("Expert", 16, 30, 99)]
# Where each rule makes the first click (row, col from 0), by level.
FIRST_CLICK = {"opening": {"Beginner": (2, 2), "Intermediate": (2, 2), "Expert": (3, 3)},
               "corner": {"Beginner": (0, 0), "Intermediate": (0, 0), "Expert": (0, 0)}}
# Published win rates with each rule: PSEQ / PSEQ-D256 (MineSweeperProb's
# README), and JSMinesweeper's Java solver on Expert (its README).
ANCHORS = {"opening": {"Beginner": "97.15% / 97.17%", "Intermediate": "88.93% / 89.08%",
                       "Expert": "52.79% / 53.45% (JSMinesweeper 54.3%)"},
           "corner": {"Beginner": "91.68% / 91.69%", "Intermediate": "78.12% / 78.23%",
                      "Expert": "39.61% / 40.04% (JSMinesweeper 41%)"}}


def lowest(module, seen):
    """The old rule: the lowest chance of a bomb."""
    return module.best_guess(seen.chances, seen.around)


def ahead(module, seen, times=None):
    """The game's rule, timed."""
    start = time.perf_counter()
    cell = module.choose_guess(seen).cell
    if times is not None:
        times.append(time.perf_counter() - start)
    return cell


def ahead_only(module, seen):
    """The game's rule without the exact endgame (to measure what it adds)."""
    endgame, module.ENDGAME_LAYOUTS = module.ENDGAME_LAYOUTS, 0
    try:
        return module.choose_guess(seen).cell
    finally:
        module.ENDGAME_LAYOUTS = endgame


RULES = {"lowest": lowest, "ahead": ahead, "ahead_only": ahead_only}


def first_click(rule, level):
    """The cell of the first click under a rule, on a level."""
    name, rows, cols, bombs = level
    row, col = FIRST_CLICK[rule][name]
    return row * cols + col


def board(seed, level, index, rule="opening"):
    """The bombs of one board (a set of cells), from its own generator:
    none in the first click's cell, nor, under the opening rule, around it."""
    name, rows, cols, bombs = level
    first = first_click(rule, level)
    if rule == "opening":
        rng = random.Random("%s:%s:%d" % (seed, name, index))
        free = solver.keep_free(first, solver.neighbour_table(rows, cols), bombs)
    else:
        rng = random.Random("%s:%s:%s:%d" % (seed, name, rule, index))
        free = {first}
    return set(rng.sample([c for c in range(rows * cols) if c not in free], bombs))


def solver_module(path):
    """The solver to play with: this project's, or the one in the file path."""
    if path is None:
        return solver
    spec = importlib.util.spec_from_file_location("old_solver", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play_boards(job):
    """Play boards start..stop of a level by a way of guessing, under a
    first-click rule: (wins by index, guess times)."""
    seed, level, click, rule, start, stop, path, settings = job
    name, rows, cols, bombs = level
    first = first_click(click, level)
    around = solver.neighbour_table(rows, cols)
    module = solver_module(path)
    # The worker keeps its modules from job to job: what is changed for
    # this one is put back after it.
    kept = {constant: getattr(module, constant) for constant in settings}
    for constant, value in settings.items():
        setattr(module, constant, value)
    try:
        return play_with(module, seed, level, click, rule, start, stop, first, around)
    finally:
        for constant, value in kept.items():
            setattr(module, constant, value)


def play_with(module, seed, level, click, rule, start, stop, first, around):
    """play_boards' games, by a solver module as it is set."""
    name, rows, cols, bombs = level
    times = []
    if rule == "ahead":
        def guess(seen):
            """The game's rule, timed."""
            return ahead(module, seen, times)
    else:
        def guess(seen):
            """The rule chosen."""
            return RULES[rule](module, seen)
    won = [module.play(rows, cols, board(seed, level, i, click), first,
                       around, guess) == "won" for i in range(start, stop)]
    return won, times


def play_level(pool, seed, level, click, rule, games, jobs, path=None, settings=None):
    """Every board of a level, under the first-click rule click, played by
    a way of guessing (and the solver in the file path, if given, with its
    constants changed as settings says), shared among the pool's jobs."""
    step = max(1, games // (jobs * 8))
    parts = [(seed, level, click, rule, i, min(i + step, games), path, settings or {})
             for i in range(0, games, step)]
    results = pool.map(play_boards, parts)
    return [w for won, times in results for w in won], \
        [t for won, times in results for t in times]


def wilson(wins, games):
    """A 95% confidence interval for a win rate (Wilson's score interval)."""
    z = 1.96
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) \
        / (1 + z * z / games)
    return centre - half, centre + half


def paired(old, new):
    """The paired difference of two rules on the same boards, with a 95%
    interval (normal approximation), and how many boards each alone won."""
    diffs = [n - o for o, n in zip(old, new)]
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return mean, mean - half, mean + half, diffs.count(-1), diffs.count(1)


def no_guess_times(level, rng, boards):
    """Seconds to lay each of some no-guess boards (the first click where
    the opening rule makes it), and how many failed."""
    name, rows, cols, bombs = level
    around = solver.neighbour_table(rows, cols)
    first = first_click("opening", level)
    times, failures = [], 0
    for _ in range(boards):
        start = time.perf_counter()
        mines = solver.no_guess_layout(gamestate.blank(rows, cols, bombs, around), first, rng)
        times.append(time.perf_counter() - start)
        failures += mines is None
    return times, failures


def game_hint_times(rng, positions=40):
    """Time the look H takes (find_moves), on Expert positions played into the real game."""
    game, times = load_game(), []
    while len(times) < positions:
        game.new_game(16, 30, 99)
        game.grid_action(game.block_at(3, 3), game.click_open)
        for _ in range(rng.randint(0, 60)):
            moves = game.find_moves()
            if not moves or game.failed or game.finished:
                break
            cell, isbomb, reason = moves[0]
            game.grid_action(game.blocks[cell],
                             functools.partial(game.make_sure, isbomb=isbomb))
        if game.failed or game.finished:
            continue
        start = time.perf_counter()
        game.find_moves()
        times.append(time.perf_counter() - start)
    return times


# The largest boards the game accepts, for the guess's time bounds there.
BIG = [("100x200, 3000 bombs", 100, 200, 3000), ("200x200, 8000 bombs", 200, 200, 8000),
       ("200x200, 4000 bombs", 200, 200, 4000)]
BIG_GAME_TIME = 120      # most seconds one big game may take


def big_board_times(seed, boards):
    """Guess times on the biggest boards: (name, times, games) per size.
    Each game starts with a click in the middle and stops after
    BIG_GAME_TIME seconds if it has not ended."""
    out = []
    for name, rows, cols, bombs in BIG:
        around = solver.neighbour_table(rows, cols)
        first = rows // 2 * cols + cols // 2
        free = solver.keep_free(first, around, bombs)
        times = []
        for index in range(boards):
            rng = random.Random("%s:big:%s:%d" % (seed, name, index))
            mines = set(rng.sample([c for c in range(rows * cols) if c not in free],
                                   bombs))
            solver.play(rows, cols, mines, first, around,
                        lambda seen: ahead(solver, seen, times),
                        time.perf_counter() + BIG_GAME_TIME)
        out.append((name, times, boards))
    return out


def main():
    """Play and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=counted(1), default=1000, help="boards per level")
    parser.add_argument("--jobs", type=counted(1), default=CORES,
                        help="worker processes (at most the %d cores here)" % CORES)
    parser.add_argument("--seed", default="2026")
    parser.add_argument("--rule", default="opening", choices=sorted(FIRST_CLICK),
                        help="where the first click is made and what it may show")
    parser.add_argument("--compare", nargs="+", metavar="RULE", choices=sorted(RULES),
                        help="two ways of guessing or more (OLD NEW ...), played "
                        "on the same boards")
    parser.add_argument("--old-solver", metavar="FILE",
                        help="play the first rule of --compare with this solver.py")
    parser.add_argument("--set", nargs="+", default=[], metavar="NAME=VALUE",
                        help="change constants of solver.py for the rules of "
                        "--compare after the first (or for the table), such as "
                        "ENDGAME_LAYOUTS=0")
    parser.add_argument("--old-set", nargs="+", default=[], metavar="NAME=VALUE",
                        help="the same for the first rule of --compare")
    parser.add_argument("--levels", default="Beginner,Intermediate,Expert")
    parser.add_argument("--big", type=counted(0), default=0, metavar="N",
                        help="also time the guesses of N games on each of the "
                        "biggest boards")
    args = parser.parse_args()
    # pygame (which the game's modules bring in) turns SIGTERM into a quit
    # event that nothing here reads: a stop ends the tool, as it should.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if args.jobs > CORES:
        print("--jobs %d: this computer has %d cores, so %d processes play" % (
            args.jobs, CORES, CORES), flush=True)
        args.jobs = CORES
    levels = chosen_levels(args.levels, parser)
    args.set, args.old_set = settings(args.set), settings(args.old_set)
    # One pool of worker processes for the whole run, made before any other
    # thread starts: they are forked from this process as it is now.
    with multiprocessing.get_context("fork").Pool(args.jobs, ends_with_parent) as pool:
        report(pool, args, levels)


CORES = os.cpu_count() or 1


def counted(least):
    """argparse's type for a whole number of at least least."""
    def number(text):
        """text as such a number, or argparse's one-line refusal."""
        try:
            value = int(text)
        except ValueError:
            value = least - 1
        if value < least:
            raise argparse.ArgumentTypeError("%s is not a whole number of %d or more" % (
                text, least))
        return value
    return number


PR_SET_PDEATHSIG = 1


def ends_with_parent():
    """In each worker, on Linux: be killed when the tool ends, however it
    ends (a kill -9 included), instead of waiting for work for ever."""
    if sys.platform.startswith("linux"):
        import ctypes
        try:
            ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
        if os.getppid() == 1:           # the tool ended before this line
            os._exit(0)


def chosen_levels(names, parser):
    """The levels named (comma-separated, in any case, in LEVELS' order);
    the parser stops with one line at a name that is no level."""
    known = {level[0].lower(): level for level in LEVELS}
    wanted = [name.strip().lower() for name in names.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in known]
    if unknown or not wanted:
        parser.error("--levels: %s is not a level; the levels are %s" % (
            ", ".join(unknown) or "nothing", ",".join(level[0] for level in LEVELS)))
    return [level for level in LEVELS if level[0].lower() in wanted]


def settings(pairs):
    """NAME=VALUE pairs as {NAME: number}."""
    out = {}
    for pair in pairs:
        name, value = pair.split("=")
        out[name] = float(value) if "." in value else int(value)
    return out


def compare(pool, args, levels):
    """Play the same boards by each way of guessing in --compare and print
    each one's win rate and its paired gain over the one before it (with
    how many boards only the one before / only it won). The first is
    played by --old-solver with --old-set, the others by this solver.py
    with --set."""
    names = []
    for index, rule in enumerate(args.compare):
        path, changes = (args.old_solver, args.old_set) if index == 0 else (None, args.set)
        name = rule
        if path:
            name += " (%s)" % os.path.basename(path)
        names.append(name + "".join(" %s=%s" % item for item in changes.items()))
    heads = [names[0]]
    for name in names[1:]:
        heads += [name, "gain (95% CI), boards only the one before / only it won"]
    print("| level | %s |" % " | ".join(heads))
    print("|---|%s" % ("---|" * len(heads)))
    for level in levels:
        cells, before = [], None
        for index, rule in enumerate(args.compare):
            path, changes = (args.old_solver, args.old_set) if index == 0 \
                else (None, args.set)
            won = play_level(pool, args.seed, level, args.rule, rule, args.games,
                             args.jobs, path, changes)[0]
            cells.append("%.2f%%" % (100 * sum(won) / len(won)))
            if before is not None:
                mean, low, high, old_only, new_only = paired(before, won)
                cells.append("%+.2f (%+.2f to %+.2f), %d / %d" % (
                    100 * mean, 100 * low, 100 * high, old_only, new_only))
            before = won
        print("| %s | %s |" % (level[0], " | ".join(cells)), flush=True)


def report(pool, args, levels):
    """Play the boards and print the tables."""
    print("%d games per level, %s rule, seed %s, %d processes\n" % (
        args.games, args.rule, args.seed, args.jobs))
    if args.compare:
        compare(pool, args, levels)
        return
    rng = random.Random(args.seed)
    print("| level | win rate (95% CI) | published | ms per game | ms per guess "
          "(median / worst) | no-guess board ms (mean / worst, fails) |")
    print("|---|---|---|---|---|---|")
    for level in levels:
        start = time.perf_counter()
        won, times = play_level(pool, args.seed, level, args.rule, "ahead", args.games,
                                args.jobs, None, args.set)
        per_game = (time.perf_counter() - start) * args.jobs / args.games
        low, high = wilson(sum(won), len(won))
        ng, fails = no_guess_times(level, rng, max(10, min(150, args.games // 20)))
        print("| %s | %.1f%% (%.1f-%.1f) | %s | %.1f | %.1f / %.0f | %.0f / %.0f, "
              "%d of %d |" % (
                  level[0], 100 * sum(won) / len(won), 100 * low, 100 * high,
                  ANCHORS[args.rule][level[0]], 1000 * per_game,
                  1000 * statistics.median(times), 1000 * max(times),
                  1000 * statistics.mean(ng), 1000 * max(ng), fails, len(ng)))
    times = game_hint_times(rng)
    print("\nfind_moves() on %d Expert positions in the game: median %.1f ms, worst %.1f ms"
          % (len(times), 1000 * statistics.median(times), 1000 * max(times)))
    for name, times, games in big_board_times(args.seed, args.big):
        if times:
            print("%s, %d games: %d guesses, median %.1f ms, worst %.0f ms" % (
                name, games, len(times), 1000 * statistics.median(times),
                1000 * max(times)))
        else:
            print("%s, %d games: no guess (sure moves alone)" % (name, games))


if __name__ == "__main__":
    main()
