"""A game handed over to another laptop without any laptop writing a game it does not own
(issue 22, defect 3): the head judge's hand-over is a record signed by him in his laptop's
own folder; the new owner takes the game over by its own append. Three laptops, each with
its own config folder (its own key), on one tournament folder opened in turn."""

from __future__ import annotations

import os
import time
from datetime import date
from pathlib import Path

import orjson
import pytest
from fakes import verify_folder

from fieldjudge.services import open_tournament
from fieldjudge.services.demo import create_demo
from fieldjudge.services.trust.head_judge import DEMO_PASSPHRASE, ScryptParams
from fieldjudge.store import HANDOVER, Refused
from fieldjudge.store.storage import load_json_file

FAST = ScryptParams(n=2**10)


@pytest.fixture
def venue(tmp_path: Path) -> tuple[Path, Path, Path, str]:
    """The demo made on the head judge's laptop (the test's config folder), a game started
    by field laptop 1; returns the folder, both field laptops' config folders, the game."""
    folder = tmp_path / "cup"
    create_demo(folder, day=date(2026, 5, 16), kdf=FAST).close()
    cfg1, cfg2 = tmp_path / "cfg-field-1", tmp_path / "cfg-field-2"
    t = open_tournament(folder, startup_backup=False, config_dir=cfg1)
    try:
        t.register_laptop(DEMO_PASSPHRASE)  # the head judge registers field laptop 1
        gid = next(g["id"] for g in t.games() if not t.game_path(g["id"]).exists())
        t.append_game_event(gid, "note", {"text": "field 1 started it"})
    finally:
        t.close()
    t = open_tournament(folder, startup_backup=False, config_dir=cfg2)
    try:
        t.register_laptop(DEMO_PASSPHRASE)  # and field laptop 2
    finally:
        t.close()
    return folder, cfg1, cfg2, gid


def laptop_id(folder: Path, cfg: Path) -> str:
    t = open_tournament(folder, startup_backup=False, config_dir=cfg, lock=False)
    try:
        return t.keys.laptop_id
    finally:
        t.close()


def test_the_head_judge_hands_a_game_over_without_writing_it(venue) -> None:
    folder, cfg1, cfg2, gid = venue
    field1, field2 = laptop_id(folder, cfg1), laptop_id(folder, cfg2)
    game = folder / "games" / f"{gid}.json"
    before = game.read_bytes()
    head = open_tournament(folder, startup_backup=False)
    try:
        with pytest.raises(Refused, match="only the head judge hands a game over"):
            head.hand_over_game(gid, field2, "не тот секрет")
        record = head.hand_over_game(gid, field2, DEMO_PASSPHRASE)
        assert isinstance(record, dict) and record["to_laptop"] == field2
        assert head.game_write_refusal(gid) is not None  # still not his laptop's game
        hid = head.keys.laptop_id
    finally:
        head.close()
    assert game.read_bytes() == before  # his laptop wrote only its own folder
    (kept,) = load_json_file(folder / "laptops" / hid / "handovers.json")
    assert (kept["game"], kept["from_laptop"], kept["to_laptop"]) == (gid, field1, field2)

    t = open_tournament(folder, startup_backup=False, config_dir=cfg2)
    try:
        assert t.game_write_refusal(gid) is None  # the next append takes it over
        t.append_game_event(gid, "note", {"text": "field 2 goes on"})
        events = t.game_log(gid).events
        assert [e.type for e in events] == ["note", HANDOVER, "note"]
        assert {e.signer for e in events[1:]} == {field2}
        assert t.game_log(gid).owner == field2
    finally:
        t.close()
    assert verify_folder(folder)[f"games/{gid}.json"] == []

    t = open_tournament(folder, startup_backup=False, config_dir=cfg1)
    try:  # the old owner is read-only now
        with pytest.raises(Refused, match=f"this game belongs to laptop {field2}"):
            t.append_game_event(gid, "note", {"text": "too late"})
    finally:
        t.close()


def test_a_forged_or_misplaced_hand_over_record_takes_nothing_over(venue) -> None:
    folder, cfg1, cfg2, gid = venue
    field2 = laptop_id(folder, cfg2)
    head = open_tournament(folder, startup_backup=False)
    try:
        record = head.hand_over_game(gid, field2, DEMO_PASSPHRASE)
        hid = head.keys.laptop_id
        other = next(
            g["id"] for g in head.games() if g["id"] != gid and not head.game_path(g["id"]).exists()
        )
    finally:
        head.close()
    path = folder / "laptops" / hid / "handovers.json"
    # field 2 edits the record to take another game too: the signature no longer holds
    forged = {**record, "game": other, "by": hid}
    path.write_bytes(orjson.dumps([forged]))
    t = open_tournament(folder, startup_backup=False, config_dir=cfg2)
    try:
        assert t.handover_for(gid, record["from_laptop"]) is None
        with pytest.raises(Refused, match="this game belongs to laptop"):
            t.append_game_event(gid, "note", {"text": "field 2"})
    finally:
        t.close()


