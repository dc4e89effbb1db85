"""Pre-game marker check at the chrono station (19, 20.02, 32.01).

The team checks in (late → flagged for the head judge as a possible no-show, 32.01); per
player the judge runs the slap test, lets the radar stream readings (velocity, rate of fire
from the intervals, the after-release test, balls against the limit) and records the verdict:
admitted, not admitted ("fix and retest", 19.06) or "plays without a marker" (19.07).  The head
judge approves a team's results with his PIN (19.05).  Events go into the game's log:
``checkin``, ``marker_verdict`` (with the readings and test outcomes) and ``marker_approval``.
A player disqualified in an earlier game (20.05) is never admitted.
"""

from __future__ import annotations

import time
from datetime import datetime

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Footer, Header, Static

from fieldjudge.chrono_checks import APPROVAL, PlayerCheck, checkin_deadline, checkin_late
from fieldjudge.chrono_service import (
    game_state,
    link_tolerance,
    session_config,
    tournament_disqualifications,
    tournament_settings,
)
from fieldjudge.i18n import _
from fieldjudge.pin import check_pin
from fieldjudge.rules.marker_check import FAIL, NOT_DONE, PASS, MarkerCheck
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball import refusal
from fieldjudge.rules.paintball.clock import parse_wall
from fieldjudge.screens.base import JudgeModal, JudgeScreen
from fieldjudge.screens.chrono_feed import ChronoFeed, typed_reading
from fieldjudge.screens.forms import Field, FormScreen, MessageScreen
from fieldjudge.store import Refused

RESULT_TEXT = {
    "admitted": "admitted",
    "not_admitted": "not admitted (19.06)",
    "no_marker": "plays without a marker (19.07)",
}
TEST_NAMES = {
    "slap": "Slap test",
    "velocity": "Velocity",
    "rate_of_fire": "Rate of fire",
    "after_release": "After release",
    "ball_limit": "Balls",
}
OUTCOME_MARK = {PASS: "✓", FAIL: "✗", NOT_DONE: "·"}


def now_local() -> datetime:
    """The wall clock for check-in (naive local, like the schedule). Tests replace it."""
    return datetime.now()


def parse_fps(text: str) -> float | None:
    try:
        v = float(text.strip().replace(",", "."))
    except ValueError:
        return None
    return v if 0 < v < 1000 else None


