"""The pit display's JSON (exact values on the demo tournament) and its server under hostile
requests: nothing changes the tournament folder, nothing crashes the server (issue 14); the
stream sends only what changed, a torn or truncated game file is shown as damaged, and no
client can lock the others out (issue 22)."""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

import aiohttp
import orjson
import pytest
from pit_helpers import Play, open_demo, team_id
from test_results_export import _disqualify_before_a_later_game

from fieldjudge import i18n
from fieldjudge.serve.feed import CLOCK_SLACK_MS, Feed, same_clock
from fieldjudge.serve.process import PitNotStarted, PitProcess
from fieldjudge.serve.qr import qr_text
from fieldjudge.serve.server import PitServer, PitServerError
from fieldjudge.services.paintball import results
from fieldjudge.services.paintball.disqualified import disqualified_before
from fieldjudge.services.pitview import PitView

NOW = datetime(2026, 6, 1, 7, 41, tzinfo=UTC)
START = datetime(2026, 6, 1, 7, 40, tzinfo=UTC)


@pytest.fixture
def demo(tmp_path: Path):
    t = open_demo(tmp_path / "demo")
    yield t
    t.close()


def fixed_view(t) -> PitView:
    return PitView(t.folder, now=lambda: NOW)


def by_name(t, mapping: dict) -> dict:
    names = t.team_names()
    return {names[k]: v for k, v in mapping.items()}


def folder_digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".cache" not in p.parts
    }


def connections(srv: PitServer, address: str | None = None) -> int:
    """Sockets the server counts now (from ``address``, else from anyone)."""
    return srv._connections if address is None else srv._per_address.get(address, 0)


def stream_clients(srv: PitServer) -> int:
    """Stream (``/events``) clients connected now."""
    return len(srv._clients)


async def wait_for(cond, timeout: float = 20.0, step: float = 0.02):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        value = cond()
        if value:
            return value
        if loop.time() > end:
            raise AssertionError("condition not met before the deadline")
        await asyncio.sleep(step)


# --- the JSON -----------------------------------------------------------------------------


def test_schedule_and_states_of_the_demo(demo) -> None:
    live = fixed_view(demo).live()
    assert live["as_of"] == "2026-06-01T07:41:00.000Z"
    assert live["tournament"] == {
        "name": "Демо-кубок по пейнтболу",
        "venue": "Полигон «Северный»",
        "date": "2026-06-01",
    }
    rows = [
        (
            g["field"],
            g["start"],
            tuple(x["name"] for x in g["teams"]),
            g["state"],
            g["protocol"],
            g["result"] and tuple(g["result"]["points"][x["id"]] for x in g["teams"]),
            g["result"] and g["result"]["outcome"],
        )
        for g in live["games"]
    ]
    assert rows == [
        ("1", "2026-06-01T10:00", ("Медведи", "Драконы"), "final", "locked", (3, 0), "flag_hang"),
        ("2", "2026-06-01T10:00", ("Волки", "Тигры"), "final", "locked", (1, 1), "draw"),
        ("1", "2026-06-01T10:20", ("Соколы", "Ястребы"), "final", "locked", (0, 2), "flag_held"),
        ("2", "2026-06-01T10:20", ("Рыси", "Барсы"), "final", "locked", (3, 0), "no_show"),
        ("1", "2026-06-01T10:40", ("Медведи", "Тигры"), "scheduled", "open", None, None),
        ("2", "2026-06-01T10:40", ("Драконы", "Ястребы"), "scheduled", "open", None, None),
        ("1", "2026-06-01T11:00", ("Волки", "Барсы"), "scheduled", "open", None, None),
        ("2", "2026-06-01T11:00", ("Соколы", "Рыси"), "scheduled", "open", None, None),
        ("1", "2026-06-01T11:20", ("Медведи", "Ястребы"), "scheduled", "open", None, None),
        ("2", "2026-06-01T11:20", ("Тигры", "Барсы"), "scheduled", "open", None, None),
        ("1", "2026-06-01T11:40", ("Драконы", "Рыси"), "scheduled", "open", None, None),
        ("2", "2026-06-01T11:40", ("Волки", "Соколы"), "scheduled", "open", None, None),
    ]
    assert [[x["alive"] for x in g["teams"]] for g in live["games"][:4]] == [
        [4, 2],
        [3, 3],
        [2, 4],
        [None, None],  # 32.01: a no-show is never played
    ]
    assert live["games"][3]["no_show"] == [team_id(demo, "Барсы")]
    assert live["live"] == []


