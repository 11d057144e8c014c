# The languages minesweep and its checker (chapter/check.py) speak: one
# row each, in the order L goes through them, and which of them a
# computer's own language setting (its locale) means. A new language is
# its row here and its file of texts in texts/ (and, for the checker, its
# words in chapter/check_texts.json).
#
# Plain data, with no pgzero or pygame and nothing beyond Python's own
# modules: the checker reads this file too, from the folder above its own
# (or beside it, in the students' folder of the classroom kit).
# Keep this file ASCII only, like minesweep.py.
import locale
import re
from collections import namedtuple

# A language: its code (--lang, MINESWEEP_LANG, the settings file and the
# checker's words), its name in English (for the console and --help) and
# in itself (the key list names the language L turns to in its own
# letters), its file of the game's texts in texts/ (None: English, whose
# texts are in wording.py), the words of a locale's name that mean it
# (Linux and macOS name a locale "zh_TW.UTF-8", Windows "Chinese
# (Traditional)_Taiwan.950"), the font in fonts/ its words are drawn in,
# how large that font's letters are beside pgzero's own at one size, and
# its name in a web page (the checker's page for the teacher).
Language = namedtuple("Language", "code name own texts locales font scale tag")
TABLE = (
    Language("en", "English", "English", None, ("en", "english"),
             "minesweep_zh", 0.85, "en"),
    Language("zh", "Chinese (Simplified)", "\u7b80\u4f53\u4e2d\u6587", "zh.json",
             ("zh", "chinese", "cn", "sg", "hans", "chs", "simplified", "china",
              "singapore"), "minesweep_zh", 0.85, "zh-CN"),
    Language("zh-TW", "Chinese (Traditional)", "\u7e41\u9ad4\u4e2d\u6587", "zh-TW.json",
             ("zh", "chinese", "tw", "hk", "mo", "hant", "cht", "traditional", "taiwan",
              "hong", "macao", "macau"), "minesweep_zh", 0.85, "zh-TW"),
)
# The codes, in L's order; each language by its code; the fonts they use;
# the first language, whose texts are the game's own (wording.TEXTS), which
# it speaks whenever it cannot speak another.
LANGUAGES = tuple(language.code for language in TABLE)
ENGLISH = LANGUAGES[0]
BY_CODE = {language.code: language for language in TABLE}
FONTS = tuple(sorted({language.font for language in TABLE}))


def words_of(name):
    """The words of a locale's name, in small letters: "zh_TW.UTF-8" has
    zh, tw, utf and 8."""
    return [word for word in re.split("[^a-z0-9]+", name.lower()) if word]


def of_locale(name, among=LANGUAGES):
    """The language (among these codes) a locale's name means, or None."""
    # Its first word names the language ("zh", "chinese"); of the languages
    # it names, the one that shares the most words with it (the place or
    # the script: "tw", "hans") is meant, and in a tie the first in TABLE.
    words = words_of(name)
    fits = [(sum(word in language.locales for word in words), -place, language.code)
            for place, language in enumerate(TABLE)
            if language.code in among and words and words[0] in language.locales]
    return max(fits)[2] if fits else None


def system_language(environ, locale_name, default=ENGLISH, among=LANGUAGES):
    """The language the computer speaks, among these codes: the first of
    LANGUAGE, LC_ALL, LC_MESSAGES, LANG and Python's locale (locale_name)
    that is set decides; default if it names none of them."""
    # LANGUAGE is a list of languages by preference, such as "zh_TW:en":
    # its first one counts.
    names = [environ.get("LANGUAGE", "").split(":")[0]]
    names += [environ.get(name, "") for name in ("LC_ALL", "LC_MESSAGES", "LANG")]
    names.append(locale_name or "")
    for name in names:
        if name:
            return of_locale(name, among) or default
    return default


def choose(asked, environ, kept, *, default=ENGLISH, among=LANGUAGES):
    """The language to speak, among these codes: asked (--lang), else
    MINESWEEP_LANG, else kept() (the one chosen last time, or None), else
    the computer's own (default if it speaks none of them)."""
    chosen = asked or environ.get("MINESWEEP_LANG", "")
    if chosen in among:
        return chosen
    chosen = kept()
    if chosen in among:
        return chosen
    try:
        name = locale.getlocale()[0]
    except ValueError:
        name = None
    return system_language(environ, name, default, among)
