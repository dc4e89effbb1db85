"""Issue 11, paintball items 1-12: each reading played through the engine, citing its
section (rulebook file 003, RULES.md "How a game ends", "Playing on", "Reading precision")."""

from __future__ import annotations

import math

import pytest
from fakes import LogBuilder, demo_setup, ref
from hypothesis import given
from hypothesis import strategies as hs

from fieldjudge.devices.parsers import Decoder
from fieldjudge.i18n import rule_text
from fieldjudge.rules.marker_check import FAIL, NOT_DONE, check_marker
from fieldjudge.rules.messages import Team, rule
from fieldjudge.rules.paintball.checks import (
    advisories,
    game_phase_refusal,
    refusal,
    replay_refusal,
)
from fieldjudge.rules.paintball.chrono import chrono_verdict, judged_fps
from fieldjudge.rules.paintball.scoring import game_result
from fieldjudge.rules.paintball.setup import GameSetup, Settings
from fieldjudge.rules.paintball.state import disqualified_in, fold

R, B = "red", "blue"


def started(settings: Settings | None = None, at_ms: int = 0):
    setup = demo_setup(settings)
    log = LogBuilder()
    log.add("clock_start")
    log.tick(at_ms)
    return setup, log


def wipe_out(log: LogBuilder, team: str) -> None:
    for n in range(1, 6):
        log.add("elimination", reason="hit", players=[ref(team, n)])


def run_out(setup, log):
    log.tick(setup.settings.game_length_ms - log.game_ms)
    log.add("game_end", reason="clock")
    st = fold(setup, log.events)
    for p in st.players.values():
        if p.unhit:
            log.add("inspection", result="clean", **ref(p.team, p.number))
    return fold(setup, log.events)


# --- 1. a team with no players left does not end the game (23.03, 30.01) ---------------


def test_23_03_30_01_blue_wiped_out_at_0_50_red_then_hangs_3_0_not_a_draw():
    setup, log = started(at_ms=50_000)
    wipe_out(log, B)
    st = fold(setup, log.events)
    assert (st.phase, st.end_reason) == ("running", None)  # the game goes on
    assert st.teams_out == [B] and st.only_team_in_play == R
    log.tick(30_000)
    log.add("flag_capture", **ref(R, 3))
    log.tick(20_000)
    log.add("flag_hang", **ref(R, 3))
    log.add("hang_verdict", paint="clean", fps=288.0, forbidden_mode=False)
    for n in range(1, 6):
        log.add("inspection", result="clean", **ref(R, n))
    st = fold(setup, log.events)
    assert (st.end_reason, st.end_ms, st.phase) == ("flag_hang", 100_000, "final")
    res = game_result(setup, st)
    assert res.outcome == "flag_hang"
    assert dict(res.points) == {R: 3, B: 0} and dict(res.diff) == {R: 5, B: -5}


def test_23_03_team_out_then_clock_runs_out_is_a_draw_on_points_with_the_difference():
    setup, log = started(at_ms=50_000)
    wipe_out(log, B)
    res = game_result(setup, run_out(setup, log))
    assert res.outcome == "draw" and dict(res.points) == {R: 1, B: 1}
    assert dict(res.diff) == {R: 5, B: -5} and res.winner == R


def test_23_03_setting_end_when_team_out_ends_the_game_at_once():
    setup, log = started(Settings(end_when_team_out=True), at_ms=50_000)
    wipe_out(log, B)
    st = fold(setup, log.events)
    assert (st.end_reason, st.end_ms, st.phase) == ("team_out", 50_000, "inspection")
    assert st.only_team_in_play is None
    assert Settings.from_dict({"end_when_team_out": True}).end_when_team_out
    assert Settings().to_dict()["end_when_team_out"] is False


def test_23_03_only_team_in_play_message_in_both_languages():

    msg = rule("only_team_in_play", team=Team(R))
    assert (
        msg
        == "23.03: only red is in play: the game goes on, red may still capture and hang the flag"
    )
    assert rule_text(msg, {R: "Красные"}, lang="ru").startswith(
        "23.03: в игре осталась только команда «Красные»"
    )


