"""Slow motion: the recorded calls of open_block are the real
recursion, the replay shows them and ends on the real board, and the queue
replay opens the same tiles breadth first."""
import pygame

import scene
import slowmotion
import viewport
from conftest import board, picture, tile_centre
from test_mainloop import click, key, run_loop


def around(rows, cols, cell):
    """The cells next to a cell, in the order the game keeps them."""
    row, col = cell
    return [(r, c) for r in range(max(row - 1, 0), min(row + 2, rows))
            for c in range(max(col - 1, 0), min(col + 2, cols)) if (r, c) != cell]


def recursion_model(rows, cols, bombs, flags, opened, starts):
    """The chapter's open_block written again here, noting what it does:
    (what, cell, depth) for each step, in order."""
    opened = set(opened)
    steps = []

    def open_block(cell, depth):
        opened.add(cell)
        steps.append(("call", cell, depth))
        if any(other in bombs for other in around(rows, cols, cell)):
            steps.append(("return", cell, depth))
            return
        steps.append(("loop", cell, depth))
        for other in [o for o in around(rows, cols, cell) if o not in opened]:
            if other in flags:
                steps.append(("skip flag", other, depth))
            elif other in opened:
                steps.append(("skip open", other, depth))
            else:
                open_block(other, depth + 1)
                steps.append(("back", cell, depth))     # the call returned here
        steps.append(("done", cell, depth))

    for start in starts:
        open_block(start, 1)
        steps.append(("end", start, 0))                 # the click's call returned
    return steps


def replay_steps(game):
    """Run the replay to its end; (what, cell, depth) for each step."""
    rp = game.showing.replay
    out = []
    while rp.forward():
        step = rp.step()
        what = step.kind
        if what == "skip":
            what = "skip flag" if step.said[0] == "call_flag" else "skip open"
        depth = len(rp.stack) if rp.kind == "stack" else len(rp.queue)
        out.append((what, divmod(step.cell, game.COLS), depth))
    return out


BOMBS = [(0, 5), (1, 5), (2, 5), (3, 5), (4, 3), (5, 8), (6, 0)]


def test_the_recorded_calls_are_the_recursion(game):
    board(game, 8, 10, BOMBS)
    game.grid_action(game.block_at(0, 9), game.click_open)    # opens the right
    game.grid_action(game.block_at(7, 4), game.click_flag)    # a flag inside
    before = {(b.row, b.col) for b in game.blocks if b.isopen}
    assert before
    game.on_key_down(game.keys.V)
    game.grid_action(game.block_at(7, 2), game.click_open)
    assert game.showing.replay is not None and game.showing.replay.kind == "stack"
    expected = recursion_model(8, 10, set(BOMBS), {(7, 4)}, before, [(7, 2)])
    got = replay_steps(game)
    assert got == expected
    kinds = {what for what, cell, depth in got}
    assert kinds == {"call", "return", "loop", "skip flag", "skip open", "done", "back",
                     "end"}
    calls = [cell for what, cell, depth in got if what == "call"]
    assert [divmod(cell, 10) for cell, caller in game.play.opening.calls] == calls
    assert slowmotion.deepest_call(game.play.opening.calls) == max(
        depth for what, cell, depth in got)


def test_a_chord_records_each_area_from_the_top(game):
    # The 1 at (1,1) has its bomb flagged; the chord opens two areas.
    board(game, 5, 5, [(0, 0)])
    game.open_block(game.block_at(1, 1))
    game.set_flag(game.block_at(0, 0))
    game.on_key_down(game.keys.V)
    game.grid_action(game.block_at(1, 1), game.chord)
    roots = [divmod(cell, 5) for cell, caller in game.play.opening.calls
             if caller is None]
    assert roots == [(0, 1), (0, 2)]         # a 1, then the rest in one flood
    expected = recursion_model(5, 5, {(0, 0)}, {(0, 0)}, {(1, 1)}, roots)
    assert replay_steps(game) == expected


def test_the_empty_chapter_board_goes_218_calls_deep(game):
    board(game, 15, 15, [])
    game.on_key_down(game.keys.V)
    game.grid_action(game.block_at(7, 7), game.click_open)
    calls = game.play.opening.calls
    assert len(calls) == 225
    assert slowmotion.deepest_call(calls) == 218


