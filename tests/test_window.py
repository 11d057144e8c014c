"""The real game in a real window: `pgzrun minesweep.py` under Xvfb, clicked
with xdotool and photographed with ImageMagick's import.

Each test is skipped, by name, where Xvfb, xdotool or ImageMagick is missing,
unless the environment variable MINESWEEP_REQUIRE_WINDOW=1 says they must
run (.ci/run sets it). On Debian or Ubuntu:
    sudo apt-get install xvfb xdotool x11-utils imagemagick
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pygame
import pytest

import scene
import viewport
from conftest import look_again
from loadgame import ROOT, load_game

sys.path.insert(0, os.path.join(ROOT, "tools"))
from bench_idle import cpu_seconds  # noqa: E402  (the benchmark's own measure)

# Each program the tests run, and what a newcomer installs to have it.
TOOLS = {"Xvfb": "Xvfb (package xvfb)", "xdotool": "xdotool (package xdotool)",
         "import": "ImageMagick's import (package imagemagick)"}
missing = [TOOLS[tool] for tool in TOOLS if shutil.which(tool) is None]

SCREEN = (2000, 1400)       # the test's X screen, px
PROJECTOR = (1366, 768)     # ... and a classroom projector's, for full screen
WAIT = 20                   # longest wait for the window to react, s


@pytest.fixture(scope="module")
def display():
    """A private X server for this file's tests; its display name, e.g. ':5'.

    One server serves every test, and each test finds its own game's window
    by the game's process id.
    The screen is large so a window that grows stays on it: a screenshot
    shows only the part of a window that is on the screen.
    """
    if missing and os.environ.get("MINESWEEP_REQUIRE_WINDOW") != "1":
        pytest.skip("a real-window test: needs %s" % ", ".join(missing))
    assert not missing, "the real-window test needs %s" % ", ".join(missing)
    yield from x_server()


@pytest.fixture(scope="module")
def projector():
    """A private X server the size of a classroom projector; its display name."""
    if missing and os.environ.get("MINESWEEP_REQUIRE_WINDOW") != "1":
        pytest.skip("a real-window test: needs %s" % ", ".join(missing))
    assert not missing, "the real-window test needs %s" % ", ".join(missing)
    yield from x_server(PROJECTOR)


def x_server(size=SCREEN):
    """Start a private X server with a screen this size; yield its display
    name, then stop it."""
    read, write = os.pipe()
    server = subprocess.Popen(
        # -noreset: Xvfb would reset when its last client leaves, and the
        # game closes and opens its display once at start, so a window
        # opened just then could vanish.
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "%dx%dx24" % size,
         "-nolisten", "tcp", "-noreset"], pass_fds=(write,),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as f:
        number = f.readline().strip()     # Xvfb writes it once it is ready
    assert number, "Xvfb did not start"
    # Wait until the server answers a client, so the first game can connect.
    deadline = time.monotonic() + WAIT
    while subprocess.run(["xdotool", "getdisplaygeometry"],
                         env=dict(os.environ, DISPLAY=":" + number),
                         capture_output=True, timeout=WAIT).returncode != 0:
        assert time.monotonic() < deadline, "Xvfb never answered"
        look_again()
    yield ":" + number
    server.terminate()
    server.wait(timeout=10)


def headless_game(rows, cols, bombs, number=None):
    """The game loaded in this process, headless, with this board, laid out
    for the test's screen: what the real window will show, worked out by
    the game itself (the same board number gives the same board)."""
    kept = os.environ.get("MINESWEEP_DATA_DIR")
    with tempfile.TemporaryDirectory() as folder:
        os.environ["MINESWEEP_DATA_DIR"] = folder      # nothing of the user's
        try:
            game = load_game("headless")
        finally:
            if kept is None:
                del os.environ["MINESWEEP_DATA_DIR"]
            else:
                os.environ["MINESWEEP_DATA_DIR"] = kept
    game.window.desktop = SCREEN
    game.new_game(rows, cols, bombs, number)
    game.layout()                                   # as the first frame does
    return game


# The game's own tile size and status bar, px.
SIZE, BAR = headless_game(15, 15, 20).SIZE, viewport.BAR


def window_size(rows, cols, bombs):
    """The size of the game's window for this board on the test's screen
    (the footer is as tall as its words need)."""
    game = headless_game(rows, cols, bombs)
    return game.WIDTH, game.HEIGHT


def x(display, *args):
    """Run an X tool on that display and return what it printed."""
    env = dict(os.environ, DISPLAY=display)
    done = subprocess.run(list(args), env=env, capture_output=True, text=True,
                          timeout=WAIT, check=True)
    return done.stdout


def find_window(display, pid):
    """The id of the game's visible window, or None while there is none."""
    env = dict(os.environ, DISPLAY=display)
    done = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(pid)],
                          env=env, capture_output=True, text=True, timeout=WAIT)
    found = done.stdout.split()
    return found[0] if found else None


