"""The view: every board fits the screen, every tile can be reached and
clicked, every text fits, and a window where nothing changed is not drawn."""
import json
import os
import random
import sys
import threading
import time

import pygame
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

import scene
import viewport
from conftest import board, footer, in_state, tile_centre
from loadgame import ROOT, draw_afresh, with_screen
from test_mainloop import click, run_loop

# (rows, cols, bombs): the tiniest boards, lines, the levels, and the largest.
SIZES = [(1, 1, 0), (1, 2, 1), (2, 2, 1), (1, 100, 10), (100, 1, 10), (5, 5, 3),
         (9, 9, 10), (16, 30, 99), (40, 80, 500), (100, 100, 2000),
         (100, 200, 3000), (200, 200, 8000)]
DESKTOPS = [(1366, 768), (1920, 1080)]


def on_desktop(game, desktop, rows, cols, bombs):
    """A new board of this size, on a desktop of this size."""
    game.window.desktop = desktop
    game.new_game(rows, cols, bombs)
    game.layout()                       # as the next frame does
    return game


def texts_drawn(game):
    """Draw the window afresh; every text drawn, as (text, size, Rect)."""
    game.layout()
    with_screen(game)
    draw_afresh(game)
    return [(shape.text, shape.size, game.draw_shape(shape))
            for shape in game.now_showing().shapes() if isinstance(shape, scene.Text)]


def win_quickly(game):
    """Open every safe tile straight away (grid_action would remember the
    whole board at every move, slow on 200 x 200), then let update() see it."""
    for block in game.blocks:
        if not block.isbomb and not block.isopen:
            game.open_block(block)
    game.update(0.5)
    assert game.finished


