"""In-game chrono (20) from the game screen, and the device for the flag-hang check (23.01).

`InGameChronoScreen(session, team=None, number=None)`: pick the player, let him shoot over
the radar (or type a reading), press Enter: one ``chrono_reading`` event with the highest
speed and the shortest interval goes through `GameSession.append`, and the engine's verdict
table (20.02-20.05) produces the penalty — removal, group removal 1+1 (the second player is
asked for) or removal with disqualification for the tournament.  The reading that caused it
stays on screen in large digits until the judge dismisses it (20.06).  Dismissed with the
appended event (or None). The flag-hang check with the device is in `chrono/hang.py`.
"""

from __future__ import annotations

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from fieldjudge.i18n import _, number, rule_text
from fieldjudge.rules.chrono_readings import InGameReadings, chrono_candidates
from fieldjudge.rules.marker_check import Shot
from fieldjudge.rules.paintball.checks import second_player_candidates
from fieldjudge.rules.timefmt import format_time_left
from fieldjudge.screens import keymap
from fieldjudge.screens.base import JudgeScreen
from fieldjudge.screens.chrono.dialogs import (
    SecondPlayerScreen,
    ask_typed_reading,
    choose_chrono_port,
    explain_failed_append,
)
from fieldjudge.screens.chrono.feed import ChronoFeed
from fieldjudge.screens.chrono.text import (
    ingame_analysis,
    ingame_result,
    player_label,
    shot_list,
)
from fieldjudge.screens.chrono.widgets import BigDigits, set_text
from fieldjudge.screens.widgets.choices import fill_options
from fieldjudge.screens.widgets.footer import Footer
from fieldjudge.screens.widgets.prompt import PromptPanel, take_key
from fieldjudge.services import Refused


