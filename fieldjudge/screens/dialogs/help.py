"""F1: the keys of the screen underneath, as a modal."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from fieldjudge.i18n import _
from fieldjudge.screens import keymap
from fieldjudge.screens.dialogs.forms import TextDialog
from fieldjudge.screens.palette import screen_actions


class HelpScreen(TextDialog[None]):
    """The help text of ``screen`` and its keys: its actions, then the app's, then the
    focused list's (aliases of one action once, remapped keys as they are now)."""

    BINDINGS = keymap.bindings("help")

    def __init__(self, screen: Screen) -> None:
        title = _(getattr(screen, "SCREEN_TITLE", "") or type(screen).__name__)
        super().__init__(_("Keys") + f": {title}", None, _("Esc / F1: close"))
        self.keys = [(a.key, a.title, a.binding_id) for a in screen_actions(screen, widgets=True)]
        self.text = _(getattr(screen, "HELP_TEXT", "") or "")

    def compose_body(self) -> ComposeResult:
        with VerticalScroll():
            if self.text:
                yield Static(self.text, classes="dialog-note", markup=False)
            lines = [f"{k:>10}  {d}" for k, d, _id in self.keys]
            yield Static("\n".join(lines), markup=False, id="help-keys")
            ids = [f"{k:>10}  {i}" for k, _d, i in self.keys if i]
            if ids:
                yield Static(
                    _("Ids for the keymap file (this laptop's config folder, keymap.toml):"),
                    classes="dialog-note",
                    markup=False,
                )
                yield Static("\n".join(ids), markup=False, id="help-ids")