def test_standings_of_the_demo(demo) -> None:
    st = fixed_view(demo).standings()
    (div,) = st["divisions"]
    assert div["division"] == "Д3"
    rows = [
        (r["rank"], r["name"], r["games"], r["points"], r["diff"], r["flag_hangs"])
        + (r["wins"], r["draws"], r["losses"], r["no_shows"], r["provisional_games"])
        for r in div["rows"]
    ]
    assert sorted(rows) == [  # teams that share a rank: by name here (the engine: by id)
        (1, "Рыси", 1, 3, 5, 0, 1, 0, 0, 0, 0),
        (2, "Медведи", 1, 3, 2, 1, 1, 0, 0, 0, 0),
        (3, "Ястребы", 1, 2, 2, 0, 1, 0, 0, 0, 0),
        (4, "Волки", 1, 1, 0, 0, 0, 1, 0, 0, 0),
        (4, "Тигры", 1, 1, 0, 0, 0, 1, 0, 0, 0),
        (6, "Драконы", 1, 0, -2, 0, 0, 0, 1, 0, 0),
        (6, "Соколы", 1, 0, -2, 0, 0, 0, 1, 0, 0),
        (8, "Барсы", 1, 0, -5, 0, 0, 0, 1, 1, 0),
    ]
    assert {r["name"]: r["tie_break"] for r in div["rows"]}["Тигры"] == {
        "ru": "личные встречи: очки 1, разница +0",
        "en": "head-to-head 1 pts, +0 diff",
    }
    assert [(g["protocol"], g["provisional"]) for g in div["games"]] == [("locked", False)] * 4


def test_a_running_game_live(demo) -> None:
    p = Play(demo, start=START)
    p.start()
    p.eliminate(p.a, 2)
    live = fixed_view(demo).live()
    g = live["games"][4]
    assert live["live"] == [g["id"]] == [p.game_id]
    assert g["state"] == "running" and g["time_called"] is False
    assert [(x["name"], x["players"], x["alive"]) for x in g["teams"]] == [
        ("Медведи", 5, 4),
        ("Тигры", 5, 5),
    ]
    assert g["clock"] == {
        "length_ms": 420_000,
        "elapsed_ms": 60_000,
        "remaining_ms": 360_000,
        "running": True,
    }
    assert [(f["state"], f["carrier"], f["spare"]) for f in g["flags"]] == [
        ("at_base", None, False),
        ("at_base", None, False),
    ]
    assert g["result"] is None
    assert g["last_events"] == [
        {
            "seq": 2,
            "type": "elimination",
            "clock_ms": 5_000,
            "wall_time": "2026-06-01T07:40:05+00:00",
            "team": None,
            "players": [{"team": p.a, "number": 23, "name": "Дмитрий Козлов"}],
            "reason": "hit",
            "reason_text": {"ru": "поражение", "en": "hit"},
            "section": "26",
            "outcome": None,
            "text": {
                "ru": "Выбыл: #23 Дмитрий Козлов (Медведи) — поражение (26)",
                "en": "Out: #23 Дмитрий Козлов (Медведи) — hit (26)",
            },
        },
        {
            "seq": 1,
            "type": "clock_start",
            "clock_ms": 0,
            "wall_time": "2026-06-01T07:40:00+00:00",
            "team": None,
            "players": [],
            "reason": None,
            "reason_text": None,
            "section": None,
            "outcome": None,
            "text": {"ru": "Время пошло", "en": "Clock started"},
        },
    ]


def test_time_flag_hang_check_final_and_the_protocol(demo) -> None:
    p = Play(demo, start=START)
    p.start()
    p.add("time_stop")  # at 0:05
    g = fixed_view(demo).live()["games"][4]
    assert (g["state"], g["time_called"], g["clock"]["running"]) == ("time_stopped", True, False)
    assert g["clock"]["remaining_ms"] == 415_000  # frozen, whatever the wall time
    p.add("clock_resume")  # the clock runs again from 0:05, at 0:10 of wall time
    p.add("flag_capture", {"team": p.a, "number": 11})
    g = fixed_view(demo).live()["games"][4]
    assert g["state"] == "running" and g["time_called"] is False
    assert g["flags"][1]["state"] == "carried"
    assert g["flags"][1]["carrier"] == {"team": p.a, "number": 11, "name": "Алексей Смирнов"}
    p.add("flag_hang", {"team": p.a, "number": 11})
    g = fixed_view(demo).live()["games"][4]
    assert (g["state"], g["time_called"], g["flags"][1]["state"]) == (
        "hang_check",
        True,
        "hang_check",
    )
    p.add("hang_verdict", {"paint": "clean", "fps": 280.0, "forbidden_mode": False})
    g = fixed_view(demo).live()["games"][4]
    assert (g["state"], g["flags"][1]["state"]) == ("ended", "hung")  # 18.02 inspection next
    for pl in p.s.state.to_inspect():
        p.add("inspection", {"team": pl.team, "number": pl.number, "result": "clean"})
    view = fixed_view(demo)
    g = view.live()["games"][4]
    assert (g["state"], g["protocol"], g["provisional"]) == ("final", "open", False)
    assert by_name(demo, g["result"]["points"]) == {"Медведи": 3, "Тигры": 0}
    assert g["result"]["counted"] is False
    assert view.live()["live"] == []

    p.submit()
    st = view.standings()["divisions"][0]
    row = {r["name"]: r for r in st["rows"]}
    assert (
        row["Медведи"]["points"],
        row["Медведи"]["games"],
        row["Медведи"]["provisional_games"],
    ) == (6, 2, 1)
    assert (row["Тигры"]["points"], row["Тигры"]["games"], row["Тигры"]["provisional_games"]) == (
        1,
        2,
        1,
    )
    assert [(x["protocol"], x["provisional"]) for x in st["games"]][-1] == ("submitted", True)
    p.sign(p.a)
    p.sign(p.b)
    st = view.standings()["divisions"][0]
    assert st["rows"][0]["name"] == "Медведи" and st["rows"][0]["points"] == 6
    assert [r["provisional_games"] for r in st["rows"]] == [0] * 8
    assert view.live()["games"][4]["protocol"] == "locked"