# --- 2. playing on while eliminated (27.02-27.05, 28.02, 29.11) ------------------------


@pytest.mark.parametrize("section", ["27.02", "27.03", "27.04", "27.05", "28.02", "29.11"])
def test_28_02_29_11_playing_on_while_eliminated_is_a_team_group_removal(section):
    setup, log = started(at_ms=60_000)
    log.add("elimination", reason="hit", players=[ref(R, 2)])
    d = {"reason": "playing_on", "section": section, "players": [ref(R, 2)]}
    st = fold(setup, log.events)
    assert (
        refusal(st, "elimination", d)
        == "29.08: group removal 1+1: name the second player of team red"
    )
    log.tick(5_000)
    log.add("elimination", second=4, **d)
    st = fold(setup, log.events)
    assert st.player(R, 2).elimination.reason == "hit"  # his own elimination stays
    assert st.player(R, 4).elimination.reason == "group_removal"
    assert st.player(R, 4).elimination.game_clock_ms == 65_000
    assert st.alive(R) == 3 and st.alive(B) == 5 and not st.rejected
    assert st.team_penalties[-1].text == (
        f"{section}: red #2 played on while eliminated: team penalty, group removal 1+1"
    )


def test_28_02_playing_on_cites_only_its_sections():
    setup, log = started()
    log.add("elimination", reason="hit", players=[ref(R, 2)])
    d = {"reason": "playing_on", "section": "26", "players": [ref(R, 2)], "second": 3}
    assert refusal(fold(setup, log.events), "elimination", d).startswith("28.02: playing on")


def test_28_02_playing_on_with_a_removal_catalogue_takes_nobody_else():
    setup, log = started(Settings(penalties={"playing_on": "removal"}))
    log.add("elimination", reason="hit", players=[ref(B, 1)])
    log.add("elimination", reason="playing_on", players=[ref(B, 1)])
    st = fold(setup, log.events)
    assert st.alive(B) == 4 and not st.rejected
    assert "no further removal" in st.team_penalties[-1].text


def test_26_other_reasons_still_refuse_an_eliminated_player():
    setup, log = started()
    log.add("elimination", reason="hit", players=[ref(R, 2)])
    why = refusal(
        fold(setup, log.events), "elimination", {"reason": "no_mask", "players": [ref(R, 2)]}
    )
    assert why == "29.03: red #2 is already eliminated (26)"


# --- 3. both teams hold a flag at the end (30.01) -------------------------------------


def test_30_01_both_hold_the_two_points_go_to_the_earlier_holding_capture():
    setup, log = started(at_ms=10_000)
    log.add("flag_capture", **ref(R, 1))  # red captures first ...
    log.tick(5_000)
    log.add("elimination", reason="hit", players=[ref(R, 1)])  # ... and loses it (22.04)
    log.tick(5_000)
    log.add("flag_capture", **ref(B, 2))  # blue holds from here
    log.tick(5_000)
    log.add("flag_capture", **ref(R, 3))  # red holds the spare from here, later than blue
    log.add("flag_handover", team=R, from_number=3, to_number=4)  # a handover keeps it
    res = game_result(setup, run_out(setup, log))
    assert res.first_capture_team == R
    assert (res.outcome, res.flag_held_team) == ("flag_held", B)
    assert dict(res.points) == {R: 0, B: 2}
    assert "30.01: both teams hold a flag; blue captured first" in res.notes


# --- 4. 140 balls limit the judges (19.05) --------------------------------------------


