# Slow motion for minesweep: the recursion of open_block, watched.
#
# With slow motion on, the game lets a Recorder stand in for open_block for
# one move. open_block calls itself by its name, so every call, the first
# and the recursive ones, goes through the Recorder, which notes it and who
# called it, then runs the real open_block. The replay then shows those
# notes one step at a time: the call numbers, the calls waiting on the
# stack, where each call stops. The same opening done with a queue is the
# solver's own flood (solver.flood), run on the same board.
#
# Plain data in and out (cells are numbers, row * cols + col), with no
# pgzero or pygame, so the tests need no screen.
# Keep this file ASCII only, like minesweep.py.
import csv
import os
import sys

from solver import Cell, flood
from wording import plain, words

SPEEDS = [1, 2, 4, 8, 15, 30, 60, 120]   # replay speeds, steps per second
START_SPEED = 3          # the speed a replay starts at (an index into SPEEDS)
CHAIN_ENDS = 3           # calls shown at each end of a long chain
DEMO = 40                # rows and cols of the recursion limit's demonstration
USUAL_LIMIT = 1000       # Python's recursion limit as it starts


def recorder(real, cell_of, calls):
    """A stand-in for open_block that notes (cell, caller's cell or None)
    in calls for each call, then runs the real one."""
    running = []

    def open_block(bk):
        """Note this call and its caller, then open the tile for real."""
        cell = cell_of(bk)
        calls.append((cell, running[-1] if running else None))
        running.append(cell)
        try:
            return real(bk)
        finally:
            running.pop()

    return open_block


def run_with_limit(limit, action, *args):
    """Do action(*args) with Python's recursion limit at limit for a while:
    None, or what its RecursionError says."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        action(*args)
        return None
    except RecursionError as error:
        return str(error)
    finally:
        sys.setrecursionlimit(before)


def deepest_call(calls):
    """How many calls of a recorded flood were running at once, at most."""
    depth = {None: 0}
    for cell, caller in calls:
        depth[cell] = depth[caller] + 1
    return max(depth.values())


def code_of(function, root):
    """A function's own lines as its file (in the folder root) has them, as
    the panel shows them; () if the file cannot be read."""
    code = function.__code__
    try:
        with open(os.path.join(root, os.path.basename(code.co_filename)),
                  encoding="ascii") as f:
            return tuple(function_lines(f.read().splitlines(), code.co_firstlineno))
    except (OSError, ValueError):
        return ()


def function_lines(lines, first):
    """The lines of the function whose def is line first (counted from 1) of
    a file's lines, as the panel shows them (see code_lines)."""
    lines = lines[first - 1:]
    end = next((index for index, line in enumerate(lines[1:], 1)
                if line.strip() and not line[0].isspace()), len(lines))
    return code_lines(lines[:end])


def code_lines(lines):
    """A function's lines as the panel shows them: no comments, no
    docstrings, no blank lines; lines are the function's source, def first."""
    shown, in_doc = [], False
    for line in lines:
        text = line.strip()
        if in_doc or text.startswith('"""'):
            # A docstring ends on the line with its closing quotes.
            in_doc = not (text.endswith('"""') and (len(text) > 3 or in_doc))
            continue
        if text and not text.startswith("#"):
            shown.append(line.split("  #")[0].rstrip())
    return shown


class Step:
    """One step of a replay: what happens, to which cell, in words, and a
    word of the code line being run; the running call's own variables
    (frame: bk's cell, bombnum, the neighbour its loop is on and how many
    it has); with what the step changes, so that the replay can go back as
    well as forward."""
    __slots__ = ("kind", "cell", "said", "code", "frame", "via", "pushed", "popped",
                 "taken", "joined")

    def __init__(self, kind, cell, said, code, frame=None, via=None, pushed=None,
                 popped=(), taken=False, joined=()):
        """A step; via is (caller's cell, neighbour, of how many) for a call
        made by a loop; pushed is a call starting, popped the calls that
        ended just before it; taken and joined are the queue's changes."""
        self.kind, self.cell, self.said, self.code = kind, cell, said, code
        self.frame, self.via = frame, via
        self.pushed, self.popped = pushed, popped
        self.taken, self.joined = taken, joined


