"""Render the game headless and save PNG screenshots under docs/.

Run from the project folder:  python tools/screenshot.py
It plays a fixed board (the same every time) so the pictures are stable.
The pictures of one language alone:  python tools/screenshot.py --lang zh-TW
(en: playing.png and so on, zh: zh_playing.png, zh-TW: zh-TW_playing.png).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests"))
from loadgame import ROOT, draw_afresh, load_game, with_screen  # noqa: E402

import languages  # noqa: E402  (the game's, from its folder)
import pygame  # noqa: E402

# A hand-laid Chapter board: 20 bombs.
BOMBS_AT = [(0, 3), (1, 9), (2, 2), (2, 12), (3, 6), (4, 0), (4, 10), (5, 5),
            (6, 13), (7, 2), (7, 8), (8, 11), (9, 4), (10, 0), (10, 9),
            (11, 6), (12, 12), (13, 3), (13, 8), (14, 14)]


# A Chapter board whose middle tile opens 140 tiles (as in tools/bench.py).
SLOW_BOMBS = [(0, 7), (0, 13), (1, 13), (2, 10), (4, 3), (4, 5), (6, 1), (6, 5),
              (6, 10), (8, 5), (8, 9), (9, 9), (9, 13), (11, 3), (11, 10),
              (12, 5), (13, 3), (13, 12), (14, 2), (14, 14)]


def shot(mod, game, name):
    """Draw one frame afresh and save it as docs/NAME.png."""
    mod.layout()
    game.reinit_screen()
    draw_afresh(mod)
    path = os.path.join(ROOT, "docs", name + ".png")
    pygame.image.save(mod.screen.surface, path)
    print("wrote", path)


# Each language's pictures start with its code (English's with nothing).
PREFIXES = {code: "" if code == languages.ENGLISH else code + "_"
            for code in languages.LANGUAGES}
FULL_LANGUAGES = ("en", "zh")   # the languages full screen's pictures are in


def main():
    """Every picture in docs/, in English, then the Chinese ones (zh_...,
    zh-TW_...); with --lang, one language's alone."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lang", choices=list(PREFIXES),
                        help="make only this language's pictures")
    asked = parser.parse_args().lang
    os.makedirs(os.path.join(ROOT, "docs"), exist_ok=True)
    os.environ["MINESWEEP_DATA_DIR"] = os.path.join(ROOT, "build", "shots")
    mod = load_game()
    mod.window.desktop = (1366, 768)             # a common school screen
    game = with_screen(mod)
    for language, prefix in PREFIXES.items():
        if asked in (None, language):
            mod.set_language(language)
            chapter_board(mod, game, prefix)
            slow_motion(mod, game, prefix)
            post_mortems(mod, game, prefix)
            if language in FULL_LANGUAGES:
                full_screen(mod, game, prefix)
    mod.set_language("en")
    if asked in (None, "en"):
        big_board(mod, game)


def big_board(mod, game):
    """The automatic-player lesson's 100 x 200 board with 3000 bombs, on a
    1366x768 screen: 16 px tiles, scrolled, with a hint."""
    mod.new_game(100, 200, 3000, board=7)
    mod.grid_action(mod.block_at(20, 30), mod.click_open)
    mod.update(12.3)
    mod.view.scroll(9, 0)
    mod.show_hint()
    shot(mod, game, "big_board")


def chapter_board(mod, game, prefix):
    """Playing, hint, lost and won pictures of the chapter's board."""
    mod.new_game(15, 15, 20, board=2026)
    mod.lay_bombs(BOMBS_AT)
    for row, col in [(14, 0), (0, 14), (6, 7)]:
        mod.grid_action(mod.block_at(row, col), mod.click_open)
    for row, col in [(2, 2), (3, 6), (5, 5)]:
        mod.grid_action(mod.block_at(row, col), mod.click_flag)
    mod.update(37.4)
    mod.showing.cursor = (8, 8)
    shot(mod, game, prefix + "playing")
    mod.show_hint()
    shot(mod, game, prefix + "hint")
    mod.grid_action(mod.block_at(7, 8), mod.click_open)
    shot(mod, game, prefix + "lost")
    mod.new_game(15, 15, 20, board=2026)
    mod.lay_bombs(BOMBS_AT)
    mod.grid_action(mod.block_at(14, 0), mod.click_open)
    mod.update(20.0)
    for block in mod.blocks:
        if not block.isbomb and not block.isopen:
            mod.grid_action(block, mod.click_open)
    mod.update(1.0)
    shot(mod, game, prefix + "won")