def test_19_05_140_balls_is_a_notice_and_a_restart_keeps_the_count():
    readings = [(285.0, i * 0.1) for i in range(100)]
    first = check_marker(readings, slap_fired=None, release_t=None)
    assert first.balls_notice is None and first.balls_left == 40
    # the check is restarted after 100 balls: 40 more reach the limit, not 140
    again = [(286.0, i * 0.1) for i in range(40)]
    r = check_marker(again, slap_fired=False, release_t=None, balls_before=100)
    assert r.balls_used == 140 and r.balls_left == 0 and r.balls_notice is not None
    assert rule_text(r.balls_notice, lang="ru").startswith("19.05: израсходовано шаров: 140")
    # the verdict is taken on the tests done: the after-release test is not done → refused
    assert not r.admitted and r.test("after_release").outcome == NOT_DONE
    assert r.reasons == ("19.05: after-release test not done",)


# --- 5. reading precision (20.02 / 20.03) ----------------------------------------------


@pytest.mark.parametrize(
    "fps,penalty",
    [
        (300.9, "none"),
        (301.0, "removal"),
        (310.99, "removal"),
        (311.0, "group_1_1"),
        (320.9, "group_1_1"),
    ],
)
def test_20_02_20_03_judged_on_whole_fps_rounded_down_shown_as_read(fps, penalty):
    v = chrono_verdict(Settings(), fps)
    assert v.penalty == penalty and v.judged_fps == math.floor(fps)
    assert f"{fps:g} fps" in v.text  # the device's value is shown


def test_20_03_exact_precision_setting():
    assert chrono_verdict(Settings(fps_precision="exact"), 300.1).penalty == "removal"
    assert Settings.from_dict({"fps_precision": "exact"}).fps_precision == "exact"
    assert Settings.from_dict({"fps_precision": "tenths"}).fps_precision == "whole"


def test_20_02_in_game_verdict_on_the_shots_the_judge_chose_record_as_read():
    setup, log = started(at_ms=90_000)
    log.add("chrono_reading", fps=300.9, shots=[288.4, 300.9, 297.0], **ref(B, 3))
    st = fold(setup, log.events)
    rec = st.chrono[-1]
    assert (rec.fps, rec.penalty) == (300.9, "none") and st.player(B, 3).status == "in_play"
    d = {**ref(B, 3), "fps": 290, "shots": [290, 291, 292, 293]}
    assert (
        refusal(st, "chrono_reading", d)
        == "20.02: the verdict is taken on 1 to 3 readings the judge chooses"
    )


def test_20_03_device_precision_kept_from_the_frame_to_the_verdict():
    dec = Decoder("plain", unit="mph")
    (reading,) = dec.feed(b"205.2\r", t=1.0)
    assert reading.fps == 300.96  # not 301.0: rounding first would remove the player
    assert chrono_verdict(Settings(), reading.fps).penalty == "none"


@given(hs.floats(0, 1000), hs.floats(0, 1000))
def test_20_02_precision_rounding_is_monotone(a, b):
    lo, hi = sorted((a, b))
    assert judged_fps(lo) <= judged_fps(hi)
    # at most the reading (float noise of a unit conversion aside), less than 1 fps below
    assert judged_fps(lo) - 1e-6 <= lo < judged_fps(lo) + 1
    order = ["none", "removal", "group_1_1"]
    pa, pb = chrono_verdict(Settings(), lo).penalty, chrono_verdict(Settings(), hi).penalty
    if hi <= 320.99:
        assert order.index(pa) <= order.index(pb)


# --- 6. forbidden mode (20.05) ---------------------------------------------------------


def test_20_05_team_penalty_from_the_catalogue_default_group_removal():
    setup, log = started(at_ms=120_000)
    d = {**ref(R, 2), "fps": 280, "forbidden_mode": True}
    st = fold(setup, log.events)
    assert (
        refusal(st, "chrono_reading", d)
        == "29.08: group removal 1+1: name the second player of team red"
    )
    log.add("chrono_reading", second=5, **d)
    st = fold(setup, log.events)
    assert st.player(R, 2).disqualified and st.player(R, 2).elimination.section == "20.05"
    assert st.player(R, 5).elimination.reason == "group_removal"
    assert st.alive(R) == 3


