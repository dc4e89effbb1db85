"""The live paintball game screen (issue 3): rosters, alive counts, clock, flags and the log.

Every key turns into one event through :class:`fieldjudge.services.paintball.game.GameSession`, which
validates it with the rules engine; a refusal is shown in the notice bar, citing the
section. Multi-step actions (team → number → reason) use the inline prompt
(``game_prompt``): keys are handled synchronously and in order, so ``a 4 2 Enter`` typed
at full speed eliminates Medvedi #42 for a hit. The screen renders from the folded state
after every change and reads the clock from the session four times a second.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.widgets import Static

from fieldjudge.i18n import _, rule_text
from fieldjudge.rules.events import Event
from fieldjudge.rules.messages import Team, joined, rule
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball import model as m
from fieldjudge.rules.paintball.checks import game_phase_refusal
from fieldjudge.rules.paintball.reasons import PLAYING_ON_SECTIONS
from fieldjudge.rules.timefmt import format_time_left
from fieldjudge.screens import keymap
from fieldjudge.screens.base import JudgeScreen
from fieldjudge.screens.dialogs.forms import Field, FormScreen
from fieldjudge.screens.dialogs.lineup import LineupScreen
from fieldjudge.screens.game.checks import CheckActions
from fieldjudge.screens.game.corrections import CorrectionActions
from fieldjudge.screens.game.flags import FlagActions
from fieldjudge.screens.game.text import PHASE_HINT, PLAYING_ON_TEXT, REASON_KEYS
from fieldjudge.screens.game.widgets import (
    ClockPanel,
    EventLogView,
    FlagsBar,
    RosterPanel,
    TeamHeader,
)
from fieldjudge.screens.keys import APP_KEYS, binding_for
from fieldjudge.screens.widgets.faults import fault_text, file_faults
from fieldjudge.screens.widgets.footer import Footer
from fieldjudge.screens.widgets.prompt import Choice, PromptPanel, take_key
from fieldjudge.services import Refused
from fieldjudge.services.paintball.event_text import Namer, clock, describe, reason_with_section
from fieldjudge.services.paintball.game import GameSession, SecondPlayerNeeded
from fieldjudge.services.paintball.lineup import lineup_needed

#: the footer's keys that have nothing to do in a phase: left out of it, so that it shows
#: what the judge does next (the keys still answer, each saying why not, citing the rule)
_NOT_YET = frozenset({"time_stop", "flag_hang", "inspection"})
_IN_PLAY = frozenset({"inspection"})
_OVER = frozenset({"start_resume", "time_stop", "eliminate('a')", "eliminate('b')", "flag_hang"})


def resting_actions(phase: str) -> frozenset[str]:
    """The actions of the footer's keys with nothing to do in ``phase``: Time!, the flag
    hang and the inspection before the start; the inspection in play; the clock,
    eliminations and the hang once the game is over, when the footer offers the
    inspection (18.02) instead."""
    if phase == m.NOT_STARTED:
        return _NOT_YET
    if phase == m.FINAL:
        return _OVER | _IN_PLAY  # inspected: the protocol is next (home screen)
    if phase in (m.ENDED, m.INSPECTION):
        return _OVER
    return _IN_PLAY


class GameScreen(CheckActions, CorrectionActions, FlagActions, JudgeScreen):
    """The live game; the keys of checks (24-25), corrections (18.02, undo, void) and flags
    (20-23) are mixed in from their modules."""

    SCREEN_TITLE = "Game"
    # the chrono styles too: the flag hang's chrono feed mounts in this screen
    CSS_PATH = ["game.tcss", "../chrono/chrono.tcss"]
    HELP_TEXT = (
        "Space starts or resumes the clock, t calls Time!. a / b eliminate a player of "
        "team A / B: type the shirt number, then one key for the reason (Enter: hit). "
        "2: two opponents hit at once. p: paint check, n: neutral (again on the same "
        "player: the outcome). f: flag capture, h: hand-over, H: flag hang (the touch is "
        "recorded at once, then the paint check and chrono of the carrier). c: in-game "
        "chrono. u undoes the last event. v and an event's number in the log voids it with a "
        "reason (the number is taken as soon as no longer one starts with it, else Enter; "
        "↓: pick it from the whole log). i: post-game "
        "inspection. E ends the game by the judge's decision (with a reason, flagged for the "
        "head judge). Before the start: o notes a player's old paint spot (29.10); a / b "
        "eliminate a player who did not lay his marker down (20.07). An eliminated player "
        "named again: playing on (27.02-29.11), the section, then the second player. p / n "
        "with a check open: a digit gives the outcome of that check. Esc cancels a prompt, "
        "or goes back."
    )
    BINDINGS = keymap.bindings("game")

    def __init__(self, tournament: Any, game_id: str, judge: str) -> None:
        super().__init__()
        self.session = GameSession(tournament, game_id, judge=judge)
        self._last_phase = self.session.state.phase
        self.notice_text = ""
        self._notice_lines = 0
        self._after_name: str | None = None  # the action the judge's name prompt held back
        # the widgets every event updates, kept as composed rather than looked up in the
        # DOM at every event (issue 24)
        s = self.session
        sides = list(zip("ab", s.teams, strict=True))
        self._prompt = PromptPanel()
        self._heads = {side: TeamHeader(side, s.team_name(team)) for side, team in sides}
        self._rosters = {
            side: RosterPanel(side, s.state.team_players(team)) for side, team in sides
        }
        self._flags = FlagsBar(s.teams)
        self._clock = ClockPanel(id="clock-panel")
        self._log = EventLogView(id="event-log")
        self._notice = Static("", id="notice", markup=False)

    # -- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        s = self.session
        a, b = s.teams
        g = s.game
        title = f"{_('Field')} {g.get('field', '?')} · {str(g.get('start', ''))[-5:]}"
        # The prompt lies over the bottom of the screen, above the footer (game.tcss). It is
        # the first child: Textual orders the screen's children back to front when it lays
        # them out, so a prompt that opens or closes changes the painting order of none of
        # the others and nothing else is repainted (issue 24: a later prompt moved every
        # widget after it, and each prompt repainted the whole screen).
        yield self._prompt
        yield Static(
            f"{title} · {s.team_name(a)} — {s.team_name(b)}", id="game-title", markup=False
        )
        yield Horizontal(self._heads["a"], self._clock, self._heads["b"], id="scoreboard")
        yield self._flags
        yield Horizontal(self._rosters["a"], self._rosters["b"], id="rosters")
        yield self._notice
        yield Vertical(self._log, id="log-pane")
        yield Footer()

    @property
    def prompt(self) -> PromptPanel:
        return self._prompt

    def on_mount(self) -> None:
        if self.session.state.phase == m.NOT_STARTED:
            warnings = self.session.setup_warnings()  # e.g. 30.01: a team of four
            if warnings:
                self.notice_text = "⚠ " + " · ".join(warnings)
        rosters = self.query_one("#rosters")
        rosters.styles.height = 1 + max(  # its top border and the longer roster
            len(self.session.state.team_players(team)) for team in self.session.teams
        )
        self.refresh_all()
        self._show_faults()
        self.app.game_screen_opened(self.session.game_id)
        self.set_interval(0.25, self.tick)

    def on_unmount(self) -> None:
        # left while in play: the app keeps its clock and ends it at 0:00
        self.app.game_left_in_play(self.session)

    def _show_faults(self) -> None:
        """What of this game, or of the teams and schedule, is not as signed (the check
        verify runs): in the title, above everything the screen shows."""
        t = self.session.tournament
        faults = [*t.game_faults(self.session.game_id)]
        named = file_faults("tournament.json", t.tournament_faults())
        if named:
            faults.append(named)
        if faults:
            title = self.query_one("#game-title", Static)
            title.update(f"{title.render()}  —  {fault_text(joined(faults))}")

    def on_resize(self) -> None:
        self.call_after_refresh(self._show_notice)  # one line or two at the new width

    def on_screen_resume(self) -> None:
        # back from a dialog or another screen (e.g. the chrono screen): show the new state
        if self.is_mounted:
            self.refresh_all()

    async def on_key(self, event: Key) -> None:
        """Every key of this screen is taken here, in arrival order: an open prompt takes
        it, else this screen's binding runs now (``screens/keys.py``), before the next key
        is read; a Russian-layout letter acts as the key in its place. No judge's name on
        this laptop yet: a key that would record an event asks it first (31), then runs."""
        was_open = self.prompt.active
        if not was_open and not self.session.judge and event.key not in APP_KEYS:
            active = binding_for(self, event)
            if (
                active is not None
                and active.node is self
                and active.enabled
                and active.binding.action != "back"
            ):
                event.stop()
                event.prevent_default()
                self._ask_judge(active.binding.action)
                return
        await take_key(self, self.prompt, event)
        if was_open and not self.prompt.active:
            held, self._after_name = self._after_name, None
            if held is not None and self.session.judge:
                await self.run_action(held)  # the key that asked for the name
            if not self.prompt.active and not self.notice_text:
                self._show_notice()

    def _ask_judge(self, action: str) -> None:
        """31: every step names who did it. No name on this laptop yet: asked before the
        first event is recorded, then the key that asked runs; remembered on this laptop."""

        def named(name: str) -> None:
            self.session.judge = name
            set_judge = getattr(self.app, "set_judge", None)
            if set_judge is not None:
                set_judge(name)

        self._after_name = action
        self.prompt.ask_text(
            _("Your name, the judge of this game (recorded with every event)"),
            named,
            validate=lambda v: _("Type your name") if not v else None,
        )

    # -- rendering ------------------------------------------------------------------------
    def refresh_all(self) -> None:
        """Render everything from the folded state (each widget repaints only what
        changed)."""
        s = self.session
        st = s.state
        namer = Namer(s.names, st)
        for side, team in zip("ab", s.teams, strict=True):
            self._heads[side].show(st.alive(team))
            self._rosters[side].show(st)
        self._flags.show(st, namer)
        self._clock.show(s)
        self._log.show(s, namer)
        if (why := s.take_backup_error()) is not None:  # the closed game's copy (DESIGN.md)
            self.notice_text = "⚠ " + _(
                "The closing copy of the game file was not written ({why}); the game itself "
                "is saved"
            ).format(why=rule_text(why))
        self._show_notice()
        if st.phase == m.INSPECTION and self._last_phase not in (m.INSPECTION, m.FINAL):
            self.call_after_refresh(self.action_inspection)
        if resting_actions(st.phase) != resting_actions(self._last_phase):
            self.refresh_bindings()  # the footer's keys for the new phase
        self._last_phase = st.phase

    def resting_actions(self) -> frozenset[str]:
        """The footer's keys with nothing to do in this phase (``widgets/footer.py``)."""
        return resting_actions(self.session.state.phase)

    def _show_notice(self) -> None:
        bar = self._notice
        st = self.session.state
        phase = st.phase
        text = self.notice_text or _(PHASE_HINT.get(phase, ""))
        if phase == m.NOT_STARTED and not self.notice_text and (team := lineup_needed(st)):
            # 30.01: a roster longer than the team size shows every player in play until
            # the line-up is picked; say that the start asks for it
            text = _(
                "Space: pick who of {team} plays ({count} on the roster, {size} play), "
                "then the clock starts"
            ).format(
                team=self.session.team_name(team),
                count=len(st.lineup(team)),
                size=st.setup.settings.team_size,
            )
        if phase == m.FINAL and self.notice_text and not self.notice_text.startswith("⚠"):
            # how it ended (a counted hang: 23.03), then what comes next: the protocol (31)
            text = f"{self.notice_text} · {_(PHASE_HINT[phase])}"
        only = st.only_team_in_play  # 23.03
        if only is not None and not self.notice_text.startswith("⚠"):
            # 23.03: a team with nobody left does not end the game; say who may still win
            note = self.session.humanize(rule("only_team_in_play", team=Team(only)))
            text = f"{note} · {self.notice_text}" if self.notice_text else note
        # one line or two, its height set rather than measured at every layout (issue 24:
        # each prompt that closes lays the screen out); a layout only when that changes
        width = bar.size.width - 2  # its padding
        lines = 0 if width <= 0 else 1 if cell_len(text) <= width and "\n" not in text else 2
        bar.update(text, layout=False)
        if lines != self._notice_lines:
            bar.styles.height = lines or "auto"  # not laid out yet: measured this once
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
        self.app.game_bell(self.session)  # one minute left, "Time!", the end (a setting)
        if end is not None:
            self.notice_text = _("Time ran out: the game is over (0:00)")
            self.refresh_all()
        elif self.session.state.phase != self._last_phase:  # changed by an append elsewhere
            self.refresh_all()
        else:
            self._clock.show(self.session)

    # -- helpers ----------------------------------------------------------------------------
    def record(self, act: Callable[[], Event], done: str = "") -> bool:
        """Run one intent of the live game (it appends one event); show the refusal
        (citing the section) if any."""
        try:
            e = act()
        except Refused as exc:
            self.refuse(exc)
            return False
        self.recorded(e, done)
        return True

    def recorded(self, e: Event, done: str = "") -> None:
        namer = Namer(self.session.names, self.session.state)
        self.notice_text = done or f"✓ {clock(e.game_clock_ms)} {describe(e, namer)}"
        self.refresh_all()

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
        self.prompt.ask_number(head, then, numbers, self.humane(validate))

    def humane(self, validate: Callable[[Any], str | None] | None):
        if validate is None:
            return None

        def check(value: Any) -> str | None:
            why = validate(value)
            return self.session.humanize(why) if why else None

        return check

    def with_second(
        self,
        team: str,
        offender: int,
        act: Callable[[int | None], Event],
        probe: Callable[[int], str | None],
        after: Callable[[Event], None] | None = None,
    ) -> None:
        """Run ``act(None)``; when the service answers that a group removal 1+1 (29.08)
        needs the second player, ask for him (``probe`` validates a number) and run
        ``act(second)``. ``after(event)`` once the event is recorded."""

        def attempt(second: int | None) -> None:
            try:
                e = act(second)
            except SecondPlayerNeeded:
                ask()
                return
            except Refused as exc:
                self.refuse(exc)
                return
            self.recorded(e)
            if after is not None:
                after(e)

        def check(n: int) -> str | None:
            if n == offender:
                return _("29.08: the second player must be another player")
            return probe(n)

        def ask() -> None:
            self.ask_number(_("Group removal 1+1 (29.08): the second player"), team, attempt, check)

        attempt(None)

    def elimination_check(self, team: str) -> Callable[[int], str | None]:
        def check(n: int) -> str | None:
            if self.session.needs_second_player("hit"):
                return None
            return self.session.eliminate.check(team, n)

        return check

    def label(self, team: str, number: int) -> str:
        return Namer(self.session.names, self.session.state).player_full(team, number)

    # -- clock ------------------------------------------------------------------------------
    def time_left(self) -> str:
        return format_time_left(self.session.remaining_ms())

    def action_start_resume(self) -> None:
        st = self.session.state
        if st.phase == m.NOT_STARTED:
            why = self.session.start_refusal()  # one live game per field and per team
            if why:
                self.refuse(why)
                return
            team = self.session.lineup_needed()
            if team is not None:  # 30.01: a roster with substitutes plays a confirmed line-up
                self.ask_lineup(team, then=self.action_start_resume)
                return
            self.record(self.session.start_clock, "▶ " + _("Clock started"))
        elif st.phase == m.STOPPED:
            left = self.time_left()
            self.record(self.session.resume_clock, "▶ " + _("Clock resumed at") + f" {left}")
        elif st.phase == m.RUNNING:
            self.say(_("The clock is running; t calls Time!"))
        else:
            self.refuse(game_phase_refusal(st, ev.CLOCK_RESUME) or st.phase)

    def action_lineup(self, side: str | None = None) -> None:
        """30.01: who of a team plays this game (before the start)."""
        if self.phase_refused(ev.LINEUP):
            return
        self.ask_team(_("Line-up: which team?"), self.ask_lineup)

    def ask_lineup(self, team: str, then: Callable[[], None] | None = None) -> None:
        """The line-up picker of ``team``; ``then`` runs once it is recorded."""
        s = self.session

        def save(numbers: list[int]) -> str | None:
            try:
                s.set_lineup(team, numbers)
            except Refused as exc:
                return s.humanize(exc)
            return None

        def done(numbers: list[int] | None) -> None:
            if numbers is None:
                return
            self.notice_text = "✓ " + _("Line-up of {team}: {numbers}").format(
                team=s.team_name(team), numbers=", ".join(map(str, numbers))
            )
            self.refresh_all()
            if then is not None:
                then()

        self.app.push_screen(LineupScreen(s.lineup_choice(team), s.team_name(team), save), done)

    def action_time_stop(self) -> None:
        self.record(
            self.session.stop_time, "⏸ " + _("Time! Clock stopped at") + f" {self.time_left()}"
        )

    # -- eliminations ---------------------------------------------------------------------
    def action_eliminate(self, side: str | None = None) -> None:
        st = self.session.state
        if st.phase == m.NOT_STARTED and not game_phase_refusal(st, ev.ELIMINATION, "markers_down"):
            # 20.07 (second item): before the start only "markers not laid down" is offered
            go = self._markers_down_team
        elif self.phase_refused(ev.ELIMINATION):
            return
        else:
            go = self._eliminate_team
        if side is None:
            self.ask_team(_("Eliminate: which team?"), go)
        else:
            go(self.team_of(side))

    def _markers_down_team(self, team: str) -> None:
        def record(n: int) -> None:
            self.record(lambda: self.session.markers_down(team, n))

        self.ask_number(
            _('Before the start (20.07): marker not laid down on "Markers down"'),
            team,
            record,
            lambda n: self.session.markers_down.check(team, n),
        )

    def _eliminate_team(self, team: str) -> None:
        hit_check = self.elimination_check(team)

        def check(n: int) -> str | None:
            # 27.02-27.05, 28.02, 29.11: an eliminated player may still be penalised for
            # playing on (the reason step then offers only that)
            return None if self.session.is_eliminated(team, n) else hit_check(n)

        self.ask_number(_("Eliminate"), team, lambda n: self._eliminate_reason(team, n), check)

    def _eliminate_reason(self, team: str, number: int) -> None:
        if self.session.is_eliminated(team, number):
            self._playing_on_section(team, number)
            return
        self.prompt.ask_choice(
            _("Reason for") + f" {self.label(team, number)}:",
            [Choice(k, r, reason_with_section(r)) for k, r in REASON_KEYS],
            lambda reason: self._eliminate_record(team, number, reason),
            default="hit",
        )

    def _playing_on_section(self, team: str, number: int) -> None:
        """27.02-27.05, 28.02, 29.11: playing on while eliminated: which section, then the
        second (unhit) player of the team's group removal 1+1."""
        self.notice_text = ""
        self.prompt.ask_choice(
            f"{self.label(team, number)} "
            + _("is already eliminated: playing on — which section?"),
            [
                Choice(str(i), sec, f"{sec} {_(PLAYING_ON_TEXT[sec])}")
                for i, sec in enumerate(PLAYING_ON_SECTIONS, start=1)
            ],
            lambda sec: self._eliminate_record(team, number, "playing_on", sec),
            default="28.02",
        )

    def _eliminate_record(
        self, team: str, number: int, reason: str, section: str | None = None
    ) -> None:
        self.with_second(
            team,
            number,
            lambda second: self.session.eliminate(team, number, reason, second, section),
            lambda second: self.session.eliminate.check(team, number, reason, second, section),
        )

    def action_simultaneous(self) -> None:
        """26: two opponents hit at once → both out in one entry."""
        if self.phase_refused(ev.ELIMINATION):
            return
        a, b = self.session.teams

        def second(na: int) -> None:
            self.ask_number(
                _("Both hit (26)"),
                b,
                lambda nb: self.record(lambda: self.session.eliminate_both(na, nb)),
                self.elimination_check(b),
            )

        self.ask_number(_("Both hit (26)"), a, second, self.elimination_check(a))

    def action_old_paint(self) -> None:
        """29.10: an old paint spot a player reports before the game, noted per player and
        shown at a paint check of that player."""
        if self.phase_refused(ev.OLD_PAINT):
            return

        def spot(team: str, number: int) -> None:
            def done(values: dict[str, str] | None) -> None:
                if values is not None:
                    self.record(lambda: self.session.note_old_paint(team, number, values["spot"]))

            form = FormScreen(
                _("Old paint spot (29.10):") + f" {self.label(team, number)}",
                [Field("spot", _("Where, what it looks like"))],
                lambda v: None if v["spot"] else _("Describe the spot"),
            )
            self.app.push_screen(form, done)

        self.ask_team(
            _("Old paint (29.10): which team?"),
            lambda team: self.ask_number(
                _("Old paint (29.10)"),
                team,
                lambda n: spot(team, n),
                lambda n: self.session.note_old_paint.check(team, n, "-"),
            ),
        )

    def action_back(self) -> None:
        self.app.pop_screen()
