"""19.03: what the chrono judge found when he took the marker for the check: a foreign object
in the barrel, breech or loader; loose parts; a part that changes the velocity or mode
without tools. Any one refuses the marker for the check. Keys 1-3 toggle, Enter records."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from fieldjudge.i18n import _, rule_text
from fieldjudge.rules.marker_check import ACCEPTANCE_ITEMS, acceptance_item
from fieldjudge.screens import keymap
from fieldjudge.screens.dialogs.forms import TextDialog


class AcceptanceProblemScreen(TextDialog[list[str] | None]):
    BINDINGS = keymap.bindings("acceptance_problem")

    def __init__(self) -> None:
        super().__init__(
            _("Marker not accepted for the check (19.03): what was found?"),
            None,
            _("1-3: toggle · Enter: record · Esc: cancel"),
        )
        self.found: list[str] = []

    def compose_body(self) -> ComposeResult:
        yield Static("", id="acc-items", markup=False)

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        lines = [
            f"[{i}] {'✗' if k in self.found else ' '} {rule_text(acceptance_item(k))}"
            for i, k in enumerate(ACCEPTANCE_ITEMS, start=1)
        ]
        self.query_one("#acc-items", Static).update("\n".join(lines))

    def action_toggle(self, index: int) -> None:
        key = ACCEPTANCE_ITEMS[index]
        if key in self.found:
            self.found.remove(key)
        else:
            self.found.append(key)
        self._show()

    def action_done(self) -> None:
        self.dismiss(list(self.found) or None)
