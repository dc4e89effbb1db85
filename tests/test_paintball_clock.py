"""The game clock across restarts (elapsed = elapsed at last start/resume + wall time since)."""

from datetime import timedelta

from fakes import DEFAULT_START, LogBuilder, demo_setup

from fieldjudge.rules.paintball.clock import clock_run_out, elapsed_at, parse_wall
from fieldjudge.rules.paintball.state import fold
from fieldjudge.rules.timefmt import format_time_left


def test_clock_runs_from_start_wall_time_after_restart():
    log = LogBuilder()
    log.add("clock_start")
    st = fold(demo_setup(), log.events)
    # the app restarts 95 s later: only the log and the wall clock are known
    now = DEFAULT_START + timedelta(seconds=95)
    assert elapsed_at(st.clock, now) == 95_000
    assert st.clock.length_ms - elapsed_at(st.clock, now) == 420_000 - 95_000


def test_clock_stop_and_resume_excludes_the_stopped_time():
    log = LogBuilder()
    log.add("clock_start")
    log.tick(60_000)
    log.add("time_stop")
    log.wait(30_000)  # 30 s of "Time!"
    log.add("clock_resume")
    resumed_at = log.wall
    st = fold(demo_setup(), log.events)
    assert st.phase == "running"
    assert elapsed_at(st.clock, resumed_at + timedelta(seconds=10)) == 70_000


def test_stopped_clock_does_not_move():
    log = LogBuilder()
    log.add("clock_start")
    log.tick(42_000)
    log.add("time_stop")
    st = fold(demo_setup(), log.events)
    assert elapsed_at(st.clock, DEFAULT_START + timedelta(hours=1)) == 42_000


def test_clock_clamped_at_game_length_and_runs_out():
    log = LogBuilder()
    log.add("clock_start")
    st = fold(demo_setup(), log.events)
    assert not clock_run_out(st, DEFAULT_START + timedelta(seconds=419))
    late = DEFAULT_START + timedelta(minutes=30)
    assert elapsed_at(st.clock, late) == 420_000
    assert st.clock.length_ms - elapsed_at(st.clock, late) == 0
    assert clock_run_out(st, late)


def test_clock_never_runs_backwards_if_wall_clock_does():
    log = LogBuilder()
    log.add("clock_start")
    log.tick(50_000)
    log.add("time_stop")
    log.add("clock_resume")
    st = fold(demo_setup(), log.events)
    assert elapsed_at(st.clock, log.wall - timedelta(seconds=20)) == 50_000


def test_game_end_by_clock_sets_end_time_to_game_length():
    log = LogBuilder()
    log.add("clock_start")
    log.tick(420_000)
    log.add("game_end", reason="clock")
    st = fold(demo_setup(), log.events)
    assert (st.end_reason, st.end_ms) == ("clock", 420_000)
    assert st.phase == "inspection"
    assert not clock_run_out(st, log.wall + timedelta(minutes=5))


def test_format_clock_and_parse_wall():
    assert format_time_left(420_000) == "7:00"
    assert format_time_left(59_001) == "1:00"
    assert format_time_left(0) == "0:00"
    assert parse_wall("2026-05-16T10:00:00Z") == DEFAULT_START
    assert parse_wall("2026-05-16T10:00:00") == DEFAULT_START
