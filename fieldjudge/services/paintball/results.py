"""Results of a tournament: the protocol actions (30.02, 31, 32) and standings, between the
store (tournament, game logs) and the pure rules (the paintball engine's fold and scoring,
``rules.protocol``).

Every action appends through ``TournamentService.append_game_event`` (the one writer: the
protocol lock and the head judge's authority are checked there); the head judge's actions
take his secret (which unlocks his signing key) and ask the service for his grant."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from fieldjudge.rules import protocol as pr
from fieldjudge.rules.events import VOID, Event
from fieldjudge.rules.messages import rule
from fieldjudge.rules.paintball.checks import game_phase_refusal, refusal, replay_refusal
from fieldjudge.rules.paintball.clock import parse_wall
from fieldjudge.rules.paintball.scoring import GameResult, not_played
from fieldjudge.rules.paintball.scoring import game_result as engine_result
from fieldjudge.rules.paintball.scoring import standings as engine_standings
from fieldjudge.rules.paintball.setup import GameSetup
from fieldjudge.rules.paintball.state import fold
from fieldjudge.services.paintball.disqualified import Setups, disqualified_before, setup_of
from fieldjudge.services.trust import authority
from fieldjudge.services.trust.authority import HeadJudge
from fieldjudge.store import EventLog, Refused
from fieldjudge.store.eventlog import ReadLog


class AgainstRules(Refused):
    """A correction whose points contradict 30.01 for the outcome it records: refused
    until the head judge confirms it. ``question``: what he is asked («30.01 даёт 3 очка
    за водружение — записать 2?»)."""

    def __init__(self, question: Any) -> None:
        self.question = question
        super().__init__(rule("confirm_against_rules", why=question))


class SetupReader(Protocol):
    """What a game's setup needs (with its 20.05 disqualifications given): the schedule,
    rosters and settings (``verify``'s parsed tournament file fits too)."""

    @property
    def settings(self) -> dict[str, Any]: ...

    def games(self) -> list[dict[str, Any]]: ...

    def game(self, game_id: str) -> dict[str, Any] | None: ...

    def players(self, team_id: str | None = None) -> list[dict[str, Any]]: ...


class TournamentReader(SetupReader, Protocol):
    """What the read-only results need of a tournament: the services' TournamentView
    and the store's TournamentFiles (e.g. the pit display's snapshot) both fit."""

    @property
    def meta(self) -> dict[str, Any]: ...

    def teams(self) -> list[dict[str, Any]]: ...

    def team(self, team_id: str) -> dict[str, Any] | None: ...

    def team_names(self) -> dict[str, str]: ...

    def game_summary(self, game_id: str) -> dict[str, Any]: ...


class GameReader(TournamentReader, Protocol):
    """What reading a game's protocol needs of a tournament: its games' files (the
    services' TournamentView, e.g. an export)."""

    @property
    def game_length(self) -> timedelta: ...

    def games_of(self, team_id: str, before: str | None = None) -> list[dict[str, Any]]: ...

    def game_path(self, game_id: str) -> Path: ...

    def anchor(self, game_id: str) -> tuple[int, str] | None: ...

    def game_log(self, game_id: str, create: bool = True) -> EventLog: ...

    def reading_game_log(
        self, game_id: str
    ) -> contextlib.AbstractContextManager[EventLog | ReadLog]: ...


class GameWriter(GameReader, Protocol):
    """What the protocol actions need of a tournament: its games' files and the one writer
    (the services' TournamentService, which folds its games' summaries with this module)."""

    def append_game_event(
        self,
        game_id: str,
        etype: str,
        data: Mapping[str, Any],
        *,
        judge: str,
        wall_time: datetime | None,
        head_judge: HeadJudge | None,
    ) -> Event: ...

    def backup_game(self, game_id: str) -> Path | None: ...

    def head_judge(self, secret: str, action: str = "") -> HeadJudge: ...


CLOSED_PHASES = (pr.SUBMITTED, pr.SIGNED, pr.LOCKED, "no_show")
#: the engine's phases of a game whose time is over (a post-game inspection may remain)
ENDED_PHASES = ("ended", "inspection", "final")


def setup_for(
    t: SetupReader,
    game_id: str,
    log: Any = None,
    disqualified: frozenset[tuple[str, int]] | None = None,
    setups: Setups | None = None,
    game: dict[str, Any] | None = None,
) -> GameSetup:
    """The engine's setup of a game. ``disqualified``: the players disqualified in earlier
    games (20.05) when the caller knows them (:class:`CarriedOver`), else looked up.
    ``setups``: the tournament's rosters and settings read once, and ``game`` its schedule
    entry, for a pass over many games."""
    g = game if game is not None else t.game(game_id)
    if g is None and log is not None:
        g = {"team_a": log.meta.get("team_a"), "team_b": log.meta.get("team_b")}
    if g is None:
        raise Refused("no game {game} in the schedule", game=game_id)
    # 20.05: the live game (services/paintball/game.py) builds its setup here too, so the protocol
    # counts a player disqualified in an earlier game exactly as the game screen does
    if disqualified is None:
        disqualified = disqualified_before(t, game_id)
    g = {**g, "id": game_id}
    return setup_of(t, g, disqualified) if setups is None else setups.of(g, disqualified)


@dataclass
class GameView:
    """Everything the protocol screen and the exports show of one game."""

    game: dict[str, Any]
    setup: GameSetup
    events: list[Event]
    state: Any  # paintball GameState
    result: GameResult  # with the head judge's corrections applied
    computed: GameResult  # as the engine computes it
    protocol: pr.Protocol
    names: dict[str, str]

    @property
    def teams(self) -> tuple[str, str]:
        return self.setup.teams

    @property
    def final(self) -> bool:
        """The game is over (a locked protocol stays so after the head judge's void)."""
        return bool(self.state.no_show) or self.state.phase == "final" or self.protocol.locked

    @property
    def not_played(self) -> bool:
        """No check-in, no start, no no-show ruled: no result, never a draw (30.01, 32)."""
        return not_played(self.state)

    @property
    def provisional(self) -> bool:
        """Played but not over: its result is provisional (30.02: the points are proposed
        at the end), as the protocol screen and the exported protocol both say."""
        return not self.not_played and not self.final

    @property
    def phase(self) -> str:
        if self.state.no_show and self.protocol.phase == pr.OPEN:
            return "no_show"
        return self.protocol.phase if self.protocol.submission else self.state.phase

    @property
    def last_hash(self) -> str:
        return self.events[-1].hash if self.events else ""

    def name(self, team: str) -> str:
        return self.names.get(team, team)


def view_from_events(
    t: TournamentReader,
    game_id: str,
    events: list[Event],
    setup: GameSetup | None = None,
    game: dict[str, Any] | None = None,
) -> GameView:
    """``game``: its schedule entry, when the caller has it."""
    setup = setup or setup_for(t, game_id)
    state = fold(setup, events)
    computed = engine_result(setup, state)
    proto = pr.fold_protocol(events, setup.teams)
    game = game or t.game(game_id) or {"id": game_id, "field": "", "start": ""}
    return GameView(
        game=game,
        setup=setup,
        events=events,
        state=state,
        result=pr.apply_corrections(computed, proto),
        computed=computed,
        protocol=proto,
        names=t.team_names(),
    )


def game_view(t: GameReader, game_id: str) -> GameView:
    """A game as the protocol shows it. Reading never creates a game file: a game not
    started (no file, nothing in the manifest) has no events; a file the manifest shows
    events of must exist (``DamagedFile`` otherwise)."""
    if not t.game_path(game_id).exists() and not t.anchor(game_id):
        return view_from_events(t, game_id, [], setup_for(t, game_id))
    log = t.game_log(game_id, create=False)
    return view_from_events(t, game_id, list(log.events), setup_for(t, game_id, log))


def read_game_view(
    t: GameReader,
    game_id: str,
    disqualified: frozenset[tuple[str, int]] | None = None,
    setups: Setups | None = None,
    game: dict[str, Any] | None = None,
) -> GameView:
    """The view of a game read once (an export over every game): its file read and its
    chain verified once, not kept open unless it already was. ``disqualified``,
    ``setups`` and ``game``: see :func:`setup_for`."""
    with t.reading_game_log(game_id) as log:
        setup = setup_for(t, game_id, log, disqualified, setups, game)
        return view_from_events(t, game_id, list(log.events), setup, game)


def result_doc(r: GameResult) -> dict[str, Any]:
    return {
        "teams": list(r.teams),
        "points": dict(r.points),
        "diff": dict(r.diff),
        "survivors": dict(r.survivors),
        "outcome": r.outcome,
        "flag_hang_team": r.flag_hang_team,
        "flag_held_team": r.flag_held_team,
        "no_show": sorted(r.no_show),
    }


def result_from_doc(game_id: str, d: dict[str, Any]) -> GameResult:
    return GameResult(
        game_id=game_id,
        teams=tuple(d["teams"]),
        points=d["points"],
        diff=d["diff"],
        survivors=d.get("survivors") or {}.fromkeys(d["teams"], 0),
        outcome=d["outcome"],
        flag_hang_team=d.get("flag_hang_team"),
        flag_held_team=d.get("flag_held_team"),
        no_show=frozenset(d.get("no_show") or ()),
    )


# --- actions -----------------------------------------------------------------------------


def _append(
    t: GameWriter,
    game_id: str,
    etype: str,
    data: dict[str, Any],
    judge: str,
    when: datetime | None = None,
    head_judge: HeadJudge | None = None,
) -> Event:
    event = t.append_game_event(
        game_id, etype, data, judge=judge, wall_time=when, head_judge=head_judge
    )
    try:
        t.backup_game(game_id)  # a rotating copy at every closing step of a game
    except OSError:
        pass  # the event itself is durable; the extra copy is best effort
    return event


def submit_protocol(
    t: GameWriter, game_id: str, judge: str = "", when: datetime | None = None
) -> Event:
    """30.02 / 31: the senior judge submits the result once the game is final."""
    v = game_view(t, game_id)
    if not v.final:
        raise Refused(rule("finish_first"))
    if v.protocol.submitted and v.protocol.phase != pr.SUBMITTED:
        raise Refused(rule("new_protocol_not_needed"))
    return _append(t, game_id, pr.PROTOCOL_SUBMITTED, pr.snapshot(v.computed), judge, when)


def sign(
    t: GameWriter, game_id: str, team: str, name: str, judge: str = "", when: datetime | None = None
) -> Event:
    return _append(t, game_id, pr.CAPTAIN_SIGNED, {"team": team, "name": name.strip()}, judge, when)


def refuse(
    t: GameWriter,
    game_id: str,
    team: str,
    reason: str,
    captain: str = "",
    judge: str = "",
    when: datetime | None = None,
) -> Event:
    data = {"team": team, "reason": reason.strip(), "captain": captain.strip()}
    return _append(t, game_id, pr.CAPTAIN_REFUSED, data, judge, when)


def correct_total(
    t: GameWriter,
    game_id: str,
    secret: str,
    new_points: dict[str, int] | None,
    reason: str,
    new_diff: dict[str, int] | None = None,
    judge: str = "",
    when: datetime | None = None,
    outcome: str | None = None,
    outcome_team: str | None = None,
    confirmed_against_rules: bool = False,
) -> Event:
    """31: the head judge corrects a wrong total of a signed protocol, with his secret
    (the event is signed with his key); with ``outcome`` he also rules another outcome
    (points of 30.01 unless given). Points that contradict 30.01 for the outcome recorded
    are refused (:class:`AgainstRules`, after his secret was checked) unless he confirmed them
    (``confirmed_against_rules``), which the event records."""
    v = game_view(t, game_id)
    data = pr.correction_data(
        v.result, v.setup.settings.points, reason, new_points, new_diff, outcome, outcome_team
    )
    why = pr.lock_refusal(v.events, pr.TOTAL_CORRECTED, data, v.teams)
    if why:
        raise Refused(why)
    grant = t.head_judge(secret, pr.TOTAL_CORRECTED)
    against = pr.points_against_rules(v.result, v.setup.settings.points, data)
    if against is not None and not confirmed_against_rules:
        raise AgainstRules(against)
    if against is not None:
        data["confirmed_against_rules"] = True
    head = t.meta.get("head_judge", "") or judge
    data |= {"head_judge": head}
    return _append(t, game_id, pr.TOTAL_CORRECTED, data, judge or head, when, grant)


def void_locked_event(
    t: GameWriter,
    game_id: str,
    target_id: str,
    reason: str,
    secret: str,
    judge: str = "",
    when: datetime | None = None,
) -> Event:
    """31: the head judge voids a game event of a signed (locked) protocol, with his secret
    and a reason (the void is signed with his key). The protocol stays locked; the result
    is folded again without the event and the void is printed as his correction."""
    v = game_view(t, game_id)
    data: dict[str, Any] = {"target": target_id, "reason": reason.strip(), "after_lock": True}
    why = _locked_void_refusal(t, v, data)
    if why:
        raise Refused(why)

    grant = t.head_judge(secret, authority.LOCKED_VOID)
    data["head_judge"] = t.meta.get("head_judge", "") or judge
    return _append(t, game_id, VOID, data, judge or data["head_judge"], when, grant)


def _locked_void_refusal(t: TournamentReader, v: GameView, data: dict[str, Any]) -> str | None:
    if not v.protocol.locked:
        return rule("locked_void_not_locked")
    why = pr.lock_refusal(v.events, VOID, data, v.teams)
    if why is None:  # the game must stay over (30.02): e.g. its end is not voided this way
        left = [e for e in v.events if e.id != data.get("target")]
        # the events after it are checked again without it, as the fold does after a void
        state = fold(v.setup, left, recheck=True)
        if not state.no_show and state.phase not in ENDED_PHASES:
            why = rule("locked_void_unfinished")
    return why


def locked_void_targets(t: TournamentReader, v: GameView) -> list[Event]:
    """The events the head judge may void in a locked protocol now (31), oldest first."""
    if not v.protocol.locked:
        return []
    data = {"reason": "-", "after_lock": True}
    return [e for e in v.events if _locked_void_refusal(t, v, {**data, "target": e.id}) is None]


def previous_game_end(t: GameWriter, game_id: str, team: str) -> datetime | None:
    """When ``team``'s game before ``game_id`` ended: the last game event of its log, else
    its scheduled start plus the game length. Naive local time, as the schedule is."""
    me = t.game(game_id)
    if me is None:
        return None
    before = t.games_of(team, before=me["start"])
    if not before:
        return None
    prev = before[-1]
    ended = t.game_summary(prev["id"]).get("ended_at")
    if ended:
        return parse_wall(ended).astimezone().replace(tzinfo=None)
    return datetime.fromisoformat(prev["start"]) + t.game_length


def no_show_refusal(t: GameWriter, game_id: str, absent: list[str], now: datetime) -> str | None:
    """32.03 for each absent team; ``now`` naive local time of the ruling."""
    gap = int(t.settings.get("min_gap_minutes", 12))
    names = t.team_names()
    for team in absent:
        why = pr.no_show_gap_refusal(
            names.get(team, team), previous_game_end(t, game_id, team), now, gap
        )
        if why:
            return why
    return None


def no_show_form_refusal(v: GameView) -> str | None:
    """Why no no-show can be ruled in this game, whichever team is absent: asked before the
    head judge types the form and his secret (31: a locked protocol; 32.01: only before
    the start, and once)."""
    return pr.lock_refusal(v.events, pr.NO_SHOW, {}, v.teams, v.protocol) or (
        game_phase_refusal(v.state, pr.NO_SHOW)
    )


def correction_form_refusal(v: GameView) -> str | None:
    """Why the head judge cannot correct the total yet (31: only once both captains have
    signed or refused): asked before he types the form and his secret."""
    return None if v.protocol.all_answered else rule("correct_before_answers")


def replay_form_refusal(t: GameWriter, v: GameView) -> str | None:
    """Why this game's no-show cannot be replayed (32.03), asked before the head judge
    types his secret."""
    round_open = no_show_round_open(t, str(v.game["id"]))
    return replay_refusal(v.state, head_judge=True, round_open=round_open)


def record_no_show(
    t: GameWriter,
    game_id: str,
    absent: list[str],
    reason: str = "late",
    judge: str = "",
    when: datetime | None = None,
    secret: str = "",
    cause: str = "team",
) -> Event:
    """32.01-32.03: the head judge rules a no-show (one or both teams), with his secret;
    ``cause``: ``team`` or ``organisers`` (32.03: only the organisers' may be replayed)."""
    when = when or datetime.now(UTC)
    v = game_view(t, game_id)
    data = {"absent": list(absent), "reason": reason, "ruled_at": when.isoformat()}
    data["cause"] = cause
    why = pr.lock_refusal(v.events, pr.NO_SHOW, data, v.teams)
    why = why or no_show_refusal(t, game_id, absent, when.astimezone().replace(tzinfo=None))
    why = why or refusal(v.state, pr.NO_SHOW, data)
    if why:
        raise Refused(why)
    grant = t.head_judge(secret, pr.NO_SHOW)
    return _append(t, game_id, pr.NO_SHOW, data, judge, when, grant)


def no_show_round_open(t: GameWriter, game_id: str) -> bool:
    """32.03 "within the round": the round of a no-show is open while neither team has
    played a game scheduled after it (the schedule carries no round numbers; a team that
    has moved on to its next game has left the round)."""
    g = t.game(game_id)
    if g is None:
        return False
    teams = {g["team_a"], g["team_b"]}
    for other in t.games():
        if other["id"] == game_id or str(other.get("start", "")) <= str(g.get("start", "")):
            continue
        if not teams & {other["team_a"], other["team_b"]}:
            continue
        if t.game_path(other["id"]).exists() and t.game_log(other["id"], create=False).events:
            return False
    return True


def replay_no_show(
    t: GameWriter, game_id: str, secret: str, judge: str = "", when: datetime | None = None
) -> Event:
    """32.03: the head judge replays a no-show the organisers caused, within the round, with
    his secret (the void is signed with his key): the no-show is voided (kept in the log, struck through) and the game can be
    played. A team's no-show is never replayed (``replay_refusal``)."""
    v = game_view(t, game_id)
    why = replay_refusal(v.state, head_judge=True, round_open=no_show_round_open(t, game_id))
    if why:
        raise Refused(why)
    grant = t.head_judge(secret, pr.NO_SHOW)
    target = next(e for e in reversed(v.events) if e.type == pr.NO_SHOW)
    data = {"target": target.id, "reason": "32.03: replay of an organisers' no-show"}
    return _append(t, game_id, VOID, data, judge, when or datetime.now(UTC), grant)


# --- standings ---------------------------------------------------------------------------


def game_summaries(
    t: TournamentReader, made: Mapping[str, dict[str, Any]] | None = None
) -> Iterator[tuple[dict, dict[str, Any]]]:
    """Every scheduled game with its summary: the one ``made`` holds (summaries the caller
    has just made from the games' files, an export's pass, by game id), else the index's
    (made again when stale)."""
    for g in t.games():
        yield g, (made or {}).get(g["id"]) or t.game_summary(g["id"])


def closed_results(
    t: TournamentReader, made: Mapping[str, dict[str, Any]] | None = None
) -> list[tuple[dict, GameResult]]:
    """Results of the games whose protocol both captains answered (signed; unsigned games
    are provisional: ``standings``), from the summary index (rebuilt when stale).
    ``made``: summaries the caller has just made from the games' files (an export's pass),
    by game id; the other games' come from the index."""
    out = []
    for g, s in game_summaries(t, made):
        if s.get("phase") in (pr.SIGNED, pr.LOCKED) and s.get("result"):  # signed (31)
            out.append((g, result_from_doc(g["id"], s["result"])))
    return out


def division_of(t: TournamentReader, team_id: str) -> str:
    team = t.team(team_id) or {}
    return str(team.get("division") or t.meta.get("division") or "")


def standings_by_division(
    t: TournamentReader, results: list[tuple[dict, GameResult]] | None = None
) -> dict[str, list]:
    """{division: [StandingRow]} over the closed games (every team listed)."""
    results = closed_results(t) if results is None else results
    groups: dict[str, list[GameResult]] = {}
    teams: dict[str, list[str]] = {}
    for team in t.teams():
        teams.setdefault(division_of(t, team["id"]), []).append(team["id"])
    for _g, r in results:
        groups.setdefault(division_of(t, r.teams[0]), []).append(r)
    return {div: engine_standings(groups.get(div, []), ids) for div, ids in sorted(teams.items())}
