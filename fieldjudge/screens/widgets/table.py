"""The table of every list screen: the judge moves through it by whole rows."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import repeat

from textual.widgets import DataTable


class RowTable(DataTable):
    def __init__(self, *, id: str, zebra_stripes: bool = True) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=zebra_stripes)

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
