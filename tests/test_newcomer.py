"""What a newcomer sees first: a quiet start, on this computer as it is."""
import os
import subprocess
import sys

from loadgame import ROOT

SCRIPT = os.path.join(ROOT, "minesweep.py")


def run_game(*options, environ=None):
    """python minesweep.py with options, without the tests' sound settings."""
    env = dict(os.environ if environ is None else environ)
    env.pop("SDL_AUDIODRIVER", None)
    env.pop("PYGAME_HIDE_SUPPORT_PROMPT", None)
    env["SDL_VIDEODRIVER"] = "dummy"
    return subprocess.run([sys.executable, SCRIPT] + list(options), env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_help_prints_only_the_help():
    done = run_game("--help")
    assert done.returncode == 0
    assert done.stdout.startswith("usage: python minesweep.py")
    said = done.stdout + done.stderr
    assert "Hello from the pygame community" not in said
    assert "ALSA" not in said and "XDG_RUNTIME_DIR" not in said


def test_a_computer_without_sound_gets_one_line_of_the_games_own(tmp_path):
    environ = dict(os.environ, MINESWEEP_DATA_DIR=str(tmp_path))
    done = run_game("--check", environ=environ)
    assert done.returncode == 0, done.stderr
    said = (done.stdout + done.stderr).splitlines()
    assert not [line for line in said if "ALSA" in line or "pygame " in line]
    silent = [line for line in said if "sound" in line and "silence" in line]
    if not os.path.exists("/proc/asound/cards") or "no soundcards" in open(
            "/proc/asound/cards").read():
        assert silent == ["minesweep: no sound card found: the game plays in silence."]
