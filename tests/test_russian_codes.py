"""Issue 25, item 1: no raw code reaches a Russian reader. Every event type, the marker
check's verdicts, the no-show reasons, the protocol's steps (31) and every phase a game not
yet counted can be in are rendered in Russian: in the game's event list, the protocol (HTML
and PDF text), the standings (PDF and CSV); any Latin word outside the allow-list fails."""

from __future__ import annotations

import csv
import errno
import io
import re
import socket
import subprocess
import sys
import threading
import time
from datetime import date, timedelta
from pathlib import Path

import click
import orjson
import pypdf
import serial
from click.testing import CliRunner
from results_fixtures import demo
from test_chrono_screens import _ingame, _running_game, inject, next_game, open_check
from test_csv_import_pilot import notes, open_import
from test_export_paper import html_text
from test_game_helpers import wait_for
from test_tamper import (  # noqa: F401
    base,
    cup,
    events_of,
    home_of,
    laptop_label,
    pit_of,
    rechain,
    signed_game,
    tables,
)
from textual.widgets import Input

from fieldjudge import i18n
from fieldjudge.app import make_app
from fieldjudge.cli import main
from fieldjudge.commands.results import results_main
from fieldjudge.devices.parsers import FORMATS, UNIT_TO_FPS
from fieldjudge.devices.reader import DISCONNECTED, ChronoReader, Status, errno_code
from fieldjudge.devices.simulator import PtyChrono
from fieldjudge.export import html, pdf, run_export
from fieldjudge.export.job import stamp_text
from fieldjudge.rules import protocol as pr
from fieldjudge.rules.events import VOID
from fieldjudge.rules.messages import Count, rule
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.quidditch.sample import sample_setup
from fieldjudge.screens.chrono.setup import UNIT_TEXT, format_label
from fieldjudge.screens.chrono.text import ingame_analysis, tolerance_note
from fieldjudge.screens.chrono.widgets import big_lines
from fieldjudge.screens.dialogs.forms import FormScreen, MessageScreen
from fieldjudge.screens.dialogs.pit import PitPanel
from fieldjudge.screens.home import state_text
from fieldjudge.screens.quidditch.matches import MatchesScreen
from fieldjudge.screens.quidditch.setup import MatchSetupScreen
from fieldjudge.screens.widgets.faults import fault_text, file_faults
from fieldjudge.screens.widgets.prompt import Prompt, typed_text
from fieldjudge.services import create_tournament, open_tournament, open_view
from fieldjudge.services.demo import DEMO_PASSPHRASE
from fieldjudge.services.demo_history import GamePlayer
from fieldjudge.services.paintball import results
from fieldjudge.services.paintball.chrono import link_fault_text, link_tolerance, port_lost_text
from fieldjudge.services.paintball.event_text import Namer, describe, fps_text
from fieldjudge.services.quidditch import QuidditchSession
from fieldjudge.store.eventlog import write_log_file
from fieldjudge.store.keys import LaptopKeys
from fieldjudge.store.storage import load_json_file
from tests.screen_text import screen_text

# proper names and what Russian writes in Latin letters; units are Russian («фпс», «мс»)
ALLOWED = {"HTML", "PDF", "CSV", "SHA"}
LATIN = re.compile(r"[A-Za-z][A-Za-z_]+")
HEX = re.compile(r"\b[0-9a-f]{6,}\b|\b[0-9a-f]{4}(?:-[0-9a-f]{4}){3}\b")  # hashes, fingerprints


def latin_words(text: str) -> set[str]:
    return {w for w in LATIN.findall(HEX.sub(" ", text)) if w not in ALLOWED}


