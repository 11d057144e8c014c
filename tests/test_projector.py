"""A screen made for a projector and a class: key pairs that never break,
one font in the footer, a window that keeps its size through a game,
larger tiles, readable call numbers, a replay that does not run the
clock, one way of showing a time, flag wins apart, a start tile explained,
and a board asked for on the command line played."""
import json
import os
import random
import re
import sys

import pgzero.game
import pygame
import pytest

import datafiles
import gamestate
import languages
import scene
import viewport
import wording
from conftest import SLOW_BOMBS, board, footer, open_every_safe_tile, tile_centre
from loadgame import draw_afresh, load_game, with_screen


def footer_shape(game):
    """The footer's text shape."""
    return next(shape for shape in game.now_showing().footer() if isinstance(shape, scene.Text))


@pytest.mark.parametrize("language", wording.LANGUAGES)
def test_no_line_of_the_key_list_ends_inside_a_pair(game, language):
    game.set_language(language)
    for level, desktop in (("0", (320, 480)), ("3", (1366, 768)), ("3", (1920, 1080))):
        game.window.desktop = desktop
        game.settings.slowmo = level == "3"
        game.new_game(*gamestate.LEVELS[level][1:])
        game.layout()
        other = wording.l_label(language, game.window.texts, game.window.fonts)
        pairs = scene.pairs(game.speak(wording.words("keys", other=other)))
        shown = game.now_showing()
        for width in range(viewport.MIN_WIDTH, 1921, 7):
            width_of, height = game.measure.font(shown.words_font, shown.size(scene.FOOT_FONT))
            lines = wording.wrap(shown.key_list(), width_of, width - 8)
            for pair in pairs:
                assert any(pair in line for line in lines), (language, width, pair, lines)
    game.set_language("en")


def font_and_size(game):
    """The footer's font and size."""
    shape = footer_shape(game)
    return shape.font, shape.size


def test_the_footer_keeps_one_font_and_size_whatever_it_says(game):
    board(game, 9, 9, [(0, 0), (0, 8), (8, 0), (8, 8), (4, 4)])
    fonts = {font_and_size(game)}                 # the key list
    game.grid_action(game.block_at(0, 4), game.click_open)
    game.on_key_down(game.keys.H)
    fonts.add(font_and_size(game))                # a hint
    game.on_key_down(game.keys.X)
    fonts.add(font_and_size(game))                # news
    assert len(fonts) == 1 and fonts.pop()[0] == languages.BY_CODE["en"].font


@pytest.mark.parametrize("rows, cols, bombs", [(15, 15, 20), (9, 9, 10), (16, 16, 40),
                                               (16, 30, 99), (100, 200, 3000)])
