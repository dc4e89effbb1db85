"""A footer that never cuts a key in the middle ("^q Вы…" at 80 columns): the keys that do
not fit whole are left out (F1 and Ctrl+P list every key), the palette key always stays.

Drop-in for Textual's ``Footer`` (``from fieldjudge.screens.widgets.footer import Footer``);
widths follow the padding ``app.tcss`` gives ``FooterKey`` (one space before the key and
one before the description)."""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey

__all__ = ["Footer", "key_width"]


def key_width(key: FooterKey) -> int:
    width = 1 + cell_len(key.key_display)
    if key.description:
        width += 1 + cell_len(key.description)
    return width


class Footer(TextualFooter):
    _fitted_width: int | None = None

    def compose(self) -> ComposeResult:
        items = list(super().compose())
        keys = [
            i for i in items if isinstance(i, FooterKey) and "-command-palette" not in i.classes
        ]
        others = [i for i in items if i not in keys]
        # the palette key is docked right with a border and a trailing space; one more
        # column keeps a gap before it
        room = (self.size.width or self.app.size.width) - sum(
            key_width(i) + 3 for i in others if isinstance(i, FooterKey)
        )
        used = 0
        for key in keys:
            used += key_width(key)
            if used > room:
                break
            yield key
        yield from others

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._fitted_width:
            self._fitted_width = event.size.width
            self.call_after_refresh(self.recompose)
