# What the window of minesweep shows, as plain shapes: the status bar, the
# marks on the tiles, the footer's words, the slow-motion panel and the
# table of best times. The game draws the shapes (draw_shape in
# minesweep.py), and draws the window again only when they changed.
#
# A shape is a tuple: ("box", rect, colour), ("frame", rect, colour),
# ("text", text, font name or None, size, options for pgzero's ptext),
# ("picture", name, topleft), ("tint", rect, colour with opacity),
# ("tiles", what the tiles' picture depends on), ("fill", colour).
# A rect is (left, top, width, height) in px.
#
# Plain data in and out, with no pgzero or pygame: the game hands in the
# game's state, the view, and font(name, size), which gives (the width of
# a text, the height of a line) in px.
# Keep this file ASCII only, like minesweep.py.
import functools
from collections import namedtuple

import datafiles
import slowmotion
import wording
from gamestate import State
from viewport import BAR, PANEL
from wording import words

FOOT_FONT = 16           # size of the footer's text, px (10 px at the least)
TIMES_FONT = 28          # largest size of the table of best times, px
GREY, DARK, PAPER = (192, 192, 192), (128, 128, 128), (235, 235, 225)
GREEN, ORANGE, RED = (0, 200, 0), (255, 140, 0), (230, 0, 0)   # outlines
YELLOW = (255, 215, 0)   # the cursor's outline
OUTLINES = {"safe": GREEN, "risky": ORANGE}     # the post-mortem's tile
HINT_COLOURS = {False: GREEN, True: RED, None: ORANGE}   # safe, bomb, guess
# Colours of the replay's marks: (red, green, blue, opacity).
RUNNING = (255, 200, 0, 150)     # the call running now
WAITING = (60, 140, 255, 110)    # calls waiting on the stack, or in the queue
SKIPPED = (230, 0, 0)            # a neighbour the loop skips

# The board as the window shows it: its size, bombs left (bombs minus
# flags), whether it is lost or won, its level's name (None if custom),
# the start tile (None once the bombs are laid), Python's recursion limit,
# the code of open_block and of the queue, the window's size, and the
# standard levels' names in the order the table of best times lists them.
Board = namedtuple("Board", "rows cols bombs left failed finished level start "
                            "limit code queue_code width height levels")