def full_screen(mod, game, prefix):
    """Full screen (F11) on the 1366x768 projector: the chapter's board
    with a hint, Expert, and slow motion."""
    mod.new_game(15, 15, 20, board=2026)
    mod.on_key_down(mod.keys.F11)
    mod.lay_bombs(BOMBS_AT)
    for row, col in [(14, 0), (0, 14), (6, 7)]:
        mod.grid_action(mod.block_at(row, col), mod.click_open)
    mod.update(37.4)
    mod.show_hint()
    shot(mod, game, prefix + "fullscreen")
    mod.new_game(16, 30, 99, board=2026)
    mod.grid_action(mod.block_at(8, 15), mod.click_open)
    mod.update(12.0)
    shot(mod, game, prefix + "fullscreen_expert")
    replay_opening(mod)
    shot(mod, game, prefix + "fullscreen_slowmo")
    mod.on_key_down(mod.keys.ESCAPE)
    mod.on_key_down(mod.keys.V)
    mod.on_key_down(mod.keys.F11)


def replay_opening(mod):
    """The chapter board's opening of 140 tiles in slow motion, 120 steps in."""
    mod.new_game(15, 15, 20, board=2026)
    mod.lay_bombs(SLOW_BOMBS)
    mod.on_key_down(mod.keys.V)
    mod.settings.order = "reading"
    mod.grid_action(mod.block_at(7, 7), mod.click_open)
    for _ in range(120):
        mod.showing.replay.forward()


def lay(mod, rows, cols, bombs, opened):
    """A small hand-laid board with these tiles opened."""
    mod.new_game(rows, cols, len(bombs))
    mod.lay_bombs(bombs)
    for row, col in opened:
        mod.grid_action(mod.block_at(row, col), mod.click_open)


def post_mortems(mod, game, prefix):
    """The three kinds of post-mortem, on small boards that show them."""
    lay(mod, 5, 6, [(0, 0), (4, 5), (2, 3)], [(4, 0)])
    mod.grid_action(mod.block_at(4, 5), mod.click_open)
    shot(mod, game, prefix + "lost_avoidable")
    lay(mod, 2, 6, [(0, 0)], [(1, 5)])
    mod.grid_action(mod.block_at(0, 0), mod.click_open)
    shot(mod, game, prefix + "lost_forced")
    lay(mod, 5, 6, [(0, 4), (3, 0), (4, 3)], [(4, 5)])
    mod.grid_action(mod.block_at(0, 5), mod.click_flag)
    mod.grid_action(mod.block_at(1, 4), mod.chord)
    shot(mod, game, prefix + "lost_chord")


def slow_motion(mod, game, prefix):
    """A replay of the first click in slow motion: as recursion, in the
    book's order with each tile's index, predicting (a wrong guess), as a
    queue, and Python's recursion limit (K): its RecursionError and its end."""
    replay_opening(mod)
    shot(mod, game, prefix + "slowmo_stack")
    mod.on_key_down(mod.keys.O)                  # the book's order, the same click
    for _ in range(40):
        mod.showing.replay.forward()
    shot(mod, game, prefix + "slowmo_book")
    mod.on_key_down(mod.keys.T)                  # predict: a wrong guess, explained
    replay = mod.showing.replay
    while not replay.asking():
        replay.forward()
    following = replay.steps[replay.position + 1].cell
    wrong = next(cell for cell in sorted(replay.hidden) if cell != following)
    replay.guess(wrong)
    mod.update(1.0)
    shot(mod, game, prefix + "slowmo_predict")
    mod.on_key_down(mod.keys.T)
    mod.on_key_down(mod.keys.O)                  # back to reading order
    mod.on_key_down(mod.keys.W)
    for _ in range(45):
        mod.showing.replay.forward()
    shot(mod, game, prefix + "slowmo_queue")
    mod.on_key_down(mod.keys.K)                  # Python's limit, on a 40 x 40 board
    mod.on_key_down(mod.keys.END)                # straight to the RecursionError
    shot(mod, game, prefix + "slowmo_limit")
    mod.on_key_down(mod.keys.END)                # and how the game gets past it
    shot(mod, game, prefix + "slowmo_limit_end")
    mod.on_key_down(mod.keys.ESCAPE)
    mod.on_key_down(mod.keys.V)


if __name__ == "__main__":
    main()
