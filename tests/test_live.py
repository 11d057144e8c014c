"""The class, live (python chapter/check.py --watch FOLDER): the real
watcher, run as a teacher runs it, over folders that simulated students
write into over time, some of their saves in pieces; the page it serves,
read as its script reads it and shown in headless Chromium; the order of
names; and what it keeps safe."""
import csv
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

import test_check
from loadgame import CHAPTER, ROOT

sys.path.insert(0, CHAPTER)
import check  # noqa: E402  (the checker)
import check_live  # noqa: E402  (the watcher)
import check_sandbox  # noqa: E402

CHECK = os.path.join(CHAPTER, "check.py")
with open(os.path.join(CHAPTER, "check_texts.json"), encoding="utf-8") as f:
    TEXTS = json.load(f)
ZH = TEXTS["zh"]


# ------------------------------------------------------------ the helpers


class Watch:
    """The watcher, started as a teacher starts it, in its own process:
    its page's state, read as the page reads it, and its timeline."""

    def __init__(self, folder, cwd, *options, env=None, checker=CHECK):
        self.mark = "minesweep-live-test-%d-%d" % (os.getpid(), random.getrandbits(32))
        environment = dict(os.environ, MINESWEEP_NO_BROWSER="1", MINESWEEP_TEST_MARK=self.mark)
        environment.update(env or {})
        self.process = subprocess.Popen(
            [sys.executable, checker, "--watch", str(folder)] + list(options),
            cwd=str(cwd), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment,
            text=True, encoding="utf-8")
        self.said = [self.process.stdout.readline(), self.process.stdout.readline()]
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", self.said[0])
        assert found, self.said + [self.process.stderr.read()]
        self.url, self.port = found.group(0), int(found.group(1))
        self.report, self.timeline = re.findall(r"(\S+\.(?:html|csv))", self.said[1])
        self.version = -1

    def state(self, after=-1):
        """The state the page is given (as soon as it is newer than after)."""
        with urllib.request.urlopen("%sstate?after=%d" % (self.url, after),
                                    timeout=60) as answer:
            return json.loads(answer.read().decode("ascii"))

    def until(self, test, seconds=180):
        """The first state for which test(state) is true, asked for as the
        page asks: each time something changed."""
        deadline = time.monotonic() + seconds
        state = self.state()
        while not test(state):
            assert time.monotonic() < deadline, json.dumps(state, ensure_ascii=False)[:3000]
            state = self.state(state["version"])
        return state

    def stop(self):
        """Ctrl+C; what it said, and its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        out, err = self.process.communicate(timeout=120)
        return out, err, self.process.returncode

    def lines(self):
        """The timeline's lines, the heading's left out."""
        with open(self.timeline, encoding="utf-8-sig", newline="") as f:
            rows = list(csv.reader(f))
        assert rows[0] == [ZH["live"]["csv_head"][c] for c in check_live.COLUMNS]
        return rows[1:]

    def left_behind(self):
        """Processes still running that this watcher started (its mark is
        in their environment)."""
        found = []
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) == os.getpid():
                continue
            try:
                with open("/proc/%s/environ" % name, "rb") as f:
                    if self.mark.encode() in f.read():
                        found.append(int(name))
            except OSError:
                continue
        return found


@pytest.fixture
def watching(tmp_path):
    """Start watchers (Watch's arguments); each is stopped at the end."""
    started = []

    def start(folder, *options, **kw):
        watch = Watch(folder, tmp_path, *options, **kw)
        started.append(watch)
        return watch
    yield start
    for watch in started:
        watch.stop()


def rows_by_name(state):
    """The state's rows by student name."""
    return {row["name"]: row for row in state["rows"]}


def verdict_of(result):
    """What the page shows of one program's check (check.py --json's
    result): how far it got, the section it is on, slip or not written
    yet (or all done), the words and the line."""
    now = next((c for c in result["checks"] if c["ok"] is False or c.get("todo")), None)
    if now is None:
        return (result["reached"], None, "done", "", None)
    return (result["reached"], now["section"], "todo" if now.get("todo") else "slip",
            now["message"], now["line"])


def shown(row):
    """The same of a row of the page's state (None before its first verdict)."""
    said = row["verdict"]
    if said is None:
        return None
    return (said["reached"], said["section"], said["kind"], said["message"], said["line"])


def as_line(verdict):
    """The same as a line of the timeline gives it (after time, student, file)."""
    reached, section, kind, message, line = verdict
    return [reached or "", section or "", ZH["live"]["kind"][kind], str(line or ""), message]


def checked_once(paths):
    """Each program's verdict, from one class run (check.py --json)."""
    done = subprocess.run([sys.executable, CHECK, "--json"] + [str(p) for p in paths],
                          capture_output=True, text=True, encoding="utf-8", timeout=600)
    return {os.path.basename(r["file"]): verdict_of(r) for r in json.loads(done.stdout)}


def pieces(data, count=3):
    """The program's bytes cut in count pieces, each cut just after an
    opening bracket of code, so that what is written before the last
    piece can never be read as a whole program."""
    cuts, place = [], 0
    for line in data.splitlines(True):
        code = line.split(b"#")[0]
        if b"(" in code:
            at = place + code.index(b"(") + 1
            try:
                compile(data[:at], "part", "exec")
            except SyntaxError:
                cuts.append(at)
        place += len(line)
    chosen = [cuts[len(cuts) * (i + 1) // count] for i in range(count - 1)]
    ends = chosen + [len(data)]
    return [data[start:end] for start, end in zip([0] + chosen, ends)]


def write_slowly(path, data, pauses, rng):
    """A save that takes a while: the file written in pieces, each after a
    pause shorter than the watcher's hold; the longest time between two
    writes, as it came out (a busy machine can make a pause longer)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    longest, last = 0.0, None
    with open(path, "wb") as f:
        for number, piece in enumerate(pieces(data)):
            if number:
                time.sleep(rng.uniform(*pauses))
            f.write(piece)
            f.flush()
            if last is not None:
                longest = max(longest, time.monotonic() - last)
            last = time.monotonic()
    return longest


def the_pool(folder):
    """Programs at every stage: the lesson's steps, the book's listing, and
    slips students make; by name, as bytes."""
    pool = {}
    for name in sorted(os.listdir(CHAPTER)):
        if name.startswith("step") and name.endswith(".py"):
            with open(os.path.join(CHAPTER, name), "rb") as f:
                pool[name] = f.read()
    book = test_check.book()
    pool["book.py"] = book.encode("gb18030")
    for slip in ("bombs_19", "buttons_swapped", "count_from_one", "flag_stays",
                 "isopen_missing", "never_win", "no_shuffle", "own_tile", "wrong_comparison"):
        pool[slip + ".py"] = test_check.MISTAKES[slip][0](book).encode("gb18030")
    os.makedirs(str(folder), exist_ok=True)
    for name, data in pool.items():
        with open(os.path.join(str(folder), name), "wb") as f:
            f.write(data)
    return pool


# The names of a class: student numbers, pinyin, spaces, brackets.
SURNAMES = "\u5f20\u738b\u674e\u8d75\u5218\u9648\u6768\u9ec4\u5468\u5434"
GIVEN = ["\u4f1f", "\u82b3 \u82b3", "\u5c0f\u660e", "\u4e3d (2)", "\u5f3a"]


# ---------------------------------------------------------- a whole class


def test_a_simulated_class_of_forty_is_shown_save_by_save_and_no_half_write_is_judged(
        tmp_path, watching):
    pool = the_pool(tmp_path / "pool")
    names = list(pool)
    expect = checked_once([tmp_path / "pool" / name for name in names])
    assert not any("SyntaxError" in v[3] for v in expect.values())
    rng = random.Random(48)
    folder = tmp_path / "class"
    folder.mkdir()
    students = []
    for number in range(40):
        name = SURNAMES[number % 10] + GIVEN[number // 10 % 5]
        if number % 4 == 0:
            name = "%02d%s" % (number + 1, name)
        versions = sorted(rng.sample(names, 2), key=names.index)
        students.append((name, versions, number % 3 == 0))   # a third: a folder each
    watch = watching(folder, "--html", str(tmp_path / "lesson.html"))

    slow = set()

    def student(name, versions, own_folder):
        """One student saving two versions, the second 8 to 12 s after the first."""
        time.sleep(rng.uniform(0, 6))
        for step, version in enumerate(versions):
            if own_folder:      # each version a new file: the newest is the one checked
                path = str(folder / name / ("v%d.py" % step))
            else:
                path = str(folder / (name + ".py"))
            if write_slowly(path, pool[version], (0.2, 1.0), rng) > 1.8:   # of the 2 s hold
                slow.add(name)  # a piece that held as long as a whole save may be judged
            time.sleep(rng.uniform(8, 12))
    busiest = []
    writers = [threading.Thread(target=student, args=s) for s in students]

    def look_on():
        """How many checks run at once, at each change, while students save."""
        state = watch.state()
        while any(writer.is_alive() for writer in writers):
            busiest.append(sum(1 for row in state["rows"] if row["checking"]))
            state = watch.state(state["version"])
    looking = threading.Thread(target=look_on)
    for writer in writers:
        writer.start()
    looking.start()
    for writer in writers + [looking]:
        writer.join()
    final = {name: expect[versions[-1]] for name, versions, _ in students}
    state = watch.until(lambda s: len(s["rows"]) == 40 and all(
        shown(row) == final[row["name"]] and not row["checking"] and not row["waiting"]
        for row in s["rows"]))
    # Checks ran in the background, at most one a core at a time.
    assert 1 <= max(busiest) <= os.cpu_count(), busiest
    # The class list's order; the class bar counts everyone once.
    assert [row["name"] for row in state["rows"]] == sorted(
        final, key=check.class_order)
    assert sum(state["class"]["on"].values()) == 40
    out, err, status = watch.stop()
    assert status == 0, err
    # Every line of the timeline is a whole version's verdict, never a
    # piece's; every student's last line is their last version's.
    last = {}
    versions = {name: [expect[v] for v in vs] for name, vs, _ in students}
    for line in watch.lines():
        student_name = line[1]
        assert line[3:] in [as_line(v) for v in versions[student_name]] or \
            student_name in slow, line
        last[student_name] = line[3:]
    assert last == {name: as_line(final[name]) for name in final}
    # The report written at the end lists the class in the same order.
    page = open(watch.report, encoding="utf-8").read()
    places = [re.search(">%s(\\.py)?<" % re.escape(name), page).start() for name in sorted(
        final, key=check.class_order)]
    assert places == sorted(places)


# ------------------------------------------------------ the page's plain data


def test_the_projector_shows_student_numbers_or_initials_never_names():
    names = ["12\u5f20\u4e09", "\u5f20\u4e09", "\u5f20\u5c71", "\u738b \u4e94",
             "Zhang San", "\u5f35\u4e09", "\u3105\u3106", "07 Li"]
    assert check_live.labels(names) == ["12", "ZS", "ZS2", "WW", "ZS3", "S", "#7", "07"]
    # Each common character's initial is its pinyin's: one of each letter.
    for word, letter in zip("\u554a\u82ad\u64e6\u642d\u86fe\u53d1\u5676\u54c8\u51fb"
                            "\u5580\u5783\u5988\u62ff\u54e6\u556a\u671f\u7136\u6492"
                            "\u584c\u6316\u6614\u538b\u531d\u5ea7", "ABCDEFGHJKLMNOPQRSTWXYZZ"):
        assert check_live.initial(word) == letter, word


def row(name, kind, section=None, key=None, message="", gone=False, reached=None):
    """A row of the page's state, as the lesson keeps it."""
    return {"id": name + ".py", "name": name, "gone": gone,
            "verdict": {"reached": reached, "section": section, "kind": kind, "key": key,
                        "message": message, "line": None, "notes": []}}


def test_the_class_bar_and_the_commonest_slip():
    rows = [row("a", "slip", "3.3.4", "isopen_missing", "m1"),
            row("b", "slip", "3.3.4", "isopen_missing", "m2"),
            row("c", "slip", "3.3.4", "isopen_missing", "m2"),
            row("d", "slip", "3.1.4", "no_shuffle", "m3"),
            row("e", "slip", "3.1.4", "no_shuffle", "m3"),
            row("f", "todo", "3.1.4", "todo_x"),
            row("g", "done", reached="3.4.2"),
            row("h", "slip", "3.1.2", "endless", gone=True),
            dict(row("i", "slip"), verdict=None)]
    seen = check_live.summary(rows)
    assert seen["on"] == dict({s: 0 for s in check.SECTIONS}, **{
        "3.3.4": 3, "3.1.4": 3, "done": 1})
    assert seen["commonest"] == {"section": "3.3.4", "key": "isopen_missing", "count": 3,
                                 "message": "m2", "who": ["a.py", "b.py", "c.py"]}
    # As many on two slips: the earlier section's, which holds up the rest.
    seen = check_live.summary(rows[1:])
    assert (seen["commonest"]["section"], seen["commonest"]["count"]) == ("3.1.4", 2)
    # Not written yet is no slip; nobody slipping: no commonest slip.
    assert check_live.summary(rows[5:7])["commonest"] is None


def test_one_save_can_show_twice_first_its_symptom_then_its_proven_line(tmp_path):
    lesson = check_live.Lesson(str(tmp_path), ZH)
    lesson.seen({"a.py": ("a", str(tmp_path / "a.py"))})
    symptom = {"reached": "3.3.3", "section": "3.3.4", "kind": "slip", "key": "isopen_missing",
               "message": "opened again and again", "line": None, "notes": []}
    proven = dict(symptom, line=42, message="opened again and again: line 42")
    versions = [lesson.version]
    lesson.checking("a.py", True)
    lesson.found("a.py", symptom, 100.0)
    versions.append(lesson.version)
    first = lesson.state()["rows"][0]
    assert (first["verdict"]["line"], first["checking"]) == (None, True)
    lesson.found("a.py", proven, 100.0)
    lesson.checking("a.py", False)
    second = lesson.state()["rows"][0]
    assert (second["verdict"]["line"], second["checking"]) == (42, False)
    assert versions[0] < versions[1] < lesson.version
    # The same failure: stuck on it since the first time it showed.
    assert second["since"] == first["since"]


# ------------------------------------------------- half-writes and stale files

ENDLESS = b"while True:\n    pass\n"         # a check of this takes the load's whole time


def step(name):
    """A lesson step's bytes."""
    with open(os.path.join(CHAPTER, name), "rb") as f:
        return f.read()


def test_only_whole_newest_saves_are_judged_and_a_stale_verdict_never_shows(
        tmp_path, watching):
    folder = tmp_path / "class"
    (folder / "bea").mkdir(parents=True)
    # Bea's folder: last week's program (it cannot even start) and today's.
    old = folder / "bea" / "old.py"
    old.write_bytes(b"def (\n")
    os.utime(str(old), (time.time() - 3600, time.time() - 3600))
    (folder / "bea" / "today.py").write_bytes(step("step03_shuffle.py"))
    (folder / "dan.py").write_bytes(step("step01_tiles.py"))
    (folder / "cy.py").write_bytes(ENDLESS)
    expect = checked_once([os.path.join(CHAPTER, name) for name in (
        "step01_tiles.py", "step03_shuffle.py", "step06_flags.py", "step08_recursion.py")])
    watch = watching(folder)
    state = watch.until(lambda s: len(s["rows"]) == 3 and rows_by_name(s)["cy"]["checking"])
    # Cy saves while the check of the save before is under way: that
    # check's verdict is never shown, the new save's is.
    (folder / "cy.py").write_bytes(step("step06_flags.py"))
    # Al's save takes eight pieces, 0.7 s apart: never judged until whole.
    al = folder / "al.py"
    data = step("step08_recursion.py")
    with open(str(al), "wb") as f:
        for piece in pieces(data, 8):
            f.write(piece)
            f.flush()
            state = watch.state()
            assert shown(rows_by_name(state).get("al", {"verdict": None})) is None
            time.sleep(0.7)
    state = watch.until(lambda s: all(
        row["verdict"] is not None and not row["checking"] and not row["waiting"]
        for row in s["rows"]) and len(s["rows"]) == 4)
    rows = rows_by_name(state)
    assert shown(rows["al"]) == expect["step08_recursion.py"]
    assert shown(rows["bea"]) == expect["step03_shuffle.py"] and rows["bea"]["file"] == "today.py"
    assert shown(rows["cy"]) == expect["step06_flags.py"]
    assert shown(rows["dan"]) == expect["step01_tiles.py"]
    # Dan saves the same program again: it is not checked again.
    before = len(watch.lines())
    os.utime(str(folder / "dan.py"), (time.time() + 5, time.time() + 5))
    watch.until(lambda s: rows_by_name(s)["dan"]["waiting"])
    watch.until(lambda s: not rows_by_name(s)["dan"]["waiting"])
    assert len(watch.lines()) == before
    out, err, status = watch.stop()
    assert status == 0, err
    assert sorted(line[1] for line in watch.lines()) == ["al", "bea", "cy", "dan"]


def test_a_file_deleted_or_renamed_while_checked_and_ctrl_c_during_a_check(
        tmp_path, watching):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("gone", "moved", "last"):
        (folder / (name + ".py")).write_bytes(ENDLESS)
    watch = watching(folder)
    watch.until(lambda s: rows_by_name(s).get("gone", {}).get("checking"))
    (folder / "gone.py").unlink()
    watch.until(lambda s: rows_by_name(s).get("moved", {}).get("checking"))
    (folder / "moved.py").rename(folder / "\u6539\u540d \u4ee5\u540e.py")    # a new name
    state = watch.until(lambda s: rows_by_name(s).get("\u6539\u540d \u4ee5\u540e", {}).get(
        "checking"))
    rows = rows_by_name(state)
    assert rows["gone"]["gone"] and rows["moved"]["gone"]
    assert rows["gone"]["verdict"] is None and rows["moved"]["verdict"] is None
    # Ctrl+C while a check runs: the watch ends at once, keeps its timeline
    # and report, and leaves no process behind.
    started = time.monotonic()
    out, err, status = watch.stop()
    assert status == 0 and err == "", err
    assert time.monotonic() - started < 30
    assert watch.left_behind() == []
    assert ZH["live"]["stopped"].format(html=watch.report, csv=watch.timeline) in out
    assert "gone" not in [line[1] for line in watch.lines()]
    assert "<table>" in open(watch.report, encoding="utf-8").read()


# ---------------------------------------------------------- the page, seen

from browser import CHROMIUM, Browser  # noqa: E402

needs_chromium = pytest.mark.skipif(
    not CHROMIUM and not os.environ.get("MINESWEEP_REQUIRE_WINDOW"),
    reason="no chromium to open the page in")
HOSTILE = "<img src=x onerror=window.hacked=1>"
SHOUT = 'raise ValueError("<img src=x onerror=window.hacked=2></script><script>window.hacked=3")\n'


def visible_text_sizes():
    """JavaScript: [size, text] of every piece of text shown on the page."""
    return """(function () {
      var found = [], walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), n;
      while ((n = walk.nextNode())) {
        var e = n.parentElement;
        if (!n.textContent.trim() || !e.getClientRects().length) { continue; }
        found.push([parseFloat(getComputedStyle(e).fontSize), n.textContent]);
      }
      return found;
    }())"""


@needs_chromium
def test_the_page_in_chromium_shows_the_class_changes_in_place_and_hides_names_on_the_projector(
        tmp_path, watching):
    folder = tmp_path / "class"
    folder.mkdir()
    pool = the_pool(tmp_path / "pool")
    names = {}
    steps = [n for n in pool if n.startswith("step")]
    for number in range(24):
        name = SURNAMES[number % 10] + GIVEN[number // 10]
        names[name] = steps[number % len(steps)]
    names["\u5218\u4e00\u4e00"] = names["\u5468\u4e00"] = "no_shuffle.py"   # the commonest slip
    names["\u9648\u4e00"] = "own_tile.py"
    for name, program in names.items():
        (folder / (name + ".py")).write_bytes(pool[program])
    (folder / (HOSTILE + ".py")).write_text(SHOUT, encoding="utf-8")
    watch = watching(folder)
    state = watch.until(lambda s: len(s["rows"]) == len(names) + 1 and all(
        row["verdict"] and not row["checking"] and not row["waiting"] for row in s["rows"]))
    slip = state["class"]["commonest"]
    assert (slip["section"], slip["count"]) == ("3.1.4", 2)
    with Browser(1366, 768) as browser:
        browser.open(watch.url)
        browser.wait_for("document.querySelectorAll('.student').length === %d && "
                         "!document.querySelector('.busy')" % (len(names) + 1))
        # The class bar: how many are on each section, and all done.
        bar = browser.evaluate("[].map.call(document.querySelectorAll('.col'), function (c) {"
                               " return [c.querySelector('.sec').textContent,"
                               " c.querySelector('.count').textContent]; })")
        on = state["class"]["on"]
        assert bar == [[s, str(on[s])] for s in check.SECTIONS] + [
            [ZH["live"]["bar_done"], str(on["done"])]]
        # The commonest slip: its section, how many, its words, and who.
        said = browser.evaluate("document.getElementById('slip').innerText")
        assert "3.1.4 %s" % ZH["sections"]["3.1.4"] in said and "2 \u4eba" in said
        assert slip["message"] in said
        assert "\u5218\u4e00\u4e00" in said and "\u5468\u4e00" in said
        # Each student's row: the name, the section they are on, the state.
        rows = browser.evaluate("[].map.call(document.querySelectorAll('.student'), function (r)"
                                " { return [r.querySelector('.name').textContent,"
                                " r.querySelector('.on').textContent,"
                                " r.querySelector('.state').textContent]; })")
        for shown_row, row_state in zip(rows, state["rows"]):
            v = row_state["verdict"]
            assert shown_row == [row_state["name"], v["section"] and "%s %s" % (
                v["section"], ZH["sections"][v["section"]]) or "",
                ZH["live"]["state"][v["kind"]]]
        # How long each has been on the same failure.
        stuck = browser.evaluate("[].map.call(document.querySelectorAll('.student .stuck'),"
                                 " function (s) { return s.textContent; })")
        assert stuck == [ZH["live"]["under_minute"] if r["verdict"]["kind"] != "done" else ""
                         for r in state["rows"]]
        # A program's words and a hostile name are text, never HTML.
        assert browser.evaluate("window.hacked === undefined && "
                                "document.querySelectorAll('img, script[src]').length === 0")
        assert HOSTILE in browser.evaluate("document.body.innerText")
        # The message and line of a slip, one click away.
        place = [r["name"] for r in state["rows"]].index("\u9648\u4e00") + 1
        more = "document.querySelectorAll('.student')[%d].querySelector('.more')" % (place - 1)
        assert browser.evaluate(more + ".hidden")
        browser.evaluate("document.querySelectorAll('.student')[%d].click()" % (place - 1))
        verdict = rows_by_name(state)["\u9648\u4e00"]["verdict"]
        text = browser.evaluate(more + ".innerText")
        assert text.startswith(ZH["live"]["at_line"].format(line=verdict["line"]) +
                               verdict["message"])
        # A save changes its row in place: the same element, no reload, no
        # jump of the page's scroll.
        target = state["rows"][-2]["name"]
        node = "[].filter.call(document.querySelectorAll('.student'), function (r) {" \
            " return r.querySelector('.name').textContent === %s; })[0]" % json.dumps(target)
        browser.evaluate("window.scrollTo(0, 300); window.kept = 1; (%s).kept = 1" % node)
        assert browser.evaluate("window.scrollY") == 300
        browser.evaluate("(%s).querySelector('.name').offsetTop > 0" % node)
        (folder / (target + ".py")).write_bytes(pool["book.py"])
        browser.wait_for("(%s).querySelector('.state').textContent === %s" % (
            node, json.dumps(ZH["live"]["state"]["done"])))
        assert browser.evaluate("window.kept === 1 && (%s).kept === 1 && window.scrollY"
                                % node) == 300
        # Projector mode (P): large type, and no name anywhere in the page.
        browser.key("p")
        browser.wait_for("document.body.className === 'projector'")
        sizes = browser.evaluate(visible_text_sizes())
        assert sizes and min(size for size, _ in sizes) >= 24, sorted(sizes)[:5]
        page = browser.evaluate("document.documentElement.outerHTML")
        for name in list(names) + [HOSTILE]:
            assert name not in page and name.replace("<", "&lt;") not in page, name
        labels = browser.evaluate("[].map.call(document.querySelectorAll('.student .name'),"
                                  " function (n) { return n.textContent; })")
        now = watch.state()
        assert labels == [row["label"] for row in now["rows"]]
        who = browser.evaluate("document.getElementById('slip').innerText")
        assert rows_by_name(now)["\u5468\u4e00"]["label"] in who
        # N shows the names on the projector; P again leaves it.
        browser.key("n")
        browser.wait_for("document.body.innerText.indexOf(%s) >= 0" % json.dumps(
            "\u5468\u4e00"))
        browser.key("p")
        browser.wait_for("document.body.className === ''")


# ------------------------------------------------------------------ safe


def test_the_page_is_served_to_this_computer_only_and_a_program_reaches_no_one_else(
        tmp_path, watching):
    folder = tmp_path / "class"
    folder.mkdir()
    neighbour = folder / "neighbour.py"
    neighbour.write_bytes(step("step03_shuffle.py"))
    watch = watching(folder, "--html", str(tmp_path / "lesson.html"))
    # Listening on 127.0.0.1 alone: not on every address, not on IPv6.
    port = "%04X" % watch.port
    listening = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.read().splitlines()[1:]:
                local, state = line.split()[1], line.split()[3]
                if local.endswith(":" + port) and state == "0A":
                    listening.append(local)
    assert listening == ["0100007F:" + port]
    # A page of another site that names this address is refused.
    asked = urllib.request.Request(watch.url + "state", headers={"Host": "evil.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(asked, timeout=30)
    assert refused.value.code == 403
    watch.until(lambda s: rows_by_name(s).get("neighbour", {}).get("verdict"))
    before = {path: open(path, "rb").read() for path in (str(neighbour), watch.timeline)}
    if check_sandbox.confinement() == "none":
        pytest.skip("this computer cannot confine a checked program")
    # A program that writes into the timeline, the report, the page's
    # folder and another student's program, at load.
    targets = [watch.timeline, watch.report, str(neighbour), str(tmp_path / "planted.py")]
    (folder / "attacker.py").write_text(
        "hits = []\nfor path in %r:\n    try:\n        with open(path, 'a') as f:\n"
        "            f.write('forged')\n        hits.append(path)\n    except OSError as e:\n"
        "        pass\nraise ValueError('hits %%d' %% len(hits))\n" % targets, encoding="utf-8")
    # The verdict shows as the check goes on: wait for the check to end.
    state = watch.until(lambda s: rows_by_name(s).get("attacker", {}).get("verdict") and
                        not rows_by_name(s)["attacker"]["checking"])
    assert "ValueError: hits 0" in rows_by_name(state)["attacker"]["verdict"]["message"]
    assert open(str(neighbour), "rb").read() == before[str(neighbour)]
    assert not (tmp_path / "planted.py").exists()
    out, err, status = watch.stop()
    assert b"forged" not in open(watch.timeline, "rb").read()
    assert "forged" not in open(watch.report, encoding="utf-8").read()
    assert [line[1] for line in watch.lines()] == ["neighbour", "attacker"]


def test_a_share_that_drops_and_comes_back_and_entries_that_are_no_programs(
        tmp_path, watching):
    folder = tmp_path / "share"
    folder.mkdir()
    (folder / "\u738b \u4e94.py").write_bytes(step("step01_tiles.py"))
    (folder / "dir.py").mkdir()                               # a folder named like a program
    os.mkfifo(str(folder / "fifo.py"))                        # a named pipe
    os.symlink(str(tmp_path / "nowhere.py"), str(folder / "link.py"))
    (folder / "images").mkdir()                               # no student: no program in it
    (folder / "images" / "x.png").write_bytes(b"")
    watch = watching(folder)
    state = watch.until(lambda s: len(s["rows"]) == 4 and all(
        row["verdict"] for row in s["rows"]))
    rows = rows_by_name(state)
    for bad in ("dir", "fifo", "link"):
        assert rows[bad]["verdict"]["message"] == ZH["messages"]["not_a_file"], bad
    assert rows["\u738b \u4e94"]["verdict"]["kind"] == "todo"
    # The share drops: the page says so and keeps what it knew.
    folder.rename(tmp_path / "away")
    state = watch.until(lambda s: s["folder_error"] is not None)
    assert [row["verdict"] for row in state["rows"]] == [
        row["verdict"] for row in rows_by_name(state).values()]
    assert not any(row["gone"] for row in state["rows"])
    (tmp_path / "away").rename(folder)
    watch.until(lambda s: s["folder_error"] is None)
    (folder / "\u738b \u4e94.py").write_bytes(step("step03_shuffle.py"))
    state = watch.until(lambda s: (rows_by_name(s)["\u738b \u4e94"]["verdict"] or {}).get(
        "reached") == "3.1.4")
    out, err, status = watch.stop()
    assert status == 0 and err == "", err


def test_two_hundred_files_are_all_shown(tmp_path, watching):
    folder = tmp_path / "class"
    folder.mkdir()
    for number in range(200):
        (folder / ("%03d \u5b66\u751f.py" % number)).write_text("x = %d\n" % number)
    watch = watching(folder)
    state = watch.until(lambda s: len(s["rows"]) == 200 and all(
        row["verdict"] and not row["checking"] for row in s["rows"]), seconds=400)
    assert [row["label"] for row in state["rows"]] == ["%03d" % n for n in range(200)]
    assert state["class"]["on"]["3.1.2"] == 200
    watch.stop()
    assert len(watch.lines()) == 200


def test_a_name_a_spreadsheet_would_run_is_kept_as_text_in_the_timeline(tmp_path):
    path = str(tmp_path / "lesson.csv")
    timeline = check_live.Timeline(path, ZH)
    said = {"reached": None, "section": "3.1.2", "kind": "slip", "line": 3,
            "message": "-1 is not a name"}
    for name in ("=HYPERLINK(\"http://x\")", "+1", "@SUM(A1)", "\u5f20\u4e09"):
        timeline.add({"name": name, "path": str(tmp_path / (name + ".py"))}, said)
    timeline.close()
    with open(path, encoding="utf-8-sig", newline="") as f:
        lines = list(csv.reader(f))[1:]
    assert [line[1] for line in lines] == ["'=HYPERLINK(\"http://x\")", "'+1", "'@SUM(A1)",
                                           "\u5f20\u4e09"]
    assert all(line[-1] == "'-1 is not a name" for line in lines)
    # Excel on a Chinese Windows reads it as UTF-8: it starts with a BOM.
    assert open(path, "rb").read(3) == b"\xef\xbb\xbf"


def test_the_watch_says_in_one_line_what_it_cannot_do(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()

    def run(*args):
        """The watcher's answer to a command line it refuses at once."""
        done = subprocess.run([sys.executable, CHECK] + list(args), capture_output=True,
                              text=True, encoding="utf-8", timeout=120, cwd=str(tmp_path),
                              env=dict(os.environ, MINESWEEP_NO_BROWSER="1"))
        assert done.returncode == 2 and done.stderr == "", done.stderr
        return done.stdout.strip()
    assert run("--watch", str(tmp_path / "nowhere")) == ZH["live"]["no_folder"].format(
        folder=tmp_path / "nowhere")
    assert run("--watch", str(folder), "a.py") == ZH["live"]["alone"]
    inside = str(folder / "report.html")
    assert run("--watch", str(folder), "--html", inside) == ZH["html_refused"].format(
        path=inside, why=ZH["html_why"]["watched"])
    assert run("--watch", str(folder), "--html", str(tmp_path / "x.py")) == \
        ZH["html_refused"].format(path=tmp_path / "x.py", why=ZH["html_why"]["program"])
    assert os.listdir(str(folder)) == []


def test_the_watch_runs_from_the_kits_students_folder(tmp_path, watching):
    # The kit copies the checker's files (CHECKER_FILES) and the table of
    # languages into the students' folder: the watch runs from there too.
    kit = tmp_path / "students"
    kit.mkdir()
    for name in check.CHECKER_FILES:
        shutil.copyfile(os.path.join(CHAPTER, name), str(kit / name))
    shutil.copyfile(os.path.join(ROOT, "languages.py"), str(kit / "languages.py"))
    for kind in ("images", "sounds"):
        shutil.copytree(os.path.join(CHAPTER, kind), str(kit / kind))
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "a.py").write_bytes(step("step01_tiles.py"))
    watch = watching(folder, "--lang", "en", checker=str(kit / "check.py"))
    state = watch.until(lambda s: s["rows"] and s["rows"][0]["verdict"])
    assert state["rows"][0]["verdict"]["reached"] == "3.1.3"
    with urllib.request.urlopen(watch.url, timeout=30) as answer:
        assert TEXTS["en"]["live"]["title"] in answer.read().decode("utf-8")


def test_a_save_waiting_behind_other_checks_is_never_judged_half_saved_again(
        tmp_path, watching):
    # Every core is busy with a slow check when Zoe's save has held; before
    # her turn comes she starts her next save, which takes a while: her turn
    # checks neither the save she has started writing over, nor the pieces.
    folder = tmp_path / "class"
    folder.mkdir()
    for number in range(os.cpu_count()):
        (folder / ("a%d.py" % number)).write_bytes(ENDLESS)
    zoe = folder / "zoe.py"
    zoe.write_bytes(step("step03_shuffle.py"))
    expect = checked_once([os.path.join(CHAPTER, "step08_recursion.py")])
    watch = watching(folder)
    watch.until(lambda s: sum(1 for row in s["rows"] if row["checking"]) == os.cpu_count())
    with open(str(zoe), "wb") as f:
        for piece in pieces(step("step08_recursion.py"), 5):
            f.write(piece)
            f.flush()
            time.sleep(1.2)
    state = watch.until(lambda s: shown(rows_by_name(s)["zoe"]) == expect[
        "step08_recursion.py"] and not rows_by_name(s)["zoe"]["waiting"] and
        not rows_by_name(s)["zoe"]["checking"])
    watch.stop()
    said = [line[3:] for line in watch.lines() if line[1] == "zoe"]
    assert said == [as_line(expect["step08_recursion.py"])]


@needs_chromium
def test_the_speed_tool_measures_every_save(tmp_path):
    # tools/bench_live.py, which docs/speed.md's figures come from, with a
    # small class for a short while.
    done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "bench_live.py"),
                           "--students", "4", "--every", "4", "--minutes", "0.25",
                           "--shot", str(tmp_path / "live")], capture_output=True, text=True,
                          encoding="utf-8", timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    saves = int(re.search(r"(\d+) saves shown on the page after", done.stdout).group(1))
    assert saves >= 8 and "never shown: 0" in done.stdout, done.stdout
    assert (tmp_path / "live.png").exists() and (tmp_path / "live_projector.png").exists()
