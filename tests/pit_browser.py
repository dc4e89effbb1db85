"""Headless Chromium (Debian's) and one page, driven over the DevTools protocol, for the
pit page's browser tests."""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import queue
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

import aiohttp

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--remote-debugging-port=0",
    "--remote-allow-origins=*",
]


class Browser:
    """Headless Chromium and one page, over the DevTools protocol (a WebSocket)."""

    def __init__(self, tmp: Path, url: str) -> None:
        self.proc = subprocess.Popen(
            [
                CHROMIUM,
                *FLAGS,
                f"--user-data-dir={tmp / 'chromium'}",
                "--window-size=1920,1080",
                url,
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self._lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        self.session: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self._ids = itertools.count(1)

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            self._lines.put(raw.decode("utf-8", "replace"))

    def _devtools_port(self, timeout: float = 60) -> int:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self._lines.get(timeout=0.5)
            except queue.Empty:
                if self.proc.poll() is not None:
                    raise RuntimeError("chromium exited") from None
                continue
            m = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
            if m:
                return int(m.group(1))
        raise RuntimeError("chromium did not open its DevTools port")

    async def open(self) -> None:
        port = await asyncio.to_thread(self._devtools_port)
        self.session = aiohttp.ClientSession()
        loop = asyncio.get_running_loop()
        end = loop.time() + 60
        while True:
            async with self.session.get(f"http://127.0.0.1:{port}/json/list") as r:
                pages = [p for p in await r.json() if p.get("type") == "page"]
            if pages or loop.time() > end:
                break
            await asyncio.sleep(0.1)
        self.ws = await self.session.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0)

    async def send(self, method: str, **params) -> dict:
        assert self.ws is not None
        n = next(self._ids)
        await self.ws.send_str(json.dumps({"id": n, "method": method, "params": params}))
        while True:
            msg = json.loads((await asyncio.wait_for(self.ws.receive(), 60)).data)
            if msg.get("id") == n:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg["result"]

    async def js(self, expression: str):
        res = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in res:
            raise RuntimeError(res["exceptionDetails"])
        return res["result"].get("value")

    async def until(self, expression: str, expected, timeout: float = 30.0) -> float:
        """Poll ``expression`` until it equals ``expected``; returns when (monotonic)."""
        end = time.monotonic() + timeout
        value = None
        while time.monotonic() < end:
            try:
                value = await self.js(expression)
            except RuntimeError as exc:  # e.g. the page is still loading
                value = exc
            if value == expected:
                return time.monotonic()
            await asyncio.sleep(0.02)
        raise AssertionError(f"{expression!r} is {value!r}, not {expected!r}")

    async def screenshot(self, path: Path, width: int, height: int, mobile: bool) -> None:
        await self.send(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=mobile,
        )
        await asyncio.sleep(0)  # the next frame is laid out for the new size
        data = await self.send("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(data["data"]))
        shots = os.environ.get("FIELDJUDGE_SHOTS_DIR")
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, Path(shots) / path.name)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.session is not None:
            await self.session.close()
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
