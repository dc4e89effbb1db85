"""The one way a game time is written, on every screen and in every export.

One rounding rule: whole seconds of game time elapsed are floored. An event at 6,861 ms
happened in the 7th second and reads ``0:06`` in the live log, on the protocol screen, in
the HTML and in the PDF alike. The countdown is the same rule seen from the other end: the
game length minus the floored elapsed seconds, so an event written ``0:06`` happens while a
7:00 countdown reads ``6:54``, and the countdown reaches ``0:00`` only when time is out.
Pure: no clock, no I/O."""

from __future__ import annotations


def _mss(secs: int) -> str:
    return f"{secs // 60}:{secs % 60:02d}"


def format_game_clock(ms: int | None) -> str:
    """Elapsed game time ``m:ss`` (seconds floored); ``—`` when the event has no game time."""
    if ms is None:
        return "—"
    return _mss(max(0, int(ms)) // 1000)


def format_time_left(remaining_ms: int) -> str:
    """The countdown ``m:ss``: length minus the floored elapsed seconds. For a game length
    in whole seconds this equals the remaining milliseconds rounded up to a second."""
    return _mss(max(0, -(-int(remaining_ms) // 1000)))
