"""Standings per division (game points, difference, head-to-head, games, flag hangs),
updated as games close; and the export dialog of the head judge."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Header, Static

from fieldjudge.export.html import standing_rows
from fieldjudge.export.scope import provisional_lines
from fieldjudge.i18n import _
from fieldjudge.screens.base import JudgeScreen
from fieldjudge.screens.dialogs.forms import Field, FormScreen, MessageScreen, Values
from fieldjudge.screens.widgets.footer import Footer
from fieldjudge.services import StoreError, results


class StandingsScreen(JudgeScreen):
    SCREEN_TITLE = "Standings"
    HELP_TEXT = (
        "Ordered by game points, then difference, then head-to-head among teams still tied "
        "(30.01). Only games whose protocol was signed count; the others are listed below "
        "as provisional."
    )
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("x", "export", "Export"),
        Binding("r", "reload", "Refresh", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(_("Standings"), classes="pane-title")
        yield DataTable(id="standings", cursor_type="row", zebra_stripes=True)
        yield Static("", id="standings-scope", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#standings", DataTable)
        table.add_columns(
            _("Division"),
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
            _("Tie-break"),
        )
        self.reload()
        table.focus()

    def on_screen_resume(self) -> None:
        self.reload()

    def action_reload(self) -> None:
        self.reload()

    def reload(self) -> None:
        table = self.query_one("#standings", DataTable)
        table.clear()
        t = self.app.tournament
        for div, rows in results.standings_by_division(t).items():
            for row in standing_rows(t, rows):
                table.add_row(div or "—", *(str(c) for c in row))
        counted = _("Games counted: signed protocols") + f" ({len(results.closed_results(t))})"
        later = provisional_lines(t, _)
        if later:
            counted += "\n" + _("Provisional, not counted until signed") + ":\n  "
            counted += "\n  ".join(later)
        self.query_one("#standings-scope", Static).update(counted)
        t.index.save()

    def action_export(self) -> None:
        export_flow(self.app)


def export_flow(app, game_id: str | None = None) -> None:
    """Ask for format, folder and language, export, and show the files written."""
    from fieldjudge.export import run_export

    t = app.tournament
    if t is None:
        app.notify(_("Open or create a tournament first"), severity="warning")
        return
    scope = _("game") + f" {game_id}" if game_id else _("the whole tournament")

    def check(v: Values) -> str | None:
        if v["format"] not in ("html", "pdf", "csv", "json"):
            return _("Format: html, pdf, csv or json")
        if v["lang"] not in ("ru", "en"):
            return _("Language: ru or en")
        if not v["out"]:
            return _("Name the output folder")
        return None

    def done(v: Values | None) -> None:
        if not v:
            return
        try:
            written = run_export(t, Path(v["out"]).expanduser(), v["format"], game_id, v["lang"])
        except (StoreError, OSError) as exc:
            app.push_screen(MessageScreen(_("Export failed"), str(exc)))
            return
        body = _("Written (existing files are kept; new ones get a new name):") + "\n"
        app.push_screen(MessageScreen(_("Exported"), body + "\n".join(str(p) for p in written)))

    app.push_screen(
        FormScreen(
            _("Export") + f": {scope}",
            [
                Field("format", _("Format: html, pdf, csv or json"), "html"),
                Field("out", _("Output folder"), str(t.folder / "exports")),
                Field("lang", _("Language of the documents (ru, en)"), "ru"),
            ],
            check,
        ),
        done,
    )
