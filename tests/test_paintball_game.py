"""Eliminations, checks, pre-game verdicts, phases and the post-game inspection."""

import pytest
from fakes import LogBuilder, demo_setup, ref

from fieldjudge.rules.paintball.checks import refusal
from fieldjudge.rules.paintball.setup import Settings
from fieldjudge.rules.paintball.state import fold, validate

R, B = "red", "blue"


def started(**settings):
    setup = demo_setup(Settings(**settings)) if settings else demo_setup()
    log = LogBuilder()
    log.add("clock_start")
    log.tick(30_000)
    return setup, log


def state(setup, log):
    return fold(setup, log.events)


def out(setup, log, *players, reason="hit", **extra):
    return log.add("elimination", reason=reason, players=[ref(t, n) for t, n in players], **extra)


def test_26_hit_eliminates_with_reason_time_and_section():
    setup, log = started()
    out(setup, log, (R, 3))
    st = state(setup, log)
    p = st.player(R, 3)
    assert p.status == "eliminated"
    assert (p.elimination.reason, p.elimination.section, p.elimination.game_clock_ms) == (
        "hit",
        "26",
        30_000,
    )
    assert st.alive(R) == 4 and st.alive(B) == 5


@pytest.mark.parametrize(
    "reason,section",
    [
        ("picked_up_balls", "29.01"),
        ("out_of_bounds", "29.02"),
        ("no_mask", "29.03"),
        ("deadman", "29.04"),
        ("tools", "29.05"),
        ("equipment_over_2m", "29.06"),
        ("unsportsmanlike", "29.07"),
        ("judge_removal", "29.08"),
        ("imitating_signals", "29.09"),
        ("own_flag_touch", "22.01"),
    ],
)
def test_29_every_removal_reason_cites_its_section(reason, section):
    setup, log = started()
    out(setup, log, (B, 2), reason=reason)
    assert state(setup, log).player(B, 2).elimination.section == section


def test_26_two_opponents_hit_at_once_one_event_eliminates_both():
    setup, log = started()
    out(setup, log, (R, 1), (B, 1))
    st = state(setup, log)
    assert st.player(R, 1).status == st.player(B, 1).status == "eliminated"
    assert st.player(R, 1).elimination.event_id == st.player(B, 1).elimination.event_id


def test_26_simultaneous_elimination_refuses_teammates_and_non_hits():
    setup, log = started()
    why = validate(
        setup, log.events, "elimination", {"reason": "hit", "players": [ref(R, 1), ref(R, 2)]}
    )
    assert why and why.startswith("26")
    why = validate(
        setup, log.events, "elimination", {"reason": "no_mask", "players": [ref(R, 1), ref(B, 2)]}
    )
    assert why and why.startswith("26")


def test_26_eliminating_a_player_already_out_is_refused():
    setup, log = started()
    out(setup, log, (R, 3))
    why = validate(setup, log.events, "elimination", {"reason": "hit", "players": [ref(R, 3)]})
    assert why == "26: red #3 is already eliminated (26)"


def test_refuses_player_not_on_roster():
    setup, log = started()
    why = validate(setup, log.events, "elimination", {"reason": "hit", "players": [ref(R, 99)]})
    assert why and "not on the game roster" in why


def test_no_game_action_before_start_or_after_end():
    setup = demo_setup()
    log = LogBuilder()
    why = validate(setup, log.events, "elimination", {"reason": "hit", "players": [ref(R, 1)]})
    assert why == "19.01: the game has not started"
    log.add("clock_start")
    log.tick(420_000)
    log.add("game_end", reason="clock")
    why = validate(setup, log.events, "flag_capture", ref(R, 1))
    assert why and why.startswith("18.02")


def test_28_02_playing_on_is_group_removal_1_plus_1_by_default():
    setup, log = started()
    bad = {"reason": "playing_on", "players": [ref(R, 2)]}
    assert validate(setup, log.events, "elimination", bad).startswith("29.08: group removal 1+1")
    out(setup, log, (R, 2), reason="playing_on", second=4)
    st = state(setup, log)
    assert st.player(R, 2).elimination.section == "28.02"
    assert (st.player(R, 4).elimination.reason, st.player(R, 4).elimination.section) == (
        "group_removal",
        "29.08",
    )
    assert st.alive(R) == 3


