"""The tables of ``tournament.json``: teams, rosters and the schedule (32.03 checks).

Mixed into :class:`fieldjudge.store.tournament.Tournament`. They are TinyDB tables, read
with ``Query`` and written through TinyDB's API; every change is one atomic write
(``Tournament.writing``), so an import is all or nothing."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from contextlib import AbstractContextManager
from datetime import date, datetime, timedelta
from typing import Any, Protocol

from tinydb import Query, TinyDB, where

from fieldjudge.rules.names import clean_name, confusable_with, name_problem
from fieldjudge.rules.schedule import Slot, check_schedule
from fieldjudge.store.errors import MsgId, Refused, RefusedMany, WriteKey

#: a player's games started before he was added to the roster (a later substitute): the
#: rosters those games were played with leave him out (``Setups``)
JOINED_AFTER = "joined_after"


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


def _row(doc: dict[str, Any] | None) -> dict[str, Any] | None:
    """A copy of a row (TinyDB caches what its queries found)."""
    return dict(doc) if doc is not None else None


class Tables:
    """A read-only view of ``tournament.json``: its meta and settings, the teams, rosters
    and schedule, read with TinyDB's ``Query``. The store's :class:`Tournament` is one,
    with its writes; the services' ``TournamentService`` is one over the same tables,
    which the screens, the exports and the pit read through."""

    _db: TinyDB

    def __init__(self, tables: Tables) -> None:
        self._db = tables._db  # the same TinyDB, seen through the reads only

    # -- meta and settings ---------------------------------------------------------------
    @property
    def meta(self) -> dict[str, Any]:
        return dict(self._db.table("meta").get(doc_id=1) or {})

    @property
    def name(self) -> str:
        return str(self.meta.get("name", ""))

    @property
    def day(self) -> date:
        return date.fromisoformat(self.meta["date"])

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self.meta.get("settings") or {})

    @property
    def game_length(self) -> timedelta:
        return timedelta(milliseconds=int(self.settings.get("game_length_ms", 420_000)))

    # -- teams and rosters ---------------------------------------------------------------
    def teams(self) -> list[dict[str, Any]]:
        return sorted((dict(d) for d in self._db.table("teams").all()), key=lambda t: t["name"])

    def team(self, team_id: str) -> dict[str, Any] | None:
        return _row(self._db.table("teams").get(where("id") == team_id))

    def team_by_name(self, name: str) -> dict[str, Any] | None:
        key = clean_name(name).casefold()
        same = where("name").test(lambda n: clean_name(str(n)).casefold() == key)
        return _row(self._db.table("teams").get(same))

    def team_names(self) -> dict[str, str]:
        return {t["id"]: t["name"] for t in self.teams()}

    def players(self, team_id: str | None = None) -> list[dict[str, Any]]:
        table = self._db.table("players")
        ps = table.all() if team_id is None else table.search(where("team_id") == team_id)
        return sorted((dict(p) for p in ps), key=lambda p: (p["team_id"], p["number"]))

    # -- schedule ------------------------------------------------------------------------
    def games(self) -> list[dict[str, Any]]:
        found = self._db.table("games").all()
        return sorted((dict(g) for g in found), key=lambda g: (g["start"], str(g["field"])))

    def has_games(self) -> bool:
        """Whether the schedule holds a game (without copying and sorting every one)."""
        return len(self._db.table("games")) > 0

    def games_of(self, team_id: str, before: str | None = None) -> list[dict[str, Any]]:
        """The team's games in schedule order; ``before``: those starting before then."""
        query = (where("team_a") == team_id) | (where("team_b") == team_id)
        if before is not None:
            query &= where("start") < before
        found = self._db.table("games").search(query)
        return sorted((dict(g) for g in found), key=lambda g: (g["start"], str(g["field"])))

    def game(self, game_id: str) -> dict[str, Any] | None:
        return _row(self._db.table("games").get(where("id") == game_id))


