"""Pure protocol logic (31), no-show gap (32.03), PIN gate, corrections; hypothesis
invariants. Engine-level scoring is tested by the engine's own tests."""

from __future__ import annotations

from datetime import datetime, timedelta

from fakes import LogBuilder, demo_setup
from hypothesis import given
from hypothesis import strategies as st

from fieldjudge.rules import protocol as pr
from fieldjudge.rules.paintball.scoring import game_result
from fieldjudge.rules.paintball.state import fold

TEAMS = ("red", "blue")
GAME_TYPES = ["elimination", "clock_start", "void", "no_show", "flag_capture"]


def closed_log() -> LogBuilder:
    log = LogBuilder()
    log.add("clock_start")
    log.tick(5000).add("elimination", reason="hit", players=[{"team": "blue", "number": 2}])
    log.tick(420_000 - 5000).add("game_end", reason="clock")
    return log


def test_31_submit_sign_lock():
    log = closed_log()
    assert pr.lock_refusal(log.events, pr.CAPTAIN_SIGNED, {"team": "red", "name": "x"}, TEAMS)
    log.add(pr.PROTOCOL_SUBMITTED, points={"red": 1, "blue": 1})
    assert pr.fold_protocol(log.events, TEAMS).phase == pr.SUBMITTED
    assert pr.lock_refusal(log.events, pr.CAPTAIN_SIGNED, {"team": "red", "name": " "}, TEAMS)
    log.add(pr.CAPTAIN_SIGNED, team="red", name="Ivan")
    assert pr.lock_refusal(log.events, pr.CAPTAIN_SIGNED, {"team": "red", "name": "x"}, TEAMS)
    corr = {"old_points": {"red": 1, "blue": 1}, "new_points": {"red": 2, "blue": 1}, "reason": "x"}
    assert "until both captains" in pr.lock_refusal(log.events, pr.TOTAL_CORRECTED, corr, TEAMS)
    log.add(pr.CAPTAIN_SIGNED, team="blue", name="Oleg")
    p = pr.fold_protocol(log.events, TEAMS)
    assert p.locked and p.phase == pr.LOCKED
    assert p.signatures["blue"].name == "Oleg" and p.signatures["blue"].wall_time
    for etype in ("elimination", "void", pr.PROTOCOL_SUBMITTED, pr.CAPTAIN_REFUSED, "no_show"):
        assert pr.lock_refusal(log.events, etype, {}, TEAMS) == pr.LOCKED_MESSAGE
    assert pr.lock_refusal(log.events, pr.TOTAL_CORRECTED, corr, TEAMS) is None
    assert pr.lock_refusal(log.events, pr.TOTAL_CORRECTED, {**corr, "reason": ""}, TEAMS)


def test_31_refusal_is_not_a_lock_and_game_change_makes_it_stale():
    log = closed_log()
    log.add(pr.PROTOCOL_SUBMITTED)
    log.add(pr.CAPTAIN_REFUSED, team="blue", reason="wrong hit", captain="Oleg")
    log.add(pr.CAPTAIN_SIGNED, team="red", name="Ivan")
    p = pr.fold_protocol(log.events, TEAMS)
    assert p.phase == pr.SIGNED and not p.locked
    assert p.refusals["blue"].reason == "wrong hit"
    # a game event after the submission: a new protocol is needed (31)
    log2 = closed_log()
    log2.add(pr.PROTOCOL_SUBMITTED)
    log2.add(pr.CAPTAIN_SIGNED, team="red", name="Ivan")
    log2.void(log2.events[1], "wrong player")
    p2 = pr.fold_protocol(log2.events, TEAMS)
    assert not p2.submitted and p2.phase == pr.OPEN