def states(game, rows, cols, bombs):
    """The game in each state whose words must fit: start, a hint, paused,
    won, lost with a post-mortem, and the table of best times."""
    yield "start"
    game.grid_action(game.block_at(rows // 2, cols // 2), game.click_open)
    if game.finished:
        yield "won"
        return
    game.show_hint()
    yield "hint"
    game.on_key_down(game.keys.P)
    assert in_state(game, "PAUSED")
    yield "paused"
    game.on_key_down(game.keys.P)
    bomb = next(block for block in game.blocks if block.isbomb)
    game.grid_action(bomb, game.click_open)
    assert game.failed and game.play.postmortem is not None
    yield "lost"
    game.on_key_down(game.keys.U)
    win_quickly(game)
    yield "won"
    game.on_key_down(game.keys.B)
    yield "best times"


@pytest.mark.parametrize("desktop", DESKTOPS)
@pytest.mark.parametrize("rows, cols, bombs", SIZES)
def test_every_board_fits_and_its_words_fit(game, desktop, rows, cols, bombs):
    on_desktop(game, desktop, rows, cols, bombs)
    for state in states(game, rows, cols, bombs):
        drawn = texts_drawn(game)
        window = pygame.Rect(0, 0, game.WIDTH, game.HEIGHT)
        assert game.WIDTH <= desktop[0] and game.HEIGHT <= desktop[1], state
        assert drawn, state
        for number, (text, size, place) in enumerate(drawn):
            assert window.contains(place), (state, text, place, window)
            assert size >= 10, (state, text)
            for other_text, other_size, other in drawn[:number]:
                assert not place.colliderect(other), (state, text, other_text)
        # No line of the footer is cut short or wider than the window.
        footer = [shape for shape in game.now_showing().footer() if isinstance(shape, scene.Text)]
        lines, fontname, fontsize = footer[0].text.split("\n"), footer[0].font, footer[0].size
        font = pygame.font.Font(None, fontsize) if fontname is None else None
        assert not lines[-1].endswith("..."), state
        if font is not None:
            assert all(font.size(line)[0] <= game.WIDTH - 8 for line in lines), state


@pytest.mark.parametrize("desktop", DESKTOPS)
@pytest.mark.parametrize("rows, cols, bombs", SIZES)
def test_every_tile_can_be_reached(game, desktop, rows, cols, bombs):
    on_desktop(game, desktop, rows, cols, bombs)
    assert game.view.tile in (25, 20, 16)
    grid = pygame.Rect(game.view.left, game.view.top, game.view.tile * game.view.cols,
                       game.view.tile * game.view.rows)
    assert pygame.Rect(0, 0, game.WIDTH, game.HEIGHT).contains(grid)
    # By the view: scrolled to any tile, that tile is where the mouse finds it.
    for row in range(rows):
        for col in range(cols):
            game.view.follow(row, col)
            centre = tile_centre(game, row, col)
            assert grid.collidepoint(centre)
            assert game.block_under(centre) is game.block_at(row, col)
    # By the cursor: the arrows reach the far corner, always in view.
    game.new_game()
    game.window.pointer = None
    game.on_key_down(game.keys.LEFT)
    for arrow, steps in ((game.keys.UP, rows), (game.keys.LEFT, cols),
                         (game.keys.DOWN, rows), (game.keys.RIGHT, cols)):
        for _ in range(steps):
            game.on_key_down(arrow)
            game.update(0)                      # the frame brings it into view
            assert game.view.in_view(*game.showing.cursor)
    assert game.showing.cursor == (rows - 1, cols - 1)


def test_the_standard_levels_look_as_in_the_book(game):
    for rows, cols, bombs in [(15, 15, 20), (9, 9, 10), (16, 16, 40), (16, 30, 99)]:
        on_desktop(game, (1366, 768), rows, cols, bombs)
        assert (game.view.tile, game.view.rows, game.view.cols) == (25, rows, cols)
        assert game.view.top == game.BAR
        assert game.WIDTH == max(25 * cols, 225)


def test_every_kind_of_shape_has_its_drawer(game):
    kinds = {value for value in vars(scene).values() if isinstance(value, type)
             and issubclass(value, scene.Shape) and value is not scene.Shape}
    assert kinds == set(game.DRAWERS) and len(kinds) == 9


def test_a_board_too_big_for_the_screen_gets_smaller_tiles_then_scrolls(game):
    on_desktop(game, (1366, 768), 28, 50, 100)          # 1250 x 700 at 25 px
    assert game.view.tile == 20 and (game.view.rows, game.view.cols) == (28, 50)
    on_desktop(game, (1366, 768), 100, 200, 3000)
    assert game.view.tile == 16 and game.view.cols == 1366 // 16
    assert game.view.rows < 100
    # Z chooses the size by hand: 25 px tiles, fewer in view.
    game.on_key_down(game.keys.Z)
    game.update(0)                                      # the next frame
    assert game.view.tile == 25 and game.view.cols == 1366 // 25
    assert "25 px" in footer(game)


def test_the_smaller_tiles_are_drawn_at_their_size(shown):
    on_desktop(shown, (1366, 768), 100, 200, 3000)
    shown.lay_bombs([(0, 0)])
    shown.open_block(shown.block_at(0, 1))
    texts_drawn(shown)
    area = shown.Rect(shown.view.tile_rect(0, 0))
    assert area.size == (16, 16)
    bevel = shown.screen.surface.get_at(area.move(1, 1).topleft)[:3]
    assert bevel == (255, 255, 255)                   # a closed tile's light edge
    # The next tile is open: flat grey with its one-pixel line.
    inside = shown.Rect(shown.view.tile_rect(0, 1)).move(5, 5).topleft
    assert shown.screen.surface.get_at(inside)[:3] \
        == (192, 192, 192)


def test_the_wheel_scrolls_and_clicks_hit_the_tile_shown(game):
    # Real events through pgzero's loop: the wheel turns twice, then twice
    # with Shift held, and a click lands on a tile of the scrolled view.
    on_desktop(game, (1366, 768), 100, 200, 1)
    game.lay_bombs([(99, 199)])
    pygame.event.clear()
    centre = (game.view.left + 100, game.view.top + 100)
    click(centre, 5)
    click(centre, 5)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LSHIFT,
                                          mod=0, unicode="", scancode=0))
    click(centre, 5)
    click(centre, 5)
    click(centre, 4)
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_LSHIFT,
                                          mod=0, unicode="", scancode=0))
    assert run_loop(game) == 3
    assert (game.view.row, game.view.col) == (6, 3)
    # A right click 2 tiles down and 5 across from the view's corner flags
    # tile (8, 8).
    pos = (game.view.left + 5 * 16 + 8, game.view.top + 2 * 16 + 8)
    assert flagged_by_right_click(game, pos) == [game.block_at(8, 8)]


