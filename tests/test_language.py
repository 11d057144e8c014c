"""The game in Chinese: every text in both languages, a font that
has every letter, the language chosen and kept, and a missing or broken
text file that leaves the game in English."""
import json
import os
import random
import re
import string

import pygame
import pytest

import solver
import wording
from conftest import board, footer
from loadgame import ROOT, load_game, with_screen
from test_reliability import copy_game, run_copy
from test_solver import random_position

ZH = os.path.join(ROOT, "texts", "zh.json")
FONT = os.path.join(ROOT, "fonts", "minesweep_zh.ttf")


def chinese():
    """The Chinese texts, as the game reads them."""
    with open(ZH, encoding="utf-8") as f:
        return json.load(f)


def placeholders(text):
    """The facts a text puts in, as a set (the English plural endings, such
    as {closed_s}, stand for the fact they end)."""
    return {name[:-2] if name.endswith("_s") else name
            for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_text_in_both_languages_with_the_same_facts(game):
    zh = chinese()
    assert set(zh) == set(wording.TEXTS)
    for key, english in wording.TEXTS.items():
        assert placeholders(zh[key]) == placeholders(english), key


def test_the_font_has_every_letter_of_every_text(game):
    pygame.font.init()
    font = pygame.font.Font(FONT, 20)
    missing = font.metrics("\ue000")[0]         # a letter no font has
    letters = set("".join(chinese().values())) | set("\u4e2d\u6587")
    letters |= set("".join(wording.TEXTS.values()))
    lacking = [letter for letter in letters if not letter.isspace()
               and letter != "\u00a0" and font.metrics(letter)[0] == missing]
    assert lacking == []
    assert os.path.getsize(FONT) < 100 * 1024
    assert os.path.exists(os.path.join(ROOT, "fonts", "LICENSE-wqy-microhei.txt"))


def test_hint_reasons_carry_the_same_facts_in_chinese(game, monkeypatch):
    monkeypatch.setattr(solver, "GUESS_TIME", 60.0)   # the same guess both times
    rng = random.Random(30)
    seen = set()
    for _ in range(400):
        random_position(game, rng, max_side=7, max_bombs=10)
        game.set_language("en")
        english = game.hint()
        game.set_language("zh")
        chinese_hint = game.hint()
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
    return [(shape[1], shape[2]) for shape in game.now_showing().shapes()
            if shape[0] == "text"]


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
    game.play.replay.forward()
    game.play.replay.forward()
    yield "slow motion"
    game.end_replay()
    game.on_key_down(game.keys.V)
    board(game, 2, 2, [(0, 0)])
    for cell in [(0, 1), (1, 0), (1, 1)]:
        game.grid_action(game.block_at(*cell), game.click_open)
    yield "won"


def test_every_screen_speaks_chinese_after_l(shown):
    game = shown
    for name in screens(game):
        english = drawn_texts(game)
        game.on_key_down(game.keys.L)
        assert game.settings.language == "zh"
        said = drawn_texts(game)
        game.on_key_down(game.keys.L)
        assert game.settings.language == "en"
        assert len(said) == len(english), name
        for (zh_text, zh_font), (en_text, en_font) in zip(said, english):
            if re.fullmatch(r"[\d\s:.\-+()=,_\[\]\"a-z_]*|open_block\(.*|"
                            r".*(bombnum|get_neighbours|block\.|bk\.|queue).*",
                            en_text):
                continue                        # numbers, and lines of code
            assert zh_text != en_text, (name, en_text)
            assert re.search("[\u4e00-\u9fff]", zh_text), (name, zh_text)
            assert zh_font == "minesweep_zh", (name, zh_text)


def test_l_changes_the_title_and_is_kept_for_the_next_start(game, tmp_path):
    game.new_game(9, 9, 10, board=8)
    assert game.TITLE == "Minesweeper: Beginner, board 8"
    game.on_key_down(game.keys.L)
    assert game.TITLE == "\u626b\u96f7\uff1a\u521d\u7ea7\uff0c\u7b2c8\u5c40"   # board 8
    kept = json.loads((tmp_path / "data" / "settings.json").read_text())
    assert kept == {"language": "zh"}
    again = load_game()
    assert again.settings.language == "zh"


@pytest.mark.parametrize("env, expected", [
    ({"LANG": "zh_CN.UTF-8"}, "zh"), ({"LANG": "zh_TW.UTF-8"}, "zh"),
    ({"LANG": "en_GB.UTF-8"}, "en"), ({"LANGUAGE": "zh_CN:en", "LANG": "C"}, "zh"),
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


def test_lang_on_the_command_line_from_another_folder(tmp_path):
    folder = copy_game(tmp_path)
    done = run_copy(folder, tmp_path, "--lang", "zh", "--check")
    assert done.returncode == 0, done.stderr
    assert "the game speaks Chinese" in done.stdout


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
    assert game.speak(game.play.message).startswith("The Chinese texts could not be read")
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
    fonts = {shape[2] for shape in game.now_showing().code(0, 0, 500)
             if shape[0] == "text"}
    assert fonts == {None} and game.play.replay is not None


def test_a_missing_font_leaves_english(tmp_path, monkeypatch, capsys):
    folder = copy_game(tmp_path)
    os.remove(folder / "fonts" / "minesweep_zh.ttf")
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MINESWEEP_LANG", "zh")
    game = load_game(script=str(folder / "minesweep.py"))
    assert game.settings.language == "en" and "L\u00a0Chinese" in footer(game)
    assert "minesweep_zh.ttf is missing" in capsys.readouterr().out
