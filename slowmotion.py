# Slow motion for minesweep: the recursion of open_block, watched.
#
# With slow motion on, the game lets a recorder (recorder(), below) stand in
# for open_block for one move. open_block calls itself by its name, so every
# call, the first and the recursive ones, goes through the recorder, which
# notes it and who called it, then runs the real open_block. The replay then shows those
# notes one step at a time: the call numbers, the calls waiting on the
# stack, where each call stops. The same opening done with a queue is
# open_block_queue below, in the book's terms: the queue replay runs it on
# tiles of its own, made from the same board, and the panel shows its code.
#
# Two orders of the neighbours: the reading order (top left to bottom
# right, the order the game's own tiles keep) and the book's order (the
# order of the book's shuffled blocks list, which its get_neighbours walks;
# gamestate.book_order). The calls in the book's order are worked out here,
# as the game's open_block would make them with its tiles in that order.
#
# Plain data in and out (cells are numbers, row * cols + col), with no
# pgzero or pygame, so the tests need no screen.
# Keep this file ASCII only, like minesweep.py.
import ast
import csv
import inspect
import io
import os
import sys

from solver import Cell
from wording import plain, words

SPEEDS = [1, 2, 4, 8, 15, 30, 60, 120]   # replay speeds, steps per second
START_SPEED = 3          # the speed a replay starts at (an index into SPEEDS)
CHAIN_ENDS = 3           # calls shown at each end of a long chain
DEMO = 40                # rows and cols of the recursion limit's demonstration
USUAL_LIMIT = 1000       # Python's recursion limit as it starts

# The book's open_block as the panel shows it: chapter/step10_win.py's own
# lines, without its comments (a test holds them against that file). Each
# step of a replay names the line the book's code is at by its text.
BOOK_CODE = (
    "def open_block(bk):",
    "    bk.isopen = True",
    "    bombnum = get_bomb_number(bk)",
    "    bk.image = \"minesweep_number\" + str(bombnum)",
    "    if bombnum != 0:",
    "        return",
    "    for block in get_neighbours(bk):",
    "        if not block.isopen :",
    "            open_block(block)",
)
ASKS, RETURNS, LOOPS, CHECKS, CALLS = (BOOK_CODE[2], BOOK_CODE[5], BOOK_CODE[6],
                                       BOOK_CODE[7], BOOK_CODE[8])


def queue_lines(code):
    """The lines of the queue's code (as QUEUE_CODE) that a queue replay's
    steps are at: its "continue" (a number is taken, nothing joins), its
    loop over the neighbours (a zero is taken and none joins) and that
    loop's last line (a neighbour joins the queue)."""
    # Found by where they stand in the code, not by their names or places,
    # so a name changed or a line added in open_block_queue moves none.
    tree = ast.parse("\n".join(code))
    stop = next(node for node in ast.walk(tree) if isinstance(node, ast.Continue))
    loop = next(node for node in ast.walk(tree) if isinstance(node, ast.For))
    last = loop
    while getattr(last, "body", None):
        last = last.body[-1]
    return tuple(code[node.lineno - 1] for node in (stop, loop, last))


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


# The same opening with a list used as a queue, in the book's terms, to
# hold beside the book's open_block. The queue replay (W) runs this very
# function on its own tiles and shows its lines (QUEUE_CODE), so what the
# panel shows is what made the replay; a test runs it in the book's program.
def open_block_queue(bk):
    """open_block done with a list used as a queue instead of recursion (W)."""
    # A tile is marked open as it joins the queue, so get_neighbours never
    # gives it twice; a flag stays where it is.
    queue = [bk]
    bk.isopen = True
    while queue:
        bk = queue.pop(0)
        bombnum = get_bomb_number(bk)
        bk.image = "minesweep_number" + str(bombnum)
        if bombnum != 0:
            continue
        for block in get_neighbours(bk):
            if not block.isflag:
                block.isopen = True
                queue.append(block)


def get_neighbours(bk):
    """The replay's tiles around this one that are not open yet, as the
    game's get_neighbours gives them."""
    return [block for block in bk.neighbours if not block.isopen]


