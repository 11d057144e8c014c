"""Full screen, for a projector: F11 and --fullscreen fill the screen with
the largest tiles the board fits at, every word at least 20 px, nothing
overlapping or cut; F11 gives the window back as it was."""
import pgzero.game
import pygame
import pytest

import gamestate
import scene
import viewport
import wording
from conftest import SLOW_BOMBS, board, open_every_safe_tile
from loadgame import draw_afresh, with_screen

PROJECTOR = (1366, 768)     # the most common classroom projector, px
SCREENS = (PROJECTOR, (1024, 768), (1920, 1080))


@pytest.fixture
def full(game, monkeypatch):
    """The game with its (dummy) display, on a projector, in full screen;
    pgzero's display flags are put back after the test."""
    monkeypatch.setattr(pgzero.game, "DISPLAY_FLAGS", 0)
    game.window.desktop = PROJECTOR
    game.new_game(15, 15, 20)
    game.update(0)
    game.display = with_screen(game)
    game.on_key_down(game.keys.F11)
    game.update(0)
    game.display.reinit_screen()
    return game


def drawn(game):
    """Draw the window afresh: [(text, size, rect)] of each word drawn, and
    the rects of the white boxes (the code's and the chart's)."""
    game.layout()
    game.display.reinit_screen()
    draw_afresh(game)
    texts, boxes = [], []
    for shape in game.now_showing().shapes():
        if isinstance(shape, scene.Text):
            texts.append((shape.text, shape.size, game.draw_shape(shape)))
        elif isinstance(shape, scene.Box) and shape.colour == (255, 255, 255):
            boxes.append(pygame.Rect(shape.rect))
    return texts, boxes


def check_words(game, where):
    """Every word is at least 20 px, whole, on the screen, clear of the
    tiles, of the other words and of the white boxes it is not inside."""
    texts, boxes = drawn(game)
    view = game.view
    assert (game.WIDTH, game.HEIGHT) == game.window.desktop, where
    grid = pygame.Rect(view.left, view.top, view.tile * view.cols, view.tile * view.rows)
    if game.showing.state is game.State.TIMES:
        grid = pygame.Rect(0, 0, 0, 0)          # the best times cover the board
    screen = pygame.Rect((0, 0), game.window.desktop)
    # The numbers a replay writes on the tiles are on the tiles.
    words = [(text, size, rect) for text, size, rect in texts if not grid.contains(rect)]
    assert words, where
    for number, (text, size, rect) in enumerate(words):
        assert size >= scene.FULL_FONT, (where, text, size)
        assert not text.endswith("..."), (where, text)
        assert screen.contains(rect), (where, text, rect)
        assert not rect.colliderect(grid), (where, text, rect, grid)
        for other, other_size, other_rect in words[number + 1:]:
            assert not rect.colliderect(other_rect), (where, text, other)
        for box in boxes:
            assert box.contains(rect) or not box.colliderect(rect), (where, text, box)


def test_f11_fills_the_screen_and_gives_the_window_back(game, monkeypatch):
    monkeypatch.setattr(pgzero.game, "DISPLAY_FLAGS", 0)
    game.window.desktop = PROJECTOR
    board(game, 15, 15, SLOW_BOMBS)
    display = with_screen(game)
    window = (game.WIDTH, game.HEIGHT)
    assert window[1] < PROJECTOR[1]
    game.on_key_down(game.keys.F11)
    game.update(0)
    display.reinit_screen()
    assert (game.WIDTH, game.HEIGHT) == PROJECTOR
    assert game.screen.surface.get_size() == PROJECTOR
    assert pgzero.game.DISPLAY_FLAGS == pygame.FULLSCREEN
    assert game.screen.surface.get_flags() & pygame.FULLSCREEN
    assert game.view.tile >= 40
    # The board is in the middle of its part of the screen.
    left = game.view.left
    assert abs(left - (PROJECTOR[0] - left - 15 * game.view.tile)) <= 1
    game.on_key_down(game.keys.F11)
    game.update(0)
    display.reinit_screen()
    assert (game.WIDTH, game.HEIGHT) == window == game.screen.surface.get_size()
    assert pgzero.game.DISPLAY_FLAGS == 0
    assert not game.screen.surface.get_flags() & pygame.FULLSCREEN


