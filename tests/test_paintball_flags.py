"""Flags (21-22) and the flag hang (23)."""

from fakes import LogBuilder, demo_setup, ref

from fieldjudge.rules.paintball.checks import refusal
from fieldjudge.rules.paintball.scoring import game_result
from fieldjudge.rules.paintball.state import fold, validate

R, B = "red", "blue"


def started():
    setup = demo_setup()
    log = LogBuilder()
    log.add("clock_start")
    log.tick(30_000)
    return setup, log


def test_21_capture_takes_opponents_flag_from_base():
    setup, log = started()
    log.add("flag_capture", **ref(R, 2))
    st = fold(setup, log.events)
    f = st.flags[B]
    assert (f.location, f.carrier, f.since_ms) == ("carried", (R, 2), 30_000)
    assert st.player(R, 2).carrying == B
    assert st.first_capture_team == R
    assert "carried by red #2" in refusal(st, "flag_capture", ref(R, 3))


def test_22_03_handover_between_unhit_teammates():
    setup, log = started()
    log.add("flag_capture", **ref(R, 2))
    log.tick(10_000)
    log.add("flag_handover", team=R, from_number=2, to_number=4)
    st = fold(setup, log.events)
    assert st.flags[B].carrier == (R, 4) and st.flags[B].since_ms == 40_000
    assert st.player(R, 2).carrying is None and st.player(R, 4).carrying == B


def test_22_03_handover_to_eliminated_player_refused():
    setup, log = started()
    log.add("flag_capture", **ref(R, 2))
    log.add("elimination", reason="hit", players=[ref(R, 4)])
    why = validate(
        setup, log.events, "flag_handover", {"team": R, "from_number": 2, "to_number": 4}
    )
    assert why == "22.03: red #4 is eliminated; only unhit players may take the flag"
    why = validate(
        setup, log.events, "flag_handover", {"team": R, "from_number": 3, "to_number": 5}
    )
    assert why == "22.03: red #3 does not carry a flag"


def test_25_05_flag_carrier_cannot_be_declared_neutral():
    setup, log = started()
    log.add("flag_capture", **ref(R, 2))
    why = validate(setup, log.events, "neutral_start", ref(R, 2))
    assert why and why.startswith("25.05")


def test_22_04_carrier_eliminated_judge_takes_flag_and_spare_hung():
    setup, log = started()
    log.add("flag_capture", **ref(R, 2))
    log.tick(5_000)
    log.add("elimination", reason="hit", players=[ref(R, 2)])
    st = fold(setup, log.events)
    f = st.flags[B]
    assert (f.location, f.carrier, f.spares_hung, f.taken_by_judge) == ("at_base", None, 1, 1)
    assert st.player(R, 2).carrying is None
    # the spare can be captured again
    assert refusal(st, "flag_capture", ref(R, 3)) is None


def test_22_02_hidden_flag_removal_only_for_carrier_and_triggers_22_04():
    setup, log = started()
    d = {"reason": "flag_hidden", "players": [ref(R, 2)]}
    assert validate(setup, log.events, "elimination", d).startswith("22.02")
    log.add("flag_capture", **ref(R, 2))
    log.add("elimination", **d)
    st = fold(setup, log.events)
    assert st.player(R, 2).elimination.section == "22.02"
    assert st.flags[B].spares_hung == 1


def test_22_01_own_flag_touch_is_removal():
    setup, log = started()
    log.add("elimination", reason="own_flag_touch", players=[ref(B, 1)])
    assert fold(setup, log.events).player(B, 1).elimination.section == "22.01"


def hang(setup, log, touch_tick=60_000, check_wait=45_000):
    log.add("flag_capture", **ref(R, 2))
    log.tick(touch_tick)
    touch = log.add("flag_hang", **ref(R, 2))
    log.wait(check_wait)  # the checks take wall time, the clock is stopped
    return touch