def every_event_game(t) -> str:
    """Game 4 of the demo with every event type of a game, the three marker verdicts, a
    void, a refusal, a signature and the head judge's correction (31)."""
    g = t.games()[4]
    p = GamePlayer(t, g["id"])
    a, b = p.setup.teams
    na = [x.number for x in p.setup.rosters[a]]
    nb = [x.number for x in p.setup.rosters[b]]
    assert p.add(ev.CHECKIN, None, team=a, late=False)
    assert p.add(ev.CHECKIN, None, team=b, late=True)
    assert p.add(ev.LINEUP, None, team=a, numbers=na[:5])  # 30.01
    for number, result in zip(nb, ("admitted", "not_admitted", "no_marker"), strict=False):
        assert p.add(ev.MARKER_VERDICT, None, team=b, number=number, result=result)  # 19.05
    assert p.add(ev.OLD_PAINT, None, team=a, number=na[0], spot="левое плечо")  # 29.10
    assert p.add(ev.CLOCK_START, 0)
    assert p.add(ev.PAINT_CHECK_START, 1_000, team=a, number=na[2])
    assert p.add(ev.PAINT_CHECK_END, 2_000, team=a, number=na[2], outcome="in_play")
    assert p.add(ev.NEUTRAL_START, 3_000, team=a, number=na[3])
    assert p.add(ev.NEUTRAL_END, 4_000, team=a, number=na[3], outcome="eliminated")
    assert p.add(ev.CHRONO_READING, 5_000, team=b, number=nb[0], fps=287.0, forbidden_mode=False)
    assert p.add(ev.ELIMINATION, 6_000, reason="hit", players=[{"team": a, "number": na[4]}])
    assert p.add(ev.TIME_STOP, 7_000)
    assert p.add(ev.CLOCK_RESUME, 7_000)
    assert p.add(ev.FLAG_CAPTURE, 8_000, team=a, number=na[1])
    assert p.add(ev.FLAG_HANDOVER, 9_000, team=a, from_number=na[1], to_number=na[0])
    assert p.add(ev.FLAG_HANG, 10_000, team=a, number=na[0])
    assert p.add(ev.HANG_VERDICT, 10_000, paint="clean", fps=287.0, forbidden_mode=False)
    for number in nb[:1]:
        p.add(ev.INSPECTION, 10_000, team=b, number=number, result="hit_found")
    for number in nb[1:]:
        p.add(ev.INSPECTION, 10_000, team=b, number=number, result="clean")
    for number in na:
        p.add(ev.INSPECTION, 10_000, team=a, number=number, result="did_not_report")
    old_paint = next(e for e in t.game_log(g["id"]).events if e.type == ev.OLD_PAINT)
    t.append_game_event(g["id"], VOID, {"target": old_paint.id, "reason": "не тот игрок"})
    results.submit_protocol(t, g["id"], judge=p.judge)
    results.refuse(t, g["id"], b, "не согласны с итогом", captain="Семён")
    results.sign(t, g["id"], a, "Иван")
    results.correct_total(t, g["id"], DEMO_PASSPHRASE, None, "ошибка в сумме", outcome="draw")
    return g["id"]


def test_25_every_event_and_protocol_step_reads_russian_everywhere(tmp_path) -> None:
    t = demo(tmp_path / "cup")
    try:
        gid = every_event_game(t)
        g5, g6 = t.games()[5], t.games()[6]
        start = results.previous_game_end(t, g5["id"], g5["team_b"])
        when = (start + timedelta(minutes=30)).astimezone()
        results.record_no_show(  # 32.01 "refused", not signed: a provisional line
            t, g5["id"], [g5["team_b"]], "refused", when=when, secret=DEMO_PASSPHRASE
        )
        t.append_game_event(g6["id"], ev.CHECKIN, {"team": g6["team_a"], "late": False})
        i18n.set_language("ru")
        seen: dict[str, set[str]] = {}
        types: set[str] = set()
        lists: dict[str, str] = {}
        # the game above, the no-show, and the demo's first round (a clock end among them)
        for game_id in (gid, g5["id"], *(g["id"] for g in t.games()[:4])):
            v = results.game_view(t, game_id)
            namer, by_id = Namer(v.names, v.state), {e.id: e for e in v.events}
            types |= {e.type for e in v.events}
            lists[game_id] = "\n".join(describe(e, namer, by_id) for e in v.events)
            seen[f"event list {game_id}"] = latin_words(lists[game_id])
        assert ev.EVENT_TYPES | pr.PROTOCOL_TYPES | {VOID} <= types
        text = lists[gid]
        assert "не допущен" in text and "без маркера" in text and "287 фпс" in text
        assert "Капитан отказался подписать протокол" in text
        for fmt in ("html", "pdf", "csv"):
            for path in run_export(t, tmp_path / fmt, fmt, lang="ru"):
                if path.suffix == ".pdf":
                    body = "\n".join(pg.extract_text() for pg in pypdf.PdfReader(str(path)).pages)
                elif path.suffix == ".html":
                    page = re.sub(r"(?s)<style.*?</style>", "", path.read_text(encoding="utf-8"))
                    body = " ".join(html_text(page).parts)
                else:
                    body = path.read_text(encoding="utf-8-sig")
                seen[path.name] = latin_words(body)
        assert {k: sorted(w) for k, w in seen.items() if w} == {}
    finally:
        i18n.set_language("en")
        t.close()


def test_25_chrono_link_faults_and_port_dialog_words_are_russian() -> None:
    """pyserial's English never reaches the judge; the port dialog's formats and units are
    the judge's words (20.01: the chronograph)."""

    i18n.set_language("ru")
    try:
        faults = [
            "[Errno 2] could not open port /dev/ttyUSB0: [Errno 2] No such file or directory",
            "device reports readiness to read but returned no data (device disconnected or "
            "multiple access on port?)",
            "[Errno 13] Permission denied: '/dev/ttyUSB0'",
            "something nobody foresaw",
        ]
        words: set[str] = set()
        for fault in faults:
            words |= latin_words(link_fault_text(fault)) - {"dialout"}  # the Linux group's name
        assert words == set()
        assert link_fault_text(faults[1]) == "устройство отключено"
        assert format_label("auto") == "авто (распознать)"
        brands = {"Stalker", "Decatur", "Chrony"}  # device makers' names
        labels = " ".join(format_label(f) for f in FORMATS) + " ".join(
            i18n._(UNIT_TEXT[u]) for u in UNIT_TO_FPS
        )
        assert latin_words(labels) - brands == set()
    finally:
        i18n.set_language("en")