def recursion_steps(calls, before, numbers, flags, around):
    """The steps of a recorded flood, in the order its calls ran. before is
    the cells open before the move, numbers what each called cell shows,
    flags the cells with a flag."""
    steps = []
    upcoming = iter(calls)
    following = next(upcoming, None)
    called = set()
    ended = []             # calls that ended since the last step
    frames = []            # the calls running, each as its own steps to come

    def call(cell, depth, via):
        """The steps of one call of open_block on cell, its own part only."""
        called.add(cell)
        bombnum = numbers[cell]
        yield Step("call", cell, words("call_starts", cell=Cell(cell),
                                       number=len(called), depth=depth),
                   "bombnum = get_bomb_number", (cell, bombnum, 0, 0), via, pushed=cell)
        if bombnum != 0:
            yield Step("return", cell, words("call_number", number=bombnum), "return",
                       (cell, bombnum, 0, 0))
            return
        # What get_neighbours gave when the loop began: the closed tiles.
        closed = [other for other in around[cell]
                  if other not in before and other not in called]
        count = len(closed)
        yield Step("loop", cell, words("call_loop", count=count), "for block",
                   (cell, 0, 0, count))
        for index, other in enumerate(closed, 1):
            frame = (cell, 0, index, count)
            if following is not None and following == (other, cell):
                yield ("call-next", other, (cell, index, count))
                if index < count:
                    said = words("call_back", child=Cell(other), cell=Cell(cell),
                                 next=index + 1, count=count)
                else:
                    said = words("call_back_last", child=Cell(other), cell=Cell(cell))
                yield Step("back", cell, said, "open_block(block)", frame)
            elif other in flags:
                yield Step("skip", other, words("call_flag", cell=Cell(other),
                                                index=index, count=count),
                           "if not block", frame)
            else:
                yield Step("skip", other, words("call_open", cell=Cell(other),
                                                index=index, count=count),
                           "if not block", frame)
        yield Step("done", cell, words("call_done"), "for block", (cell, 0, count, count))

    while following is not None:
        frames.append((following[0], call(following[0], 1, None)))
        following = next(upcoming, None)
        while frames:
            cell, frame = frames[-1]
            step = next(frame, None)
            if step is None:
                frames.pop()
                ended.append(cell)
                if not frames:              # the click's own call has returned
                    steps.append(Step("end", cell, words("call_end", cell=Cell(cell)),
                                      "return", popped=tuple(ended)))
                    ended = []
            elif isinstance(step, tuple):   # a call the loop makes
                depth = len(frames) + 1
                frames.append((following[0], call(following[0], depth, step[2])))
                following = next(upcoming, None)
            else:
                step.popped, ended = tuple(ended), []
                steps.append(step)
    return steps


def queue_steps(calls, before, flags, bombs, around):
    """The steps of the same opening done with a queue (breadth first): the
    solver's flood from each cell the move opened first, in turn."""
    steps = []
    done = set(before)
    for start, caller in calls:
        if caller is not None or start in done:
            continue
        opened = flood(start, bombs, around,
                       lambda cell: cell not in done and cell not in flags)
        # In a queue the cells leave in the order they joined, so the cells
        # that join after a cell are the next ones of opened not yet queued.
        place = {cell: index for index, (cell, number) in enumerate(opened)}
        queued = 1
        for index, (cell, number) in enumerate(opened):
            if number != 0:
                steps.append(Step("take", cell, words(
                    "queue_number", cell=Cell(cell), number=number), "continue",
                    taken=index > 0))
                continue
            joined = tuple(other for other in around[cell]
                           if place.get(other, -1) >= queued)
            queued += len(joined)
            steps.append(Step("take", cell, words(
                "queue_zero", cell=Cell(cell), count=len(joined)), "queue.append",
                taken=index > 0, joined=joined))
        done.update(cell for cell, number in opened)
    return steps


