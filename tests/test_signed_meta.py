"""Signed meta (issue 21, 5): a game file's meta (the game, its teams, field, start and
owner) is recorded in its first event, so it is hashed and signed with it; the owner moves
only by a signed hand-over event; ``verify`` checks the meta against the first event and
against the head judge's signed schedule in tournament.json."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import orjson
import pytest
from demo_template import copy_demo

from fieldjudge.rules.events import GENESIS_HASH, compute_hash
from fieldjudge.services import open_tournament
from fieldjudge.services.trust.checks import Verifier
from fieldjudge.services.trust.signing import signed_message
from fieldjudge.store import DamagedFile
from fieldjudge.store.eventlog import write_log_file
from fieldjudge.store.keys import LaptopKeys
from fieldjudge.store.pins import HeadJudgePins
from fieldjudge.store.schema import SIGNED_META
from fieldjudge.store.storage import load_json_file
from tests.test_tamper import run_verify


@pytest.fixture
def started(tmp_path: Path) -> tuple[Path, str]:
    """A demo folder with a scheduled game started on this laptop (two events)."""
    folder = tmp_path / "data" / "demo"
    copy_demo(folder, date(2026, 6, 1))
    t = open_tournament(folder, startup_backup=False)
    gid = next(g["id"] for g in t.games() if not t.store.game_path(g["id"]).exists())
    t.append_game_event(gid, "note", {"text": "first"})
    t.append_game_event(gid, "note", {"text": "second"})
    t.close()
    return folder, gid


def _edit_meta(path: Path, **fields) -> None:
    """A hand edit of the meta with the head kept consistent (as a script would)."""
    data = load_json_file(path)
    meta = dict(data["meta"]["1"])
    meta.update(fields)
    data["meta"] = {"1": meta}
    if "owner" in fields:
        data["head"] = {"1": {**data["head"]["1"], "owner": fields["owner"]}}
    write_log_file(path, data)


def test_the_first_event_signs_the_meta(started) -> None:
    folder, gid = started
    data = load_json_file(folder / "games" / f"{gid}.json")
    first = data["events"]["1"]
    meta = data["meta"]["1"]
    claim = first["data"][SIGNED_META]
    for name in ("game_id", "team_a", "team_b", "field", "start", "owner"):
        assert claim[name] == meta[name]
    assert SIGNED_META not in data["events"]["2"]["data"]
    out = run_verify(folder)
    assert out.returncode == 0, out.stdout + out.stderr


def test_an_owner_edited_by_hand_fails_verify_and_the_app(started) -> None:
    """Issue 21 (5): editing ``owner`` gave the game to another laptop; verify said ok."""
    folder, gid = started
    path = folder / "games" / f"{gid}.json"
    _edit_meta(path, owner="e" * 16)
    out = run_verify(folder)
    text = out.stdout + out.stderr
    assert out.returncode != 0, text
    assert "owner" in text and "first signed event" in text, text
    t = open_tournament(folder, startup_backup=False)
    try:
        with pytest.raises(DamagedFile, match="owner"):
            t.game_log(gid, create=False)
    finally:
        t.close()


@pytest.mark.parametrize(("name", "value"), [("team_a", "zzzz"), ("field", 9), ("start", "x")])
def test_teams_field_and_start_edited_by_hand_fail_verify(started, name, value) -> None:
    folder, gid = started
    _edit_meta(folder / "games" / f"{gid}.json", **{name: value})
    out = run_verify(folder)
    text = out.stdout + out.stderr
    assert out.returncode != 0, text
    assert name in text, text


def test_an_old_log_without_signed_meta_is_noted_and_checked_against_the_schedule(
    started,
) -> None:
    """A log written before signed meta: its first event lacks the record (it cannot be
    added without breaking its signature), so verify notes "unsigned meta" and still
    checks the teams, field and start against the signed schedule."""
    folder, gid = started
    path = folder / "games" / f"{gid}.json"
    data = load_json_file(path)
    # what an old version wrote: the same events without the record, signed as they are
    keys = LaptopKeys.load_or_create()
    prev = GENESIS_HASH
    events = {}
    for n in sorted(data["events"], key=int):
        e = dict(data["events"][n])
        e["data"] = {k: v for k, v in e["data"].items() if k != SIGNED_META}
        e["prev_hash"] = prev
        e["hash"] = compute_hash(e)
        e["sig"] = keys.sign(signed_message("event", e["hash"]))
        prev = e["hash"]
        events[n] = e
    data["events"] = events
    data.pop("head")
    write_log_file(path, data)
    out = run_verify(folder)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "unsigned meta" in out.stdout
    _edit_meta(path, team_b="other")
    out = run_verify(folder)
    assert out.returncode != 0
    assert "team_b" in out.stdout + out.stderr


def test_a_schedule_row_edited_later_is_seen_by_a_check_that_already_passed(started) -> None:
    """A pit or an app that found a game clean checks it again when the head judge's
    schedule row it was checked against changes (its memory of the file is keyed by the
    row): a field edited by hand in tournament.json is a fault of the game at once, as a
    fresh ``verify`` says."""
    folder, gid = started
    trust = Verifier(folder, HeadJudgePins(), memory={})
    assert trust.game_faults(gid) == []
    path = folder / "tournament.json"
    data = load_json_file(path)
    row = next(r for r in data["games"].values() if r["id"] == gid)
    row["field"] = "9" if str(row["field"]) != "9" else "8"
    path.write_bytes(orjson.dumps(data))
    trust.refresh()
    faults = trust.game_faults(gid)
    assert any("differs from the schedule" in f for f in faults), faults
    fresh = Verifier(folder, HeadJudgePins(), memory=dict(trust.memory))
    assert fresh.game_faults(gid) == faults  # the memory of it clean no longer holds