def test_a_damaged_game_file_keeps_its_last_view(demo) -> None:
    view = fixed_view(demo)
    gid = demo.games()[0]["id"]
    assert view.live()["games"][0]["state"] == "final"
    demo.game_path(gid).write_bytes(b"{not json")
    g = view.live()["games"][0]
    assert g["state"] == "final" and g["result"]["outcome"] == "flag_hang"
    assert g["damaged"].startswith("not valid JSON")


def test_version_changes_with_an_event(demo) -> None:
    view = fixed_view(demo)
    before = view.version()
    assert view.version() == before
    Play(demo).start()
    assert view.version() != before


# --- the server ---------------------------------------------------------------------------


@pytest.fixture
def server(demo):
    srv = PitServer(fixed_view(demo), "127.0.0.1", 0, poll_s=0.02, idle_timeout_s=60)
    srv.start()
    yield srv
    srv.stop()


async def get(url: str) -> tuple[int, bytes, dict]:
    async with aiohttp.ClientSession() as s, s.get(url) as r:
        return r.status, await r.read(), dict(r.headers)


async def test_the_api_serves_the_source_documents(demo, server) -> None:
    view = fixed_view(demo)
    status, body, headers = await get(server.url + "api/live")
    assert status == 200 and headers["Content-Type"] == "application/json; charset=utf-8"
    assert orjson.loads(body) == view.live()
    status, body, _h = await get(server.url + "api/standings")
    assert status == 200 and orjson.loads(body) == view.standings()
    status, body, headers = await get(server.url + "?lang=en")
    assert status == 200 and b'"live": "Live games"' in body and b'<html lang="en">' in body
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    status, body, _h = await get(server.url)
    assert b'"lost": "\xd1\x81\xd0\xb2\xd1\x8f\xd0\xb7\xd1\x8c' in body  # "связь ...": ru default
    assert b'<html lang="ru">' in body


async def test_events_stream_pushes_a_change(demo, server) -> None:
    """The whole live document first, then each change as the changed game alone."""
    async with aiohttp.ClientSession() as s, s.get(server.url + "events") as r:
        assert r.headers["Content-Type"] == "text/event-stream; charset=utf-8"
        first = await _sse(r)
        assert first[0] == "live" and orjson.loads(first[1]) == fixed_view(demo).live()
        assert (await _sse(r))[0] == "standings"
        p = Play(demo, start=START)
        p.start()
        p.eliminate(p.b, 3)
        while True:
            event, data = await asyncio.wait_for(_sse(r), 20)
            assert event in ("game", "ping"), event  # never the whole document again
            if event == "game":
                msg = orjson.loads(data)
                assert set(msg) == {"as_of", "live", "game"} and msg["live"] == [p.game_id]
                if msg["game"]["teams"][1]["alive"] == 4:
                    assert msg["game"] == fixed_view(demo).live()["games"][4]
                    break


async def test_a_running_clock_alone_sends_nothing(demo) -> None:
    """The page counts a running clock down itself: while only the clock moves, the server
    re-reads (``/api/live`` stays current) but streams nothing; the next event is one game."""
    p = Play(demo, start=datetime.now(UTC))
    p.start()
    srv = PitServer(PitView(demo.folder), "127.0.0.1", 0, poll_s=0.02, tick_s=0.05)
    srv.start()
    try:
        async with aiohttp.ClientSession() as s, s.get(srv.url + "events") as r:
            assert (await _sse(r))[0] == "live"
            assert (await _sse(r))[0] == "standings"
            seen = set()
            async with aiohttp.ClientSession() as poll:
                while len(seen) < 4:  # the server re-read the folder four times
                    async with poll.get(srv.url + "api/live") as api:
                        doc = orjson.loads(await api.read())
                    assert doc["games"][4]["clock"]["running"] is True
                    seen.add(doc["as_of"])
                    await asyncio.sleep(0.02)
            p.eliminate(p.a, 0)
            event, data = await asyncio.wait_for(_sse(r), 20)  # no tick sent before it
            assert event == "game"
            assert orjson.loads(data)["game"]["last_events"][0]["type"] == "elimination"
    finally:
        srv.stop()


