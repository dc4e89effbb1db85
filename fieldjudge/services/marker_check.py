"""The chrono station's writes for one game (19, 20): a team's check-in, a marker's verdict
and the head judge's approval of a team (19.05, with his PIN). Each asks the rules engine
once and appends through the one writer (``TournamentService.append_game_event``)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from fieldjudge.rules.chrono_checks import APPROVAL, checkin_data
from fieldjudge.rules.events import Event
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball import refusal
from fieldjudge.rules.paintball.model import GameState
from fieldjudge.rules.paintball.setup import GameSetup
from fieldjudge.services.chrono import game_state
from fieldjudge.services.tournament import TournamentService
from fieldjudge.store import EventLog, Refused


class MarkerCheckService:
    def __init__(self, t: TournamentService, game_id: str, judge: str = "") -> None:
        self.t = t
        self.game_id = game_id
        self.judge = judge

    def state(self) -> tuple[GameSetup, GameState, EventLog]:
        """(setup, folded state, log) of the game now."""
        return game_state(self.t, self.game_id)

    def _append(self, etype: str, data: dict[str, Any], head_judge: Any = None) -> Event:
        _setup, state, _log = self.state()
        why = refusal(state, etype, data)  # the rules engine, asked once
        if why:
            raise Refused(why)
        return self.t.append_game_event(
            self.game_id, etype, data, judge=self.judge, head_judge=head_judge
        )

    def checkin(self, team: str, at: datetime, start: datetime | None, minutes: int) -> Event:
        """19.01: a team checks in at the chrono station (late after ``minutes``)."""
        return self._append(ev.CHECKIN, checkin_data(team, at, start, minutes))

    def verdict(
        self,
        team: str,
        number: int,
        result: str,
        record: Mapping[str, Any] | None = None,
        note: str = "",
    ) -> Event:
        """19.03-19.07, 20.05: a marker's verdict with its test record."""
        data: dict[str, Any] = {
            "team": team,
            "number": int(number),
            "result": result,
            **dict(record or {}),
        }
        if note:
            data["note"] = note
        return self._append(ev.MARKER_VERDICT, data)

    def approve(self, team: str, pin: str) -> Event:
        """19.05: the head judge approves a team's checks, with his PIN."""
        grant = self.t.head_judge(pin, APPROVAL)
        _setup, state, _log = self.state()
        results = {str(p.number): p.marker_result for p in state.team_players(team)}
        data = {
            "team": team,
            "results": results,
            "approved_by": str(self.t.meta.get("head_judge", "")),
        }
        return self.t.append_game_event(
            self.game_id, APPROVAL, data, judge=self.judge, head_judge=grant
        )