def test_20_05_catalogue_removal_only_needs_no_second_player():
    s = Settings(penalties={"forbidden_mode": "removal"})
    v = chrono_verdict(s, 280, forbidden_mode=True)
    assert v.disqualify and not v.needs_second_player


def test_20_05_with_20_04_over_310_both_apply():
    s = Settings(penalties={"forbidden_mode": "removal"})  # even without the team's 1+1
    v = chrono_verdict(s, 315, forbidden_mode=True)
    assert (v.penalty, v.disqualify, v.needs_second_player) == ("disqualification", True, True)
    assert v.text == (
        "20.05: forbidden mode (minimum 95 ms): removal, disqualification for the tournament and "
        "a team penalty of section 11; 315 fps is over 310 fps: group removal 1+1 as well "
        "(20.05 and 20.04)"
    )


def test_20_05_disqualified_player_cannot_be_put_in_play_in_a_later_game():
    setup, log = started(at_ms=60_000)
    log.add("chrono_reading", fps=280, forbidden_mode=True, second=5, **ref(R, 2))
    dq = disqualified_in([fold(setup, log.events)])
    assert dq == {(R, 2)}
    base = demo_setup()
    later = GameSetup("g2", R, B, base.rosters, base.settings, disqualified=dq)
    log2 = LogBuilder()
    st = fold(later, log2.events)
    assert st.player(R, 2).status == "disqualified" and st.player(R, 2).disqualified
    why = refusal(st, "marker_verdict", {**ref(R, 2), "result": "admitted"})
    assert (
        why
        == "20.05: red #2 was disqualified for the rest of the tournament and cannot be put in play"
    )
    log2.add("marker_verdict", result="admitted", **ref(R, 2))  # from another laptop: rejected
    log2.add("clock_start")
    st = fold(later, log2.events)
    assert st.player(R, 2).status == "disqualified" and st.alive(R) == 4
    assert len(st.rejected) == 1
    hit = {"reason": "hit", "players": [ref(R, 2)]}
    assert refusal(st, "elimination", hit).startswith("20.05: red #2 was disqualified")


# --- 7. post-game inspection penalty points (18.02) ------------------------------------


def test_18_02_penalty_points_per_hit_found_subtracted_not_below_zero():
    setup, log = started(at_ms=30_000)
    log.add("flag_capture", **ref(R, 1))
    log.tick(setup.settings.game_length_ms - log.game_ms)
    log.add("game_end", reason="clock")
    log.add("inspection", result="hit_found", **ref(R, 2))  # default 1 point
    log.add("inspection", result="hit_found", penalty_points=2, **ref(B, 3))  # senior judge: 2
    for t in (R, B):
        for n in range(1, 6):
            if (t, n) not in ((R, 2), (B, 3)):
                log.add("inspection", result="clean", **ref(t, n))
    st = fold(setup, log.events)
    assert st.phase == "final" and st.inspection_points == {R: 1, B: 2}
    # the notes the protocol prints (export/html.py, screens/protocol.py)
    assert [n.text for n in st.penalty_reports] == [
        "18.02: hit found on red #2 at the inspection: 1 penalty point(s)",
        "18.02: hit found on blue #3 at the inspection: 2 penalty point(s)",
    ]
    res = game_result(setup, st)
    assert dict(res.points) == {R: 1, B: 0}  # flag held 2 - 1; loss 0 - 2 stays 0
    assert dict(res.penalty_points) == {R: 1, B: 2}
    assert (
        "18.02: red: 1 penalty point(s) for hits found at the inspection, subtracted from the game points"
        in res.notes
    )
    bad = {**ref(R, 4), "result": "hit_found", "penalty_points": -1}
    assert refusal(fold(setup, log.events[:-1]), "inspection", bad) is not None


# --- 8. marker check: 19.03 acceptance and the 19.04 forbidden-mode step ----------------


