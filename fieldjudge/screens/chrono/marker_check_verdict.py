"""Recording the marker check's outcomes (19.05-19.07, 20.05): the verdict of the player being
checked, "plays without a marker" and the head judge's approval of a team, as a mixin of
:class:`fieldjudge.screens.chrono.marker_check.MarkerCheckScreen` (which provides `current`,
`last_check`, `dq`, `settings`, `t`, `state`, `game_log` and the `_append`, `_label`,
`_need_player`, `_row_player`, `_row_team`, `_render_check` methods)."""

from __future__ import annotations

from fieldjudge.i18n import _
from fieldjudge.rules.chrono_checks import (
    ADMITTED,
    DISQUALIFIED,
    UNFINISHED,
    PlayerCheck,
    approved,
    missing_verdicts,
    unfinished_tests,
    verdict_step,
)
from fieldjudge.rules.marker_check import MarkerCheck
from fieldjudge.screens.chrono.dialogs import FailedMarkerScreen, ask_head_judge_pin
from fieldjudge.screens.chrono.text import disqualified_message, names_of_tests, result_text
from fieldjudge.screens.dialogs.forms import MessageScreen


class VerdictActions:
    """v: the verdict; w: no marker (19.07); h: the head judge's approval (19.05)."""

    def _record(self, result: str, note: str = "") -> None:
        cur = self.current
        if cur is None:
            return
        check = self.last_check or cur.result(self.settings)
        team, number = cur.team, cur.number
        if self._run(lambda: self.service.verdict(team, number, result, cur.record(check), note)):
            self.current = None
            self._render_check()
            self.notify(self._label(team, number) + ": " + result_text(result))

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
            missing = names_of_tests(unfinished_tests(check))
            self.app.push_screen(
                MessageScreen(
                    _("Check not finished"),
                    _("These tests are not done yet") + ": " + ", ".join(missing),
                )
            )
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
            self.app.push_screen(
                MessageScreen(
                    _("Not every marker is checked"),
                    f"{name}: " + _("no verdict yet for") + " #" + ", #".join(map(str, missing)),
                )
            )
            return
        if approved(self.game_log.events, team):
            self.notify(_("Already approved"), severity="warning")
            return

        ask_head_judge_pin(self, name, lambda pin: self.service.approve(team, pin), self.reload)
