"""The book's order: with the book's blocks list in the order the game
gives a board, chapter/step10 (the book's own program) makes the calls the
game's book-order replay and worksheet show, call by call; the panel shows
step10's open_block, with the line the book's code is at; W's queue code
runs in the book's program and opens what open_block opens."""
import csv
import os
import subprocess
import sys

import pytest

import gamestate
import scene
import slowmotion
from loadgame import CHAPTER, ROOT, load_game

STEP10 = "step10_win.py"
SIZE = 25                # the book's block size, px
with open(os.path.join(CHAPTER, STEP10), encoding="ascii") as f:
    BOOK_LINES = f.read().splitlines()


@pytest.fixture(autouse=True)
def recursion_limit_kept():
    """Put Python's recursion limit back: the game raises it."""
    limit = sys.getrecursionlimit()
    yield
    sys.setrecursionlimit(limit)


def step10(rows, cols, order, bombs):
    """The book's program on a rows x cols board, its blocks list in this
    order (cell numbers) and its first len(bombs) blocks the bombs."""
    def edit(source):
        """Change the board's size as a student would, at the top."""
        for name, value in (("ROWS", rows), ("COLS", cols), ("BOMBS", len(bombs))):
            source = source.replace("%s = 15 " % name if name != "BOMBS" else
                                    "BOMBS = 20 ", "%s = %d " % (name, value), 1)
        return source
    mod = load_game("step10_win", os.path.join(CHAPTER, STEP10), edit=edit)
    assert (mod.ROWS, mod.COLS, mod.BOMBS) == (rows, cols, len(bombs))
    by_cell = {cell_of(block, cols): block for block in mod.blocks}
    mod.blocks = [by_cell[cell] for cell in order]
    for index, block in enumerate(mod.blocks):
        block.isbomb = index < len(bombs)
    assert {cell_of(block, cols) for block in mod.blocks if block.isbomb} == set(bombs)
    return mod


def code_of(function, root):
    """A function's own lines as its file (in the folder root) has them, as
    the panel shows them (slowmotion.code_lines)."""
    code = function.__code__
    with open(os.path.join(root, os.path.basename(code.co_filename)),
              encoding="ascii") as f:
        lines = f.read().splitlines()[code.co_firstlineno - 1:]
    # The function ends where a line stands at the left edge again.
    end = next((index for index, line in enumerate(lines[1:], 1)
                if line.strip() and not line[0].isspace()), len(lines))
    return tuple(slowmotion.code_lines(lines[:end]))


