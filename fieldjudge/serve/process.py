"""The pit display started from the app (``w``): ``fieldjudge serve`` in a child process.

The server never runs in the judge's process: a pit client can never stall the judge's
screen, and the app loads no web server. The app starts the child, then (on a worker
thread: the child reads the whole tournament before it listens) reads the one JSON line it
prints once listening (its URL, the address to type and its QR code, the note when it took
the next free port) or why it could not. The app stops it when the judge stops the pit
display or the app ends; the child also stops by itself when its standard input closes, so
an app that dies leaves no server behind.

Usage::

    pit = PitProcess.launch(folder, "127.0.0.1", 8765)
    pit.wait_ready()  # blocks; raises PitNotStarted (why, in the UI language) otherwise
    pit.url, pit.shown, pit.qr, pit.moved, pit.running
    pit.stop()
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

from fieldjudge import i18n
from fieldjudge.i18n import _, rule_text
from fieldjudge.rules.os_errors import os_error_of

#: how long the child may take to import, read the tournament and listen
START_TIMEOUT_S = 60.0
#: how long a stopped child may take to close its sockets before it is killed
STOP_TIMEOUT_S = 5.0


class PitNotStarted(Exception):
    """The pit display could not start: the message says why, in the UI language."""


class PitProcess:
    """One pit display server in its own process (never a pool: one child, one server)."""

    def __init__(self, child: subprocess.Popen[bytes], host: str) -> None:
        self.child = child
        self.host = host
        self.ready = False  # it listens: the fields below are known
        self.url = ""  # the address it listens on (0.0.0.0 on the venue network)
        #: the address to type on the TV or phone ("" on the venue network when this
        #: laptop has no network address) and its QR code, made by the child
        self.shown = ""
        self.qr = ""
        self.moved = ""  # the note naming the port taken (UI language), else ""
        self._timed_out = False

    @classmethod
    def launch(cls, folder: Path, host: str, port: int) -> PitProcess:
        """Start the pit display of the tournament ``folder`` on ``host``, on ``port`` or
        the next free one (:meth:`wait_ready` says where, or why not)."""
        command = [sys.executable, "-m", "fieldjudge.commands.pit", str(folder)]
        command += ["--host", host, "--port", str(port), "--for-app"]
        command += ["--lang", i18n.current_language()]
        try:
            child = subprocess.Popen(  # noqa: S603 - this Python, our own module, no shell
                command,
                stdin=subprocess.PIPE,  # closed by the app (or its death): the child stops
                stdout=subprocess.PIPE,  # the one line saying where it listens, or why not
                stderr=subprocess.DEVNULL,  # never into the judge's terminal
                start_new_session=True,  # the terminal's Ctrl+C and Ctrl+Z are the app's
            )
        except OSError as exc:  # this Python cannot be started again: said in his words
            raise PitNotStarted(rule_text(os_error_of(exc))) from None
        return cls(child, host)

    def wait_ready(self, timeout_s: float | None = None) -> None:
        """Read the child's line: it listens (the fields are set), else it is stopped and
        :class:`PitNotStarted` says why. Blocks: the app calls it on a worker thread."""
        stdout = self.child.stdout
        assert stdout is not None  # noqa: S101 - made with stdout=PIPE
        timeout_s = START_TIMEOUT_S if timeout_s is None else timeout_s
        timer = threading.Timer(timeout_s, self._give_up)  # its stop ends the read
        timer.start()
        try:
            line = stdout.readline()
        finally:
            timer.cancel()
            stdout.close()  # the child prints nothing more
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        if not isinstance(answer, dict) or "url" not in answer:
            self.stop()
            if self._timed_out:
                raise PitNotStarted(_("the server did not start in time"))
            if isinstance(answer, dict) and "error" in answer:
                raise PitNotStarted(str(answer["error"]))
            raise PitNotStarted(
                _("the server stopped before it was ready (exit code {code})").format(
                    code=self.child.returncode
                )
            )
        self.url, self.shown = str(answer["url"]), str(answer.get("shown", ""))
        self.qr, self.moved = str(answer.get("qr", "")), str(answer.get("moved", ""))
        self.ready = True

    @property
    def running(self) -> bool:
        """It listens and has not ended."""
        return self.ready and self.child.poll() is None

    def stop(self) -> None:
        """Terminate, wait a moment, kill (harmless when it has ended)."""
        if self.child.stdin is not None and not self.child.stdin.closed:
            self.child.stdin.close()
        if self.child.poll() is None:
            self.child.terminate()
            try:
                self.child.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.child.kill()
                self.child.wait()

    def _give_up(self) -> None:
        self._timed_out = True
        self.stop()
