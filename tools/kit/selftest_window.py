"""The self-test's look at the game's window: python selftest_window.py FOLDER
loads FOLDER/minesweep.py as pgzrun does, lets Pygame Zero draw a few
frames of it in a real window, and closes the window by itself. Its exit
status is 0 when the frames were drawn, so the self-test (a .bat or a shell
script) can say so in its own words. Nothing of the player's is read or
written: the game keeps its files in a temporary folder, removed at the end.
"""
import os
import shutil
import sys
import tempfile
import types

FRAMES = 20         # frames drawn before the window closes: a third of a second


def main(argv):
    """Open the game's window, draw FRAMES frames, close it; 0 if drawn."""
    folder = os.path.abspath(argv[0])
    script = os.path.join(folder, "minesweep.py")
    data = tempfile.mkdtemp(prefix="minesweep-selftest-")
    os.environ["MINESWEEP_DATA_DIR"] = data
    sys.argv = [script]             # no options: the game as a student starts it
    sys.path.insert(0, folder)
    os.chdir(folder)
    try:
        import pygame
        import pgzero.runner
        sys._pgzrun = True          # the script's pgzrun.go() leaves the loop to us
        game = types.ModuleType("minesweep")
        game.__file__ = script
        sys.modules["minesweep"] = game
        with open(script, "rb") as f:
            code = compile(f.read(), script, "exec")
        pgzero.runner.prepare_mod(game)
        exec(code, game.__dict__)
        drawn = []
        draw = game.draw

        def counted():
            """The game's draw, counted; enough frames close the window."""
            draw()
            drawn.append(1)
            if len(drawn) == FRAMES:
                pygame.event.post(pygame.event.Event(pygame.QUIT))
        game.draw = counted
        pgzero.runner.run_mod(game)
        return 0 if len(drawn) >= FRAMES else 1
    finally:
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
