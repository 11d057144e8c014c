# The solver of minesweep: what can be known from what a player sees.
#
# Pure Python, with no pgzero or pygame, so the game, the tests and the
# benchmark all use the same code. It knows only the numbers shown, how many
# bombs there are, and its own earlier conclusions: never where the bombs
# really are, and never the player's flags (they may be wrong).
# Keep this file ASCII only, like minesweep.py.
import math
import time
from bisect import bisect
from collections import deque, namedtuple

# int.bit_count (the number of 1 bits) came in Python 3.10; on 3.7 to 3.9,
# the schools' older computers, bin() counts the same ones, a little slower.
ones = getattr(int, "bit_count", lambda number: bin(number).count("1"))

SEARCH_BUDGET = 60000    # most steps one exact search may take
NO_GUESS_TRIES = 400     # most boards tried or changed for one no-guess board
NO_GUESS_TIME = 1.5      # most time to look for one, s (huge boards)
NEAR_BEST = 0.9          # a guess is weighed if this share as safe as the safest
LOOK_AHEAD = 8           # most cells next to a number weighed for one guess
OUTSIDE_LOOKS = 6        # most cells away from every number weighed too
OUTSIDE_NEAR = 0.95      # ... if they are this share as safe as the safest
BLEND = 4                # the safest next move counts this many times the second
FIFTY_WEIGHT = 0.9       # how much a 50/50 that may form counts toward a guess
GUESS_TIME = 0.5         # most time to weigh one guess, s
BIG_BOARD = 2000         # tiles: on a bigger board one search is slow, so...
BIG_LOOK_TIME = 0.02     # ... a guess weighs cells for this long at most, s
ENDGAME_LAYOUTS = 120    # the whole game is searched when this few layouts are left
ENDGAME_NODES = 30000    # most steps that search may take


# A certain cell the solver found: whether it is a bomb, and why (a Reason).
Fact = namedtuple("Fact", "cell isbomb why")
# Why: the key of the reason's text and its facts (numbers, and cells as
# Cell), which the game puts in words as it does a wording.Said.
Reason = namedtuple("Reason", "key facts")
# Every reason the solver gives, by its key (a test holds it against the
# solver's code): the footer keeps room for the longest of them.
REASONS = ("touches_one", "touches_many", "no_bomb", "only_closed", "needs_more",
           "subset_safe", "subset_bomb", "counting", "no_way", "every_way")
# How far a big board's weighing of guesses got before its time ran out:
# the cells weighed, of how many.
Cut = namedtuple("Cut", "weighed candidates")


class Cell(int):
    """A cell number in a reason's facts, so the game knows to name it as
    a row and a column (in the player's language)."""


