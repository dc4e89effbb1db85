"""Pre-game marker check at the chrono station (19, 20.02, 32.01).

The team checks in (late → flagged for the head judge as a possible no-show, 32.01); per
player the judge runs the slap test, lets the radar stream readings (velocity, rate of fire
from the intervals, the after-release test, balls against the limit) and records the verdict:
admitted, not admitted ("fix and retest", 19.06) or "plays without a marker" (19.07).  The head
judge approves a team's results with his secret (19.05).  Events go into the game's log:
``checkin``, ``marker_verdict`` (with the readings and test outcomes) and ``marker_approval``.
A player disqualified in an earlier game (20.05) is never admitted.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Header, Static

from fieldjudge.i18n import _, rule_text
from fieldjudge.rules.chrono_checks import (
    ADMITTED,
    DISQUALIFIED,
    UNFINISHED,
    PlayerCheck,
    approved,
    checkin_data,
    checkin_deadline,
    checkin_event,
    missing_verdicts,
    unfinished_tests,
    verdict_step,
)
from fieldjudge.rules.marker_check import ACCEPTANCE_ITEMS, MarkerCheck
from fieldjudge.screens import keymap
from fieldjudge.screens.base import JudgeScreen
from fieldjudge.screens.chrono.acceptance import AcceptanceProblemScreen
from fieldjudge.screens.chrono.dialogs import (
    FailedMarkerScreen,
    ask_head_judge_pin,
    ask_typed_reading,
    choose_chrono_port,
    explain_failed_append,
)
from fieldjudge.screens.chrono.feed import ChronoFeed, session_config
from fieldjudge.screens.chrono.text import (
    check_verdict,
    checkin_line,
    disqualified_message,
    names_of_tests,
    player_label,
    result_text,
    roster_result,
    tests_table,
    tolerance_note,
)
from fieldjudge.screens.chrono.widgets import set_text
from fieldjudge.screens.dialogs.forms import MessageScreen
from fieldjudge.screens.dialogs.lineup import LineupScreen
from fieldjudge.screens.widgets.footer import Footer
from fieldjudge.screens.widgets.prompt import PromptPanel, take_key
from fieldjudge.screens.widgets.table import RowTable
from fieldjudge.services import DamagedFile, Refused
from fieldjudge.services.paintball.chrono import (
    link_tolerance,
    tournament_disqualifications,
    tournament_settings,
)
from fieldjudge.services.paintball.marker_check import MarkerCheckService

NARROW_NAME = 12  # the roster's name column at 80 columns (issue 25, item 7)


def now_local() -> datetime:
    """The wall clock for check-in (naive local, like the schedule). Tests replace it."""
    return datetime.now()


#: the steps of a player's check (19.03-19.06): nothing to do before a player is picked
CHECK_STEPS = frozenset(
    {
        "slap(False)",
        "slap(True)",
        "released",
        "missed_ball",
        "type_reading",
        "accept",
        "modes('ok')",
        "verdict",
    }
)


class MarkerCheckScreen(JudgeScreen):
    CSS_PATH = "chrono.tcss"
    SCREEN_TITLE = "Marker check"
    # an 80-column terminal: a narrower roster, the tests without their names' column
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    HELP_TEXT = (
        "Pre-game marker check (19). Check the team in (i), pick a player with Enter, then: "
        "slap test (s passed, x fired), let the player shoot over the radar, press r the "
        "moment the trigger is released, v records the verdict. A failed marker may be fixed "
        "and retested (19.06) or the player plays without a marker (19.07). The head judge "
        "approves a team's results with h and the head judge's secret (19.05). 19.03: a accepts the marker for "
        "the check, A marks what was found (refused). 19.04: m modes ok, M forbidden mode. c "
        "restarts the check; the balls used so far still count (140, 19.05)."
    )
    BINDINGS = keymap.bindings("marker_check")

    def __init__(self, tournament, game_id: str) -> None:
        super().__init__()
        self.t = tournament
        self.game_id = game_id
        self.service = MarkerCheckService(tournament, game_id, judge=self.app.judge)
        self.settings = tournament_settings(tournament)
        self.setup, self.state, self.game_log = self.service.state()
        self.game = tournament.game(game_id) or {}
        self.names = tournament.team_names()
        self.current: PlayerCheck | None = None
        self.last_check: MarkerCheck | None = None
        self.dq: dict = {}
        self._dirty_timer = None
        self._check_cost = 0.0  # seconds the last check_marker took
        self._resting_shown = True  # the footer shows no step of a check (no player yet)

    # -- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="mc-title", classes="pane-title", markup=False)
        yield Static("", id="mc-checkins", markup=False)
        with Horizontal(id="mc-body"):
            # the chronograph under the roster, the check's results beside them: at 80×24
            # the verdict and every test (velocity, rate of fire, after release, an
            # interval not measured) are on screen, not below a feed (issue 25, item 7)
            with Vertical(id="mc-roster-pane"):
                yield RowTable(id="mc-roster")
                yield ChronoFeed(id="feed")
            # the player being checked stays named above the results, which scroll to
            # their verdict
            with Vertical(id="mc-check-side"):
                yield Static("", id="mc-player", classes="pane-title", markup=False)
                with VerticalScroll(id="mc-check-pane"):
                    yield Static("", id="mc-tests", markup=False)
                    yield Static("", id="mc-verdict", markup=False)
                    yield Static("", id="mc-tolerance", markup=False)
        yield PromptPanel()  # a typed reading (t), in the screen itself (screens/keys.py)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#mc-roster", DataTable)
        table.add_columns(_("Team"), "#")
        # 80 columns: a name longer than the column ends in "…", the result column whole
        table.add_column(_("Name"), width=NARROW_NAME if self.app.size.width < 110 else None)
        table.add_column(_("Result"))
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

    async def on_key(self, event: events.Key) -> None:
        """Keys in arrival order: the open prompt takes them, else the binding runs now."""
        await take_key(self, self.query_one(PromptPanel), event)

    def on_screen_resume(self) -> None:
        self._render_check()

    def on_resize(self) -> None:
        """The width class (``-narrow``) is set on a resize: the tests drawn for it."""
        self.call_after_refresh(self._render_check)

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
                markup=False,
            )

    def reload(self) -> None:
        self.setup, self.state, self.game_log = self.service.state()
        players = [(team, p) for team in self.setup.teams for p in self.state.team_players(team)]
        self.query_one("#mc-roster", RowTable).refill(
            (
                (
                    self.names.get(team, team),
                    str(p.number),
                    Text(p.name, no_wrap=True, overflow="ellipsis"),
                    roster_result(p.marker_result, (team, p.number) in self.dq)
                    + (" · " + _("not in the line-up") if p.benched else ""),
                )
                for team, p in players
            ),
            [f"{team}|{p.number}" for team, p in players],
        )
        self._render_checkins()

    def _render_checkins(self) -> None:
        start = self._start()
        minutes = self.settings.checkin_minutes
        deadline = checkin_deadline(start, minutes).strftime("%H:%M") if start else "?"
        events = self.game_log.events
        lines = [
            checkin_line(
                self.names.get(team, team),
                checkin_event(events, team),
                deadline=deadline,
                late=bool(self.state.checkins.get(team)),
                approved=approved(events, team),
            )
            for team in self.setup.teams
        ]
        self.query_one("#mc-checkins", Static).update("\n".join(lines))

    def _row_player(self) -> tuple[str, int] | None:
        key = self.query_one("#mc-roster", RowTable).cursor_key()
        if key is None:
            return None
        team, number = key.split("|")
        return team, int(number)

    def _row_team(self) -> str | None:
        who = self._row_player()
        return None if who is None else who[0]

    def _label(self, team: str, number: int) -> str:
        return player_label(self.names.get(team, team), number, self.state.player(team, number))

    # -- appending (app thread only) ------------------------------------------------------
    def _run(self, act: Callable[[], object]) -> bool:
        """Run one write of the marker-check service; show its refusal (citing the
        section) or the write error."""
        try:
            act()
        except Refused as exc:
            self.app.push_screen(MessageScreen(_("Refused"), rule_text(exc, self.names)))
            return False
        except OSError as exc:
            explain_failed_append(self.app, exc)
            return False
        self.reload()
        return True

    # -- chrono feed ------------------------------------------------------------------------
    def on_chrono_feed_reading_received(self, message: ChronoFeed.ReadingReceived) -> None:
        if self.current is None:
            return
        self.current.add_reading(message.reading)
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

    def resting_actions(self) -> frozenset[str]:
        """The footer's keys with nothing to do now (``widgets/footer.py``; each still
        says so): the steps of a player's check while no player is being checked."""
        return CHECK_STEPS if self.current is None else frozenset()

    def _render_check(self) -> None:
        if not self.is_mounted:
            return
        if (self.current is None) != self._resting_shown:  # the footer's keys for it
            self._resting_shown = self.current is None
            self.refresh_bindings()
        cfg = session_config(self.app)
        tol = link_tolerance(cfg.baud, cfg.fmt) if cfg else link_tolerance(9600, "auto")
        set_text(self.query_one("#mc-tolerance", Static), tolerance_note(tol))
        player = self.query_one("#mc-player", Static)
        tests = self.query_one("#mc-tests", Static)
        verdict = self.query_one("#mc-verdict", Static)
        cur = self.current
        if cur is None:
            self.last_check = None
            set_text(player, _("No player: pick one in the list and press Enter"))
            set_text(tests, "")
            set_text(verdict, "")
            verdict.set_classes("")
            return
        began = time.perf_counter()
        check = cur.result(self.settings, tol.interval_ms)
        self._check_cost = time.perf_counter() - began
        self.last_check = check
        set_text(player, _("Checking") + ": " + self._label(cur.team, cur.number))
        c = self.settings.chrono
        compact = self.has_class("-narrow")
        set_text(tests, tests_table(check, cur, c.max_balls, c.after_release_window_ms, compact))
        text, classes = check_verdict(check, self.dq.get((cur.team, cur.number)), compact)
        set_text(verdict, text)
        verdict.set_classes(classes)
        # the tests and the verdict under them in view (the timing note may go below)
        self.call_after_refresh(self._verdict_in_view)

    def _verdict_in_view(self) -> None:
        if self.is_mounted and self.current is not None:
            pane = self.query_one("#mc-check-pane", VerticalScroll)
            pane.scroll_to_widget(self.query_one("#mc-verdict", Static), animate=False)

    # -- actions --------------------------------------------------------------------------
    @on(DataTable.RowSelected, "#mc-roster")
    def player_chosen(self, _event: DataTable.RowSelected) -> None:
        who = self._row_player()
        if who is None:
            return
        why = self.service.player_refusal(self.state, who[0])  # 19.01: checked in first
        if why is not None:
            self.app.push_screen(MessageScreen(_("Refused"), rule_text(why, self.names)))
            return
        if self.current is None or (self.current.team, self.current.number) != who:
            self.current = PlayerCheck(*who)
        self._render_check()

    def _need_player(self) -> PlayerCheck | None:
        if self.current is None:
            self.notify(
                _("Pick a player first (Enter on the list)"), severity="warning", markup=False
            )
        return self.current

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_checkin(self) -> None:
        team = self._row_team()
        if team is None:
            return
        if checkin_event(self.game_log.events, team) is not None:
            self.notify(_("This team has checked in already"), severity="warning", markup=False)
            return
        at, start, minutes = now_local(), self._start(), self.settings.checkin_minutes
        late = checkin_data(team, at, start, minutes)["late"]
        if not self._run(lambda: self.service.checkin(team, at, start, minutes)):
            return
        if late:
            self.notify(
                _("Late check-in: the game is flagged as a possible no-show (32.01)"),
                severity="warning",
                timeout=8,
                markup=False,
            )
        choice = self.service.lineup_choice(team)
        if len(choice.roster) > choice.team_size:  # 30.01: substitutes: who plays?
            self._ask_lineup(team)

    def action_lineup(self) -> None:
        """30.01: who of the highlighted team plays this game."""
        team = self._row_team()
        if team is not None:
            self._ask_lineup(team)

    def _ask_lineup(self, team: str) -> None:
        def save(numbers: list[int]) -> str | None:
            try:
                self.service.lineup(team, numbers)
            except Refused as exc:
                return rule_text(exc, self.names)
            except OSError as exc:
                return str(exc)
            return None

        name = self.names.get(team, team)
        self.app.push_screen(
            LineupScreen(self.service.lineup_choice(team), name, save), lambda _n: self.reload()
        )

    def _step(self, change: Callable[[PlayerCheck], object]) -> None:
        """A step of the check of the player being checked (``change``), then the check
        drawn again (none: the judge is told to pick a player)."""
        cur = self._need_player()
        if cur is not None:
            change(cur)
            self._render_check()

    def action_slap(self, fired: bool) -> None:
        self._step(lambda cur: setattr(cur, "slap_fired", fired))

    def action_released(self) -> None:
        self._step(lambda cur: setattr(cur, "release_t", time.monotonic()))

    def action_missed_ball(self) -> None:
        self._step(lambda cur: setattr(cur, "extra_balls", cur.extra_balls + 1))

    def action_restart(self) -> None:
        # 19.05: the balls spent so far still count
        self._step(lambda cur: setattr(self, "current", cur.restarted()))

    def action_accept(self) -> None:
        """19.03: the marker is accepted for the check: no foreign object, no loose parts,
        no adjuster that works without tools."""
        self._step(lambda cur: setattr(cur, "acceptance", dict.fromkeys(ACCEPTANCE_ITEMS, False)))

    def action_accept_problem(self) -> None:
        """19.03: the judge marks what he found (the marker is refused for the check)."""
        cur = self._need_player()
        if cur is None:
            return

        def done(found: list[str] | None) -> None:
            if found:
                cur.acceptance = {k: k in found for k in ACCEPTANCE_ITEMS}
                self._render_check()

        self.app.push_screen(AcceptanceProblemScreen(), done)

    def action_modes(self, result: str) -> None:
        """19.04: the forbidden-mode step (ok, or the marker fires in a forbidden mode)."""
        self._step(lambda cur: setattr(cur, "modes", result))

    def action_type_reading(self) -> None:
        if self._need_player() is not None:
            ask_typed_reading(self)

    def action_chrono_setup(self) -> None:
        choose_chrono_port(self, then=self._render_check)

    # -- the verdict (19.05-19.07, 20.05): v verdict, w no marker, h head judge approval --
    def _record(self, result: str, note: str = "") -> None:
        cur = self.current
        if cur is None:
            return
        check = self.last_check or cur.result(self.settings)
        team, number = cur.team, cur.number
        if self._run(lambda: self.service.verdict(team, number, result, cur.record(check), note)):
            self.current = None
            if result != "not_admitted":  # 19.06: a failed marker is fixed and checked again
                self._highlight_next(team, number)
            self._render_check()
            self.notify(self._label(team, number) + ": " + result_text(result), markup=False)

    def _highlight_next(self, team: str, number: int) -> None:
        """After a player's last verdict (admitted, or playing without a marker) the
        list's highlight moves to the next player without one (in the roster's order,
        round to the top), so Enter starts his check at once; it stays when every player
        has one."""
        rows = [(t, p) for t in self.setup.teams for p in self.state.team_players(t)]  # reload's
        here = next((i for i, (t, p) in enumerate(rows) if (t, p.number) == (team, number)), None)
        if here is None:
            return
        for i in [*range(here + 1, len(rows)), *range(here)]:
            if rows[i][1].marker_result is None:
                self.query_one("#mc-roster", RowTable).move_cursor(row=i)
                return

    def action_verdict(self) -> None:
        cur = self._need_player()
        if cur is None:
            return
        self._render_check()
        check = self.last_check
        assert check is not None
        dq = self.dq.get((cur.team, cur.number))
        step = verdict_step(check, dq is not None)
        if step == DISQUALIFIED:
            label = self._label(cur.team, cur.number)
            self.app.push_screen(
                MessageScreen(_("Disqualified (20.05)"), disqualified_message(label, dq))
            )
            self._record("not_admitted", "20.05: disqualified in game " + dq.game_id)
        elif step == ADMITTED:
            self._record("admitted")
        elif step == UNFINISHED:
            missing = ", ".join(names_of_tests(unfinished_tests(check)))
            why = _("These tests are not done yet") + ": " + missing
            self.app.push_screen(MessageScreen(_("Check not finished"), why))
        else:
            self.app.push_screen(
                FailedMarkerScreen(self._label(cur.team, cur.number), check),
                lambda choice: self._failed_choice(choice, check),
            )

    def _failed_choice(self, choice: str | None, check: MarkerCheck) -> None:
        if choice == "fix":
            self._record("not_admitted", "; ".join(check.reasons))
        elif choice == "no_marker":
            self._record("no_marker", "; ".join(check.reasons))

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
        team = self._row_team()
        if team is None:
            return
        self.setup, self.state, self.game_log = self.service.state()
        missing = missing_verdicts(self.state.team_players(team))
        name = self.names.get(team, team)
        if missing:
            why = f"{name}: " + _("no verdict yet for") + " #" + ", #".join(map(str, missing))
            self.app.push_screen(MessageScreen(_("Not every marker is checked"), why))
            return
        if approved(self.game_log.events, team):
            self.notify(_("Already approved"), severity="warning", markup=False)
            return

        ask_head_judge_pin(self, name, lambda pin: self.service.approve(team, pin), self.reload)


def open_marker_check(app, game_id: str) -> None:
    """From the home screen (a tournament open): the marker check of the highlighted game."""
    t = app.tournament
    try:
        # 31: a signed game's marker checks are closed: said, not opened
        why = MarkerCheckService(t, game_id).open_refusal()
        if why is not None:
            title = _("Cannot open the marker check")
            app.push_screen(MessageScreen(title, rule_text(why, t.team_names())))
            return
        app.push_screen(MarkerCheckScreen(t, game_id))
    except Exception as exc:  # noqa: BLE001 - a damaged game file or a schedule problem
        if isinstance(exc, DamagedFile):
            app.show_damaged(t.folder, exc)
        else:
            app.push_screen(MessageScreen(_("Cannot open the marker check"), rule_text(exc)))