async def test_25_counts_take_the_russian_plural_form(demo_folder, tmp_path) -> None:
    """Russian has three plural forms (1 команда, 3 команды, 16 игроков): the roster
    import says «Импортировано 3 команды, 16 игроков», never «3 команд»."""

    path = tmp_path / "roster.csv"
    rows = ["team,number,name,captain"]
    for team, size in (("Орлы", 6), ("Совы", 5), ("Кроты", 5)):
        rows += [
            f"{team},{n},Игрок {n} {team},{'да' if n == 1 else 'нет'}" for n in range(1, size + 1)
        ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await pilot.press("t")
        await open_import(app, pilot, None, path)
        await wait_for(pilot, lambda: any("Импорт" in n for n in notes(app)), "the import")
        assert "Импортировано 3 команды, 16 игроков" in notes(app)
    forms = [
        i18n.load("ru").ngettext("{n} player", "{n} players", n).format(n=n)
        for n in (1, 3, 5, 21, 111)
    ]
    assert forms == ["1 игрок", "3 игрока", "5 игроков", "21 игрок", "111 игроков"]


def test_25_the_command_line_speaks_russian_with_lang_ru(tmp_path, monkeypatch) -> None:
    """``--lang ru``: click's frame (usage, options, errors), every help text and the
    commands' own lines are Russian; what stays Latin is syntax: option names, placeholders
    in capitals (FOLDER), file formats and the program's name."""

    monkeypatch.setenv("LANGUAGE", "en")  # the CLI sets it for click's catalog: restored
    # typed as they are: options, PLACEHOLDERS, paths, file names, quoted values, choices
    syntax = re.compile(
        r"--?[\w-]+|\b[A-Z][A-Z0-9_]+\b|\S*/\S*|\S+\.\w+|'[^']*'|\[[^\]]*\]|\{[^}]*\}"
    )
    allowed = {"fieldjudge", "main", "Ctrl", "Syncthing", "JSONL", "ru", "en", "ports", "sign"}
    allowed |= {"register"}  # the register-laptop command's name
    allowed |= {n for g in (main, *main.commands.values()) for n in getattr(g, "commands", {})}
    allowed |= {"stalker", "decatur", "chrony", "plain", "bE"}  # device formats (--format)
    allowed |= {"lan", "discovery"}  # [default: lan-discovery], as click prints the flag
    allowed |= {"auto", "html", "pdf", "csv", "json"}  # a --format's values, as typed
    runner = CliRunner()
    found = {}
    for args in (
        ["--lang", "ru", "--help"],
        ["--lang", "ru", "verify", "--help"],
        ["--lang", "ru", "quidditch", "verify", "--help"],
        ["chrono", "ports", "--lang", "ru"],
        ["chrono", "ports", "--help", "--lang", "ru"],
        ["--lang", "ru", "verify", "--no-such-option"],
        ["--lang", "ru", "--data-dir", str(tmp_path / "d"), "demo", "--no-ui"],
    ):
        out = runner.invoke(main, args).output
        found[" ".join(args[:4])] = latin_words(syntax.sub(" ", out)) - allowed

    monkeypatch.setenv("STHOMEDIR", str(tmp_path / "no-syncthing"))
    folder = demo(tmp_path / "cup")
    folder.close()
    for args in (  # sharing the folder with Syncthing absent: what it says, in Russian
        ["--lang", "ru", "sync", "status", "--tournament", str(tmp_path / "cup")],
        ["--lang", "ru", "sync", "setup", "--tournament", str(tmp_path / "cup")],
        [
            "--lang",
            "ru",
            "export",
            "--tournament",
            str(tmp_path / "cup"),
            "--game",
            "g0",
            "--out",
            "x",
        ],
    ):
        # the export: the program `fieldjudge export` becomes (in a test's process, the
        # command itself would become it)
        program = results_main if "export" in args else main
        out = runner.invoke(program, args).output
        found[" ".join(args[2:4])] = latin_words(syntax.sub(" ", out)) - allowed

    def every(cmd, path):  # every subcommand's --help too
        yield path
        for name, sub in getattr(cmd, "commands", {}).items():
            yield from every(sub, [*path, name])

    marked = []  # a docstring's reST quotes (``fieldjudge verify``) printed as they are
    for path in every(main, []):
        out = runner.invoke(main, ["--lang", "ru", *path, "--help"]).output
        found[" ".join(path) + " --help"] = latin_words(syntax.sub(" ", out)) - allowed
        english_help = runner.invoke(main, ["--lang", "en", *path, "--help"]).output
        marked += [" ".join(path) for text in (out, english_help) if "``" in text]
    assert {k: sorted(w) for k, w in found.items() if w} == {}
    assert marked == []
    demo_out = runner.invoke(
        main, ["--lang", "ru", "--data-dir", str(tmp_path / "e"), "demo", "--no-ui"]
    )
    assert f"секрет главного судьи демо-турнира: {DEMO_PASSPHRASE}" in demo_out.output
    english = runner.invoke(main, ["--lang", "en", "--help"]).output  # and back in English
    assert "Show this message and exit." in english and "Folder holding the tournaments." in english


def test_every_option_of_every_command_says_what_it_does() -> None:
    """``--help`` of each command explains each option it lists (``chrono listen --baud``,
    ``export --format``, ``serve --port`` and four more once printed only their names)."""

    def bare(cmd, path):
        for p in cmd.params:
            if isinstance(p, click.Option) and not p.hidden and not p.help:
                yield f"{' '.join(path)} {p.opts[0]}"
        for name, sub in getattr(cmd, "commands", {}).items():
            yield from bare(sub, [*path, name])

    assert list(bare(main, ["fieldjudge"])) == []


def pdf_words_and_sizes(path) -> tuple[list[str], set[float], tuple[float, float]]:
    """The words of a one-page PDF as pypdf extracts them, the font sizes it draws with
    and the page's (width, height) in points."""
    page = pypdf.PdfReader(str(path)).pages[0]
    sizes: set[float] = set()

    def visit(text, cm, tm, font, size) -> None:
        if text.strip():
            sizes.add(round(size * tm[0] * cm[0], 1))

    text = page.extract_text(visitor_text=visit)
    box = page.mediabox
    return text.split(), sizes, (float(box.width), float(box.height))


def test_25_standings_pdf_is_legible_landscape_10pt_headers_whole(tmp_path) -> None:
    """30.01 standings pinned on a board: landscape A4 when the table is wide, no text under
    10 pt, every header word whole (never «Мест|о», «Водруже|ния»), no empty column."""

    t = demo(tmp_path / "cup")
    try:
        path = next(p for p in run_export(t, tmp_path / "pdf", "pdf") if "standings" in p.name)
        words, sizes, (width, height) = pdf_words_and_sizes(path)
        assert width > height  # 11 columns with the tie-break: wider than a portrait A4
        assert min(sizes) >= 10
        tr = html.translator("ru")
        headers = [tr(h) for h in html.STANDING_HEADERS]
        missing = [w for h in headers for w in h.split() if w not in words]
        assert missing == []
        # a division with no tie: its tie-break column is empty, so not printed at all
        (div, rows), *_ = results.standings_by_division(t).items()
        untied = [r for r in rows if not r.tie_break]
        assert untied
        out = tmp_path / "untied.pdf"
        out.write_bytes(pdf.standings_pdf(t, {div: untied}, tr, "ru"))
        words, sizes, _size = pdf_words_and_sizes(out)
        assert "Дополнительные" not in words and "Команда" in words and min(sizes) >= 10
        page = html.standings_html(t, {div: untied}, "ru")  # the HTML leaves it out too
        assert "Дополнительные показатели" not in page and "Команда" in page
    finally:
        t.close()


def test_25_protocol_has_the_flag_timeline_times_penalty_points_and_settings_footnote(
    tmp_path,
) -> None:
    """The protocol as the paper (31): the flag's way (22.03 hand-over, 23.01 touch, 23.03
    verdict) with game and clock times, the game's start, end and length, the 18.02
    penalty points inside the penalties table, and the settings that differ from the
    rulebook as a plain footnote (no «(23.03): нет» jargon)."""
    t = demo(tmp_path / "cup")
    try:
        t.update_meta(settings={**t.settings, "inspection_penalty_points": 2})
        gid = every_event_game(t)
        texts = {}
        for fmt in ("html", "pdf"):
            (path,) = run_export(t, tmp_path / fmt, fmt, game_id=gid)
            if fmt == "pdf":
                texts[fmt] = " ".join(pypdf.PdfReader(str(path)).pages[0].extract_text().split())
            else:
                page = re.sub(r"(?s)<style.*?</style>", "", path.read_text(encoding="utf-8"))
                texts[fmt] = " ".join(" ".join(html_text(page).parts).split())
        for fmt, text in texts.items():
            assert "Флаг (22–23)" in text, fmt
            assert "захватил флаг команды" in text and "передал флаг игроку #" in text, fmt
            assert "коснулся флагом стартового баннера (23.01)" in text, fmt
            assert "Решение по водружению: 23.03: водружение флага засчитано" in text, fmt
            assert re.search(r"Начало игры в \d\d:\d\d:\d\d · окончание в \d\d:\d\d:\d\d", text)
            assert "игровое время 0:10 из 7:00" in text, fmt
            # 18.02: the points in the table, with what they cost
            assert "Осмотр после игры: найдено поражение (18.02) штрафные очки: 2" in text, fmt
            assert "Настройки турнира, отличные от правил: За поражение, найденное при " in text
            assert "(23.03): нет" not in text and "Скорость оценивается (20.02/20.03)" not in text
    finally:
        t.close()


async def test_25_rate_of_fire_reads_a_tenth_with_a_russian_comma(demo_folder, monkeypatch) -> None:
    """20.02 on the marker check in Russian: a measured 81.546 ms interval reads «81,5 мс»
    (floored to a tenth: it never reads as the limit it is under), not «81.546 мс»."""

    monkeypatch.setattr("fieldjudge.services.paintball.chrono.default_config", lambda: None)
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        screen = await open_check(app, pilot, next_game(app))
        await pilot.press("enter", "a", "m", "s")
        t0 = time.monotonic() - 1.0
        for i, fps in enumerate((285.0, 285.5, 286.0)):
            inject(app, fps, t0 + i * 0.081546)
        await wait_for(pilot, lambda: len(screen.current.shots) == 3, "the shots")
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.last_check is not None, "the check")
        tests = str(screen.query_one("#mc-tests").render())
        assert "81,5 мс — меньше 95 мс" in tests
        assert "81.5" not in tests and "81,54" not in tests


