"""Home: tournaments on the left, the open tournament's games by time and field; under
them the sync status line and, when it runs, the pit display's address."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Header, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from fieldjudge.i18n import _, rule_text
from fieldjudge.screens import keymap
from fieldjudge.screens.base import JudgeScreen
from fieldjudge.screens.chrono.marker_check import open_marker_check
from fieldjudge.screens.dialogs.forms import Field, FormScreen, Values, head_judge_form
from fieldjudge.screens.quidditch.matches import open_quidditch
from fieldjudge.screens.results.merge import MergeScreen
from fieldjudge.screens.results.protocol import ProtocolScreen
from fieldjudge.screens.results.standings import StandingsScreen, export_flow
from fieldjudge.screens.setup.schedule import ScheduleScreen
from fieldjudge.screens.setup.teams import TeamsScreen
from fieldjudge.screens.setup.tournament import create_tournament_flow
from fieldjudge.screens.widgets.faults import fault_label, fault_text, file_faults
from fieldjudge.screens.widgets.footer import Footer
from fieldjudge.screens.widgets.prompt import PromptPanel, take_key
from fieldjudge.screens.widgets.table import RowTable, plain_cell
from fieldjudge.services import StoreError
from fieldjudge.services.laptop import laptop_name
from fieldjudge.services.paintball.disqualified import CarriedOver, Setups
from fieldjudge.services.paintball.live import next_game
from fieldjudge.services.sync.conflicts import ConflictWatch
from fieldjudge.services.sync.refresh import ChangedLogs
from fieldjudge.services.sync.syncthing import SyncStatus, SyncStatusProvider, status_line

SYNC_EVERY_S = 2.0
#: the sync status line starts this long after the lists are filled (its client is
#: made by its worker, which would share the first frame's time)
SYNC_START_S = 0.3
#: how long one slice of the remaining summaries may hold the main thread
FILL_SLICE_S = 0.015

PHASES = {
    "scheduled": "scheduled",
    "open": "open",
    "not_started": "ready",
    "running": "running",
    "stopped": "Time!",
    "hang_check": "hang check",
    "ended": "ended",
    "inspection": "inspection",
    "final": "awaiting protocol",
    "submitted": "protocol",
    "signed": "signed",
    "locked": "locked",
    "no_show": "no-show",
    "damaged": "DAMAGED",
}
# Phases where the players in play are the news (not a score).
LIVE_PHASES = ("not_started", "running", "stopped", "hang_check", "ended", "inspection")


class SyncTick(Message):
    """The sync status read by the worker (posted; the handler updates the screen)."""

    def __init__(self, status: SyncStatus) -> None:
        super().__init__()
        self.status = status


def state_text(summary: dict, team_a: str, team_b: str, names: dict[str, str]) -> str:
    """A game's state as it reads: players in play for a live game, the points of a
    closed one, who did not come for a no-show (32.01)."""
    phase_id = summary.get("phase", "")
    if phase_id == "damaged":  # never shown as real data: what is wrong, which laptop
        return fault_text(summary.get("fault") or "")
    phase = _(PHASES.get(phase_id, phase_id))
    result = summary.get("result")
    if summary.get("no_show"):
        return _("no-show") + ": " + ", ".join(names.get(x, x) for x in summary["no_show"])
    if result and result.get("points"):  # 30.01 game points of a closed game
        pts = result["points"]
        score = _("result {a}:{b}").format(a=pts.get(team_a, 0), b=pts.get(team_b, 0))
        return f"{score} · {phase}"
    if "alive" in summary and phase_id in LIVE_PHASES:
        in_play = _("in play {a} × {b}").format(a=summary["alive"][0], b=summary["alive"][1])
        return in_play if phase_id == "running" else f"{phase} · {in_play}"
    return phase


def one_per_line(hints: str) -> str:
    """The hints one key a line (the catalog's columns split before each key): the
    tournaments pane is narrow, the games' state column wide (issue 25,
    item 7)."""
    keys = r"\s+(?=(?:[A-Za-z]|F\d+)\s)"  # a space before a key (a Latin letter, F1)
    return "\n".join(p for line in hints.split("\n") for p in re.split(keys, line.strip()))


class HomeScreen(JudgeScreen):
    SCREEN_TITLE = "Home"
    HELP_TEXT = (
        "Tournaments in the data folder are listed on the left; the games of the open "
        "tournament on the right. Tab moves between the lists; Enter opens the highlighted "
        "tournament or game."
    )
    BINDINGS = keymap.bindings("home")

    def __init__(self) -> None:
        super().__init__()
        self._shown = False  # mounted: the lists can be filled
        self._resumed = False
        self._sync_text: str | None = None  # the last status line, shown while on top
        self._sync_shown: str | None = None
        self._sync_folder: Path | None | bool = False  # False: not watched yet
        self._pending: list[str] = []  # stale summaries, made after the first frame
        self._known: dict[str, dict[str, Any]] = {}  # the summaries shown, by game id
        #: what each row shows, as text (start, field, teams, state), by game id
        self._shown_rows: dict[str, tuple[str, ...]] = {}
        #: the games whose file is damaged or unsigned, each with the word its cell shows
        #: (what kind of fault): the line under the list says the highlighted one's whole
        self._damaged: dict[str, str] = {}
        self._changed_logs = None
        self._conflict_watch: ConflictWatch | None = None
        self._tournament_fault = ""  # tournament.json not as the head judge signed it
        self._signs_here = False  # ...and he may sign it on this laptop (T)
        self._confirmed: Any = None  # the tournament whose rows were checked after its first frame

    def compose(self) -> ComposeResult:
        # The first focus goes where the mount puts it: the games when the open tournament
        # has some (Textual's default, the first focusable widget, is the tournaments list,
        # and the move to the games restyled both lists and remade the footer's keys).
        t = self.app.tournament
        self.AUTO_FOCUS = "#games" if t is not None and t.has_games() else "*"
        yield Header()
        # the two panes side by side between the docked header and footer (the screen's
        # own horizontal layout, app.tcss: one container less to style, lay out and draw)
        with Vertical(id="tournaments-pane"):
            yield Static(_("Tournaments"), classes="pane-title", markup=False)
            yield OptionList(id="tournaments")
            yield Static(
                one_per_line(
                    _(
                        "t teams   s schedule\nn new tournament\nx export  m merge\nj judge   q quidditch\nw pit     N next game\nF1 all keys"
                    )
                ),
                id="home-hints",
                markup=False,
            )
        with Vertical(id="games-pane"):
            yield Static("", id="tournament-title", classes="pane-title", markup=False)
            yield RowTable(id="games")
            yield Static("", id="fault-line", markup=False)
            yield Static("", id="laptop-line", markup=False)
            yield Static("", id="pit-line", markup=False)
            yield Static(_("sync: checking…"), id="sync-line", markup=False)
        yield PromptPanel()  # the judge's name, typed in the screen itself (screens/keys.py)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#games", DataTable)
        keys = table.add_columns(_("Time"), _("Field"), _("Team A"), _("Team B"), _("State"))
        self._state_column = keys[-1]
        self.query_one("#pit-line").display = False
        self.query_one("#laptop-line").display = False
        self.query_one("#fault-line").display = False
        # Filled now, so the first frame is laid out once, with the rows (the tournament
        # opened by the app before or after this fills them again through reload).
        self._shown = True
        self.reload()

    # -- data ---------------------------------------------------------------------------
    def reload(self) -> None:
        if not self._shown:  # filled when mounted
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
            options.add_option(Option(Text(label), id=str(folder)))
        if highlighted is not None:
            options.highlighted = highlighted
        self.reload_games()
        self.set_timer(SYNC_START_S, self._watch_sync)  # the status line follows the frame

    def reload_games(self) -> None:
        table = self.query_one("#games", DataTable)
        keep = self._highlighted_game()  # the cursor stays on the game the judge left
        t = self.app.tournament
        if t is None:
            table.clear()
            self._shown_rows = {}
            self._damaged = {}
            self._show_faults()
            self._set_title(_("No tournament open: pick one on the left or press n"))
            return
        meta = t.meta
        field = self.app.laptop.field
        # this laptop's field first: the line is cut at 80 columns, and the field is what
        # N opens the next game of (the tournament's name is in the header above)
        mine = _("This laptop: field {field}").format(field=field) + " · " if field else ""
        heading = f"{mine}{meta['name']} · {meta['date']} · {meta.get('venue', '')}"
        names = t.team_names()
        if self._tournament_fault:  # the teams and schedule are not as he signed them
            names = {k: f"⚠ {v}" for k, v in names.items()}
        games = t.games()
        # the same games as shown: their cells change in place, the cursor never moves
        in_place = [str(k.value) for k in table.rows] == [g["id"] for g in games]
        if not in_place:
            table.clear()
            self._shown_rows = {}
        self._pending = []
        self._known = {}
        # a stale summary means reading, verifying and folding the game's file (~8 ms
        # at 300 events): none before the first frame, then a slice at a time; the
        # current ones from one listing of the games' files (issue 24)
        cached = t.cached_game_summaries(g["id"] for g in games)
        # one cell per distinct text, shared by the rows showing it (1,000 games name a
        # few dozen teams, fields and start times: 4,000 cells were made, and kept)
        cells_of: dict[str, Text] = {}
        starts: dict[str, Text] = {}

        def cell(text: str) -> Text:
            found = cells_of.get(text)
            if found is None:
                found = cells_of[text] = plain_cell(text)
            return found

        for g in games:
            summary = cached[g["id"]]
            if summary is None:
                self._pending.append(g["id"])
            else:
                self._known[g["id"]] = summary
            self._note_damaged(g["id"], summary)
            row = (
                str(g["start"]),
                str(g["field"]),
                names.get(g["team_a"], "?"),
                names.get(g["team_b"], "?"),
                state_text(summary, g["team_a"], g["team_b"], names)
                if summary is not None
                else "…",
            )
            if self._shown_rows.get(g["id"]) == row:
                continue  # as shown (the check right after the first frame: every row)
            self._shown_rows[g["id"]] = row
            start = starts.get(row[0])
            if start is None:
                start = starts[row[0]] = plain_cell(
                    datetime.fromisoformat(row[0]).strftime("%H:%M")
                )
            # one "…" for every row still pending
            cells = (start, *map(cell, row[1:4]), cell(self._cell_text(g["id"], row[4])))
            if in_place:
                for column, value in zip(table.columns, cells, strict=True):
                    if table.get_cell(g["id"], column) != value:
                        # a text wider than its column widens it, as a new row's does (a
                        # state that grew, a fault): never cut; a narrower one lays nothing out
                        wider = value.cell_len > table.columns[column].content_width
                        table.update_cell(g["id"], column, value, update_width=wider)
            else:
                table.add_row(*cells, key=g["id"])
        if self._pending:
            self._summarise(t, self._pending)
        else:
            self.call_after_refresh(self._keep, t)
            self.app.home_states_known()  # e.g. the running game offered after a restart
        self.call_after_refresh(self._check_tournament)  # after the first frame
        self._show_faults()
        if not games:
            self._set_title(heading + "  —  " + _("no games yet: press s"))
            return
        self._set_title(heading)
        if not in_place and keep is not None and keep in {g["id"] for g in games}:
            table.move_cursor(row=table.get_row_index(keep), animate=False)
        if not table.has_focus and (not isinstance(self.focused, OptionList) or keep is None):
            # a row is highlighted from the start; a focus call repaints the whole table
            # even when it has the focus already (the reload right after the first frame)
            table.focus()

    def _set_title(self, text: str) -> None:
        """The title above the games, changed only when its text does: a new text lays
        the whole screen out and draws it again (the check right after the first frame
        reloads the list with the same title: ~50 ms of a cold start redrawing nothing)."""
        title = self.query_one("#tournament-title", Static)
        if title.content != text:
            title.update(text)

    def _check_tournament(self) -> None:
        """Whether ``tournament.json`` is as the head judge signed it (the check verify
        runs); a change shows every team flagged and the fault under the games."""
        t = self.app.tournament
        if t is None:
            return
        fault = file_faults("tournament.json", t.tournament_faults())
        self._show_registration(t.laptop_unregistered())
        # asked once a check, not at every move of the cursor (the fault line's hint)
        self._signs_here = bool(fault) and t.tournament_write_refusal() is None
        # the first frame showed what the app's memory found clean: every row is checked
        # once more against the signatures, registrations and manifests as they are now
        if fault != self._tournament_fault or self._confirmed is not t:
            self._tournament_fault = fault
            self._confirmed = t
            self.reload_games()

    @work(exclusive=True, group="summaries")
    async def _summarise(self, t: Any, pending: list[str]) -> None:
        """The states of stale games, after the first frame: the games summarised about a frame
        (:data:`FILL_SLICE_S`) at a time, in schedule order (the rows on screen at the
        start are the first ones). One pass: each game is read and folded once, the
        players disqualified in earlier games (20.05) carried along from the summaries
        already known, instead of every game's setup asking for every earlier one. The
        states are put in the table once the rows on screen are all known, the others at
        the end: each change of a cell makes the table draw its visible rows again and
        keep that drawing in its caches (a state shown every slice cost 4 MB and a
        quarter more time).

        On the main thread (the store is never read by a thread), in a task of its own
        that waits for the screen's next refresh between slices: the keys pressed
        meanwhile are handled and, if they changed something, drawn. (The slices used to
        run as after-refresh callbacks of the screen itself, which invokes them as soon as
        it is idle with nothing to repaint: they ran back to back without returning to
        the event loop, and no key or frame got through until every state was shown.)"""
        stale = set(pending)
        on_screen: set[str] | None = None  # the stale rows on screen, once laid out
        # the schedule walked in order, the players disqualified so far, the rosters and
        # settings read once for the pass: read at its first slice (the pass a reload
        # replaces before then, as the check right after the first frame does, reads none)
        walk: tuple[Iterator[dict[str, Any]], CarriedOver, Setups] | None = None
        states: dict[str, str] = {}
        while pending:
            await self.wait_for_refresh()  # keys, and a frame if they changed something
            if self.app.tournament is not t or pending is not self._pending or not self.is_mounted:
                return  # the list was reloaded (or the tournament closed) meanwhile
            if walk is None:
                walk = (iter(t.games()), CarriedOver(), Setups(t))
            if on_screen is None and self.query_one("#games", DataTable).size.height:
                on_screen = self._rows_on_screen() & stale
            wanted = on_screen - states.keys() if on_screen else set()
            states.update(self._summarise_slice(t, pending, *walk, wanted))
            if not pending or (on_screen and on_screen <= states.keys()):
                self._show_states(states)
                if on_screen:  # what the judge sees is kept (after it is painted: an fsync)
                    self.call_after_refresh(self._keep, t)
                states, on_screen = {}, set()
        self.call_after_refresh(self._keep, t)
        self.app.home_states_known()

    @staticmethod
    def _keep(t: Any) -> None:
        """The summaries made and the files found clean, kept in ``.cache/`` (not only at a
        clean exit): a start after a crash or a kill reads and checks no file twice."""
        t.index.save()
        t.save_checks()

    def _rows_on_screen(self) -> set[str]:
        """The games whose rows the table shows now: its height less its header (each
        one more is a game read, verified and folded before the states are shown)."""
        table = self.query_one("#games", DataTable)
        top = int(table.scroll_y)
        header = table.header_height if table.show_header else 0
        shown = max(0, table.scrollable_content_region.height - header)
        return {str(row.key.value) for row in table.ordered_rows[top : top + shown]}

    def _summarise_slice(
        self,
        t: Any,
        pending: list[str],
        games: Iterator[dict[str, Any]],
        carried: CarriedOver,
        setups: Setups,
        wanted: set[str] | None = None,
    ) -> dict[str, str]:
        """The states of stale games for about one frame (each reads, verifies and folds
        a game file), by game id; ``pending`` in schedule order, ``games`` the schedule
        walked so far, ``carried`` the players disqualified in the games walked (20.05),
        ``setups`` the pass's rosters and settings. ``wanted``: the games on screen whose
        states are still to come; the slice ends with the last of them, so they are shown
        at once (not after the rest of the frame's games below them, issue 24)."""
        names = t.team_names()
        out: dict[str, str] = {}
        deadline = time.monotonic() + FILL_SLICE_S
        while pending:  # one game at least
            g = next(games, None)
            if g is None:  # the schedule changed under the pass: the rest as before
                gid = pending.pop(0)
                summary, g = t.game_summary(gid), t.game(gid)
            else:
                disqualified = carried.before(g)  # every game in order, shown or not
                if g["id"] != pending[0]:  # its state is shown already: its summary is current
                    carried.add(self._known.get(g["id"]) or {})
                    continue
                gid = pending.pop(0)
                summary = t.game_summary(gid, disqualified, setups, g)
            carried.add(summary)
            self._note_damaged(gid, summary)
            if g is not None:
                out[g["id"]] = state_text(summary, g["team_a"], g["team_b"], names)
                if wanted and g["id"] in wanted:
                    wanted.discard(g["id"])
                    if not wanted:  # the last state on screen: shown now
                        break
            if time.monotonic() >= deadline:
                break
        return out

    def _show_states(self, states: dict[str, str]) -> None:
        """The states in their cells (each replaces a "…"), the column widened to the
        longest as a warm start draws it ("итог 3:0 · закрыта", not "итог 3:0 · за"): only
        the widest is measured by the table, last (the table measures every cell of the
        column again for each measured cell narrower than the column)."""
        table = self.query_one("#games", DataTable)
        shown = sorted(
            (
                (gid, self._cell_text(gid, text))
                for gid, text in states.items()
                if gid in table.rows
            ),
            key=lambda item: cell_len(item[1]),
        )
        cells: dict[str, Text] = {}  # one cell per distinct state, shared by its rows
        for gid, text in shown[:-1]:
            table.update_cell(gid, self._state_column, cells.setdefault(text, plain_cell(text)))
        column = table.columns[self._state_column]
        for gid, text in shown[-1:]:
            # measured only when it may be wider than the column: the widest of a later
            # batch, no wider, made the table measure the 1,000 cells of the column again
            # (issue 24)
            wider = cell_len(text) > column.content_width
            table.update_cell(gid, self._state_column, plain_cell(text), update_width=wider)
        for gid, text in states.items():
            if gid in self._shown_rows:  # the state whole (the fault line reads it)
                self._shown_rows[gid] = (*self._shown_rows[gid][:4], text)
        self._show_faults()

    def _note_damaged(self, gid: str, summary: dict[str, Any] | None) -> None:
        if summary is not None and summary.get("phase") == "damaged":
            self._damaged[gid] = fault_label(summary.get("fault") or "")
        else:
            self._damaged.pop(gid, None)

    def _cell_text(self, gid: str, state: str) -> str:
        """A game's state as its cell shows it: a fault by its kind only (the line under
        the list says it whole when the game is highlighted; whole in the cell, it widened
        the column beyond an 80-column screen)."""
        return self._damaged.get(gid, state)

    @on(DataTable.RowHighlighted, "#games")
    def _row_highlighted(self) -> None:
        self._show_faults()

    def _show_faults(self) -> None:
        """The fault line under the games, each fault whole and wrapped (a cell or the title
        cuts it at 80 columns): ``tournament.json`` not as the head judge signed it, and the
        highlighted game's file damaged or unsigned, which laptop and what (issue 21).
        Hidden when neither; drawn again only when its text changes."""
        lines = [fault_text(self._tournament_fault)] if self._tournament_fault else []
        if lines and self._signs_here:  # on his laptop
            lines[0] += " · " + _("T: the head judge signs it as it is")
        gid = self._highlighted_game()
        if gid in self._damaged:  # its row's cells as the list shows them, its state whole
            start, field, a, b, _label = map(str, self.query_one("#games", DataTable).get_row(gid))
            fault = self._shown_rows[gid][4]
            lines.append(
                _("Game «{a} — {b}» ({time}, field {field}): {fault}").format(
                    a=a, b=b, time=start, field=field, fault=fault
                )
            )
        text = "\n".join(lines)
        line = self.query_one("#fault-line", Static)
        if str(line.content) != text:
            line.update(text)
        line.display = bool(text)

    # -- actions ------------------------------------------------------------------------
    @on(OptionList.OptionSelected, "#tournaments")
    def tournament_chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id and self.app.open_tournament(Path(event.option.id)):
            self.query_one("#games", DataTable).focus()

    @on(DataTable.RowSelected, "#games")
    def game_chosen(self, event: DataTable.RowSelected) -> None:
        self.app.open_game(str(event.row_key.value))

    def _game_or_say(self) -> str | None:
        """The highlighted game; None, and the judge told so, when there is none."""
        game_id = self._highlighted_game()
        if game_id is None:
            self.notify(_("No game to open"), severity="warning", markup=False)
        return game_id

    def action_open_game(self) -> None:
        if (game_id := self._game_or_say()) is not None:
            self.app.open_game(game_id)

    def action_next_game(self) -> None:
        """N: this laptop's field's game in progress (started, not finished), else its
        next game not played yet (asks the field once)."""
        if not self._need_tournament():
            return
        if not self.app.laptop.field:
            self.action_choose_field(then_next=True)
            return
        t = self.app.tournament
        field = self.app.laptop.field
        game_id = next_game(t, field)  # the field's unfinished game first, then the next
        if game_id is not None:
            table = self.query_one("#games", DataTable)
            table.move_cursor(row=table.get_row_index(game_id), animate=False)
            self.app.open_game(game_id)
            return
        self.notify(
            _("No game left to play on field {field}").format(field=field),
            severity="warning",
            markup=False,
        )

    def action_choose_field(self, then_next: bool = False) -> None:
        """The field this laptop judges (remembered on this laptop)."""
        fields = (
            sorted({g["field"] for g in self.app.tournament.games()}) if self.app.tournament else []
        )

        def check(v: dict[str, str]) -> str | None:
            if fields and v["field"] not in fields:
                return _("No such field; the schedule has: {fields}").format(
                    fields=", ".join(fields)
                )
            return None if v["field"] else _("Type the field")

        def done(values) -> None:
            if values is None:
                return
            self.app.set_laptop_field(values["field"])
            self.reload_games()
            if then_next:
                self.action_next_game()

        label = _("Field") + (f" ({', '.join(fields)})" if fields else "")
        field = Field("field", label, self.app.laptop.field)
        self.app.push_screen(FormScreen(_("This laptop's field"), [field], check), done)

    def action_marker_check(self) -> None:
        game_id = self._highlighted_game()
        if self._need_tournament() and game_id is not None:
            open_marker_check(self.app, game_id)

    def action_judge(self) -> None:
        """Who is judging on this laptop: recorded with every event from now on. Asked in
        the screen itself, so a name typed right behind ``j`` lands in it."""

        def done(name: str) -> None:
            self.app.set_judge(name)
            self.notify(
                _("Events are now recorded as judged by") + f" {self.app.judge}", markup=False
            )

        self.query_one(PromptPanel).ask_text(
            _("Judge name") + " · " + _("Your name"),
            done,
            lambda name: None if name else _("Type your name"),
            initial=self.app.judge,
        )

    async def on_key(self, event: events.Key) -> None:
        """Keys in arrival order: the open prompt takes them, else the binding runs now."""
        await take_key(self, self.query_one(PromptPanel), event)

    action_reload = reload

    def action_new_tournament(self) -> None:
        create_tournament_flow(self.app)

    def _need_tournament(self) -> bool:
        if self.app.tournament is None:
            self.notify(_("Open or create a tournament first"), severity="warning", markup=False)
            return False
        return True

    def action_teams(self) -> None:
        if self._need_tournament():
            self.app.push_screen(TeamsScreen())

    def action_schedule(self) -> None:
        if self._need_tournament():
            self.app.push_screen(ScheduleScreen())

    # -- results (issue 5): protocol, standings, export, merge ---------------------------
    def _highlighted_game(self) -> str | None:
        if self.app.tournament is None:
            return None
        return self.query_one("#games", RowTable).cursor_key()

    def action_protocol(self) -> None:
        if (game_id := self._game_or_say()) is not None:
            self.app.push_screen(ProtocolScreen(game_id))

    def action_standings(self) -> None:
        if self._need_tournament():
            self.app.push_screen(StandingsScreen())

    def action_export(self) -> None:
        export_flow(self.app)

    # -- this laptop's registration: with Syncthing or a USB stick alike ------------------
    def _show_registration(self, unregistered: bool) -> None:
        """A line under the games while the head judge has not registered this laptop:
        until he does, its games count nowhere (not in his standings, not in a merge)."""
        line = self.query_one("#laptop-line", Static)
        if line.display != unregistered:
            line.update(
                "⚠ "
                + _(
                    "This laptop is not registered by the head judge: its games count "
                    "nowhere. Head judge: R, then your secret."
                )
            )
            line.display = unregistered

    def action_register_laptop(self) -> None:
        """The head judge registers this laptop with his secret, on this laptop."""
        t = self.app.tournament
        if not self._need_tournament() or t is None:
            return
        if not t.laptop_unregistered():
            self.notify(
                _("This laptop ({laptop}) is registered by the head judge").format(
                    laptop=t.keys.name
                ),
                markup=False,
            )
            return

        def check(values: Values) -> str | None:  # the service's own check, said at once
            try:
                laptop_name(values["name"])
            except StoreError as exc:
                return rule_text(exc)
            return None

        def run(values: Values) -> str:
            try:
                t.register_laptop(values["pin"], values["name"])
            except StoreError as exc:
                return rule_text(exc)
            self.notify(
                _("This laptop ({laptop}) is registered: its games count").format(
                    laptop=t.keys.name
                ),
                markup=False,
            )
            self._confirmed = None  # every game checked again under the registration
            self._check_tournament()
            return ""

        title = _("Register this laptop in the tournament ({fp})").format(fp=t.keys.fingerprint)
        name = Field("name", _("This laptop's name (e.g. Field 2)"), value=t.keys.name)
        head_judge_form(self.app, title, [name], check, run)

    def action_sign_tournament(self) -> None:
        """The head judge signs ``tournament.json`` as it is now, with his secret: a change
        of the teams or the schedule made on this laptop without it (every team flagged,
        the fault under the games), once he has checked it (t, s)."""
        t = self.app.tournament
        if not self._need_tournament() or t is None:
            return
        if not self._tournament_fault:
            self.notify(_("The teams and schedule are as the head judge signed them"), markup=False)
            return

        def run(values: Values) -> str:
            try:
                t.sign_tournament(values["pin"])
            except StoreError as exc:
                return rule_text(exc)
            self.notify(
                _("The head judge signed the teams and schedule as they are now"), markup=False
            )
            self._check_tournament()
            return ""

        head_judge_form(
            self.app,
            _("Sign the teams and schedule as they are now (check them first: t, s)"),
            [],
            lambda values: None,
            run,
        )

    def action_merge(self) -> None:
        if self._need_tournament():
            self.app.push_screen(MergeScreen())

    def action_quidditch(self) -> None:
        open_quidditch(self.app)

    def on_screen_resume(self) -> None:
        """Fill the lists when first shown and whenever the judge comes back (a game may
        have moved on meanwhile); the first resume follows the mount, which filled them."""
        if self._resumed:
            self.reload()
            self._back_on_game_left()
        self._resumed = True
        self._show_sync()

    def _back_on_game_left(self) -> None:
        """Back from a game's screen: the games list has the focus, on the game that was
        open (the restart offer opens one that may not be highlighted; the judge may have
        pressed ``g`` on the tournaments list) — issue 25, item 8."""
        game_id, self.app.game_left = self.app.game_left, None
        table = self.query_one("#games", DataTable)
        if game_id is None or game_id not in table.rows:
            return
        table.move_cursor(row=table.get_row_index(game_id), animate=False)
        table.focus()

    # -- the pit display (issue 14): a key starts and stops it -----------------------------
    def action_pit_display(self) -> None:
        if self.app.pit_running() or self.app.pit_starting():
            self.app.stop_pit()
            self.notify(_("Pit display stopped"), markup=False)
        elif self._need_tournament():
            self.app.start_pit()  # its panel shows once it listens
        self.show_pit()

    def show_pit(self) -> None:
        line = self.query_one("#pit-line", Static)
        url = self.app.pit_url()
        line.display = bool(url)
        line.update(_("Pit display: {url}  (w: stop)").format(url=url) if url else "")

    # -- the sync status line (issue 15): read in a worker, shown here -------------------
    def _watch_sync(self) -> None:
        t = self.app.tournament
        folder = Path(t.folder) if t is not None else None
        if folder == self._sync_folder:
            return
        self._sync_folder = folder
        if folder is None:
            self.workers.cancel_group(self, "sync")
            self.query_one("#sync-line", Static).update(_("sync off"))
            return

        self._changed_logs = ChangedLogs(t)
        self._conflict_watch = ConflictWatch(t)
        self.poll_sync(self.app.sync_provider(), folder)

    @work(thread=True, exclusive=True, group="sync", exit_on_error=False)
    def poll_sync(self, make: Callable[[Path], SyncStatusProvider], folder: Path) -> None:
        """Every ~2 s: Syncthing's status (short timeouts); posts it when it changed or
        while Syncthing runs, touches nothing (its client is made here, off the first
        frame's path)."""
        worker = get_current_worker()
        try:
            provider = make(folder)
        except Exception as exc:  # noqa: BLE001 - a sync problem never stops judging
            self.post_message(SyncTick(SyncStatus(on=False, reason=str(exc))))
            return
        last: SyncStatus | None = None
        while not worker.is_cancelled:
            try:
                status = provider.status()
            except Exception as exc:  # noqa: BLE001 - a sync problem never stops judging
                status = SyncStatus(on=False, reason=str(exc))
            # posted when it changed, or while Syncthing runs (each tick looks for game
            # files it changed): a message to this screen under a live game's repaints
            # that game's screen whole (Textual draws it as a background; issue 24)
            if status != last or status.on:
                self.post_message(SyncTick(status))
            last = status
            deadline = time.monotonic() + SYNC_EVERY_S
            while time.monotonic() < deadline and not worker.is_cancelled:
                time.sleep(0.1)

    def on_sync_tick(self, message: SyncTick) -> None:
        self._sync_text = status_line(message.status)
        self._show_sync()
        # Game files another laptop changed (Syncthing): released here, on the UI thread
        # (the store is not thread-safe), then the list shows them. Only while Syncthing
        # runs: without it no other laptop writes here, and a file this laptop just wrote
        # (a protocol signed) must not have its open log released under the screen using it.
        t = self.app.tournament
        if not message.status.on:
            return
        if self._changed_logs is None or t is None or self._changed_logs.t is not t:
            return
        busy = [getattr(getattr(s, "session", None), "game_id", "") for s in self.app.screen_stack]
        busy = [b for b in busy if b]
        changed = bool(self._changed_logs.poll(busy=busy))
        # Syncthing's conflict copies: an owner's extension merged here, the rest listed
        # for the head judge (issue 22); a game judged live here is left to its session.
        watch = self._conflict_watch
        if watch is not None and watch.t is t:
            try:
                changed |= bool(watch.poll(busy=busy))
            except StoreError as exc:
                self.notify(rule_text(exc), severity="error", markup=False)
        if changed:
            self.reload_games()

    def _show_sync(self) -> None:
        """The sync line, when it changed, only while this screen is on top: Textual
        repaints the whole screen above a screen that changes under it, so every tick here
        would repaint a live game's screen whole (issue 24); shown again on the return."""
        text = self._sync_text
        if text is None or text == self._sync_shown or not self.is_active:
            return
        self._sync_shown = text
        self.query_one("#sync-line", Static).update(text, layout=False)  # one line

    def on_unmount(self) -> None:
        self.app.stop_pit()