class MarkerCheckScreen(JudgeScreen):
    CSS_PATH = "chrono.tcss"
    SCREEN_TITLE = "Marker check"
    HELP_TEXT = (
        "Pre-game marker check (19). Check the team in (i), pick a player with Enter, then: "
        "slap test (s passed, x fired), let the player shoot over the radar, press r the "
        "moment the trigger is released, v records the verdict. A failed marker may be fixed "
        "and retested (19.06) or the player plays without a marker (19.07). The head judge "
        "approves a team's results with h and the PIN (19.05)."
    )
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("i", "checkin", "Check in team"),
        Binding("s", "slap(False)", "Slap: no shot"),
        Binding("x", "slap(True)", "Slap: fired"),
        Binding("r", "released", "Trigger released"),
        Binding("b", "missed_ball", "Ball not read +1"),
        Binding("t", "type_reading", "Type a reading"),
        Binding("c", "restart", "Restart check", show=False),
        Binding("v", "verdict", "Verdict"),
        Binding("w", "no_marker", "No marker (19.07)"),
        Binding("h", "approve", "Head judge approval"),
        Binding("p", "chrono_setup", "Chrono port"),
    ]

    def __init__(self, tournament, game_id: str) -> None:
        super().__init__()
        self.t = tournament
        self.game_id = game_id
        self.settings = tournament_settings(tournament)
        self.setup, self.state, self.game_log = game_state(tournament, game_id)
        self.game = tournament.game(game_id) or {}
        self.names = tournament.team_names()
        self.current: PlayerCheck | None = None
        self.last_check: MarkerCheck | None = None
        self.dq: dict = {}
        self._dirty_timer = None
        self._check_cost = 0.0  # seconds the last check_marker took

    # -- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="mc-title", classes="pane-title")
        yield Static("", id="mc-checkins")
        with Horizontal(id="mc-body"):
            with Vertical(id="mc-roster-pane"):
                yield DataTable(id="mc-roster", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="mc-check-pane"):
                yield ChronoFeed(id="feed")
                yield Static("", id="mc-player", classes="pane-title")
                yield Static("", id="mc-tests")
                yield Static("", id="mc-verdict")
                yield Static("", id="mc-tolerance")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#mc-roster", DataTable)
        table.add_columns(_("Team"), "#", _("Name"), _("Result"))
        start = self._start()
        title = _("Marker check") + " · "
        if start:
            title += start.strftime("%H:%M") + " · "
        title += _("Field") + f" {self.game.get('field', '?')} · "
        title += " — ".join(self.names.get(team, team) for team in self.setup.teams)
        self.query_one("#mc-title", Static).update(title)
        self.scan_disqualifications()
        self.reload()
        self._render_check()
        table.focus()

    def on_screen_resume(self) -> None:
        self._render_check()

    # -- data -----------------------------------------------------------------------------
    def _start(self) -> datetime | None:
        try:
            return datetime.fromisoformat(self.game["start"])
        except (KeyError, TypeError, ValueError):
            return None

    def scan_disqualifications(self) -> None:
        self.dq, unreadable = tournament_disqualifications(self.t)
        if unreadable:
            self.notify(
                _("Could not read these game files for disqualifications (20.05)")
                + ": "
                + ", ".join(unreadable),
                severity="warning",
            )

    def reload(self) -> None:
        self.setup, self.state, self.game_log = game_state(self.t, self.game_id)
        table = self.query_one("#mc-roster", DataTable)
        keep = table.cursor_row
        table.clear()
        for team in self.setup.teams:
            for p in self.state.team_players(team):
                if (team, p.number) in self.dq:
                    result = _("DISQUALIFIED (20.05)")
                    if p.marker_result:
                        result += " / " + _(RESULT_TEXT.get(p.marker_result, p.marker_result))
                elif p.marker_result:
                    result = _(RESULT_TEXT.get(p.marker_result, p.marker_result))
                else:
                    result = "—"
                table.add_row(
                    self.names.get(team, team),
                    str(p.number),
                    p.name,
                    result,
                    key=f"{team}|{p.number}",
                )
        if table.row_count:
            table.move_cursor(row=min(max(keep, 0), table.row_count - 1))
        self._render_checkins()

    def _checkin_event(self, team: str):
        found = None
        for e in self.game_log.events:
            if e.type == ev.CHECKIN and str(e.data.get("team")) == team:
                found = e
        return found

    def _approved(self, team: str) -> bool:
        return any(e.type == APPROVAL and e.data.get("team") == team for e in self.game_log.events)

    def _render_checkins(self) -> None:
        start = self._start()
        parts = []
        for team in self.setup.teams:
            name = self.names.get(team, team)
            e = self._checkin_event(team)
            if e is None:
                deadline = (
                    checkin_deadline(start, self.settings.checkin_minutes).strftime("%H:%M")
                    if start
                    else "?"
                )
                parts.append(f"{name}: " + _("not checked in (by") + f" {deadline})")
                continue
            at = e.data.get("at") or ""
            shown = at[11:19] if len(at) >= 19 else _wall_local(e.wall_time)
            text = f"{name}: " + _("checked in") + f" {shown}"
            if self.state.checkins.get(team):
                text += " — " + _("LATE: possible no-show for the head judge (32.01)")
            if self._approved(team):
                text += " — " + _("approved by the head judge")
            parts.append(text)
        self.query_one("#mc-checkins", Static).update("\n".join(parts))

    def _row_player(self) -> tuple[str, int] | None:
        table = self.query_one("#mc-roster", DataTable)
        if not table.row_count:
            return None
        row_key, _col = table.coordinate_to_cell_key(table.cursor_coordinate)
        team, number = str(row_key.value).split("|")
        return team, int(number)

    def _label(self, team: str, number: int) -> str:
        p = self.state.player(team, number)
        name = f" {p.name}" if p else ""
        return f"{self.names.get(team, team)} #{number}{name}"

    # -- appending (app thread only) ------------------------------------------------------
    def _append(self, etype: str, data: dict, *, engine: bool = True) -> bool:
        self.setup, self.state, self.game_log = game_state(self.t, self.game_id)
        if engine:
            why = refusal(self.state, etype, data)
            if why:
                self.app.push_screen(MessageScreen(_("Refused"), why))
                return False
        try:
            self.game_log.append(etype, data, judge=getattr(self.app, "judge", ""))
        except Refused as exc:
            self.app.push_screen(MessageScreen(_("Refused"), str(exc)))
            return False
        except OSError as exc:
            self.app.push_screen(MessageScreen(_("Could not save"), str(exc)))
            return False
        self.reload()
        return True

    # -- chrono feed ------------------------------------------------------------------------
    def on_chrono_feed_reading_received(self, message: ChronoFeed.ReadingReceived) -> None:
        if self.current is None:
            return
        self.current.add(message.reading.fps, message.reading.t)
        self._schedule_render()

    def _schedule_render(self) -> None:
        # The big digits update at once (ChronoFeed); the test table at most every 50 ms, and
        # less often when the check gets expensive (a stuck trigger streaming thousands of
        # readings) so it never takes more than ~5 % of the app thread from the feed.
        if self._dirty_timer is None:
            delay = max(0.05, 20 * self._check_cost)
            self._dirty_timer = self.set_timer(delay, self._timer_render)

    def _timer_render(self) -> None:
        self._dirty_timer = None
        self._render_check()

    def _render_check(self) -> None:
        if not self.is_mounted:
            return
        cfg = session_config(self.app)
        tol = link_tolerance(cfg.baud, cfg.fmt) if cfg else link_tolerance(9600, "auto")
        _set(
            self.query_one("#mc-tolerance", Static),
            _(
                "Rate of fire and after release are timed by this laptop's clock when each "
                "frame arrives (chronographs send no timestamps). The serial link adds up to"
            )
            + f" ±{tol.interval_ms:g} ms "
            + _("between shots and")
            + f" +{tol.delay_ms:g} ms "
            + _("after release; results within it are marked ≈."),
        )
        player = self.query_one("#mc-player", Static)
        tests = self.query_one("#mc-tests", Static)
        verdict = self.query_one("#mc-verdict", Static)
        cur = self.current
        if cur is None:
            self.last_check = None
            _set(player, _("No player: pick one in the list and press Enter"))
            _set(tests, "")
            _set(verdict, "")
            verdict.set_classes("")
            return
        began = time.perf_counter()
        check = cur.result(self.settings, tol.interval_ms)
        self._check_cost = time.perf_counter() - began
        self.last_check = check
        _set(player, _("Checking") + ": " + self._label(cur.team, cur.number))
        lines = []
        for tr in check.tests:
            mark = OUTCOME_MARK.get(tr.outcome, "?") + ("≈" if tr.near_limit else " ")
            lines.append(f"{mark} {_(TEST_NAMES.get(tr.name, tr.name)):<17} {tr.message}")
        release = (
            _("trigger released: marked") if cur.release_t is not None else _("press r on release")
        )
        lines.append(
            f"  {_('Readings')}: {len(cur.shots)}   "
            + _("balls used")
            + f": {check.balls_used} / {self.settings.chrono.max_balls}   {release}"
        )
        _set(tests, "\n".join(lines))
        dq = self.dq.get((cur.team, cur.number))
        if dq is not None:
            _set(
                verdict,
                _("DISQUALIFIED for the tournament (20.05), game")
                + f" {dq.game_id}: {dq.text}. "
                + _("The marker cannot be admitted."),
            )
            verdict.set_classes("verdict-bad")
        elif check.admitted:
            _set(verdict, _("ADMITTED — press v to record"))
            verdict.set_classes("verdict-good")
        else:
            done = all(tr.outcome != NOT_DONE for tr in check.tests)
            _set(
                verdict,
                (_("NOT ADMITTED") if done else _("Not finished"))
                + ": "
                + "; ".join(r for r in check.reasons),
            )
            verdict.set_classes("verdict-bad" if done else "")

    # -- actions --------------------------------------------------------------------------
    @on(DataTable.RowSelected, "#mc-roster")
    def player_chosen(self, _event: DataTable.RowSelected) -> None:
        who = self._row_player()
        if who is None:
            return
        if self.current is None or (self.current.team, self.current.number) != who:
            self.current = PlayerCheck(*who)
        self._render_check()

    def _need_player(self) -> PlayerCheck | None:
        if self.current is None:
            self.notify(_("Pick a player first (Enter on the list)"), severity="warning")
        return self.current

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_checkin(self) -> None:
        who = self._row_player()
        if who is None:
            return
        team = who[0]
        e = self._checkin_event(team)
        if e is not None:
            self.notify(_("This team has checked in already"), severity="warning")
            return
        at = now_local()
        start = self._start()
        late = bool(start and checkin_late(start, at, self.settings.checkin_minutes))
        data = {"team": team, "late": late, "at": at.isoformat(timespec="seconds")}
        if start:
            data["deadline"] = checkin_deadline(start, self.settings.checkin_minutes).isoformat(
                timespec="minutes"
            )
        if self._append(ev.CHECKIN, data) and late:
            self.notify(
                _("Late check-in: the game is flagged as a possible no-show (32.01)"),
                severity="warning",
                timeout=8,
            )

    def action_slap(self, fired: bool) -> None:
        cur = self._need_player()
        if cur is not None:
            cur.slap_fired = fired
            self._render_check()

    def action_released(self) -> None:
        cur = self._need_player()
        if cur is not None:
            cur.release_t = time.monotonic()
            self._render_check()

    def action_missed_ball(self) -> None:
        cur = self._need_player()
        if cur is not None:
            cur.extra_balls += 1
            self._render_check()

    def action_restart(self) -> None:
        cur = self._need_player()
        if cur is not None:
            self.current = PlayerCheck(cur.team, cur.number)
            self._render_check()

    def action_type_reading(self) -> None:
        if self._need_player() is None:
            return

        def check(values: dict[str, str]) -> str | None:
            if parse_fps(values["fps"]) is None:
                return _("Type a speed in fps, e.g. 287.5")
            return None

        def done(values: dict[str, str] | None) -> None:
            if values:
                fps = parse_fps(values["fps"])
                if fps is not None and self.current is not None:
                    self.query_one(ChronoFeed).post_message(
                        ChronoFeed.ReadingReceived(typed_reading(fps))
                    )
                    self.current.typed += 1

        self.app.push_screen(
            FormScreen(_("Type a reading"), [Field("fps", _("Speed, fps"))], check), done
        )

    def action_chrono_setup(self) -> None:
        from fieldjudge.screens.chrono_setup import ChronoSetupScreen

        def done(cfg) -> None:
            if cfg is not None:
                self.query_one(ChronoFeed).start(cfg)
                self._render_check()

        self.app.push_screen(ChronoSetupScreen(session_config(self.app)), done)

    def _record(self, result: str, note: str = "") -> None:
        cur = self.current
        if cur is None:
            return
        check = self.last_check or cur.result(self.settings)
        data = {"team": cur.team, "number": cur.number, "result": result, **cur.record(check)}
        if note:
            data["note"] = note
        if self._append(ev.MARKER_VERDICT, data):
            self.current = None
            self._render_check()
            self.notify(self._label(data["team"], data["number"]) + ": " + _(RESULT_TEXT[result]))

    def action_verdict(self) -> None:
        cur = self._need_player()
        if cur is None:
            return
        self._render_check()
        check = self.last_check
        assert check is not None
        dq = self.dq.get((cur.team, cur.number))
        if dq is not None:
            self.app.push_screen(
                MessageScreen(
                    _("Disqualified (20.05)"),
                    self._label(cur.team, cur.number)
                    + " "
                    + _("was disqualified for the tournament in game")
                    + f" {dq.game_id} ({dq.text}).\n"
                    + _("The marker cannot be admitted; recorded as not admitted."),
                )
            )
            self._record("not_admitted", "20.05: disqualified in game " + dq.game_id)
            return
        if check.admitted:
            self._record("admitted")
            return
        if any(tr.outcome == NOT_DONE for tr in check.tests):
            missing = [_(TEST_NAMES[tr.name]) for tr in check.tests if tr.outcome == NOT_DONE]
            self.app.push_screen(
                MessageScreen(
                    _("Check not finished"),
                    _("These tests are not done yet") + ": " + ", ".join(missing),
                )
            )
            return

        def chosen(choice: str | None) -> None:
            if choice == "fix":
                self._record("not_admitted", "; ".join(check.reasons))
            elif choice == "no_marker":
                self._record("no_marker", "; ".join(check.reasons))

        self.app.push_screen(FailedMarkerScreen(self._label(cur.team, cur.number), check), chosen)

    def action_no_marker(self) -> None:
        who = (
            self._row_player() if self.current is None else (self.current.team, self.current.number)
        )
        if who is None:
            return
        if self.current is None:
            self.current = PlayerCheck(*who)
        self._record("no_marker", "19.07")

    def action_approve(self) -> None:
        who = self._row_player()
        if who is None:
            return
        team = who[0]
        self.setup, self.state, self.game_log = game_state(self.t, self.game_id)
        missing = [p.number for p in self.state.team_players(team) if p.marker_result is None]
        name = self.names.get(team, team)
        if missing:
            self.app.push_screen(
                MessageScreen(
                    _("Not every marker is checked"),
                    f"{name}: " + _("no verdict yet for") + " #" + ", #".join(map(str, missing)),
                )
            )
            return
        if self._approved(team):
            self.notify(_("Already approved"), severity="warning")
            return
        stored = self.t.meta.get("pin")

        def check(values: dict[str, str]) -> str | None:
            if not stored:
                return _("No head judge PIN is set for this tournament")
            if not check_pin(values["pin"], stored):
                return _("Wrong PIN")
            return None

        def done(values: dict[str, str] | None) -> None:
            if values is None:
                return
            results = {str(p.number): p.marker_result for p in self.state.team_players(team)}
            self._append(
                APPROVAL,
                {
                    "team": team,
                    "results": results,
                    "approved_by": str(self.t.meta.get("head_judge", "")),
                },
                engine=False,
            )

        self.app.push_screen(
            FormScreen(
                _("Head judge approval (19.05)") + f": {name}",
                [Field("pin", _("Head judge PIN"), password=True)],
                check,
            ),
            done,
        )


