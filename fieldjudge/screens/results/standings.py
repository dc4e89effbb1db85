"""Standings per division (game points, difference, head-to-head, games, flag hangs),
updated as games close; and the export dialog of the head judge.

An export is run by the app's ``exporter``, given by the command that starts the app (the
results program in a child process, :mod:`fieldjudge.commands.export_process`), from a
thread worker that waits for it: the judge goes on using the app meanwhile. The worker
never touches a widget or the app's open tournament; it hands the progress and the result
to the app thread with ``call_from_thread``."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

from textual.app import ComposeResult
from textual.widgets import DataTable, Header, Static
from textual.worker import get_current_worker

from fieldjudge.i18n import _, ngettext
from fieldjudge.rules.messages import Phrase
from fieldjudge.screens import keymap
from fieldjudge.screens.base import JudgeScreen
from fieldjudge.screens.dialogs.forms import (
    YES_NO,
    Field,
    FormScreen,
    MessageScreen,
    Values,
    yes_no,
)
from fieldjudge.screens.widgets.faults import fault_text
from fieldjudge.screens.widgets.footer import Footer
from fieldjudge.screens.widgets.table import RowTable
from fieldjudge.services.paintball import results
from fieldjudge.services.paintball.standings import scope_lines, standing_rows

#: ``export(folder, out_dir, fmt, game_id, lang, progress=..., cancelled=...)`` -> the
#: files written; ``progress(done, total)`` after each game, ``cancelled()`` asked while it
#: waits (true: it stops); why not raised as :class:`ExportFailed`
Exporter = Callable[..., list[Path]]


class ExportFailed(Exception):
    """An export that failed: the message says why, in the UI language."""


EXPORT_GROUP = "export"


TIE_BREAK_WIDTH = 20  # "личные встречи: очки 1, разница +0" in two lines


class StandingsScreen(JudgeScreen):
    SCREEN_TITLE = "Standings"
    HELP_TEXT = (
        "Ordered by game points, then difference, then head-to-head among teams still tied "
        "(30.01). Only games whose protocol was signed count; the others are listed below "
        "as provisional."
    )
    BINDINGS = keymap.bindings("standings")

    def __init__(self, export: Exporter | None = None) -> None:
        """``export``: what runs an export (default: the app's exporter)."""
        super().__init__()
        self.export = export

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(_("Standings"), id="standings-title", classes="pane-title", markup=False)
        yield RowTable(id="standings")
        yield Static("", id="standings-scope", markup=False)
        line = Static("", id="export-progress", markup=False)
        line.display = False
        yield line
        yield Footer()

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#standings", DataTable).focus()

    def _columns(self, divisions: bool) -> None:
        """The table's columns; the division's only when there are several (one division
        is named in the title): at 80 columns every header is whole (issue 25, item 7)."""
        table = self.query_one("#standings", DataTable)
        table.clear(columns=True)
        if divisions:
            table.add_column(_("Division"))
        table.add_columns(
            "#",
            _("Team"),
            _("Games"),
            _("Points"),
            _("Diff"),
            _("Hangs"),
            _("W"),
            _("D"),
            _("L"),
            _("No-shows"),
        )
        # the tie-break's words wrap in a column of their own width (its row grows), never
        # cut at the 80th column (issue 25, item 7)
        table.add_column(_("Tie-break by"), width=TIE_BREAK_WIDTH)

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self) -> None:
        table = self.query_one("#standings", DataTable)
        t = self.app.tournament
        by_division = results.standings_by_division(t)
        several = len(by_division) > 1
        self._columns(several)
        title = _("Standings")
        if not several and any(by_division):
            title += " · " + next(iter(by_division))
        self.query_one("#standings-title", Static).update(title)
        for div, rows in by_division.items():
            for row in standing_rows(t, rows):
                cells = [str(c) for c in row]
                table.add_row(*([div or "—", *cells] if several else cells), height=None)
        counted = "\n".join(scope_lines(t, _, len(results.closed_results(t))))
        # not counted, and said so: what does not verify (the check verify runs)
        faults = [
            Phrase("{file}: {fault}", file="tournament.json", fault=f)
            for f in t.tournament_faults()
        ]
        names = t.team_names()
        for g, summary in results.game_summaries(t):
            if summary.get("phase") == "damaged":
                who = f"{names.get(g['team_a'], '?')} — {names.get(g['team_b'], '?')}"
                faults.append(
                    Phrase(
                        "{when} {who}: {fault}",
                        when=str(g["start"])[-5:],
                        who=who,
                        fault=summary.get("fault", ""),
                    )
                )
        if faults:
            counted = "\n".join(fault_text(f) for f in faults) + "\n" + counted
        self.query_one("#standings-scope", Static).update(counted)
        t.index.save()

    action_reload = reload

    def action_export(self) -> None:
        export_flow(self.app, export=self.export)


