"""One game's (or quidditch match's) append-only, hash-chained event log.

The file is in the line format (:mod:`fieldjudge.store.lines`, schema 2): each append writes
ONE fsync'd line holding the event and the updated head record ``{count, hash, owner}``, so
an append costs the same at 100 or 50,000 events. Opening checks the schema, the chain and
that the head matches the events; anything else is a :class:`DamagedFile`, never rewritten.
A file of schema 1 (one JSON object) is migrated on open.

Signatures: an event may carry ``sig`` (the caller's signature of its ``hash``) and
``signer`` (the key id); both sit beside the hash, outside the hashed content. The store
never holds keys: the caller passes ``sign``, a callable hash -> signature.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tinydb import TinyDB

from fieldjudge.rules.events import (
    GENESIS_HASH,
    VOID,
    Event,
    compute_hash,
    read_events,
    stored_doc,
)
from fieldjudge.rules.ownership import current_owner
from fieldjudge.store import lines, schema
from fieldjudge.store.errors import DamagedFile, NotTheWriter, Refused, WriteKey
from fieldjudge.store.storage import (
    LineStorage,
    atomic_write_bytes,
    make_dirs,
    parse_file_bytes,
    read_file_bytes,
)
from fieldjudge.store.validate import OnePass, validate_data, validate_log_data

HANDOVER = schema.HANDOVER


def utc_now() -> datetime:
    return datetime.now(UTC)


def write_log_file(path: Path, data: dict[str, Any]) -> bytes:
    """Write validated log tables (``{"meta", "events"[, "head"]}``, e.g. a merged or
    imported log) as a whole line-format file, atomically; a missing head is made from the
    last event. Returns the bytes written."""
    payload = log_file_bytes(data)
    atomic_write_bytes(Path(path), payload)
    return payload


def log_file_bytes(data: dict[str, Any]) -> bytes:
    """The line-format bytes of validated log tables (a missing head made from the last
    event): what :func:`write_log_file` writes."""
    data = dict(data)
    meta = dict(schema.meta_of(data) or {})
    meta["schema"] = schema.LOG_SCHEMA
    data["meta"] = {"1": meta}
    if "head" not in data:
        data["head"] = {"1": schema.head_of(meta, schema.sorted_event_docs(data))}
    return lines.file_bytes(data, schema.LOG_SCHEMA)


@dataclass(frozen=True)
class ReadLog:
    """A log read once and not kept (a summary, an export, the pit): its meta and events,
    the file checked as :meth:`EventLog.open` checks it (schema, chain, signed meta,
    head). It holds no file and appends nothing: what a read needs, without the tables an
    open log keeps for its appends (issue 24)."""

    path: Path
    meta: dict[str, Any]
    events: list[Event]
    #: the laptop whose file it is, as its head record says (``EventLog.owner``)
    owner: str | None = None

    @classmethod
    def read(cls, path: Path) -> ReadLog | None:
        """The log in ``path``, read and checked (:class:`DamagedFile` otherwise); None
        for a file in an older format, which :meth:`EventLog.open` migrates."""
        path = Path(path)
        rp, one = OnePass.read(path)
        if isinstance(rp, bytes):
            return None
        if one is not None:
            meta = dict((rp.data.get("meta") or {}).get("1") or {})
            return cls(path, meta, one.events, head_owner(rp.data))
        lines.require_log_tables(rp.data, rp.schema, path)
        data, changed, docs = validate_log_data(rp.data, path)
        if changed or docs is None:
            return None
        meta = dict((data.get("meta") or {}).get("1") or {})
        return cls(path, meta, read_events(docs), head_owner(data))


def head_owner(data: Mapping[str, Any]) -> str | None:
    """The owner a log file's head record names (its tables as read), None when none."""
    owner = ((data.get("head") or {}).get("1") or {}).get("owner")
    return owner if isinstance(owner, str) else None


