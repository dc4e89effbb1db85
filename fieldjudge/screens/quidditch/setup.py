"""A new quidditch match (issue 6): teams of seven with skill, the feint catalogue, the end
condition and the skill/cap settings. Typed in by keys or imported from a CSV file
(``team,name,position,matches,practices``). Dismisses with the :class:`MatchSetup`."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from textual import on
from textual.widgets import DataTable, Static

from fieldjudge.csv_import import CsvImportError, read_csv_file
from fieldjudge.i18n import _, ngettext
from fieldjudge.rules.quidditch.feints import FeintCatalogue
from fieldjudge.rules.quidditch.settings import (
    END_KINDS,
    END_SNITCH,
    EndCondition,
    QuidditchSettings,
)
from fieldjudge.screens import keymap
from fieldjudge.screens.dialogs.forms import (
    Field,
    FormScreen,
    MessageScreen,
    Values,
    choice,
    name_check,
    parse_check,
    typed,
)
from fieldjudge.screens.quidditch.feints import FeintsScreen
from fieldjudge.screens.quidditch.pane import TablePane
from fieldjudge.services.quidditch import (
    RosterRow,
    SessionError,
    build_setup,
    default_rows,
    parse_roster_csv,
)

# The settings RULES.md marks as defaults (not in the rulebook): shown in the settings form.
SKILL_FIELDS = (
    ("cap", "Cap of every probability, %"),
    ("dodge_per_match", "Dodge bonus per match played, %"),
    ("dodge_per_practice", "Dodge bonus per practice, %"),
    ("beater_intercept_per_match", "Beater interception per match, %"),
    ("beater_accuracy_per_match", "Beater accuracy per match, %"),
)


def _num(text: str) -> float:
    """A skill setting as typed: "0,5" or "0.5"."""
    return float(text.replace(",", "."))


END_LABELS = {"snitch": "snitch only", "points": "points limit", "rounds": "round limit"}
END_ALIASES = typed(
    {"snitch": ("s", "с", "снитч"), "points": ("p", "о", "очки"), "rounds": ("r", "р", "раунды")}
)
#: 9: the end conditions as the judge types them (the form shows the UI language's word)
END_WORDS = {"snitch": "snitch", "points": "points", "rounds": "rounds"}


# 5: interception; 9: snitch vanishing (match settings, RULES.md)
INTERCEPTION_LABELS = {
    "flat": "flat: a successful interception roll takes the ball",
    "contest": "contest: the receiver also draws, the higher value takes the ball",
}
VANISH_LABELS = {"per_round": "every round of a chase", "per_chase": "once per chase"}
INTERCEPTION_ALIASES = typed(
    {"flat": ("flat", "f", "простой", "п"), "contest": ("contest", "c", "спор", "с")}
)
VANISH_ALIASES = typed(
    {
        "per_round": ("per_round", "round", "every round", "каждый круг", "круг", "к"),
        "per_chase": ("per_chase", "chase", "once a chase", "раз за погоню", "погоня", "п"),
    }
)
#: 5 and 9 as the judge types them (the form shows the UI language's word)
SETTING_WORDS = {
    "flat": "flat",
    "contest": "contest",
    "per_round": "every round",
    "per_chase": "once a chase",
}


class MatchSetupScreen(TablePane):
    SCREEN_TITLE = "New quidditch match"
    HELP_TEXT = (
        "Enter edits the highlighted player (name, matches played, practices attended). "
        "m: match name, teams, end condition, client seed. i: import a CSV file "
        "team,name,position,matches,practices. f: the feint catalogue. o: skill and cap "
        "settings. Ctrl+S starts the match."
    )
    BINDINGS = keymap.bindings("match_setup")
    TITLE_ID = "qs-summary"
    TITLE_CLASS = "qr-status"
    TABLE_ID = "qs-roster"

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[RosterRow] = default_rows("Команда А", "Команда Б")
        self.match_id = _("match-1")
        self.initials: dict[str, str] = {"Команда А": "А", "Команда Б": "Б"}
        self.genitives: dict[str, str] = {}
        self.end = EndCondition()
        self.client_seed = ""
        self.settings = QuidditchSettings()
        self.feints = FeintCatalogue()

    def on_mount(self) -> None:
        self.table.add_columns(
            "№", _("Team"), _("Position"), _("Name"), _("Matches"), _("Practices")
        )
        self.refresh_all()
        self.table.focus()

    def teams(self) -> list[str]:
        return list(dict.fromkeys(r.team for r in self.rows))

    def refresh_all(self) -> None:
        end = _(END_LABELS[self.end.kind]) + (f" {self.end.limit}" if self.end.limit else "")
        s = self.settings
        self.query_one("#qs-summary", Static).update(
            f"{_('Match')}: {self.match_id} · {' — '.join(self.teams())} · {_('End')}: {end}"
            + f" · {_('Client seed')}: {self.client_seed or '—'}\n"
            + _("Feints: {n} · cap {cap}% · dodge +{m}/match +{p}/practice").format(
                n=len(self.feints), cap=s.cap, m=s.dodge_per_match, p=s.dodge_per_practice
            )
            + "\n"
            + _("Interception (5)")
            + f": {_(INTERCEPTION_LABELS[s.interception])} · "
            + _("Snitch vanishing (9)")
            + f": {_(VANISH_LABELS[s.vanish_mode])}"
        )
        self.table.refill(
            (str(i), r.team, _(r.position.capitalize()), r.name, str(r.matches), str(r.practices))
            for i, r in enumerate(self.rows, 1)
        )

    # -- players ------------------------------------------------------------------------
    @on(DataTable.RowSelected, "#qs-roster")
    def _row_selected(self) -> None:
        self.action_edit_player()

    def action_edit_player(self) -> None:
        i = self.table.cursor_row
        r = self.rows[i]

        def check(v: Values) -> str | None:
            if not v["name"]:
                return _("The name is required")
            if problem := name_check(_("Name"), v["name"]):
                return problem
            if not (v["matches"] or "0").isdigit() or not (v["practices"] or "0").isdigit():
                return _("Matches and practices are whole numbers")
            return None

        def done(v: Values | None) -> None:
            if v is not None:
                self.rows[i] = replace(
                    r,
                    name=v["name"],
                    matches=int(v["matches"] or 0),
                    practices=int(v["practices"] or 0),
                )
                self.refresh_all()

        fields = [
            Field("name", _("Name (as in the round post)"), r.name),
            Field("matches", _("Matches played"), str(r.matches), restrict=r"\d*"),
            Field("practices", _("Practices attended"), str(r.practices), restrict=r"\d*"),
        ]
        title = f"{r.team} · {_(r.position.capitalize())}"
        self.app.push_screen(FormScreen(title, fields, check), done)

    def action_import_csv(self) -> None:
        def check(v: Values) -> str | None:
            path = Path(v["path"]).expanduser()
            if not path.is_file():
                return _("No such file") + f": {path}"
            return None

        def done(v: Values | None) -> None:
            if v is None:
                return
            try:
                text = read_csv_file(v["path"]).decode("utf-8-sig")
            except (OSError, UnicodeDecodeError, CsvImportError) as exc:
                self.app.push_screen(MessageScreen(_("Cannot read the file"), str(exc)))
                return
            rows, errors = parse_roster_csv(text)
            if errors:
                self.app.push_screen(MessageScreen(_("Nothing imported"), "\n".join(errors)))
                return
            self.rows = rows
            self.refresh_all()
            self.notify(
                ngettext("Imported {n} player", "Imported {n} players", len(rows)).format(
                    n=len(rows)
                ),
                markup=False,
            )

        fields = [Field("path", _("File"), placeholder="~/teams.csv")]
        note = "team,name,position,matches,practices (chaser/beater/keeper/seeker)"
        self.app.push_screen(FormScreen(_("Import players from CSV"), fields, check, note), done)

    # -- match, settings, feints -----------------------------------------------------------
    def action_match_details(self) -> None:
        a, b = self.teams()
        kinds = " / ".join(_(END_WORDS.get(k, k)) for k in END_KINDS)

        def parse(v: Values) -> EndCondition:
            kind = END_ALIASES.get(v["end"].lower(), v["end"].lower()) or END_SNITCH
            limit = v["limit"] or "0"
            if kind not in END_KINDS:
                raise ValueError(_("End: one of {k}").format(k=kinds))
            if not limit.isdigit():
                raise ValueError(_("The limit is a whole number"))
            return EndCondition(kind, int(limit) if kind != END_SNITCH else 0)

        def check(v: Values) -> str | None:
            if not v["id"] or not v["a"] or not v["b"]:
                return _("The match and both teams need names")
            if v["a"] == v["b"]:
                return _("The teams need different names")
            problems = (name_check(_("Team name"), v[k]) for k in ("a", "b"))
            return next((p for p in problems if p), None) or parse_check(parse)(v)

        def done(v: Values | None) -> None:
            if v is None:
                return
            rename = {a: v["a"], b: v["b"]}
            self.rows = [replace(r, team=rename[r.team]) for r in self.rows]
            self.match_id = v["id"]
            self.initials = {v["a"]: v["ia"], v["b"]: v["ib"]}
            self.genitives = {v["a"]: v["ga"], v["b"]: v["gb"]}
            self.end = parse(v)
            self.client_seed = v["client"]
            self.refresh_all()

        end = _(END_WORDS.get(self.end.kind, self.end.kind))
        fields = [
            Field("id", _("Match name (file name)"), self.match_id),
            Field("a", _("Team 1"), a),
            Field("ia", _("Team 1 initial (post: «Name (Г)»)"), self.initials.get(a, "")),
            Field("ga", _("Team 1 genitive («у колец …»)"), self.genitives.get(a, "")),
            Field("b", _("Team 2"), b),
            Field("ib", _("Team 2 initial"), self.initials.get(b, "")),
            Field("gb", _("Team 2 genitive"), self.genitives.get(b, "")),
            Field("end", _("End: snitch / points / rounds"), end),
            Field("limit", _("Points or round limit"), str(self.end.limit or "")),
            Field("client", _("Client seed (from the players, optional)"), self.client_seed),
        ]
        self.app.push_screen(FormScreen(_("Match"), fields, check), done)

    def action_settings(self) -> None:
        def check(v: Values) -> str | None:
            try:
                vals = {k: _num(v[k]) for k, _l in SKILL_FIELDS}
            except ValueError:
                return _("Numbers only (e.g. 0.5)")
            if not 0 < vals["cap"] <= 100 or any(x < 0 for x in vals.values()):
                return _("The cap is 1..100; bonuses cannot be negative")
            if choice(INTERCEPTION_ALIASES, v["interception"]) is None:
                return _("Interception (5): flat or contest")
            if choice(VANISH_ALIASES, v["vanish_mode"]) is None:
                return _("Snitch vanishing (9): per_round or per_chase")
            return None

        def done(v: Values | None) -> None:
            if v is not None:
                self.settings = replace(
                    self.settings,
                    **{k: _num(v[k]) for k, _l in SKILL_FIELDS},
                    interception=choice(INTERCEPTION_ALIASES, v["interception"]),
                    vanish_mode=choice(VANISH_ALIASES, v["vanish_mode"]),
                )
                self.refresh_all()

        fields = [Field(k, _(label), f"{getattr(self.settings, k):g}") for k, label in SKILL_FIELDS]
        fields += [
            Field(
                "interception",
                _("Interception (5): flat or contest"),
                _(SETTING_WORDS[self.settings.interception]),
            ),
            Field(
                "vanish_mode",
                _("Snitch vanishing (9): per_round or per_chase"),
                _(SETTING_WORDS[self.settings.vanish_mode]),
            ),
        ]
        title = _("Match settings (RULES.md defaults)")
        self.app.push_screen(FormScreen(title, fields, check), done)

    def action_feints(self) -> None:
        def done(cat: FeintCatalogue | None) -> None:
            if cat is not None:
                self.feints = cat
                self.refresh_all()

        self.app.push_screen(FeintsScreen(self.feints), done)

    # -- finishing ------------------------------------------------------------------------
    def action_start(self) -> None:
        if self.app.tournament is not None and self.match_id in self.app.tournament.matches():
            self.notify(_("A match with this name exists"), severity="error", markup=False)
            return
        try:
            setup = build_setup(
                self.match_id,
                self.rows,
                genitives=self.genitives,
                initials=self.initials,
                settings=self.settings,
                feints=self.feints,
                end=self.end,
                client_seed=self.client_seed,
            )
        except SessionError as exc:
            self.app.push_screen(MessageScreen(_("The match is not ready"), str(exc)))
            return
        self.dismiss(setup)
