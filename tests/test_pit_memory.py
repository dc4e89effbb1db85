"""The pit display's first answer on a big tournament (issue 24): it trusts what this
laptop's app already verified (``.cache/verified.json``, authenticated with the laptop's
own key), exactly as the app does at its start, and never writes that memory; it answers
before every game is checked, showing the games not checked yet as ``pending`` with no
data (as the home screen's "…"), and never counts them. A file edited after the memory
was written, or a memory whose MAC fails, is checked again: the game is damaged (21)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import aiohttp
import orjson
import pytest
from pit_browser import CHROMIUM, Browser
from pit_helpers import Play, open_demo
from test_tamper import (  # noqa: F401 - the fixtures: a signed demo copy, its laptop's key
    _unsigned_void_of_the_protocol,
    base,
    counted_games,
    cup,
    edit_keeping_size_and_time,
    signed_game,
    stamps,
)

from fieldjudge.commands.pit import pit_view
from fieldjudge.serve.server import PitServer
from fieldjudge.services.opening import laptop_keys, open_tournament
from fieldjudge.services.pitview import PENDING, PitView
from fieldjudge.services.trust import identity

MEMORY = Path(".cache") / "verified.json"


def settled_live(view: PitView) -> dict:
    """The pit's live document once no game is pending (each call reads more games)."""
    live = view.live()
    while live["pending"]:
        live = view.live()
    return live


def remember_every_file(folder: Path) -> None:
    """What the app does at its start: every game checked, the clean ones remembered."""
    t = open_tournament(folder, startup_backup=False)
    try:
        for g in t.games():
            t.game_summary(g["id"])
        t.save_checks()
    finally:
        t.close()
    assert (folder / MEMORY).exists()


def game_of(live: dict, gid: str) -> dict:
    return next(g for g in live["games"] if g["id"] == gid)


