"""The terminal bell outdoors: once at one minute left, and when play stops ("Time!" by the
judge, the clock running out, a flag hang, the game's end). A laptop setting (on by
default); the game screen feeds it its session on every clock tick."""

from __future__ import annotations

ONE_MINUTE_MS = 60_000
RUNNING = "running"
STOPS = ("stopped", "hang_check", "ended", "inspection", "final")

MINUTE = "minute"
TIME = "time"


class GameBell:
    """When to ring for one game (pure: fed the phase and the time left)."""

    def __init__(self) -> None:
        self._phase: str | None = None
        self._minute_rung = False

    def due(self, phase: str, remaining_ms: int) -> str | None:
        first = self._phase is None
        was = self._phase
        self._phase = phase
        if first:  # opened mid-game: nothing to announce yet
            self._minute_rung = remaining_ms <= ONE_MINUTE_MS
            return None
        if phase in STOPS and was == RUNNING:
            return TIME
        if remaining_ms > ONE_MINUTE_MS:
            self._minute_rung = False  # a corrected clock may pass the minute again
        elif phase == RUNNING and not self._minute_rung and remaining_ms > 0:
            self._minute_rung = True
            return MINUTE
        return None
