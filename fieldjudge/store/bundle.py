"""The complete JSON export: the tournament file and every game and match log with its
whole event chain, from which an identical folder can be rebuilt (the tests do)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from fieldjudge.store import DamagedFile
from fieldjudge.store.anchors import SIG_FILE, read_laptops
from fieldjudge.store.storage import load_json_file
from fieldjudge.store.tournament import MARKER_DIR, TOURNAMENT_FILE
from fieldjudge.store.validate import validate_data, validate_log_data

FORMAT = "fieldjudge-export"
VERSION = 1
LOG_FOLDERS = ("games", "quidditch")


def log_to_doc(data: dict[str, Any], events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A log file's TinyDB tables → {meta, events: [by seq]} (``events``: already in that
    order, as the chain check sorted them)."""
    meta = (data.get("meta") or {}).get("1") or {}
    if events is None:
        events = sorted((data.get("events") or {}).values(), key=lambda d: d.get("seq", 0))
    return {"meta": meta, "events": events}


def doc_to_log(doc: dict[str, Any]) -> dict[str, Any]:
    """The inverse of :func:`log_to_doc`: TinyDB tables keyed like the store writes them."""
    events = doc.get("events") or []
    return {
        "meta": {"1": dict(doc.get("meta") or {})},
        "events": {str(i + 1): e for i, e in enumerate(events)},
    }


def read_laptops_of(folder: Path) -> dict[str, dict[str, Any]]:
    """The laptops' registrations and manifests, and each laptop's marker-check logs of
    games it does not own (``"marker_checks": {game id: log doc}``; a damaged one is left
    out here and named by ``verify``)."""
    out = read_laptops(folder)
    root = Path(folder) / "laptops"
    for path in sorted(root.glob(f"*/{MARKER_DIR}/*.json")) if root.is_dir() else []:
        try:
            doc = read_log_file(path)
        except DamagedFile:
            continue
        entry = out.setdefault(path.parent.parent.name, {})
        entry.setdefault("marker_checks", {})[path.stem] = doc
    return out


def read_log_file(path: Path) -> dict[str, Any]:
    """Validated (JSON, schema, chain) content of one log file, as a doc."""
    data, _changed, docs = validate_log_data(load_json_file(path), Path(path))
    return log_to_doc(data, docs or [])


def _head(folder: Path, now: datetime | None) -> dict[str, Any]:
    """The export without its logs: the tournament file, the laptops' registrations and
    manifests, the head judge's signature of ``tournament.json``."""
    tournament, _ = validate_data(
        load_json_file(folder / TOURNAMENT_FILE), folder / TOURNAMENT_FILE
    )
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": (now or datetime.now(UTC)).isoformat(),
        "tournament": tournament,
    }
    # who signed: the laptops' registrations and manifests, the head judge's signature of
    # tournament.json (public data only: no key ever leaves its laptop)
    out["laptops"] = read_laptops_of(folder)
    sig = folder / SIG_FILE
    if sig.exists():
        out["tournament_sig"] = load_json_file(sig)
    return out


def _log_paths(folder: Path, sub: str) -> list[Path]:
    """The log files of ``folder/sub``, in the order of their keys in the export."""
    return sorted((folder / sub).glob("*.json"), key=lambda p: p.stem)


def build_bundle(
    folder: Path, now: datetime | None = None, only_game: str | None = None
) -> dict[str, Any]:
    """The complete export of a folder, every log file checked (JSON, schema, chain);
    ``only_game``: with that game's log only (no other game's, no match's)."""
    folder = Path(folder)
    out = _head(folder, now)
    if only_game is not None:
        out["games"] = {only_game: read_log_file(folder / "games" / f"{only_game}.json")}
        out["quidditch"] = {}
        return out
    for sub in LOG_FOLDERS:
        out[sub] = {p.stem: read_log_file(p) for p in _log_paths(folder, sub)}
    return out


_OPTIONS = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS


def dumps(bundle: dict[str, Any]) -> bytes:
    """The export file's bytes."""
    return orjson.dumps(bundle, option=_OPTIONS)


def _nested(raw: bytes, depth: int) -> bytes:
    """``raw`` (indented JSON) as the value of a key ``depth`` levels deep (JSON text
    holds no raw newline but the indentation's)."""
    return raw.replace(b"\n", b"\n" + b"  " * depth)


def bundle_parts(folder: Path, now: datetime | None = None) -> Iterator[bytes]:
    """The bytes of ``dumps(build_bundle(folder, now))``, made a log at a time as they are
    written: one log file read (and checked) at a time, never every log in memory (a
    tournament of a thousand games)."""
    folder = Path(folder)
    head = _head(folder, now)
    logs = {sub: _log_paths(folder, sub) for sub in LOG_FOLDERS}
    yield b"{"
    for i, key in enumerate(sorted([*head, *logs])):
        yield (b",\n  " if i else b"\n  ") + orjson.dumps(key) + b": "
        if key in head:
            yield _nested(orjson.dumps(head[key], option=_OPTIONS), 1)
            continue
        if not logs[key]:
            yield b"{}"
            continue
        for j, path in enumerate(logs[key]):
            doc = orjson.dumps(read_log_file(path), option=_OPTIONS)
            yield (b"{\n    " if j == 0 else b",\n    ") + orjson.dumps(path.stem) + b": "
            yield _nested(doc, 2)
        yield b"\n  }"
    yield b"\n}"


def load_bundle(path: Path) -> dict[str, Any]:
    """Parse and check an export file; DamagedFile names what is wrong."""
    path = Path(path)
    data = load_json_file(path)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DamagedFile(path, "not a fieldjudge JSON export")
    if data.get("version") != VERSION:
        raise DamagedFile(
            path, "export version {version} is not supported", version=repr(data.get("version"))
        )
    t = data.get("tournament")
    if not isinstance(t, dict):
        raise DamagedFile(path, "the export holds no tournament")
    validate_data(t, path)
    for sub in LOG_FOLDERS:
        logs = data.get(sub) or {}
        if not isinstance(logs, dict):
            raise DamagedFile(path, "{where}: not an object", where=sub)
        for key, doc in logs.items():
            try:
                validate_data(doc_to_log(doc), Path(f"{sub}/{key}.json"))
            except DamagedFile as exc:
                raise DamagedFile(
                    path, "{where}: {fault}", where=f"{sub}/{key}", fault=exc.fault
                ) from exc
            except (AttributeError, TypeError) as exc:
                raise DamagedFile(
                    path, "{where}: malformed ({error})", where=f"{sub}/{key}", error=str(exc)
                ) from exc
    return data