def cell_of(block, cols):
    """A step's block as a cell number, from where it is drawn."""
    return (block.top // SIZE) * cols + block.left // SIZE


def book_run(mod, cols, start):
    """Click start in the book's program while a recorder notes each call
    of open_block and a tracer each line it runs: (calls, events)."""
    calls, events, real = [], [], mod.open_block
    frames = {}

    def trace(frame, event, arg):
        """Note open_block's own events: (its call's number, event, line's text)."""
        if frame.f_code is not real.__code__:
            return None
        if event == "call":
            frames[id(frame)] = len(calls)
        events.append((frames[id(frame)], event, BOOK_LINES[frame.f_lineno - 1]))
        return trace

    mod.open_block = slowmotion.recorder(real, lambda block: cell_of(block, cols), calls)
    block = next(block for block in mod.blocks if cell_of(block, cols) == start)
    sys.settrace(trace)
    try:
        mod.on_mouse_down(block.center, mod.mouse.LEFT)
    finally:
        sys.settrace(None)
        mod.open_block = real
    return calls, events


def lines_at(events):
    """The line the book's code is at in each step of a replay, from each
    call's own events: (step's kind, line's text), in order."""
    code = {line.strip(): line for line in slowmotion.BOOK_CODE}
    steps, seen_loop, last = [], set(), {}
    parent = {}
    running = []
    for index, (call, event, text) in enumerate(events):
        line = code.get(text.strip())
        later = next((e for c, e, t in events[index + 1:] if c == call), None)
        following = next((t.strip() for c, e, t in events[index + 1:] if c == call), None)
        said = None
        if event == "call":
            parent[call] = running[-1] if running else None
            running.append(call)
        elif event == "return":
            running.pop()
            said = ("back", slowmotion.CALLS) if parent[call] is not None else (
                "end", last[call])
        elif line == slowmotion.ASKS:
            said = ("call", line)
        elif line == slowmotion.RETURNS:
            said = ("return", line)
        elif line == slowmotion.LOOPS and call not in seen_loop:
            seen_loop.add(call)
            said = ("loop", line)
            if later == "return":           # no closed neighbour: the loop ends at once
                steps.append(said)
                said = ("done", line)
        elif line == slowmotion.LOOPS and later == "return":
            said = ("done", line)
        elif line == slowmotion.CHECKS and following == slowmotion.LOOPS.strip():
            said = ("skip", line)
        if said is not None:
            steps.append(said)
            if said[0] != "back":
                last[call] = said[1]
            else:
                last[parent[call]] = said[1]
    return steps


def game_replay(game, rows, cols, bombs, board, start, order="book"):
    """The game's replay of a first click on start, in slow motion."""
    game.new_game(rows, cols, bombs, board)
    game.on_key_down(game.keys.V)
    game.update(0)
    game.settings.order = order
    game.grid_action(game.block_at(*divmod(start, cols)), game.click_open)
    return game.showing.replay


def worksheet(tmp_path, rows, cols, bombs, board, start, order="book"):
    """The worksheet of the same first click: its rows after the title and the header."""
    out = tmp_path / "calls.csv"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               MINESWEEP_DATA_DIR=str(tmp_path / "data"))
    done = subprocess.run(
        [sys.executable, "minesweep.py", "--calls", str(out), "--rows", str(rows),
         "--cols", str(cols), "--bombs", str(bombs), "--board", str(board), "--at",
         "%d,%d" % (start // cols + 1, start % cols + 1), "--order", order],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    with open(out, encoding="utf-8-sig", newline="") as f:
        return list(csv.reader(f))[2:]


@pytest.mark.parametrize("rows, cols, bombs, board, start", [
    (15, 15, 0, 3, 7 * 15 + 7),             # the book's board, empty
    (9, 9, 10, 7, 4 * 9 + 4),               # with bombs, laid by the board number
])
def test_the_books_own_code_makes_the_book_order_calls(game, tmp_path, rows, cols,
                                                       bombs, board, start):
    replay = game_replay(game, rows, cols, bombs, board, start)
    laid = {cell for cell, block in enumerate(game.blocks) if block.isbomb}
    order = gamestate.book_order(board, rows, cols, laid)
    assert game.play.opening.book == order and replay.order == "book"
    calls, events = book_run(step10(rows, cols, order, laid), cols, start)
    assert len(calls) > 10
    # The replay: each call, and who made it (its via names the caller).
    shown = [(step.cell, step.via[0] if step.via else None)
             for step in replay.steps if step.kind == "call"]
    assert shown == calls
    # The worksheet: the same calls, each with its caller's number.
    number = {cell: place for place, (cell, caller) in enumerate(calls, 1)}
    sheet = worksheet(tmp_path, rows, cols, bombs, board, start)
    assert [(int(row[1]) - 1) * cols + int(row[2]) - 1 for row in sheet] == [
        cell for cell, caller in calls]
    assert [row[6] for row in sheet] == [
        "" if caller is None else str(number[caller]) for cell, caller in calls]
    assert [int(row[8]) for row in sheet] == [order.index(cell) for cell, _ in calls]
    # Each step highlights the line the book's code is at then.
    assert [(step.kind, step.code) for step in replay.steps] == lines_at(events)
    highlighted = []
    while replay.forward():
        highlighted.append(slowmotion.BOOK_CODE[game.now_showing().code_line()])
    assert highlighted == [code for kind, code in lines_at(events)]


def test_the_reading_order_differs_from_the_books_but_opens_the_same_tiles(game):
    book = game_replay(game, 15, 15, 0, 3, 7 * 15 + 7)
    reading = game.play.opening.replay("stack", "reading")
    assert sorted(book.cells) == sorted(reading.cells) and book.cells != reading.cells
    assert max(book.depths) != max(reading.depths)


def test_the_book_order_keeps_the_bombs_first_and_the_same_for_a_board():
    bombs = {3, 17, 40}
    order = gamestate.book_order(42, 9, 9, bombs)
    assert set(order[:3]) == bombs and sorted(order) == list(range(81))
    assert order == gamestate.book_order(42, 9, 9, bombs)
    assert order != gamestate.book_order(43, 9, 9, bombs)


def test_o_in_a_replay_switches_the_order_and_replays_the_same_click(game):
    replay = game_replay(game, 15, 15, 0, 3, 7 * 15 + 7, order="reading")
    calls = game.play.opening.calls
    replay.forward()
    game.on_key_down(game.keys.O)
    book = game.showing.replay
    assert book is not replay and book.order == "book" and book.position == -1
    assert game.settings.order == "book"
    assert book.cells == [cell for cell, caller in game.play.opening.calls_in("book")]
    said = "\n".join(game.speak(line) for line in slowmotion.status(
        book, game.play.opening, 1000))
    assert "the book's order" in said
    game.on_key_down(game.keys.O)
    assert game.showing.replay.order == "reading" and game.showing.replay.cells == [
        cell for cell, caller in calls]


def test_the_panel_shows_the_books_open_block(game):
    game_replay(game, 9, 9, 10, 7, 4 * 9 + 4)
    shown = [shape.text for shape in game.now_showing().code(0, 0, 500)
             if isinstance(shape, scene.Text) and shape.font == scene.CODE_FONT]
    assert tuple(shown) == slowmotion.BOOK_CODE
    assert all(shape.size >= 18 for shape in game.now_showing().code(0, 0, 500)
               if isinstance(shape, scene.Text) and shape.font == scene.CODE_FONT)
    # The book's program is loaded last: pgzero then looks for fonts in its folder.
    mod = load_game("step10_win", os.path.join(CHAPTER, STEP10))
    assert slowmotion.BOOK_CODE == code_of(mod.open_block, CHAPTER)


def test_the_queue_code_shown_is_the_one_that_makes_the_queue_replay(game):
    # One queue flood, written once: the panel shows slowmotion's
    # open_block_queue, the function the queue replay runs; the game has
    # no copy of its own.
    assert slowmotion.QUEUE_CODE == code_of(slowmotion.open_block_queue, ROOT)
    assert not hasattr(game, "open_block_queue")
    game_replay(game, 9, 9, 10, 7, 4 * 9 + 4)
    game.on_key_down(game.keys.W)
    assert game.showing.replay.kind == "queue"
    shown = [shape.text for shape in game.now_showing().code(0, 0, 500)
             if isinstance(shape, scene.Text) and shape.font == scene.CODE_FONT]
    assert tuple(shown) == slowmotion.QUEUE_CODE


def test_the_queue_code_in_the_books_program_takes_the_tiles_the_replay_takes(game):
    bombs = {2, 30, 31, 60}
    order = gamestate.book_order(5, 9, 9, bombs)
    opened, taken = [], []
    for run in ("open_block", "open_block_queue"):
        mod = step10(9, 9, order, bombs)
        if run == "open_block_queue":       # the queue version, in the book's program
            exec("\n".join(slowmotion.QUEUE_CODE), mod.__dict__)
            # Each tile the queue takes is asked for its number once, in turn.
            real = mod.get_bomb_number
            mod.get_bomb_number = lambda bk: taken.append(cell_of(bk, 9)) or real(bk)
        block = next(block for block in mod.blocks if cell_of(block, 9) == 80)
        mod.__dict__[run](block)
        opened.append({(cell_of(block, 9), block.image) for block in mod.blocks
                       if block.isopen})
    assert opened[0] == opened[1] and len(opened[0]) > 20
    # The game's queue replay of the same click, the neighbours in the
    # book's order, takes the same tiles in the same order.
    game.new_game(9, 9, len(bombs), 5)
    game.lay_bombs([divmod(cell, 9) for cell in bombs])
    game.settings.order = "book"
    game.recorded(game.click_open, game.block_at(8, 8))
    assert game.play.opening.book == order
    replay = game.play.opening.replay("queue", "book")
    assert [step.cell for step in replay.steps] == taken
    # The queue the panel shows has each tile to be taken at its front.
    while replay.position + 1 < len(replay.steps):
        following = replay.steps[replay.position + 1]
        assert not following.taken or replay.queue[0] == following.cell
        replay.forward()
    assert replay.queue == []


def test_in_the_books_order_each_tile_still_to_open_shows_its_index_in_blocks(game):
    replay = game_replay(game, 9, 9, 10, 7, 4 * 9 + 4)
    opening = game.play.opening
    for steps in (0, 5, len(replay.steps)):
        while replay.position + 1 < steps:
            replay.forward()
        shown = {shape.text for shape in game.now_showing().book_places()}
        waiting = [cell for cell in replay.cells if cell not in replay.number]
        assert shown == {str(opening.book.index(cell)) for cell in waiting}
        # The bombs, the book's first blocks, keep their indexes hidden.
        assert not shown & {str(index) for index in range(10)}
    game.on_key_down(game.keys.O)                   # reading order: no indexes
    assert game.now_showing().book_places() == []


def test_a_wider_desktop_gets_a_wider_panel_and_larger_code(game):
    sizes = {}
    for desktop in ((1366, 768), (1920, 1080)):
        game.window.desktop, game.settings.slowmo = desktop, False
        game_replay(game, 9, 9, 10, 7, 4 * 9 + 4)      # V turns it on
        game.layout()
        texts = [shape for shape in game.now_showing().panel()
                 if isinstance(shape, scene.Text) and shape.font == scene.CODE_FONT]
        sizes[desktop] = (game.view.panel, {shape.size for shape in texts})
        assert game.WIDTH == game.view.board_width() + game.view.panel <= desktop[0]
    assert sizes[(1366, 768)] == (600, {18})
    assert sizes[(1920, 1080)][0] > 600 and min(sizes[(1920, 1080)][1]) > 18
