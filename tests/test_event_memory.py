"""An open game's events, held once (issue 24; DESIGN.md "Events"): slotted events, the
previous event's hash object as ``prev_hash``, one string per repeated value within a read,
and every document fieldjudge writes given back exactly by ``stored_doc``."""

from __future__ import annotations

import copy
import dataclasses
import tempfile
from itertools import pairwise
from pathlib import Path
from typing import Any

import orjson
import pytest
from fakes import compact_log
from hypothesis import given, settings
from hypothesis import strategies as st

from fieldjudge.rules.events import (
    GENESIS_HASH,
    Event,
    made_exactly,
    read_events,
    stored_doc,
)
from fieldjudge.store import EventLog, lines
from fieldjudge.store.backup import backups_of, make_backup
from fieldjudge.store.errors import DamagedFile
from fieldjudge.store.eventlog import ReadLog, write_log_file
from fieldjudge.store.schema import sorted_event_docs
from fieldjudge.store.storage import read_lines_or_bytes

_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
_VALUE = st.one_of(_TEXT, st.integers(-(10**9), 10**9), st.none(), st.booleans())
_APPEND = st.tuples(
    st.sampled_from(["elimination", "paint_check_end", "note", "void"]),
    st.dictionaries(st.sampled_from(["team", "number", "outcome", "reason", "note"]), _VALUE),
    st.booleans(),  # signed by the laptop
    st.booleans(),  # signed by the head judge
    st.one_of(st.none(), st.integers(0, 10**8)),  # the game clock
    _TEXT,  # the judge
)


def _file_docs(path: Path) -> list[dict[str, Any]]:
    """The event documents the file holds, as parsed (nothing shared or replaced)."""
    return sorted_event_docs(lines.replay(path.read_bytes(), path).data)


def _signed_log(path: Path, n: int = 6) -> EventLog:
    log = EventLog.create(path, "game", {"game_id": "g"})
    for i in range(n):
        log.append(
            "elimination" if i % 2 else "paint_check_end",
            {"team": "red" if i % 3 else "blue", "number": i, "outcome": "in_play"},
            judge="Судья",
            game_clock_ms=1000 * i,
            sign=lambda h: "sig-" + h,
            signer="laptop-1",
        )
    return log


@settings(max_examples=40, deadline=None)
@given(st.lists(_APPEND, min_size=1, max_size=10))
def test_24_every_document_fieldjudge_writes_is_given_back_exactly(appends: list) -> None:
    """``stored_doc(Event.from_doc(d)) == d``, key order and bytes included, for the
    documents ``EventLog.append`` writes (signed or not, by the head judge or not)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.json"
        log = EventLog.create(path, "game", {"game_id": "g"})
        for kind, data, signed, by_head, clock, judge in appends:
            kw: dict[str, Any] = {}
            if signed:
                kw.update(sign=lambda h: "l" + h[:16], signer="laptop-1")
            if by_head:
                kw.update(hj_sign=lambda h: "h" + h[:16], hj_key="head-1")
            log.append(kind, data, judge=judge, game_clock_ms=clock, **kw)
        log.close()
        docs = _file_docs(path)
        made = copy.deepcopy(docs)  # a read shares strings in its documents' data
        for e, m, d in zip(read_events(made), made, docs, strict=True):
            assert made_exactly(e, m)
            assert made_exactly(Event.from_doc(d), d)
            assert stored_doc(e) == d
            assert list(stored_doc(e)) == list(d)
            assert orjson.dumps(stored_doc(e)) == orjson.dumps(d)
            assert Event.from_doc(d) == e
        reopened = EventLog.open(path)
        assert reopened._odd == {}  # nothing kept twice
        reopened.close()


def test_24_an_event_holds_no_second_copy_of_its_predecessors_hash(tmp_path: Path) -> None:
    """The open log's events and a read's: each ``prev_hash`` is the previous event's
    ``hash`` object, the first one the genesis constant."""
    _signed_log(tmp_path / "g.json").close()
    log = EventLog.open(tmp_path / "g.json")
    read = ReadLog.read(tmp_path / "g.json")
    assert read is not None
    for events in (log.events, read.events):
        assert events[0].prev_hash is GENESIS_HASH
        for before, e in pairwise(events):
            assert e.prev_hash is before.hash
    log.close()


def test_24_a_reads_repeated_strings_are_one_object(tmp_path: Path) -> None:
    """Type, judge, key id and short data values: one string per value in a read; an
    event's document still gives back what the file holds."""
    _signed_log(tmp_path / "g.json").close()
    log = EventLog.open(tmp_path / "g.json")
    ev = log.events
    assert ev[1].type is ev[3].type and ev[0].type is ev[2].type
    assert all(e.judge is ev[0].judge and e.signer is ev[0].signer for e in ev)
    assert ev[1].data["team"] is ev[2].data["team"]
    assert ev[1].data["outcome"] is ev[0].data["outcome"]
    assert not hasattr(ev[0], "__dict__")  # slotted
    assert [stored_doc(e) for e in ev] == _file_docs(log.path)
    log.close()


