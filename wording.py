# The words of minesweep, in each language of languages.TABLE.
#
# Everything the game draws is said with say(table, key, facts), from TEXTS
# below (English) or a language's own file of texts in texts/ (such as
# texts/zh.json, Simplified Chinese, or texts/zh-TW.json, Traditional
# Chinese as Taiwan says it), read as UTF-8: the .py files stay ASCII, so
# that pgzero reads them on every computer. A message is kept as
# words(key, facts), not as text, so pressing L changes every word on the
# screen at once. Cells among the facts are named as "row 4, col 7" (in
# English) or as the language's texts name them.
#
# Plain data in and out, with no pgzero or pygame: the game hands in a way
# to measure a text when lines must be broken to fit.
# Keep this file ASCII only, like minesweep.py.
import json
import re
import string
import unicodedata
from collections import namedtuple

from languages import BY_CODE, LANGUAGES, TABLE
from solver import Cell

TEXTS = {
    "place": "row {row}, col {col}",
    "place_short": "({row},{col})",
    # Reasons the solver gives (it gives their names and facts).
    "touches_one": "the {number} at {at} already touches a bomb at {bomb}, so no "
                   "other tile around it hides one",
    "touches_many": "the {number} at {at} already touches {count} bombs, so no other "
                    "tile around it hides one",
    "no_bomb": "the empty tile ({number}) at {at} has no bomb around it",
    "only_closed": "the {number} at {at} has only {closed} closed "
                   "neighbour{closed_s}, just as many as its bombs",
    "needs_more": "the {number} at {at} needs {left} more bomb{left_s} and has only "
                  "{closed} closed neighbour{closed_s} left",
    "subset_safe": "every closed neighbour of the {number_a} at {at_a} is also next "
                   "to the {number_b} at {at_b}, and both still need the same number "
                   "of bombs, so {cell} is safe",
    "subset_bomb": "every closed neighbour of the {number_a} at {at_a} is also next "
                   "to the {number_b} at {at_b}, and the second number needs just "
                   "enough more bombs to fill its other closed tiles, so {cell} is a "
                   "bomb",
    "counting": "counting all the bombs left",
    "no_way": "no way the bombs can lie that fits every number puts one at {cell}",
    "every_way": "every way the bombs can lie that fits every number puts one at "
                 "{cell}",
    "hint_safe": "Safe: {why}",
    "hint_bomb": "Bomb: {why}",
    "guess": "Guess: {cell}: {chance}% chance of a bomb",
    "guess_rough": "{guess}, the lowest the rules see (too many ways to count)",
    "guess_lowest": "{guess}, the lowest",
    "guess_not_lowest": "{guess} (the lowest is {lowest}%)",
    "guess_next": "{guess}; if safe, {sure}% chance of a sure move next",
    "guess_win": "{guess}: the best chance to win the game, {win}%",
    "guess_fifty": "{guess}: a 50/50 that no other move can ever settle, so it is "
                   "taken now",
    "guess_cut": "{guess} (a big board: {done} of {all} cells weighed in time)",
    "guess_or_safe": "{guess}: it is either safe or half of a 50/50 that would have "
                     "to be guessed anyway, so it is taken now",
    # After a loss.
    "chord_shown": "The chord trusted a wrong flag at {cell}, and the board showed "
                   "it: {why}.",
    "chord_guess": "The chord trusted a wrong flag at {cell}; nothing on the board "
                   "showed it was wrong: the flag was a guess.",
    "sure_bomb": "Avoidable: {cell} was surely a bomb: {why}.",
    "sure_safe": "Avoidable: {cell} was surely safe: {why}.",
    "guessed_rough": "No safe move was found by the rules (too many ways to count "
                     "exactly): you guessed.",
    "guessed": "No safe move existed: you guessed, with a {chance} chance of a bomb.",
    "guessed_safer": "{text} The safest guess was {cell}, at {best}.",
    "guessed_best": "{text} That was as safe as any guess.",
    "one_in": "1 in {n} ({percent}%)",
    "percent": "{percent}%",
    "take_it_back": "{text}  U: take it back.",
    # The line below the grid.
    "no_guess_failed": "No no-guess board found in time: this one may need a guess",
    "saved_waiting": "A saved game is waiting ({level}, board {board}, {seconds} s): "
                     "C goes on with it, any other key or click starts afresh",
    "custom": "{rows} x {cols}, {bombs} bomb{bombs_s}",
    "welcome_back": "Welcome back to board {board}",
    "board_chosen": "Board {board}: click the green tile first to get the same game "
                    "as everyone",
    "typing": "Board number: {digits}_   Enter: play it   Esc: never mind",
    "hints_later": "Hints start after the first click",
    "game_over": "The game is over: R for a new one",
    "u_later": "U takes back a move that lost, once the game is lost",
    "taken_back": "Move taken back ({count} so far): no record for this game",
    "slowmo_on": "Slow motion on: the next opening replays step by step",
    "slowmo_off": "Slow motion off",
    "flagwin_on": "Flag win on: a game is also won when exactly the bombs are flagged",
    "flagwin_off": "Flag win off",
    "noguess_on": "No-guess boards on, from the next game (R starts one)",
    "noguess_on_now": "No-guess boards on: this board will need no guess",
    "noguess_off": "No-guess boards off, from the next game (R starts one)",
    "noguess_off_now": "No-guess boards off: this board is laid at random",
    "zoom": "Tiles of {size} px (Z: another size)",
    "texts_missing": "The texts of a language could not be read: see the console",
    "mode_view": "In view: rows {top}-{bottom} of {rows}, cols {left}-{right} of "
                 "{cols} (wheel, Shift+wheel: scroll)",
    "mode_start": "The green tile: click it first, and everyone on board {board} "
                  "plays the same game",
    "mode_start_away": "The green tile, to click first so that everyone on board "
                       "{board} plays the same game, is at {cell}: scroll to it",
    "mode_questions": "?-marks: on",
    "mode_noguess": "no-guess: on",
    "mode_slowmo": "slow motion: on",
    "mode_flagwin": "flag win: on",
    "mode_predict": "predict: on",
    "mode_auto": "autoplay (any key stops)",
    "mode_sure": "sure moves only (any key stops)",
    # The key list: pairs of a key and what it does, two spaces apart (a
    # line never breaks inside a pair).
    "keys": "H hint  A auto  S sure  N no-guess  V slow  Q ?  X flag win  "
            "G board no.  P pause  B best times  Z zoom  F11 full screen  L {other}  "
            "R new  1 2 3 0 level",
    # The end of a game.
    "title": "Minesweeper: {level}, board {board}",
    "finished": "Finished",
    "failed": "Failed",
    "end_board": "Board {board}",
    "end_time": "Time {time} s   3BV {bbbv} (the fewest clicks that clear this board)",
    # The speed last: a figure for keen players, out of a beginner's way.
    "end_clicks": "Clicks {clicks}",
    "end_efficiency": "Efficiency {percent}%   3BV/s {speed}",
    "new_best": "New best time for {level}!",
    "new_best_noguess": "New best time for {level}, no-guess boards!",
    "new_best_flagwin": "New best time for {level}, won by flags!",
    "end_toggle": "E or a click on the board: hide or show the word",
    "paused": "Paused: P or a click goes on",
    # The table of best times (B).
    "times_title": "Best times",
    "times_normal": "Boards laid at random",
    "times_noguess": "No-guess boards",
    "times_flagwin": "Won by flags (X)",
    "times_unread": "The best times could not be read (see the console)",
    "times_none": "{level}: none yet",
    "times_line": "{level}: {time} s on {date}",
    "times_close": "Any key or click closes this table",
    "not_saved": "Best time not saved (see the console)",
    "taken_back_end": "Moves taken back: {count} (no record)",
    "helped": "Hints or autoplay helped: no record",
    "Chapter": "Chapter", "Beginner": "Beginner", "Intermediate": "Intermediate",
    "Expert": "Expert",
    # Slow motion.
    "replay_start": "Click: pause. Space: one step.",
    "call_starts": "open_block{cell:short} starts: call {number}, depth {depth}",
    "call_number": "It shows {number}, not 0: return",
    "call_loop": "No bomb around: open each of its {count} closed neighbour{count_s}",
    "call_flag": "Neighbour {index} of {count}, {cell:short}, has a flag: skip it",
    "call_open": "Neighbour {index} of {count}, {cell:short}, is open already: skip it",
    "call_done": "All its neighbours are done: return",
    "call_back": "open_block{child:short} returns to open_block{cell:short}, which goes "
                 "on with neighbour {next} of {count}",
    "call_back_last": "open_block{child:short} returns to open_block{cell:short}, which "
                      "has no neighbour left",
    "call_end": "open_block{cell:short} returns: the click is done",
    "predict_ask": "Which tile is open_block called on next? Click it (Space: just "
                   "show it)",
    "predict_right": "Right: open_block{cell:short} is next",
    "predict_wrong": "Not {guess:short}: open_block{caller:short} was on its neighbour "
                     "{index} of {count}, {cell:short}",
    "predict_wrong_back": "Not {guess:short}: the call before had returned, and "
                          "open_block{caller:short} went on with its neighbour {index} "
                          "of {count}, {cell:short}",
    "predict_on": "Predict on: in a replay, click the tile you think open_block opens next",
    "predict_off": "Predict off",
    "recursion_demo": "An empty 40 x 40 board, neighbours in reading order (the book's "
                      "order often stops short of the limit), and Python's usual "
                      "recursion limit of {limit}: watch open_block go past it "
                      "(End: straight to the RecursionError)",
    "recursion_error": "RecursionError: {message}. Python stopped after {calls} "
                       "calls, {depth} inside each other: its limit was {limit}, and "
                       "other functions held the rest.",
    "recursion_fixed": "This click needs {deepest} calls inside each other, more than "
                       "Python's usual {limit}; the game raises the limit to {raised}, "
                       "so all {calls} calls finish. Esc: back to your board.",
    "stop_number": "it shows {number}: a bomb is near",
    "stop_nothing_left": "no closed neighbour left to open",
    "queue_number": "Take {cell:short} from the front and open it: it shows {number}, "
                    "so nothing joins the queue",
    "queue_zero": "Take {cell:short} from the front and open it: no bomb around, so "
                  "its closed neighbours not yet in the queue join the back ({count})",
    "panel_title": "Slow motion: open_block",
    "panel_queue_title": "The same opening with a queue",
    "panel_idle": "Click a tile that opens an area: the opening replays here, call "
                  "by call.",
    "panel_last": "The last opening: {calls} calls of open_block, at most {deepest} "
                  "inside each other. W: watch it again, done with a queue.",
    "panel_call": "call {done} of {total}",
    "panel_tile": "tile {done} of {total}",
    "panel_depth": "depth {depth} (deepest so far {deepest})",
    "panel_paused": "Paused",
    "panel_running": "Playing",
    "panel_score": "Predictions: {right} of {asked} right",
    "panel_frame": "open_block(bk = {cell:short}): bombnum = {bombnum}",
    "panel_frame_loop": "open_block(bk = {cell:short}): bombnum = {bombnum}, "
                        "neighbour {index} of {count}",
    "panel_frame_count": "open_block(bk = {cell:short}): bombnum = {bombnum}, "
                         "{count} neighbour{count_s} to see to",
    "panel_chart": "Call by call: the stack's depth (blue), the queue's length (orange)",
    "panel_queue": "queue length {length}, longest so far {longest}",
    "panel_stack": "Calls waiting on the stack, outermost first:",
    "panel_waiting": "Tiles waiting in the queue, front first:",
    "panel_more": "... {count} more ...",
    "panel_more_queue": "... {count} more ...",
    "panel_keys": "P or a click: pause  Space or Right: a step  Left: back  Home/End: "
                  "start/end  + and -: speed ({speed}/s)  T: predict  O: neighbours' "
                  "order  K: Python's limit  W: queue/recursion  Esc: end  V: off",
    "panel_keys_limit": "P or a click: pause  Space or Right: a step  Left: back  Home: "
                        "start  End: straight to the RecursionError (again: the last step)  "
                        "+ and -: speed ({speed}/s)  Esc: back to your board  V: off",
    "panel_guess": "Your turn: click the tile of the next call",
    "panel_order": "Neighbours in {order}; rows and cols from 1",
    "panel_flag_rule": "The game's open_block also checks \"and not block.isflag\": a "
                       "flag stops the flood (fix b)",
    "order_reading": "reading order (top left to bottom right)",
    "order_book": "the book's order (the shuffled blocks list)",
    "sheet_title": "The {calls} calls of open_block after clicking {cell:short}, "
                   "neighbours in {order}",
    "sheet_header": "call,row,col,depth,bombs,stop,caller,last",
    "sheet_index": "index",
    "sheet_map_title": "The board after the click, neighbours in {order}. Rows and "
                       "cols count from 1, as the game and --at count them; the book's "
                       "i and j count from 0.",
    "sheet_map_calls": "Each tile the click opened: its call number (# closed, F a "
                       "flag, . open before)",
    "sheet_map_index": ("The index in blocks (from 0) of each tile the click opened: "
                        "get_neighbours meets the tiles in this order"),
    "sheet_written": "Wrote the {calls} calls of open_block to {path}, and the board "
                     "to {board}",
}


