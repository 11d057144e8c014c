"""Check a student's own Minesweeper program, section by section of the book.

    python chapter/check.py my_program.py          (or a folder of programs)
    python chapter/check.py --json a.py b.py       (the results as JSON)
    python chapter/check.py --html class.html DIR  (a page for the teacher)
    python chapter/check.py --lang en ...          (English words; zh-TW Traditional)
    python chapter/check.py --watch DIR            (the class, live: check_live.py)

With no program named (Run in Thonny), it asks for one in a file dialog.
Each program runs in a child process of its own (check_sections.py), with
a time limit and a memory limit, in a temporary folder, headless. The words
are in check_texts.json beside this file, in each language of the game's
table (languages.py), chosen as the game chooses: --lang, MINESWEEP_LANG,
or the computer's own language; else the book's, Simplified Chinese.

A program is untrusted: each can spoil at most its own verdict. Where the
system can (Linux's Landlock), each runs shut in its own work folder
(check_sandbox.py); where it cannot, a class run says so. Exit status: 0
when every program passed every section, 1 when one did not, 2 when the
checker could not run.
"""
import argparse
import concurrent.futures
import errno
import html
import importlib.util
import json
import os
import queue
import re
import shutil
import stat
import sys
import tempfile
import time


def own_folder():
    """The folder of this file. Under pgzrun, __file__ (like __name__) is
    pgzero.builtins', and this file is the one pgzrun was given."""
    if __name__ != "pgzero.builtins":
        return os.path.dirname(os.path.abspath(__file__))
    for arg in reversed(sys.argv):
        if os.path.basename(arg) == "check.py" and os.path.isfile(arg):
            return os.path.dirname(os.path.abspath(arg))
    return os.getcwd()


HERE = own_folder()
if HERE not in sys.path:                # under pgzrun, this folder is not on the path
    sys.path.insert(0, HERE)
import check_sandbox  # noqa: E402  (beside this file)

SECTIONS = ["3.1.2", "3.1.3", "3.1.4", "3.2.1", "3.2.2", "3.3.1", "3.3.2",
            "3.3.3", "3.3.4", "3.4.1", "3.4.2"]
CHILD = os.path.join(HERE, "check_sections.py")
# The whole check of one program may take this long before its process is
# stopped; each section inside has its own, shorter, limit.
PROGRAM_SECONDS = 60
# The checker's files (the classroom kit copies them into the students'
# folder), never a student's program: in its own folder, or in any folder
# that holds a copy of it (its words file beside them). languages.py, the
# game's table of languages, lies beside it in the kit's students' folder.
CHECKER_FILES = ("check.py", "check_sandbox.py", "check_sections.py", "check_program.py",
                 "check_lines.py", "check_book.py", "check_repair.py", "check_causes.py",
                 "check_live.py", "check_live.html", "check_texts.json")
OWN_FILES = set(CHECKER_FILES) | {"languages.py"}
BOOK_LANGUAGE = "zh"     # spoken when nothing asks for another


def load_texts():
    """The words of every language, from check_texts.json: {code: words}."""
    with open(os.path.join(HERE, "check_texts.json"), encoding="utf-8") as f:
        return json.load(f)


def load_languages():
    """The game's table of languages, languages.py, beside this file (the
    kit's students' folder) or in the folder above it (the game's); None
    if neither holds one that can be read."""
    for folder in (HERE, os.path.dirname(HERE)):
        path = os.path.join(folder, "languages.py")
        if not os.path.isfile(path):
            continue
        spec = importlib.util.spec_from_file_location("minesweep_languages", path)
        languages = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(languages)
        except Exception:           # a broken file raises whatever it raises
            return None
        return languages if hasattr(languages, "choose") else None
    return None


def choose_language(asked, spoken, languages):
    """The language to speak, among the codes spoken (those the checker
    has words for): as the game chooses it (languages: languages.py),
    else the book's; without the table, asked or the book's."""
    if languages is None:
        return asked or BOOK_LANGUAGE
    return languages.choose(asked, os.environ, lambda: None, default=BOOK_LANGUAGE,
                            among=tuple(spoken))


