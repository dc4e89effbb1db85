"""Roster import from the teams screen as a judge does it: the file is read and parsed in a
worker thread with a progress bar while the screen keeps taking keys (issue 10, bad input)."""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path

from textual.widgets import DataTable, ProgressBar

from fieldjudge.app import make_app
from fieldjudge.csv_import import parse_roster
from fieldjudge.screens.dialogs.forms import FormScreen, MessageScreen
from fieldjudge.screens.setup.teams import TeamsScreen
from tests.test_game_helpers import sign_later, type_text, wait_for

# Players per team in the written rosters. A megabyte of teams of 10 is 1,645 teams, and
# the import compares every new team's name with every team before it for look-alikes
# (rules/names.py confusable_with, quadratic in the teams: about 15 s); teams of 100 make
# the same megabyte of rows with 165 teams. Which teams the rows fill is not what the
# megabyte test is about: reading a big file in a worker while the screen takes keys.
TEAM = 100


def write_roster(path: Path, size: int = 1_000_000) -> int:
    """A valid roster of about `size` bytes (teams of TEAM, one captain each); returns the
    number of players."""
    lines = ["team,number,name,captain"]
    total = len(lines[0]) + 1
    n = 0
    while True:
        captain = "да" if n % TEAM == 0 else "нет"
        row = f"Команда {n // TEAM:05d},{n % TEAM},Игрок {n:06d} Петров,{captain}"
        if total + len(row.encode()) + 1 > size:
            break
        lines.append(row)
        total += len(row.encode()) + 1
        n += 1
    path.write_bytes(("\n".join(lines) + "\n").encode())
    return n


class HeldParser:
    """``parse_roster`` held at its first progress report until ``release`` is set: the
    screen is looked at in the middle of an import. ``report_first``: the report reaches
    the screen before the hold (its progress bar shows it), else after. ``parsed`` is set
    once the parse ends, whichever way."""

    def __init__(self, report_first: bool) -> None:
        self.report_first = report_first
        self.held = threading.Event()
        self.release = threading.Event()
        self.parsed = threading.Event()

    def __call__(self, raw, team_size, progress):
        def report(done: int, total: int) -> None:
            if self.report_first:
                progress(done, total)
            if not self.held.is_set():
                self.held.set()
                self.release.wait(30)
            if not self.report_first:
                progress(done, total)

        try:
            return parse_roster(raw, team_size, report)
        finally:
            self.parsed.set()


def notes(app) -> list[str]:
    return [str(n.message) for n in app._notifications]  # noqa: SLF001 - the toasts shown


async def open_import(app, pilot, screen: TeamsScreen | None, path: Path) -> None:
    if screen is not None:
        app.push_screen(screen)
    await wait_for(pilot, lambda: isinstance(app.screen, TeamsScreen), "the teams screen")
    await pilot.press("i")
    await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "the path form")
    await type_text(pilot, str(path))
    await pilot.press("enter")


@contextlib.asynccontextmanager
async def importing(folder: Path, path: Path, screen: TeamsScreen):
    """The app on the tournament at ``folder``, the import of ``path`` started from the
    teams screen ``screen`` by keys: (app, pilot, the players before)."""
    app = make_app(folder.parent, folder, lang="en")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        before = len(app.tournament.players())
        await open_import(app, pilot, screen, path)
        yield app, pilot, before


async def test_one_megabyte_roster_imports_with_progress_and_keys_still_work(
    demo_folder: Path, tmp_path: Path
) -> None:
    path = tmp_path / "roster.csv"
    players = write_roster(path)
    assert 990_000 < path.stat().st_size <= 1_000_000
    lines = path.read_bytes().count(b"\n")
    parser = HeldParser(report_first=True)

    screen = TeamsScreen(parse_roster=parser)
    async with importing(demo_folder, path, screen) as (app, pilot, before):

        def bar() -> ProgressBar | None:
            found = screen.query("#csv-progress")
            return found.first(ProgressBar) if found else None

        await wait_for(pilot, lambda: bar() is not None and bar().progress == 2001, "progress")
        assert bar().total == lines and screen.importing
        table = screen.query_one("#teams", DataTable)
        row = table.cursor_row
        await pilot.press("down")  # handled while the worker is in the middle of the file
        await wait_for(pilot, lambda: table.cursor_row == row + 1, "the key press")
        assert screen.importing and len(app.tournament.players()) == before
        parser.release.set()
        await wait_for(
            pilot,
            lambda: len(app.tournament.players()) == before + players,
            "the import",
            tries=3000,
        )
        await wait_for(pilot, lambda: not screen.importing and bar() is None, "the bar goes")
        assert f"Imported {-(-players // TEAM)} teams, {players} players" in notes(app)
        await sign_later(pilot, app)
        assert app.screen is screen


