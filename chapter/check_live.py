"""The class, live: a page on the teacher's computer that shows, while the
students save their programs, how far each one got and what the class is
stuck on now.

    python chapter/check.py --watch FOLDER [--html REPORT.html] [--lang en]

FOLDER is where the programs arrive (a shared folder, the homework folder
of the classroom software, a USB copy): one program per student, named
after the student, or one folder per student, whose newest .py is the one
checked. Each program is checked as the class run checks it (check.py's
run_program: confined, each spoiling at most its own verdict), in the
background, as many at once as the computer has cores; a file is checked
only when its size and time have held for HOLD seconds, so a program still
being written is never judged. The page is served by Python's own HTTP
server to this computer alone (127.0.0.1), updates itself in place, and
needs no internet. Each verdict is written at once, a line of its own, to a
CSV beside the class report; Ctrl+C ends the watch and writes the report.
"""
import csv
import hashlib
import html
import http.server
import inspect
import json
import os
import queue
import re
import secrets
import signal
import threading
import time
import traceback
import urllib.parse
import webbrowser

import check
import check_sandbox

# A file is checked once its size and time have held this long (seconds).
HOLD = 2.0
# How often the folder is looked at again (seconds).
LOOK = 0.5
# The port the page is served on if it is free (another one if not).
PORT = 8848
# How long the page's question for news waits for one (seconds).
NEWS_WAIT = 20.0
# How often the class report is written again while something changed.
REPORT_EVERY = 30.0
# The page, its style and script (ASCII; the words come from check_texts.json).
PAGE_FILE = os.path.join(check.HERE, "check_live.html")
# The book's sections, in order.
STEPS = check.SECTIONS


# ------------------------------------------------------------- the names

# The GB2312 code of the first character of each pinyin initial, in order:
# GB2312 orders its 3,755 common characters by pinyin, so the initial of
# one is the last whose first code is not above its own. (No common
# character's pinyin starts with i, u or v.)
INITIALS = [(0xB0A1, "A"), (0xB0C5, "B"), (0xB2C1, "C"), (0xB4EE, "D"), (0xB6EA, "E"),
            (0xB7A2, "F"), (0xB8C1, "G"), (0xB9FE, "H"), (0xBBF7, "J"), (0xBFA6, "K"),
            (0xC0AC, "L"), (0xC2E8, "M"), (0xC4C3, "N"), (0xC5B6, "O"), (0xC5BE, "P"),
            (0xC6DA, "Q"), (0xC8BB, "R"), (0xC8F6, "S"), (0xCBFA, "T"), (0xCDDA, "W"),
            (0xCEF4, "X"), (0xD1B9, "Y"), (0xD4D1, "Z")]
LAST_COMMON = 0xD7F9


def initial(char):
    """The pinyin initial of one common Chinese character (the letter
    itself for a Latin letter), or '' for anything else."""
    if ord(char) < 128:
        return char.upper() if char.isalpha() else ""
    try:
        code = int.from_bytes(char.encode("gb2312"), "big")
    except UnicodeEncodeError:
        return ""
    letter = ""
    for first, name in INITIALS:
        if first <= code <= LAST_COMMON:
            letter = name
    return letter


def hidden_name(name):
    """What the projector shows for a student: the student number a name
    starts with, else the initials (of each Chinese character, of each Latin
    word); '' if it has neither."""
    number = re.match(r"\d+", name)
    if number:
        return number.group()
    letters = []
    for word in re.findall(r"[A-Za-z]+|[^\x00-\x7f]", name):
        letters.append(initial(word[0]))
    return "".join(letters)


def labels(names):
    """The label of each name on the projector (names in class order):
    its hidden name, told apart by a count where two are the same, and its
    place in the list where a name gives nothing."""
    found, seen = [], {}
    for place, name in enumerate(names):
        label = hidden_name(name) or "#%d" % (place + 1)
        seen[label] = seen.get(label, 0) + 1
        found.append(label if seen[label] == 1 else "%s%d" % (label, seen[label]))
    return found


# ------------------------------------------------------------- the folder


