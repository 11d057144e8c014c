"""A round of play in a process of its own, headless, so that a test can
give it a time limit: the game starts (reading its settings and any kept
game), wins a Beginner board, shows B, switches the language with L, and
keeps a game in progress as the window closes; each step timed.

Usage: python playround.py (MINESWEEP_DATA_DIR says where the files go).
The last line printed is JSON: {"steps": {name: [what it gave, seconds]}}.
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from loadgame import load_game  # noqa: E402


def main():
    """Play the round, and print what each step gave and how long it took."""
    done = {}

    def step(name, action):
        """Do one step, timed."""
        begun = time.monotonic()
        done[name] = [action(), time.monotonic() - begun]

    holder = []
    step("start", lambda: holder.append(load_game()) or holder[0].showing.offered is not None)
    game = holder[0]

    def win():
        """Win a hand-laid Beginner board at the first click."""
        game.new_game(9, 9, 10)
        game.lay_bombs([(0, col) for col in range(9)] + [(8, 0)])
        game.grid_action(game.block_at(5, 5), game.click_open)
        return game.play.record

    def times():
        """B, then any key closes the table."""
        game.on_key_down(game.keys.B)
        shown = game.showing.state.name, game.showing.times
        game.on_key_down(game.keys.ESCAPE)
        return shown

    def close():
        """A game in progress (a wall of bombs stops the opening), kept at closing."""
        game.new_game(9, 9, 10)
        game.lay_bombs([(row, 4) for row in range(9)] + [(0, 0)])
        game.grid_action(game.block_at(8, 8), game.click_open)
        game.save_on_exit()
        return game.failed or game.finished

    step("win", win)
    step("B", times)
    step("L", lambda: game.on_key_down(game.keys.L) or game.settings.language)
    step("close", close)
    print(json.dumps({"steps": done}))


if __name__ == "__main__":
    main()
