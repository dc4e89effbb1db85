"""Base classes for every fieldjudge screen.

A screen's keys are rows of the one keymap (``screens/keymap.py``):
``BINDINGS = keymap.bindings("game")``. Their descriptions are English gettext message ids:
the footer (``screens/widgets/footer.py``), the help screen and the command palette
(``screens/palette.py``) show them in the UI language, so the language can be chosen after
import (``--lang``) without touching Textual's binding tables.
"""

from __future__ import annotations

from typing import TypeVar, cast

from textual.screen import ModalScreen, Screen

ResultType = TypeVar("ResultType")


class _Judge:
    """What every fieldjudge screen shares: Esc (or Enter) on a screen asked for an answer
    closes it with none."""

    def action_cancel(self) -> None:
        cast(Screen, self).dismiss(None)

    action_close = action_cancel


class JudgeScreen(_Judge, Screen):
    HELP_TEXT = ""


class JudgeModal(_Judge, ModalScreen[ResultType]):
    pass
