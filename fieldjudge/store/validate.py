"""Validate any fieldjudge file (tournament, game, quidditch match) without opening it for
writing: format, schema version, and for event logs the hash chain and the head record
(event count, head hash, owner)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fieldjudge.rules.events import (
    GENESIS_HASH,
    ChainReader,
    Event,
    stored_doc,
    verify_chain,
)
from fieldjudge.rules.messages import Phrase
from fieldjudge.store import lines, schema
from fieldjudge.store.errors import DamagedFile
from fieldjudge.store.storage import (
    load_json_file,
    parse_file_bytes,
    read_lines_or_bytes,
    tables_of,
)


def _head_fault(
    head: Any, meta: dict[str, Any], held: int, last: str, moves: Sequence[Mapping[str, Any]]
) -> Phrase | None:
    """The fault of the head record of a file holding ``held`` events, the last with the
    hash ``last``; ``moves``: its event documents, or at least every one of type
    :data:`schema.HANDOVER` (the owner is the meta's, moved along them)."""
    if not isinstance(head, dict):
        return Phrase("the head record is not an object")
    count, hh = head.get("count"), head.get("hash")
    if not isinstance(count, int) or not isinstance(hh, str):
        return Phrase("the head record has no event count or hash")
    if count > held:
        return Phrase(
            "truncated: the head records {count} events, the file holds {held}",
            count=count,
            held=held,
        )
    if count < held:
        return Phrase(
            "the file holds {held} events, its head records only {count}",
            held=held,
            count=count,
        )
    if hh != last:
        return Phrase(
            "the head hash {head}… is not the last event's hash {last}…",
            head=hh[:12],
            last=last[:12],
        )
    owner = schema.owner_of(meta, moves)
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
        last = docs[-1]["hash"] if docs else GENESIS_HASH
        head_fault = _head_fault((data.get("head") or {}).get("1"), meta, len(docs), last, docs)
        if head_fault:
            raise DamagedFile(path, head_fault)
    return data, changed, docs


class OnePass:
    """A log file read in one pass, each event checked and made as its line comes
    (:meth:`read`): the file is never held as a table of documents beside its events, so
    an open's peak memory is about what it keeps (issue 24).

    Only a file whose events were each appended once, in order, is read so; anything else
    (an event deleted, set twice or out of order, a chain, meta or head fault, a schema
    to migrate, a malformed document) is left to :func:`validate_log_data`, which names
    its fault: the one-pass read accepts exactly the files the full read accepts, with
    the same events."""

    def __init__(self, make: bool = True) -> None:
        """``make``: make the events (False: only check the file, e.g. a backup's)."""
        self.chain = ChainReader(make, schema.HANDOVER)

    @classmethod
    def read(cls, path: Path, make: bool = True) -> tuple[lines.Replay | bytes, OnePass | None]:
        """The file's content, and its events when read in one pass (None: the content
        is the full replay, or bytes, to check as before)."""
        one = cls(make)
        try:
            content = read_lines_or_bytes(path, one.chain.take)
            if isinstance(content, bytes):
                return content, None
            if not one.chain.done():
                raise lines.NotInOrder("events")
            one.check(content, path)
        except Exception:  # noqa: BLE001 - any fault at all: the full read names it
            return read_lines_or_bytes(path), None
        content.taken = one.chain.count
        return content, one

    @property
    def events(self) -> list[Event]:
        return self.chain.events

    @property
    def odd(self) -> dict[int, Mapping[str, Any]]:
        """``seq -> document`` of the events that do not give their document back."""
        return self.chain.odd

    @property
    def docs(self) -> Sequence[Mapping[str, Any]]:
        """The event documents, in order, each made again when asked: equal to the ones
        read (:func:`stored_doc`, or the odd one as read), never all held at once."""
        return EventDocs(self.events, self.odd)

    def check(self, rp: lines.Replay, path: Path) -> None:
        """What :func:`validate_log_data` checks beside the chain (checked as it came)."""
        lines.require_log_tables(rp.data, rp.schema, path)
        data, changed = schema.migrate(rp.data, path)
        if changed:
            raise lines.NotInOrder("migrate")
        meta = schema.meta_of(data) or {}
        head = (data.get("head") or {}).get("1")
        chain = self.chain
        if schema.signed_meta_fault(meta, chain.first) or _head_fault(
            head, meta, chain.count, chain.last, chain.marked
        ):
            raise lines.NotInOrder("meta or head")


class EventDocs(Sequence[Mapping[str, Any]]):
    """:attr:`OnePass.docs`."""

    def __init__(self, events: list[Event], odd: Mapping[int, Mapping[str, Any]]) -> None:
        self._events, self._odd = events, odd

    def __len__(self) -> int:
        return len(self._events)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        e = self._events[i]
        doc = self._odd.get(e.seq)
        return stored_doc(e) if doc is None else doc


def read_checked(path: Path) -> tuple[dict[str, Any], OnePass | None]:
    """``validate_data(load_json_file(path), path)``'s tables, read in one pass when the
    file allows it: then its events are the :class:`OnePass`'s, not in the tables."""
    content, one = OnePass.read(path)
    if one is not None and not isinstance(content, bytes):
        return content.data, one
    return validate_data(tables_of(content, path), path)[0], None


def check_file(path: Path) -> None:
    """:func:`validate_file` without keeping what it reads: a file checked in one pass
    holds one line at a time (a backup's check, issue 24)."""
    content, one = OnePass.read(path, make=False)
    if one is None:
        validate_data(tables_of(content, path), path)


def validate_bytes(raw: bytes, path: Path) -> dict:
    """Validate the content of a file (either format) read as ``raw``."""
    return validate_data(parse_file_bytes(raw, Path(path)), Path(path))[0]


def validate_file(path: Path) -> dict:
    """Return the parsed (migrated) data or raise :class:`DamagedFile`."""
    return validate_data(load_json_file(path), Path(path))[0]