# ------------------------------------------------------------ the programs


def find_programs(paths):
    """The .py files named, and those in the folders named, in order; and
    the paths that are not there at all. An entry that is there but is no
    file a program can be read from (a dangling link, a folder named x.py,
    a named pipe) is kept: its check says what it is."""
    found, missing = [], []
    for path in paths:
        if os.path.isdir(path) and not path.endswith(".py"):
            checker_here = os.path.samefile(path, HERE) or os.path.isfile(
                os.path.join(path, "check_texts.json"))
            names = sorted(name for name in os.listdir(path) if name.endswith(".py")
                           and not (checker_here and name in OWN_FILES))
            found.extend(os.path.join(path, name) for name in names)
        elif os.path.lexists(path):
            found.append(path)
        else:
            missing.append(path)
    return found, missing


# A program longer than this is no student's program: it is not copied.
MOST_BYTES = 4 * 1024 * 1024


class Unreadable(Exception):
    """A program that cannot be checked before it runs: the key of its
    words and their facts."""

    def __init__(self, key, **facts):
        Exception.__init__(self, key)
        self.key, self.facts = key, facts


def unreadable(error):
    """The Unreadable of an OSError met while reading or copying."""
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return Unreadable("disk_full")
    return Unreadable("unreadable", why=error.strerror or str(error))


