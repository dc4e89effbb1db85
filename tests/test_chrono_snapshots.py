"""Snapshots of the chrono screens (plain ``def``: snap_compare runs its own event loop)."""

from __future__ import annotations

import time
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
from demo_template import copy_demo

from fieldjudge.app import make_app
from fieldjudge.devices.parsers import Reading
from fieldjudge.screens.chrono.feed import ChronoFeed
from fieldjudge.screens.chrono.marker_check import MarkerCheckScreen
from tests.test_game_helpers import wait_for


@pytest.fixture(autouse=True)
def _no_port(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("fieldjudge.services.paintball.chrono.default_config", lambda: None)


def _demo(tmp_path: Path) -> Path:
    folder = tmp_path / "snap" / "demo"
    copy_demo(folder, date(2026, 6, 1))
    return folder


def test_marker_check_screen_ru(snap_compare, tmp_path: Path) -> None:
    folder = _demo(tmp_path)

    async def run_before(pilot) -> None:
        app = pilot.app
        t = app.tournament
        gid = next(g["id"] for g in t.games() if not t.game_path(g["id"]).exists())
        app.push_screen(MarkerCheckScreen(t, gid))
        await wait_for(
            pilot, lambda: isinstance(app.screen, MarkerCheckScreen) and app.screen.query("#feed")
        )
        game = t.game(gid)
        start = datetime.fromisoformat(str(game["start"]))
        for team in (game["team_a"], game["team_b"]):  # 19.01: reported 10 minutes before
            app.screen.service.checkin(team, start - timedelta(minutes=10), start, 3)
        app.screen.reload()
        await pilot.press("enter", "a", "m", "s")
        feed = app.screen.query_one("#feed", ChronoFeed)
        t0 = time.monotonic() - 1
        for i, fps in enumerate((286.5, 288.0, 287.5)):
            feed.post_message(ChronoFeed.ReadingReceived(Reading(fps, "plain", t0 + i * 0.12, b"")))
        await wait_for(pilot, lambda: app.screen.current and len(app.screen.current.shots) == 3)
        await wait_for(pilot, lambda: feed.query_one("#feed-digits").value == "287,5", "287,5")

    assert snap_compare(
        make_app(folder.parent, folder, lang="ru"), run_before=run_before, terminal_size=(110, 34)
    )