def test_29_08_second_player_must_be_teammate_in_play():
    setup, log = started()
    out(setup, log, (R, 4))
    d = {"reason": "playing_on", "players": [ref(R, 2)], "second": 4}
    assert "already eliminated" in validate(setup, log.events, "elimination", d)
    d["second"] = 2
    assert validate(setup, log.events, "elimination", d).startswith("29.08")
    d = {"reason": "hit", "players": [ref(R, 2)], "second": 3}
    assert "no second player" in validate(setup, log.events, "elimination", d)


def test_29_08_group_removal_without_any_teammate_left_takes_only_offender():
    setup, log = started()
    for n in (2, 3, 4, 5):
        out(setup, log, (R, n))
    d = {"reason": "playing_on", "players": [ref(R, 1)]}
    assert validate(setup, log.events, "elimination", d) is None


def test_34_01_catalogue_setting_makes_playing_on_a_single_removal():
    setup, log = started(penalties={"playing_on": "removal"})
    d = {"reason": "playing_on", "players": [ref(R, 2)]}
    assert validate(setup, log.events, "elimination", d) is None


def test_25_03_neutral_cannot_be_eliminated():
    setup, log = started()
    log.add("neutral_start", **ref(B, 3))
    st = state(setup, log)
    assert st.player(B, 3).status == "neutral"
    why = refusal(st, "elimination", {"reason": "hit", "players": [ref(B, 3)]})
    assert why.startswith("25.03")
    # and as the second player of a group removal
    why = refusal(st, "elimination", {"reason": "playing_on", "players": [ref(B, 1)], "second": 3})
    assert why.startswith("25.03")


def test_25_02_neutral_check_outcome_and_duration():
    setup, log = started()
    log.add("neutral_start", **ref(B, 3))
    log.tick(20_000)
    log.add("neutral_end", outcome="in_play", **ref(B, 3))
    st = state(setup, log)
    p = st.player(B, 3)
    assert p.status == "in_play" and p.check is None
    assert (p.checks[0].kind, p.checks[0].start_ms, p.checks[0].end_ms) == (
        "neutral",
        30_000,
        50_000,
    )
    assert p.checks[0].end_ms - p.checks[0].start_ms == 20_000
    log.add("neutral_start", **ref(B, 3))
    log.tick(5_000)
    log.add("neutral_end", outcome="eliminated", **ref(B, 3))
    p = state(setup, log).player(B, 3)
    assert p.status == "eliminated" and p.elimination.section == "25.02"


def test_25_02_neutral_refused_twice_and_end_without_start():
    setup, log = started()
    assert validate(
        setup, log.events, "neutral_end", {**ref(B, 3), "outcome": "in_play"}
    ).startswith("25.02")
    log.add("neutral_start", **ref(B, 3))
    assert "already neutral" in validate(setup, log.events, "neutral_start", ref(B, 3))


def test_24_paint_check_records_duration_and_outcome():
    setup, log = started()
    log.add("paint_check_start", **ref(R, 5))
    log.tick(8_000)
    log.add("paint_check_end", outcome="eliminated", **ref(R, 5))
    p = state(setup, log).player(R, 5)
    assert p.status == "eliminated" and p.elimination.section == "24.01"
    assert p.checks[0].end_ms - p.checks[0].start_ms == 8_000


def test_26_06_player_under_paint_check_may_still_be_hit():
    setup, log = started()
    log.add("paint_check_start", **ref(R, 5))
    log.tick(2_000)
    out(setup, log, (R, 5))
    p = state(setup, log).player(R, 5)
    assert p.status == "eliminated" and p.check is None
    assert p.checks[0].outcome == "eliminated"


def test_25_01_paint_check_escalates_to_neutral():
    setup, log = started()
    log.add("paint_check_start", **ref(R, 5))
    log.add("neutral_start", **ref(R, 5))
    p = state(setup, log).player(R, 5)
    assert p.status == "neutral" and p.check.kind == "neutral"
    assert p.checks[0].outcome == "escalated"


