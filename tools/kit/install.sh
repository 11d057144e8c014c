#!/bin/sh
# 从本文件夹的 wheels 里安装 Pygame Zero、pygame 和 numpy，不用上网。
# 用法：sh install.sh（用虚拟环境的话先激活它；也可以用 PYTHON=某个python sh install.sh 指定 Python）
here=$(cd "$(dirname "$0")" && pwd)
wheels="$here/wheels"
if [ -e "$here/{unfinished}" ]; then
    echo "这个套件没有做完（做的时候被打断了），不能用来安装。"
    echo "请在做套件的电脑上再运行一次 python tools/make_kit.py，做完以后再复制过来。"
    exit 1
fi
. "$here/find_python.sh"
if [ -z "$py" ]; then
    echo "没有找到 Python。请先安装 Python 3.7 到 3.13，然后再运行一次：sh install.sh"
    exit 1
fi
echo "账户：$(id -un)"
echo "找到的 Python：$(command -v "$py")（$("$py" --version 2>&1)）"
echo "正在从 $wheels 安装 Pygame Zero（不用上网）……"
if "$py" -m pip install --no-index --find-links "$wheels" pgzero \
    && "$py" -c "import pgzero, pygame, numpy; print('pgzero', pgzero.__version__, ' pygame', pygame.version.ver, ' numpy', numpy.__version__)"; then
    echo "装好了：这个 Python 可以运行 Pygame Zero 的程序了。复制好学生的文件夹以后，用学生的账户运行 sh $here/selftest.sh 试一试。"
else
    echo "安装没有成功，上面是 pip 说的原因。"
    echo "常见的原因：wheels 里没有这个 Python 用的文件（在这种电脑上运行 python tools/make_kit.py KIT --platform here --python $("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')，再复制一次 wheels），"
    echo "或者系统不让 pip 装在系统的 Python 里：先建一个虚拟环境（python3 -m venv .venv，再 . .venv/bin/activate），再运行一次。"
    exit 1
fi