def flagged_by_right_click(game, pos):
    """Right-click here through pgzero's loop; the tiles flagged then."""
    pygame.init()                       # pgzero's loop quits the display
    pygame.event.clear()
    click(pos, 3)
    assert run_loop(game) == 3
    return [block for block in game.blocks if block.isflag]


def test_clicks_hit_the_right_tile_when_zoomed(game):
    on_desktop(game, (1366, 768), 28, 50, 1)
    game.lay_bombs([(0, 0)])
    assert game.view.tile == 20
    pos = (game.view.left + 7 * 20 + 1, game.view.top + 3 * 20 + 19)
    assert flagged_by_right_click(game, pos) == [game.block_at(3, 7)]


def test_the_hint_brings_its_tile_into_view(game):
    on_desktop(game, (1366, 768), 100, 200, 1)
    game.lay_bombs([(95, 190)])
    game.open_block(game.block_at(0, 0))              # all but the bomb's ring
    game.play.laid = game.play.started = True
    game.view.scroll(-100, -200)
    assert not game.view.in_view(95, 190)
    game.show_hint()
    game.layout()                                     # as the next frame does
    cell, isbomb, reason = game.showing.hint
    assert game.view.in_view(*divmod(cell, game.COLS))


def test_a_window_where_nothing_changed_is_not_drawn_again(shown):
    board(shown, 9, 9, [(0, 0)])
    shown.grid_action(shown.block_at(8, 8), shown.click_flag)   # starts the clock
    shown.update(0.1)
    shown.draw()
    mark = (shown.WIDTH - 30, 20)                     # inside the timer's box
    shown.screen.surface.set_at(mark, (0, 255, 0))
    shown.update(0.1)
    shown.draw()
    assert shown.screen.surface.get_at(mark)[:3] == (0, 255, 0)   # untouched
    shown.update(1.0)                                 # a new second to show
    shown.draw()
    assert shown.screen.surface.get_at(mark)[:3] != (0, 255, 0)


ACTIONS = st.lists(st.tuples(
    st.sampled_from(["left", "right", "middle", "wheel", "shift wheel", "move",
                     "time", "key"]),
    st.integers(0, 10 ** 6),
    st.sampled_from(["UP", "DOWN", "LEFT", "RIGHT", "SPACE", "F", "H", "Z", "P",
                     "E", "B", "U", "N", "Q", "R", "V", "W", "S", "L", "K_1"])),
    max_size=40)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(actions=ACTIONS)
