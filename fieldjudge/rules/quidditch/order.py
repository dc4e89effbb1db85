"""Post order (0) and the judge's flags (11.1, 11.3, 11.4, 11.6; 5.1 a penalty by hand).

Order rules checked on the recorded ``post_order`` of the posts that count:

- ``beaters_last``: beaters of both teams post after every chaser;
- ``targeted_before_beaters``: a keeper or seeker followed by a bludger posts before the
  beaters (otherwise keepers and seekers post any time);
- ``carrying_team_first``: when a team holds the quaffle, its chasers post before the other
  team's chasers (at the throw-up and with a loose quaffle, chasers of both teams, any order);
- ``keeper_after_shooter``: in a scoring chance the defending keeper posts after the chaser
  who shoots at him.

The player who broke the rule gets one non-game warning for the round (11.2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .context import RoundContext
from .declarations import PENALTY_SHOT, SHOOT, Declaration
from .outcome import WARNINGS
from .roster import BEATER, CHASER, KEEPER, SEEKER
from .state import MatchState


def check_post_order(state: MatchState, decls: Mapping[str, Declaration]) -> list[tuple[str, str]]:
    """(player, rule) for every player who posted out of order (0); first rule only."""
    setup = state.setup
    posted = {
        pid: d.post_order for pid, d in decls.items() if d.post_order > 0 and state.is_active(pid)
    }

    def pos(pid: str) -> str:
        return setup.player(pid).position

    chasers = [p for p in posted if pos(p) == CHASER]
    beaters = [p for p in posted if pos(p) == BEATER]
    targeted = {t for t in state.bludger_targets() if t}
    found: dict[str, str] = {}

    def flag(pid: str, rule: str) -> None:
        found.setdefault(pid, rule)

    # keeper after the attacking chaser
    for pid, d in decls.items():
        if pid in posted and d.action in (SHOOT, PENALTY_SHOT) and pos(pid) == CHASER:
            keeper = setup.keeper(setup.other_team(setup.player(pid).team)).id
            if keeper in posted and posted[keeper] < posted[pid]:
                flag(keeper, "keeper_after_shooter")
    # targeted keepers / seekers before beaters
    for t in targeted:
        if t in posted and pos(t) in (KEEPER, SEEKER):
            if any(posted[b] < posted[t] for b in beaters):
                flag(t, "targeted_before_beaters")
    # beaters last
    for b in beaters:
        if any(posted[c] > posted[b] for c in chasers):
            flag(b, "beaters_last")
    # carrying team's chasers first
    team = state.team_with_quaffle()
    if team is not None:
        first = [c for c in chasers if setup.player(c).team == team]
        for c in chasers:
            if setup.player(c).team != team and any(posted[f] > posted[c] for f in first):
                flag(c, "carrying_team_first")
    order = sorted(found, key=lambda p: posted[p])
    return [(p, found[p]) for p in order]


def apply_order_and_flags(ctx: RoundContext, start_state: MatchState) -> None:
    for pid, rule in check_post_order(start_state, ctx.decls):
        ctx.player_warning(pid, "11.2", rule=rule)
    for d in ctx.in_post_order():
        team = ctx.p(d.player).team
        for f in d.flags:
            if f == "11.1":
                ctx.player_warning(d.player, "11.1")
            elif f == "11.3":
                ctx.team_warning(team, "11.3", d.player)
                ctx.fall(d.player, ctx.cfg.sent_off_rounds)
                ctx.emit(WARNINGS, "sent_off", "11.3", (d.player,), rounds=ctx.cfg.sent_off_rounds)
            elif f == "11.4":
                ctx.team_warning(team, "11.4", d.player)
                ctx.remove(d.player, "11.4")
                ctx.emit(WARNINGS, "removed", "11.4", (d.player,))
            elif f == "11.6":
                ctx.team_warning(team, "11.6", d.player)
            elif f == "5.1":
                ctx.penalty(team, "5.1")  # awarded by the judge by hand


def next_round_order(state: MatchState) -> dict[str, Any]:
    """Who posts first in the round about to be played (0), for the round post."""
    team = state.team_with_quaffle()
    targeted = [
        t
        for t in state.bludger_targets()
        if t and state.setup.player(t).position in (KEEPER, SEEKER)
    ]
    return {
        "chasers_first": team,  # None: chasers of both teams
        "targeted_before_beaters": targeted,
        "penalty": state.penalties[0].team if state.penalties else None,
    }