class Replay:
    """One replay of a recorded opening, as recursion ("stack") or with a
    queue ("queue"), that can step forward and back, and can ask the class
    to predict each next call (predict)."""

    def __init__(self, kind, steps, cells):
        """Get ready to show these steps of an opening of these cells."""
        self.kind = kind
        self.steps = steps
        self.cells = cells
        self.position = -1                  # the step shown; -1 before the first
        self.hidden = set(cells)            # cells the replay shows closed still
        self.number = {}                    # cell -> its call number
        self.stack = []                     # the calls running, outermost first
        self.queue = []                     # the queue, in the queue replay
        self.paused = False
        self.wait = 0.0                     # time until the next step, s
        self.back_to = None                 # the game's mode when it ends
        self.predict = False                # does it wait for a guess at each call?
        self.score = [0, 0]                 # guesses right, and guesses made
        self.verdict = None                 # the last guess's verdict, as words()
        self.error = None                   # a RecursionError it ends with, if any
        depth, deepest, self.depths, self.deepests = 0, 0, [], []
        for step in steps:
            if kind == "stack":
                depth += (step.pushed is not None) - len(step.popped)
            else:
                depth += len(step.joined) - (step.taken or 0)
            deepest = max(deepest, depth)
            self.depths.append(depth)
            self.deepests.append(deepest)

    def step(self):
        """The step shown now, or None before the first."""
        return self.steps[self.position] if self.position >= 0 else None

    def deepest(self):
        """The deepest stack (or longest queue) so far."""
        return self.deepests[self.position] if self.position >= 0 else 0

    def asking(self):
        """True when the next step is a call the class is to guess first."""
        following = self.position + 1
        return (self.predict and following < len(self.steps)
                and self.steps[following].kind == "call"
                and self.steps[following].via is not None)

    def guess(self, cell):
        """The class guesses that the next call is on cell: score it, say
        why if wrong, and show the call. True if right."""
        call = self.steps[self.position + 1]
        right = cell == call.cell
        self.score = [self.score[0] + right, self.score[1] + 1]
        caller, index, count = call.via
        back = self.position >= 0 and self.steps[self.position].kind == "back"
        if right:
            self.verdict = words("predict_right", cell=Cell(cell))
        else:
            self.verdict = words("predict_wrong_back" if back else "predict_wrong",
                                 guess=Cell(cell), cell=Cell(call.cell),
                                 caller=Cell(caller), index=index, count=count)
        self.forward()
        return right

    def forward(self):
        """Show the next step; False when there is none."""
        if self.position + 1 >= len(self.steps):
            return False
        self.position += 1
        step = self.steps[self.position]
        for cell in step.popped:
            self.stack.pop()
        if self.kind == "stack" and step.pushed is not None:
            self.stack.append(step.pushed)
            self.open(step.pushed)
        if self.kind == "queue":
            if step.taken:
                self.queue.pop(0)
            self.open(step.cell)
            self.queue.extend(step.joined)
        return True

    def back(self):
        """Show the step before again; False at the start."""
        if self.position < 0:
            return False
        step = self.steps[self.position]
        self.position -= 1
        if self.kind == "queue":
            del self.queue[len(self.queue) - len(step.joined):]
            self.close(step.cell)
            if step.taken:
                self.queue.insert(0, step.cell)
        if self.kind == "stack" and step.pushed is not None:
            self.stack.pop()
            self.close(step.pushed)
        self.stack.extend(reversed(step.popped))
        return True

    def jump(self, end):
        """Go to the first step (end False) or the last (end True), paused."""
        self.paused = True
        while (self.forward() if end else self.back()):
            pass

    def one_step(self):
        """Space: pause, and show one step more; False at the end."""
        self.paused = True
        return self.forward()

    def run(self, dt, speed):
        """Go on by dt seconds at speed steps a second (unless paused, or a
        guess is awaited); False once the last step has been shown."""
        if self.paused or self.asking():
            return True
        self.wait -= dt
        while self.wait <= 0 and not self.asking():
            self.wait += 1 / speed
            if not self.forward():
                return self.error is not None     # an error's end stays shown
        self.wait = max(self.wait, 0.0)
        return True

    def open(self, cell):
        """Show a cell open and give it the next call number."""
        self.hidden.discard(cell)
        self.number[cell] = len(self.number) + 1

    def close(self, cell):
        """Show a cell closed again and take back its call number."""
        self.hidden.add(cell)
        del self.number[cell]


