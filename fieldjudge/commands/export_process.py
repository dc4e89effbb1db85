"""The app's export (what its export dialog runs): the results program in a child process
(``--for-app``, :mod:`fieldjudge.commands.exporting` says why and what it prints). Given to
the app by the ``fieldjudge`` command, as every dependency of the app is."""

from __future__ import annotations

import json
import os
import selectors
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from fieldjudge import i18n
from fieldjudge.commands.exporting import export_command
from fieldjudge.i18n import _, rule_text
from fieldjudge.rules.os_errors import os_error_of
from fieldjudge.screens.results.standings import ExportFailed

#: how long a read of the child waits before the app's cancellation is looked at again
WAIT_S = 0.2
#: how long a stopped child may take to stop between two games before it is killed
STOP_TIMEOUT_S = 10.0
#: how much of the child's error output is kept to quote (a crash's last line)
STDERR_KEPT = 4000


class _Stopped(Exception):
    """The app cancelled the export."""


def _lines(
    child: subprocess.Popen[bytes], cancelled: Callable[[], bool], errors: bytearray
) -> Iterator[bytes]:
    """The child's output lines as they come; its error output (the last ``STDERR_KEPT``
    bytes) into ``errors``. ``cancelled`` is asked at least every ``WAIT_S``: no read blocks
    longer."""
    assert child.stdout is not None and child.stderr is not None  # noqa: S101 - PIPEs
    pending = b""
    with selectors.DefaultSelector() as selector:
        selector.register(child.stdout, selectors.EVENT_READ)
        selector.register(child.stderr, selectors.EVENT_READ)
        while selector.get_map():
            if cancelled():
                raise _Stopped
            for key, _events in selector.select(WAIT_S):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    selector.unregister(key.fileobj)
                elif key.fileobj is child.stderr:
                    errors += chunk
                    del errors[:-STDERR_KEPT]
                else:
                    *complete, pending = (pending + chunk).split(b"\n")
                    yield from complete
    if pending:
        yield pending


def _stop(child: subprocess.Popen[bytes]) -> None:
    """Ask the child to stop between two games; kill it if it does not in time."""
    if child.stdin is not None and not child.stdin.closed:
        child.stdin.close()
    if child.poll() is None:
        child.terminate()
        try:
            child.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def export_in_child(
    folder: Path,
    out_dir: Path,
    fmt: str,
    game_id: str | None = None,
    lang: str = "ru",
    progress: Callable[[int, int], None] = lambda done, total: None,
    include_unplayed: bool = False,
    cancelled: Callable[[], bool] = lambda: False,
) -> list[Path]:
    """One game or the whole tournament of ``folder`` exported into ``out_dir`` by the
    results program in a child process, its messages in the UI language; returns the files
    written. ``progress(done, total)`` after each game (it may raise: the child is stopped
    and the exception goes on); ``cancelled()`` is asked while waiting: when true, the child
    is stopped and this returns ``[]``. A failure, said in the UI language, is raised as
    :class:`ExportFailed`."""
    options: dict[str, Any] = {
        "folder": Path(folder),
        "game_id": game_id,
        "all_games": game_id is None,
        "fmt": fmt,
        "out": Path(out_dir),
        "lang": lang,
        "delimiter": None,
        "overwrite": False,
        "include_unplayed": include_unplayed,
        "force": False,
    }
    argv = [*export_command({"lang": i18n.current_language()}, **options), "--for-app"]
    try:
        child = subprocess.Popen(  # noqa: S603 - this Python, our own module, no shell
            argv,
            stdin=subprocess.PIPE,  # closed by the app (or its death): the child stops
            stdout=subprocess.PIPE,  # its progress and its outcome, one JSON line each
            stderr=subprocess.PIPE,  # never into the judge's terminal; quoted on a crash
            start_new_session=True,  # the terminal's Ctrl+C and Ctrl+Z are the app's
        )
    except OSError as exc:
        reason = rule_text(os_error_of(exc))
        raise ExportFailed(
            _("The export could not start: {reason}").format(reason=reason)
        ) from None
    outcome: dict[str, Any] = {}
    errors = bytearray()
    try:
        for line in _lines(child, cancelled, errors):
            try:
                message = json.loads(line)
            except ValueError:
                continue  # not the protocol's (a library's word): not ours to show
            if not isinstance(message, dict):
                continue
            if "progress" in message:
                progress(*message["progress"])
            else:
                outcome = message
    except _Stopped:
        _stop(child)
        return []
    except BaseException:
        _stop(child)
        raise
    code = child.wait()
    if code == 0 and "written" in outcome:
        return [Path(p) for p in outcome["written"]]
    if "error" in outcome:
        raise ExportFailed(str(outcome["error"]))
    last = errors.decode(errors="replace").strip().splitlines()[-1:]
    raise ExportFailed(
        _("The export stopped without a result (exit code {code})").format(code=code)
        + (f": {last[0]}" if last else "")
    )
