"""Base classes for every fieldjudge screen: binding ids for the judge's keymap.

Write ``BINDINGS`` descriptions in English (they are gettext message ids): the footer
(``screens/widgets/footer.py``), the help screen and the command palette
(``screens/palette.py``) show them in the UI language, so the language can be chosen after
import (``--lang``) without touching Textual's binding tables.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from dataclasses import replace
from typing import Any, TypeVar, cast

from textual.binding import Binding
from textual.screen import ModalScreen, Screen

import fieldjudge.screens as pkg

ResultType = TypeVar("ResultType")


def _scope(cls: type) -> str:
    name = cls.__dict__.get("KEY_SCOPE") or cls.__name__.removesuffix("Screen")
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def binding_id(scope: str, action: str) -> str:
    """``game`` + ``eliminate('a')`` -> ``game.eliminate_a``: the id a keymap names."""
    return f"{scope}." + re.sub(r"[^a-z0-9]+", "_", action.lower()).strip("_")


def with_ids(cls: type, bindings: list[Any]) -> list[Any]:
    """Every ``Binding`` of a screen class with an id (its own, or scope.action), so the
    judge's keymap (``services/laptop.py``) can remap any key of any screen."""
    scope = _scope(cls)
    return [
        replace(b, id=binding_id(scope, b.action)) if isinstance(b, Binding) and not b.id else b
        for b in bindings
    ]


class _Judge:
    """What every fieldjudge screen shares: its bindings with ids; Esc (or Enter) on a
    screen asked for an answer closes it with none."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if "BINDINGS" in cls.__dict__:
            cls.BINDINGS = with_ids(cls, cls.__dict__["BINDINGS"])  # type: ignore[attr-defined]
        super().__init_subclass__(**kwargs)

    def action_cancel(self) -> None:
        cast(Screen, self).dismiss(None)

    action_close = action_cancel


class JudgeScreen(_Judge, Screen):
    HELP_TEXT = ""


class JudgeModal(_Judge, ModalScreen[ResultType]):
    pass


def all_binding_ids() -> dict[str, Binding]:
    """Every binding id of every fieldjudge screen (for the keymap file and its checks)."""
    for mod in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
        importlib.import_module(mod.name)
    out: dict[str, Binding] = {}
    todo: list[type] = [JudgeScreen, JudgeModal]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        for b in cls.__dict__.get("BINDINGS", []):
            if isinstance(b, Binding) and b.id:
                out.setdefault(b.id, b)
    return out
