"""Base classes for every fieldjudge screen: binding descriptions translated at runtime.

Write ``BINDINGS`` descriptions in English (they are gettext message ids); the instance
translates them into the UI language when it is created, so the language can be chosen
after import (``--lang``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen

from fieldjudge.i18n import _

ResultType = TypeVar("ResultType")


def translate_bindings(node: DOMNode) -> None:
    table = node._bindings.key_to_bindings  # noqa: SLF001 - no public setter exists
    for key, bindings in table.items():
        table[key] = [
            replace(b, description=_(b.description)) if b.description else b for b in bindings
        ]


class JudgeScreen(Screen):
    HELP_TEXT = ""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        translate_bindings(self)


class JudgeModal(ModalScreen[ResultType]):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        translate_bindings(self)
