"""Teams and rosters: typed in or imported from CSV (team,number,name,captain)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Header, Static

from fieldjudge.csv_import import ParseResult, Progress, parse_roster
from fieldjudge.i18n import _, ngettext, rule_text
from fieldjudge.screens import keymap
from fieldjudge.screens.dialogs.forms import (
    YES_NO,
    ConfirmScreen,
    Field,
    FormScreen,
    MessageScreen,
    Values,
    name_check,
    yes_no,
)
from fieldjudge.screens.setup.csv_flow import CsvImportScreen
from fieldjudge.screens.widgets.footer import Footer
from fieldjudge.screens.widgets.table import RowTable
from fieldjudge.services import Refused
from fieldjudge.services.paintball.rosters import RosterEditor

RosterParser = Callable[[bytes, int | None, Progress], ParseResult]


class TeamsScreen(CsvImportScreen):
    SCREEN_TITLE = "Teams and rosters"
    HELP_TEXT = (
        "CSV header: team,number,name,captain (comma or semicolon, UTF-8). "
        "r renames the highlighted team, D removes it; e edits the highlighted player, "
        "X removes him (Tab moves to the roster). Once a team has played, its name and "
        "roster stay as the protocols have them."
    )
    BINDINGS = keymap.bindings("teams")

    def __init__(self, parse_roster: RosterParser = parse_roster) -> None:
        super().__init__()
        self._want_player: int | None = None
        self.parse_roster = parse_roster  # runs in the import worker thread

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            with Vertical(id="teams-pane"):
                yield Static(_("Teams"), classes="pane-title", markup=False)
                yield RowTable(id="teams", zebra_stripes=False)
            with Vertical(id="roster-pane"):
                yield Static(_("Roster"), id="roster-title", classes="pane-title", markup=False)
                yield RowTable(id="roster")
        yield Footer()

    @property
    def t(self):
        return self.app.tournament

    @property
    def editor(self) -> RosterEditor:
        return RosterEditor(self.app.tournament)

    def on_mount(self) -> None:
        self.query_one("#teams", RowTable).add_columns(_("Team"), _("Players"))
        self.query_one("#roster", RowTable).add_columns("№", _("Name"), _("Captain"))
        self.reload()
        self.query_one("#teams", RowTable).focus()

    def reload(self, select: str | None = None, player: int | None = None) -> None:
        teams = self.query_one("#teams", RowTable)
        teams.clear()
        counts: dict[str, int] = {}
        for p in self.t.players():
            counts[p["team_id"]] = counts.get(p["team_id"], 0) + 1
        for i, team in enumerate(self.t.teams()):
            teams.add_row(team["name"], str(counts.get(team["id"], 0)), key=team["id"])
            if team["id"] == select:
                teams.move_cursor(row=i)
        self._want_player = player
        self.show_roster()
        self.offer_signature()

    def selected_team(self) -> str | None:
        return self.query_one("#teams", RowTable).cursor_key()

    @on(DataTable.RowHighlighted, "#teams")
    def show_roster(self) -> None:
        roster = self.query_one("#roster", RowTable)
        roster.clear()
        tid = self.selected_team()
        if tid is None:
            return
        for i, p in enumerate(self.t.players(tid)):
            roster.add_row(
                str(p["number"]),
                p["name"],
                _("captain") if p["captain"] else "",
                key=str(p["number"]),
            )
            if p["number"] == self._want_player:
                roster.move_cursor(row=i)  # the player just edited stays highlighted

    def team_or_say(self) -> str | None:
        """The highlighted team; None, and the judge told to add one, when there is none."""
        tid = self.selected_team()
        if tid is None:
            self.notify(_("Add a team first (a)"), severity="warning", markup=False)
        return tid

    def selected_player(self) -> dict | None:
        tid, number = self.selected_team(), self.query_one("#roster", RowTable).cursor_key()
        players = self.t.players(tid) if tid is not None else []
        return next((p for p in players if str(p["number"]) == number), None)

    def on_player(self, missing: str, act: Callable[[str, dict], None]) -> None:
        """``act(team, player)`` on the highlighted player of the roster; ``missing`` said
        when there is none."""
        tid, p = self.selected_team(), self.selected_player()
        if tid is None or p is None:
            self.notify(missing, severity="warning", markup=False)
        else:
            act(tid, p)

    def _try(self, change, select=None) -> None:
        """Run a roster change and show the list again, the team ``select`` (or
        ``select(what the change returned)``) highlighted; a refusal is shown with its
        reason and changes nothing."""
        try:
            done = change()
        except Refused as exc:
            self._say_refused(exc)
            return
        self.reload(select=select(done) if callable(select) else select)

    def _say_refused(self, exc: Refused) -> None:
        self.app.push_screen(MessageScreen(_("Not changed"), rule_text(exc)))

    def _played(self, tid: str, number: int | None = None) -> bool:
        """The team has played (``number``: with that player on its roster): its roster
        stays as it was, said before a form opens (the judge types nothing that cannot be
        saved)."""
        try:
            self.editor.refuse_if_played(tid, number)
        except Refused as exc:
            self._say_refused(exc)
            return True
        return False

    def ask_change(
        self, title: str, fields: list[Field], check, change, select=None, player=None
    ) -> None:
        """A form whose values make one change when the judge saves it: a refusal (a shirt
        number taken, a team name in use) is said in the form, which stays open with all
        that was typed, so only the wrong value is typed again. ``select``: the team to
        highlight after (or ``select(what the change returned)``); ``player(values)``: the
        player to highlight in its roster."""
        done: list[Any] = []

        def validate(v: Values) -> str | None:
            if (problem := check(v)) is not None:
                return problem
            try:
                done.append(change(v))
            except Refused as exc:
                return rule_text(exc)
            return None

        def after(v: Values | None) -> None:
            if v is not None and done:
                self.reload(
                    select=select(done[-1]) if callable(select) else select,
                    player=player(v) if player is not None else None,
                )

        self.app.push_screen(FormScreen(title, fields, validate), after)

    def confirm(self, question: str, run) -> None:
        self.app.push_screen(ConfirmScreen(question), lambda yes: run() if yes else None)

    def action_rename_team(self) -> None:
        if (tid := self.team_or_say()) is None:
            return
        if self._played(tid):
            return
        name = self.t.team(tid)["name"]
        self.ask_change(
            _("Rename team") + f": {name}",
            [Field("name", _("Team name"), name)],
            _team_check,
            lambda v: self.editor.rename_team(tid, v["name"]),
            tid,
        )

    def action_remove_team(self) -> None:
        if (tid := self.selected_team()) is None:
            return
        name = self.t.team(tid)["name"]
        self.confirm(
            _("Remove team {name} and its roster?").format(name=name),
            lambda: self._try(lambda: self.editor.remove_team(tid)),
        )

    def action_edit_player(self) -> None:
        self.on_player(_("No player to edit: pick one in the roster (Tab)"), self.edit_player)

    def edit_player(self, tid: str, p: dict) -> None:
        if self._played(tid, p["number"]):
            return
        self.ask_change(
            _("Edit player") + f": {self.t.team(tid)['name']} #{p['number']}",
            _player_fields(str(p["number"]), p["name"], yes_no(p["captain"])),
            _player_check,
            lambda v: self.editor.edit_player(
                tid,
                p["number"],
                int(v["number"]),
                v["name"],
                _captain(v),
            ),
            tid,
            player=lambda v: int(v["number"]),
        )

    def action_remove_player(self) -> None:
        self.on_player(_("No player to remove: pick one in the roster (Tab)"), self.remove_player)

    def remove_player(self, tid: str, p: dict) -> None:
        if self._played(tid, p["number"]):
            return
        self.confirm(
            _("Remove #{number} {name} from the roster?").format(
                number=p["number"], name=p["name"]
            ),
            lambda: self._try(lambda: self.editor.remove_player(tid, p["number"]), select=tid),
        )

    def action_add_team(self) -> None:
        self.ask_change(
            _("Add team"),
            [Field("name", _("Team name"))],
            _team_check,
            lambda v: self.t.add_team(v["name"]),
            lambda team: team["id"],
        )

    def action_add_player(self) -> None:
        if (tid := self.team_or_say()) is None:
            return

        self.ask_change(
            _("Add player") + f": {self.t.team(tid)['name']}",
            _player_fields("", "", yes_no(False)),
            _player_check,
            lambda v: self.t.add_player(tid, int(v["number"]), v["name"], _captain(v)),
            tid,
        )

    def action_import_csv(self) -> None:
        def apply(result) -> str:
            teams, players = self.t.import_roster(result.rows)
            return (
                ngettext("Imported {n} team", "Imported {n} teams", teams).format(n=teams)
                + ", "
                + ngettext("{n} player", "{n} players", players).format(n=players)
            )

        team_size = self.t.settings.get("team_size")  # read here: the worker never reads the store
        parse = self.parse_roster
        self.start_csv_import(
            _("Import roster CSV"),
            "team,number,name,captain",
            lambda raw, progress: parse(raw, team_size, progress),
            apply,
        )


def _captain(v: Values) -> bool:
    """The form's answer to "Captain? (y/n)" (blank: no)."""
    return YES_NO.get(v["captain"].lower(), False)


def _player_check(v: Values) -> str | None:
    if not v["number"].isdigit():
        return _("Number must be a whole number")
    if problem := name_check(_("Name"), v["name"]):
        return problem
    if v["captain"] and v["captain"].lower() not in YES_NO:
        return _("Captain: y or n")
    return None


def _player_fields(number: str, name: str, captain: str) -> list[Field]:
    return [
        Field("number", _("Number"), number, restrict=r"\d*"),
        Field("name", _("Name"), name),
        Field("captain", _("Captain? (y/n)"), captain),
    ]


def _team_check(v: Values) -> str | None:
    return name_check(_("Team name"), v["name"])
