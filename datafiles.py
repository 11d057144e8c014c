# The files minesweep keeps in the user's data folder: the best times, the
# settings (the language chosen with L) and a game kept when the window
# closed.
#
# What is promised (README, "Reliability"): a file is written whole or not
# at all; a file the game cannot use is moved aside, never overwritten, and
# never over an earlier one; two games saving at once both keep their
# records; and "New best time" is shown only when the record was saved.
#
# Plain data in and out, with no pgzero or pygame: the game hands in the
# folder, and a say(topic, line) that prints a console line once a topic.
# Keep this file ASCII only, like minesweep.py.
import json
import os
import stat
import time

from gamestate import MAX_TIME, board_fault

DATA_LIMIT = 256 * 1024  # largest file of the game's that is read, bytes
LOCK_WAIT = 3.0          # longest wait for another game's save, s
LOCK_STALE = 2.0         # a lock this old was left by a crash, s
TIMES = "best_times.json"
SETTINGS = "settings.json"
KEPT = "saved_game.json"
NOGUESS_RECORD = "%s, no guess"  # the name a level's no-guess record is kept under
FLAGWIN_RECORD = "%s, flag win"  # ... and its record of a game won by flags
SAVE_FORMAT = 1          # the kept game's format; a newer one is set aside
MARKS = ".o" + "F?"      # a tile in a kept game: closed, open, flag, question


class SaveError(Exception):
    """A file could not be saved (or read under the lock); the text says why."""


# ---------------------------------------------------------------------------
# Where the files are
# ---------------------------------------------------------------------------
def home_folder(environ):
    """The user's home folder, or None when there is no sure one."""
    home = environ.get("HOME")
    if home is not None and not os.path.isabs(home):
        home = None                 # HOME="" or a relative path: not trusted
    if home is None:
        try:
            import pwd
            home = pwd.getpwuid(os.getuid()).pw_dir
        except (ImportError, KeyError):
            home = environ.get("USERPROFILE")
    return home if home and os.path.isabs(home) else None


def data_dir(environ, root, platform):
    """The folder for the game's files, or None when there is no usable one.

    MINESWEEP_DATA_DIR if set (a relative one is taken from the game's own
    folder, root, not from wherever the game was started), else the
    system's place for them.
    """
    chosen = environ.get("MINESWEEP_DATA_DIR")
    if chosen:
        chosen = os.path.expanduser(chosen)
        return os.path.join(root, chosen)           # kept if absolute
    home = home_folder(environ)
    if platform == "win32":
        base = environ.get("APPDATA") or (
            home and os.path.join(home, "AppData", "Roaming"))
    elif platform == "darwin":
        base = home and os.path.join(home, "Library", "Application Support")
    else:
        # The XDG rules: a relative XDG_DATA_HOME is to be ignored.
        base = environ.get("XDG_DATA_HOME")
        if not base or not os.path.isabs(base):
            base = home and os.path.join(home, ".local", "share")
    return os.path.join(base, "minesweep") if base else None


def data_file(folder, name):
    """The path of one of the game's files (where a symlink points, if it is one)."""
    if folder is None:
        raise SaveError("no home folder to keep them in (set MINESWEEP_DATA_DIR)")
    return os.path.realpath(os.path.join(folder, name))


# ---------------------------------------------------------------------------
# Reading and writing, under a lock
# ---------------------------------------------------------------------------
def lock_data(folder):
    """Wait until no other game is saving, and take the lock; its path."""
    lock = os.path.join(folder, "minesweep.lock")
    give_up = time.monotonic() + LOCK_WAIT
    while True:
        try:
            handle = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            try:
                if time.time() - os.path.getmtime(lock) > LOCK_STALE:
                    os.remove(lock)         # left by a game that stopped mid-save
                    continue
            except OSError:
                continue                    # it went away: try again
            if time.monotonic() > give_up:
                raise SaveError("another game kept %s locked" % lock)
            time.sleep(0.005)
        else:
            os.write(handle, str(os.getpid()).encode("ascii"))
            os.close(handle)
            return lock


def set_aside(path, why, what, say):
    """Move a bad file to a new NAME.bak (never over an earlier one); say so."""
    number, backup = 1, path + ".bak"
    while os.path.lexists(backup):
        number += 1
        backup = "%s.%d.bak" % (path, number)
    try:
        os.replace(path, backup)
    except OSError as error:
        say("aside " + path, "minesweep: cannot read %s in %s (%s), and cannot "
            "move it aside (%s); it will not be saved." % (what, path, why, error))
        raise SaveError("cannot move %s aside" % path)
    print("minesweep: %s in %s could not be read (%s); moved it to %s."
          % (what, path, why, backup))


