"""The game clock: counts down from the game length; survives an app restart because it is
computed from the wall time of the last start/resume, never from a ticking counter."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import lru_cache

from fieldjudge.rules.paintball.model import ClockState, GameState


def parse_wall(text: str) -> datetime:
    """An ISO 8601 wall time as an aware UTC datetime (naive means UTC)."""
    dt = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt.astimezone(UTC)


_MS = timedelta(milliseconds=1)


@lru_cache(maxsize=64)
def _anchor(text: str) -> datetime:
    """:func:`parse_wall` of a clock's anchor, parsed once: every append and every frame
    of a running game asks the clock (a few games run at once)."""
    return parse_wall(text)


def _aware(now: datetime) -> datetime:
    return now.replace(tzinfo=UTC) if now.tzinfo is None else now


def elapsed_at(clock: ClockState, now_wall: datetime | str) -> int:
    """Elapsed game time at ``now_wall``: while running, the elapsed time at the last
    start/resume plus the wall time since; clamped to [that, game length]."""
    if not clock.running or clock.anchor_wall is None:
        return min(clock.elapsed_ms, clock.length_ms)
    now = parse_wall(now_wall) if isinstance(now_wall, str) else _aware(now_wall)
    delta = (now - _anchor(clock.anchor_wall)) // _MS  # exact, no float
    return max(clock.elapsed_ms, min(clock.length_ms, clock.elapsed_ms + delta))


def clock_run_out(state: GameState, now_wall: datetime | str) -> bool:
    """True when the clock is running and shows 0:00: the screen appends
    ``game_end`` {reason: "clock"} with game_clock_ms = the game length."""
    clock = state.clock
    if not clock.running or state.phase != "running":
        return False
    return elapsed_at(clock, now_wall) >= clock.length_ms
