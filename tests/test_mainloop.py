"""Real pygame events through pgzero's own main loop (PGZeroGame.run)."""
import pygame
import pgzero.clock
import pgzero.game

from conftest import board, picture


def tile_centre(game, row, col):
    """The window position of the middle of a tile."""
    return (game.GRID_LEFT + col * game.SIZE + game.SIZE // 2,
            game.BAR + row * game.SIZE + game.SIZE // 2)


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
    assert game.clicks == 3
    assert game.timer > 0


def test_a_lost_game_through_pgzero(game):
    board(game, 2, 2, [(0, 0)])
    pygame.event.clear()
    click(tile_centre(game, 0, 0), 1)
    click(tile_centre(game, 1, 1), 1)          # ignored: the game is over
    run_loop(game)
    assert game.failed
    assert picture(game) == ["!#", "##"]
