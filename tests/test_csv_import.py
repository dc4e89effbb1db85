"""Roster and schedule CSV: bad rows reported with line numbers, nothing half-imported."""

from __future__ import annotations

from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

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


# --------------------------------------------------------------------------- bad input (issue 10)

HEAD = "team,number,name,captain\n"


def test_a_field_over_the_csv_limit_is_a_line_numbered_error_not_a_crash() -> None:
    raw = HEAD + "Лисы,1,Анна,да\n" + "Лисы,2," + "Б" * 200_000 + ",нет\nЛисы,3,Ира,нет\n"
    res = parse_roster(raw.encode())
    assert res.errors == [
        "line 3: a field is longer than 131072 characters; the rest of the file was not read"
    ]
    res = parse_schedule(
        ("field,start,team_a,team_b\n" + "1,10:00,A," + "x" * 140_000 + "\n").encode(),
        date(2026, 6, 1),
    )
    assert res.errors == [
        "line 2: a field is longer than 131072 characters; the rest of the file was not read"
    ]


def test_a_file_over_the_size_cap_is_refused_before_reading(tmp_path) -> None:
    import pytest

    from fieldjudge.csv_import import MAX_CSV_BYTES, CsvImportError, CsvTooLarge, read_csv_file

    assert MAX_CSV_BYTES == 1_048_576
    big = tmp_path / "roster.csv"
    with big.open("wb") as f:
        f.write(HEAD.encode())
        f.truncate(10_000_000)  # 10 MB
    with pytest.raises(CsvTooLarge) as err:
        read_csv_file(big)
    assert isinstance(err.value, CsvImportError)
    assert str(err.value) == (
        "the file is 9765 KB, more than the 1024 KB a roster or schedule can be; "
        "is it the right file?"
    )
    # the bytes themselves are refused too, before parsing
    res = parse_roster(b"x" * (MAX_CSV_BYTES + 1))
    assert res.errors == [
        "the file is 1024 KB, more than the 1024 KB a roster or schedule can be; "
        "is it the right file?"
    ]
    at_cap = HEAD.encode() + b"A,1,B,1\n" + b"\n" * (MAX_CSV_BYTES - len(HEAD) - 8)
    assert len(at_cap) == MAX_CSV_BYTES and parse_roster(at_cap).ok


def test_nul_bidi_newline_and_long_names_are_refused_with_their_lines() -> None:
    raw = (
        HEAD
        + "Лисы,1,Анна,да\n"
        + "Лисы,2,Бо\x00рис,нет\n"  # line 3: NUL
        + "Во\u202eлки,3,Ира,да\n"  # line 4: right-to-left override in the team
        + 'Лисы,4,"Вера\nПетрова",нет\n'  # lines 5-6: a newline inside a quoted name
        + "Лисы,5,"
        + "Я" * 41
        + ",нет\n"  # line 7: too long
        + "Лисы,6,Ли\u2066за,нет\n"  # line 8: a bidi isolate
        + "Лисы,7,Оля,нет\n"
    )
    res = parse_roster(raw.encode())
    assert res.errors == [
        "line 3: player name contains the invisible character U+0000 CONTROL at position 3",
        "line 4: team name contains the invisible character "
        "U+202E RIGHT-TO-LEFT OVERRIDE at position 3",
        "line 5: player name contains the invisible character U+000A CONTROL at position 5",
        "line 7: player name is 41 characters long, at most 40 fit on the screens",
        "line 8: player name contains the invisible character "
        "U+2066 LEFT-TO-RIGHT ISOLATE at position 3",
    ]
    assert [r.line for r in res.rows] == [2, 9]  # rows are listed, but nothing is imported


def test_name_errors_in_russian() -> None:
    from fieldjudge import i18n

    i18n.set_language("ru")
    try:
        res = parse_roster((HEAD + "Во\u202eлки,3,Ира,да\n").encode())
        assert res.errors == [
            "строка 2: название команды содержит невидимый символ "
            "U+202E RIGHT-TO-LEFT OVERRIDE в позиции 3"
        ]
    finally:
        i18n.set_language("en")


def test_cr_only_and_crlf_files_and_quoted_commas() -> None:
    for nl in ("\r", "\r\n"):
        raw = nl.join([HEAD.strip(), "Лисы,1,Анна,да", '"Волки, Север",2,Ира,нет', ""])
        res = parse_roster(raw.encode())
        assert res.errors == []
        assert [(r.line, r.team, r.name) for r in res.rows] == [
            (2, "Лисы", "Анна"),
            (3, "Волки, Север", "Ира"),
        ]


