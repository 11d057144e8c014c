"""Real pygame events through pgzero's own main loop (PGZeroGame.run)."""
import pygame
import pytest
import pgzero.clock
import pgzero.game

from conftest import board, picture, tile_centre
from loadgame import load_game


def click(pos, button):
    """Post a mouse press and its release, as a real click makes them."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN,
                                         pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP,
                                         pos=pos, button=button))


def key(k, mod=0):
    """Post a key press and release."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod,
                                         unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod,
                                         unicode="", scancode=0))


def run_loop(game, frames=3):
    """Run pgzero's loop for this many frames, then quit it with a QUIT event."""
    seen = []

    def count_frame(dt):
        seen.append(dt)
        if len(seen) == frames:
            pygame.event.post(pygame.event.Event(pygame.QUIT))

    # pgzero's clock keeps only a weak reference: count_frame must stay alive.
    pgzero.clock.clock.each_tick(count_frame)
    try:
        pgzero.game.PGZeroGame(game).run()
    finally:
        pgzero.clock.clock.unschedule(count_frame)
    return len(seen)


def test_mouse_buttons_through_pgzero(game):
    board(game, 4, 5, [(0, 4), (3, 0), (2, 1)])
    pygame.event.clear()
    click(tile_centre(game, 3, 4), 1)          # left: opens a flood
    click(tile_centre(game, 0, 4), 3)          # right: flag on the bomb
    click(tile_centre(game, 2, 0), 2)          # middle on a closed tile
    click(tile_centre(game, 2, 2), 4)          # wheel up
    click(tile_centre(game, 2, 2), 5)          # wheel down
    click(tile_centre(game, 2, 2), 6)          # a button pgzero has no name for
    click((game.WIDTH + 50, 10), 1)            # outside the window
    click((3, game.HEIGHT - 3), 1)             # on the message line
    assert run_loop(game) == 3
    assert picture(game) == ["####F",
                             "##111",
                             "##100",
                             "##100"]
    assert not game.failed and not game.finished
    assert game.play.clicks == 3
    assert game.play.timer > 0


def test_a_lost_game_through_pgzero(game):
    board(game, 2, 2, [(0, 0)])
    pygame.event.clear()
    click(tile_centre(game, 0, 0), 1)
    click(tile_centre(game, 1, 1), 1)          # ignored: the game is over
    run_loop(game)
    assert game.failed
    assert picture(game) == ["!#", "##"]


def test_keyboard_through_pgzero(game):
    board(game, 3, 3, [(0, 0)])
    pygame.event.clear()
    key(pygame.K_UP)                           # the cursor appears in the middle
    key(pygame.K_LEFT)
    key(pygame.K_UP)
    key(pygame.K_f)                            # flag (0, 0)
    key(pygame.K_DOWN)
    key(pygame.K_RIGHT)
    key(pygame.K_SPACE)                        # open (1, 1): a 1
    key(pygame.K_SPACE)                        # chord on it
    for _ in range(3):                         # a key held down: pressed, never let go
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=0,
                                             unicode="q", scancode=0))
    key(0x40000000 | 0x1FF)                    # a key pgzero has no name for
    run_loop(game)
    assert picture(game) == ["F10", "110", "000"]
    assert game.settings.questions is True              # Q pressed three times
    assert game.finished                       # the chord opened the last tiles


def test_level_keys_and_ctrl_q_through_pgzero(game):
    pygame.event.clear()
    key(pygame.K_3)
    run_loop(game)
    assert (game.ROWS, game.COLS, game.BOMBS) == (16, 30, 99)
    again = load_game()                        # the loop quit the display: start anew
    pygame.event.clear()
    key(pygame.K_r)
    key(pygame.K_q, pygame.KMOD_LCTRL)         # pgzero quits on Ctrl+Q
    with pytest.raises(SystemExit) as leaving:
        run_loop(again, frames=100)
    assert leaving.value.code == 0
