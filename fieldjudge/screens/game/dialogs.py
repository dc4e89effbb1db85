"""Modal dialogs of the game screen, for the unhurried moments (in-game prompts are inline,
see ``game_prompt``):

- :class:`InspectionDialog`: the post-game inspection of 18.02, one key per player.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from fieldjudge.i18n import _
from fieldjudge.screens import keymap
from fieldjudge.screens.dialogs.forms import Field, FormScreen, TextDialog
from fieldjudge.screens.widgets.choices import fill_options
from fieldjudge.services import Refused
from fieldjudge.services.paintball.event_text import Namer
from fieldjudge.services.paintball.game import GameSession


class InspectionDialog(TextDialog[None]):
    """18.02: every unhit player: c checked clean, h hit found, d did not report."""

    BINDINGS = keymap.bindings("inspection_dialog")

    def __init__(self, session: GameSession) -> None:
        keys = _("↑↓ player · c: clean · h: hit found · d: did not report · Esc: close")
        super().__init__(_("Post-game inspection (18.02)"), None, keys, classes="game-dialog")
        self.session = session

    def compose_body(self) -> ComposeResult:
        yield OptionList(id="to-inspect")
        yield Static("", id="inspect-error", classes="error", markup=False)

    def on_mount(self) -> None:
        self.reload()
        self.query_one(OptionList).focus()

    def reload(self) -> None:
        namer = Namer(self.session.names, self.session.state)
        fill_options(
            self.query_one(OptionList),
            (
                Option(Text(namer.player_full(p.team, p.number)), id=f"{p.team}|{p.number}")
                for p in self.session.state.to_inspect()
            ),
        )

    def action_mark(self, result: str) -> None:
        ol = self.query_one(OptionList)
        if ol.highlighted is None:
            return
        team, number = str(ol.get_option_at_index(ol.highlighted).id).split("|")
        if result == "hit_found":
            self._ask_points(team, int(number))
            return
        self._mark(team, int(number), result)

    def _ask_points(self, team: str, number: int) -> None:
        """18.02: the senior judge enters the penalty points for the hit found."""
        default = str(self.session.setup.settings.inspection_penalty_points)

        def check(values: dict[str, str]) -> str | None:
            v = values["points"]
            return None if v.isdigit() else _("Penalty points: a whole number, 0 or more")

        def done(values: dict[str, str] | None) -> None:
            if values is not None:
                self._mark(team, number, "hit_found", int(values["points"]))

        namer = Namer(self.session.names, self.session.state)
        form = FormScreen(
            _("Hit found (18.02):") + f" {namer.player_full(team, number)}",
            [Field("points", _("Penalty points for this hit"), default, restrict=r"[0-9]*")],
            check,
            note=_("Subtracted from the team's game points and printed on the protocol"),
        )
        self.app.push_screen(form, done)

    def _mark(self, team: str, number: int, result: str, points: int | None = None) -> None:
        try:
            self.session.inspect(team, number, result, points)
        except Refused as exc:
            self.query_one("#inspect-error", Static).update(self.session.humanize(exc))
            return
        self.reload()
        if not self.session.state.to_inspect():
            self.dismiss(None)
