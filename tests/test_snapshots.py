"""Snapshots of the main foundation screens (plain ``def``: snap_compare runs its own loop)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from demo_template import copy_demo

from fieldjudge.app import make_app


def _demo(tmp_path: Path) -> Path:
    folder = tmp_path / "snap" / "demo"
    copy_demo(folder, date(2026, 6, 1))
    return folder


async def _sync_line_settled(pilot) -> None:
    """The sync status comes from a worker: wait for its first answer (sync off here)."""
    app = pilot.app
    for _ in range(500):
        line = app.screen.query("#sync-line")
        if line and "выключена" in str(line.first().render()):
            return
        await pilot.pause(0.01)
    raise AssertionError("the sync line never settled")


def test_home_screen(snap_compare, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("STHOMEDIR", str(tmp_path / "no-syncthing"))  # Syncthing absent
    folder = _demo(tmp_path)
    assert snap_compare(
        make_app(folder.parent, folder, lang="ru"),
        terminal_size=(80, 24),
        run_before=_sync_line_settled,
    )


def test_new_tournament_form(snap_compare, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr("fieldjudge.screens.setup.tournament.today", lambda: date(2026, 6, 1))
    app = make_app(tmp_path / "empty", lang="ru")
    assert snap_compare(app, press=["n"], terminal_size=(80, 24))


def test_teams_screen(snap_compare, tmp_path: Path) -> None:
    folder = _demo(tmp_path)
    assert snap_compare(
        make_app(folder.parent, folder, lang="en"), press=["t"], terminal_size=(80, 24)
    )
