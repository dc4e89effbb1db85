"""One live paintball game, without any UI: the controller the game screen (and the in-game
chrono screens) drive.

``GameSession(tournament, game_id)`` builds the :class:`GameSetup` from the tournament
(rosters, settings), opens the game's event log and keeps the folded state current. Every
judge action goes through :meth:`GameSession.append`, which

1. validates it against the rules engine (``checks.refusal``) and raises
   :class:`fieldjudge.store.Refused` with the section-citing message if it is illegal,
2. stamps ``game_clock_ms`` (the elapsed game time now) and the judge,
3. appends it through the tournament's one writer (``TournamentService.append_game_event``,
   which checks the protocol lock and the head judge's authority),
4. refolds the state.

The game clock is never a ticking counter: it is the engine's clock (rebuilt from the
events' wall times) read at "now". Within a session "now" is anchored once: one wall-time
reading at construction, then ``time.monotonic()`` deltas, so a wall-clock jump during a
game (NTP, a judge fixing the time) does not move the game clock. Across a restart the
elapsed time comes from the events' wall times, so a running clock keeps running.

Usage::

    s = GameSession(tournament, game_id, judge="Ivanov")
    s.append("clock_start", {})
    s.append("elimination", {"reason": "hit", "players": [{"team": a, "number": 7}]})
    s.now_ms(), s.remaining_ms(), s.state.alive(a)
    s.undo()                      # voids the last event
    s.tick()                      # call about once a second: ends the game at 0:00

Tests inject a clock: any object with ``now() -> aware datetime``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any, Concatenate, Generic, ParamSpec, Protocol

from fieldjudge.i18n import _, rule_text
from fieldjudge.rules.events import VOID, Event
from fieldjudge.rules.messages import Phrase, Team, rule
from fieldjudge.rules.os_errors import os_error_of
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball import model as m
from fieldjudge.rules.paintball.checkpoints import LiveFold
from fieldjudge.rules.paintball.checks import advisories as engine_advisories
from fieldjudge.rules.paintball.checks import refusal as engine_refusal
from fieldjudge.rules.paintball.chrono import ChronoVerdict, chrono_verdict
from fieldjudge.rules.paintball.clock import clock_run_out, elapsed_at
from fieldjudge.rules.paintball.model import END_JUDGE, FINAL, GameState
from fieldjudge.rules.paintball.setup import needs_second_player as penalty_needs_second
from fieldjudge.services.paintball.lineup import (
    LineupChoice,
    lineup_choice,
    lineup_data,
    lineup_needed,
)
from fieldjudge.services.paintball.live import start_refusal as live_start_refusal
from fieldjudge.services.paintball.marker_check import take_into_game
from fieldjudge.services.paintball.results import setup_for
from fieldjudge.services.tournament import TournamentService
from fieldjudge.services.trust import authority
from fieldjudge.store import Refused

UNDO_REASON = "undo"

#: the engine's "name the second player" refusal (29.08), by its template, not its text
_NAME_SECOND = rule("name_second", team=Team("")).en


def asks_second_player(why: Any) -> bool:
    """29.08: whether an engine refusal only asks for the second player of a group
    removal 1+1 (a typed test on the message's template, never on its rendered text)."""
    message = why.args[0] if isinstance(why, BaseException) and why.args else why
    return isinstance(message, Phrase) and message.en == _NAME_SECOND


class SecondPlayerNeeded(Refused):
    """29.08: the event is a group removal 1+1; name the second player of ``team``."""

    def __init__(self, message: Any, team: str) -> None:
        super().__init__(message)
        self.team = team


def _ref(team: str, number: int) -> dict[str, Any]:
    return {"team": team, "number": int(number)}


P = ParamSpec("P")
#: what an intent logs: (event type, payload)
Entry = tuple[str, dict[str, Any]]


class Intent(Generic[P]):
    """A judge's intent: ``build`` makes its event (type, payload) from his input, once.
    ``session.x(...)`` logs it (:meth:`GameSession.append`); ``session.x.check(...)``
    says why it would be refused now (the screen's probe while he types), asked of the
    same rules with the same payload, so each rule is written once (the engine's)."""

    def __init__(self, build: Callable[Concatenate[GameSession, P], Entry]) -> None:
        self.build = build
        self.__doc__ = build.__doc__

    def __get__(self, session: GameSession, owner: type | None = None) -> BoundIntent[P]:
        return BoundIntent(session, self.build)


class BoundIntent(Generic[P]):
    """An :class:`Intent` of one session."""

    def __init__(
        self, session: GameSession, build: Callable[Concatenate[GameSession, P], Entry]
    ) -> None:
        self.session, self.build = session, build

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> Event:
        return self.session.append(*self.build(self.session, *args, **kwargs))

    def check(self, *args: P.args, **kwargs: P.kwargs) -> str | None:
        """Why it would be refused now (None: it would be logged), a second player of a
        group removal (29.08) not named yet aside."""
        etype, data = self.build(self.session, *args, **kwargs)
        why = self.session.refusal(etype, data)
        return None if "second" not in data and asks_second_player(why) else why


class Clock(Protocol):
    def now(self) -> datetime:
        """The current wall time, an aware UTC datetime."""
        ...


class MonotonicClock:
    """Wall time from one anchor plus ``time.monotonic()`` deltas (immune to wall jumps)."""

    def __init__(
        self,
        wall: Callable[[], datetime] = lambda: datetime.now(UTC),
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._monotonic = monotonic
        self._wall0 = wall()
        self._mono0 = monotonic()

    def now(self) -> datetime:
        return self._wall0 + timedelta(seconds=self._monotonic() - self._mono0)


class GameSession:
    """The live state of one game and the only way the UI changes it."""

    def __init__(
        self,
        tournament: TournamentService,
        game_id: str,
        clock: Clock | None = None,
        judge: str = "",
    ) -> None:
        self.tournament = tournament
        self.game_id = game_id
        self.backup_error: Phrase | None = None
        self.clock: Clock = clock or MonotonicClock()
        self.judge = judge
        self.log = tournament.game_log(game_id)  # may raise DamagedFile
        take_into_game(tournament, game_id, judge)  # 19: checks made on the chrono laptop
        # rosters, settings and the players disqualified in earlier games (20.05), as the
        # protocol's
        self.setup = setup_for(tournament, game_id, self.log)
        self.names: dict[str, str] = tournament.team_names()
        self.game: dict[str, Any] = tournament.game(game_id) or {}
        # the fold of the log, kept current; a void refolds from a checkpoint
        self._fold = LiveFold(self.setup, self.log.events)
        self.state: GameState = self._fold.state

    # -- reading ------------------------------------------------------------------------
    @property
    def events(self) -> list[Event]:
        return self.log.events

    @property
    def teams(self) -> tuple[str, str]:
        return self.setup.teams

    def team_name(self, team: str) -> str:
        return self.names.get(team, team)

    def humanize(self, message: Any) -> str:
        """An engine message (or a ``Refused`` carrying one) in the UI language, teams by
        their names (``i18n.rule_text``); a plain string through the UI catalog."""
        return _(rule_text(message, self.names))

    def voided(self) -> set[str]:
        """Ids of events voided by an effective void (the log strikes them through)."""
        return self._fold.voided

    def voided_by(self) -> dict[str, Event]:
        """Each voided event's id → the void that struck it (the log names it: «№14»)."""
        return self._fold.voided_by(self.log.events)

    def event_numbered(self, number: int) -> Event | None:
        """The event the game screen lists as №``number`` (its ``seq``), or None."""
        evs = self.log.events
        if 1 <= number <= len(evs) and evs[number - 1].seq == number:
            return evs[number - 1]
        return next((e for e in evs if e.seq == number), None)

    def now_ms(self) -> int:
        """Elapsed game time now (0 before the start, frozen while stopped)."""
        return elapsed_at(self.state.clock, self.clock.now())

    def remaining_ms(self) -> int:
        return self.state.clock.length_ms - self.now_ms()

    def chrono_verdict(
        self, fps: float | None, forbidden_mode: bool = False, interval_ms: float | None = None
    ) -> ChronoVerdict:
        """What a reading would mean under this tournament's settings (20.02-20.05)."""
        return chrono_verdict(self.setup.settings, fps, forbidden_mode, interval_ms)

    def stamp(
        self, etype: str, data: Mapping[str, Any] | None = None, now: datetime | None = None
    ) -> int | None:
        """The ``game_clock_ms`` an event of ``etype`` gets if appended at ``now`` (the
        wall time; None: now)."""
        if etype == ev.CLOCK_START:
            return 0
        if etype == ev.GAME_END and (data or {}).get("reason") == "clock":
            return self.state.clock.length_ms
        if not self.state.clock.started:
            return None
        return elapsed_at(self.state.clock, self.clock.now() if now is None else now)

    def refusal(self, etype: str, data: Mapping[str, Any] | None = None) -> str | None:
        """Why ``etype`` with ``data`` cannot be logged now (citing the section), or None."""
        data = dict(data or {})
        return self._refusal(etype, data, self.stamp(etype, data))

    def _refusal(self, etype: str, data: dict[str, Any], stamp: int | None) -> str | None:
        try:
            return engine_refusal(self.state, etype, data, stamp)
        except Exception as exc:  # malformed data must become a message, never a crash
            return f"malformed {etype}: {exc}"

    # -- writing ------------------------------------------------------------------------
    def append(self, etype: str, data: Mapping[str, Any] | None = None) -> Event:
        """Validate, stamp and append one event durably; returns it once on disk.
        Raises :class:`Refused` (message citing the section) when it is illegal. The
        clock is read once: the event's wall time and game clock are the same moment,
        the one the rules were asked at."""
        data = dict(data or {})
        now = self.clock.now()
        stamp = self.stamp(etype, data, now)
        why = self._refusal(etype, data, stamp)  # the rules engine, asked once per event
        if not why and etype == ev.CLOCK_START:
            why = self.start_refusal()  # one live game per field and per team
        if why:
            if asks_second_player(why):
                raise SecondPlayerNeeded(why, str(data.get("team") or _first_team(data)))
            raise Refused(why)
        return self._write(etype, data, stamp, now)

    # -- intents (what the screens call: no event payloads outside the services) --------
    def start_refusal(self) -> str | None:
        """Why the clock cannot start now because another game of this field, or of either
        team, is in play ("One live game per field and per team"), naming that game."""
        if self.state.phase != m.NOT_STARTED:
            return None
        return live_start_refusal(self.tournament, self.game_id)

    def start_clock(self) -> Event:
        if take_into_game(self.tournament, self.game_id, self.judge):  # the latest checks
            self._refold()
        return self.append(ev.CLOCK_START)

    def lineup_choice(self, team: str) -> LineupChoice:
        """30.01: the roster and the line-up to start the picker from."""
        return lineup_choice(self.tournament, self.game_id, self.state, team)

    def setup_warnings(self) -> list[str]:
        """The setup's problems (``GameSetup.problems``: a team of fewer than the team size,
        duplicate shirt numbers, an empty roster), in the UI language."""
        return [self.humanize(p) for p in self.setup.problems()]

    def lineup_needed(self) -> str | None:
        """30.01: the team whose line-up must be confirmed before the start, or None."""
        if take_into_game(self.tournament, self.game_id, self.judge):  # a check-in's line-up
            self._refold()
        return lineup_needed(self.state)

    # Intents: each builds its event; ``session.x(...)`` logs it, ``session.x.check(...)``
    # is the screen's probe (:class:`Intent`).
    @Intent
    def set_lineup(self, team: str, numbers: list[int]) -> Entry:
        """30.01: who of ``team`` plays this game (before the start)."""
        return ev.LINEUP, lineup_data(team, numbers)

    @Intent
    def resume_clock(self) -> Entry:
        return ev.CLOCK_RESUME, {}

    @Intent
    def stop_time(self) -> Entry:
        return ev.TIME_STOP, {}

    @Intent
    def end_by_judge(self, note: str) -> Entry:
        """The judge ends the game (weather, injury...): flagged for the head judge."""
        return ev.GAME_END, {"reason": END_JUDGE, "note": note}

    @Intent
    def eliminate(
        self,
        team: str,
        number: int,
        reason: str = "hit",
        second: int | None = None,
        section: str | None = None,
    ) -> Entry:
        """One player out (26-29, 34); raises :class:`SecondPlayerNeeded` when the reason
        is a group removal 1+1 (29.08) and ``second`` is missing. ``section``: what a
        playing-on penalty cites (27.02-27.05, 28.02, 29.11), for an already eliminated
        player too: his team gets the group removal."""
        data: dict[str, Any] = {"reason": reason, "players": [_ref(team, number)]}
        if second is not None:
            data["second"] = int(second)
        if section:
            data["section"] = section
        return ev.ELIMINATION, data

    def is_eliminated(self, team: str, number: int) -> bool:
        p = self.state.player(team, number)
        return p is not None and p.status == m.ELIMINATED

    @Intent
    def markers_down(self, team: str, number: int) -> Entry:
        """20.07 (second item): a player who did not lay his marker down on «Положить
        маркеры» is counted eliminated; recorded before the clock starts only."""
        return ev.ELIMINATION, {"reason": "markers_down", "players": [_ref(team, number)]}

    @Intent
    def note_old_paint(self, team: str, number: int, spot: str) -> Entry:
        """29.10: an old paint spot the player reported before the game."""
        return ev.OLD_PAINT, {**_ref(team, number), "spot": spot}

    def check_advisories(self, kind: str, team: str, number: int) -> list[str]:
        """Warnings a legal check still deserves, in the UI language: a paint check on a
        flag carrier (25.05), the player's old paint spots (29.10)."""
        etype = ev.PAINT_CHECK_START if kind == "paint" else ev.NEUTRAL_START
        return [self.humanize(n) for n in engine_advisories(self.state, etype, _ref(team, number))]

    @Intent
    def eliminate_both(self, a_number: int, b_number: int) -> Entry:
        """26: two opponents hit at once, both out in one entry."""
        a, b = self.teams
        return ev.ELIMINATION, {"reason": "hit", "players": [_ref(a, a_number), _ref(b, b_number)]}

    def needs_second_player(self, reason: str) -> bool:
        """29.08, 34.01: whether ``reason`` is a group removal 1+1 in this tournament."""
        return penalty_needs_second(self.setup.settings, reason)

    @Intent
    def start_check(self, kind: str, team: str, number: int) -> Entry:
        """24: a paint check of the player (``kind`` "paint"); 25: he is neutral (else)."""
        return (ev.PAINT_CHECK_START if kind == "paint" else ev.NEUTRAL_START), _ref(team, number)

    @Intent
    def end_check(self, team: str, number: int, outcome: str, kind: str | None = None) -> Entry:
        """The outcome of the player's paint or neutral check (24, 25): ``kind``, else the
        one he has open."""
        p = self.state.player(team, number)
        if kind is None:
            kind = p.check.kind if p is not None and p.check is not None else "paint"
        etype = ev.PAINT_CHECK_END if kind == "paint" else ev.NEUTRAL_END
        return etype, {**_ref(team, number), "outcome": outcome}

    @Intent
    def capture_flag(self, team: str, number: int) -> Entry:
        return ev.FLAG_CAPTURE, _ref(team, number)

    @Intent
    def hand_over_flag(self, team: str, from_number: int, to_number: int) -> Entry:
        data = {"team": team, "from_number": int(from_number), "to_number": int(to_number)}
        return ev.FLAG_HANDOVER, data

    @Intent
    def hang_flag(self, team: str, number: int) -> Entry:
        return ev.FLAG_HANG, _ref(team, number)

    @Intent
    def hang_verdict(
        self,
        paint: str,
        fps: float | None,
        forbidden_mode: bool = False,
        source: str = "typed",
        second: int | None = None,
    ) -> Entry:
        """23.01: the paint check and chrono of the hanging carrier."""
        data: dict[str, Any] = {"paint": paint, "fps": fps, "forbidden_mode": forbidden_mode}
        data["source"] = source
        if second is not None:
            data["second"] = int(second)
        return ev.HANG_VERDICT, data

    @Intent
    def chrono_reading(
        self,
        team: str,
        number: int,
        fps: float,
        forbidden_mode: bool = False,
        source: str = "typed",
        second: int | None = None,
        **details: Any,
    ) -> Entry:
        """20: an in-game chrono reading (``details``: the device's extra fields)."""
        data: dict[str, Any] = {**details, **_ref(team, number), "fps": fps}
        data.update(forbidden_mode=forbidden_mode, source=source)
        if second is not None:
            data["second"] = int(second)
        return ev.CHRONO_READING, data

    @Intent
    def inspect(
        self, team: str, number: int, result: str, penalty_points: int | None = None
    ) -> Entry:
        """18.02: the inspection of a player after the game; for a hit found, the penalty
        points the senior judge enters (default: the tournament's setting)."""
        data: dict[str, Any] = {**_ref(team, number), "result": result}
        if result == "hit_found" and penalty_points is not None:
            data["penalty_points"] = int(penalty_points)
        return ev.INSPECTION, data

    def voidable(self, number: int) -> Event:
        """The event №``number`` of the game screen's list, when this judge may void it
        now; else :class:`Refused` saying why: no such number, already voided (by which
        void), or not his to void (a head-judge action, a signed protocol: 31, 32)."""
        target = self.event_numbered(number)
        if target is None:
            last = len(self.log.events)
            if not last:
                raise Refused(
                    _("No event #{number}: the game has no events yet").format(number=number)
                )
            raise Refused(
                _("No event #{number}: the list goes from #1 to #{last}").format(
                    number=number, last=last
                )
            )
        why = self.void_refusal(target)
        if why is None:  # the writer's own check (31, 32), asked before the reason is typed
            data = {"target": target.id, "reason": "?"}
            found = authority.append_refusal(
                self.log.events,
                VOID,
                data,
                self.teams,
                False,
                self.tournament.game_protocol(self.game_id),
                self.log.with_id,
            )
            if found:
                why = _("Event #{number} cannot be voided here: {why}").format(
                    number=number, why=self.humanize(found)
                )
        if why is not None:
            raise Refused(why)
        return target

    def void_refusal(self, target: Event) -> str | None:
        """Why ``target`` cannot be voided at all (in the UI language), or None; who may
        void it is the writer's check. A void of a void is allowed: it restores its target."""
        n = target.seq
        by = self.voided_by().get(target.id)
        if by is not None:
            return _("Event #{number} is already voided (by #{by})").format(number=n, by=by.seq)
        if target.type == ev.GAME_END and target.data.get("reason") == "clock":
            # the clock would end the game again at once: time that ran out stays run out
            return _("Event #{number} cannot be voided: the time ran out").format(number=n)
        return None

    def void(self, target_id: str, reason: str) -> Event:
        """Void any event of the log (a void of a void restores its target)."""
        target = self.log.by_id(target_id)
        if target is None:
            raise Refused(_("no event {event} in this game").format(event=target_id))
        why = self.void_refusal(target)
        if why is not None:
            raise Refused(why)
        if not reason.strip():
            raise Refused(_("a correction needs a reason"))
        now = self.clock.now()  # read once: the void's wall time and game clock agree
        stamp = elapsed_at(self.state.clock, now) if self.state.clock.started else None
        event = self.tournament.append_game_event(
            self.game_id,
            VOID,
            {"target": target_id, "reason": reason},
            judge=self.judge,
            game_clock_ms=stamp,
            wall_time=now,
        )
        self._refold()
        return event

    def last_undoable(self) -> Event | None:
        """The newest effective event that is not a void. An automatic ``game_end`` by the
        clock is skipped: time that ran out cannot be undone."""
        gone = self.voided()
        for e in reversed(self.log.events):
            if e.type == VOID or e.id in gone:
                continue
            if e.type == ev.GAME_END and e.data.get("reason") == "clock":
                continue
            return e
        return None

    def undo(self, reason: str = UNDO_REASON) -> Event:
        """Void the last event (see :meth:`last_undoable`)."""
        target = self.last_undoable()
        if target is None:
            raise Refused(_("nothing to undo"))
        return self.void(target.id, reason)

    def tick(self) -> Event | None:
        """End the game when the running clock shows 0:00 (appends ``game_end`` by the
        clock at the game length). Returns the event or None. The state is brought up to
        the log first: an event appended to it otherwise (the head judge's, through the
        services) may have stopped or ended the game."""
        self._refold()
        if not clock_run_out(self.state, self.clock.now()):
            return None
        return self.append(ev.GAME_END, {"reason": "clock"})

    # -- internals ----------------------------------------------------------------------
    def _write(self, etype: str, data: dict[str, Any], stamp: int | None, now: datetime) -> Event:
        was_final = self.state.phase == FINAL
        event = self.tournament.append_game_event(
            self.game_id, etype, data, judge=self.judge, game_clock_ms=stamp, wall_time=now
        )
        self._refold()
        if self.state.phase == FINAL and not was_final:
            if etype != ev.GAME_END:  # a game_end event is anchored by the writer itself
                self.tournament.record_step(self.game_id, "game_end")
            self._backup()
        return event

    def _backup(self) -> None:
        """A rotating copy of the game file when the game is closed (DESIGN.md)."""
        try:
            self.tournament.backup_game(self.game_id)
        except OSError as exc:  # the event is safe on disk; only the extra copy failed
            self.backup_error = os_error_of(exc)

    def take_backup_error(self) -> Phrase | None:
        """Why the closing copy of the game file failed, once: the screen says it."""
        why, self.backup_error = self.backup_error, None
        return why

    def _refold(self) -> None:
        """The state of the log as it is now: moved on by the new events, or after a void
        (it may take back any earlier event) refolded from the last checkpoint before it."""
        self.state = self._fold.update(self.log.events)


def _first_team(data: Mapping[str, Any]) -> str:
    players = data.get("players")
    if isinstance(players, list) and players and isinstance(players[0], Mapping):
        return str(players[0].get("team", ""))
    return ""


__all__ = [
    "SecondPlayerNeeded",
    "asks_second_player",
    "Clock",
    "GameSession",
    "MonotonicClock",
    "UNDO_REASON",
]
