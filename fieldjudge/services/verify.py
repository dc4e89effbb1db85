"""``fieldjudge verify``: every file of a tournament folder checked for JSON, schema version,
hash chain, event schema and the protocol lock (31). Read-only."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from fieldjudge.rules import protocol as pr
from fieldjudge.rules.events import Event
from fieldjudge.store import DamagedFile
from fieldjudge.store.storage import load_json_file
from fieldjudge.store.tournament import TOURNAMENT_FILE
from fieldjudge.store.validate import validate_data

EVENT_FIELDS = {
    "id": str,
    "seq": int,
    "type": str,
    "wall_time": str,
    "judge": str,
    "data": dict,
    "prev_hash": str,
    "hash": str,
}


def files_of(folder: Path) -> list[Path]:
    folder = Path(folder)
    out = [folder / TOURNAMENT_FILE]
    for sub in ("games", "quidditch"):
        out += sorted((folder / sub).glob("*.json"))
    conflicts = folder / "conflicts"
    if conflicts.is_dir():
        out += sorted(p for p in conflicts.rglob("*.json"))
    return out


def event_faults(docs: list[Mapping]) -> list[str]:
    faults = []
    for d in docs:
        for name, typ in EVENT_FIELDS.items():
            if not isinstance(d.get(name), typ):
                faults.append(
                    f"event #{d.get('seq')}: field {name!r} missing or not {typ.__name__}"
                )
        gc = d.get("game_clock_ms")
        if gc is not None and not isinstance(gc, int):
            faults.append(f"event #{d.get('seq')}: game_clock_ms is not a whole number")
    return faults


def lock_faults(meta: Mapping, events: list[Event]) -> list[str]:
    """Events the lock guard would have refused (appended with force, or merged in)."""
    teams = (str(meta.get("team_a", "")), str(meta.get("team_b", "")))
    first = next((i for i, e in enumerate(events) if e.type in pr.PROTOCOL_TYPES), None)
    if first is None:
        return []
    faults = []
    for i in range(first, len(events)):
        e = events[i]
        why = pr.lock_refusal(events[:i], e.type, e.data, teams)
        if why:
            faults.append(f"event #{e.seq} ({e.type}): {why}")
    return faults


def verify_file(path: Path) -> list[str]:
    try:
        data, _changed = validate_data(load_json_file(path), path)
    except DamagedFile as exc:
        return [exc.fault]
    meta = (data.get("meta") or {}).get("1") or {}
    events = data.get("events")
    if meta.get("kind") == "tournament" or events is None:
        return [] if meta.get("kind") == "tournament" else ["no events table"]
    docs = sorted(events.values(), key=lambda d: d.get("seq", 0))
    faults = event_faults(docs)
    if faults:
        return faults
    if meta.get("kind") == "game":
        faults += lock_faults(meta, [Event.from_doc(d) for d in docs])
    return faults


def verify_folder(folder: Path) -> dict[str, list[str]]:
    """{relative path: faults} for every file (an empty list: fine)."""
    folder = Path(folder)
    out = {}
    for p in files_of(folder):
        rel = str(p.relative_to(folder))
        out[rel] = verify_file(p) if p.exists() else ["missing"]
    return out
