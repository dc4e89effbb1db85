"""Shared fixtures: every test runs on its own data folder, in English unless it asks."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from hypothesis import settings
from textual.widgets import Input

from fieldjudge import i18n

# No timing asserts in tests: hypothesis's deadline per example is one, and it fails a
# correct property when the machine is busy (a 0.1 ms example took 352 ms under load).
settings.register_profile("no-deadline", deadline=None)
settings.load_profile("no-deadline")


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
    from fieldjudge.services.demo import create_demo

    folder = tmp_path / "data" / "demo"
    t = create_demo(folder, day=date(2026, 6, 1))
    t.close()
    return folder


@pytest.fixture
def tournament(demo_folder: Path):
    from fieldjudge.services import open_tournament

    t = open_tournament(demo_folder)
    yield t
    t.close()
