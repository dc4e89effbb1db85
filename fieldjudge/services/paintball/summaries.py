"""What the home screen shows of a game, computed from its log by the rules engine and
cached in the summary index (never the source of truth) by
``TournamentService.game_summary``."""

from __future__ import annotations

from typing import Any

from fieldjudge.rules.paintball.state import disqualified_in
from fieldjudge.rules.protocol import PROTOCOL_TYPES, is_locked_void
from fieldjudge.services.paintball.disqualified import Setups
from fieldjudge.services.paintball.results import (
    CLOSED_PHASES,
    GameView,
    TournamentReader,
    result_doc,
    setup_for,
    view_from_events,
)
from fieldjudge.store import EventLog
from fieldjudge.store.eventlog import ReadLog


def summarize(
    t: TournamentReader,
    game_id: str,
    log: EventLog | ReadLog,
    disqualified: frozenset[tuple[str, int]] | None = None,
    setups: Setups | None = None,
    game: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``disqualified``: the players disqualified in earlier games (20.05), when known
    (else looked up from every earlier game's summary); ``setups`` and ``game``: a pass's
    (see :func:`~fieldjudge.services.paintball.results.setup_for`)."""
    if not log.events:  # an empty log: nothing was played (30.01, 32)
        return {"phase": "scheduled", "events": 0, "not_played": True}
    try:
        setup = setup_for(t, game_id, log, disqualified, setups, game)
        summary = summary_of_view(view_from_events(t, game_id, list(log.events), setup, game))
    except Exception:  # noqa: BLE001 - a summary must never stop the home screen
        summary = {"phase": "open", "events": len(log.events)}
    # whose file it is: the offer to reopen this laptop's live game after a restart reads
    # it here, not by opening every live game's log (services.paintball.live)
    summary["owner"] = log.owner
    return summary


def summary_of_view(v: GameView) -> dict[str, Any]:
    """The same summary as :func:`summarize`, from a view already folded (an export reads
    each game once and remembers its summary in the index)."""
    out: dict[str, Any] = {"phase": v.phase if v.events else "scheduled", "events": len(v.events)}
    if not v.events:
        if v.not_played:
            out["not_played"] = True
        return out
    if v.state.clock.started and not v.state.no_show:
        out["alive"] = [v.state.alive(team) for team in v.teams]
    if v.state.no_show:
        out["no_show"] = sorted(v.state.no_show)
    if v.not_played:  # a log, but no check-in, start or no-show: left out of exports
        out["not_played"] = True
    # 20.05: who is disqualified after this game (read by later games' setups)
    out["disqualified"] = sorted([team, number] for team, number in disqualified_in([v.state]))
    # the head judge's void after the signatures (31) is not part of the game's time
    if v.final:
        last = next(
            (
                e
                for e in reversed(v.events)
                if e.type not in PROTOCOL_TYPES and not is_locked_void(e.type, e.data)
            ),
            None,
        )
        if last is not None:
            out["ended_at"] = last.wall_time  # 32.03: the gap starts here
    if v.phase in CLOSED_PHASES:
        out["result"] = result_doc(v.result)
    return out
