"""The branches the code takes where the system is not POSIX (Windows), run
here with the POSIX facilities taken away: the checker without fork, without
resource limits and without a timer signal; the data folder without
O_NOFOLLOW, pwd, fchmod or a folder to fsync; process numbers that cannot be
asked about; the game's files under %APPDATA%; the stop signals without
SIGHUP. Each does what it says it does there."""
import ctypes
import json
import os
import signal
import socket
import stat
import subprocess
import sys
import types

import pytest

import datafiles
import startup
from loadgame import CHAPTER
from test_classic import win_beginner

sys.path.insert(0, CHAPTER)
import check  # noqa: E402  (chapter/check.py, the checker)

HOST = socket.gethostname()


def book_program(folder, name="book.py", change=lambda text: text):
    """The book's whole program (the lesson's step 10, with the book's
    gb18030 line), saved as GB18030 in folder, as a student's would be."""
    with open(os.path.join(CHAPTER, "zh", "step10_win.py"), encoding="utf-8") as f:
        text = f.read().replace("# -*- coding: utf-8 -*-", "# -*- coding:gb18030 -*-", 1)
    path = os.path.join(str(folder), name)
    with open(path, "wb") as f:
        f.write(change(text).encode("gb18030"))
    return path


def never_stops(text):
    """The program with a loop that never ends where it starts."""
    return text.replace("import random\n", "import random\nwhile True:\n    pass\n", 1)


def marks(result):
    """A program's checks as True, False or None, section by section."""
    return [entry["ok"] for entry in result["checks"]]


# ------------------------------------------------------------- the checker


def test_without_fork_each_program_is_checked_in_a_process_of_its_own(tmp_path,
                                                                     monkeypatch):
    # Windows has no fork: no server that forks is started (one would fail
    # here, since Server is taken away too), and each program runs alone.
    monkeypatch.delattr(os, "fork")
    monkeypatch.setattr(check.check_sandbox, "Server", None)
    good = book_program(tmp_path)
    wrong = book_program(tmp_path, "wrong.py",
                         lambda text: text.replace("bk.isopen = True", "bk.isopen = False"))
    results = check.check_all([good, wrong], check.load_texts()["zh"])
    assert marks(results[0]) == [True] * len(check.SECTIONS)
    assert results[1]["reached"] == "3.3.3"
    assert "RecursionError" in results[1]["checks"][8]["message"]


WITHOUT_POSIX = """\
import runpy, signal, sys
# As on Windows: no resource limits and no timer signal.
sys.modules["resource"] = None
del signal.setitimer
sys.path.insert(0, {chapter!r})
sys.argv = [{child!r}] + sys.argv[1:]
runpy.run_path({child!r}, run_name="__main__")
"""


@pytest.fixture
def windows_child(tmp_path, monkeypatch):
    """The checker's child started without resource and setitimer, and
    without fork in the parent."""
    wrapper = tmp_path / "child_without_posix.py"
    wrapper.write_text(WITHOUT_POSIX.format(chapter=CHAPTER, child=check.CHILD))
    monkeypatch.setattr(check, "CHILD", str(wrapper))
    monkeypatch.delattr(os, "fork")


def test_a_child_without_resource_limits_and_timer_checks_the_book_program(
        tmp_path, windows_child):
    found = check.run_program(book_program(tmp_path))
    assert [entry["ok"] for entry in found] == [True] * len(check.SECTIONS)


def test_without_a_timer_signal_the_parents_limit_stops_an_endless_program(
        tmp_path, windows_child, monkeypatch):
    # Each section's own limit needs SIGALRM; without it the parent's limit
    # on the whole check ends the child, and says so.
    monkeypatch.setattr(check, "PROGRAM_SECONDS", 3)
    found = check.run_program(book_program(tmp_path, change=never_stops))
    assert found[-1]["ok"] is False and found[-1]["key"] == "child_timeout"
    assert found[-1]["facts"] == {"seconds": 3}


def test_without_resource_the_limits_are_left_alone(monkeypatch):
    import check_sandbox
    import check_sections
    import resource
    before = resource.getrlimit(resource.RLIMIT_AS), resource.getrlimit(resource.RLIMIT_CPU)
    monkeypatch.setitem(sys.modules, "resource", None)
    check_sandbox.limit_memory(check_sections.MEMORY, check_sections.CPU_SECONDS,
                               check_sections.FILE_BYTES)
    assert (resource.getrlimit(resource.RLIMIT_AS),
            resource.getrlimit(resource.RLIMIT_CPU)) == before


def test_without_a_timer_signal_a_limit_sets_no_alarm(monkeypatch):
    import check_sections
    monkeypatch.delattr(signal, "setitimer")
    before = signal.getsignal(signal.SIGALRM)
    with check_sections.Limit(0.01):
        pass
    assert signal.getsignal(signal.SIGALRM) is before


