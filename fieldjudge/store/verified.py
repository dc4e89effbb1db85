"""The local memory of files found as their laptops signed them (``.cache/verified.json``):
for each log file the key (size, mtime) it had, the manifest head it was checked against,
the registrations and head judge key it was checked under, and its verified prefix (event
count, head hash). Like the summary index it is local to this laptop, never synced, never
the source of truth: a record that does not match is ignored and the file checked again.
Written only by the app (the folder lock's holder)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from fieldjudge.store.storage import atomic_write_bytes

VERIFIED_FILE = Path(".cache") / "verified.json"
VERSION = 1


def load_verified(folder: Path) -> dict[str, Any]:
    """{relative path: record}; empty when missing, unreadable or of another version."""
    try:
        doc = orjson.loads((Path(folder) / VERIFIED_FILE).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    if not isinstance(doc, dict) or doc.get("version") != VERSION:
        return {}
    files = doc.get("files")
    return dict(files) if isinstance(files, dict) else {}


def save_verified(folder: Path, files: dict[str, Any]) -> None:
    path = Path(folder) / VERIFIED_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, orjson.dumps({"version": VERSION, "files": files}), durable=False)
