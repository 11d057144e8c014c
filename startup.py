# Start-up of minesweep: the options of `python minesweep.py`, and the
# files the game needs beside it (pictures, sounds and the Chinese font).
#
# Plain data in and out, with no pgzero or pygame.
# Keep this file ASCII only, like minesweep.py.
import argparse
import os

from gamestate import board_fault
from wording import LANGUAGES

# The pictures in images/ and the sounds in sounds/ that the game uses;
# the tiles also come in the view's other sizes, as minesweep_block_20 and
# so on.
TILE_PICTURES = (["minesweep_block", "minesweep_flag", "minesweep_bomb",
                  "minesweep_bomb_red", "minesweep_wrong", "minesweep_question"] +
                 ["minesweep_number%d" % n for n in range(9)])
PICTURES = TILE_PICTURES + ["face_play", "face_win", "face_lose"]
SOUNDS = ["bomb", "win"]
FONT = os.path.join("fonts", "minesweep_zh.ttf")


class CommandLine(argparse.ArgumentParser):
    """argparse, but a mistake is one clear line instead of a usage screen."""

    def error(self, message):
        """Stop with one line that says what is wrong."""
        self.exit(2, "minesweep: %s\n" % message)


def place(text):
    """ROW,COL as the hints say them (from 1) for --at: (row, col) from 0."""
    try:
        row, col = (int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("give ROW,COL, such as 8,8 (got %r)" % text)
    return row - 1, col - 1


def options(argv, rows, cols, bombs):
    """The options of `python minesweep.py`, with these rows, cols and bombs
    unless given; exits with one line if the board cannot be played. Its
    asked is True if a board was asked for (its size or its number)."""
    parser = CommandLine(prog="python minesweep.py",
                         description="Minesweeper for Pygame Zero.")
    parser.add_argument("--rows", type=int, help="(%d)" % rows)
    parser.add_argument("--cols", type=int, help="(%d)" % cols)
    parser.add_argument("--bombs", type=int, help="(%d)" % bombs)
    parser.add_argument("--board", type=int, default=None,
                        help="the board number (a new one each game)")
    parser.add_argument("--flag-win", action="store_true",
                        help="also win when exactly the bombs are flagged")
    parser.add_argument("--lang", choices=list(LANGUAGES),
                        help="the game's language (else the computer's own)")
    parser.add_argument("--check", action="store_true",
                        help="check that every picture and sound is there, then stop")
    parser.add_argument("--calls", metavar="FILE",
                        help="write the calls of open_block that the first click makes "
                             "to a CSV file, then stop (no window)")
    parser.add_argument("--at", type=place, metavar="ROW,COL",
                        help="with --calls, the first click (from 1; the middle)")
    args = parser.parse_args(argv)
    args.asked = any(value is not None for value in (args.rows, args.cols, args.bombs,
                                                     args.board))
    args.rows = rows if args.rows is None else args.rows
    args.cols = cols if args.cols is None else args.cols
    args.bombs = bombs if args.bombs is None else args.bombs
    fault = board_fault(args.rows, args.cols, args.bombs, args.board)
    if fault:
        parser.error(fault)
    if args.at is None:
        args.at = (args.rows // 2, args.cols // 2)
    if not (0 <= args.at[0] < args.rows and 0 <= args.at[1] < args.cols):
        parser.error("--at must be a tile of the board, 1..%d,1..%d"
                     % (args.rows, args.cols))
    return args


def missing(root, sizes):
    """The files the game needs that are not in its folder, root: (the
    pictures, the sounds, the font), each a list of paths; sizes are the
    tile sizes besides the book's."""
    pictures = PICTURES + ["%s_%d" % (name, size) for name in TILE_PICTURES
                           for size in sizes]
    wanted = ([os.path.join("images", name + ".png") for name in pictures],
              [os.path.join("sounds", name + ".wav") for name in SOUNDS], [FONT])
    return tuple([os.path.join(root, path) for path in paths
                  if not os.path.isfile(os.path.join(root, path))] for paths in wanted)


def checked(language):
    """What --check says when every file is there."""
    return ("minesweep: checked the pictures, sounds and texts; the game speaks %s"
            % {"en": "English", "zh": "Chinese"}[language])


def problems(root, sizes):
    """What start-up says of the files the game needs: (a line to stop with
    if a picture is missing, or None; (topic, line) for the console; whether
    the Chinese font is there)."""
    pictures, sounds, font = missing(root, sizes)
    said = []
    if sounds:
        said.append(("sound", "minesweep: %s missing: the game plays without it "
                     "(python tools/make_assets.py makes it)" % ", ".join(sounds)))
    if font:
        said.append(("texts", "minesweep: %s is missing: the game speaks English "
                     "(python tools/make_font.py makes it)" % font[0]))
    fatal = pictures and ("minesweep: cannot start: %s missing. Make the pictures "
                          "again with: python tools/make_assets.py" % ", ".join(pictures))
    return fatal or None, said, not font