def get_bomb_number(bk):
    """How many bombs are around this tile: the number the game showed on it."""
    return bk.board.numbers[bk.cell]


class QueueBoard:
    """The board a queue replay runs open_block_queue on: the number each
    tile shows, and what the code did, in order: ("open", cell) as a tile
    is marked open, ("shows", cell) as it is given its picture."""

    def __init__(self, numbers):
        """Nothing done yet."""
        self.numbers, self.done = numbers, []


class QueueTile:
    """A tile of a queue replay, with the fields open_block_queue uses (bk):
    isopen, isflag, image and its neighbours; setting isopen or image notes
    it on its board."""
    __slots__ = ("board", "cell", "opened", "isflag", "picture", "neighbours")

    def __init__(self, board, cell, isopen, isflag):
        """A tile of this board, open or not, with a flag or not."""
        self.board, self.cell, self.opened, self.isflag = board, cell, isopen, isflag
        self.picture, self.neighbours = None, []

    @property
    def isopen(self):
        """Is it open (or, in the queue, waiting to be taken)?"""
        return self.opened

    @isopen.setter
    def isopen(self, value):
        """Open it, as the code does: noted on the board."""
        self.opened = value
        self.board.done.append(("open", self.cell))

    @property
    def image(self):
        """The picture the code gave it."""
        return self.picture

    @image.setter
    def image(self, name):
        """The code shows its number: it was taken from the queue."""
        self.picture = name
        self.board.done.append(("shows", self.cell))


