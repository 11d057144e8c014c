@echo off
chcp 936 >nul
rem 从本文件夹的 wheels 里安装 Pygame Zero、pygame 和 numpy，不用上网。
rem 本文件用 GBK 保存、CRLF 换行，中文 Windows 的命令行才能读懂它。
setlocal
set "WHEELS=%~dp0wheels"
set "FAILED="
set "NEEDS_ADMIN="
if exist "%~dp0{unfinished}" goto unfinished
call "%~dp0find_python.bat"
if defined ADMIN echo 账户：%USERNAME%，是管理员：装好以后，这台电脑的每个账户都能用。
if not defined ADMIN echo 账户：%USERNAME%，不是管理员。

if not defined PY if not defined THONNY goto none
if defined PY call :install "%PY%"
if defined THONNY call :install "%THONNY%"
echo.
if defined NEEDS_ADMIN goto needs_admin
if defined FAILED goto failed
echo 装好了：这台电脑可以运行 Pygame Zero 的程序了。
echo 复制好学生的文件夹以后，用学生的账户登录，双击 自检.bat 试一试。
pause
exit /b 0

:install
echo.
echo 找到的 Python：%~1
"%~1" --version
"%~1" -c "import sys; print(sys.executable)"
if defined ADMIN goto install_now
rem 不是管理员时，只装进这个账户自己能写的 Python；大家共用的 Python 要管理员来装。
"%~1" -c "import os, sys, sysconfig; sys.exit(0 if os.access(sysconfig.get_paths()['purelib'], os.W_OK) else 1)"
if errorlevel 1 goto shared_python
echo %USERNAME% 能写进这个 Python 的文件夹：直接装进这个 Python。
:install_now
echo 正在从 %WHEELS% 安装 Pygame Zero（不用上网）……
"%~1" -m pip install --no-index --find-links "%WHEELS%" pgzero
if errorlevel 1 goto install_failed
"%~1" -c "import pgzero, pygame, numpy; print('pgzero', pgzero.__version__, ' pygame', pygame.version.ver, ' numpy', numpy.__version__)"
if errorlevel 1 goto install_failed
echo 已经装进这个 Python：%~1
goto :eof
:install_failed
set "FAILED=1"
echo 没能装进这个 Python：%~1
goto :eof
:shared_python
set "NEEDS_ADMIN=1"
echo 这个 Python 是这台电脑所有账户共用的，%USERNAME% 不是管理员，装不进去：没有装。
goto :eof

:needs_admin
echo 还没有装好：要用管理员的身份运行一次本文件，装好以后每个账户都能用。
echo 办法：右键单击 安装.bat，选“以管理员身份运行”，再输入管理员的密码。
echo 机房有还原卡的话，要在还原卡保护关掉的时候运行。
pause
exit /b 1

:none
echo 没有找到 Python。
echo 请先在这台电脑上安装 Python 3.7 到 3.13（安装时勾选 Add python.exe to PATH，
echo 再选 Install for all users，每个账户才都能用），或者安装 Thonny，然后再运行一次本文件。
echo 用 Thonny 也可以自己装：在 Thonny 里点“工具”→“打开系统 Shell...”，输入
echo     python -m pip install --no-index --find-links "%WHEELS%" pgzero
pause
exit /b 1

:failed
echo 安装没有成功，上面是 pip 说的原因。
echo 常见的原因：这台电脑的 Python 不是 3.7 到 3.13（wheels 里没有它用的文件），
echo 或者 wheels 文件夹没有和本文件一起复制过来。
pause
exit /b 1

:unfinished
echo 这个套件没有做完（做的时候被打断了），不能用来安装。
echo 请在做套件的电脑上再运行一次 python tools/make_kit.py，做完以后再复制过来。
pause
exit /b 1
