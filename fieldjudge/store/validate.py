"""Validate any fieldjudge file (tournament, game, quidditch match) without opening it for
writing: JSON, schema version, and for event logs the hash chain."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fieldjudge.rules.events import verify_chain
from fieldjudge.store import schema
from fieldjudge.store.errors import DamagedFile
from fieldjudge.store.storage import load_json_file


def validate_data(data: Any, path: Path) -> tuple[dict, bool]:
    """Check parsed file content; return it migrated, and whether migration changed it."""
    if not isinstance(data, dict):
        raise DamagedFile(path, "empty, or the top level is not a JSON object")
    data, changed = schema.migrate(data, path)
    events = data.get("events")
    if events is not None:
        try:
            docs = sorted(events.values(), key=lambda d: d.get("seq", 0))
            fault = verify_chain(docs)
        except (KeyError, TypeError, AttributeError) as exc:
            fault = f"malformed event ({exc!r})"
        if fault:
            raise DamagedFile(path, f"broken event chain: {fault}")
    return data, changed


def validate_file(path: Path) -> dict:
    """Return the parsed (migrated) data or raise :class:`DamagedFile`."""
    return validate_data(load_json_file(path), Path(path))[0]
