"""The schedule: games (field, start, team A, team B) typed in or imported from CSV;
a team booked twice at once is refused, a gap under 12 minutes warned about (32.03)."""

from __future__ import annotations

from datetime import datetime

from textual.app import ComposeResult
from textual.widgets import DataTable, Header, Static

from fieldjudge.csv_import import parse_schedule, parse_time
from fieldjudge.i18n import _, ngettext, rule_text
from fieldjudge.screens import keymap
from fieldjudge.screens.dialogs.forms import Field, FormScreen, MessageScreen, Values
from fieldjudge.screens.setup.csv_flow import CsvImportScreen
from fieldjudge.screens.widgets.footer import Footer
from fieldjudge.screens.widgets.table import RowTable
from fieldjudge.services import Refused


def resolve_team(t, text: str) -> dict | None:
    """A team by its number in the list (1, 2 ...), full name or unique name prefix."""
    teams = t.teams()
    text = text.strip()
    if text.isdigit() and 1 <= int(text) <= len(teams):
        return teams[int(text) - 1]
    exact = t.team_by_name(text)
    if exact:
        return exact
    hits = [x for x in teams if x["name"].casefold().startswith(text.casefold())]
    return hits[0] if len(hits) == 1 and text else None


class ScheduleScreen(CsvImportScreen):
    SCREEN_TITLE = "Schedule"
    HELP_TEXT = "CSV header: field,start,team_a,team_b (start as HH:MM)."
    BINDINGS = keymap.bindings("schedule")

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(_("Schedule"), classes="pane-title", markup=False)
        yield RowTable(id="schedule")
        yield Footer()

    @property
    def t(self):
        return self.app.tournament

    def on_mount(self) -> None:
        table = self.query_one("#schedule", DataTable)
        table.add_columns(_("Time"), _("Field"), _("Team A"), _("Team B"))
        self.reload()
        table.focus()

    def reload(self) -> None:
        table = self.query_one("#schedule", DataTable)
        table.clear()
        names = self.t.team_names()
        for g in self.t.games():
            start = datetime.fromisoformat(g["start"])
            table.add_row(
                start.strftime("%H:%M"),
                g["field"],
                names.get(g["team_a"], "?"),
                names.get(g["team_b"], "?"),
                key=g["id"],
            )
        self.offer_signature()

    def _report(self, warnings: list[str], added: str) -> None:
        self.reload()
        if warnings:
            self.app.push_screen(MessageScreen(added, "\n".join(rule_text(w) for w in warnings)))
        else:
            self.notify(added, markup=False)

    def action_add_game(self) -> None:
        teams = self.t.teams()
        if len(teams) < 2:
            self.notify(_("Add at least two teams first"), severity="warning", markup=False)
            return
        listing = "  ".join(f"{i}. {x['name']}" for i, x in enumerate(teams, 1))
        warned: list[list[str]] = []  # what the game added was warned about (32.03)

        def add(v: Values) -> str | None:
            """Check the values and add the game: a refusal (a team or a field booked twice
            at once) is said in the form, which keeps what was typed."""
            if not v["field"]:
                return _("Enter the field")
            try:
                start = parse_time(v["start"], self.t.day)
            except ValueError:
                return _("Start must be HH:MM")
            a, b = resolve_team(self.t, v["team_a"]), resolve_team(self.t, v["team_b"])
            if a is None or b is None:
                return _("Unknown team") + f": {v['team_a' if a is None else 'team_b']!r}"
            game = {"field": v["field"], "start": start, "team_a": a["id"], "team_b": b["id"]}
            try:
                warned.append(self.t.add_games([game]))
            except Refused as exc:
                return rule_text(exc)
            return None

        def done(v: Values | None) -> None:
            if v is not None and warned:
                self._report(warned[-1], _("Game added"))

        fields = [
            Field("field", _("Field"), "1"),
            Field("start", _("Start (HH:MM)")),
            Field("team_a", _("Team A (number or name)")),
            Field("team_b", _("Team B (number or name)")),
        ]
        self.app.push_screen(FormScreen(_("Add game"), fields, add, note=listing), done)

    def action_import_csv(self) -> None:
        def apply(result) -> str:
            warnings = self.t.import_schedule(result.rows)
            result.warnings.extend(warnings)
            n = len(result.rows)
            return ngettext("Imported {n} game", "Imported {n} games", n).format(n=n)

        day = self.t.day  # read here: the worker never reads the store
        self.start_csv_import(
            _("Import schedule CSV"),
            "field,start,team_a,team_b",
            lambda raw, progress: parse_schedule(raw, day, progress),
            apply,
        )
