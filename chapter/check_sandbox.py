"""A student's program, run where it can spoil nothing but its own verdict.

check.py (the teacher's side) asks a child process, check_sections.py, to
check programs; that child forks one process for each program, which runs
the program and writes what it found into a pipe of its own. This module
holds both sides of that arrangement, and the walls around each program:

- Each program runs in a process of its own, in a process group of its
  own away from the checker's terminal (setsid), in a work folder holding a copy of it and its pictures
  and sounds. Everything it starts ends with its check: the group is killed
  whole, and on Linux the child that forks the checks is the "subreaper" of
  all they start, so a process that left the group is found and killed too.
  On Windows, where nothing forks, the child puts itself in a job object
  that kills every process in it when the child ends.
- On Linux 5.13 and newer, Landlock confines each program: it may write
  only in its work folder, and read only that folder, Python's and the
  game's libraries and the system's; it cannot look into another process
  (so not at the pipes that carry the answers), and from Linux 6.12 it
  cannot send a signal outside its own processes or open a TCP connection.
  A file it may not touch gives it Python's PermissionError.
- The answers travel through pipes, never through files a program could
  find; each answer carries the token of its question, and an answer that
  does not come in time is that program's time-out. A check that is stopped
  from outside, or a child that stops answering, costs one program at most,
  and that program is checked again once.
"""
import ctypes
import ctypes.util
import json
import os
import secrets
import select
import signal
import subprocess
import sys
import time

# The start of the name of each program's work folder (check.py makes it).
WORK_PREFIX = "minesweep-check-"
# A whole check may write this much of findings; more is no checker's.
MOST_ANSWER = 4 * 1024 * 1024
# How long after a program's own time the parent still waits for its answer.
GRACE_SECONDS = 15
# How often a waiting process looks again, in seconds.
POLL = 0.02


# ------------------------------------------------------------ Landlock

# The system calls and constants of Landlock (linux/landlock.h); the calls'
# numbers are the same on every architecture Linux has added them for.
CREATE_RULESET, ADD_RULE, RESTRICT_SELF = 444, 445, 446
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36

FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
FS_TRUNCATE, FS_IOCTL_DEV = 1 << 14, 1 << 15
# The rights Landlock knows of files and folders, by its version: each
# version added some (refer, truncate, device ioctl).
FS_RIGHTS = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 4: (1 << 15) - 1,
             5: (1 << 16) - 1}
# Rights that can be given on a file, not only on a folder.
FILE_RIGHTS = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV
READ_RIGHTS = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR
NET_TCP = 3                     # binding and connecting TCP ports (version 4)
SCOPE_ALL = 3                   # abstract unix sockets and signals (version 6)
# The system's own libraries, and the devices a program may use.
SYSTEM_FOLDERS = ("/usr", "/lib", "/lib32", "/lib64", "/libx32", "/opt/homebrew")
DEVICES = {"/dev/null": FS_READ_FILE | FS_WRITE_FILE | FS_TRUNCATE,
           "/dev/full": FS_READ_FILE | FS_WRITE_FILE | FS_TRUNCATE,
           "/dev/zero": FS_READ_FILE, "/dev/urandom": FS_READ_FILE,
           "/dev/random": FS_READ_FILE}


