"""The chrono station's writes for one game (19, 20): a team's check-in, a marker's verdict
and the head judge's approval of a team (19.05, with his secret; rate-limited). Each asks the
rules engine once and appends through the one writer.

One writer per game: a marker check never creates a game's file nor makes the chrono laptop
its owner. When this laptop owns the game (its file records this laptop), the checks go into
the game's log (``TournamentService.append_game_event``); otherwise into this laptop's own
marker-check log of the game (``laptops/<id>/marker_checks/<game>.json``, signed, hash
chained: ``append_marker_event``), and the game's owner takes them into the game
(:func:`take_into_game`, when the field laptop opens the game and before it starts the
clock), each with the laptop and event it came from. The marker-check screens read the
game's events (never opening it for writing) plus the checks not taken in yet."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from fieldjudge.rules.chrono_checks import APPROVAL, checkin_data
from fieldjudge.rules.events import Event, effective
from fieldjudge.rules.messages import RuleMessage, Team, rule
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball.checks import refusal
from fieldjudge.rules.paintball.model import GameState
from fieldjudge.rules.paintball.setup import GameSetup
from fieldjudge.rules.paintball.state import fold
from fieldjudge.rules.protocol import fold_protocol
from fieldjudge.services.paintball.lineup import LineupChoice, lineup_choice, lineup_data
from fieldjudge.services.paintball.results import setup_for
from fieldjudge.services.tournament import TournamentService
from fieldjudge.store import Refused

#: what the game's owner takes into the game from a marker-check log (an approval stays
#: where the head judge signed it: his signature is of that log's event)
TAKEN = (ev.CHECKIN, ev.MARKER_VERDICT, ev.LINEUP)


@dataclass(frozen=True)
class MarkerView:
    """The events the marker-check screens read: the game's own, then the checks recorded on
    laptops that do not own it and not taken into the game yet."""

    events: list[Event]


def game_events(t: TournamentService, game_id: str) -> list[Event]:
    """The game's events, read without creating its file (none for a game not started)."""
    if not t.game_path(game_id).exists() and not t.anchor(game_id):
        return []
    return list(t.game_log(game_id, create=False).events)


def pending_checks(t: TournamentService, game_id: str, events: list[Event]) -> list[Event]:
    """The marker checks of every laptop's marker-check log not yet taken into the game
    (voided ones left out), oldest first."""
    taken = {str(e.data.get("from_event")) for e in events if e.data.get("from_event")}
    out: list[Event] = []
    for _lid, log in t.marker_events(game_id):
        out += [e for e in effective(log) if e.id not in taken]
    return sorted(out, key=lambda e: e.wall_time)


def owns_game(t: TournamentService, game_id: str) -> bool:
    """Whether this laptop owns the game's file (and so writes its checks into it)."""
    if not t.game_path(game_id).exists():
        return False
    return t.game_write_refusal(game_id) is None


def take_into_game(t: TournamentService, game_id: str, judge: str = "") -> int:
    """The game's owner takes the check-ins and verdicts other laptops recorded into the
    game (19.01, 19.05), each with the laptop and event it came from, while the rules accept
    them (before the clock starts); returns how many. Nothing when this laptop does not own
    the game: the checks wait in their laptops' logs."""
    if not t.marker_events(game_id) or not owns_game(t, game_id):
        return 0
    setup = setup_for(t, game_id)
    events = game_events(t, game_id)
    n = 0
    for e in pending_checks(t, game_id, events):
        if e.type not in TAKEN:
            continue
        data = {**dict(e.data), "from_laptop": e.signer or "", "from_event": e.id}
        if refusal(fold(setup, events), e.type, data):
            continue  # e.g. the game has started: it stays in its laptop's log, listed
        t.append_game_event(game_id, e.type, data, judge=e.judge or judge)
        events = game_events(t, game_id)
        n += 1
    return n


class MarkerCheckService:
    def __init__(self, t: TournamentService, game_id: str, judge: str = "") -> None:
        self.t = t
        self.game_id = game_id
        self.judge = judge

    def state(self) -> tuple[GameSetup, GameState, MarkerView]:
        """(setup, folded state, events) of the game now, with the checks not taken into
        it yet; reads the game without creating its file."""
        events = game_events(self.t, self.game_id)
        events += pending_checks(self.t, self.game_id, events)
        setup = setup_for(self.t, self.game_id)
        return setup, fold(setup, events), MarkerView(events)

    def open_refusal(self, view: MarkerView | None = None) -> RuleMessage | None:
        """31: why the marker check of this game is closed (its protocol signed by both
        captains: nothing changes), or None."""
        events = game_events(self.t, self.game_id) if view is None else view.events
        setup = setup_for(self.t, self.game_id)
        return rule("game_signed") if fold_protocol(events, setup.teams).locked else None

    def player_refusal(self, state: GameState, team: str) -> RuleMessage | None:
        """19.01: why no marker of ``team`` may be checked yet (the team has not checked
        in at the chrono station), or None."""
        return None if str(team) in state.checkins else rule("team_not_checked_in", team=Team(team))

    def _append(self, etype: str, data: dict[str, Any], head_judge: Any = None) -> Event:
        _setup, state, view = self.state()
        why: str | None = self.open_refusal(view)
        if why is None and etype == ev.MARKER_VERDICT:
            why = self.player_refusal(state, str(data.get("team", "")))
        why = why or refusal(state, etype, data)  # the rules engine, asked once
        if why:
            raise Refused(why)
        return self._write(etype, data, head_judge)

    def _write(self, etype: str, data: dict[str, Any], head_judge: Any = None) -> Event:
        """Into the game's log if this laptop owns it, else into its own marker-check log."""
        owns = owns_game(self.t, self.game_id)
        append = self.t.append_game_event if owns else self.t.append_marker_event
        return append(self.game_id, etype, data, judge=self.judge, head_judge=head_judge)

    def checkin(self, team: str, at: datetime, start: datetime | None, minutes: int) -> Event:
        """19.01: a team checks in at the chrono station (late after ``minutes``)."""
        return self._append(ev.CHECKIN, checkin_data(team, at, start, minutes))

    def lineup_choice(self, team: str) -> LineupChoice:
        """30.01: the roster and the default line-up of ``team`` (its previous one, else
        the first ``team_size``; never a player disqualified under 20.05)."""
        _setup, state, _view = self.state()
        return lineup_choice(self.t, self.game_id, state, team)

    def lineup(self, team: str, numbers: list[int]) -> Event:
        """30.01: who of ``team`` plays this game, confirmed at its check-in."""
        return self._append(ev.LINEUP, lineup_data(team, numbers))

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

    def approve(self, team: str, secret: str) -> Event:
        """19.05: the head judge approves a team's checks, with his secret (wrong ones are
        logged and rate-limited like every head-judge secret)."""
        _setup, state, view = self.state()
        why = self.open_refusal(view)
        if why:
            raise Refused(why)
        grant = self.t.head_judge(secret, APPROVAL)
        results = {str(p.number): p.marker_result for p in state.team_players(team)}
        data = {
            "team": team,
            "results": results,
            "approved_by": str(self.t.meta.get("head_judge", "")),
        }
        return self._write(APPROVAL, data, grant)