def test_the_old_owner_stops_writing_once_it_sees_the_record(venue) -> None:
    """Issue 22: a laptop cut off while the head judge handed its game away appends on (it
    cannot know); once his record reaches it, it is read-only even before the new owner
    took the game over, so its later writes never add to the conflict. A record giving
    the game back, taken over by its own append, lifts it."""
    folder, cfg1, cfg2, gid = venue
    field1, field2 = laptop_id(folder, cfg1), laptop_id(folder, cfg2)
    head = open_tournament(folder, startup_backup=False)
    try:
        head.hand_over_game(gid, field2, DEMO_PASSPHRASE)
    finally:
        head.close()
    t = open_tournament(folder, startup_backup=False, config_dir=cfg1)
    try:
        assert t.game_log(gid).owner == field1  # not taken over yet
        assert t.game_write_refusal(gid) is not None
        with pytest.raises(Refused, match=f"this game belongs to laptop {field2}"):
            t.append_game_event(gid, "note", {"text": "field 1 writes on"})
    finally:
        t.close()
    t = open_tournament(folder, startup_backup=False, config_dir=cfg2)
    try:
        t.append_game_event(gid, "note", {"text": "field 2 goes on"})
    finally:
        t.close()
    head = open_tournament(folder, startup_backup=False)
    try:
        head.hand_over_game(gid, field1, DEMO_PASSPHRASE)  # field 1 is fixed: back to it
    finally:
        head.close()
    t = open_tournament(folder, startup_backup=False, config_dir=cfg1)
    try:
        assert t.game_write_refusal(gid) is None
        t.append_game_event(gid, "note", {"text": "field 1 again"})
        t.append_game_event(gid, "note", {"text": "field 1 goes on"})
        assert t.game_log(gid).owner == field1
    finally:
        t.close()
    assert verify_folder(folder)[f"games/{gid}.json"] == []


def _settle(folder: Path) -> None:
    """Time passes after what changed under ``laptops/``: each timestamp made since the
    last call is moved ten seconds back (each call's its own), so the laptop keeps what it
    read until a file changes again (a fresh one makes it read them again each time)."""
    now = time.time_ns()
    laptops = folder / "laptops"
    for p in [laptops, *laptops.glob("*"), *laptops.glob("*/*")]:
        if p.stat().st_mtime_ns > now - 5 * 10**9:
            os.utime(p, ns=(now - 10 * 10**9, now - 10 * 10**9))


def _record_aside(folder: Path, gid: str, to_laptop: str) -> tuple[Path, bytes]:
    """The head judge hands ``gid`` to ``to_laptop``; his ``handovers.json`` is taken away
    (Syncthing has not delivered it yet): (where it belongs, its bytes)."""
    head = open_tournament(folder, startup_backup=False)
    try:
        head.hand_over_game(gid, to_laptop, DEMO_PASSPHRASE)
        path = folder / "laptops" / head.keys.laptop_id / "handovers.json"
    finally:
        head.close()
    raw = path.read_bytes()
    path.unlink()
    return path, raw


def test_a_record_arriving_between_two_appends_stops_the_very_next_one(venue) -> None:
    """Issue 22, issue 24: the old owner keeps what it verified between appends, yet a
    record delivered, removed, tampered with or restored while it judges the game counts
    from its very next append: in a laptop folder new to it, in a known one, rewritten in
    place with the same size."""
    folder, cfg1, cfg2, gid = venue
    field2 = laptop_id(folder, cfg2)
    path, raw = _record_aside(folder, gid, field2)
    at = raw.index(b'"hj_sig":"') + len(b'"hj_sig":"')  # one letter of his signature
    tampered = raw[:at] + (b"B" if raw[at : at + 1] == b"A" else b"A") + raw[at + 1 :]
    newcomer = folder / "laptops" / "0123456789abcdef"
    refused = f"this game belongs to laptop {field2}"
    t = open_tournament(folder, startup_backup=False, config_dir=cfg1)

    def append(text: str) -> None:
        _settle(folder)  # what it read stays good until a file changes
        t.append_game_event(gid, "note", {"text": text})

    try:
        append("before the hand-over reaches field 1")
        append("nothing changed")
        newcomer.mkdir()  # a laptop folder new to it, its files to come
        append("an empty laptop folder came")
        (newcomer / "handovers.json").write_bytes(raw)
        with pytest.raises(Refused, match=refused):
            append("a new laptop folder holds it")
        (newcomer / "handovers.json").unlink()
        newcomer.rmdir()
        append("the record is gone again")
        path.write_bytes(raw)  # in the head judge's folder, known to it
        with pytest.raises(Refused, match=refused):
            append("his folder holds it")
        path.write_bytes(tampered)  # in place, the same size: the signature fails
        append("a forged record takes nothing")
        path.write_bytes(raw)
        with pytest.raises(Refused, match=refused):
            append("the record holds again")
        assert [e.data["text"] for e in t.game_log(gid).events[1:]] == [
            "before the hand-over reaches field 1",
            "nothing changed",
            "an empty laptop folder came",
            "the record is gone again",
            "a forged record takes nothing",
        ]
    finally:
        t.close()


def test_the_new_owner_takes_the_game_over_on_the_append_after_the_record_arrives(
    venue,
) -> None:
    """Issue 22, issue 24: refused while no record gives it the game; the append after
    the head judge's record reaches it takes the game over."""
    folder, cfg1, cfg2, gid = venue
    field1, field2 = laptop_id(folder, cfg1), laptop_id(folder, cfg2)
    path, raw = _record_aside(folder, gid, field2)
    t = open_tournament(folder, startup_backup=False, config_dir=cfg2)
    try:
        _settle(folder)
        with pytest.raises(Refused, match=f"this game belongs to laptop {field1}"):
            t.append_game_event(gid, "note", {"text": "not yet"})
        path.write_bytes(raw)
        _settle(folder)
        t.append_game_event(gid, "note", {"text": "field 2 goes on"})
        assert [e.type for e in t.game_log(gid).events] == ["note", HANDOVER, "note"]
        assert t.game_log(gid).owner == field2
    finally:
        t.close()