# Something to say later: a text's key in TEXTS and the facts to put in.
Said = namedtuple("Said", "key facts")


def words(key, **facts):
    """Something to say later, in the language of that moment."""
    return Said(key, facts)


def say(table, key, facts, cols):
    """A text from a language's table, with its facts put in; cells among
    the facts are named by row and column on a board of cols columns."""
    template = table.get(key, TEXTS[key])
    spoken = {}
    for name, value in facts.items():
        if "{" + name not in template:
            continue            # a fact this text does not use is not worked out
        if isinstance(value, tuple):
            value = speak(table, value, cols)       # words inside words
        elif isinstance(value, Cell):
            value = Place(table, value, cols)
        elif isinstance(value, int) and not isinstance(value, bool):
            spoken[name + "_s"] = "" if value == 1 else "s"
        spoken[name] = value
    return template.format(**spoken)


def speak(table, said, cols):
    """Words kept by words(), said now; "" for nothing."""
    return say(table, said.key, said.facts, cols) if said else ""


class Place:
    """A cell as the player reads it: "row 4, col 7", "(4,7)", or in Chinese."""

    def __init__(self, table, cell, cols):
        """Remember the cell's row and column, counted from 1."""
        self.table = table
        self.row, self.col = cell // cols + 1, cell % cols + 1

    def __format__(self, spec):
        """The cell in words; the spec "short" asks for the short form."""
        key = "place_short" if spec == "short" else "place"
        return self.table.get(key, TEXTS[key]).format(row=self.row, col=self.col)


