"""Validate any fieldjudge file (tournament, game, quidditch match) without opening it for
writing: format, schema version, and for event logs the hash chain and the head record
(event count, head hash, owner)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fieldjudge.rules.events import GENESIS_HASH, verify_chain
from fieldjudge.rules.messages import Phrase
from fieldjudge.store import schema
from fieldjudge.store.errors import DamagedFile
from fieldjudge.store.storage import load_json_file, parse_file_bytes


def _head_fault(head: Any, docs: list[dict[str, Any]], meta: dict[str, Any]) -> Phrase | None:
    if not isinstance(head, dict):
        return Phrase("the head record is not an object")
    count, hh = head.get("count"), head.get("hash")
    if not isinstance(count, int) or not isinstance(hh, str):
        return Phrase("the head record has no event count or hash")
    if count > len(docs):
        return Phrase(
            "truncated: the head records {count} events, the file holds {held}",
            count=count,
            held=len(docs),
        )
    if count < len(docs):
        return Phrase(
            "the file holds {held} events, its head records only {count}",
            held=len(docs),
            count=count,
        )
    last = docs[-1]["hash"] if docs else GENESIS_HASH
    if hh != last:
        return Phrase(
            "the head hash {head}… is not the last event's hash {last}…",
            head=hh[:12],
            last=last[:12],
        )
    owner = schema.owner_of(meta, docs)
    if head.get("owner") != owner:
        return Phrase(
            "the head names owner {head}, the events {events}",
            head=repr(head.get("owner")),
            events=repr(owner),
        )
    return None


def validate_data(data: Any, path: Path) -> tuple[dict, bool]:
    """Check parsed file content; return it migrated, and whether migration changed it."""
    data, changed, _docs = validate_log_data(data, path)
    return data, changed


def validate_log_data(data: Any, path: Path) -> tuple[dict, bool, list[dict[str, Any]] | None]:
    """:func:`validate_data`, and the event documents in order of ``seq`` as checked (None
    for a file without events: the tournament file)."""
    if not isinstance(data, dict):
        raise DamagedFile(path, "empty, or the top level is not a JSON object")
    data, changed = schema.migrate(data, path)
    meta = schema.meta_of(data) or {}
    events = data.get("events")
    if events is None:
        if meta.get("kind", "game") != "tournament":
            raise DamagedFile(path, "stripped: no events table")
        return data, changed, None
    try:
        docs = schema.sorted_event_docs(data)
        fault = verify_chain(docs)
    except (KeyError, TypeError, AttributeError) as exc:
        fault = Phrase("malformed event ({error})", error=repr(exc))
    if fault:
        raise DamagedFile(path, "broken event chain: {fault}", fault=fault)
    changed_meta = schema.signed_meta_fault(meta, docs)
    if changed_meta:
        raise DamagedFile(
            path,
            "the file's meta ({fields}) is not what its first signed event records "
            "(edited by hand?)",
            fields=changed_meta,
        )
    if "head" in data:
        head_fault = _head_fault((data.get("head") or {}).get("1"), docs, meta)
        if head_fault:
            raise DamagedFile(path, head_fault)
    return data, changed, docs


def validate_bytes(raw: bytes, path: Path) -> dict:
    """Validate the content of a file (either format) read as ``raw``."""
    return validate_data(parse_file_bytes(raw, Path(path)), Path(path))[0]


def validate_file(path: Path) -> dict:
    """Return the parsed (migrated) data or raise :class:`DamagedFile`."""
    return validate_data(load_json_file(path), Path(path))[0]