def test_23_01_flag_hang_stops_clock_and_waits_for_verdict():
    setup, log = started()
    touch = hang(setup, log)
    st = fold(setup, log.events)
    assert st.phase == "hang_check"
    assert not st.clock.running and st.clock.elapsed_ms == touch.game_clock_ms == 90_000
    assert validate(
        setup, log.events, "elimination", {"reason": "hit", "players": [ref(B, 1)]}
    ).startswith("23.01")
    assert validate(setup, log.events, "hang_verdict", {"paint": "clean"}).startswith(
        "23.01: the marker"
    )


def test_23_03_clean_hang_ends_game_at_touch_time():
    setup, log = started()
    hang(setup, log)
    log.tick(0)
    log.add("hang_verdict", game_clock_ms=None, paint="clean", fps=288.0, forbidden_mode=False)
    st = fold(setup, log.events)
    assert (st.end_reason, st.end_ms) == ("flag_hang", 90_000)
    assert st.hang_team == R and st.hangs[-1].counted is True
    assert st.flags[B].location == "hung"
    assert st.phase == "inspection"
    assert st.chrono[-1].fps == 288.0


def test_23_02_hit_carrier_eliminated_spare_up_clock_resumes_from_touch():
    setup, log = started()
    hang(setup, log)
    log.add("hang_verdict", paint="hit", fps=288.0, forbidden_mode=False)
    st = fold(setup, log.events)
    assert st.phase == "stopped" and st.end_reason is None
    assert st.player(R, 2).status == "eliminated"
    assert st.player(R, 2).elimination.section == "23.02"
    assert st.flags[B].location == "at_base" and st.flags[B].spares_hung == 1
    log.add("clock_resume")
    st = fold(setup, log.events)
    assert st.phase == "running" and st.clock.elapsed_ms == 90_000


def test_23_02_carrier_over_the_limit_eliminated():
    setup, log = started()
    hang(setup, log)
    log.add("hang_verdict", paint="clean", fps=305, forbidden_mode=False)
    st = fold(setup, log.events)
    assert st.hang_team is None and st.hangs[-1].counted is False
    assert st.player(R, 2).elimination.section == "20.03"
    assert st.flags[B].spares_hung == 1


def test_23_02_carrier_over_310_needs_second_player():
    setup, log = started()
    hang(setup, log)
    d = {"paint": "clean", "fps": 315, "forbidden_mode": False}
    assert validate(setup, log.events, "hang_verdict", d).startswith("29.08")
    log.add("hang_verdict", second=5, **d)
    st = fold(setup, log.events)
    assert st.player(R, 5).elimination.reason == "group_removal"


def test_23_01_carrier_without_marker_needs_no_chrono():
    setup = demo_setup()
    log = LogBuilder()
    log.add("marker_verdict", result="no_marker", **ref(R, 2))
    log.add("clock_start")
    hang(setup, log)
    assert validate(setup, log.events, "hang_verdict", {"paint": "clean", "fps": None}) is None


def test_30_01_flag_held_at_end_by_unhit_carrier():
    setup, log = started()
    log.add("flag_capture", **ref(R, 2))
    log.tick(390_000)
    log.add("game_end", reason="clock")
    st = fold(setup, log.events)
    assert st.flag_held_by(R) is st.flags[B] and st.flag_held_by(B) is None
    # the carrier fails the inspection: no flag held any more
    log.add("inspection", result="hit_found", **ref(R, 2))
    st = fold(setup, log.events)
    assert st.flag_held_by(R) is None
    assert st.flags[B].location == "taken_by_judge" and st.flags[B].spares_hung == 0


def test_30_01_hang_counts_even_if_carrier_fails_post_game_inspection():
    setup, log = started()
    hang(setup, log)
    log.add("hang_verdict", paint="clean", fps=280, forbidden_mode=False)
    log.add("inspection", result="hit_found", **ref(R, 2))
    st = fold(setup, log.events)
    assert st.flags[B].location == "hung" and st.hang_team == R
    res = game_result(setup, st)
    # 18.02: the hang still counts (3); the hit found costs 1 penalty point (default)
    assert res.outcome == "flag_hang" and res.points[R] == 2
    assert dict(res.penalty_points) == {R: 1}