class RulesetAttr(ctypes.Structure):
    """struct landlock_ruleset_attr: what the ruleset handles."""
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class PathBeneath(ctypes.Structure):
    """struct landlock_path_beneath_attr (packed): a folder or file, and its rights."""
    _pack_ = 1
    _fields_ = [("allowed", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def libc():
    """The C library, or None where it cannot be had (Windows)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True)
    except (OSError, TypeError):
        return None


def landlock_version():
    """The version of Landlock this system has; 0 where it has none."""
    c = libc()
    if c is None:
        return 0
    try:
        version = c.syscall(CREATE_RULESET, None, ctypes.c_size_t(0),
                            ctypes.c_uint32(CREATE_RULESET_VERSION))
    except (AttributeError, OSError):
        return 0
    return max(version, 0)


def confinement(version=None):
    """What this computer can keep a checked program from, by its Landlock
    version: 'all' (files, other processes, signals, the network),
    'files' (files and other processes only) or 'none'."""
    version = landlock_version() if version is None else version
    if version >= 6:
        return "all"
    return "files" if version >= 1 else "none"


def library_folders(avoid):
    """The folders Python and the game's libraries are read from: Python's
    own, and those on its path, but none that holds a folder of avoid (the
    teacher's home, the checker's folder, the programs' folders), where a
    path entry such as the current folder would open them all."""
    found = [getattr(sys, name, "") for name in ("prefix", "base_prefix", "exec_prefix",
                                                 "base_exec_prefix")]
    found += [entry for entry in sys.path if entry]
    avoid = [os.path.realpath(place) for place in avoid if place]
    folders = []
    for folder in found:
        real = os.path.realpath(folder)
        if not os.path.isdir(real) or real in folders:
            continue
        if any(inside(place, real) for place in avoid):
            continue
        folders.append(real)
    return folders


def inside(path, folder):
    """Whether path is folder or lies in it."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def confine(work, reads):
    """Landlock this process (and all it will start): write only in work,
    read work and the folders reads; no look into other processes, and
    where the system can, no signal outside its own and no TCP. True if
    confined; False where the system cannot (nothing changes then)."""
    c = libc()
    version = landlock_version()
    if c is None or version < 1:
        return False
    rights = FS_RIGHTS[min(version, 5)]
    attr = RulesetAttr(rights, NET_TCP if version >= 4 else 0,
                       SCOPE_ALL if version >= 6 else 0)
    size = ctypes.sizeof(RulesetAttr) if version >= 6 else (
        16 if version >= 4 else 8)
    ruleset = c.syscall(CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size),
                        ctypes.c_uint32(0))
    if ruleset < 0:
        return False
    try:
        places = [(work, rights)] + [(folder, READ_RIGHTS) for folder in reads]
        places += [(folder, READ_RIGHTS) for folder in SYSTEM_FOLDERS]
        places += list(DEVICES.items())
        for path, allowed in places:
            allow(c, ruleset, path, allowed & rights)
        if c.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return False
        return c.syscall(RESTRICT_SELF, ruleset, ctypes.c_uint32(0)) == 0
    finally:
        os.close(ruleset)


def allow(c, ruleset, path, allowed):
    """One rule: path (a folder and all in it, or a file) with rights
    allowed. A path that is not there is left out."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if not os.path.isdir(path):
            allowed &= FILE_RIGHTS
        rule = PathBeneath(allowed, fd)
        c.syscall(ADD_RULE, ruleset, RULE_PATH_BENEATH, ctypes.byref(rule), ctypes.c_uint32(0))
    finally:
        os.close(fd)


def never_looked_into():
    """On Linux, make this process's memory and open files (the pipes of
    the answers) closed to other processes of the same user, as they are
    for a program that holds secrets: without Landlock too, a checked
    program cannot reach them through /proc."""
    c = libc()
    if c is not None:
        c.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def adopt_leftovers():
    """On Linux: become the parent of every process our children leave
    behind, instead of the system's first process."""
    c = libc()
    if c is not None:
        c.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


# --------------------------------------------------- the end of a check


def own_children():
    """The process ids of this process's children (on Linux, from /proc;
    elsewhere none are known)."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    me, found = str(os.getpid()), []
    for name in names:
        if name.isdigit() and parent_of(name) == me:
            found.append(int(name))
    return found


def stat_fields(pid):
    """The fields of /proc/PID/stat after the process's name (state
    first), or [] where they cannot be read."""
    try:
        with open("/proc/%s/stat" % pid, encoding="ascii", errors="replace") as f:
            return f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def parent_of(pid):
    """The parent's process id of process pid, as text, or ''."""
    fields = stat_fields(pid)
    return fields[1] if len(fields) > 1 else ""


def is_stopped(pid):
    """Whether process pid is stopped (by SIGSTOP, say); False where that
    cannot be told."""
    fields = stat_fields(pid)
    return bool(fields) and fields[0] in ("T", "t")