def test_an_unterminated_quote_reads_to_the_end_and_is_reported() -> None:
    res = parse_roster((HEAD + 'Лисы,1,"Анна,да\nЛисы,2,Ира,нет\n').encode())
    assert res.errors == ["line 2: 3 columns, expected 4"]


def test_roster_parse_counts_team_sizes_in_one_pass() -> None:
    rows = "".join(f"T{i // 3},{i % 3},P{i},{1 if i % 3 == 0 else 0}\n" for i in range(9))
    res = parse_roster((HEAD + rows).encode(), max_team_size=4)
    assert res.errors == []
    assert res.warnings == [
        "T0: 3 players, fewer than 4",
        "T1: 3 players, fewer than 4",
        "T2: 3 players, fewer than 4",
    ]


def test_progress_is_reported_in_lines() -> None:
    from fieldjudge.csv_import import PROGRESS_EVERY

    rows = "".join(f"T{i // 10},{i % 10},P{i},{1 if i % 10 == 0 else 0}\n" for i in range(4500))
    calls: list[tuple[int, int]] = []
    res = parse_roster((HEAD + rows).encode(), progress=lambda d, t: calls.append((d, t)))
    assert len(res.rows) == 4500
    assert PROGRESS_EVERY == 2000
    assert calls == [(2001, 4501), (4001, 4501), (4501, 4501)]


def test_typed_in_names_are_checked_at_the_store(tournament) -> None:
    import pytest

    from fieldjudge.csv_import import RosterRow
    from fieldjudge.store import Refused

    with pytest.raises(Refused) as err:
        tournament.add_team("Во\u202eлки")
    assert str(err.value) == (
        "team name contains the invisible character U+202E RIGHT-TO-LEFT OVERRIDE at position 3"
    )
    team = tournament.teams()[0]
    with pytest.raises(Refused) as err:
        tournament.add_player(team["id"], 77, "Ann\x00")
    assert str(err.value) == (
        "player name contains the invisible character U+0000 CONTROL at position 4"
    )
    with pytest.raises(Refused) as err:
        tournament.add_player(team["id"], 77, "Я" * 41)
    assert str(err.value) == "player name is 41 characters long, at most 40 fit on the screens"
    before = len(tournament.players())
    with pytest.raises(Refused) as err:  # an import that skipped the parser is checked too
        tournament.import_roster([RosterRow(5, "Лисы", 1, "Ан\u200fна", False)])
    assert str(err.value) == (
        "line 5: player name contains the invisible character "
        "U+200F RIGHT-TO-LEFT MARK at position 3"
    )
    assert len(tournament.players()) == before
    assert tournament.add_player(team["id"], 987, "Я" * 40)["name"] == "Я" * 40


def test_store_import_of_many_rows_numbers_them_in_order(tournament) -> None:
    from fieldjudge.csv_import import RosterRow

    before = {k for k in tournament.store._db.table("players")._read_table()}  # noqa: SLF001
    rows = [RosterRow(i + 2, f"Новые {i // 10}", i % 10, f"Игрок {i}", False) for i in range(50)]
    assert tournament.import_roster(rows) == (5, 50)
    ids = sorted(int(k) for k in tournament.store._db.table("players")._read_table())  # noqa: SLF001
    assert ids == list(range(1, len(before) + 51))


_csvish = st.text(alphabet=st.sampled_from(list(',;"\n\r\x00 \t\u202eAяz019:-')), max_size=300)


@settings(max_examples=400, deadline=None)
@given(
    data=st.one_of(
        st.text(max_size=300),
        st.binary(max_size=300),
        _csvish.map(lambda s: HEAD + s),
        _csvish.map(lambda s: "field;start;team_a;team_b\n" + s),
    )
)
def test_arbitrary_input_never_raises_anything_but_the_import_error(data) -> None:
    from fieldjudge.csv_import import CsvImportError

    for parse in (parse_roster, lambda raw: parse_schedule(raw, date(2026, 6, 1))):
        try:
            res = parse(data)
        except CsvImportError:
            continue
        assert res.errors or res.rows  # always an answer: rows, or why there are none
        assert all(isinstance(e, str) and e for e in res.errors)


def test_quidditch_roster_huge_field_and_bidi_names_are_line_numbered_errors() -> None:
    from fieldjudge.services.quidditch import parse_roster_csv

    head = "team,name,position\n"
    assert parse_roster_csv(head + "A,Ann,chaser\nA," + "x" * 200_000 + ",chaser\n") == (
        [],
        ["line 3: not valid CSV (field larger than field limit (131072))"],
    )
    rows, errors = parse_roster_csv(head + "A,Bo\u202eb,chaser\n")
    assert errors == [
        "line 2: player name contains the invisible character "
        "U+202E RIGHT-TO-LEFT OVERRIDE at position 3"
    ]
