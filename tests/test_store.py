"""The crash-safe store: chain, void, lock, damaged files, migrations, backups."""

from __future__ import annotations

import os
import tempfile
import time
import uuid
from datetime import date
from pathlib import Path

import orjson
import pytest
from fakes import compact_log, event_doc, verify_folder
from hypothesis import given, settings
from hypothesis import strategies as st

from fieldjudge.rules.events import (
    GENESIS_HASH,
    UNHASHED,
    compute_hash,
    effective,
    verify_chain,
)
from fieldjudge.store import DamagedFile, EventLog, FolderLocked, Refused, Tournament, WriteKey
from fieldjudge.store.backup import backups_of, make_backup, newest_good_backup, restore
from fieldjudge.store.errors import WriterConflict
from fieldjudge.store.eventlog import HANDOVER
from fieldjudge.store.schema import SIGNED_META
from fieldjudge.store.storage import TEMP_MARK, FilesWatch, write_all
from fieldjudge.store.tournament import _open_anchored
from fieldjudge.store.validate import validate_file


def test_append_builds_a_verifiable_chain(tmp_path: Path) -> None:
    log = EventLog.create(tmp_path / "g.json", "game", {"game_id": "g"})
    a = log.append("hit", {"team": "A", "number": 7}, judge="Судья", game_clock_ms=1000)
    b = log.append("hit", {"team": "B", "number": 3}, judge="Судья", game_clock_ms=2000)
    assert (a.seq, b.seq) == (1, 2)
    assert b.prev_hash == a.hash
    reopened = EventLog.open(tmp_path / "g.json")
    assert [e.id for e in reopened.events] == [a.id, b.id]
    first = dict(reopened.events[0].data)
    # issue 21 (5): the first event signs the file's meta
    assert first.pop(SIGNED_META) == {"kind": "game", "game_id": "g", "owner": None}
    assert first == {"team": "A", "number": 7}
    assert SIGNED_META not in reopened.events[1].data
    assert reopened.events[0].judge == "Судья"


def test_void_is_a_new_event_and_voiding_a_void_restores(tmp_path: Path) -> None:
    log = EventLog.create(tmp_path / "g.json", "game", {})
    a = log.append("hit", {"n": 1})
    v = log.void(a.id, "wrong player")
    assert [e.id for e in effective(log.events)] == []
    log.void(v.id, "the hit was right after all")
    assert [e.id for e in effective(log.events)] == [a.id]
    assert len(log.events) == 3  # nothing removed from history


def test_void_needs_a_reason_and_a_real_target(tmp_path: Path) -> None:
    log = EventLog.create(tmp_path / "g.json", "game", {})
    a = log.append("hit", {})
    with pytest.raises(Refused):
        log.void(a.id, "  ")
    with pytest.raises(Refused):
        log.void("nope", "reason")


def _lines(path: Path) -> list[dict]:
    return [orjson.loads(x) for x in path.read_bytes().splitlines()]


def _write_lines(path: Path, records: list[dict]) -> bytes:
    raw = b"".join(orjson.dumps(r) + b"\n" for r in records)
    path.write_bytes(raw)
    return raw


def _game(path: Path, n: int) -> EventLog:
    log = EventLog.create(path, "game", {"game_id": "g"}, owner="laptop-1")
    for i in range(n):
        log.append("hit", {"number": i + 1})
    return log


