"""Schedule checks (32.03): no team booked twice at once; warn on a gap under 12 minutes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from fieldjudge.rules.messages import Phrase, RuleMessage


@dataclass(frozen=True)
class Slot:
    """A game in the schedule as the checks see it: field, start, teams."""

    game_id: str
    field: str
    start: datetime
    team_a: str
    team_b: str


@dataclass(frozen=True)
class ScheduleCheck:
    """What a check of the schedule found: errors refuse it, warnings do not."""

    errors: list[Phrase]
    warnings: list[Phrase]


def check_schedule(
    slots: Sequence[Slot],
    game_length: timedelta,
    min_gap: timedelta = timedelta(minutes=12),
    names: dict[str, str] | None = None,
) -> ScheduleCheck:
    """Errors: a team against itself, a team in two games that overlap in time, two games
    on one field at once. Warnings: less than ``min_gap`` between a team's games (32.03)."""
    names = names or {}
    errors: list[Phrase] = []
    warnings: list[Phrase] = []

    def n(team: str) -> str:
        return names.get(team, team)

    for s in slots:
        if s.team_a == s.team_b:
            errors.append(
                Phrase(
                    "{time} field {field}: {team} cannot play itself",
                    time=f"{s.start:%H:%M}",
                    field=s.field,
                    team=n(s.team_a),
                )
            )
    by_team: dict[str, list[Slot]] = {}
    for s in slots:
        by_team.setdefault(s.team_a, []).append(s)
        if s.team_b != s.team_a:
            by_team.setdefault(s.team_b, []).append(s)
    for team, games in by_team.items():
        games.sort(key=lambda s: s.start)
        for prev, nxt in zip(games, games[1:], strict=False):
            gap = nxt.start - (prev.start + game_length)
            if nxt.start < prev.start + game_length:
                errors.append(
                    Phrase(
                        "{team} is booked twice at once: {t1} field {f1} and {t2} field {f2}",
                        team=n(team),
                        t1=f"{prev.start:%H:%M}",
                        f1=prev.field,
                        t2=f"{nxt.start:%H:%M}",
                        f2=nxt.field,
                    )
                )
            elif gap < min_gap:
                warnings.append(
                    RuleMessage(
                        "32.03",
                        "{team} has only {gap} min between {t1} and {t2} (at least {need}"
                        " required)",
                        team=n(team),
                        gap=int(gap.total_seconds() // 60),
                        t1=f"{prev.start:%H:%M}",
                        t2=f"{nxt.start:%H:%M}",
                        need=int(min_gap.total_seconds() // 60),
                    )
                )
    by_field: dict[str, list[Slot]] = {}
    for s in slots:
        by_field.setdefault(s.field, []).append(s)
    for field, games in by_field.items():
        games.sort(key=lambda s: s.start)
        for prev, nxt in zip(games, games[1:], strict=False):
            if nxt.start < prev.start + game_length:
                errors.append(
                    Phrase(
                        "field {field} has two games at once: {t1} and {t2}",
                        field=field,
                        t1=f"{prev.start:%H:%M}",
                        t2=f"{nxt.start:%H:%M}",
                    )
                )
    return ScheduleCheck(errors, warnings)
