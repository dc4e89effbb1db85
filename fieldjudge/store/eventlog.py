"""One game's (or quidditch match's) append-only, hash-chained event log in a TinyDB file."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tinydb import TinyDB

from fieldjudge.rules.events import GENESIS_HASH, VOID, Event, compute_hash
from fieldjudge.store import schema
from fieldjudge.store.errors import NotTheWriter, Refused, WriteKey
from fieldjudge.store.storage import AtomicJSONStorage
from fieldjudge.store.validate import validate_data


def utc_now() -> datetime:
    return datetime.now(UTC)


class EventLog:
    """Open with :meth:`open` (verifies schema and chain) or :meth:`create`.

    A log opened with a ``key`` (every log of a tournament: ``Tournament.game_log``) appends
    only when given the same key, which only the services hold: they check the rules and
    the authority first. A bare log (no key, no tournament) is the store's own unit."""

    def __init__(
        self,
        path: Path,
        db: TinyDB,
        clock: Callable[[], datetime] = utc_now,
        key: WriteKey | None = None,
    ):
        self.path = Path(path)
        self._db = db
        self._key = key
        self._events_table = db.table("events", cache_size=0)
        self.clock = clock
        self.meta: dict[str, Any] = dict(db.table("meta").get(doc_id=1) or {})
        self.events: list[Event] = [Event.from_doc(d) for d in self._sorted_docs()]

    def _sorted_docs(self) -> list[dict[str, Any]]:
        return sorted((dict(d) for d in self._events_table.all()), key=lambda d: d["seq"])

    @classmethod
    def create(
        cls,
        path: Path,
        kind: str,
        meta: Mapping[str, Any],
        clock: Callable[[], datetime] = utc_now,
        key: WriteKey | None = None,
    ) -> EventLog:
        path = Path(path)
        if path.exists():
            raise FileExistsError(path)
        db = TinyDB(path, storage=AtomicJSONStorage)
        doc = {"schema": schema.CURRENT, "kind": kind, **meta}
        db.storage.write({"meta": {"1": doc}, "events": {}})
        db.clear_cache()
        return cls(path, db, clock, key)

    @classmethod
    def open(
        cls, path: Path, clock: Callable[[], datetime] = utc_now, key: WriteKey | None = None
    ) -> EventLog:
        path = Path(path)
        storage_db = TinyDB(path, storage=AtomicJSONStorage, create=False)
        data, changed = validate_data(storage_db.storage.read(), path)  # schema, chain
        if changed:
            storage_db.storage.write(data)
        storage_db.clear_cache()
        return cls(path, storage_db, clock, key)

    # -- reading -----------------------------------------------------------------------
    @property
    def kind(self) -> str:
        return self.meta.get("kind", "")

    @property
    def last_hash(self) -> str:
        return self.events[-1].hash if self.events else GENESIS_HASH

    def by_id(self, event_id: str) -> Event | None:
        return next((e for e in self.events if e.id == event_id), None)

    # -- writing -----------------------------------------------------------------------
    def append(
        self,
        type: str,
        data: Mapping[str, Any] | None = None,
        *,
        judge: str = "",
        game_clock_ms: int | None = None,
        wall_time: datetime | None = None,
        key: WriteKey | None = None,
    ) -> Event:
        """Append one event durably; returns it once it is on disk. Raises
        :class:`NotTheWriter` without the key this log was opened with."""
        self._check_key(key)
        data = dict(data or {})
        when = (wall_time or self.clock()).astimezone(UTC).isoformat()
        doc: dict[str, Any] = {
            "id": uuid.uuid4().hex,
            "seq": len(self.events) + 1,
            "type": type,
            "game_clock_ms": game_clock_ms,
            "wall_time": when,
            "judge": judge,
            "data": data,
            "prev_hash": self.last_hash,
        }
        doc["hash"] = compute_hash(doc)
        self._write_event(doc)
        event = Event.from_doc(doc)
        self.events.append(event)
        return event

    def _write_event(self, doc: dict[str, Any]) -> None:
        """Add one event document and write the file once (atomically, fsync'd).

        The document goes straight into the storage's ``events`` table under its ``seq``
        (the same ids TinyDB's ``insert`` gives an append-only table), skipping
        ``Table.insert``, which re-keys the whole table twice per insert: that was 15 % of
        an append. A failed write drops the storage's cache, so nothing half-done stays."""
        data = self._db.storage.read() or {}
        data.setdefault("events", {})[str(doc["seq"])] = doc
        self._db.storage.write(data)

    def _check_key(self, key: WriteKey | None) -> None:
        if self._key is not None and key is not self._key:
            raise NotTheWriter(self.path.name)
        if self._key is None and self.meta.get("tournament_id"):
            raise NotTheWriter(self.path.name)  # a tournament's log opened bare

    def void(
        self,
        target_id: str,
        reason: str,
        *,
        judge: str = "",
        game_clock_ms: int | None = None,
        wall_time: datetime | None = None,
        key: WriteKey | None = None,
    ) -> Event:
        """A correction: a new event that voids ``target_id`` (the target stays in the log)."""
        target = self.by_id(target_id)
        if target is None:
            raise Refused("no event {event} in this game", event=target_id)
        if not reason.strip():
            raise Refused("a correction needs a reason")
        return self.append(
            VOID,
            {"target": target_id, "reason": reason.strip(), "target_type": target.type},
            judge=judge,
            game_clock_ms=game_clock_ms,
            wall_time=wall_time,
            key=key,
        )

    def close(self) -> None:
        self._db.close()
