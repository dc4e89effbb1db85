"""Files that anchor a tournament's logs (DESIGN.md "Anchored, signed logs").

- ``laptops/<laptop_id>/heads.jsonl``: the manifest of game heads that laptop wrote, one
  fsync'd JSON line per protocol step (append-only, one writer: that laptop)::

      {"kind": "games", "id": "<game id>", "count": 12, "hash": "<head hash>",
       "step": "protocol_submitted", "at": "<UTC ISO>", "laptop": "<id>",
       "line": 7, "prev": "<sha256 of line 6's canonical JSON>", "sig": "<b64>"}

  ``sig`` is the laptop's signature (made by the services; the store holds no keys) of the
  head and of ``line``/``prev``: a line removed, changed or inserted breaks the chain.
  Lines written before the chain (no ``line``) are read as they are; new lines chain from
  them. Deleting the newest lines keeps a valid chain: the writing laptop's local cache
  remembers how long its manifest was (``.cache/index.json``).
- ``tournament.sig`` beside ``tournament.json``: the head judge's signature of the
  canonical JSON of ``tournament.json`` ``{"hash", "sig", "key"}``.

The store only reads and writes these files; checking signatures is the services' job.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import orjson

from fieldjudge.store.auth_log import LAPTOPS_DIR
from fieldjudge.store.errors import DamagedFile
from fieldjudge.store.storage import (
    append_line,
    atomic_write_bytes,
    files_stamp,
    load_json_file,
)

HEADS_FILE = "heads.jsonl"
LAPTOP_FILE = "laptop.json"
SIG_FILE = "tournament.sig"
TOURNAMENT_FILE = "tournament.json"


def heads_path(folder: Path, laptop_id: str) -> Path:
    return Path(folder) / LAPTOPS_DIR / laptop_id / HEADS_FILE


def append_head(folder: Path, laptop_id: str, entry: dict[str, Any]) -> None:
    """Append one manifest line durably (fsync'd before returning)."""
    append_line(heads_path(folder, laptop_id), orjson.dumps(entry))


def read_own_heads(folder: Path, laptop_id: str) -> bytes:
    """One laptop's manifest as it is on disk (b"" when it has none yet)."""
    try:
        return heads_path(folder, laptop_id).read_bytes()
    except FileNotFoundError:
        return b""


def read_heads(folder: Path) -> dict[str, list[tuple[int, dict[str, Any] | None]]]:
    """Every laptop's manifest lines ``(line number, entry or None if not valid JSON)``;
    a torn last line (never acknowledged) is left out."""
    root = Path(folder) / LAPTOPS_DIR
    out: dict[str, list[tuple[int, dict[str, Any] | None]]] = {}
    if not root.is_dir():
        return out
    for path in sorted(root.glob(f"*/{HEADS_FILE}")):
        try:
            raw = path.read_bytes()
        except OSError:
            continue
        out[path.parent.name] = parse_heads(raw)
    return out


def parse_heads(raw: bytes) -> list[tuple[int, dict[str, Any] | None]]:
    """A manifest's lines ``(line number, entry or None)``; a torn last line left out."""
    lines = raw.split(b"\n")
    if lines and lines[-1] != b"":
        lines = lines[:-1]
    rows: list[tuple[int, dict[str, Any] | None]] = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            doc = orjson.loads(line)
        except orjson.JSONDecodeError:
            doc = None
        rows.append((n, doc if isinstance(doc, dict) else None))
    return rows


def read_laptops(folder: Path) -> dict[str, dict[str, Any]]:
    """{laptop id: {"laptop": laptop.json doc, "heads": heads.jsonl text}} of a folder
    (for an export, or a merge of another laptop's folder)."""
    root = Path(folder) / LAPTOPS_DIR
    out: dict[str, dict[str, Any]] = {}
    if not root.is_dir():
        return out
    for sub in sorted(p for p in root.iterdir() if p.is_dir()):
        entry: dict[str, Any] = {}
        doc = read_laptop_file(folder, sub.name)
        if doc is not None:
            entry["laptop"] = doc
        try:
            entry["heads"] = (sub / HEADS_FILE).read_bytes().decode("utf-8", "replace")
        except OSError:
            pass
        if entry:
            out[sub.name] = entry
    return out


def heads_stamp(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """(name, size, mtime_ns) of every manifest: changes when any laptop appends."""
    return files_stamp(os.path.join(folder, LAPTOPS_DIR), HEADS_FILE)


def read_laptop_file(folder: Path, laptop_id: str) -> dict[str, Any] | None:
    """``laptops/<id>/laptop.json`` parsed, or None when missing or unreadable."""
    path = Path(folder) / LAPTOPS_DIR / laptop_id / LAPTOP_FILE
    try:
        doc = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    return doc if isinstance(doc, dict) else None


def laptop_files(folder: Path) -> dict[str, dict[str, Any] | None]:
    """{laptop id: its laptop.json (None: unreadable)} for every laptop folder."""
    root = Path(folder) / LAPTOPS_DIR
    if not root.is_dir():
        return {}
    return {
        p.parent.name: read_laptop_file(folder, p.parent.name)
        for p in sorted(root.glob(f"*/{LAPTOP_FILE}"))
    }


def canonical_digest(data: Any) -> str:
    """sha256 of the canonical JSON (sorted keys) of parsed file content."""
    return hashlib.sha256(orjson.dumps(data, option=orjson.OPT_SORT_KEYS)).hexdigest()


def tournament_digest(folder: Path) -> str:
    """The digest the head judge signs: canonical JSON of ``tournament.json`` as on disk."""
    return canonical_digest(load_json_file(Path(folder) / TOURNAMENT_FILE))


def read_tournament_sig(folder: Path) -> dict[str, Any] | None:
    path = Path(folder) / SIG_FILE
    if not path.exists():
        return None
    doc = load_json_file(path)
    if not isinstance(doc, dict):
        raise DamagedFile(path, "not a signature record")
    return doc


def write_tournament_sig(folder: Path, doc: dict[str, Any]) -> None:
    atomic_write_bytes(Path(folder) / SIG_FILE, orjson.dumps(doc, option=orjson.OPT_SORT_KEYS))
