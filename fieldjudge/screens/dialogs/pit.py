"""The pit display's address and QR code, shown when the judge starts it from home."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from fieldjudge.i18n import _
from fieldjudge.screens import keymap
from fieldjudge.screens.base import JudgeModal


class PitPanel(JudgeModal[None]):
    """URL + QR code; Esc hides the panel (the display keeps running), w stops it."""

    BINDINGS = keymap.bindings("pit_panel")

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url

    def compose(self) -> ComposeResult:
        # side by side: the code and the words fit 80×24
        with Horizontal(classes="dialog pit-panel"):
            yield Static(self.app.pit_qr().rstrip("\n"), id="pit-qr", markup=False)
            with Vertical(id="pit-words"):
                yield Static(_("Pit display is on"), classes="dialog-title", markup=False)
                yield Static(
                    _("Type this address on the TV or the phone (same network):"),
                    classes="dialog-note",
                    markup=False,
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
                        markup=False,
                    )
                yield Static(
                    _("Esc: hide (it keeps running) · w: stop"), classes="dialog-keys", markup=False
                )

    def action_lan(self) -> None:
        """Restart it bound to every interface (the judge's explicit choice, issue 14):
        the new panel shows once it listens."""
        self.dismiss(None)
        self.app.start_pit(lan=True)

    def action_stop(self) -> None:
        self.app.stop_pit()
        self.dismiss(None)
