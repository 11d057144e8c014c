"""Make fonts/minesweep_zh.ttf: the Chinese letters the game uses, and no more.

Run from the project folder:  python tools/make_font.py
It needs Debian's fonts-wqy-microhei (WenQuanYi Micro Hei, Apache-2.0) and
fontTools (pip install fonttools); the game itself needs neither. It keeps
every letter of texts/zh.json and of the game's English texts, so the file
stays small (a few tens of KB) and no text the game draws can show as boxes
(tests/test_language.py checks that). Run it again after changing a text.
"""
import json
import os
import shutil
import sys

from fontTools import subset

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SOURCE = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
LICENCE = "/usr/share/doc/fonts-wqy-microhei/copyright"
FONT = os.path.join(ROOT, "fonts", "minesweep_zh.ttf")


def letters():
    """Every letter the game may draw with this font."""
    with open(os.path.join(ROOT, "texts", "zh.json"), encoding="utf-8") as f:
        chinese = json.load(f)
    keep = set("".join(chinese.values()))
    keep.update(chr(code) for code in range(32, 127))      # English, numbers
    keep.update("\u00a0\u4e2d\u6587")                       # the L key's label
    return "".join(sorted(keep))


def main():
    """Cut the font down and put its licence beside it."""
    if not os.path.exists(SOURCE):
        sys.exit("make_font: %s is missing: apt-get install fonts-wqy-microhei"
                 % SOURCE)
    os.makedirs(os.path.dirname(FONT), exist_ok=True)
    options = subset.Options()
    options.font_number = 0                 # Micro Hei, the first in the file
    options.name_IDs = ["*"]                # keep the name and licence records
    options.hinting = False
    font = subset.load_font(SOURCE, options)
    cutter = subset.Subsetter(options)
    cutter.populate(text=letters())
    cutter.subset(font)
    subset.save_font(font, FONT, options)
    shutil.copyfile(LICENCE, os.path.join(ROOT, "fonts", "LICENSE-wqy-microhei.txt"))
    print("wrote %s (%d bytes, %d letters)" % (FONT, os.path.getsize(FONT),
                                                len(letters())))


if __name__ == "__main__":
    main()
