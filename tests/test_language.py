"""The game in Chinese, Simplified and Traditional: every text in every
language, a font that has every letter, L going through the languages,
the language chosen and kept, and a missing or broken text file that
leaves the game in English."""
import functools
import glob
import json
import os
import random
import re
import shutil
import string
import subprocess
import sys

import pygame
import pytest

import languages
import scene
import solver
import wording
from conftest import board, footer, hint
from loadgame import ROOT, load_game, with_screen
from test_reliability import copy_game, run_copy
from test_solver import random_position

ZH = os.path.join(ROOT, "texts", "zh.json")
TW = os.path.join(ROOT, "texts", "zh-TW.json")
FONT = os.path.join(ROOT, "fonts", "minesweep_zh.ttf")
TEXT_FILES = sorted(glob.glob(os.path.join(ROOT, "texts", "*.json")))
TRADITIONAL_TITLE = "\u8e29\u5730\u96f7\uff1a\u521d\u7d1a\uff0c\u7b2c8\u5c40"  # board 8


def chinese(path=ZH):
    """A language's texts, as the game reads them (Simplified unless told)."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def placeholders(text):
    """The facts a text puts in, as a set (the English plural endings, such
    as {closed_s}, stand for the fact they end)."""
    return {name[:-2] if name.endswith("_s") else name
            for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("path", TEXT_FILES, ids=os.path.basename)
def test_every_text_in_every_language_with_the_same_facts(game, path):
    table = chinese(path)
    assert set(table) == set(wording.TEXTS)
    for key, english in wording.TEXTS.items():
        assert placeholders(table[key]) == placeholders(english), key
    assert wording.read_texts(path) == (table, "")


def test_traditional_has_exactly_the_texts_of_simplified_with_their_facts():
    # A text added to zh.json must be added to zh-TW.json too, and the
    # other way round, with the same facts put in the same ways.
    simplified, traditional = chinese(ZH), chinese(TW)
    assert sorted(set(simplified) - set(traditional)) == []
    assert sorted(set(traditional) - set(simplified)) == []
    for key, text in simplified.items():
        assert wording.facts_of(traditional[key]) == wording.facts_of(text), key
    assert [path for path in TEXT_FILES if os.path.basename(path) in (
        "zh.json", "zh-TW.json")] == [TW, ZH]


def test_traditional_is_written_in_traditional_letters():
    # Every letter of it is one of Big5's, Taiwan's set of letters, which
    # lacks the letters made only for Simplified Chinese (such as those of
    # "Minesweeper" and "Beginner" in zh.json); the texts that are only
    # code, numbers or English are the same as in Simplified. The break
    # marks between words are not letters, so they are left out.
    traditional, simplified = chinese(TW), chinese(ZH)
    for key, text in traditional.items():
        text.replace(wording.MARK, "").encode("big5")
        if not re.search("[\u4e00-\u9fff]", simplified[key]):
            assert text == simplified[key], key
    with pytest.raises(UnicodeEncodeError):
        (simplified["title"] + simplified["Beginner"]).encode("big5")
    assert "\u8e29\u5730\u96f7" in traditional["title"]       # Minesweeper, as Taiwan says


def test_the_font_draws_every_letter_of_every_text_in_every_language(game):
    pygame.font.init()
    font = pygame.font.Font(FONT, 20)
    missing = font.metrics("\ue000")[0]         # a letter no font has
    letters = set("".join(row.own for row in languages.TABLE))
    for path in TEXT_FILES:
        letters |= set("".join(chinese(path).values()))
    letters |= set("".join(wording.TEXTS.values()))
    lacking = [letter for letter in letters if not letter.isspace()
               and letter != "\u00a0" and font.metrics(letter)[0] == missing]
    assert lacking == []
    # Both kinds of Chinese letters, the handout's and the sheet's, cut from
    # a font of megabytes (tools/make_font.py).
    assert os.path.getsize(FONT) < 160 * 1024
    assert os.path.exists(os.path.join(ROOT, "fonts", "LICENSE-wqy-microhei.txt"))


@pytest.mark.parametrize("language", ["zh", "zh-TW"])
def test_hint_reasons_carry_the_same_facts_in_chinese(game, monkeypatch, language):
    monkeypatch.setattr(solver, "GUESS_TIME", 60.0)   # the same guess both times
    rng = random.Random(30)
    seen = set()
    for _ in range(400):
        random_position(game, rng, max_side=7, max_bombs=10)
        game.set_language("en")
        english = hint(game)
        game.set_language(language)
        chinese_hint = hint(game)
        if english is None:
            continue
        assert english[:2] == chinese_hint[:2]
        # The same numbers, rows and columns (Chinese puts some in another order).
        # (the English "50/50" is a name, not a fact; the Chinese has a word).
        assert sorted(re.findall(r"\d+", english[2].replace("50/50", ""))) == \
            sorted(re.findall(r"\d+", chinese_hint[2]))
        assert re.search("[\u4e00-\u9fff]", chinese_hint[2])
        seen.add(english[2].split(":")[0])
    game.set_language("en")
    assert seen == {"Safe", "Bomb", "Guess"}


def drawn_texts(game):
    """Every text the window shows now, with the font it is drawn in."""
    return [(shape.text, shape.font) for shape in game.now_showing().shapes()
            if isinstance(shape, scene.Text)]


def screens(game):
    """Each screen of the game, one after another (a generator)."""
    game.new_game(9, 9, 10, board=5)
    yield "start"
    board(game, 9, 9, [(0, 0), (0, 8), (8, 0), (8, 8), (4, 4), (2, 6), (6, 2),
                       (6, 6), (2, 2), (4, 8)])
    game.grid_action(game.block_at(0, 4), game.click_open)
    game.on_key_down(game.keys.H)
    yield "hint"
    game.grid_action(game.block_at(4, 4), game.click_open)
    yield "post-mortem"
    game.on_key_down(game.keys.U)
    game.on_key_down(game.keys.V)
    board(game, 9, 9, [(0, 0)])
    game.grid_action(game.block_at(8, 8), game.click_open)
    game.showing.replay.forward()
    game.showing.replay.forward()
    yield "slow motion"
    game.end_replay()
    game.on_key_down(game.keys.V)
    board(game, 2, 2, [(0, 0)])
    for cell in [(0, 1), (1, 0), (1, 1)]:
        game.grid_action(game.block_at(*cell), game.click_open)
    yield "won"


def test_every_screen_speaks_each_chinese_after_l(shown):
    game = shown
    for name in screens(game):
        game.layout()                       # as the next frame does
        english = drawn_texts(game)
        game.on_key_down(game.keys.L)
        assert game.settings.language == "zh"
        simplified = drawn_texts(game)
        game.on_key_down(game.keys.L)
        assert game.settings.language == "zh-TW"
        traditional = drawn_texts(game)
        game.on_key_down(game.keys.L)
        assert game.settings.language == "en"
        assert drawn_texts(game) == english, name
        for said in (simplified, traditional):
            assert len(said) == len(english), name
            for (zh_text, zh_font), (en_text, en_font) in zip(said, english):
                if re.fullmatch(r"[\d\s:.\-+()=,_\[\]\"a-z_]*|open_block\(.*|"
                                r".*(bombnum|get_neighbours|block\.|bk\.|queue).*",
                                en_text):
                    continue                        # numbers, and lines of code
                assert zh_text != en_text, (name, en_text)
                assert re.search("[\u4e00-\u9fff]", zh_text), (name, zh_text)
                assert zh_font == "minesweep_zh", (name, zh_text)
        assert [text for text, font in simplified] != [text for text, font in traditional]


def test_the_key_list_names_the_language_l_turns_to(game):
    game.new_game(9, 9, 10, board=8)
    for language, label in [("zh", "L\u00a0\u7b80\u4f53\u4e2d\u6587"),
                            ("zh-TW", "L\u00a0\u7e41\u9ad4\u4e2d\u6587"),
                            ("en", "L\u00a0English")]:
        assert label in footer(game), language
        game.on_key_down(game.keys.L)
        assert game.settings.language == language


def test_l_changes_the_title_and_is_kept_for_the_next_start(game, tmp_path):
    game.new_game(9, 9, 10, board=8)
    assert game.TITLE == "Minesweeper: Beginner, board 8"
    game.on_key_down(game.keys.L)
    assert game.TITLE == "\u626b\u96f7\uff1a\u521d\u7ea7\uff0c\u7b2c8\u5c40"   # board 8
    kept = json.loads((tmp_path / "data" / "settings.json").read_text())
    assert kept == {"language": "zh"}
    again = load_game()
    assert again.settings.language == "zh"
    again.new_game(9, 9, 10, board=8)
    again.on_key_down(again.keys.L)
    assert again.TITLE == TRADITIONAL_TITLE
    kept = json.loads((tmp_path / "data" / "settings.json").read_text())
    assert kept == {"language": "zh-TW"}
    assert load_game().settings.language == "zh-TW"


@pytest.mark.parametrize("kept", ["en", "zh", "zh-TW"])
def test_a_settings_file_of_each_language_is_read(tmp_path, monkeypatch, kept):
    # Settings files written before Traditional Chinese ("en", "zh") read as before.
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path))
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "MINESWEEP_LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8" if kept != "en" else "zh_TW.UTF-8")
    (tmp_path / "settings.json").write_text(json.dumps({"language": kept}))
    assert load_game().settings.language == kept


@pytest.mark.parametrize("env, expected", [
    ({"LANG": "zh_CN.UTF-8"}, "zh"), ({"LANG": "zh_TW.UTF-8"}, "zh-TW"),
    ({"LANG": "zh_HK.UTF-8"}, "zh-TW"), ({"LANG": "zh_SG.UTF-8"}, "zh"),
    ({"LANG": "en_GB.UTF-8"}, "en"), ({"LANGUAGE": "zh_CN:en", "LANG": "C"}, "zh"),
    ({"LANGUAGE": "zh_TW:zh_CN:en", "LANG": "C"}, "zh-TW"),
    ({"LC_MESSAGES": "zh_HK", "LANG": "en_US.UTF-8"}, "zh-TW"),
    ({"LC_ALL": "zh_TW.Big5", "LANG": "zh_CN.UTF-8"}, "zh-TW"),
    ({"LC_ALL": "C.UTF-8"}, "en")])
def test_the_first_start_follows_the_system_language(tmp_path, monkeypatch, env,
                                                      expected):
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path))
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "MINESWEEP_LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert load_game().settings.language == expected


def test_the_environment_chooses_too(tmp_path, monkeypatch):
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    monkeypatch.setenv("MINESWEEP_LANG", "zh")
    assert load_game().settings.language == "zh"


@pytest.mark.parametrize("language, name", [("zh", "Chinese (Simplified)"),
                                            ("zh-TW", "Chinese (Traditional)")])
def test_lang_on_the_command_line_from_another_folder(tmp_path, language, name):
    folder = copy_game(tmp_path)
    done = run_copy(folder, tmp_path, "--lang", language, "--check")
    assert done.returncode == 0, done.stderr
    assert "the game speaks %s" % name in done.stdout


# A fourth language, as its developer would add it: one row of
# languages.TABLE and its file of texts (some texts in Indonesian, the rest
# left in English, as a translation begun).
INDONESIAN_ROW = ('    Language("id", "Indonesian", "Bahasa Indonesia", "id.json",\n'
                  '             ("id", "indonesian"), "minesweep_zh", 0.85, "id"),\n')
INDONESIAN = dict(title="Penyapu Ranjau: {level}, papan {board}", Beginner="Pemula",
                  finished="Selesai", failed="Gagal",
                  keys="H petunjuk  A otomatis  S pasti  N tanpa tebakan  V lambat  Q ?  "
                       "X menang bendera  G nomor papan  P jeda  B waktu terbaik  Z zoom  "
                       "F11 layar penuh  L {other}  R baru  1 2 3 0 tingkat")
# The copy's game, loaded as the tests load it, plays a board and shows it.
PLAY_IT = """
import os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "tests"))
import pygame
from loadgame import draw_afresh, load_game, with_screen
game = load_game()
with_screen(game)
game.new_game(9, 9, 10, board=8)
game.grid_action(game.block_at(4, 4), game.click_open)
game.update(0)
with_screen(game)
draw_afresh(game)
pygame.image.save(game.screen.surface, sys.argv[2])
print(game.WIDTH, game.HEIGHT)
print(game.settings.language)
print(game.TITLE)
print(game.now_showing().footer_words())
game.on_key_down(game.keys.L)
print(game.settings.language)
"""


def test_a_fourth_language_is_its_texts_file_and_one_row_of_the_table(tmp_path):
    folder = copy_game(tmp_path)
    path = folder / "languages.py"
    table = path.read_text(encoding="ascii")
    assert table.count(")\n# The codes") == 1
    path.write_text(table.replace(")\n# The codes", INDONESIAN_ROW + ")\n# The codes"),
                    encoding="ascii")
    (folder / "texts" / "id.json").write_text(json.dumps(dict(wording.TEXTS, **INDONESIAN)),
                                             encoding="utf-8")
    (folder / "tests").mkdir()
    shutil.copy(os.path.join(ROOT, "tests", "loadgame.py"), str(folder / "tests"))
    done = run_copy(folder, tmp_path, "--lang", "id", "--check")
    assert done.stdout.strip().endswith("the game speaks Indonesian"), done.stdout
    assert "--lang {en,zh,zh-TW,id}" in run_copy(folder, tmp_path, "--help").stdout
    # A computer that speaks it starts the game in it; L goes on to English.
    screen = tmp_path / "indonesian.png"
    env = {name: value for name, value in os.environ.items() if name not in (
        "LANGUAGE", "LC_ALL", "LC_MESSAGES", "MINESWEEP_LANG")}
    played = subprocess.run(
        [sys.executable, "-c", PLAY_IT, str(folder), str(screen)], cwd=str(tmp_path),
        env=dict(env, LANG="id_ID.UTF-8", MINESWEEP_DATA_DIR=str(tmp_path / "data")),
        capture_output=True, text=True, timeout=120)
    assert played.returncode == 0, played.stderr
    size, language, title, words, after = played.stdout.splitlines()[-5:]
    assert (language, title, after) == ("id", "Penyapu Ranjau: Pemula, papan 8", "en")
    assert "H\u00a0petunjuk" in words and "L\u00a0English" in words
    assert "%d %d" % pygame.image.load(str(screen)).get_size() == size


@pytest.mark.parametrize("env", [{"LANG": "zh_HK.UTF-8"}, {"LC_ALL": "zh_TW.UTF-8"}])
def test_a_traditional_chinese_computer_starts_a_real_game_in_it(tmp_path, env):
    folder = copy_game(tmp_path)
    chosen = {name: value for name, value in os.environ.items() if name not in (
        "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "MINESWEEP_LANG")}
    done = subprocess.run([sys.executable, str(folder / "minesweep.py"), "--check"],
                          cwd=str(tmp_path), capture_output=True, text=True, timeout=60,
                          env=dict(chosen, SDL_VIDEODRIVER="dummy",
                                   SDL_AUDIODRIVER="dummy",
                                   MINESWEEP_DATA_DIR=str(tmp_path / "data"), **env))
    assert done.returncode == 0, done.stderr
    assert "the game speaks Chinese (Traditional)" in done.stdout


def test_l_passes_over_a_language_whose_texts_are_broken(tmp_path, monkeypatch, capsys):
    folder = copy_game(tmp_path)
    (folder / "texts" / "zh-TW.json").write_text('{"keys": "only one"}')
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MINESWEEP_LANG", "zh-TW")
    game = load_game(script=str(folder / "minesweep.py"))
    assert game.settings.language == "en"
    assert "instead of Chinese (Traditional)" in capsys.readouterr().out
    game.on_key_down(game.keys.L)
    assert game.settings.language == "zh" and game.showing.message is None
    assert "L\u00a0English" in footer(game)
    game.on_key_down(game.keys.L)
    assert game.settings.language == "en"
    assert game.speak(game.showing.message).startswith("The texts of a language could not be read")


@pytest.mark.parametrize("content", [None, b"{broken", b'{"keys": "only one"}',
                                     b"\xff\xfe\xfa"])
def test_a_missing_or_broken_text_file_leaves_english(tmp_path, monkeypatch, capsys,
                                                      content):
    folder = copy_game(tmp_path)
    if content is None:
        os.remove(folder / "texts" / "zh.json")
    else:
        (folder / "texts" / "zh.json").write_bytes(content)
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MINESWEEP_LANG", "zh")
    game = load_game(script=str(folder / "minesweep.py"))
    assert game.settings.language == "en"
    game.on_key_down(game.keys.L)
    game.on_key_down(game.keys.L)
    assert game.settings.language == "en"
    assert game.speak(game.showing.message).startswith("The texts of a language could not be read")
    assert capsys.readouterr().out.count("the game speaks English") == 1


def test_without_the_code_font_slow_motion_shows_its_code_in_pgzeros(tmp_path,
                                                                    monkeypatch, capsys):
    folder = copy_game(tmp_path)
    os.remove(folder / "fonts" / "minesweep_mono.ttf")
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path / "data"))
    game = load_game(script=str(folder / "minesweep.py"))
    assert capsys.readouterr().out.count("minesweep_mono.ttf cannot be used") == 1
    with_screen(game)
    game.on_key_down(game.keys.V)
    game.new_game(9, 9, 0)
    game.grid_action(game.block_at(4, 4), game.click_open)
    game.update(1.0)
    game.draw()                     # the panel draws, its code in pgzero's font
    fonts = {shape.font for shape in game.now_showing().code(0, 0, 500)
             if isinstance(shape, scene.Text)}
    assert fonts == {None} and game.showing.replay is not None


def test_a_missing_font_leaves_english(tmp_path, monkeypatch, capsys):
    folder = copy_game(tmp_path)
    os.remove(folder / "fonts" / "minesweep_zh.ttf")
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MINESWEEP_LANG", "zh")
    game = load_game(script=str(folder / "minesweep.py"))
    assert game.settings.language == "en" and "L\u00a0Chinese" in footer(game)
    assert "minesweep_zh.ttf is missing" in capsys.readouterr().out


# Where a Chinese line may break ------------------------------------------------
# Allowed: at a space, at a break mark (wording.MARK, a zero-width space the
# texts place between words), after Chinese punctuation, before an opening
# bracket. Nowhere else: not inside a word, not between a number and what it
# counts. These are written out here, apart from wording's own patterns.
ZH_CLOSING = set("\uff0c\u3002\u3001\uff1a\uff1b\uff01\uff1f\uff09\u300d\u300b\u2026%")
ZH_OPENING = set("\uff08\u300c\u300a")
NOT_NUMBERS = {"cell", "at", "at_a", "at_b", "bomb", "guess", "caller", "child", "why",
               "text", "level", "message", "other", "date", "chance", "best", "time",
               "speed", "digits"}
# Where the game draws its texts, and how wide and large: the footer below
# the grid (from the narrowest window, 225 px, less 8), the slow-motion
# panel (320 px), the paused board and the table of best times (the board
# less 16 px); each from its largest size in the Chinese font down to 10 px.
FOOTER = (range(217, 1400), range(10, 15))
PANEL = (range(320, 321), range(10, 20))
TABLE = (range(209, 1400), range(10, 25))
PANEL_KEYS = ("panel_", "call_", "queue_", "stop_", "predict_", "recursion_",
              "replay_start")


def sample_facts(text):
    """Long facts for every fact a Chinese text puts in (a cell far down the
    board; the longest words inside words)."""
    far = solver.Cell(200 * 200 - 1)
    nested = {"why": wording.words("subset_bomb", at_a=far, at_b=far, number_a=8,
                                   number_b=8, cell=far),
              "guess": wording.words("guess", cell=far, chance=100),
              "text": wording.words("guessed", chance="12%\uff08\u7ea68\u5206\u4e4b1\uff09")}
    strings = {"level": "\u4e2d\u7ea7", "other": "English", "date": "2026-12-01",
               "message": "maximum recursion depth exceeded", "time": "999.99",
               "speed": "99.99", "digits": "999999999", "chance": "12%", "best": "3%"}
    facts = {}
    for _, name, spec, _ in string.Formatter().parse(text):
        if not name:
            continue
        name = name[:-2] if name.endswith("_s") else name
        if spec == "short" or name in ("cell", "at", "at_a", "at_b", "bomb", "caller",
                                       "child"):
            facts[name] = far
        elif name in nested:
            facts[name] = nested[name]
        else:
            facts[name] = strings.get(name, 999)
    return facts


def bad_breaks(text, lines):
    """The breaks between lines that are not allowed ones in text (the text
    as written, with its marks), as "before|after"."""
    bad, at = [], 0
    for number, line in enumerate(lines):
        while at < len(text) and text[at] in " " + wording.MARK and (number or at):
            at += 1
        for letter in line:
            while text[at] == wording.MARK:
                at += 1
            assert text[at] == letter, (text, lines)
            at += 1
        if number == len(lines) - 1:
            break
        after = at
        while after < len(text) and text[after] in " " + wording.MARK:
            after += 1
        gap, before, next_letter = text[at:after], text[at - 1], text[after:after + 1]
        allowed = (" " in gap or wording.MARK in gap or before in ZH_CLOSING
                   or next_letter in ZH_OPENING)
        if (not allowed or next_letter in ZH_CLOSING or before in ZH_OPENING
                or not line):
            bad.append(line[-6:] + "|" + text[after:after + 6])
    return bad


def zh_font_measures():
    """(width of a text) for each size of the Chinese font, kept."""
    pygame.font.init()
    sizes = {}
    for size in range(10, 25):
        font = pygame.font.Font(FONT, size)
        sizes[size] = functools.lru_cache(maxsize=None)(lambda text, f=font: f.size(text)[0])
    return sizes


def places_of(key):
    """Where the game draws a text: (widths, sizes) for each place."""
    if key.startswith("sheet_"):
        return []       # the worksheet's words go to its files, not the screen
    places = [FOOTER]
    if key.startswith(PANEL_KEYS):
        places.append(PANEL)
    if key.startswith("times_") or key == "paused":
        places.append(TABLE)
    return places


# Every table of Chinese texts (Simplified, and any other beside it).
TABLES = sorted(glob.glob(os.path.join(ROOT, "texts", "*.json")))


def read_table(path):
    """A table of texts as the game reads it."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)


