# The files minesweep keeps in the user's data folder: the best times, the
# settings (the language chosen with L) and a game kept when the window
# closed, or from time to time while a game is played.
#
# What is promised (docs/reliability.md): a file is written whole or not
# at all, and flushed to the disk; a file the game cannot use is moved
# aside, never overwritten, and never over an earlier one; two games saving
# at once both keep their records; "New best time" is shown only when the
# record was saved; the game reads, writes, renames, locks and removes only
# regular files inside the data folder, never through a link; and no wait
# for the lock lasts longer than LOCK_WAIT.
#
# Plain data in and out, with no pgzero or pygame: the game hands in the
# folder, and a say(topic, line) that prints a console line once a topic.
# Keep this file ASCII only, like minesweep.py.
import datetime
import errno
import json
import math
import os
import re
import socket
import stat
import subprocess
import sys
import time
from collections import namedtuple

import wording
from gamestate import CHOICES, MAX_TIME, board_fault, board_words, won
from languages import LANGUAGES

DATA_LIMIT = 256 * 1024  # largest file of the game's that is read, bytes
DEEPEST = 20             # deepest nesting of a file of the game's; its files go 2 deep
LOCK_WAIT = 3.0          # longest wait for another game's save, s
LOCK_MOMENT = 0.2        # longest wait for it when a game in progress is kept, s
LOCK_STALE = 2.0         # a lock this old, or unchanged this long, was left by a crash, s
LOCK_NAP = 0.005         # the sleep between two looks at another game's lock, s
LOCK = "minesweep.lock"
TIMES = "best_times.json"
SETTINGS = "settings.json"
KEPT = "saved_game.json"
NOGUESS_RECORD = "%s, no guess"  # the name a level's no-guess record is kept under
FLAGWIN_RECORD = "%s, flag win"  # ... and its record of a game won by flags
MAX_COUNT = 10 ** 9      # most clicks a kept game counts (one a second for 30 years)
SAVE_FORMAT = 1          # the kept game's format; a newer one is set aside
MARKS = ".o" + "F?"      # a tile in a kept game: closed, open, flag, question
# The temporary files of the game's own saves: NAME.PID.tmp (or NAME.PID.N.tmp),
# and tmpXXXXXXXX.tmp from versions that made them with tempfile.mkstemp
# (other programs make such names too: only a day-old one is taken for a leftover).
LEFTOVER = re.compile(r"(?:%s)\.([0-9]+)(?:\.[0-9]+)?\.tmp" % "|".join(
    re.escape(name) for name in (TIMES, SETTINGS, KEPT)))
OLD_LEFTOVER = re.compile(r"tmp[a-z0-9_]{8}\.tmp")
LEFTOVER_AGE = 24 * 3600  # a leftover whose game cannot be asked about is this old, s
DATE = re.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}")
PATH_BYTE = re.compile("[\udc80-\udcff]")  # how Python keeps a name's byte that is not UTF-8
# How a file is opened: never through a link where the system can refuse
# one (O_NOFOLLOW), never waiting on a pipe (O_NONBLOCK), never as the
# terminal, and on Windows as bytes. A system without a flag has 0 for it.
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
READING = (os.O_RDONLY | NOFOLLOW | getattr(os, "O_NONBLOCK", 0) |
           getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0))
MAKING = os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | getattr(os, "O_BINARY", 0)


class SaveError(Exception):
    """A file could not be saved (or read under the lock); the text says why."""


class NotAFile(OSError):
    """One of the game's names is not a regular file; the text says what it is."""


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


# The folder itself may be a link (to a USB stick, say); a file in it is
# never followed: a link found there is set aside or left alone.
def data_file(folder, name):
    """The path of one of the game's files, inside its folder."""
    if folder is None:
        raise SaveError("no home folder to keep them in (set MINESWEEP_DATA_DIR)")
    return os.path.join(folder, name)


