# Room on the stack for open_block's recursion on a big board.
#
# open_block calls itself once for every tile of an empty area, so on an
# empty 200 x 200 board the calls go 40,000 deep. Python before 3.11 keeps
# each call on the computer's own stack as well, which holds only a few
# thousand of them (8 MB on Linux, 1 MB on Windows), and Python then stops
# without a word. A thread can be given a stack as big as the board needs.
#
# And making a big board's tiles makes thousands of objects at once, which
# Python's garbage collector would look over again and again.
#
# No pgzero or pygame, and no state of its own.
# Keep this file ASCII only, like minesweep.py.
import contextlib
import gc
import threading

DEEP = 2000              # tiles a board may have before moves get their own stack
STACK_PER_TILE = 2048    # stack for one call of open_block, bytes (Python
                         # 3.10 uses 400 to 600; slow motion doubles it)


def deeply(tiles, action, *args):
    """Do action(*args) on a board of this many tiles; on a big board in a
    thread with room on its stack for one call of open_block per tile."""
    if tiles <= DEEP:
        return action(*args)
    outcome = []

    def run():
        """The action, with what it returned or raised."""
        try:
            outcome.append((True, action(*args)))
        except BaseException as error:      # raised again below, as it was
            outcome.append((False, error))

    worker = threading.Thread(target=run, name="minesweep move")
    try:
        before = threading.stack_size(max(tiles * STACK_PER_TILE, 2 ** 25))
        try:
            worker.start()
        finally:
            threading.stack_size(before)
    except (ValueError, RuntimeError):
        return action(*args)                # this computer cannot give more
    worker.join()
    done, value = outcome[0]
    if not done:
        raise value
    return value


@contextlib.contextmanager
def collector_waiting():
    """Python's garbage collector waits while a new board's tiles are made."""
    # It collects each time several hundred objects have been made, and now
    # and then looks over all of them: half the time of making a big board.
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