def entries(folder):
    """The students' programs in folder: {key: (name, path)}, the key the
    entry's name in the folder. A .py file is a student, named by the file;
    a folder is a student, named by the folder, whose newest .py is checked
    (path None where the folder cannot be read; a folder with no program is
    no student: the class's pictures, say). Hidden entries, and the
    checker's own files where the checker lies there, are left out.
    OSError if the folder itself cannot be read."""
    found = {}
    checker_here = os.path.isfile(os.path.join(folder, "check_texts.json"))
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.startswith(".") or name == "__pycache__":
            continue
        if os.path.isdir(path) and not name.endswith(".py"):
            try:
                newest = newest_program(path)
            except OSError:
                found[name] = (name, None)
                continue
            if newest is not None:
                found[name] = (name, newest)
        elif name.endswith(".py") and not (checker_here and name in check.OWN_FILES):
            found[name] = (name[:-3], path)
    return found


def newest_program(folder):
    """The newest program in a student's folder (by its time), or None."""
    programs, _ = check.find_programs([folder])
    times = []
    for path in programs:
        try:
            times.append((os.stat(path).st_mtime, path))
        except OSError:
            continue
    return max(times)[1] if times else None


def signature(path):
    """What changes when a file is written: its size, time and identity
    (of the entry itself where it leads nowhere); None if it is not there."""
    for look in (os.stat, os.lstat):
        try:
            there = look(path)
        except OSError:
            continue
        return (there.st_size, there.st_mtime_ns, there.st_ino, there.st_mode)
    return None


def digest(path):
    """The sha256 of the program's bytes, or None if it cannot be read as
    a program (its check then says why)."""
    try:
        return hashlib.sha256(check.read_program(path)).hexdigest()
    except check.Unreadable:
        return None


# ------------------------------------------------------------ the verdicts


def verdict(found, result):
    """A program's state from its findings and its report (check.report):
    how far it got, the section it is on (None: all done), and there
    whether it is a slip or not written yet, with the finding's key, its
    words and its line."""
    now = next((c for c in result["checks"] if c["ok"] is False or c.get("todo")), None)
    if now is None:
        done = result["reached"] == STEPS[-1]
        return {"reached": result["reached"], "section": None if done else "",
                "kind": "done" if done else "checking", "key": None, "message": "",
                "line": None, "notes": [n["message"] for n in result["notes"]]}
    key = next((cause(f) for f in found if f["section"] == now["section"]), None)
    return {"reached": result["reached"], "section": now["section"],
            "kind": "todo" if now.get("todo") else "slip", "key": key,
            "message": now["message"], "line": now["line"],
            "notes": [n["message"] for n in result["notes"]]}


def cause(finding):
    """What a finding says went wrong, the same for two students who made
    the same slip: what the program did (its symptom), and the change that
    the repair search proved (what the line should be), if one was."""
    facts = finding.get("facts") or {}
    seen = facts.get("symptom") or finding["key"]
    fix = " ".join(str(facts.get("fix") or "").split())
    return seen + ("|" + fix if fix else "")


def summary(rows):
    """The class at a glance, from the rows shown (gone ones left out): how
    many are on each section ('done': all passed), and the commonest current
    slip, a section and its finding's key, with how many share it and who,
    in class order, and the words most of them were told."""
    on = dict((section, 0) for section in STEPS + ["done"])
    slips = {}
    for row in rows:
        said = row.get("verdict")
        if row["gone"] or said is None or said["kind"] == "checking":
            continue
        on["done" if said["kind"] == "done" else said["section"]] += 1
        if said["kind"] == "slip":
            slips.setdefault((said["section"], said["key"]), []).append(row)
    if not slips:
        return {"on": on, "commonest": None}
    # The most students; among as many, the earliest section (it holds up
    # everything after it).
    (section, key), who = min(slips.items(), key=lambda item: (
        -len(item[1]), STEPS.index(item[0][0]), str(item[0][1])))
    messages = [row["verdict"]["message"] for row in who]
    message = max(messages, key=lambda text: (messages.count(text), -messages.index(text)))
    return {"on": on, "commonest": {"section": section, "key": key, "count": len(who),
                                    "message": message, "who": [row["id"] for row in who]}}


# ------------------------------------------------------------ the lesson


