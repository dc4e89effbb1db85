"""Roster and schedule CSV: bad rows reported with line numbers, nothing half-imported."""

from __future__ import annotations

from datetime import date

from fieldjudge.csv_import import parse_roster, parse_schedule


def test_roster_semicolon_bom_cyrillic() -> None:
    raw = "\ufeffteam;number;name;captain\nМедведи;7;Иван Петров;да\nМедведи;11;Пётр;нет\n"
    res = parse_roster(raw.encode("utf-8"))
    assert res.ok
    assert [(r.team, r.number, r.name, r.captain) for r in res.rows] == [
        ("Медведи", 7, "Иван Петров", True),
        ("Медведи", 11, "Пётр", False),
    ]


def test_roster_comma_without_bom() -> None:
    res = parse_roster(b"team,number,name,captain\nWolves,3,Ann,1\n")
    assert res.ok and res.rows[0].captain


def test_every_bad_row_is_reported_with_its_line() -> None:
    raw = (
        "team,number,name,captain\n"
        "Медведи,7,Иван,да\n"
        "Медведи,x,Пётр,нет\n"  # line 3: number
        ",5,Нет команды,нет\n"  # line 4: team
        "Медведи,7,Дубль,нет\n"  # line 5: duplicate number
        "Медведи,9,Ещё капитан,да\n"  # line 6: second captain
        "Медведи,10,Странный,может\n"  # line 7: captain word
        "Медведи,12\n"  # line 8: columns
    )
    res = parse_roster(raw.encode())
    lines = [e.split(":")[0] for e in res.errors]
    assert lines == ["line 3", "line 4", "line 5", "line 6", "line 7", "line 8"]


def test_bad_header_and_encoding() -> None:
    assert "header" in parse_roster(b"name,team\nx,y\n").errors[0]
    assert "UTF-8" in parse_roster("team,number,name,captain\nМ,1,И,1\n".encode("cp1251")).errors[0]
    assert parse_roster(b"").errors == ["the file is empty"]


def test_schedule_rows_and_errors() -> None:
    raw = "field;start;team_a;team_b\n1;10:00;Медведи;Волки\n2;25:99;A;B\n1;;A;B\n"
    res = parse_schedule(raw.encode(), date(2026, 6, 1))
    assert len(res.rows) == 1 and res.rows[0].start.hour == 10
    assert [e.split(":")[0] for e in res.errors] == ["line 3", "line 4"]


def test_errors_speak_russian_in_the_russian_ui() -> None:
    from fieldjudge import i18n

    i18n.set_language("ru")
    try:
        res = parse_roster("team,number,name,captain\nЛисы,x,Анна,да\n".encode())
        assert res.errors == ["строка 2: номер 'x' — не целое число 0–999"]
    finally:
        i18n.set_language("en")


def test_schedule_warning_renders_in_both_languages() -> None:
    from datetime import datetime, timedelta

    from fieldjudge.i18n import rule_text
    from fieldjudge.rules.schedule import Slot, check_schedule

    t = datetime(2026, 6, 1, 10)
    slots = [Slot("g1", "1", t, "a", "b"), Slot("g2", "1", t + timedelta(minutes=17), "a", "c")]
    check = check_schedule(slots, timedelta(minutes=7), names={"a": "Волки"})
    assert check.errors == []
    (warning,) = check.warnings
    assert warning.startswith("32.03: Волки has only 10 min")
    assert rule_text(warning, lang="ru").startswith("32.03: у «Волки» между играми")
