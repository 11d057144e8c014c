@echo off
chcp 936 >nul
rem 自检：用学生的账户运行，看这台电脑能不能上扫雷课。每项检查一行，最后一行是结论。
rem 用法：自检.bat [学生的文件夹]，不写就是桌面上的 {student}。本文件用 GBK 保存、CRLF 换行。
setlocal
set "STUDENT=%~1"
if not defined STUDENT set "STUDENT=%USERPROFILE%\Desktop\{student}"
set "FIX="
set "RUN="
echo 自检：这台电脑能不能上扫雷课（账户：%USERNAME%）
if exist "%~dp0{unfinished}" goto unfinished
call "%~dp0find_python.bat"
if not defined PY if not defined THONNY goto no_python
if defined PY call :pgzero "%PY%" "%PY% 命令找到的 Python"
if defined THONNY call :pgzero "%THONNY%" "Thonny 自带的 Python"
if not defined RUN goto not_checked

rem 游戏的窗口：打开，画几帧，自己关上。
"%RUN%" -B "%~dp0selftest_window.py" "%~dp0{teacher}" >nul 2>nul
if errorlevel 1 goto no_window
echo [通过] 游戏的窗口打开了，又自己关上了
goto checker
:no_window
echo [没通过] 游戏的窗口打不开
if not defined FIX set "FIX=在 %~dp0{teacher} 里运行 %RUN% minesweep.py，看它说了什么"

:checker
rem 检查程序（学生文件夹里的那一份）查教材的完整程序，每一节都要通过。
set "CHECKER=%STUDENT%"
if not exist "%STUDENT%\check.py" set "CHECKER=%~dp0{student}"
set "CHECKED="
pushd "%CHECKER%"
"%RUN%" -B check.py "%~dp0{teacher}\chapter\step10_win.py" >nul 2>nul
if not errorlevel 1 set "CHECKED=1"
popd
if not defined CHECKED goto checker_failed
echo [通过] 检查程序查了教材的程序，每一节都通过
goto sound
:checker_failed
echo [没通过] 检查程序没有让教材的程序通过
if not defined FIX set "FIX=在 %CHECKER% 里运行 %RUN% check.py %~dp0{teacher}\chapter\step10_win.py，看它说了什么"

:sound
rem 没有声卡也能上课：只说一声，不算没通过。
"%RUN%" -c "import pygame; pygame.mixer.init()" >nul 2>nul
if errorlevel 1 echo [注意] 没有找到声卡：游戏和课件不出声，别的都照常，不用修
if not errorlevel 1 echo [通过] 有声卡，游戏能出声

:folder
if not exist "%STUDENT%\" goto no_folder
copy /y nul "%STUDENT%\selftest.tmp" >nul 2>nul
if not exist "%STUDENT%\selftest.tmp" goto folder_locked
del "%STUDENT%\selftest.tmp"
echo [通过] 学生的文件夹可以写：%STUDENT%
goto verdict
:no_folder
echo [没通过] 没有找到学生的文件夹：%STUDENT%
if not defined FIX set "FIX=先复制学生的文件夹：xcopy /e /i /y "%~dp0{student}" "%STUDENT%""
goto verdict
:folder_locked
echo [没通过] 学生的文件夹写不进去：%STUDENT%
if not defined FIX set "FIX=把学生的文件夹复制到学生能写的地方，比如 D:\{student}，再运行 自检.bat D:\{student}"
goto verdict

:not_checked
echo [没检查] 游戏的窗口、检查程序和声卡：要先装好 Pygame Zero
goto folder

:pgzero
"%~1" -c "import pgzero, pygame" >nul 2>nul
if errorlevel 1 goto pgzero_missing
echo [通过] %~2 里有 Pygame Zero
if not defined RUN set "RUN=%~1"
goto :eof
:pgzero_missing
echo [没通过] %~2 里没有 Pygame Zero：%~1
if not defined FIX set "FIX=右键单击 {install_bat}，选“以管理员身份运行”"
goto :eof

:no_python
echo [没通过] 没有找到 Python，也没有找到 Thonny
set "FIX=先安装 Python 3.7 到 3.13 或 Thonny，再右键单击 {install_bat}，选“以管理员身份运行”"
goto verdict

:unfinished
echo [没通过] 这个套件没有做完（做的时候被打断了）
set "FIX=在做套件的电脑上再运行一次 python tools/make_kit.py，做完以后再复制过来"

:verdict
echo.
if defined FIX goto not_ready
echo 这台电脑可以上课
pause >nul
exit /b 0
:not_ready
echo 这台电脑还不能上课：%FIX%
pause >nul
exit /b 1