def test_25_readme_points_only_to_files_of_the_repository() -> None:
    """The README named `shared/` (design notes outside the repository); the rules it cites
    are listed in docs/ instead."""

    root = Path(__file__).parents[1]
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "shared/" not in readme
    cited = re.findall(r"`((?:docs|tools|fieldjudge|tests)/[\w./-]+)`", readme)
    assert "docs/rules-sections.txt" in cited
    assert [c for c in cited if not (root / c).exists()] == []


async def test_25_data_dir_naming_the_quidditch_folder_is_not_nested(tmp_path) -> None:
    """``--data-dir …/quidditch`` (the folder the app made for the forum judge) opens that
    folder's matches: neither the app nor ``quidditch export`` makes quidditch/quidditch/."""

    folder = tmp_path / "data" / "quidditch"
    t = create_tournament(folder, name="Матчи квиддича", day=date(2026, 6, 1))
    match = QuidditchSession.create(t, sample_setup("final")).match_id
    t.close()
    res = CliRunner().invoke(main, ["--data-dir", str(folder), "quidditch", "export", match])
    assert res.exit_code == 0, res.output
    assert not (folder / "quidditch" / "quidditch").exists()
    assert all(str(folder) in line for line in res.output.split())
    app = make_app(folder, lang="ru")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, MatchesScreen), "the matches")
        assert app.tournament is not None and app.tournament.folder == folder
    assert not (folder / "quidditch" / "tournament.json").exists()


