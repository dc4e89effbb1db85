"""In-game chrono (20) from the game screen, and the device for the flag-hang check (23.01).

`InGameChronoScreen(session, team=None, number=None)`: pick the player, let him shoot over
the radar (or type a reading), press Enter: one ``chrono_reading`` event with the highest
speed and the shortest interval goes through `GameSession.append`, and the engine's verdict
table (20.02-20.05) produces the penalty — removal, group removal 1+1 (the second player is
asked for) or removal with disqualification for the tournament.  The reading that caused it
stays on screen in large digits until the judge dismisses it (20.06).  Dismissed with the
appended event (or None).

`attach_hang_chrono(dialog)` puts a `ChronoFeed` into the game screen's flag-hang verdict
dialog and fills its speed from the device through the dialog's ``set_fps_reading`` hook.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Digits, Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from fieldjudge.chrono_service import session_config
from fieldjudge.i18n import _
from fieldjudge.rules.marker_check import Shot, analyze_readings
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball import model as m
from fieldjudge.rules.paintball.clock import format_clock
from fieldjudge.screens.base import JudgeModal, JudgeScreen
from fieldjudge.screens.chrono_feed import ChronoFeed, load_chrono_css, typed_reading
from fieldjudge.screens.forms import Field, FormScreen, MessageScreen
from fieldjudge.screens.marker_check import parse_fps
from fieldjudge.store import Refused

PENALTY_TEXT = {
    "none": "no penalty (20.02)",
    "removal": "PLAYER REMOVED",
    "group_1_1": "GROUP REMOVAL 1+1",
    "disqualification": "REMOVED AND DISQUALIFIED FOR THE TOURNAMENT",
}


class InGameChronoScreen(JudgeScreen):
    CSS_PATH = "chrono.tcss"
    AUTO_FOCUS = ""  # Enter records once the player is known; the list is focused to pick
    SCREEN_TITLE = "In-game chrono"
    HELP_TEXT = (
        "In-game chrono (20). Pick the player (Enter in the list), let him shoot over the "
        "radar or type a reading (t), mark a forbidden mode with m, then Enter records the "
        "reading: the verdict of 20.02-20.05 is applied at once. Show the reading on screen "
        "to the player (20.06), then Enter or Esc closes it."
    )
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("enter", "record", "Record reading"),
        Binding("m", "toggle_mode", "Forbidden mode"),
        Binding("t", "type_reading", "Type a reading"),
        Binding("c", "clear", "Clear readings"),
        Binding("l", "pick", "Pick player"),
        Binding("p", "chrono_setup", "Chrono port"),
    ]

    def __init__(self, session, team: str | None = None, number: int | None = None) -> None:
        super().__init__()
        self.session = session
        self.team = team
        self.number = number
        self.shots: list[Shot] = []
        self.sources: set[str] = set()
        self.forbidden_mode = False
        self.result_event = None  # the appended chrono_reading, shown until dismissed

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="cg-title", classes="pane-title")
        with Horizontal(id="cg-body"):
            yield OptionList(id="cg-players")
            with Vertical(id="cg-main"):
                yield ChronoFeed(id="feed")
                yield Static("", id="cg-player", classes="pane-title")
                yield Static("", id="cg-analysis")
                with Vertical(id="cg-result"):
                    yield Digits("", id="cg-result-digits")
                    yield Static("", id="cg-result-text")
                yield Static("", id="cg-hint")
        yield Footer()

    def on_mount(self) -> None:
        s = self.session
        title = _("In-game chrono (20)") + " · " + " — ".join(s.team_name(t) for t in s.teams)
        try:
            title += " · " + format_clock(s.remaining_ms())
        except Exception:  # noqa: BLE001 - the title must not stop the screen
            pass
        self.query_one("#cg-title", Static).update(title)
        self.query_one("#cg-result").display = False
        self._fill_players()
        if self.team is not None and self.number is not None:
            self._set_player(str(self.team), int(self.number))
        else:
            self.query_one("#cg-players", OptionList).focus()
        self._refresh_view()

    # -- players --------------------------------------------------------------------------
    def _candidates(self) -> list[m.PlayerState]:
        st = self.session.state
        out = []
        for team in self.session.teams:
            out += [p for p in st.team_players(team) if p.status == m.IN_PLAY and p.has_marker]
        return out

    def _fill_players(self) -> None:
        ol = self.query_one("#cg-players", OptionList)
        ol.clear_options()
        for p in self._candidates():
            ol.add_option(Option(self._label(p.team, p.number), id=f"{p.team}|{p.number}"))
        if not ol.option_count:
            ol.add_option(Option(_("Nobody on the field with a marker"), disabled=True))

    def _label(self, team: str, number: int) -> str:
        p = self.session.state.player(team, number)
        return f"{self.session.team_name(team)} #{number}" + (f" {p.name}" if p else "")

    @on(OptionList.OptionSelected, "#cg-players")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        if event.option.id and self.result_event is None:
            team, number = event.option.id.split("|")
            self._set_player(team, int(number))

    def _set_player(self, team: str, number: int) -> None:
        if (team, number) != (self.team, self.number):
            self.shots.clear()
            self.sources.clear()
            self.forbidden_mode = False
        self.team, self.number = team, number
        self.set_focus(None)  # Enter now records
        self._refresh_view()

    def action_pick(self) -> None:
        if self.result_event is None:
            self.query_one("#cg-players", OptionList).focus()

    # -- readings -------------------------------------------------------------------------
    def on_chrono_feed_reading_received(self, message: ChronoFeed.ReadingReceived) -> None:
        if self.team is None or self.result_event is not None:
            return
        r = message.reading
        self.shots.append(Shot(r.fps, r.t))
        self.sources.add("typed" if r.format == "typed" else "device")
        self._refresh_view()

    def _data(self) -> dict | None:
        if self.team is None or self.number is None or not self.shots:
            return None
        a = analyze_readings(self.shots)
        data = {
            "team": self.team,
            "number": self.number,
            "fps": a.max_fps,
            "forbidden_mode": self.forbidden_mode,
            "source": "device" if "device" in self.sources else "typed",
        }
        if a.min_interval_ms is not None:
            data["interval_ms"] = a.min_interval_ms
        return data

    def _refresh_view(self) -> None:
        if not self.is_mounted:
            return
        who = self.query_one("#cg-player", Static)
        analysis = self.query_one("#cg-analysis", Static)
        hint = self.query_one("#cg-hint", Static)
        if self.team is None or self.number is None:
            who.update(_("Pick the player in the list (Enter)"))
            analysis.update("")
            hint.update("")
            return
        who.update(_("Player") + ": " + self._label(self.team, self.number))
        data = self._data()
        mode = _("forbidden mode: YES (20.05)") if self.forbidden_mode else ""
        if data is None:
            analysis.update(
                _("Waiting for readings: let the player shoot over the radar")
                + (f"\n{mode}" if mode else "")
            )
        else:
            cv = self.session.chrono_verdict(
                data["fps"], data["forbidden_mode"], data.get("interval_ms")
            )
            lines = [
                _("Readings")
                + f": {len(self.shots)}   "
                + _("highest")
                + f": {data['fps']:g} fps"
                + (
                    "   " + _("shortest interval") + f": {data['interval_ms']:.1f} ms"
                    if "interval_ms" in data
                    else ""
                ),
            ]
            if mode:
                lines.append(mode)
            lines.append(_("Verdict if recorded") + f": {cv.text}")
            analysis.update("\n".join(lines))
            analysis.set_class(cv.eliminates, "verdict-bad")
        hint.update(
            _("Enter: record · m: forbidden mode · t: type a reading · c: clear · l: other player")
            if self.result_event is None
            else ""
        )

    # -- actions --------------------------------------------------------------------------
    def action_toggle_mode(self) -> None:
        if self.result_event is None:
            self.forbidden_mode = not self.forbidden_mode
            self._refresh_view()

    def action_clear(self) -> None:
        if self.result_event is None:
            self.shots.clear()
            self.sources.clear()
            self._refresh_view()

    def action_type_reading(self) -> None:
        if self.result_event is not None:
            return
        if self.team is None:
            self.notify(_("Pick the player first"), severity="warning")
            return

        def check(values: dict[str, str]) -> str | None:
            return None if parse_fps(values["fps"]) is not None else _("Type a speed in fps")

        def done(values: dict[str, str] | None) -> None:
            fps = parse_fps(values["fps"]) if values else None
            if fps is not None:
                self.query_one(ChronoFeed).post_message(
                    ChronoFeed.ReadingReceived(typed_reading(fps))
                )

        self.app.push_screen(
            FormScreen(_("Type a reading"), [Field("fps", _("Speed, fps"))], check), done
        )

    def action_chrono_setup(self) -> None:
        from fieldjudge.screens.chrono_setup import ChronoSetupScreen

        def done(cfg) -> None:
            if cfg is not None:
                self.query_one(ChronoFeed).start(cfg)

        self.app.push_screen(ChronoSetupScreen(session_config(self.app)), done)

    def action_back(self) -> None:
        self.dismiss(self.result_event)

    def action_record(self) -> None:
        if self.result_event is not None:  # 20.06: the reading was shown; close
            self.dismiss(self.result_event)
            return
        if self.team is None:
            self.notify(_("Pick the player first"), severity="warning")
            return
        data = self._data()
        if data is None:
            self.notify(_("No reading yet"), severity="warning")
            return
        cv = self.session.chrono_verdict(
            data["fps"], data["forbidden_mode"], data.get("interval_ms")
        )
        if cv.needs_second_player:
            mates = [
                p
                for p in self.session.state.team_players(self.team)
                if p.number != self.number and p.status in (m.IN_PLAY, m.NO_MARKER)
            ]
            if mates:

                def second(number: int | None) -> None:
                    if number is not None:
                        self._append({**data, "second": number})

                self.app.push_screen(
                    SecondPlayerScreen(
                        cv.text, [(p.number, self._label(p.team, p.number)) for p in mates]
                    ),
                    second,
                )
                return
        self._append(data)

    def _append(self, data: dict) -> None:
        try:
            event = self.session.append(ev.CHRONO_READING, data)
        except Refused as exc:
            self.app.push_screen(MessageScreen(_("Refused"), str(exc)))
            return
        except OSError as exc:
            self.app.push_screen(MessageScreen(_("Could not save"), str(exc)))
            return
        self.result_event = event
        cv = self.session.chrono_verdict(
            data["fps"], data["forbidden_mode"], data.get("interval_ms")
        )
        box = self.query_one("#cg-result")
        box.display = True
        box.set_class(not cv.eliminates, "-clean")
        self.query_one("#cg-result-digits", Digits).update(f"{data['fps']:.1f}")
        text = [
            self._label(str(data["team"]), int(data["number"]))
            + ": "
            + _(PENALTY_TEXT.get(cv.penalty, cv.penalty)),
            cv.text,
        ]
        if "second" in data:
            text.append(
                _("Second player (29.08)") + ": " + self._label(str(data["team"]), data["second"])
            )
        if cv.flagged:
            text.append(_("Flagged for the head judge"))
        text.append(_("Show this reading to the player (20.06). Enter / Esc: close"))
        self.query_one("#cg-result-text", Static).update("\n".join(text))
        self.query_one("#cg-players", OptionList).disabled = True
        self._refresh_view()


class SecondPlayerScreen(JudgeModal[int | None]):
    """20.04 / 29.08: the second player of a group removal 1+1 (same team)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, why: str, players: list[tuple[int, str]]) -> None:
        super().__init__()
        self.why = why
        self.players = players

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(_("Group removal 1+1: the second player"), classes="dialog-title")
            yield Static(self.why, classes="dialog-note", markup=False)
            yield OptionList(
                *[Option(label, id=str(n)) for n, label in self.players], id="second-players"
            )
            yield Static(_("Enter: choose · Esc: cancel"), classes="dialog-keys")

    def on_mount(self) -> None:
        self.query_one("#second-players", OptionList).focus()

    @on(OptionList.OptionSelected, "#second-players")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_cancel(self) -> None:
        self.dismiss(None)