QUEUE_CODE = tuple(code_lines(inspect.getsource(open_block_queue).splitlines()))
TAKES_NUMBER, TAKES_ZERO, JOINS = queue_lines(QUEUE_CODE)


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
    """The steps of a recorded flood, one at a time, in the order its calls
    ran. before is the cells open before the move, numbers what each called
    cell shows, flags the cells with a flag."""
    upcoming = iter(calls)
    following = next(upcoming, None)
    called = set()
    ended = []             # calls that ended since the last step
    frames = []            # the calls running, each as its own steps to come
    last = None            # the step made last

    def call(cell, depth, via):
        """The steps of one call of open_block on cell, its own part only."""
        called.add(cell)
        bombnum = numbers[cell]
        yield Step("call", cell, words("call_starts", cell=Cell(cell),
                                       number=len(called), depth=depth),
                   ASKS, (cell, bombnum, 0, 0), via, pushed=cell)
        if bombnum != 0:
            yield Step("return", cell, words("call_number", number=bombnum), RETURNS,
                       (cell, bombnum, 0, 0))
            return
        # What get_neighbours gave when the loop began: the closed tiles.
        closed = [other for other in around[cell]
                  if other not in before and other not in called]
        count = len(closed)
        yield Step("loop", cell, words("call_loop", count=count), LOOPS,
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
                yield Step("back", cell, said, CALLS, frame)
            elif other in flags:
                yield Step("skip", other, words("call_flag", cell=Cell(other),
                                                index=index, count=count),
                           CHECKS, frame)
            else:
                yield Step("skip", other, words("call_open", cell=Cell(other),
                                                index=index, count=count),
                           CHECKS, frame)
        # The loop is over: Python is at the for line, which finds no more.
        yield Step("done", cell, words("call_done"), LOOPS, (cell, 0, count, count))

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
                    # from the line its last step was at: return, or the loop's end
                    last = Step("end", cell, words("call_end", cell=Cell(cell)),
                                last.code, popped=tuple(ended))
                    ended = []
                    yield last
            elif isinstance(step, tuple):   # a call the loop makes
                depth = len(frames) + 1
                frames.append((following[0], call(following[0], depth, step[2])))
                following = next(upcoming, None)
            else:
                step.popped, ended = tuple(ended), []
                last = step
                yield step


def recursion_depths(calls, before, numbers, around):
    """How many calls are running after each step of recursion_steps (the
    same calls, cells open before, numbers and neighbours), worked out
    without making the steps: one number a step, so also how many steps
    there are."""
    # A call's own steps are all at its depth: it starts (call), stops at
    # a number (return) or begins its loop (loop), looks at each tile its
    # loop had (back after a call it made, else skip) and ends its loop
    # (done). After the click's own call, the end (no call running).
    depths, seen = [], set(before)
    place, count = 0, len(calls)
    while place < count:
        cell = calls[place][0]
        place += 1
        seen.add(cell)
        if numbers[cell]:
            depths += (1, 1, 0)
            continue
        depths += (1, 1)
        running = [(cell, iter([near for near in around[cell] if near not in seen]))]
        while running:
            cell, loop = running[-1]
            depth = len(running)
            for other in loop:
                if place < count and calls[place] == (other, cell):
                    place += 1
                    seen.add(other)
                    if numbers[other]:
                        depths += (depth + 1, depth + 1, depth)
                        continue
                    depths += (depth + 1, depth + 1)
                    running.append((other, iter([
                        near for near in around[other] if near not in seen])))
                    break
                depths.append(depth)
            else:
                running.pop()
                depths += (depth, depth - 1) if running else (depth,)
        depths.append(0)
    return depths


class Made:
    """A list of steps made only as they are first looked at: a replay of a
    big board starts at once, and makes each step as the replay comes to it
    (going back shows steps made already). count is how many there are."""

    def __init__(self, steps, count):
        """Steps to come (an iterator), count of them; none made yet."""
        self.steps, self.count, self.made = steps, count, []

    def __len__(self):
        """How many steps there are, made or not."""
        return self.count

    def __getitem__(self, index):
        """A step (or a slice of them), made first if need be."""
        wanted = range(self.count)[index]
        last = (max(wanted, default=-1) if isinstance(index, slice) else wanted)
        while len(self.made) <= last:
            self.made.append(next(self.steps))
        return [self.made[place] for place in wanted] if isinstance(
            index, slice) else self.made[wanted]

    def __iter__(self):
        """Every step in turn."""
        return (self[place] for place in range(self.count))


def queue_steps(calls, before, numbers, flags, around):
    """The steps of the same opening done with a queue (breadth first): what
    open_block_queue does from each cell the move opened first, in turn, on
    tiles with the neighbours in around's order."""
    board = QueueBoard(numbers)
    tiles = [QueueTile(board, cell, cell in before, cell in flags)
             for cell in range(len(around))]
    for tile in tiles:
        tile.neighbours = [tiles[other] for other in around[tile.cell]]
    steps = []
    for start, caller in calls:
        if caller is None and not tiles[start].isopen:
            board.done = []
            open_block_queue(tiles[start])
            steps += taken_steps(board.done, numbers)
    return steps


def taken_steps(done, numbers):
    """A queue replay's steps from what open_block_queue did once: a step
    each tile it took, with the tiles that joined the queue then."""
    taken = []                  # (cell, the cells that joined), in turn
    for what, cell in done:
        if what == "shows":
            taken.append((cell, []))
        elif taken:             # the first tile is marked open before it is taken
            taken[-1][1].append(cell)
    steps = []
    for place, (cell, joined) in enumerate(taken):
        if numbers[cell] != 0:
            steps.append(Step("take", cell, words(
                "queue_number", cell=Cell(cell), number=numbers[cell]), TAKES_NUMBER,
                taken=place > 0))
        else:
            steps.append(Step("take", cell, words(
                "queue_zero", cell=Cell(cell), count=len(joined)),
                JOINS if joined else TAKES_ZERO, taken=place > 0, joined=tuple(joined)))
    return steps


def ordered(around, order):
    """The neighbour table with each tile's neighbours in this order of the
    cells (a list of every cell), as a list walked in that order gives them."""
    place = {cell: index for index, cell in enumerate(order)}
    return [sorted(cells, key=place.__getitem__) for cells in around]


def flood_calls(roots, before, numbers, flags, around):
    """The calls, (cell, caller's cell or None), that the game's open_block
    makes on each of roots in turn, with the neighbours in around's order:
    as the recorder would note them (worked out with a list, not Python's
    stack, so a big board needs no room)."""
    opened, calls = set(before), []

    def start(cell, caller):
        """A call begins: the tile opens; its loop's tiles, if it has one."""
        opened.add(cell)
        calls.append((cell, caller))
        closed = [] if numbers[cell] else [o for o in around[cell] if o not in opened]
        return cell, iter(closed)

    for root in roots:
        if root in opened:
            continue
        running = [start(root, None)]
        while running:
            cell, loop = running[-1]
            other = next(loop, None)
            if other is None:
                running.pop()
            elif other not in opened and other not in flags:
                running.append(start(other, cell))
    return calls


def depths_of(kind, steps):
    """How many calls are running (or tiles wait in the queue, kind
    "queue") after each of these steps."""
    depth, depths = 0, []
    for step in steps:
        if kind == "stack":
            depth += (step.pushed is not None) - len(step.popped)
        else:
            depth += len(step.joined) - (step.taken or 0)
        depths.append(depth)
    return depths


class Replay:
    """One replay of a recorded opening, as recursion ("stack") or with a
    queue ("queue"), that can step forward and back, and can ask the class
    to predict each next call (predict)."""

    def __init__(self, kind, steps, cells, closed=(), order="reading", depths=None):
        """Get ready to show these steps of an opening of these cells, in
        this order of the neighbours; closed are more cells it shows
        closed (the tiles a call cut short never reached); depths, if
        given, is the depth after each step (else counted from the steps)."""
        self.kind = kind
        self.steps = steps
        self.cells = cells
        self.order = order
        self.position = -1                  # the step shown; -1 before the first
        self.hidden = set(cells) | set(closed)   # cells shown closed still
        self.number = {}                    # cell -> its call number
        self.stack = []                     # the calls running, outermost first
        self.queue = []                     # the queue, in the queue replay
        self.paused = False
        self.wait = 0.0                     # time until the next step, s
        self.predict = False                # does it wait for a guess at each call?
        self.score = [0, 0]                 # guesses right, and guesses made
        self.verdict = None                 # the last guess's verdict, as words()
        self.verdict_at = None              # ... and the step it was said at
        self.error = None                   # a RecursionError it ends with, if any
        # The chart needs every step's depth from the start; steps still
        # to be made come with theirs.
        self.depths = depths if depths is not None else depths_of(kind, steps)
        self.deepests = []                  # the deepest so far, after each step shown

    def step(self):
        """The step shown now, or None before the first."""
        return self.steps[self.position] if self.position >= 0 else None

    def deepest(self):
        """The deepest stack (or longest queue) so far."""
        # Worked out as far as the replay has come, once.
        while len(self.deepests) <= self.position:
            made = len(self.deepests)
            self.deepests.append(max(self.depths[made], self.deepests[-1] if made else 0))
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
            # A wrong guess's reason takes time to read: the replay waits
            # on it until the next key.
            self.paused = True
        self.forward()
        self.verdict_at = self.position
        return right

    def said_now(self):
        """What the panel says of this step: a guess's verdict while its
        call shows, else the step's own words."""
        step = self.step()
        if self.verdict is not None and self.verdict_at == self.position:
            return self.verdict
        return step.said if step is not None else words("replay_start")

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
        """Go to the first step (end False) or the last (end True), paused;
        a replay that ends with a RecursionError goes to the error first."""
        self.paused = True
        stop = -1
        if end:
            stop = next((place for place, step in enumerate(self.steps)
                         if step.kind == "error" and place > self.position), None)
        while self.position != stop and (self.forward() if end else self.back()):
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

    def picture(self, cell, picture, numbered):
        """The picture a tile of the game shows now (it shows picture in
        play): closed until the replay opens it; where the replay writes a
        call's number above it (numbered), the empty tile under the number."""
        if cell in self.hidden:
            return "minesweep_block"
        if cell in self.number and numbered:
            return "minesweep_number0"
        return picture


class Opening:
    """A move recorded in slow motion: its calls of open_block, (cell,
    caller's cell or None) in call order; the board (a gamestate.Board)
    before it and after it, and the book's order of the tiles (a list of
    every cell, gamestate.book_order). It keeps the cells open before, the
    flags then, the number each called cell shows, the board's size and its
    neighbour table (reading order). depths keeps each replay's
    depths (or queue lengths) for the chart, in the order last shown."""

    def __init__(self, calls, before, after, book=None):
        """Keep what the replays need."""
        self.calls, self.before, self.flags = calls, before.opened, before.flagged
        self.numbers = {cell: after.shown[cell] for cell, caller in calls}
        self.around, self.size = after.around, after.size
        self.book = book if book is not None else list(range(len(self.around)))
        self.places = {cell: place for place, cell in enumerate(self.book)}
        self.depths, self.depths_order = {}, "reading"
        self.book_around = []       # the table in the book's order, once worked out

    def neighbours(self, order):
        """The neighbour table in this order ("reading" or "book")."""
        if order == "reading":
            return self.around
        if not self.book_around:
            self.book_around.append(ordered(self.around, self.book))
        return self.book_around[0]

    def calls_in(self, order):
        """The calls in this order: as recorded, or as the book's order makes them."""
        if order == "reading":
            return self.calls
        roots = [cell for cell, caller in self.calls if caller is None]
        return flood_calls(roots, self.before, self.numbers, self.flags,
                           self.neighbours(order))

    def index(self, cell):
        """A cell's place in the book's blocks list, counted from 0."""
        return self.places[cell]

    def replay(self, kind, order="reading"):
        """A replay of this opening, as the recursion ran it ("stack") or
        done with a queue ("queue"), with the neighbours in this order."""
        calls, around = self.calls_in(order), self.neighbours(order)
        cells = [cell for cell, caller in calls]
        if kind == "stack":
            # A big board's recursion has tens of thousands of steps: they
            # are made as the replay shows them, their depths at once.
            depths = recursion_depths(calls, self.before, self.numbers, around)
            steps = Made(recursion_steps(calls, self.before, self.numbers, self.flags,
                                         around), len(depths))
            replay = Replay(kind, steps, cells, order=order, depths=depths)
        else:
            replay = Replay(kind, queue_steps(calls, self.before, self.numbers, self.flags,
                                              around), cells, order=order)
        if order != self.depths_order:
            self.depths, self.depths_order = {}, order
        self.depths[kind] = replay.depths
        return replay

    def error_replay(self, opened, message, raised):
        """The replay of this opening (reading order) cut where Python
        stopped it with a RecursionError after opening opened tiles at its
        usual limit; its last steps say so, and what the game's limit
        (raised, fix c) does. The tiles it never reached stay closed."""
        full = self.replay("stack")
        calls = [index for index, step in enumerate(full.steps) if step.kind == "call"]
        cut = calls[min(opened, len(calls)) - 1] + 1
        steps = full.steps[:cut]
        depth = full.depths[cut - 1]
        steps.append(Step("error", steps[-1].cell, words(
            "recursion_error", message=message, calls=opened, depth=depth,
            limit=USUAL_LIMIT), CALLS, steps[-1].frame))
        steps.append(Step("fixed", steps[-1].cell, words(
            "recursion_fixed", limit=USUAL_LIMIT, raised=raised, tiles=len(self.around),
            calls=len(self.calls), deepest=max(full.depths)), CALLS, steps[-1].frame))
        cells = [cell for cell, caller in self.calls]
        replay = Replay("stack", steps, cells[:opened], closed=cells[opened:])
        replay.error = message
        return replay


def calls_table(opening, order="reading"):
    """The calls of an opening for a worksheet, in this order: (call, cell,
    depth, bombs, stop, caller, last) each, in call order; stop is why the
    call returned without calling further, as words(), or None if it called
    further; caller the number of the call that made it (None for a first
    one); last the highest call number made inside it (its own if none)."""
    calls = opening.calls_in(order)
    depth, number_of = {None: 0}, {None: None}
    callers = {caller for cell, caller in calls}
    last = list(range(len(calls) + 1))
    rows = []
    for number, (cell, caller) in enumerate(calls, 1):
        depth[cell], number_of[cell] = depth[caller] + 1, number
        bombs = opening.numbers[cell]
        stop = None
        if bombs:
            stop = words("stop_number", number=bombs)
        elif cell not in callers:
            stop = words("stop_nothing_left")
        rows.append([number, cell, depth[cell], bombs, stop, number_of[caller]])
    # A call's calls come right after it, so the last one inside a call is
    # found from the end: each call passes its last on to its caller.
    for number, cell, depth_of, bombs, stop, caller in reversed(rows):
        if caller is not None:
            last[caller] = max(last[caller], last[number])
    return [tuple(row) + (last[row[0]],) for row in rows]


def sheet_rows(opening, cols, order, speak):
    """The worksheet's lines: a title that says the click and the order
    once, the header, then a line a call: rows and cols counted from 1,
    stop in words (speak turns words into text), and in the book's order
    each tile's index in blocks (from 0, as the book counts)."""
    table = calls_table(opening, order)
    title = speak(words("sheet_title", calls=len(table), cell=Cell(table[0][1]),
                        order=words("order_" + order)))
    header = speak(words("sheet_header")).split(",")
    book = order == "book"
    lines = [[plain(title)], header + ([speak(words("sheet_index"))] if book else [])]
    for number, cell, depth, bombs, stop, caller, last in table:
        line = [number, cell // cols + 1, cell % cols + 1, depth, bombs, plain(speak(stop)),
                "" if caller is None else caller, last]
        lines.append(line + ([opening.index(cell)] if book else []))
    return lines


def sheet_map(opening, rows, cols, order, speak):
    """The board beside the worksheet, as text: each tile the click opened
    with its call number, the others as # (closed) or F (a flag); in the
    book's order also each tile's index in blocks."""
    number = {cell: place for place, (cell, caller) in enumerate(
        opening.calls_in(order), 1)}

    def other(cell):
        """A tile the click did not open."""
        return "F" if cell in opening.flags else "." if cell in opening.before else "#"

    grids = [(words("sheet_map_calls"), lambda cell: number.get(cell, other(cell)))]
    if order == "book":     # the bombs are the first indexes: only the called ones
        grids.append((words("sheet_map_index"), lambda cell: opening.index(cell) if (
            cell in number) else other(cell)))
    lines = [speak(words("sheet_map_title", order=words("order_" + order)))]
    width = len(str(rows * cols))
    for title, mark in grids:
        lines += ["", speak(title), " " * 4 + " ".join(
            str(col + 1).rjust(width) for col in range(cols))]
        for row in range(rows):
            lines.append(str(row + 1).rjust(3) + " " + " ".join(
                str(mark(row * cols + col)).rjust(width) for col in range(cols)))
    return lines


def map_path(path):
    """Where the board's picture goes beside a worksheet: its name and "_board.txt"."""
    return os.path.splitext(path)[0] + "_board.txt"


def write_calls(path, opening, order, speak):
    """Write an opening's calls (in this order) to a CSV file for
    spreadsheets (UTF-8 with a BOM, so Excel and WPS read its Chinese), and
    the board's picture beside it. (None, the line to say), or (the line to
    stop with, None) when a file cannot be written."""
    # Imported here: datafiles imports gamestate, which imports this module.
    import datafiles
    rows, cols = opening.size
    lines = sheet_rows(opening, cols, order, speak)
    sheet = io.StringIO(newline="")
    csv.writer(sheet).writerows(lines)
    board = "\n".join(sheet_map(opening, rows, cols, order, speak)) + "\n"
    try:
        # Both files whole, and both written before either replaces an old
        # one: the worksheet and the board beside it are of the same click.
        datafiles.write_whole([(path, sheet.getvalue().encode("utf-8-sig")),
                               (map_path(path), board.encode("utf-8-sig"))])
    except OSError as error:
        # The error's own text names the hidden temporary file: its reason only.
        return "minesweep: cannot write the calls to %s: %s" % (
            path, error.strerror or error), None
    return None, speak(words("sheet_written", calls=len(lines) - 2, path=path,
                             board=map_path(path)))


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
    said = [words("panel_guess" if replay.asking() and not replay.paused else
                  "panel_paused" if replay.paused else "panel_running")]
    said.append(words("panel_order", order=words("order_" + replay.order)))
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