class Lesson:
    """Everything the page shows, kept up to date by the watcher's threads:
    a row per student, and the folder's state. Each change counts one more
    version, which wakes the page's waiting question."""

    def __init__(self, folder, texts):
        self.folder, self.texts = folder, texts
        self.rows = {}
        self.version = 0
        self.folder_error = None                    # (why, since) while it cannot be read
        self.changed = threading.Condition()
        self.started = time.time()

    def touch(self):
        """One more version; wake whoever waits for news (hold changed)."""
        self.version += 1
        self.changed.notify_all()

    def seen(self, found):
        """The entries the folder holds now ({key: (name, path)}): new rows,
        rows gone, rows back."""
        with self.changed:
            moved = False
            for key, (name, path) in found.items():
                row = self.rows.get(key)
                if row is None:
                    row = self.rows[key] = {
                        "id": key, "name": name, "path": path, "gone": False,
                        "verdict": None, "since": None, "saved": None, "checked": None,
                        "checking": False, "waiting": True, "judged": None, "digest": None}
                    moved = True
                elif row["gone"] or row["path"] != path:
                    row["gone"], row["path"] = False, path
                    moved = True
                if path is None and row["verdict"] is None:
                    row["verdict"] = {"reached": None, "section": STEPS[0], "kind": "slip",
                                      "key": "folder_unreadable", "line": None, "notes": [],
                                      "message": self.texts["live"]["student_folder"]}
                    row["waiting"], moved = False, True
            for key, row in self.rows.items():
                if key not in found and not row["gone"]:
                    row["gone"], moved = True, True
            if self.folder_error is not None:
                self.folder_error, moved = None, True
            if moved:
                self.touch()

    def unreadable(self, why):
        """The folder cannot be read now: the rows stay as they were."""
        with self.changed:
            if self.folder_error is None or self.folder_error[0] != why:
                self.folder_error = (why, time.time())
                self.touch()

    def waiting(self, key, waits):
        """Whether a row's newest save is still waiting for its check."""
        with self.changed:
            row = self.rows.get(key)
            if row is not None and row["waiting"] != waits:
                row["waiting"] = waits
                self.touch()

    def checking(self, key, on):
        """A row's check starts (on) or ends."""
        with self.changed:
            self.rows[key]["checking"] = on
            self.touch()

    def found(self, key, said, saved):
        """A verdict for a row's save made at saved (its time, from the
        file): the row's state, and since when it is on the same failure."""
        with self.changed:
            row = self.rows[key]
            before = row["verdict"]
            same = before is not None and all(before[name] == said[name]
                                              for name in ("section", "kind", "key"))
            if not same or row["since"] is None:
                row["since"] = time.time()
            row["verdict"], row["saved"], row["checked"] = said, saved, time.time()
            row["waiting"] = False
            self.touch()

    def undo(self, key, shown):
        """A row shows again what it showed before a check whose findings it
        showed as they came, when that check's save is not kept (changed,
        moved or deleted meanwhile)."""
        with self.changed:
            row = self.rows.get(key)
            if row is not None:
                row["verdict"], row["since"], row["saved"], row["checked"] = shown
                self.touch()

    def shown(self, key):
        """What a row shows now, to put back with undo."""
        with self.changed:
            row = self.rows[key]
            return row["verdict"], row["since"], row["saved"], row["checked"]

    def judged(self, key, sig, sha):
        """The save with this signature and digest is judged: it is not
        checked again until it changes."""
        with self.changed:
            self.rows[key]["judged"], self.rows[key]["digest"] = sig, sha

    def state(self):
        """Everything the page shows, as plain data: the rows in class
        order, each with its label for the projector, and the class."""
        with self.changed:
            rows = sorted(self.rows.values(), key=lambda row: (
                check.class_order(row["name"]), row["id"]))
            shown = []
            for row, label in zip(rows, labels([row["name"] for row in rows])):
                said = row["verdict"]
                shown.append({
                    "id": row["id"], "name": row["name"], "label": label,
                    "file": os.path.basename(row["path"]) if row["path"] and row[
                        "id"] != os.path.basename(row["path"]) else "",
                    "gone": row["gone"], "checking": row["checking"],
                    "waiting": row["waiting"], "verdict": said,
                    "since": row["since"], "saved": row["saved"], "checked": row["checked"]})
            error = self.folder_error
            return {"version": self.version, "now": time.time(), "folder": self.folder,
                    "started": self.started, "rows": shown,
                    "folder_error": {"why": error[0], "since": error[1]} if error else None,
                    "class": summary(shown)}

    def results(self):
        """The class report's results (as check.check_all gives them) of
        every student still in the folder, with a verdict."""
        with self.changed:
            return [row["result"] for row in self.rows.values()
                    if not row["gone"] and row.get("result") is not None]

    def keep_result(self, key, result):
        """The report (check.report) of a row's latest verdict."""
        with self.changed:
            self.rows[key]["result"] = result


