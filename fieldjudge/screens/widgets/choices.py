"""Lists a judge picks from with the arrows and Enter (players, ports): filled so that the
first entry is highlighted, and Enter picks it at once."""

from __future__ import annotations

from collections.abc import Iterable

from textual.widgets import OptionList
from textual.widgets.option_list import Option


def fill_options(ol: OptionList, options: Iterable[Option], empty: str | None = None) -> None:
    """Replace the options of ``ol``, the first highlighted (with none highlighted, Enter
    did nothing); with no option, ``empty`` as a line that cannot be picked."""
    ol.clear_options()
    ol.add_options(list(options))
    if ol.option_count:
        ol.highlighted = 0
    elif empty is not None:
        ol.add_option(Option(empty, disabled=True))
