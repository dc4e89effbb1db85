"""The game clock: counts down from the game length; survives an app restart because it is
computed from the wall time of the last start/resume, never from a ticking counter."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from fieldjudge.rules.events import Event, effective
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball.model import ClockState, GameState


def parse_wall(text: str) -> datetime:
    """An ISO 8601 wall time as an aware UTC datetime (naive means UTC)."""
    dt = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt.astimezone(UTC)


def _aware(now: datetime) -> datetime:
    return now.replace(tzinfo=UTC) if now.tzinfo is None else now


def elapsed_at(clock: ClockState, now_wall: datetime | str) -> int:
    """Elapsed game time at ``now_wall``: while running, the elapsed time at the last
    start/resume plus the wall time since; clamped to [that, game length]."""
    if not clock.running or clock.anchor_wall is None:
        return min(clock.elapsed_ms, clock.length_ms)
    now = parse_wall(now_wall) if isinstance(now_wall, str) else _aware(now_wall)
    delta = (now - parse_wall(clock.anchor_wall)) // timedelta(milliseconds=1)  # exact, no float
    return max(clock.elapsed_ms, min(clock.length_ms, clock.elapsed_ms + delta))


def clock_from_events(events: Iterable[Event], length_ms: int) -> ClockState:
    """The clock from clock events alone (start, stop, resume, hang, end). Eliminations
    that end a game (team out) are not seen here: prefer passing the folded state."""
    clock = ClockState(length_ms=length_ms)
    for e in effective(events):
        at = e.game_clock_ms
        if e.type == ev.CLOCK_START and not clock.started:
            clock.started, clock.running = True, True
            clock.elapsed_ms, clock.anchor_wall = 0, e.wall_time
        elif e.type == ev.CLOCK_RESUME and clock.started and not clock.running:
            clock.running, clock.anchor_wall = True, e.wall_time
        elif e.type in (ev.TIME_STOP, ev.FLAG_HANG, ev.GAME_END) and clock.running:
            clock.elapsed_ms = elapsed_at(clock, e.wall_time) if at is None else min(at, length_ms)
            clock.running, clock.anchor_wall = False, None
    return clock


def clock_run_out(state: GameState, now_wall: datetime | str) -> bool:
    """True when the clock is running and shows 0:00: the screen appends
    ``game_end`` {reason: "clock"} with game_clock_ms = the game length."""
    clock = state.clock
    if not clock.running or state.phase != "running":
        return False
    return elapsed_at(clock, now_wall) >= clock.length_ms
