"""One live game per field and per team (RULES.md, "One live game per field and per team").

A game is *live* from its clock's start until it ends (the engine's phases ``running``,
``stopped`` -- "Time!" -- and ``hang_check``); it is *unfinished* while live or while its
post-game inspection (18.02) is still open. Read from the games' summaries (the summary
index: a game's file is folded again only when it changed):

- :func:`start_refusal`: why a game cannot start now -- another game on the same field, or
  of either of its teams, is live; the refusal names that game. The one check behind the
  game screen's probe and ``GameSession.start_clock``.
- :func:`next_game`: what ``N`` opens on a field: its unfinished game first, then the next
  scheduled game not played yet.
- :func:`running_game_of_laptop`: the live game this laptop owns (reopened after a
  restart)."""

from __future__ import annotations

from typing import Any

from fieldjudge.i18n import _
from fieldjudge.rules.ownership import may_append

# the engine's phase names (``rules.paintball.model``), spelled out: the home screen reads
# this module before the engine is imported (its first frame folds nothing)
#: the engine's phases of a game in play: started, not ended
LIVE_PHASES = ("running", "stopped", "hang_check")
#: started and not finished on the field: in play, or its inspection (18.02) still open
UNFINISHED_PHASES = (*LIVE_PHASES, "ended", "inspection")
#: the summary's phases of a game not started yet
UNPLAYED_PHASES = ("scheduled", "open", "not_started")


def _phase(t: Any, game_id: str) -> str:
    """The game's phase from its summary."""
    try:
        summary = t.game_summary(game_id)
    except Exception:  # noqa: BLE001 - a damaged file: its own screen says so
        return "damaged"
    return str((summary or {}).get("phase", ""))


def game_number(t: Any, game_id: str) -> int:
    """The game's row on the schedule (1-based, in order of start and field)."""
    ids = [g["id"] for g in t.games()]
    return ids.index(game_id) + 1 if game_id in ids else 0


def live_game_blocking(t: Any, game_id: str) -> dict[str, Any] | None:
    """Another game, on the same field or of either team of ``game_id``, that is live."""
    this = t.game(game_id)
    if this is None:
        return None
    teams = {this["team_a"], this["team_b"]}
    for g in t.games():
        if g["id"] == game_id:
            continue
        if str(g["field"]) != str(this["field"]) and not teams & {g["team_a"], g["team_b"]}:
            continue
        if not t.game_path(g["id"]).exists():
            continue
        if _phase(t, g["id"]) in LIVE_PHASES:
            return g
    return None


def start_refusal(t: Any, game_id: str) -> str | None:
    """Why ``game_id`` cannot start now (another game of its field or of one of its
    teams is in play, named), or None."""
    g = live_game_blocking(t, game_id)
    if g is None:
        return None
    names = t.team_names()
    return _("Cannot start: game «{a} — {b}» (№{n}) is in play on field {field}").format(
        a=names.get(g["team_a"], g["team_a"]),
        b=names.get(g["team_b"], g["team_b"]),
        n=game_number(t, g["id"]),
        field=g["field"],
    )


def next_game(t: Any, field: str) -> str | None:
    """``N`` on the home screen: the field's unfinished game (started, not finished: in
    play, stopped at "Time!", or its inspection open) first, then the next scheduled game
    not started; None when none is left."""
    games = [g for g in t.games() if str(g["field"]) == str(field)]
    phases = {g["id"]: _phase(t, g["id"]) for g in games}
    for g in games:
        if phases[g["id"]] in UNFINISHED_PHASES:
            return str(g["id"])
    for g in games:
        if phases[g["id"]] in UNPLAYED_PHASES:
            return str(g["id"])
    return None


def running_game_of_laptop(t: Any) -> str | None:
    """The live game whose file this laptop owns (offered again after a restart), from the
    summaries the index holds (the home screen has made them current: nothing is folded,
    and no log is opened when its summary names its owner)."""
    for g in t.games():
        if not t.game_path(g["id"]).exists():
            continue
        try:
            summary = t.cached_game_summary(g["id"]) or {}
        except Exception:  # noqa: BLE001 - a damaged file: its own screen says so
            continue
        if summary.get("phase") not in LIVE_PHASES:
            continue
        try:  # a summary an export made names no owner: the log says
            owner = (
                summary["owner"] if "owner" in summary else t.game_log(g["id"], create=False).owner
            )
        except Exception:  # noqa: BLE001 - a damaged file: its own screen says so
            continue
        if may_append(owner, t.owner_id) is None:
            return str(g["id"])
    return None