def test_31_correction_applies_to_the_result():
    setup = demo_setup()
    log = closed_log()
    result = game_result(setup, fold(setup, log.events))
    log.add(pr.PROTOCOL_SUBMITTED)
    log.add(pr.CAPTAIN_SIGNED, team="red", name="a")
    log.add(pr.CAPTAIN_SIGNED, team="blue", name="b")
    log.add(
        pr.TOTAL_CORRECTED,
        old_points=dict(result.points),
        new_points={"red": 3, "blue": 0},
        old_diff=dict(result.diff),
        new_diff=dict(result.diff),
        reason="sum",
        head_judge="HJ",
    )
    p = pr.fold_protocol(log.events, TEAMS)
    fixed = pr.apply_corrections(result, p)
    assert dict(fixed.points) == {"red": 3, "blue": 0}
    assert p.corrections[0].old_points == dict(result.points)
    assert p.corrections[0].head_judge == "HJ"
    assert any("31" in n for n in fixed.notes)


def test_32_01_no_show_only_before_the_start():
    """32.01: a no-show is ruled before the game starts; once started, the refusal says so
    (not the pre-game check-in's 19.01)."""
    from fieldjudge.rules.paintball.checks import game_phase_refusal

    setup = demo_setup()
    log = LogBuilder()
    assert game_phase_refusal(fold(setup, log.events), "no_show") is None
    log.add("clock_start")
    why = game_phase_refusal(fold(setup, log.events), "no_show")
    assert why is not None and str(why).startswith("32.01: a no-show is ruled before")
    assert str(game_phase_refusal(fold(setup, log.events), "checkin")).startswith("19.01")


def test_32_03_no_show_gap():
    end = datetime(2026, 5, 16, 10, 7)
    assert pr.no_show_gap_refusal("A", None, end, 12) is None
    assert "32.03" in pr.no_show_gap_refusal("A", end, end + timedelta(minutes=11), 12)
    assert pr.no_show_gap_refusal("A", end, end + timedelta(minutes=12), 12) is None


@given(st.integers(0, 30 * 60))
def test_32_03_gap_property(seconds):
    end = datetime(2026, 5, 16, 10, 7)
    now = end + timedelta(seconds=seconds)
    refused = pr.no_show_gap_refusal("A", end, now, 12) is not None
    assert refused == (seconds < 12 * 60)


events_strategy = st.lists(
    st.one_of(
        st.tuples(st.just(pr.PROTOCOL_SUBMITTED), st.just("")),
        st.tuples(st.sampled_from([pr.CAPTAIN_SIGNED, pr.CAPTAIN_REFUSED]), st.sampled_from(TEAMS)),
        st.tuples(st.sampled_from(GAME_TYPES), st.just("")),
    ),
    max_size=12,
)


def _build(script, guarded: bool) -> LogBuilder:
    log = LogBuilder()
    for etype, team in script:
        data = {"team": team, "name": "n", "reason": "r"} if team else {}
        if guarded and pr.lock_refusal(log.events, etype, data, TEAMS):
            continue
        if etype == "void":
            if not log.events:
                continue
            log.void(log.events[0])
        else:
            log.add(etype, **data)
    return log


@given(events_strategy)
def test_lock_is_final_through_the_guard(script):
    """With the guard, once locked the protocol stays locked whatever is tried."""
    log = _build(script, guarded=True)
    locked_at = None
    for i in range(1, len(log.events) + 1):
        if pr.fold_protocol(log.events[:i], TEAMS).locked:
            locked_at = i
            break
    if locked_at is not None:
        assert len(log.events) == locked_at
        assert pr.lock_refusal(log.events, "elimination", {}, TEAMS) == pr.LOCKED_MESSAGE


@given(events_strategy)
def test_protocol_fold_symmetric_in_team_order(script):
    log = _build(script, guarded=False)
    p1 = pr.fold_protocol(log.events, TEAMS)
    p2 = pr.fold_protocol(log.events, TEAMS[::-1])
    assert p1.phase == p2.phase and p1.signatures == p2.signatures
    assert p1.refusals == p2.refusals
