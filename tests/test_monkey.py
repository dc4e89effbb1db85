"""A judge's stray keys never crash the app: seeded random key storms on the main screens.

Textual's ``run_test`` re-raises any exception a handler raises, so a storm that ends
without one shows every key was handled (acted on, or refused with a message)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from fieldjudge.app import make_app
from fieldjudge.screens.chrono.marker_check import open_marker_check

KEYS = list("abcdefghijklmnopqrstuvwxyzHS0123456789") + [
    "enter",
    "escape",
    "space",
    "tab",
    "up",
    "down",
    "left",
    "right",
    "backspace",
    "delete",
    "f1",
    "ctrl+s",
    "ctrl+t",
]


def checkin_times(game: dict) -> tuple[datetime, datetime, int]:
    """19.01: a team checking in 10 minutes before the game's start (3 minutes required)."""
    start = datetime.fromisoformat(str(game["start"]))
    return start - timedelta(minutes=10), start, 3


async def _storm(pilot, rng: random.Random, presses: int) -> None:
    for _ in range(presses):
        await pilot.press(rng.choice(KEYS))


async def _wait_for(pilot, condition) -> None:
    for _ in range(300):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError("condition never met")


@pytest.mark.parametrize("seed", [1, 2])
async def test_key_storm_on_a_live_game(demo_folder: Path, seed: int) -> None:
    app = make_app(demo_folder.parent, demo_folder, lang="ru", judge="Судья")
    async with app.run_test(size=(80, 24)) as pilot:
        await _wait_for(pilot, lambda: app.tournament is not None)
        t = app.tournament
        gid = next(g["id"] for g in t.games() if not t.game_path(g["id"]).exists())
        app.open_game(gid)
        await _wait_for(pilot, lambda: app.screen.__class__.__name__ == "GameScreen")
        await pilot.press("space")  # start the clock so most keys mean something
        await _storm(pilot, random.Random(seed), 150)
        # whatever happened, the log on disk is a valid chain the engine can fold
        from fieldjudge.store import EventLog

        log = EventLog.open(t.game_path(gid))
        assert log.events and log.events[0].type == "clock_start"


@pytest.mark.parametrize("seed", [4])
async def test_key_storm_from_the_home_screen(demo_folder: Path, seed: int) -> None:
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await _wait_for(pilot, lambda: app.tournament is not None)
        await _storm(pilot, random.Random(seed), 200)
    assert app.return_code in (None, 0)


async def test_key_storm_on_the_marker_check(demo_folder: Path) -> None:
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await _wait_for(pilot, lambda: app.tournament is not None)
        t = app.tournament
        # the first unplayed game (a signed one's marker check is closed: 31)
        gid = next(g["id"] for g in t.games() if not t.game_path(g["id"]).exists())
        open_marker_check(app, gid)
        await _wait_for(
            pilot,
            lambda: (
                app.screen.__class__.__name__ == "MarkerCheckScreen"
                and app.screen.query("#mc-roster")
            ),
        )
        app.screen.service.checkin(  # 19.01: the teams report before their markers' checks
            t.game(gid)["team_a"], *checkin_times(t.game(gid))
        )
        app.screen.service.checkin(t.game(gid)["team_b"], *checkin_times(t.game(gid)))
        app.screen.reload()
        await _storm(pilot, random.Random(6), 150)


async def test_key_storm_on_a_quidditch_round(demo_folder: Path) -> None:
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(100, 30)) as pilot:
        await _wait_for(pilot, lambda: app.tournament is not None)
        await pilot.press("q")
        await _wait_for(pilot, lambda: app.screen.__class__.__name__ == "MatchesScreen")
        await pilot.press("d")  # the demo match: Enter keeps its name, Enter starts it
        for _ in range(2):
            await pilot.pause(0.05)
            await pilot.press("enter")
        await _wait_for(
            pilot,
            lambda: (
                "Round" in app.screen.__class__.__name__
                or app.screen.__class__.__name__ == "MessageScreen"
            ),
        )
        await _storm(pilot, random.Random(7), 150)
