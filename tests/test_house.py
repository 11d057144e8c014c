"""The house rules of the code: one pgzrun script that stays small, with
few names that change while it runs, and modules beside it that need no
pgzero, no pygame and no screen."""
import ast
import glob
import importlib
import inspect
import os
import subprocess
import sys

import pgzero.builtins

from loadgame import ROOT, load_game, with_screen

SCRIPT = os.path.join(ROOT, "minesweep.py")
# The modules beside the script: each is plain data in and out.
MODULES = sorted(os.path.basename(path)[:-3] for path in glob.glob(os.path.join(ROOT, "*.py"))
                 if not path.endswith("minesweep.py"))
# The module-level names of minesweep.py that change while it runs, and why:
# pgzero reads WIDTH, HEIGHT and TITLE every frame; a new board changes the
# chapter's ROWS, COLS and BOMBS (and lay_bombs the BOMBS) and its blocks,
# failed and finished; play is the game (gamestate.Game) and showing what the
# window shows of it (gamestate.Showing), both made afresh by new_game;
# settings last from game to game, and window (gamestate.Window) while it is open;
# view is the part of the board in the window; canvas is what the window
# shows, kept to draw only changes; measure keeps the sizes of the texts
# measured so far.
CHANGING = {"WIDTH", "HEIGHT", "TITLE", "ROWS", "COLS", "BOMBS", "blocks", "failed",
            "finished", "play", "showing", "settings", "window", "view", "canvas",
            "measure"}
# The chapter's sections come first and stay short, so a student finds the
# book's program at the top of the file. What lies beyond the chapter is
# capped too, so that a new feature grows in the modules beside the script,
# which take the board whole, rather than in the script.
CHAPTER_LINES = 400
BEYOND_LINES = 1000
MOST_FUNCTION_LINES = 45
MOST_GLOBALS = 12
# The modules take a board whole: at most this many lines of the script
# pass ROWS and COLS, and a module's function takes at most this many values.
MOST_ROWS_COLS = 12
MOST_PARAMETERS = 4


def source_tree():
    """minesweep.py, parsed."""
    with open(SCRIPT, encoding="ascii") as f:
        return ast.parse(f.read())


def test_the_chapter_comes_first_and_is_short():
    with open(SCRIPT, encoding="ascii") as f:
        lines = f.read().splitlines()
    sections = [number for number, line in enumerate(lines)
                if line.startswith(("# 3.1 ", "# 3.2 ", "# 3.3 ", "# 3.4 "))]
    beyond = next(number for number, line in enumerate(lines)
                  if line.startswith("# BEYOND THE CHAPTER"))
    assert [lines[n][:5] for n in sections] == ["# 3.1", "# 3.2", "# 3.3", "# 3.4"]
    assert sections[-1] < beyond <= CHAPTER_LINES
    assert len(lines) - beyond <= BEYOND_LINES


def test_each_function_of_the_script_is_small():
    long_ones = [(node.name, node.end_lineno - node.lineno + 1)
                 for node in ast.walk(source_tree())
                 if isinstance(node, ast.FunctionDef)
                 and node.end_lineno - node.lineno + 1 > MOST_FUNCTION_LINES]
    assert not long_ones


def test_few_global_statements_and_no_frame_tricks():
    tree = source_tree()
    globals_used = [node for node in ast.walk(tree) if isinstance(node, ast.Global)]
    assert len(globals_used) <= MOST_GLOBALS
    for name in MODULES + ["minesweep"]:
        with open(os.path.join(ROOT, name + ".py"), encoding="ascii") as f:
            assert "_getframe" not in f.read(), name


def data_names(game):
    """The script's own module-level names that hold data: not modules,
    functions, classes or what pgzero puts there for every game (its
    builtins, and the screen it makes)."""
    own = {}
    for name, value in vars(game).items():
        if name.startswith("__") or name in vars(pgzero.builtins) or name == "screen":
            continue
        if callable(value) or type(value).__name__ == "module":
            continue
        own[name] = value
    return own


