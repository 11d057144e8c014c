#!/bin/sh
# 自检：用学生的账户运行，看这台电脑能不能上扫雷课。每项检查一行，最后一行是结论。
# 用法：sh selftest.sh [学生的文件夹]，不写就是 ~/{student}；PYTHON=某个python sh selftest.sh 指定 Python。
here=$(cd "$(dirname "$0")" && pwd)
student="${1:-$HOME/{student}}"
fix=""
failed() {
    echo "[没通过] $1"
    [ -n "$fix" ] || fix="$2"
}
echo "自检：这台电脑能不能上扫雷课（账户：$(id -un)）"
if [ -e "$here/{unfinished}" ]; then
    failed "这个套件没有做完（做的时候被打断了）" \
        "在做套件的电脑上再运行一次 python tools/make_kit.py，做完以后再复制过来"
else
    . "$here/find_python.sh"
    if [ -z "$py" ]; then
        failed "没有找到 Python" "先安装 Python 3.7 到 3.13，再运行 sh $here/install.sh"
    elif ! "$py" -c "import pgzero, pygame" >/dev/null 2>&1; then
        failed "这个 Python 里没有 Pygame Zero：$py" "运行 sh $here/install.sh"
        echo "[没检查] 游戏的窗口、检查程序和声卡：要先装好 Pygame Zero"
    else
        echo "[通过] 这个 Python 里有 Pygame Zero：$py"
        # 游戏的窗口：打开，画几帧，自己关上。
        if "$py" -B "$here/selftest_window.py" "$here/{teacher}" >/dev/null 2>&1; then
            echo "[通过] 游戏的窗口打开了，又自己关上了"
        else
            failed "游戏的窗口打不开" "在 $here/{teacher} 里运行 $py minesweep.py，看它说了什么"
        fi
        # 检查程序（学生文件夹里的那一份）查教材的完整程序，每一节都要通过。
        checker="$student"
        [ -f "$student/check.py" ] || checker="$here/{student}"
        book="$here/{teacher}/chapter/step10_win.py"
        if (cd "$checker" && "$py" -B check.py "$book" >/dev/null 2>&1); then
            echo "[通过] 检查程序查了教材的程序，每一节都通过"
        else
            failed "检查程序没有让教材的程序通过" \
                "在 $checker 里运行 $py check.py $book，看它说了什么"
        fi
        # 没有声卡也能上课：只说一声，不算没通过。
        if "$py" -c "import pygame; pygame.mixer.init()" >/dev/null 2>&1; then
            echo "[通过] 有声卡，游戏能出声"
        else
            echo "[注意] 没有找到声卡：游戏和课件不出声，别的都照常，不用修"
        fi
    fi
    if [ ! -d "$student" ]; then
        failed "没有找到学生的文件夹：$student" "先复制学生的文件夹：cp -r $here/{student} $student"
    elif (: > "$student/selftest.tmp") 2>/dev/null && rm -f "$student/selftest.tmp"; then
        echo "[通过] 学生的文件夹可以写：$student"
    else
        failed "学生的文件夹写不进去：$student" "把学生的文件夹复制到学生能写的地方，再运行 sh selftest.sh 那个文件夹"
    fi
fi
echo
if [ -z "$fix" ]; then
    echo "这台电脑可以上课"
else
    echo "这台电脑还不能上课：$fix"
    exit 1
fi