def test_20_in_game_chrono_removal_and_group():
    setup, log = started()
    log.add("chrono_reading", fps=305.0, forbidden_mode=False, **ref(R, 2))
    st = state(setup, log)
    assert st.player(R, 2).elimination.section == "20.03"
    assert st.chrono[-1].penalty == "removal"
    d = {**ref(B, 2), "fps": 315.0, "forbidden_mode": False}
    assert validate(setup, log.events, "chrono_reading", d).startswith("29.08")
    log.add("chrono_reading", second=5, **d)
    st = state(setup, log)
    assert st.player(B, 2).elimination.section == "20.04"
    assert st.player(B, 5).elimination.reason == "group_removal"


def test_20_02_clean_reading_changes_nothing_but_is_recorded():
    setup, log = started()
    log.add("chrono_reading", fps=295.5, forbidden_mode=False, **ref(R, 2))
    st = state(setup, log)
    assert st.player(R, 2).status == "in_play"
    assert st.chrono[-1].fps == 295.5 and st.chrono[-1].penalty == "none"


def test_20_04_above_320_flagged_for_head_judge():
    setup, log = started()
    log.add("chrono_reading", fps=331, forbidden_mode=False, second=3, **ref(R, 2))
    st = state(setup, log)
    assert st.player(R, 3).status == "eliminated"
    assert len(st.flagged) == 1 and "331" in st.flagged[0].text


def test_20_05_forbidden_mode_disqualifies_and_flags_team_penalty():
    setup, log = started()
    log.add("chrono_reading", fps=280, forbidden_mode=True, second=3, **ref(R, 2))
    st = state(setup, log)
    p = st.player(R, 2)
    assert p.status == "eliminated" and p.disqualified
    assert st.team_penalties and "team red" in st.team_penalties[0].text
    # the team penalty from the catalogue: group removal 1+1 by default
    assert st.player(R, 3).elimination.reason == "group_removal"


def test_19_pre_game_marker_verdicts():
    setup = demo_setup()
    log = LogBuilder()
    log.add("checkin", team=R, late=False)
    log.add("marker_verdict", result="not_admitted", **ref(R, 2))
    log.add("marker_verdict", result="no_marker", **ref(R, 3))
    log.add("clock_start")
    st = fold(setup, log.events)
    assert st.player(R, 2).status == "not_admitted"
    assert st.player(R, 3).status == "no_marker" and not st.player(R, 3).has_marker
    assert st.alive(R) == 4  # not admitted is not on the field
    assert st.checkins == {R: False}
    assert validate(setup, log.events, "chrono_reading", {**ref(R, 3), "fps": 250}).startswith(
        "19.07"
    )
    assert validate(
        setup, log.events, "elimination", {"reason": "hit", "players": [ref(R, 2)]}
    ).startswith("19.06")
    assert validate(
        setup, log.events, "marker_verdict", {**ref(R, 2), "result": "admitted"}
    ).startswith("19.01")


def test_19_06_fixed_marker_readmitted_before_start():
    setup = demo_setup()
    log = LogBuilder()
    log.add("marker_verdict", result="not_admitted", **ref(R, 2))
    log.add("marker_verdict", result="admitted", **ref(R, 2))
    assert fold(setup, log.events).player(R, 2).status == "in_play"


def test_all_players_of_a_team_out_ends_game_at_that_time_with_the_setting():
    setup, log = started(end_when_team_out=True)  # off by default: see test_game_end.py
    for n in range(1, 5):
        out(setup, log, (B, n))
    log.tick(12_345)
    out(setup, log, (B, 5))
    st = state(setup, log)
    assert (st.end_reason, st.end_ms, st.phase) == ("team_out", 42_345, "inspection")
    assert [p.number for p in st.to_inspect()] == [1, 2, 3, 4, 5]


def test_18_02_inspection_marks_and_final():
    setup, log = started()
    log.tick(390_000)
    log.add("game_end", reason="clock")
    st = state(setup, log)
    assert st.phase == "inspection" and len(st.to_inspect()) == 10
    for t in (R, B):
        for n in range(1, 6):
            result = {(R, 1): "hit_found", (B, 2): "did_not_report"}.get((t, n), "clean")
            assert refusal(st, "inspection", {**ref(t, n), "result": result}) is None
            log.add("inspection", result=result, **ref(t, n))
            st = state(setup, log)
    assert st.phase == "final"
    assert st.player(R, 1).elimination.reason == "failed_inspection"
    assert st.player(B, 2).elimination.reason == "did_not_report"
    assert st.alive(R) == 4 and st.alive(B) == 4
    assert len(st.penalty_reports) == 1 and "red #1" in st.penalty_reports[0].text


