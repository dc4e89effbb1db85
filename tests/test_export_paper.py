"""The paper a head judge prints (issue 12, items 1-7): signature lines with the typed names,
the head hash, one game-time format everywhere, corrections shown everywhere with the
original struck through, the senior judge's name, PDF (A4, one page per game, Cyrillic),
standings that say which games they include, CSV for a Russian spreadsheet."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from html.parser import HTMLParser

import pypdf
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from results_fixtures import demo, finished_game
from test_game_helpers import wait_for

from fieldjudge.cli import main
from fieldjudge.commands.results import results_main
from fieldjudge.export import run_export
from fieldjudge.export.html import protocol_html
from fieldjudge.rules import key_ids
from fieldjudge.rules import protocol as pr
from fieldjudge.rules.paintball import scoring as sc
from fieldjudge.rules.paintball.setup import Settings
from fieldjudge.rules.timefmt import format_game_clock, format_time_left
from fieldjudge.services.demo import DEMO_PASSPHRASE
from fieldjudge.services.paintball import results

A4 = (595.28, 841.89)  # points
PIN = DEMO_PASSPHRASE  # the head judge's secret


class Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.struck: list[str] = []
        self._in_s = False

    def handle_starttag(self, tag, attrs) -> None:
        self._in_s = self._in_s or tag == "s"

    def handle_endtag(self, tag) -> None:
        if tag == "s":
            self._in_s = False

    def handle_data(self, data: str) -> None:
        self.parts.append(data)
        if self._in_s:
            self.struck.append(data)


def html_text(html: str) -> Text:
    p = Text()
    p.feed(html)
    p.close()
    return p


def pdf_pages(path) -> list[str]:
    reader = pypdf.PdfReader(str(path))
    for page in reader.pages:
        box = page.mediabox
        # A4, portrait or (the wide standings) landscape
        assert sorted((round(float(box.width), 2), round(float(box.height), 2))) == list(A4)
    return [" ".join(p.extract_text().split()) for p in reader.pages]


def flat(text: str) -> str:
    return " ".join(text.split())


# -- 2: one time format ----------------------------------------------------------------------


def test_timefmt_floors_elapsed_and_the_countdown_matches():
    assert format_game_clock(6_861) == "0:06"
    assert format_game_clock(59_999) == "0:59"
    assert format_game_clock(60_000) == "1:00"
    assert format_game_clock(None) == "—"
    assert format_game_clock(-5) == "0:00"
    # the countdown of a 7:00 game at 6,861 ms elapsed: 7:00 - 0:06
    assert format_time_left(420_000 - 6_861) == "6:54"
    assert format_time_left(420_000) == "7:00"
    assert format_time_left(1) == "0:01" and format_time_left(0) == "0:00"


@given(
    length_s=st.integers(min_value=1, max_value=3600),
    elapsed_ms=st.integers(min_value=0, max_value=3_600_000),
)
def test_timefmt_countdown_is_length_minus_floored_elapsed(length_s, elapsed_ms):
    # 30.01 clock: one rounding rule, seen from both ends
    elapsed_ms = min(elapsed_ms, length_s * 1000)
    shown = format_game_clock(elapsed_ms)
    left = format_time_left(length_s * 1000 - elapsed_ms)

    def secs(text: str) -> int:
        m, s = text.split(":")
        return int(m) * 60 + int(s)

    assert secs(shown) + secs(left) == length_s
    assert secs(shown) == elapsed_ms // 1000


# -- 3: the head judge rules another outcome (engine) -----------------------------------------


def test_30_01_outcome_points_and_with_outcome():
    pts = Settings().points
    assert sc.outcome_points(pts, ("a", "b"), sc.FLAG_HELD, "a") == {"a": 2, "b": 0}
    assert sc.outcome_points(pts, ("a", "b"), sc.FLAG_HANG, "b") == {"a": 0, "b": 3}
    assert sc.outcome_points(pts, ("a", "b"), sc.DRAW, None) == {"a": 1, "b": 1}
    with pytest.raises(ValueError):
        sc.outcome_points(pts, ("a", "b"), sc.FLAG_HELD, "c")


@pytest.fixture
def signed_hang(tmp_path):
    """A flag hang by team A, submitted and signed by both captains."""
    t = demo(tmp_path / "cup")
    gid = finished_game(t, 4, "hang")
    a, b = results.game_view(t, gid).teams
    results.submit_protocol(t, gid, judge="Старший судья Демо")  # 31: who submitted it
    results.sign(t, gid, a, "Иван Капитанов")
    results.refuse(t, gid, b, "флаг повешен после сигнала", captain="Пётр Отказов")
    yield t, gid, a, b
    t.close()


def correct_to_held(t, gid, a):
    results.correct_total(
        t, gid, PIN, None, "флаг повешен после сигнала", outcome="flag_held",
        outcome_team=a,
    )  # fmt: skip


def test_31_correction_rules_flag_held_with_30_01_points(signed_hang):
    t, gid, a, b = signed_hang
    before = results.game_view(t, gid).result
    assert (before.outcome, before.flag_hang_team, dict(before.points)) == (
        "flag_hang",
        a,
        {a: 3, b: 0},
    )
    correct_to_held(t, gid, a)
    v = results.game_view(t, gid)
    r = v.result
    assert (r.outcome, r.flag_hang_team, r.flag_held_team) == ("flag_held", None, a)
    assert dict(r.points) == {a: 2, b: 0}
    assert dict(r.diff) == dict(before.diff)
    (c,) = v.protocol.corrections
    assert (c.old_outcome, c.old_outcome_team, c.new_outcome, c.new_outcome_team) == (
        "flag_hang",
        a,
        "flag_held",
        a,
    )
    # a later points-only correction keeps the ruled outcome
    results.correct_total(
        t, gid, PIN, {a: 1}, "штраф за осмотр", confirmed_against_rules=True
    )  # 30.01 gives 2
    r2 = results.game_view(t, gid).result
    assert (r2.outcome, r2.flag_held_team, dict(r2.points)) == ("flag_held", a, {a: 1, b: 0})


def test_31_correction_to_an_unknown_outcome_is_refused(signed_hang):
    t, gid, a, _b = signed_hang
    v = results.game_view(t, gid)
    data = pr.correction_data(v.result, v.setup.settings.points, "x", None, None, "flag_held", "zz")
    assert "30.01" in str(pr.lock_refusal(v.events, pr.TOTAL_CORRECTED, data, v.teams))
    data = pr.correction_data(v.result, v.setup.settings.points, "x", None, None, "won", a)
    assert pr.lock_refusal(v.events, pr.TOTAL_CORRECTED, data, v.teams) is not None


def test_correction_shows_everywhere_with_the_original_struck(signed_hang, tmp_path):
    t, gid, a, b = signed_hang
    (rows,) = results.standings_by_division(t).values()
    before = next(r for r in rows if r.team == a)
    correct_to_held(t, gid, a)
    v = results.game_view(t, gid)
    names = t.team_names()
    # HTML: corrected outcome, the original struck through with the reason
    h = html_text(protocol_html(t, v, "ru"))
    text = flat(" ".join(h.parts))
    assert f"Итог: удержание флага до конца игры ({names[a]})" in text
    assert flat(" ".join(h.struck)) == f"водружение флага ({names[a]}), 3 : 0 очк."
    assert "удержание флага до конца игры" in text and "флаг повешен после сигнала" in text
    diff = v.result.diff[a]
    assert f"{names[a]} 2 {diff:+d} {v.result.survivors[a]} {names[b]} 0" in text  # no ✓
    assert "✓" not in text
    # PDF: the same
    (pdf,) = run_export(t, tmp_path / "out", "pdf", game_id=gid)
    (page,) = pdf_pages(pdf)
    assert f"Итог: удержание флага до конца игры ({names[a]})" in page
    assert f"водружение флага ({names[a]}), 3 : 0 очк." in page
    assert "флаг повешен после сигнала" in page
    # standings: 2 points, no flag hang counted
    (rows,) = results.standings_by_division(t).values()
    row = next(r for r in rows if r.team == a)
    assert (row.points, row.flag_hangs, row.wins) == (
        before.points - 1,
        before.flag_hangs - 1,
        before.wins,
    )


async def test_correction_on_the_protocol_screen_is_struck_through(signed_hang):
    from textual.widgets import Static

    from fieldjudge.app import make_app
    from fieldjudge.screens.results.protocol import ProtocolScreen

    t, gid, a, _b = signed_hang
    folder = t.folder
    correct_to_held(t, gid, a)
    t.close()
    app = make_app(folder.parent, folder, lang="ru")
    async with app.run_test(size=(110, 40)) as pilot:
        app.push_screen(ProtocolScreen(gid))
        names = app.tournament.team_names()
        ruled = f"Результат (30.01): удержание флага до конца игры ({names[a]})"
        await wait_for(pilot, lambda: ruled in body_text(app), "the protocol text")
        body = app.screen.query_one("#protocol-body", Static).render()
        plain = body.plain
        old = f"водружение флага ({names[a]}), 3 : 0 очк."
        assert old in plain
        start = plain.index(old)
        spans = [s for s in body.spans if "strike" in str(s.style)]
        assert [(s.start, s.end) for s in spans] == [(start, start + len(old))]


def body_text(app) -> str:
    """The protocol screen's text as shown (empty while another screen is on top)."""
    from textual.css.query import NoMatches
    from textual.widgets import Static

    try:
        return app.screen.query_one("#protocol-body", Static).render().plain
    except (NoMatches, AttributeError):
        return ""


