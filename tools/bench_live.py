"""How soon a student's save shows on the live class page.

Run from the project folder:  python tools/bench_live.py
It starts the watcher as a teacher does (python chapter/check.py --watch
FOLDER) on a new folder, opens its page in headless Chromium at 1366x768,
and has a class of students save their programs into the folder: each
every EVERY seconds, from a moment of its own, the lesson's steps in order
with now and then a slip a student makes at that step (a fifth of the saves
written in pieces, as a copy over a share is). A save's time is the file's
own, its last write; the page notes on the student's row when it first
showed that save. It prints how many saves showed, after how long (median,
90th percentile, worst), how many were overtaken (the student saved again
before the page showed that save, and the newer save showed), how many
never showed, and the processor time of the watcher and its checks.

    --students 40 --every 30 --minutes 3     (the class, as said above)
    --shot PREFIX                            (the page photographed halfway:
                                              PREFIX.png, PREFIX_projector.png)
    --lang zh                                (the page's language)
"""
import argparse
import os
import random
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import test_check  # noqa: E402  (the book's listing and the slips students make)
from browser import Browser  # noqa: E402  (headless Chromium, driven)
from test_live import pieces  # noqa: E402  (a save cut where it cannot be read whole)

CHAPTER = os.path.join(ROOT, "chapter")
STEPS = sorted(name for name in os.listdir(CHAPTER)
               if name.startswith("step") and name.endswith(".py"))
# Slips a student makes at each step (index into STEPS): at the bombs, the
# flags, the neighbours and the flood, the end of a game.
SLIPS = [(2, ["no_shuffle", "bombs_19"]), (5, ["buttons_swapped", "flag_stays"]),
         (7, ["own_tile", "count_from_one"]), (8, ["isopen_missing"]),
         (10, ["never_win", "win_at_once"])]
# The names of a class: a surname and a given name each (a third of them
# after a student number).
SURNAMES = "\u5f20\u738b\u674e\u5218\u9648\u6768\u8d75\u9ec4\u5468\u5434" \
    "\u5f90\u5b59\u80e1\u6731\u9ad8\u6797\u4f55\u90ed\u9a6c\u7f57"
GIVEN = ["\u4f1f", "\u82b3", "\u5a1c", "\u6d0b", "\u9759", "\u5e06", "\u78ca", "\u857e",
         "\u6770", "\u6db5", "\u9633", "\u60a6", "\u6668", "\u7433", "\u8fdc", "\u6d69",
         "\u96ea", "\u5b87", "\u6b23", "\u6587", "\u5a77", "\u5cf0"]


