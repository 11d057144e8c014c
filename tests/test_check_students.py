"""chapter/check.py on programs typed as students type them from the book,
each with one slip of its own (or none, or stopped early), whose answers
were written down before the checker ever saw them: the section, the line
the slip is on, and words a message naming it must hold (expected.json
beside each folder of programs).

For every program, the checker names the right section and the slip's own
line, and never another line: a student who "fixes" a line the checker
names must be fixing the slip. A program that is right passes every
section; one stopped early shows its next section as not yet written."""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECK = os.path.join(ROOT, "chapter", "check.py")
FOLDERS = [os.path.join(ROOT, "tests", "check_programs", name)
           for name in ("students", "students_2", "students_3", "students_4")]


def expected():
    """Every program with its answer: (folder, name, answer)."""
    found = []
    for folder in FOLDERS:
        if not os.path.isdir(folder):
            continue
        with open(os.path.join(folder, "expected.json"), encoding="utf-8") as f:
            answers = json.load(f)
        found.extend((folder, name, answer) for name, answer in sorted(answers.items()))
    return found


def wrong(answer, result):
    """What the checker got wrong about one program, or None."""
    checks = result["checks"]
    failed = [c for c in checks if c["ok"] is False]
    todo = [c for c in checks if c.get("todo")]
    if answer["expect"] == "pass":
        if failed or todo:
            return "should pass, got %s" % (failed or todo)[0]
        if answer.get("note") and not result["notes"]:
            return "no note"
        return None
    if answer["expect"] == "todo":
        if failed:
            return "a correct program stopped early got a failure: %s" % failed[0]
        if not todo or todo[0]["section"] != answer["section"]:
            return "not yet written should be %s, got %s" % (answer["section"], todo)
        return None
    if not failed:
        return "a slip at %s, got no failure" % answer["section"]
    first = failed[0]
    lines = [answer["line"]] + list(answer.get("also_lines") or [])
    if first["section"] != answer["section"]:
        return "section %s, got %s" % (answer["section"], first)
    if first["line"] is not None and first["line"] not in lines:
        return "names line %s, a line that is right (the slip is on %s)" % (
            first["line"], lines)
    missing = [piece for piece in answer.get("mention") or [] if piece not in first["message"]]
    if missing:
        return "the message does not name %s: %s" % (missing, first["message"])
    return None


def test_students_programs_are_told_the_section_and_line_of_their_slip():
    answers = expected()
    assert len(answers) >= 25
    programs = [os.path.join(folder, name) for folder, name, _ in answers]
    done = subprocess.run([sys.executable, CHECK, "--json"] + programs, capture_output=True,
                          text=True, encoding="utf-8", timeout=600, cwd=ROOT)
    results = {r["file"]: r for r in json.loads(done.stdout)}
    mistakes, lines_named = [], 0
    for (folder, name, answer), program in zip(answers, programs):
        problem = wrong(answer, results[program])
        if problem:
            mistakes.append("%s: %s" % (name, problem))
        failed = [c for c in results[program]["checks"] if c["ok"] is False]
        lines = [answer.get("line")] + list(answer.get("also_lines") or [])
        lines_named += bool(failed and failed[0]["line"] in lines)
    assert not mistakes, "\n".join(mistakes)
    slips = sum(answer["expect"] == "fail" for _, _, answer in answers)
    # A slip whose fix is a line to add may be told where in words, with no
    # line named; all the others name the slip's own line.
    assert lines_named >= slips - 2
