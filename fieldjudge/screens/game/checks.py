"""Paint and neutral checks of the game screen (24-25): its keys' actions, mixed into
:class:`~fieldjudge.screens.game.screen.GameScreen` (they use its session and prompt)."""

from __future__ import annotations

from collections.abc import Callable

from fieldjudge.i18n import _
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball import model as m
from fieldjudge.screens.widgets.prompt import Choice


class CheckActions:
    """24: paint check; 25: neutral check. The same key on the same player gives the
    outcome of his open check."""

    # -- checks ---------------------------------------------------------------------------
    def ask_outcome(self, title: str, then: Callable[[str], None]) -> None:
        self.prompt.ask_choice(
            title,
            [Choice("e", "eliminated", _("eliminated")), Choice("i", "in_play", _("in play"))],
            then,
        )

    def pending(self, kind: str) -> list[m.PlayerState]:
        """Players whose paint check (or neutral check) is open, oldest first."""
        st = self.session.state
        out = [
            p
            for p in st.players.values()
            if p.check is not None and (p.check.kind == "paint") == (kind == "paint")
        ]
        return sorted(out, key=lambda p: (p.check.start_ms or 0) if p.check else 0)

    def ask_team_or_pending(
        self,
        kind: str,
        title: str,
        team_then: Callable[[str], None],
        player_then: Callable[[str, int], None],
    ) -> None:
        """The team of a new check (a / b), or — digit keys — the outcome of a pending
        check, without typing its team and number again."""
        open_checks = self.pending(kind)
        if not open_checks:
            self.ask_team(title, team_then)
            return
        s = self.session
        a, b = s.teams
        choices = [
            Choice("a", ("team", a), s.team_name(a)),
            Choice("b", ("team", b), s.team_name(b)),
        ]
        for i, p in enumerate(open_checks[:9], start=1):
            label = self.label(p.team, p.number)
            choices.append(
                Choice(str(i), ("player", p.team, p.number), _("outcome:") + f" {label}")
            )

        def chosen(value: tuple) -> None:
            if value[0] == "team":
                team_then(value[1])
            else:
                player_then(value[1], value[2])

        # the one check open: Enter gives its outcome (issue 25, item 9)
        only = choices[2].value if len(open_checks) == 1 else None
        self.prompt.ask_choice(
            title + " " + _("(digit: the outcome of a pending check)"), choices, chosen, only
        )

    def action_paint_check(self) -> None:
        """24: start a paint check, or give the outcome of the open check."""
        if not self.phase_refused(ev.PAINT_CHECK_START):
            self._ask("paint", _("Paint check: which team?"), _("Paint check"))

    def action_neutral(self) -> None:
        """25: declare a player neutral, or give the outcome of his neutral check."""
        if not self.phase_refused(ev.NEUTRAL_START):
            self._ask("neutral", _("Neutral: which team?"), _("Neutral"))

    def _ask(self, kind: str, title: str, number_title: str) -> None:
        """The team then the player of a new check, or a pending check's outcome."""
        s = self.session

        def check(team: str, n: int) -> str | None:
            return None if self._open(kind, team, n) else s.start_check.check(kind, team, n)

        def team_then(team: str) -> None:
            self.ask_number(
                number_title,
                team,
                lambda n: self._player(kind, team, n),
                lambda n: check(team, n),
            )

        self.ask_team_or_pending(
            kind, title, team_then, lambda team, n: self._player(kind, team, n)
        )

    def _open(self, kind: str, team: str, number: int) -> bool:
        """Whether the player has a check open (for a neutral check: he is neutral)."""
        p = self.session.state.player(team, number)
        if p is None:
            return False
        return p.check is not None if kind == "paint" else p.status == m.NEUTRAL

    def _player(self, kind: str, team: str, number: int) -> None:
        s = self.session
        if not self._open(kind, team, number):
            # 25.05 (a flag carrier), 29.10 (old paint spots): warned, not refused
            notes = s.check_advisories(kind, team, number)
            if self.record(lambda: s.start_check(kind, team, number)) and notes:
                self.say("⚠ " + " · ".join(notes))
            return
        if kind == "paint":  # p: ends the check he has open, whichever it is
            title, ended = _("Outcome of the check of"), None
        else:
            title, ended = _("Outcome of the neutral check of"), kind
        self.ask_outcome(
            title + f" {self.label(team, number)}:",
            lambda outcome: self.record(lambda: s.end_check(team, number, outcome, ended)),
        )
