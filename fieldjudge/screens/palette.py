"""What the command palette (Ctrl+P) and F1 list: every action of the current screen.

Built from the screen's ``BINDINGS`` (and the app's), whether or not the footer shows them,
with the description in the UI language (the screens translate ``active_bindings``, see
``screens/base.py``). A binding's ``tooltip``, when given, is its longer description for
the palette and F1; the ``description`` is the short footer label. Aliases of one action
(``Binding("a,ф", ...)``: the same key on a Russian keyboard layout) are listed once, under
the first key; navigation keys of the focused widget (arrows, Tab) are left to F1.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import App
from textual.binding import ActiveBinding, Binding
from textual.command import Hit, Hits
from textual.screen import Screen
from textual.system_commands import SystemCommandsProvider

from fieldjudge.i18n import _, pgettext

HIDDEN_ACTIONS = {"command_palette", "app.command_palette", "help_quit"}
# Textual's keys every screen has (Tab, Shift+Tab, copy): in F1, not in the palette
NAVIGATION_ACTIONS = {"app.focus_next", "app.focus_previous", "screen.copy_text"}


@dataclass(frozen=True)
class ScreenAction:
    key: str  # as shown (remapped keys included)
    title: str  # in the UI language
    action: str
    node: object  # where the action runs (the screen or the app)
    enabled: bool
    binding_id: str = ""  # the id a keymap file names ("" for Textual's own keys)


def _owner_rank(active: ActiveBinding, screen: Screen) -> int:
    if active.node is screen:
        return 0
    if isinstance(active.node, App):
        return 2
    return 1  # a widget of the screen (navigation)


def screen_actions(screen: Screen, widgets: bool = False) -> list[ScreenAction]:
    """One entry per action of ``screen`` then of the app (and of the focused widgets when
    ``widgets``), aliases folded into the first key."""
    app = screen.app
    rows: list[tuple[int, ScreenAction]] = []  # in binding order within a rank
    seen: set[tuple[int, str]] = set()
    for active in screen.active_bindings.values():
        b: Binding = active.binding
        rank = _owner_rank(active, screen)
        if b.action in NAVIGATION_ACTIONS:
            rank = 1
        if not b.description or b.action in HIDDEN_ACTIONS or (rank == 1 and not widgets):
            continue
        ident = (id(active.node), b.action)
        if ident in seen:
            continue  # an alias (another key of the same action)
        seen.add(ident)
        if b.tooltip:
            title = _(b.tooltip)
        else:
            title = _key_word(b.description) if rank == 1 else _(b.description)
        key = app.get_key_display(b)
        action = ScreenAction(key, title, b.action, active.node, active.enabled, b.id or "")
        rows.append((rank, action))
    return [action for _rank, action in sorted(rows, key=lambda row: row[0])]  # a stable sort


def _key_word(description: str) -> str:
    """A list's or a field's own key (Textual's words): a few of its English words name
    something else in the app ("Home" is the home screen, "End" a game's end, "Submit" the
    protocol's filling in), so they have translations of their own."""
    own = {
        "Home": pgettext("key of a list", "Home"),
        "End": pgettext("key of a list", "End"),
        "Submit": pgettext("key of a list", "Submit"),
    }
    return own.get(description) or _(description)


class JudgeCommands(SystemCommandsProvider):
    """The actions of the screen (``FieldJudgeApp.get_system_commands``). When none matches
    the words typed, one line says so in the UI language (Textual's own says it in English
    after a pause); Enter on it closes the palette."""

    async def search(self, query: str) -> Hits:
        found = False
        async for hit in super().search(query):
            found = True
            yield hit
        if not found and query.strip():
            yield Hit(1.0, Text(_("No matches found"), style="not bold"), _nothing)


def _nothing() -> None:
    """The command of the "no matches" line: nothing to run."""