# ---------------------------------------------------------- the timeline


def safe_cell(text):
    """A CSV cell a spreadsheet shows as text: one that would start a
    formula (a student can name a file "=...") gets a ' in front."""
    text = "" if text is None else str(text)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


# The timeline's columns (their headings: csv_head in check_texts.json).
COLUMNS = ("time", "student", "file", "reached", "on", "state", "line", "words")


class Timeline:
    """The lesson's progress, a line per verdict, written as it happens:
    the time, the student, the file, how far they got, the section they are
    on, whether it is a slip or not written yet, the line and the words."""

    def __init__(self, path, texts):
        self.texts = texts
        new = not os.path.exists(path) or os.path.getsize(path) == 0
        # UTF-8 with a BOM: Excel on a Chinese Windows reads it so.
        self.file = open(path, "a", encoding="utf-8-sig", newline="")
        self.writer = csv.writer(self.file)
        self.lock = threading.Lock()
        self.error = None               # why a line could not be written (a full disk)
        if new:
            head = texts["live"]["csv_head"]
            self.write_row([head[column] for column in COLUMNS])

    def write_row(self, cells):
        """One line, on disk at once."""
        with self.lock:
            if self.file.closed:
                return
            try:
                self.writer.writerow([safe_cell(cell) for cell in cells])
                self.file.flush()
            except OSError as error:
                self.error = error.strerror or str(error)

    def add(self, row, said):
        """The line of one verdict."""
        words = self.texts["live"]["kind"]
        self.write_row([time.strftime("%Y-%m-%d %H:%M:%S"), row["name"],
                        os.path.basename(row["path"] or ""), said["reached"] or "",
                        said["section"] or "", words.get(said["kind"], ""),
                        said["line"] or "", said["message"]])

    def close(self):
        """The file closed (what was written is kept)."""
        with self.lock:
            try:
                self.file.close()
            except OSError as error:
                self.error = error.strerror or str(error)


# ------------------------------------------------------------ the checks


class Stopping(Exception):
    """The watch ends: a check under way gives up."""


class Servers(queue.Queue):
    """check.py's queue of checking children, which remembers every one
    put in it, so that all can be ended at once; once stopped, a child put
    back is ended at once, and none is given out."""

    def __init__(self):
        queue.Queue.__init__(self)
        self.every, self.stopped = [], False

    def get(self, block=True, timeout=None):
        """A child to check with, when one is free (Stopping once the watch
        ends)."""
        while not self.stopped:
            try:
                return queue.Queue.get(self, True, LOOK)
            except queue.Empty:
                continue
        raise Stopping()

    def put(self, server, block=True, timeout=None):
        """Keep server (or end it, once stopped)."""
        if server not in self.every:
            self.every.append(server)
        if self.stopped:
            end_server(server)
        else:
            queue.Queue.put(self, server, block, timeout)

    def stop(self):
        """End every child, and the checks they are making now."""
        self.stopped = True
        for server in list(self.every):
            end_server(server)


def end_server(server):
    """End a checking child now: stopped first (it starts no more checks),
    then the check it is making (a process group of its own) with all it
    started, then the child itself."""
    pid = server.process.pid
    if server.process.poll() is None:
        try:
            os.kill(pid, signal.SIGSTOP)
        except (AttributeError, OSError):       # no SIGSTOP (Windows), or it just ended
            pass
        for _ in range(20):
            children = children_of(pid)
            if not children:
                break
            for child in children:
                for kill in (os.killpg, os.kill):
                    try:
                        kill(child, signal.SIGKILL)
                    except OSError:
                        pass
            time.sleep(0.05)      # what a killed check started is adopted by the child
        server.process.kill()
    server.process.wait()
    for pipe in (server.process.stdin, server.process.stdout):
        try:
            pipe.close()
        except OSError:
            pass