def _game(gid: str, alive: int, elapsed: int | None, running: bool = True) -> dict:
    clock = None
    if elapsed is not None:
        clock = {
            "length_ms": 420_000,
            "elapsed_ms": elapsed,
            "remaining_ms": 420_000 - elapsed,
            "running": running,
        }
    return {"id": gid, "state": "running", "teams": [{"id": "a", "alive": alive}], "clock": clock}


def _live(as_of: str, *games: dict, name: str = "Кубок") -> dict:
    return {
        "as_of": as_of,
        "tournament": {"name": name},
        "damaged": "",
        "live": [g["id"] for g in games if g["clock"]],
        "games": list(games),
    }


def test_the_feed_sends_a_changed_game_alone_and_no_clock_ticks() -> None:
    feed = Feed()
    t0, t1, t2 = "2026-06-01T07:41:00.000Z", "2026-06-01T07:41:01.000Z", "2026-06-01T07:41:02.000Z"
    assert feed.changes(_live(t0, _game("g1", 5, 1_000), _game("g2", 5, None))) == (True, [])
    # a second later: the running clock counted on by a second, nothing else
    assert feed.changes(_live(t1, _game("g1", 5, 2_000), _game("g2", 5, None))) == (False, [])
    full, msgs = feed.changes(_live(t2, _game("g1", 4, 3_000), _game("g2", 5, None)))
    assert full is False and [orjson.loads(m) for m in msgs] == [
        {"as_of": t2, "live": ["g1"], "game": _game("g1", 4, 3_000)}
    ]
    # the tournament's name, or the schedule's games, changed: the whole document
    assert feed.changes(_live(t2, _game("g1", 4, 3_000), _game("g2", 5, None), name="X"))[0]
    assert feed.changes(_live(t2, _game("g1", 4, 3_000)))[0]


def test_a_clock_is_unchanged_only_where_the_page_counts_it() -> None:
    running = _game("g", 5, 10_000)["clock"]
    later = _game("g", 5, 11_000)["clock"]
    assert same_clock(running, later, 1_000)
    assert same_clock(running, later, 1_000 + CLOCK_SLACK_MS)
    assert not same_clock(running, later, 1_000 + CLOCK_SLACK_MS + 1)
    assert not same_clock(running, _game("g", 5, 11_000, running=False)["clock"], 1_000)
    assert not same_clock(None, running, 0) and same_clock(None, None, 0)
    # the game's time is up: the clock stays at its length while the wall time goes on
    ended = _game("g", 5, 419_900)["clock"]
    assert same_clock(ended, _game("g", 5, 420_000)["clock"], 5_000)
    stopped = _game("g", 5, 10_000, running=False)["clock"]
    assert same_clock(stopped, dict(stopped), 60_000)


async def _sse(resp) -> tuple[str, str]:
    event, data = "", ""
    while True:
        raw_line = await resp.content.readline()
        if not raw_line:
            raise ConnectionError(f"the stream ended (HTTP {resp.status})")
        line = raw_line.decode().rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: "):
            data = line[6:]
        elif line == "" and event:
            return event, data


async def raw(server: PitServer, payload: bytes, timeout: float = 20) -> bytes:
    port = int(server.url.rsplit(":", 1)[1].strip("/"))
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(payload)
        await writer.drain()
        return await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.close()


HOSTILE_PATHS = [
    "/../tournament.json",
    "/%2e%2e/tournament.json",
    "/%2E%2E%2Ftournament.json",
    "/..%2f..%2fetc/passwd",
    "/games/",
    "/static/pit.js",
    "/pit.js/../tournament.json",
    "//etc/passwd",
    "/api/",
    "/api/live/../../tournament.json",
    "/.cache/index.json",
    "/tournament.json",
]


async def test_hostile_requests_change_nothing_and_leak_nothing(demo, server) -> None:
    before = folder_digest(demo.folder)
    for path in HOSTILE_PATHS:
        reply = await raw(
            server, f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()
        )
        head, _, body = reply.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 404"), (path, head)
        assert body == b"404 Not Found\n", path
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"):
        for path in ("/", "/api/live", "/api/standings", "/events", "/pit.js"):
            body = b'{"points": 1000}'
            req = (
                f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
            ).encode() + body
            head, _, body = (await raw(server, req)).partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 405"), (method, path, head)
            assert b"\r\nAllow: GET,HEAD\r\n" in head and body == b"405 Method Not Allowed\n"
    head = await raw(server, b"HEAD /api/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200") and head.endswith(b"\r\n\r\n")
    garbage = await raw(server, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(200))
    assert garbage.startswith(b"HTTP/1.0 400 Bad Request") and b"Traceback" not in garbage
    assert folder_digest(demo.folder) == before
    status, body, _h = await get(server.url + "api/live")
    assert status == 200 and orjson.loads(body)["games"][0]["state"] == "final"


