"""Shared builders for the results tests (issue 5): a demo tournament with history and a
finished, not yet submitted game."""

from __future__ import annotations

import random
from datetime import date
from pathlib import Path

from demo_template import open_demo_copy

from fieldjudge.services.demo_history import Script, play

DAY = date(2026, 5, 16)


def demo(folder: Path, lock: bool = False, config: Path | None = None):
    """The demo (dated DAY) at ``folder``, open, for the laptop of the config folder
    ``config`` (default: this test's)."""
    return open_demo_copy(Path(folder), DAY, lock, config)


def finished_game(t, index: int = 4, kind: str = "hang", seed: int = 7) -> str:
    """Play game ``index`` of the schedule to its end without closing the protocol."""
    g = t.games()[index]
    play(t, g["id"], Script(kind, 1, 2), random.Random(seed), close=False)
    return g["id"]


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now
