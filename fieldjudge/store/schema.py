"""Schema versions of the files fieldjudge writes, and the migrations between them.

Every file carries ``{"meta": {"1": {"schema": N, "kind": ...}}}``. Opening a file runs the
migrations up to :data:`CURRENT`; a version newer than this program is a damaged file for
it (never overwritten).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fieldjudge.store.errors import DamagedFile

CURRENT = 1

Data = dict[str, dict[str, Any]]


def _v0_to_v1(data: Data) -> Data:
    """Version 0 (the first prototype) had no schema stamp; its events lacked ``judge``,
    which readers default to "" (events are never rewritten: that would break the chain)."""
    data = dict(data)
    meta = dict(data.get("meta") or {})
    doc = dict(meta.get("1") or {})
    doc["schema"] = 1
    doc.setdefault("kind", "game")
    meta["1"] = doc
    data["meta"] = meta
    return data


MIGRATIONS: dict[int, Callable[[Data], Data]] = {0: _v0_to_v1}


def version_of(data: Data) -> int:
    meta = (data.get("meta") or {}).get("1") or {}
    v = meta.get("schema", 0)
    return v if isinstance(v, int) else -1


def migrate(data: Data, path: Path) -> tuple[Data, bool]:
    """Bring ``data`` to :data:`CURRENT`. Returns the data and whether it changed."""
    v = version_of(data)
    if v < 0 or v > CURRENT:
        raise DamagedFile(
            path, f"unknown schema version {v!r} (this fieldjudge reads up to {CURRENT})"
        )
    changed = False
    while v < CURRENT:
        data = MIGRATIONS[v](data)
        v = version_of(data)
        changed = True
    return data, changed