def test_the_replay_ends_on_the_board_a_normal_click_gives(shown):
    game = shown
    board(game, 8, 10, BOMBS)
    game.grid_action(game.block_at(7, 9), game.click_open)
    plain = picture(game)
    board(game, 8, 10, BOMBS)
    game.on_key_down(game.keys.V)
    game.grid_action(game.block_at(7, 9), game.click_open)
    assert picture(game) == plain                  # the game itself is done
    rp = game.showing.replay
    hidden = set(rp.hidden)
    assert hidden == set(rp.cells) and len(hidden) > 10
    # While it replays, the tiles not reached yet look closed.
    game.draw()
    tile = game.blocks[next(iter(hidden))]
    closed = game.images.minesweep_block
    drawn = game.screen.surface.subsurface(pygame.Rect(tile.topleft, (25, 25)))
    assert pygame.image.tobytes(drawn, "RGB") == pygame.image.tobytes(
        closed.convert(), "RGB")
    shown_steps = 0
    while game.showing.replay is not None:
        game.update(1 / slowmotion.SPEEDS[game.settings.speed])
        game.draw()
        shown_steps += 1
    assert shown_steps > len(hidden)
    assert picture(game) == plain
    assert game.play.opening is not None


def test_the_queue_replay_opens_the_same_tiles_breadth_first(game):
    board(game, 15, 15, [(3, 3), (10, 12), (12, 2)])
    game.on_key_down(game.keys.V)
    game.grid_action(game.block_at(7, 7), game.click_open)
    stack_order = [divmod(cell, 15) for cell in game.showing.replay.cells]
    game.on_key_down(game.keys.W)
    assert game.showing.replay.kind == "queue"
    order = [cell for what, cell, depth in replay_steps(game)]
    assert sorted(order) == sorted(stack_order) and order != stack_order
    # Breadth first: the queue written again here gives the same order.
    bombs = {(3, 3), (10, 12), (12, 2)}
    queue, model = [(7, 7)], []
    while queue:
        cell = queue.pop(0)
        model.append(cell)
        if any(other in bombs for other in around(15, 15, cell)):
            continue
        queue.extend(other for other in around(15, 15, cell)
                     if other not in model and other not in queue)
    assert order == model
    # So the click opens first, then the ring of eight round it.
    assert sorted(order[1:9]) == around(15, 15, (7, 7))
    # W again goes back to the recursion.
    game.on_key_down(game.keys.W)
    assert game.showing.replay is not None and game.showing.replay.kind == "stack"


