"""Shared builders for the results tests (issue 5): a demo tournament with history, a
finished, not yet submitted game, and a folder rebuilt from a JSON export."""

from __future__ import annotations

import random
from datetime import date
from pathlib import Path

import orjson
from demo_template import open_demo_copy

from fieldjudge.services.demo_history import Script, play
from fieldjudge.store import bundle
from fieldjudge.store.anchors import HEADS_FILE, LAPTOP_FILE, SIG_FILE
from fieldjudge.store.storage import atomic_write_bytes
from fieldjudge.store.tournament import MARKER_DIR, TOURNAMENT_FILE

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


def import_bundle(path: Path, dest: Path) -> Path:
    """Rebuild the tournament folder of an export in ``dest`` (which must not hold one)."""
    data = bundle.load_bundle(path)
    dest = Path(dest)
    if (dest / TOURNAMENT_FILE).exists():
        raise FileExistsError(f"{dest} already holds a tournament")
    for sub in ("games", "quidditch", "exports", "backups", ".cache"):
        (dest / sub).mkdir(parents=True, exist_ok=True)
    for sub in bundle.LOG_FOLDERS:
        for key, doc in (data.get(sub) or {}).items():
            name = Path(key).name  # never a path outside the folder
            atomic_write_bytes(dest / sub / f"{name}.json", orjson.dumps(bundle.doc_to_log(doc)))
    for lid, entry in (data.get("laptops") or {}).items():
        if not isinstance(entry, dict):
            continue
        lap = dest / "laptops" / Path(str(lid)).name
        lap.mkdir(parents=True, exist_ok=True)
        if isinstance(entry.get("laptop"), dict):
            atomic_write_bytes(lap / LAPTOP_FILE, orjson.dumps(entry["laptop"]))
        if entry.get("heads"):
            atomic_write_bytes(lap / HEADS_FILE, str(entry["heads"]).encode())
        for gid, doc in (entry.get("marker_checks") or {}).items():
            if isinstance(doc, dict):
                (lap / MARKER_DIR).mkdir(exist_ok=True)
                log = orjson.dumps(bundle.doc_to_log(doc))
                atomic_write_bytes(lap / MARKER_DIR / f"{Path(str(gid)).name}.json", log)
    if isinstance(data.get("tournament_sig"), dict):
        atomic_write_bytes(dest / SIG_FILE, orjson.dumps(data["tournament_sig"]))
    atomic_write_bytes(dest / TOURNAMENT_FILE, orjson.dumps(data["tournament"]))
    return dest
