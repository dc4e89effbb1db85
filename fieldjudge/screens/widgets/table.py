"""The table of every list screen: the judge moves through it by whole rows."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import repeat
from typing import Any

from rich.text import Text
from textual.coordinate import Coordinate
from textual.geometry import Size
from textual.widgets import DataTable
from textual.widgets.data_table import CellType, RowKey


def plain_cell(text: str, one_line: bool = True) -> Text:
    """A text cell drawn as written, never parsed as Rich markup: a name, a reason or a
    fault holding ``[/b]`` (a folder edited by hand, a reason typed so) is not a closing
    tag the table raises on, ``[red]`` colours nothing and ``:fire:`` stays as typed, not
    an emoji; the table measures and draws it without parsing it first. A one-line row's
    text is cut at the column, a taller row's wrapped, as the table draws a string."""
    return Text(text, end="", no_wrap=one_line)


def as_written(cell: object, one_line: bool = True) -> object:
    """``cell`` as :func:`plain_cell` draws it, when it is a text."""
    return plain_cell(cell, one_line) if isinstance(cell, str) else cell


class RowTable(DataTable):
    """A table whose text cells are shown as written (:func:`as_written`)."""

    def __init__(self, *, id: str, zebra_stripes: bool = True) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=zebra_stripes)

    def add_row(
        self,
        *cells: CellType,
        height: int | None = 1,
        key: str | None = None,
        label: Any = None,
    ) -> RowKey:
        one_line = height == 1
        return super().add_row(
            *(as_written(c, one_line) for c in cells), height=height, key=key, label=label
        )

    def update_cell(
        self,
        row_key: RowKey | str,
        column_key: Any,
        value: CellType,
        *,
        update_width: bool = False,
    ) -> None:
        row = self.rows.get(RowKey(row_key) if isinstance(row_key, str) else row_key)
        one_line = row is None or row.height == 1
        super().update_cell(
            row_key, column_key, as_written(value, one_line), update_width=update_width
        )

    def watch_virtual_size(self, old: Size, new: Size) -> None:
        """The columns measured anew (the table measures them when it is idle, after cells
        changed): every row is drawn again at the new widths. The table keeps the rows it
        has drawn by a count of its changes, which measuring does not move, so a row drawn
        between a cell's change and the measuring stayed cut at the old width («result 3:»
        under a widened state column) whenever the screen was laid out in between (a line
        shown under the list, a loaded machine). A change of one cell to itself moves it."""
        if old.width != new.width and self.row_count and self.columns:
            first = Coordinate(0, 0)
            self.update_cell_at(first, self.get_cell_at(first))

    def cursor_key(self) -> str | None:
        """The key of the highlighted row; None when the table is empty."""
        if self.row_count == 0:
            return None
        return str(self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value)

    def refill(self, rows: Iterable[Sequence[object]], keys: Iterable[str] | None = None) -> None:
        """Every row anew (with its key, when given), the cursor kept on the same row
        number: a table redrawn after an edit keeps the judge's place."""
        row = self.cursor_row
        self.clear()
        for cells, key in zip(rows, repeat(None) if keys is None else keys, strict=False):
            self.add_row(*cells, key=key)
        if self.row_count:
            self.move_cursor(row=min(row, self.row_count - 1))
