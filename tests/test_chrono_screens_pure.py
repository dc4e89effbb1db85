"""Pure helpers of the chrono screens: check-in lateness (19.01/32.01), 20.05 scan."""

from __future__ import annotations

from datetime import datetime

from fieldjudge.chrono_checks import checkin_late, disqualifications
from fieldjudge.rules.events import Event
from fieldjudge.rules.paintball.setup import Settings


def _e(i: int, etype: str, **data) -> Event:
    return Event(f"e{i}", i, etype, None, "2026-06-01T10:00:00+00:00", "", data)


def test_checkin_3_minutes_before_is_on_time_later_is_late_19_01() -> None:
    start = datetime(2026, 6, 1, 10, 40)
    assert not checkin_late(start, datetime(2026, 6, 1, 10, 37))
    assert checkin_late(start, datetime(2026, 6, 1, 10, 37, 1))


def test_20_05_disqualifications_from_readings_and_hang_verdicts_voids_respected() -> None:
    s = Settings()
    g1 = [
        _e(1, "chrono_reading", team="A", number=7, fps=290, forbidden_mode=True),
        _e(2, "chrono_reading", team="A", number=11, fps=305, forbidden_mode=False),
        _e(3, "chrono_reading", team="B", number=7, fps=280, interval_ms=90.0),
        _e(4, "chrono_reading", team="B", number=23, fps=280, forbidden_mode=True),
        _e(5, "void", target="e4", reason="wrong player"),
    ]
    g2 = [
        _e(1, "flag_hang", team="C", number=42),
        _e(2, "hang_verdict", paint="clean", fps=288, forbidden_mode=True),
    ]
    dq = disqualifications([("g1", g1), ("g2", g2)], s)
    assert set(dq) == {("A", 7), ("B", 7), ("C", 42)}
    assert dq[("C", 42)].game_id == "g2" and "20.05" in dq[("B", 7)].text
