"""Marker check (19.05) and in-game reading analysis (20.02)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fieldjudge.devices.parsers import Reading
from fieldjudge.rules.marker_check import (
    FAIL,
    NOT_DONE,
    PASS,
    ReadingAnalysis,
    analyze_readings,
    check_marker,
    timing_tolerance,
)


def shots(fps: list[float], gaps_ms: list[float], t0: float = 100.0) -> list[tuple[float, float]]:
    t = t0
    out = [(fps[0], t)]
    for v, g in zip(fps[1:], gaps_ms, strict=True):
        t += g / 1000
        out.append((v, t))
    return out


def good_check(**kw):
    readings = kw.pop("readings", shots([285, 287, 286, 288], [100, 100, 100]))
    last_t = readings[-1][1]
    args = {"slap_fired": False, "release_t": last_t + 0.050, "settings": None}
    args.update(kw)
    return check_marker(readings, **args)


def test_19_05_admitted():
    r = good_check()
    assert r.admitted and r.reasons == ()
    assert {t.name: t.outcome for t in r.tests} == {
        "slap": PASS,
        "velocity": PASS,
        "rate_of_fire": PASS,
        "after_release": PASS,
    }
    assert r.balls_notice is None
    assert r.max_fps == 288 and r.min_interval_ms == 100 and r.shots_after_release == 0
    assert r.balls_used == 4 and r.balls_left == 136


def test_19_05_velocity_over_300_not_admitted():
    r = good_check(readings=shots([290, 301.4, 295], [100, 100]))
    assert not r.admitted
    assert r.test("velocity").outcome == FAIL
    assert r.reasons == ("19.05: velocity 301.4 fps is over 300 fps",)  # shown as read
    assert good_check(readings=shots([290, 300.0], [100])).admitted  # exactly 300 passes
    # 20.02/20.03 precision: whole fps rounded down by default, 300.9 → 300
    assert good_check(readings=shots([290, 300.9], [100])).admitted
    exact = good_check(readings=shots([290, 300.1], [100]), settings={"fps_precision": "exact"})
    assert exact.reasons == ("19.05: velocity 300.1 fps is over 300 fps",)


def test_20_02_rate_94_ms_fails_95_and_96_pass():
    r94 = good_check(readings=shots([285, 286, 287], [120, 94]))
    assert not r94.admitted and r94.test("rate_of_fire").outcome == FAIL
    assert r94.min_interval_ms == 94
    assert any(x.startswith("20.02") for x in r94.reasons)
    for gap in (95, 96):
        r = good_check(readings=shots([285, 286, 287], [120, gap]))
        assert r.admitted, (gap, r.reasons)
        assert r.min_interval_ms == gap


def test_19_05_after_release_two_readings_fail():
    readings = shots([285, 286, 287, 288], [100, 100, 100])
    release = readings[1][1] + 0.040  # shots 3 and 4 (at 60 and 160 ms) after release
    r = check_marker(readings, slap_fired=False, release_t=release)
    assert not r.admitted and r.shots_after_release == 2
    assert r.test("after_release").outcome == FAIL
    assert "2 shots after release" in r.test("after_release").message


def test_19_05_after_release_one_shot_at_101_ms_fails_100_passes():
    readings = shots([285, 286], [200])
    r = check_marker(readings, slap_fired=False, release_t=readings[1][1] - 0.101)
    assert r.after_release_delays_ms == (101.0,)
    assert not r.admitted and r.test("after_release").outcome == FAIL
    r = check_marker(readings, slap_fired=False, release_t=readings[1][1] - 0.100)
    assert r.admitted and r.test("after_release").message.startswith("19.05: 1 shot 100 ms")


def test_19_05_ball_limit_140_binds_the_judges_it_is_not_a_test():
    readings = shots([285] * 140, [100] * 139)
    r = good_check(readings=readings)
    assert r.admitted and r.balls_left == 0 and r.balls_notice is not None  # 140 reached
    assert r.balls_notice.startswith("19.05: 140 balls used, the judges may use at most 140")
    assert "ball_limit" not in {t.name for t in r.tests}
    r = good_check(readings=shots([285] * 20, [100] * 19), balls_used=141)
    assert r.admitted and r.balls_used == 141 and r.balls_notice is not None


def test_19_05_slap_and_missing_tests():
    assert not good_check(slap_fired=True).admitted
    r = check_marker([], slap_fired=None, release_t=None)
    assert not r.admitted
    assert {t.outcome for t in r.tests} == {NOT_DONE}


def test_settings_come_from_the_tournament():
    readings = shots([305, 306], [90])
    lax = {"limit_fps": 310, "rof_min_interval_ms": 85}
    assert good_check(readings=readings, settings=lax).admitted

    class Obj:  # the paintball ChronoSettings dataclass works too
        limit_fps = 310
        rof_min_interval_ms = 85

    assert good_check(readings=readings, settings=Obj()).admitted


def test_readings_objects_and_order_do_not_matter():
    rs = [Reading(286, "plain", 1.095, b""), Reading(285, "plain", 1.0, b"")]
    r = check_marker(rs, slap_fired=False, release_t=2.0)
    assert r.admitted and r.min_interval_ms == 95


def test_near_limit_is_flagged_not_decided():
    r = good_check(readings=shots([285, 286], [100]), tolerance_ms=10)
    assert r.admitted and r.test("rate_of_fire").near_limit
    assert "timing tolerance" in r.test("rate_of_fire").message


def test_20_02_in_game_analysis():
    a = analyze_readings(shots([290, 299.9, 295], [96, 95]))
    assert a.max_fps == 299.9 and a.min_interval_ms == 95
    a = analyze_readings(shots([290, 301], [94]))
    assert a.max_fps == 301 and a.min_interval_ms == 94
    assert analyze_readings([]) == ReadingAnalysis(0, None, None)


def test_timing_tolerance():
    # 7-byte "287.4\r\n" at 9600 baud: 7.3 ms on the wire + 16 ms FTDI latency timer
    assert timing_tolerance(9600, 7).delay_ms == 23.3
    tol = timing_tolerance(1200, 7, latency_timer_ms=1)
    assert tol.frame_ms == 58.3 and tol.interval_ms == 1 and tol.delay_ms == 59.3
    assert timing_tolerance(115200, 53, message_period_ms=50).interval_ms == 66


@given(st.lists(st.floats(100, 400), min_size=1, max_size=30), st.floats(0, 0.2))
def test_adding_a_faster_shot_never_admits(fps, extra):
    base = good_check(readings=[(v, i * 0.1) for i, v in enumerate(fps)])
    more = good_check(readings=[(v, i * 0.1) for i, v in enumerate([*fps, 301.0 + extra])])
    assert not more.test("velocity").passed
    assert base.admitted >= more.admitted