def read_data(path, check, what, say):
    """What the file holds, or None if there is none; a file that check
    finds fault with (a text saying what is wrong) is set aside."""
    try:
        with open(path, "rb") as f:
            data = f.read(DATA_LIMIT + 1)
    except FileNotFoundError:
        return None
    except OSError as error:
        set_aside(path, error, what, say)   # a folder, say, where the file should be
        return None
    if len(data) > DATA_LIMIT:
        set_aside(path, "larger than %d bytes" % DATA_LIMIT, what, say)
        return None
    try:
        value = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError) as error:
        set_aside(path, error, what, say)
        return None
    fault = check(value)
    if fault:
        set_aside(path, fault, what, say)
        return None
    return value


def clean_leftovers(folder):
    """Remove the temporary files of saves that were stopped half-way."""
    for name in os.listdir(folder):
        if name.endswith(".tmp") and (name.startswith("tmp") or name.startswith(
                (TIMES + ".", KEPT + "."))):
            try:
                os.remove(os.path.join(folder, name))
            except OSError:
                pass                    # still in use, or not ours to remove


def write_data(path, value):
    """Write a file whole or not at all: a temporary file, then a rename."""
    temp = "%s.%d.tmp" % (path, os.getpid())
    text = json.dumps(value, indent=1, sort_keys=True, allow_nan=False)
    try:
        # Created like any new file (the umask applies); an old file's mode
        # is kept.
        handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        with os.fdopen(handle, "w", encoding="utf-8") as f:
            f.write(text)
        if os.path.exists(path):
            os.chmod(temp, stat.S_IMODE(os.stat(path).st_mode))
        os.replace(temp, path)
    except OSError:
        if os.path.exists(temp):
            os.remove(temp)             # leave no half-written file behind
        raise


def with_data(folder, name, check, what, change, say):
    """Under the lock: read a file of the game's, let change(value) say what
    to write (a new value, or None for nothing), and write it. change's value."""
    path = data_file(folder, name)
    where = os.path.dirname(path)
    try:
        os.makedirs(where, exist_ok=True)
        lock = lock_data(where)
    except OSError as error:
        raise SaveError(str(error))
    try:
        clean_leftovers(where)
        new = change(read_data(path, check, what, say))
        if new is not None:
            write_data(path, new)
        return new
    except OSError as error:
        raise SaveError(str(error))
    finally:
        try:
            os.remove(lock)
        except OSError:
            pass


def read_kept(folder, name, check, what, say):
    """What a file of the game's holds, read under the lock, or None if there
    is none (no folder is made just to look) or it cannot be read."""
    found = []
    try:
        if os.path.lexists(data_file(folder, name)):
            with_data(folder, name, check, what, found.append, say)
    except SaveError:
        pass
    return found[0] if found else None


def remove(folder, name):
    """Remove a file of the game's, if it is there."""
    try:
        os.remove(data_file(folder, name))
    except (OSError, SaveError):
        pass


# ---------------------------------------------------------------------------
# Best times
# ---------------------------------------------------------------------------
def good_time(seconds):
    """True for a time the game writes: finite, 0 or more (a first click
    can win at once, in no time)."""
    return (isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
            and 0 <= seconds < float("inf"))


def good_record(record):
    """True for one level's record: a time, or (since dates were kept) a
    time and the day it was set."""
    if isinstance(record, dict):
        return (set(record) == {"time", "date"} and good_time(record["time"])
                and isinstance(record["date"], str) and len(record["date"]) <= 10)
    return good_time(record)


def times_fault(times):
    """What is wrong with a best-times file's contents, or "" if nothing."""
    good = isinstance(times, dict) and len(times) <= 100 and all(
        isinstance(level, str) and good_record(record)
        for level, record in times.items())
    return "" if good else "not a list of times"


def time_of(record):
    """A record's time, s."""
    return record["time"] if isinstance(record, dict) else record


def date_of(record):
    """The day a record was set, or "" if it is older than dates."""
    return record["date"] if isinstance(record, dict) else ""


def load_best_times(folder, say):
    """Best times by level; {} when there are none or they cannot be read."""
    return read_kept(folder, TIMES, times_fault, "best times", say) or {}


def record_best_time(folder, level, seconds, say):
    """Keep this time, with today's date, if it beats the level's best:
    "new" if it did and was saved, "slower" if it did not beat it,
    "unsaved" if it could not be saved."""
    def keep_if_better(times):
        """The times with this one in, if it is the level's best; else None."""
        times = times or {}
        if level in times and time_of(times[level]) <= seconds:
            return None
        record = {"time": round(seconds, 3), "date": time.strftime("%Y-%m-%d")}
        return dict(times, **{level: record})

    try:
        return "new" if with_data(folder, TIMES, times_fault, "best times",
                                  keep_if_better, say) else "slower"
    except SaveError as error:
        say("save", "minesweep: cannot save best times in %s: %s"
            % (folder or "any folder", error))
        return "unsaved"


