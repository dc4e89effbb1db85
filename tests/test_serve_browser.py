"""The pit page in a real browser (Debian's headless Chromium driven over the DevTools
protocol): a game played through the app's own non-UI API shows on the page, the new number
of players in play after an elimination (sent as that game alone, applied without a
reload), the clock counting down on the page with nothing sent, the new standings once the
protocol is signed, a game file cut short marked damaged, and "connection lost" when the
server goes away. Screenshots at 1920x1080 and 390x844 go to the
test's folder (and to ``FIELDJUDGE_SHOTS_DIR`` when set)."""

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
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp
import pytest
from pit_helpers import Play, open_demo

from fieldjudge.serve import PitServer
from fieldjudge.services.pitview import PitView

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")

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


def alive_js(game_id: str) -> str:
    return (
        f'Array.from(document.querySelectorAll(\'#live [data-game="{game_id}"] '
        "[data-role=alive]')).map(n => n.textContent).join(' ')"
    )


def standing_js(team: str) -> str:
    return (
        f"(() => {{ const r = document.querySelector('#standings tr[data-team=\"{team}\"]');"
        " return r ? Array.from(r.cells).map(c => c.textContent).join('|') : null; })()"
    )


HOSTILE = '<img src=x onerror="window.pwned=1">'


async def test_a_game_played_through_the_services_shows_on_the_page(tmp_path: Path) -> None:
    t = open_demo(tmp_path / "demo")
    hostile = t.add_team(HOSTILE)  # listed in the standings: its name must stay text
    server = PitServer(PitView(t.folder), "127.0.0.1", 0, heartbeat_s=1.0)
    url = server.start()
    browser = Browser(tmp_path, url)
    latencies: dict[str, float] = {}
    try:
        await browser.open()
        await browser.until("document.documentElement.lang", "ru")
        await browser.until("document.querySelectorAll('#schedule tbody tr').length", 12)
        await browser.until("document.querySelector('#live .empty').textContent", "Сейчас игр нет")
        bears = t.team_by_name("Медведи")["id"]
        await browser.until(standing_js(bears), "2|Медведи|1|3|+2|1|1-0-0")
        await browser.until(standing_js(hostile["id"]), "6|" + HOSTILE + "|0|0|0|0|0-0-0")
        assert await browser.js("window.pwned === undefined && !document.querySelector('img')")

        p = Play(t, start=datetime.now(UTC) - timedelta(seconds=95))  # the clock shows 5:20
        p.start()
        await browser.until(alive_js(p.game_id), "5 5")
        await browser.js("window.notReloaded = true")
        clock = f"document.querySelector('#live [data-game=\"{p.game_id}\"] .clock').textContent"
        shown_clock = await browser.js(clock)
        assert re.fullmatch(r"5:\d\d", shown_clock), shown_clock
        # the page counts the clock down itself: the server sends nothing for it
        await browser.until(f"{clock} !== {json.dumps(shown_clock)}", True)
        p.eliminate(p.a, 2)
        appended = time.monotonic()
        shown = await browser.until(alive_js(p.game_id), "4 5")
        assert await browser.js("window.notReloaded") is True  # the change came as a delta
        latencies["elimination_to_page_s"] = round(shown - appended, 3)
        last = await browser.js(
            f"document.querySelector('#live [data-game=\"{p.game_id}\"] .events li').textContent"
        )
        assert last == "0:05Выбыл: #23 Дмитрий Козлов (Медведи) — поражение (26)"

        await browser.screenshot(tmp_path / "pit-1920x1080.png", 1920, 1080, mobile=False)
        await browser.screenshot(tmp_path / "pit-390x844.png", 390, 844, mobile=True)
        await browser.send("Emulation.clearDeviceMetricsOverride")

        p.hang_by_a()
        await browser.until(f"!!document.querySelector('#live [data-game=\"{p.game_id}\"]')", False)
        p.submit()
        appended = time.monotonic()
        shown = await browser.until(standing_js(bears), "1|Медведи *|2|6|+1|2|2-0-0")
        latencies["protocol_to_standings_s"] = round(shown - appended, 3)
        assert await browser.js("document.getElementById('provisional-note').hidden") is False
        p.sign(p.a)
        p.sign(p.b)
        await browser.until(standing_js(bears), "1|Медведи|2|6|+1|2|2-0-0")
        tigers = p.b
        await browser.until(standing_js(tigers), "4|Тигры|2|1|+1|0|0-1-1")
        assert await browser.js("document.getElementById('provisional-note').hidden") is True
        row = await browser.js(
            f"document.querySelector('#schedule tr[data-game=\"{p.game_id}\"]').textContent"
        )
        assert row == "10:401Медведи — ТигрыИтог 3 : 0"

        # the game's file cut short below the head the manifest records: damaged (issue 22)
        path = t.game_path(p.game_id)
        path.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:8]))
        await browser.until(
            f"document.querySelector('#schedule tr[data-game=\"{p.game_id}\"]').textContent",
            "10:401Медведи — ТигрыПОВРЕЖДЕНО",
        )
        card = f'#live [data-game="{p.game_id}"]'
        assert await browser.js(f"document.querySelector('{card} .state').textContent") == (
            "ПОВРЕЖДЕНО"
        )
        assert await browser.js(f"document.querySelector('{card} > div.damaged').textContent") == (
            "файл повреждён: обрезан: в манифесте записано событий: 17, в файле: 6"
        )
        assert await browser.js("window.notReloaded") is True

        server.stop()
        text = await browser.until(
            "(() => { const b = document.getElementById('lost');"
            " return !b.hidden && /^связь потеряна — последнее обновление \\d\\d:\\d\\d:\\d\\d$/"
            ".test(b.textContent); })()",
            True,
        )
        assert text
    finally:
        await browser.close()
        server.stop()
        t.close()
        (tmp_path / "latency.json").write_text(json.dumps(latencies))
        print("pit page latencies:", latencies)
    assert (tmp_path / "pit-1920x1080.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "pit-390x844.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


async def test_english_page_and_the_fallback_when_the_stream_is_refused(tmp_path: Path) -> None:
    """``?lang=en``; and a browser without server-sent events polls the JSON instead."""
    t = open_demo(tmp_path / "demo")
    server = PitServer(PitView(t.folder), "127.0.0.1", 0)
    url = server.start()
    browser = Browser(tmp_path, "about:blank")
    try:
        await browser.open()
        await browser.send("Page.enable")
        await browser.send(
            "Page.addScriptToEvaluateOnNewDocument", source="delete window.EventSource;"
        )
        await browser.send("Page.navigate", url=url + "?lang=en")
        await browser.until("document.getElementById('h-live').textContent", "Live games")
        await browser.until("document.querySelector('#live .empty').textContent", "No game in play")
        p = Play(t)
        p.start()
        p.eliminate(p.b, 0)
        await browser.until(alive_js(p.game_id), "5 4")
        await browser.until(
            f"document.querySelector('#live [data-game=\"{p.game_id}\"] .state').textContent",
            "Game on",
        )
    finally:
        await browser.close()
        server.stop()
        t.close()