async def test_25_w_takes_the_next_free_port_and_says_which(demo_folder) -> None:
    """The pit display's port is taken (another program): `w` serves on the next free one
    and says so in Russian, never an English bind error."""

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        app = make_app(demo_folder.parent, demo_folder, lang="ru", pit_port=port)
        async with app.run_test(size=(100, 32)) as pilot:
            await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
            await pilot.press("w")
            await wait_for(pilot, lambda: isinstance(app.screen, PitPanel), "the pit panel")
            url = app.pit_url()
            taken = int(url.rstrip("/").rsplit(":", 1)[1])
            assert port < taken <= port + 20
            moved = f"Порт {port} занят: табло работает на порту {taken}"
            await wait_for(pilot, lambda: moved in notes(app), "the note of the port taken")
            assert not [n for n in notes(app) if latin_words(n)]
            app.stop_pit()


async def test_25_20_06_reading_fills_the_panel_at_80x24(demo_folder, monkeypatch) -> None:
    """20.06: the reading shown to the removed player fills the panel the list and the feed
    left (not the 3-row digits with empty rows below), at 80×24."""

    monkeypatch.setattr("fieldjudge.services.paintball.chrono.default_config", lambda: None)
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        session, _gid = await _running_game(app, pilot)
        screen = await _ingame(app, pilot, session, session.setup.team_a, 7, [298.0, 305.0])
        await wait_for(pilot, lambda: screen.result_event is not None, "the chrono event")
        await pilot.pause()
        digits = screen.query_one("#cg-result-digits")
        assert digits.value == "305"
        size = digits.content_size
        lines = big_lines("305", size.width, size.height)
        assert lines is not None and sum("█" in line for line in lines) >= 10  # not 3 rows
        blank_below = size.height - max(i for i, line in enumerate(lines) if "█" in line) - 1
        assert blank_below <= 3
        shown = screen_text(app)
        assert sum("██" in line for line in shown.splitlines()) >= 10  # on the screen itself


