"""Dialogs of the chrono screens: a typed reading and the chrono port (both screens), the
failed marker's choice (19.06 / 19.07) and the head judge's secret (19.05) of the marker check,
the second player of a group removal 1+1 (20.04) of the in-game chrono, and the message shown
when an event cannot be appended."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from fieldjudge.i18n import _, rule_text
from fieldjudge.rules.chrono_readings import parse_fps
from fieldjudge.rules.marker_check import MarkerCheck
from fieldjudge.screens import keymap
from fieldjudge.screens.chrono.feed import ChronoFeed, session_config, typed_reading
from fieldjudge.screens.chrono.setup import ChronoSetupScreen
from fieldjudge.screens.dialogs.forms import Field, FormScreen, MessageScreen, TextDialog
from fieldjudge.screens.widgets.prompt import PromptPanel
from fieldjudge.services import Refused


def ask_typed_reading(screen: Screen) -> None:
    """Ask for a speed in the screen's inline prompt, so ``t 2 8 2 Enter`` typed in one
    burst lands in it; it reaches `screen` like a device reading (through its `ChronoFeed`,
    stamped now, format ``typed``)."""

    def post(fps: float) -> None:
        screen.query_one(ChronoFeed).post_message(ChronoFeed.ReadingReceived(typed_reading(fps)))

    screen.query_one(PromptPanel).ask_number(
        _("Type a reading") + " · " + _("Speed, fps"),
        post,
        validate=lambda fps: None if parse_fps(str(fps)) else _("Type a speed in fps, e.g. 287.5"),
        decimal=True,
    )


def choose_chrono_port(screen: Screen, then: Callable[[], object] | None = None) -> None:
    """Choose the chronograph port; `screen`'s feed restarts on the new one, then `then()`."""

    def done(cfg) -> None:
        if cfg is not None:
            screen.query_one(ChronoFeed).start(cfg)
            if then is not None:
                then()

    screen.app.push_screen(ChronoSetupScreen(session_config(screen.app)), done)


def ask_head_judge_pin(
    screen: Screen,
    team_name: str,
    approve: Callable[[str], object],
    approved: Callable[[], object],
) -> None:
    """19.05: the head judge approves a team's results with his secret: ``approve(secret)`` (the
    service checks the secret and appends; a refusal stays in the form), then ``approved()``."""

    def check(values: dict[str, str]) -> str | None:
        try:
            approve(values["pin"])
        except Refused as exc:
            return rule_text(exc)
        return None

    def done(values: dict[str, str] | None) -> None:
        if values is not None:
            approved()

    title = _("Head judge approval (19.05)") + f": {team_name}"
    field = Field("pin", _("Head judge's secret"), password=True)
    screen.app.push_screen(FormScreen(title, [field], check), done)


def explain_failed_append(app, exc: Exception) -> None:
    """The store refused an event (`Refused`) or could not write it (`OSError`)."""
    title = _("Refused") if isinstance(exc, Refused) else _("Could not save")
    app.push_screen(MessageScreen(title, rule_text(exc)))


class FailedMarkerScreen(TextDialog[str | None]):
    """19.06 / 19.07: the marker failed — fix and retest, or play without a marker."""

    BINDINGS = keymap.bindings("failed_marker")

    def __init__(self, who: str, check: MarkerCheck) -> None:
        keys = (
            _("f: not admitted, fix and retest (19.06)"),
            _("w: plays without a marker (19.07)"),
            _("Esc: back to the check"),
        )
        reasons = "\n".join(map(rule_text, check.reasons))
        super().__init__(_("NOT ADMITTED") + f": {who}", reasons, "\n".join(keys))
        self.check = check

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)


class SecondPlayerScreen(TextDialog[int | None]):
    """20.04 / 29.08: the second player of a group removal 1+1 (same team)."""

    BINDINGS = keymap.bindings("second_player")

    def __init__(self, why: str, players: list[tuple[int, str]]) -> None:
        title = _("Group removal 1+1: the second player")
        super().__init__(title, None, _("Enter: choose · Esc: cancel"))
        self.why = why
        self.players = players

    def compose_body(self) -> ComposeResult:
        yield Static(self.why, classes="dialog-note", markup=False)
        yield OptionList(
            *[Option(Text(label), id=str(n)) for n, label in self.players], id="second-players"
        )

    def on_mount(self) -> None:
        self.query_one("#second-players", OptionList).focus()

    @on(OptionList.OptionSelected, "#second-players")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))
