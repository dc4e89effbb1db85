"""Changing teams and rosters after they were entered: rename or remove a team, edit or
remove a player (issue 12, item 14).

Refused, with the reason, once the team has played: its games' events and protocols name
its players by number and the team by its stored name, so a change would rewrite what the
captains signed. "Played" means a game of the team has any event (a marker check, the
game itself, a no-show ruling). A team still in the schedule cannot be removed either
(its games would lose a side). Every change is one atomic write of ``tournament.json``
through the :class:`TournamentService`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fieldjudge.i18n import _, rule_text
from fieldjudge.rules.names import clean_name, confusable_with, name_problem
from fieldjudge.services.tournament import TournamentService
from fieldjudge.store import Refused
from fieldjudge.store.tables import JOINED_AFTER

NOT_PLAYED = ("scheduled",)


class RosterEditor:
    def __init__(self, t: TournamentService) -> None:
        self.t = t

    # -- why not ---------------------------------------------------------------------------
    def played(self, team_id: str) -> list[dict[str, Any]]:
        """The games of the team that have events (in schedule order)."""
        return [
            g
            for g in self.t.games_of(team_id)
            if self.t.game_summary(g["id"]).get("phase", "scheduled") not in NOT_PLAYED
        ]

    def _describe(self, g: dict[str, Any]) -> str:
        names = self.t.team_names()
        start = datetime.fromisoformat(g["start"]).strftime("%H:%M")
        return _("{time} on field {field}, {a} — {b}").format(
            time=start,
            field=g["field"],
            a=names.get(g["team_a"], "?"),
            b=names.get(g["team_b"], "?"),
        )

    def refuse_if_played(self, team_id: str, number: int | None = None) -> None:
        """Refused (with the game it played) once the team has events: the screens ask it
        before opening a form, so the judge types nothing that cannot be saved.
        ``number``: one player's change only, refused once he could have played: a game
        of the team has events and he was on its roster (not added after its start, as a
        late substitute is: his number or name typed wrong can still be put right)."""
        played = self.played(team_id)
        if number is not None:
            player = next((p for p in self.t.players(team_id) if p["number"] == number), {})
            later = set(player.get(JOINED_AFTER, ()))
            played = [g for g in played if g["id"] not in later]
            if played and later:
                raise Refused(
                    _(
                        "#{number} {name} was on the roster of {game}: its events and "
                        "protocols may name him, so he stays as he is"
                    ).format(number=number, name=player["name"], game=self._describe(played[0]))
                )
        if played:
            raise Refused(
                _(
                    "{team} has already played ({game}): its events and protocols name it "
                    "and its players, so the roster stays as it was"
                ).format(team=self._team(team_id)["name"], game=self._describe(played[0]))
            )

    def _team(self, team_id: str) -> dict[str, Any]:
        team = self.t.team(team_id)
        if team is None:
            raise Refused(_("No such team"))
        return team

    def _check_name(self, what: str, name: str) -> str:
        name = clean_name(name)
        if not name:
            raise Refused(_("{what}: type a name").format(what=what))
        if problem := name_problem(name):
            raise Refused(f"{what} {rule_text(problem)}")
        return name

    # -- teams -----------------------------------------------------------------------------
    def rename_team(self, team_id: str, name: str) -> None:
        team = self._team(team_id)
        name = self._check_name(_("Team name"), name)
        other = self.t.team_by_name(name)
        if other is not None and other["id"] != team_id:
            raise Refused(_("A team named {name} already exists").format(name=name))
        others = (t["name"] for t in self.t.teams() if t["id"] != team_id)
        if (lookalike := confusable_with(name, others)) is not None:
            raise Refused(
                _("Team name {name} looks the same as the existing team {other}").format(
                    name=name, other=lookalike
                )
            )
        self.refuse_if_played(team_id)
        self.t.rename_team(team["id"], name)

    def remove_team(self, team_id: str) -> None:
        team = self._team(team_id)
        self.refuse_if_played(team_id)
        games = self.t.games_of(team_id)
        if games:
            raise Refused(
                _(
                    "{team} is in {n} scheduled games (first: {game}): they would lose a "
                    "side; change the schedule first"
                ).format(team=team["name"], n=len(games), game=self._describe(games[0]))
            )
        self.t.remove_team(team_id)

    # -- players ---------------------------------------------------------------------------
    def edit_player(
        self, team_id: str, number: int, new_number: int, name: str, captain: bool
    ) -> None:
        self._team(team_id)
        name = self._check_name(_("Name"), name)
        roster = self.t.players(team_id)
        if not any(p["number"] == number for p in roster):
            raise Refused(_("No player number {number} in this team").format(number=number))
        if not 0 <= new_number <= 999:
            raise Refused(_("A player number is 0-999"))
        if new_number != number and any(p["number"] == new_number for p in roster):
            raise Refused(_("Number {number} is already in this team").format(number=new_number))
        if captain and any(p["captain"] and p["number"] != number for p in roster):
            raise Refused(_("This team already has a captain"))
        self.refuse_if_played(team_id, number)
        changes = {"number": new_number, "name": name, "captain": captain}
        self.t.update_player(team_id, number, changes)

    def remove_player(self, team_id: str, number: int) -> None:
        self._team(team_id)
        if not any(p["number"] == number for p in self.t.players(team_id)):
            raise Refused(_("No player number {number} in this team").format(number=number))
        self.refuse_if_played(team_id, number)
        self.t.remove_player(team_id, number)