@pytest.fixture
def signatures_checked(monkeypatch) -> list[int]:
    """Counts the events whose signature is checked (the work the memory saves)."""
    seen = [0]
    real = identity.event_fault

    def counting(*args, **kwargs):
        seen[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(identity, "event_fault", counting)
    return seen


def test_24_the_pit_trusts_the_apps_memory_and_never_writes_it(
    cup: Path,  # noqa: F811 - the tamper suite's fixture
    signatures_checked: list[int],
) -> None:
    """A folder the app verified: the pit checks no signature again (same states as a
    pit that checks every one), and reads the memory without changing it."""
    gid = signed_game(cup)
    remember_every_file(cup)
    before = (cup / MEMORY).read_bytes(), stamps(cup)
    signatures_checked[0] = 0
    trusted = pit_view(cup)
    live, standings = trusted.live(), trusted.standings()
    while live["pending"]:
        live, standings = trusted.live(), trusted.standings()
    assert signatures_checked[0] == 0
    full = PitView(cup)  # no memory: every signature checked
    full_live = full.live()
    assert signatures_checked[0] > 0
    strip = lambda doc: {k: v for k, v in doc.items() if k != "as_of"}  # noqa: E731
    assert [strip(g) for g in live["games"]] == [strip(g) for g in full_live["games"]]
    assert game_of(live, gid)["state"] == "final" and game_of(live, gid)["damaged"] == ""
    assert strip(standings) == strip(full.standings()) and gid in counted_games(standings)
    assert ((cup / MEMORY).read_bytes(), stamps(cup)) == before  # a reader: no write


def test_24_the_pit_answers_before_every_game_is_checked(
    cup: Path,  # noqa: F811 - the tamper suite's fixture
) -> None:
    """With no time to spare (``budget_s=0``) each update checks one game: the first
    answer shows the rest ``pending`` with no data and no standings, and each update
    fills in one more until the answer is that of a pit that checked every game."""
    signed_game(cup)
    full = PitView(cup)
    want = full.live()
    view = PitView(cup, budget_s=0)
    first = view.live()
    played = [g["id"] for g in want["games"] if g["state"] != "scheduled"]
    assert first["pending"] > 0
    pending = [g for g in first["games"] if g["state"] == PENDING]
    assert len(pending) == first["pending"]
    for g in pending:  # never shown as real data
        assert g["result"] is None and g["last_events"] == [] and g["clock"] is None
        assert g["damaged"] == "" and g["id"] not in first["live"]
    assert set(played) & {g["id"] for g in pending}
    assert view.standings()["divisions"] == []  # an unchecked game may change any row
    updates = 1
    live = first
    while live["pending"]:
        live = view.live()
        updates += 1
        assert updates <= len(want["games"]) + 1, "no progress"
    strip = lambda doc: {k: v for k, v in doc.items() if k != "as_of"}  # noqa: E731
    assert [strip(g) for g in live["games"]] == [strip(g) for g in want["games"]]
    assert view.standings()["divisions"] == full.standings()["divisions"]


def test_21_a_game_edited_after_the_memory_was_written_is_damaged_on_the_pit(
    cup: Path,  # noqa: F811 - the tamper suite's fixture
) -> None:
    """A signed game given a hand-appended, unsigned void after the app remembered it
    clean: the pit that trusts the memory checks it again and shows it damaged, not
    counted."""
    gid = signed_game(cup)
    remember_every_file(cup)
    _unsigned_void_of_the_protocol(cup, gid)
    view = pit_view(cup)
    doc = game_of(settled_live(view), gid)
    assert "unsigned: no laptop signature" in doc["damaged"], doc
    assert gid not in counted_games(view.standings())


def test_24_an_edit_keeping_size_and_time_is_damaged_on_the_pit(
    cup: Path,  # noqa: F811 - the tamper suite's fixture
) -> None:
    """An edit the memory cannot see (one digit changed, the file's time set back: its
    record still matches) is caught by the pit's read of the file (the chain)."""
    gid = signed_game(cup)
    remember_every_file(cup)
    edit_keeping_size_and_time(cup / "games" / f"{gid}.json")
    view = pit_view(cup)
    doc = game_of(settled_live(view), gid)
    assert "hash does not match its content" in doc["damaged"], doc
    assert gid not in counted_games(view.standings())


def test_21_a_memory_with_a_wrong_mac_is_ignored_by_the_pit(
    cup: Path,  # noqa: F811 - the tamper suite's fixture
    signatures_checked: list[int],
) -> None:
    """A record written by hand to call an edited file clean (its MAC left as it was),
    and a memory whose MAC is wrong: both ignored, every file checked."""
    gid = signed_game(cup)
    remember_every_file(cup)
    memory = cup / MEMORY
    doc = orjson.loads(memory.read_bytes())
    _unsigned_void_of_the_protocol(cup, gid)
    st = (cup / "games" / f"{gid}.json").stat()
    doc["files"][f"games/{gid}.json"]["key"] = [st.st_size, st.st_mtime_ns]
    memory.write_bytes(orjson.dumps(doc))  # the edited file "clean", the MAC left as it was
    assert laptop_keys(cup, check=False).local_mac(b"") != ""
    view = pit_view(cup)
    live = view.live()
    while live["pending"]:
        live = view.live()
    assert "unsigned: no laptop signature" in game_of(live, gid)["damaged"]
    assert gid not in counted_games(view.standings())
    # a memory of the untouched files with a wrong MAC: every signature checked again
    signatures_checked[0] = 0
    doc["mac"] = "0" * 64
    memory.write_bytes(orjson.dumps(doc))
    view = pit_view(cup)
    while view.live()["pending"]:
        pass
    assert signatures_checked[0] > 0


async def test_24_the_pit_server_answers_at_once_and_fills_in_the_games(
    cup: Path,  # noqa: F811 - the tamper suite's fixture
) -> None:
    """The server listens and answers ``/api/live`` after the source's first part, then
    reads on until no game is pending: its answer is then that of a full check."""
    signed_game(cup)
    want = PitView(cup).live()
    server = PitServer(PitView(cup, budget_s=0), "127.0.0.1", 0, poll_s=0.05)
    url = server.start()
    try:
        async with aiohttp.ClientSession() as s:
            async with s.get(url + "api/live") as r:
                assert r.status == 200
                first = await r.json()
            assert first["games"] and len(first["games"]) == len(want["games"])
            loop = asyncio.get_running_loop()
            end = loop.time() + 30
            while True:
                async with s.get(url + "api/live") as r:
                    live = await r.json()
                if live["pending"] == 0 or loop.time() > end:
                    break
                await asyncio.sleep(0.02)
    finally:
        server.stop()
    assert live["pending"] == 0
    strip = lambda doc: {k: v for k, v in doc.items() if k != "as_of"}  # noqa: E731
    assert [strip(g) for g in live["games"]] == [strip(g) for g in want["games"]]


def test_24_the_pit_start_benchmark_runs_in_its_quick_mode() -> None:
    """benchmarks/bench_pit_start.py --quick runs to its JSON line, and its pit never
    writes the app's memory (its figures are not asserted here)."""
    bench = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_pit_start.py"
    done = subprocess.run(
        [sys.executable, str(bench), "--quick"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = orjson.loads(done.stdout.strip().splitlines()[-1])
    assert {"figure", "anchor", "ratio", "verdict"} <= set(result)
    assert result["verdict"] in ("meets", "misses") and result["quick"] is True


class HeldAtFirstAnswer:
    """A pit source that keeps serving a budgeted view's first answer (games pending)
    until ``release()``: the page as a TV shows it in the first second."""

    def __init__(self, view: PitView) -> None:
        self.view = view
        self.first = view.live(), view.standings()
        self.released = False

    def release(self) -> None:
        self.released = True

    def version(self) -> bool:
        return self.released

    def live(self) -> dict:
        return self.view.live() if self.released else self.first[0]

    def standings(self) -> dict:
        return self.view.standings() if self.released else self.first[1]


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")
async def test_24_a_game_not_checked_yet_shows_on_the_page_as_pending(tmp_path: Path) -> None:
    """The page shows a game not checked yet as "…" with no score, then its state once
    the pit has checked it."""
    t = open_demo(tmp_path / "demo")
    p = Play(t)
    p.start()
    p.hang_by_a()
    p.submit()
    source = HeldAtFirstAnswer(PitView(t.folder, budget_s=0))
    assert source.first[0]["pending"] > 0
    server = PitServer(source, "127.0.0.1", 0, poll_s=0.05)
    url = server.start()
    browser = Browser(tmp_path, url)
    row = f"document.querySelector('#schedule tr[data-game=\"{p.game_id}\"]').textContent"
    try:
        await browser.open()
        await browser.until("document.querySelectorAll('#schedule tbody tr').length", 12)
        await browser.until(row, "10:401Медведи — Тигры…")
        source.release()
        await browser.until(row, "10:401Медведи — ТигрыИтог 3 : 0 *")
    finally:
        await browser.close()
        server.stop()
        t.close()


def test_24_a_pit_without_this_laptops_key_checks_every_file(
    cup: Path,  # noqa: F811 - the tamper suite's fixture
    monkeypatch,
    signatures_checked: list[int],
) -> None:
    """A config folder inside the tournament folder (its key refused there): the pit
    still starts, trusting no memory (every signature checked)."""
    gid = signed_game(cup)
    remember_every_file(cup)
    monkeypatch.setenv("FIELDJUDGE_CONFIG", str(cup / "config"))
    signatures_checked[0] = 0
    view = pit_view(cup)
    live = view.live()
    while live["pending"]:
        live = view.live()
    assert signatures_checked[0] > 0 and game_of(live, gid)["state"] == "final"
    assert not (cup / "config").exists()