# ---------------------------------------------------------------------------
# Regular files only
#
# On POSIX a name is opened with O_NOFOLLOW, so a link swapped in after the
# look is refused too. Windows has no such flag: there lstat shows a
# symbolic link as a link and a junction as a folder, the file is opened
# only if it was a regular file, and fstat must show the same file. Renames
# and removals act on the name itself, never on what a link points to.
# ---------------------------------------------------------------------------
def kind_of(info):
    """What a directory entry is, in words, or "" for a regular file."""
    mode = info.st_mode
    for test, kind in ((stat.S_ISREG, ""), (stat.S_ISLNK, "a symbolic link"),
                       (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "a device"


def same_file(one, other):
    """True if two stat results are of the same file."""
    return (one.st_dev, one.st_ino) == (other.st_dev, other.st_ino)


def open_regular(path):
    """A descriptor reading the regular file at path, or None; NotAFile for
    anything else."""
    for attempt in range(3):
        try:
            seen = os.lstat(path)
        except FileNotFoundError:
            return None
        if kind_of(seen):
            raise NotAFile("it is %s, not a file" % kind_of(seen))
        try:
            handle = os.open(path, READING)
        except FileNotFoundError:
            return None
        except OSError as error:
            if error.errno in (errno.ELOOP, errno.EMLINK):    # it became a link
                raise NotAFile("it is a symbolic link, not a file")
            raise
        opened = os.fstat(handle)
        if stat.S_ISREG(opened.st_mode) and (NOFOLLOW or same_file(seen, opened)):
            return handle
        os.close(handle)
        if not stat.S_ISREG(opened.st_mode):
            raise NotAFile("it is %s, not a file" % kind_of(opened))
    raise NotAFile("it kept changing while it was opened")


def read_regular(path, most):
    """Up to most + 1 bytes of a regular file, or None if there is none."""
    handle = open_regular(path)
    if handle is None:
        return None
    with os.fdopen(handle, "rb") as f:
        return f.read(most + 1)


def remove_regular(path):
    """Remove a file of the game's if it is a regular file; say nothing."""
    try:
        if not kind_of(os.lstat(path)):
            os.remove(path)
    except OSError:
        pass                        # gone, still in use, or not ours to remove


# ---------------------------------------------------------------------------
# The lock: a file minesweep.lock, made with O_EXCL, that says which game
# on which computer holds it
# ---------------------------------------------------------------------------
def lock_owner():
    """What a game writes in the lock it takes: its process, computer and
    when its process started ("-" where that cannot be told)."""
    return "%d %s %s" % (os.getpid(), socket.gethostname(),
                         process_start(os.getpid()) or "-")


# A process number alone is not enough: once a process ends, the system
# may give its number to a new one. The time it started tells them apart.
def process_start(pid):
    """When a process of this computer started, as a word that only that
    process gives: None if no such process runs, "" if it cannot be told."""
    if os.name != "posix":
        return ""                   # Windows: no safe way to ask without psutil
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            fields = f.read().rsplit(b")", 1)[-1].split()
        # After the name: the state (Z, a zombie, has ended), ..., and
        # the 22nd field, the start in clock ticks since the computer started.
        return None if fields[0] in (b"Z", b"X") else fields[19].decode("ascii")
    except FileNotFoundError:
        if not os.path.isdir("/proc/self"):
            return ps_start(pid)
        # /proc may hide other users' processes (hidepid): ask the system.
        return "" if process_there(pid) else None
    except (OSError, IndexError, UnicodeDecodeError, OverflowError):
        return ""


def process_there(pid):
    """True if a process of this number runs on this computer (POSIX)."""
    try:
        os.kill(pid, 0)             # signal 0 only asks if the process is there
    except ProcessLookupError:
        return False
    except OverflowError:
        return False                # no process has such a number
    except OSError:
        return True                 # there, but another user's
    return True


def ps_start(pid):
    """process_start where there is no /proc (macOS, the BSDs): ps is asked."""
    if not process_there(pid):
        return None
    try:
        done = subprocess.run(["ps", "-o", "lstart=", "-p", str(pid)], timeout=1,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return ""
    return "-".join(done.stdout.decode("ascii", "replace").split())


def owner_state(text, host):
    """Whose a lock's text says it is: "alive" (a running game of this
    computer), "gone" (a game of this computer that has ended), or
    "unknown" (another computer's, an older version's, or not to be told)."""
    # This very process holds no lock while it looks at one: its number in
    # a lock is left from an earlier process of the same number.
    fields = text.split()
    if (len(fields) not in (2, 3) or not (fields[0].isascii() and fields[0].isdigit())
            or fields[1] != host or os.name != "posix"):
        return "unknown"    # made elsewhere, or not by the game: its age tells
    pid = int(fields[0])
    if pid >= 2 ** 31:
        return "unknown"    # no process has such a number: not written by a game
    if pid == os.getpid():
        return "gone"
    started = process_start(pid)
    if started is None:
        return "gone"
    if len(fields) == 2 or fields[2] == "-" or not started:
        return "unknown"    # an older version's lock, or a start not to be told
    return "alive" if started == fields[2] else "gone"     # else: a new process


def stale_why(age, unchanged, text, host):
    """Why a lock in the way was left by a game that stopped, or "" if it may be held."""
    # age: how long ago it was changed, by this computer's clock; unchanged:
    # how long this game has seen it as it is, by its own clock, which no
    # other computer's clock can confuse. A running game of this computer
    # holds its lock however long it takes (a paused game, a slow disk):
    # taking it from that game would lose what it saves.
    owner = owner_state(text, host)
    if owner == "alive":
        return ""
    if owner == "gone":
        return "its game is no longer running"
    if age > LOCK_STALE:
        return "made %.0f s ago" % age
    if age < -LOCK_STALE:
        # A share whose clock runs ahead, or a computer whose clock was set back.
        return "made %.0f s in the future" % -age
    if unchanged > LOCK_STALE:
        return "unchanged for %.0f s" % unchanged
    return ""


def stat_key(info):
    """What tells one version of a lock from another."""
    return (info.st_dev, info.st_ino, info.st_mtime_ns, info.st_size)


def make_lock(lock):
    """Make the lock; on any failure after it was made, close and remove it.
    What unlock and still_held need: (its path, its stat, what it says)."""
    text = lock_owner().encode("utf-8", "replace")
    handle = os.open(lock, MAKING, 0o644)
    try:
        try:
            if os.write(handle, text) != len(text):
                raise OSError(errno.ENOSPC, "the disk is full")
            made = os.fstat(handle)
        finally:
            os.close(handle)
    except BaseException:           # a full disk, or a stop signal just then
        try:
            os.remove(lock)
        except OSError:
            pass
        raise
    return lock, made, text


def lock_data(folder, wait=LOCK_WAIT):
    """Take the folder's lock within wait seconds, for unlock; else SaveError."""
    # Every way through ends within the wait, napping between looks.
    lock = os.path.join(folder, LOCK)
    begun = time.monotonic()
    seen_key, seen_since = None, begun
    while True:
        try:
            return make_lock(lock)
        except FileExistsError:
            pass
        except OSError as error:
            raise SaveError("cannot make %s: %s" % (lock, error.strerror or error))
        now = time.monotonic()
        if now - begun >= wait:
            raise SaveError("another game kept %s locked" % lock)
        try:
            seen = os.lstat(lock)
        except FileNotFoundError:
            seen = None             # it went away: try again after the nap
        except OSError as error:
            raise SaveError("cannot look at %s: %s" % (lock, error.strerror or error))
        if seen is not None and kind_of(seen):
            raise SaveError("%s is %s, not a lock the game made; remove it and the "
                            "game saves again" % (lock, kind_of(seen)))
        if seen is not None:
            if stat_key(seen) != seen_key:
                seen_key, seen_since = stat_key(seen), now
            try:
                text = (read_regular(lock, 200) or b"").decode("utf-8", "replace")
            except OSError:
                text = ""
            why = stale_why(time.time() - seen.st_mtime, now - seen_since, text,
                            socket.gethostname())
            if why and remove_stale(lock, seen, why):
                continue            # gone: take it at once
        time.sleep(LOCK_NAP)


def remove_stale(lock, seen, why):
    """Remove a stopped game's lock unless it changed since seen: True if it is gone."""
    try:
        if stat_key(os.lstat(lock)) != stat_key(seen):
            return False
        os.remove(lock)
    except FileNotFoundError:
        pass
    except OSError as error:
        raise SaveError("cannot remove %s, left by a game that stopped (%s): %s"
                        % (lock, why, error.strerror or error))
    return True


def still_held(held):
    """True if the lock is still the one this game made (from make_lock)."""
    # A new lock may be given the number on the disk of one removed, so
    # what it says is compared too.
    lock, made, text = held
    try:
        return same_file(os.lstat(lock), made) and read_regular(lock, 200) == text
    except OSError:
        return False


def unlock(held):
    """Let go of the lock, if it is still the one this game made."""
    if still_held(held):
        try:
            os.remove(held[0])
        except OSError:
            pass


# ---------------------------------------------------------------------------
# The console
# ---------------------------------------------------------------------------
def console_line(text, encoding):
    """A line as a console of this encoding can print it, whatever its paths hold."""
    # A path's byte that is not UTF-8 (a folder named J\xfcrgen on a UTF-8
    # computer) comes as a lone surrogate, which no console can print: it is
    # shown as \xfc. A letter the console lacks is shown as \u4e2d, say.
    text = PATH_BYTE.sub(lambda byte: "\\x%02x" % (ord(byte.group()) - 0xDC00), text)
    return text.encode(encoding, "backslashreplace").decode(encoding)


def tell(text):
    """Print a line on the console in a way that cannot fail."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    print(console_line(text, encoding))


# ---------------------------------------------------------------------------
# Reading and writing
# ---------------------------------------------------------------------------
def set_aside(path, why, what, say):
    """Move a bad file to a new NAME.bak (never over an earlier one); say so."""
    number, backup = 1, path + ".bak"
    while os.path.lexists(backup):
        number += 1
        backup = "%s.%d.bak" % (path, number)
    try:
        os.replace(path, backup)    # the name itself moves, even for a link
    except OSError as error:
        say("aside " + path, "minesweep: cannot read %s in %s (%s), and cannot "
            "move it aside (%s); it will not be saved." % (what, path, why, error))
        raise SaveError("cannot move %s aside" % path)
    tell("minesweep: %s in %s could not be read (%s); moved it to %s."
          % (what, path, why, backup))


def read_data(path, check, what, say, may_move=True):
    """What the file holds, or None if there is none; a file that check
    finds fault with (a text saying what is wrong), or that is not a
    regular file, is set aside (if may_move; else SaveError)."""
    try:
        data = read_regular(path, DATA_LIMIT)
    except OSError as error:        # a NotAFile says what is there instead
        value, fault = None, error
    else:
        if data is None:
            return None
        value, fault = parse(data)
        fault = fault or check(value)
    if not fault:
        return value
    if not may_move:
        say("unread " + path, "minesweep: cannot read %s in %s (%s); it is left "
            "as it is." % (what, path, fault))
        raise SaveError("cannot read %s" % path)
    set_aside(path, fault, what, say)
    return None


def parse(data):
    """A file's bytes as JSON: (value, "") or (None, what is wrong)."""
    if len(data) > DATA_LIMIT:
        return None, "larger than %d bytes" % DATA_LIMIT
    try:
        text = data.decode("utf-8")
        # json would recurse once a bracket: a deep file could overflow the
        # stack once a big board has raised Python's recursion limit.
        if wording.too_deep(text, DEEPEST):
            return None, "nested deeper than %d" % DEEPEST
        return json.loads(text, parse_constant=not_a_number,
                          parse_float=finite_number), ""
    except (ValueError, RecursionError) as error:
        return None, error


# NaN, Infinity and a number too large for a float (1e999) are read by
# Python's json but cannot be written back: a file holding one is not the
# game's, and is set aside before it could stop a save.
def not_a_number(word):
    """json's NaN, Infinity and -Infinity: refused."""
    raise ValueError("%s is not a number the game writes" % word)


def finite_number(text):
    """A JSON number with a point or an exponent, if it is finite."""
    number = float(text)
    if math.isinf(number) or math.isnan(number):
        raise ValueError("%s is too large a number" % text[:20])
    return number


def clean_leftovers(folder, say):
    """Remove the game's own temporary files left by saves stopped half-way."""
    for name in os.listdir(folder):
        if LEFTOVER.fullmatch(name) or OLD_LEFTOVER.fullmatch(name):
            path = os.path.join(folder, name)
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if kind_of(info):
                say("leftover " + path, "minesweep: %s is named like a temporary file "
                    "of the game's, but it is %s; it is left alone." % (path, kind_of(info)))
            elif left_over(name, time.time() - info.st_mtime):
                remove_regular(path)


def left_over(name, age):
    """True if a temporary file of this name, changed age s ago, is a
    leftover: its game has ended, or (an older version's) it is a day old."""
    # A running game's own file is never taken: it may be on its way to
    # its rename (a paused game, a slow disk).
    own = LEFTOVER.fullmatch(name)
    if own is None:
        return age > LEFTOVER_AGE   # another program may use tmpXXXXXXXX.tmp too
    pid = int(own.group(1))
    if pid == os.getpid():
        return True                 # this game saves one file at a time
    started = process_start(pid)
    return started is None or (started == "" and age > LEFTOVER_AGE)


def new_temporary(path):
    """A new temporary file beside path, made here and now: (descriptor, name)."""
    for number in range(1, 100):
        temp = "%s.%d%s.tmp" % (path, os.getpid(), "" if number == 1 else ".%d" % number)
        try:
            return os.open(temp, MAKING, 0o666), temp
        except FileExistsError:
            continue                # a name left by someone else: take another
    raise OSError(errno.EEXIST, "no free name for a temporary file beside %s" % path)


def sync_folder(folder):
    """Flush a folder's list of files to the disk, where the system can."""
    if not hasattr(os, "O_DIRECTORY"):
        return                      # Windows cannot open a folder to flush it
    try:
        handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass                        # some file systems cannot flush a folder
    finally:
        os.close(handle)


def write_data(path, value, held=None):
    """Write a file whole or not at all: a flushed temporary file, then a
    rename, if the lock is still held (held, from lock_data; SaveError if not)."""
    # The folder is flushed after the rename, so that the new name is on
    # the disk too: a power cut leaves the old file or the new one.
    text = json.dumps(value, indent=1, sort_keys=True, allow_nan=False).encode("utf-8")
    handle, temp = new_temporary(path)
    try:
        with os.fdopen(handle, "wb") as f:
            # Made like any new file (the umask applies); an old file's mode is kept.
            try:
                old = os.lstat(path)
            except FileNotFoundError:
                old = None
            if old is not None and not kind_of(old):
                if hasattr(os, "fchmod"):
                    os.fchmod(f.fileno(), stat.S_IMODE(old.st_mode))
                else:
                    os.chmod(temp, stat.S_IMODE(old.st_mode))
            f.write(text)
            f.flush()
            os.fsync(f.fileno())    # on the disk before the rename points to it
        if held is not None and not still_held(held):
            # Another game took the lock while this one was stopped: it may
            # have saved since, and this file would put back what it replaced.
            raise SaveError("another game took %s while this one was saving"
                            % held[0])
        os.replace(temp, path)
    except BaseException:           # a full disk, or a stop signal just then
        remove_regular(temp)        # leave no half-written file behind
        raise
    sync_folder(os.path.dirname(path))


def with_data(folder, name, check, what, change, say, wait=LOCK_WAIT):
    """Under the lock: read a file of the game's, let change(value) say what
    to write (a new value, or None for nothing), and write it. change's value."""
    path = data_file(folder, name)
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as error:
        raise SaveError(str(error))
    held = lock_data(folder, wait)
    try:
        clean_leftovers(folder, say)
        new = change(read_data(path, check, what, say))
        if new is not None:
            write_data(path, new, held)
        return new
    except (OSError, ValueError) as error:      # ValueError: what JSON cannot hold
        raise SaveError(str(error))
    finally:
        unlock(held)


# When the lock cannot be had, the files are read without it (a save
# replaces a file whole, so a read sees one version or the other), and a
# bad one is left where it is instead of being set aside.
def read_files(folder, wanted, say):
    """Files [(name, check, what)] under one lock: ({name: good value}, [unread names])."""
    found, unread = {}, []
    if folder is None:
        return found, unread
    paths = {name: data_file(folder, name) for name, check, what in wanted}
    if not any(os.path.lexists(path) for path in paths.values()):
        return found, unread        # nothing to read, and no folder made to look
    try:
        held = lock_data(folder)
    except SaveError:
        held = None
    try:
        for name, check, what in wanted:
            try:
                value = read_data(paths[name], check, what, say, held is not None)
            except SaveError:
                unread.append(name)
            else:
                if value is not None:
                    found[name] = value
    finally:
        if held is not None:
            unlock(held)
    return found, unread


def read_start(folder, say):
    """Start-up's files under one lock: (the language chosen last, the kept
    game), or None."""
    found, unread = read_files(folder, [(SETTINGS, settings_fault, "the settings"),
                                        (KEPT, kept_fault, "the saved game")], say)
    return found.get(SETTINGS, {}).get("language"), found.get(KEPT)


# A worksheet (--calls) is written where the user says, but only over a
# regular file or as a new one: a named pipe would make the game wait for a
# reader, and one of the game's own files would be lost under it.
def sheet_fault(path, guarded, data=()):
    """Why a file the user asked for may not be written at path, or "":
    guarded holds folders (each of their files) and files that it may not
    replace, told by same-file identity (a link or a hard link is no way in);
    data holds the data folders, where no name the game uses may be
    written, whether or not its file is there yet."""
    real = os.path.realpath(path)           # where a link leads
    for place in data:
        if place is not None and data_name(os.path.basename(real)) and \
                in_folder(os.path.dirname(real), place):
            return "it is %s, a name of the game's own files in its data folder" % real
    try:
        there = os.stat(path)       # a link counts as what it points to
    except FileNotFoundError:
        return ""                   # a new file
    except OSError as error:
        return error.strerror or str(error)
    if kind_of(there):
        return "it is %s, not a file" % kind_of(there)
    for place in guarded:
        if place is None:
            continue
        try:
            names = [os.path.join(place, name) for name in os.listdir(place)]
        except OSError:
            names = [place]         # a file, or a folder that is not there
        for name in names:
            try:
                if same_file(os.stat(name), there):
                    return "it is %s, one of the game's own files" % name
            except OSError:
                continue
    return ""


def sheets_refused(paths, data, own):
    """The line to stop with when a worksheet may not be written at one of
    paths (its calls, then its board's map), or "": data is the data folder
    (or None), own the game's own files and folders."""
    for path in paths:
        fault = sheet_fault(path, [data] + own, [data])
        if fault:
            return "minesweep: cannot write the calls to %s: %s" % (path, fault)
    return ""


def data_name(name):
    """Whether the game uses name in its data folder: its files, their
    set-aside copies and its temporary files."""
    names = (LOCK, TIMES, SETTINGS, KEPT)
    return (name in names or name.startswith(tuple(own + "." for own in names))
            or OLD_LEFTOVER.fullmatch(name) is not None)


def in_folder(folder, place):
    """Whether folder is the folder place (by its real path, or, where both
    are there, as the same folder)."""
    if os.path.realpath(folder) == os.path.realpath(place):
        return True
    try:
        return same_file(os.stat(folder), os.stat(place))
    except OSError:
        return False


def write_whole(files):
    """Write files [(path, bytes)], each whole: each into a new temporary
    file beside it (beside the file a link leads to), all of them flushed
    before the first is renamed over its path, so a full disk or a stop
    while writing changes none of them (only a rename refused, or a stop,
    between two renames would leave one new). Whatever was made at a path meanwhile (a named
    pipe) is replaced, never opened."""
    made = []
    try:
        for path, data in files:
            target = os.path.realpath(path)
            handle, temp = new_temporary(target)
            made.append((temp, target))
            with os.fdopen(handle, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        for temp, target in made:
            os.replace(temp, target)
    except BaseException:           # a full disk, or a stop signal just then
        for temp, _ in made:
            remove_regular(temp)
        raise


# ---------------------------------------------------------------------------
# Best times
# ---------------------------------------------------------------------------
def good_time(seconds):
    """True for a time the game writes: 0 (a first click can win at once,
    in no time) to MAX_TIME, where the timer stops."""
    # A longer time, such as a number of 400 digits, could not be shown.
    return is_seconds(seconds, MAX_TIME)


def good_date(text):
    """True for a day as the game writes it: a real date, YYYY-MM-DD."""
    if not (isinstance(text, str) and DATE.fullmatch(text)):
        return False
    try:
        datetime.date(int(text[:4]), int(text[5:7]), int(text[8:]))
    except ValueError:
        return False
    return True


def good_record(record):
    """True for one level's record: a time, or (since dates were kept) a
    time and the day it was set."""
    if isinstance(record, dict):
        return (set(record) == {"time", "date"} and good_time(record["time"])
                and good_date(record["date"]))
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
    """Best times by level ({} if there are none), or None if they cannot be read."""
    found, unread = read_files(folder, [(TIMES, times_fault, "best times")], say)
    return None if unread else found.get(TIMES, {})


def record_win(folder, level, game, say):
    """Keep a won game's time (a gamestate.Game on a level, or None) if it
    may set a record: as record_best_time says, or None if it may not."""
    # A game the solver helped with sets no record, and a no-guess board or
    # a win by flags is a different game: their times are kept apart.
    if game.assisted or game.undos or level is None:
        return None
    kind = FLAGWIN_RECORD if game.flagwon else NOGUESS_RECORD if game.noguess else "%s"
    return record_best_time(folder, kind % level, game.timer, say)


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
    good = isinstance(value, dict) and value.get("language") in LANGUAGES
    return "" if good else "not the game's settings"


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
    """A whole number, 0 to MAX_COUNT."""
    # A number of 4000 digits would take the end screen seconds to work with.
    return (isinstance(value, int) and not isinstance(value, bool)
            and 0 <= value <= MAX_COUNT)


def is_flag(value):
    """True or False."""
    return isinstance(value, bool)


def is_seconds(value, most):
    """A time in seconds, 0 to most."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and 0 <= value <= most)


# In KEPT_FIELDS: a field every kept game has had (so a value of None can
# still be a field's first value): an object of its own, equal to no value.
ALWAYS = object()
# The fields of a game kept besides its board: name, a check of its value
# ("seconds" is checked against the timer's limit), whose it is (the game's
# own, or a setting that came with it) and its value in the first saves
# that lacked it (ALWAYS: it was always there). Then each choice a kept
# game keeps (gamestate.CHOICES): a game kept before it was kept had it off.
KEPT_FIELDS = (
    ("timer", "seconds", "game", ALWAYS),
    ("clicks", is_count, "game", ALWAYS),
    ("undos", is_count, "game", ALWAYS),
    ("assisted", is_flag, "game", ALWAYS),
    ("noguess", is_flag, "game", False),
) + tuple((choice.name, is_flag, "settings", False) for choice in CHOICES.values()
          if choice.kept)


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
    if value["board"] is None:          # a kept game always has its number
        fault = "it has no board number"
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
        if name not in value and first is not ALWAYS:
            continue
        if name not in value or not (is_seconds(value[name], MAX_TIME)
                                     if check == "seconds" else check(value[name])):
            return "not a saved game"
    return play_fault(marks, value)


def play_fault(marks, value):
    """Why a well-formed kept game is not one in progress that play could reach, or ""."""
    tiles = kept_tiles(value)
    if won(tiles, False):
        return "a game that is already over: every safe tile is open"
    if value.get("flagwin") and won(tiles, True):
        return "a game that is already over: exactly the bombs are flagged (flag win)"
    # The bombs are laid at the first click, which opens a tile and counts.
    if "o" not in marks or value["clicks"] < 1 or value["undos"] > value["clicks"]:
        return "a game that play could not have reached"
    return ""


def kept_game(board, number, owners):
    """A game as the kept file holds it: its board (a gamestate.Board) and
    board number; owners holds the objects whose attributes KEPT_FIELDS are
    ({"game": ..., "settings": ...})."""
    cells = range(board.rows * board.cols)
    marks = "".join("o" if cell in board.opened else "F" if cell in board.flagged else
                    "?" if cell in board.questioned else "." for cell in cells)
    game = {"format": SAVE_FORMAT, "rows": board.rows, "cols": board.cols,
            "bombs": board.bombs, "board": number, "marks": marks,
            "under": "".join("*" if cell in board.bomb_cells else "." for cell in cells)}
    for name, check, whose, first in KEPT_FIELDS:
        value = getattr(owners[whose], name)
        game[name] = round(value, 3) if check == "seconds" else value
    return game


# A tile of a kept game, as the game's own tiles name what they know.
KeptTile = namedtuple("KeptTile", "isbomb isopen isflag isquestion")


def kept_tiles(game):
    """The tiles of a kept game, in row order: a KeptTile each."""
    return [KeptTile(under == "*", mark == "o", mark == "F", mark == "?")
            for under, mark in zip(game["under"], game["marks"])]


def kept_bombs(game):
    """Where a kept game's bombs are: [(row, col)]."""
    return [divmod(cell, game["cols"]) for cell, under in enumerate(game["under"])
            if under == "*"]


def kept_facts(game):
    """What the offer of a kept game says of it: its level, its board number
    and the whole seconds played."""
    return {"level": board_words(game["rows"], game["cols"], game["bombs"]),
            "board": game["board"], "seconds": int(game["timer"])}


# When the window closes the game says whether it was kept; while a game is
# played it waits only a moment for another game's save, and says only a
# failure, once.
def keep_game(folder, game, say, closing=True):
    """Keep a game (as kept_game makes it) for the next start: True if it was kept."""
    if kept_fault(game):            # it would only be set aside at the next start
        if closing:
            tell("minesweep: cannot keep this game: %s" % kept_fault(game))
        return False
    try:
        with_data(folder, KEPT, kept_fault, "the saved game", lambda old: game, say,
                  LOCK_WAIT if closing else LOCK_MOMENT)
    except SaveError as error:
        if closing:
            tell("minesweep: cannot keep this game: %s" % error)
        else:
            say("keep", "minesweep: cannot keep this game for now: %s" % error)
        return False
    if closing:
        tell("minesweep: this game is kept; start the game again to go on")
    return True


def forget_game(folder, game, say):
    """Remove the kept file of a game that ended or was left, if it still
    holds that game."""
    # Another window may have kept its own game there since.
    if folder is None:
        return
    try:
        held = lock_data(folder, LOCK_MOMENT)
    except SaveError:
        return                      # it stays; at worst it is offered once more
    try:
        path = data_file(folder, KEPT)
        if read_data(path, kept_fault, "the saved game", say, False) == game:
            os.remove(path)
    except (OSError, SaveError):
        pass
    finally:
        unlock(held)


def put_fields(game, owners):
    """Put back the KEPT_FIELDS of a kept game, on the objects of owners
    ({"game": ..., "settings": ...})."""
    for name, (whose, value) in kept_fields(game).items():
        setattr(owners[whose], name, value)


def kept_fields(game):
    """The KEPT_FIELDS of a kept game, as {name: (whose, value)}."""
    return {name: (whose, game.get(name, first))
            for name, check, whose, first in KEPT_FIELDS}
