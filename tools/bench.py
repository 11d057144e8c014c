"""How fast the game answers, headless. Not a test: it prints numbers.

Run from the project folder:  python tools/bench.py
Each line is the median of several runs (fewer for the big board).
"""
import atexit
import gc
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests"))
from loadgame import load_game, with_screen  # noqa: E402

# The frames measured add up to minutes of play, and a game in progress is
# kept on disk every 30 s of play: into a folder of the benchmark's own, not
# the player's.
os.environ["MINESWEEP_DATA_DIR"] = tempfile.mkdtemp(prefix="minesweep-bench-")
atexit.register(shutil.rmtree, os.environ["MINESWEEP_DATA_DIR"], True)

# The fixed Expert board of the benchmark: 99 bombs, a deterministic layout.
EXPERT_BOMBS = [((7 * i) % 16, (13 * i + i // 16) % 30) for i in range(400)]


def median_ms(make, act, runs):
    """Median time of act() in milliseconds, after make() sets each run up."""
    times = []
    for _ in range(runs):
        arg = make()
        start = time.perf_counter()
        act(arg)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def in_turns(make, first, second, runs):
    """The median times of first() and second() in milliseconds, and the
    median of first's time over second's, the two taking turns, each after
    make() sets it up: on a machine shared with other work, the two of a
    turn meet about the same load, so their ratio means something."""
    times = ([], [])
    for _ in range(runs):
        for act, kept in zip((first, second), times):
            arg = make()
            # A new board's tiles are made while the garbage collector
            # waits; its look over every object would come in whichever
            # move is next, more often in the one that makes more objects.
            # Here it comes first, as it does while a player looks at the
            # new board, so each move is timed on its own.
            gc.collect()
            start = time.perf_counter()
            act(arg)
            kept.append((time.perf_counter() - start) * 1000)
    return (statistics.median(times[0]), statistics.median(times[1]),
            statistics.median(a / b for a, b in zip(*times)))


def expert(game):
    """The benchmark's Expert board (30x16, 99 bombs), laid by hand.

    Row 8, column 15 and its neighbours are kept free, so a click there opens.
    """
    free = {(8 + dr, 15 + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    cells = []
    for cell in EXPERT_BOMBS:
        if cell not in cells and cell not in free:
            cells.append(cell)
    game.new_game(16, 30, 99)
    game.lay_bombs(cells[:99])


# A chapter board with its 20 bombs, laid at random once (seed 5) away from
# the middle tile: a click there opens 140 of the 225 tiles, as a typical
# first click on this board does.
CHAPTER_BOMBS = [(0, 7), (0, 13), (1, 13), (2, 10), (4, 3), (4, 5), (6, 1),
                 (6, 5), (6, 10), (8, 5), (8, 9), (9, 9), (9, 13), (11, 3),
                 (11, 10), (12, 5), (13, 3), (13, 12), (14, 2), (14, 14)]


def book_get_neighbours(game):
    """The book's get_neighbours: every tile on the board is compared with
    bk by its x and y, in the same eight tests as the book, joined by "or"."""
    size = game.SIZE

    def get_neighbours(bk):
        """The closed tiles next to bk, found by looking at every tile."""
        found = []
        for block in game.blocks:
            if block.isopen:
                continue
            if (block.x == bk.x - size and block.y == bk.y
                    or block.x == bk.x + size and block.y == bk.y
                    or block.x == bk.x and block.y == bk.y - size
                    or block.x == bk.x and block.y == bk.y + size
                    or block.x == bk.x - size and block.y == bk.y - size
                    or block.x == bk.x + size and block.y == bk.y - size
                    or block.x == bk.x - size and block.y == bk.y + size
                    or block.x == bk.x + size and block.y == bk.y + size):
                found.append(block)
        return found
    return get_neighbours


def chapter_opening(game):
    """The chapter's board, ready for a click on its middle tile."""
    game.new_game(15, 15, 20)
    game.lay_bombs(CHAPTER_BOMBS)
    return game.block_at(7, 7)


def book_rows(game):
    """The same clicks with the book's get_neighbours put back."""
    ours = game.get_neighbours
    game.get_neighbours = book_get_neighbours(game)
    try:
        return [("book's code: the same opening (20 bombs, 140 tiles)",
                 median_ms(lambda: chapter_opening(game), game.open_block, 5), None),
                ("book's code: open the empty 15x15 board",
                 median_ms(lambda: empty_board(game, 15, 15), game.open_block, 5),
                 None)]
    finally:
        game.get_neighbours = ours


def empty_board(game, rows, cols):
    """An empty board of this size; its top-left tile, to click."""
    game.new_game(rows, cols, 0)
    game.lay_bombs([])
    return game.block_at(0, 0)


def rows():
    """(what, milliseconds, target) for each measurement."""
    game = load_game()
    game.screen_game = with_screen(game)
    out = []

    def empty(rows, cols):
        return lambda: empty_board(game, rows, cols)

    out.append(("open the empty 15x15 board (one click)",
                median_ms(empty(15, 15), game.open_block, 30), 5))
    out.append(("an opening on the chapter board (20 bombs, 140 tiles)",
                median_ms(lambda: chapter_opening(game), game.open_block, 30), 5))

    def recorded(block):
        game.recorded(game.click_open, block)
    out.append(("the same, recorded for slow motion (V)",
                median_ms(lambda: chapter_opening(game), recorded, 30), 5))
    # Recording a click costs at most three times the click itself: the
    # two are measured in turns, so that both meet the same load.
    slow, plain, times = in_turns(empty(100, 100), recorded, game.open_block, 11)
    out.append(("open the empty 100x100 board, recorded for slow motion", slow, 250))
    out.append(("the same without recording, in turns with it", plain, None))
    out.append(("the two above: recorded / not (times, not ms)", times, 3))
    game.end_replay()

    def expert_tile():
        expert(game)
        return game.block_at(8, 15)
    out.append(("an opening on Expert (30x16, 99 bombs)",
                median_ms(expert_tile, game.open_block, 30), 15))
    out.append(("open the empty 100x100 board (one click)",
                median_ms(empty(100, 100), game.open_block, 5), 250))

    def first_click():
        game.new_game(16, 30, 99)
        return game.block_at(8, 15)
    out.append(("first click on Expert (lay the bombs and open)",
                median_ms(first_click,
                          lambda b: game.grid_action(b, game.click_open), 30), 15))

    def chord_ready():
        # An open number with flags on all its bombs: the chord opens the rest.
        expert(game)
        target = next(b for b in game.blocks
                      if not b.isbomb and game.get_bomb_number(b)
                      and 0 < b.row < 15 and 0 < b.col < 29)
        game.open_block(target)
        for other in target.neighbours:
            if other.isbomb:
                game.set_flag(other)
        return target
    out.append(("a chord on Expert", median_ms(chord_ready, game.chord, 30), 15))

    def expert_frame():
        expert(game)
        game.grid_action(game.block_at(8, 15), game.click_open)
        game.showing.cursor = (3, 3)
        return None

    def frame(_):
        game.update(1 / 60)
        game.draw()
    out.append(("update() + draw(), the first frame of an Expert game",
                median_ms(expert_frame, frame, 200), None))
    return out + view_rows(game) + book_rows(game)


def view_rows(game):
    """Frames on boards of every size, on a 1920x1080 desktop: a frame where
    nothing changed, one where the mouse moved to another tile, one where
    the view scrolled a row, and one that shows a click."""
    out = []
    game.window.desktop = (1920, 1080)
    for rows, cols, bombs in [(16, 30, 99), (100, 100, 2000), (100, 200, 3000),
                              (200, 200, 8000)]:
        name = "%dx%d" % (cols, rows)
        start = time.perf_counter()
        game.new_game(rows, cols, bombs, 7)
        made = (time.perf_counter() - start) * 1000
        game.layout()
        game.grid_action(game.block_at(rows // 2, cols // 2), game.click_open)
        game.screen_game = with_screen(game)
        step = [0]

        def frame(_):
            game.update(1 / 60)
            game.draw()

        def still():
            frame(None)

        def mouse_moved():
            step[0] += 1
            game.on_mouse_move(game.Rect(game.view.tile_rect(
                game.view.row + step[0] % 7, game.view.col + step[0] % 5)).center)

        def scrolled():
            step[0] += 1
            game.view.scroll(1 if step[0] % 2 else -1, 0)

        def clicked():
            closed = next(b for b in game.blocks if not b.isopen and not b.isbomb
                          and game.view.in_view(b.row, b.col))
            game.grid_action(closed, game.click_open)

        still()
        out.append(("a frame where nothing changed, %s" % name,
                    median_ms(still, frame, 200), 2))
        out.append(("a frame after the mouse moved to another tile, %s" % name,
                    median_ms(mouse_moved, frame, 100), 2))
        if game.view.rows < rows:
            out.append(("a frame after the view scrolled a row, %s" % name,
                        median_ms(scrolled, frame, 50), None))
        out.append(("a click and the frame that shows it, %s" % name,
                    median_ms(still, lambda _: (clicked(), frame(None)), 20), None))
        out.append(("the board as the modules see it (board_now), %s" % name,
                    median_ms(lambda: None, lambda _: game.board_now(), 20), None))
        out.append(("a new board (new_game), %s" % name, made, None))
    return out


def main():
    """Print the table."""
    print("%-56s %10s %10s" % ("measurement", "median ms", "target ms"))
    for what, ms, target in rows():
        verdict = "" if target is None else "ok" if ms < target else "SLOW"
        print("%-56s %10.2f %10s %s" % (what, ms, target or "", verdict))


if __name__ == "__main__":
    main()
