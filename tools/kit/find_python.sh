# 找这台电脑上的 Python：install.sh 和 selftest.sh 都用它（. find_python.sh）。
# 找到的写进 py：先看环境变量 PYTHON，再找 python3、python。
py="${PYTHON:-}"
if [ -z "$py" ]; then
    for name in python3 python; do
        if command -v "$name" >/dev/null 2>&1 && "$name" -c "import sys" >/dev/null 2>&1; then
            py=$name
            break
        fi
    done
fi