@pytest.mark.parametrize("path", TABLES, ids=os.path.basename)
def test_chinese_lines_break_only_between_words_at_every_width(path):
    measures, bad, table = zh_font_measures(), {}, read_table(path)
    for key, template in table.items():
        text = wording.say(table, key, sample_facts(template), 200)
        for widths, sizes in places_of(key):
            for size in sizes:
                width_of = measures[size]
                # Past the whole text's width, every width wraps it alike.
                most = min(widths.stop, width_of(text.replace(wording.MARK, "")) + 2)
                for paragraph in text.split("\n"):
                    for lines in every_wrap(paragraph, width_of, range(widths.start, most)):
                        found = bad_breaks(paragraph, lines)
                        if found:
                            bad.setdefault(key, set()).update(found)
    assert bad == {}


def every_wrap(text, width_of, widths):
    """wording.wrap's lines of text at each of these widths, each way of
    breaking it given once: wrap only compares widths of pieces with the
    width, so from one width up to the next width it measured, every
    width breaks the text the same way."""
    width = widths.start
    while width < widths.stop:
        measured = []
        yield wording.wrap(text, lambda piece: measured.append(width_of(piece))
                           or measured[-1], width)
        width = min([wide for wide in measured if wide > width], default=widths.stop)


@pytest.mark.parametrize("path", TABLES, ids=os.path.basename)
def test_break_marks_never_part_a_number_from_what_it_counts(path):
    for key, text in read_table(path).items():
        for name in re.findall(r"\{(\w+)[^}]*\}" + wording.MARK, text):
            assert name in NOT_NUMBERS, (key, name)
        assert not re.search("[0-9\u7b2c\u7ea6\u5171\u6bcf]" + wording.MARK, text), key
        assert not re.search(wording.MARK + "[%s]" % "".join(ZH_CLOSING), text), key
        assert not re.search("[%s]" % "".join(ZH_OPENING) + wording.MARK, text), key
        assert wording.MARK * 2 not in text and " " + wording.MARK not in text, key