# ---------------------------------------------------------- the data folder


@pytest.fixture
def no_nofollow(monkeypatch):
    """The data files opened as on Windows: no O_NOFOLLOW."""
    off = ~getattr(os, "O_NOFOLLOW", 0)
    monkeypatch.setattr(datafiles, "NOFOLLOW", 0)
    monkeypatch.setattr(datafiles, "READING", datafiles.READING & off)
    monkeypatch.setattr(datafiles, "MAKING", datafiles.MAKING & off)


def test_without_nofollow_a_regular_file_is_read_and_a_link_refused(tmp_path, no_nofollow):
    (tmp_path / "best_times.json").write_bytes(b"{}")
    assert datafiles.read_regular(str(tmp_path / "best_times.json"), 10) == b"{}"
    (tmp_path / "elsewhere.json").write_bytes(b"[]")
    os.symlink(str(tmp_path / "elsewhere.json"), str(tmp_path / "settings.json"))
    with pytest.raises(datafiles.NotAFile, match="symbolic link"):
        datafiles.read_regular(str(tmp_path / "settings.json"), 10)


def test_without_nofollow_a_link_swapped_in_after_the_look_is_refused(tmp_path, no_nofollow,
                                                                     monkeypatch):
    # The look (lstat) sees a regular file; before it is opened, a link to
    # another file takes its name. Opened, it is another file than the one
    # looked at: it is looked at again, and refused as a link.
    path = str(tmp_path / "kept_game.json")
    (tmp_path / "kept_game.json").write_bytes(b"{}")
    (tmp_path / "secret").write_bytes(b"not the game's")
    real_lstat, swapped = os.lstat, []

    def lstat_then_swap(name, *args, **kwargs):
        """os.lstat, and after the first look at path, a link in its place."""
        info = real_lstat(name, *args, **kwargs)
        if name == path and not swapped:
            os.remove(path)
            os.symlink(str(tmp_path / "secret"), path)
            swapped.append(True)
        return info

    monkeypatch.setattr(os, "lstat", lstat_then_swap)
    with pytest.raises(datafiles.NotAFile, match="symbolic link"):
        datafiles.read_regular(path, 100)
    assert swapped


def test_without_fchmod_or_a_folder_to_fsync_a_file_is_written_whole(tmp_path, no_nofollow,
                                                                    monkeypatch):
    monkeypatch.delattr(os, "fchmod")
    monkeypatch.delattr(os, "O_DIRECTORY")
    synced, real_fsync = [], os.fsync

    def fsync(handle):
        """os.fsync, noting whether it flushed a folder or a file."""
        synced.append("folder" if stat.S_ISDIR(os.fstat(handle).st_mode) else "file")
        real_fsync(handle)

    monkeypatch.setattr(os, "fsync", fsync)
    path = tmp_path / "settings.json"
    path.write_text("{}")
    os.chmod(str(path), 0o600)
    datafiles.write_data(str(path), {"language": "zh"})
    assert json.loads(path.read_text()) == {"language": "zh"}
    assert stat.S_IMODE(os.stat(str(path)).st_mode) == 0o600     # kept by chmod
    assert synced == ["file"]
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]    # no temporary left


def test_without_pwd_or_home_the_home_is_the_user_profile(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "pwd", None)
    profile = str(tmp_path / "Users" / "student")
    assert datafiles.home_folder({"USERPROFILE": profile}) == profile
    assert datafiles.home_folder({}) is None
    assert datafiles.home_folder({"USERPROFILE": "relative"}) is None


def test_on_windows_the_data_folder_is_under_appdata(monkeypatch):
    monkeypatch.setitem(sys.modules, "pwd", None)
    root = "/games/minesweep"
    assert datafiles.data_dir({"APPDATA": "/Users/s/AppData/Roaming"}, root, "win32") == \
        os.path.join("/Users/s/AppData/Roaming", "minesweep")
    assert datafiles.data_dir({"USERPROFILE": "/Users/s"}, root, "win32") == \
        os.path.join("/Users/s", "AppData", "Roaming", "minesweep")
    assert datafiles.data_dir({"APPDATA": "/x", "MINESWEEP_DATA_DIR": "mine"}, root,
                              "win32") == os.path.join(root, "mine")


def test_where_processes_cannot_be_asked_a_lock_is_judged_by_its_age(monkeypatch):
    # On Windows a lock's process number says nothing sure: even a lock of
    # an ended game is waited for, until it is old.
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    text = "%d %s 123456" % (ended.pid, HOST)
    assert datafiles.stale_why(0.0, 0.0, text, HOST)          # POSIX: ended, stale
    monkeypatch.setattr(os, "name", "nt")
    assert datafiles.process_start(os.getpid()) == ""
    assert datafiles.owner_state(text, HOST) == "unknown"
    assert datafiles.stale_why(0.0, 0.0, text, HOST) == ""
    assert "s ago" in datafiles.stale_why(datafiles.LOCK_STALE + 1, 0.0, text, HOST)


