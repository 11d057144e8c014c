"""The recursion lesson beyond watching: predict the next call, step back,
each call's own variables and its return, the chart of the stack's depth,
the real RecursionError, and the worksheet of calls (--calls)."""
import csv
import os
import subprocess
import sys

import scene
import slowmotion
from conftest import board, picture, tile_centre, tile_states
from loadgame import ROOT

BOMBS = [(0, 5), (1, 5), (2, 5), (3, 5), (4, 3), (5, 8), (6, 0)]


def around(rows, cols, cell):
    """The cells next to a cell, rows from the top, left to right."""
    row, col = cell
    return [(r, c) for r in range(max(row - 1, 0), min(row + 2, rows))
            for c in range(max(col - 1, 0), min(col + 2, cols)) if (r, c) != cell]


def calls_model(rows, cols, bombs, start, opened=()):
    """The chapter's open_block written again here: each call as (cell,
    depth, bombs around, caller, its neighbour number, how many it had),
    and the returns as (child, caller, the neighbour the caller goes on
    with or None, how many)."""
    opened, calls, returns = set(opened), [], []

    def open_block(cell, depth, via):
        opened.add(cell)
        number = sum(other in bombs for other in around(rows, cols, cell))
        calls.append((cell, depth, number) + via)
        if number:
            return
        closed = [other for other in around(rows, cols, cell) if other not in opened]
        for index, other in enumerate(closed, 1):
            if other not in opened:
                open_block(other, depth + 1, (cell, index, len(closed)))
                returns.append((other, cell, index + 1 if index < len(closed) else None,
                                len(closed)))

    open_block(start, 1, (None, None, None))
    return calls, returns


def replaying(game, rows, cols, bombs, start):
    """A hand-laid board in slow motion, the click on start replaying."""
    board(game, rows, cols, bombs)
    game.on_key_down(game.keys.V)
    game.update(0)
    game.grid_action(game.block_at(*start), game.click_open)
    return game.showing.replay


# 1. Predict the next call -------------------------------------------------------
def test_predicting_scores_the_real_order_and_says_why(game):
    board(game, 8, 10, BOMBS)
    game.on_key_down(game.keys.V)
    game.on_key_down(game.keys.T)                  # predict, from the next replay
    game.update(0)
    game.grid_action(game.block_at(7, 2), game.click_open)
    rp = game.showing.replay
    calls, returns = calls_model(8, 10, set(BOMBS), (7, 2))
    assert rp.predict
    right = asked = 0
    for number, (cell, depth, bombs, caller, index, count) in enumerate(calls[1:]):
        while not rp.asking():
            assert rp.forward()
        # Every other guess is right; the wrong ones click the tile above.
        guess = cell if number % 2 == 0 else ((cell[0] + 7) % 8, cell[1])
        game.on_mouse_down(tile_centre(game, *guess), game.mouse.LEFT)
        asked += 1
        right += guess == cell
        assert rp.score == [right, asked]
        assert rp.step().kind == "call" and divmod(rp.step().cell, 10) == cell
        key, facts = rp.verdict
        if guess == cell:
            assert key == "predict_right"
        else:
            assert key in ("predict_wrong", "predict_wrong_back")
            assert divmod(facts["caller"], 10) == caller
            assert (facts["index"], facts["count"]) == (index, count)
    assert asked == len(calls) - 1 and right == (asked + 1) // 2
    assert "Predictions: %d of %d right" % (right, asked) in "\n".join(
        game.speak(said) for said in slowmotion.status(rp, game.play.opening, 1000))


def test_while_a_guess_is_awaited_the_replay_waits(game):
    rp = replaying(game, 8, 10, BOMBS, (7, 2))
    rp.predict = True
    game.update(10.0)
    assert rp.asking() and rp.position >= 0
    held = rp.position
    game.update(10.0)
    assert rp.position == held                     # it waits for the class
    game.on_key_down(game.keys.SPACE)              # Space shows it, unscored
    assert rp.position == held + 1 and rp.score == [0, 0]


def panel_text(game):
    """Every text the slow-motion panel shows now, in one string."""
    return "\n".join(shape.text for shape in game.now_showing().panel() if isinstance(shape, scene.Text))