class TableWrites(Tables):
    """The changes of ``tournament.json``'s tables, each one atomic write through TinyDB's
    API (``writing``, given the write key)."""

    writing: Callable[[WriteKey | None], AbstractContextManager[TinyDB]]

    def update_meta(self, key: WriteKey | None = None, **fields: Any) -> None:
        with self.writing(key) as db:
            db.table("meta").update(fields, doc_ids=[1])

    def add_rows(
        self, rows: Mapping[str, list[dict[str, Any]]], key: WriteKey | None = None
    ) -> None:
        """Rows of another laptop's tables (a merge), added to each named table in one
        write; their checks are the merge's."""
        with self.writing(key) as db:
            for table, docs in rows.items():
                db.table(table).insert_multiple(docs)

    def put_row(
        self,
        table: str,
        match: Mapping[str, Any],
        row: dict[str, Any],
        key: WriteKey | None = None,
        *,
        add: bool = False,
        before: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        """``row`` in place of the row of ``table`` whose fields are ``match`` (its private
        ``_`` fields kept), in one write; added when there is none and ``add``, else
        refused. ``before``: called with the file's new content before it is written (a
        decision that must be on disk first)."""
        found = self._db.table(table).get(Query().fragment(dict(match)))
        if found is None and not add:
            raise Refused("this difference is no longer in the tournament: nothing to replace")
        with self.writing(key) as db:
            if found is None:
                db.table(table).insert(row)
            else:
                new = {**{k: v for k, v in found.items() if str(k).startswith("_")}, **row}

                def replace(doc: MutableMapping[str, Any]) -> None:
                    doc.clear()
                    doc.update(new)

                db.table(table).update(replace, doc_ids=[found.doc_id])
            if before is not None:
                before(db.storage.read() or {})

    def _player(self, team_id: str, number: int) -> Any:
        return (where("team_id") == team_id) & (where("number") == number)

    def add_team(self, name: str, key: WriteKey | None = None) -> dict[str, Any]:
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
        with self.writing(key) as db:
            db.table("teams").insert(team)
        return team

    def rename_team(self, team_id: str, name: str, key: WriteKey | None = None) -> None:
        with self.writing(key) as db:
            db.table("teams").update({"name": name}, where("id") == team_id)

    def remove_team(self, team_id: str, key: WriteKey | None = None) -> None:
        """The team and its roster, in one write."""
        with self.writing(key) as db:
            db.table("teams").remove(where("id") == team_id)
            db.table("players").remove(where("team_id") == team_id)

    def add_player(
        self,
        team_id: str,
        number: int,
        name: str,
        captain: bool = False,
        key: WriteKey | None = None,
        joined_after: Sequence[str] = (),
    ) -> dict:
        """``joined_after``: the ids of the team's games started before he was added (not
        in their rosters); kept only when there are some."""
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
        if joined_after:
            player[JOINED_AFTER] = list(joined_after)
        with self.writing(key) as db:
            db.table("players").insert(player)
        return player

    def update_player(
        self, team_id: str, number: int, changes: dict[str, Any], key: WriteKey | None = None
    ) -> None:
        with self.writing(key) as db:
            db.table("players").update(changes, self._player(team_id, number))

    def remove_player(self, team_id: str, number: int, key: WriteKey | None = None) -> None:
        with self.writing(key) as db:
            db.table("players").remove(self._player(team_id, number))

    def import_roster(
        self,
        rows: Iterable[RosterRow],
        key: WriteKey | None = None,
        joined_after: Mapping[str, Sequence[str]] | None = None,
    ) -> tuple[int, int]:
        """Add all rows in one atomic write (new teams created). Refuses, changing nothing,
        if any row clashes with a player already stored. Returns (teams added, players).
        ``joined_after``: by team id, its games started already (as :meth:`add_player`)."""
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
            doc = {"team_id": tid, "number": r.number, "name": player, "captain": r.captain}
            if started := (joined_after or {}).get(tid):
                doc[JOINED_AFTER] = list(started)
            new_players.append(doc)
        if errors:
            raise RefusedMany(errors)
        with self.writing(key) as db:
            db.table("teams").insert_multiple(new_teams.values())
            db.table("players").insert_multiple(new_players)
        return len(new_teams), len(new_players)

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
        slots = [
            Slot(
                g["id"],
                str(g["field"]),
                datetime.fromisoformat(g["start"]),
                g["team_a"],
                g["team_b"],
            )
            for g in self.games() + new
        ]
        gap = timedelta(minutes=int(self.settings.get("min_gap_minutes", 12)))
        check = check_schedule(slots, self.game_length, gap, self.team_names())
        if check.errors:
            raise RefusedMany(list(check.errors))
        with self.writing(key) as db:
            db.table("games").insert_multiple(new)
        return list[str](check.warnings)

    def import_schedule(
        self, rows: Iterable[ScheduleRow], key: WriteKey | None = None
    ) -> list[str]:
        games, errors = [], []
        for r in rows:
            a, b = self.team_by_name(r.team_a), self.team_by_name(r.team_b)
            errors += [
                Refused("line {line}: unknown team {team}", line=r.line, team=repr(name))
                for name, found in ((r.team_a, a), (r.team_b, b))
                if not found
            ]
            if a and b:
                games.append(
                    {"field": r.field, "start": r.start, "team_a": a["id"], "team_b": b["id"]}
                )
        if errors:
            raise RefusedMany(errors)
        return self.add_games(games, key)