def window_fields(display, wid):
    """Where the window is and how big: X, Y, WIDTH, HEIGHT ({} if it is gone)."""
    env = dict(os.environ, DISPLAY=display)
    done = subprocess.run(["xdotool", "getwindowgeometry", "--shell", wid],
                          env=env, capture_output=True, text=True, timeout=WAIT)
    return {key: int(value) for key, value in
            (line.split("=") for line in done.stdout.split()) if key != "WINDOW"
            and value.lstrip("-").isdigit()}


def geometry(display, wid):
    """The window's size as (width, height)."""
    fields = window_fields(display, wid)
    return fields.get("WIDTH", 0), fields.get("HEIGHT", 0)


def window_of_size(display, pid, size):
    """The game's window once it has this size; fail after WAIT seconds."""
    deadline = time.monotonic() + WAIT
    while True:
        wid = find_window(display, pid)
        seen = wid and geometry(display, wid)
        if seen == size:
            return wid
        assert time.monotonic() < deadline, \
            "the window never became %dx%d (window %s, %s; the screen has %s)" % (
                size + (wid, seen, x(display, "xwininfo", "-root", "-tree")))
        look_again()


def photo(display, wid, path):
    """A screenshot of the window, as a pygame surface.

    SDL may make a new window when the size changes, and import waits for
    ever on a window that has just gone: so import gets a short time, and
    the game's window is looked up again if it has gone.
    """
    for _ in range(5):
        if not window_fields(display, wid) and display in playing:
            wid = find_window(display, playing[display]) or wid
        try:
            subprocess.run(["import", "-window", wid, "png:" + path],
                           env=dict(os.environ, DISPLAY=display), timeout=5,
                           check=True, capture_output=True)
            return pygame.image.load(path)
        except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
            continue
    raise AssertionError("cannot photograph the window %s" % wid)


def wait_for(display, wid, path, test):
    """Take screenshots until test(picture) is true; fail after WAIT seconds."""
    deadline = time.monotonic() + WAIT
    while True:
        shot = photo(display, wid, path)
        if test(shot):
            return shot
        assert time.monotonic() < deadline, "the window did not change"
        look_again()


def tile_pixel(shot, row, col, dx, dy, left=0, top=BAR, size=None):
    """A pixel of a tile, dx and dy from its top-left corner (None if outside)."""
    size = size or SIZE
    at = (left + col * size + dx, top + row * size + dy)
    if not shot.get_rect().collidepoint(at):
        return None         # the picture is of the window before it grew
    return tuple(shot.get_at(at))[:3]


def is_closed(shot, row, col, left=0, top=BAR, size=None):
    """A closed tile has a white bevel at its top left (inside the cursor)."""
    return tile_pixel(shot, row, col, 2, 2, left, top, size) == (255, 255, 255)


def has_red(shot, row, col):
    """Does the tile show red (a flag)?"""
    return any(tile_pixel(shot, row, col, dx, dy) == (255, 0, 0)
               for dx in range(SIZE) for dy in range(SIZE))


def click(display, wid, x_pos, y_pos, button):
    """Move the mouse over the window and click."""
    x(display, "xdotool", "mousemove", "--window", wid, str(x_pos), str(y_pos),
      "click", str(button))


playing = {}                # display -> process id of the game shown on it