async def test_25_quidditch_forms_offer_russian_words_and_take_them(tmp_path) -> None:
    """The quidditch match and settings forms in Russian: «матч-1», «Окончание: снитч /
    очки / раунды», «простой или спор», «каждый круг или раз за погоню» (9, 5); the Russian
    words typed back are understood; the seed to publish is named in Russian."""
    app = make_app(tmp_path / "data", lang="ru")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, MatchesScreen), "the matches")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, MatchSetupScreen), "the setup")
        setup = app.screen
        for key in ("m", "o"):
            await pilot.press(key)
            await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "the form")
            form = app.screen
            shown = " ".join([*form.values().values(), *(f.label for f in form.fields)])
            assert latin_words(shown) == set(), key
            if key == "m":
                assert form.values()["id"] == "матч-1" and form.values()["end"] == "снитч"
                form.query_one("#f-end", Input).value = "очки"
                form.query_one("#f-limit", Input).value = "50"
            else:
                assert (form.values()["interception"], form.values()["vanish_mode"]) == (
                    "простой",
                    "каждый круг",
                )
                form.query_one("#f-interception", Input).value = "спор"
                form.query_one("#f-vanish_mode", Input).value = "раз за погоню"
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: app.screen is setup, "back on the setup")
        assert (setup.end.kind, setup.end.limit) == ("points", 50)
        assert (setup.settings.interception, setup.settings.vanish_mode) == (
            "contest",
            "per_chase",
        )
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen), "the seed")
        assert "Хэш серверного сида (SHA-256)" in app.screen.body
        assert "sha256(server seed)" not in app.screen.body


# -- issue 21 left open, issue 25 "still English": what verify finds, read in Russian ----------

#: written as they are: file names and paths, the laptop's own name, errno names, #numbers
NAMES = re.compile(r"\S+\.(?:json|jsonl|sig)\b|\S*/\S*|\bE[A-Z]{2,}\b")


def russian_leftovers(text: str, *proper: str) -> set[str]:
    """Latin words of ``text`` outside the allow-list, file names and proper names."""
    for name in proper:
        text = text.replace(name, " ")
    return latin_words(NAMES.sub(" ", text))


def _tampered(cup: Path) -> tuple[str, int]:  # noqa: F811 - the tamper suite's fixture
    """21.1/21.2: a team renamed by hand in tournament.json, and a captain's signature
    (31) edited with the hashes recomputed: a signature that no longer matches."""
    path = cup / "tournament.json"
    data = load_json_file(path)
    next(iter(data["teams"].values()))["name"] = "Взломщики"
    path.write_bytes(orjson.dumps(data))
    gid = signed_game(cup)
    game = cup / "games" / f"{gid}.json"
    doc = tables(game)
    evs = events_of(doc)
    for e in evs:
        if e["type"] == pr.CAPTAIN_SIGNED:
            e["data"]["name"] = "Кто-то другой"
    write_log_file(game, rechain(doc, evs))
    return gid, next(e["seq"] for e in evs if e["type"] == pr.CAPTAIN_SIGNED)


def test_21_25_verify_faults_read_russian_in_verify_row_stamp_and_pit(cup: Path) -> None:  # noqa: F811
    """The faults the one check finds (a hand-edited tournament.json, an edited signed
    event) read in Russian wherever a Russian reader sees them: ``verify --lang ru``, the
    app's home row and title (``ПОВРЕЖДЕНО / НЕ ПОДПИСАНО: …``), the stamp of a forced
    export (``НЕ ПРОВЕРЕНО: …``) and the pit's ``ru`` texts; the English stays as it was."""
    gid, seq = _tampered(cup)
    laptop = LaptopKeys.load_or_create().name
    found: dict[str, set[str]] = {}
    out = CliRunner().invoke(main, ["--lang", "ru", "verify", str(cup)])
    assert out.exit_code == 1, out.output
    assert f"событие №{seq} (подпись капитана, ноутбук «{laptop}»" in out.output, out.output
    assert "изменён после подписи главного судьи" in out.output
    found["verify"] = russian_leftovers(out.output.replace("ОШИБКА", ""), laptop)
    refused = CliRunner().invoke(  # the program `fieldjudge export` becomes
        results_main,
        ["--lang", "ru", "export", "--tournament", str(cup), "--format", "csv", "--out", "x"],
    )
    assert refused.exit_code == 1 and "не выгружено: папка турнира" in refused.output
    found["export refused"] = russian_leftovers(refused.output, laptop) - {"force"}
    try:
        i18n.set_language("ru")
        t = open_tournament(cup, lock=False, startup_backup=False)
        try:
            g = t.game(gid)
            row = state_text(t.game_summary(gid), g["team_a"], g["team_b"], t.team_names())
            title = fault_text(file_faults("tournament.json", t.tournament_faults()))
        finally:
            t.close()
        assert row.startswith("ПОВРЕЖДЕНО / НЕ ПОДПИСАНО: событие №"), row
        assert "подпись" in row and "не совпадает с событием" in row, row
        found["home row"] = russian_leftovers(row, laptop)
        found["title"] = russian_leftovers(title, laptop)
        view = open_view(cup)  # as the export opens it
        try:
            stamp = stamp_text(view.trust.faults(), "ru")
        finally:
            view.close()
        assert stamp.startswith("НЕ ПРОВЕРЕНО: ") and "не совпадает с событием" in stamp
        found["stamp"] = russian_leftovers(stamp, laptop)
        live, standings = pit_of(cup)
        card = next(x for x in live["games"] if x["id"] == gid)
        found["pit card"] = russian_leftovers(card["damaged_text"]["ru"], laptop)
        found["pit title"] = russian_leftovers(live["damaged_text"]["ru"], laptop)
        found["pit standings"] = russian_leftovers(standings["damaged_text"]["ru"], laptop)
        assert card["damaged"] and card["damaged_text"]["en"] == card["damaged"]
    finally:
        i18n.set_language("en")
    assert {k: sorted(w) for k, w in found.items() if w} == {}
    english = CliRunner().invoke(main, ["--lang", "en", "verify", str(cup)]).output
    assert f"event #{seq} (captain_signed, {laptop_label()}): the signature of" in english


