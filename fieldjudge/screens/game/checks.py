"""Paint and neutral checks of the game screen (24-25): an action group working on the
screen through its :class:`~fieldjudge.screens.game.host.GameHost` interface."""

from __future__ import annotations

from collections.abc import Callable

from fieldjudge.i18n import _
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball import model as m
from fieldjudge.screens.game.host import GameHost
from fieldjudge.screens.widgets.prompt import Choice


class CheckActions:
    """24: paint check; 25: neutral check. The same key on the same player gives the
    outcome of his open check."""

    def __init__(self, host: GameHost) -> None:
        self.host = host

    # -- checks ---------------------------------------------------------------------------
    def ask_outcome(self, title: str, then: Callable[[str], None]) -> None:
        self.host.prompt.ask_choice(
            title,
            [Choice("e", "eliminated", _("eliminated")), Choice("i", "in_play", _("in play"))],
            then,
        )

    def paint_check(self) -> None:
        """24: start a paint check, or give the outcome of the open check."""
        if self.host.phase_refused(ev.PAINT_CHECK_START):
            return
        self.host.ask_team(_("Paint check: which team?"), self._paint_team)

    def _paint_team(self, team: str) -> None:
        def check(n: int) -> str | None:
            p = self.host.session.state.player(team, n)
            if p is not None and p.check is not None:
                return None
            return self.host.session.check_refusal("paint", team, n)

        self.host.ask_number(_("Paint check"), team, lambda n: self._paint_player(team, n), check)

    def _paint_player(self, team: str, number: int) -> None:
        p = self.host.session.state.player(team, number)
        if p is None or p.check is None:
            self.host.record(lambda: self.host.session.start_paint_check(team, number))
            return
        self.ask_outcome(
            _("Outcome of the check of") + f" {self.host.label(team, number)}:",
            lambda outcome: self.host.record(
                lambda: self.host.session.end_check(team, number, outcome)
            ),
        )

    def neutral(self) -> None:
        """25: declare a player neutral, or give the outcome of his neutral check."""
        if self.host.phase_refused(ev.NEUTRAL_START):
            return
        self.host.ask_team(_("Neutral: which team?"), self._neutral_team)

    def _neutral_team(self, team: str) -> None:
        def check(n: int) -> str | None:
            p = self.host.session.state.player(team, n)
            if p is not None and p.status == m.NEUTRAL:
                return None
            return self.host.session.check_refusal("neutral", team, n)

        self.host.ask_number(_("Neutral"), team, lambda n: self._neutral_player(team, n), check)

    def _neutral_player(self, team: str, number: int) -> None:
        p = self.host.session.state.player(team, number)
        if p is None or p.status != m.NEUTRAL:
            self.host.record(lambda: self.host.session.start_neutral(team, number))
            return
        self.ask_outcome(
            _("Outcome of the neutral check of") + f" {self.host.label(team, number)}:",
            lambda outcome: self.host.record(
                lambda: self.host.session.end_neutral(team, number, outcome)
            ),
        )