def children_of(pid):
    """The living processes whose parent is pid (Linux: from /proc; else
    none are known)."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    found = []
    for name in names:
        fields = check_sandbox.stat_fields(name) if name.isdigit() else []
        if len(fields) > 1 and fields[1] == str(pid) and fields[0] != "Z":
            found.append(int(name))
    return found


# Whether check.run_program tells each finding as the child writes it.
TELLS_FINDINGS = "on_finding" in inspect.signature(check.run_program).parameters


class Watcher:
    """Looks at the folder every LOOK seconds, and has each save checked
    once it has held for HOLD seconds, by as many threads as there are
    cores (each with its checking child)."""

    def __init__(self, lesson, timeline, texts, workers=None):
        self.lesson, self.timeline, self.texts = lesson, timeline, texts
        self.keys = set(texts["messages"])
        self.workers = workers or max(1, os.cpu_count() or 1)
        self.held = {}                  # key: (signature, since when it held)
        self.todo = queue.Queue()       # keys whose save has held
        self.queued = set()
        self.busy = set()
        self.stopping = threading.Event()
        self.servers = Servers() if hasattr(os, "fork") else None
        self.threads = []

    def start(self):
        """The checking threads and the looking thread, running."""
        for _ in range(self.workers):
            if self.servers is not None:
                self.servers.put(check.new_server())
            self.threads.append(threading.Thread(target=self.work, daemon=True))
        self.threads.append(threading.Thread(target=self.look_on, daemon=True))
        for thread in self.threads:
            thread.start()

    def stop(self):
        """Stop looking and checking, the checks under way included; the
        threads have ended (none is left starting a process)."""
        self.stopping.set()
        if self.servers is not None:
            self.servers.stop()
        for thread in self.threads:
            thread.join(check_sandbox.GRACE_SECONDS)

    def look_on(self):
        """Look at the folder until stopped."""
        while not self.stopping.is_set():
            self.look()
            self.stopping.wait(LOOK)

    def look(self):
        """Look at the folder once: rows for what is there, and each save
        that has held for HOLD seconds is queued for its check."""
        try:
            found = entries(self.lesson.folder)
        except (OSError, ValueError) as error:      # ValueError: a name the system refuses
            self.lesson.unreadable(getattr(error, "strerror", None) or str(error))
            return
        self.lesson.seen(found)
        now = time.monotonic()
        for key, (_, path) in found.items():
            if path is None:
                continue
            sig = (path, signature(path))
            held = self.held.get(key)
            if held is None or held[0] != sig:
                self.held[key] = held = (sig, now)
            judged = self.lesson.rows[key]["judged"]
            if judged == sig:
                self.lesson.waiting(key, False)
                continue
            self.lesson.waiting(key, True)
            if now - held[1] >= HOLD and key not in self.queued and key not in self.busy:
                self.queued.add(key)
                self.todo.put((key, sig))
        for key in list(self.held):
            if key not in found:
                del self.held[key]

    def work(self):
        """Check the saves queued, one at a time, until stopped."""
        while not self.stopping.is_set():
            try:
                key, sig = self.todo.get(timeout=LOOK)
            except queue.Empty:
                continue
            self.busy.add(key)
            self.queued.discard(key)
            try:
                self.check_one(key, sig)
            except Stopping:
                return
            except Exception:           # noqa: BLE001  (the watch goes on)
                if not self.stopping.is_set():
                    traceback.print_exc()
            finally:
                self.busy.discard(key)

    def check_one(self, key, sig):
        """Check a student's save (sig: its path and signature when it had
        held), if it is still that save; its verdict is kept only if the
        file did not change while it was checked."""
        with self.lesson.changed:
            row = self.lesson.rows.get(key)
        path = sig[0]
        if row is None or row["path"] != path or (path, signature(path)) != sig:
            return                              # saved again: the new save waits its turn
        sha = digest(path)
        if sha is not None and sha == row["digest"]:
            self.lesson.judged(key, sig, sha)   # saved again, the same program
            self.lesson.waiting(key, False)
            return
        saved = sig[1][1] / 1e9 if sig[1] else None
        shown = self.lesson.shown(key)
        self.lesson.checking(key, True)
        try:
            found = self.run(path, key, sig, saved)
        finally:
            self.lesson.checking(key, False)
        if self.stopping.is_set() or (path, signature(path)) != sig:
            self.lesson.undo(key, shown)        # what the check showed as it went is not kept
            return                              # a newer save is checked instead
        result = check.report(path, found, self.texts)
        result["file"] = row["id"]
        said = verdict(found, result)
        self.lesson.keep_result(key, result)
        self.lesson.found(key, said, saved)
        self.lesson.judged(key, sig, sha)
        self.timeline.add(row, said)

    def run(self, path, key, sig, saved):
        """The findings of one check; where the checker tells each as it
        comes, the row shows it at once (while the file is unchanged)."""
        if not TELLS_FINDINGS:
            return check.run_program(path, self.servers, self.keys)
        so_far = []

        def on_finding(finding):
            """A finding as the child writes it: shown while the check goes on."""
            so_far[:] = check.merged(so_far + [finding])
            if (path, signature(path)) != sig or self.stopping.is_set():
                return
            result = check.report(path, so_far, self.texts)
            said = verdict(so_far, result)
            if said["kind"] != "checking":
                self.lesson.found(key, said, saved)

        return check.run_program(path, self.servers, self.keys, on_finding=on_finding)


# ------------------------------------------------------------- the page


def page_words(texts, lang):
    """The words the page needs, as JSON safe inside the page's HTML."""
    words = dict(texts["live"])
    words["sections"] = [[section, texts["sections"][section]] for section in STEPS]
    words["lang"] = lang
    return json.dumps(words, ensure_ascii=True).replace("<", "\\u003c").replace(
        ">", "\\u003e").replace("&", "\\u0026")


