"""Signed, anchored logs in the one writer (results-integrity issue, items 1-3): every
event signed by its laptop, head-judge actions by his key, the manifest of heads at every
protocol step, laptops' registrations, the signed tournament.json, and the head judge's
secret logged and rate-limited across restarts."""

from __future__ import annotations

import random
from datetime import date
from pathlib import Path

import pytest
from fakes import verify_folder

from fieldjudge.rules import protocol as pr
from fieldjudge.services import open_tournament
from fieldjudge.services.demo import create_demo
from fieldjudge.services.demo_history import Script, play
from fieldjudge.services.paintball import results as res
from fieldjudge.services.paintball.game import GameSession
from fieldjudge.services.paintball.marker_check import MarkerCheckService
from fieldjudge.services.trust import authority, identity
from fieldjudge.services.trust.head_judge import DEMO_PASSPHRASE, ScryptParams
from fieldjudge.services.trust.signing import signed_message, verify_signature
from fieldjudge.services.trust.verify import verify_report
from fieldjudge.store import Refused
from fieldjudge.store.anchors import read_heads
from fieldjudge.store.auth_log import AuthLog

FAST = ScryptParams(n=2**10)


class Wall:
    def __init__(self) -> None:
        self.now = 1_796_040_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    t = create_demo(tmp_path / "cup", day=date(2026, 5, 16), kdf=FAST)
    t.close()
    return tmp_path / "cup"


def test_every_event_is_signed_by_its_laptop_and_head_judge_actions_by_him(folder) -> None:
    t = open_tournament(folder, startup_backup=False)
    try:
        hj = t.pinned_hj
        assert hj == identity.head_judge_public_key(t.meta)
        seen_hj = 0
        for g in t.games():
            if not t.game_path(g["id"]).exists():
                continue
            for e in t.game_log(g["id"]).events:
                assert e.signer == t.keys.laptop_id
                assert verify_signature(
                    t.keys.public_key_b64, signed_message("event", e.hash), e.sig or ""
                )
                if e.type in authority.HEAD_JUDGE_TYPES:
                    seen_hj += 1
                    assert verify_signature(hj, signed_message("head_judge", e.hash), e.hj_sig)
                else:
                    assert e.hj_sig is None
        assert seen_hj == 1  # the demo's no-show (32.01)
    finally:
        t.close()
    assert all(f == [] for f in verify_folder(folder).values())


def test_the_manifest_records_the_head_at_every_protocol_step(folder) -> None:
    t = open_tournament(folder, startup_backup=False)
    try:
        gid = t.games()[5]["id"]
        play(t, gid, Script("hang", 1, 2), random.Random(3), close=False)
        n_end = len(t.game_log(gid).events)
        a, b = res.game_view(t, gid).teams
        res.submit_protocol(t, gid)
        res.sign(t, gid, a, "Иван")
        res.sign(t, gid, b, "Олег")
        log = t.game_log(gid)
        rows = [d for _n, d in read_heads(folder)[t.keys.laptop_id] if d and d["id"] == gid]
        assert [(d["step"], d["count"]) for d in rows] == [
            (pr.PROTOCOL_SUBMITTED, n_end + 1),
            (pr.CAPTAIN_SIGNED, n_end + 2),
            (pr.CAPTAIN_SIGNED, n_end + 3),
        ]
        assert rows[-1]["hash"] == log.last_hash
        assert t.anchor(gid) == (n_end + 3, log.last_hash)
        assert t.index.last_head(gid) == (n_end + 3, log.last_hash)
        # the end of a live game is a step too (here the judge ends it, 18.02)
        g2 = t.games()[6]["id"]
        s = GameSession(t, g2)
        s.start_clock()
        s.end_by_judge("rain")
        rows = [d for _n, d in read_heads(folder)[t.keys.laptop_id] if d and d["id"] == g2]
        assert [(d["step"], d["count"]) for d in rows] == [("game_end", 2)]
    finally:
        t.close()


def test_a_laptop_without_the_head_judges_signature_is_listed_unregistered(
    folder, tmp_path
) -> None:
    other = tmp_path / "laptop-b"
    b = open_tournament(folder, startup_backup=False, config_dir=other)
    try:
        lid = b.keys.laptop_id
        rep = verify_report(folder)[f"laptops/{lid}/laptop.json"]
        assert rep.faults == []
        assert rep.notes == [f'laptop "{b.keys.name}" ({b.keys.fingerprint}, unregistered)']
        b.register_laptop(DEMO_PASSPHRASE)  # the head judge registers it with his secret
        rep = verify_report(folder)[f"laptops/{lid}/laptop.json"]
        assert rep.notes == [f'laptop "{b.keys.name}" ({b.keys.fingerprint})']
    finally:
        b.close()