def start_pgzrun(display, tmp_path, script):
    """Run `pgzrun SCRIPT` from the project folder on this display."""
    # SDL is told to use X11: left to choose, it sometimes (about one full
    # test run in two here) opened the game's window somewhere else, and the
    # X server showed no window at all.
    env = dict(os.environ, DISPLAY=display, SDL_VIDEODRIVER="x11",
               SDL_AUDIODRIVER="dummy", MINESWEEP_DATA_DIR=str(tmp_path / "data"))
    pgzrun = shutil.which("pgzrun", path=os.path.dirname(sys.executable)) \
        or shutil.which("pgzrun")
    return launch(display, [pgzrun, script], env)


def launch(display, command, env):
    """Start a game's process on this display, once its window shows.

    Now and then SDL finds X11 "not available" although Xvfb is running
    (seen here in about one CI run in three, never twice in a row): a game
    that stops at once for that reason is started again, at most three times.
    """
    for _ in range(3):
        game = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        playing[display] = game.pid
        deadline = time.monotonic() + WAIT
        while game.poll() is None and not find_window(display, game.pid) \
                and time.monotonic() < deadline:
            look_again()
        if game.poll() is None:
            return game
        out, err = game.communicate(timeout=WAIT)
        assert "x11 not available" in out + err, out + err
    raise AssertionError("SDL found X11 not available three times")


def stop(game):
    """End the game's process after a failed check, and show what it said."""
    game.kill()
    out, err = game.communicate(timeout=WAIT)
    print(out, err)


def finish(display, wid, game):
    """Ctrl+Q closes the window cleanly, with nothing on the console."""
    try:
        x(display, "xdotool", "windowfocus", "--sync", wid)
        x(display, "xdotool", "key", "ctrl+q")
        assert game.wait(timeout=WAIT) == 0
    finally:
        if game.poll() is None:
            game.kill()
        out, err = game.communicate(timeout=WAIT)
    assert "Traceback" not in err, err
    assert "Error" not in out + err, out + err


def test_the_last_lesson_step_in_a_real_window(display, tmp_path):
    game = start_pgzrun(display, tmp_path, os.path.join("chapter", "step11_fixes.py"))
    try:
        wid = window_of_size(display, game.pid, (375, 375))
        shot = wait_for(display, wid, str(tmp_path / "0.png"),
                        lambda s: is_closed(s, 7, 7, top=0))
        assert all(is_closed(shot, r, c, top=0) for r in range(15) for c in range(15))
        # A left click opens the tile, or it was a bomb and every bomb shows:
        # either way the tile is closed no more.
        click(display, wid, 7 * SIZE + 12, 7 * SIZE + 12, 1)
        wait_for(display, wid, str(tmp_path / "1.png"),
                 lambda s: not is_closed(s, 7, 7, top=0))
    except BaseException:
        stop(game)
        raise
    finish(display, wid, game)