async def test_huge_and_many_headers_are_refused(server) -> None:
    big = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n"
    reply = await raw(server, big)
    assert reply.startswith(b"HTTP/1.0 400 Bad Request") and b"Traceback" not in reply
    many = (
        b"GET / HTTP/1.1\r\nHost: x\r\n"
        + b"".join(b"X-%d: 1\r\n" % i for i in range(200))
        + b"\r\n"
    )
    reply = await raw(server, many)
    assert reply.startswith(b"HTTP/1.0 400 Bad Request") and b"Traceback" not in reply
    long_line = b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    reply = await raw(server, long_line)
    assert reply.startswith(b"HTTP/1.0 400 Bad Request") and b"Traceback" not in reply
    status, _b, _h = await get(server.url + "api/standings")
    assert status == 200


async def test_a_thousand_connections_are_capped(demo) -> None:
    srv = PitServer(fixed_view(demo), "127.0.0.1", 0, max_connections=200, idle_timeout_s=60)
    srv.start()
    port = int(srv.url.rsplit(":", 1)[1].strip("/"))
    conns = []
    try:
        for i in range(1000):  # bounded, loopback only: 20 from each of 50 addresses
            local = (f"127.0.1.{i // 20 + 1}", 0)
            conns.append(await asyncio.open_connection("127.0.0.1", port, local_addr=local))
        # Whatever order the server accepts them in: 200 are served, 800 get a 503 and EOF.
        reads = [asyncio.create_task(r.read()) for r, _w in conns]
        await wait_for(lambda: sum(x.done() for x in reads) >= 800)
        done = [x.result() for x in reads if x.done()]
        assert len(done) == 800 and connections(srv) == 200
        assert {x.split(b"\r\n")[0] for x in done} == {b"HTTP/1.1 503 Service Unavailable"}
        assert {x.split(b"\r\n\r\n")[1] for x in done} == {b"busy: too many connections\n"}
        for x in reads:
            x.cancel()
    finally:
        for _r, w in conns:
            w.close()
    await wait_for(lambda: connections(srv) == 0)
    try:
        status, body, _h = await get(srv.url + "api/live")
        assert status == 200 and len(orjson.loads(body)["games"]) == 12
    finally:
        srv.stop()


class _Flood:
    """A source whose state changes at every poll, with a 256 KiB document."""

    def __init__(self) -> None:
        self.n = 0

    def version(self) -> int:
        self.n += 1
        return self.n

    def live(self) -> dict:
        return {"n": self.n, "pad": "x" * 262_144, "games": []}

    def standings(self) -> dict:
        return {"divisions": []}


async def test_a_client_that_does_not_read_is_dropped() -> None:
    srv = PitServer(_Flood(), "127.0.0.1", 0, poll_s=0.01, queue_size=4, write_timeout_s=1)
    srv.start()
    port = int(srv.url.rsplit(":", 1)[1].strip("/"))
    sock = socket.create_connection(("127.0.0.1", port))
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")  # and never reads
        await wait_for(lambda: stream_clients(srv) == 1)
        await wait_for(lambda: stream_clients(srv) == 0)
        # aborted, not closed: a close would wait for a flush this client never reads,
        # holding its slot and its buffers while the socket stays open (issue 22)
        await wait_for(lambda: connections(srv) == 0)
        status, body, _h = await get(srv.url + "api/standings")
        assert status == 200 and body == b'{"divisions":[]}'
    finally:
        sock.close()
        srv.stop()


def test_start_stop_and_a_taken_port(demo) -> None:
    srv = PitServer(fixed_view(demo), "127.0.0.1", 0)
    assert srv.running is False
    url = srv.start()
    assert srv.running is True and url.startswith("http://127.0.0.1:") and srv.start() == url
    port = int(url.rsplit(":", 1)[1].strip("/"))
    other = PitServer(fixed_view(demo), "127.0.0.1", port)
    with pytest.raises(PitServerError, match=f"cannot listen on 127.0.0.1:{port}: "):
        other.start()
    assert other.running is False
    srv.stop()
    assert srv.running is False
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    again = PitServer(fixed_view(demo), "127.0.0.1", port)  # the port is free again
    assert again.start() == url
    again.stop()
    srv.stop()  # stopping twice is harmless


