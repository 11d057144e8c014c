# What the window of minesweep shows, as plain shapes: the status bar, the
# marks on the tiles, the footer's words, the slow-motion panel and the
# table of best times. The game draws the shapes (its DRAWERS in
# minesweep.py, one for each kind), and draws the window again only when
# they changed.
#
# Each kind of shape is a named tuple (below, after the colours), read by
# its fields' names. A rect is (left, top, width, height) in px.
#
# Plain data in and out, with no pgzero or pygame: the game hands in the
# board, the game's state, the view, and a Measure (below), which measures
# texts in the game's real fonts.
# Keep this file ASCII only, like minesweep.py.
import functools
import re
from collections import namedtuple

import datafiles
import gamestate
import languages
import slowmotion
import wording
from gamestate import State
from solver import REASONS, Cell
from viewport import BAR, PANEL, TilesKey
from wording import words

FOOT_FONT = 16           # size of the footer's words, px (10 px at the least)
FULL_FONT = 20           # in full screen every word is at least this size, px
TIMES_FONT = 28          # largest size of the table of best times, px
GREY, DARK, PAPER = (192, 192, 192), (128, 128, 128), (235, 235, 225)
GREEN, ORANGE, RED = (0, 200, 0), (255, 140, 0), (230, 0, 0)   # outlines
YELLOW = (255, 215, 0)   # the cursor's outline
OUTLINES = {"safe": GREEN, "risky": ORANGE}     # the post-mortem's tile
HINT_COLOURS = {False: GREEN, True: RED, None: ORANGE}   # safe, bomb, guess
# The classic Minesweeper colours of the numbers 1 to 8, but for two: the
# classic 4 (navy) is hard to tell from the 1 (blue), so ours is purple, and
# the classic 8 (mid grey) almost vanishes on the grey tile, so ours is dark
# grey (tools/make_assets.py draws the tiles with them).
NUMBER_COLOURS = {
    1: (0, 0, 255), 2: (0, 128, 0), 3: (255, 0, 0), 4: (110, 0, 140),
    5: (128, 0, 0), 6: (0, 128, 128), 7: (0, 0, 0), 8: (72, 72, 72),
}
# Colours of the replay's marks: (red, green, blue, opacity).
RUNNING = (255, 200, 0, 150)     # the call running now
WAITING = (60, 140, 255, 110)    # calls waiting on the stack, or in the queue
SKIPPED = (230, 0, 0)            # a neighbour the loop skips
CHART = {"stack": (0, 60, 200), "queue": (230, 120, 0)}   # the depth chart's lines
SMALL_MARKS = 20         # tiles this big show a replay's numbers; smaller, none, px
THICK = 40               # tiles this big outline a call number 2 px thick, else 1, px
FITS_KEPT = 512          # texts fitted to their room, kept at most
# The slow-motion panel, top to bottom: how many lines each part keeps
# room for, so that nothing moves from step to step.
PANEL_LINES = {"status": 5, "frame": 1, "step": 3, "stack": 3}
# ... in full screen, where the words are larger and the panel wider (its
# keys are in the footer, below the board, while a replay shows).
FULL_PANEL_LINES = {"status": 3, "frame": 1, "step": 4, "stack": 3}
CODE_FONT = "minesweep_mono"   # the panel's code: DejaVu Sans Mono (fonts/)
CODE_SIZE = 18           # ... at this size, px: the back row reads it
CODE_LINE = 21           # ... one line under the other this far, px
CHART_HIGH = 44          # the depth chart's height, px
# Long facts for working out how tall the footer may ever need to be.
SAMPLE = dict(row=200, col=200, number=8, count=8, closed=8, left=8, chance=100,
              lowest=100, sure=100, win=100, done=99, all=99, percent=100, n=99,
              board=gamestate.MAX_BOARD, seconds=999, digits="999999999", size=50,
              top=200, bottom=200, rows=200, cols=200, right=200, bbbv=999, clicks=999,
              time="999.99", speed="99.99", bombs=9999)


class Shape(tuple):
    """What every kind of shape is. Each carries its kind's name as its
    last field, so that a Frame never equals a Box of the same rect and
    colour (the game draws again only when the shapes are not the same),
    and tuples' own quick comparison still tells them apart."""

    __slots__ = ()


