"""The protocol of one game as the head and senior judges act on it (30.02, 31, 32): intent
methods over :mod:`fieldjudge.services.paintball.results`, for the protocol screen and the CLI."""

from __future__ import annotations

from datetime import UTC, datetime

from fieldjudge.rules.events import Event
from fieldjudge.services.paintball import results
from fieldjudge.services.tournament import TournamentService


class GameProtocol:
    """One game's protocol, acted on by ``judge``. Every method appends one event through
    the one writer, or raises ``Refused`` citing the section."""

    def __init__(self, t: TournamentService, game_id: str, judge: str = "") -> None:
        self.t = t
        self.game_id = game_id
        self.judge = judge

    def view(self) -> results.GameView:
        return results.game_view(self.t, self.game_id)

    def submit(self, when: datetime | None = None) -> Event:
        """30.02, 31: the senior judge submits the result of a finished game."""
        return results.submit_protocol(self.t, self.game_id, judge=self.judge, when=when)

    def sign(self, team: str, name: str, when: datetime | None = None) -> Event:
        """31: a captain signs."""
        return results.sign(self.t, self.game_id, team, name, judge=self.judge, when=when)

    def refuse(
        self, team: str, reason: str, captain: str = "", when: datetime | None = None
    ) -> Event:
        """31: a captain refuses to sign, with the reason."""
        return results.refuse(
            self.t, self.game_id, team, reason, captain, judge=self.judge, when=when
        )

    def correct_total(
        self,
        secret: str,
        new_points: dict[str, int] | None,
        reason: str,
        new_diff: dict[str, int] | None = None,
        outcome: str | None = None,
        outcome_team: str | None = None,
        confirmed_against_rules: bool = False,
    ) -> Event:
        """31: the head judge corrects a wrong total (and may rule another outcome), with
        his secret; points against 30.01 for the outcome recorded raise
        ``results.AgainstRules`` unless ``confirmed_against_rules``."""
        return results.correct_total(
            self.t,
            self.game_id,
            secret,
            new_points,
            reason,
            new_diff,
            judge=self.judge,
            outcome=outcome,
            outcome_team=outcome_team,
            confirmed_against_rules=confirmed_against_rules,
        )

    def no_show(
        self,
        absent: list[str],
        reason: str,
        secret: str,
        when: datetime | None = None,
        cause: str = "team",
    ) -> Event:
        """32.01-32.03: the head judge rules a no-show, with his secret and its cause (team or
        organisers, 32.03)."""
        return results.record_no_show(
            self.t,
            self.game_id,
            absent,
            reason,
            judge=self.judge,
            when=when or datetime.now(UTC),
            secret=secret,
            cause=cause,
        )

    def replay_no_show(self, secret: str, when: datetime | None = None) -> Event:
        """32.03: the head judge replays an organisers' no-show within the round."""
        return results.replay_no_show(
            self.t, self.game_id, secret, judge=self.judge, when=when or datetime.now(UTC)
        )

    def void_locked(
        self, target_id: str, reason: str, secret: str, when: datetime | None = None
    ) -> Event:
        """31: the head judge voids a game event of the signed protocol, with his secret
        and a reason."""
        return results.void_locked_event(
            self.t, self.game_id, target_id, reason, secret, judge=self.judge, when=when
        )

    def locked_void_targets(self) -> list[Event]:
        """The events the head judge may void now (none unless the protocol is locked)."""
        return results.locked_void_targets(self.t, self.view())
