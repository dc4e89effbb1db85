"""Base classes for every fieldjudge screen: binding descriptions translated at runtime.

Write ``BINDINGS`` descriptions in English (they are gettext message ids). The footer, the
help screen and the command palette all read a screen's ``active_bindings``; the screens
here return them with the descriptions in the UI language, so the language can be chosen
after import (``--lang``) without touching Textual's binding tables.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import re
from dataclasses import replace
from typing import Any, TypeVar

from textual.binding import ActiveBinding, Binding
from textual.screen import ModalScreen, Screen

import fieldjudge.screens as pkg
from fieldjudge.i18n import _

ResultType = TypeVar("ResultType")


@functools.lru_cache(maxsize=4096)
def _described(binding: Binding, description: str) -> Binding:
    return replace(binding, description=description)


def translated(active: ActiveBinding) -> ActiveBinding:
    """An active binding with its description in the UI language (the footer asks for
    every binding at each change of focus: the translated copies are kept)."""
    b = active.binding
    if not b.description:
        return active
    description = _(b.description)
    if description == b.description:
        return active
    return active._replace(binding=_described(b, description))


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


class JudgeScreen(Screen):
    HELP_TEXT = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if "BINDINGS" in cls.__dict__:
            cls.BINDINGS = with_ids(cls, cls.__dict__["BINDINGS"])
        super().__init_subclass__(**kwargs)

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return {key: translated(a) for key, a in super().active_bindings.items()}


class JudgeModal(ModalScreen[ResultType]):
    def __init_subclass__(cls, **kwargs: Any) -> None:
        if "BINDINGS" in cls.__dict__:
            cls.BINDINGS = with_ids(cls, cls.__dict__["BINDINGS"])
        super().__init_subclass__(**kwargs)

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return {key: translated(a) for key, a in super().active_bindings.items()}


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