def _port_refuses(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    except ConnectionRefusedError:
        return True
    return False


def _poll(check, what: str, deadline_s: float = 20.0) -> None:
    end = time.monotonic() + deadline_s
    while not check():
        assert time.monotonic() < end, f"no {what} in {deadline_s} s"
        time.sleep(0.05)


def test_14_the_apps_pit_display_runs_in_its_own_process_and_stops_with_it(demo) -> None:
    """Issue 24: the app's pit display (``w``) is ``fieldjudge serve`` in a child process
    (a pit client never stalls the judge's screen); it says where it listens and the QR
    code to show; stopped, it no longer answers; an app that dies (its pipe closes) leaves
    no server behind."""
    pit = PitProcess.launch(demo.folder, "127.0.0.1", 0)
    pit.wait_ready()
    assert pit.running and pit.child.pid != os.getpid()
    assert pit.url.startswith("http://127.0.0.1:") and pit.shown == pit.url
    assert pit.qr == qr_text(pit.url) and pit.moved == ""
    with urllib.request.urlopen(pit.url + "api/live", timeout=5) as r:  # noqa: S310 - loopback
        assert orjson.loads(r.read())["tournament"]["name"] == demo.name
    port = int(pit.url.rstrip("/").rsplit(":", 1)[1])
    pit.stop()
    assert not pit.running and _port_refuses(port)
    pit.stop()  # stopping twice is harmless

    orphan = PitProcess.launch(demo.folder, "127.0.0.1", 0)
    orphan.wait_ready()
    port = int(orphan.url.rstrip("/").rsplit(":", 1)[1])
    assert orphan.child.stdin is not None
    orphan.child.stdin.close()  # what the app's death does to the pipe
    _poll(lambda: not orphan.running, "end of the orphaned pit display")
    assert _port_refuses(port)
    orphan.stop()


def test_14_a_pit_display_that_cannot_listen_says_why_in_russian(demo) -> None:
    """Issue 24: a pit display whose process cannot listen gives the judge the reason in
    the UI language (never a traceback), and leaves no process behind."""
    i18n.set_language("ru")
    try:
        with pytest.raises(PitNotStarted) as raised:  # an address of no interface here
            PitProcess.launch(demo.folder, "192.0.2.1", 8765).wait_ready()
    finally:
        i18n.set_language("en")
    assert str(raised.value) == "адрес 192.0.2.1:8765 занять нельзя"


def test_a_pit_display_that_does_not_listen_in_time_is_stopped_and_said(demo) -> None:
    """Issue 24: a pit display that is not listening by the deadline is stopped (no
    process left behind) and the judge is told, never left waiting."""
    pit = PitProcess.launch(demo.folder, "127.0.0.1", 0)
    with pytest.raises(PitNotStarted, match="the server did not start in time"):
        pit.wait_ready(timeout_s=0.0)
    assert pit.child.poll() is not None and not pit.running


def test_20_05_the_pit_carries_a_disqualification_along_the_schedule(tmp_path, monkeypatch) -> None:
    """20.05: the pit reads each game once in schedule order, carrying the players
    disqualified in earlier games, instead of every game asking for every earlier one
    (quadratic: most of the pit's start at 120 games); each game's setup is the one the
    game screen builds (``disqualified_before``)."""
    t, first, later, team, number = _disqualify_before_a_later_game(tmp_path / "cup")
    try:
        view = PitView(t.folder)
        with monkeypatch.context() as m:  # no game asks for every earlier one
            m.setattr(results, "disqualified_before", lambda *_: pytest.fail("asked"))
            view.live()
        games = view._games  # noqa: SLF001 - the views the page is made of
        assert (team, number) in games[later["id"]].view.setup.disqualified
        assert (team, number) not in games[first["id"]].view.setup.disqualified
        for g in t.games():  # a setup keeps the players of its own two teams
            of_its_teams = {
                p for p in disqualified_before(t, g["id"]) if p[0] in (g["team_a"], g["team_b"])
            }
            assert games[g["id"]].view.setup.disqualified == of_its_teams
    finally:
        t.close()


def test_the_app_loads_no_web_server() -> None:
    """Issue 24: the app starts without aiohttp or the QR library (the pit's process has
    them): a fresh interpreter importing the app loads neither."""
    probe = "import sys, fieldjudge.app; print(sorted(m for m in sys.modules if m in WEB))"
    probe = probe.replace("WEB", repr({"aiohttp", "segno", "fieldjudge.serve.server"}))
    out = subprocess.run(  # noqa: S603 - this Python, a fixed probe
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]"


def test_the_serve_command_prints_the_url_and_a_qr_code_and_stops_on_ctrl_c(tmp_path) -> None:
    t = open_demo(tmp_path / "data" / "demo", lock=False)
    t.close()
    env = {**os.environ, "FIELDJUDGE_LANG": "ru"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "fieldjudge", "--data-dir", str(tmp_path / "data"), "--lang", "ru"]
        + ["serve", "--port", "0", "--max-per-address", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline().decode() for _ in range(3)]
        assert lines[0].startswith("Показывается Демо-кубок по пейнтболу (")
        url = lines[1].removeprefix("Табло для команд: ").strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url), lines
        assert lines[2].startswith("Открыть можно только на этом ноутбуке.")
        # the command became the pit program once its options were read (exec): the same
        # process serves, its Ctrl+C and exit code are the command's; the fieldjudge
        # command, which opens the app, never loads the web server itself
        program = Path(f"/proc/{proc.pid}/cmdline").read_bytes().split(b"\0")
        assert b"fieldjudge.commands.pit" in program, program
        qr = proc.stdout.readline().decode()
        assert qr == qr_text(url).splitlines(keepends=True)[0]
        assert set(qr.strip()) <= {"█", "▀", "▄", " "} and "█" in qr
        with urllib.request.urlopen(url + "api/standings", timeout=20) as r:
            assert orjson.loads(r.read())["divisions"][0]["division"] == "Д3"
        host, port = url.removeprefix("http://").strip("/").split(":")
        held = [socket.create_connection((host, int(port)), timeout=20) for _ in range(3)]
        try:  # a fourth connection from this address is refused
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(url + "api/live", timeout=20)
            assert refused.value.code == 429
        finally:
            for sock in held:
                sock.close()
    finally:
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and b"Traceback" not in err


