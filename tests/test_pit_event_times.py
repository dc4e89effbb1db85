"""The pit page shows an event's game time as the field laptop and the protocol do: the
seconds played, floored (rules.timefmt.format_game_clock), while the countdown is the time
left rounded up (format_time_left). An elimination 10.8 s into the game reads 0:10
everywhere; the page once rounded it up to 0:11, a second apart from the protocol a
captain signs. In Debian's headless Chromium."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pit_browser import CHROMIUM, Browser
from pit_helpers import Play, open_demo

from fieldjudge.rules.timefmt import format_game_clock
from fieldjudge.serve.server import PitServer
from fieldjudge.services.pitview import PitView

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")

EVENT_TIMES = (
    "(id) => Array.from(document.querySelectorAll("
    "'#live [data-game=\"' + id + '\"] .events li .t')).map((n) => n.textContent)"
)


async def test_pit_event_time_is_floored_as_on_the_laptop_and_the_protocol(tmp_path: Path):
    t = open_demo(tmp_path / "demo")
    play = Play(t, start=datetime.now(UTC) - timedelta(seconds=30))
    play.start()
    play.clock.advance(5_800)
    hit = play.eliminate(play.b, 0)  # Play.add moves the clock 5 s more: 10.8 s in
    assert hit.game_clock_ms == 10_800
    assert format_game_clock(hit.game_clock_ms) == "0:10"
    server = PitServer(PitView(t.folder), "127.0.0.1", 0, heartbeat_s=1.0)
    browser = Browser(tmp_path, server.start())
    try:
        await browser.open()
        await browser.until(f"({EVENT_TIMES})({play.game_id!r})", ["0:10", "0:00"])
    finally:
        await browser.close()
        server.stop()
        t.close()


async def test_pit_says_time_is_up_for_a_running_clock_at_0_00(tmp_path: Path):
    """A game whose field laptop is off when its time runs out has no game end in its log
    yet: its card says «Время вышло» at 0:00, not «Игра идёт»; a game with time left still
    says «Игра идёт»."""
    t = open_demo(tmp_path / "demo")
    over = Play(t, 4, start=datetime.now(UTC) - timedelta(minutes=30))
    over.start()
    on = Play(t, 5, start=datetime.now(UTC) - timedelta(seconds=30))
    on.start()
    server = PitServer(PitView(t.folder), "127.0.0.1", 0, heartbeat_s=1.0)
    browser = Browser(tmp_path, server.start())
    state = "(id) => document.querySelector('#live [data-game=\"' + id + '\"] [data-role=state]')"
    clock = "(id) => document.querySelector('#live [data-game=\"' + id + '\"] [data-role=clock]')"
    try:
        await browser.open()
        await browser.until(f"({state})({over.game_id!r}).textContent", "Время вышло")
        assert await browser.js(f"({clock})({over.game_id!r}).textContent") == "0:00"
        assert await browser.js(f"({state})({on.game_id!r}).textContent") == "Игра идёт"
    finally:
        await browser.close()
        server.stop()
        t.close()
