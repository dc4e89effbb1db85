"""F1: the keys of the screen underneath, as a modal."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from fieldjudge.i18n import _
from fieldjudge.screens import keymap
from fieldjudge.screens.base import JudgeModal
from fieldjudge.screens.palette import screen_actions


def describe_keys(screen: Screen) -> list[tuple[str, str, str]]:
    """F1's rows: the screen's actions, then the app's, then the focused list's keys
    (aliases of one action once, remapped keys as they are now)."""
    return [(a.key, a.title, a.binding_id) for a in screen_actions(screen, widgets=True)]


class HelpScreen(JudgeModal[None]):
    BINDINGS = keymap.bindings("help")

    def __init__(self, title: str, keys: list[tuple[str, str, str]], text: str = "") -> None:
        super().__init__()
        self.help_title = title
        self.keys = keys
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog help"):
            yield Static(_("Keys") + f": {self.help_title}", classes="dialog-title")
            with VerticalScroll():
                if self.text:
                    yield Static(self.text, classes="dialog-note", markup=False)
                lines = [f"{k:>10}  {d}" for k, d, _id in self.keys]
                yield Static("\n".join(lines), markup=False, id="help-keys")
                ids = [f"{k:>10}  {i}" for k, _d, i in self.keys if i]
                if ids:
                    yield Static(
                        _("Ids for the keymap file (this laptop's config folder, keymap.toml):"),
                        classes="dialog-note help-ids-title",
                    )
                    yield Static("\n".join(ids), markup=False, id="help-ids")
            yield Static(_("Esc / F1: close"), classes="dialog-keys")