class InGameChronoScreen(JudgeScreen):
    CSS_PATH = "chrono.tcss"
    AUTO_FOCUS = ""  # Enter records once the player is known; the list is focused to pick
    SCREEN_TITLE = "In-game chrono"
    HELP_TEXT = (
        "In-game chrono (20). Pick the player (Enter in the list), let him shoot over the "
        "radar or type a reading (t), mark a forbidden mode with m, then Enter records the "
        "reading: the verdict of 20.02-20.05 is applied at once. Show the reading on screen "
        "to the player (20.06), then Enter or Esc closes it. Digits 1-9 pick the 1-3 shots "
        "the verdict is taken on (20.02; by default the last three)."
    )
    BINDINGS = keymap.bindings("in_game_chrono")

    def __init__(self, session, team: str | None = None, number: int | None = None) -> None:
        super().__init__()
        self.session = session
        self.readings: InGameReadings | None = None
        self._initial = (team, number)
        self.result_event = None  # the appended chrono_reading, shown until dismissed

    @property
    def shots(self) -> list[Shot]:
        return self.readings.shots if self.readings is not None else []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="cg-title", classes="pane-title", markup=False)
        with Horizontal(id="cg-body"):
            yield OptionList(id="cg-players")
            with Vertical(id="cg-main"):
                yield ChronoFeed(id="feed")
                yield Static("", id="cg-player", classes="pane-title", markup=False)
                yield Static("", id="cg-analysis", markup=False)
                with Vertical(id="cg-result"):
                    yield BigDigits("", id="cg-result-digits")  # 20.06: fills the box
                    yield Static("", id="cg-result-text", markup=False)
                yield Static("", id="cg-hint", markup=False)
        yield PromptPanel()  # a typed reading (t), in the screen itself (screens/keys.py)
        yield Footer()

    def _show_title(self) -> None:
        """The title with the game clock, kept live (issue 12: it stayed at the time the
        screen opened)."""
        s = self.session
        title = _("In-game chrono (20)") + " · " + " — ".join(s.team_name(t) for t in s.teams)
        try:
            title += " · " + format_time_left(s.remaining_ms())
        except Exception:  # noqa: BLE001 - the title must not stop the screen
            pass
        set_text(self.query_one("#cg-title", Static), title)  # 4 times a second: no reflow

    def on_mount(self) -> None:
        self._show_title()
        self.set_interval(0.25, self._show_title)
        self.query_one("#cg-result").display = False
        self._fill_players()
        team, number = self._initial
        if team is not None and number is not None:
            self._set_player(str(team), int(number))
        else:
            self.query_one("#cg-players", OptionList).focus()
        self._refresh_view()

    async def on_key(self, event: events.Key) -> None:
        """Keys in arrival order: the open prompt takes them (``t 3 0 5 Enter`` typed in one
        burst: the digits are the reading, not picks of shots), else the binding runs now."""
        await take_key(self, self.query_one(PromptPanel), event)

    # -- players --------------------------------------------------------------------------
    def _fill_players(self) -> None:
        fill_options(
            self.query_one("#cg-players", OptionList),
            (
                Option(Text(self._label(p.team, p.number)), id=f"{p.team}|{p.number}")
                for p in chrono_candidates(self.session.state, self.session.teams)
            ),
            _("Nobody on the field with a marker"),
        )

    def _label(self, team: str, number: int) -> str:
        p = self.session.state.player(team, number)
        return player_label(self.session.team_name(team), number, p)

    @on(OptionList.OptionSelected, "#cg-players")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        if event.option.id and self.result_event is None:
            team, number = event.option.id.split("|")
            self._set_player(team, int(number))

    def _set_player(self, team: str, number: int) -> None:
        r = self.readings
        if r is None or (r.team, r.number) != (team, number):
            self.readings = InGameReadings(team, number)
        self.set_focus(None)  # Enter now records
        self._refresh_view()

    def action_pick(self) -> None:
        if self.result_event is None:
            self.query_one("#cg-players", OptionList).focus()

    # -- readings -------------------------------------------------------------------------
    def on_chrono_feed_reading_received(self, message: ChronoFeed.ReadingReceived) -> None:
        if self.readings is None or self.result_event is not None:
            return
        self.readings.add_reading(message.reading)
        self._refresh_view()

    def _verdict(self, data: dict):
        return self.session.chrono_verdict(
            data["fps"], data["forbidden_mode"], data.get("interval_ms")
        )

    def _refresh_view(self) -> None:
        """The player, the analysis and the keys, each drawn again only when its text
        changed, and laid out only when it needs another number of rows: a reading streams
        in up to 100 times a second and changes the analysis alone (no reflow a reading)."""
        if not self.is_mounted:
            return
        who = self.query_one("#cg-player", Static)
        analysis = self.query_one("#cg-analysis", Static)
        hint = self.query_one("#cg-hint", Static)
        r = self.readings
        if r is None:
            set_text(who, _("Pick the player in the list (Enter)"))
            set_text(analysis, "")
            set_text(hint, "")
            return
        set_text(who, _("Player") + ": " + self._label(r.team, r.number))
        data = r.event_data()
        cv = self._verdict(data) if data is not None else None
        text = ingame_analysis(len(r.shots), data, r.forbidden_mode, cv.text if cv else "")
        if r.shots:
            text += "\n" + shot_list([s.fps for s in r.shots], r.judged())
        set_text(analysis, text)
        if cv is not None:
            analysis.set_class(cv.eliminates, "verdict-bad")
        set_text(
            hint,
            _("Enter: record · m: forbidden mode · t: type a reading · c: clear · l: other player")
            if self.result_event is None
            else _("Recorded. Esc: back to the game"),
        )

    # -- actions --------------------------------------------------------------------------
    def action_toggle_mode(self) -> None:
        if self.result_event is None and self.readings is not None:
            self.readings.forbidden_mode = not self.readings.forbidden_mode
            self._refresh_view()

    def action_pick_shot(self, n: int) -> None:
        """20.02: digit n picks (or drops) shot n for the verdict, at most three."""
        if self.result_event is not None or self.readings is None:
            return
        if not self.readings.toggle(n - 1):
            self.notify(
                _("20.02: pick one to three of the readings taken"),
                severity="warning",
                markup=False,
            )
        self._refresh_view()

    def action_clear(self) -> None:
        if self.result_event is None and self.readings is not None:
            self.readings.clear()
            self._refresh_view()

    def action_type_reading(self) -> None:
        if self.result_event is not None:
            return
        if self.readings is None:
            self.notify(_("Pick the player first"), severity="warning", markup=False)
            return
        ask_typed_reading(self)

    def action_chrono_setup(self) -> None:
        choose_chrono_port(self)

    def action_back(self) -> None:
        if not self._close_shown_reading():
            self.dismiss(self.result_event)

    def action_record(self) -> None:
        if self.result_event is not None:  # recorded: close the 20.06 box, then the screen
            self.action_back()
            return
        r = self.readings
        if r is None:
            self.notify(_("Pick the player first"), severity="warning", markup=False)
            return
        data = r.event_data()
        if data is None:
            self.notify(_("No reading yet"), severity="warning", markup=False)
            return
        cv = self._verdict(data)
        if cv.needs_second_player:
            mates = second_player_candidates(self.session.state, r.team, r.number)
            if mates:

                def second(number: int | None) -> None:
                    if number is not None:
                        self._append({**data, "second": number})

                self.app.push_screen(
                    SecondPlayerScreen(
                        rule_text(cv.text),
                        [(p.number, self._label(p.team, p.number)) for p in mates],
                    ),
                    second,
                )
                return
        self._append(data)

    def _append(self, data: dict) -> None:
        try:
            event = self.session.chrono_reading(**data)
        except (Refused, OSError) as exc:
            explain_failed_append(self.app, exc)
            return
        self.result_event = event
        cv = self._verdict(data)
        box = self.query_one("#cg-result")
        box.display = True
        box.set_class(not cv.eliminates, "-clean")
        # 20.06: the reading as the device gave it (judged on the whole fps, 20.02/20.03)
        self.query_one("#cg-result-digits", BigDigits).update(number(data["fps"]))
        # at 80x24 the box needs the room: the list, the feed and the analysis step aside
        for sel in ("#cg-players", "#feed", "#cg-analysis", "#cg-hint"):
            self.query_one(sel).display = False
        team = str(data["team"])
        second = self._label(team, data["second"]) if "second" in data else None
        self.query_one("#cg-result-text", Static).update(
            ingame_result(self._label(team, int(data["number"])), cv, second)
        )
        self.query_one("#cg-players", OptionList).disabled = True
        self._refresh_view()

    def _close_shown_reading(self) -> bool:
        """20.06: Enter or Esc on the reading shown closes that box only; the screen stays
        (a second Esc goes back to the game). One key never closes two layers: a judge's
        Esc after the Enter that closed the box would otherwise leave the game for home.
        False when no box is shown."""
        box = self.query_one("#cg-result")
        if self.result_event is None or not box.display:
            return False
        box.display = False
        for sel in ("#cg-players", "#feed", "#cg-analysis", "#cg-hint"):
            self.query_one(sel).display = True
        return True
