"""The export dialog runs its export in the results program, a child process waited for
by a thread worker (issues 5, 24): the judge's keys work while it runs, a second export is
refused, the files written (or why not) are shown; a cancelled export stops its child, and a
child that ends without a result is said, never a traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from results_fixtures import demo, finished_game

from fieldjudge import i18n
from fieldjudge.app import make_app
from fieldjudge.commands import export_process
from fieldjudge.commands.export_process import export_in_child
from fieldjudge.export import logged_games
from fieldjudge.export.names import game_stem, tournament_stem
from fieldjudge.screens.dialogs.forms import FormScreen, MessageScreen
from fieldjudge.screens.results.standings import ExportFailed, StandingsScreen
from tests.test_game_helpers import WAIT_S, wait_for


def played_games(t) -> list[dict]:
    """The games a whole export writes a protocol of: logged, and not "not played"."""
    return [g for g in logged_games(t) if not t.game_summary(g["id"]).get("not_played")]


def setup_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "data" / "cup"
    t = demo(folder)
    finished_game(t)
    t.close()
    return folder


class GatedExport:
    """The app's export (the results program in a child), held at its first progress report
    until the test opens the gate: the export is certainly running while the test presses
    keys."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.threads: list[int] = []
        self.seen: list[tuple[int, int]] = []

    def __call__(self, folder, out, fmt, game_id, lang, progress, **options):
        self.threads.append(threading.get_ident())

        def held(done: int, total: int) -> None:
            self.seen.append((done, total))
            progress(done, total)
            if not self.gate.wait(WAIT_S):
                raise TimeoutError("the test never let the export go on")

        return export_in_child(folder, out, fmt, game_id, lang, progress=held, **options)


def notices(app) -> list[str]:
    return [str(n.message) for n in app._notifications]  # noqa: SLF001 - the toasts shown


async def ask_export(pilot, app) -> None:
    await pilot.press("x")
    await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "the export form")
    # html, the tournament's exports/, ru, without the games not played
    await pilot.press("enter", "enter", "enter", "enter")


async def test_export_runs_in_a_worker_while_the_judge_goes_on(tmp_path):
    folder = setup_folder(tmp_path)
    app = make_app(tmp_path / "data", folder, lang="en")
    gated = GatedExport()
    async with app.run_test(size=(110, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        games = played_games(app.tournament)
        expected = sorted(
            [f"protocol-{game_stem(app.tournament, g)}.html" for g in games]
            + [
                f"{kind}-{tournament_stem(app.tournament)}.html"
                for kind in ("protocols", "standings")
            ]
        )
        screen = StandingsScreen(export=gated)
        app.push_screen(screen)
        await wait_for(pilot, lambda: app.screen is screen, "the standings")
        await ask_export(pilot, app)
        line = screen.query_one("#export-progress")
        text = f"Exporting: 0 of {len(games)} games"
        await wait_for(pilot, lambda: str(line.render()) == text, "the progress line")
        assert app.screen is screen and line.display
        # the export is held in its worker: the judge's keys are handled meanwhile
        table = screen.query_one("#standings")
        assert table.cursor_row == 0
        await pilot.press("down", "down")
        await wait_for(pilot, lambda: table.cursor_row == 2, "the cursor to move")
        # a second export is refused with a message, the form is not even shown
        await pilot.press("x")
        refusal = "An export is already running: wait until it ends"
        await wait_for(pilot, lambda: refusal in notices(app), "the refusal")
        assert app.screen is screen
        assert gated.threads and gated.threads[0] != threading.get_ident()
        gated.gate.set()
        await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen), "the result")
        out = folder / "exports"
        assert sorted(p.name for p in out.iterdir()) == expected
        assert app.screen.msg_title == "Exported"
        listed = app.screen.body.splitlines()[1:]
        assert sorted(listed) == sorted(str(out / name) for name in expected)
        assert gated.seen == [(i, len(games)) for i in range(len(games) + 1)]
        assert not line.display
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, "back to the standings")
        # the export is over: a new one may start
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "a new export form")


