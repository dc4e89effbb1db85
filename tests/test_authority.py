"""The head judge's actions (31 total correction, 32.01 no-show, the decision on a merge
conflict) and any append to a signed (locked) game, tried through every public entry point
without the head judge's secret: each is refused, the refusal names the rule section, and
nothing reaches the file (issue 9)."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest
from fakes import verify_folder
from results_fixtures import demo

from fieldjudge.rules import protocol as pr
from fieldjudge.rules.events import compute_hash
from fieldjudge.services import HeadJudge, open_tournament
from fieldjudge.services.demo import DEMO_PASSPHRASE
from fieldjudge.services.paintball import results as res
from fieldjudge.services.paintball.game import GameSession
from fieldjudge.services.sync.merge import conflicts, merge_into, resolve
from fieldjudge.services.trust.signing import signed_message
from fieldjudge.store import EventLog, NotTheWriter, Refused, Tournament, bundle
from fieldjudge.store.keys import LaptopKeys


def signed_game(t) -> str:
    """The first demo game: played, submitted and signed by both captains (locked)."""
    gid = t.games()[0]["id"]
    assert res.game_view(t, gid).protocol.locked
    return gid


def correction(t, gid: str) -> dict:
    v = res.game_view(t, gid)
    a, b = v.teams
    return {
        "old_points": dict(v.result.points),
        "new_points": {a: 0, b: 999},
        "old_diff": dict(v.result.diff),
        "new_diff": dict(v.result.diff),
        "reason": "forged",
        "head_judge": "nobody",
    }


def file_bytes(t, gid: str) -> bytes:
    return t.game_path(gid).read_bytes()


@pytest.fixture
def svc(tmp_path: Path):
    t = demo(tmp_path / "t", lock=True)
    yield t
    t.close()


def test_31_total_correction_without_pin_is_refused_everywhere(svc) -> None:
    gid = signed_game(svc)
    before = file_bytes(svc, gid)
    points = dict(res.game_view(svc, gid).result.points)
    a, b = res.game_view(svc, gid).teams
    # the service's intent, with a wrong secret and with none
    for pin in ("", "9999"):
        with pytest.raises(Refused, match=r"^31: only the head judge corrects a total"):
            res.correct_total(svc, gid, pin, {a: 0, b: 999}, "forged")
    # the one writer, without a grant, and with a grant it did not issue
    for grant in (None, HeadJudge("forged")):
        with pytest.raises(Refused, match=r"^31: only the head judge corrects a total"):
            svc.append_game_event(gid, pr.TOTAL_CORRECTED, correction(svc, gid), head_judge=grant)
    # the store's event log, as the service hands it out
    with pytest.raises(NotTheWriter, match=r"^31: .* written only through the services"):
        svc.game_log(gid).append(pr.TOTAL_CORRECTED, correction(svc, gid))
    assert file_bytes(svc, gid) == before
    assert dict(res.game_view(svc, gid).result.points) == points


def test_31_store_opened_directly_writes_nothing(svc) -> None:
    gid = signed_game(svc)
    folder = svc.folder
    before = file_bytes(svc, gid)
    data = correction(svc, gid)
    svc.close()
    # the store opened without the services' key: read-only
    t = Tournament.open(folder, startup_backup=False)
    try:
        with pytest.raises(NotTheWriter, match=r"^31: "):
            t.game_log(gid).append(pr.TOTAL_CORRECTED, data)
        with pytest.raises(NotTheWriter, match=r"^31: "):
            t.add_team("Forged")
        with pytest.raises(NotTheWriter, match=r"^31: "):
            t.update_meta(head_judge="forged")
    finally:
        t.close()
    # a tournament's game log opened bare
    log = EventLog.open(folder / "games" / f"{gid}.json")
    try:
        with pytest.raises(NotTheWriter, match=r"^31: "):
            log.append(pr.TOTAL_CORRECTED, data)
        with pytest.raises(NotTheWriter, match=r"^31: "):
            log.void(log.events[-1].id, "forged")
    finally:
        log.close()
    assert (folder / "games" / f"{gid}.json").read_bytes() == before
    again = open_tournament(folder, startup_backup=False)
    try:
        assert list(res.game_view(again, gid).protocol.corrections) == []
        assert all(faults == [] for faults in verify_folder(folder).values())
    finally:
        again.close()


def test_32_01_no_show_without_pin_is_refused_everywhere(svc) -> None:
    gid = svc.games()[-1]["id"]  # the last game: no gap problem, not played
    team = svc.game(gid)["team_a"]
    for pin in ("", "0000"):
        with pytest.raises(Refused, match=r"^32\.01: only the head judge rules a no-show"):
            res.record_no_show(svc, gid, [team], secret=pin)
    with pytest.raises(Refused, match=r"^32\.01: only the head judge rules a no-show"):
        svc.append_game_event(gid, pr.NO_SHOW, {"absent": [team], "reason": "late"})
    with pytest.raises(NotTheWriter, match=r"^31: "):
        svc.game_log(gid).append(pr.NO_SHOW, {"absent": [team], "reason": "late"})
    assert svc.game_log(gid).events == []
    # with the secret it is recorded (32.01)
    res.record_no_show(svc, gid, [team], secret=DEMO_PASSPHRASE)
    assert res.game_view(svc, gid).state.no_show == frozenset({team})


def test_31_signed_game_takes_no_more_events(svc) -> None:
    gid = signed_game(svc)
    before = file_bytes(svc, gid)
    session = GameSession(svc, gid)
    a = session.teams[0]
    with pytest.raises(Refused, match=r"^31: the protocol is signed by both captains"):
        svc.append_game_event(gid, "note", {"text": "late remark"})
    with pytest.raises(Refused, match=r"^31: the protocol is signed by both captains"):
        session.void(session.events[0].id, "forged")
    with pytest.raises(Refused, match=r"^31: the protocol is signed by both captains"):
        res.sign(svc, gid, a, "Someone")
    with pytest.raises(Refused, match=r"^31: the protocol is signed by both captains"):
        res.refuse(svc, gid, a, "changed my mind")
    assert file_bytes(svc, gid) == before


def _forge(doc: dict, etype: str, data: dict) -> dict:
    """Append an event to a log document with a valid hash chain, signed with this
    laptop's own key (what an insider holding the laptop could make), but without the
    head judge's signature."""
    events = list(doc["events"])
    last = events[-1]
    ev = {
        "id": "f" * 32,
        "seq": last["seq"] + 1,
        "type": etype,
        "game_clock_ms": None,
        "wall_time": last["wall_time"],
        "judge": "forger",
        "data": data,
        "prev_hash": last["hash"],
    }
    ev["hash"] = compute_hash(ev)
    keys = LaptopKeys.load_or_create()
    ev["sig"] = keys.sign(signed_message("event", ev["hash"]))
    ev["signer"] = keys.laptop_id
    return {**doc, "events": [*events, ev]}