def test_a_wrong_guess_is_explained_until_the_next_key(game):
    rp = replaying(game, 8, 10, BOMBS, (7, 2))
    rp.predict = True
    game.update(10.0)
    assert rp.asking() and "Your turn: click the tile of the next call" in panel_text(game)
    right = rp.steps[rp.position + 1].cell
    wrong = next(cell for cell in sorted(rp.hidden) if cell != right)
    game.on_mouse_down(tile_centre(game, *divmod(wrong, 10)), game.mouse.LEFT)
    said = game.speak(rp.verdict)
    assert said.startswith("Not ")
    for _ in range(30):
        game.update(0.5)                           # many frames: it stays
        assert said in panel_text(game) and "Paused" in panel_text(game)
    game.on_key_down(game.keys.SPACE)              # the next key goes on
    assert said not in panel_text(game)


# 2. Back and forth --------------------------------------------------------------------
def test_a_step_back_shows_exactly_the_step_before(shown):
    game = shown
    rp = replaying(game, 8, 10, BOMBS, (7, 2))
    rp.paused = True                               # stepping by hand pauses it
    for position in range(len(rp.steps) - 1):
        before = (rp.position, list(rp.stack), dict(rp.number), set(rp.hidden),
                  game.now_showing().shapes())
        game.on_key_down(game.keys.RIGHT)
        game.on_key_down(game.keys.LEFT)
        after = (rp.position, list(rp.stack), dict(rp.number), set(rp.hidden),
                 game.now_showing().shapes())
        assert after == before, position
        rp.forward()
    game.on_key_down(game.keys.HOME)
    assert rp.position == -1 and rp.hidden == set(rp.cells)
    game.on_key_down(game.keys.END)
    assert rp.position == len(rp.steps) - 1 and not rp.hidden and rp.paused


# 3. Each call's variables, and each return --------------------------------------------
def test_each_return_names_its_caller_and_the_neighbour_it_goes_on_with(game):
    rp = replaying(game, 8, 10, BOMBS, (7, 2))
    calls, returns = calls_model(8, 10, set(BOMBS), (7, 2))
    backs = [step for step in rp.steps if step.kind == "back"]
    assert len(backs) == len(returns)
    for step, (child, caller, following, count) in zip(backs, returns):
        key, facts = step.said
        assert divmod(facts["child"], 10) == child and divmod(facts["cell"], 10) == caller
        if following is None:
            assert key == "call_back_last"
        else:
            assert key == "call_back" and (facts["next"], facts["count"]) == (
                following, count)
        assert divmod(step.frame[0], 10) == caller      # the caller runs again
    assert rp.steps[-1].kind == "end"