def end_leftovers(group):
    """End every process a check left behind: its process group, and any
    child of ours (a process that left the group, adopted by us)."""
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass
    for _ in range(50):             # each round ends those the last one left
        children = own_children()
        if not children:
            return
        for child in children:
            try:
                os.kill(child, signal.SIGKILL)
            except OSError:
                pass
        for child in children:
            try:
                os.waitpid(child, 0)
            except ChildProcessError:
                pass


def wake_parent():
    """A parent that a program stopped (where signals are not confined) is
    started again: the teacher's Ctrl+Z stops this process too, so a
    stopped parent seen from here is a program's doing."""
    parent = os.getppid()
    if parent > 1 and is_stopped(parent):
        try:
            os.kill(parent, signal.SIGCONT)
        except OSError:
            pass


# ---------------------------------------------------- the forked check


def check_forked(question, seconds, check, avoid, each_line=None):
    """Check one program in a process forked from this one, in a process
    group of its own (setsid), confined; the answer: {'token', 'status', 'found'}. status
    is 'done', 'timeout' (out of time, or stopped) or 'died' (ended by a
    signal not ours). Nothing it started is left running."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:                                    # the checked program's process
        os.close(read_end)
        run_confined(question, write_end, check, avoid)
    os.close(write_end)
    try:
        status, data = wait_for(pid, read_end, seconds, each_line)
    finally:
        os.close(read_end)
        end_leftovers(pid)
    return {"token": question["token"], "status": status, "found": findings(data)}


def run_confined(question, answers, check, avoid):
    """In the forked process: its own process group (setsid), no console, every
    other open file closed, the walls up, then the check. Never returns."""
    try:
        os.setsid()
        nowhere = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(nowhere, fd)
        os.closerange(3, answers)
        os.closerange(answers + 1, 1 << 16)
        work = os.path.dirname(question["work"])
        confined = confine(work, library_folders(avoid))
        os.chdir(work)

        def write(finding):
            """One finding, one line into the pipe of the answers."""
            data = (json.dumps(finding, ensure_ascii=True) + "\n").encode("ascii")
            while data:
                data = data[os.write(answers, data):]

        options = question.get("options")
        check(question["program"], question["work"], write, confined,
              options if isinstance(options, dict) else {})
    finally:
        os._exit(0)


def wait_for(pid, pipe, seconds, each_line=None):
    """Read a forked check's findings until it ends, or stop it after
    seconds, or at once if it was stopped: (status, the bytes read). Each
    complete line is handed to each_line as it comes (the class's live page
    shows a failing section before its line is proven)."""
    deadline = time.monotonic() + seconds
    data, status = bytearray(), None
    last_look, told = 0.0, 0
    while status is None:
        ready, _, _ = select.select([pipe], [], [], POLL)
        if ready:
            data += read_some(pipe, MOST_ANSWER + 1 - len(data))
            end = data.rfind(b"\n") + 1
            if each_line is not None and end > told:
                for line in bytes(data[told:end]).splitlines():
                    each_line(line)
                told = end
        ended, code = os.waitpid(pid, os.WNOHANG | os.WUNTRACED)
        if ended and os.WIFSTOPPED(code):
            status = "timeout"                       # a stopped check is out of time
        elif ended:
            status = "died" if os.WIFSIGNALED(code) else "done"
        elif time.monotonic() > deadline:
            status = "timeout"
        if time.monotonic() - last_look > 0.5:
            last_look = time.monotonic()
            wake_parent()
    if status == "timeout":
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        os.waitpid(pid, 0)
    # What the check wrote just before it ended (a process it left behind
    # may hold the pipe open: only what is there now is read).
    while len(data) <= MOST_ANSWER and select.select([pipe], [], [], 0)[0]:
        more = read_some(pipe, MOST_ANSWER + 1 - len(data))
        if not more:
            break
        data += more
    return status, bytes(data)


def read_some(pipe, most):
    """Up to most bytes from the pipe (at least one byte is asked, so that
    more than enough is noticed); b'' at its end."""
    try:
        return os.read(pipe, max(1, min(most, 65536)))
    except OSError:
        return b""


def findings(data):
    """The findings a check wrote, a line each; None if anything in them
    is not a line the checker writes (too much, or not JSON)."""
    if len(data) > MOST_ANSWER:
        return None
    found = []
    for line in data.split(b"\n")[:-1]:         # the part after the last newline is cut off
        try:
            found.append(json.loads(line.decode("ascii")))
        except (ValueError, UnicodeDecodeError, RecursionError):
            return None
    return found


# ------------------------------------------------------------ the child


def serve(seconds, check, avoid):
    """check_sections.py --serve: answer each question on stdin (a JSON
    object a line: token, program, work) with a line on stdout, checking
    each program in a process forked from this one, which has imported
    pygame already (most of a check's start)."""
    never_looked_into()
    adopt_leftovers()
    import pygame  # noqa: F401  (imported, not started: each child starts it)
    answers = sys.stdout
    for line in sys.stdin:
        question = parsed(line)
        if question is None:
            continue
        def progress(line, token=question["token"]):
            """A finding as it comes, told to the checker at once."""
            found = findings(line + b"\n")
            if found:
                answers.write(json.dumps({"token": token, "finding": found[0]}) + "\n")
                answers.flush()

        answer = check_forked(question, seconds, check, avoid, progress)
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


def parsed(line):
    """A question as the checker asks it (its token, the program's name, and
    its copy in a work folder the checker made), or None."""
    try:
        question = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(question, dict) or not all(
            isinstance(question.get(key), str) for key in ("token", "program", "work")):
        return None
    work = os.path.dirname(question["work"])
    if not os.path.basename(work).startswith(WORK_PREFIX) or not os.path.isdir(work):
        return None
    return question


def serve_alone(argv, check):
    """check_sections.py --alone SECONDS PROGRAM WORK_FILE, where nothing
    can fork (Windows): check in this process, in a job object that ends
    whatever the program starts when this process ends, and print the one
    answer."""
    program, work_file = argv[1], argv[2]       # argv[0], the time, is the parent's to keep
    hold_job = kill_on_close_job()
    # The answer goes out through a copy of stdout; the program's own
    # prints go nowhere.
    answers = os.dup(1)
    nowhere = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(nowhere, fd)
    found = []

    def write(finding):
        """One finding, kept for the answer."""
        found.append(finding)

    del sys.argv[1:]            # the program sees only its own name
    os.chdir(os.path.dirname(work_file))
    try:
        check(program, work_file, write, False, {})
    finally:
        data = json.dumps({"token": "", "status": "done", "found": found}) + "\n"
        os.write(answers, data.encode("ascii"))
        del hold_job
        os._exit(0)


# Windows' job objects (kernel32), for a child that cannot fork.
JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE = 0x2000
JOB_OBJECT_EXTENDED_LIMIT_INFORMATION = 9


class IoCounters(ctypes.Structure):
    """IO_COUNTERS."""
    _fields_ = [(name, ctypes.c_uint64) for name in (
        "ReadOperationCount", "WriteOperationCount", "OtherOperationCount",
        "ReadTransferCount", "WriteTransferCount", "OtherTransferCount")]


class BasicLimits(ctypes.Structure):
    """JOBOBJECT_BASIC_LIMIT_INFORMATION."""
    _fields_ = [("PerProcessUserTimeLimit", ctypes.c_int64),
                ("PerJobUserTimeLimit", ctypes.c_int64),
                ("LimitFlags", ctypes.c_uint32),
                ("MinimumWorkingSetSize", ctypes.c_size_t),
                ("MaximumWorkingSetSize", ctypes.c_size_t),
                ("ActiveProcessLimit", ctypes.c_uint32),
                ("Affinity", ctypes.c_size_t),
                ("PriorityClass", ctypes.c_uint32),
                ("SchedulingClass", ctypes.c_uint32)]


class ExtendedLimits(ctypes.Structure):
    """JOBOBJECT_EXTENDED_LIMIT_INFORMATION."""
    _fields_ = [("BasicLimitInformation", BasicLimits),
                ("IoInfo", IoCounters),
                ("ProcessMemoryLimit", ctypes.c_size_t),
                ("JobMemoryLimit", ctypes.c_size_t),
                ("PeakProcessMemoryUsed", ctypes.c_size_t),
                ("PeakJobMemoryUsed", ctypes.c_size_t)]


def kill_on_close_job():
    """On Windows: put this process in a new job object that kills every
    process in it when its last handle closes, that is when this process
    ends; the handle (keep it), or None where there are no job objects."""
    windll = getattr(ctypes, "windll", None)
    if windll is None:
        return None
    kernel32 = windll.kernel32
    job = kernel32.CreateJobObjectW(None, None)
    if not job:
        return None
    limits = ExtendedLimits()
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
    if not kernel32.SetInformationJobObject(job, JOB_OBJECT_EXTENDED_LIMIT_INFORMATION,
                                            ctypes.byref(limits), ctypes.sizeof(limits)):
        return None
    if not kernel32.AssignProcessToJobObject(job, kernel32.GetCurrentProcess()):
        return None
    return job


# ----------------------------------------------------------- the parent


class Server:
    """The teacher's side of a child that forks a confined process for each
    program (where the system can fork: not on Windows)."""

    def __init__(self, child, seconds, env):
        self.seconds = seconds
        self.process = subprocess.Popen(
            [sys.executable, child, "--serve", str(seconds)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, bufsize=0,
            start_new_session=True)
        self.pending = bytearray()
        self.on_finding = None

    def check(self, program, work_file, on_finding=None, options=None):
        """Check one program: its answer {'status', 'found'}, or None if
        this server failed (ended, stopped, or silent past the time). Each
        finding is handed to on_finding as the check writes it; options go
        to the check (repair_seconds: how long its repair search may take)."""
        token = secrets.token_hex(16)
        question = json.dumps({"token": token, "program": program, "work": work_file,
                               "options": options or {}})
        self.on_finding = on_finding
        try:
            self.process.stdin.write(question.encode("utf-8") + b"\n")
        except OSError:
            return None
        deadline = time.monotonic() + self.seconds + GRACE_SECONDS
        while time.monotonic() < deadline:
            answer = self.answer_to(token)
            if answer is not None:
                return answer
            if self.process.poll() is not None or is_stopped(self.process.pid):
                return None
            ready, _, _ = select.select([self.process.stdout], [], [], 0.1)
            if ready and not self.read_more():
                return None
        return None

    def read_more(self):
        """Read what the server wrote; False at its end."""
        more = read_some(self.process.stdout.fileno(), 1 << 20)
        self.pending += more
        if len(self.pending) > 4 * MOST_ANSWER:      # not the server's writing
            self.pending.clear()
        return bool(more)

    def answer_to(self, token):
        """The answer with token among the complete lines read, or None;
        lines before it (none the server writes) are dropped."""
        while b"\n" in self.pending:
            line, _, rest = bytes(self.pending).partition(b"\n")
            self.pending = bytearray(rest)
            try:
                answer = json.loads(line.decode("utf-8"))
            except (ValueError, UnicodeDecodeError, RecursionError):
                continue
            if not isinstance(answer, dict) or answer.get("token") != token:
                continue
            if "finding" not in answer:
                return answer
            if callable(getattr(self, "on_finding", None)):
                self.on_finding(answer["finding"])
        return None

    def close(self):
        """End the server, at once if it does not end by itself."""
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=0 if is_stopped(self.process.pid) else 10)
        except subprocess.TimeoutExpired:
            pass
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()


def run_alone(child, seconds, work_file, program, env):
    """Check one program in a process of its own, where nothing can fork
    (Windows): its answer {'status', 'found'}; the process is ended after
    its time."""
    process = subprocess.Popen(
        [sys.executable, child, "--alone", str(seconds), program, work_file],
        cwd=os.path.dirname(work_file), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, env=env)
    try:
        out, _ = process.communicate(timeout=seconds + GRACE_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return {"status": "timeout", "found": []}
    for line in reversed(out.splitlines()):
        try:
            answer = json.loads(line.decode("utf-8"))
        except (ValueError, UnicodeDecodeError, RecursionError):
            continue
        if isinstance(answer, dict) and "found" in answer:
            return answer
    return {"status": "died" if process.returncode else "done", "found": []}


# ------------------------------------------- the process a program runs in


def speed_up_actors():
    """Reading an Actor's left, top, x or y is slow in Pygame Zero 1.2
    (every read goes through __getattr__); the same values, read directly,
    make the book's open_block three to five times faster here."""
    from pgzero.actor import Actor
    if not hasattr(Actor, "DELEGATED_ATTRIBUTES") or not all(
            isinstance(Actor.__dict__.get(name), property) for name in ("x", "y")):
        return                     # another Pygame Zero: leave its Actor as it is
    Actor.DELEGATED_ATTRIBUTES = frozenset(Actor.DELEGATED_ATTRIBUTES)
    for name in Actor.DELEGATED_ATTRIBUTES:
        if name not in Actor.__dict__:
            setattr(Actor, name, property(lambda self, name=name: getattr(self._rect, name)))
    # x and y, read up to sixteen times a tile in the book's get_neighbours,
    # are kept in the tile's own __dict__ once worked out, and forgotten
    # whenever anything of the tile is set.
    setters = {"x": Actor.x.fset, "y": Actor.y.fset}
    plain_set = Actor.__setattr__

    def set_and_forget(self, name, value):
        """Set name as Pygame Zero does, and forget the x and y kept."""
        kept = self.__dict__
        kept.pop("x", None)
        kept.pop("y", None)
        if name in setters:
            setters[name](self, value)
        else:
            plain_set(self, name, value)
        kept.pop("x", None)
        kept.pop("y", None)

    Actor.__setattr__ = set_and_forget
    Actor.x = KeptPosition(0)
    Actor.y = KeptPosition(1)


class KeptPosition:
    """An Actor's x or y, worked out as Pygame Zero does and then kept in
    the tile's __dict__, where the next read finds it at once."""

    def __init__(self, axis):
        self.axis = axis
        self.name = "xy"[axis]

    def __get__(self, actor, owner=None):
        if actor is None:
            return self
        rect = actor._rect
        value = (rect.x, rect.y)[self.axis] + actor._anchor[self.axis]
        actor.__dict__[self.name] = value
        return value


def stoppable_tk(time_up):
    """Tk's mainloop waits inside Tcl, where the time limit's signal is
    never seen (time_up, called between its events, raises when it is up): a program that opens a Tk window would keep it open until
    the whole check's limit. Here Tk's loop handles one event at a time in
    Python, and stops at the limit of the section it runs in."""
    try:
        import tkinter
    except ImportError:
        return

    def alive(tk):
        """Whether Tk's main window is still there."""
        try:
            return bool(tk.getboolean(tk.call("winfo", "exists", ".")))
        except tkinter.TclError:
            return False

    def mainloop(widget=None, n=0):
        """Tk's events, handled until its window closes or the time is up."""
        root = widget or getattr(tkinter, "_default_root", None)
        if root is None:
            raise RuntimeError("too early to run the main loop: no Tk window")
        tk = root.tk
        while alive(tk):
            time_up()
            if not tk.dooneevent(tkinter._tkinter.DONT_WAIT):
                time.sleep(0.01)

    tkinter.Misc.mainloop = mainloop
    tkinter.mainloop = lambda n=0: mainloop(None, n)


def limit_memory(memory, cpu_seconds, file_bytes):
    """At most memory bytes, cpu_seconds of processor time and files of
    file_bytes, where the system can say so (not on Windows): a program
    that fills the memory gets a MemoryError, not the whole computer."""
    try:
        import resource
    except ImportError:
        return
    for name, value in (("RLIMIT_AS", memory), ("RLIMIT_CPU", cpu_seconds),
                        ("RLIMIT_FSIZE", file_bytes)):
        which = getattr(resource, name, None)
        if which is None:
            continue
        soft, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        try:
            resource.setrlimit(which, (value, hard))
        except (ValueError, OSError):
            pass