class Page(http.server.ThreadingHTTPServer):
    """The page's server: on 127.0.0.1 only, for this computer alone."""
    daemon_threads = True

    def __init__(self, lesson, texts, tag, port=PORT):
        self.lesson = lesson
        self.nonce = secrets.token_urlsafe(18)
        with open(PAGE_FILE, encoding="utf-8") as f:
            page = f.read()
        self.html = page.replace("{lang}", tag).replace("{nonce}", self.nonce).replace(
            "{title}", html.escape(texts["live"]["title"])).replace(
            "{words}", page_words(texts, tag)).encode("utf-8")
        try:
            http.server.ThreadingHTTPServer.__init__(self, ("127.0.0.1", port), Answer)
        except OSError:             # the port is taken: any free one
            http.server.ThreadingHTTPServer.__init__(self, ("127.0.0.1", 0), Answer)
        self.address = "http://127.0.0.1:%d/" % self.server_address[1]

    def handle_error(self, request, client_address):
        """A browser that went away mid-answer: nothing to tell."""

    def news(self, after):
        """The state, as soon as its version is past after (or NEWS_WAIT
        seconds have gone by)."""
        with self.lesson.changed:
            self.lesson.changed.wait_for(lambda: self.lesson.version > after, NEWS_WAIT)
        return self.lesson.state()


class Answer(http.server.BaseHTTPRequestHandler):
    """The page, and the state it asks for; nothing else."""

    def do_GET(self):
        """GET / (the page) and /state?after=N (the state, once it is newer)."""
        port = self.server.server_address[1]
        if self.headers.get("Host") not in ("127.0.0.1:%d" % port, "localhost:%d" % port):
            # A page of another site that named this address (DNS rebinding).
            return self.send(403, "text/plain", b"")
        where = urllib.parse.urlsplit(self.path)
        if where.path == "/":
            return self.send(200, "text/html; charset=utf-8", self.server.html)
        if where.path == "/state":
            asked = urllib.parse.parse_qs(where.query).get("after", ["-1"])[0]
            after = int(asked) if re.match(r"-?\d{1,18}$", asked) else -1
            data = json.dumps(self.server.news(after), ensure_ascii=True).encode("ascii")
            return self.send(200, "application/json", data)
        return self.send(404, "text/plain", b"")

    def send(self, status, kind, data):
        """One answer, never kept by the browser, and closed to everything
        but the page's own script."""
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        nonce = self.server.nonce
        self.send_header("Content-Security-Policy", (
            "default-src 'none'; script-src 'nonce-%s'; style-src 'nonce-%s'; "
            "connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; "
            "frame-ancestors 'none'") % (nonce, nonce))
        self.end_headers()
        try:
            self.wfile.write(data)
        except OSError:             # the browser went away meanwhile
            pass

    def log_message(self, *args):
        """Quiet: the teacher's console says only what matters."""


# ------------------------------------------------------------- the watch


