"""Shared fixtures: every test runs on its own data folder, in English unless it asks."""

from __future__ import annotations

import os
import tempfile
from datetime import date
from pathlib import Path

import pytest
from demo_template import copy_demo
from hypothesis import settings
from textual.widgets import Input

from fieldjudge import i18n
from tests.test_game_helpers import fake_clock, game_id

# No timing asserts in tests: hypothesis's deadline per example is one, and it fails a
# correct property when the machine is busy (a 0.1 ms example took 352 ms under load).
settings.register_profile("no-deadline", deadline=None)
settings.load_profile("no-deadline")

# Before any fixture runs (module- and session-scoped ones too, which the per-test
# isolation below does not reach), this laptop's config and data folders are the run's
# own: a test never writes the tester's real key, pinned head judges or chronograph.
_RUN = Path(tempfile.mkdtemp(prefix="fieldjudge-tests-"))
os.environ["FIELDJUDGE_CONFIG"] = str(_RUN / "config")
os.environ["FIELDJUDGE_DATA"] = str(_RUN / "data")

# The modules that take tens of seconds of a worker each (the tamper suite's verify
# subprocesses, the key storms, the installed app in ptys, Syncthing, Chromium), the
# longest first, as timed one by one on a loaded machine: collected first, so that
# pytest-xdist (tools/test.sh: --dist loadfile, in this order) hands them out first and
# the short modules fill the workers at the end, instead of one worker still walking the
# 80x24 screens alone when the others are done.
FIRST = (
    "test_tamper.py",
    "test_monkey.py",
    "test_results_screens.py",
    "test_tournament_day.py",
    "test_russian_codes.py",
    "test_walk_80x24.py",
    "test_readme_commands.py",
    "test_game_pilot.py",
    "test_quidditch_screen.py",
    "test_serve.py",
    "test_crash.py",
    "test_void_by_number.py",
    "test_pilot_setup.py",
    "test_chrono_screens.py",
    "test_ui_russian.py",
    "test_void_locked.py",
    "test_sync_three.py",
    "test_serve_browser.py",
    "test_ui_merge.py",
    "test_sync_syncthing.py",
    "test_e2e_pty.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(
        key=lambda item: FIRST.index(item.path.name) if item.path.name in FIRST else len(FIRST)
    )


@pytest.fixture(autouse=True)
def _isolate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("FIELDJUDGE_DATA", str(tmp_path / "data"))
    # this laptop's config folder (private key, chosen chronograph): never the real one in tests
    monkeypatch.setenv("FIELDJUDGE_CONFIG", str(tmp_path / "config"))
    monkeypatch.setenv("FIELDJUDGE_LANG", "en")
    # A blinking cursor makes snapshots flaky (textual-anchors.md, pitfall 5).
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None, raising=False)
    i18n.set_language("en")
    yield


@pytest.fixture
def demo_folder(tmp_path: Path) -> Path:
    """A demo tournament on disk (closed, unlocked), dated 2026-06-01."""
    return copy_demo(tmp_path / "data" / "demo", date(2026, 6, 1))


@pytest.fixture
def gid(demo_folder: Path) -> str:
    """A scheduled game of the demo that has not been played (the first of round 2)."""
    return game_id(demo_folder)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch):
    """The game clock, advanced by hand."""
    return fake_clock(monkeypatch)


@pytest.fixture
def tournament(demo_folder: Path):
    from fieldjudge.services import open_tournament

    t = open_tournament(demo_folder)
    yield t
    t.close()
