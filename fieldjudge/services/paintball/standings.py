"""The standings as a document reads them (the screen, HTML, PDF, CSV): the rows of the
table, and which games they include: the signed ones (both captains answered, 31). Games
played or ruled but not signed yet (a no-show included) are listed as provisional, with
the result they would count, never silently counted or silently left out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from fieldjudge.i18n import rule_text
from fieldjudge.rules import protocol as pr
from fieldjudge.services.paintball.results import game_summaries
from fieldjudge.services.tournament import TournamentView

COUNTED_PHASES = (pr.SIGNED, pr.LOCKED)

#: every phase a game not counted yet can be in: the engine's (a game under way or being
#: inspected) and the protocol's (31); a code never reaches the paper
PHASE_TEXT = {
    "not_started": "not played yet",
    "running": "game in progress",
    "stopped": "game in progress",
    "hang_check": "game in progress",
    "ended": "post-game inspection",
    "inspection": "post-game inspection",
    "open": "not submitted",
    "final": "not submitted",
    "submitted": "submitted: waiting for the captains",
    "no_show": "no-show: not submitted",
}


@dataclass(frozen=True)
class Provisional:
    """A game the standings do not count yet, with the points it would count."""

    game: dict
    phase: str
    points: dict | None  # {team: game points} the game would count, when known


def provisional_games(
    t: TournamentView, made: Mapping[str, dict] | None = None
) -> list[Provisional]:
    """Games with a log that the standings do not count yet, in schedule order. ``made``:
    see :func:`fieldjudge.services.paintball.results.game_summaries`."""
    out = []
    for g, s in game_summaries(t, made):
        phase = str(s.get("phase", "scheduled"))
        if phase in ("scheduled", *COUNTED_PHASES) or s.get("not_played"):
            continue  # a game not played has no result, not even a provisional one
        res = s.get("result") or {}
        out.append(Provisional(g, phase, dict(res["points"]) if res.get("points") else None))
    return out


def game_label(game: Mapping, tr) -> str:
    """A game as the schedule names it: its start and field ("10:20 · Поле 2"), never its
    id."""
    start = str(game.get("start", "") or "")
    when = start[11:16] if len(start) >= 16 else start
    return f"{when} · {tr('Field')} {game.get('field', '')}"


def provisional_lines(t: TournamentView, tr, made: Mapping[str, dict] | None = None) -> list[str]:
    """One line per provisional game, in the document's language (``made``: see
    :func:`provisional_games`)."""
    names = t.team_names()
    lines = []
    for p in provisional_games(t, made):
        a, b = p.game["team_a"], p.game["team_b"]
        pts = f" · {p.points.get(a, 0)} : {p.points.get(b, 0)}" if p.points else ""
        lines.append(
            f"{game_label(p.game, tr)} · {names.get(a, a)} — {names.get(b, b)} · "
            f"{tr(PHASE_TEXT.get(p.phase, 'game in progress'))}{pts}"
        )
    return lines


def scope_lines(
    t: TournamentView, tr, counted: int, made: Mapping[str, dict] | None = None
) -> list[str]:
    """What the standings count, said under them: the ``counted`` signed games (31), then
    each provisional game (``made``: see :func:`provisional_games`)."""
    lines = [tr("Games counted: signed protocols") + f" ({counted})"]
    later = provisional_lines(t, tr, made)
    if later:
        lines.append(tr("Provisional, not counted until signed") + ":")
        lines += [f"  {line}" for line in later]
    return lines


STANDING_HEADERS = (
    "Place",
    "Team",
    "Games",
    "Game points",
    "Difference",
    "Flag hangs",
    "Wins",
    "Draws",
    "Losses",
    "No-shows",
    "Tie-break",
)


def standing_rows(t: TournamentView, rows, lang: str | None = None) -> list[tuple]:
    """Table rows of the standings; the tie-break note in ``lang`` (default: the UI's)."""
    names = t.team_names()
    return [
        (
            r.rank,
            names.get(r.team, r.team),
            r.games,
            r.points,
            f"{r.diff:+d}",
            r.flag_hangs,
            r.wins,
            r.draws,
            r.losses,
            r.no_shows,
            rule_text(r.tie_break, names, lang),
        )
        for r in rows
    ]
