"""The one way to open a tournament for the app, the CLI, the demo, the tests and the
benchmarks: the store opened with a fresh write key that only the service holds."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from fieldjudge.services.tournament import TournamentService
from fieldjudge.store import Tournament, WriteKey


def open_tournament(
    folder: Path,
    *,
    lock: bool = True,
    startup_backup: bool = True,
    monotonic: Callable[[], float] = time.monotonic,
    laptop_id: str | None = None,
) -> TournamentService:
    """Open an existing tournament folder (raises ``FolderLocked``, ``DamagedFile``).
    ``laptop_id``: this laptop's id, for one writer per game (None: not checked)."""
    key = WriteKey()
    store = Tournament.open(Path(folder), lock=lock, startup_backup=startup_backup, key=key)
    return TournamentService(store, key, monotonic=monotonic, laptop_id=laptop_id)


def create_tournament(
    folder: Path,
    *,
    name: str,
    day: date,
    venue: str = "",
    head_judge: str = "",
    pin_hash: dict[str, Any] | None = None,
    settings: dict[str, Any] | None = None,
    division: str = "",
    lock: bool = True,
    monotonic: Callable[[], float] = time.monotonic,
) -> TournamentService:
    """Create a new tournament folder and open it."""
    key = WriteKey()
    store = Tournament.create(
        Path(folder),
        name=name,
        day=day,
        venue=venue,
        head_judge=head_judge,
        pin_hash=pin_hash,
        settings=settings,
        division=division,
        lock=lock,
        key=key,
    )
    return TournamentService(store, key, monotonic=monotonic)