def test_only_the_listed_names_change_while_the_game_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path))
    game = load_game()
    with_screen(game)
    before = {name: id(value) for name, value in data_names(game).items()}
    # Play a little of everything: levels, moves, slow motion, the language,
    # the zoom, pauses, best times, a lost game taken back, autoplay.
    keys = game.keys
    for key in (keys.K_1, keys.V, keys.L, keys.Z, keys.Q, keys.N, keys.X):
        game.on_key_down(key)
        game.update(0.1)
        game.draw()
    game.grid_action(game.block_at(4, 4), game.click_open)
    for key in (keys.H, keys.P, keys.P, keys.B, keys.B, keys.ESCAPE, keys.K_0,
                keys.A, keys.A, keys.R, keys.V, keys.L, keys.Z, keys.Z):
        game.on_key_down(key)
        game.update(0.1)
        game.draw()
    game.lay_bombs([(0, 0)])
    game.grid_action(game.block_at(0, 0), game.click_open)
    game.on_key_down(keys.U)
    game.update(0.1)
    game.draw()
    after = data_names(game)
    rebound = {name for name, value in after.items() if before.get(name) != id(value)}
    assert rebound <= CHANGING, rebound - CHANGING
    # Every other data name is a constant: an upper-case name, set once.
    others = {name for name in after if name not in CHANGING}
    assert all(name.isupper() for name in others), sorted(
        name for name in others if not name.isupper())
    assert len(CHANGING) <= 16


def module_calls(tree):
    """The script's calls of a module's function or class: (call, module, name)."""
    return [(node, node.func.value.id, node.func.attr) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id in MODULES]


def test_the_script_hands_the_modules_few_values_at_a_time():
    # A module's function takes at most MOST_PARAMETERS by position (more
    # only by name); a record of more fields (a namedtuple) is filled by
    # name, never by position.
    crowded = []
    for call, module, name in module_calls(source_tree()):
        called = getattr(importlib.import_module(module), name)
        if hasattr(called, "_fields"):
            if len(called._fields) > MOST_PARAMETERS and call.args:
                crowded.append("%s.%s by position" % (module, name))
        elif len([parameter for parameter in inspect.signature(called).parameters.values()
                  if parameter.kind is not parameter.KEYWORD_ONLY]) > MOST_PARAMETERS:
            crowded.append("%s.%s" % (module, name))
    assert not crowded


def test_few_lines_pass_the_board_by_its_rows_and_cols():
    # The modules take the board whole (board_now), not ROWS and COLS.
    passing = set()
    for node in ast.walk(source_tree()):
        if isinstance(node, ast.Call):
            values = node.args + [arg for arg in node.args if isinstance(arg, ast.Tuple)
                                  for arg in arg.elts]
            names = [getattr(value, "id", None) for value in values]
            if any(pair == ("ROWS", "COLS") for pair in zip(names, names[1:])):
                passing.add(node.lineno)
    assert len(passing) <= MOST_ROWS_COLS, sorted(passing)


def test_the_tiles_become_cell_sets_in_one_place():
    # Only board_now makes cell numbers of the tiles (with gamestate.board_of).
    tree = source_tree()
    makers = [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
              for call, module, name in module_calls(node)
              if (module, name) == ("gamestate", "board_of")]
    assert makers == ["board_now"]
    sets = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.SetComp)]
    assert not sets


def test_the_modules_need_no_pygame_no_pgzero_and_no_screen():
    # The modules' own tests, run where pygame and pgzero cannot be imported
    # at all, and without the game's test set-up (which starts pygame).
    code = ("import sys\n"
            "sys.modules['pygame'] = sys.modules['pgzero'] = None\n"
            "sys.path.insert(0, %r)\n"
            "for name in %r:\n"
            "    __import__(name)\n"
            "import pytest\n"
            "sys.exit(pytest.main(['-q', '--noconftest', '-p', 'no:cacheprovider', '-o', 'addopts=',\n"
            "                      %r]))\n" % (ROOT, MODULES, os.path.join(
                ROOT, "tests", "test_modules.py")))
    # pytest's plugins stay out too (the modules' tests use none): each
    # takes time to start, hypothesis most.
    env = dict(os.environ, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout


def test_every_module_is_named_in_the_script_or_a_module():
    # A module no one imports would be dead weight in the game's folder.
    with open(SCRIPT, encoding="ascii") as f:
        text = f.read()
    for name in MODULES:
        assert "import %s" % name in text, name
