"""The layout the quidditch list screens share: a title line over one table."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Header, Static

from fieldjudge.screens.base import JudgeScreen
from fieldjudge.screens.widgets.footer import Footer
from fieldjudge.screens.widgets.table import RowTable


class TablePane(JudgeScreen):
    """``TITLE_ID``/``TITLE_CLASS`` name the title line (its text: :meth:`heading`, or
    updated later), ``TABLE_ID`` the table."""

    CSS_PATH = "quidditch.tcss"
    TITLE_ID: str | None = None
    TITLE_CLASS = "pane-title"
    TABLE_ID = ""

    def heading(self) -> str:
        return ""

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            yield Static(self.heading(), id=self.TITLE_ID, classes=self.TITLE_CLASS, markup=False)
            yield RowTable(id=self.TABLE_ID)
        yield Footer()

    @property
    def table(self) -> RowTable:
        return self.query_one(f"#{self.TABLE_ID}", RowTable)