def test_the_queue_panel_names_the_tiles_waiting_front_first(game):
    board(game, 15, 15, [(3, 3), (10, 12), (12, 2)])
    game.on_key_down(game.keys.V)
    game.grid_action(game.block_at(7, 7), game.click_open)
    game.on_key_down(game.keys.W)
    for _ in range(4):
        game.showing.replay.forward()
    queue = game.showing.replay.queue
    assert len(queue) > 7
    game.layout()
    texts = [" ".join(shape.text.split()) for shape in game.now_showing().shapes()
             if isinstance(shape, scene.Text)]
    heading = game.wording.TEXTS["panel_waiting"]
    [waiting] = [text for text in texts if text.startswith(heading)]
    named = ["(%d,%d)" % (cell // 15 + 1, cell % 15 + 1) for cell in queue]
    assert waiting == " ".join([heading] + named[:3] + [
        game.wording.TEXTS["panel_more_queue"].format(count=len(queue) - 6)] + named[-3:])


def test_nothing_is_recorded_with_the_mode_off(game):
    board(game, 6, 6, [(0, 0)])
    game.grid_action(game.block_at(5, 5), game.click_open)
    assert game.showing.replay is None and game.play.opening is None


def test_one_tile_opened_is_no_replay(game):
    board(game, 4, 4, [(0, 0)])
    game.on_key_down(game.keys.V)
    game.grid_action(game.block_at(1, 1), game.click_open)      # a 1
    assert game.showing.replay is None and game.block_at(1, 1).isopen


def test_v_grows_the_window_and_shrinks_it_again(game):
    game.window.desktop = (1366, 768)
    board(game, 9, 9, [(0, 0)])
    height = game.HEIGHT
    game.on_key_down(game.keys.V)
    game.update(0)                                     # the next frame
    # Slow motion is for a class to watch: the panel, and the largest tiles
    # at which the whole board fits (9 x 9 at 50 px on this desktop).
    tile = game.view.tile
    assert tile == max(viewport.LARGER) and game.view.whole()
    assert game.WIDTH == max(9 * tile, viewport.MIN_WIDTH) + viewport.PANEL
    assert game.HEIGHT >= height and game.HEIGHT <= 768 - viewport.ROOM[1]
    assert game.Rect(game.view.face_rect()).centerx == 9 * tile // 2   # over the board
    game.on_key_down(game.keys.K_2)                    # a new level keeps it
    game.update(0)
    assert game.view.whole() and game.WIDTH == 16 * game.view.tile + viewport.PANEL
    game.on_key_down(game.keys.V)
    game.update(0)
    assert (game.WIDTH, game.HEIGHT) == (16 * 25, game.BAR + 16 * 25 + game.view.footer)


def test_pause_step_speed_and_escape(game):
    board(game, 15, 15, [(0, 0)])
    game.on_key_down(game.keys.V)
    game.grid_action(game.block_at(7, 7), game.click_open)
    rp = game.showing.replay
    game.on_mouse_down(tile_centre(game, 3, 3), game.mouse.LEFT)   # pause
    assert rp.paused and not game.block_at(3, 3).isflag
    game.update(10.0)
    assert len(rp.number) == 0                         # nothing moves
    game.on_key_down(game.keys.SPACE)
    game.on_key_down(game.keys.SPACE)
    assert rp.step().kind == "loop" and len(rp.number) == 1
    game.on_key_down(game.keys.PLUS)
    game.on_key_down(game.keys.KP_PLUS)
    assert game.settings.speed == slowmotion.START_SPEED + 2
    game.on_key_down(game.keys.MINUS)
    assert game.settings.speed == slowmotion.START_SPEED + 1
    game.on_mouse_down(tile_centre(game, 3, 3), game.mouse.LEFT)   # go on
    game.update(0.5)
    assert len(rp.number) > 1
    game.on_key_down(game.keys.ESCAPE)
    assert game.showing.replay is None and game.settings.slowmo
    assert sum(b.isopen for b in game.blocks) == 224


def test_restart_and_level_keys_end_a_replay(game):
    board(game, 15, 15, [(0, 0)])
    game.on_key_down(game.keys.V)
    game.grid_action(game.block_at(7, 7), game.click_open)
    game.on_key_down(game.keys.R)
    assert game.showing.replay is None and game.play.opening is None
    assert not any(b.isopen for b in game.blocks)
    board(game, 15, 15, [(0, 0)])
    game.grid_action(game.block_at(7, 7), game.click_open)
    game.on_key_down(game.keys.K_1)
    assert game.showing.replay is None and (game.ROWS, game.COLS) == (9, 9)


def test_autoplay_waits_for_the_replay(game):
    board(game, 15, 15, [(0, 0), (14, 14)])
    game.on_key_down(game.keys.V)
    game.grid_action(game.block_at(7, 7), game.click_open)
    opened = sum(b.isopen for b in game.blocks)
    game.autoplay_step()
    assert sum(b.isopen for b in game.blocks) == opened


def test_a_replay_through_pgzeros_loop(game):
    board(game, 9, 9, [(0, 0), (8, 8)])
    pygame.event.clear()
    key(pygame.K_v)
    click(tile_centre(game, 4, 4), 1)
    assert run_loop(game, frames=3) == 3
    assert game.showing.replay is not None and 0 < len(game.showing.replay.number) < 79
    pygame.init()                   # pgzero's loop shut pygame down
    key(pygame.K_ESCAPE)
    assert run_loop(game, frames=2) == 2
    assert game.showing.replay is None and sum(b.isopen for b in game.blocks) == 79
