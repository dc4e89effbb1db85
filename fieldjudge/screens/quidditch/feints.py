"""The feint catalogue of a match (rule 12: data, not code): name, situations, bonus range.
Dismisses with the edited :class:`FeintCatalogue`, or None when cancelled."""

from __future__ import annotations

from dataclasses import replace

from textual import on
from textual.widgets import DataTable

from fieldjudge.i18n import _
from fieldjudge.rules.quidditch.feints import (
    SITUATION_NAMES_RU,
    SITUATION_RANGES,
    SITUATIONS,
    Feint,
    FeintCatalogue,
)
from fieldjudge.screens import keymap
from fieldjudge.screens.dialogs.forms import Field, FormScreen, Values, parse_check
from fieldjudge.screens.quidditch.pane import TablePane

SITUATION_ALIASES = {**{s: s for s in SITUATIONS}, **{v: k for k, v in SITUATION_NAMES_RU.items()}}


def parse_feint(v: Values) -> Feint:
    """A feint from the form; ValueError with a clear message when it is not valid."""
    name = v["name"].strip()
    if not name:
        raise ValueError(_("The feint needs a name"))
    sits = []
    for tok in v["situations"].replace(";", ",").split(","):
        tok = tok.strip().lower()
        if not tok:
            continue
        if tok not in SITUATION_ALIASES:
            raise ValueError(_("Unknown situation: {x}").format(x=tok))
        sits.append(SITUATION_ALIASES[tok])
    if not sits:
        raise ValueError(_("Name at least one situation"))
    lo_t, hi_t = v["min"] or "0", v["max"] or "0"
    if not lo_t.isdigit() or not hi_t.isdigit():
        raise ValueError(_("The bonus range is whole numbers"))
    lo, hi = int(lo_t), int(hi_t)
    if lo > hi:
        raise ValueError(_("The minimum bonus is above the maximum"))
    limit = max(SITUATION_RANGES[s][1] for s in sits)
    if hi > limit:
        raise ValueError(_("The rulebook allows at most +{n} here").format(n=limit))
    return Feint(name, tuple(dict.fromkeys(sits)), lo, hi)


class FeintsScreen(TablePane):
    SCREEN_TITLE = "Feint catalogue"
    HELP_TEXT = (
        "a: add a feint; Enter: edit; Delete: remove; Ctrl+S: keep the catalogue; Esc: "
        "cancel. Situations: steal, intercept, shot, save, dodge, speed, catch, push_dodge "
        "(or their Russian names). The bonus is clipped to the rulebook's range. g marks a "
        "group feint (4)."
    )
    BINDINGS = keymap.bindings("feints")
    TABLE_ID = "qf-feints"

    def __init__(self, catalogue: FeintCatalogue) -> None:
        super().__init__()
        self.feints: list[Feint] = list(catalogue)

    def heading(self) -> str:
        return _("Feints (rule 12)")

    def on_mount(self) -> None:
        self.table.add_columns(_("Feint"), _("Situations"), _("Bonus"), _("Group (4)"))
        self.refresh_all()
        self.table.focus()

    def refresh_all(self) -> None:
        self.table.refill(
            (
                f.name,
                ", ".join(SITUATION_NAMES_RU[s] for s in f.situations),
                f"+{f.bonus_min}…{f.bonus_max}" if f.bonus_max else "—",
                "☑" if f.group else "☐",
            )
            for f in self.feints
        )

    def _form(self, title: str, f: Feint | None, index: int | None) -> None:
        others = {x.name for i, x in enumerate(self.feints) if i != index}

        def check(v: Values) -> None:
            if parse_feint(v).name in others:
                raise ValueError(_("A feint with this name exists"))

        def done(v: Values | None) -> None:
            if v is None:
                return
            feint = parse_feint(v)
            if f is not None and f.group:  # 4: editing keeps the group mark (g toggles it)
                feint = replace(feint, group=True)
            if index is None:
                self.feints.append(feint)
            else:
                self.feints[index] = feint
            self.refresh_all()

        fields = [
            Field("name", _("Name"), f.name if f else ""),
            Field(
                "situations",
                _("Situations, comma-separated"),
                ", ".join(f.situations) if f else "",
                placeholder="steal, intercept",
            ),
            Field("min", _("Bonus from"), str(f.bonus_min) if f else "0", restrict=r"\d*"),
            Field("max", _("Bonus to"), str(f.bonus_max) if f else "0", restrict=r"\d*"),
        ]
        form = FormScreen(title, fields, parse_check(check), note=", ".join(SITUATIONS))
        self.app.push_screen(form, done)

    @on(DataTable.RowSelected, "#qf-feints")
    def _selected(self) -> None:
        self.action_edit()

    def action_edit(self) -> None:
        if not self.feints:
            return
        i = self.table.cursor_row
        self._form(_("Edit feint"), self.feints[i], i)

    def action_add(self) -> None:
        self._form(_("New feint"), None, None)

    def action_remove(self) -> None:
        if self.feints:
            del self.feints[self.table.cursor_row]
            self.refresh_all()

    def action_toggle_group(self) -> None:
        """4: a group feint («не считая групповых финтов»): a steal with it is not held to
        one steal attempt per team and round. g toggles the highlighted feint."""
        if not self.feints:
            return
        i = self.table.cursor_row
        self.feints[i] = replace(self.feints[i], group=not self.feints[i].group)
        self.refresh_all()

    def action_keep(self) -> None:
        self.dismiss(FeintCatalogue(self.feints))