def attach_hang_chrono(host) -> ChronoFeed | None:
    """The flag-hang check (23.01) with the device: mount a `ChronoFeed` on `host` while its
    fps prompt is open and put every reading (the highest so far) into it through the host's
    hook — the game screen's ``fill_hang_fps(fps, source) -> bool`` or a dialog's
    ``set_fps_reading(fps, source)``.  The feed removes itself (releasing the port) once the
    hook reports the prompt closed (``fill_hang_fps`` returns False, or the game screen's
    hang prompt is no longer open).  Returns the feed, or None when `host` has no hook."""
    fill = getattr(host, "fill_hang_fps", None)
    setter = getattr(host, "set_fps_reading", None)
    if fill is None and setter is None:
        return None
    old = host.query("#hang-feed")
    if old:
        return old.first()
    load_chrono_css(host.app)
    best: list[float] = []

    def still_open() -> bool:
        if fill is None:
            return True  # a dialog: the feed goes with it
        mode = getattr(host, "_hang_mode", None)
        return True if mode is None else bool(mode)

    def on_reading(reading) -> None:
        best.append(reading.fps)
        source = "typed" if reading.format == "typed" else "device"
        if fill is not None:
            if fill(max(best), source) is False:
                feed.remove()
        else:
            setter(max(best), source)

    seen = [False]

    def watch() -> None:
        if feed.is_attached:
            seen[0] = True
            if not still_open():
                feed.remove()
                timer.stop()
        elif seen[0]:
            timer.stop()  # removed with its dialog or after a refused fill

    feed = ChronoFeed(on_reading=on_reading, id="hang-feed")
    containers = host.query(".dialog")
    target = containers.first() if containers else host
    target.mount(feed)
    timer = host.set_interval(0.25, watch)
    return feed