# ---------------------------------------------------------------------------
# Settings
# ---------------------------------------------------------------------------
def settings_fault(value):
    """What is wrong with the settings file, or "" if nothing."""
    good = isinstance(value, dict) and value.get("language") in ("en", "zh")
    return "" if good else "not the game's settings"


def kept_language(folder, say):
    """The language chosen with L last time, or None."""
    kept = read_kept(folder, SETTINGS, settings_fault, "the settings", say)
    return kept["language"] if kept else None


def keep_language(folder, language, say):
    """Keep the language chosen with L for the next start."""
    try:
        with_data(folder, SETTINGS, settings_fault, "the settings",
                  lambda old: dict(old or {}, language=language), say)
    except SaveError as error:
        say("settings", "minesweep: cannot keep the language: %s" % error)


# ---------------------------------------------------------------------------
# A kept game: the board, its tiles, and the game's fields in KEPT_FIELDS
# ---------------------------------------------------------------------------
def is_count(value):
    """A whole number, 0 or more."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def is_flag(value):
    """True or False."""
    return isinstance(value, bool)


def is_seconds(value, most):
    """A time in seconds, 0 to most."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and 0 <= value <= most)


# The fields of a game kept besides its board: name, a check of its value
# ("seconds" is checked against the timer's limit), whose it is (the game's
# own, or a setting that came with it) and its value in the first saves
# that lacked it (None: it was always there).
KEPT_FIELDS = (
    ("timer", "seconds", "game", None),
    ("clicks", is_count, "game", None),
    ("undos", is_count, "game", None),
    ("assisted", is_flag, "game", None),
    ("noguess", is_flag, "game", False),
    ("questions", is_flag, "settings", None),
    ("flagwin", is_flag, "settings", None),
)


def kept_fault(value):
    """What is wrong with a kept game, or "" if nothing."""
    if not isinstance(value, dict) or not is_count(value.get("format")):
        return "not a saved game"
    if value["format"] > SAVE_FORMAT:
        return "saved by a newer version of the game"
    try:
        fault = board_fault(value["rows"], value["cols"], value["bombs"], value["board"])
    except KeyError:
        return "not a saved game"
    if fault:
        return "a board this version cannot play: %s" % fault
    cells = value["rows"] * value["cols"]
    bombs, marks = value.get("under"), value.get("marks")
    if not (isinstance(bombs, str) and isinstance(marks, str)
            and len(bombs) == len(marks) == cells and set(bombs) <= {".", "*"}
            and bombs.count("*") == value["bombs"] and set(marks) <= set(MARKS)
            and all(not (b == "*" and m == "o") for b, m in zip(bombs, marks))):
        return "not a saved game"
    for name, check, whose, first in KEPT_FIELDS:
        if name not in value and first is not None:
            continue
        if name not in value or not (is_seconds(value[name], MAX_TIME)
                                     if check == "seconds" else check(value[name])):
            return "not a saved game"
    return ""


def kept_game(rows, cols, bombs, board, tiles, owners):
    """A game as the kept file holds it: tiles is (isbomb, isopen, isflag,
    isquestion) for each tile in row order; owners holds the objects whose
    attributes KEPT_FIELDS are ({"game": ..., "settings": ...})."""
    marks = "".join("o" if isopen else "F" if isflag else "?" if isquestion else "."
                    for isbomb, isopen, isflag, isquestion in tiles)
    game = {"format": SAVE_FORMAT, "rows": rows, "cols": cols, "bombs": bombs,
            "board": board, "marks": marks,
            "under": "".join("*" if tile[0] else "." for tile in tiles)}
    for name, check, whose, first in KEPT_FIELDS:
        value = getattr(owners[whose], name)
        game[name] = round(value, 3) if check == "seconds" else value
    return game


def kept_tiles(game):
    """The tiles of a kept game: (isbomb, isopen, isflag, isquestion) each."""
    return [(under == "*", mark == "o", mark == "F", mark == "?")
            for under, mark in zip(game["under"], game["marks"])]


def keep_game(folder, game, say):
    """Keep a game (as kept_game makes it) for the next start, and say so."""
    try:
        with_data(folder, KEPT, kept_fault, "the saved game", lambda old: game, say)
        print("minesweep: this game is kept; start the game again to go on")
    except SaveError as error:
        print("minesweep: cannot keep this game: %s" % error)


def kept_game_found(folder, say):
    """The game kept last time, if there is a good one, else None."""
    return read_kept(folder, KEPT, kept_fault, "the saved game", say)


def kept_fields(game):
    """The KEPT_FIELDS of a kept game, as {name: (whose, value)}."""
    return {name: (whose, game.get(name, first))
            for name, check, whose, first in KEPT_FIELDS}