def test_19_03_marker_refused_for_a_foreign_object_or_a_toolless_adjuster():
    readings = [(285.0, 0.0), (286.0, 0.1)]
    acc = {"foreign_object": True, "loose_parts": False, "toolless_adjuster": True}
    r = check_marker(readings, slap_fired=False, release_t=0.15, acceptance=acc, modes="ok")
    assert r.refused and not r.admitted
    assert r.test("acceptance").outcome == FAIL
    assert r.reasons == (
        "19.03: marker not accepted for the check: a foreign object in the barrel, breech or "
        "loader; a part that changes the velocity or mode without tools",
    )
    clean = dict.fromkeys(acc, False)
    ok = check_marker(readings, slap_fired=False, release_t=0.15, acceptance=clean, modes="ok")
    assert ok.admitted and not ok.refused


def test_19_04_forbidden_mode_step():
    readings = [(285.0, 0.0), (286.0, 0.1)]
    bad = check_marker(readings, slap_fired=False, release_t=0.15, modes="forbidden")
    assert not bad.admitted and bad.reasons == ("19.04: the marker fires in a forbidden mode",)
    todo = check_marker(readings, slap_fired=False, release_t=0.15, modes=None)
    assert not todo.admitted and todo.test("modes").outcome == NOT_DONE


# --- 9. before the start (20.07, second item) ------------------------------------------


def test_20_07_markers_down_eliminations_accepted_before_the_clock_starts():
    setup = demo_setup()
    log = LogBuilder()
    d = {"reason": "markers_down", "players": [ref(B, 4)]}
    assert game_phase_refusal(fold(setup, log.events), "elimination", "markers_down") is None
    log.add("elimination", game_clock_ms=None, **d)
    log.add("clock_start")
    st = fold(setup, log.events)
    p = st.player(B, 4)
    assert (p.status, p.elimination.section, p.elimination.game_clock_ms) == (
        "eliminated",
        "20.07",
        None,
    )
    assert st.alive(B) == 4 and not st.rejected
    # once the clock runs it is refused; other reasons stay refused before the start
    assert refusal(st, "elimination", {"reason": "markers_down", "players": [ref(B, 5)]}) == (
        '20.07: a marker not laid down on "Markers down" is recorded before the start only'
    )
    hit = {"reason": "hit", "players": [ref(B, 5)]}
    assert refusal(fold(setup, []), "elimination", hit) == "19.01: the game has not started"


# --- 10. old paint spots (29.10) -------------------------------------------------------


def test_29_10_old_paint_noted_before_the_game_shown_at_a_paint_check():
    setup = demo_setup()
    log = LogBuilder()
    log.add("old_paint", spot="left sleeve, dry orange spot", **ref(R, 4))
    log.add("clock_start")
    log.tick(40_000)
    st = fold(setup, log.events)
    assert st.player(R, 4).old_paint == ["left sleeve, dry orange spot"]
    notes = advisories(st, "paint_check_start", ref(R, 4))
    assert notes == [
        "29.10: red #4 reported old paint spots before the game: left sleeve, dry orange spot"
    ]
    assert advisories(st, "paint_check_start", ref(R, 3)) == []
    assert refusal(st, "old_paint", {**ref(R, 3), "spot": "x"}).startswith("19.01")
    assert refusal(fold(setup, []), "old_paint", {**ref(R, 3), "spot": " "}).startswith("29.10")


# --- 11. no-show cause (32.03) ---------------------------------------------------------


