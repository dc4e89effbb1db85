"""The live paintball game screen (issue 3): rosters, alive counts, clock, flags and the log.

Every key turns into one event through :class:`fieldjudge.game_session.GameSession`, which
validates it with the rules engine; a refusal is shown in the notice bar, citing the
section. Multi-step actions (team → number → reason) use the inline prompt
(``game_prompt``): keys are handled synchronously and in order, so ``a 4 2 Enter`` typed
at full speed eliminates Medvedi #42 for a hit. The screen renders from the folded state
after every change and reads the clock from the session four times a second.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any

from textual.actions import parse as parse_action
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.events import Key
from textual.widgets import Footer, Static

from fieldjudge.game_session import GameSession
from fieldjudge.i18n import _
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball import model as m
from fieldjudge.rules.paintball.checks import game_phase_refusal
from fieldjudge.rules.paintball.setup import needs_second_player
from fieldjudge.rules.timefmt import format_time_left
from fieldjudge.screens.base import JudgeScreen
from fieldjudge.screens.game_checks import CheckActions
from fieldjudge.screens.game_corrections import CorrectionActions
from fieldjudge.screens.game_flags import FlagActions, ref
from fieldjudge.screens.game_prompt import Choice, PromptPanel
from fieldjudge.screens.game_text import (
    PHASE_HINT,
    REASON_KEYS,
    Namer,
    clock,
    describe,
    reason_with_section,
)
from fieldjudge.screens.game_widgets import (
    ClockPanel,
    EventLogView,
    FlagsBar,
    RosterPanel,
    TeamHeader,
)
from fieldjudge.store import Refused


class GameScreen(FlagActions, CheckActions, CorrectionActions, JudgeScreen):
    SCREEN_TITLE = "Game"
    CSS_PATH = "game.tcss"
    HELP_TEXT = (
        "Space starts or resumes the clock, t calls Time!. a / b eliminate a player of "
        "team A / B: type the shirt number, then one key for the reason (Enter: hit). "
        "2: two opponents hit at once. p: paint check, n: neutral (again on the same "
        "player: the outcome). f: flag capture, h: hand-over, H: flag hang (the touch is "
        "recorded at once, then the paint check and chrono of the carrier). c: in-game "
        "chrono. u undoes the last event, v voids any event with a reason. i: post-game "
        "inspection. E ends the game by the judge's decision (with a reason, flagged for the "
        "head judge). Esc cancels a prompt, or goes back."
    )
    BINDINGS = [
        Binding("space", "start_resume", "Start/resume"),
        Binding("t,е", "time_stop", "Time!"),
        Binding("a,ф", "eliminate('a')", "Out A"),
        Binding("b,и", "eliminate('b')", "Out B"),
        Binding("e,у", "eliminate", "Eliminate", show=False),
        Binding("2", "simultaneous", "Both hit", show=False),
        Binding("u,г", "undo", "Undo"),
        Binding("H,Р", "flag_hang", "Flag hang", key_display="H"),
        Binding("f,а", "capture", "Capture", show=False),
        Binding("h,р", "handover", "Hand-over", show=False),
        Binding("p,з", "paint_check", "Paint check", show=False),
        Binding("n,т", "neutral", "Neutral", show=False),
        Binding("c,с", "chrono", "Chrono", show=False),
        Binding("i,ш", "inspection", "Inspection", show=False),
        Binding("v,м", "void", "Void", show=False),
        Binding("E,У", "end_by_judge", "End game (judge)", show=False, key_display="E"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, tournament: Any, game_id: str, session: GameSession | None = None):
        super().__init__()
        try:
            judge = str(getattr(self.app, "judge", "") or "")
        except Exception:  # noqa: BLE001 - built outside a running app
            judge = ""
        self.session = session or GameSession(tournament, game_id, judge=judge)
        self._last_phase = self.session.state.phase
        self.notice_text = ""
        self._hang_mode = False
        self._hang_source = "typed"
        self._notice_lines = 0

    # -- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        s = self.session
        a, b = s.teams
        g = s.game
        title = f"{_('Field')} {g.get('field', '?')} · {str(g.get('start', ''))[-5:]}"
        yield Static(f"{title} · {s.team_name(a)} — {s.team_name(b)}", id="game-title")
        yield Horizontal(
            TeamHeader("a", a, s.team_name(a)),
            ClockPanel(id="clock-panel"),
            TeamHeader("b", b, s.team_name(b)),
            id="scoreboard",
        )
        yield FlagsBar(s.teams)
        yield Horizontal(
            RosterPanel("a", a, s.state.team_players(a)),
            RosterPanel("b", b, s.state.team_players(b)),
            id="rosters",
        )
        yield Static("", id="notice")
        yield Vertical(PromptPanel(), EventLogView(id="event-log"), id="log-pane")
        yield Footer()

    @property
    def prompt(self) -> PromptPanel:
        return self.query_one(PromptPanel)

    def on_mount(self) -> None:
        self.refresh_all()
        self.set_interval(0.25, self.tick)

    def on_screen_resume(self) -> None:
        # back from a dialog or another screen (e.g. the chrono screen): show the new state
        if self.is_mounted:
            self.refresh_all()

    def on_key(self, event: Key) -> None:
        """Every key of this screen is handled here, synchronously and in arrival order:
        an open prompt takes it, else the screen's own binding runs at once. (Textual
        checks bindings only after a key bubbled back to the app, behind keys already
        queued for the screen: ``a42`` typed in one burst would reach the prompt before
        ``a`` opened it.)"""
        if event.key in ("ctrl+q", "f1", "ctrl+p"):
            return
        if self.prompt.active:
            event.stop()
            event.prevent_default()
            self.prompt.handle_key(event)
            if not self.prompt.active and not self.notice_text:
                self._show_notice()
            return
        bindings = self._bindings.key_to_bindings.get(event.key)
        if not bindings:
            return
        dest, name, params = parse_action(bindings[0].action)
        action = getattr(self, f"action_{name}", None)
        if dest or action is None:
            return  # an inherited binding of another namespace (tab: app.focus_next)
        event.stop()
        event.prevent_default()
        action(*params)

    # -- rendering ------------------------------------------------------------------------
    def refresh_all(self) -> None:
        """Render everything from the folded state. Grandchildren mount in their parents'
        own tasks, so right after mounting (on a busy app) some may not exist yet: retry
        after the next refresh."""
        try:
            self._refresh_all()
        except NoMatches:
            self.call_after_refresh(self.refresh_all)

    def _refresh_all(self) -> None:
        s = self.session
        st = s.state
        namer = Namer(s.names, st)
        for side, team in zip("ab", s.teams, strict=True):
            self.query_one(f"#team-head-{side}", TeamHeader).show(st.alive(team))
            self.query_one(f"#roster-{side}", RosterPanel).show(st)
        self.query_one(FlagsBar).show(st, namer)
        self.query_one(ClockPanel).show(s)
        self.query_one(EventLogView).show(s, namer)
        self._show_notice()
        if st.phase == m.INSPECTION and self._last_phase not in (m.INSPECTION, m.FINAL):
            self.call_after_refresh(self.action_inspection)
        self._last_phase = st.phase

    def _show_notice(self) -> None:
        bar = self.query_one("#notice", Static)
        text = self.notice_text or _(PHASE_HINT.get(self.session.state.phase, ""))
        # one line or two: a layout pass only when that changes (it costs a frame)
        lines = 1 if len(text) <= max(1, bar.size.width - 2) else 2
        bar.update(text, layout=lines != self._notice_lines)
        self._notice_lines = lines
        bar.set_class(self.notice_text.startswith("⚠"), "refused")

    def say(self, text: str) -> None:
        self.notice_text = text
        self._show_notice()

    def refuse(self, why: Any) -> None:
        """Show a refusal: an engine message (or a ``Refused``) in the UI language."""
        self.say(f"⚠ {self.session.humanize(why)}")

    def tick(self) -> None:
        try:
            end = self.session.tick()
        except Refused as exc:  # e.g. a locked protocol
            self.refuse(exc)
            return
        if end is not None:
            self.notice_text = _("Time ran out: the game is over (0:00)")
            self.refresh_all()
        else:
            with suppress(NoMatches):
                self.query_one(ClockPanel).show(self.session)

    # -- helpers ----------------------------------------------------------------------------
    def record(self, etype: str, data: dict[str, Any], done: str = "") -> bool:
        """Append one event; show the refusal (citing the section) if any."""
        try:
            e = self.session.append(etype, data)
        except Refused as exc:
            self.refuse(exc)
            return False
        namer = Namer(self.session.names, self.session.state)
        self.notice_text = done or f"✓ {clock(e.game_clock_ms)} {describe(e, namer)}"
        self.refresh_all()
        return True

    def phase_refused(self, etype: str) -> bool:
        why = game_phase_refusal(self.session.state, etype)
        if why:
            self.refuse(why)
        return bool(why)

    def team_of(self, side: str) -> str:
        return self.session.teams[0 if side == "a" else 1]

    def ask_team(self, title: str, then: Callable[[str], None]) -> None:
        a, b = self.session.teams
        self.notice_text = ""
        self.prompt.ask_choice(
            title,
            [Choice("a", a, self.session.team_name(a)), Choice("b", b, self.session.team_name(b))],
            then,
        )

    def ask_number(
        self,
        title: str,
        team: str,
        then: Callable[[int], None],
        validate: Callable[[int], str | None] | None = None,
    ) -> None:
        self.notice_text = ""
        numbers = [p.number for p in self.session.setup.rosters.get(team, ())]
        head = f"{title} — {self.session.team_name(team)}: " + _("shirt number?")
        self.prompt.ask_number(head, then, numbers, self._humane(validate))

    def _humane(self, validate: Callable[[Any], str | None] | None):
        if validate is None:
            return None

        def check(value: Any) -> str | None:
            why = validate(value)
            return self.session.humanize(why) if why else None

        return check

    def with_second(
        self, team: str, offender: int, data: dict[str, Any], etype: str, then: Callable
    ) -> None:
        """29.08: ask the second player of a group removal 1+1 (same team) when the engine
        needs one, then ``then(data)``."""
        why = self.session.refusal(etype, data)
        if not why or not why.startswith("29.08: group removal"):
            then(data)
            return

        def check(n: int) -> str | None:
            if n == offender:
                return _("29.08: the second player must be another player")
            return self.session.refusal(etype, {**data, "second": n})

        self.ask_number(
            _("Group removal 1+1 (29.08): the second player"),
            team,
            lambda n: then({**data, "second": n}),
            check,
        )

    def elimination_check(self, team: str) -> Callable[[int], str | None]:
        def check(n: int) -> str | None:
            if needs_second_player(self.session.setup.settings, "hit"):
                return None
            return self.session.refusal(
                ev.ELIMINATION, {"reason": "hit", "players": [ref(team, n)]}
            )

        return check

    def label(self, team: str, number: int) -> str:
        return Namer(self.session.names, self.session.state).player_full(team, number)

    # -- clock ------------------------------------------------------------------------------
    def _left(self) -> str:
        return format_time_left(self.session.remaining_ms())

    def action_start_resume(self) -> None:
        st = self.session.state
        if st.phase == m.NOT_STARTED:
            self.record(ev.CLOCK_START, {}, "▶ " + _("Clock started"))
        elif st.phase == m.STOPPED:
            self.record(ev.CLOCK_RESUME, {}, "▶ " + _("Clock resumed at") + f" {self._left()}")
        elif st.phase == m.RUNNING:
            self.say(_("The clock is running; t calls Time!"))
        else:
            self.refuse(game_phase_refusal(st, ev.CLOCK_RESUME) or st.phase)

    def action_time_stop(self) -> None:
        self.record(ev.TIME_STOP, {}, "⏸ " + _("Time! Clock stopped at") + f" {self._left()}")

    # -- eliminations ---------------------------------------------------------------------
    def action_eliminate(self, side: str | None = None) -> None:
        if self.phase_refused(ev.ELIMINATION):
            return
        if side is None:
            self.ask_team(_("Eliminate: which team?"), self._eliminate_team)
        else:
            self._eliminate_team(self.team_of(side))

    def _eliminate_team(self, team: str) -> None:
        self.ask_number(
            _("Eliminate"),
            team,
            lambda n: self._eliminate_reason(team, n),
            self.elimination_check(team),
        )

    def _eliminate_reason(self, team: str, number: int) -> None:
        self.prompt.ask_choice(
            _("Reason for") + f" {self.label(team, number)}:",
            [Choice(k, r, reason_with_section(r)) for k, r in REASON_KEYS],
            lambda reason: self._eliminate_record(team, number, reason),
            default="hit",
        )

    def _eliminate_record(self, team: str, number: int, reason: str) -> None:
        data: dict[str, Any] = {"reason": reason, "players": [ref(team, number)]}
        self.with_second(team, number, data, ev.ELIMINATION, self._record_elimination)

    def _record_elimination(self, data: dict[str, Any]) -> None:
        self.record(ev.ELIMINATION, data)

    def action_simultaneous(self) -> None:
        """26: two opponents hit at once → both out in one entry."""
        if self.phase_refused(ev.ELIMINATION):
            return
        a, b = self.session.teams

        def second(na: int) -> None:
            self.ask_number(
                _("Both hit (26)"),
                b,
                lambda nb: self.record(
                    ev.ELIMINATION, {"reason": "hit", "players": [ref(a, na), ref(b, nb)]}
                ),
                self.elimination_check(b),
            )

        self.ask_number(_("Both hit (26)"), a, second, self.elimination_check(a))

    def action_back(self) -> None:
        self.app.pop_screen()