def test_wrong_secrets_are_logged_and_wait_across_restarts(folder) -> None:
    wall = Wall()
    gid = None
    t = open_tournament(folder, startup_backup=False, wall=wall)
    try:
        gid = t.games()[0]["id"]
        a, b = res.game_view(t, gid).teams
        for _ in range(3):
            with pytest.raises(Refused, match="Wrong head judge's secret"):
                res.correct_total(t, gid, "not his secret", {a: 0, b: 3}, "forged")
        lid = t.keys.laptop_id
    finally:
        t.close()
    log = AuthLog(folder, lid)
    mine = [x for x in log.attempts() if x.t == wall.now]
    assert [(x.laptop, x.what, x.result) for x in mine] == [
        (lid, pr.TOTAL_CORRECTED, "attempt")
    ] * 3
    assert verify_report(folder)[f"laptops/{lid}/laptop.json"].notes[1:] == [
        "3 wrong head judge's secret(s) since the last right one"
    ]
    # a restart does not give three more: the right secret waits too
    t = open_tournament(folder, startup_backup=False, wall=wall)
    try:
        with pytest.raises(Refused, match="try again in 30 s"):
            res.correct_total(t, gid, DEMO_PASSPHRASE, {a: 0, b: 3}, "fixed")
        # the marker-check approval goes through the same limit (19.05)
        mc = MarkerCheckService(t, t.games()[-1]["id"])
        with pytest.raises(Refused, match=r"^19\.05: .*try again in 30 s"):
            mc.approve(t.game(t.games()[-1]["id"])["team_a"], DEMO_PASSPHRASE)
        wall.now += 31
        ev = res.correct_total(
            t, gid, DEMO_PASSPHRASE, {a: 0, b: 3}, "fixed", confirmed_against_rules=True
        )
        assert ev.hj_sig and ev.type == pr.TOTAL_CORRECTED
    finally:
        t.close()
    assert all(f == [] for f in verify_folder(folder).values())


def test_an_unsigned_change_of_tournament_json_is_flagged_until_he_signs(folder) -> None:
    t = open_tournament(folder, startup_backup=False)  # no secret typed in this session
    try:
        t.add_team("Рыжие")
        assert verify_folder(folder)["tournament.json"][0].startswith(
            "changed since the head judge signed it"
        )
        t.sign_tournament(DEMO_PASSPHRASE)
        assert verify_folder(folder)["tournament.json"] == []
        t.add_team("Серые")  # his key is unlocked in this session now: signed at once
        assert verify_folder(folder)["tournament.json"] == []
    finally:
        t.close()


def test_a_hand_over_is_signed_by_the_head_judge(folder) -> None:
    a = open_tournament(folder, startup_backup=False, laptop_id="laptop-a")
    gid = a.games()[-1]["id"]
    a.append_game_event(gid, "note", {"text": "field 1"})
    a.close()
    b = open_tournament(folder, startup_backup=False, laptop_id="laptop-b")
    try:
        ev = b.hand_over_game(gid, "laptop-b", DEMO_PASSPHRASE)
        assert verify_signature(b.pinned_hj, signed_message("head_judge", ev.hash), ev.hj_sig)
    finally:
        b.close()
    assert verify_folder(folder)[f"games/{gid}.json"] == []


def test_32_03_the_replay_of_a_no_show_is_his_signed_void(folder) -> None:
    from datetime import UTC, datetime, timedelta

    from fieldjudge.rules.events import VOID

    t = open_tournament(folder, startup_backup=False)
    try:
        g = t.games()[6]
        gid = g["id"]
        start = datetime.fromisoformat(g["start"]).astimezone(UTC)
        when = start + timedelta(minutes=13)
        res.record_no_show(
            t, gid, [g["team_b"]], when=when, secret=DEMO_PASSPHRASE, cause="organisers"
        )
        no_show = t.game_log(gid).events[-1]
        # undoing his ruling without his secret is refused, whatever the entry point
        with pytest.raises(Refused, match=r"^32\.01: only the head judge rules a no-show"):
            t.append_game_event(gid, VOID, {"target": no_show.id, "reason": "undo"})
        ev = res.replay_no_show(t, gid, DEMO_PASSPHRASE, when=when)
        assert ev.type == VOID and ev.data["target"] == no_show.id
        assert verify_signature(t.pinned_hj, signed_message("head_judge", ev.hash), ev.hj_sig)
    finally:
        t.close()
    assert verify_folder(folder)[f"games/{gid}.json"] == []


def test_verify_checks_every_stored_event_against_the_rules_again(folder) -> None:
    """The app's fold trusts a stored event (the game screen asked the rules before it
    appended it); an event the rules refuse that reached a log another way (another
    program, a merge) is a fault of ``fieldjudge verify``, which checks every event again."""
    t = open_tournament(folder, startup_backup=False)
    try:
        g = next(g for g in t.games() if not t.game_path(g["id"]).exists())
        gid, team = g["id"], g["team_a"]
        number = t.players(team)[0]["number"]
        player = [{"team": team, "number": number}]
        t.append_game_event(gid, "clock_start", {}, game_clock_ms=0)
        t.append_game_event(gid, "elimination", {"reason": "hit", "players": player})
        t.append_game_event(gid, "elimination", {"reason": "hit", "players": player})
        assert [e.type for e in t.game_log(gid).events] == ["clock_start"] + ["elimination"] * 2
    finally:
        t.close()
    assert verify_folder(folder)[f"games/{gid}.json"] == [
        f"event #3 (elimination): the rules refuse it: 26: {team} #{number} is already "
        "eliminated (26)"
    ]
