"""Subcommands of ``fieldjudge`` by area (registered in :mod:`fieldjudge.cli`)."""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import click

from fieldjudge.i18n import rule_text
from fieldjudge.paths import default_data_dir
from fieldjudge.services import StoreError


def data_dir(ctx: click.Context) -> Path:
    """The data folder the command line was given (``--data-dir``), else the OS's."""
    obj = ctx.find_root().obj or {}
    return obj.get("data_dir") or default_data_dir()


@contextlib.contextmanager
def refusals_as_messages(*kinds: type[Exception], prefix: str = "") -> Iterator[None]:
    """A refusal or a failure of ``kinds`` (default: the store's and the system's) ends the
    command with its message in the UI language (after ``prefix``) and a non-zero exit,
    never a traceback."""
    caught = kinds or (StoreError, OSError)
    try:
        yield
    except caught as exc:
        raise click.ClickException(prefix + rule_text(exc)) from None


def _set_when_read_to_end(closed: threading.Event) -> None:
    # the raw descriptor, not sys.stdin's buffer: a daemon thread still inside a buffered
    # read when the program ends aborts the interpreter's shutdown (exit code -6)
    try:
        while os.read(sys.stdin.fileno(), 4096):
            pass  # the app writes nothing: this ends once it closes the pipe (or dies)
    except (OSError, ValueError):  # no standard input at all: as closed
        pass
    closed.set()


def set_when_stdin_closes(closed: threading.Event) -> None:
    """``closed`` is set once the standard input closes: the app that started this program
    closed the pipe, or died. A thread, since a pipe has no portable wait with a timeout;
    it ends with the process."""
    threading.Thread(target=_set_when_read_to_end, args=(closed,), daemon=True).start()
