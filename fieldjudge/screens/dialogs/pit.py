"""The pit display's address and QR code, shown when the judge starts it from home."""

from __future__ import annotations

import errno
from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from fieldjudge.i18n import _
from fieldjudge.screens import keymap
from fieldjudge.screens.base import JudgeModal
from fieldjudge.serve.qr import qr_text
from fieldjudge.serve.server import PitServer, PitServerError
from fieldjudge.services.pitview import PitView

#: how many ports after the chosen one are tried when it is taken
PORTS_TRIED = 20


class PitNotStarted(Exception):
    """The pit display could not start: the message says why, in the UI language."""


def start_pit_server(folder: Path, host: str, port: int) -> tuple[PitServer, str, str]:
    """A pit display server of the tournament ``folder`` listening on ``port``, else on the
    next free one (another program, or another fieldjudge, holds 8765): (server, its URL,
    a note in the UI language naming the port taken when it moved, else "")."""
    last = port if port == 0 else port + PORTS_TRIED
    for candidate in range(port, last + 1):
        server = PitServer(PitView(Path(folder)), host, candidate)
        try:
            url = server.start()
        except PitServerError as exc:
            cause = exc.__cause__
            code = cause.errno if isinstance(cause, OSError) else None
            if code == errno.EADDRINUSE and candidate < last:
                continue  # taken: the next one
            if code == errno.EADDRINUSE:
                why = _("ports {first}-{last} are all busy").format(first=port, last=last)
            elif code == errno.EACCES:
                why = _("no permission to use port {port}").format(port=candidate)
            elif isinstance(cause, OSError):
                why = _("the address {host}:{port} cannot be used").format(
                    host=host, port=candidate
                )
            else:
                why = _("the server did not start in time")
            raise PitNotStarted(why) from exc
        moved = (
            _("Port {busy} is busy: the pit display uses port {port}").format(
                busy=port, port=candidate
            )
            if candidate != port
            else ""
        )
        return server, url, moved
    raise PitNotStarted(_("the server did not start in time"))  # never: the loop returns


class PitPanel(JudgeModal[None]):
    """URL + QR code; Esc hides the panel (the display keeps running), w stops it."""

    BINDINGS = keymap.bindings("pit_panel")

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url

    def compose(self) -> ComposeResult:
        # side by side: the code and the words fit 80×24
        with Horizontal(classes="dialog pit-panel"):
            yield Static(
                qr_text(self.url).rstrip("\n") if self.url else "", id="pit-qr", markup=False
            )
            with Vertical(id="pit-words"):
                yield Static(_("Pit display is on"), classes="dialog-title")
                yield Static(
                    _("Type this address on the TV or the phone (same network):"),
                    classes="dialog-note",
                )
                yield Static(
                    self.url or _("No network address: connect this laptop to the venue network"),
                    id="pit-url",
                    markup=False,
                )
                if not self.app.pit_on_lan():
                    yield Static(
                        _("Only this laptop can open it: l serves it on the venue network"),
                        classes="dialog-note",
                    )
                yield Static(_("Esc: hide (it keeps running) · w: stop"), classes="dialog-keys")

    def action_lan(self) -> None:
        """Restart it bound to every interface (the judge's explicit choice, issue 14)."""
        url = self.app.start_pit(lan=True)
        self.dismiss(None)
        if url is not None:
            self.app.push_screen(PitPanel(url))

    def action_stop(self) -> None:
        self.app.stop_pit()
        self.dismiss(None)
