"""Safe file names and writes that never overwrite an existing file silently."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from fieldjudge.services import TournamentView
from fieldjudge.store.storage import atomic_write_bytes, free_path

_RESERVED = {"con", "prn", "aux", "nul"} | {f"{p}{i}" for p in ("com", "lpt") for i in range(10)}


def safe_name(text: str, limit: int = 60) -> str:
    """A file-name part safe on every OS whatever a team is called: letters (Cyrillic kept),
    digits, ``-`` and ``_``; no path separators, dots, control characters or reserved
    Windows names."""
    text = unicodedata.normalize("NFC", str(text))
    s = re.sub(r"[^\w\-]+", "-", text, flags=re.UNICODE).strip("-_")
    s = re.sub(r"-{2,}", "-", s)[:limit].strip("-_")
    if not s or s.casefold() in _RESERVED:
        s = f"x-{s}" if s else "x"
    return s


def game_stem(t: TournamentView, game: Mapping[str, Any]) -> str:
    names = t.team_names()
    start = game.get("start", "").replace("-", "").replace(":", "").replace("T", "-")
    a = safe_name(names.get(game["team_a"], game["team_a"]), 30)
    b = safe_name(names.get(game["team_b"], game["team_b"]), 30)
    return f"{safe_name(start, 20)}-field{safe_name(game.get('field', ''), 8)}-{a}-vs-{b}"


def tournament_stem(t: TournamentView) -> str:
    return safe_name(f"{t.meta.get('date', '')}-{t.name}", 70)


def write_new(path: Path, payload: bytes | Iterable[bytes], overwrite: bool = False) -> Path:
    """Write ``payload`` (bytes, or parts made as they are written) atomically. An
    existing file is kept: the new one gets a free name (unless ``overwrite`` was asked
    for explicitly). Returns where it was written. An export is derived from the logs and
    can be made again: it is not fsync'd (a killed export still never leaves half a
    file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    target = path if overwrite else free_path(path)
    atomic_write_bytes(target, payload, durable=False)
    return target
