"""A save in a process of its own that stops itself (SIGSTOP) at one moment
of it, so that a test can act while it is stopped and then let it go on
(SIGCONT): a real pause, as a slow disk, a busy computer or Ctrl+Z makes.
Only the moment is chosen here; the save itself is the game's own code.

Usage:
  python pauseround.py save FOLDER LEVEL SECONDS MOMENT
      record_best_time of this level and time; MOMENT is "locked" (stop just
      after the lock is taken) or "flushed" (stop once the temporary file is
      on the disk, before its rename) or "none". Prints JSON: [what it gave, what it said].
  python pauseround.py close
      the game as pgzrun loads it, a game in progress, then the window is
      closed (the game ends as Ctrl+Q ends it); the closing save stops once
      its temporary file is on the disk (MINESWEEP_DATA_DIR says where).
"""
import json
import os
import signal
import sys

TESTS = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [TESTS, os.path.dirname(TESTS)]

import datafiles  # noqa: E402


def pause():
    """Stop this process until SIGCONT."""
    os.kill(os.getpid(), signal.SIGSTOP)


def stop_after(module, name, times=1):
    """Make module.name stop the process after its first call (the real call done)."""
    real, calls = getattr(module, name), []

    def paused(*args):
        """The real call, then the pause (the first time only)."""
        value = real(*args)
        calls.append(1)
        if len(calls) == times:
            pause()
        return value

    setattr(module, name, paused)


def save(folder, level, seconds, moment):
    """Save one record, stopping at the moment asked for; print the outcome."""
    if moment != "none":
        stop_after(*{"locked": (datafiles, "make_lock"), "flushed": (os, "fsync")}[moment])
    said = []
    got = datafiles.record_best_time(folder, level, float(seconds),
                                     lambda topic, line: said.append(line))
    print(json.dumps([got, said]))


def close():
    """A game in progress in the game loaded as pgzrun loads it; then it closes."""
    from loadgame import load_game
    from test_share import a_game_in_progress
    game = load_game(own_process=True)
    a_game_in_progress(game)
    stop_after(os, "fsync")
    print("closing", flush=True)
    sys.exit(0)                     # atexit: the game keeps its game in progress


if __name__ == "__main__":
    if sys.argv[1] == "save":
        save(*sys.argv[2:])
    else:
        close()