def test_drawing_only_what_changed_draws_what_a_fresh_drawing_does(shown, actions):
    # After any moves, the window drawn frame by frame (only what changed)
    # is the same, pixel for pixel, as the window drawn afresh.
    on_desktop(shown, (640, 480), 30, 40, 120)        # too tall: it scrolls
    shown.update(0)
    shown.draw()
    for what, number, name in actions:
        spot = (number % shown.WIDTH, number // shown.WIDTH % shown.HEIGHT)
        if what in ("left", "right", "middle"):
            shown.on_mouse_down(spot, getattr(shown.mouse, what.upper()))
            shown.on_mouse_up(getattr(shown.mouse, what.upper()))
        elif what.endswith("wheel"):
            if what == "shift wheel":
                shown.keyboard._press(pygame.K_LSHIFT)
            shown.on_mouse_down(spot, random.Random(number).choice(
                [shown.mouse.WHEEL_UP, shown.mouse.WHEEL_DOWN]))
            shown.keyboard._release(pygame.K_LSHIFT)
        elif what == "move":
            shown.on_mouse_move(spot)
        elif what == "time":
            shown.update(number % 3000 / 1000)
        else:
            shown.on_key_down(getattr(shown.keys, name))
        shown.update(1 / 60)
        if (shown.WIDTH, shown.HEIGHT) != shown.screen.surface.get_size():
            with_screen(shown)                        # as pgzero does each frame
        shown.draw()
        step_by_step = pygame.image.tobytes(shown.screen.surface, "RGB")
        draw_afresh(shown)
        assert pygame.image.tobytes(shown.screen.surface, "RGB") == step_by_step, \
            (what, name)
    shown.stop_autoplay()


# Small things: the clock, the cursor, pause, the end word, best times, colours

def test_the_clock_starts_at_the_first_click_that_changes_the_board(game):
    board(game, 9, 9, [(0, 0), (8, 8)])
    game.grid_action(game.block_at(4, 4), game.chord)     # middle click, closed
    game.update(5.0)
    assert not game.play.started and game.play.timer == 0
    game.grid_action(game.block_at(0, 0), game.click_flag)
    game.update(2.0)
    assert game.play.started and game.play.timer == 2.0


def test_the_first_arrow_starts_from_the_tile_under_the_mouse(game):
    board(game, 9, 9, [(0, 0)])
    game.on_mouse_move(tile_centre(game, 2, 3))
    game.new_game()                                       # the cursor is gone
    assert game.showing.cursor is None
    game.on_key_down(game.keys.RIGHT)
    assert game.showing.cursor == (2, 4)
    # With the mouse off the grid, the first arrow starts in the middle.
    game.on_mouse_move((1, 1))
    game.new_game()
    game.on_key_down(game.keys.RIGHT)
    assert game.showing.cursor == (4, 4)


def test_p_pauses_a_running_game_and_hides_the_board(shown):
    board(shown, 9, 9, [(0, 0)])
    shown.on_key_down(shown.keys.P)
    assert not in_state(shown, "PAUSED")                               # nothing runs yet
    shown.grid_action(shown.block_at(8, 8), shown.click_flag)
    shown.update(1.0)
    shown.on_key_down(shown.keys.P)
    shown.update(5.0)
    assert in_state(shown, "PAUSED") and shown.play.timer == 1.0            # the clock stops
    texts_drawn(shown)
    area = shown.Rect(shown.view.board_area())
    colours = {tuple(shown.screen.surface.get_at((x, y)))[:3]
               for x in range(area.left, area.right, 7)
               for y in range(area.top, area.bottom, 7)}
    assert (255, 0, 0) not in colours and (255, 255, 255) not in colours   # no flag, no tile
    shown.on_key_down(shown.keys.H)                       # other keys wait
    assert in_state(shown, "PAUSED") and shown.showing.hint is None
    shown.on_mouse_down(tile_centre(shown, 4, 4), shown.mouse.LEFT)
    assert not in_state(shown, "PAUSED") and not shown.block_at(4, 4).isopen   # only goes on
    shown.update(1.0)
    assert shown.play.timer == 2.0
    shown.on_key_down(shown.keys.P)
    shown.on_key_down(shown.keys.P)
    assert not in_state(shown, "PAUSED")


def test_e_or_a_click_hides_the_end_word(shown):
    board(shown, 3, 3, [(0, 0)])
    shown.grid_action(shown.block_at(2, 2), shown.click_open)
    assert shown.finished
    assert "Finished" in [text for text, size, place in texts_drawn(shown)]
    shown.on_key_down(shown.keys.E)
    assert "Finished" not in [text for text, size, place in texts_drawn(shown)]
    shown.on_mouse_down(tile_centre(shown, 1, 1), shown.mouse.LEFT)
    assert "Finished" in [text for text, size, place in texts_drawn(shown)]
    assert shown.finished and not shown.failed


def test_b_shows_the_best_times_table_even_with_none(shown, tmp_path):
    board(shown, 9, 9, [(0, 0)])
    shown.on_key_down(shown.keys.B)
    assert in_state(shown, "TIMES")
    table = "\n".join(text for text, size, place in texts_drawn(shown))
    assert "Beginner: none yet" in table and "Expert: none yet" in table
    shown.on_mouse_down((5, 5), shown.mouse.LEFT)         # a click closes it
    assert not in_state(shown, "TIMES")


def test_no_guess_wins_are_kept_apart_and_shown_with_dates(shown, tmp_path):
    for noguess, seconds in ((False, 30.0), (True, 20.0), (False, 40.0)):
        shown.settings.noguess = noguess
        shown.new_game(9, 9, 10)
        shown.grid_action(shown.block_at(4, 4), shown.click_open)
        assert shown.play.noguess == noguess
        shown.update(seconds)
        while not shown.finished:
            block = next(b for b in shown.blocks if not b.isbomb and not b.isopen)
            shown.grid_action(block, shown.click_open)
    kept = json.loads((tmp_path / "data" / "best_times.json").read_text())
    today = time.strftime("%Y-%m-%d")
    assert kept == {"Beginner": {"time": 30.0, "date": today},
                    "Beginner, no guess": {"time": 20.0, "date": today}}
    shown.on_key_down(shown.keys.B)
    table = shown.now_showing().times_lines()
    normal, noguess = table.index("Boards laid at random"), table.index("No-guess boards")
    assert table[normal + 1] == "Beginner: 30.00 s on %s" % today
    assert table[noguess + 1] == "Beginner: 20.00 s on %s" % today
    # Drawn one line a record, even in the narrowest window.
    assert shown.WIDTH == viewport.MIN_WIDTH
    drawn = [text for text, size, place in texts_drawn(shown)]
    assert drawn == ["\n".join(table)]


def test_a_record_from_before_dates_shows_without_one(shown, tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "best_times.json").write_text('{"Expert": 99.5}')
    shown.on_key_down(shown.keys.B)
    table = [text for text, size, place in texts_drawn(shown)][0]
    assert "Expert: 99.50 s on -" in table


def test_the_n_message_says_plainly_what_happens(game):
    game.new_game(9, 9, 10)
    game.on_key_down(game.keys.N)
    assert footer(game) == "No-guess boards on: this board will need no guess"
    game.grid_action(game.block_at(4, 4), game.click_open)
    game.on_key_down(game.keys.N)
    assert footer(game) == "No-guess boards off, from the next game (R starts one)"


def contrast(one, other):
    """The WCAG contrast ratio of two colours."""
    def light(colour):
        """Relative luminance."""
        parts = [c / 255 for c in colour[:3]]
        parts = [p / 12.92 if p <= 0.03928 else ((p + 0.055) / 1.055) ** 2.4
                 for p in parts]
        return 0.2126 * parts[0] + 0.7152 * parts[1] + 0.0722 * parts[2]
    high, low = sorted((light(one), light(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def number_colour(number, size=""):
    """The colour of a number's figure on its tile picture."""
    picture = pygame.image.load(os.path.join(ROOT, "images",
                                             "minesweep_number%d%s.png" % (number, size)))
    grey = (192, 192, 192)
    counts = {}
    for x in range(2, picture.get_width() - 1):
        for y in range(2, picture.get_height() - 1):
            colour = tuple(picture.get_at((x, y)))[:3]
            if colour != grey:
                counts[colour] = counts.get(colour, 0) + 1
    return max(counts, key=counts.get)


@pytest.mark.parametrize("size", ["", "_20", "_16"])
def test_the_8_and_the_1_and_4_are_easy_to_tell_apart(size):
    grey = (192, 192, 192)
    eight, one, four = (number_colour(n, size) for n in (8, 1, 4))
    assert contrast(eight, grey) >= 3            # the classic mid grey was 1.9
    assert contrast(eight, number_colour(7, size)) >= 1.5   # not a second 7
    assert contrast(four, grey) >= 4.5
    # The 1 is blue and the 4 is not: red tells them apart, not darkness.
    assert abs(one[0] - four[0]) >= 100


def test_autoplay_plays_a_big_board_to_the_end_and_a_level_a_move_a_tick(game):
    # On a level, one move a tick, so a class can follow it.
    on_desktop(game, (1366, 768), 16, 30, 99)
    game.start_autoplay()
    for _ in range(5):
        clicks = game.play.clicks
        game.autoplay_step()
        assert game.play.clicks == clicks + 1
    # On a big board (more than AUTO_BIG tiles, too tall to show whole),
    # several moves a tick, and every tick moves on, to the end of the game
    # (a guess may lose it); the view follows the moves.
    on_desktop(game, (1366, 768), 60, 20, 190)
    assert game.ROWS * game.COLS > game.AUTO_BIG and game.view.rows < game.ROWS
    game.start_autoplay()
    ticks = 0
    while in_state(game, "AUTO"):
        clicks = game.play.clicks
        game.autoplay_step()
        ticks += 1
        assert game.play.clicks > clicks or not in_state(game, "AUTO")
        game.update(0)                              # the view follows the moves
        if game.showing.hint is not None:
            assert game.view.in_view(*divmod(game.showing.hint.cell, game.COLS))
    assert game.finished or game.failed
    assert ticks < game.play.clicks / 2


def test_a_tile_is_still_an_actor_that_draws_its_picture(shown):
    # The full game draws from its canvas, but each tile is still the
    # chapter's Actor: block.draw() shows its picture where the book has it.
    board(shown, 3, 3, [(0, 0)])
    shown.grid_action(shown.block_at(0, 1), shown.click_open)
    shown.grid_action(shown.block_at(0, 0), shown.click_flag)
    for block, name in ((shown.block_at(0, 1), "minesweep_number1"),
                        (shown.block_at(0, 0), "minesweep_flag"),
                        (shown.block_at(2, 2), "minesweep_block")):
        assert block.image == name and (block.width, block.height) == (25, 25)
        shown.screen.fill((0, 0, 0))
        block.draw()
        drawn = shown.screen.surface.subsurface(pygame.Rect(block.topleft, (25, 25)))
        assert pygame.image.tobytes(drawn, "RGB") == pygame.image.tobytes(
            shown.images.load(name), "RGB")


def test_a_move_on_a_big_board_gets_a_stack_for_its_whole_flood(game):
    # Before Python 3.11 every call of open_block also takes room on the
    # computer's stack, and an empty 200 x 200 board goes 40,000 calls deep:
    # Python 3.10 stopped there with a segmentation fault. On a big board a
    # move runs in a thread of its own with a stack big enough.
    seen = []

    def probe(block):
        """A move that notes the thread it runs in, then fails."""
        seen.append(threading.current_thread().name)
        raise KeyError("from the move")

    game.new_game(9, 9, 10)
    with pytest.raises(KeyError, match="from the move"):
        game.grid_action(game.block_at(0, 0), probe)
    game.new_game(200, 200, 0)
    with pytest.raises(KeyError, match="from the move"):   # raised as it was
        game.grid_action(game.block_at(0, 0), probe)
    assert seen == [threading.main_thread().name, "minesweep move"]
    game.new_game(200, 200, 0)
    game.grid_action(game.block_at(0, 0), game.click_open)
    assert game.finished and all(block.isopen for block in game.blocks)


def flaky_display(monkeypatch, refusals):
    """X11 that refuses the window this many times, then gives it (headless);
    the list of tries so far."""
    tries = []
    real_init = pygame.display.init

    def init():
        """pygame.display.init, refused at first."""
        tries.append(len(tries))
        if len(tries) <= refusals:
            raise pygame.error("x11 not available")
        os.environ["SDL_VIDEODRIVER"] = "dummy"          # the tests' own screen
        real_init()

    monkeypatch.setattr(pygame.display, "init", init)
    monkeypatch.setattr(time, "sleep", lambda seconds: None)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("SDL_FRAMEBUFFER_ACCELERATION", "")
    monkeypatch.delenv("SDL_FRAMEBUFFER_ACCELERATION")   # put back absent
    monkeypatch.setenv("SDL_VIDEODRIVER", "x11")
    return tries


def test_a_window_refused_for_a_moment_is_asked_for_again(game, monkeypatch):
    # Under Xvfb, X11 now and then refuses a new client for a moment; the
    # game starts the display again at start-up, so it asks again.
    tries = flaky_display(monkeypatch, 2)
    game.prepare_window()
    assert len(tries) == 3 and pygame.display.get_init()
    assert os.environ["SDL_FRAMEBUFFER_ACCELERATION"] == "0"


def test_a_window_never_given_stops_the_game_with_one_line(game, monkeypatch):
    flaky_display(monkeypatch, 1000)
    with pytest.raises(SystemExit, match="minesweep: cannot open a window: x11 not"):
        game.prepare_window()
    pygame.init()