async def test_export_into_a_file_shows_why_not_a_traceback(tmp_path):
    folder = setup_folder(tmp_path)
    shutil.rmtree(folder / "exports")
    (folder / "exports").write_text("not a folder")
    # the export the command that starts the app gives it (the app imports no export)
    app = make_app(tmp_path / "data", folder, lang="en", exporter=export_in_child)
    async with app.run_test(size=(110, 40)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        await pilot.press("S")
        await wait_for(pilot, lambda: isinstance(app.screen, StandingsScreen), "the standings")
        await ask_export(pilot, app)
        await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen), "the message")
        assert app.screen.msg_title == "Export failed"
        assert app.screen.body == (
            f"Cannot write the files to {folder / 'exports'} "
            "(a file of that name is already there (EEXIST))"
        )
        assert (folder / "exports").read_text() == "not a folder"


def test_the_exports_own_view_leaves_the_writers_temp_files(tmp_path):
    """The export opens the folder unlocked while the app writes it: a temp file of a write
    in progress is the app's, not a leftover to clean (only the lock's holder cleans)."""
    from fieldjudge.store.storage import TEMP_MARK

    folder = setup_folder(tmp_path)
    busy = folder / "games" / f"g.json{TEMP_MARK}live"
    busy.write_bytes(b"half a wri")
    written = export_in_child(folder, tmp_path / "out", "csv", lang="en")
    assert [p.name for p in written] == [f"standings-{tournament_stem_of(folder)}.csv"]
    assert busy.read_bytes() == b"half a wri"


def tournament_stem_of(folder: Path) -> str:
    from fieldjudge.services import open_view

    t = open_view(folder)
    try:
        return tournament_stem(t)
    finally:
        t.close()


