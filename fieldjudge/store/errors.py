"""Errors the store raises; each names the file and what is wrong with it.

The store knows no UI language: a refusal carries an English message id (``template``, the
gettext msgid) and its fields (``params``); the services translate it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fieldjudge.rules.messages import Phrase


class StoreError(Exception):
    """Base class: a store problem the app shows to the judge as a message."""


class DamagedFile(StoreError):
    """A file that is not JSON, has a broken chain or an unknown schema version.

    Never overwritten: the app names it and offers the newest good backup. ``fault`` is an
    English message id with its fields (``DamagedFile(path, "line {n} is not valid JSON",
    n=7)``) or a message already made (a ``Phrase``); it stays a ``Phrase``, which is its
    English text as a ``str`` and which the services render in the UI language."""

    def __init__(self, path: Path, fault: str, /, **params: Any) -> None:
        self.path = Path(path)
        self.fault: str = fault if isinstance(fault, Phrase) else _phrase(fault, params)
        super().__init__(f"{self.path.name}: {self.fault}")


def _phrase(fault: str, params: dict[str, Any]) -> Phrase:
    try:
        return Phrase(fault, **params)
    except (KeyError, ValueError, IndexError):  # a text with braces of its own: as it is
        return Phrase("{fault}", fault=fault)


class FolderLocked(StoreError):
    """Another fieldjudge instance on this machine is writing the same folder."""

    def __init__(self, folder: Path, holder: str) -> None:
        self.folder = Path(folder)
        self.holder = holder
        super().__init__(f"{self.folder} is open in another fieldjudge ({holder})")


class Refused(StoreError):
    """An action refused by a rule (the message cites the section) or by a store check.

    ``Refused(rule_message)`` carries an engine message as it is; ``Refused("team {name}
    already exists", name=...)`` an English message id and its fields (``template``,
    ``params``) for the services to translate."""

    def __init__(self, message: Any = "", /, **params: Any) -> None:
        # a plain string is a message id; an engine message (a str subclass) stays as it is
        self.template: str | None = message if type(message) is str else None
        self.params: dict[str, Any] = dict(params)
        if self.template is not None and params:
            super().__init__(self.template.format(**params))
        else:
            super().__init__(message)


class NotTheWriter(Refused):
    """A write attempted without the writer's key: only the services write, after checking
    the rules, the protocol lock and the head judge's authority."""

    def __init__(self, what: str) -> None:
        super().__init__(
            "31: {what} is written only through the services, which check the rules, the "
            "protocol lock and the head judge's authority",
            what=what,
        )


class WriteKey:
    """The capability to write one open tournament folder.

    Made by whoever opens the folder for writing (``fieldjudge.services.open_tournament``)
    and required by every store write; code holding only the store objects can read them,
    never write."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<WriteKey>"


class RefusedMany(Refused):
    """Several refusals at once (an import refused as a whole): ``errors`` holds each one
    (a :class:`Refused` with its message id, or an engine message)."""

    def __init__(self, errors: list[Any]) -> None:
        self.errors = list(errors)
        super().__init__("; ".join(str(e) for e in self.errors) or "refused")
        self.template = None


class WriterConflict(StoreError):
    """Someone else writes (or replaced) this file: appending now would lose events."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"{self.path.name}: {reason}")


class MsgId(str):
    """An English message id inside a refusal's fields, translated with the refusal."""

    is_msgid = True