def read_texts(path):
    """The texts of a language from a UTF-8 JSON file: (table, "") or
    (None, what is wrong)."""
    # Each text must put in only facts its English text has, and have no
    # character that cannot be drawn, so that no text can fail later on the
    # screen.
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        # json recurses once a bracket, in C: a deep file would overflow the
        # stack once a big board has raised Python's recursion limit.
        if too_deep(text, 2):
            return None, "cannot read %s (nested deeper than a table of texts)" % path
        table = json.loads(text)
    except (OSError, ValueError, RecursionError) as error:
        return None, "cannot read %s (%s)" % (path, error)
    if not isinstance(table, dict) or not all(
            isinstance(table.get(key), str) for key in TEXTS):
        return None, "%s lacks some texts" % path
    for key, english in TEXTS.items():
        fault = text_fault(table[key], english)
        if fault:
            return None, "%s: the text %r %s" % (path, key, fault)
    return table, ""


def too_deep(text, most):
    """True if a JSON text's brackets, outside its strings, nest deeper than most."""
    # One pass, a letter at a time: a regular expression that skips the
    # strings first took time that grows as the square of a crafted file's
    # length (256 KB of quotes took minutes).
    depth, inside, escaped = 0, False, False
    for letter in text:
        if escaped:
            escaped = False         # the letter after a backslash in a string
        elif inside:
            escaped, inside = letter == "\\", letter != '"'
        elif letter == '"':
            inside = True
        elif letter in "[{":
            depth += 1
            if depth > most:
                return True
        elif letter in "]}":
            depth -= 1
    return False