# -- 1, 4, 5: signature lines, names, head hash, PDF -------------------------------------------


def test_signature_lines_names_and_head_hash_in_html_and_pdf(signed_hang, tmp_path):
    t, gid, a, b = signed_hang
    v = results.game_view(t, gid)
    names = t.team_names()
    assert v.protocol.submission.judge == "Старший судья Демо"  # 31: the submission's own
    h = flat(" ".join(html_text(protocol_html(t, v, "ru")).parts))
    lines = [
        f"Капитан: {names[a]} Иван Капитанов подписал в",
        f"Капитан: {names[b]} Пётр Отказов отказался: флаг повешен после сигнала",
        "Старший судья Старший судья Демо заполнил в",
        "Главный судья Главный судья Демо",
    ]
    for line in lines:
        assert line in h
    assert "Заполнен старшим судьёй: Старший судья Демо" in h
    assert f"Хэш последнего события цепочки: {v.last_hash}" in h
    fp = key_ids.signature_fingerprint(v.events[-1].sig)  # the head's signature, short
    assert re.fullmatch(r"[0-9a-f]{4}(-[0-9a-f]{4}){3}", fp)
    assert f"Отпечаток подписи: {fp}" in h
    (pdf,) = run_export(t, tmp_path / "out", "pdf", game_id=gid)
    (page,) = pdf_pages(pdf)
    for line in lines:
        assert line in page
    assert f"Протокол игры: {names[a]} — {names[b]}" in page
    assert "Хэш последнего события цепочки:" in page
    assert v.last_hash in page.replace(" ", "")
    assert fp in page.replace(" ", "")


