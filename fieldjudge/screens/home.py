"""Home: tournaments on the left, the open tournament's games by time and field."""

from __future__ import annotations

import time
from datetime import datetime
from pathlib import Path
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from fieldjudge.i18n import _
from fieldjudge.screens.base import JudgeScreen

#: stale summaries computed before the home screen's first frame (a demo: all of them)
SUMMARIES_BEFORE_FIRST_FRAME = 16
#: how long one slice of the remaining summaries may hold the main thread
FILL_SLICE_S = 0.015


def _state_text(g: dict[str, Any], summary: dict[str, Any], names: dict[str, str]) -> str:
    """The State column of a game: its phase, and the score or the players in play."""
    phase = _(PHASES.get(summary.get("phase", ""), summary.get("phase", "")))
    result = summary.get("result")
    if summary.get("no_show"):  # 32.01: who did not come, instead of the score
        absent = ", ".join(names.get(x, x) for x in summary["no_show"])
        phase = _("no-show") + ": " + absent
    elif result and result.get("points"):
        pts = result["points"]  # 30.01 game points of a closed game
        phase += f" · {pts.get(g['team_a'], 0)}:{pts.get(g['team_b'], 0)} " + _("pts")
    elif "alive" in summary:  # players in play
        phase += f" · {summary['alive'][0]}:{summary['alive'][1]}"
    return phase


PHASES = {
    "scheduled": "scheduled",
    "open": "open",
    "not_started": "ready",
    "running": "running",
    "stopped": "Time!",
    "hang_check": "hang check",
    "ended": "ended",
    "inspection": "inspection",
    "final": "final",
    "submitted": "protocol",
    "signed": "signed",
    "locked": "locked",
    "no_show": "no-show",
    "damaged": "DAMAGED",
}