def facts_of(text):
    """The facts a text puts in, {(name, conversion, format)}; ValueError
    for a lone brace."""
    # A plural ending such as {closed_s} stands for its fact, closed.
    return {(name[:-2] if name.endswith("_s") else name, conversion, spec)
            for literal, name, spec, conversion in string.Formatter().parse(text)
            if name is not None}


def text_fault(text, english):
    """What is wrong with a text in another language for this English one, or ""."""
    # A control character or half of a surrogate pair cannot be drawn; a
    # lone brace, a fact the English does not have, or a way of putting it
    # in that say() does not know (only a cell has "short") cannot be said.
    for letter in text:
        if letter != "\n" and unicodedata.category(letter) in ("Cc", "Cs"):
            return "has the character U+%04X, which cannot be drawn" % ord(letter)
    try:
        facts = facts_of(text)
    except ValueError as error:
        return "cannot have its facts put in (%s)" % error
    known = {name for name, conversion, spec in facts_of(english)}
    for name, conversion, spec in sorted(facts, key=str):
        if name not in known:
            return "puts in {%s}, which the English text does not have" % name
        if conversion or spec not in ("", "short"):
            return "puts in {%s} in a way the game does not know" % name
    return ""


def following(language, available):
    """The language L turns to after this one: the next one in LANGUAGES
    that is available, and whether one was passed over on the way (its
    texts could not be read). This one again if no other is available."""
    at = LANGUAGES.index(language) + 1
    order = LANGUAGES[at:] + LANGUAGES[:at]
    for passed, name in enumerate(order):
        if name in available:
            return name, passed > 0
    return language, True


def label(language, fonts):
    """What the key list calls a language: its name in its own letters, or
    in English when its font is not among the fonts loaded."""
    row = BY_CODE[language]
    return row.own if row.font in fonts else row.name


