"""30.01 ("игра 5х5"): who of a team's roster plays a game. The judge confirms it at the
team's check-in (the marker check) or before the start (the game screen); this module gives
both screens the roster to pick from and the default pick: the team's line-up of its
previous game, else the first ``team_size`` players of the roster; never a player
disqualified under 20.05 (``rules.paintball.setup.default_lineup``). The line-up itself is
a ``lineup`` event, appended by ``MarkerCheckService.lineup`` or ``GameSession.set_lineup``
(the rules engine refuses a line-up over the team size, naming the team)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fieldjudge.rules.events import effective
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball.model import GameState
from fieldjudge.rules.paintball.setup import default_lineup


@dataclass(frozen=True)
class LineupPlayer:
    """A roster player as the line-up picker shows him."""

    number: int
    name: str
    disqualified: bool  # 20.05: cannot be picked


@dataclass(frozen=True)
class LineupChoice:
    """What the picker shows for one team: its roster, the team size and the pick to start
    from (the recorded line-up, else the default)."""

    team: str
    team_size: int
    roster: tuple[LineupPlayer, ...]
    selected: tuple[int, ...]
    recorded: bool


def lineup_data(team: str, numbers: Any) -> dict[str, Any]:
    """The ``lineup`` event's data (30.01)."""
    return {"team": str(team), "numbers": [int(n) for n in numbers]}


def previous_lineup(t: Any, game_id: str, team: str) -> tuple[int, ...] | None:
    """The line-up ``team`` played in its latest game scheduled before ``game_id`` that
    recorded one, or None. A damaged or unreadable log is skipped (its screen says so)."""
    this = t.game(game_id) or {}
    for g in reversed(t.games_of(team, before=str(this.get("start", "")))):
        try:
            if not t.game_path(g["id"]).exists():
                continue
            events = t.game_log(g["id"], create=False).events
        except Exception:  # noqa: BLE001 - one bad file must not stop the check-in
            continue
        found = [e for e in effective(events) if e.type == ev.LINEUP and e.data.get("team") == team]
        if found:
            numbers = found[-1].data.get("numbers") or []
            return tuple(int(n) for n in numbers if isinstance(n, int) and not isinstance(n, bool))
    return None


def lineup_choice(t: Any, game_id: str, state: GameState, team: str) -> LineupChoice:
    """The picker's rows and starting pick for ``team`` in this game (30.01, 20.05)."""
    setup = state.setup
    roster = tuple(
        LineupPlayer(p.number, p.name, (team, p.number) in setup.disqualified)
        for p in setup.rosters.get(team, ())
    )
    size = setup.settings.team_size
    if team in state.lineups:
        return LineupChoice(team, size, roster, tuple(state.lineups[team]), True)
    picked = default_lineup(
        [p.number for p in roster],
        size,
        {p.number for p in roster if p.disqualified},
        previous_lineup(t, game_id, team),
    )
    return LineupChoice(team, size, roster, picked, False)


def lineup_needed(state: GameState) -> str | None:
    """The first team whose line-up must be confirmed before the start (30.01: its
    roster is longer than the team size and no line-up is recorded), or None."""
    size = state.setup.settings.team_size
    for team in state.setup.teams:
        if team not in state.lineups and len(state.lineup(team)) > size:
            return team
    return None