def test_each_append_writes_one_line_with_the_event_and_the_head(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    log = _game(path, 2)
    before = path.read_bytes()
    ev = log.append("hit", {"number": 3})
    after = path.read_bytes()
    assert after.startswith(before)  # an append never rewrites what is there
    line = orjson.loads(after[len(before) :])
    assert after.endswith(b"\n") and after[len(before) :].count(b"\n") == 1
    assert line == {
        "set": {
            "events": {"3": event_doc(ev)},
            "head": {"1": {"count": 3, "hash": ev.hash, "owner": "laptop-1"}},
        }
    }
    assert _lines(path)[0] == {"format": "fieldjudge-lines", "version": 1, "schema": 2}
    log.close()
    assert EventLog.open(path).head == {"count": 3, "hash": ev.hash, "owner": "laptop-1"}


def test_tampered_event_is_a_damaged_file_and_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    _game(path, 2).close()
    recs = _lines(path)
    recs[2]["set"]["events"]["1"]["data"]["number"] = 9  # someone edits the file by hand
    tampered = _write_lines(path, recs)
    with pytest.raises(DamagedFile) as info:
        EventLog.open(path)
    assert info.value.fault == "broken event chain: event #1: hash does not match its content"
    assert path.read_bytes() == tampered


def test_deleted_last_events_are_a_head_mismatch(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    log = _game(path, 3)
    compact_log(log)  # one record for meta and head, one for the events
    log.close()
    recs = _lines(path)
    assert len(recs) == 2 and recs[1]["set"]["head"]["1"]["count"] == 3
    del recs[1]["set"]["events"]["3"]  # the last event removed, its head kept
    tampered = _write_lines(path, recs)
    with pytest.raises(DamagedFile) as info:
        EventLog.open(path)
    assert info.value.fault == "truncated: the head records 3 events, the file holds 2"
    assert path.read_bytes() == tampered


def test_deleted_event_of_an_append_line_is_a_head_mismatch(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    _game(path, 3).close()
    recs = _lines(path)
    del recs[-1]["set"]["events"]  # the last line keeps only its head
    tampered = _write_lines(path, recs)
    with pytest.raises(DamagedFile) as info:
        validate_file(path)
    assert info.value.fault == "truncated: the head records 3 events, the file holds 2"
    assert path.read_bytes() == tampered


def test_whole_lines_cut_off_are_caught_by_the_manifest_head(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    log = _game(path, 3)
    head = (log.head["count"], log.head["hash"])
    log.close()
    raw = path.read_bytes()
    cut = raw[: raw.rstrip(b"\n").rfind(b"\n") + 1]  # the last line deleted
    path.write_bytes(cut)
    assert len(EventLog.open(path).events) == 2  # consistent on its own...
    with pytest.raises(DamagedFile) as info:  # ...but not what the manifest says
        _open_anchored(path, head)
    assert info.value.fault == "truncated: the manifest records 3 events, the file holds 2"
    assert path.read_bytes() == cut


def test_edited_head_owner_is_damage_and_handover_changes_the_owner(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    log = _game(path, 1)
    assert log.owner == "laptop-1"
    with pytest.raises(ValueError):
        log.append(HANDOVER, {})
    log.append(HANDOVER, {"from_laptop": "laptop-9", "to_laptop": "laptop-3"})
    assert log.owner == "laptop-1"  # gives away a game laptop-9 does not hold: no move
    log.append(HANDOVER, {"from_laptop": "laptop-1", "to_laptop": "laptop-2"}, judge="ГС")
    assert log.owner == "laptop-2"
    log.close()
    assert EventLog.open(path).owner == "laptop-2"
    recs = _lines(path)
    recs[-1]["set"]["head"]["1"]["owner"] = "laptop-3"
    _write_lines(path, recs)
    with pytest.raises(DamagedFile) as info:
        EventLog.open(path)
    assert info.value.fault == "the head names owner 'laptop-3', the events 'laptop-2'"


def test_signature_is_stored_beside_the_hash_outside_the_hashed_content(tmp_path: Path):
    path = tmp_path / "g.json"
    log = _game(path, 0)
    signed: list[str] = []

    def sign(h: str) -> str:
        signed.append(h)
        return "sig-of-" + h[:8]

    ev = log.append("hit", {"number": 1}, signer="key-a", sign=sign)
    plain = log.append("hit", {"number": 2})
    assert signed == [ev.hash]
    assert (ev.sig, ev.signer) == ("sig-of-" + ev.hash[:8], "key-a")
    assert (plain.sig, plain.signer) == (None, None)
    with pytest.raises(ValueError):
        log.append("hit", {}, sign=sign)  # a signature names its key
    log.close()
    again = EventLog.open(path)  # the chain verifies with the signatures in place
    assert [(e.sig, e.signer) for e in again.events] == [(ev.sig, "key-a"), (None, None)]
    assert compute_hash(event_doc(again.events[0])) == ev.hash


@pytest.mark.parametrize(
    ("content", "fault"),
    [
        (b'{"meta": {"1": {"schema": 1', "not valid JSON at line 1, column 28"),
        (b'{"meta": {"1": {"schema": 99, "kind": "game"}}, "events": {}}', "schema version 99"),
        (b"[1, 2]", "not a JSON object"),
        (b"", "empty file (0 bytes)"),
        (b"{}", "stripped: no meta record"),
        (b'{"events": {}}', "stripped: no meta record"),
        (b'{"meta": {"1": {"schema": 1, "kind": "game"}}}', "stripped: no events table"),
        (b'{"format":"fieldjudge-lines","version":1,"schema":2}\n', "stripped: no meta record"),
        (
            b'{"format":"fieldjudge-lines","version":1,"schema":2}\n'
            b'{"set":{"meta":{"1":{"schema":2,"kind":"game"}},"events":{}}}\n',
            "stripped: no head record (event count and hash)",
        ),
        (b'{"format":"fieldjudge-lines","vers', "no complete header line: the file is cut short"),
        (b'{"format":"fieldjudge-lines","version":7}\n', "line format version 7"),
    ],
)
def test_damaged_files_are_named_and_left_alone(tmp_path: Path, content: bytes, fault: str):
    path = tmp_path / "g.json"
    path.write_bytes(content)
    with pytest.raises(DamagedFile) as info:
        EventLog.open(path)
    assert fault in info.value.fault
    assert info.value.path == path
    assert path.read_bytes() == content


def test_missing_file_is_damaged_not_new(tmp_path: Path) -> None:
    with pytest.raises(DamagedFile) as info:
        EventLog.open(tmp_path / "gone.json")
    assert info.value.fault == "missing: the file does not exist"
    assert not (tmp_path / "gone.json").exists()


def test_corrupted_middle_line_is_damage(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    _game(path, 3).close()
    rows = path.read_bytes().split(b"\n")
    rows[3] = rows[3][:20] + b"#" + rows[3][21:]  # line 4: event 2
    tampered = b"\n".join(rows)
    path.write_bytes(tampered)
    with pytest.raises(DamagedFile) as info:
        EventLog.open(path)
    assert info.value.fault == "line 4 is not valid JSON (a damaged record, not a cut-off end)"
    assert path.read_bytes() == tampered


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 6), cut=st.floats(0, 1))
def test_a_cut_off_end_gives_a_prefix_of_the_acknowledged_events(n: int, cut: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "g.json"
        log = _game(path, 0)
        ends = [path.stat().st_size]  # file size once each event was acknowledged
        for i in range(n):
            log.append("hit", {"number": i, "pad": "ж" * i})
            ends.append(path.stat().st_size)
        ids = [e.id for e in log.events]
        log.close()
        full = path.read_bytes()
        offset = int(cut * len(full))
        path.write_bytes(full[:offset])
        if offset < ends[0]:  # inside the creation, written whole by a rename: damage
            with pytest.raises(DamagedFile):
                EventLog.open(path)
            assert path.read_bytes() == full[:offset]
            return
        kept = max(k for k, end in enumerate(ends) if end <= offset)
        again = EventLog.open(path)
        assert [e.id for e in again.events] == ids[:kept]
        assert path.read_bytes() == full[:offset]  # opening never writes
        ev = again.append("hit", {"number": 99})  # trims the cut-off line first
        again.close()
        assert [e.id for e in EventLog.open(path).events] == [*ids[:kept], ev.id]


def test_schema_1_file_made_by_the_old_store_migrates_on_open(tmp_path: Path) -> None:
    fixture = Path(__file__).parent / "data" / "game_schema1.json"
    old = orjson.loads(fixture.read_bytes())
    path = tmp_path / "g.json"
    path.write_bytes(fixture.read_bytes())
    log = EventLog.open(path)
    hashes = [old["events"][str(i)]["hash"] for i in (1, 2, 3)]
    assert [e.hash for e in log.events] == hashes  # events are never rewritten
    assert [e.type for e in log.events] == ["hit", "hit", "void"]
    assert log.meta["schema"] == 2 and log.meta["game_id"] == "g-old"
    assert log.head == {"count": 3, "hash": hashes[2], "owner": None}
    recs = _lines(path)
    assert recs[0] == {"format": "fieldjudge-lines", "version": 1, "schema": 2}
    assert recs[1]["set"]["head"]["1"]["count"] == 3
    ev = log.append("hit", {"team": "A", "number": 8})
    assert ev.prev_hash == hashes[2]
    log.close()
    assert len(EventLog.open(path).events) == 4


def test_an_object_file_written_by_a_merge_opens_and_reopens(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    log = _game(path, 2)
    docs = [event_doc(e) for e in log.events]
    log.close()
    meta = {"schema": 2, "kind": "game", "game_id": "g", "owner": "laptop-1"}
    path.write_bytes(orjson.dumps({"meta": {"1": meta}, "events": {"1": docs[0], "2": docs[1]}}))
    assert EventLog.open(path).head == {"count": 2, "hash": docs[1]["hash"], "owner": "laptop-1"}
    again = EventLog.open(path)  # now in the line format, with its head
    assert [e.hash for e in again.events] == [d["hash"] for d in docs]
    assert _lines(path)[1]["set"]["head"]["1"]["count"] == 2


def test_migration_from_schema_0(tmp_path: Path) -> None:
    from fieldjudge.rules.events import GENESIS_HASH

    doc = {
        "id": "e1",
        "seq": 1,
        "type": "hit",
        "game_clock_ms": 5,
        "wall_time": "2026-01-01",
        "data": {},
        "prev_hash": GENESIS_HASH,
    }
    doc["hash"] = compute_hash(doc)  # schema 0 events had no "judge" field
    path = tmp_path / "old.json"
    path.write_bytes(orjson.dumps({"meta": {"1": {"game_id": "x"}}, "events": {"1": doc}}))
    log = EventLog.open(path)
    assert log.meta["schema"] == 2 and log.meta["kind"] == "game"
    assert log.events[0].judge == "" and log.events[0].hash == doc["hash"]
    log.append("hit", {})  # the chain continues from the migrated file
    assert len(EventLog.open(path).events) == 2  # reopening verifies the whole chain


def test_two_writers_on_one_file_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    first = _game(path, 1)
    second = EventLog.open(path)
    first.append("hit", {"number": 2})
    with pytest.raises(WriterConflict) as info:  # the first holds the file's lock
        second.append("hit", {"number": 3})
    assert info.value.reason == "another writer has this file open; nothing was written"
    first.close()
    with pytest.raises(WriterConflict) as info:  # it read the file before event 2
        second.append("hit", {"number": 3})
    assert info.value.reason == "the file changed on disk since it was read"
    second.close()
    assert [e.data["number"] for e in EventLog.open(path).events] == [1, 2]


def test_an_append_to_a_file_replaced_or_grown_under_its_writer_is_refused(
    tmp_path: Path,
) -> None:
    """Every append checks, before it writes, that the path still names the file the log
    holds open (Syncthing replaces a file by renaming a new one over it) and that nobody
    appended to it since: nothing is written over another laptop's version."""
    path = tmp_path / "g.json"
    log = _game(path, 2)  # the log holds the file open and locked
    content = path.read_bytes()
    copy = tmp_path / "copy.json"
    copy.write_bytes(content)
    copy.replace(path)  # the same bytes, another file
    with pytest.raises(WriterConflict) as info:
        log.append("hit", {"number": 3})
    assert info.value.reason == "the file was replaced since it was read"
    assert path.read_bytes() == content
    log.close()

    log = EventLog.open(path)
    log.append("hit", {"number": 3})
    path.unlink()  # removed: no file to append to
    with pytest.raises(WriterConflict) as info:
        log.append("hit", {"number": 4})
    assert info.value.reason == "the file was replaced since it was read"
    log.close()

    log = _game(tmp_path / "h.json", 1)
    log.append("hit", {"number": 2})
    with open(log.path, "ab") as other:  # a writer that ignores the lock
        other.write(b'{"set":{}}\n')
    with pytest.raises(WriterConflict) as info:
        log.append("hit", {"number": 3})
    assert info.value.reason == "the file changed on disk since it was read"
    log.close()


def test_compaction_drops_dead_records_and_keeps_every_document(tmp_path: Path) -> None:
    from tinydb import TinyDB

    from fieldjudge.store.storage import LineStorage

    path = tmp_path / "t.json"
    db = TinyDB(path, storage=LineStorage, create=True, schema=2)
    db.storage.compact_min_dead = 8
    table = db.table("things")
    ids = [table.insert({"n": i}) for i in range(5)]
    for k in range(30):  # updates: each leaves a dead record behind
        table.update({"n": 100 + k}, doc_ids=[ids[k % 5]])
    table.remove(doc_ids=[ids[0]])
    storage = db.storage  # its record counts: what it compacts by
    dead, live = storage._records - storage._live, storage._live
    assert dead <= max(live, 8)  # compacted on the way
    db.close()
    again = TinyDB(path, storage=LineStorage)
    assert sorted(d["n"] for d in again.table("things").all()) == [126, 127, 128, 129]
    assert len(path.read_bytes().splitlines()) < 30


def test_an_empty_tournament_file_is_not_rewritten(demo_folder: Path) -> None:
    path = demo_folder / "tournament.json"
    for content in (b"{}", b""):
        path.write_bytes(content)
        with pytest.raises(DamagedFile):
            Tournament.open(demo_folder)
        assert path.read_bytes() == content


def test_migration_of_a_tournament_without_meta_schema(tmp_path: Path) -> None:
    path = tmp_path / "tournament.json"
    path.write_bytes(
        orjson.dumps(
            {"meta": {"1": {"kind": "tournament", "name": "X", "date": "2026-06-01"}}, "teams": {}}
        )
    )
    t = Tournament.open(tmp_path)
    assert t.meta["schema"] == 1
    t.close()
    assert orjson.loads(path.read_bytes())["meta"]["1"]["schema"] == 1


def test_second_instance_is_refused_with_a_clear_message(demo_folder: Path) -> None:
    first = Tournament.open(demo_folder)
    try:
        with pytest.raises(FolderLocked) as info:
            Tournament.open(demo_folder)
        assert "another fieldjudge" in str(info.value)
        assert "pid" in info.value.holder
    finally:
        first.close()
    Tournament.open(demo_folder).close()  # released on close


def test_stray_temp_files_are_cleaned_on_open(demo_folder: Path) -> None:
    stray = demo_folder / "games" / f"x.json{TEMP_MARK}dead"
    stray.write_bytes(b"half a wri")
    Tournament.open(demo_folder).close()
    assert not stray.exists()


def test_backups_rotate_and_newest_good_one_is_offered(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    key = WriteKey()
    t = Tournament.create(folder, name="T", day=date(2026, 6, 1), lock=False, key=key)
    path = folder / "tournament.json"
    for i in range(13):
        t.update_meta(key, venue=f"v{i}")
        make_backup(folder, path, keep=10)
    assert len(backups_of(folder, path)) == 10
    newest = backups_of(folder, path)[0]
    newest.write_bytes(b"garbage")  # a bad backup is skipped
    good = newest_good_backup(folder, path, validate_file)
    assert good == backups_of(folder, path)[1]
    t.close()
    path.write_bytes(b"{broken")
    aside = restore(folder, path, good)
    assert aside.read_bytes() == b"{broken"  # kept, never deleted
    assert validate_file(path)["meta"]["1"]["venue"] == "v11"


def test_roster_import_refusal_changes_nothing(tournament: Tournament) -> None:
    from fieldjudge.csv_import import RosterRow

    before = tournament.players()
    team = tournament.teams()[0]["name"]
    rows = [RosterRow(2, "Новая", 1, "Иван", True), RosterRow(3, team, 7, "Дубль", False)]
    with pytest.raises(Refused, match="line 3"):
        tournament.import_roster(rows)
    assert tournament.players() == before
    assert tournament.team_by_name("Новая") is None


def test_schedule_refuses_double_booking_and_warns_on_short_gap(tournament: Tournament):
    from datetime import datetime

    a, b, c = (x["id"] for x in tournament.teams()[:3])
    g0 = tournament.games()[0]
    busy = g0["team_a"]
    other = next(x for x in (a, b, c) if x not in (g0["team_a"], g0["team_b"]))
    with pytest.raises(Refused, match="booked twice"):
        tournament.add_games(
            [
                {
                    "field": "3",
                    "start": datetime.fromisoformat(g0["start"]),
                    "team_a": busy,
                    "team_b": other,
                }
            ]
        )
    n = len(tournament.games())
    last = max(datetime.fromisoformat(g["start"]) for g in tournament.games())
    from datetime import timedelta

    warnings = tournament.add_games(
        [
            {"field": "1", "start": last + timedelta(minutes=30), "team_a": a, "team_b": b},
            {"field": "1", "start": last + timedelta(minutes=40), "team_a": a, "team_b": c},
        ]
    )
    assert any("32.03" in w for w in warnings)
    assert len(tournament.games()) == n + 2


def test_summary_index_avoids_reparsing(tournament, monkeypatch) -> None:
    from fieldjudge.services.paintball import summaries

    gid = tournament.games()[-1]["id"]  # not played yet (the first round is signed)
    tournament.append_game_event(gid, "note", {"text": "x"})
    s1 = tournament.game_summary(gid)
    calls = []
    monkeypatch.setattr(summaries, "summarize", lambda t, g, lg, *_: calls.append(g) or {})
    assert tournament.game_summary(gid) == s1  # unchanged file: served from the index
    assert calls == []
    tournament.append_game_event(gid, "note", {"text": "y"})
    tournament.game_summary(gid)
    assert calls == [gid]


def test_verify_chain_reports_the_first_break() -> None:
    assert verify_chain([]) is None
    assert "sequence" in verify_chain([{"seq": 2}])


_UNHASHED_VALUES = st.text(alphabet="0123456789abcdef", min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.fixed_dictionaries(
            {
                "type": st.sampled_from(["hit", "void", "note"]),
                "data": st.dictionaries(
                    st.text(max_size=4),
                    st.integers(-(2**63), 2**63 - 1) | st.text(max_size=6),
                    max_size=3,
                ),
            },
            optional={k: _UNHASHED_VALUES for k in sorted(UNHASHED)}
            | {"extra": st.integers(0, 2**63 - 1)},
        ),
        max_size=6,
    ),
    st.data(),
)
def test_verify_chain_agrees_with_compute_hash(bodies, data) -> None:
    """verify_chain spells out the unhashed fields for speed: it must accept exactly the
    chains compute_hash builds, whatever signature fields an event carries, and name the
    event whose content was changed after it was hashed."""
    docs, prev = [], GENESIS_HASH
    for i, body in enumerate(bodies, 1):
        doc = {**body, "id": f"e{i}", "seq": i, "prev_hash": prev}
        doc["hash"] = prev = compute_hash(doc)
        docs.append(doc)
    assert verify_chain(docs) is None
    # what sits beside the hash (the signatures) changes no hash
    docs = [{**d, **{k: "0" for k in UNHASHED - {"hash"}}} for d in docs]
    assert verify_chain(docs) is None
    if docs:
        i = data.draw(st.integers(0, len(docs) - 1))
        docs[i] = {**docs[i], "data": {**docs[i]["data"], "changed": True}}
        assert verify_chain(docs) == f"event #{i + 1}: hash does not match its content"


def test_startup_backup_copies_only_changed_files(demo_folder: Path) -> None:
    key = WriteKey()
    t = Tournament.open(demo_folder, key=key)  # the first open copies every file
    path = demo_folder / "tournament.json"
    games = sorted((demo_folder / "games").glob("*.json"))
    assert len(backups_of(demo_folder, path)) == 1
    counts = [len(backups_of(demo_folder, g)) for g in games]
    assert games and all(n >= 1 for n in counts)
    t.backup_all()
    assert len(backups_of(demo_folder, path)) == 1  # unchanged: no new copy
    t.update_meta(key, venue="elsewhere")
    t.backup_all()
    assert len(backups_of(demo_folder, path)) == 2
    assert [len(backups_of(demo_folder, g)) for g in games] == counts
    t.close()


def test_backup_skips_a_damaged_file_and_interrupted_backups_are_cleaned(
    demo_folder: Path,
) -> None:
    key = WriteKey()
    t = Tournament.open(demo_folder, key=key)
    gid = t.games()[0]["id"]
    t.game_log(gid).append("note", {"text": "x"}, key=key)
    path = t.game_path(gid)
    assert t.backup_game(gid) is not None
    n = len(backups_of(demo_folder, path))
    t.close()
    path.write_bytes(b"{}")  # emptied by hand
    assert make_backup(demo_folder, path) is None  # never takes a slot
    assert len(backups_of(demo_folder, path)) == n
    stray = backups_of(demo_folder, path)[0].with_name(f"x.json{TEMP_MARK}dead")
    stray.write_bytes(b"half a co")  # a backup killed before its rename
    Tournament.open(demo_folder, startup_backup=False).close()
    assert not stray.exists()
    assert path.read_bytes() == b"{}"  # and the damaged file was left alone


def test_summaries_do_not_keep_logs_open(tournament) -> None:
    gids = [g["id"] for g in tournament.games()[4:7]]  # not signed: they take a note
    counts = []
    for gid in gids:
        counts.append(tournament.append_game_event(gid, "note", {"text": gid}).seq)
        tournament.release_log("games", gid)
    assert [tournament.game_summary(g)["events"] for g in gids] == counts
    assert tournament.store._logs == {}  # noqa: SLF001 - what the cold open keeps in memory


def test_game_and_match_files_share_the_line_format_and_record_their_owner(
    demo_folder: Path,
) -> None:
    key = WriteKey()
    tournament = Tournament.open(demo_folder, startup_backup=False, key=key)
    gid = next(g["id"] for g in tournament.games() if not tournament.game_path(g["id"]).exists())
    game = tournament.game_log(gid, owner="1a2b3c4d5e6f7a8b")
    match = tournament.match_log("m1", {"home": "Гриффиндор"}, owner="1a2b3c4d5e6f7a8b")
    ev = match.append("roll", {"value": 42}, key=key)
    for log in (game, match):
        assert log.path.read_bytes().startswith(b'{"format":"fieldjudge-lines","version":1,')
        assert log.owner == "1a2b3c4d5e6f7a8b"
    tournament.release_log("quidditch", "m1")
    again = tournament.match_log("m1")
    assert (again.meta["kind"], again.meta["home"], [e.id for e in again.events]) == (
        "quidditch",
        "Гриффиндор",
        [ev.id],
    )
    assert again.head == {"count": 1, "hash": ev.hash, "owner": "1a2b3c4d5e6f7a8b"}
    tournament.close()


@settings(max_examples=40, deadline=None)
@given(
    ops=st.lists(
        st.tuples(st.sampled_from(["insert", "update", "remove"]), st.integers(0, 9)),
        max_size=60,
    )
)
def test_line_storage_replays_exactly_what_tinydb_holds(ops: list[tuple[str, int]]) -> None:
    from tinydb import TinyDB

    from fieldjudge.store.storage import LineStorage

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.json"
        db = TinyDB(path, storage=LineStorage, create=True, schema=2)
        db.storage.compact_min_dead = 3  # compact often
        table = db.table("things", cache_size=0)
        table.insert({"k": -1, "n": -1})  # creates the file
        for n, (op, k) in enumerate(ops):
            ids = sorted(d.doc_id for d in table.all())
            if op == "insert" or not ids:
                table.insert({"k": k, "n": n})
            elif op == "update":
                table.update({"n": n, "k": k}, doc_ids=[ids[k % len(ids)]])
            else:
                table.remove(doc_ids=[ids[k % len(ids)]])
        expected = {d.doc_id: dict(d) for d in table.all()}
        db.close()
        again = TinyDB(path, storage=LineStorage)
        assert {d.doc_id: dict(d) for d in again.table("things").all()} == expected
        again.close()


def test_verify_names_a_file_whose_events_were_deleted_behind_its_head(
    demo_folder: Path,
) -> None:
    path = next(iter(sorted((demo_folder / "games").glob("*.json"))))
    log = EventLog.open(path)
    n = len(log.events)
    compact_log(log)
    log.close()
    recs = _lines(path)
    events = next(r["set"]["events"] for r in recs[1:] if r["set"].get("events"))
    del events[str(n)]
    tampered = _write_lines(path, recs)
    faults = verify_folder(demo_folder)
    from fieldjudge.store.keys import LaptopKeys

    keys = LaptopKeys.load_or_create()
    assert faults[f"games/{path.name}"] == [
        f"truncated: the head records {n} events, the file holds {n - 1} "
        f'(laptop "{keys.name}" ({keys.fingerprint}))'
    ]
    assert path.read_bytes() == tampered


def _stamp_at(path: Path, ns: int) -> None:
    os.utime(path, ns=(ns, ns))


def test_a_files_watch_lists_its_folder_again_only_when_a_subfolder_came_or_went(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24: asked before every append (a hand-over record, issue 22), the watch lists
    ``laptops/`` again only when the folder's own stamp changed, and still sees every
    file written, added, replaced or removed in a subfolder it knows."""
    root = tmp_path / "laptops"
    (root / "a").mkdir(parents=True)
    (root / "a" / "h.json").write_bytes(b"[1]")
    later = time.time_ns() + 60 * 10**9  # a minute on: every timestamp is settled
    watch = FilesWatch(root, "h.json", clock=lambda: later)
    listed: list[str] = []
    real = os.listdir
    monkeypatch.setattr(os, "listdir", lambda p: listed.append(p) or real(p))
    first = watch.stamp()
    assert first is not None and [f[0] for f in first[1:]] == ["a"] and len(listed) == 1
    assert watch.stamp() == first and len(listed) == 1  # nothing changed: no listing
    (root / "b").mkdir()  # a laptop folder arrives before its files
    second = watch.stamp()
    assert second is not None and second != first and len(listed) == 2
    (root / "b" / "h.json").write_bytes(b"[2]")  # its file: no listing, still seen
    third = watch.stamp()
    assert third is not None and [f[0] for f in third[1:]] == ["a", "b"] and len(listed) == 2
    # replaced by a file of the same size and mtime (a sync's rename): the inode tells
    old = (root / "a" / "h.json").stat()
    (root / "a" / "new").write_bytes(b"[3]")
    _stamp_at(root / "a" / "new", old.st_mtime_ns)
    os.replace(root / "a" / "new", root / "a" / "h.json")
    fourth = watch.stamp()
    assert fourth is not None and fourth != third and len(listed) == 2
    (root / "a" / "h.json").unlink()
    fifth = watch.stamp()
    assert fifth is not None and [f[0] for f in fifth[1:]] == ["b"] and len(listed) == 2


def test_a_files_watch_trusts_no_timestamp_a_change_in_the_same_tick_would_keep(
    tmp_path: Path,
) -> None:
    """Issue 24: a file rewritten in place with the same size within one tick of the clock
    that stamps it keeps its stamp, so a stamp holding a timestamp younger than a tick
    (100 ms; 2 s for a file system that keeps whole seconds, FAT) is None: the caller
    reads the files again, each time until it is settled. A time ahead never is."""
    root = tmp_path / "laptops"
    (root / "a").mkdir(parents=True)
    (root / "a" / "h.json").write_bytes(b"[1]")
    t = 1_800_000_000 * 10**9 + 123_456_789  # a time with a fraction of a second
    for p in (root, root / "a", root / "a" / "h.json"):
        _stamp_at(p, t - 10**9)
    now = [t]
    watch = FilesWatch(root, "h.json", clock=lambda: now[0])
    assert watch.stamp() is not None  # a second old
    _stamp_at(root / "a" / "h.json", t - 50 * 10**6)  # 50 ms old: the same tick may follow
    assert watch.stamp() is None
    now[0] = t + 60 * 10**6  # 110 ms old
    assert watch.stamp() is not None
    _stamp_at(root / "a" / "h.json", t + 10**9)  # ahead of the clock
    assert watch.stamp() is None
    whole = 1_800_000_000 * 10**9  # whole seconds: a file system that keeps no fraction
    _stamp_at(root / "a" / "h.json", whole)
    now[0] = whole + 1_500 * 10**6
    assert watch.stamp() is None
    now[0] = whole + 2_000 * 10**6
    assert watch.stamp() is not None
    _stamp_at(root, now[0] - 10 * 10**6)  # the folder itself, 10 ms old
    assert watch.stamp() is None


def test_event_ids_are_random_uuid4s_none_handed_out_twice(tmp_path: Path) -> None:
    """Every appended event gets a random version-4 UUID as its id, as hex, and none
    comes twice (from two logs appended in turn)."""
    one = EventLog.create(tmp_path / "a.json", "game", {"game_id": "a"})
    two = EventLog.create(tmp_path / "b.json", "game", {"game_id": "b"})
    ids = [log.append("note", {"n": i}).id for i in range(300) for log in (one, two)]
    assert len(set(ids)) == len(ids) == 600
    assert all(uuid.UUID(i).hex == i and uuid.UUID(i).version == 4 for i in ids)
    assert [e.id for e in EventLog.open(tmp_path / "a.json").events] == ids[::2]


def test_write_all_goes_on_after_a_short_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24: a line is written with one call as a rule; a short write (a full disk
    about to refuse, a signal) goes on from where it stopped, never writing a byte twice."""
    real = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: real(fd, bytes(data)[:7]))
    fd = os.open(tmp_path / "f", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        write_all(fd, b"0123456789abcdefghij\n")
        write_all(fd, [b"one ", memoryview(b"two\n")])
    finally:
        os.close(fd)
    assert (tmp_path / "f").read_bytes() == b"0123456789abcdefghij\none two\n"


def test_has_games_says_whether_the_schedule_holds_a_game(tmp_path: Path) -> None:
    key = WriteKey()
    t = Tournament.create(tmp_path / "t", name="T", day=date(2026, 6, 1), lock=False, key=key)
    try:
        assert not t.has_games() and t.games() == []
        t.add_rows({"games": [{"id": "g1", "field": "1", "start": "2026-06-01T10:00"}]}, key)
        assert t.has_games() and [g["id"] for g in t.games()] == ["g1"]
    finally:
        t.close()