class Opening:
    """A move recorded in slow motion: its calls of open_block, (cell,
    caller's cell or None) in call order; the cells open before it; the
    number each called cell shows; the flags and the bombs; the board's
    neighbour table. depths keeps each replay's depths (or queue lengths)
    for the chart."""

    def __init__(self, calls, before, numbers, flags, bombs, around):
        """Keep what the replays need."""
        self.calls, self.before, self.numbers = calls, before, numbers
        self.flags, self.bombs, self.around = flags, bombs, around
        self.depths = {}

    def replay(self, kind):
        """A replay of this opening, as the recursion ran it ("stack") or
        done with a queue ("queue")."""
        cells = [cell for cell, caller in self.calls]
        if kind == "stack":
            steps = recursion_steps(self.calls, self.before, self.numbers,
                                    self.flags, self.around)
        else:
            steps = queue_steps(self.calls, self.before, self.flags, self.bombs,
                                self.around)
        replay = Replay(kind, steps, cells)
        self.depths[kind] = replay.depths
        return replay

    def error_replay(self, opened, message, limit):
        """The replay of this opening cut where Python stopped it with a
        RecursionError after opening opened tiles at this recursion limit;
        its last steps say so, and what a higher limit does."""
        full = self.replay("stack")
        calls = [index for index, step in enumerate(full.steps) if step.kind == "call"]
        cut = calls[min(opened, len(calls)) - 1] + 1
        steps = full.steps[:cut]
        depth = full.depths[cut - 1]
        steps.append(Step("error", steps[-1].cell, words(
            "recursion_error", message=message, calls=opened, depth=depth, limit=limit),
            "open_block(block)", steps[-1].frame))
        steps.append(Step("fixed", steps[-1].cell, words(
            "recursion_fixed", calls=len(self.calls), deepest=max(full.depths)),
            "open_block(block)", steps[-1].frame))
        replay = Replay("stack", steps, [cell for cell, caller in self.calls[:opened]])
        replay.error = message
        return replay


def calls_table(opening):
    """The calls of an opening for a worksheet: (call, cell, depth, bombs,
    stop) each, in call order; stop is why the call returned without
    calling further, as words(), or None if it called further."""
    depth, callers = {None: 0}, {caller for cell, caller in opening.calls}
    rows = []
    for number, (cell, caller) in enumerate(opening.calls, 1):
        depth[cell] = depth[caller] + 1
        bombs = opening.numbers[cell]
        stop = None
        if bombs:
            stop = words("stop_number", number=bombs)
        elif cell not in callers:
            stop = words("stop_nothing_left")
        rows.append((number, cell, depth[cell], bombs, stop))
    return rows


def write_calls(path, opening, cols, speak):
    """Write an opening's calls to a UTF-8 CSV file with a header line: rows
    and cols counted from 1, stop in words (speak turns words into text).
    None, or the line to stop with when the file cannot be written."""
    try:
        with open(path, "w", encoding="utf-8", newline="") as f:
            out = csv.writer(f)
            out.writerow(["call", "row", "col", "depth", "bombs", "stop"])
            for number, cell, depth, bombs, stop in calls_table(opening):
                out.writerow([number, cell // cols + 1, cell % cols + 1, depth, bombs,
                              plain(speak(stop))])
    except OSError as error:
        return "minesweep: cannot write the calls to %s: %s" % (path, error)
    return None


def stack_chain(stack, cols, name="open_block(%d,%d)"):
    """The calls on the stack, outermost first (or the tiles in the queue,
    front first, named "(%d,%d)"), as (names, hidden, names): a long chain
    keeps CHAIN_ENDS at each end and hides the middle."""
    names = [name % (cell // cols + 1, cell % cols + 1) for cell in stack]
    if len(names) > 2 * CHAIN_ENDS + 1:
        return names[:CHAIN_ENDS], len(names) - 2 * CHAIN_ENDS, names[-CHAIN_ENDS:]
    return names, 0, []


def status(replay, opening, limit):
    """The panel's words about where the replay is, or the last one was."""
    if replay is None:
        if opening is None:
            return [words("panel_idle")]
        return [words("panel_last", calls=len(opening.calls),
                      deepest=deepest_call(opening.calls))]
    done = len(replay.number)
    said = [words("panel_paused" if replay.paused else "panel_running")]
    if replay.predict:
        said.append(words("panel_score", right=replay.score[0], asked=replay.score[1]))
    if replay.kind == "stack":
        return [words("panel_call", done=done, total=len(replay.cells)),
                words("panel_depth", depth=len(replay.stack), deepest=replay.deepest(),
                      limit=limit)] + said
    return [words("panel_tile", done=done, total=len(replay.cells)),
            words("panel_queue", length=len(replay.queue),
                  longest=replay.deepest())] + said


def variables(replay):
    """The running call's own variables, as words() (None when no call runs)."""
    step = replay.step() if replay is not None else None
    if step is None or step.frame is None or replay.kind != "stack":
        return None
    cell, bombnum, index, count = step.frame
    if count and not index:
        return words("panel_frame_count", cell=Cell(cell), bombnum=bombnum, count=count)
    if count:
        return words("panel_frame_loop", cell=Cell(cell), bombnum=bombnum, index=index,
                     count=count)
    return words("panel_frame", cell=Cell(cell), bombnum=bombnum)
