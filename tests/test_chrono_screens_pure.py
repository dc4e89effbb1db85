"""Pure helpers of the chrono screens: check-in lateness (19.01/32.01), 20.05 scan."""

from __future__ import annotations

from datetime import datetime

from fieldjudge.rules.chrono_checks import checkin_late, disqualifications
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


def test_typed_speed_accepts_comma_and_rejects_nonsense() -> None:
    from fieldjudge.rules.chrono_readings import parse_fps

    assert parse_fps(" 287,5 ") == 287.5
    assert parse_fps("abc") is None and parse_fps("0") is None and parse_fps("1000") is None


def test_checkin_record_event_and_approval_19_01_19_05() -> None:
    from fieldjudge.rules.chrono_checks import APPROVAL, approved, checkin_data, checkin_event

    start = datetime(2026, 6, 1, 10, 40)
    on_time = checkin_data("A", datetime(2026, 6, 1, 10, 30), start)
    assert on_time == {
        "team": "A",
        "late": False,
        "at": "2026-06-01T10:30:00",
        "deadline": "2026-06-01T10:37",
    }
    assert checkin_data("B", datetime(2026, 6, 1, 10, 38), start)["late"] is True
    assert checkin_data("B", datetime(2026, 6, 1, 10, 38), None) == {
        "team": "B",
        "late": False,
        "at": "2026-06-01T10:38:00",
    }
    log = [_e(1, "checkin", team="A"), _e(2, "checkin", team="A"), _e(3, APPROVAL, team="B")]
    assert checkin_event(log, "A").id == "e2" and checkin_event(log, "B") is None
    assert approved(log, "B") and not approved(log, "A")


def test_verdict_step_disqualified_admitted_unfinished_failed() -> None:
    from fieldjudge.rules.chrono_checks import (
        ADMITTED,
        DISQUALIFIED,
        FAILED,
        UNFINISHED,
        PlayerCheck,
        unfinished_tests,
        verdict_step,
    )

    s = Settings()
    pc = PlayerCheck("A", 7)
    assert verdict_step(pc.result(s), False) == UNFINISHED
    assert "slap" in unfinished_tests(pc.result(s))
    pc.slap_fired = False
    for i, fps in enumerate((280.0, 282.0, 281.0)):
        pc.add(fps, 10 + i * 0.2)
    pc.release_t = 11.0
    # 19.03 acceptance and the 19.04 modes step are required steps too
    assert unfinished_tests(pc.result(s)) == ["acceptance", "modes"]
    assert verdict_step(pc.result(s), False) == UNFINISHED
    pc.acceptance = dict.fromkeys(pc.acceptance, False)
    pc.modes = "ok"
    assert verdict_step(pc.result(s), False) == ADMITTED
    assert verdict_step(pc.result(s), True) == DISQUALIFIED
    pc.slap_fired = True
    assert verdict_step(pc.result(s), False) == FAILED


def test_readings_source_and_in_game_event_data_20_02() -> None:
    from fieldjudge.rules.chrono_readings import InGameReadings

    r = InGameReadings("A", 7)
    assert r.event_data() is None
    r.add(290.0, 1.0, "typed")
    assert r.event_data() == {
        "team": "A",
        "number": 7,
        "fps": 290.0,
        "shots": [290.0],
        "forbidden_mode": False,
        "source": "typed",
    }
    r.add(301.0, 1.09)
    r.forbidden_mode = True
    data = r.event_data()
    assert data["fps"] == 301.0 and data["source"] == "device" and data["forbidden_mode"]
    # a typed reading has no shot time: its interval is never measured (RULES.md "Timing a
    # string of shots"; issue 20: typing then a device reading 50 ms later proposed 20.05)
    assert "interval_ms" not in data and data["intervals_unknown"] == 1
    r.add(300.0, 1.18)
    assert round(r.event_data()["interval_ms"]) == 90
    r.clear()
    assert r.event_data() is None and r.typed == 0 and r.forbidden_mode


def test_20_02_the_judge_chooses_one_to_three_shots() -> None:
    from fieldjudge.rules.chrono_readings import InGameReadings

    r = InGameReadings("A", 7)
    for i, fps in enumerate([305.2, 288.4, 290.1, 289.7]):
        r.add(fps, i * 0.2)
    data = r.event_data()  # default: the last three readings
    assert data["shots"] == [288.4, 290.1, 289.7] and data["fps"] == 290.1
    assert r.toggle(0) and r.event_data()["shots"] == [305.2]
    assert data["interval_ms"] == r.event_data()["interval_ms"]  # the rate: every shot
    assert r.toggle(1) and r.toggle(2) and not r.toggle(3)  # 20.02: at most three
    assert r.event_data()["shots"] == [305.2, 288.4, 290.1]
    assert r.toggle(0) and r.event_data()["fps"] == 290.1
    assert not r.toggle(9)
    r.clear()
    assert r.chosen == []


def test_roster_and_checkin_texts_name_the_sections() -> None:
    from fieldjudge.screens.chrono.text import checkin_line, player_label, roster_result

    class P:
        name = "Ivan"

    assert player_label("Reds", 7, P()) == "Reds #7 Ivan" and player_label("Reds", 7, None) == (
        "Reds #7"
    )
    assert "20.05" in roster_result("admitted", True) and roster_result(None, False) == "—"
    late = checkin_line(
        "Reds",
        _e(1, "checkin", team="A", at="2026-06-01T10:38:00"),
        deadline="10:37",
        late=True,
        approved=False,
    )
    assert "10:38:00" in late and "32.01" in late
    assert "10:37" in checkin_line("Reds", None, deadline="10:37", late=False, approved=False)
