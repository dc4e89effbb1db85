"""20.05: players disqualified in an earlier game of the tournament cannot be put in play in
a later one. The rules engine knows them from ``GameSetup.disqualified``; this module finds
them by folding the logs of the games scheduled before the given one (by start time)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball.setup import GameSetup, RosterPlayer, Settings
from fieldjudge.rules.paintball.state import disqualified_in, fold
from fieldjudge.store.tables import JOINED_AFTER


def setup_of(
    t: Any, g: Mapping[str, Any], disqualified: frozenset[tuple[str, int]] = frozenset()
) -> GameSetup:
    """The engine's setup of game ``g`` (a schedule entry): both rosters and the settings
    from the tournament, and the players ``disqualified`` in earlier games (20.05). The one
    place a setup is built: the live game, the protocol, exports and verify all use it."""
    return Setups(t, (g["team_a"], g["team_b"])).of(g, disqualified)


class Setups:
    """The setups of many games of one tournament (an export, ``verify``): the rosters and
    the settings read from the tournament once, not once a game. ``teams``: the teams whose
    rosters are read (default: every team's)."""

    def __init__(self, t: Any, teams: Iterable[str] | None = None) -> None:
        players = t.players() if teams is None else [p for x in teams for p in t.players(x)]
        rosters: dict[str, list[RosterPlayer]] = {}
        #: (team, number) of a player added after games of his team started: those games
        self._joined_after: dict[tuple[str, int], frozenset[str]] = {}
        for p in players:  # in order of number within a team
            player = RosterPlayer(int(p["number"]), str(p["name"]), bool(p.get("captain")))
            rosters.setdefault(p["team_id"], []).append(player)
            if after := p.get(JOINED_AFTER):
                self._joined_after[(p["team_id"], player.number)] = frozenset(map(str, after))
        self._rosters = {team: tuple(ps) for team, ps in rosters.items()}
        self._settings = Settings.from_dict(t.settings)

    def roster(self, team: str, game_id: str) -> tuple[RosterPlayer, ...]:
        """The team's roster for the game: a player added once it had started is left
        out (30.01: it was played with the roster it had)."""
        late = self._joined_after
        return tuple(
            p for p in self._rosters.get(team, ()) if game_id not in late.get((team, p.number), ())
        )

    def of(
        self, g: Mapping[str, Any], disqualified: frozenset[tuple[str, int]] = frozenset()
    ) -> GameSetup:
        """The setup of game ``g`` (see :func:`setup_of`)."""
        teams = (g["team_a"], g["team_b"])
        return GameSetup(
            str(g["id"]),
            *teams,
            {team: self.roster(team, str(g["id"])) for team in teams},
            self._settings,
            disqualified=disqualified,
        )


_CHRONO_TYPES = frozenset({ev.CHRONO_READING, ev.HANG_VERDICT})


def _may_disqualify(events: Any, settings: Settings) -> bool:
    """Whether a game's log holds a reading that could disqualify (20.05: a forbidden mode;
    a reading over the limit, for tournaments whose policy above 320 fps disqualifies).
    Only those games are folded: a scan of the types costs little, a fold of every earlier
    game for every game opened would not."""
    limit = settings.chrono.limit_fps
    for e in events:
        if e.type not in _CHRONO_TYPES:
            continue
        d = e.data if isinstance(e.data, dict) else {}
        if d.get("forbidden_mode"):
            return True
        fps = d.get("fps")
        if isinstance(fps, int | float) and fps > limit:
            return True
    return False


def disqualified_before(t: Any, game_id: str) -> frozenset[tuple[str, int]]:
    """(team, number) of every player disqualified (20.05) in a game of the tournament
    scheduled before ``game_id`` whose log exists. A damaged or unreadable log is skipped
    here (its own screen reports it)."""
    games = t.games()
    this = t.game(game_id)
    if this is None:
        return frozenset()
    start = str(this.get("start", ""))
    settings = Settings.from_dict(t.settings)
    found: set[tuple[str, int]] = set()
    states = []
    for g in games:
        if g.get("id") == game_id or str(g.get("start", "")) >= start:
            continue  # not earlier (a game at the same time is on another field)
        try:
            if not t.game_path(g["id"]).exists():
                continue
            # the cached summary says it (fold once per change of that game's file)
            summary = t.game_summary(g["id"])
            if isinstance(summary.get("disqualified"), list):
                found |= {(str(x[0]), int(x[1])) for x in summary["disqualified"]}
                continue
            log = t.game_log(g["id"], create=False)
            if _may_disqualify(log.events, settings):
                states.append(fold(setup_of(t, g), log.events))
        except Exception:  # noqa: BLE001 - one bad file must not stop the game screen
            continue
    return frozenset(found) | disqualified_in(states)


class CarriedOver:
    """20.05 along one pass over the played games in schedule order (an export): the
    players disqualified in the games that started before the current one, taken from the
    summaries of the games already read -- what :func:`disqualified_before` gives, without
    asking the tournament for every earlier game again."""

    def __init__(self) -> None:
        self._before: set[tuple[str, int]] = set()
        self._same_start: set[tuple[str, int]] = set()
        self._start: str | None = None

    def before(self, game: Mapping[str, Any]) -> frozenset[tuple[str, int]]:
        """The players disqualified before ``game``; games come in order of start."""
        start = str(game.get("start", ""))
        if self._start is None or start > self._start:
            self._before |= self._same_start  # a game at the same time: another field
            self._same_start = set()
            self._start = start
        elif start < self._start:
            raise ValueError("games must come in schedule order")
        return frozenset(self._before)

    def add(self, summary: Mapping[str, Any]) -> None:
        """The summary of the game just read (its ``disqualified`` list)."""
        dq = summary.get("disqualified")
        if isinstance(dq, list):
            self._same_start |= {(str(x[0]), int(x[1])) for x in dq}