def test_21_25_a_count_in_a_fault_takes_the_russian_plural_form() -> None:
    """«18 событий», «3 события», «1 событие»: a count inside a verify note or fault."""
    ru = i18n.translator("ru")
    texts = [Count(n, "{n} event(s)", "{n} event(s)").render(ru) for n in (1, 3, 18)]
    assert texts == ["1 событие", "3 события", "18 событий"]
    assert str(Count(3, "{n} event(s)", "{n} event(s)")) == "3 event(s)"


def test_25_serve_errors_are_russian_with_lang_ru(demo_folder) -> None:
    """``fieldjudge serve`` on a port another program holds: the reason in Russian and the
    errno name, never the system's English sentence."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        # the installed command (``serve`` becomes the pit program: never in this process)
        out = subprocess.run(
            [sys.executable, "-m", "fieldjudge", "--lang", "ru", "serve", str(demo_folder)]
            + ["--port", str(port), "--no-qr"],
            capture_output=True,
            text=True,
            timeout=120,
        )
    said = out.stdout + out.stderr
    assert out.returncode == 1, said
    assert "адрес уже занят (EADDRINUSE)" in said, said
    assert russian_leftovers(said) == set(), said


def test_25_the_chrono_port_gone_reads_russian_with_the_errno_name(tmp_path) -> None:
    """20.01: the simulator stops (a pulled cable): the feed says «порт хронографа пропал»
    in Russian; an OS error the serial library wrapped is named by its errno name."""
    sim = PtyChrono(str(tmp_path / "chrono"))
    sim.plug()
    items: list = []
    stop = threading.Event()
    reader = ChronoReader(sim.path, 9600, "auto", "fps", on_item=items.append)
    th = threading.Thread(target=reader.run, kwargs={"cancelled": stop.is_set}, daemon=True)
    th.start()

    def lost() -> list[Status]:
        return [i for i in items if isinstance(i, Status) and i.state == DISCONNECTED]

    try:
        deadline = time.monotonic() + 20
        while not reader.connected and time.monotonic() < deadline:
            stop.wait(0.02)
        assert reader.connected
        sim.unplug()
        while not lost() and time.monotonic() < deadline:
            stop.wait(0.02)
    finally:
        stop.set()
        th.join(5)
        sim.close()
    st = lost()[0]
    wrapped = serial.SerialException("read failed: [Errno 5] Input/output error")
    wrapped.__cause__ = OSError(errno.EIO, "Input/output error")
    i18n.set_language("ru")
    try:
        text = port_lost_text(st.message, st.code)
        eio = port_lost_text(str(wrapped), errno_code(wrapped))
    finally:
        i18n.set_language("en")
    assert text.startswith("порт хронографа пропал: "), text
    assert russian_leftovers(text) == set(), text
    assert eio == "порт хронографа пропал: ошибка ввода-вывода: устройство отключено (EIO)"
    assert errno_code(serial.SerialException("[Errno 6] could not open port")) == "ENXIO"


def test_25_fractions_take_the_russian_decimal_comma() -> None:
    """20.02: «287,5 фпс» in the event list, the rule messages (the pit's ``ru`` texts and
    the protocol use them) and the protocol's chrono line; English keeps the point."""
    i18n.set_language("ru")
    try:
        assert fps_text(287.5) == "287,5 фпс"
        assert i18n.rule_text(rule("chrono_ok", fps=287.5)) == "20.02: 287,5 фпс, без штрафа"
        over = i18n.rule_text(rule("chrono_over_limit", fps=305.5, limit=300.0))
        assert "305,5 фпс" in over and "300 фпс" in over, over
        assert i18n.number(81.54, spec=".1f") == "81,5"
        # the port dialog's link tolerance, the in-game analysis, a typed fps (20.06)
        note = tolerance_note(link_tolerance(1200, "plain"))
        assert "±16 мс" in note and "+74,3 мс" in note, note
        analysis = ingame_analysis(3, {"fps": 274.9, "interval_ms": 81.546}, False)
        assert "274,9 фпс" in analysis and "81,5 мс" in analysis, analysis
        assert typed_text(Prompt("fps", print, decimal=True, buffer="274.9")) == "274,9"
        for text in (note, analysis):
            assert not re.search(r"\d\.\d", text), text
    finally:
        i18n.set_language("en")
    assert i18n.rule_text(rule("chrono_ok", fps=287.5), lang="en") == "20.02: 287.5 fps, no penalty"
    assert fps_text(287.5) == "287.5 fps"
    assert "+74.3 ms" in tolerance_note(link_tolerance(1200, "plain"))
    assert typed_text(Prompt("fps", print, decimal=True, buffer="274.9")) == "274.9"


