"""Schema versions of the files fieldjudge writes, and the migrations between them.

Every file carries ``{"meta": {"1": {"schema": N, "kind": ...}}}``. Opening a file runs the
migrations up to the current version of its kind; a version newer than this program is a
damaged file for it (never overwritten). A file without its meta record is stripped, never
"new": it is a damaged file too.

- tournament: schema 1 (one JSON object, atomic rewrites).
- game / quidditch: schema 2 (the line format of :mod:`fieldjudge.store.lines`, with a
  ``head`` record ``{count, hash, owner}`` beside the events). Schema 1 was one JSON
  object without a head.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from pathlib import Path
from typing import Any

from fieldjudge.rules.events import GENESIS_HASH
from fieldjudge.rules.ownership import Handover, current_owner
from fieldjudge.store.errors import DamagedFile

LOG_SCHEMA = 2
TOURNAMENT_SCHEMA = 1
# The event that hands a game to another laptop: ``data = {"from_laptop", "to_laptop"}``
# (rules/ownership.py applies them). The services decide who may append it (head judge,
# signed); the store keeps the head's ``owner`` equal to the owner the events give.
HANDOVER = "game_handover"

Data = dict[str, dict[str, Any]]

# Signed meta (issue 21, 5): the first event of a log records, in its ``data`` under
# SIGNED_META, the log's meta as it was created (the game, its teams, field, start and
# owner), so the meta is part of that event's hash and of its laptop's signature. The
# meta may never differ from it (the owner moves only by HANDOVER events, applied on top);
# a log whose first event lacks it was written before signed meta (read as it is, its
# meta "unsigned"); a log without events has nothing signed yet.
SIGNED_META = "signed_meta"
SIGNED_META_FIELDS = (
    "kind",
    "game_id",
    "match_id",
    "tournament_id",
    "field",
    "start",
    "team_a",
    "team_b",
    "owner",
    "laptop",
)


def meta_claim(meta: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a log's meta its first event signs."""
    return {k: meta[k] for k in SIGNED_META_FIELDS if k in meta}


def signed_meta_of(docs: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The meta the first event signed (None: no events, or written before signed meta)."""
    data = docs[0].get("data") if docs else None
    claim = data.get(SIGNED_META) if isinstance(data, dict) else None
    return claim if isinstance(claim, dict) else None


def signed_meta_fault(meta: Mapping[str, Any], docs: Sequence[Mapping[str, Any]]) -> str | None:
    """Which meta fields differ from what the first event signed (None: none, or nothing
    signed)."""
    claim = signed_meta_of(docs)
    if claim is None:
        return None
    now = meta_claim(meta)
    changed = sorted(k for k in set(claim) | set(now) if claim.get(k) != now.get(k))
    return ", ".join(changed) or None


def current_for(kind: str) -> int:
    return TOURNAMENT_SCHEMA if kind == "tournament" else LOG_SCHEMA


def sorted_event_docs(data: Data) -> list[dict[str, Any]]:
    docs = (data.get("events") or {}).values()
    try:
        return sorted(docs, key=_SEQ)  # every stored event has its number
    except (KeyError, TypeError):  # a damaged one: named by the chain check that follows
        return sorted(docs, key=lambda d: d.get("seq", 0))


_SEQ = itemgetter("seq")


def handover_of(data: Any) -> Handover | None:
    if not isinstance(data, dict):
        return None
    a, b = data.get("from_laptop"), data.get("to_laptop")
    return Handover(a, b) if isinstance(a, str) and isinstance(b, str) and a and b else None


def owner_of(meta: dict[str, Any], docs: Sequence[Mapping[str, Any]]) -> str | None:
    """The owner set at creation, moved along each hand-over event in turn."""
    moves = (handover_of(d.get("data")) for d in docs if d.get("type") == HANDOVER)
    return current_owner(meta.get("owner"), [h for h in moves if h is not None])


def head_of(meta: dict[str, Any], docs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "count": len(docs),
        "hash": docs[-1].get("hash") if docs else GENESIS_HASH,
        "owner": owner_of(meta, docs),
    }


def _v0_to_v1(data: Data) -> Data:
    """Version 0 (the first prototype) had no schema stamp; its events lacked ``judge``,
    which readers default to "" (events are never rewritten: that would break the chain)."""
    data = dict(data)
    doc = dict(data["meta"]["1"])
    doc["schema"] = 1
    doc.setdefault("kind", "game")
    data["meta"] = {**data["meta"], "1": doc}
    return data


def _v1_to_v2(data: Data) -> Data:
    """Game and match files gain their head record (count, hash, owner)."""
    data = dict(data)
    meta = dict(data["meta"]["1"])
    meta["schema"] = 2
    data["meta"] = {**data["meta"], "1": meta}
    try:
        data["head"] = {"1": head_of(meta, sorted_event_docs(data))}
    except (AttributeError, TypeError):
        pass  # malformed events: the chain check names the fault
    return data


MIGRATIONS: dict[int, Callable[[Data], Data]] = {0: _v0_to_v1, 1: _v1_to_v2}


def meta_of(data: Data) -> dict[str, Any] | None:
    meta = data.get("meta")
    doc = meta.get("1") if isinstance(meta, dict) else None
    return doc if isinstance(doc, dict) else None


def version_of(data: Data) -> int:
    meta = meta_of(data) or {}
    v = meta.get("schema", 0)
    return v if isinstance(v, int) else -1


def migrate(data: Data, path: Path) -> tuple[Data, bool]:
    """Bring ``data`` to the current version of its kind. Returns the data and whether it
    changed. A file without a meta record is stripped: :class:`DamagedFile`."""
    meta = meta_of(data)
    if meta is None:
        raise DamagedFile(path, "stripped: no meta record")
    v = version_of(data)
    target = current_for(meta.get("kind", "game"))
    if v < 0 or v > target:
        raise DamagedFile(
            path,
            "unknown schema version {version} (this fieldjudge reads up to {supported})",
            version=repr(v),
            supported=target,
        )
    changed = False
    while v < target:
        data = MIGRATIONS[v](data)
        v = version_of(data)
        changed = True
    return data, changed
