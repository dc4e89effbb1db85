"""Fakes for tests (and the benchmarks, through ``sys.path``): an event's stored document, a
paintball log builder that fills id, seq, wall_time and the hash chain (the start time is an
argument and time advances only as the caller says), a clock for a game session, a chrono
reader's thread and the faults verify finds in a folder."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

from fieldjudge.rules.events import GENESIS_HASH, VOID, Event, compute_hash, stored_doc
from fieldjudge.rules.paintball.setup import GameSetup, RosterPlayer, Settings
from fieldjudge.services.trust.verify import verify_report

DEFAULT_START = datetime(2026, 5, 16, 10, 0, 0, tzinfo=UTC)


def event_doc(e: Event) -> dict[str, Any]:
    """The document an event is stored as (:func:`stored_doc`), its ``data`` a copy the
    test may change without changing the event."""
    return {**stored_doc(e), "data": dict(e.data)}


class LogBuilder:
    """``log.add("clock_start")``; ``log.tick(1500)`` advances game and wall time while the
    clock runs; ``log.wait(ms)`` advances wall time only (a stopped clock)."""

    def __init__(self, start: datetime = DEFAULT_START, judge: str = "judge-1") -> None:
        self.events: list[Event] = []
        self.wall = start
        self.game_ms = 0
        self.judge = judge

    def tick(self, ms: int) -> LogBuilder:
        self.game_ms += ms
        self.wall += timedelta(milliseconds=ms)
        return self

    def wait(self, ms: int) -> LogBuilder:
        self.wall += timedelta(milliseconds=ms)
        return self

    def add(self, etype: str, game_clock_ms: int | None = -1, **data: Any) -> Event:
        """Append an event; game_clock_ms defaults to the builder's game time."""
        prev = self.events[-1].hash if self.events else GENESIS_HASH
        seq = len(self.events) + 1
        doc = {
            "id": f"e{seq}",
            "seq": seq,
            "type": etype,
            "game_clock_ms": self.game_ms if game_clock_ms == -1 else game_clock_ms,
            "wall_time": self.wall.isoformat(),
            "judge": self.judge,
            "data": data,
            "prev_hash": prev,
        }
        doc["hash"] = compute_hash(doc)
        ev = Event.from_doc(doc)
        self.events.append(ev)
        return ev

    def void(self, target: Event | str, reason: str = "mistake") -> Event:
        tid = target.id if isinstance(target, Event) else target
        return self.add(VOID, target=tid, reason=reason)


def demo_setup(settings: Any = None, team_a: str = "red", team_b: str = "blue") -> Any:
    """Two teams of five, shirt numbers 1-5, captain #1."""
    rosters = {
        t: tuple(RosterPlayer(n, f"{t}-{n}", captain=n == 1) for n in range(1, 6))
        for t in (team_a, team_b)
    }
    return GameSetup("g1", team_a, team_b, rosters, settings or Settings())


def ref(team: str, number: int) -> dict[str, Any]:
    """A player reference as event data names it."""
    return {"team": team, "number": number}


class FakeClock:
    """A clock for a game session: time moves only with :meth:`advance`."""

    def __init__(self, start: datetime | None = None) -> None:
        self.t = start or datetime.now(UTC)

    def now(self) -> datetime:
        return self.t

    def advance(self, ms: int) -> None:
        self.t += timedelta(milliseconds=ms)


def start_reader(reader: Any) -> threading.Thread:
    """Run a chrono reader's loop on a daemon thread, as the app's worker does."""
    th = threading.Thread(target=reader.run, name="chrono-reader", daemon=True)
    th.start()
    return th


def verify_folder(folder: Any) -> dict[str, list[str]]:
    """{relative path: faults} of ``fieldjudge verify`` for every file (empty: fine)."""
    return {rel: rep.faults for rel, rep in verify_report(folder).items()}


def compact_log(log: Any) -> None:
    """Rewrite an event log's file without its dead records (atomically), as its storage
    does by itself once they outnumber the live ones. The app never asks for it: an event
    log has one dead record (the previous head) per live event."""
    log._storage.compact()
