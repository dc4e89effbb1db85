"""Merging another laptop's folder or JSON export, and choosing conflicting games."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Header, Static

from fieldjudge.i18n import _
from fieldjudge.screens.base import JudgeScreen
from fieldjudge.screens.dialogs.forms import Field, FormScreen, Values
from fieldjudge.screens.widgets.footer import Footer
from fieldjudge.services import merge
from fieldjudge.store import DamagedFile, StoreError


class MergeScreen(JudgeScreen):
    SCREEN_TITLE = "Merge laptops"
    HELP_TEXT = (
        "i: import another laptop's tournament folder or JSON export. Games logged on two "
        "laptops with different events are listed below: o keeps this laptop's log, t takes "
        "the other one (the copy not chosen is kept in conflicts/resolved)."
    )
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("i", "import_source", "Import"),
        Binding("o", "keep('ours')", "Keep ours"),
        Binding("t", "keep('theirs')", "Take theirs"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(_("Merge laptops"), classes="pane-title")
        yield Static("", id="merge-report", markup=False)
        yield Static(_("Conflicts for the head judge to choose"), classes="pane-title")
        yield DataTable(id="conflicts", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#conflicts", DataTable).add_columns(_("Game"), _("Other copy"))
        self.reload()

    def reload(self) -> None:
        table = self.query_one("#conflicts", DataTable)
        table.clear()
        for p in merge.conflicts(self.app.tournament):
            table.add_row(p.name.split("--")[0], p.name, key=str(p))

    def action_import_source(self) -> None:
        def done(v: Values | None) -> None:
            if not v:
                return
            try:
                report = merge.merge_into(self.app.tournament, Path(v["source"]).expanduser())
            except DamagedFile as exc:
                self.show(f"{exc.path}: {exc.fault}")
                return
            except (StoreError, OSError) as exc:
                self.show(str(exc))
                return
            self.show("\n".join(report.lines()))
            self.reload()
            self.app.refresh_home()

        self.app.push_screen(
            FormScreen(
                _("Import another laptop"),
                [Field("source", _("Tournament folder or JSON export"))],
                lambda v: None if v["source"] else _("Name a folder or a file"),
            ),
            done,
        )

    def show(self, text: str) -> None:
        self.query_one("#merge-report", Static).update(text)

    def action_keep(self, which: str) -> None:
        table = self.query_one("#conflicts", DataTable)
        if table.row_count == 0:
            self.notify(_("No conflicts"), severity="warning")
            return
        row_key, _col = table.coordinate_to_cell_key(table.cursor_coordinate)
        path = Path(str(row_key.value))
        question = (
            _("Keep this laptop's log of {game}?")
            if which == "ours"
            else _("Replace this laptop's log of {game} with the other copy?")
        ).format(game=path.name.split("--")[0])

        def done(values: Values | None) -> None:
            if not values:
                return
            try:
                kept = merge.resolve(self.app.tournament, path, which, values["pin"])
            except (StoreError, OSError) as exc:
                self.show(str(exc))
                return
            self.show(_("Done; the copy not chosen is kept as") + f" {kept}")
            self.reload()
            self.app.refresh_home()

        self.app.push_screen(
            FormScreen(
                question,
                [Field("pin", _("Head judge's PIN"), password=True)],
                lambda v: None if v["pin"] else _("Type the head judge's PIN"),
            ),
            done,
        )
