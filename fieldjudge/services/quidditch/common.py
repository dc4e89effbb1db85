"""What every part of the quidditch session shares: the judge-facing error, the event types
of the match log, and the wording of a span of roll numbers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fieldjudge.store.storage import atomic_write_bytes, make_dirs
from fieldjudge.store.tournament import TOURNAMENT_FILE

MATCH_CREATED = "match_created"
ROUND_RESOLVED = "round_resolved"
# 0, 5: pass catches resolved and posted by the judge within the round (the round's own
# round_resolved follows later and skips them); the same data as a round_resolved
PASSES_RESOLVED = "passes_resolved"
STEP_TYPES = (ROUND_RESOLVED, PASSES_RESOLVED)
#: the ``format`` of a match's JSON export
EXPORT_FORMAT = "fieldjudge-quidditch-export"


#: the tournament folder a forum judge's matches live in, inside the data folder
QUIDDITCH_FOLDER = "quidditch"


def quidditch_folder(data_dir: Path) -> Path:
    """The folder of the forum judge's matches: ``<data dir>/quidditch``, unless the data
    folder given already is that folder (``--data-dir …/quidditch``: never nested as
    ``quidditch/quidditch/``)."""
    data_dir = Path(data_dir)
    inside = data_dir / QUIDDITCH_FOLDER
    if (data_dir / TOURNAMENT_FILE).exists() and not (inside / TOURNAMENT_FILE).exists():
        return data_dir
    return inside


class SessionError(Exception):
    """A clear message for the judge (bad input, a refused correction, a missing match)."""


def rolls_span(rolls: Sequence[Mapping[str, Any]]) -> str:
    """«№a–b» of a round's rolls, in Russian (it goes into posts and exports)."""
    if not rolls:
        return "бросков не было"
    a, b = rolls[0]["n"], rolls[-1]["n"]
    return f"№{a}" if a == b else f"№{a}–{b}"


def write_text(path: Path, text: str) -> None:
    """UTF-8 text, atomically, creating the folder."""
    make_dirs(path.parent)
    atomic_write_bytes(path, text.encode("utf-8"))
