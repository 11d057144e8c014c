"""Every way the game reads and writes its data folder, in a process of its
own, without pygame, so that a test can give it a time limit and run it as
another user: start-up's reads, a win, B, L, a game kept at closing and
the kept game found again, each timed.

Usage: python saveround.py FOLDER [LIMIT]; LIMIT (bytes) is the largest
file this process may write (RLIMIT_FSIZE), for a full disk. The last line
printed is JSON: {"steps": {name: [what it gave, seconds]}, "fds": [open
descriptors before, after]}.
"""
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import datafiles  # noqa: E402

# A game in progress, as the game keeps it: a 2 x 2 board, one bomb under
# the first tile, one tile open.
GAME = {"format": 1, "rows": 2, "cols": 2, "bombs": 1, "board": 7, "under": "*...",
        "marks": "...o", "timer": 3.5, "clicks": 1, "undos": 0, "assisted": False,
        "noguess": False, "questions": False, "flagwin": False}


def open_descriptors():
    """How many descriptors this process has open (None where it cannot tell)."""
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return None


def main():
    """Run each step, and print what it gave and how long it took."""
    folder = sys.argv[1]
    if len(sys.argv) > 2:
        import resource
        import signal
        # Past the limit a write fails (EFBIG) instead of the process being
        # stopped by SIGXFSZ, as a write to a full disk fails (ENOSPC).
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        limit = int(sys.argv[2])
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    say = print
    steps = [
        ("win", lambda: datafiles.record_best_time(folder, "Beginner", 10.0, say)),
        ("win again", lambda: datafiles.record_best_time(folder, "Expert", 90.0, say)),
        ("B", lambda: datafiles.load_best_times(folder, say)),
        ("L", lambda: datafiles.keep_language(folder, "zh", say)),
        ("close", lambda: datafiles.keep_game(folder, GAME, say)),
        ("kept", lambda: datafiles.read_start(folder, say)[1]),
    ]
    done, before = {}, open_descriptors()
    for name, step in steps:
        begun = time.monotonic()
        value = step()
        done[name] = [value, time.monotonic() - begun]
    print(json.dumps({"steps": done, "fds": [before, open_descriptors()]}))


if __name__ == "__main__":
    main()
