"""The local memory of files found as their laptops signed them (``.cache/verified.json``):
for each log file the key (size, mtime) it had, the manifest head it was checked against,
the registrations and head judge key it was checked under, and its verified prefix (event
count, head hash). Like the summary index it is local to this laptop, never synced, never
the source of truth: a record that does not match is ignored and the file checked again.
Written only by the app (the folder lock's holder), authenticated with this laptop's own
key (``mac``: :meth:`~fieldjudge.store.keys.LaptopKeys.local_mac`): a record someone
wrote into the folder by hand, or a memory copied from another laptop, is ignored."""

from __future__ import annotations

import hmac
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from fieldjudge.store.storage import atomic_write_bytes

VERIFIED_FILE = Path(".cache") / "verified.json"
VERSION = 1


def _payload(files: dict[str, Any]) -> bytes:
    return orjson.dumps(files, option=orjson.OPT_SORT_KEYS)


def load_verified(folder: Path, mac: Callable[[bytes], str]) -> dict[str, Any]:
    """{relative path: record}; empty when missing, unreadable, of another version or not
    authenticated by ``mac``."""
    try:
        doc = orjson.loads((Path(folder) / VERIFIED_FILE).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    if not isinstance(doc, dict) or doc.get("version") != VERSION:
        return {}
    files = doc.get("files")
    if not isinstance(files, dict):
        return {}
    if not hmac.compare_digest(str(doc.get("mac", "")), mac(_payload(files))):
        return {}
    return dict(files)


def save_verified(folder: Path, files: dict[str, Any], mac: Callable[[bytes], str]) -> None:
    path = Path(folder) / VERIFIED_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"version": VERSION, "files": files, "mac": mac(_payload(files))}
    atomic_write_bytes(path, orjson.dumps(doc), durable=False)
