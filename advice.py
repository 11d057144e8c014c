# What the solver's findings mean for the player of minesweep: the hint's
# move and why, the reason for a guess, what a lost game could have done
# instead, and the statistics of a won game.
#
# The solver sees only what the player sees of a gamestate.Board: its size
# and bombs, its neighbour table and board.shown[cell], the number an open
# tile shows, or None for a closed one (never where the bombs are, nor the
# player's flags, which may be wrong; a hint leaves out a bomb flagged already).
# Plain data in and out (cells are numbers, row * cols + col), with no
# pgzero or pygame; the reasons are words(), which the game says in the
# player's language.
# Keep this file ASCII only, like minesweep.py.
from collections import namedtuple

from solver import Cell, Solver, choose_guess, flood
from wording import words

SAFE, RISKY = "safe", "risky"   # how the post-mortem outlines a tile: green, orange
# A move the hint shows (or autoplay makes): the cell, whether it is a bomb
# (None: a guess) and why, in words().
Move = namedtuple("Move", "cell isbomb why")
# Why a move lost, in words(): the cell to outline (or None), and how
# (SAFE, RISKY or None).
Loss = namedtuple("Loss", "said cell outline")


def moves(board):
    """The moves one look at the board (a gamestate.Board) finds, each a Move:
    the sure moves of the first rule that finds any, or else the best guess
    (isbomb None); [] when there is none. A bomb already flagged is no move."""
    def useful(fact):
        """A fact worth showing: a safe tile, or a bomb not flagged yet."""
        return not fact.isbomb or fact.cell not in board.flagged

    solver = seen_by_solver(board)
    solver.run(enough=lambda s: any(useful(fact) for fact in s.facts))
    found = [Move(fact.cell, fact.isbomb, fact_words(fact.isbomb, fact.why))
             for fact in solver.facts if useful(fact)]
    if found or not solver.chances:
        return found
    guess = choose_guess(solver)
    return [Move(guess.cell, None, guess_reason(guess, solver))]


def fact_words(isbomb, why):
    """A sure move's reason as the hint says it: "Safe: ..." or "Bomb: ..."."""
    return words("hint_bomb" if isbomb else "hint_safe", why=why)


def guess_reason(guess, solver):
    """Why this guess, in words: its chance, and what it may give next."""
    lowest = min(solver.chances.values())
    text = words("guess", cell=Cell(guess.cell), chance=round(100 * guess.chance))
    if solver.capped:
        return words("guess_rough", guess=text)
    if guess.win is not None:
        return words("guess_win", guess=text, win=round(100 * guess.win))
    if guess.forced:
        return words("guess_" + guess.forced, guess=text)
    if round(guess.chance, 9) <= round(lowest, 9):
        text = words("guess_lowest", guess=text)
    else:
        text = words("guess_not_lowest", guess=text, lowest=round(100 * lowest))
    if guess.sure_next is not None:
        text = words("guess_next", guess=text, sure=round(100 * guess.sure_next))
    if guess.cut is not None:
        text = words("guess_cut", guess=text, done=guess.cut.weighed,
                     all=guess.cut.candidates)
    return text


def chances(rows, cols, bombs, shown, around):
    """Every closed cell's chance of a bomb, from what the player sees, and
    whether the chances are exact (False when the search was too big)."""
    solver = Solver(rows, cols, bombs, shown, around).run()
    found = dict(solver.chances or {})
    for cell, isbomb in solver.known.items():
        found[cell] = 1.0 if isbomb else 0.0
    return found, not solver.capped


def chances_text(chance):
    """A chance of a bomb as a student says it: "1 in 5 (20%)", or only
    "40%" when no "1 in n" is that chance."""
    percent = round(100 * chance)
    if 0 < chance <= 0.5 and round(100 / round(1 / chance)) == percent:
        return words("one_in", n=round(1 / chance), percent=percent)
    return words("percent", percent=percent)


def seen_by_solver(board):
    """A Solver of what the player sees of a board."""
    return Solver(board.rows, board.cols, board.bombs, board.shown, board.around)


def explain_loss(board, cell, wrong_flag=None):
    """Why the move on cell lost, judged from the board just before it:
    a Loss (words, a cell to outline or None, SAFE or RISKY). wrong_flag is the
    wrongly flagged cell a chord trusted, if the move was a chord."""
    solver = seen_by_solver(board).run()
    shown = board.shown
    reasons = {fact.cell: fact.why for fact in solver.facts}
    if wrong_flag is not None:
        if solver.known.get(wrong_flag) is False:
            return Loss(words("chord_shown", cell=Cell(wrong_flag), why=reasons[wrong_flag]),
                        wrong_flag, SAFE)
        return Loss(words("chord_guess", cell=Cell(wrong_flag)), wrong_flag, RISKY)
    if solver.known.get(cell) is True:
        return Loss(words("sure_bomb", cell=Cell(cell), why=reasons[cell]), cell, RISKY)
    safe = [fact for fact in solver.facts if not fact.isbomb and shown[fact.cell] is None]
    if safe:
        return Loss(words("sure_safe", cell=Cell(safe[0].cell), why=safe[0].why),
                    safe[0].cell, SAFE)
    if solver.capped:
        return Loss(words("guessed_rough"), None, None)
    found = solver.chances
    best = min(found.values())
    safest = [other for other in found if found[other] == best]
    text = words("guessed", chance=chances_text(found[cell]))
    if found[cell] > best:
        return Loss(words("guessed_safer", text=text, cell=Cell(safest[0]),
                          best=chances_text(best)), safest[0], RISKY)
    return Loss(words("guessed_best", text=text), None, None)


def board_3bv(bombs, around):
    """Bechtel's board benchmark value: the fewest clicks that clear the
    board. It is the number of openings (connected areas of zeros, each
    cleared by one click) plus the safe cells that are not zero and touch
    no zero. bombs holds the bomb cells; around is the neighbour table."""
    zero = {cell for cell in range(len(around)) if cell not in bombs
            and not any(other in bombs for other in around[cell])}
    seen = set()
    openings = 0
    for start in zero:
        if start not in seen:       # a zero no opening so far has reached
            openings += 1
            seen.update(cell for cell, number in flood(start, bombs, around,
                                                       lambda cell: cell not in seen))
    lonely = sum(1 for cell in range(len(around))
                 if cell not in bombs and cell not in zero
                 and not any(other in zero for other in around[cell]))
    return openings + lonely


def game_stats(bbbv, clicks, seconds):
    """3BV, clicks, time, 3BV per second and efficiency of a won game."""
    return {"3bv": bbbv, "clicks": clicks, "time": seconds,
            "3bv_per_s": bbbv / max(seconds, 0.001),
            "efficiency": bbbv / clicks if clicks else 0.0}
