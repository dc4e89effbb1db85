"""Teams and rosters: typed in or imported from CSV (team,number,name,captain)."""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Header, Static

from fieldjudge.csv_import import ParseResult, Progress, parse_roster
from fieldjudge.i18n import _, ngettext, rule_text
from fieldjudge.rules.names import name_problem
from fieldjudge.screens.base import JudgeScreen
from fieldjudge.screens.dialogs.forms import (
    ConfirmScreen,
    Field,
    FormScreen,
    MessageScreen,
    Values,
)
from fieldjudge.screens.setup.csv_flow import CsvImportMixin
from fieldjudge.screens.widgets.footer import Footer
from fieldjudge.services import Refused
from fieldjudge.services.paintball.rosters import RosterEditor

RosterParser = Callable[[bytes, int | None, Progress], ParseResult]


def _default_parser(raw: bytes, team_size: int | None, progress: Progress) -> ParseResult:
    return parse_roster(raw, team_size, progress)


class TeamsScreen(CsvImportMixin, JudgeScreen):
    SCREEN_TITLE = "Teams and rosters"
    HELP_TEXT = (
        "CSV header: team,number,name,captain (comma or semicolon, UTF-8). "
        "r renames the highlighted team, D removes it; e edits the highlighted player, "
        "X removes him (Tab moves to the roster). Once a team has played, its name and "
        "roster stay as the protocols have them."
    )
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("a", "add_team", "Add team"),
        Binding("p", "add_player", "Add player"),
        Binding("i", "import_csv", "Import CSV"),
        Binding("r", "rename_team", "Rename", tooltip="Rename the team"),
        Binding("D", "remove_team", "Remove team", show=False),
        Binding("e", "edit_player", "Edit player"),
        Binding("X", "remove_player", "Remove player", show=False),
    ]

    def __init__(self, parse_roster: RosterParser = _default_parser) -> None:
        super().__init__()
        self._want_player: int | None = None
        self.parse_roster = parse_roster  # runs in the import worker thread

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            with Vertical(id="teams-pane"):
                yield Static(_("Teams"), classes="pane-title")
                yield DataTable(id="teams", cursor_type="row")
            with Vertical(id="roster-pane"):
                yield Static(_("Roster"), id="roster-title", classes="pane-title")
                yield DataTable(id="roster", cursor_type="row", zebra_stripes=True)
        yield Footer()

    @property
    def t(self):
        return self.app.tournament

    @property
    def editor(self) -> RosterEditor:
        return RosterEditor(self.app.tournament)

    def on_mount(self) -> None:
        self.query_one("#teams", DataTable).add_columns(_("Team"), _("Players"))
        self.query_one("#roster", DataTable).add_columns("№", _("Name"), _("Captain"))
        self.reload()
        self.query_one("#teams", DataTable).focus()

    def reload(self, select: str | None = None, player: int | None = None) -> None:
        teams = self.query_one("#teams", DataTable)
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

    def selected_team(self) -> str | None:
        teams = self.query_one("#teams", DataTable)
        if teams.row_count == 0:
            return None
        key, _c = teams.coordinate_to_cell_key(teams.cursor_coordinate)
        return str(key.value)

    @on(DataTable.RowHighlighted, "#teams")
    def show_roster(self) -> None:
        roster = self.query_one("#roster", DataTable)
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

    def selected_player(self) -> dict | None:
        roster = self.query_one("#roster", DataTable)
        tid = self.selected_team()
        if tid is None or roster.row_count == 0:
            return None
        key, _c = roster.coordinate_to_cell_key(roster.cursor_coordinate)
        return next((p for p in self.t.players(tid) if str(p["number"]) == key.value), None)

    def _try(self, change, select: str | None = None, player: int | None = None) -> bool:
        """Run a roster change; a refusal is shown with its reason and changes nothing."""
        try:
            change()
        except Refused as exc:
            self.app.push_screen(MessageScreen(_("Not changed"), rule_text(exc)))
            return False
        self.reload(select=select, player=player)
        return True

    def action_rename_team(self) -> None:
        tid = self.selected_team()
        if tid is None:
            self.notify(_("Add a team first (a)"), severity="warning")
            return
        team = self.t.team(tid)

        def done(v: Values | None) -> None:
            if v is not None:
                self._try(lambda: self.editor.rename_team(tid, v["name"]), select=tid)

        self.app.push_screen(
            FormScreen(
                _("Rename team") + f": {team['name']}",
                [Field("name", _("Team name"), team["name"])],
                lambda v: _name_check(_("Team name"), v["name"]),
            ),
            done,
        )

    def action_remove_team(self) -> None:
        tid = self.selected_team()
        if tid is None:
            return
        team = self.t.team(tid)

        def done(yes: bool | None) -> None:
            if yes:
                self._try(lambda: self.editor.remove_team(tid))

        self.app.push_screen(
            ConfirmScreen(_("Remove team {name} and its roster?").format(name=team["name"])),
            done,
        )

    def action_edit_player(self) -> None:
        tid, p = self.selected_team(), self.selected_player()
        if tid is None or p is None:
            self.notify(_("No player to edit: pick one in the roster (Tab)"), severity="warning")
            return

        def done(v: Values | None) -> None:
            if v is None:
                return
            number = int(v["number"])
            captain = v["captain"].lower() in YES
            self._try(
                lambda: self.editor.edit_player(tid, p["number"], number, v["name"], captain),
                select=tid,
                player=number,
            )

        self.app.push_screen(
            FormScreen(
                _("Edit player") + f": {self.t.team(tid)['name']} #{p['number']}",
                [
                    Field("number", _("Number"), str(p["number"]), restrict=r"\d*"),
                    Field("name", _("Name"), p["name"]),
                    Field("captain", _("Captain? (y/n)"), "y" if p["captain"] else "n"),
                ],
                _player_check,
            ),
            done,
        )

    def action_remove_player(self) -> None:
        tid, p = self.selected_team(), self.selected_player()
        if tid is None or p is None:
            self.notify(_("No player to remove: pick one in the roster (Tab)"), severity="warning")
            return

        def done(yes: bool | None) -> None:
            if yes:
                self._try(lambda: self.editor.remove_player(tid, p["number"]), select=tid)

        self.app.push_screen(
            ConfirmScreen(
                _("Remove #{number} {name} from the roster?").format(
                    number=p["number"], name=p["name"]
                )
            ),
            done,
        )

    def action_add_team(self) -> None:
        def done(v: Values | None) -> None:
            if v is None:
                return
            try:
                team = self.t.add_team(v["name"])
            except Refused as exc:
                self.notify(str(exc), severity="error")
                return
            self.reload(select=team["id"])

        self.app.push_screen(
            FormScreen(
                _("Add team"),
                [Field("name", _("Team name"))],
                lambda v: _name_check(_("Team name"), v["name"]),
            ),
            done,
        )

    def action_add_player(self) -> None:
        tid = self.selected_team()
        if tid is None:
            self.notify(_("Add a team first (a)"), severity="warning")
            return

        def done(v: Values | None) -> None:
            if v is None:
                return
            try:
                self.t.add_player(
                    tid,
                    int(v["number"]),
                    v["name"],
                    v["captain"].lower() in YES,
                )
            except Refused as exc:
                self.notify(str(exc), severity="error")
                return
            self.reload(select=tid)

        team = self.t.team(tid)
        self.app.push_screen(
            FormScreen(
                _("Add player") + f": {team['name']}",
                [
                    Field("number", _("Number"), restrict=r"\d*"),
                    Field("name", _("Name")),
                    Field("captain", _("Captain? (y/n)"), "n"),
                ],
                _player_check,
            ),
            done,
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


YES = ("y", "yes", "д", "да")


def _player_check(v: Values) -> str | None:
    if not v["number"].isdigit():
        return _("Number must be a whole number")
    if problem := _name_check(_("Name"), v["name"]):
        return problem
    if v["captain"].lower() not in ("", "y", "n", "д", "н", "yes", "no", "да", "нет"):
        return _("Captain: y or n")
    return None


def _name_check(label: str, value: str) -> str | None:
    problem = name_problem(value.strip())
    return None if problem is None else f"{label} {rule_text(problem)}"
