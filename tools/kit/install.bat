@echo off
chcp 936 >nul
rem 从本文件夹的 wheels 里安装 Pygame Zero、pygame 和 numpy，不用上网。
rem 本文件用 GBK 保存、CRLF 换行，中文 Windows 的命令行才能读懂它。
setlocal
set "WHEELS=%~dp0wheels"
set "PY="
set "THONNY="
set "FAILED="

rem 先找 py 启动器，再找 python。
py -c "import sys" >nul 2>nul
if not errorlevel 1 set "PY=py"
if defined PY goto look_for_thonny
python -c "import sys" >nul 2>nul
if not errorlevel 1 set "PY=python"

:look_for_thonny
rem Thonny 默认用它自带的 Python 运行程序，所以那里也要装上。
if exist "%LOCALAPPDATA%\Programs\Thonny\python.exe" set "THONNY=%LOCALAPPDATA%\Programs\Thonny\python.exe"
if defined THONNY goto install_all
if exist "C:\Program Files\Thonny\python.exe" set "THONNY=C:\Program Files\Thonny\python.exe"
if defined THONNY goto install_all
if exist "C:\Program Files (x86)\Thonny\python.exe" set "THONNY=C:\Program Files (x86)\Thonny\python.exe"

:install_all
if not defined PY if not defined THONNY goto none
if defined PY call :install "%PY%"
if defined THONNY call :install "%THONNY%"
echo.
if defined FAILED goto failed
echo 装好了：这台电脑可以运行 Pygame Zero 的程序了。
echo 复制好学生的文件夹以后：用 Thonny 打开里面的 我的扫雷.py 写程序；检查时用 Thonny 打开 check.py，按“运行”。
pause
exit /b 0

:install
echo.
echo 找到的 Python：%~1
"%~1" --version
echo 正在从 %WHEELS% 安装 Pygame Zero（不用上网）……
"%~1" -m pip install --no-index --find-links "%WHEELS%" pgzero
if errorlevel 1 goto install_failed
"%~1" -c "import pgzero, pygame, numpy; print('pgzero', pgzero.__version__, ' pygame', pygame.version.ver, ' numpy', numpy.__version__)"
if errorlevel 1 goto install_failed
goto :eof
:install_failed
set "FAILED=1"
echo 没能装进这个 Python：%~1
goto :eof

:none
echo 没有找到 Python。
echo 请先在这台电脑上安装 Python 3.8 到 3.13（安装时勾选 Add python.exe to PATH），
echo 或者安装 Thonny，然后再双击运行一次本文件。
echo 用 Thonny 也可以自己装：在 Thonny 里点“工具”→“打开系统 Shell...”，输入
echo     python -m pip install --no-index --find-links "%WHEELS%" pgzero
pause
exit /b 1

:failed
echo 安装没有成功，上面是 pip 说的原因。
echo 常见的原因：这台电脑的 Python 不是 3.8 到 3.13（wheels 里没有它用的文件），
echo 或者 wheels 文件夹没有和本文件一起复制过来。
pause
exit /b 1
