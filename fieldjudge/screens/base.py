"""Base classes for every fieldjudge screen: binding descriptions translated at runtime.

Write ``BINDINGS`` descriptions in English (they are gettext message ids). The footer, the
help screen and the command palette all read a screen's ``active_bindings``; the screens
here return them with the descriptions in the UI language, so the language can be chosen
after import (``--lang``) without touching Textual's binding tables.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from textual.binding import ActiveBinding
from textual.screen import ModalScreen, Screen

from fieldjudge.i18n import _

ResultType = TypeVar("ResultType")


def translated(active: ActiveBinding) -> ActiveBinding:
    """An active binding with its description in the UI language."""
    b = active.binding
    if not b.description:
        return active
    return active._replace(binding=replace(b, description=_(b.description)))


class JudgeScreen(Screen):
    HELP_TEXT = ""

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return {key: translated(a) for key, a in super().active_bindings.items()}


class JudgeModal(ModalScreen[ResultType]):
    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return {key: translated(a) for key, a in super().active_bindings.items()}