def test_pdf_of_every_protocol_one_a4_page_each_and_standings(tmp_path):
    t = demo(tmp_path / "cup")
    try:
        written = run_export(t, tmp_path / "out", "pdf")
        played = [g for g in t.games() if t.game_path(g["id"]).exists()]
        assert len(written) == len(played) + 2
        combined = pdf_pages(written[-2])
        assert len(combined) == len(played) == 4
        names = t.team_names()
        for page, g in zip(combined, played, strict=True):
            v = results.game_view(t, g["id"])
            assert f"{names[g['team_a']]} — {names[g['team_b']]}" in page
            assert v.last_hash in page.replace(" ", "")
            assert "Капитан:" in page and "Главный судья" in page
        for path in written[:-2]:
            assert len(pdf_pages(path)) == 1
        (standings,) = pdf_pages(written[-1])
        assert "Турнирная таблица" in standings
        assert "Учтены игры с подписанными протоколами (4)" in standings
    finally:
        t.close()


def test_cli_export_pdf_and_global_options_after_the_subcommand(tmp_path):
    runner = CliRunner()
    data = tmp_path / "data"
    made = runner.invoke(main, ["demo", "--no-ui", "--data-dir", str(data)])
    assert made.exit_code == 0, made.output
    out = tmp_path / "out"
    # the program `fieldjudge export` becomes (the command itself: test_cli_results)
    res = runner.invoke(
        results_main,
        ["export", "--all", "--format", "pdf", "--out", str(out), "--data-dir", str(data)],
    )
    assert res.exit_code == 0, res.output
    assert len(list(out.glob("*.pdf"))) == 6
    # CSV: Russian with semicolons by default; --delimiter overrides; --lang after export
    for extra, head in (
        ([], "Дивизион;Место;Команда"),
        (["--delimiter", ","], "Дивизион,Место,Команда"),
        (["--lang", "en"], "Division,Place,Team"),
    ):
        dest = tmp_path / f"csv{len(extra)}{head[0]}"
        args = ["export", "--format", "csv", "--out", str(dest), "--data-dir", str(data)]
        res = runner.invoke(results_main, args + extra)
        assert res.exit_code == 0, res.output
        (csv_file,) = dest.glob("*.csv")
        assert csv_file.read_text(encoding="utf-8-sig").startswith(head)


