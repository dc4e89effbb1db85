"""20.06: the judge must show the reading to the punished player at once: a box with the
reading in large digits and the verdict, sized for an 80x24 terminal. The in-game chrono
screen draws its own box; the flag-hang check (23.01/23.02) pushes this one."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from fieldjudge.i18n import _, number
from fieldjudge.screens import keymap
from fieldjudge.screens.base import JudgeModal
from fieldjudge.screens.chrono.widgets import BigDigits


class ReadingShownScreen(JudgeModal[None]):
    """The reading as read (``number(fps)``: «287,5» in Russian) and what it means; Enter or Esc closes it."""

    DEFAULT_CSS = """
    ReadingShownScreen { align: center middle; }
    ReadingShownScreen #shown-box {
        width: 76; max-width: 100%; height: auto; max-height: 100%;
        border: heavy $error; background: $surface; padding: 0 1;
    }
    ReadingShownScreen #shown-digits { width: 1fr; height: 15; text-style: bold; }
    """
    BINDINGS = keymap.bindings("reading_shown")

    def __init__(self, fps: float, text: str) -> None:
        super().__init__()
        self.fps = fps
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="shown-box"):
            yield BigDigits(number(self.fps), id="shown-digits")  # as large as fits
            yield Static(self.text, id="shown-text", markup=False)
            yield Static(
                _("Show this reading to the player (20.06). Enter / Esc: close"), markup=False
            )