def read_program(program):
    """The bytes of a program: only from a regular file, opened without
    waiting (a named pipe made in its place gives no program and no hang)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    if os.path.islink(program) and not os.path.exists(program):
        raise Unreadable("not_a_file")          # a link to nothing
    try:
        fd = os.open(program, flags)
    except IsADirectoryError:
        raise Unreadable("not_a_file") from None
    except OSError as error:
        raise unreadable(error) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Unreadable("not_a_file")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MOST_BYTES + 1)
    except OSError as error:
        raise unreadable(error) from None
    finally:
        os.close(fd)
    if len(data) > MOST_BYTES:
        raise Unreadable("too_long", most=MOST_BYTES // (1024 * 1024))
    return data


def copy_assets(folder, work):
    """The pictures and sounds a program uses, copied into its work folder:
    the program's own where it has them, the chapter's otherwise. One that
    cannot be read is left out (the program's check names what is missing)."""
    for kind in ("images", "sounds"):
        os.mkdir(os.path.join(work, kind))
        for source in (os.path.join(HERE, kind), os.path.join(folder, kind)):
            if not os.path.isdir(source):
                continue
            for name in os.listdir(source):
                path = os.path.join(source, name)
                if not os.path.isfile(path):
                    continue
                try:
                    shutil.copyfile(path, os.path.join(work, kind, name))
                except OSError as error:
                    if error.errno in (errno.ENOSPC, errno.EDQUOT):
                        raise


def work_folder(program, work):
    """Fill the temporary folder work with a copy of the program and its
    pictures and sounds; the copy's path."""
    data = read_program(program)
    work_file = os.path.join(work, "program.py")
    try:
        copy_assets(os.path.dirname(os.path.abspath(program)), work)
        with open(work_file, "wb") as f:
            f.write(data)
    except OSError as error:
        raise unreadable(error) from None
    return work_file


def child_env():
    """The environment of a child: headless, quiet, our own folder first."""
    env = dict(os.environ)
    # No window of a program (a Tk window, say) may open on the teacher's
    # screen: where windows need a display named, none is.
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1", PYTHONDONTWRITEBYTECODE="1")
    return env


# What a fact of a finding may be: the words put each in a sentence.
FACT_TYPES = (str, int, float, bool, type(None))


def good_facts(facts):
    """Whether facts is a finding's facts as the child writes them."""
    return isinstance(facts, dict) and all(
        isinstance(name, str) and isinstance(value, FACT_TYPES)
        for name, value in facts.items())


def good_finding(finding, section, keys):
    """Whether finding is one the child writes for section, with words
    among keys."""
    return (isinstance(finding, dict) and finding.get("section") == section and
            any(finding.get("ok") is ok for ok in (True, False, None)) and
            finding.get("key") in keys and good_line(finding.get("line")) and
            good_facts(finding.get("facts", {})) and finding.get("todo", True) is True)


def good_line(line):
    """Whether line is a line number (or None, no line)."""
    return line is None or (type(line) is int and line > 0)


def good_findings(found, keys):
    """Whether found is a list of findings as the child writes them: one a
    section from the first, and notes (if any) on the first."""
    if not isinstance(found, list) or len(found) > len(SECTIONS):
        return False
    if not all(good_finding(f, section, keys) for f, section in zip(found, SECTIONS)):
        return False
    notes = found[0].get("notes", []) if found else []
    return isinstance(notes, list) and all(
        isinstance(note, dict) and note.get("key") in keys and good_line(note.get("line"))
        and good_facts(note.get("facts", {})) for note in notes)


def run_program(program, servers=None, keys=None, on_finding=None, options=None):
    """Check one program in a confined process of its own: its list of
    findings. The answer is taken only if it is one the child writes (with
    words among keys, the messages' keys): anything else is not the
    checker's. on_finding, if given, is called with each finding as the
    check writes it (a section's failure first, then the finding that names
    its proven line: merged() puts a later one in its place); options go to
    the check (repair_seconds: how long the repair search may take, 0 for none)."""
    work = None
    try:
        try:
            work = tempfile.mkdtemp(prefix=check_sandbox.WORK_PREFIX)
        except OSError as error:
            raise unreadable(error) from None
        work_file = work_folder(program, work)
        answer = ask(os.path.abspath(program), work_file, servers, on_finding, options)
        found = merged(answer.get("found"))
        if keys is not None and not good_findings(found, keys):
            return [{"section": SECTIONS[0], "ok": False, "key": "unchecked", "line": None,
                     "facts": {}}]
        found = found or []
    except Unreadable as why:
        return [{"section": SECTIONS[0], "ok": False, "key": why.key, "line": None,
                 "facts": why.facts}]
    finally:
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
    if not found or found[-1]["ok"]:
        if len(found) < len(SECTIONS):
            key = "child_timeout" if answer["status"] == "timeout" else "child_died"
            if key == "child_died" and disk_full(work):
                key = "disk_full"           # the child could not write its answer
            found.append({"section": SECTIONS[len(found)], "ok": False, "key": key,
                          "line": None, "facts": {"seconds": PROGRAM_SECONDS}})
    return found


def merged(found):
    """The findings a check wrote, in order, where a later finding for a
    section takes its place and ends what came after it (a repair found
    after the failing section was told names another section, or the same
    one with its line). None stays None (no answer the checker writes)."""
    if not isinstance(found, list):
        return found
    result = []
    for finding in found:
        section = finding.get("section") if isinstance(finding, dict) else None
        if section in SECTIONS:
            result = [f for f in result if SECTIONS.index(f["section"]) <
                      SECTIONS.index(section)]
        elif result:
            return None                    # no section of the book's
        if isinstance(finding, dict) and "notes" not in finding and result == [] and \
                section == SECTIONS[0] and found and isinstance(found[0], dict):
            finding = dict(finding, notes=found[0].get("notes", []))
        result.append(finding)
    return result


def ask(program, work_file, servers, on_finding=None, options=None):
    """The child's answer for one program ({'status', 'found'}). A server
    that fails is replaced, and the check is made again, once; so is a
    check ended by a signal not the checker's: another program may have
    sent it."""
    answer = None
    for _ in range(2):
        answer = ask_once(program, work_file, servers, on_finding, options)
        if answer is not None and answer.get("status") != "died":
            return answer
    return answer or {"status": "timeout", "found": []}


def ask_once(program, work_file, servers, on_finding=None, options=None):
    """One check's answer, from a server of servers (a queue of them; None:
    one of its own), or from a process of its own where nothing forks;
    None if the server failed (it is replaced)."""
    if not hasattr(os, "fork"):
        answer = check_sandbox.run_alone(CHILD, PROGRAM_SECONDS, work_file, program,
                                         child_env())
        if callable(on_finding):
            for finding in answer.get("found") or []:
                on_finding(finding)
        return answer
    server = new_server() if servers is None else servers.get()
    answer = None
    try:
        answer = server.check(program, work_file, on_finding, options)
    finally:
        if answer is None or servers is None:
            server.close()
        if servers is not None:
            servers.put(server if answer is not None else new_server())
    return answer


def new_server():
    """A child that forks a confined process for each program it is asked."""
    return check_sandbox.Server(CHILD, PROGRAM_SECONDS, child_env())


def disk_full(folder):
    """Whether the disk of folder has (nearly) no room left."""
    try:
        return shutil.disk_usage(folder).free < 1024 * 1024
    except OSError:
        return False


# ------------------------------------------------------------- the words


class Facts(dict):
    """A finding's facts, where a fact the words ask for and the finding
    lacks reads as "?" rather than stopping the whole report."""

    def __missing__(self, key):
        return "?"


def fill(template, facts):
    """A template of the words with the facts put in."""
    return template.format_map(Facts(facts))


def words(texts, finding):
    """The sentence for one finding, in the language of texts: what the
    program did, and (for a cause found in its text) which line made it so."""
    facts = dict(finding.get("facts") or {})
    what = facts.get("what", "")
    when = texts["when"].get(what, texts["when"]["other"].format(what=what)) if what else ""
    facts["when"] = when
    if "side" in facts:
        facts["side"] = texts["sides"].get(facts["side"], facts["side"])
    if "axis" in facts:
        facts["axis"] = texts["axes"].get(facts["axis"], facts["axis"])
    # A line of code is quoted: one that ends in ":" would run into the colon after it.
    for line in ("code", "holder", "fix", "after"):
        if facts.get(line):
            facts[line] = fill(texts["code_quoted"], {"code": facts[line]})
    facts.setdefault("func", "")
    facts.setdefault("list", "blocks")
    if "deeper" in facts:
        facts["way"] = texts["ways"]["deeper" if facts["deeper"] else "shallower"]
    key = finding["key"]
    # What the program did, without the advice the full words add, where
    # that advice need not fit the program (a test of the student's own).
    plain = facts.get("plain") and key in texts["saw"]
    text = fill(texts["saw"][key] if plain else texts["messages"][key], facts).strip()
    # A proven repair: first what the program did (the symptom: only what
    # was seen, where there are such words), then the line.
    symptom = facts.get("symptom")
    if symptom in texts["messages"]:
        seen = fill(texts["saw"].get(symptom) or texts["messages"][symptom], facts).strip()
        text = then(seen, text, texts)
    elif facts.get("fix") and "{fix}" not in texts["messages"][finding["key"]]:
        text = then(text, fill(texts["fix_after"], facts).strip(), texts)
    saw = facts.get("saw")
    if saw and saw in texts["saw"]:
        text = fill(texts["saw"][saw], facts) + text
    if facts.get("near") and "{near}" not in texts["messages"][finding["key"]]:
        text += fill(texts["near"], {"near": facts["near"]})
    if facts.get("in_func"):
        text += fill(texts["in_func"], {"func": facts["in_func"]})
    if facts.get("stopped") and not finding.get("line"):
        text += fill(texts["stopped_at"], facts)
    if facts.get("also"):
        text += fill(texts["also_line"], facts)
    if facts.get("seen"):
        text += fill(texts["seen_at"], facts)
    if facts.get("kept_in"):
        text += " " + texts["kept_in"]
    return text


def then(first, second, texts):
    """Two sentences one after the other: the first ended with a full stop
    where it has none (Python's own words, quoted), a space between them in
    English, none in Chinese."""
    english = all(ord(letter) < 128 for letter in texts["messages"]["repair_own"])
    if not first.endswith((".", "!", "?", ")", "\u3002", "\uff01", "\uff1f", "\uff09")):
        first += "." if english else "\u3002"
    return first + (" " if english else "") + second


def report(program, found, texts):
    """The JSON object of one program: file, reached, all eleven checks
    (a section not written yet is "ok": null with "todo": true), and the
    notes on how it starts."""
    checks, reached, stopped = [], None, None
    by_section = {f["section"]: f for f in found}
    for section in SECTIONS:
        finding = by_section.get(section)
        if finding is None or stopped:
            waits = texts["not_checked_todo"] if stopped == "todo" else texts["not_checked"]
            checks.append({"section": section, "ok": None, "message": waits, "line": None})
            continue
        check = {"section": section, "ok": finding["ok"],
                 "message": words(texts, finding), "line": finding["line"]}
        if finding.get("todo"):
            check["todo"] = True
        checks.append(check)
        if finding["ok"]:
            reached = section
        else:
            stopped = "todo" if finding.get("todo") else "failed"
    notes = found[0].get("notes", []) if found else []
    return {"file": program, "reached": reached, "checks": checks,
            "notes": [{"line": note["line"], "message": words(texts, note)} for note in notes]}


def check_all(programs, texts):
    """Every program checked, two (or as many as there are cores) at once."""
    workers = max(1, min(len(programs), os.cpu_count() or 2))
    servers = None
    if hasattr(os, "fork") and len(programs) > 1:
        servers = queue.Queue()
        for _ in range(workers):
            servers.put(new_server())
    keys = set(texts["messages"])
    try:
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            founds = list(pool.map(lambda program: run_program(program, servers, keys),
                                   programs))
    finally:
        while servers is not None and not servers.empty():
            servers.get().close()
    return [report(program, found, texts) for program, found in zip(programs, founds)]


# ----------------------------------------------------------- the outputs


def class_order(name):
    """The sort key of a student's name (a program's file name, or a
    folder's) as a Chinese class list is ordered: names that start with a
    student number first, by that number; the others by pinyin, which is
    GB2312's order of its common characters (GB18030 keeps it), Latin
    letters before Chinese."""
    stem = name[:-3] if name.lower().endswith(".py") else name
    number = re.match(r"\d+", stem)
    if number:
        return (0, int(number.group()), class_order(stem[number.end():]), stem)
    return (1, 0, stem.lower().encode("gb18030", "replace"), stem)


def mark(texts, check):
    """The mark of one check in the text: passed, failed, not yet written,
    not checked."""
    if check.get("todo"):
        return texts["todo"]
    return {True: texts["passed"], False: texts["failed"], None: texts["skipped"]}[
        check["ok"]]


def as_text(results, texts):
    """What a student reads: each section, the first failure (or the first
    section still to write) in full, and the notes."""
    lines = [texts["intro"], ""]
    for result in results:
        lines.append(result["file"])
        failure = None
        for check in result["checks"]:
            title = texts["sections"][check["section"]]
            where = "  " + texts["at_line"].format(line=check["line"]) if check["line"] else ""
            lines.append("  [%s] %s %s%s" % (mark(texts, check), check["section"], title,
                                            where))
            if check["ok"] is False or check.get("todo"):
                failure = check
                lines.append("        " + check["message"])
        for note in result.get("notes", []):
            where = texts["at_line"].format(line=note["line"]) + "  " if note["line"] else ""
            lines.append("  " + texts["note"] + where + note["message"])
        if failure is None:
            lines.append("  " + texts["all_done"])
        elif result["reached"]:
            lines.append("  " + texts["reached"].format(
                section=result["reached"], title=texts["sections"][result["reached"]]))
        else:
            lines.append("  " + texts["reached_none"])
        lines.append("")
    return "\n".join(lines)


GENERATOR = b'<meta name="generator" content="check.py">'   # marks the checker's page
PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><meta name="generator" content="check.py">
<title>{title}</title>
<style>
body {{ font-family: "Microsoft YaHei", "PingFang SC", "Noto Sans CJK SC",
  "WenQuanYi Micro Hei", sans-serif; margin: 1.5em; color: #222; }}
h1 {{ font-size: 1.6em; margin: 0 0 .3em; }}
p {{ margin: .3em 0 1em; color: #555; }}
table {{ border-collapse: collapse; font-size: 15px; }}
th, td {{ border: 1px solid #bbb; padding: .3em .45em; vertical-align: top; }}
th {{ background: #eee; font-weight: normal; }}
th.sec {{ writing-mode: vertical-rl; white-space: nowrap; text-align: left;
  height: 14em; vertical-align: top; }}
td.mark {{ text-align: center; font-weight: bold; width: 1.4em; }}
td.yes {{ background: #c8ecc8; color: #185c18; }}
td.no {{ background: #f6c4c4; color: #8a1010; }}
td.skip {{ color: #aaa; }}
td.todo {{ background: #fdf1c7; color: #7a5a00; }}
td.words {{ max-width: 34em; }}
tr.count td {{ background: #f4f4f4; text-align: center; }}
</style></head><body>
<h1>{title}</h1>
<p>{note}<br>{confined}<br>{intro}<br>{made}</p>
<table>
<tr><th>{program}</th>{heads}<th>{reached}</th><th>{words}</th></tr>
{rows}
<tr class="count"><td>{count}</td>{counts}<td></td><td></td></tr>
</table></body></html>
"""


def as_html(results, texts, tag, confined):
    """One offline page for the teacher: a row per program, a column per
    section, the first failure's words in its row; confined says what this
    computer kept the programs from (check_sandbox.confinement)."""
    esc = html.escape
    results = sorted(results, key=lambda result: class_order(os.path.basename(
        result["file"])))
    heads = "".join('<th class="sec" title="%s">%s %s</th>' % (
        esc(texts["sections"][s]), s, esc(texts["sections"][s])) for s in SECTIONS)
    rows = []
    for result in results:
        cells, said = [], ""
        for check in result["checks"]:
            kind, sign = {True: ("yes", "\u2713"), False: ("no", "\u2717"),
                          None: ("skip", "\u00b7")}[check["ok"]]
            if check.get("todo"):
                kind, sign = "todo", "\u2026"
            cells.append('<td class="mark %s" title="%s">%s</td>' % (
                kind, esc(check["message"]), sign))
            if check["ok"] is False or check.get("todo"):
                where = texts["at_line_said"].format(line=check["line"]) if check[
                    "line"] else ""
                said = esc(where + check["message"])
        for note in result.get("notes", []):
            said += ("<br>" if said else "") + esc(texts["note"] + note["message"])
        rows.append("<tr><td>%s</td>%s<td>%s</td><td class=\"words\">%s</td></tr>" % (
            esc(os.path.basename(result["file"])), "".join(cells),
            esc(result["reached"] or "-"), said))
    counts = "".join("<td>%d</td>" % sum(1 for r in results if r["checks"][i]["ok"])
                     for i in range(len(SECTIONS)))
    return PAGE.format(lang=tag, title=esc(texts["html_title"]),
                       note=esc(texts["html_note"]), intro=esc(texts["html_intro"]),
                       confined=esc(texts["confined"][confined]),
                       made=esc(texts["html_made"].format(time=time.strftime(
                           "%Y-%m-%d %H:%M"))),
                       program=esc(texts["html_program"]), heads=heads,
                       reached=esc(texts["html_reached"]), words=esc(texts["html_words"]),
                       rows="\n".join(rows), count=esc(texts["html_count"]),
                       counts=counts)


# The teacher's page goes only to a new file or over a regular file that
# is none of the programs and none of the files of the checker's folder (its
# own, the lesson's steps and pages): a student's program given as the
# page's name would be lost under it, and a named pipe would make the
# checker wait for a reader for ever.


def page_fault(path, programs):
    """Why the teacher's page may not be written at path (a key of
    html_why), or None."""
    if not path.strip():
        return "empty"
    if path.lower().endswith((".py", ".pyw")):
        return "program"
    if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        return "no_folder"
    try:
        there = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError:
        return "not_a_file"
    if not stat.S_ISREG(there.st_mode):
        return "not_a_file"
    # In the checker's folder only a page it wrote itself may be written
    # again: everything else there is the checker's, or the lesson's.
    own = [os.path.join(HERE, name) for name in os.listdir(HERE)
           if not written_here(os.path.join(HERE, name))]
    for kind, paths in (("checked", programs), ("own", own)):
        for other in paths:
            try:
                if os.path.samefile(other, path):
                    return kind
            except OSError:
                continue
    return None


def written_here(path):
    """Whether the file at path is a teacher's page this checker wrote."""
    try:
        with open(path, "rb") as f:
            return GENERATOR in f.read(300)
    except OSError:
        return False


def write_page(path, text):
    """Write the page whole: into a new file beside it, then renamed over
    it, so nothing made at path meanwhile (a named pipe) is opened."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, part = tempfile.mkstemp(prefix=".check-", suffix=".html", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(part, 0o666 & ~mask)
        os.replace(part, path)
    except OSError:
        os.unlink(part)
        raise


# ------------------------------------------------------------- the start


def ask_for_programs(texts):
    """Thonny's way: a file dialog asks for the programs. None if no
    window can be opened here."""
    try:
        import tkinter
        import tkinter.filedialog
        root = tkinter.Tk()
    except Exception:               # no tkinter, or no display to show it on
        return None
    root.withdraw()
    chosen = tkinter.filedialog.askopenfilenames(
        parent=root, title=texts["choose"], filetypes=[("Python", "*.py")],
        initialdir=os.getcwd())
    root.destroy()
    return list(chosen)


def have_pgzero():
    """Whether this Python can import Pygame Zero (the children need it)."""
    try:
        return importlib.util.find_spec("pgzero") is not None
    except (ImportError, ValueError):      # a broken or blocked installation
        return False


class Unsaid(Exception):
    """What the checker says could not be written: the output is closed
    (the end of `check.py | head -1`), or its disk is full."""

    def __init__(self, full):
        Exception.__init__(self, full)
        self.full = full


def say(text, stream=None):
    """Print, whatever the console's encoding can show; Unsaid if it cannot
    be written at all."""
    stream = stream or sys.stdout
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        stream.write(text.encode(encoding, "replace").decode(encoding) + "\n")
        stream.flush()
    except BrokenPipeError:
        raise Unsaid(False) from None
    except OSError as error:
        raise Unsaid(error.strerror or str(error)) from None


OPTIONS = ("--json", "--html", "--lang", "--watch", "--help", "-h")


def parse(argv, spoken):
    """The command line: the options, and the programs in the order named;
    with the options it does not know (a list, empty if none); --lang is
    one of the languages spoken."""
    parser = argparse.ArgumentParser(
        prog="check.py", description="Check a Minesweeper program of the chapter, "
        "section by section.")
    parser.add_argument("paths", nargs="*", help="programs, or folders of programs")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--html", metavar="FILE", help="write the teacher's page to FILE")
    parser.add_argument("--watch", metavar="FOLDER", help="the class, live: a page on "
                        "this computer that shows each program saved into FOLDER, "
                        "checked, until Ctrl+C (the report goes to --html's FILE)")
    parser.add_argument("--lang", choices=list(spoken),
                        help="the checker's language (else as the game chooses: "
                             "MINESWEEP_LANG, or the computer's own)")
    # A program whose name starts with a dash (-dash.py) is a program, not
    # an option: argparse is given it as ./-dash.py, and it is named as given.
    given, named = {}, []
    for place, arg in enumerate(argv):
        if arg == "--":
            named.extend(argv[place:])
            break
        after_option = place and argv[place - 1] in ("--html", "--lang", "--watch")
        if arg.startswith("-") and len(arg) > 1 and not after_option and \
                not arg.startswith(OPTIONS) and os.path.lexists(arg):
            given[os.path.join(os.curdir, arg)] = arg
            arg = os.path.join(os.curdir, arg)
        named.append(arg)
    args, unknown = parser.parse_known_args(named)
    args.paths = [given.get(path, path) for path in args.paths]
    return args, unknown


def main(argv):
    """Check the programs named (or chosen), and say how far each got."""
    every, languages = load_texts(), load_languages()
    try:
        args, unknown = parse(argv, every)
    except SystemExit as e:
        return 0 if e.code == 0 else 2
    lang = choose_language(args.lang, every, languages)
    texts = every[lang]
    if unknown:
        say(texts["unknown_option"].format(option=unknown[0]))
        return 2
    if args.watch is not None:
        return watch_class(args, texts, language_tag(lang, languages))
    paths = args.paths
    if not paths:
        paths = ask_for_programs(texts)
        if paths is None:
            say(texts["no_display"])
            return 2
        if not paths:
            say(texts["nothing_chosen"])
            return 2
    if not have_pgzero():
        say(texts["no_pgzero"])
        return 2
    programs, missing = find_programs(paths)
    if missing or not programs:
        say(texts["no_programs"].format(path=", ".join(missing or paths)))
        return 2
    fault = args.html is not None and page_fault(args.html, programs)
    if fault:
        say(texts["html_refused"].format(path=args.html, why=texts["html_why"][fault]))
        return 2
    # A class run says what this computer keeps each program from, where
    # that is not everything; the teacher's page always says it.
    confined = check_sandbox.confinement()
    if not args.json:
        say(texts["checking"].format(count=len(programs)))
    if len(programs) > 1 and confined != "all":
        say(texts["confined"][confined], sys.stderr if args.json else sys.stdout)
    check_sandbox.never_looked_into()
    results = check_all(programs, texts)
    if args.json:
        say(json.dumps(results, ensure_ascii=False, indent=1))
    if args.html:
        try:
            write_page(args.html, as_html(results, texts, language_tag(lang, languages),
                                          confined))
        except OSError as e:
            say(texts["html_failed"].format(path=args.html, why=e.strerror or e))
            return 2
        if not args.json:
            say(texts["html_written"].format(path=args.html))
    if not args.json and not args.html:
        say(as_text(results, texts))
    everything = all(check["ok"] for result in results for check in result["checks"])
    return 0 if everything else 1


def language_tag(lang, languages):
    """The HTML tag of a language (zh-CN, say), from the game's table."""
    known = languages.BY_CODE if languages else {}
    return known[lang].tag if lang in known else lang


def watch_class(args, texts, tag):
    """--watch FOLDER: the class, live (check_live.py), until Ctrl+C."""
    if args.paths or args.json:
        say(texts["live"]["alone"])
        return 2
    if not have_pgzero():
        say(texts["no_pgzero"])
        return 2
    import check_live
    check_sandbox.never_looked_into()
    return check_live.watch(args.watch, texts, tag, args.html, check_sandbox.confinement(),
                            say)


# Run as a script, or by Pygame Zero's runner (Thonny's Pygame Zero mode
# runs a file with pgzrun, which copies pgzero.builtins' names, __name__
# too, into the module before running it): either way it checks, then ends
# by itself, before pgzrun would open a game window. An ordinary import
# does nothing.
def run(argv):
    """main, with output that cannot be written said in one line on the
    error output (a full disk), or ended quietly (a closed pipe)."""
    try:
        return main(argv)
    except Unsaid as why:
        # Nothing more may go to the closed output, not even at exit.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        if why.full:
            try:
                sys.stderr.write(spoken(argv)["unsaid"].format(why=why.full) + "\n")
            except (OSError, UnicodeError):
                pass
        return 2


def spoken(argv):
    """The words of the language the command line asks for (or the one
    the game would choose)."""
    every = load_texts()
    try:
        args, _ = parse(argv, every)
    except SystemExit:
        args = argparse.Namespace(lang=None)
    return every[choose_language(args.lang, every, load_languages())]


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
if __name__ == "pgzero.builtins" and getattr(sys, "_pgzrun", False):
    sys.exit(run([]))