async def test_a_ten_megabyte_file_is_refused_with_a_message(
    demo_folder: Path, tmp_path: Path
) -> None:
    big = tmp_path / "big.csv"
    with big.open("wb") as f:
        f.write(b"team,number,name,captain\n")
        f.truncate(10_000_000)
    async with importing(demo_folder, big, TeamsScreen()) as (app, pilot, before):
        want = (
            "the file is 9765 KB, more than the 1024 KB a roster or schedule can be; "
            "is it the right file?"
        )
        await wait_for(pilot, lambda: want in notes(app), "the refusal")
        assert len(app.tournament.players()) == before and not app.screen.importing


async def test_a_huge_field_lists_its_line_and_imports_nothing(
    demo_folder: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "team,number,name,captain\nЛисы,1,Анна,да\nЛисы,2," + "Б" * 150_000 + ",нет\n",
        encoding="utf-8",
    )
    async with importing(demo_folder, bad, TeamsScreen()) as (app, pilot, before):
        await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen), "the bad rows")
        assert app.screen.body == (
            "line 3: a field is longer than 131072 characters; the rest of the file was not read"
        )
        assert len(app.tournament.players()) == before


async def test_typed_in_team_and_player_names_are_checked(demo_folder: Path) -> None:
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        teams_before = len(app.tournament.teams())
        app.push_screen(TeamsScreen())
        await wait_for(pilot, lambda: isinstance(app.screen, TeamsScreen))
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "the team form")
        form = app.screen
        form.query_one("#f-name").value = "Во\u202eлки"  # pasted with a right-to-left override
        await pilot.press("enter")
        error = form.query_one("#form-error")
        want = (
            "Team name contains the invisible character U+202E RIGHT-TO-LEFT OVERRIDE at position 3"
        )
        await wait_for(pilot, lambda: str(error.render()) == want, "the refusal")
        form.query_one("#f-name").value = "Я" * 41
        await pilot.press("enter")
        want = "Team name is 41 characters long, at most 40 fit on the screens"
        await wait_for(pilot, lambda: str(error.render()) == want, "the length limit")
        assert app.screen is form and len(app.tournament.teams()) == teams_before
        form.query_one("#f-name").value = "Волки-2"
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(app.tournament.teams()) == teams_before + 1, "added")
        assert app.tournament.team_by_name("Волки-2") is not None


async def test_esc_during_an_import_says_nothing_was_imported(
    demo_folder: Path, tmp_path: Path
) -> None:
    """Esc while the worker still reads the file: the screen goes and Textual cancels its
    worker, whose result would never come. The judge is told nothing was imported (a
    silent drop left the schedule empty with no word: the whole-day test met it)."""
    path = tmp_path / "roster.csv"
    write_roster(path, 20_000)
    parser = HeldParser(report_first=False)

    screen = TeamsScreen(parse_roster=parser)
    async with importing(demo_folder, path, screen) as (app, pilot, before):
        await wait_for(pilot, lambda: parser.held.is_set() and screen.importing, "the worker")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, TeamsScreen), "back home")
        want = "Import cancelled: the screen was closed before it finished; nothing imported"
        await wait_for(pilot, lambda: want in notes(app), "the notice")
        parser.release.set()
        await wait_for(pilot, parser.parsed.is_set, "the worker ends")
        await pilot.pause()
        assert len(app.tournament.players()) == before