async def test_an_export_ending_on_another_screen_is_a_notice_not_a_dialog(tmp_path):
    """The judge left the standings while the export ran: its end must not take his keys."""
    folder = setup_folder(tmp_path)
    app = make_app(tmp_path / "data", folder, lang="en")
    gated = GatedExport()
    async with app.run_test(size=(110, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        home = app.screen
        n = len(played_games(app.tournament)) + 2
        screen = StandingsScreen(export=gated)
        app.push_screen(screen)
        await wait_for(pilot, lambda: app.screen is screen, "the standings")
        await ask_export(pilot, app)
        await wait_for(pilot, lambda: gated.seen != [], "the export to start")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is home, "back home")
        gated.gate.set()
        done = f"Exported: {n} files in {folder / 'exports'}"
        await wait_for(pilot, lambda: done in notices(app), "the notice")
        assert app.screen is home
        assert len(list((folder / "exports").iterdir())) == n


def test_the_exports_own_view_keeps_the_writers_index(tmp_path):
    """What the app (the lock's holder) recorded in the local index while an export runs
    stays (its heads: the truncation check); the export's read-only view writes nothing,
    not even its summaries into the index (issue 21: read-only means read-only)."""
    from fieldjudge.services import open_tournament
    from fieldjudge.store.index import SummaryIndex

    folder = setup_folder(tmp_path)
    app_side = open_tournament(folder, lock=True, startup_backup=False)
    try:
        index = SummaryIndex(folder).path
        as_the_app_left_it: list[bytes] = []

        def meanwhile(done: int, total: int) -> None:
            if done == 1:  # the app records a head while the export runs
                app_side.index.remember_head("g-live", 7, "h7")
                as_the_app_left_it.append(index.read_bytes())

        written = export_in_child(folder, tmp_path / "out", "html", lang="en", progress=meanwhile)
        assert len(written) == len(played_games(app_side)) + 2
        on_disk = SummaryIndex(folder)
        assert on_disk.last_head("g-live") == (7, "h7")
        assert index.read_bytes() == as_the_app_left_it[0]  # the export wrote nothing
    finally:
        app_side.close()


async def test_an_app_started_without_the_exports_says_so_on_x(tmp_path):
    """The exports sit above the app: the command that starts it gives the export dialog
    its exporter. An app made without one says where exports are made, no form, no
    traceback."""
    folder = setup_folder(tmp_path)
    app = make_app(tmp_path / "data", folder, lang="en")
    async with app.run_test(size=(110, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        await pilot.press("S")
        await wait_for(pilot, lambda: isinstance(app.screen, StandingsScreen), "the standings")
        await pilot.press("x")
        said = "Exports are not available here: use `fieldjudge export`"
        await wait_for(pilot, lambda: said in notices(app), "the notice")
        assert isinstance(app.screen, StandingsScreen)
        assert not (folder / "exports").exists() or not any((folder / "exports").iterdir())


def running_for(out: Path) -> list[str]:
    """The live processes (not ended, not waiting to be reaped) whose command line names
    ``out``: an export child still at work on it."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().decode(errors="replace")
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue  # ended meanwhile
        if str(out) in cmdline and state != "Z":
            found.append(cmdline)
    return found


def test_a_cancelled_export_stops_its_child_and_returns_nothing(tmp_path):
    """The app ends (its workers are cancelled) while the export runs: the wait on the child
    ends, the child is stopped, nothing is listed as written."""
    folder = setup_folder(tmp_path)
    out = tmp_path / "out"
    seen: list[tuple[int, int]] = []
    assert (
        export_in_child(
            folder, out, "html", progress=lambda *p: seen.append(p), cancelled=lambda: bool(seen)
        )
        == []
    )
    assert seen and running_for(out) == []


def test_a_progress_that_raises_stops_the_child_and_goes_on(tmp_path):
    folder = setup_folder(tmp_path)
    out = tmp_path / "out"

    class Enough(Exception):
        pass

    def progress(done: int, total: int) -> None:
        raise Enough

    with pytest.raises(Enough):
        export_in_child(folder, out, "html", progress=progress)
    assert running_for(out) == []


def test_the_program_stops_before_writing_when_the_app_is_gone(tmp_path):
    """The export program started for the app, whose app closed its standard input (it
    ended or died) before the first game: it writes no file and says nothing more."""
    folder = setup_folder(tmp_path)
    out = tmp_path / "out"
    command = [sys.executable, "-m", "fieldjudge.commands.results", "export"]
    command += [f"--tournament={folder}", f"--out={out}", "--for-app"]
    read_end, write_end = os.pipe()
    os.close(write_end)  # stdin: a pipe already closed before the program starts
    try:
        ran = subprocess.run(command, stdin=read_end, capture_output=True, timeout=120, check=False)
    finally:
        os.close(read_end)
    assert ran.returncode == 1, ran.stderr
    assert ran.stdout == b"" and b"Traceback" not in ran.stderr
    assert not out.exists() or list(out.iterdir()) == []


def test_a_child_that_ends_without_a_result_is_said(tmp_path, monkeypatch):
    """The export program dies (killed, out of memory, a crash): the judge reads that it
    stopped, its exit code and its last word, in the UI language."""
    crash = "import sys; sys.stderr.write('first\\nMemoryError\\n'); sys.exit(3)"
    monkeypatch.setattr(
        export_process, "export_command", lambda root, **options: [sys.executable, "-c", crash]
    )
    with pytest.raises(ExportFailed) as failed:
        export_in_child(tmp_path, tmp_path / "out", "html")
    assert str(failed.value) == "The export stopped without a result (exit code 3): MemoryError"
    try:
        i18n.set_language("ru")
        with pytest.raises(ExportFailed) as failed:
            export_in_child(tmp_path, tmp_path / "out", "html")
    finally:
        i18n.set_language("en")
    assert str(failed.value) == "Экспорт остановился, не дав результата (код выхода 3): MemoryError"