class FailedMarkerScreen(JudgeModal[str | None]):
    """19.06 / 19.07: the marker failed — fix and retest, or play without a marker."""

    BINDINGS = [
        Binding("f", "choose('fix')", "Fix and retest (19.06)"),
        Binding("w", "choose('no_marker')", "Play without a marker (19.07)"),
        Binding("escape", "choose('')", "Cancel"),
    ]

    def __init__(self, who: str, check: MarkerCheck) -> None:
        super().__init__()
        self.who = who
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(_("NOT ADMITTED") + f": {self.who}", classes="dialog-title")
            yield Static("\n".join(self.check.reasons), markup=False)
            yield Static(
                _("f: not admitted, fix and retest (19.06)")
                + "\n"
                + _("w: plays without a marker (19.07)")
                + "\n"
                + _("Esc: back to the check"),
                classes="dialog-keys",
            )

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)


def _set(widget: Static, text: str) -> None:
    """Update a Static only when its text changed, with a layout pass only when the number
    of rows it needs changed (the check refreshes while readings stream in)."""
    old = getattr(widget, "_fj_text", None)
    if old == text:
        return
    widget._fj_text = text  # type: ignore[attr-defined]
    width = max(1, widget.content_size.width)

    def rows(t: str | None) -> int:
        if t is None:
            return -1
        return sum(max(1, -(-len(line) // width)) for line in t.split("\n"))

    widget.update(text, layout=rows(old) != rows(text))


def _wall_local(wall: str) -> str:
    try:
        return parse_wall(wall).astimezone().strftime("%H:%M:%S")
    except ValueError:
        return "?"


def open_marker_check(app, game_id: str) -> None:
    """From the home screen: the marker check of the highlighted game."""
    t = getattr(app, "tournament", None)
    if t is None:
        app.notify(_("Open or create a tournament first"), severity="warning")
        return
    try:
        app.push_screen(MarkerCheckScreen(t, game_id))
    except Exception as exc:  # noqa: BLE001 - a damaged game file or a schedule problem
        from fieldjudge.store import DamagedFile

        if isinstance(exc, DamagedFile):
            app.show_damaged(t.folder, exc)
        else:
            app.push_screen(MessageScreen(_("Cannot open the marker check"), str(exc)))