def test_the_window_keeps_its_size_through_a_game(game, rows, cols, bombs):
    rng = random.Random(rows * cols)
    game.window.desktop = (1366, 768)
    # Three boards a language; on a board too big to fit, whose window is as
    # big as the desktop lets it be whatever its number, one.
    games = 1 if rows * cols > 1000 else 3
    for language in wording.LANGUAGES:
        game.set_language(language)
        for _ in range(games):
            game.new_game(rows, cols, bombs, rng.randrange(1000))
            game.update(0)
            size = (game.WIDTH, game.HEIGHT)
            game.grid_action(game.block_at(rows // 2, cols // 2), game.click_open)
            while not (game.failed or game.finished):
                game.update(0.1)
                assert (game.WIDTH, game.HEIGHT) == size
                closed = [block for block in game.blocks if not block.isopen
                          and not block.isflag]
                game.on_key_down(game.keys.H)             # a hint, then any move
                game.grid_action(rng.choice(closed), game.click_open)
            for key in ("E", "E", "U"):                   # the end, and taking back
                game.update(0.1)
                assert (game.WIDTH, game.HEIGHT) == size, language
                game.on_key_down(getattr(game.keys, key))
    game.set_language("en")


def test_l_keeps_the_window_and_any_board_number_gets_the_same_room(game):
    game.window.desktop = (1024, 768)
    sizes = set()
    for number in (77, 4242, gamestate.MAX_BOARD):
        for language in wording.LANGUAGES:
            game.set_language(language)
            game.footer_rooms.cache_clear()     # the room worked out afresh
            game.new_game(16, 16, 40, number)
            game.update(0)
            for key in ("L", "L", "L"):         # the other languages and back, mid-game
                sizes.add((game.WIDTH, game.HEIGHT))
                game.on_key_down(getattr(game.keys, key))
                game.update(0)
    assert len(sizes) == 1, sizes
    game.set_language("en")


def test_the_view_each_frame_keeps_is_the_one_a_fresh_fit_gives(game):
    def fresh_fit():
        kept = (game.WIDTH, game.HEIGHT, game.view.tile, game.view.rows, game.view.cols,
                game.view.footer)
        game.canvas.fitted_to = None                 # as if nothing had been fitted
        game.layout()
        assert kept == (game.WIDTH, game.HEIGHT, game.view.tile, game.view.rows,
                        game.view.cols, game.view.footer)
    keys = game.keys
    game.window.desktop = (1920, 1080)
    changes = [lambda: None, lambda: game.on_key_down(keys.K_3),
               lambda: game.on_key_down(keys.Z), lambda: game.on_key_down(keys.V),
               lambda: game.on_key_down(keys.L), lambda: game.on_key_down(keys.V),
               lambda: setattr(game.window, "desktop", (800, 600)),
               lambda: game.new_game(100, 200, 3000), lambda: game.on_key_down(keys.L),
               lambda: setattr(game.window, "desktop", (1366, 768)),
               lambda: game.on_key_down(keys.K_0)]
    for change in changes:
        change()
        game.update(0)
        fresh_fit()
    game.set_language("en")


def test_z_reaches_50_px_tiles_drawn_at_their_size(shown):
    game = shown
    game.window.desktop = (1920, 1080)
    game.new_game(15, 15, 20)
    game.update(0)
    assert game.view.tile == game.SIZE                    # the book's size to begin
    seen = []
    for _ in range(8):
        game.on_key_down(game.keys.Z)
        game.update(0)
        seen.append(game.view.tile)
        assert game.WIDTH <= 1920 and game.HEIGHT <= 1080 - viewport.ROOM[1]
        if game.view.tile > game.SIZE:
            assert game.view.whole()                      # larger only if it all fits
        with_screen(game)
        game.draw()
        assert game.tile_picture("minesweep_number3").get_size() == (game.view.tile,) * 2
    assert seen[:5] == [32, 40, 50, 20, 16] and seen[5] == 25


def replay_on_screen(game, fullscreen, zoom, order):
    """The chapter board's opening of 140 tiles replayed on a 1366x768
    screen (in the window or in full screen, at a tile size chosen with Z
    or the game's own), drawn at its last step, or in the book's order at
    its first; the digits each tile shows, as [(shape, where drawn)]."""
    game.window.desktop = (1366, 768)
    board(game, 15, 15, SLOW_BOMBS)
    game.on_key_down(game.keys.V)
    if fullscreen:
        game.on_key_down(game.keys.F11)
    game.settings.zoom = zoom
    game.grid_action(game.block_at(7, 7), game.click_open)
    if order == "book":
        game.on_key_down(game.keys.O)
    game.showing.replay.jump(order == "reading")
    game.layout()
    with_screen(game)
    draw_afresh(game)
    return [(shape, game.draw_shape(shape)) for shape in game.now_showing().replay_marks()
            if isinstance(shape, scene.Digits)]


def inked(game, rect, colour=(0, 0, 0)):
    """The box round the pixels in rect the screen shows nearer this colour
    than the open tile's grey and the white of an outline, as a Rect (a
    digit's edge rows are partly drawn, so they may be left out: the box is
    up to a pixel smaller than the glyph's own)."""
    def near(pixel, other):
        """How far apart two colours are, squared."""
        return sum((a - b) ** 2 for a, b in zip(pixel, other))
    surface = game.screen.surface
    drawn = [(x, y) for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)
             for pixel in [surface.get_at((x, y))[:3]]
             if near(pixel, colour) < min(near(pixel, (192,) * 3), near(pixel, (255,) * 3))]
    xs, ys = [x for x, y in drawn], [y for x, y in drawn]
    return pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


@pytest.mark.parametrize("fullscreen, zoom", [(True, None), (False, None), (False, 25)])
def test_call_numbers_are_centred_half_a_tile_high_beside_the_tiles_number(
        shown, monkeypatch, fullscreen, zoom):
    game = shown
    monkeypatch.setattr(pgzero.game, "DISPLAY_FLAGS", 0)
    drawn = replay_on_screen(game, fullscreen, zoom, "reading")
    tile, cols = game.view.tile, game.COLS
    assert tile == (36 if fullscreen else zoom or 32)
    rp, numbers = game.showing.replay, game.play.opening.numbers
    calls = [(shape, place) for shape, place in drawn if shape.colour == (0, 0, 0)]
    own = {game.view.cell_under(place.center): (shape, place) for shape, place in drawn
           if shape.colour != (0, 0, 0)}
    assert len(calls) == len(rp.number) == 140
    assert len(own) == sum(1 for cell in rp.number if numbers[cell]) > 20
    for shape, place in calls:
        row, col = game.view.cell_under(place.center)
        square = pygame.Rect(game.view.tile_rect(row, col))
        assert shape.text == str(rp.number[row * cols + col])
        # The glyphs half a tile high at least, and the screen shows them so.
        ink = inked(game, place.inflate(2, 2).clip(square))
        assert place.height >= tile / 2 and ink.height >= place.height - 1, (shape, ink)
        assert square.contains(place) and abs(place.centerx - square.centerx) <= 1
        if numbers[row * cols + col]:
            number, where = own.pop((row, col))
            assert number.text == str(numbers[row * cols + col])
            assert not where.colliderect(place.inflate(0, 2)) and square.contains(where)
            assert abs(where.centerx - square.centerx) <= 1
            assert where.height >= (16 if fullscreen else tile * 0.4), (number, where)
            assert inked(game, where.inflate(2, 0), number.colour).height >= where.height - 1
        else:                       # a tile with no number: the call number in its middle
            assert abs(place.centery - square.centery) <= 1
    assert not own


@pytest.mark.parametrize("fullscreen", [True, False])
def test_in_the_books_order_the_indexes_are_centred_and_large(shown, monkeypatch,
                                                              fullscreen):
    game = shown
    monkeypatch.setattr(pgzero.game, "DISPLAY_FLAGS", 0)
    drawn = replay_on_screen(game, fullscreen, None, "book")
    assert len(drawn) == 140 and game.showing.replay.position == -1
    for shape, place in drawn:
        square = pygame.Rect(game.view.tile_rect(*game.view.cell_under(place.center)))
        ink = inked(game, place.inflate(2, 2).clip(square), shape.colour)
        assert place.height >= (16 if fullscreen else 15) and ink.height >= place.height - 1
        assert square.contains(place) and abs(place.centerx - square.centerx) <= 1
        assert abs(place.centery - square.centery) <= 1


def test_a_replay_stops_the_clock_and_a_pause_says_so(game):
    board(game, 15, 15, [(0, 0)])
    game.grid_action(game.block_at(14, 14), game.click_flag)
    game.update(2.0)
    game.on_key_down(game.keys.V)
    game.grid_action(game.block_at(7, 7), game.click_open)
    assert game.showing.replay is not None
    timer = game.play.timer
    game.update(3.0)
    assert game.play.timer == timer                       # the replay is not play
    game.on_mouse_down(tile_centre(game, 3, 3), game.mouse.LEFT)
    panel = "\n".join(shape.text for shape in game.now_showing().panel() if isinstance(shape, scene.Text))
    assert "Paused" in panel
    game.on_key_down(game.keys.ESCAPE)
    game.update(1.0)
    assert game.play.timer == timer + 1.0


def test_the_end_and_the_best_times_show_a_time_the_same_way(game, tmp_path):
    for seconds in (18.44497, 18.445, 18.4451, 7.005, 9.995):
        game.new_game(9, 9, 10)
        game.lay_bombs([(0, c) for c in range(9)] + [(8, 0)])
        game.play.started, game.play.timer = True, seconds
        open_every_safe_tile(game)
        assert game.finished
        end = game.now_showing().end_lines()[1]
        game.showing.times = datafiles.load_best_times(game.data_folder(), game.say_once)
        table = game.now_showing().times_lines()
        shown_time = re.search(r"Time (\S+) s", end).group(1)
        # Each win is the first since the file was removed: a new record.
        assert game.play.record == "new"
        assert any("Beginner: %s s" % shown_time in line for line in table), (
            seconds, end, table)
        os.remove(os.path.join(game.data_folder(), datafiles.TIMES))


def test_a_win_by_flags_has_its_own_records(game, tmp_path):
    game.settings.flagwin = True
    game.new_game(9, 9, 10)
    bombs = [(0, c) for c in range(9)] + [(8, 0)]
    game.lay_bombs(bombs)
    game.play.started, game.play.timer = True, 12.0
    for cell in bombs:
        game.grid_action(game.block_at(*cell), game.click_flag)
    assert game.finished and game.play.flagwon and game.play.record == "new"
    assert "won by flags" in game.now_showing().footer_words()
    kept = json.loads((tmp_path / "data" / "best_times.json").read_text())
    assert set(kept) == {"Beginner, flag win"}
    game.showing.times = kept
    lines = game.now_showing().times_lines()
    assert "Won by flags (X)" in lines and "Beginner: none yet" in lines


def test_the_green_start_tile_is_explained_and_found(game):
    game.window.desktop = (1366, 768)
    game.new_game(100, 200, 3000, board=5)
    game.update(0)
    start = gamestate.start_tile(5, 100, 200)
    said = footer(game)
    assert "The green tile" in said and "first" in said
    if game.view.in_view(*divmod(start, 200)):
        assert "The green tile: click it first" in said
    else:
        row, col = divmod(start, 200)
        assert "is at row %d, col %d" % (row + 1, col + 1) in said
    game.view.follow(*divmod(start, 200))
    assert "The green tile: click it first" in footer(game)
    game.grid_action(game.blocks[start], game.click_open)
    assert "green" not in footer(game)


def test_the_wheel_keeps_the_highlight_under_the_mouse(game):
    game.window.desktop = (1366, 768)
    game.new_game(100, 200, 3000)
    game.update(0)
    pos = tile_centre(game, 5, 5)
    game.on_mouse_move(pos)
    assert game.showing.cursor == (5, 5)
    game.on_mouse_down(pos, game.mouse.WHEEL_DOWN)
    assert game.showing.cursor == (5 + viewport.WHEEL_STEP, 5)
    assert game.view.cell_under(pos) == game.showing.cursor


def test_a_board_asked_for_on_the_command_line_is_played(game, tmp_path, monkeypatch):
    board(game, 9, 9, [(0, 0), (8, 8), (4, 4), (2, 6), (6, 2)])
    game.grid_action(game.block_at(0, 1), game.click_open)     # a 1: one tile
    assert not game.finished
    game.save_on_exit()
    kept = (tmp_path / "data" / "saved_game.json").read_bytes()
    again = load_game()
    assert again.showing.offered is not None                # a plain start offers it
    monkeypatch.setattr(sys, "_pgzrun", False)
    monkeypatch.setattr(sys, "argv", ["minesweep.py", "--rows", "20", "--cols", "30",
                                      "--bombs", "99"])
    again.start()
    import atexit
    atexit.unregister(again.save_on_exit)
    assert (again.ROWS, again.COLS, again.BOMBS) == (20, 30, 99)
    assert again.showing.offered is None and again.showing.state is again.State.PLAY
    assert (tmp_path / "data" / "saved_game.json").read_bytes() == kept   # still kept
    pygame.init()