class HomeScreen(JudgeScreen):
    SCREEN_TITLE = "Home"
    HELP_TEXT = (
        "Tournaments in the data folder are listed on the left; the games of the open "
        "tournament on the right. Tab moves between the lists; Enter opens the highlighted "
        "tournament or game."
    )
    BINDINGS = [
        # The footer shows the keys of a game day; F1 and Ctrl+P list all of them.
        Binding("g", "open_game", "Game"),
        Binding("k", "marker_check", "Marker check"),
        Binding("p", "protocol", "Protocol"),
        Binding("S", "standings", "Standings"),
        Binding("t", "teams", "Teams", show=False),
        Binding("s", "schedule", "Schedule", show=False),
        Binding("n", "new_tournament", "New tournament", show=False),
        Binding("x", "export", "Export", show=False),
        Binding("m", "merge", "Merge", show=False),
        Binding("q", "quidditch", "Quidditch", show=False),
        Binding("j", "judge", "Judge name", show=False),
        Binding("r", "reload", "Refresh", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            with Vertical(id="tournaments-pane"):
                yield Static(_("Tournaments"), classes="pane-title")
                yield OptionList(id="tournaments")
                yield Static(
                    _(
                        "t teams   s schedule\nn new tournament\nx export  m merge\nj judge   q quidditch\nF1 all keys"
                    ),
                    id="home-hints",
                )
            with Vertical(id="games-pane"):
                yield Static("", id="tournament-title", classes="pane-title")
                yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#games", DataTable)
        keys = table.add_columns(_("Time"), _("Field"), _("Team A"), _("Team B"), _("State"))
        self._state_column = keys[-1]
        # games whose summary is stale, summarised after the first frame (cold start)
        self._pending: list[str] = []
        # The first ScreenResume follows mount: on_screen_resume fills the lists.
        self._shown = False

    # -- data ---------------------------------------------------------------------------
    def reload(self) -> None:
        if not getattr(self, "_shown", False):  # filled when first shown
            return
        options = self.query_one("#tournaments", OptionList)
        options.clear_options()
        current = self.app.tournament
        highlighted = None
        for i, folder in enumerate(self.app.tournament_folders()):
            label = folder.name
            if current is not None and folder == current.folder:
                label = f"● {current.name}"
                highlighted = i
            options.add_option(Option(label, id=str(folder)))
        if highlighted is not None:
            options.highlighted = highlighted
        self.reload_games()

    def reload_games(self) -> None:
        table = self.query_one("#games", DataTable)
        title = self.query_one("#tournament-title", Static)
        table.clear()
        t = self.app.tournament
        if t is None:
            title.update(_("No tournament open: pick one on the left or press n"))
            return
        meta = t.meta
        title.update(f"{meta['name']} · {meta['date']} · {meta.get('venue', '')}")
        names = t.team_names()
        self._pending = []
        now = SUMMARIES_BEFORE_FIRST_FRAME
        for g in t.games():
            # a stale summary means reading, verifying and folding the game's file: the
            # first few now, the rest after the first frame, a slice at a time
            summary = t.cached_game_summary(g["id"])
            if summary is None and now > 0:
                summary, now = t.game_summary(g["id"]), now - 1
            elif summary is None:
                self._pending.append(g["id"])
            start = datetime.fromisoformat(g["start"])
            table.add_row(
                start.strftime("%H:%M"),
                g["field"],
                names.get(g["team_a"], "?"),
                names.get(g["team_b"], "?"),
                _state_text(g, summary, names) if summary is not None else "…",
                key=g["id"],
            )
        if self._pending:
            self.call_after_refresh(self._fill_states, t, self._pending)
        else:
            t.index.save()
        if not t.games():
            title.update(title.render().plain + "  —  " + _("no games yet: press s"))

    def _fill_states(self, t: Any, pending: list[str]) -> None:
        """Summarise stale games for about one frame, then let the keys through; again
        until none is left (on the main thread: the store is never read by a worker)."""
        if self.app.tournament is not t or pending is not self._pending or not self.is_mounted:
            return  # the list was reloaded (or the tournament closed) meanwhile
        table = self.query_one("#games", DataTable)
        names = t.team_names()
        deadline = time.monotonic() + FILL_SLICE_S
        while pending and time.monotonic() < deadline:
            gid = pending.pop(0)
            g = t.game(gid)
            if g is not None and gid in table.rows:
                text = _state_text(g, t.game_summary(gid), names)
                table.update_cell(gid, self._state_column, text)
        if pending:
            self.call_after_refresh(self._fill_states, t, pending)  # a slice a frame
        else:
            t.index.save()

    # -- actions ------------------------------------------------------------------------
    @on(OptionList.OptionSelected, "#tournaments")
    def tournament_chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id and self.app.open_tournament(Path(event.option.id)):
            self.query_one("#games", DataTable).focus()

    @on(DataTable.RowSelected, "#games")
    def game_chosen(self, event: DataTable.RowSelected) -> None:
        self.app.open_game(str(event.row_key.value))

    def action_open_game(self) -> None:
        table = self.query_one("#games", DataTable)
        if self.app.tournament is None or table.row_count == 0:
            self.notify(_("No game to open"), severity="warning")
            return
        row_key, _col = table.coordinate_to_cell_key(table.cursor_coordinate)
        self.app.open_game(str(row_key.value))

    def action_marker_check(self) -> None:
        table = self.query_one("#games", DataTable)
        if self._need_tournament() and table.row_count:
            from fieldjudge.screens.chrono.marker_check import open_marker_check

            row_key, _col = table.coordinate_to_cell_key(table.cursor_coordinate)
            open_marker_check(self.app, str(row_key.value))

    def action_judge(self) -> None:
        """Who is judging on this laptop: recorded with every event from now on."""
        from fieldjudge.screens.dialogs.forms import Field, FormScreen

        def done(values) -> None:
            if values is not None:
                self.app.set_judge(values["name"])
                self.notify(_("Events are now recorded as judged by") + f" {self.app.judge}")

        self.app.push_screen(
            FormScreen(
                _("Judge name"),
                [Field("name", _("Your name"), self.app.judge)],
                lambda v: None if v["name"] else _("Type your name"),
            ),
            done,
        )

    def action_reload(self) -> None:
        self.reload()

    def action_new_tournament(self) -> None:
        from fieldjudge.screens.setup.tournament import create_tournament_flow

        create_tournament_flow(self.app)

    def _need_tournament(self) -> bool:
        if self.app.tournament is None:
            self.notify(_("Open or create a tournament first"), severity="warning")
            return False
        return True

    def action_teams(self) -> None:
        if self._need_tournament():
            from fieldjudge.screens.setup.teams import TeamsScreen

            self.app.push_screen(TeamsScreen())

    def action_schedule(self) -> None:
        if self._need_tournament():
            from fieldjudge.screens.setup.schedule import ScheduleScreen

            self.app.push_screen(ScheduleScreen())

    # -- results (issue 5): protocol, standings, export, merge ---------------------------
    def _highlighted_game(self) -> str | None:
        table = self.query_one("#games", DataTable)
        if self.app.tournament is None or table.row_count == 0:
            return None
        return str(table.coordinate_to_cell_key(table.cursor_coordinate)[0].value)

    def action_protocol(self) -> None:
        game_id = self._highlighted_game()
        if game_id is None:
            self.notify(_("No game to open"), severity="warning")
            return
        from fieldjudge.screens.results.protocol import ProtocolScreen

        self.app.push_screen(ProtocolScreen(game_id))

    def action_standings(self) -> None:
        if self._need_tournament():
            from fieldjudge.screens.results.standings import StandingsScreen

            self.app.push_screen(StandingsScreen())

    def action_export(self) -> None:
        from fieldjudge.screens.results.standings import export_flow

        export_flow(self.app)

    def action_merge(self) -> None:
        if self._need_tournament():
            from fieldjudge.screens.results.merge import MergeScreen

            self.app.push_screen(MergeScreen())

    def action_quidditch(self) -> None:
        from fieldjudge.screens.quidditch.matches import open_quidditch

        open_quidditch(self.app)

    def on_screen_resume(self) -> None:
        """Fill the lists when first shown and whenever the judge comes back (a game may
        have moved on meanwhile)."""
        self._shown = True
        self.reload()