def refuse_second_export(app) -> bool:
    """True, and the judge told to wait, while an export of this app is still running."""
    if not any(w.group == EXPORT_GROUP and not w.is_finished for w in app.workers):
        return False
    app.notify(
        _("An export is already running: wait until it ends"), severity="warning", markup=False
    )
    return True


def export_flow(app, export: Exporter | None = None) -> None:
    """Ask for format, folder and language, then export the whole tournament in a worker
    (see the module)."""
    t = app.tournament
    if t is None:
        app.notify(_("Open or create a tournament first"), severity="warning", markup=False)
        return
    if refuse_second_export(app):
        return
    export = export or app.exporter
    if export is None:  # an app started without the exports (the command gives them)
        app.notify(
            _("Exports are not available here: use `fieldjudge export`"),
            severity="warning",
            markup=False,
        )
        return
    origin = app.screen

    def check(v: Values) -> str | None:
        if v["format"] not in ("html", "pdf", "csv", "json"):
            return _("Format: html, pdf, csv or json")
        if v["lang"] not in ("ru", "en"):
            return _("Language: ru or en")
        if not v["out"]:
            return _("Name the output folder")
        if v["unplayed"].lower() not in YES_NO:
            return _("Games not played: y or n")
        return None

    def done(v: Values | None) -> None:
        if not v or refuse_second_export(app):
            return
        out = Path(v["out"]).expanduser()
        unplayed = YES_NO.get(v["unplayed"].lower(), False)
        start_export(app, origin, t.folder, out, v["format"], v["lang"], export, unplayed)

    fields = [
        Field("format", _("Format: html, pdf, csv or json"), "html"),
        Field("out", _("Output folder"), str(t.folder / "exports")),
        Field("lang", _("Language of the documents (ru, en)"), "ru"),
        Field("unplayed", _("Also the games not played (y/n)"), yes_no(False)),
    ]
    title = _("Export") + f": {_('the whole tournament')}"
    app.push_screen(FormScreen(title, fields, check), done)


class _Cancelled(Exception):
    pass


def export_error(exc: BaseException) -> str:
    """What the judge reads when an export fails (never a traceback)."""
    if isinstance(exc, ExportFailed):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"  # a bug still gives a message, not a crash


def start_export(
    app,
    origin,
    folder: Path,
    out: Path,
    fmt: str,
    lang: str,
    run: Exporter,
    include_unplayed: bool,
) -> None:
    """Run the export (``run``: the app's, a child process) from a thread worker of the app
    that waits for it; progress goes to the standings screen's progress line, the result
    to a message (on ``origin``, the screen the export was asked from) or a notice (on any
    other screen, not to take the judge's keys)."""

    def show_progress(done: int, total: int) -> None:  # app thread
        for line in app.screen.query("#export-progress"):
            line.update(
                ngettext(
                    "Exporting: {done} of {total} game", "Exporting: {done} of {total} games", total
                ).format(done=done, total=total)
            )
            line.display = True

    def hide_progress() -> None:
        for screen in app.screen_stack:
            for line in screen.query("#export-progress"):
                line.update("")
                line.display = False

    def finished(written: list[Path] | None, error: str | None) -> None:  # app thread
        hide_progress()
        on_origin = app.screen is origin
        if error is not None:
            if on_origin:
                app.push_screen(MessageScreen(_("Export failed"), error))
            else:
                app.notify(
                    _("Export failed") + f": {error}", severity="error", timeout=30, markup=False
                )
            return
        files = written or []
        if on_origin:
            body = _("Written (existing files are kept; new ones get a new name):") + "\n"
            app.push_screen(MessageScreen(_("Exported"), body + "\n".join(map(str, files))))
        else:
            msg = _("Exported: {n} files in {folder}").format(n=len(files), folder=out)
            app.notify(msg, timeout=30, markup=False)

    def work() -> None:  # the worker thread: no widgets, no open tournament of the app
        worker = get_current_worker()

        def to_app(fn, *args) -> None:
            if worker.is_cancelled:
                raise _Cancelled
            app.call_from_thread(fn, *args)

        def progress(done: int, total: int) -> None:
            to_app(show_progress, done, total)

        try:
            written = run(
                folder,
                out,
                fmt,
                None,  # no game: all
                lang,
                progress=progress,
                include_unplayed=include_unplayed,
                cancelled=lambda: worker.is_cancelled,
            )
        except _Cancelled:
            return
        except Exception as exc:  # noqa: BLE001 - every failure is shown as a message
            outcome: tuple[list[Path] | None, str | None] = (None, export_error(exc))
        else:
            outcome = (written, None)
        with contextlib.suppress(_Cancelled):
            to_app(finished, *outcome)

    app.notify(
        _("Export started: you can go on working; the files are listed at the end"), markup=False
    )
    app.run_worker(work, name="export", group=EXPORT_GROUP, thread=True, exit_on_error=False)
