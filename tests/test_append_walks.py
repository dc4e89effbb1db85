"""An append, an undo and a void cost the same at 100 or 5,000 events (issue 24): the
store's ``by_id``, the authority check (31, 32.03: a void of a head-judge action is his),
the kept protocol (31) and the live fold never walk the game's log. Counted, not timed: the
log's events are a list that counts every item a walk over them visits."""

from __future__ import annotations

import gc
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
from fakes import FakeClock, compact_log, event_doc

from fieldjudge.rules import protocol as pr
from fieldjudge.rules.events import GENESIS_HASH, VOID, Event, compute_hash
from fieldjudge.services.paintball.game import GameSession
from fieldjudge.services.trust import authority
from fieldjudge.store import EventLog
from fieldjudge.store.eventlog import write_log_file

T0 = datetime(2026, 6, 1, 8, 0, tzinfo=UTC)
TEAMS = ("red", "blue")


class Walks(list):
    """A log's events counting every item a walk over them visits (an iteration, a
    reversed one, a slice, a membership test, a comparison); reading one item by its
    index is a look-up, not a walk."""

    visited = 0

    def __iter__(self):
        for e in super().__iter__():
            self.visited += 1
            yield e

    def __reversed__(self):
        for e in super().__reversed__():
            self.visited += 1
            yield e

    def __getitem__(self, i):
        got = super().__getitem__(i)
        if isinstance(i, slice):
            self.visited += len(got)
        return got

    def __contains__(self, item) -> bool:
        self.visited += len(self)
        return super().__contains__(item)

    def index(self, *args: Any) -> int:
        self.visited += len(self)
        return super().index(*args)

    def count(self, item) -> int:
        self.visited += len(self)
        return super().count(item)

    def __eq__(self, other) -> bool:
        self.visited += len(self)
        return super().__eq__(other)

    __hash__ = None  # type: ignore[assignment]


def chain(n: int, again: str | None = None) -> list[dict]:
    """``n`` game events chained by their hashes (ids e1..en); ``again``: the last one
    takes this id a second time (a log made elsewhere)."""
    docs, prev = [], GENESIS_HASH
    for seq in range(1, n + 1):
        doc = {
            "id": again if again and seq == n else f"e{seq}",
            "seq": seq,
            "type": "note",
            "game_clock_ms": seq,
            "wall_time": T0.isoformat(),
            "judge": "J",
            "data": {"text": f"{seq}"},
            "prev_hash": prev,
        }
        doc["hash"] = prev = compute_hash(doc)
        docs.append(doc)
    return docs


def long_log(tmp_path: Path, n: int = 5_000, again: str | None = None) -> EventLog:
    docs = chain(n, again)
    path = tmp_path / "game.json"
    write_log_file(
        path, {"meta": {"1": {"kind": "game"}}, "events": {str(d["seq"]): d for d in docs}}
    )
    log = EventLog.open(path)
    log.events = Walks(log.events)
    return log


def test_the_store_finds_and_voids_an_event_of_5000_without_a_walk(tmp_path: Path) -> None:
    """``by_id`` and a void (its target looked up) of a 5,000-event log visit no event."""
    log = long_log(tmp_path)
    events: Walks = log.events  # type: ignore[assignment]
    assert log.by_id("e2500").seq == 2500
    assert log.by_id("nope") is None and log.with_id("nope") == []
    void = log.void("e17", "mistake")
    note = log.append("note", {"text": "after"})
    assert events.visited == 0
    assert log.by_id(void.id) is void and log.by_id(note.id) is note
    assert void.data["target_type"] == "note" and len(events) == 5_002
    again = EventLog.open(log.path)  # the index of a log opened again: the same
    assert [again.by_id(e.id).hash for e in (void, note)] == [void.hash, note.hash]


def test_an_id_held_twice_is_found_first_and_every_time(tmp_path: Path) -> None:
    """A log made elsewhere may hold an id twice: ``by_id`` is its first event (as the walk
    gave), ``with_id`` every one in log order, and the checks see them all (31)."""
    log = long_log(tmp_path, n=300, again="e7")
    first, last = log.events[6], log.events[-1]
    assert log.by_id("e7") is first
    assert log.with_id("e7") == [first, last]
    void = log.void("e7", "mistake")
    assert log.with_id(void.id) == [void]


def test_the_authority_check_of_a_void_of_5000_walks_nothing(tmp_path: Path) -> None:
    """31, 32.03: the writer's check of a void (is its target a head-judge action?) and the
    kept protocol after it find the target through the log's index: no event visited, the
    same answers as the walk."""
    log = long_log(tmp_path)
    events: Walks = log.events  # type: ignore[assignment]
    p = pr.fold_protocol(list(events), TEAMS)
    events.visited = 0
    data = {"target": "e4000", "reason": "mistake"}
    found = authority.append_refusal(events, VOID, data, TEAMS, False, p, log.with_id)
    assert found is None and events.visited == 0
    void = log.void("e4000", "mistake")
    after = pr.advance_protocol(p, void, events, log.with_id)
    assert events.visited == 0
    assert after == pr.fold_protocol(list(events), TEAMS)
    walked = authority.append_refusal(list(events), VOID, data, TEAMS, False, p)
    assert walked == found


