"""GameSession: the non-UI controller of a live game (clock, validation, undo, restart)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from fakes import FakeClock

from fieldjudge.rules.paintball import model as m
from fieldjudge.services import open_tournament
from fieldjudge.services.paintball.game import GameSession, MonotonicClock
from fieldjudge.store import Refused

T0 = datetime(2026, 6, 1, 8, 0, tzinfo=UTC)


def scheduled_game(t) -> str:
    return next(g["id"] for g in t.games() if not t.game_path(g["id"]).exists())


def ref(team: str, number: int) -> dict:
    return {"team": team, "number": number}


def test_clock_start_stop_resume_counts_game_time(tournament) -> None:
    clock = FakeClock(T0)
    s = GameSession(tournament, scheduled_game(tournament), clock=clock, judge="J")
    assert s.now_ms() == 0 and s.remaining_ms() == 420_000
    start = s.append("clock_start")
    assert start.game_clock_ms == 0 and start.judge == "J"
    clock.advance(61_500)
    assert s.now_ms() == 61_500
    stop = s.append("time_stop")
    assert stop.game_clock_ms == 61_500 and s.state.phase == m.STOPPED
    clock.advance(30_000)  # "Time!": the clock does not move
    assert s.now_ms() == 61_500
    s.append("clock_resume")
    clock.advance(1_000)
    assert s.now_ms() == 62_500


def test_refusals_cite_the_section_and_write_nothing(tournament) -> None:
    clock = FakeClock(T0)
    s = GameSession(tournament, scheduled_game(tournament), clock=clock)
    a, b = s.teams
    num = s.setup.rosters[a][0].number
    with pytest.raises(Refused, match="19.01"):
        s.append("elimination", {"reason": "hit", "players": [ref(a, num)]})
    s.append("clock_start")
    s.append("elimination", {"reason": "hit", "players": [ref(a, num)]})
    n = len(s.events)
    with pytest.raises(Refused, match="already eliminated"):
        s.append("elimination", {"reason": "hit", "players": [ref(a, num)]})
    with pytest.raises(Refused, match="not on the game roster"):
        s.append("elimination", {"reason": "hit", "players": [ref(b, 999)]})
    other = s.setup.rosters[b][0].number
    s.append("neutral_start", ref(b, other))
    with pytest.raises(Refused, match="25.03"):
        s.append("elimination", {"reason": "hit", "players": [ref(b, other)]})
    assert len(s.events) == n + 1


def test_undo_voids_the_last_event_and_refolds(tournament) -> None:
    s = GameSession(tournament, scheduled_game(tournament), clock=FakeClock(T0))
    a, _b = s.teams
    num = s.setup.rosters[a][1].number
    s.append("clock_start")
    s.append("elimination", {"reason": "out_of_bounds", "players": [ref(a, num)]})
    assert s.state.alive(a) == 4
    void = s.undo()
    assert void.type == "void" and void.data["reason"] == "undo"
    assert s.state.alive(a) == 5
    assert void.data["target"] in s.voided()
    s.undo()  # the clock start
    assert s.state.phase == m.NOT_STARTED
    with pytest.raises(Refused, match="nothing to undo"):
        s.undo()


def test_tick_ends_the_game_at_zero(tournament) -> None:
    clock = FakeClock(T0)
    s = GameSession(tournament, scheduled_game(tournament), clock=clock)
    s.append("clock_start")
    clock.advance(419_999)
    assert s.tick() is None
    clock.advance(1)
    end = s.tick()
    assert end is not None and end.game_clock_ms == 420_000
    assert s.state.phase == m.INSPECTION and s.state.end_reason == m.END_CLOCK
    assert s.remaining_ms() == 0
    assert s.last_undoable().type == "clock_start"  # time run out is not undone


def test_running_clock_keeps_running_across_a_restart(demo_folder) -> None:
    clock = FakeClock(T0)
    t = open_tournament(demo_folder)
    gid = scheduled_game(t)
    s = GameSession(t, gid, clock=clock)
    s.append("clock_start")
    clock.advance(100_000)
    a, _b = s.teams
    s.append("flag_capture", ref(a, s.setup.rosters[a][1].number))
    before = s.state
    t.close()
    clock.advance(20_000)  # the app was down for 20 s
    t2 = open_tournament(demo_folder)
    try:
        s2 = GameSession(t2, gid, clock=clock)
        assert s2.state.players == before.players and s2.state.flags == before.flags
        assert s2.now_ms() == 120_000
    finally:
        t2.close()


def test_monotonic_clock_ignores_wall_jumps() -> None:
    mono = [100.0]
    walls = [T0]
    c = MonotonicClock(wall=lambda: walls[0], monotonic=lambda: mono[0])
    walls[0] = datetime(2030, 1, 1, tzinfo=UTC)  # the wall clock jumps
    mono[0] += 2.5
    assert (c.now() - T0).total_seconds() == 2.5


def test_the_live_state_is_the_full_fold_after_every_action(tournament) -> None:
    """The session moves its state on by each new event (the incremental fold) and folds
    the whole log again only after a void: after every action it equals the full fold."""
    from fieldjudge.rules.paintball.state import fold

    clock = FakeClock(T0)
    s = GameSession(tournament, scheduled_game(tournament), clock=clock, judge="J")
    a, b = s.teams
    na = [p.number for p in s.setup.rosters[a]]
    nb = [p.number for p in s.setup.rosters[b]]
    state_before = s.state
    actions = [
        s.start_clock,
        lambda: s.start_check("paint", b, nb[0]),
        lambda: s.end_check(b, nb[0], "in_play"),
        lambda: s.eliminate(a, na[0]),
        lambda: s.capture_flag(b, nb[1]),
        s.undo,  # a void: the whole log again
        lambda: s.eliminate(b, nb[2]),
        s.stop_time,
        s.resume_clock,
        lambda: s.eliminate_both(na[1], nb[3]),
    ]
    for act in actions:
        clock.advance(1_500)
        act()
        assert s.state == fold(s.setup, s.events)
    assert s.state is not state_before  # the undo refolded into a new state
    assert s.state.alive(a) == len(na) - 2 and s.state.alive(b) == len(nb) - 2
    assert s.state.flags[a].carrier is None  # the voided capture is gone


def test_an_append_hashes_the_laptop_key_once_and_reads_no_manifest(tournament, monkeypatch):
    """The append path does no work it already did: the laptop id (the hash of its public
    key, named by every event's signature and the owner check) is hashed once per session,
    and the game's open log is not checked against the laptops' manifests again (it was
    when it was opened)."""
    from fieldjudge.store import anchors, keys

    s = GameSession(tournament, scheduled_game(tournament), clock=FakeClock(T0), judge="J")
    s.start_clock()
    hashed, stamped = [], []
    real_key_id, real_stamp = keys.key_id, anchors.heads_stamp
    monkeypatch.setattr(keys, "key_id", lambda b64: hashed.append(b64) or real_key_id(b64))
    monkeypatch.setattr(anchors, "heads_stamp", lambda f: stamped.append(f) or real_stamp(f))
    b = s.teams[1]
    for p in s.setup.rosters[b][:3]:
        s.start_check("paint", b, p.number)
        s.end_check(b, p.number, "in_play")
    assert len(s.events) == 7
    assert hashed == [] and stamped == []


class TickingClock(FakeClock):
    """A clock that moves on by 250 ms at every reading: each reading is another moment."""

    def now(self) -> datetime:
        self.advance(250)
        return self.t


def test_an_event_is_stamped_at_one_moment_its_wall_time_and_game_clock_agree(tournament):
    """The game clock an event records is the elapsed game time at the wall time it
    records (the clock is read once per append, and once per void), so a log replayed
    from its wall times gives every event its own game clock back."""
    from fieldjudge.rules.paintball.clock import elapsed_at

    s = GameSession(tournament, scheduled_game(tournament), clock=TickingClock(T0), judge="J")
    start = s.start_clock()
    b = s.teams[1]
    number = s.setup.rosters[b][0].number
    running = s.state.clock  # a copy of the running clock's anchor: its start
    check = s.start_check("paint", b, number)
    void = s.undo()
    for e in (check, void):
        assert e.game_clock_ms == elapsed_at(running, e.wall_time) > 0
    assert start.game_clock_ms == 0
