"""Snapshots of the game screen in its main states, at 80x24 (plain ``def``: snap_compare
runs its own event loop). The clock is a fake one, so the times are fixed."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from types import SimpleNamespace

import pytest
from demo_template import copy_demo

from fieldjudge.app import make_app
from tests.test_game_helpers import fake_clock, game_id, keys, open_game, wait_for

SIZE = (80, 24)


@pytest.fixture
def game(tmp_path: Path, monkeypatch) -> SimpleNamespace:
    """A demo tournament, its first unplayed game and the fake clock."""
    clock = fake_clock(monkeypatch)
    folder = tmp_path / "snap" / "demo"
    copy_demo(folder, date(2026, 6, 1))
    return SimpleNamespace(folder=folder, gid=game_id(folder), clock=clock)


def _app(game, lang: str = "ru"):
    return make_app(game.folder.parent, game.folder, lang=lang, judge="Test judge")


async def _started(pilot, game, ms: int):
    """Open the game, start the clock and let ``ms`` of game time run."""
    screen = await open_game(pilot.app, pilot, game.gid)
    await keys(pilot, "space")
    game.clock.advance(ms)
    return screen


def test_game_not_started(snap_compare, game) -> None:
    async def run_before(pilot) -> None:
        await open_game(pilot.app, pilot, game.gid)

    assert snap_compare(_app(game), run_before=run_before, terminal_size=SIZE)


def test_game_running_with_eliminations_flag_and_checks(snap_compare, game):
    async def run_before(pilot) -> None:
        screen = await _started(pilot, game, 75_000)
        await keys(pilot, "a 4 2 enter", "b 7 7 o", "f a 1 1", "n b 2 3", "p b 7 enter")
        game.clock.advance(12_000)
        await keys(pilot, "a 2 3")  # the reason menu is open
        await wait_for(pilot, lambda: screen.prompt.active)

    assert snap_compare(_app(game), run_before=run_before, terminal_size=SIZE)


def test_game_flag_hang_verdict(snap_compare, game):
    async def run_before(pilot) -> None:
        await _started(pilot, game, 30_000)
        await keys(pilot, "f b 4 2")
        game.clock.advance(95_000)
        await keys(pilot, "H c 2 9 1")

    assert snap_compare(_app(game), run_before=run_before, terminal_size=SIZE)


def test_game_refusal_and_undo_in_english(snap_compare, game):
    async def run_before(pilot) -> None:
        await _started(pilot, game, 61_000)
        await keys(pilot, "a 1 1 enter", "b 2 3 d", "u enter", "t", "a 1 1")

    assert snap_compare(_app(game, "en"), run_before=run_before, terminal_size=SIZE)


def test_game_post_game_inspection(snap_compare, game):
    async def run_before(pilot) -> None:
        from fieldjudge.screens.game.dialogs import InspectionDialog

        await _started(pilot, game, 100_000)
        await keys(pilot, "a 7 enter enter", "b 1 1 enter")
        game.clock.advance(320_000)  # 7:00 ran out
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, InspectionDialog))
        await keys(pilot, "c", "down h")

    assert snap_compare(_app(game), run_before=run_before, terminal_size=SIZE)