# -- 2: the same time on every surface ---------------------------------------------------------


def test_event_at_6861_ms_reads_the_same_in_log_protocol_html_and_pdf(tmp_path):
    from fieldjudge.services.demo_history import GamePlayer
    from fieldjudge.services.paintball.event_text import clock as live_log_clock

    t = demo(tmp_path / "cup")
    try:
        g = t.games()[4]
        p = GamePlayer(t, g["id"])
        a, b = p.setup.teams
        for team in (a, b):
            p.add("checkin", None, team=team, late=False)
        p.add("clock_start", 0)
        num = p.setup.rosters[a][3].number
        assert p.add("elimination", 6_861, reason="hit", players=[{"team": a, "number": num}])
        v = results.game_view(t, g["id"])
        (e,) = [x for x in v.events if x.type == "elimination"]
        assert e.game_clock_ms == 6_861
        assert live_log_clock(e.game_clock_ms) == "0:06"
        h = flat(" ".join(html_text(protocol_html(t, v, "ru")).parts))
        name = v.state.players[(a, num)].name
        assert f"0:06 {t.team_names()[a]} {num} {name}" in h
        (pdf,) = run_export(t, tmp_path / "out", "pdf", game_id=g["id"])
        (page,) = pdf_pages(pdf)
        assert f"0:06 {t.team_names()[a]} {num} {name}" in page
    finally:
        t.close()


# -- 6: standings say which games they include -------------------------------------------------


def test_standings_count_signed_games_and_list_unsigned_as_provisional(tmp_path):
    t = demo(tmp_path / "cup")
    try:
        gid = finished_game(t, 4, "hang")
        results.submit_protocol(t, gid)  # submitted, not signed
        g5 = t.games()[5]
        start = results.previous_game_end(t, g5["id"], g5["team_b"])
        when = start + timedelta(minutes=30)
        results.record_no_show(t, g5["id"], [g5["team_b"]], when=when.astimezone(), secret=PIN)
        (rows,) = results.standings_by_division(t).values()
        assert sum(r.games for r in rows) == 8  # the demo's 4 signed games, 2 teams each
        out = run_export(t, tmp_path / "out", "html")
        text = flat(" ".join(html_text(out[-1].read_text(encoding="utf-8")).parts))
        names = t.team_names()
        g4 = t.game(gid)
        assert "Учтены игры с подписанными протоколами (4)" in text
        assert "Предварительно, не учтены до подписания:" in text
        assert (
            f"{g4['start'][11:16]} · Поле {g4['field']} · {names[g4['team_a']]} — {names[g4['team_b']]} · "
            "заполнен: ждём подписи капитанов · 3 : 0" in text
        )
        assert (
            f"{g5['start'][11:16]} · Поле {g5['field']} · {names[g5['team_a']]} — {names[g5['team_b']]} · "
            "неявка: протокол не заполнен · 3 : 0" in text
        )
    finally:
        t.close()


# -- 7: CSV for a Russian spreadsheet ----------------------------------------------------------


def test_csv_semicolons_in_russian_commas_in_english_and_override(tmp_path):
    t = demo(tmp_path / "cup")
    try:
        (ru,) = run_export(t, tmp_path / "ru", "csv", lang="ru")
        raw = ru.read_bytes()
        assert raw.startswith(b"\xef\xbb\xbf")
        rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
        assert rows[0][:3] == ["Дивизион", "Место", "Команда"]
        assert rows[0][-1] == "Дополнительные показатели"
        assert len(rows) == 1 + 8 + 2  # header, 8 teams, a blank row, the counted line
        (en,) = run_export(t, tmp_path / "en", "csv", lang="en")
        rows = list(csv.reader(io.StringIO(en.read_bytes().decode("utf-8-sig"))))
        assert rows[0][:3] == ["Division", "Place", "Team"] and rows[0][-1] == "Tie-break"
        (tab,) = run_export(t, tmp_path / "tab", "csv", lang="ru", delimiter="\t")
        assert tab.read_bytes().decode("utf-8-sig").splitlines()[0].split("\t")[:2] == [
            "Дивизион",
            "Место",
        ]
    finally:
        t.close()