def test_play_in_a_real_window(display, tmp_path):
    # The pointer at the top left, where the window opens, on no tile (an
    # earlier test may have left it over one, which is then highlighted).
    x(display, "xdotool", "mousemove", "0", "0")
    game = start_pgzrun(display, tmp_path, "minesweep.py")
    try:
        # SDL writes the title as UTF-8, which xdotool cannot match by name,
        # so the window is found by the game's process id.
        x(display, "xdotool", "search", "--sync", "--onlyvisible",
          "--pid", str(game.pid))
        # pgzero opens a 100x100 window first, then sizes it for the game.
        wid = window_of_size(display, game.pid, window_size(15, 15, 20))
        shot = wait_for(display, wid, str(tmp_path / "0.png"),
                        lambda s: is_closed(s, 7, 7))
        assert all(is_closed(shot, r, c) for r in range(15) for c in range(15))
        # The pointer is over the window, but has not moved: no tile is
        # highlighted (pgzero's first small window once left a stale frame).
        assert not any(tuple(shot.get_at((x, y)))[:3] == scene.YELLOW
                       for x in range(shot.get_width()) for y in range(shot.get_height()))

        # A left click opens the tile (the first click is never a bomb).
        click(display, wid, 7 * SIZE + 12, BAR + 7 * SIZE + 12, 1)
        shot = wait_for(display, wid, str(tmp_path / "1.png"),
                        lambda s: not is_closed(s, 7, 7))
        closed = [(r, c) for r in range(15) for c in range(15)
                  if is_closed(shot, r, c)]
        assert closed and len(closed) < 225 - 9

        # A right click on a tile still closed puts a flag on it.
        row, col = closed[0]
        assert not has_red(shot, row, col)
        click(display, wid, col * SIZE + 12, BAR + row * SIZE + 12, 3)
        shot = wait_for(display, wid, str(tmp_path / "2.png"),
                        lambda s: has_red(s, row, col))
        assert is_closed(shot, row, col)

        # H shows a hint: a green, red or orange frame round one tile.
        x(display, "xdotool", "windowfocus", "--sync", wid)
        x(display, "xdotool", "key", "h")
        hint_colours = set(scene.HINT_COLOURS.values())
        wait_for(display, wid, str(tmp_path / "h.png"),
                 lambda s: any(tile_pixel(s, r, c, 0, 0) in hint_colours
                               for r in range(15) for c in range(15)))

        # A lets the solver play: tiles keep changing until a key stops it.
        x(display, "xdotool", "key", "a")
        wait_for(display, wid, str(tmp_path / "a.png"),
                 lambda s: sum(is_closed(s, r, c) for r in range(15)
                               for c in range(15)) < len(closed) - 1)
        x(display, "xdotool", "key", "z")

        # The face starts a new game: every tile is closed again.
        click(display, wid, 375 // 2, BAR // 2, 1)
        wait_for(display, wid, str(tmp_path / "3.png"),
                 lambda s: all(is_closed(s, r, c)
                               for r in range(15) for c in range(15)))

        # Key 3 switches to Expert, and the window grows to fit it.
        x(display, "xdotool", "key", "3")
        # SDL may make a new window for the new size: look it up again.
        wid = window_of_size(display, game.pid, window_size(16, 30, 99))
        wait_for(display, wid, str(tmp_path / "4.png"),
                 lambda s: all(is_closed(s, r, c)
                               for r in range(16) for c in range(30)))

        # N turns no-guess boards on: the line below the grid says so, and
        # the first click lays such a board and opens an area.
        def footer(shot):
            strip = pygame.Rect(0, BAR + 16 * SIZE, 30 * SIZE, 30)
            return pygame.image.tobytes(shot.subsurface(strip), "RGB")

        before = footer(photo(display, wid, str(tmp_path / "5.png")))
        x(display, "xdotool", "windowfocus", "--sync", wid)
        x(display, "xdotool", "key", "n")
        wait_for(display, wid, str(tmp_path / "6.png"), lambda s: footer(s) != before)
        click(display, wid, 15 * SIZE + 12, BAR + 8 * SIZE + 12, 1)
        wait_for(display, wid, str(tmp_path / "7.png"),
                 lambda s: sum(not is_closed(s, r, c)
                               for r in range(16) for c in range(30)) >= 9)

    except BaseException:
        stop(game)
        raise
    finish(display, wid, game)


def test_slow_motion_in_a_real_window(display, tmp_path):
    game = start_pgzrun(display, tmp_path, "minesweep.py")
    try:
        wid = window_of_size(display, game.pid, window_size(15, 15, 20))
        wait_for(display, wid, str(tmp_path / "0.png"), lambda s: is_closed(s, 7, 7))
        x(display, "xdotool", "windowfocus", "--sync", wid)
        x(display, "xdotool", "key", "v")
        # The window grows to the right for the panel, with larger tiles
        # (the largest the whole board fits at), as the game works it out.
        model = headless_game(15, 15, 20)
        model.settings.slowmo = True
        model.layout()
        view = model.view
        wid = window_of_size(display, game.pid, (model.WIDTH, model.HEIGHT))
        panel = pygame.Rect(view.board_width(), 0, view.panel, model.HEIGHT)
        tile, left, top = view.tile, view.left, view.top

        def closed(shot):
            """How many tiles show closed."""
            return sum(is_closed(shot, r, c, left, top, tile)
                       for r in range(15) for c in range(15))

        def panel_pixels(shot):
            return pygame.image.tobytes(shot.subsurface(panel), "RGB")

        blank = panel_pixels(photo(display, wid, str(tmp_path / "1.png")))
        click(display, wid, left + 7 * tile + tile // 2, top + 7 * tile + tile // 2, 1)
        # The replay opens the area a few tiles at a time: first only a few
        # tiles show open, and the panel fills with the calls.
        first = wait_for(display, wid, str(tmp_path / "2.png"),
                         lambda s: 215 <= closed(s) < 225 and panel_pixels(s) != blank)
        later = wait_for(display, wid, str(tmp_path / "3.png"),
                         lambda s: closed(s) < closed(first) - 3)
        assert panel_pixels(later) != panel_pixels(first)
        # Esc ends the replay: the whole opening shows at once, and stays.
        x(display, "xdotool", "key", "Escape")
        final = wait_for(display, wid, str(tmp_path / "4.png"),
                         lambda s: closed(s) < closed(later) - 9)
        time.sleep(0.5)                     # the board no longer changes
        again = photo(display, wid, str(tmp_path / "5.png"))
        board = pygame.Rect(left, top, 15 * tile, 15 * tile)
        assert pygame.image.tobytes(final.subsurface(board), "RGB") == \
            pygame.image.tobytes(again.subsurface(board), "RGB")
    except BaseException:
        stop(game)
        raise
    finish(display, wid, game)


def test_lose_read_why_take_it_back_in_a_real_window(display, tmp_path):
    game = start_pgzrun(display, tmp_path, "minesweep.py")
    try:
        size = window_size(15, 15, 20)
        wid = window_of_size(display, game.pid, size)
        wait_for(display, wid, str(tmp_path / "0.png"), lambda s: is_closed(s, 7, 7))
        click(display, wid, 7 * SIZE + 12, BAR + 7 * SIZE + 12, 1)
        shot = wait_for(display, wid, str(tmp_path / "1.png"),
                        lambda s: not is_closed(s, 7, 7))
        # Lose on purpose: open closed tiles until one is a bomb, which
        # shows red; the post-mortem's words come below the grid.
        lost = None
        keys_line = pygame.image.tobytes(
            shot.subsurface(pygame.Rect(0, BAR + 375, 375, size[1] - BAR - 375)), "RGB")
        while lost is None:
            closed = [(r, c) for r in range(15) for c in range(15)
                      if is_closed(shot, r, c)]
            assert closed, "every tile is open: no bomb was found"
            row, col = closed[0]
            click(display, wid, col * SIZE + 12, BAR + row * SIZE + 12, 1)
            shot = wait_for(display, wid, str(tmp_path / "1.png"),
                            lambda s: not is_closed(s, row, col))
            if tile_pixel(shot, row, col, 2, 2) == (255, 0, 0):
                lost = (row, col)
        wid = find_window(display, game.pid)
        tall = geometry(display, wid)
        shot = photo(display, wid, str(tmp_path / "2.png"))
        words = pygame.Rect(0, BAR + 375, 375, tall[1] - BAR - 375)
        colours = {tuple(shot.get_at((x_, y_)))[:3] for x_ in range(0, 375, 3)
                   for y_ in range(words.top, words.bottom, 2)}
        assert (0, 0, 0) in colours             # black words on the grey line
        assert pygame.image.tobytes(shot.subsurface(words.clip(
            pygame.Rect(0, 0, 375, size[1]))), "RGB") != keys_line
        # U takes the move back: the window is its size again and the tile
        # is closed again; the game goes on.
        x(display, "xdotool", "windowfocus", "--sync", wid)
        x(display, "xdotool", "key", "u")
        wid = window_of_size(display, game.pid, size)
        wait_for(display, wid, str(tmp_path / "3.png"),
                 lambda s: is_closed(s, *lost))
    except BaseException:
        stop(game)
        raise
    finish(display, wid, game)


def test_closing_keeps_the_game_for_the_next_start(display, tmp_path):
    saved = tmp_path / "data" / "saved_game.json"
    size = window_size(15, 15, 20)
    opened_before = None                        # the closed tiles, kept
    # Ctrl+Q, the system's "please stop", a closed terminal keep the game;
    # after a kill -9 the file kept before is still there.
    for stop_how in ("ctrl+q", "SIGTERM", "SIGHUP", "SIGKILL"):
        game = start_pgzrun(display, tmp_path, "minesweep.py")
        try:
            wid = window_of_size(display, game.pid, size)
            wait_for(display, wid, str(tmp_path / "0.png"), lambda s: is_closed(s, 7, 7))
            if saved.exists():                  # the game kept last time
                x(display, "xdotool", "windowfocus", "--sync", wid)
                x(display, "xdotool", "key", "c")
                shot = wait_for(display, wid, str(tmp_path / "1.png"),
                                lambda s: not is_closed(s, 7, 7))
                assert [is_closed(shot, r, c) for r in range(15) for c in range(15)] \
                    == opened_before
                assert saved.exists()           # taken back: the file stays for now
            else:
                click(display, wid, 7 * SIZE + 12, BAR + 7 * SIZE + 12, 1)
                shot = wait_for(display, wid, str(tmp_path / "1.png"),
                                lambda s: not is_closed(s, 7, 7))
                opened_before = [is_closed(shot, r, c) for r in range(15)
                                 for c in range(15)]
        except BaseException:
            stop(game)
            raise
        if stop_how == "ctrl+q":
            finish(display, wid, game)
        else:
            game.send_signal(getattr(signal, stop_how))
            out, err = game.communicate(timeout=WAIT)
            assert game.returncode == (-signal.SIGKILL if stop_how == "SIGKILL" else 0)
            assert "Traceback" not in err, err
        assert saved.exists(), "the game was not kept at %s" % stop_how


def test_python_minesweep_py_and_l_in_a_real_window(display, tmp_path):
    # Thonny's Run is "python minesweep.py": import pgzrun, then pgzrun.go().
    env = dict(os.environ, DISPLAY=display, SDL_VIDEODRIVER="x11",
               SDL_AUDIODRIVER="dummy", MINESWEEP_DATA_DIR=str(tmp_path / "data"),
               LANG="en_US.UTF-8")
    env.pop("MINESWEEP_LANG", None)
    game = launch(display, [sys.executable, "minesweep.py", "--rows", "9", "--cols",
                            "9", "--bombs", "10"], env)
    try:
        wid = window_of_size(display, game.pid, window_size(9, 9, 10))
        footer = pygame.Rect(0, BAR + 225, 225, 30)

        def line(shot):
            return pygame.image.tobytes(shot.subsurface(footer), "RGB")

        english = line(wait_for(display, wid, str(tmp_path / "0.png"),
                                lambda s: is_closed(s, 4, 4)))
        x(display, "xdotool", "windowfocus", "--sync", wid)
        x(display, "xdotool", "key", "l")
        chinese_line = line(wait_for(display, wid, str(tmp_path / "1.png"),
                                     lambda s: line(s) != english))
        # L goes English, Simplified, Traditional, then English again.
        x(display, "xdotool", "key", "l")
        traditional = line(wait_for(display, wid, str(tmp_path / "2.png"),
                                    lambda s: line(s) not in (english, chinese_line)))
        x(display, "xdotool", "key", "l")
        wait_for(display, wid, str(tmp_path / "3.png"), lambda s: line(s) == english)
        assert len({english, chinese_line, traditional}) == 3
    except BaseException:
        stop(game)
        raise
    finish(display, wid, game)
    assert json.loads((tmp_path / "data" / "settings.json").read_text()) == \
        {"language": "en"}


def test_a_board_of_100_by_200_in_a_real_window(display, tmp_path):
    # The automatic-player lesson's board: 100 rows, 200 columns, 3000 bombs. It does not fit
    # the screen at 25 px: the tiles are 16 px and the view scrolls. The
    # same board here, headless, tells where the bombs are.
    model = headless_game(100, 200, 3000, 7)
    tile, left, top = model.view.tile, model.view.left, model.view.top
    assert tile == 16 and model.view.cols < 200

    def spot(row, col):
        """The middle of a tile of the unscrolled view, in the window."""
        return left + col * tile + tile // 2, top + row * tile + tile // 2

    def pixel(shot, row, col, dx, dy, scrolled=0):
        """A pixel of a tile, with the view scrolled down this many rows."""
        return tuple(shot.get_at((left + col * tile + dx,
                                  top + (row - scrolled) * tile + dy)))[:3]

    def closed(shot, row, col, scrolled=0):
        """A closed tile has a white bevel down its left side."""
        return pixel(shot, row, col, 1, tile // 2, scrolled) == (255, 255, 255)

    env = dict(os.environ, DISPLAY=display, SDL_VIDEODRIVER="x11",
               SDL_AUDIODRIVER="dummy", MINESWEEP_DATA_DIR=str(tmp_path / "data"))
    game = launch(display, [sys.executable, "minesweep.py", "--rows", "100", "--cols",
                            "200", "--bombs", "3000", "--board", "7"], env)
    try:
        wid = window_of_size(display, game.pid, (model.WIDTH, model.HEIGHT))
        first = (20, 30)
        click(display, wid, *spot(*first), 1)
        model.grid_action(model.block_at(*first), model.click_open)
        opened = [block for block in model.blocks if block.isopen]
        assert len(opened) > 9
        shot = wait_for(display, wid, str(tmp_path / "0.png"),
                        lambda s: not closed(s, *first))
        in_view = [block for block in opened if model.view.in_view(block.row, block.col)]
        assert all(not closed(shot, b.row, b.col) for b in in_view)

        # Flag every bomb round a number, with real right clicks, then a
        # middle click on the number opens the rest of its neighbours.
        number = next(b for b in in_view if b.number and any(
            not o.isbomb and not o.isopen for o in b.neighbours) and all(
            model.view.in_view(o.row, o.col) for o in b.neighbours))
        for other in number.neighbours:
            if other.isbomb:
                click(display, wid, *spot(other.row, other.col), 3)
        rest = [o for o in number.neighbours if not o.isbomb and not o.isopen]
        click(display, wid, *spot(number.row, number.col), 2)
        shot = wait_for(display, wid, str(tmp_path / "1.png"),
                        lambda s: not any(closed(s, o.row, o.col) for o in rest))
        flags = [o for o in number.neighbours if o.isbomb]
        assert all((255, 0, 0) in {pixel(shot, o.row, o.col, dx, dy)
                                   for dx in range(tile) for dy in range(tile)}
                   for o in flags)

        # H shows a hint: a frame in the hint's colours round a tile.
        x(display, "xdotool", "windowfocus", "--sync", wid)
        x(display, "xdotool", "key", "h")
        hint_colours = set(scene.HINT_COLOURS.values())
        wait_for(display, wid, str(tmp_path / "2.png"), lambda s: any(
            tuple(s.get_at((left + c * tile, top + r * tile)))[:3] in hint_colours
            for r in range(model.view.rows) for c in range(model.view.cols)))

        # Three turns of the wheel scroll the view nine rows down: the opened
        # area moves up on the screen, away from the first click.
        x(display, "xdotool", "key", "Escape")          # the hint stays; a key
        before = photo(display, wid, str(tmp_path / "3.png"))
        x(display, "xdotool", "mousemove", "--window", wid, *map(str, spot(50, 60)))
        for _ in range(3):
            x(display, "xdotool", "click", "5")
        # The game may show the first turn before the others: wait for the
        # whole opened area to show where nine rows of scrolling put it.
        visible = [b for b in in_view if b.row >= 9 and b.row - 9 < model.view.rows - 1]
        assert visible and any(closed(before, b.row, b.col, scrolled=9) for b in visible)
        scrolled = wait_for(display, wid, str(tmp_path / "4.png"), lambda s: all(
            not closed(s, b.row, b.col, scrolled=9) for b in visible))
        pygame.image.save(scrolled, str(tmp_path / "big_board.png"))
    except BaseException:
        stop(game)
        raise
    finish(display, wid, game)


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="needs /proc")
@pytest.mark.parametrize("rows, cols, bombs", [(16, 30, 99), (100, 200, 3000)])
def test_an_idle_game_uses_little_of_the_processor(display, tmp_path, rows, cols, bombs):
    # Not a benchmark (tools/bench_idle.py measures): this only catches a
    # game that draws the whole window every frame, which took 56% of a core
    # on Expert here, against 2-3% now. Such a game uses that much in every
    # second; a game that does not may still be starting in the first, or
    # share the processor with other work in a busy one: one quiet second
    # in five is enough.
    env = dict(os.environ, DISPLAY=display, SDL_VIDEODRIVER="x11",
               SDL_AUDIODRIVER="dummy", MINESWEEP_DATA_DIR=str(tmp_path / "data"))
    env.pop("SDL_FRAMEBUFFER_ACCELERATION", None)
    game = launch(display, [sys.executable, "minesweep.py", "--rows", str(rows),
                            "--cols", str(cols), "--bombs", str(bombs)], env)
    try:
        wid = window_of_size(display, game.pid, window_size(rows, cols, bombs))
        shares = []
        # Two quiet spans in a row: a game drawing in bursts is busy in one.
        while len(shares) < 6 and not (shares[-2:] and max(shares[-2:]) < 0.15
                                       and len(shares) >= 2):
            start, began = cpu_seconds(game.pid), time.monotonic()
            time.sleep(1)
            shares.append((cpu_seconds(game.pid) - start) / (time.monotonic() - began))
        assert len(shares) >= 2 and max(shares[-2:]) < 0.15, "an idle game used %s of a core" % ", ".join(
            "%.0f%%" % (100 * share) for share in shares)
    except BaseException:
        stop(game)
        raise
    finish(display, wid, game)


def test_full_screen_in_a_real_window(projector, tmp_path):
    # On a 1366 x 768 projector --fullscreen covers the screen with the
    # book's board at 40 px tiles; F11 gives the window back and fills the
    # screen again; slow motion fills it too.
    env = dict(os.environ, DISPLAY=projector, SDL_VIDEODRIVER="x11",
               SDL_AUDIODRIVER="dummy", MINESWEEP_DATA_DIR=str(tmp_path / "data"))
    game = launch(projector, [sys.executable, "minesweep.py", "--fullscreen",
                              "--lang", "en"], env)
    model = headless_game(15, 15, 20)
    model.window.desktop = PROJECTOR
    model.layout()
    window = (model.WIDTH, model.HEIGHT)
    model.window.fullscreen = True
    model.layout()
    view = model.view
    assert view.tile >= 40

    def covers(wid):
        """Is the window the whole screen, at its top left corner?"""
        info = dict(line.strip().split(":", 1) for line in
                    x(projector, "xwininfo", "-id", wid).splitlines() if ":" in line)
        return [int(info[name]) for name in ("Absolute upper-left X", "Absolute upper-left Y",
                                             "Width", "Height")] == [0, 0, *PROJECTOR]

    def board_shown(shot):
        """Every tile closed, drawn at the full screen's size and place."""
        return all(is_closed(shot, row, col, view.left, view.top, view.tile)
                   for row in range(15) for col in range(15))

    try:
        wid = window_of_size(projector, game.pid, PROJECTOR)
        wait_for(projector, wid, str(tmp_path / "0.png"), board_shown)
        assert covers(wid)
        x(projector, "xdotool", "windowfocus", "--sync", wid)
        x(projector, "xdotool", "key", "F11")
        wid = window_of_size(projector, game.pid, window)
        assert not covers(wid)
        wait_for(projector, wid, str(tmp_path / "1.png"), lambda s: is_closed(s, 14, 14))
        x(projector, "xdotool", "key", "F11")
        wid = window_of_size(projector, game.pid, PROJECTOR)
        wait_for(projector, wid, str(tmp_path / "2.png"), board_shown)
        assert covers(wid)
        # Slow motion: the panel at the right, the board beside it, the
        # window still the whole screen.
        x(projector, "xdotool", "key", "v")
        model.settings.slowmo = True
        model.layout()
        view = model.view
        panel = (PROJECTOR[0] - view.panel // 2, PROJECTOR[1] - 4)
        wait_for(projector, wid, str(tmp_path / "3.png"),
                 lambda s: board_shown(s) and tuple(s.get_at(panel))[:3] == scene.PAPER)
        click(projector, wid, view.left + 7 * view.tile + view.tile // 2,
              view.top + 7 * view.tile + view.tile // 2, 1)
        wait_for(projector, wid, str(tmp_path / "4.png"),
                 lambda s: not is_closed(s, 7, 7, view.left, view.top, view.tile))
        assert covers(wid)
    except BaseException:
        stop(game)
        raise
    finish(projector, wid, game)
