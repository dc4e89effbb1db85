"""Post-game inspection (18.02) and corrections (undo, void with a reason) of the game
screen: its keys' actions, mixed into :class:`~fieldjudge.screens.game.screen.GameScreen`.
Both corrections are ``void`` events: the log strikes the target through and the state is
folded again."""

from __future__ import annotations

from fieldjudge.i18n import _
from fieldjudge.rules.events import VOID, Event
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball import model as m
from fieldjudge.rules.paintball.checks import game_phase_refusal
from fieldjudge.screens.dialogs.forms import Field, FormScreen
from fieldjudge.screens.game.dialogs import InspectionDialog
from fieldjudge.screens.game.widgets import LogPicker, with_targets
from fieldjudge.screens.widgets.prompt import Choice
from fieldjudge.services import Refused
from fieldjudge.services.paintball.event_text import Namer, describe, event_line, event_no

#: the longest reason of a void (it is printed in the protocol's log)
REASON_MAX = 120


class CorrectionActions:
    """18.02 inspection, undo, void with a reason, the end of a game by the judge."""

    # -- after the game ---------------------------------------------------------------------
    def action_inspection(self) -> None:
        st = self.session.state
        if st.phase != m.INSPECTION:
            self.refuse(game_phase_refusal(st, ev.INSPECTION) or "18.02")
            return
        if not isinstance(self.app.screen, InspectionDialog):
            self.app.push_screen(InspectionDialog(self.session))

    def action_end_by_judge(self) -> None:
        """End the game by the judge's decision (weather, injury, the field unusable): a
        ``game_end`` with the reason, flagged for the head judge; inspection follows."""
        if self.phase_refused(ev.GAME_END):
            return

        def done(values: dict[str, str] | None) -> None:
            if values is not None:  # the inspection (18.02) opens by itself after it
                note = values["note"]
                self.record(lambda: self.session.end_by_judge(note), _("Game ended by the judge"))

        form = FormScreen(
            _("End the game now?"),
            [Field("note", _("Why (for the head judge)"))],
            lambda v: None if v["note"] else _("Say why the game ends"),
        )
        self.app.push_screen(form, done)

    # -- corrections ----------------------------------------------------------------------
    def action_undo(self) -> None:
        """Say what the undo will void and wait for Enter (Esc keeps it)."""
        target = self.session.last_undoable()
        if target is None:
            self.refuse(_("nothing to undo"))
            return
        namer = Namer(self.session.names, self.session.state)
        self.prompt.ask_choice(
            _("Undo")  # issue 25: named by its number, as the log lists it
            + f": {event_line(target, namer)}? "
            + _("Enter: undo · Esc: keep it"),
            [Choice("y", True, _("yes, undo it"))],
            lambda _yes: self._undo(),
            default=True,
        )

    def _undo(self) -> None:
        target = self.session.last_undoable()
        try:
            self.session.undo()
        except Refused as exc:
            self.refuse(exc)
            return
        namer = Namer(self.session.names, self.session.state)
        self.notice_text = (
            "↶ " + _("Undone") + f": {event_no(target.seq)} {describe(target, namer)}"
        )
        self.refresh_all()

    def action_void(self) -> None:
        """``v`` then the event's number from the log (its «№»): taken at once when no longer
        number starts with the digits, else Enter; ↓ picks it from the whole log instead.
        A number that cannot be voided is refused in the prompt, which stays open."""
        s = self.session
        if not s.events:
            self.refuse(_("No events yet to void"))
            return

        def check(number: int) -> str | None:
            try:
                s.voidable(number)
            except Refused as exc:
                return s.humanize(exc)
            return None

        self.prompt.ask_number(
            _("Void event #: its number from the log, Enter · ↓: the whole log"),
            self._numbered,
            numbers=[e.seq for e in s.events],
            validate=check,
            exits={"down": self._from_list},
            numbers_only=True,
        )

    def _numbered(self, number: int) -> None:
        try:
            target = self.session.voidable(number)
        except Refused as exc:  # the log changed since the check (a clock end)
            self.refuse(exc)
            return
        self._ask_reason(target)

    def _from_list(self) -> None:
        """The old way: the whole log, newest first, ↑↓ and Enter, in the screen's prompt
        over the log (issue 24: as a dialog, the whole screen was drawn again under it as
        it opened and as it closed, a frame and most of the garbage of a void)."""

        def chosen(target_id: str) -> None:
            target = self.session.log.by_id(target_id)
            if target is not None:
                self._numbered(target.seq)

        self.prompt.ask_pick(
            _("Void an event: pick it, then give the reason"),
            LogPicker(self.session, id="void-list"),
            chosen,
            cancelled=lambda: self.say(_("Nothing voided")),
            hint=_("↑↓ event · Enter: void · Esc: cancel"),
        )

    def _ask_reason(self, target: Event) -> None:
        """The reason, typed in the screen's prompt (no dialog to open and close: issue 24),
        which names the event: its number, time and line. Esc voids nothing."""
        s = self.session
        by_id = with_targets(s, [target])  # and what the lines name (a void's target...)
        back = by_id.get(str(target.data.get("target"))) if target.type == VOID else None
        namer = Namer(s.names, s.state)
        note = event_line(target, namer, by_id)
        if back is not None:  # voiding a void restores its target
            note += "\n" + _("{event} counts again").format(event=event_no(back.seq))

        def void(reason: str) -> None:
            try:
                e = s.void(target.id, reason)
            except Refused as exc:
                self.refuse(exc)
                return
            by_id[e.id] = e
            self.notice_text = "↶ " + describe(e, Namer(s.names, s.state), by_id)
            self.refresh_all()

        self.prompt.ask_text(
            _("Void event {event}? Give the reason").format(event=event_no(target.seq))
            + "\n"
            + note,
            void,
            validate=lambda v: None if v else _("A correction needs a reason"),
            limit=REASON_MAX,
            cancelled=lambda: self.say(_("Nothing voided")),
            # before anything is typed a hint; the refusal only after an empty Enter
            hint=_("Type why: the reason is kept with the correction"),
        )
