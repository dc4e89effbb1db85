"""The line format of game and match files (DESIGN.md "Storage": constant-cost appends).

A file is JSON lines, each ending in ``\\n``::

    {"format":"fieldjudge-lines","version":1,"schema":2}                 <- header, line 1
    {"set":{"meta":{"1":{...}},"events":{},"head":{"1":{"count":0,...}}}}  <- creation
    {"set":{"events":{"1":{...}},"head":{"1":{"count":1,"hash":"..."}}}}   <- one per write
    {"set":{...},"del":{"table":["id",...]}}                              <- generic change

Replaying the records in order gives TinyDB's tables (``set`` replaces whole documents,
``del`` removes them). Only a line that ends in a newline and parses counts: a write is
acknowledged after its line and newline are fsync'd, so an unterminated last line is a
write that was cut off and is ignored (and trimmed before the next append). A complete
line that does not parse is damage, never skipped. Compaction rewrites the live documents
atomically (temp file, fsync, rename, fsync folder) when dead records outweigh live ones.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from fieldjudge.store.errors import DamagedFile

FORMAT = "fieldjudge-lines"
VERSION = 1
HEADER_PREFIX = b'{"format":"fieldjudge-lines"'
#: documents per line when a whole file is written (creation, compaction, migration): a
#: line is parsed at once, and orjson's parser holds about 15 times the line's size while
#: it does (a 300-event game on one line: 2.6 MB for 170 kB); 100 keeps that under 1 MB
CHUNK = 100

Data = dict[str, dict[str, Any]]


@dataclass
class Replay:
    """What reading a line file gave: the tables and where the good records end."""

    data: Data
    schema: int
    end: int  # byte offset just after the last complete record
    size: int  # bytes read, a cut-off last line included
    records: int  # document records in the file (each ``set`` or ``del`` entry)
    #: documents of the events table its reader took as they came (not in ``data``)
    taken: int = 0


#: a reader of the events table as a file is replayed: gets each record's documents of
#: it (key -> document, in the record's order); False to give up (:class:`NotInOrder`)
TakeEvents = Callable[[dict[str, Any]], bool]


class NotInOrder(Exception):
    """A file whose events are not each appended once, in order (deleted, set twice, out
    of order, or failing their chain check): a one-pass read gives it to the full one,
    which names any fault."""


def is_lines(raw: bytes) -> bool:
    return raw.startswith(HEADER_PREFIX)


def header_bytes(schema: int) -> bytes:
    return orjson.dumps({"format": FORMAT, "version": VERSION, "schema": schema}) + b"\n"


def record_bytes(sets: Mapping[str, Any], dels: Mapping[str, list[str]] | None = None) -> bytes:
    rec: dict[str, Any] = {"set": sets}
    if dels:
        rec["del"] = dels
    return orjson.dumps(rec) + b"\n"


def _chunks(data: Mapping[str, Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    """Small tables (meta, head) in the first record, big ones CHUNK documents a line."""
    first: dict[str, Any] = {}
    big = []
    for table, docs in data.items():
        if len(docs) <= CHUNK:
            first[table] = dict(docs)
        else:
            first[table] = {}
            big.append((table, docs))
    yield first
    for table, docs in big:
        items = list(docs.items())
        for i in range(0, len(items), CHUNK):
            yield {table: dict(items[i : i + CHUNK])}


def file_bytes(data: Mapping[str, Mapping[str, Any]], schema: int) -> bytes:
    """A whole file holding ``data`` (one record per chunk, no dead records)."""
    return header_bytes(schema) + b"".join(record_bytes(s) for s in _chunks(data))


def apply_record(rec: Any, data: Data, take: TakeEvents | None = None) -> int | None:
    """Apply one parsed record to ``data``; the number of document records, or None if
    ``rec`` is not a change record (then ``data`` is unchanged). Every line of a file
    passes here when it is opened: plain loops, no set or generator per record.
    ``take``: given the events table's documents instead of ``data`` (which gets the
    table, empty); a record deleting events raises :class:`NotInOrder`."""
    if not isinstance(rec, dict) or not rec or not rec.keys() <= _RECORD_KEYS:
        return None
    sets = rec.get("set", _NOTHING)
    dels = rec.get("del", _NOTHING)
    if not isinstance(sets, dict) or not isinstance(dels, dict):
        return None
    for docs in sets.values():
        if not isinstance(docs, dict):
            return None
        for d in docs.values():
            if not isinstance(d, dict):
                return None
    for ids in dels.values():
        if not isinstance(ids, list):
            return None
        for i in ids:
            if not isinstance(i, str):
                return None
    n = 0
    for table, docs in sets.items():
        if take is not None and table == "events":
            if not take(docs):
                raise NotInOrder(table)
            data.setdefault(table, {})
            n += len(docs)
            continue
        t = data.get(table)
        if t is None:
            data[table] = dict(docs)
        else:
            t.update(docs)
        n += len(docs)
    for table, ids in dels.items():
        if take is not None and table == "events":
            raise NotInOrder(table)
        t = data.get(table, {})
        for i in ids:
            t.pop(i, None)
        n += len(ids)
    return n


_RECORD_KEYS = frozenset({"set", "del"})
_NOTHING: dict[str, Any] = {}  # an absent "set" or "del" (only read)


def replay(raw: bytes, path: Path) -> Replay:
    """Parse a line file. Raises :class:`DamagedFile` naming the line at fault; an
    unterminated last line is a cut-off write and is left out, never an error."""
    return replay_lines(io.BytesIO(raw), path)


def replay_lines(source: Iterable[bytes], path: Path, take: TakeEvents | None = None) -> Replay:
    """:func:`replay` of a file's lines (each with its newline, as iterating a binary
    file gives them): a file read this way is never in memory whole beside its tables
    (an open's peak memory, issue 24). ``take``: as :func:`apply_record`'s (the events
    are then not in the tables: the reader sets ``taken``)."""
    it = iter(source)
    first = next(it, b"")
    if not first:
        raise DamagedFile(path, "empty file (0 bytes)")
    if not first.endswith(b"\n"):
        raise DamagedFile(path, "no complete header line: the file is cut short")
    try:
        header = orjson.loads(first)
    except orjson.JSONDecodeError:
        raise DamagedFile(path, "line 1: the header is not valid JSON") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise DamagedFile(path, "line 1 is not a fieldjudge header")
    if header.get("version") != VERSION:
        raise DamagedFile(
            path,
            "line format version {version} is not supported (this fieldjudge reads version "
            "{supported})",
            version=repr(header.get("version")),
            supported=VERSION,
        )
    schema = header.get("schema")
    if not isinstance(schema, int):
        raise DamagedFile(path, "line 1: the header has no schema version")
    data: Data = {}
    records = 0
    size = end = len(first)
    lineno = 1
    for line in it:
        size += len(line)
        if not line.endswith(b"\n"):
            break  # a cut-off last line: its write was never acknowledged
        lineno += 1
        try:
            rec = orjson.loads(line)
        except orjson.JSONDecodeError:
            raise DamagedFile(
                path,
                "line {line} is not valid JSON (a damaged record, not a cut-off end)",
                line=lineno,
            ) from None
        n = apply_record(rec, data, take)
        if n is None:
            raise DamagedFile(path, "line {line} is not a change record", line=lineno)
        records += n
        end = size
    return Replay(data, schema, end, size, records)


def require_log_tables(data: Data, schema: int, path: Path) -> None:
    """A game or match file must hold its meta, head and events (it is never "new")."""
    if not (data.get("meta") or {}).get("1"):
        raise DamagedFile(path, "stripped: no meta record")
    if (data["meta"]["1"].get("schema")) != schema:
        raise DamagedFile(
            path,
            "the header says schema {header}, the meta record {meta}",
            header=schema,
            meta=repr(data["meta"]["1"].get("schema")),
        )
    if "events" not in data:
        raise DamagedFile(path, "stripped: no events table")
    if not (data.get("head") or {}).get("1"):
        raise DamagedFile(path, "stripped: no head record (event count and hash)")
