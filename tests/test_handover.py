"""A game handed over to another laptop without any laptop writing a game it does not own
(issue 22, defect 3): the head judge's hand-over is a record signed by him in his laptop's
own folder; the new owner takes the game over by its own append. Three laptops, each with
its own config folder (its own key), on one tournament folder opened in turn."""

from __future__ import annotations

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