class EventLog:
    """Open with :meth:`open` (verifies schema, chain and head) or :meth:`create`.

    A log opened with a ``key`` (every log of a tournament: ``Tournament.game_log``) appends
    only when given the same key, which only the services hold: they check the rules and
    the authority first. A bare log (no key, no tournament) is the store's own unit."""

    def __init__(
        self,
        path: Path,
        db: TinyDB,
        key: WriteKey | None = None,
        docs: list[dict[str, Any]] | None = None,
        one: OnePass | None = None,
    ):
        """``docs``: the event documents in order of ``seq``, when the caller has them;
        ``one``: the events themselves, when the file was read in one pass (the storage
        then holds none of them)."""
        self.path = Path(path)
        self._db = db
        self._key = key
        self._storage: LineStorage = db.storage  # type: ignore[assignment]
        data = self._storage.data() or {}
        self.meta: dict[str, Any] = dict((data.get("meta") or {}).get("1") or {})
        # The events are the documents: the storage does not hold them a second time (a
        # game's memory is its events, once). A document an event does not give back
        # exactly (fields fieldjudge never writes) is kept as read, for a rewrite.
        self._odd: dict[int, Mapping[str, Any]] = {}
        if one is not None:
            self._odd, self.events = one.odd, one.events
        else:
            if docs is None:
                docs = schema.sorted_event_docs(data)
            self.events = read_events(docs, self._odd)
        self._head: dict[str, Any] = dict((data.get("head") or {}).get("1") or {})
        self._storage.lend("events", self._event_docs)
        # id -> its first event, and the later ones of an id held twice (a log made
        # elsewhere: every event appended here has a new id), kept as events are appended:
        # finding a void's target never walks the log
        # (from the last event back, so the first of an id is the one kept)
        self._first: dict[str, Event] = {e.id: e for e in reversed(self.events)}
        self._again: dict[str, list[Event]] = {}
        if len(self._first) < len(self.events):  # an id held twice
            self._first = {}
            for e in self.events:
                self._index(e)

    @classmethod
    def create(
        cls,
        path: Path,
        kind: str,
        meta: Mapping[str, Any],
        *,
        owner: str | None = None,
        key: WriteKey | None = None,
    ) -> EventLog:
        """A new file with no events. ``owner`` (or ``meta["owner"]``) is the id of the
        laptop that owns the game; only a hand-over event changes it later."""
        path = Path(path)
        if path.exists():
            raise FileExistsError(path)
        make_dirs(path.parent)
        doc = {"schema": schema.LOG_SCHEMA, "kind": kind, **meta}
        if owner is not None:
            doc["owner"] = owner
        doc.setdefault("owner", None)
        head = schema.head_of(doc, [])
        db = TinyDB(path, storage=LineStorage, create=True)
        db.storage.create_file(  # type: ignore[attr-defined]
            {"meta": {"1": doc}, "events": {}, "head": {"1": head}}, schema.LOG_SCHEMA
        )
        return cls(path, db, key)

    @classmethod
    def open(
        cls,
        path: Path,
        *,
        key: WriteKey | None = None,
        rewrite: bool = True,
    ) -> EventLog:
        """Open and verify (whether the file reaches its manifest's head is the tournament's
        check: ``store.tournament.anchor_fault``). ``rewrite=False`` (a reader: export,
        verify, the pit): an old-format file is read as it is, migrated in memory only,
        never rewritten."""
        path = Path(path)
        content, one = OnePass.read(path)
        docs = None  # the events as the chain check saw them, when they are the file's
        if one is not None:
            rp = content  # checked as it was read: its events are ``one``'s
        elif not isinstance(content, bytes):
            rp = content
            lines.require_log_tables(rp.data, rp.schema, path)
            data, changed, docs = validate_log_data(rp.data, path)
            if changed:  # a future schema step: rewrite in the new version
                payload = lines.file_bytes(data, schema.LOG_SCHEMA)
                if rewrite:
                    atomic_write_bytes(path, payload)
                rp = lines.replay(read_file_bytes(path) if rewrite else payload, path)
                docs = None
        else:
            data, _changed = validate_data(parse_file_bytes(content, path), path)
            if (data.get("meta") or {}).get("1", {}).get("kind") == "tournament":
                raise DamagedFile(path, "a tournament file, not a game or match log")
            # Migration (schema 1, one JSON object; or an object written by a merge or an
            # import, whose head is its last event): rewrite once in the line format (by
            # the app only: a reader migrates in memory).
            rp = lines.replay(write_log_file(path, data) if rewrite else log_file_bytes(data), path)
        db = TinyDB(path, storage=LineStorage)
        db.storage.prime(rp)  # type: ignore[attr-defined]
        return cls(path, db, key, docs, one)

    # -- reading -----------------------------------------------------------------------
    @property
    def last_hash(self) -> str:
        return self.events[-1].hash if self.events else GENESIS_HASH

    @property
    def head(self) -> dict[str, Any]:
        """``{"count", "hash", "owner"}`` as recorded in the file."""
        return dict(self._head)

    @property
    def owner(self) -> str | None:
        return self._head.get("owner")

    def by_id(self, event_id: str) -> Event | None:
        """The first event of the id, or None (a look-up, not a walk of the log)."""
        return self._first.get(event_id)

    def with_id(self, event_id: str) -> list[Event]:
        """Every event of the id, in log order (one, but for a log made elsewhere)."""
        first = self._first.get(event_id)
        if first is None:
            return []
        return [first, *self._again.get(event_id, ())]

    def _event_docs(self) -> dict[str, Mapping[str, Any]]:
        """The events table as the file holds it (for a compaction)."""
        odd = self._odd
        return {str(e.seq): odd.get(e.seq) or stored_doc(e) for e in self.events}

    def _index(self, event: Event) -> None:
        if self._first.setdefault(event.id, event) is not event:
            self._again.setdefault(event.id, []).append(event)

    # -- writing -----------------------------------------------------------------------
    def append(
        self,
        type: str,
        data: Mapping[str, Any] | None = None,
        *,
        judge: str = "",
        game_clock_ms: int | None = None,
        wall_time: datetime | None = None,
        signer: str | None = None,
        sign: Callable[[str], str] | None = None,
        hj_key: str | None = None,
        hj_sign: Callable[[str], str] | None = None,
        key: WriteKey | None = None,
    ) -> Event:
        """Append one event durably (one fsync'd line: the event and the new head);
        returns it once it is on disk. ``sign(hash) -> signature`` and ``signer`` (key
        id) add a signature beside the hash. A :data:`HANDOVER` event
        (``data = {"from_laptop", "to_laptop"}``) moves the file's owner in the same line
        (as ``rules.ownership.current_owner`` does). Raises :class:`NotTheWriter` without
        the key this log was opened with."""
        self._check_key(key)
        data = dict(data or {})
        if (sign is None) != (signer is None) or (hj_sign is None) != (hj_key is None):
            raise ValueError("sign and signer (hj_sign and hj_key) go together")
        owner = self.owner
        if type == HANDOVER:
            move = schema.handover_of(data)
            if move is None:
                raise ValueError("a hand-over event names from_laptop and to_laptop")
            owner = current_owner(owner, [move])
        when = (wall_time or utc_now()).astimezone(UTC).isoformat()
        seq = len(self.events) + 1
        if seq == 1:  # the first event signs the file's meta (schema.SIGNED_META)
            data[schema.SIGNED_META] = schema.meta_claim(self.meta)
        doc: dict[str, Any] = {
            "id": uuid.uuid4().hex,
            "seq": seq,
            "type": type,
            "game_clock_ms": game_clock_ms,
            "wall_time": when,
            "judge": judge,
            "data": data,
            "prev_hash": self.last_hash,
        }
        doc["hash"] = compute_hash(doc)
        if sign is not None:
            doc["sig"] = sign(doc["hash"])
            doc["signer"] = signer
        if hj_sign is not None:  # the head judge's signature of the same hash (his action)
            doc["hj_sig"] = hj_sign(doc["hash"])
            doc["hj_key"] = hj_key
        head = {"count": seq, "hash": doc["hash"], "owner": owner}
        self._storage.append({"events": {str(seq): doc}, "head": {"1": head}})
        self._head = head
        event = Event.from_doc(doc)
        self.events.append(event)
        self._index(event)
        return event

    def void(
        self,
        target_id: str,
        reason: str,
        *,
        extra: Mapping[str, Any] | None = None,
        **append_kw: Any,
    ) -> Event:
        """A correction: a new event that voids ``target_id`` (the target stays in the log);
        ``extra``: more data (e.g. the head judge's void after the lock); the other keywords
        are :meth:`append`'s (judge, clock, signatures, key)."""
        target = self.by_id(target_id)
        if target is None:
            raise Refused("no event {event} in this game", event=target_id)
        if not reason.strip():
            raise Refused("a correction needs a reason")
        data = {**(extra or {}), "target": target_id, "reason": reason.strip()}
        return self.append(VOID, data | {"target_type": target.type}, **append_kw)

    def _check_key(self, key: WriteKey | None) -> None:
        if self._key is not None and key is not self._key:
            raise NotTheWriter(self.path.name)
        if self._key is None and self.meta.get("tournament_id"):
            raise NotTheWriter(self.path.name)  # a tournament's log opened bare

    def take_file(self, other: EventLog) -> bool:
        """Go on with ``other``, the same file opened again, when it holds exactly this
        log's events: the file was replaced by one with the same content (a laptop put
        its own version of the game back after another laptop's replaced it). Whoever
        holds this log (a live session) appends to the new file from now on. False, and
        ``other`` closed, when it holds anything else."""
        if [e.hash for e in other.events] != [e.hash for e in self.events] or (
            other.head != self.head
        ):
            other.close()
            return False
        old, self._db, self._storage = self._db, other._db, other._storage
        self.meta, self._odd = other.meta, other._odd
        self._storage.lend("events", self._event_docs)  # this log's events are the file's
        old.close()
        return True

    def close(self) -> None:
        self._db.close()
