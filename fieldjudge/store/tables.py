"""The tables of ``tournament.json``: teams, rosters and the schedule (32.03 checks).

Mixed into :class:`fieldjudge.store.tournament.Tournament`; every multi-row change is one
atomic write (``transaction``), so an import is all or nothing."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from datetime import date, datetime, timedelta
from typing import Any, Protocol

from tinydb import TinyDB

from fieldjudge.rules.names import clean_name, confusable_with, name_problem
from fieldjudge.rules.schedule import ScheduleCheck, Slot, check_schedule
from fieldjudge.store.errors import MsgId, Refused, RefusedMany, WriteKey


class RosterRow(Protocol):
    """A roster line to import (``csv_import.RosterRow`` fits)."""

    line: int
    team: str
    number: int
    name: str
    captain: bool


class ScheduleRow(Protocol):
    """A schedule line to import (``csv_import.ScheduleRow`` fits)."""

    line: int
    field: str
    start: datetime
    team_a: str
    team_b: str


def _next_id(table: dict[str, Any]) -> int:
    return max((int(k) for k in table), default=0) + 1


class TablesMixin:
    _db: TinyDB
    transaction: Callable[..., None]
    check_key: Callable[..., None]

    @property
    def settings(self) -> dict[str, Any]:  # the tournament's (Tournament.settings)
        raise NotImplementedError

    @property
    def day(self) -> date:  # the tournament's day (Tournament.day)
        raise NotImplementedError

    # -- teams and rosters ---------------------------------------------------------------
    def teams(self) -> list[dict[str, Any]]:
        return sorted((dict(d) for d in self._db.table("teams").all()), key=lambda t: t["name"])

    def team(self, team_id: str) -> dict[str, Any] | None:
        return next((t for t in self.teams() if t["id"] == team_id), None)

    def team_by_name(self, name: str) -> dict[str, Any] | None:
        key = clean_name(name).casefold()
        return next((t for t in self.teams() if clean_name(t["name"]).casefold() == key), None)

    def team_names(self) -> dict[str, str]:
        return {t["id"]: t["name"] for t in self.teams()}

    def players(self, team_id: str | None = None) -> list[dict[str, Any]]:
        ps = self._db.table("players").all()
        if team_id is not None:  # filter before copying: a game asks for its two teams
            ps = [p for p in ps if p["team_id"] == team_id]
        return sorted((dict(p) for p in ps), key=lambda p: (p["team_id"], p["number"]))

    def add_team(self, name: str, key: WriteKey | None = None) -> dict[str, Any]:
        self.check_key(key)
        name = clean_name(name)
        if not name:
            raise Refused("a team needs a name")
        if problem := name_problem(name):
            raise Refused("team name {problem}", problem=problem)
        if self.team_by_name(name):
            raise Refused("team {name} already exists", name=repr(name))
        if (other := confusable_with(name, (t["name"] for t in self.teams()))) is not None:
            raise Refused(
                "team name {name} looks the same as the existing team {other}",
                name=repr(name),
                other=repr(other),
            )
        team = {"id": uuid.uuid4().hex[:8], "name": name}
        self._db.table("teams").insert(team)
        return team

    def add_player(
        self,
        team_id: str,
        number: int,
        name: str,
        captain: bool = False,
        key: WriteKey | None = None,
    ) -> dict:
        self.check_key(key)
        name = clean_name(name)
        if not name:
            raise Refused("a player needs a name")
        if problem := name_problem(name):
            raise Refused("player name {problem}", problem=problem)
        if not 0 <= number <= 999:
            raise Refused("a player number is 0-999")
        roster = self.players(team_id)
        if any(p["number"] == number for p in roster):
            raise Refused("number {number} is already in this team", number=number)
        if captain and any(p["captain"] for p in roster):
            raise Refused("this team already has a captain")
        player = {"team_id": team_id, "number": number, "name": name, "captain": captain}
        self._db.table("players").insert(player)
        return player

    def import_roster(
        self, rows: Iterable[RosterRow], key: WriteKey | None = None
    ) -> tuple[int, int]:
        """Add all rows in one atomic write (new teams created). Refuses, changing nothing,
        if any row clashes with a player already stored. Returns (teams added, players)."""
        existing = {clean_name(t["name"]).casefold(): t["id"] for t in self.teams()}
        names = {clean_name(t["name"]).casefold(): t["name"] for t in self.teams()}
        taken = {(p["team_id"], p["number"]) for p in self.players()}
        has_captain = {p["team_id"] for p in self.players() if p["captain"]}
        new_teams: dict[str, dict[str, Any]] = {}
        new_players = []
        errors = []
        for r in rows:
            team, player = clean_name(r.team), clean_name(r.name)  # compared and kept in NFC
            bad = [
                Refused("line {line}: {what} {problem}", line=r.line, what=what, problem=problem)
                for what, value in ((MsgId("team name"), team), (MsgId("player name"), player))
                if (problem := name_problem(value))
            ]
            if bad:
                errors.extend(bad)
                continue
            folded = team.casefold()
            tid = existing.get(folded) or new_teams.get(folded, {}).get("id")
            if tid is None and (other := confusable_with(team, names.values())) is not None:
                errors.append(
                    Refused(
                        "line {line}: team name {name} looks the same as the existing team {other}",
                        line=r.line,
                        name=repr(team),
                        other=repr(other),
                    )
                )
                continue
            if tid is None:
                names[folded] = team
                tid = uuid.uuid4().hex[:8]
                new_teams[folded] = {"id": tid, "name": team}
            if (tid, r.number) in taken:
                errors.append(
                    Refused(
                        "line {line}: {team} number {number} is already registered",
                        line=r.line,
                        team=team,
                        number=r.number,
                    )
                )
                continue
            if r.captain and tid in has_captain:
                errors.append(
                    Refused("line {line}: {team} already has a captain", line=r.line, team=team)
                )
                continue
            new_players.append(
                {"team_id": tid, "number": r.number, "name": player, "captain": r.captain}
            )
        if errors:
            raise RefusedMany(errors)

        def change(data: dict) -> None:
            teams = data.setdefault("teams", {})
            players = data.setdefault("players", {})
            # the next free id once per table, then counted up (a scan per row was quadratic)
            for table, items in ((teams, list(new_teams.values())), (players, new_players)):
                first = _next_id(table)
                for i, item in enumerate(items):
                    table[str(first + i)] = item

        self.transaction(change, key)
        return len(new_teams), len(new_players)

    # -- schedule ------------------------------------------------------------------------
    def games(self) -> list[dict[str, Any]]:
        return sorted(
            (dict(d) for d in self._db.table("games").all()),
            key=lambda g: (g["start"], str(g["field"])),
        )

    def game(self, game_id: str) -> dict[str, Any] | None:
        # one scan, no sort: an export asks for every game several times
        return next((dict(g) for g in self._db.table("games") if g["id"] == game_id), None)

    @property
    def game_length(self) -> timedelta:
        return timedelta(milliseconds=int(self.settings.get("game_length_ms", 420_000)))

    def check_games(self, extra: list[dict[str, Any]]) -> ScheduleCheck:
        slots = [
            Slot(
                g["id"],
                str(g["field"]),
                datetime.fromisoformat(g["start"]),
                g["team_a"],
                g["team_b"],
            )
            for g in self.games() + extra
        ]
        gap = timedelta(minutes=int(self.settings.get("min_gap_minutes", 12)))
        return check_schedule(slots, self.game_length, gap, self.team_names())

    def add_games(self, games: list[dict[str, Any]], key: WriteKey | None = None) -> list[str]:
        """Add games atomically; refuses (nothing added) on an error of 32.03's schedule
        check, returns its warnings."""
        new = []
        for g in games:
            for side in ("team_a", "team_b"):
                if not self.team(g[side]):
                    raise Refused("unknown team {team}", team=repr(g[side]))
            new.append(
                {
                    "id": g.get("id") or "g" + uuid.uuid4().hex[:8],
                    "field": str(g["field"]),
                    "start": g["start"].isoformat(timespec="minutes")
                    if isinstance(g["start"], datetime)
                    else g["start"],
                    "team_a": g["team_a"],
                    "team_b": g["team_b"],
                }
            )
        check = self.check_games(new)
        if check.errors:
            raise RefusedMany(list(check.errors))

        def change(data: dict) -> None:
            table = data.setdefault("games", {})
            first = _next_id(table)
            for i, g in enumerate(new):
                table[str(first + i)] = g

        self.transaction(change, key)
        return list[str](check.warnings)

    def import_schedule(
        self, rows: Iterable[ScheduleRow], key: WriteKey | None = None
    ) -> list[str]:
        games, errors = [], []
        for r in rows:
            a, b = self.team_by_name(r.team_a), self.team_by_name(r.team_b)
            if not a:
                errors.append(
                    Refused("line {line}: unknown team {team}", line=r.line, team=repr(r.team_a))
                )
            if not b:
                errors.append(
                    Refused("line {line}: unknown team {team}", line=r.line, team=repr(r.team_b))
                )
            if a and b:
                games.append(
                    {"field": r.field, "start": r.start, "team_a": a["id"], "team_b": b["id"]}
                )
        if errors:
            raise RefusedMany(errors)
        return self.add_games(games, key)
