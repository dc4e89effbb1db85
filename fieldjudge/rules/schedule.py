"""Schedule checks (32.03): no team booked twice at once; warn on a gap under 12 minutes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True)
class Slot:
    game_id: str
    field: str
    start: datetime
    team_a: str
    team_b: str


@dataclass(frozen=True)
class ScheduleCheck:
    errors: list[str]
    warnings: list[str]


def check_schedule(
    slots: Sequence[Slot],
    game_length: timedelta,
    min_gap: timedelta = timedelta(minutes=12),
    names: dict[str, str] | None = None,
) -> ScheduleCheck:
    """Errors: a team against itself, a team in two games that overlap in time, two games
    on one field at once. Warnings: less than ``min_gap`` between a team's games (32.03)."""
    names = names or {}
    errors: list[str] = []
    warnings: list[str] = []

    def n(team: str) -> str:
        return names.get(team, team)

    for s in slots:
        if s.team_a == s.team_b:
            errors.append(f"{s.start:%H:%M} field {s.field}: {n(s.team_a)} cannot play itself")
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
                    f"{n(team)} is booked twice at once: {prev.start:%H:%M} field {prev.field}"
                    f" and {nxt.start:%H:%M} field {nxt.field}"
                )
            elif gap < min_gap:
                warnings.append(
                    f"32.03: {n(team)} has only {int(gap.total_seconds() // 60)} min between"
                    f" {prev.start:%H:%M} and {nxt.start:%H:%M} (at least"
                    f" {int(min_gap.total_seconds() // 60)} required)"
                )
    by_field: dict[str, list[Slot]] = {}
    for s in slots:
        by_field.setdefault(s.field, []).append(s)
    for field, games in by_field.items():
        games.sort(key=lambda s: s.start)
        for prev, nxt in zip(games, games[1:], strict=False):
            if nxt.start < prev.start + game_length:
                errors.append(
                    f"field {field} has two games at once: {prev.start:%H:%M} and {nxt.start:%H:%M}"
                )
    return ScheduleCheck(errors, warnings)
