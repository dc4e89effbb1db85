"""Snapshots of the chrono screens (plain ``def``: snap_compare runs its own event loop)."""

from __future__ import annotations

import time
from datetime import date
from pathlib import Path

import pytest

from fieldjudge.app import make_app
from fieldjudge.demo import create_demo
from fieldjudge.devices.parsers import Reading
from fieldjudge.screens.chrono_feed import ChronoFeed
from fieldjudge.screens.marker_check import MarkerCheckScreen


@pytest.fixture(autouse=True)
def _no_port(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("fieldjudge.chrono_service.default_config", lambda: None)


def _demo(tmp_path: Path) -> Path:
    folder = tmp_path / "snap" / "demo"
    create_demo(folder, day=date(2026, 6, 1)).close()
    return folder


def test_marker_check_screen_ru(snap_compare, tmp_path: Path) -> None:
    folder = _demo(tmp_path)

    async def run_before(pilot) -> None:
        app = pilot.app
        t = app.tournament
        gid = next(g["id"] for g in t.games() if not t.game_path(g["id"]).exists())
        app.push_screen(MarkerCheckScreen(t, gid))
        for _ in range(200):
            if isinstance(app.screen, MarkerCheckScreen) and app.screen.query("#feed"):
                break
            await pilot.pause(0.01)
        await pilot.press("enter", "s")
        feed = app.screen.query_one("#feed", ChronoFeed)
        t0 = time.monotonic() - 1
        for i, fps in enumerate((286.5, 288.0, 287.5)):
            feed.post_message(ChronoFeed.ReadingReceived(Reading(fps, "plain", t0 + i * 0.12, b"")))
        for _ in range(200):
            if app.screen.current and len(app.screen.current.shots) == 3:
                break
            await pilot.pause(0.01)
        await pilot.pause(0.1)

    assert snap_compare(
        make_app(folder.parent, folder, lang="ru"), run_before=run_before, terminal_size=(110, 34)
    )
