"""20.05: players disqualified in an earlier game of the tournament cannot be put in play in
a later one. The rules engine knows them from ``GameSetup.disqualified``; this module finds
them by folding the logs of the games scheduled before the given one (by start time)."""

from __future__ import annotations

from typing import Any

from fieldjudge.rules.paintball import disqualified_in, fold
from fieldjudge.rules.paintball.setup import GameSetup, RosterPlayer, Settings


def _plain_setup(t: Any, g: dict[str, Any]) -> GameSetup:
    """The setup of an earlier game without its own carried-over disqualifications: a
    disqualification is an event of the game where it was ruled (20.05)."""
    rosters = {
        team: tuple(
            RosterPlayer(int(p["number"]), str(p["name"]), bool(p.get("captain")))
            for p in t.players(team)
        )
        for team in (g["team_a"], g["team_b"])
    }
    return GameSetup(
        str(g["id"]), g["team_a"], g["team_b"], rosters, Settings.from_dict(t.settings)
    )


def disqualified_before(t: Any, game_id: str) -> frozenset[tuple[str, int]]:
    """(team, number) of every player disqualified (20.05) in a game of the tournament
    scheduled before ``game_id`` whose log exists. A damaged or unreadable log is skipped
    here (its own screen reports it)."""
    games = t.games()
    this = t.game(game_id)
    if this is None:
        return frozenset()
    start = str(this.get("start", ""))
    states = []
    for g in games:
        if g.get("id") == game_id or str(g.get("start", "")) >= start:
            continue  # not earlier (a game at the same time is on another field)
        try:
            if not t.game_path(g["id"]).exists():
                continue
            log = t.game_log(g["id"], create=False)
            states.append(fold(_plain_setup(t, g), log.events))
        except Exception:  # noqa: BLE001 - one bad file must not stop the game screen
            continue
    return disqualified_in(states)


__all__ = ["disqualified_before"]