def l_label(language, available, fonts):
    """What the key list calls the language L turns to (available: the
    languages read; fonts: the fonts loaded)."""
    name = following(language, available)[0]
    if name == language:        # no other one was read: the next one anyway
        name = following(language, LANGUAGES)[0]
    return label(name, fonts)


def labels(fonts):
    """Every name the key list may give a language, for the room it keeps."""
    return [label(row.code, fonts) for row in TABLE]


BEYOND_LATIN = re.compile("[\u2001-\U0010ffff]")


def is_chinese(text):
    """True if a text has letters only the Chinese font draws."""
    return BEYOND_LATIN.search(text) is not None


# Where a line may break. English: at spaces. Chinese has no spaces
# between words, and a line broken between any two letters splits words
# ("\u6548/\u738743%") and a number from what it counts ("1450/\u5c42"). So a
# Chinese line breaks only at spaces, after Chinese punctuation, before an
# opening bracket, and at break marks: a zero-width space (MARK) that the
# texts in texts/zh.json place between the words of a long clause. Never
# next to a no-break space (the key list holds each key and its meaning
# together so). Only a piece wider than a whole line (never at the game's
# own widths: tests/test_language.py checks them all) is broken between
# any two Chinese letters, and a piece wider still anywhere.
MARK = "\u200b"
CHINESE = "\u2e80-\u9fff\u3000-\u303f\uff00-\uffef"
CLOSING = "\uff0c\u3002\u3001\uff1a\uff1b\uff01\uff1f\uff09\u300d\u300b\u2026%"
OPENING = "\uff08\u300c\u300a"
WORDS = re.compile(" +|[^ ]+")
CLAUSES = re.compile("[%s]*(?:[^%s%s]+[%s]*|[%s]+)|[%s]+" % (
    OPENING, OPENING, CLOSING, CLOSING, CLOSING, OPENING))
LETTERS = re.compile("[%s]*(?:[\u2e80-\u9fff]|[^%s]+|[%s])[%s]*" % (
    OPENING, CHINESE, CHINESE, CLOSING))


def plain(text):
    """A text without its break marks, for a file or a console."""
    return text.replace(MARK, "")


def pieces(paragraph):
    """A paragraph cut where its lines may break (the marks taken out)."""
    out = []
    for word in WORDS.findall(paragraph):
        if word[0] == " " or "\u00a0" in word or not is_chinese(word):
            out.append(word.replace(MARK, ""))
            continue
        for part in word.split(MARK):
            clauses = CLAUSES.findall(part)
            # A clause of punctuation alone ("\u2026\u2026") goes with the next.
            while len(clauses) > 1 and not clauses[0].strip(CLOSING):
                clauses[:2] = [clauses[0] + clauses[1]]
            out.extend(clauses)
    return out


def wrap(text, width_of, width):
    """The lines of text no wider than width px, width_of(text) being how
    wide a text is drawn; a piece wider than a whole line is cut finer."""
    lines = []
    for paragraph in text.split("\n"):
        line, todo = "", pieces(paragraph)[::-1]
        while todo:
            piece = todo.pop()
            if width_of(piece.lstrip()) > width and len(piece.strip()) > 1:
                finer = LETTERS.findall(piece.lstrip()) if is_chinese(piece) else []
                if len(finer) > 1:
                    todo.extend(finer[::-1])
                    continue
                if line.strip():
                    lines.append(line.rstrip())
                piece = piece.lstrip()
                cut = max(1, next((n for n in range(len(piece), 0, -1)
                                   if width_of(piece[:n]) <= width), 1))
                lines.append(piece[:cut])
                line = ""
                todo.append(piece[cut:])
                continue
            if line and width_of(line + piece) > width:
                lines.append(line.rstrip())
                line = piece.lstrip()
            else:
                line += piece
        lines.append(line.rstrip())
    return lines


def fit_lines(text, width, most, largest, font_at, smallest=10):
    """A text broken into lines no wider than width px, at the largest size
    from largest down to smallest px whose lines fit in most px of height;
    at the smallest the lines that do not fit are cut, with "..." at the
    end. font_at(size) gives (width_of, line height) of the text's font at
    a size. (lines, size, height)."""
    for fontsize in range(max(largest, smallest), smallest - 1, -1):
        width_of, linesize = font_at(fontsize)
        lines = wrap(text, width_of, width)
        if fontsize <= smallest or len(lines) * linesize <= most:
            break
    keep = max(most // linesize, 1)
    if len(lines) > keep:
        lines = lines[:keep]
        last = lines[-1]
        while last and width_of(last + "...") > width:
            last = last[:-1]
        lines[-1] = last + "..."
    return tuple(lines), fontsize, len(lines) * linesize