def kind(name, fields):
    """A kind of shape: a named tuple of these fields, and its kind's name."""
    return type(name, (namedtuple(name, fields + " kind", defaults=(name,)), Shape),
                {"__slots__": ()})


Box = kind("Box", "rect colour")                # a filled rect
Frame = kind("Frame", "rect colour")            # a rect's outline, 2 px thick
# A text in a font (None: pgzero's own) of this size, px; options are
# pgzero's ptext's, as sorted (name, value) pairs ("color", "topleft", ...).
Text = kind("Text", "text font size options")
Picture = kind("Picture", "name topleft")       # one of images/, its top left at (x, y)
# A number whose digits fill box (left, top, width, height) in height,
# centred in it and squeezed to its width if wider; with a white outline
# this many px thick round them (0: none). A replay's numbers on the tiles.
Digits = kind("Digits", "text box colour outline")
Tint = kind("Tint", "rect colour")              # a tile seen through a colour with opacity
Line = kind("Line", "points colour")            # lines 2 px thick through points
# The picture of the tiles in view; key (a viewport.TilesKey) is what it
# depends on, and the game draws it again when that changes.
Tiles = kind("Tiles", "key")
Fill = kind("Fill", "colour")                   # the whole window in one colour


class Measure:
    """Texts measured in real fonts (getfont(name, size) gives one), each
    answer kept: the same texts are measured every frame."""

    def __init__(self, getfont):
        """Nothing measured yet."""
        self.getfont, self.fonts, self.fits = getfont, {}, {}

    def font(self, fontname, fontsize):
        """(width of a text, height of a line) in this font and size, px."""
        if (fontname, fontsize) not in self.fonts:
            font = self.getfont(fontname, fontsize)
            width_of = functools.lru_cache(maxsize=4096)(lambda text: font.size(text)[0])
            self.fonts[fontname, fontsize] = width_of, font.get_linesize()
        return self.fonts[fontname, fontsize]

    def fit(self, text, width, most, largest, fontname, smallest=10):
        """wording.fit_lines in this font."""
        key = (text, width, most, largest, fontname, smallest)
        if key not in self.fits:
            if len(self.fits) >= FITS_KEPT:
                self.fits.clear()
            self.fits[key] = wording.fit_lines(text, width, most, largest,
                                               functools.partial(self.font, fontname),
                                               smallest)
        return self.fits[key]


