"""The crash-safe store: chain, void, lock, damaged files, migrations, backups."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import orjson
import pytest

from fieldjudge.rules.events import effective, verify_chain
from fieldjudge.store import DamagedFile, EventLog, FolderLocked, Refused, Tournament, WriteKey
from fieldjudge.store.backup import backups_of, make_backup, newest_good_backup, restore
from fieldjudge.store.storage import TEMP_MARK
from fieldjudge.store.validate import validate_file


def test_append_builds_a_verifiable_chain(tmp_path: Path) -> None:
    log = EventLog.create(tmp_path / "g.json", "game", {"game_id": "g"})
    a = log.append("hit", {"team": "A", "number": 7}, judge="Судья", game_clock_ms=1000)
    b = log.append("hit", {"team": "B", "number": 3}, judge="Судья", game_clock_ms=2000)
    assert (a.seq, b.seq) == (1, 2)
    assert b.prev_hash == a.hash
    reopened = EventLog.open(tmp_path / "g.json")
    assert [e.id for e in reopened.events] == [a.id, b.id]
    assert reopened.events[0].data == {"team": "A", "number": 7}
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


def test_tampered_event_is_a_damaged_file_and_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    log = EventLog.create(path, "game", {})
    log.append("hit", {"number": 7})
    log.append("hit", {"number": 8})
    log.close()
    data = orjson.loads(path.read_bytes())
    data["events"]["1"]["data"]["number"] = 9  # someone edits the file by hand
    tampered = orjson.dumps(data)
    path.write_bytes(tampered)
    with pytest.raises(DamagedFile) as info:
        EventLog.open(path)
    assert "chain" in info.value.fault
    assert path.read_bytes() == tampered


@pytest.mark.parametrize(
    ("content", "fault"),
    [
        (b'{"meta": {"1": {"schema": 1', "not valid JSON"),
        (b'{"meta": {"1": {"schema": 99, "kind": "game"}}, "events": {}}', "schema version 99"),
        (b"[1, 2]", "not a JSON object"),
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


def test_migration_from_schema_0(tmp_path: Path) -> None:
    from fieldjudge.rules.events import GENESIS_HASH, compute_hash

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
    path.write_bytes(orjson.dumps({"events": {"1": doc}}))
    log = EventLog.open(path)
    assert log.meta["schema"] == 1 and log.kind == "game"
    assert log.events[0].judge == "" and log.events[0].hash == doc["hash"]
    log.append("hit", {})  # the chain continues from the migrated file
    assert len(EventLog.open(path).events) == 2  # reopening verifies the whole chain


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
    from fieldjudge.services import summaries

    gid = tournament.games()[-1]["id"]  # not played yet (the first round is signed)
    tournament.append_game_event(gid, "note", {"text": "x"})
    s1 = tournament.game_summary(gid)
    calls = []
    monkeypatch.setattr(summaries, "summarize", lambda t, g, lg: calls.append(g) or {})
    assert tournament.game_summary(gid) == s1  # unchanged file: served from the index
    assert calls == []
    tournament.append_game_event(gid, "note", {"text": "y"})
    tournament.game_summary(gid)
    assert calls == [gid]


def test_verify_chain_reports_the_first_break() -> None:
    assert verify_chain([]) is None
    assert "sequence" in verify_chain([{"seq": 2}])


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
