"""Flag, flag-hang and chrono actions of the game screen (21-23, 20): its keys' actions,
mixed into :class:`~fieldjudge.screens.game.screen.GameScreen` (they use its session and
prompt)."""

from __future__ import annotations

from collections.abc import Callable

from fieldjudge.i18n import _, rule_text
from fieldjudge.rules.events import Event
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball import model as m
from fieldjudge.screens.chrono.feed import session_config
from fieldjudge.screens.chrono.hang import attach_hang_chrono
from fieldjudge.screens.chrono.ingame import InGameChronoScreen
from fieldjudge.screens.chrono.show import ReadingShownScreen
from fieldjudge.screens.widgets.prompt import Choice
from fieldjudge.services.paintball.event_text import clock


class FlagActions:
    """22-23: capture, hand-over, flag hang and its verdict; 20: in-game chrono."""

    hang_prompt_open = False  # the hang verdict's fps prompt is open (the chrono feed's cue)
    _hang_source = "typed"  # where its fps came from ("typed" or the device)

    # -- flags ----------------------------------------------------------------------------
    def carriers(self) -> list[m.PlayerState]:
        st = self.session.state
        return [p for t in self.session.teams if (p := st.carrier_of(t)) is not None]

    def pick_carrier(self, what: str, then: Callable[[m.PlayerState], None]) -> None:
        carriers = self.carriers()
        if not carriers:
            self.refuse(_("23.01: nobody carries a flag"))
        elif len(carriers) == 1:
            then(carriers[0])
        else:
            self.ask_team(
                what + ": " + _("which team's carrier?"),
                lambda team: then(next(p for p in carriers if p.team == team)),
            )

    def action_capture(self) -> None:
        if self.phase_refused(ev.FLAG_CAPTURE):
            return

        def number(team: str) -> None:
            self.ask_number(
                _("Flag capture"),
                team,
                lambda n: self.record(lambda: self.session.capture_flag(team, n)),
                lambda n: self.session.capture_flag.check(team, n),
            )

        self.ask_team(_("Flag capture: which team captures?"), number)

    def action_handover(self) -> None:
        """22.03: the carrier hands the flag to an unhit teammate."""
        if self.phase_refused(ev.FLAG_HANDOVER):
            return

        def to(giver: m.PlayerState) -> None:
            team, number = giver.team, giver.number
            self.ask_number(
                _("Hand-over (22.03) from") + f" #{giver.number} " + _("to"),
                giver.team,
                lambda n: self.record(lambda: self.session.hand_over_flag(team, number, n)),
                lambda n: self.session.hand_over_flag.check(team, number, n),
            )

        self.pick_carrier(_("Hand-over"), to)

    def action_flag_hang(self) -> None:
        """23.01: one key records the touch now and stops the clock; then the verdict."""
        if self.session.state.pending_hang is not None:
            self.hang_verdict()
            return
        if self.phase_refused(ev.FLAG_HANG):
            return

        def hang(carrier: m.PlayerState) -> None:
            if self.record(lambda: self.session.hang_flag(carrier.team, carrier.number)):
                self.hang_verdict()

        self.pick_carrier(_("Flag hang"), hang)

    def hang_verdict(self) -> None:
        """23.01: the paint check of the carrier (c clean / h hit), then the chrono of his
        marker (fps typed; ``m`` toggles forbidden mode). The chrono screens may call
        :meth:`fill_hang_fps` with a device reading while the fps prompt is open."""
        hang = self.session.state.pending_hang
        if hang is None:
            return
        who = self.label(hang.team, hang.number)
        self.notice_text = ""
        self.prompt.ask_choice(
            _("Flag hang by")
            + f" {who} "
            + _("at")
            + f" {clock(hang.touch_ms)}: "
            + _("paint check (23.01)?"),
            [Choice("c", "clean", _("clean")), Choice("h", "hit", _("hit"))],
            self._hang_fps,
        )

    def _hang_fps(self, paint: str) -> None:
        hang = self.session.state.pending_hang
        assert hang is not None
        p = self.session.state.player(hang.team, hang.number)
        mode = {"forbidden": False}
        self.hang_prompt_open = True

        def title() -> str:
            t = _("Paint") + f": {_(paint)}. " + _("Chrono of the carrier's marker, fps")
            if mode["forbidden"]:
                t += " · " + _("FORBIDDEN MODE (20.05)")
            return t

        def toggle() -> str:
            mode["forbidden"] = not mode["forbidden"]
            return title()

        def check(fps: float) -> str | None:
            return self.session.hang_verdict.check(
                paint, fps, bool(mode["forbidden"]), self._hang_source
            )

        def done(fps: float | None) -> None:
            self.hang_prompt_open = False
            forbidden, source = bool(mode["forbidden"]), self._hang_source
            self.with_second(
                hang.team,
                hang.number,
                lambda second: self.session.hang_verdict(paint, fps, forbidden, source, second),
                lambda second: self.session.hang_verdict.check(
                    paint, fps, forbidden, source, second
                ),
                self._hang_done,
            )

        self._hang_source = "typed"
        if p is not None and not p.has_marker:
            done(None)
            return
        self.prompt.ask_number(
            title(),
            done,
            validate=self.humane(check),
            decimal=True,
            toggles={"m": (_("forbidden mode"), toggle)},
        )
        self._attach_hang_device()

    def _attach_hang_device(self) -> None:
        """With a chronograph configured, the chrono screens feed its readings into the
        open fps prompt (through :meth:`fill_hang_fps`); without one the fps is typed."""
        try:
            if session_config(self.app) is not None:
                attach_hang_chrono(self)
        except Exception as exc:  # noqa: BLE001 - a device problem must not stop the hang
            self.say("⚠ " + _("Chronograph unavailable, type the speed") + f": {exc}")

    def fill_hang_fps(self, fps: float, source: str = "device") -> bool:
        """Hook for the chrono screens: put a device reading into the open fps prompt of
        the flag-hang verdict. Returns False when no such prompt is open."""
        if not (self.hang_prompt_open and self.prompt.active):
            return False
        self._hang_source = source
        self.prompt.set_buffer(f"{fps:g}")
        return True

    def _hang_done(self, event: Event) -> None:
        st = self.session.state
        self._show_reading(event)
        if st.hang_team is not None:
            self.say(
                "⚑ " + _("23.03: the flag hang counts; the game ended at") + f" {clock(st.end_ms)}"
            )
        else:
            self.say(
                _("23.02: the hang does not count; spare flag up. Space resumes the clock at")
                + f" {self.time_left()}"
            )

    def _show_reading(self, event: Event) -> None:
        """20.06: a hang rejected by the chrono (305 fps → 20.03): the reading is shown to
        the carrier at once, as for any in-game chrono penalty."""
        fps = event.data.get("fps")
        if not isinstance(fps, int | float):
            return
        cv = self.session.chrono_verdict(float(fps), bool(event.data.get("forbidden_mode")))
        if cv.eliminates:
            text = rule_text(cv.text, self.session.names)
            self.app.push_screen(ReadingShownScreen(float(fps), text))

    # -- chrono ---------------------------------------------------------------------------
    def action_chrono(self) -> None:
        # refused before its screen opens (not started, a hang pending, the game over):
        # the reading it would take could not be recorded (20)
        if not self.phase_refused(ev.CHRONO_READING):
            self.app.push_screen(InGameChronoScreen(self.session, team=None, number=None))
