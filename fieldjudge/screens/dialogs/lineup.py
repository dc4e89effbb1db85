"""30.01 ("игра 5х5"): the judge confirms who of a team's roster plays this game.

A list of the roster, the default pick ticked (the team's previous line-up, else the first
``team_size``); Space ticks or unticks the highlighted player, Enter confirms, Esc cancels.
A counter shows "5 of 5". A player disqualified under 20.05 is shown and cannot be ticked.
``save(numbers)`` records the line-up through a service intent and returns the refusal to
show (the dialog stays open) or None (the dialog closes with the numbers)."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import SelectionList, Static
from textual.widgets.selection_list import Selection

from fieldjudge.i18n import _
from fieldjudge.screens import keymap
from fieldjudge.screens.base import JudgeModal
from fieldjudge.services.paintball.lineup import LineupChoice


def counter_text(picked: int, size: int) -> str:
    """The counter under the list: "5 of 5" (30.01)."""
    return _("{picked} of {size}").format(picked=picked, size=size)


class LineupScreen(JudgeModal[list[int] | None]):
    """Returns the confirmed shirt numbers, or None when cancelled."""

    BINDINGS = keymap.bindings("lineup")

    def __init__(
        self,
        choice: LineupChoice,
        team_name: str,
        save: Callable[[list[int]], str | None],
    ) -> None:
        super().__init__()
        self.choice = choice
        self.team_name = team_name
        self.save = save

    def compose(self) -> ComposeResult:
        c = self.choice
        picked = set(c.selected)
        rows = [
            Selection(
                self._prompt(i, p.number in picked),
                p.number,
                p.number in picked,
                disabled=p.disqualified,
            )
            for i, p in enumerate(c.roster)
        ]
        with Vertical(classes="dialog"):
            yield Static(
                _("Line-up (30.01): {team}").format(team=self.team_name),
                classes="dialog-title",
                markup=False,
            )
            yield SelectionList[int](*rows, id="lineup-list", compact=True)
            yield Static("", id="lineup-count", markup=False)
            yield Static("", id="lineup-error", classes="error", markup=False)
            yield Static(
                _("Space: plays / sits out   Enter: confirm   Esc: cancel"),
                classes="dialog-keys",
                markup=False,
            )

    def _prompt(self, index: int, plays: bool) -> Text:
        """A roster row with a text mark of playing or sitting out: the toggle box alone
        differs only by its colour (issue 20, day-found)."""
        p = self.choice.roster[index]
        text = f"{p.number:>3} {p.name} · " + (_("plays") if plays else _("sits out"))
        if p.disqualified:
            text += " ⛔ " + _("disqualified (20.05)")
        return Text(text)

    def on_mount(self) -> None:
        self.query_one("#lineup-list", SelectionList).focus()
        self._count()

    def picked(self) -> list[int]:
        """The ticked numbers, in roster order."""
        chosen = set(self.query_one("#lineup-list", SelectionList).selected)
        return [p.number for p in self.choice.roster if p.number in chosen]

    def _count(self) -> None:
        n = len(self.picked())
        text = counter_text(n, self.choice.team_size)
        if n < self.choice.team_size:
            text += " · " + _("the team plays with fewer")
        self.query_one("#lineup-count", Static).update(text)

    @on(SelectionList.SelectedChanged)
    def _changed(self) -> None:
        listed = self.query_one("#lineup-list", SelectionList)
        chosen = set(listed.selected)
        for i, p in enumerate(self.choice.roster):
            listed.replace_option_prompt_at_index(i, self._prompt(i, p.number in chosen))
        self._count()
        self.query_one("#lineup-error", Static).update("")

    def action_confirm(self) -> None:
        numbers = self.picked()
        why = self.save(numbers)
        if why:
            self.query_one("#lineup-error", Static).update(why)
            return
        self.dismiss(numbers)
