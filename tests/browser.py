"""Headless Chromium, driven as a person's browser through its DevTools
protocol, with Python's standard library only: a page is opened, its
script's work is read back, keys are pressed, and the screen is taken."""
import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Chromium as the tests start it: nothing fetched, nothing kept.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


class WebSocket:
    """The client side of one WebSocket (RFC 6455), text messages only."""

    def __init__(self, url):
        where = urllib.parse.urlsplit(url)
        self.sock = socket.create_connection((where.hostname, where.port), timeout=120)
        key = base64.b64encode(os.urandom(16)).decode("ascii")
        self.sock.sendall((
            "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n" % (where.path, where.hostname, where.port,
                                                   key)).encode("ascii"))
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.take_more()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        assert b" 101 " in head.split(b"\r\n")[0], head

    def take_more(self):
        """More bytes from the socket (EOFError at its end)."""
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise EOFError("the browser closed the connection")
        return chunk

    def take(self, count):
        """Exactly count bytes."""
        while len(self.buffer) < count:
            self.buffer += self.take_more()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def send(self, text, opcode=0x1):
        """One message, masked as a client must."""
        data = text.encode("utf-8") if isinstance(text, str) else text
        size = len(data)
        if size < 126:
            head = struct.pack(">BB", 0x80 | opcode, 0x80 | size)
        elif size < 1 << 16:
            head = struct.pack(">BBH", 0x80 | opcode, 0x80 | 126, size)
        else:
            head = struct.pack(">BBQ", 0x80 | opcode, 0x80 | 127, size)
        mask = os.urandom(4)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def receive(self):
        """The next whole text message."""
        message = b""
        while True:
            first, second = self.take(2)
            size = second & 0x7F
            if size == 126:
                size = struct.unpack(">H", self.take(2))[0]
            elif size == 127:
                size = struct.unpack(">Q", self.take(8))[0]
            mask = self.take(4) if second & 0x80 else None
            data = self.take(size)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            opcode = first & 0x0F
            if opcode == 0x8:
                raise EOFError("the browser closed the connection")
            if opcode == 0x9:
                self.send(data, 0xA)            # a ping: pong
                continue
            if opcode == 0xA:
                continue
            message += data
            if first & 0x80:
                return message.decode("utf-8")

    def close(self):
        """Closed."""
        self.sock.close()


class Browser:
    """One headless Chromium with one page, of a size in CSS pixels."""

    def __init__(self, width=1366, height=768):
        self.profile = tempfile.mkdtemp(prefix="minesweep-chromium-")
        self.process = subprocess.Popen(
            [CHROMIUM] + FLAGS + ["--user-data-dir=" + self.profile,
                                  "--remote-debugging-port=0",
                                  "--window-size=%d,%d" % (width, height), "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.calls = 0
        try:
            port = self.port()
            with urllib.request.urlopen("http://127.0.0.1:%d/json/list" % port,
                                        timeout=60) as answer:
                targets = json.loads(answer.read().decode("utf-8"))
            page = next(t for t in targets if t["type"] == "page")
            self.ws = WebSocket(page["webSocketDebuggerUrl"])
            self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                      deviceScaleFactor=1, mobile=False)
        except BaseException:
            self.close()
            raise

    def port(self):
        """The DevTools port Chromium chose, from the file it writes."""
        path = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("chromium ended: %s" % self.process.returncode)
            try:
                with open(path, encoding="ascii") as f:
                    first = f.readline().strip()
                if first:
                    return int(first)
            except (OSError, ValueError):
                pass
            time.sleep(0.05)
        raise RuntimeError("chromium gave no DevTools port")

    def call(self, method, **params):
        """One DevTools command's result (events meanwhile are dropped)."""
        self.calls += 1
        self.ws.send(json.dumps({"id": self.calls, "method": method, "params": params}))
        while True:
            reply = json.loads(self.ws.receive())
            if reply.get("id") == self.calls:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})

    def evaluate(self, expression):
        """The value of a JavaScript expression in the page."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError("%s: %s" % (expression, result["exceptionDetails"]))
        return result["result"].get("value")

    def wait_for(self, expression, seconds=90):
        """Wait until the expression is true in the page; its value."""
        deadline = time.monotonic() + seconds
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError("never true in the page: " + expression)
            time.sleep(0.1)

    def open(self, url):
        """Open the page at url, and wait until it has loaded."""
        self.call("Page.navigate", url=url)
        self.wait_for("document.readyState === 'complete' && location.href === %s"
                      % json.dumps(url))

    def key(self, key):
        """Press and let go of one key (a letter), as a keyboard does."""
        code = "Key" + key.upper()
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=code,
                      text=key if kind == "keyDown" else "",
                      windowsVirtualKeyCode=ord(key.upper()))

    def screenshot(self, path):
        """The page as it is on screen, to a PNG file."""
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        """Chromium ended and its profile gone."""
        if getattr(self, "ws", None) is not None:
            self.ws.close()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