def test_reading_while_the_judge_appends_never_sees_a_broken_file(demo) -> None:
    """The judge appends 120 events on the app's side; the pit reads the same folder all
    along: never a damaged file, never a step back, and at the end the last event."""
    import threading

    p = Play(demo, start=START)
    p.start()
    view = PitView(demo.folder, now=lambda: NOW)
    done = threading.Event()
    failure: list[BaseException] = []

    def judge() -> None:
        try:
            for i in range(60):
                n = p.number(p.b, i % 5)
                p.add("paint_check_start", {"team": p.b, "number": n})
                p.add("paint_check_end", {"team": p.b, "number": n, "outcome": "in_play"})
        except BaseException as exc:  # noqa: BLE001 - reported below
            failure.append(exc)
        finally:
            done.set()

    thread = threading.Thread(target=judge)
    thread.start()
    seqs = []
    while not done.is_set():
        g = view.live()["games"][4]
        assert g["damaged"] == "" and g["state"] == "running"
        seqs.append(g["last_events"][0]["seq"])
    thread.join()
    assert failure == []
    assert seqs == sorted(seqs) and len(seqs) > 1
    assert view.live()["games"][4]["last_events"][0]["seq"] == 121


# --- issue 22: per-address cap, hostile clients, damaged game files ------------------------


def port_of(srv: PitServer) -> int:
    return int(srv.url.rsplit(":", 1)[1].strip("/"))


async def get_from(url: str, address: str) -> int:
    """The status of one GET on a new connection from the loopback ``address``."""
    connector = aiohttp.TCPConnector(local_addr=(address, 0), force_close=True)
    timeout = aiohttp.ClientTimeout(total=5)
    async with (
        aiohttp.ClientSession(connector=connector, timeout=timeout) as s,
        s.get(url) as r,
    ):
        await r.read()
        return r.status


async def test_one_address_gets_at_most_its_share_of_connections(demo) -> None:
    """The 21st connection from one address is refused (429); another address is served."""
    srv = PitServer(fixed_view(demo), "127.0.0.1", 0, idle_timeout_s=60)
    srv.start()
    port = port_of(srv)
    conns = []
    try:
        for _ in range(20):
            conns.append(
                await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.2", 0))
            )
        await wait_for(lambda: connections(srv, "127.0.0.2") == 20)
        r, w = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.2", 0))
        reply = await asyncio.wait_for(r.read(), 20)
        w.close()
        head, _, body = reply.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 429 Too Many Requests\r\n")
        assert body == b"busy: too many connections from your address\n"
        assert await get_from(srv.url + "api/live", "127.0.0.3") == 200
        assert connections(srv, "127.0.0.2") == 20
        _r, w0 = conns.pop()
        w0.close()
        await wait_for(lambda: connections(srv, "127.0.0.2") == 19)
        assert await get_from(srv.url + "api/live", "127.0.0.2") == 200
    finally:
        for _r, w in conns:
            w.close()
        srv.stop()