def test_25_the_events_csv_reads_russian_with_the_chain_for_auditors(tmp_path) -> None:
    """A game's events CSV (every event type, a void, the protocol's steps, 31): Russian
    headers and each event in words, as the event list says it; the chain as recorded
    (data, hashes, signatures) kept for an auditor, headed in Russian too."""
    t = demo(tmp_path / "cup")
    try:
        gid = every_event_game(t)
        (path,) = run_export(t, tmp_path / "csv", "csv", game_id=gid, lang="ru")
        v = results.game_view(t, gid)
    finally:
        t.close()
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig")), delimiter=";"))
    head, body = rows[0], rows[1:]
    assert head[:6] == ["№", "Время игры", "Время", "Судья", "Событие", "Отменено"]
    assert latin_words(" ".join(head)) - {"JSON"} == set(), head
    assert len(body) == len(v.events)
    words = {w for r in body for w in latin_words(" ".join(r[:6]))}
    assert words == set(), sorted(words)
    texts = [r[4] for r in body]
    assert "Время пошло" in texts and any(x.startswith("Капитан отказался") for x in texts)
    assert any(x.startswith("Хронограф") and "287 фпс" in x for x in texts), texts
    voided = [r for r in body if r[5]]
    assert len(voided) == 1 and voided[0][5] == "да" and "Старая краска" in voided[0][4]
    for r, e in zip(body, v.events, strict=True):  # the chain, as recorded
        assert (r[7], r[8], r[9], r[11]) == (e.id, e.prev_hash, e.hash, e.sig or "")


async def test_21_25_the_app_home_row_and_title_read_the_fault_in_russian(
    cup: Path,  # noqa: F811 - the tamper suite's fixture
) -> None:
    """The app in Russian (Pilot): the tampered game's row and the tournament's title say
    «ПОВРЕЖДЕНО / НЕ ПОДПИСАНО: …» in Russian words, naming the laptop."""
    gid, seq = _tampered(cup)
    laptop = LaptopKeys.load_or_create().name
    rows, title = await home_of(cup, lang="ru", title_says="ПОВРЕЖДЕНО")
    row = rows[gid][4]  # the state column
    assert row.startswith("ПОВРЕЖДЕНО / НЕ ПОДПИСАНО: "), row
    assert f"событие №{seq} (подпись капитана, ноутбук «{laptop}»" in row, row
    assert "ПОВРЕЖДЕНО / НЕ ПОДПИСАНО: tournament.json: изменён после подписи" in title, title
    assert russian_leftovers(row, laptop) == set(), row
    assert russian_leftovers(title, laptop) == set(), title


def test_25_quidditch_verify_names_each_mismatch_in_russian(tmp_path) -> None:
    """``fieldjudge --lang ru quidditch verify``: a changed roll and a wrong seed are named
    in Russian, never in the checker's English."""
    from test_quidditch_session import ROUND1, SEED

    folder = tmp_path / "data" / "quidditch"
    create_tournament(folder, name="Q", day=date(2026, 6, 1)).close()
    t = open_tournament(folder, startup_backup=False)
    try:
        s = QuidditchSession.create(t, sample_setup("m1", client_seed="c"), server_seed=SEED)
        s.resolve(ROUND1)
        data = orjson.loads(orjson.dumps(s.export_dict()))
    finally:
        t.close()
    data["rounds"][0]["rolls"][-1]["value"] = data["rounds"][0]["rolls"][-1]["value"] % 100 + 1
    bad = tmp_path / "bad.json"
    bad.write_bytes(orjson.dumps(data))
    runner = CliRunner()
    changed = runner.invoke(main, ["--lang", "ru", "quidditch", "verify", str(bad), "--seed", SEED])
    seed = runner.invoke(main, ["--lang", "ru", "quidditch", "verify", str(bad), "--seed", "x"])
    assert changed.exit_code == 1 and "значение другое" in changed.output, changed.output
    assert seed.exit_code == 1 and "сид не совпадает с опубликованным хэшем" in seed.output
    for out in (changed.output, seed.output):
        assert russian_leftovers(out) == set(), out


def test_25_a_file_the_os_cannot_read_is_named_in_russian(tmp_path) -> None:
    """A damaged-file message quoting the OS (a folder where a file should be) reads in
    Russian with the errno name, not the system's English sentence."""
    from fieldjudge.store import DamagedFile
    from fieldjudge.store.storage import read_file_bytes

    (tmp_path / "game.json").mkdir()
    try:
        read_file_bytes(tmp_path / "game.json")
    except DamagedFile as exc:
        text = i18n.rule_text(exc, lang="ru")
    assert text == "game.json: не читается: это папка, а не файл (EISDIR)", text