def place(cell, cols):
    """A cell number as the player reads it: row and column counted from 1."""
    return "row %d, col %d" % (cell // cols + 1, cell % cols + 1)


def neighbour_table(rows, cols):
    """For every cell number (row * cols + col), the cells around it: up to
    eight, in rows from the top, left to right."""
    table = []
    for row in range(rows):
        for col in range(cols):
            cell, near = row * cols + col, range(max(col - 1, 0), min(col + 2, cols))
            table.append([r * cols + c for r in range(max(row - 1, 0), min(row + 2, rows))
                          for c in near if r * cols + c != cell])
    return table


def product_comb(n, k):
    """Ways to choose k of n things (0 <= k <= n), multiplied out: math.comb
    came in Python 3.8, and Thonny 3.3 on many school computers has 3.7."""
    k = min(k, n - k)
    ways = 1
    for i in range(1, k + 1):
        ways = ways * (n - k + i) // i
    return ways


comb = getattr(math, "comb", product_comb)


def comb_or_0(n, k):
    """Ways to choose k of n things; 0 when k is impossible."""
    return comb(n, k) if 0 <= k <= n else 0


def exact_ratio(part, whole):
    """part / whole, exactly 0.0 or 1.0 when it is certain."""
    if part == 0:
        return 0.0
    if part == whole:
        return 1.0
    return part / whole


def add_shifted(total, ways, shift, weight):
    """Add ways (bombs -> count), each moved up by shift bombs and times
    weight, into total."""
    for k, count in ways.items():
        total[k + shift] = total.get(k + shift, 0) + count * weight


def families(clues):
    """The clues' cells grouped into families, cells touched by exactly the
    same clues: [(the clues' indexes, the cells)], in order of the indexes."""
    family_of = {}
    for index, clue in enumerate(clues):
        for cell in clue[2]:
            family_of.setdefault(cell, []).append(index)
    grouped = {}
    for cell, members in family_of.items():
        grouped.setdefault(tuple(members), []).append(cell)
    return sorted(grouped.items(), key=lambda item: item[0])


def family_plan(clues, order):
    """How weigh_families steps through the families in order: for each,
    where each of its clues' needs is found in the state before it (its
    place there, or -1 if the clue is not begun yet), how much room each of
    its clues has in the families after it, and which of (the state, then
    its clues' new needs) make the state after it. A state lists, in clue
    order, the needs of the clues begun and not yet finished."""
    last = {}
    for index, (members, cells) in enumerate(order):
        for m in members:
            last[m] = index
    room = [len(clue[2]) for clue in clues]
    active = []
    plan = []
    for index, (members, cells) in enumerate(order):
        place = {m: at for at, m in enumerate(active)}
        sources = [place.get(m, -1) for m in members]
        for m in members:
            room[m] -= len(cells)
        rooms = [room[m] for m in members]
        going = sorted({m for m in active + list(members) if last[m] > index})
        mine = {m: len(active) + at for at, m in enumerate(members)}
        picks = [mine[m] if m in mine else place[m] for m in going]
        plan.append((sources, rooms, picks))
        active = going
    return plan


def split_groups(clues):
    """Split clues into groups that share no closed cell with each other."""
    group_of = {}
    groups = []
    for clue in clues:
        joined = {group_of[cell] for cell in clue[2] if cell in group_of}
        merged = [clue]
        for index in joined:
            merged.extend(groups[index])
            groups[index] = []
        groups.append(merged)
        for member in merged:
            for cell in member[2]:
                group_of[cell] = len(groups) - 1
    return [group for group in groups if group]


class Solver:
    """What can be known from the open numbers and the number of bombs.

    shown[cell] is the number an open cell shows, or None for a closed one.
    known maps cells to True (certainly a bomb) or False (certainly safe);
    facts lists each Fact in the order it was found.
    """

    def __init__(self, rows, cols, bombs, shown, around, known=None):
        """Read the board; nothing is worked out yet.

        around[cell] lists the cells next to a cell (the game's neighbour_table).
        """
        self.rows, self.cols, self.bombs = rows, cols, bombs
        self.shown = shown
        self.around = around
        self.known = dict(known or {})
        self.facts = []
        self.chances = None          # cell -> chance of a bomb, once searched
        self.total = None            # how many ways the bombs can lie, once searched
        self.capped = False          # did the last exact search run out of steps?
        self.steps = 0
        # Each group's weighing (weigh_group), kept by its clues: a position
        # derived from this one (after) shares it, and most of its groups
        # are the same as here.
        self.memo = {}
        # The open numbers that still touch closed cells: the only clues.
        self.clues = []
        for cell, number in enumerate(shown):
            if number is not None:
                closed = [other for other in self.around[cell] if shown[other] is None]
                if closed:
                    self.clues.append((cell, number, closed))

    def after(self, cell=None, number=None, known=None):
        """The position after cell opens and shows number (if given), with
        known instead of this one's certain cells (if given): a new Solver,
        nothing worked out, as Solver() would make it but without reading
        the whole board again, and sharing this one's memo."""
        new = Solver.__new__(Solver)
        new.rows, new.cols, new.bombs = self.rows, self.cols, self.bombs
        new.around, new.memo = self.around, self.memo
        new.facts, new.chances, new.total, new.capped, new.steps = [], None, None, False, 0
        if known is None:
            known = self.known
        if cell is None:
            new.shown, new.clues = self.shown, self.clues
            new.known = dict(known)
            return new
        new.shown = shown = list(self.shown)
        shown[cell] = number
        new.known = {other: isbomb for other, isbomb in known.items() if other != cell}
        clues = []
        for clue in self.clues:
            if cell in clue[2]:
                closed = [other for other in clue[2] if other != cell]
                if closed:
                    clues.append((clue[0], clue[1], closed))
            else:
                clues.append(clue)
        closed = [other for other in self.around[cell] if shown[other] is None]
        if closed:
            # In cell order, as Solver() lists them.
            at = bisect([clue[0] for clue in clues], cell)
            clues.insert(at, (cell, number, closed))
        new.clues = clues
        return new

    def learn(self, cells, isbomb, why, **facts):
        """Record new certain cells, each with why: a reason's name and its
        facts (numbers, and cells as Cell), which the game puts in words."""
        for cell in cells:
            if cell not in self.known:
                self.known[cell] = isbomb
                self.facts.append(Fact(cell, isbomb, Reason(why, dict(facts, cell=Cell(cell)))))

    def open_clues(self):
        """Each clue as (cell, number, unknown cells, bombs still to find)."""
        out = []
        for cell, number, closed in self.clues:
            unknown = [other for other in closed if other not in self.known]
            if unknown:
                bombs = [other for other in closed if self.known.get(other)]
                out.append((cell, number, unknown, number - len(bombs)))
        return out

    def single_rule(self):
        """One number alone: all its bombs found, or every closed cell a bomb."""
        for cell, number, unknown, left in self.open_clues():
            at = Cell(cell)
            if left == 0:
                found = [other for other in self.around[cell] if self.known.get(other)]
                if len(found) == 1:
                    self.learn(unknown, False, "touches_one", number=number, at=at,
                               bomb=Cell(found[0]))
                elif found:
                    self.learn(unknown, False, "touches_many", number=number, at=at,
                               count=len(found))
                else:
                    self.learn(unknown, False, "no_bomb", number=number, at=at)
            elif left == len(unknown) and left == number:
                self.learn(unknown, True, "only_closed", number=number, at=at,
                           closed=left)
            elif left == len(unknown):
                self.learn(unknown, True, "needs_more", number=number, at=at,
                           left=left, closed=left)

    def subset_rule(self):
        """Two numbers: if one's closed cells all touch the other, subtract."""
        clues = self.open_clues()
        by_cell = {}
        for index, clue in enumerate(clues):
            for cell in clue[2]:
                by_cell.setdefault(cell, []).append(index)
        for a, (cell_a, number_a, unknown_a, left_a) in enumerate(clues):
            small = set(unknown_a)
            partners = {b for cell in unknown_a for b in by_cell[cell] if b != a}
            for b in sorted(partners):
                cell_b, number_b, unknown_b, left_b = clues[b]
                big = set(unknown_b)
                if not small < big:
                    continue
                rest = sorted(big - small)
                pair = dict(number_a=number_a, at_a=Cell(cell_a),
                            number_b=number_b, at_b=Cell(cell_b))
                if left_b == left_a:
                    self.learn(rest, False, "subset_safe", **pair)
                elif left_b - left_a == len(rest):
                    self.learn(rest, True, "subset_bomb", **pair)

    def unknown_cells(self):
        """The closed cells not yet worked out."""
        return [cell for cell, number in enumerate(self.shown)
                if number is None and cell not in self.known]

    def bombs_left(self):
        """Bombs not yet worked out."""
        return self.bombs - sum(1 for isbomb in self.known.values() if isbomb)

    def count_rule(self):
        """All the bombs are found, or every closed cell left is a bomb."""
        unknown = self.unknown_cells()
        if unknown and self.bombs_left() == 0:
            self.learn(unknown, False, "counting")
        elif unknown and self.bombs_left() == len(unknown):
            self.learn(unknown, True, "counting")

    def exact_rule(self):
        """Weigh every way the bombs can lie; cells safe or bombs in all are sure."""
        self.chances = self.search()
        if self.capped:
            return
        safe = [cell for cell, chance in self.chances.items() if chance == 0]
        bombs = [cell for cell, chance in self.chances.items() if chance == 1]
        self.learn(safe, False, "no_way")
        self.learn(bombs, True, "every_way")

    def run(self, enough=None):
        """Use the rules, simplest first, until nothing new or enough(self)."""
        rules = (self.single_rule, self.subset_rule, self.count_rule,
                 self.exact_rule)
        while True:
            for rule in rules:
                before = len(self.facts)
                rule()
                if len(self.facts) > before:
                    break
            else:
                return self
            if enough is not None and enough(self):
                return self

    def search(self):
        """The exact chance of a bomb in every unknown cell (docs/solver.md).

        Each call has its own SEARCH_BUDGET steps; past them the chances are
        rough, self.capped is True and self.total is None.
        """
        self.steps, self.capped, self.total = 0, False, None
        clues = self.open_clues()
        unknown = self.unknown_cells()
        edge = {cell for clue in clues for cell in clue[2]}
        outside = len(unknown) - len(edge)
        left = self.bombs_left()
        groups = [self.weigh_group(group) for group in split_groups(clues)]

        # On a big board comb(outside, ...) has thousands of digits and takes
        # a millisecond or more, and the groups ask for the same few again and
        # again: each is worked out once a search.
        outside_ways = {}

        def ways_outside(bombs):
            """Ways this many bombs lie in the cells away from every number."""
            if bombs not in outside_ways:
                outside_ways[bombs] = comb_or_0(outside, bombs)
            return outside_ways[bombs]

        def with_outside(total, taken=0):
            """Weigh each count of bombs by the ways the rest lie outside."""
            return sum(ways * ways_outside(left - taken - k)
                       for k, ways in total.items())

        # ways[k]: in how many ways a group of linked clues holds k bombs.
        # Groups do not share cells, so their ways multiply; the cells away
        # from every number share whatever bombs are left over.
        counts = [ways for ways, families in groups]
        before = [{0: 1}]                  # before[i]: groups 0..i-1 together
        for ways in counts:
            before.append(self.multiply(before[-1], ways))
        after = [{0: 1}]                   # after[-1 - i]: groups i+1.. together
        for ways in reversed(counts):
            after.append(self.multiply(after[-1], ways))
        after.reverse()
        if self.capped:                    # in any group, or in combining them
            return self.rough_chances(clues, unknown, edge, outside, left)
        everything = before[-1]
        weight = with_outside(everything)
        self.total = weight
        chances = {}
        for index, (ways, families) in enumerate(groups):
            others = self.multiply(before[index], after[index + 1])
            factor = {k: with_outside(others, k) for k in ways}
            for cells, bombs_by_k in families:
                hits = sum(count * factor[k] for k, count in bombs_by_k.items())
                for cell in cells:
                    chances[cell] = exact_ratio(hits, weight * len(cells))
        if outside:
            hits = sum(ways * comb_or_0(outside - 1, left - k - 1)
                       for k, ways in everything.items())
            for cell in unknown:
                if cell not in edge:
                    chances[cell] = exact_ratio(hits, weight)
        return chances

    def weigh_group(self, clues):
        """For one group of linked clues: ways[k] and, per cell, bomb counts
        (from the memo if this group was weighed before: it counts the same
        steps, so a search is cut short exactly when it would have been)."""
        key = tuple((clue[0], clue[3], tuple(clue[2])) for clue in clues)
        if key in self.memo:
            ways, families, steps = self.memo[key]
            self.steps += steps
            if self.steps > SEARCH_BUDGET:
                self.capped = True
            return ways, families
        start = self.steps
        ways, families = self.weigh_families(clues)
        if not self.capped:
            self.memo[key] = ways, families, self.steps - start
        return ways, families

    def weigh_families(self, clues):
        """weigh_group's count itself, family by family."""
        # Cells touched by exactly the same clues are alike: we choose how
        # many bombs such a family holds, not which of its cells.
        order = families(clues)
        plan = family_plan(clues, order)
        # Forward, family by family: the ways to fill the families so far,
        # by what the clues still open need (the state) and by bombs used;
        # with how many partial fillings reach each state, which is how many
        # steps a plain backtracking search takes, and what the budget counts.
        layer = {(): [1, {0: 1}]}
        layers = []
        steps = 0
        for (members, cells), (sources, rooms, picks) in zip(order, plan):
            steps += sum(entry[0] for entry in layer.values())
            if self.steps + steps > SEARCH_BUDGET:
                self.steps += steps
                self.capped = True
                return {}, []
            size = len(cells)
            moves = {}
            following = {}
            for state, (paths, ways) in layer.items():
                need = [state[at] if at >= 0 else clues[m][3]
                        for m, at in zip(members, sources)]
                low = max([0] + [n - r for n, r in zip(need, rooms)])
                high = min([size] + need)
                here = []
                for count in range(low, high + 1):
                    whole = state + tuple(n - count for n in need)
                    new = tuple(whole[at] for at in picks)
                    weight = comb(size, count)
                    entry = following.get(new)
                    if entry is None:
                        entry = following[new] = [0, {}]
                    entry[0] += paths
                    add_shifted(entry[1], ways, count, weight)
                    here.append((count, weight, new))
                moves[state] = here
            layers.append((layer, moves))
            layer = following
        steps += sum(entry[0] for entry in layer.values())
        self.steps += steps
        if self.steps > SEARCH_BUDGET:
            self.capped = True
            return {}, []
        ways = layer[()][1] if () in layer else {}
        # Backward: the ways to fill the families after each state; a
        # family's bomb count in every whole filling is the ways before it,
        # times its own count, times the ways after it.
        back = {(): {0: 1}}
        hits = []
        for layer, moves in reversed(layers):
            earlier = {}
            counted = {}
            for state, here in moves.items():
                rest, mine = {}, {}
                for count, weight, new in here:
                    later = back.get(new)
                    if later:
                        add_shifted(rest, later, count, weight)
                        if count:
                            add_shifted(mine, later, count, weight * count)
                if rest:
                    earlier[state] = rest
                if mine:
                    for k1, w1 in layer[state][1].items():
                        add_shifted(counted, mine, k1, w1)
            hits.append(counted)
            back = earlier
        hits.reverse()
        return ways, [(cells, counted) for (members, cells), counted in zip(order, hits)]

    def multiply(self, ways1, ways2):
        """Bomb counts of two independent parts together: {k: ways}."""
        self.steps += len(ways1) * len(ways2)
        if self.steps > SEARCH_BUDGET:
            self.capped = True
        if self.capped:
            return ways1                   # the answer will not be used
        product = {}
        for k1, w1 in ways1.items():
            for k2, w2 in ways2.items():
                product[k1 + k2] = product.get(k1 + k2, 0) + w1 * w2
        return product

    def rough_chances(self, clues, unknown, edge, outside, left):
        """When the search is too big: each cell's worst local density, never 0 or 1."""
        chances = {}
        for cell, number, cells, need in clues:
            for other in cells:
                chances[other] = max(chances.get(other, 0.0), need / len(cells))
        spare = max(left - sum(chances.values()), 0)
        for cell in unknown:
            if cell not in edge:
                chances[cell] = spare / outside if outside else 0.5
        return {cell: min(max(chance, 0.01), 0.99) for cell, chance in chances.items()}


def best_guess(chances, around):
    """The cell with the lowest chance of a bomb.

    Ties go to the cell with the fewest neighbours (a corner, then an edge:
    it is likelier to be a 0 and open an area), then to the top-left one.
    """
    return min(chances, key=lambda cell: (round(chances[cell], 9),
                                          len(around[cell]), cell))


def keep_free(first, around, bombs):
    """Cells kept free of bombs at the first click: it and its neighbours,
    or just it where the board is too crowded for that."""
    free = {first, *around[first]}
    if len(around) - len(free) < bombs:
        free = {first}
    return free


class Guess:
    """A guess and why: the cell, its chance of a bomb, and, one move ahead,
    the chance that it is safe and shows a number that makes a sure move."""

    def __init__(self, cell, chance, sure_next=None, score=None, win=None,
                 forced=None):
        """Remember the guess."""
        self.cell, self.chance = cell, chance
        self.sure_next = sure_next      # P(sure move next | safe), or None
        self.score = score              # P(safe) x expected safety next
        self.win = win                  # the chance to win the game, or None
        self.forced = forced            # "fifty": a 50/50 no move can settle;
                                        # "or_safe": a 50/50 or safe; or None
        self.cut = None                 # a Cut when
                                        # a big board's time ran out first


def outside_candidates(solver, clues, edge):
    """Cells away from every number worth weighing: some with the fewest
    closed neighbours (likeliest to be a 0), some two steps from a number
    (what they show tells about the cells next to it). clues and edge are
    the solver's open clues and the cells they touch."""
    rows, cols, shown, around = solver.rows, solver.cols, solver.shown, solver.around
    outside = [cell for cell in solver.unknown_cells() if cell not in edge]
    if not outside:
        return []
    closed = {cell: sum(1 for other in around[cell] if shown[other] is None)
              for cell in outside}
    fewest = sorted(outside, key=lambda cell: (closed[cell], cell))
    near = set()
    for cell, number, unknown, left in clues:
        row, col = divmod(cell, cols)
        for r, c in ((row - 2, col), (row + 2, col), (row, col - 2), (row, col + 2)):
            if 0 <= r < rows and 0 <= c < cols and r * cols + c in closed:
                near.add(r * cols + c)
    half = OUTSIDE_LOOKS // 2
    chosen = fewest[:OUTSIDE_LOOKS - min(half, len(near))]
    chosen += [cell for cell in sorted(near) if cell not in chosen][:half]
    return chosen


def guess_candidates(solver, influence=None):
    """The cells worth weighing: next to a number and nearly as safe as the
    safest (the safest first), then a few away from every number, if those
    are nearly as safe too, and the cells nearly as safe counting the 50/50s
    they may settle (influence, from fifty_influence)."""
    chances = solver.chances
    safest = 1 - min(chances.values())
    clues = solver.open_clues()
    edge = {cell for clue in clues for cell in clue[2]}
    ranked = sorted((cell for cell in edge
                     if 1 - chances[cell] >= NEAR_BEST * safest),
                    key=lambda cell: (round(chances[cell], 9),
                                      len(solver.around[cell]), cell))
    chosen = ranked[:LOOK_AHEAD]
    outside = outside_candidates(solver, clues, edge)
    if outside and 1 - chances[outside[0]] >= OUTSIDE_NEAR * safest:
        chosen += outside
    for cell, ways in sorted((influence or {}).items()):
        if cell in chances and cell not in chosen and \
                1 - chances[cell] + ways / solver.total >= NEAR_BEST * safest:
            chosen.append(cell)
    return sorted(chosen, key=lambda cell: round(chances[cell], 9))


def next_safety(chances):
    """How safe the next move is, after a guess showed its number, as (the
    safest closed cell's safety, the blend): the safest counted BLEND times
    and the second safest once (JSMinesweeper's blend: two good moves are
    better than one). The blend is 1 when only bombs are left closed: the
    game is won."""
    first = second = 0.0
    for chance in chances.values():
        safety = 1 - chance
        if safety > first:
            first, second = safety, first
        elif safety > second:
            second = safety
    if first == 0:
        return first, 1.0
    if len(chances) == 1:
        second = first
    return first, (BLEND * first + second) / (BLEND + 1)


def weigh(solver, cell, give_up=None, beat=-1.0):
    """One move ahead, by trying every number the cell could show:
    (P(safe and a sure move follows), P(safe) x the expected next_safety,
    how many numbers it can show). A cell that can show only one number is
    "dead": opening it tells nothing. None if the time give_up passes first;
    once the score cannot reach beat, it stops with a score below beat."""
    sure, score, numbers = 0, 0.0, 0
    unweighed = 1 - solver.chances[cell]     # the safe share not yet tried
    bombs_known = sum(1 for other in solver.around[cell] if solver.known.get(other))
    closed = sum(1 for other in solver.around[cell]
                 if solver.shown[other] is None and other not in solver.known)
    for number in range(bombs_known, bombs_known + closed + 1):
        if give_up is not None and time.perf_counter() > give_up:
            return None
        if score + unweighed < beat:
            return sure, score + unweighed, numbers
        after = solver.after(cell, number)
        chances = after.search()
        if after.capped or not after.total:
            continue                        # impossible, or too big to count
        share = after.total / solver.total
        unweighed -= share
        numbers += 1
        safest, safety = next_safety(chances)
        score += share * safety
        if safest in (0, 1):
            sure += share                   # a safe move next, or the game won
    return sure, score, numbers


def walls(around, a, b):
    """The cells next to only one of a and b (besides a and b): the only
    cells whose numbers could ever tell a from b."""
    return (set(around[a]) ^ set(around[b])) - {a, b}


def forced_fifty(solver):
    """The two cells of a 50/50 that no move can ever settle, or None.

    A number says one bomb lies in the two, every number that touches one
    touches both, and every cell next to only one of them is open or a
    bomb: no number still to come can tell them apart. It must be guessed
    some time, and guessing it first is best, since what it shows is news.
    """
    shown, known, around = solver.shown, solver.known, solver.around
    for cell, number, unknown, left in solver.open_clues():
        if len(unknown) != 2 or left != 1:
            continue
        pair = set(unknown)
        a, b = unknown
        for other in walls(around, a, b):
            if known.get(other):
                continue
            if shown[other] is None or any(
                    shown[near] is None and near not in known and near not in pair
                    for near in around[other]):
                break                       # a number to come, or a link
        else:
            return a, b
    return None


def side_by_side(solver, closed):
    """Pairs of closed cells side by side (a, b), a above or left of b,
    that a forming 50/50 could be: on a board at least 3 by 3 each has two
    or more walls, so one of them must be a known bomb; only those are
    looked at, which keeps this quick on a big board."""
    rows, cols = solver.rows, solver.cols
    if rows < 3 or cols < 3:
        starts = closed
    else:
        starts = {cell for wall, isbomb in solver.known.items() if isbomb
                  for cell in solver.around[wall] if cell in closed}
    pairs = set()
    for a in starts:
        for b in (a - 1, a + 1, a - cols, a + cols):
            if b in closed and (abs(b - a) == cols or b // cols == a // cols):
                pairs.add((min(a, b), max(a, b)))
    return sorted(pairs)


def forming_fifties(solver, give_up=None):
    """Where a 50/50 may still form (JSMinesweeper's "long-term risk"): two
    closed cells side by side, walled in by the board's edge and closed
    cells, of which at most one is not yet a known bomb. For each, with the
    cells a, b and the walls not yet known: in how many layouts a is a bomb,
    b is safe and the walls are bombs. In those layouts nothing can ever
    tell a from b, and as many layouts have b and a the other way round.
    Past the time give_up it looks no further."""
    shown, known, around = solver.shown, solver.known, solver.around
    left = solver.bombs_left()
    closed = set(solver.unknown_cells())
    for a, b in side_by_side(solver, closed):
        if give_up is not None and time.perf_counter() > give_up:
            return
        sides = walls(around, a, b)
        if any(shown[wall] is not None or known.get(wall) is False for wall in sides):
            continue
        missing = [wall for wall in sides if wall not in known]
        if len(missing) > 1 or len(missing) + 1 > left:
            continue
        fixed = dict(known)
        fixed.update({wall: True for wall in missing})
        fixed[a], fixed[b] = True, False
        trial = solver.after(known=fixed)
        trial.search()
        if not trial.capped and trial.total:
            yield a, b, missing, trial.total


def fifty_influence(solver, give_up=None):
    """(cell -> in how many layouts it is part of a forming 50/50 or walls
    one in, a cell that is a 50/50 or safe, or None). A cell is a 50/50 or
    safe when in every layout where it is a bomb, a 50/50 forms around it:
    guessing it now risks nothing that would not be risked later. Past the
    time give_up it looks no further."""
    influence, pseudo = {}, None
    for a, b, missing, ways in forming_fifties(solver, give_up):
        for cell in (a, b, *missing):
            influence[cell] = influence.get(cell, 0) + ways
        for cell in (a, b):
            # (Shares, not counts: on a big board the counts pass any float.)
            if pseudo is None and abs(ways / solver.total - solver.chances[cell]) <= 1e-9:
                pseudo = cell
    return influence, pseudo


def fifty_factor(solver, influence, cell):
    """How much a guess at cell is worth more for the 50/50s it may settle:
    1 plus FIFTY_WEIGHT times the share of its safe layouts that a forming
    50/50 would cost anyway (never more than its bomb or safe layouts)."""
    bomb = solver.chances[cell]
    if bomb == 1:
        return 1.0
    share = influence.get(cell, 0) / solver.total
    return 1 + FIFTY_WEIGHT * min(share, bomb, 1 - bomb) / (1 - bomb)


def choose_guess(solver, give_up=None):
    """The guess to make when no move is sure, as a Guess.

    With exact chances: a 50/50 that must be taken some time
    (forced_fifty), or a cell that is a 50/50 or safe (fifty_influence);
    else, when few layouts are left, the move with the best chance to win
    the whole game (Endgame); else the cells nearly as safe as the safest,
    weighed one move ahead (JSMinesweeper's "secondary safety"): the best is
    the one most likely to be safe and to leave a safe move after it,
    counting the 50/50s it may settle (fifty_factor), and a dead cell only
    if every one is dead. Without exact chances (the search was too big),
    the lowest chance (best_guess).
    """
    chances = solver.chances
    plain = best_guess(chances, solver.around)
    if solver.capped or not solver.total:
        return Guess(plain, chances[plain])
    give_up = give_up or time.perf_counter() + GUESS_TIME
    # On a big board each search is slow: after BIG_LOOK_TIME the guess
    # takes the best found so far, or the lowest chance if none was weighed
    # to the end (and says how much it weighed).
    big = solver.rows * solver.cols > BIG_BOARD
    soon = min(give_up, time.perf_counter() + BIG_LOOK_TIME) if big else give_up

    def part(share):
        """The time when this share of the time left will have passed, or
        soon on a big board."""
        now = time.perf_counter()
        return min(now + max(give_up - now, 0) * share, soon)

    # A 50/50 that must be taken, or a cell that is a 50/50 or safe, is the
    # best first move whatever it shows (the tests check it by the whole
    # game tree): there is nothing to weigh or search.
    fifty = forced_fifty(solver)
    if fifty:
        cell = best_guess({cell: chances[cell] for cell in fifty}, solver.around)
        return Guess(cell, chances[cell], forced="fifty")
    influence, pseudo = fifty_influence(solver, part(0.25))
    if pseudo is not None:
        return Guess(pseudo, chances[pseudo], forced="or_safe")
    if solver.total <= ENDGAME_LAYOUTS:
        # Half the time for the whole-game search; the rest for the look-ahead.
        found = Endgame(solver, part(0.5)).best_move()
        if found is not None:
            cell, win = found
            return Guess(cell, chances[cell], win=win)
    candidates = guess_candidates(solver, influence)
    best, best_rank, cut = None, None, None
    for done, cell in enumerate(candidates):
        factor = fifty_factor(solver, influence, cell)
        # Past a living best, a cell that cannot reach its score (with room
        # for rounding) is not weighed to the end.
        living = best_rank is not None and best_rank[0]
        beat = best.score / factor - 2e-9 if living else -1.0
        weighed = weigh(solver, cell, soon, beat)
        if weighed is None:
            if big:
                cut = Cut(done, len(candidates))
            break                           # out of time: the best so far
        sure, score, numbers = weighed
        score *= factor
        rank = (numbers > 1, round(score, 9))
        if best is None or rank > best_rank:
            safe = 1 - chances[cell]
            best = Guess(cell, chances[cell], sure / safe if safe else 0.0, score)
            best_rank = rank
    best = best or Guess(plain, chances[plain])
    best.cut = cut
    return best


def flood(start, bombs, around, closed):
    """Open a cell of a plain board and every cell its zeros reach, the way
    a queue does it (first in, first out): [(cell, number)] in the order the
    cells open. bombs holds the bomb cells; closed(cell) says whether the
    flood may open a cell (it is closed, and in the game has no flag)."""
    queue = deque([start])
    queued = {start}
    opened = []
    while queue:
        cell = queue.popleft()
        number = 0
        for other in around[cell]:
            if other in bombs:
                number += 1
        opened.append((cell, number))
        if number != 0:
            continue                # a number: nothing joins the queue
        for other in around[cell]:
            if other not in queued and closed(other):
                queued.add(other)
                queue.append(other)
    return opened


def reveal_cells(shown, mines, around, start):
    """Open a cell of a plain board (shown, changed in place) and flood its
    zeros; how many cells opened."""
    if shown[start] is not None:
        return 0
    opened = flood(start, mines, around, lambda cell: shown[cell] is None)
    for cell, number in opened:
        shown[cell] = number
    return len(opened)


class Endgame:
    """The whole rest of the game, searched when few layouts are left: the
    move with the best chance of winning, trying every cell and every number
    it could show (and the area a 0 opens), to the end of the game."""

    def __init__(self, solver, give_up=None):
        """List every layout of the bombs left; self.layouts is None if
        there are more than ENDGAME_LAYOUTS. The search stops, with no
        answer, after ENDGAME_NODES steps or at the time give_up."""
        self.solver = solver
        self.give_up = give_up
        self.around = solver.around
        self.unknown = solver.unknown_cells()
        self.known_bombs = {cell for cell, isbomb in solver.known.items() if isbomb}
        self.nodes = 0
        self.memo = {}
        self.layouts = self.every_layout()

    def every_layout(self):
        """The bombs of each layout that fits the numbers (as frozensets of
        unknown cells), or None if there are too many."""
        need = {}
        for cell, number, unknown, left in self.solver.open_clues():
            need[cell] = left
        # Which clues touch each cell, and which cells each clue touches
        # (built from the clues' neighbours: a big board has many of both).
        touching = {cell: [] for cell in self.unknown}
        for clue in need:
            for cell in self.around[clue]:
                if cell in touching:
                    touching[cell].append(clue)
        cells_of = {clue: [] for clue in need}
        for cell in self.unknown:
            for clue in touching[cell]:
                cells_of[clue].append(cell)
        left = self.solver.bombs_left()
        found, chosen = [], []
        seen = {clue: 0 for clue in need}       # cells of each clue decided so far

        def place(index, bombs):
            """Decide cell index on, with this many bombs still to place."""
            self.step()
            if len(found) > ENDGAME_LAYOUTS:
                raise OverflowError
            if index == len(self.unknown):
                if bombs == 0 and all(need[clue] == 0 for clue in need):
                    found.append(frozenset(chosen))
                return
            cell = self.unknown[index]
            for isbomb in (False, True):
                if isbomb and bombs == 0:
                    continue
                if isbomb:
                    chosen.append(cell)
                for clue in touching[cell]:
                    need[clue] -= isbomb
                    seen[clue] += 1
                fits = all(0 <= need[clue] <= len(cells_of[clue]) - seen[clue]
                           for clue in touching[cell])
                if fits and bombs - isbomb <= len(self.unknown) - index - 1:
                    place(index + 1, bombs - isbomb)
                for clue in touching[cell]:
                    need[clue] += isbomb
                    seen[clue] -= 1
                if isbomb:
                    chosen.pop()

        try:
            place(0, left)
        except OverflowError:
            return None
        return found

    def step(self):
        """Count one step of the search; too many, or too late, ends it."""
        self.nodes += 1
        if self.nodes > ENDGAME_NODES or self.give_up is not None and \
                time.perf_counter() > self.give_up:
            raise OverflowError

    def shows(self, cell, layout):
        """What opening cell shows when the bombs lie so: the cells the
        flood opens and their numbers, as a sorted tuple."""
        return tuple(sorted(flood(cell, layout | self.known_bombs, self.around,
                                  self.closed.__contains__)))

    def tables(self):
        """For every unknown cell, the layouts where it is safe, and those
        split by what it shows: each a set of layouts as the bits of an int
        (bit i for layout i), so that a position of the search is one int."""
        self.safe_in, self.split = {}, {}
        for cell in self.unknown:
            views = {}
            for index, layout in enumerate(self.layouts):
                if cell not in layout:
                    view = self.shows(cell, layout)
                    views[view] = views.get(view, 0) | 1 << index
            self.split[cell] = list(views.values())
            self.safe_in[cell] = sum(self.split[cell])

    def win_chance(self, layouts, top=False):
        """The best chance to win when the layouts (an int of bits) are
        those left, and the cell that gives it.

        What was opened need not be known: a cell safe in every layout left
        that shows the same in all of them tells nothing, and one layout
        left is a won game. Below the top, a "dead" cell (one that shows the
        same whenever it is safe) is tried only if every cell is dead: it
        gives nothing but its risk, so opening it last is never worse.
        """
        if layouts in self.memo:
            return self.memo[layouts]
        self.step()
        count = ones(layouts)
        if count == 1:
            return 1.0, None
        options = []
        for cell in self.unknown:
            safe = ones(layouts & self.safe_in[cell])
            if safe:
                options.append((safe, cell))
        # The safest cells first: a cell safe in fewer layouts than the best
        # chance so far cannot beat it, and neither can any after it.
        options.sort(key=lambda option: -option[0])
        best = (-1.0, None)
        dead = []
        for safe, cell in options:
            if safe <= best[0] * count:
                break
            groups = [group for group in (layouts & part for part in self.split[cell])
                      if group]
            if len(groups) == 1 and (safe == count or not top):
                if safe < count:
                    dead.append((safe, cell, groups))
                continue                    # no news (and, if sure, no risk)
            best = self.try_cell(layouts, count, safe, cell, groups, best)
            if safe == count:
                break                       # a sure move: nothing can beat it
        if best[1] is None:
            for safe, cell, groups in dead:
                best = self.try_cell(layouts, count, safe, cell, groups, best)
        self.memo[layouts] = best
        return best

    def try_cell(self, layouts, count, safe, cell, groups, best):
        """best, or (the chance to win by opening cell, cell) if that is
        better: groups are the layouts where it is safe, by what it shows."""
        wins, untried = 0.0, safe
        for group in groups:
            if wins + untried <= best[0] * count:
                return best                 # this cell cannot beat the best
            size = ones(group)
            wins += size * self.win_chance(group)[0]
            untried -= size
        chance = wins / count
        return (chance, cell) if chance > best[0] + 1e-12 else best

    def best_move(self):
        """(cell, chance to win), or None if the search is too big."""
        if self.layouts is None or not self.layouts:
            return None
        self.closed = set(self.unknown)
        try:
            self.tables()
            chance, cell = self.win_chance((1 << len(self.layouts)) - 1, top=True)
        except OverflowError:
            return None
        return cell, chance


def play(rows, cols, mines, first, around, guess=None, give_up=None):
    """Play a board from the first click: every sure move, and guess(solver)
    (a cell) when there is none. Returns "won", "lost", or, with no guess
    or past the time give_up, what the player sees when stuck (shown, known).

    A cell the solver calls safe that holds a bomb is a bug in the solver:
    it stops everything with an error, not a lost game.
    """
    shown = [None] * (rows * cols)
    opened = reveal_cells(shown, mines, around, first)
    bombs = {}
    while opened < rows * cols - len(mines):
        solver = Solver(rows, cols, len(mines), shown, around, bombs)
        solver.run(enough=lambda s: any(not fact.isbomb for fact in s.facts))
        safe = [cell for cell, isbomb in solver.known.items()
                if not isbomb and shown[cell] is None]
        wrong = [cell for cell in safe if cell in mines]
        if wrong:
            raise AssertionError("the solver called %s safe; it is a bomb"
                                 % place(wrong[0], cols))
        if not safe:
            if guess is None or give_up is not None and time.perf_counter() > give_up:
                return shown, solver.known
            cell = guess(solver)
            if cell in mines:
                return "lost"
            safe = [cell]
        for cell in safe:
            opened += reveal_cells(shown, mines, around, cell)
        bombs = {cell: True for cell, isbomb in solver.known.items() if isbomb}
    return "won"


def sure_moves_clear(rows, cols, mines, first, around, give_up=None):
    """Play from the first click with sure moves only: None if that clears
    the board, else what the player sees when stuck (shown, known). Past the
    time give_up it stops and counts as stuck."""
    outcome = play(rows, cols, mines, first, around, None, give_up)
    return None if outcome == "won" else outcome


def nudge(mines, stuck, around, rng):
    """Simon Tatham's idea, simply: move a few bombs from where the solver
    is stuck to the unseen inside of the board. False if none can move."""
    shown, known = stuck
    stuck_bombs, inside = [], []
    for cell, number in enumerate(shown):
        if number is not None:
            continue
        if any(shown[other] is not None for other in around[cell]):
            if cell in mines and cell not in known:
                stuck_bombs.append(cell)
        elif cell not in mines:
            inside.append(cell)
    moves = min(len(stuck_bombs), len(inside), 3)
    if moves == 0:
        return False
    for old, new in zip(rng.sample(stuck_bombs, moves), rng.sample(inside, moves)):
        mines.discard(old)
        mines.add(new)
    return True


def no_guess_layout(board, first, rng):
    """Bombs (a set of cells) that sure moves alone clear from the first
    click on a board (its rows, cols, bombs and neighbour table around: a
    gamestate.Board), or None if NO_GUESS_TRIES tries or NO_GUESS_TIME found none."""
    rows, cols, bombs, around = board.rows, board.cols, board.bombs, board.around
    free = keep_free(first, around, bombs)
    places = [cell for cell in range(rows * cols) if cell not in free]
    mines = set(rng.sample(places, bombs))
    give_up = time.perf_counter() + NO_GUESS_TIME
    for _ in range(NO_GUESS_TRIES):
        if time.perf_counter() > give_up:
            break
        stuck = sure_moves_clear(rows, cols, mines, first, around, give_up)
        if stuck is None:
            return mines
        if not nudge(mines, stuck, around, rng):
            mines = set(rng.sample(places, bombs))
    return None