def test_a_void_of_a_head_judge_action_is_refused_through_the_index(tmp_path: Path) -> None:
    """32.03: undoing the head judge's ruling is his too: the refusal is the same when the
    target is found by the log's index."""
    log = long_log(tmp_path, n=50)
    ruling = Event.from_doc({**event_doc(log.events[10]), "type": pr.NO_SHOW})
    with_id = lambda i: [ruling] if i == ruling.id else log.with_id(i)  # noqa: E731
    data = {"target": ruling.id, "reason": "replay"}
    indexed = authority.append_refusal(log.events, VOID, data, TEAMS, False, None, with_id)
    walked = authority.append_refusal([*log.events[:10], ruling], VOID, data, TEAMS, False)
    assert indexed is not None and indexed == walked == authority.head_judge_refusal(pr.NO_SHOW)


def test_a_live_game_appends_undoes_and_voids_without_walking_its_log(tournament) -> None:
    """The whole path of the game screen's keys (the rules, the authority check, the kept
    protocol, the live fold, the store): an elimination, an undo and a void of an event
    far back visit at most a few events, however long the game."""
    gid = next(g["id"] for g in tournament.games() if not tournament.game_path(g["id"]).exists())
    s = GameSession(tournament, gid, clock=FakeClock(T0), judge="J")
    a, b = s.teams
    s.start_clock()
    checks = [p.number for p in s.setup.rosters[b]]
    for i in range(60):
        n = checks[i % len(checks)]
        s.start_check("paint", b, n)
        s.end_check(b, n, "in_play")
    s.eliminate(a, s.setup.rosters[a][0].number)  # the first append after opening
    events = Walks(s.log.events)
    s.log.events = events
    far = s.events[5]
    number = s.setup.rosters[a][1].number
    seen = []
    for act in (
        lambda: s.eliminate(a, number),
        s.undo,
        lambda: s.eliminate(a, number),
        lambda: s.voidable(s.events[-1].seq),
        lambda: s.void(s.events[-1].id, "wrong player"),
    ):
        act()
        seen.append(events.visited)
    assert len(events) > 120
    assert events.visited <= 10, seen  # the undo looks back past one void
    assert not s.is_eliminated(a, number)
    # a void far back refolds the events after its target (from a checkpoint): what it
    # visits grows with how far back it reaches, never with the length of the game
    before, back = events.visited, len(events) - far.seq
    s.void(far.id, "mistake")
    assert events.visited - before <= back + 2, (events.visited - before, back)


def test_an_open_log_holds_each_event_once(tmp_path: Path) -> None:
    """A game held open keeps its events, not their documents as well (issue 24: fewer
    long-lived objects, shorter collections): at most two tracked objects per event (the
    event and its attributes), not three."""
    docs = chain(2_000)
    path = tmp_path / "game.json"
    write_log_file(
        path, {"meta": {"1": {"kind": "game"}}, "events": {str(d["seq"]): d for d in docs}}
    )
    del docs
    gc.collect()
    before = len(gc.get_objects())
    log = EventLog.open(path)
    gc.collect()
    assert len(gc.get_objects()) - before <= 2.1 * len(log.events)
    log.close()


def test_a_compaction_writes_back_every_event_as_read(tmp_path: Path) -> None:
    """The storage rewrites the file from the log's events: each document as it was
    (one with a field fieldjudge never writes too: it is hashed), the chain intact."""
    docs = chain(300)
    odd = docs[9]
    odd["extra"] = "kept"  # a field of a newer version, part of the hashed content
    prev = docs[8]["hash"]
    for d in docs[9:]:
        d["prev_hash"] = prev
        d["hash"] = prev = compute_hash(d)
    path = tmp_path / "game.json"
    write_log_file(
        path, {"meta": {"1": {"kind": "game"}}, "events": {str(d["seq"]): d for d in docs}}
    )
    log = EventLog.open(path)
    added = log.append("note", {"text": "after"})
    compact_log(log)
    log.close()
    again = EventLog.open(path)
    assert [e.hash for e in again.events] == [d["hash"] for d in docs] + [added.hash]
    stored = {}
    for line in path.read_bytes().splitlines()[1:]:
        stored.update(orjson.loads(line)["set"].get("events", {}))
    assert stored["10"] == odd and stored["11"] == docs[10]
    assert len(path.read_bytes().splitlines()) == 1 + 1 + 4  # header, meta+head, 301 events
