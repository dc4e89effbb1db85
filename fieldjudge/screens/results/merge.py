"""Merging another laptop's folder or JSON export, and choosing conflicting games."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Header, Static

from fieldjudge.i18n import _, rule_text
from fieldjudge.screens import keymap
from fieldjudge.screens.base import JudgeScreen
from fieldjudge.screens.dialogs.forms import Field, FormScreen, Values, head_judge_form
from fieldjudge.screens.widgets.footer import Footer
from fieldjudge.screens.widgets.table import RowTable
from fieldjudge.services import DamagedFile, StoreError
from fieldjudge.services.paintball.event_text import Namer, clock, describe
from fieldjudge.services.sync import merge
from fieldjudge.services.sync.merge_view import ConflictView, all_conflicts
from fieldjudge.services.sync.tournament_conflicts import (
    TournamentConflict,
    decide,
    tournament_conflicts,
)


class MergeScreen(JudgeScreen):
    SCREEN_TITLE = "Merge laptops"
    HELP_TEXT = (
        "i: import another laptop's tournament folder or JSON export. Games logged on two "
        "laptops with different events are listed below: o keeps this laptop's log, t takes "
        "the other one (the copy not chosen is kept in conflicts/resolved). Teams, players, "
        "games and settings that differ between the two tournament files are listed under "
        "them (Tab moves there): o keeps this laptop's, t takes the other laptop's; the head "
        "judge's secret is asked and his decision is recorded, signed."
    )
    BINDINGS = keymap.bindings("merge")
    #: the game logs and the tournament-file differences to decide (``reload``)
    views: dict[str, ConflictView] = {}
    differences: dict[str, TournamentConflict] = {}

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(_("Merge laptops"), classes="pane-title", markup=False)
        yield Static("", id="merge-report", markup=False)
        yield Static(
            _("Conflicts for the head judge to choose"), classes="pane-title", markup=False
        )
        yield RowTable(id="conflicts")
        yield Static(_("Tournament files differ"), classes="pane-title", markup=False)
        yield RowTable(id="tournament-conflicts")
        with VerticalScroll(id="conflict-detail-pane"):
            yield Static("", id="conflict-detail", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#conflicts", DataTable).add_columns(
            _("Time"), _("Field"), _("Teams"), _("What differs")
        )
        self.query_one("#tournament-conflicts", DataTable).add_columns(
            _("What differs"), _("This laptop"), _("The other laptop")
        )
        self.reload()

    def resting_actions(self) -> frozenset[str]:
        """The footer's keys with nothing to do now (``widgets/footer.py``): keeping ours
        or taking theirs while there is nothing to decide (each still answers)."""
        return frozenset() if self.views or self.differences else _NOTHING_TO_DECIDE

    def reload(self) -> None:
        table = self.query_one("#conflicts", DataTable)
        table.clear()
        self.views = {str(v.path): v for v in all_conflicts(self.app.tournament)}
        for key, v in self.views.items():
            time_, field, teams = conflict_game(v)
            table.add_row(time_, field, teams, conflict_summary(v), key=key)
        diffs = self.query_one("#tournament-conflicts", DataTable)
        diffs.clear()
        names = self.app.tournament.team_names()
        self.differences = {c.row_key: c for c in tournament_conflicts(self.app.tournament)}
        for key, c in self.differences.items():
            diffs.add_row(*difference_cells(c, names), key=key)
        if table.row_count:
            table.focus()
        elif diffs.row_count:
            diffs.focus()
        self.show_detail()
        self.refresh_bindings()  # o and t in the footer once there is something to decide

    @on(DataTable.RowHighlighted, "#conflicts")
    def show_detail(self) -> None:
        view = self.views.get(self.query_one("#conflicts", RowTable).cursor_key() or "")
        self.query_one("#conflict-detail", Static).update(conflict_detail(view) if view else "")

    def highlighted_difference(self) -> tuple[TournamentConflict, tuple[str, str, str]] | None:
        """The highlighted tournament-file difference and its (what, ours, theirs) cells."""
        key = self.query_one("#tournament-conflicts", RowTable).cursor_key()
        c = self.differences.get(key or "")
        return None if c is None else (c, difference_cells(c, self.app.tournament.team_names()))

    @on(DataTable.RowHighlighted, "#tournament-conflicts")
    def show_difference(self) -> None:
        if (highlighted := self.highlighted_difference()) is None:
            return
        c, (what, ours, theirs) = highlighted
        self.query_one("#conflict-detail", Static).update(
            "\n".join(
                [
                    f"{what} · {_('from')} {c.source}",
                    f"{_('This laptop')}: {ours}",
                    f"{_('The other laptop')}: {theirs}",
                    _("o keeps this laptop's, t takes the other laptop's (head judge's secret)"),
                ]
            )
        )

    def action_import_source(self) -> None:
        def done(v: Values | None) -> None:
            if not v:
                return
            try:
                report = merge.merge_into(self.app.tournament, Path(v["source"]).expanduser())
            except DamagedFile as exc:
                self.show(f"{exc.path}: {rule_text(exc.fault)}")
                return
            except (StoreError, OSError) as exc:
                self.show(str(exc))
                return
            self.show("\n".join(report_lines(report)))
            self.reload()
            self.app.refresh_home()

        form = FormScreen(
            _("Import another laptop"),
            [Field("source", _("Tournament folder or JSON export"))],
            lambda v: None if v["source"] else _("Name a folder or a file"),
        )
        self.app.push_screen(form, done)

    def show(self, text: str) -> None:
        self.query_one("#merge-report", Static).update(text)

    def action_keep(self, which: str) -> None:
        diffs = self.query_one("#tournament-conflicts", RowTable)
        table = self.query_one("#conflicts", RowTable)
        if diffs.row_count and (diffs.has_focus or table.row_count == 0):
            self.decide_difference(which)
            return
        if (key := table.cursor_key()) is None:
            self.notify(_("No conflicts"), severity="warning", markup=False)
            return
        path = Path(key)
        view = self.views.get(str(path))
        label = " ".join(conflict_game(view)) if view else path.name.split("--")[0]
        question = (
            _("Keep this laptop's log of {game}?")
            if which == "ours"
            else _("Replace this laptop's log of {game} with the other copy?")
        ).format(game=label)

        def act(pin: str) -> str:
            kept = merge.resolve(self.app.tournament, path, which, pin)
            return _("Done; the copy not chosen is kept as") + f" {kept}"

        self.with_secret(question, act, retry=False)

    def decide_difference(self, which: str) -> None:
        """Keep this laptop's or take the other laptop's team, player, game or setting (the
        head judge's secret asked; a refusal reopens the form with the reason)."""
        if (highlighted := self.highlighted_difference()) is None:
            return
        c, (what, ours, theirs) = highlighted
        question = (
            _("Keep this laptop's {what}: {value}?")
            if which == "ours"
            else _("Take the other laptop's {what}: {value}?")
        ).format(what=what, value=ours if which == "ours" else theirs)

        def act(pin: str) -> str:
            decide(self.app.tournament, c, which, pin)
            return _("Decided; the decision is recorded, signed by the head judge")

        self.with_secret(question, act, retry=True)

    def with_secret(self, question: str, act: Callable[[str], str], *, retry: bool) -> None:
        """The head judge's secret asked, then ``act(secret)``, which returns what to report;
        a refusal is shown (``retry``: in words, and the form opens again with it)."""

        def run(values: Values) -> str:
            try:
                said = act(values["pin"])
            except (StoreError, OSError) as exc:
                self.show(why := rule_text(exc) if retry else str(exc))
                return why if retry else ""
            self.show(said)
            self.reload()
            self.app.refresh_home()
            return ""

        head_judge_form(self.app, question, [], lambda _v: None, run)


WHAT_TEXT = {
    "team": "team",
    "player": "player",
    "game": "game",
    "game_clash": "game, field and time taken",
    "setting": "setting",
}


_NOTHING_TO_DECIDE = frozenset({"keep('ours')", "keep('theirs')"})


def _value(c: TournamentConflict, doc: Any, names: dict[str, str]) -> str:
    if not isinstance(doc, dict):
        return "—"
    if c.what == "team":
        return str(doc.get("name", "—"))
    if c.what == "player":
        captain = f" ({_('captain')})" if doc.get("captain") else ""
        return f"#{doc.get('number')} {doc.get('name', '')}{captain}"
    if c.what in ("game", "game_clash"):
        start = str(doc.get("start", "")).replace("T", " ")
        teams = (
            f"{names.get(str(doc.get('team_a')), '?')} — {names.get(str(doc.get('team_b')), '?')}"
        )
        return f"{_('field')} {doc.get('field')} {start}, {teams}"
    return ", ".join(f"{k}: {v if v is not None else '—'}" for k, v in doc.items())


def difference_cells(c: TournamentConflict, names: dict[str, str]) -> tuple[str, str, str]:
    """(what, this laptop's, the other laptop's) of a tournament-file difference."""
    return (
        _(WHAT_TEXT.get(c.what, c.what)),
        _value(c, c.ours, names),
        _value(c, c.theirs, names),
    )


# -- what a conflict is about, in words (services/sync/merge_view.py reads it) -----------------------


def conflict_game(v: ConflictView) -> tuple[str, str, str]:
    """(time, field, "Team A — Team B") of the conflicting game."""
    g = v.game
    if g is None:
        return "—", "—", (_("quidditch match") + f" {v.log_id}" if v.kind != "games" else "—")
    start = datetime.fromisoformat(g["start"]).strftime("%H:%M")
    teams = f"{v.names.get(g['team_a'], '?')} — {v.names.get(g['team_b'], '?')}"
    return start, str(g["field"]), teams


def _points(v: ConflictView, view) -> str:
    if view is None or v.game is None:
        return "?"
    pts = view.result.points
    return f"{pts.get(v.game['team_a'], 0)}:{pts.get(v.game['team_b'], 0)}"


def conflict_summary(v: ConflictView) -> str:
    if v.fault:
        return _("other copy damaged: {fault}").format(fault=v.fault)
    text = _("here +{ours}, there +{theirs} events").format(ours=len(v.ours), theirs=len(v.theirs))
    if v.our_view is not None and v.their_view is not None:
        a, b = _points(v, v.our_view), _points(v, v.their_view)
        if a != b:
            text += " · " + _("points {ours} / {theirs}").format(ours=a, theirs=b)
    return text


def _event_lines(v: ConflictView, events, view) -> list[str]:
    if view is None:
        return [f"  {e.seq:>3} {e.type}" for e in events]
    namer = Namer(view.names, view.state)
    by_id = {e.id: e for e in view.events}
    return [
        f"  {clock(e.game_clock_ms) if e.game_clock_ms is not None else '':>5} "
        f"{describe(e, namer, by_id)}"
        for e in events
    ]


def conflict_detail(v: ConflictView) -> str:
    time_, field, teams = conflict_game(v)
    lines = [_("{time} · field {field} · {teams}").format(time=time_, field=field, teams=teams)]
    if v.fault:
        return "\n".join([*lines, _("other copy damaged: {fault}").format(fault=v.fault)])
    lines.append(_("Both copies agree on the first {n} events; then:").format(n=v.common))
    lines.append(_("this laptop ({n}):").format(n=len(v.ours)))
    lines += _event_lines(v, v.ours, v.our_view) or ["  —"]
    lines.append(_("the other copy ({n}):").format(n=len(v.theirs)))
    lines += _event_lines(v, v.theirs, v.their_view) or ["  —"]
    if v.game is not None:
        lines.append(
            _("Points here {ours}, in the other copy {theirs}").format(
                ours=_points(v, v.our_view), theirs=_points(v, v.their_view)
            )
        )
    return "\n".join(lines)


def report_lines(report: merge.MergeReport) -> list[str]:
    """The merge report in the UI language."""
    out = [_("Merged from {source}").format(source=report.source), report.counts()]
    if added := report.added():
        out.append(_("Added to the tournament: {what}").format(what=added))
    if report.conflicts:
        out.append(
            _("{n} conflicts: the head judge chooses below (o / t)").format(n=len(report.conflicts))
        )
    differ = len(report.tournament_conflicts) + len(report.refused_games)
    if differ:
        out.append(
            _("{n} differences between the tournament files: the head judge decides below").format(
                n=differ
            )
        )
    out.extend(_("Error") + f": {rule_text(e)}" for e in report.errors)
    return out