def _tampered_copy(svc, tmp_path: Path, etype: str, data: dict) -> tuple[Path, str]:
    gid = signed_game(svc)
    other = tmp_path / "other"
    shutil.copytree(svc.folder, other, ignore=shutil.ignore_patterns(".cache"))
    path = other / "games" / f"{gid}.json"
    doc = _forge(bundle.read_log_file(path), etype, data)
    path.write_bytes(orjson.dumps(bundle.doc_to_log(doc)))
    return other, gid


def test_31_merge_of_a_correction_without_the_head_judges_signature_is_refused(
    svc, tmp_path
) -> None:
    gid = signed_game(svc)
    other, _gid = _tampered_copy(svc, tmp_path, pr.TOTAL_CORRECTED, correction(svc, gid))
    before = file_bytes(svc, gid)
    report = merge_into(svc, other)
    assert file_bytes(svc, gid) == before  # not taken
    assert report.conflicts == [] and conflicts(svc) == []
    n = len(svc.game_log(gid).events) + 1
    label = f'laptop "{svc.keys.name}" ({svc.keys.fingerprint})'
    assert [e for e in report.errors if e.startswith(f"games/{gid}:")] == [
        f"games/{gid}: not merged: event #{n} (total_corrected, {label}): "
        "a head-judge action without the head judge's signature"
    ]


