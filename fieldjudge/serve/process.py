"""The pit display started from the app (``w``): ``fieldjudge serve`` in a child process.

The server never runs in the judge's process: a pit client can never stall the judge's
screen, and the app loads no web server. The app starts the child, reads the one JSON line
it prints once listening (its URL, the address to type and its QR code, the note when it
took the next free port) or why it could not, and stops it when the judge stops the pit display or the app ends. The child
also stops by itself when its standard input closes, so an app that dies leaves no server
behind.

Usage::

    pit = PitProcess.start(folder, "127.0.0.1", 8765)  # raises PitNotStarted otherwise
    pit.url, pit.shown, pit.qr, pit.moved, pit.running
    pit.stop()
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

from fieldjudge import i18n
from fieldjudge.i18n import _

#: how long the child may take to import, read the tournament and listen
START_TIMEOUT_S = 30.0
#: how long a stopped child may take to close its sockets before it is killed
STOP_TIMEOUT_S = 5.0


class PitNotStarted(Exception):
    """The pit display could not start: the message says why, in the UI language."""


class PitProcess:
    """One pit display server in its own process (never a pool: one child, one server)."""

    def __init__(self, child: subprocess.Popen[bytes], host: str, answer: dict[str, str]) -> None:
        self.child = child
        self.host = host
        self.url = answer["url"]  # the address it listens on (0.0.0.0 on the venue network)
        #: the address to type on the TV or phone ("" on the venue network when this
        #: laptop has no network address) and its QR code, made by the child
        self.shown = answer["shown"]
        self.qr = answer["qr"]
        self.moved = answer["moved"]  # the note naming the port taken (UI language), else ""

    @classmethod
    def start(cls, folder: Path, host: str, port: int) -> PitProcess:
        """The pit display of the tournament ``folder`` listening on ``host``, on ``port``
        or the next free one; :class:`PitNotStarted` (why, in the UI language) otherwise."""
        command = [sys.executable, "-m", "fieldjudge.commands.serve", str(folder)]
        command += ["--host", host, "--port", str(port), "--for-app"]
        command += ["--lang", i18n.current_language()]
        child = subprocess.Popen(  # noqa: S603 - this Python, our own module, no shell
            command,
            stdin=subprocess.PIPE,  # closed by the app (or its death): the child stops
            stdout=subprocess.PIPE,  # the one line saying where it listens, or why not
            stderr=subprocess.DEVNULL,  # never into the judge's terminal
            start_new_session=True,  # the terminal's Ctrl+C and Ctrl+Z are the app's
        )
        try:
            answer = _read_line(child, START_TIMEOUT_S)
        except TimeoutError:
            _stop(child)
            raise PitNotStarted(_("the server did not start in time")) from None
        if "url" not in answer:
            _stop(child)
            raise PitNotStarted(
                str(answer.get("error"))
                if "error" in answer
                else _("the server stopped before it was ready (exit code {code})").format(
                    code=child.returncode
                )
            )
        return cls(
            child, host, {k: str(answer.get(k, "")) for k in ("url", "shown", "qr", "moved")}
        )

    @property
    def running(self) -> bool:
        return self.child.poll() is None

    def stop(self) -> None:
        _stop(self.child)


def _read_line(child: subprocess.Popen[bytes], timeout_s: float) -> dict[str, object]:
    """The child's JSON line ({} when it ended without one); TimeoutError after
    ``timeout_s``. Read on a thread: a pipe has no portable read with a timeout."""
    lines: queue.Queue[bytes] = queue.Queue()
    assert child.stdout is not None  # noqa: S101 - made with stdout=PIPE
    stdout = child.stdout
    threading.Thread(target=lambda: lines.put(stdout.readline()), daemon=True).start()
    try:
        line = lines.get(timeout=timeout_s)
    except queue.Empty:
        raise TimeoutError from None
    try:
        answer = json.loads(line)
    except ValueError:
        return {}
    return answer if isinstance(answer, dict) else {}


def _stop(child: subprocess.Popen[bytes]) -> None:
    """Terminate, wait a moment, kill; its pipes closed."""
    if child.poll() is None:
        child.terminate()
        try:
            child.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
    for pipe in (child.stdin, child.stdout):
        if pipe is not None:
            pipe.close()