def test_32_03_only_an_organisers_no_show_may_be_replayed_by_the_head_judge_in_the_round():
    setup = demo_setup()
    team = LogBuilder()
    team.add("no_show", absent=[B])
    st = fold(setup, team.events)
    assert st.no_show_cause == "team"
    assert replay_refusal(st, head_judge=True, round_open=True) == (
        "32.03: a no-show caused by a team is not replayed"
    )
    org = LogBuilder()
    org.add("no_show", absent=[B], cause="organisers")
    st = fold(setup, org.events)
    res = game_result(setup, st)
    assert dict(res.points) == {R: 3, B: 0} and res.replayable and res.no_show_cause == "organisers"
    assert replay_refusal(st, head_judge=False, round_open=True).startswith(
        "32.03: only the head judge"
    )
    assert replay_refusal(st, head_judge=True, round_open=False).startswith(
        "32.03: the round is over"
    )
    assert replay_refusal(st, head_judge=True, round_open=True) is None
    assert refusal(fold(setup, []), "no_show", {"absent": [B], "cause": "weather"}).startswith(
        "32.03"
    )


# --- 12. paint check on a flag carrier (25.05); hang verdict text (20.03) ---------------


def test_25_05_paint_check_on_a_flag_carrier_is_warned():
    setup, log = started(at_ms=20_000)
    log.add("flag_capture", **ref(B, 1))
    st = fold(setup, log.events)
    assert advisories(st, "paint_check_start", ref(B, 1)) == [
        "25.05: blue #1 carries the flag: judges never stop a flag carrier"
    ]


def test_20_03_hang_rejected_at_305_fps_is_logged_under_20_03_never_clean():
    setup, log = started(at_ms=20_000)
    log.add("flag_capture", **ref(B, 1))
    log.tick(10_000)
    log.add("flag_hang", **ref(B, 1))
    log.add("hang_verdict", paint="clean", fps=305, forbidden_mode=False)
    st = fold(setup, log.events)
    hang = st.hangs[-1]
    assert hang.counted is False and hang.text.section == "20.03"
    assert hang.text == "20.03: flag hang not counted: 305 fps is over 300 fps: player removed"
    assert "clean" not in hang.text and "чисто" not in rule_text(hang.text, lang="ru")
    assert st.player(B, 1).elimination.section == "20.03"


# --- invariants ------------------------------------------------------------------------


EVENTS = [
    ("elimination", {"reason": "hit", "players": [ref(B, 1)]}),
    ("chrono_reading", {**ref(R, 2), "fps": 300.9}),
    ("flag_capture", ref(R, 3)),
    ("paint_check_start", ref(B, 2)),
]


@given(hs.lists(hs.sampled_from(range(len(EVENTS))), max_size=6), hs.integers(0, 5))
def test_voiding_an_event_changes_nothing(picks, at):
    """An event and its void together leave the game as if neither was logged."""
    setup, log = started(at_ms=10_000)
    for i in picks:
        log.add(EVENTS[i][0], **EVENTS[i][1])
    before = fold(setup, log.events)
    target = log.add("elimination", reason="hit", players=[ref(R, 5)])
    log.void(target, "wrong player")
    after = fold(setup, log.events)
    assert {k: p.status for k, p in after.players.items()} == {
        k: p.status for k, p in before.players.items()
    }
    assert game_result(setup, after).points == game_result(setup, before).points


def test_24_01_25_02_a_check_that_finds_a_hit_notes_where_one_in_play_notes_nothing():
    """24.01 / 25.02: a player hit at a paint or a neutral check is out with the note of
    that check; one back in play from a check carries no elimination."""
    setup, log = started()
    log.add("paint_check_start", **ref(R, 1))
    log.add("paint_check_end", outcome="in_play", **ref(R, 1))
    log.add("paint_check_start", **ref(R, 2))
    log.add("paint_check_end", outcome="eliminated", **ref(R, 2))
    log.add("neutral_start", **ref(B, 3))
    log.add("neutral_end", outcome="eliminated", **ref(B, 3))
    st = fold(setup, log.events)
    assert not st.rejected
    assert st.players[(R, 1)].elimination is None
    paint, neutral = st.players[(R, 2)].elimination, st.players[(B, 3)].elimination
    assert (paint.section, str(paint.text)) == ("24.01", "hit found at the paint check")
    assert (neutral.section, str(neutral.text)) == ("25.02", "hit found at the neutral check")