def test_24_a_document_not_given_back_exactly_is_rewritten_as_read(tmp_path: Path) -> None:
    """Keys in another order, or a signature written as null: the event does not give
    the document back, so the log keeps it as read and a compaction writes it unchanged."""
    path = tmp_path / "g.json"
    _signed_log(path, 4).close()
    data = lines.replay(path.read_bytes(), path).data
    docs = data["events"]
    docs["2"] = dict(reversed(list(docs["2"].items())))  # the same fields, reordered
    docs["3"] = {**docs["3"], "hj_sig": None, "hj_key": None}  # outside the hash
    write_log_file(path, data)
    odd = {2: docs["2"], 3: docs["3"]}
    log = EventLog.open(path)
    assert sorted(log._odd) == [2, 3]  # kept as read: the others are their events
    assert log.events == [Event.from_doc(d) for d in _file_docs(path)]
    log.append("note", {"n": 1})
    compact_log(log)
    again = _file_docs(path)
    for seq, doc in odd.items():
        assert list(again[seq - 1].items()) == list(doc.items())
    assert orjson.dumps(again[:4]) == orjson.dumps(_file_docs(path)[:4])
    log.close()
    EventLog.open(path).close()  # the chain and head still check


def test_24_a_slotted_event_stays_immutable_and_compares_by_value() -> None:
    doc = {
        "id": "e1",
        "seq": 1,
        "type": "note",
        "game_clock_ms": None,
        "wall_time": "2026-06-01T10:00:00+00:00",
        "judge": "",
        "data": {"n": 1},
    }
    e = Event.from_doc(doc)
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.type = "void"  # type: ignore[misc]
    assert e == Event.from_doc(copy.deepcopy(doc)) == Event(**doc)
    assert e.prev_hash == GENESIS_HASH and e.hash == "" and e.sig is None
    assert not made_exactly(e, doc)  # no hash: not a document fieldjudge writes
    assert read_events([doc]) == [e]


_RECORD = st.dictionaries(
    st.sampled_from(["events", "head"]),
    st.dictionaries(st.sampled_from(["1", "2", "3"]), st.dictionaries(_TEXT, _VALUE, max_size=3)),
    min_size=1,
)


def _outcome(read: Any) -> Any:
    try:
        return read()
    except DamagedFile as exc:
        return ("damaged", str(exc.fault))


@settings(max_examples=40, deadline=None)
@given(
    records=st.lists(_RECORD, max_size=6),
    damaged=st.one_of(st.none(), st.integers(0, 6)),
    tail=st.binary(max_size=12).filter(lambda b: b"\n" not in b),
)
def test_24_a_file_replayed_as_it_is_read_is_replayed_as_its_bytes(
    records: list, damaged: int | None, tail: bytes
) -> None:
    """The open reads a line file a block at a time (never its whole bytes beside its
    tables): the same tables, ends and counts as replaying its bytes, the same fault for a
    damaged line, and a cut-off last line left out alike."""
    body = [lines.record_bytes(r) for r in records]
    if damaged is not None:
        body.insert(min(damaged, len(body)), b'{"set": \n')
    raw = lines.header_bytes(2) + b"".join(body) + tail
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.json"
        path.write_bytes(raw)
        streamed = _outcome(lambda: read_lines_or_bytes(path))
        assert streamed == _outcome(lambda: lines.replay(raw, path))
        if damaged is None:
            tables: dict[str, dict] = {}
            for r in records:
                for table, docs in r.items():
                    tables.setdefault(table, {}).update(docs)
            assert (streamed.data, streamed.schema) == (tables, 2)
            assert streamed.records == sum(len(docs) for r in records for docs in r.values())
            assert streamed.end == len(raw) - len(tail) and streamed.size == len(raw)
        path.write_bytes(b'{"meta": {}}')  # not the line format: its bytes
        assert read_lines_or_bytes(path) == b'{"meta": {}}'


def test_24_a_backup_is_made_of_a_file_changed_at_the_same_size(tmp_path: Path) -> None:
    """The newest copy is read only when its size is the file's: a file changed in place
    at the same size is still copied, an unchanged one is not."""
    path = tmp_path / "g.json"
    _signed_log(path, 3).close()
    assert make_backup(tmp_path, path, only_if_changed=True) is not None
    assert make_backup(tmp_path, path, only_if_changed=True) is None  # unchanged
    raw = path.read_bytes()
    # a signature is outside the hashed content: the file stays valid, at the same size
    i = raw.index(b'"sig":"sig-') + len(b'"sig":"sig-')
    path.write_bytes(raw[:i] + (b"0" if raw[i : i + 1] != b"0" else b"1") + raw[i + 1 :])
    assert len(path.read_bytes()) == len(raw)
    assert make_backup(tmp_path, path, only_if_changed=True) is not None
    log = EventLog.open(path)
    log.append("note", {"n": 1})
    log.close()
    assert make_backup(tmp_path, path, only_if_changed=True) is not None  # longer
    assert len(backups_of(tmp_path, path)) == 3