def test_csv_tie_break_in_the_document_language(tmp_path):
    from fieldjudge import i18n

    t = demo(tmp_path / "cup")
    try:
        i18n.set_language("en")  # the UI in English, the document in Russian
        (ru,) = run_export(t, tmp_path / "ru", "csv", lang="ru")
        rows = list(csv.reader(io.StringIO(ru.read_bytes().decode("utf-8-sig")), delimiter=";"))
        tie = [r[-1] for r in rows[1:9] if r[-1]]
        assert tie and all(re.search("[а-я]", x) for x in tie), tie
    finally:
        i18n.set_language("ru")
        t.close()


async def test_head_judge_rules_flag_held_by_keys_on_the_protocol_screen(signed_hang):

    from fieldjudge.app import make_app
    from fieldjudge.screens.results.protocol import ProtocolScreen

    t, gid, a, b = signed_hang
    folder = t.folder
    t.close()
    app = make_app(folder.parent, folder, lang="ru")
    async with app.run_test(size=(100, 40)) as pilot:
        app.push_screen(ProtocolScreen(gid))
        await wait_for(pilot, lambda: "Подписи (31)" in body_text(app), "the protocol")
        await pilot.press("c")
        # the outcome field holds "h1" (flag hang by team 1): rule "f1", points by 30.01
        await pilot.press("backspace", "backspace", "f", "1", "enter")
        await pilot.press("enter", "enter")  # points of both teams: empty, by 30.01
        await pilot.press(*"поздно", "enter")
        await pilot.press(*PIN, "enter")
        log = app.tournament.game_log(gid)
        await wait_for(pilot, lambda: log.events[-1].type == pr.TOTAL_CORRECTED, "correction")
        data = log.events[-1].data
        assert (data["new_outcome"], data["new_outcome_team"]) == ("flag_held", a)
        assert (data["old_outcome"], data["old_outcome_team"]) == ("flag_hang", a)
        assert data["new_points"] == {a: 2, b: 0} and data["reason"] == "поздно"
        names = app.tournament.team_names()
        ruled = f"Результат (30.01): удержание флага до конца игры ({names[a]})"
        await wait_for(pilot, lambda: ruled in body_text(app), "the corrected protocol")
        assert f"  {names[a]}: 2 очка · разница" in body_text(app)


async def test_standings_screen_says_which_games_count(tmp_path):
    from textual.widgets import Static

    from fieldjudge.app import make_app
    from fieldjudge.screens.results.standings import StandingsScreen

    t = demo(tmp_path / "cup")
    gid = finished_game(t, 4, "hang")
    results.submit_protocol(t, gid)  # submitted, not signed: provisional
    g = t.game(gid)
    names = t.team_names()
    folder = t.folder
    t.close()
    app = make_app(folder.parent, folder, lang="ru")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        app.push_screen(StandingsScreen())

        def scope() -> str:
            try:
                return str(app.screen.query_one("#standings-scope", Static).render())
            except Exception:  # noqa: BLE001 - not mounted yet
                return ""

        await wait_for(pilot, lambda: "Учтены" in scope(), "the standings")
        assert scope().splitlines() == [
            "Учтены игры с подписанными протоколами (4)",
            "Предварительно, не учтены до подписания:",
            f"  {g['start'][11:16]} · Поле {g['field']} · {names[g['team_a']]} — "
            f"{names[g['team_b']]} · заполнен: ждём подписи капитанов · 3 : 0",
        ]


def test_shipped_font_covers_russian_and_marks_what_it_lacks():
    from fieldjudge.export.pdf import FONTS, clean

    russian = "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюя"
    assert clean(russian + " № — «» ✓ → ½") == russian + " № — «» ✓ → ½"
    assert clean("Команда 🐻") == "Команда ?"  # never dropped silently
    assert (FONTS / "LICENSE-DejaVu.txt").read_text(encoding="utf-8").startswith("DejaVu Sans")


def test_32_03_a_no_show_says_whose_fault_in_one_phrase(tmp_path):
    """The demo's 10:20 game on field 2: Барсы did not come (32.01), by their own fault
    (32.03, the default). The paper once read «Барсы (По вине (32.03): команды)»."""
    t = demo(tmp_path / "cup")
    try:
        html = run_export(t, tmp_path / "html", "html")
        pdf = run_export(t, tmp_path / "pdf", "pdf")
    finally:
        t.close()
    line = "Неявка (32.01–32.02): Барсы — по вине команды (32.03)"
    (page,) = [p for p in html if p.name.startswith("protocol-") and "Барсы" in p.name]
    assert line in " ".join(html_text(page.read_text(encoding="utf-8")).parts)
    (paper,) = [p for p in pdf if p.name.startswith("protocol-") and "Барсы" in p.name]
    assert line in " ".join(pdf_pages(paper)[0].split())