def class_names(count):
    """count different names, a third of them after a student number."""
    names = []
    for n in range(count):
        name = SURNAMES[n % len(SURNAMES)] + GIVEN[(n + n // len(SURNAMES)) % len(GIVEN)]
        names.append(("%02d" % (n + 1) if n % 3 == 0 else "") + name)
    return names


def program(stage, slip, number):
    """A save's bytes: the lesson step at stage, or the book's listing with
    a slip of that step; a comment that makes every save new."""
    if slip:
        data = test_check.MISTAKES[slip][0](test_check.book()).encode("gb18030")
    else:
        with open(os.path.join(CHAPTER, STEPS[stage]), "rb") as f:
            data = f.read()
    return data + b"\n# save %d\n" % number


def slip_at(stage, rng):
    """A slip a student may make at stage (a quarter of the time), or None."""
    for last, slips in SLIPS:
        if stage <= last:
            return rng.choice(slips) if rng.random() < 0.25 else None
    return None


class Student:
    """One simulated student: saves every few seconds, one step further each
    time, now and then with a slip, which half the time is still there at the
    next save; each save's file time kept."""

    def __init__(self, folder, name, rng):
        self.path = os.path.join(folder, name + ".py")
        self.name, self.rng = name, rng
        self.stage = rng.randrange(4)
        self.slip = None
        self.saves = []

    def save(self):
        """The next save, written whole or in pieces; its file time."""
        if not (self.slip and self.rng.random() < 0.5):
            self.slip = slip_at(self.stage, self.rng)
        slip = self.slip
        data = program(self.stage, slip, len(self.saves))
        if not slip:
            self.stage = min(self.stage + 1, len(STEPS) - 1)
        with open(self.path, "wb") as f:
            if self.rng.random() < 0.2:
                for number, piece in enumerate(pieces(data)):
                    if number:
                        time.sleep(self.rng.uniform(0.3, 0.8))
                    f.write(piece)
                    f.flush()
            else:
                f.write(data)
        self.saves.append(os.stat(self.path).st_mtime)


def start_watch(folder, out, lang):
    """The watcher, started as a teacher starts it: (process, page address)."""
    env = dict(os.environ, MINESWEEP_NO_BROWSER="1")
    process = subprocess.Popen(
        [sys.executable, os.path.join(CHAPTER, "check.py"), "--watch", folder, "--lang", lang,
         "--html", os.path.join(out, "lesson.html")], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=env, text=True, encoding="utf-8")
    found = re.search(r"http://127\.0\.0\.1:\d+/", process.stdout.readline())
    if not found:
        process.kill()
        sys.exit("the watcher did not start: " + process.stderr.read())
    return process, found.group(0)


# JavaScript: each row's student name, the save it shows, and when it first showed it.
ROWS = ("[].map.call(document.querySelectorAll('.student'), function (r) {"
        " return [r.querySelector('.name').textContent, r.getAttribute('data-saved'),"
        " r.getAttribute('data-shown')]; })")


def lesson(args, folder, browser):
    """The students saving for the whole time; the saves each row showed:
    {(name, save time): time first shown}."""
    rng = random.Random(args.seed)
    students = [Student(folder, name, random.Random(rng.random()))
                for name in class_names(args.students)]
    end = time.monotonic() + args.minutes * 60
    shown, stop = {}, threading.Event()

    def work(student, start):
        """One student's saves, every args.every seconds from start."""
        when = start
        while not stop.wait(max(0.0, when - time.monotonic())) and time.monotonic() < end:
            student.save()
            when += args.every
    begin = time.monotonic()
    threads = [threading.Thread(target=work, args=(s, begin + args.every * n / len(students)))
               for n, s in enumerate(students)]
    for thread in threads:
        thread.start()
    shot = args.shot
    # Looked at until the last saves have had the page's worst time (10 s) to show.
    while any(thread.is_alive() for thread in threads) or time.monotonic() < end + 10:
        for name, saved, at in browser.evaluate(ROWS):
            if saved and at:
                shown.setdefault((name, float(saved)), float(at))
        if shot and time.monotonic() > begin + args.minutes * 40:
            photograph(browser, shot)
            shot = None
        time.sleep(0.5)
    stop.set()
    return students, shown


def waited(student, shown):
    """How long each of a student's saves took to show (those that did)."""
    mine = [(saved, at) for (name, saved), at in shown.items() if name == student.name]
    for saved in student.saves:
        at = [at for when, at in mine if abs(when - saved) < 0.002]
        if at:
            yield at[0] - saved


def overtaken_saves(student, shown):
    """How many of a student's saves never showed because a later save of
    theirs was checked first (the page shows the newest)."""
    seen = [saved for saved in student.saves if any(
        name == student.name and abs(when - saved) < 0.002 for name, when in shown)]
    last = max(seen) if seen else None
    return sum(1 for saved in student.saves if saved not in seen and last is not None
               and saved < last)


def photograph(browser, prefix):
    """The page as the teacher sees it, and on the projector."""
    browser.evaluate("window.scrollTo(0, 0)")
    browser.screenshot(prefix + ".png")
    browser.key("p")
    browser.wait_for("document.body.className === 'projector'")
    browser.screenshot(prefix + "_projector.png")
    browser.key("p")
    browser.wait_for("document.body.className === ''")


def main():
    """Run the lesson, and say how soon each save showed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--every", type=float, default=30.0)
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=48)
    parser.add_argument("--lang", default="zh")
    parser.add_argument("--shot", metavar="PREFIX")
    args = parser.parse_args()
    if args.students < 1 or args.every <= 0 or args.minutes <= 0:
        parser.error("--students, --every and --minutes must be above 0")
    out = tempfile.mkdtemp(prefix="minesweep-live-")
    folder = os.path.join(out, "class")
    os.mkdir(folder)
    load = os.getloadavg()[0]
    watch, address = start_watch(folder, out, args.lang)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        with Browser(1366, 768) as browser:
            browser.open(address)
            students, shown = lesson(args, folder, browser)
            watch.send_signal(signal.SIGINT)
            watch.communicate(timeout=120)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        if watch.poll() is None:
            watch.kill()
        shutil.rmtree(out, ignore_errors=True)
    waits = sorted(wait for s in students for wait in waited(s, shown))
    overtaken = sum(overtaken_saves(s, shown) for s in students)
    missing = sum(len(s.saves) for s in students) - len(waits) - overtaken
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print("%d students saving every %g s for %g min, %d cores (load average %.1f at the start)"
          % (args.students, args.every, args.minutes, os.cpu_count() or 1, load))
    print("%d saves shown on the page after: median %.1f s, 90%% %.1f s, worst %.1f s; "
          "overtaken by the next save: %d; never shown: %d" % (
              len(waits), statistics.median(waits), waits[int(0.9 * (len(waits) - 1))],
              waits[-1], overtaken, missing))
    print("processor time of the watcher and its checks: %.0f s (%.0f%% of the cores)" % (
        cpu, 100 * cpu / (args.minutes * 60 * (os.cpu_count() or 1))))


if __name__ == "__main__":
    main()
