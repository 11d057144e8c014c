"""Make fonts/minesweep_zh.ttf: the Chinese letters the game uses, and no more;
and fonts/minesweep_mono.ttf: DejaVu Sans Mono's English letters, for the code
that slow motion shows.

Run from the project folder:  python tools/make_font.py
It needs Debian's fonts-wqy-microhei (WenQuanYi Micro Hei, Apache-2.0) and
fontTools (pip install fonttools); the game itself needs neither. It keeps
every letter of the texts in texts/ (Simplified and Traditional Chinese), of
the game's English texts, of the languages' names, of the lesson handout's
and the students' sheet's Chinese (chapter/handout_zh.json,
chapter/student_zh.json) and of the Chinese steps' comments, which the sheet
prints (chapter/steps_zh.json), and of the checker's message the sheet
quotes (chapter/check_texts.json), so the file stays small (under 160 KB) and no
text the game or the sheets show can show as boxes (tests/test_language.py,
tests/test_handout.py and tests/test_student_sheet.py check that). Run it
again after changing a text, then python tools/make_handout.py, which puts
this font into the handout and the sheet.
"""
import glob
import json
import os
import shutil
import sys

from fontTools import subset

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import languages  # noqa: E402  (the languages' names, from the game's folder)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SOURCE = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
LICENCE = "/usr/share/doc/fonts-wqy-microhei/copyright"
FONT = os.path.join(ROOT, "fonts", "minesweep_zh.ttf")
# Code reads best in letters of one width: DejaVu Sans Mono (Debian's
# fonts-dejavu-core, the Bitstream Vera licence), its English letters only.
MONO_SOURCE = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
MONO_LICENCE = "/usr/share/doc/fonts-dejavu-core/copyright"
MONO = os.path.join(ROOT, "fonts", "minesweep_mono.ttf")


def all_strings(value):
    """Every string in a JSON value, however deep in lists and objects."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return [text for item in value for text in all_strings(item)]
    return []


def letters():
    """Every letter the game or the lesson handout may draw with this font."""
    keep = set()
    paths = sorted(glob.glob(os.path.join(ROOT, "texts", "*.json")))
    for path in paths + [os.path.join(ROOT, "chapter", name) for name in (
            "handout_zh.json", "student_zh.json", "steps_zh.json")]:
        with open(path, encoding="utf-8") as f:
            keep.update("".join(all_strings(json.load(f))))
    # The students' sheet quotes what the checker says of the book's coding
    # line in a file saved as UTF-8.
    with open(os.path.join(ROOT, "chapter", "check_texts.json"), encoding="utf-8") as f:
        keep.update(json.load(f)["zh"]["messages"]["utf8_says_gb"])
    keep.update(chr(code) for code in range(32, 127))      # English, numbers
    keep.update("\u00a0" + "".join(row.own for row in languages.TABLE))   # L's label
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
    cut_mono()


def cut_mono():
    """Cut DejaVu Sans Mono down to the English letters, its licence beside it."""
    if not os.path.exists(MONO_SOURCE):
        sys.exit("make_font: %s is missing: apt-get install fonts-dejavu-core"
                 % MONO_SOURCE)
    options = subset.Options()
    options.name_IDs = ["*"]                # keep the name and licence records
    options.hinting = False
    font = subset.load_font(MONO_SOURCE, options)
    cutter = subset.Subsetter(options)
    cutter.populate(text="".join(chr(code) for code in range(32, 127)))
    cutter.subset(font)
    subset.save_font(font, MONO, options)
    shutil.copyfile(MONO_LICENCE, os.path.join(ROOT, "fonts", "LICENSE-dejavu.txt"))
    print("wrote %s (%d bytes)" % (MONO, os.path.getsize(MONO)))


if __name__ == "__main__":
    main()