def test_18_02_inspection_twice_refused_and_only_unhit():
    setup, log = started()
    out(setup, log, (R, 1))
    log.add("game_end", reason="judge")
    log.add("inspection", result="clean", **ref(R, 2))
    st = state(setup, log)
    assert "void that mark" in refusal(st, "inspection", {**ref(R, 2), "result": "clean"})
    assert "only unhit" in refusal(st, "inspection", {**ref(R, 1), "result": "clean"})
    assert st.flagged and "judge" in st.flagged[0].text


def test_30_01_game_end_by_clock_refused_before_time_runs_out():
    setup, log = started()
    why = validate(setup, log.events, "game_end", {"reason": "clock"}, game_clock_ms=400_000)
    assert why == "30.01: the game time has not run out (0:20 left)"
    assert (
        validate(setup, log.events, "game_end", {"reason": "clock"}, game_clock_ms=420_000) is None
    )


def test_23_01_time_stop_freezes_captures_until_resume():
    setup, log = started()
    log.add("time_stop")
    assert validate(setup, log.events, "flag_capture", ref(R, 1)).startswith("23.01")
    assert (
        validate(setup, log.events, "elimination", {"reason": "hit", "players": [ref(R, 1)]})
        is None
    )
    log.add("clock_resume")
    assert validate(setup, log.events, "flag_capture", ref(R, 1)) is None


def test_32_01_no_show_ends_the_log():
    setup = demo_setup()
    log = LogBuilder()
    log.add("checkin", team=R, late=True)
    log.add("no_show", absent=[R], reason="late")
    st = fold(setup, log.events)
    assert st.phase == "final" and st.no_show == {R}
    assert validate(setup, log.events, "clock_start", {}).startswith("32.01")


def test_recheck_records_illegal_events_from_another_laptop_instead_of_crashing():
    """``fieldjudge verify`` folds with ``recheck``: every stored event is checked again."""
    setup, log = started()
    out(setup, log, (R, 3))
    bad = out(setup, log, (R, 3))  # second elimination of the same player
    log.add("elimination", reason="hit", players="garbage")
    log.add("elimination", reason="hit", players=[{"team": R, "number": "x"}])
    log.add("flag_handover", team=R, from_number=None, to_number=2)
    other = log.add("some_other_screen_event", anything=1)
    st = fold(setup, log.events, recheck=True)
    assert [n.event_id for n in st.rejected][0] == bad.id
    assert len(st.rejected) == 4
    assert st.ignored == [other.id]
    # the stored log is trusted (checked when appended), yet a record that cannot be
    # applied is still rejected, never a crash
    trusted = state(setup, log)
    assert [n.seq for n in trusted.rejected] == [4, 5, 6]
    assert trusted.ignored == [other.id]
    assert st.player(R, 3).elimination.event_id == "e2"


def test_a_void_rechecks_the_events_it_reaches():
    """A stored event was checked when appended; voiding an earlier event changes its
    history, so the fold checks it again: a flag handover from a carrier whose capture
    of the flag is voided is rejected."""
    setup, log = started()
    cap = log.add("flag_capture", **ref(R, 1))
    log.tick(1_000)
    hand = log.add("flag_handover", team=R, from_number=1, to_number=2)
    assert not state(setup, log).rejected
    log.void(cap)
    st = state(setup, log)
    assert [n.event_id for n in st.rejected] == [hand.id]
    assert st.rejected == fold(setup, log.events, recheck=True).rejected


def test_fold_survives_events_without_game_clock():
    setup = demo_setup()
    log = LogBuilder()
    log.add("clock_start")
    log.tick(12_000)
    log.add("elimination", game_clock_ms=None, reason="hit", players=[ref(R, 1)])
    assert fold(setup, log.events).player(R, 1).elimination.game_clock_ms == 12_000


def test_void_restores_the_player():
    setup, log = started()
    e = out(setup, log, (R, 3))
    log.void(e)
    st = state(setup, log)
    assert st.player(R, 3).status == "in_play" and st.player(R, 3).elimination is None
    assert st.alive(R) == 5