def test_the_full_screen_flag_lasts_when_pgzero_opens_its_display_again(full):
    full.window.desktop = (1024, 768)            # another screen: a new size
    full.update(0)
    full.display.reinit_screen()
    assert full.screen.surface.get_size() == (1024, 768)
    assert full.screen.surface.get_flags() & pygame.FULLSCREEN
    full.new_game(16, 30, 99)                    # a new board keeps the screen's size
    full.update(0)
    assert (full.WIDTH, full.HEIGHT) == (1024, 768)


def test_f11_in_a_replay_keeps_the_replay_and_esc_still_ends_it(full):
    board(full, 15, 15, SLOW_BOMBS)
    full.on_key_down(full.keys.V)
    full.grid_action(full.block_at(7, 7), full.click_open)
    full.update(0)
    replay = full.showing.replay
    assert replay is not None and full.view.panel > 0
    for key in (full.keys.F11, full.keys.F11):
        full.on_key_down(key)
        full.update(0)
        assert full.showing.replay is replay
    assert (full.WIDTH, full.HEIGHT) == PROJECTOR
    full.on_key_down(full.keys.ESCAPE)
    assert full.showing.replay is None
    assert (full.WIDTH, full.HEIGHT) == PROJECTOR


@pytest.mark.parametrize("screen", SCREENS)
def test_the_tiles_are_as_large_as_the_board_fits(full, screen):
    full.window.desktop = screen
    sizes = {}
    for level in "1230":
        full.new_game(*gamestate.LEVELS[level][1:])
        full.update(0)
        view = full.view
        assert view.whole(), (screen, level)
        assert view.tile * view.cols <= screen[0]
        assert view.top + view.tile * view.rows <= screen[1] - view.footer
        sizes[level] = view.tile
    full.new_game(100, 200, 3000)                 # too big: it scrolls
    full.update(0)
    assert not full.view.whole() and full.view.tile == min(viewport.SMALLER)
    if screen == PROJECTOR:
        assert sizes["0"] >= 40 and sizes["3"] >= 32


def test_z_in_full_screen_goes_down_from_the_largest_size_and_back(full):
    board(full, 15, 15, SLOW_BOMBS)
    full.update(0)
    largest = full.view.tile
    seen = [largest]
    for _ in range(12):
        full.on_key_down(full.keys.Z)
        full.update(0)
        seen.append(full.view.tile)
        assert full.view.whole() or full.view.tile < largest
        if full.view.tile == largest:
            break
    assert seen[-1] == largest and len(seen) > 3
    assert seen[1:-1] == sorted(seen[1:-1], reverse=True) and max(seen[1:-1]) < largest
    assert min(viewport.SMALLER) in seen


def test_z_in_full_screen_can_enlarge_a_board_too_big_to_fit(full):
    full.new_game(100, 200, 3000)
    full.update(0)
    assert full.view.tile == min(viewport.SMALLER) and not full.view.whole()
    seen = set()
    for _ in range(4):
        full.on_key_down(full.keys.Z)
        full.update(0)
        seen.add(full.view.tile)
    assert full.SIZE in seen and min(viewport.SMALLER) in seen


def test_the_window_and_full_screen_each_keep_their_own_z(full):
    board(full, 15, 15, SLOW_BOMBS)
    full.update(0)
    fitted = full.view.tile
    full.on_key_down(full.keys.F11)             # the window
    full.update(0)
    full.on_key_down(full.keys.Z)
    full.update(0)
    chosen = full.view.tile
    assert chosen != fitted
    full.on_key_down(full.keys.F11)             # full screen: still its largest
    full.update(0)
    assert full.view.tile == fitted
    full.on_key_down(full.keys.F11)             # the window, as Z left it
    full.update(0)
    assert full.view.tile == chosen