def test_the_panel_shows_the_running_calls_variables(game):
    rp = replaying(game, 8, 10, BOMBS, (7, 2))
    calls, returns = calls_model(8, 10, set(BOMBS), (7, 2))
    numbers = {cell: bombs for cell, depth, bombs, *via in calls}
    while rp.forward():
        step = rp.step()
        if step.frame is None:
            continue
        cell, bombnum, index, count = step.frame
        assert divmod(rp.stack[-1], 10) == divmod(cell, 10)
        assert bombnum == numbers[divmod(cell, 10)]
        said = game.speak(slowmotion.variables(rp))
        assert said.startswith("open_block(bk = (%d,%d)): bombnum = %d" % (
            cell // 10 + 1, cell % 10 + 1, bombnum))
        if step.kind == "skip":
            assert "neighbour %d of %d" % (index, count) in said


def test_a_return_says_how_far_its_callers_loop_has_come_beside_the_next_neighbour(game):
    # "open_block(bk = (7,8)): ... up to neighbour 1 of 2" beside "... goes on
    # with neighbour 2 of 2", in Chinese: never a bare "neighbour 1 of 2"
    # that reads as the one it goes on with.
    rp = replaying(game, 8, 10, BOMBS, (7, 2))
    came = {"zh": "\u5230\u7b2c%d\u4e2a",                      # dao di N ge: up to the Nth
            "zh-TW": "\u5230\u7b2c%d\u500b"}
    seen = 0
    try:
        while rp.forward():
            step = rp.step()
            if step.kind != "back" or step.said[0] != "call_back":
                continue
            index = step.frame[2]
            for language, words in came.items():
                game.set_language(language)
                said = game.speak(slowmotion.variables(rp)).replace("\u200b", "")
                assert words % index in said, language
            seen += 1
    finally:
        game.set_language("en")
    assert seen


# 4. The chart of the stack's depth ------------------------------------------------------
def test_the_chart_draws_the_depths_the_replay_goes_through(game):
    rp = replaying(game, 15, 15, [(3, 3), (10, 12), (12, 2)], (7, 7))
    seen = []
    while rp.forward():
        seen.append(len(rp.stack))
    assert rp.depths == seen
    calls, returns = calls_model(15, 15, {(3, 3), (10, 12), (12, 2)}, (7, 7))
    assert max(seen) == max(depth for cell, depth, *rest in calls)
    lines = [shape for shape in game.now_showing().panel() if isinstance(shape, scene.Line)]
    assert len(lines) == 1 and lines[0].colour == scene.CHART["stack"]
    box = lines[0].points
    assert len(box) == len(seen) and box[0][0] < box[-1][0]
    deepest = [index for index, depth in enumerate(seen) if depth == max(seen)]
    assert min(y for x, y in box) == box[deepest[0]][1]      # highest where deepest
    # After the queue's replay too, both are drawn, on the same axes.
    game.on_key_down(game.keys.W)
    while game.showing.replay.forward():
        pass
    colours = {shape.colour for shape in game.now_showing().panel()
               if isinstance(shape, scene.Line)}
    assert colours == {scene.CHART["stack"], scene.CHART["queue"]}


# 5. The real RecursionError ------------------------------------------------------------------
def test_the_recursion_error_is_real_and_the_board_comes_back(game):
    board(game, 9, 9, [(0, 0), (8, 8)])
    game.grid_action(game.block_at(4, 4), game.click_open)
    game.grid_action(game.block_at(0, 1), game.click_flag)
    game.update(3.0)
    before = (picture(game), tile_states(game), game.ROWS, game.COLS, game.BOMBS,
              game.play.timer, game.play.clicks, game.TITLE, game.play, game.showing)
    game.on_key_down(game.keys.V)
    game.on_key_down(game.keys.K)
    rp = game.showing.replay
    assert (game.ROWS, game.COLS) == (40, 40) and rp.error
    # The board played before is kept whole, by name, until Esc.
    kept = game.showing.stash
    assert (kept.rows, kept.cols, kept.bombs, kept.title) == (9, 9, 2, before[7])
    assert (kept.play, kept.showing) == (before[8], before[9])
    assert "maximum recursion depth exceeded" in rp.error
    error = next(step for step in rp.steps if step.kind == "error")
    key, facts = error.said
    assert key == "recursion_error" and facts["limit"] == 1000
    assert 500 < facts["depth"] < 1000 and facts["calls"] < 1600
    assert rp.steps[-1].said.key == "recursion_fixed"
    assert rp.steps[-1].said.facts["calls"] == 1600
    game.on_key_down(game.keys.END)
    for _ in range(20):
        game.update(1.0)                          # the end of the demonstration stays
    assert game.showing.replay is rp and not game.finished
    game.on_key_down(game.keys.ESCAPE)
    assert (picture(game), tile_states(game), game.ROWS, game.COLS, game.BOMBS,
            game.play.timer, game.play.clicks, game.TITLE, game.play, game.showing) == before
    assert sys.getrecursionlimit() > 1000          # fix c is still in place


def test_v_in_the_limits_demonstration_started_from_a_replay_ends_both(game):
    board(game, 9, 9, [(0, 0), (8, 8)])
    game.on_key_down(game.keys.V)
    game.grid_action(game.block_at(4, 4), game.click_open)
    assert game.showing.replay is not None
    game.on_key_down(game.keys.K)                 # from inside that replay
    game.on_key_down(game.keys.V)                 # slow motion off: no replay shows
    assert not game.settings.slowmo and (game.ROWS, game.COLS) == (9, 9)
    assert game.showing.replay is None and game.showing.stash is None
    assert game.showing.state is game.State.PLAY


def test_the_limits_demonstration_draws_only_the_tiles_its_calls_opened(shown):
    game = shown
    board(game, 9, 9, [(0, 0)])
    game.on_key_down(game.keys.V)
    game.on_key_down(game.keys.K)
    rp = game.showing.replay
    every = set(range(40 * 40))

    def drawn_open():
        """The tiles the replay draws open now (the others it draws closed)."""
        game.draw()
        return every - rp.hidden

    assert drawn_open() == set()
    for keys in ([game.keys.RIGHT] * 50, [game.keys.END], [game.keys.LEFT] * 3,
                 [game.keys.HOME], [game.keys.END]):
        for key in keys:
            game.on_key_down(key)
        assert drawn_open() == set(rp.number)
    assert len(rp.number) < 1600
    # A tile no call reached, in view, is drawn closed in the tiles' picture too.
    view = game.view
    row, col = next(divmod(cell, 40) for cell in sorted(every - set(rp.number))
                    if view.in_view(*divmod(cell, 40)))
    size = view.tile
    tile = game.canvas.grid.subsurface(((col - view.col) * size, (row - view.row) * size,
                                        size, size))
    closed = game.tile_picture("minesweep_block")
    assert game.pygame.image.tobytes(tile, "RGB") == game.pygame.image.tobytes(
        closed.convert(), "RGB")
    assert game.blocks[row * 40 + col].isopen       # though the recorded run opened it
    # The last sentence in a class's words: how deep this click goes, the
    # usual limit and the game's; why the game's is what it is is the
    # teacher's pages' (fix c), not the panel's.
    deepest = max(game.play.opening.replay("stack").depths)
    for language in ("en", "zh", "zh-TW"):
        game.set_language(language)
        said = game.speak(rp.steps[-1].said)
        for number in (deepest, 1000, sys.getrecursionlimit(), 40 * 40):
            assert str(number) in said, (language, number, said)
        assert "fix c" not in said and "\u4fee\u6b63" not in said        # fix, in Chinese
        assert not set("()\uff08\uff09") & set(said), said              # no asides
    game.set_language("en")


def test_end_in_the_limits_demonstration_goes_straight_to_the_recursion_error(game):
    board(game, 9, 9, [(0, 0)])
    game.on_key_down(game.keys.V)
    game.on_key_down(game.keys.K)
    rp = game.showing.replay
    assert rp.position < 10
    game.on_key_down(game.keys.END)
    assert rp.step().kind == "error" and rp.paused
    assert "RecursionError" in panel_text(game)
    game.on_key_down(game.keys.END)                 # again: how the game gets past it
    assert rp.step() is rp.steps[-1] and rp.step().kind == "fixed"
    game.on_key_down(game.keys.HOME)
    game.on_key_down(game.keys.END)
    assert rp.step().kind == "error"
    # The keys say so in every language, and so does the news K brings.
    for language in ("en", "zh", "zh-TW"):
        game.set_language(language)
        for said in (game.now_showing().panel_keys(), game.speak(game.showing.message)):
            assert "End" in said and "RecursionError" in said, (language, said)
    game.set_language("en")
    game.on_key_down(game.keys.ESCAPE)
    board(game, 9, 9, [(0, 0)])
    game.grid_action(game.block_at(4, 4), game.click_open)
    assert "RecursionError" not in game.now_showing().panel_keys()   # only in K


def test_the_panel_names_the_stack_in_each_language(game):
    replaying(game, 9, 9, [(0, 0)], (4, 4))
    for language, stack in (("en", "stack"), ("zh", "\u6808"),           # zhan, the stack
                            ("zh-TW", "\u5806\u758a")):                 # duidie, the stack in Taiwan
        game.set_language(language)
        assert stack in panel_text(game), language
    game.set_language("en")


# 6. The worksheet ---------------------------------------------------------------------------
def worksheet(tmp_path, *args):
    """Run the game with --calls and these options; the CSV's rows."""
    out = tmp_path / "calls.csv"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               MINESWEEP_DATA_DIR=str(tmp_path / "data"))
    done = subprocess.run([sys.executable, "minesweep.py", "--calls", str(out)] + list(args),
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    # A worksheet's board is not a game to keep, nor to say anything about.
    assert "keep" not in done.stdout + done.stderr
    assert not (tmp_path / "data" / "saved_game.json").exists()
    said = done.stdout.strip().splitlines()[-1]     # where, in either language
    assert str(out) in said and said.endswith(str(tmp_path / "calls_board.txt"))
    with open(out, "rb") as f:
        assert f.read(3) == b"\xef\xbb\xbf"       # a BOM: Excel and WPS read UTF-8
    with open(out, encoding="utf-8-sig", newline="") as f:
        title, *rows = list(csv.reader(f))
    assert len(title) == 1 and not any(title[0] in cell for row in rows for cell in row)
    return rows


def test_the_worksheet_of_an_empty_board_is_the_recursion(tmp_path):
    rows = worksheet(tmp_path, "--board", "1", "--rows", "15", "--cols", "15",
                     "--bombs", "0", "--at", "8,8", "--lang", "en")
    assert rows[0] == ["call", "row", "col", "depth", "bombs", "stop", "caller", "last"]
    calls, returns = calls_model(15, 15, set(), (7, 7))
    callers = {caller for cell, depth, bombs, caller, *rest in calls}
    number = {cell: place for place, (cell, *rest) in enumerate(calls, 1)}
    assert len(rows) - 1 == 225 == len(calls)
    for place, (row, (cell, depth, bombs, caller, *via)) in enumerate(
            zip(rows[1:], calls), 1):
        stop = "" if cell in callers else "no closed neighbour left to open"
        assert row[:7] == [str(place), str(cell[0] + 1), str(cell[1] + 1), str(depth),
                           str(bombs), stop, "" if caller is None else str(number[caller])]
        assert len(row) == 8            # the order is in the first line, not in every row
    # Each call returns once the calls after it are deeper: last is the one before.
    depths = [depth for cell, depth, *rest in calls] + [0]
    for place, row in enumerate(rows[1:], 1):
        last = next(later for later in range(place, 226) if depths[later] <= depths[
            place - 1])
        assert row[7] == str(last)


def test_the_worksheet_speaks_the_games_language(tmp_path):
    rows = worksheet(tmp_path, "--rows", "4", "--cols", "5", "--bombs", "0",
                     "--lang", "zh", "--order", "book")
    with open(tmp_path / "calls.csv", encoding="utf-8-sig") as f:
        title = f.readline()
    assert "\u4e66\u4e2d\u7684\u987a\u5e8f" in title       # the book's order, once
    assert rows[0][4] == "\u5468\u56f4\u5730\u96f7\u6570"    # bombs around
    assert len(rows[0]) == 9 and len(rows) == 21
    with open(tmp_path / "calls_board.txt", encoding="utf-8-sig") as f:
        board = f.read()
    assert "blocks" in board and "i\u548cj\u4ece0" in board     # i and j from 0


def test_the_worksheet_lists_exactly_the_tiles_the_click_opens(game, tmp_path):
    rows = worksheet(tmp_path, "--board", "7", "--rows", "9", "--cols", "9",
                     "--bombs", "10", "--at", "5,5", "--lang", "zh")
    game.new_game(9, 9, 10, 7)
    game.grid_action(game.block_at(4, 4), game.click_open)
    opened = {(block.row + 1, block.col + 1) for block in game.blocks if block.isopen}
    listed = {(int(row[1]), int(row[2])) for row in rows[1:]}
    assert listed == opened and len(rows) - 1 == len(opened)
    numbers = {(int(row[1]), int(row[2])): int(row[4]) for row in rows[1:]}
    assert all(numbers[(block.row + 1, block.col + 1)] == block.number
               for block in game.blocks if block.isopen)
    # In Chinese, as chosen: "a bomb is near".
    assert any("\u5468\u56f4\u6709\u5730\u96f7" in row[5] for row in rows[1:])
    # Plain words, without the texts' break marks (zero-width spaces): on an
    # empty board, "no closed neighbour left to open".
    empty = worksheet(tmp_path, "--rows", "5", "--cols", "5", "--bombs", "0", "--at", "3,3",
                      "--lang", "zh")
    nothing_left = ("\u5468\u56f4\u5df2\u7ecf\u6ca1\u6709"
                    "\u53ef\u4ee5\u6253\u5f00\u7684\u65b9\u5757\u4e86")
    assert {row[5] for row in empty[1:]} == {"", nothing_left}


def test_a_worksheet_that_cannot_be_written_is_one_clear_line(tmp_path):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               MINESWEEP_DATA_DIR=str(tmp_path / "data"))
    done = subprocess.run([sys.executable, "minesweep.py", "--calls",
                           str(tmp_path / "no" / "such" / "folder.csv")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip().startswith("minesweep: cannot write the calls to")