# ----------------------------------------------------------------- the game


def test_on_windows_the_game_keeps_its_best_times_under_appdata(game, tmp_path, monkeypatch,
                                                               no_nofollow):
    appdata = tmp_path / "AppData" / "Roaming"
    monkeypatch.delenv("MINESWEEP_DATA_DIR")
    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("APPDATA", str(appdata))
    monkeypatch.setitem(sys.modules, "pwd", None)
    monkeypatch.delattr(os, "fchmod")
    monkeypatch.delattr(os, "O_DIRECTORY")
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(os, "name", "nt")
    assert game.data_folder() == str(appdata / "minesweep")
    win_beginner(game, 30.0)
    monkeypatch.undo()
    assert game.play.record == "new"
    times = json.loads((appdata / "minesweep" / "best_times.json").read_text())
    assert "30" in json.dumps(times)
    assert sorted(p.name for p in (appdata / "minesweep").iterdir()) == ["best_times.json"]


# ------------------------------------------------------------- the signals


def test_without_sighup_sigterm_still_stops_the_game():
    # Windows' signal module has SIGTERM but no SIGHUP.
    signals = types.ModuleType("signal")
    signals.__dict__.update({name: getattr(signal, name) for name in dir(signal)
                             if name != "SIGHUP"})
    old = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)
    stopped = []
    try:
        startup.stop_on_signals(signals, lambda: stopped.append(True))
        assert signal.getsignal(signal.SIGHUP) is old[1]          # left alone
        os.kill(os.getpid(), signal.SIGTERM)
        assert stopped == [True]
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN   # a second is ignored
        startup.hold_stop_signals(signals)
    finally:
        signal.signal(signal.SIGTERM, old[0])
        signal.signal(signal.SIGHUP, old[1])


def test_off_linux_no_sound_card_is_looked_for_and_the_window_is_left_to_sdl():
    def read(path):
        """A file is never read off Linux."""
        raise AssertionError(path)
    assert startup.no_sound_card({}, "win32", read, read) is False
    environ = {}
    assert startup.open_window(types.SimpleNamespace(display=None, error=Exception), environ,
                               "win32", None) is None
    assert environ == {"SDL_VIDEO_CENTERED": "1"}



def test_the_checker_and_its_child_agree_on_the_sections():
    # The child process (check_sections.py) runs apart from the checker,
    # which reads its sections from its answers.
    import check_sections
    assert check.SECTIONS == check_sections.SECTIONS


class Kernel32:
    """Windows' kernel32 as the job object's calls reach it: each call
    noted with what it was given (the limits as the bytes Windows reads)."""

    def __init__(self):
        self.calls = []

    def CreateJobObjectW(self, attributes, name):
        self.calls.append(("create", attributes, name))
        return 77

    def SetInformationJobObject(self, job, kind, limits, size):
        data = ctypes.string_at(ctypes.addressof(limits._obj), size)
        self.calls.append(("limits", job, kind, data, size))
        return 1

    def GetCurrentProcess(self):
        return -1

    def AssignProcessToJobObject(self, job, process):
        self.calls.append(("assign", job, process))
        return 1


def test_without_fork_the_child_is_in_a_job_that_ends_all_it_starts(monkeypatch):
    # Windows has no process groups: the child puts itself in a job object
    # that kills every process in it once the child's handle closes (when
    # the child ends), before the student's program runs.
    import check_sandbox
    kernel32 = Kernel32()
    monkeypatch.setattr(ctypes, "windll", types.SimpleNamespace(kernel32=kernel32),
                        raising=False)
    assert check_sandbox.kill_on_close_job() == 77
    create, limits, assign = kernel32.calls
    assert create == ("create", None, None)
    _, job, kind, data, size = limits
    # JOBOBJECT_EXTENDED_LIMIT_INFORMATION as Windows lays it out: 144
    # bytes on 64-bit Windows (112 on 32-bit), LimitFlags after two 64-bit times.
    assert (job, kind) == (77, 9)
    assert size == (144 if ctypes.sizeof(ctypes.c_void_p) == 8 else 112)
    flags = int.from_bytes(data[16:20], "little")
    assert flags == 0x2000                  # JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
    assert assign == ("assign", 77, -1)


def test_where_a_job_cannot_be_made_the_check_goes_on_without_one(monkeypatch):
    import check_sandbox
    kernel32 = Kernel32()
    kernel32.CreateJobObjectW = lambda attributes, name: 0
    monkeypatch.setattr(ctypes, "windll", types.SimpleNamespace(kernel32=kernel32),
                        raising=False)
    assert check_sandbox.kill_on_close_job() is None