def test_every_tile_size_full_screen_uses_has_its_pictures(full):
    sizes = set()
    for screen in SCREENS + ((800, 600), (2560, 1440)):
        full.window.desktop = screen
        for slowmo in (False, True):
            full.settings.slowmo = slowmo
            for level in "1230":
                full.new_game(*gamestate.LEVELS[level][1:])
                full.update(0)
                sizes.add(full.view.tile)
    for size in sizes - {full.SIZE}:
        assert full.images.load("minesweep_number8_%d" % size).get_size() == (size, size)


@pytest.mark.parametrize("language", wording.LANGUAGES)
@pytest.mark.parametrize("screen", SCREENS)
def test_every_word_in_play_is_large_whole_and_apart(full, language, screen):
    full.set_language(language)
    full.window.desktop = screen
    for name in ("questions", "noguess", "flagwin"):     # the longest key list
        full.toggle(name)
    full.showing.message = None
    board(full, 15, 15, SLOW_BOMBS)
    check_words(full, "keys")
    full.grid_action(full.block_at(7, 7), full.click_open)
    full.show_hint()
    check_words(full, "hint")
    full.on_key_down(full.keys.P)
    check_words(full, "paused")
    full.on_key_down(full.keys.P)
    full.on_key_down(full.keys.B)
    check_words(full, "best times")
    full.on_key_down(full.keys.B)
    full.grid_action(full.block_at(0, 7), full.click_open)
    check_words(full, "lost")
    board(full, 15, 15, SLOW_BOMBS)
    open_every_safe_tile(full)
    full.update(1)
    check_words(full, "won")
    full.new_game(100, 200, 3000)
    check_words(full, "scrolled")


@pytest.mark.parametrize("language", wording.LANGUAGES)
@pytest.mark.parametrize("screen", SCREENS)
def test_every_word_in_slow_motion_is_large_whole_and_apart(full, language, screen):
    full.set_language(language)
    full.window.desktop = screen
    board(full, 15, 15, SLOW_BOMBS)
    full.on_key_down(full.keys.V)
    full.showing.message = None
    check_words(full, "idle")
    full.grid_action(full.block_at(7, 7), full.click_open)
    full.showing.message = None
    for keys in ((), (full.keys.O,), (full.keys.T,), (full.keys.T, full.keys.W)):
        for key in keys:
            full.on_key_down(key)
        replay = full.showing.replay
        for step in range(len(replay.steps)):
            if replay.asking():
                replay.guess(sorted(replay.hidden)[0])
            if step % 29 == 0:
                check_words(full, (keys, step))
            replay.forward()
    full.on_key_down(full.keys.ESCAPE)
    check_words(full, "after")
    full.on_key_down(full.keys.K)                # Python's limit, on a 40 x 40 board
    for _ in range(700):
        full.showing.replay.forward()
    check_words(full, "limit")
    full.on_key_down(full.keys.END)
    check_words(full, "limit's end")


@pytest.mark.parametrize("slowmo", [False, True])
def test_the_board_never_moves_within_a_game(full, slowmo):
    full.settings.slowmo = slowmo
    for language in wording.LANGUAGES:
        full.set_language(language)
        board(full, 15, 15, SLOW_BOMBS)
        place = (full.view.tile, full.view.left, full.view.top, full.view.footer)
        full.grid_action(full.block_at(7, 7), full.click_open)
        if full.showing.replay is not None:
            full.end_replay()
        for row, col in ((0, 0), (14, 0), (0, 7)):
            full.show_hint()
            full.update(0.1)
            assert (full.view.tile, full.view.left, full.view.top,
                     full.view.footer) == place
            full.grid_action(full.block_at(row, col), full.click_open)
        full.update(0.1)
        assert full.failed
        assert (full.view.tile, full.view.left, full.view.top, full.view.footer) == place
