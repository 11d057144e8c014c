rem 找这台电脑上的 Python：安装.bat 和 自检.bat 都用它（call）。
rem 找到的写进 PY（先找 py 启动器，再找 python）和 THONNY（Thonny 自带的 Python）；
rem 用管理员身份运行时 ADMIN=1。本文件用 GBK 保存、CRLF 换行。
set "PY="
set "THONNY="
set "ADMIN="

rem 只有管理员才能运行 fltmc（Windows 7 起每台电脑都有它）。
fltmc >nul 2>nul
if not errorlevel 1 set "ADMIN=1"

py -c "import sys" >nul 2>nul
if not errorlevel 1 set "PY=py"
if defined PY goto look_for_thonny
python -c "import sys" >nul 2>nul
if not errorlevel 1 set "PY=python"

:look_for_thonny
rem Thonny 默认用它自带的 Python 运行程序：装给自己的在 LOCALAPPDATA 里，装给所有人的在 Program Files 里。
if exist "%LOCALAPPDATA%\Programs\Thonny\python.exe" set "THONNY=%LOCALAPPDATA%\Programs\Thonny\python.exe"
if defined THONNY goto :eof
if exist "C:\Program Files\Thonny\python.exe" set "THONNY=C:\Program Files\Thonny\python.exe"
if defined THONNY goto :eof
if exist "C:\Program Files (x86)\Thonny\python.exe" set "THONNY=C:\Program Files (x86)\Thonny\python.exe"
goto :eof