async def test_hostile_clients_cannot_lock_a_good_client_out(demo) -> None:
    """Issue 22: 200 stream clients that never read (one device) and a client reopening
    200 sockets over and over (another device); a good client's requests still succeed
    (at least 99 %) and its stream still gets the judge's events. Loopback only."""
    srv = PitServer(PitView(demo.folder), "127.0.0.1", 0, poll_s=0.05, idle_timeout_s=10)
    srv.start()
    port = port_of(srv)
    p = Play(demo, start=datetime.now(UTC))
    p.start()
    silent: list[socket.socket] = []
    stop = asyncio.Event()
    cycles = 0

    async def reopener() -> None:  # 200 sockets, a half-sent request on each, all closed
        nonlocal cycles
        while not stop.is_set() and cycles < 200:  # bounded
            conns = []
            for _ in range(200):
                try:
                    conns.append(
                        await asyncio.open_connection(
                            "127.0.0.1", port, local_addr=("127.0.0.3", 0)
                        )
                    )
                except OSError:
                    break
            for _r, w in conns:
                w.write(b"GET /api/live HTTP/1.1\r\nHost: x\r\n")
            await asyncio.sleep(0)
            for _r, w in conns:
                w.close()
            cycles += 1

    hostile = None
    try:
        for _ in range(200):
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.bind(("127.0.0.2", 0))
            sock.connect(("127.0.0.1", port))
            sock.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")  # never reads
            silent.append(sock)
        await wait_for(lambda: stream_clients(srv) >= 20)  # (with the cap, the rest are refused)
        hostile = asyncio.create_task(reopener())
        await wait_for(lambda: cycles >= 1)
        ok = 0
        for i in range(200):  # bounded: 200 requests of at most 5 s each
            if i % 40 == 0:
                p.eliminate(p.b, i // 40)
            try:
                ok += await get_from(srv.url + "api/live", "127.0.0.1") == 200
            except (aiohttp.ClientError, TimeoutError):
                pass
        assert cycles >= 2 and ok >= 198, (cycles, ok)
        async with aiohttp.ClientSession() as s, s.get(srv.url + "events") as stream:
            assert stream.status == 200
            while True:  # the stream shows the game as it is: the last elimination
                event, data = await asyncio.wait_for(_sse(stream), 20)
                if event == "live":
                    assert orjson.loads(data)["games"][4]["teams"][1]["alive"] == 0
                    break
    finally:
        stop.set()
        if hostile is not None:
            await asyncio.wait_for(hostile, 30)
        for sock in silent:
            sock.close()
        srv.stop()


def _truncate(path: Path, keep_lines: int, cut: bool) -> None:
    """Keep the file's first ``keep_lines`` lines, and half of the next if ``cut``."""
    lines = path.read_bytes().splitlines(keepends=True)
    tail = lines[keep_lines][: len(lines[keep_lines]) // 2] if cut else b""
    path.write_bytes(b"".join(lines[:keep_lines]) + tail)


@pytest.mark.parametrize("cut", [True, False], ids=["torn-mid-line", "last-events-dropped"])
def test_a_game_file_cut_below_the_manifest_head_is_damaged(demo, cut) -> None:
    """A torn or truncated game file is damaged (the laptops' manifest records a later
    head, 31: the protocol submitted), never shown as the older state it still holds."""
    p = Play(demo, start=START)
    p.start()
    p.hang_by_a()
    p.submit()
    seen = fixed_view(demo)
    before = seen.live()["games"][4]
    assert before["damaged"] == "" and before["state"] == "final"
    path = demo.game_path(p.game_id)
    _truncate(path, 8, cut)  # header, creation and 6 events of the game's 15
    fresh = fixed_view(demo).live()["games"][4]
    assert fresh["damaged"].startswith("truncated: the manifest records 15 events, the file ")
    assert fresh["state"] == "scheduled" and fresh["last_events"] == []  # not 6 events' state
    kept = seen.live()["games"][4]  # a view that saw the good file keeps that, marked
    assert kept["damaged"] == fresh["damaged"] and kept["state"] == "final"
    assert kept["last_events"] == before["last_events"]


def test_a_missing_game_file_the_manifest_records_is_damaged(demo) -> None:
    p = Play(demo, start=START)
    p.start()
    p.hang_by_a()
    p.submit()
    demo.game_path(p.game_id).unlink()
    g = fixed_view(demo).live()["games"][4]
    assert g["damaged"] == "missing: the manifest records 15 events of this game"


def test_the_serve_benchmark_runs_in_its_quick_mode() -> None:
    """benchmarks/bench_serve.py --quick runs to its JSON line (its figures are not
    asserted here: the full run reports them)."""
    import subprocess
    import sys

    bench = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_serve.py"
    done = subprocess.run(
        [sys.executable, str(bench), "--quick"], capture_output=True, text=True, timeout=180
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = orjson.loads(done.stdout.strip().splitlines()[-1])
    assert {"figure", "figure_ms", "anchor_ms", "ratio", "verdict", "levels", "hostile"} <= set(
        result
    )
    assert set(result["levels"]) == {"1", "5", "20"} and result["verdict"] in ("ok", "fail")


def test_a_pit_process_that_cannot_be_started_says_why_in_the_judges_words(
    demo, monkeypatch
) -> None:
    """The child's program cannot be run (a Python moved away): the system's error in the
    UI language, never its English text or a traceback."""
    monkeypatch.setattr(sys, "executable", str(demo.folder / "no-such-python"))
    i18n.set_language("ru")
    try:
        with pytest.raises(PitNotStarted) as raised:
            PitProcess.launch(demo.folder, "127.0.0.1", 0)
    finally:
        i18n.set_language("en")
    assert "нет такого файла" in str(raised.value) and "ENOENT" in str(raised.value)