class Scene:
    """The shapes of one frame."""

    def __init__(self, board, play, settings, view, font, fit=None):
        """A frame of this board, game (a Game), settings and view."""
        self.board, self.play, self.settings, self.view = board, play, settings, view
        self.font = font
        # fit(text, width, most, largest, font name): wording.fit_lines in
        # that font, which the game may keep the answers of.
        self.fit = fit or (lambda said, width, most, largest, fontname: wording.fit_lines(
            said, width, most, largest, functools.partial(font, fontname)))
        self.table = settings.texts[settings.language]

    def say(self, key, **facts):
        """A text in the player's language."""
        return wording.say(self.table, key, facts, self.board.cols)

    def speak(self, said):
        """Words kept by words(), said now."""
        return wording.speak(self.table, said, self.board.cols)

    def fontname(self, text):
        """The font that has every letter of a text (None: pgzero's own)."""
        return wording.CHINESE_FONT if wording.is_chinese(text) else None

    def text(self, said, fontsize, **where):
        """A text shape in the font its letters need (Chinese a little smaller)."""
        return ("text", said, self.fontname(said), wording.text_size(said, fontsize),
                tuple(sorted(where.items())))

    def lines(self, said, x, y, width, fontsize, colour, anchor="topleft"):
        """A text broken into lines no wider than width at (x, y): its shape,
        and the y below it."""
        fontname = self.fontname(said)
        fontsize = wording.text_size(said, fontsize)
        width_of, linesize = self.font(fontname, fontsize)
        broken = wording.wrap(said, width_of, width)
        shape = ("text", "\n".join(broken), fontname, fontsize,
                 (("color", colour), (anchor, (x, y))))
        return shape, y + len(broken) * linesize

    def fitted(self, said, width, most, largest):
        """wording.fit_lines in the font this text needs: (lines, font,
        size, height)."""
        fontname = self.fontname(said)
        broken, fontsize, high = self.fit(said, width, most, largest, fontname)
        return broken, fontname, fontsize, high

    def frame(self, cell, colour):
        """A frame round one tile, if it is in view."""
        row, col = divmod(cell, self.board.cols)
        if self.view.in_view(row, col):
            return [("frame", self.view.tile_rect(row, col), colour)]
        return []

    # -- the whole window ---------------------------------------------------
    def shapes(self):
        """Everything the window shows."""
        if self.play.state is State.TIMES:
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
        shapes = [("box", (0, 0, width, BAR), GREY)]
        for said, x, box in ((counter, 6, wide), (seconds, width - 58, 52)):
            shapes.append(("box", (x, 7, box, 26), (0, 0, 0)))
            shapes.append(self.text(said, 30, center=(x + box // 2, 21),
                                    color=(255, 0, 0)))
        face = ("face_win" if self.board.finished else "face_lose" if self.board.failed
                else "face_play")
        shapes.append(("picture", face, self.view.face_rect()[:2]))
        return shapes

    def tiles(self):
        """The tiles in view, and what goes on top of them."""
        view, play = self.view, self.play
        area = view.board_area()
        replay = play.replay
        shapes = [("tiles", (view.tile, view.row, view.col, view.rows, view.cols,
                             replay and (id(replay), replay.position)))]
        if (view.tile * view.cols, view.tile * view.rows) != area[2:]:
            shapes.insert(0, ("box", area, DARK))     # round a small grid
        if replay is not None:
            return shapes + self.replay_marks()
        if play.state is State.PAUSED:
            left, top, width, height = area
            broken, fontname, fontsize, high = self.fitted(self.say("paused"), width - 16,
                                                           height - 16, 22)
            return shapes + [("box", area, (160, 160, 160)), (
                "text", "\n".join(broken), fontname, fontsize,
                (("align", "center"), ("center", (width // 2, top + height // 2)),
                 ("color", "black")))]
        return shapes + self.highlights() + self.end_word()

    def highlights(self):
        """The green start tile, the cursor, the post-mortem's tile and the
        hint (green safe, red bomb, orange a guess)."""
        play, shapes = self.play, []
        if self.board.start is not None:
            shapes += self.frame(self.board.start, GREEN)
        if play.cursor is not None:
            shapes += self.frame(play.cursor[0] * self.board.cols + play.cursor[1], YELLOW)
        if play.postmortem is not None and play.postmortem[1] is not None:
            shapes += self.frame(play.postmortem[1], OUTLINES[play.postmortem[2]])
        if play.hint is not None:
            shapes += self.frame(play.hint[0], HINT_COLOURS[play.hint[1]])
        return shapes

    def replay_marks(self):
        """Call numbers on the tiles, and the stack (or queue) in colour."""
        replay, view, cols, shapes = self.play.replay, self.view, self.board.cols, []
        waiting = replay.stack[:-1] if replay.kind == "stack" else replay.queue
        step = replay.step()
        running = step.cell if step is not None and step.kind == "take" else (
            replay.stack[-1] if replay.stack else None)
        marked = [(cell, WAITING) for cell in waiting]
        if running is not None:
            marked.append((running, RUNNING))
        for cell, colour in marked:
            if view.in_view(cell // cols, cell % cols):
                shapes.append(("tint", view.tile_rect(cell // cols, cell % cols), colour))
        for cell, number in replay.number.items():
            if view.in_view(cell // cols, cell % cols):
                x, y, w, h = view.tile_rect(cell // cols, cell % cols)
                shapes.append(self.text(str(number), 13 if number < 100 else 11,
                                        bottomright=(x + w - 1, y + h), color=(0, 0, 0),
                                        owidth=1, ocolor=(255, 255, 255)))
        if step is not None and step.kind == "skip":
            shapes += self.frame(step.cell, SKIPPED)
        return shapes

    def end_word(self):
        """The chapter's "Failed" or "Finished" over the board (the rest of
        the end is in the footer); E or a click on the board hides it."""
        board = self.board
        if self.play.end_hidden or not (board.finished or board.failed):
            return []
        left, top, width, height = self.view.board_area()
        size = min(100, width // 5, height // 2)
        # See-through, so the bomb that went off still shows under the word.
        return [self.text(self.say("finished" if board.finished else "failed"), size,
                          center=(left + width // 2, top + height // 2), color="red",
                          owidth=1, ocolor="white", alpha=0.8 if board.finished else 0.6)]

    # -- the footer -----------------------------------------------------------
    def end_lines(self):
        """The lines of a won game: board, time, 3BV, clicks, speed, a record."""
        play, stats = self.play, self.play.stats
        said = [self.say("end_board", board=play.board),
                self.say("end_time", time="%.2f" % stats["time"], bbbv=stats["3bv"]),
                self.say("end_clicks", clicks=stats["clicks"],
                         speed="%.2f" % stats["3bv_per_s"]),
                self.say("end_efficiency", percent=round(100 * stats["efficiency"]))]
        if play.record == "new":
            said.append(self.say("new_best_noguess" if play.noguess else "new_best",
                                 level=words(self.board.level)))
        elif play.record == "unsaved":
            said.append(self.say("not_saved"))
        elif play.undos:
            said.append(self.say("taken_back_end", count=play.undos))
        elif play.assisted:
            said.append(self.say("helped"))
        return said

    def footer_words(self):
        """What the line below the grid says: after a game, how it ended;
        in play, a hint, news, or the modes and the keys."""
        play = self.play
        if play.postmortem is not None:
            return (self.say("take_it_back", text=play.postmortem[0]) + "\n"
                    + self.say("end_toggle"))
        if self.board.finished and play.stats is not None:
            return "\n".join(self.end_lines() + [self.say("end_toggle")])
        if self.board.failed:
            return self.say("end_toggle")
        if play.hint is not None:
            return self.speak(play.hint[2])
        if play.message:
            return self.speak(play.message)
        return self.key_list()

    def key_list(self):
        """The modes that are on and the keys, for the line below the grid."""
        settings, view, board = self.settings, self.view, self.board
        autoplay = self.play.state is State.AUTO or (
            self.play.replay is not None and self.play.replay.back_to is State.AUTO)
        modes = [key for key, on in (("mode_questions", settings.questions),
                                     ("mode_noguess", settings.noguess),
                                     ("mode_slowmo", settings.slowmo),
                                     ("mode_flagwin", settings.flagwin),
                                     ("mode_sure" if self.play.sure_only else "mode_auto",
                                      autoplay)) if on]
        other = "English" if settings.language == "zh" else (
            "\u4e2d\u6587" if settings.chinese else "Chinese")   # Chinese, in Chinese
        said = [self.say(mode) for mode in modes] + [self.say("keys", other=other)]
        if view is not None and not view.whole():
            # Which part of the board the view shows, so no one misses the rest.
            said.insert(0, self.say("mode_view", top=view.row + 1,
                                    bottom=view.row + view.rows, rows=board.rows,
                                    left=view.col + 1, right=view.col + view.cols,
                                    cols=board.cols))
        return "   ".join(said)

    def footer_height(self, width, most):
        """How tall the footer is below a board part this wide: never lower
        than the key list, so that it keeps its height while hints come and go."""
        high = self.fitted(self.footer_words(), width - 8, most - 8, FOOT_FONT)[3]
        keys_high = self.fitted(self.key_list(), width - 8, most - 8, FOOT_FONT)[3]
        return max(high, keys_high) + 8

    def footer(self):
        """The line below the grid, broken to fit."""
        view = self.view
        top, width = BAR + view.board_height(), view.board_width()
        broken, fontname, fontsize, high = self.fitted(
            self.footer_words(), width - 8, view.footer - 8, FOOT_FONT)
        # Down to the window's foot: with the slow-motion panel it is taller.
        return [("box", (0, top, width, self.board.height - top), GREY),
                ("text", "\n".join(broken), fontname, fontsize,
                 (("color", "black"), ("topleft", (4, top + 4))))]

    # -- slow motion -------------------------------------------------------
    def panel(self):
        """The slow-motion panel right of the board: where the replay is, the
        calls on the stack, and the code with the line being run."""
        replay, left, panel = self.play.replay, self.view.board_width(), PANEL
        x, width = left + 10, panel - 20
        shapes = [("box", (left, 0, panel, self.board.height), PAPER)]
        stack = replay is None or replay.kind == "stack"
        shape, y = self.lines(self.say("panel_title" if stack else "panel_queue_title"),
                              x, 8, width, 22, (0, 0, 120))
        shapes.append(shape)
        status = "\n".join(self.speak(said) for said in slowmotion.status(
            replay, self.play.opening, self.board.limit))
        shape, y = self.lines(status, x, y + 2, width, 18, "black")
        shapes.append(shape)
        if replay is not None:
            step = replay.step()
            shape, y = self.lines(self.speak(step.said if step else words("replay_start")),
                                  x, y + 4, width, 18, (150, 0, 0))
            shapes.append(shape)
            if stack:
                first, hidden, last = slowmotion.stack_chain(replay.stack, self.board.cols)
                chain = first + ([self.say("panel_more", count=hidden)] + last
                                 if hidden else [])
                for said, colour in ((self.say("panel_stack"), (0, 60, 160)),
                                     (" -> ".join(chain), "black")):
                    shape, y = self.lines(said, x, y + 4, width, 16, colour)
                    shapes.append(shape)
            y += 6
        shapes += self.code(x, y + 4, width)
        said = self.say("panel_keys", speed=slowmotion.SPEEDS[self.settings.speed])
        shapes.append(self.lines(said, x, self.board.height - 6, width, 16,
                                 (60, 60, 60), "bottomleft")[0])
        return shapes

    def code(self, x, y, width):
        """open_block's lines (or the queue's), the one being run highlighted."""
        replay = self.play.replay
        queue = replay is not None and replay.kind == "queue"
        code = self.board.queue_code if queue else self.board.code
        step = replay.step() if replay is not None else None
        word = step.code if step is not None else None
        current = next((i for i, line in enumerate(code) if word and word in line), None)
        shapes = [("box", (x - 4, y - 2, width + 8, 16 * len(code) + 4), (255, 255, 255))]
        for index, line in enumerate(code):
            if index == current:
                shapes.append(("box", (x - 4, y + 16 * index - 1, width + 8, 16),
                               RUNNING[:3]))
            indent = len(line) - len(line.lstrip())
            shapes.append(("text", line.strip(), None, 16, (
                ("color", "black"), ("topleft", (x + 5 * indent, y + 16 * index)))))
        return shapes

    # -- the best times (B) --------------------------------------------------
    def times_lines(self):
        """The table of best times as lines: each level, then its no-guess
        boards, each time with its date."""
        lines = [self.say("times_title"), ""]
        for heading, kind in (("times_normal", "%s"),
                              ("times_noguess", datafiles.NOGUESS_RECORD)):
            lines.append(self.say(heading))
            for name in self.board.levels:
                record = self.play.times.get(kind % name)
                if record is None:
                    lines.append(self.say("times_none", level=words(name)))
                else:
                    lines.append(self.say("times_line", level=words(name),
                                          time="%.2f" % datafiles.time_of(record),
                                          date=datafiles.date_of(record) or "-"))
            lines.append("")
        lines.append(self.say("times_close"))
        return lines

    def times(self):
        """The best time of each level, with its date; no-guess boards apart."""
        said = "\n".join(self.times_lines())
        width, height = self.board.width, self.board.height
        # One line a record reads best: the largest size at which every line
        # fits whole, else lines broken to fit.
        fontname = self.fontname(said)
        for size in range(TIMES_FONT, 9, -1):
            fontsize = wording.text_size(said, size)
            width_of, linesize = self.font(fontname, fontsize)
            if (all(width_of(line) <= width - 16 for line in said.split("\n"))
                    and said.count("\n") * linesize <= height - 32):
                return [("fill", PAPER), ("text", said, fontname, fontsize, (
                    ("align", "left"), ("center", (width // 2, height // 2)),
                    ("color", "black")))]
        broken, fontname, fontsize, high = self.fitted(said, width - 16, height - 16,
                                                       TIMES_FONT)
        return [("fill", PAPER), ("text", "\n".join(broken), fontname, fontsize,
                                  (("color", "black"), ("topleft", (8, 8))))]
