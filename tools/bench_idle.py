"""How much of the processor an idle game takes, in a real window.

Run from the project folder:  python tools/bench_idle.py
It starts a private X server (Xvfb, Linux only), runs the game on a few
boards, waits until the window has settled, and measures the game process's
processor time over 10 seconds while nobody touches it. --root PATH measures
another copy of the game (an older checkout, say) the same way.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARDS = [(9, 9, 10), (16, 30, 99), (100, 100, 2000), (100, 200, 3000)]
SETTLE = 4               # time for the window to open and settle, s
MEASURE = 10             # time measured, s


def cpu_seconds(pid):
    """A process's processor time so far (user and system), s."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_share(display, root, rows, cols, bombs):
    """The share of one core the game takes, idle, on this board."""
    env = dict(os.environ, DISPLAY=display, SDL_VIDEODRIVER="x11",
               SDL_AUDIODRIVER="dummy", MINESWEEP_DATA_DIR="/tmp/minesweep-bench")
    game = subprocess.Popen([sys.executable, "minesweep.py", "--rows", str(rows),
                             "--cols", str(cols), "--bombs", str(bombs)],
                            cwd=root, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        time.sleep(SETTLE)
        if game.poll() is not None:
            return None                 # this version cannot play this board
        start, began = cpu_seconds(game.pid), time.monotonic()
        time.sleep(MEASURE)
        return (cpu_seconds(game.pid) - start) / (time.monotonic() - began)
    finally:
        game.kill()
        game.wait()


def main():
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=ROOT, help="the game's folder")
    args = parser.parse_args()
    if shutil.which("Xvfb") is None or not os.path.exists("/proc/self/stat"):
        sys.exit("bench_idle: needs Linux and Xvfb (Debian: apt-get install xvfb)")
    read, write = os.pipe()
    # -noreset: Xvfb would reset when its last client leaves, and each game
    # closes and opens its display once at start.
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0",
                               "1920x1080x24", "-nolisten", "tcp", "-noreset"],
                              pass_fds=(write,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as f:
        display = ":" + f.readline().strip()
    try:
        print("%-28s %s" % ("board (rows x cols, bombs)", "idle, % of one core"))
        for rows, cols, bombs in BOARDS:
            share = idle_share(display, args.root, rows, cols, bombs)
            shown = "cannot play it" if share is None else "%.1f" % (100 * share)
            print("%-28s %s" % ("%d x %d, %d" % (rows, cols, bombs), shown))
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