def record_paths(html_path, texts):
    """The class report's path and the timeline's beside it: as asked, or
    new names in the current folder, with the date and time."""
    if html_path:
        stem = html_path[:-5] if html_path.lower().endswith(".html") else html_path
        return html_path, stem + ".csv"
    stem = "%s-%s" % (texts["live"]["record"], time.strftime("%Y-%m-%d-%H%M"))
    count = 1
    name = stem
    while os.path.exists(name + ".html") or os.path.exists(name + ".csv"):
        count += 1
        name = "%s-%d" % (stem, count)
    return name + ".html", name + ".csv"


def record_fault(path, folder):
    """Why the report or the timeline may not be written at path (a key
    of html_why), or None: the class run's rules, and never in the folder
    watched, where students could change it."""
    fault = check.page_fault(path, [])
    if fault == "own" and path.lower().endswith(".csv"):
        fault = None                    # a timeline the checker wrote there before
    if fault:
        return fault
    where = os.path.realpath(os.path.dirname(os.path.abspath(path)))
    if check_sandbox.inside(where, os.path.realpath(folder)):
        return "watched"
    return None


def watch(folder, texts, tag, html_path, confined, say):
    """Watch folder until Ctrl+C: the page, the checks, the timeline and,
    at the end, the class report. The exit status (0, or 2 when the
    watch could not start)."""
    live = texts["live"]
    if not os.path.isdir(folder):
        say(live["no_folder"].format(folder=folder))
        return 2
    report, timeline_path = (os.path.abspath(path) for path in record_paths(html_path, texts))
    for path in (report, timeline_path):
        fault = record_fault(path, folder)
        if fault:
            say(texts["html_refused"].format(path=path, why=texts["html_why"][fault]))
            return 2
    try:
        timeline = Timeline(timeline_path, texts)
    except OSError as error:
        say(texts["html_failed"].format(path=timeline_path, why=error.strerror or error))
        return 2
    lesson = Lesson(os.path.abspath(folder), texts)
    page = Page(lesson, texts, tag)
    watcher = Watcher(lesson, timeline, texts)
    serving = threading.Thread(target=page.serve_forever, args=(LOOK,), daemon=True)
    previous = end_as_ctrl_c()
    try:
        say(live["started"].format(folder=lesson.folder, url=page.address))
        say(live["records"].format(html=report, csv=timeline_path))
        if confined != "all":
            say(texts["confined"][confined])
        watcher.start()
        serving.start()
        if not os.environ.get("MINESWEEP_NO_BROWSER"):
            webbrowser.open(page.address)
        keep_report(lesson, report, texts, tag, confined)
    except KeyboardInterrupt:
        pass
    finally:
        for number, _ in previous:
            signal.signal(number, signal.SIG_IGN)      # a second Ctrl+C waits its turn
        watcher.stop()
        if serving.is_alive():
            page.shutdown()
        page.server_close()
        timeline.close()
        if timeline.error:
            say(texts["html_failed"].format(path=timeline_path, why=timeline.error))
        written = write_report(lesson, report, texts, tag, confined)
        for number, handler in previous:
            signal.signal(number, handler)
    say(live["stopped"].format(html=report if written else "-", csv=timeline_path))
    return 0


def end_as_ctrl_c():
    """Make the console closed and a request to end (SIGTERM, SIGHUP) end
    the watch as Ctrl+C does; the handlers there were, to put back."""
    def end(number, frame):
        """End the watch, in the main thread, as Ctrl+C does."""
        raise KeyboardInterrupt
    previous = []
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            previous.append((number, signal.signal(number, end)))
    return previous


def keep_report(lesson, report, texts, tag, confined):
    """Until the watch ends, write the class report again every
    REPORT_EVERY seconds if the lesson changed. (Short sleeps: Ctrl+C on
    Windows ends a sleep, not a wait for a lock.)"""
    written, last = None, 0.0
    while True:
        if lesson.version != written and time.monotonic() - last >= REPORT_EVERY:
            written, last = lesson.version, time.monotonic()
            write_report(lesson, report, texts, tag, confined)
        time.sleep(LOOK)


def write_report(lesson, report, texts, tag, confined):
    """The class report (the page --html writes) of the latest verdicts;
    False if it could not be written."""
    try:
        check.write_page(report, check.as_html(lesson.results(), texts, tag, confined))
    except OSError:
        return False
    return True
