"""How long chapter/check.py takes for a class of 40 programs.

Run from the project folder:  python tools/bench_check.py
It writes 40 programs into a temporary folder (the book's listing, the
eleven lesson steps, and the mistakes students make that tests/test_check.py
seeds into the book's listing), checks the folder as a teacher does, once
with --json, and says how long the whole run took, and the processor time
of the checker and its child processes. --runs N repeats it.
--each also checks every failing program of the class alone, as a student
does, and says how long the diagnosis took (the failing section, then the
repair that proves its line): the median and the worst, on the clock and in
processor time.
"""
import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import test_check  # noqa: E402  (the seeded mistakes)

CLASS = 40


def write_class(folder):
    """The 40 programs of a class, in folder; how many there are."""
    shutil.copyfile(test_check.BOOK, os.path.join(folder, "book.py"))
    chapter = os.path.join(ROOT, "chapter")
    steps = sorted(name for name in os.listdir(chapter) if name.startswith("step"))
    for name in steps:
        shutil.copyfile(os.path.join(chapter, name), os.path.join(folder, name))
    text = test_check.book()
    for name in sorted(test_check.MISTAKES)[:CLASS - 1 - len(steps)]:
        with open(os.path.join(folder, name + ".py"), "wb") as f:
            f.write(test_check.MISTAKES[name][0](text).encode("gb18030"))
    return len(os.listdir(folder))


def one_run(folder):
    """Wall-clock and processor seconds of one check of the folder."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, os.path.join(ROOT, "chapter", "check.py"),
                           "--json", folder], capture_output=True, timeout=900)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert done.returncode == 1, done.stderr[-2000:]
    return wall, cpu


def each_alone(folder):
    """Clock and processor seconds of checking each failing program alone."""
    times = []
    for name in sorted(os.listdir(folder)):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, os.path.join(ROOT, "chapter", "check.py"),
                               "--json", os.path.join(folder, name)],
                              capture_output=True, timeout=300)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if done.returncode == 1:                # a section failed: a diagnosis
            times.append((wall, cpu, name))
    return times


def main():
    """Check the class, and say how long it took."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--each", action="store_true",
                        help="also check each failing program alone")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="minesweep-class-")
    try:
        count = write_class(folder)
        print("%d programs, %d cores" % (count, os.cpu_count() or 1))
        for _ in range(args.runs):
            wall, cpu = one_run(folder)
            print("whole run %.1f s (%.2f s a program), processor time %.1f s" % (
                wall, wall / count, cpu))
        if args.each:
            times = sorted(each_alone(folder))
            if times:
                walls = [t[0] for t in times]
                cpus = sorted(t[1] for t in times)
                print("%d failing programs checked alone: median %.1f s, worst %.1f s (%s); "
                      "processor time median %.1f s, worst %.1f s" % (
                          len(times), walls[len(walls) // 2], walls[-1], times[-1][2],
                          cpus[len(cpus) // 2], cpus[-1]))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