class Scene:
    """The shapes of one frame."""

    def __init__(self, board, lives, view, measure):
        """A frame of this board (a gamestate.Board), the game's state
        (gamestate.Lives: the Game, what is Showing of it, the Settings and
        the Window) and view; measure (a Measure) gives the texts' sizes."""
        self.board, self.view = board, view
        self.play, self.showing, self.settings, self.window = lives
        self.font, self.fit = measure.font, measure.fit
        self.table = self.window.texts[self.settings.language]
        # The game's words are in the language's font (English too is drawn
        # in the Chinese font, which has its letters), or in pgzero's own
        # when that font could not be loaded.
        self.language = languages.BY_CODE[self.settings.language]
        self.words_font = (self.language.font if self.language.font in self.window.fonts
                           else None)
        self.level = gamestate.level_name(board.rows, board.cols, board.bombs)
        # In full screen (a projector) no word is drawn smaller than this.
        self.least = FULL_FONT if self.window.fullscreen else 0

    def say(self, key, table=None, **facts):
        """A text in the player's language (or another language's table)."""
        return wording.say(table or self.table, key, facts, self.board.cols)

    def speak(self, said):
        """Words kept by words(), said now."""
        return wording.speak(self.table, said, self.board.cols)

    def size(self, fontsize):
        """The size to draw the game's words at (the language's font may be larger)."""
        return max(round(fontsize * self.language.scale) if self.words_font else fontsize,
                   self.least)

    def text(self, said, fontsize, **where):
        """A text shape in the game's words font."""
        return Text(said, self.words_font, self.size(fontsize), tuple(sorted(where.items())))

    def lines(self, said, x, y, width, fontsize, colour, keep=None, anchor="topleft"):
        """A text broken into lines no wider than width at (x, y): its shape,
        and the y below it, or below keep lines if given (the text is made
        smaller to fit them), so that what follows never moves."""
        if keep is None:
            width_of, linesize = self.font(self.words_font, self.size(fontsize))
            broken, fontsize = wording.wrap(said, width_of, width), self.size(fontsize)
            below = len(broken) * linesize
        else:
            linesize = self.font(self.words_font, self.size(fontsize))[1]
            broken, fontname, fontsize, high = self.fitted(said, width, keep * linesize,
                                                           fontsize)
            below = keep * linesize
        shape = Text("\n".join(broken), self.words_font, fontsize,
                     (("color", colour), (anchor, (x, y))))
        return shape, y + below

    def fitted(self, said, width, most, largest):
        """wording.fit_lines in the words font: (lines, font, size, height)."""
        broken, fontsize, high = self.fit(said, width, most, self.size(largest),
                                          self.words_font, self.least or 10)
        return broken, self.words_font, fontsize, high

    def frame(self, cell, colour):
        """A frame round one tile, if it is in view."""
        row, col = divmod(cell, self.board.cols)
        if self.view.in_view(row, col):
            return [Frame(self.view.tile_rect(row, col), colour)]
        return []

    # -- the whole window ---------------------------------------------------
    def shapes(self):
        """Everything the window shows."""
        if self.showing.state is State.TIMES:
            return self.times()
        shapes = self.status() + self.tiles() + self.footer()
        if self.settings.slowmo:
            shapes += self.panel()
        return shapes

    def status(self):
        """Bombs left, the face and the timer, above the grid."""
        width = self.view.board_width()
        left = self.board.left
        counter = "%03d" % left if left >= 0 else "-%02d" % min(-left, 99)
        seconds = "%03d" % int(self.play.timer)
        # A board of 1000 bombs or more needs a wider counter.
        wide = max(52, self.font(None, 30)[0](counter) + 8)
        shapes = [Box((0, 0, width, BAR), GREY)]
        for said, x, box in ((counter, 6, wide), (seconds, width - 58, 52)):
            shapes.append(Box((x, 7, box, 26), (0, 0, 0)))
            shapes.append(Text(said, None, 30, (("center", (x + box // 2, 21)),
                                                ("color", (255, 0, 0)))))
        face = ("face_win" if self.board.finished else "face_lose" if self.board.failed
                else "face_play")
        shapes.append(Picture(face, self.view.face_rect()[:2]))
        return shapes

    def tiles(self):
        """The tiles in view, and what goes on top of them."""
        view, showing = self.view, self.showing
        area = view.board_area()
        replay = showing.replay
        shapes = [Tiles(TilesKey(view.tile, view.row, view.col, view.rows, view.cols,
                                replay and (id(replay), replay.position)))]
        if (view.tile * view.cols, view.tile * view.rows) != area[2:]:
            shapes.insert(0, Box(area, DARK))     # round a small grid
        if replay is not None:
            return shapes + self.replay_marks()
        if showing.state is State.PAUSED:
            left, top, width, height = area
            broken, fontname, fontsize, high = self.fitted(self.say("paused"), width - 16,
                                                           height - 16, 22)
            return shapes + [Box(area, (160, 160, 160)), Text(
                "\n".join(broken), fontname, fontsize,
                (("align", "center"), ("center", (width // 2, top + height // 2)),
                 ("color", "black")))]
        return shapes + self.highlights() + self.end_word()

    def start_tile(self):
        """The cell to click first, while the bombs are not laid yet, or None."""
        if self.play.laid:
            return None
        return self.showing.start_cell(self.play.board, self.board.rows, self.board.cols)

    def highlights(self):
        """The green start tile, the cursor, the post-mortem's tile and the
        hint (green safe, red bomb, orange a guess)."""
        play, showing, shapes = self.play, self.showing, []
        start = self.start_tile()
        if start is not None:
            shapes += self.frame(start, GREEN)
        if showing.cursor is not None:
            shapes += self.frame(showing.cursor[0] * self.board.cols + showing.cursor[1],
                                 YELLOW)
        if play.postmortem is not None and play.postmortem.cell is not None:
            shapes += self.frame(play.postmortem.cell, OUTLINES[play.postmortem.outline])
        if showing.hint is not None:
            shapes += self.frame(showing.hint.cell, HINT_COLOURS[showing.hint.isbomb])
        return shapes

    def replay_marks(self):
        """The stack (or queue) in colour, and on each tile the replay has
        opened its call number, large in the middle, with the tile's own
        number above it (the game draws those tiles plain)."""
        replay, view, cols, shapes = self.showing.replay, self.view, self.board.cols, []
        waiting = replay.stack[:-1] if replay.kind == "stack" else replay.queue
        step = replay.step()
        running = step.cell if step is not None and step.kind == "take" else (
            replay.stack[-1] if replay.stack else None)
        marked = [(cell, WAITING) for cell in waiting]
        if running is not None:
            marked.append((running, RUNNING))
        for cell, colour in marked:
            if view.in_view(cell // cols, cell % cols):
                shapes.append(Tint(view.tile_rect(cell // cols, cell % cols), colour))
        numbers = self.play.opening.numbers if self.play.opening else {}
        outline = 2 if view.tile >= THICK else 1
        for cell, number in replay.number.items():
            if view.tile < SMALL_MARKS or not view.in_view(cell // cols, cell % cols):
                continue
            call, own = tile_numbers(view.tile_rect(cell // cols, cell % cols),
                                     numbers.get(cell), outline)
            if own is not None:
                shapes.append(Digits(str(numbers[cell]), own, NUMBER_COLOURS[numbers[cell]],
                                     0))
            shapes.append(Digits(str(number), call, (0, 0, 0), outline))
        if step is not None and step.kind == "skip":
            shapes += self.frame(step.cell, SKIPPED)
        return shapes + self.book_places()

    def book_places(self):
        """In the book's order, each tile this opening's calls have still to
        open, with its index in the book's blocks list: get_neighbours meets
        the neighbours from the lowest, so the next call can be worked out."""
        # Only those: the book's first BOMBS indexes are its bombs, and the
        # other closed tiles are never called, so they show none.
        replay, view, cols = self.showing.replay, self.view, self.board.cols
        if replay.order != "book" or view.tile < SMALL_MARKS or self.play.opening is None:
            return []
        return [Digits(str(self.play.opening.index(cell)),
                       index_box(view.tile_rect(cell // cols, cell % cols)), (40, 40, 40), 0)
                for cell in sorted(replay.hidden) if view.in_view(cell // cols, cell % cols)]

    def end_word(self):
        """The chapter's "Failed" or "Finished" over the board (the rest of
        the end is in the footer); E or a click on the board hides it."""
        board = self.board
        if self.showing.end_hidden or not (board.finished or board.failed):
            return []
        left, top, width, height = self.view.board_area()
        size = min(100, width // 5, height // 2)
        # See-through, so the bomb that went off still shows under the word.
        return [self.text(self.say("finished" if board.finished else "failed"), size,
                          center=(left + width // 2, top + height // 2), color="red",
                          owidth=1, ocolor="white", alpha=0.8 if board.finished else 0.6)]

    # -- the footer -----------------------------------------------------------
    def end_lines(self, table=None, stats=None, number=None):
        """The lines of a won game: board (number, else the game's), time,
        3BV, clicks, speed, a record."""
        play, stats = self.play, stats or self.play.stats
        said = [self.say("end_board", table, board=play.board if number is None else number),
                self.say("end_time", table, time=gamestate.time_text(stats["time"]),
                         bbbv=stats["3bv"]),
                self.say("end_clicks", table, clicks=stats["clicks"]),
                self.say("end_efficiency", table, percent=round(100 * stats["efficiency"]),
                         speed="%.2f" % stats["3bv_per_s"])]
        if play.record == "new":
            key = ("new_best_flagwin" if play.flagwon else
                   "new_best_noguess" if play.noguess else "new_best")
            said.append(self.say(key, table, level=words(self.level)))
        elif play.record == "unsaved":
            said.append(self.say("not_saved", table))
        elif play.undos:
            said.append(self.say("taken_back_end", table, count=play.undos))
        elif play.assisted:
            said.append(self.say("helped", table))
        return said

    def footer_words(self):
        """What the line below the grid says: after a game, how it ended;
        in play, a hint, news, or the modes and the keys."""
        play, showing = self.play, self.showing
        if play.postmortem is not None:
            return (self.say("take_it_back", text=play.postmortem.said) + "\n"
                    + self.say("end_toggle"))
        if self.board.finished and play.stats is not None:
            # One paragraph, broken where the footer's width needs it.
            return "   ".join(self.end_lines()) + "\n" + self.say("end_toggle")
        if self.board.failed:
            return self.say("end_toggle")
        if showing.replay is not None and showing.replay.asking():
            return self.say("predict_ask")
        if showing.hint is not None:
            return self.speak(showing.hint.why)
        if showing.message:
            return self.speak(showing.message)
        if self.least and showing.replay is not None:
            return self.panel_keys()
        return self.key_list()

    def panel_keys(self, table=None, speed=None, limit=None):
        """The keys of a replay, for the panel (in full screen, the footer);
        the recursion limit's demonstration (limit) has keys of its own."""
        speed = slowmotion.SPEEDS[self.settings.speed] if speed is None else speed
        if limit is None:
            limit = self.showing.replay is not None and self.showing.replay.error is not None
        key = "panel_keys_limit" if limit else "panel_keys"
        return "  ".join(pairs(self.say(key, table, speed=speed)))

    def key_list(self, table=None, every=False):
        """The modes that are on and the keys, for the line below the grid
        (every: as if every mode were on, to know how long it can get)."""
        settings, view, board = self.settings, self.view, self.board
        replay, window = self.showing.replay, self.window
        autoplay = self.showing.state is State.AUTO or (
            replay is not None and self.showing.back_to is State.AUTO)
        modes = [choice.shown for choice in gamestate.CHOICES.values()
                 if choice.shown and (every or settings.working(choice.name))]
        modes += [key for key, on in (("mode_sure", autoplay and self.play.sure_only),
                                      ("mode_auto", autoplay and not self.play.sure_only))
                  if on or every]
        other = wording.l_label(settings.language, window.texts, window.fonts)
        if every:       # the widest name of a language
            other = max(wording.labels(window.fonts), key=self.font(
                self.words_font, self.size(FOOT_FONT))[0])
        said = [self.say(mode, table) for mode in modes]
        said += pairs(self.say("keys", table, other=other))
        if every or view is not None and not view.whole():
            # Which part of the board the view shows, so no one misses the rest.
            facts = SAMPLE if every else dict(
                top=view.row + 1, bottom=view.row + view.rows, rows=board.rows,
                left=view.col + 1, right=view.col + view.cols, cols=board.cols)
            said.insert(0, self.say("mode_view", table, **facts))
        start = self.start_tile()
        if every:       # the largest board number and the farthest tile
            start, number = board.rows * board.cols - 1, gamestate.MAX_BOARD
        else:
            number = self.play.board
        if every or start is not None:
            away = every or not view.in_view(*divmod(start, board.cols))
            said.insert(0, self.say("mode_start_away" if away else "mode_start", table,
                                    board=number, cell=Cell(start)))
        return "   ".join(said)

    def footer_samples(self, table):
        """The longest texts the footer can show in one language, with long
        facts: the key list with every mode, the end of a won game, the
        longest post-mortem and hint, and the news."""
        samples = dict(SAMPLE, cell=Cell(0), at=Cell(0), bomb=Cell(0), at_a=Cell(0),
                       at_b=Cell(0), number_a=8, number_b=8)

        def said(key, **facts):
            """A text of this table with the sample facts."""
            return wording.say(table, key, dict(samples, **facts), self.board.cols)

        why = max((words(key, **samples) for key in REASONS), key=lambda facts: len(
            wording.speak(table, facts, self.board.cols)))
        guess = words("guess_cut", guess=words("guess_next", guess=words(
            "guess_not_lowest", guess=words("guess", **SAMPLE, cell=Cell(0)),
            lowest=100), sure=100), done=99, all=99)
        chance = words("one_in", n=99, percent=100)
        texts = [self.key_list(table, every=True),
                 said("hint_safe", why=why), said("hint_bomb", why=why),
                 said("guess_cut", guess=guess, done=99, all=99)]
        for key in ("guess_win", "guess_fifty", "guess_or_safe", "guess_rough"):
            texts.append(said(key, guess=guess))
        losses = [said(key, why=why) for key in ("chord_shown", "chord_guess", "sure_bomb",
                                                 "sure_safe", "guessed_rough")]
        losses.append(said("guessed_safer", text=words("guessed", chance=chance),
                           best=chance))
        texts += [said("take_it_back", text=loss) + "\n" + said("end_toggle")
                  for loss in losses]
        stats = {"time": 999.99, "3bv": 999, "clicks": 999, "3bv_per_s": 99.99,
                 "efficiency": 1.0}
        ends = self.end_lines(table, stats, gamestate.MAX_BOARD)[:4] + [max(
            (said(key, level=words("Intermediate"), count=99) for key in (
                "new_best", "new_best_noguess", "new_best_flagwin", "not_saved",
                "taken_back_end", "helped")), key=len), said("end_toggle")]
        texts.append("   ".join(ends[:-1]) + "\n" + ends[-1])
        texts += [said(key, level=words("Intermediate"), limit=1000) for key in NEWS]
        if self.least:          # full screen: a replay's keys are in the footer
            texts += [self.panel_keys(table, speed=99.99, limit=limit)
                      for limit in (False, True)]
        return texts

    def footer_height(self, width, most):
        """How tall the footer is below a board part this wide: as tall as
        its longest words in any language need, so that the window keeps
        one size through a game, whatever the footer says."""
        tables = [self.window.texts[name] for name in sorted(self.window.texts)]
        high = max(self.fitted(text, width - 8, most - 8, FOOT_FONT)[3]
                   for table in tables for text in self.footer_samples(table))
        return min(high + 8, most)

    def footer(self):
        """The line below the grid, broken to fit."""
        view = self.view
        top, width = BAR + view.board_height(), view.board_width()
        broken, fontname, fontsize, high = self.fitted(
            self.footer_words(), width - 8, view.footer - 8, FOOT_FONT)
        # Down to the window's foot: with the slow-motion panel it is taller.
        # In full screen the words are in the middle of the room they keep,
        # with no empty band below them.
        where = (("midleft", (4, (top + self.view.height) // 2)) if self.least
                 else ("topleft", (4, top + 4)))
        return [Box((0, top, width, self.view.height - top), GREY),
                Text("\n".join(broken), fontname, fontsize, (("color", "black"), where))]

    # -- slow motion -------------------------------------------------------
    def panel(self):
        """The slow-motion panel right of the board: where the replay is,
        the running call's variables, the calls on the stack, the code with
        the line being run, and the stack's depth so far. Each part keeps
        room for its longest words, so that nothing moves between steps."""
        replay, left = self.showing.replay, self.view.board_width()
        panel = self.view.panel
        x, width, height = left + 10, panel - 20, self.view.height
        kept = FULL_PANEL_LINES if self.least else PANEL_LINES
        shapes = [Box((left, 0, panel, height), PAPER)]
        stack = replay is None or replay.kind == "stack"
        shape, y = self.lines(self.say("panel_title" if stack else "panel_queue_title"),
                              x, 8, width, 22, (0, 0, 120), keep=1)
        shapes.append(shape)
        # In full screen its parts are one paragraph, which takes fewer lines.
        status = ("   " if self.least else "\n").join(
            self.speak(said) for said in slowmotion.status(replay, self.play.opening,
                                                           self.window.limit))
        colour = RED if replay is not None and replay.paused else "black"
        shape, y = self.lines(status, x, y + 2, width, 18, colour, kept["status"])
        shapes.append(shape)
        frame = slowmotion.variables(replay)
        shape, y = self.lines(self.speak(frame) if frame else "", x, y + 2, width, 16,
                              (0, 90, 0), kept["frame"])
        shapes.append(shape)
        said = replay.said_now() if replay is not None else None
        shape, y = self.lines(self.speak(said), x, y + 2, width, 18, (150, 0, 0),
                              kept["step"])
        shapes.append(shape)
        chain = ""
        if replay is not None:
            cells, name, joint, more = (
                (replay.stack, "open_block(%d,%d)", " -> ", "panel_more") if stack
                else (replay.queue, "(%d,%d)", " ", "panel_more_queue"))
            first, hidden, last = slowmotion.stack_chain(cells, self.board.cols, name)
            chain = joint.join(first + ([self.say(more, count=hidden)] + last
                                        if hidden else []))
        waiting = self.say("panel_stack" if stack else "panel_waiting")
        shape, y = self.lines(waiting + "\n" + chain, x, y + 2, width, 16,
                              (0, 60, 160), kept["stack"] + 1)
        shapes.append(shape)
        shapes += self.code(x, y + 6, width)
        if stack:       # what the game's open_block adds to the book's, under it
            skip = replay is not None and replay.step() is not None and (
                replay.step().said.key == "call_flag")
            below = y + 12 + self.code_size()[1] * len(slowmotion.BOOK_CODE)
            shapes.append(self.lines(self.say("panel_flag_rule"), x, below, width, 14,
                                     RED if skip else (60, 60, 60), 2)[0])
        y += 12 + self.code_size()[1] * max(len(slowmotion.BOOK_CODE),
                                            len(slowmotion.QUEUE_CODE))
        shapes += self.chart(x, y, width)
        if self.least:
            return shapes       # the keys are in the footer
        said = self.panel_keys()
        keys_top = y + CHART_HIGH + 22
        shapes.append(self.lines(said, x, keys_top, width, 14, (60, 60, 60),
                                 max(1, (height - keys_top - 4) // self.font(
                                     self.words_font, self.size(14))[1]))[0])
        return shapes

    def code_shown(self):
        """The code the panel shows: the queue's in a queue replay, else the book's."""
        replay = self.showing.replay
        queue = replay is not None and replay.kind == "queue"
        return slowmotion.QUEUE_CODE if queue else slowmotion.BOOK_CODE

    def code_line(self):
        """The line of the code shown that is being run (its place), or None."""
        replay, code = self.showing.replay, self.code_shown()
        step = replay.step() if replay is not None else None
        # Each step names its line by the line's text (slowmotion.BOOK_CODE).
        return code.index(step.code) if step is not None and step.code in code else None

    def code(self, x, y, width):
        """The book's open_block (or the queue's), as the book prints it, in
        letters of one width, the line being run highlighted."""
        code, current = self.code_shown(), self.code_line()
        font = CODE_FONT if self.window.mono else None
        # A wider panel (on a wider desktop) has larger letters.
        size, step = self.code_size()
        shapes = [Box((x - 4, y - 2, width + 8, step * len(code) + 4), (255, 255, 255))]
        for index, line in enumerate(code):
            if index == current:
                shapes.append(Box((x - 4, y + step * index - 1, width + 8, step), RUNNING[:3]))
            shapes.append(Text(line, font, size, (
                ("color", "black"), ("topleft", (x, y + step * index)))))
        return shapes

    def code_size(self):
        """The code's letters and lines in this panel: (size, line step), px."""
        size = max(CODE_SIZE * max(self.view.panel, PANEL) // PANEL, self.least)
        if self.least:          # full screen: lines apart by the font's own spacing
            return size, self.font(CODE_FONT if self.window.mono else None, size)[1]
        return size, CODE_LINE * size // CODE_SIZE

    def chart(self, x, y, width):
        """The stack's depth after each step so far (and the queue's length,
        once the opening has been replayed with a queue too), as lines."""
        opening, replay = self.play.opening, self.showing.replay
        # In full screen its words are never smaller: they take the lines they need.
        shape, below = self.lines(self.say("panel_chart"), x, y, width, 14, (60, 60, 60),
                                  keep=None if self.least else 1)
        # The chart is 18 px below its words, or below the words' line.
        y = max(y, below - 18)
        shapes = [shape, Box((x - 4, y + 18, width + 8, CHART_HIGH), (255, 255, 255))]
        if opening is None:
            return shapes
        series = dict(opening.depths)
        if replay is not None:
            series[replay.kind] = replay.depths[:replay.position + 1]
        whole = list(opening.depths.values()) + ([replay.depths] if replay else [])
        longest = max([len(depths) for depths in whole] + [1])
        highest = max([max(depths, default=0) for depths in whole] + [1])
        for kind, depths in sorted(series.items()):
            points = chart_points(depths, longest, highest, (x, y + 18, width, CHART_HIGH))
            if len(points) > 1:
                shapes.append(Line(tuple(points), CHART[kind]))
        return shapes

    # -- the best times (B) --------------------------------------------------
    def times_lines(self):
        """The table of best times as lines: each level, then (once there
        are some) its no-guess boards and its wins by flags, with dates."""
        lines = [self.say("times_title"), ""]
        # Beginner to Expert, then the chapter's board.
        names = [gamestate.LEVELS[key][0] for key in "1230"]
        for heading, kind in (("times_normal", "%s"),
                              ("times_noguess", datafiles.NOGUESS_RECORD),
                              ("times_flagwin", datafiles.FLAGWIN_RECORD)):
            if kind != "%s" and not any(kind % name in self.showing.times for name in names):
                continue            # no-guess boards and flag wins, once there are some
            lines.append(self.say(heading))
            for name in names:
                record = self.showing.times.get(kind % name)
                if record is None:
                    lines.append(self.say("times_none", level=words(name)))
                else:
                    seconds = datafiles.time_of(record)
                    lines.append(self.say("times_line", level=words(name),
                                          time=gamestate.time_text(seconds),
                                          date=datafiles.date_of(record) or "-"))
            lines.append("")
        lines.append(self.say("times_close"))
        return lines

    def times(self):
        """The best time of each level, with its date; no-guess boards apart."""
        said = "\n".join(self.times_lines())
        width, height = self.view.width, self.view.height
        # One line a record reads best: the largest size at which every line
        # fits whole, else lines broken to fit.
        for size in range(TIMES_FONT, 9, -1):
            fontsize = self.size(size)
            width_of, linesize = self.font(self.words_font, fontsize)
            if (all(width_of(line) <= width - 16 for line in said.split("\n"))
                    and said.count("\n") * linesize <= height - 32):
                return [Fill(PAPER), Text(said, self.words_font, fontsize, (
                    ("align", "left"), ("center", (width // 2, height // 2)),
                    ("color", "black")))]
        broken, fontname, fontsize, high = self.fitted(said, width - 16, height - 16,
                                                       TIMES_FONT)
        return [Fill(PAPER), Text("\n".join(broken), fontname, fontsize,
                               (("color", "black"), ("topleft", (8, 8))))]


# Every news the footer can show (a game's message, predict's question, and
# what each choice says as it is turned), so that it keeps room for the
# longest: a test holds it against the game.
NEWS = ("no_guess_failed", "saved_waiting", "welcome_back", "board_chosen", "typing",
        "hints_later", "game_over", "u_later", "taken_back", "times_unread",
        "texts_missing", "noguess_on_now", "noguess_off_now", "zoom", "predict_ask",
        "recursion_demo") + tuple(said for choice in gamestate.CHOICES.values()
                                  for said in (choice.on, choice.off) if said)


def pairs(keys):
    """A list of keys and what each does, two spaces apart, as its pairs,
    each held together by no-break spaces (a line never breaks in one)."""
    return [pair.replace(" ", "\u00a0") for pair in re.split(" {2,}", keys)]


def chart_points(depths, longest, highest, box):
    """The points of a depth chart in box (left, top, width, height): one a
    step, steps across and depth up, on a scale of longest steps and
    highest depth."""
    left, top, width, height = box
    return [(left + round(index * (width - 1) / max(longest - 1, 1)),
             top + height - 1 - round(depth * (height - 2) / highest))
            for index, depth in enumerate(depths)]


def tile_numbers(rect, number, outline):
    """Where a replay writes on a tile at rect (left, top, width, height):
    the box of its call number's digits, and of its own number's (None if
    it has none), for a call number outlined this many px. The call number
    is at least half the tile high, across its middle; a tile with a number
    has that number above it, as high as the rest of the tile leaves (16 px
    on full screen's 36 px tiles), both centred across the tile."""
    left, top, width, height = rect
    high = (height + 1) // 2
    if not number:
        return (left + outline, top + (height - high) // 2, width - 2 * outline, high), None
    call = (left + outline, top + height - outline - high, width - 2 * outline, high)
    return call, (left + 1, top, width - 2, height - high - 2 * outline)


def index_box(rect):
    """Where a tile at rect shows its index in the book's blocks list: in
    its middle, four ninths of the tile high (16 px on a 36 px tile), clear
    of its edges so that the next tile's index stands apart."""
    left, top, width, height = rect
    high = (4 * height + 8) // 9
    return left + 3, top + (height - high) // 2, width - 6, high