def test_31_conflict_decision_needs_the_head_judges_secret(svc, tmp_path) -> None:
    gid = signed_game(svc)
    cdir = svc.folder / "conflicts" / "games"
    cdir.mkdir(parents=True)
    cpath = cdir / f"{gid}--{'0' * 12}.json"
    cpath.write_bytes(svc.game_path(gid).read_bytes())
    before = file_bytes(svc, gid)
    for pin in ("", "9999", "wrong secret"):
        with pytest.raises(Refused, match=r"^31: only the head judge decides"):
            resolve(svc, cpath, "theirs", pin)
    assert file_bytes(svc, gid) == before and cpath.exists()


def test_31_merge_of_an_event_after_the_lock_is_refused(svc, tmp_path) -> None:
    gid = signed_game(svc)
    other, _gid = _tampered_copy(svc, tmp_path, "note", {"text": "after the signatures"})
    before = file_bytes(svc, gid)
    report = merge_into(svc, other)
    assert file_bytes(svc, gid) == before
    assert report.conflicts == []
    assert [e for e in report.errors if e.startswith(f"games/{gid}:")] == [
        f"games/{gid}: not merged: event #{len(svc.game_log(gid).events) + 1} (note): "
        + str(pr.LOCKED_MESSAGE)
    ]


def test_19_05_marker_approval_without_pin_is_refused_everywhere(svc) -> None:
    from fieldjudge.rules.chrono_checks import APPROVAL
    from fieldjudge.services.paintball.marker_check import MarkerCheckService

    gid = svc.games()[-1]["id"]
    team = svc.game(gid)["team_a"]
    service = MarkerCheckService(svc, gid)
    for pin in ("", "9999"):
        with pytest.raises(Refused, match=r"^19\.05: only the head judge approves"):
            service.approve(team, pin)
    data = {"team": team, "results": {}, "approved_by": "nobody"}
    for grant in (None, HeadJudge("forged")):
        with pytest.raises(Refused, match=r"^19\.05: only the head judge approves"):
            svc.append_game_event(gid, APPROVAL, data, head_judge=grant)
    assert [e.type for e in svc.game_log(gid).events] == []
    service.approve(team, DEMO_PASSPHRASE)
    assert [e.type for e in svc.game_log(gid).events] == [APPROVAL]


def test_one_writer_per_game_until_the_head_judge_hands_it_over(tmp_path) -> None:
    folder = tmp_path / "t"
    demo(folder).close()
    a = open_tournament(folder, startup_backup=False, laptop_id="laptop-a")
    gid = a.games()[-1]["id"]
    first = a.append_game_event(gid, "note", {"text": "field 1"})
    assert a.game_log(gid).owner == "laptop-a"
    a.close()
    b = open_tournament(folder, startup_backup=False, laptop_id="laptop-b")
    try:
        with pytest.raises(Refused, match="^this game belongs to laptop laptop-a: it is read-only"):
            b.append_game_event(gid, "note", {"text": "field 2"})
        for pin in ("", "9999"):
            with pytest.raises(Refused, match="^only the head judge hands a game over"):
                b.hand_over_game(gid, "laptop-b", pin)
        with pytest.raises(Refused, match="^only the head judge hands a game over"):
            b.append_game_event(
                gid, "game_handover", {"from_laptop": "laptop-a", "to_laptop": "laptop-b"}
            )
        assert [e.id for e in b.game_log(gid).events] == [first.id]
        b.hand_over_game(gid, "laptop-b", DEMO_PASSPHRASE)
        b.append_game_event(gid, "note", {"text": "field 2 now"})
        assert b.game_log(gid).owner == "laptop-b"
    finally:
        b.close()
    a = open_tournament(folder, startup_backup=False, laptop_id="laptop-a")
    try:
        with pytest.raises(Refused, match="^this game belongs to laptop laptop-b"):
            a.append_game_event(gid, "note", {"text": "too late"})
    finally:
        a.close()
