"""The order of a class's names, as a Chinese class list has them: by the
student number a name starts with, else by pinyin; the class report
(check.py --html) lists its rows so, and speaks to the teacher who reads
it. (The live page, check_live.py, orders its rows by the same function.)"""
import json
import os
import random
import subprocess
import sys

from loadgame import CHAPTER

sys.path.insert(0, CHAPTER)
import check  # noqa: E402  (the checker)

CHECK = os.path.join(CHAPTER, "check.py")
with open(os.path.join(CHAPTER, "check_texts.json"), encoding="utf-8") as f:
    TEXTS = json.load(f)
ZH = TEXTS["zh"]


CLASS_LIST = ["2\u5434\u5341", "10\u5468\u4e5d", "\uff11\uff12\u90d1\u4e00",  # 2, 10, 12
              "Bob", "\u5b89\u5a1c", "\u674e\u56db", "\u94b1\u4e03", "\u5b59\u516b",
              "\u8d75\u516d"]           # then Latin, then an, li, qian, sun, zhao


def test_names_are_ordered_as_a_chinese_class_list():
    # Numbers first, as numbers (full-width digits too); then pinyin, which
    # is not the order of the characters' codes (sun comes before li there).
    shuffled = random.Random(1).sample(CLASS_LIST, len(CLASS_LIST))
    assert sorted(shuffled, key=check.class_order) == CLASS_LIST
    assert sorted(name + ".py" for name in shuffled) != [n + ".py" for n in CLASS_LIST]
    assert sorted((name + ".py" for name in shuffled), key=check.class_order) == [
        name + ".py" for name in CLASS_LIST]
    # A name no encoding of Chinese has (a lone surrogate from a file name
    # of bytes) still has its place.
    assert set(sorted(["\udcff", "\u674e"], key=check.class_order)) == {"\u674e", "\udcff"}


def test_the_class_report_uses_the_class_order_and_speaks_to_the_teacher(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in CLASS_LIST:
        (folder / (name + ".py")).write_text("", encoding="utf-8")
    page = tmp_path / "report.html"
    subprocess.run([sys.executable, CHECK, "--html", str(page), str(folder)],
                   capture_output=True, timeout=600)
    text = page.read_text(encoding="utf-8")
    places = [text.index(">%s.py<" % name) for name in CLASS_LIST]
    assert places == sorted(places)
    # Its heading is the teacher's, not the words that speak to a student.
    heading = text[:text.index("<table>")]
    assert ZH["html_intro"] in heading and ZH["intro"] not in heading
    assert "\u4f60" not in ZH["html_intro"]                   # "you"
    for lang in TEXTS:
        assert TEXTS[lang]["html_intro"] != TEXTS[lang]["intro"]
