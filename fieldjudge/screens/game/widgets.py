"""Widgets of the live game screen. Each renders from the session's folded state; none keeps
a counter of its own (the clock is read from the session at every refresh)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Digits, Static

from fieldjudge.i18n import _
from fieldjudge.rules.events import VOID
from fieldjudge.rules.paintball import model as m
from fieldjudge.rules.timefmt import format_time_left
from fieldjudge.screens.game.text import (
    END_TEXT,
    PHASE_TEXT,
    Namer,
    clock,
    describe,
    flag_text,
    player_status,
)
from fieldjudge.services.game import GameSession

STATUS_CLASSES = ("in-play", "eliminated", "neutral", "not-admitted", "checking", "carrier")
LOG_LINES = 60  # newest first; the pane shows what fits


class TeamHeader(Vertical):
    """A team's name and, in large digits, how many of its players are alive."""

    def __init__(self, side: str, team: str, name: str) -> None:
        super().__init__(id=f"team-head-{side}", classes="team-head")
        self.team = team
        self.team_name = name
        self.side = side
        self._alive: int | None = None

    def compose(self) -> ComposeResult:
        yield Static(f"{self.side.upper()}: {self.team_name}", classes="team-name")
        yield Digits("0", id=f"alive-{self.side}", classes="alive")

    def show(self, alive: int) -> None:
        if alive == self._alive:  # most events leave the count as it was: no repaint
            return
        self._alive = alive
        self.query_one(Digits).update(str(alive))


class ClockPanel(Vertical):
    _shown: tuple[str, str] | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="phase")
        yield Digits("0:00", id="clock")

    def show(self, session: GameSession) -> None:
        st = session.state
        phase = _(PHASE_TEXT.get(st.phase, st.phase))
        if st.ended and st.end_reason:
            phase = _("Over") + ": " + _(END_TEXT.get(st.end_reason, st.end_reason))
        shown = (phase, format_time_left(session.remaining_ms()))
        if shown == self._shown:  # called 4 times a second: repaint only on a change
            return
        self._shown = shown
        self.query_one("#phase", Static).update(phase, layout=False)  # fixed size
        digits = self.query_one("#clock", Digits)
        digits.update(shown[1])
        digits.set_class(st.phase == m.RUNNING, "running")
        digits.set_class(st.phase in (m.STOPPED, m.HANG_CHECK), "stopped")
        digits.set_class(st.ended, "over")


class PlayerRow(Horizontal):
    """One player of the roster. An event touches one or two rows: :meth:`show` repaints a
    row (and changes its class) only when what it shows changed."""

    def __init__(self, team: str, number: int, name: str) -> None:
        super().__init__(classes="player-row")
        self.team = team
        self.number = number
        self.player_name = name
        self._shown: tuple[str, str] | None = None

    def compose(self) -> ComposeResult:
        yield Static(f"{self.number:>3} {self.player_name}", classes="player-name")
        yield Static("", classes="player-status")

    def show(self, p: m.PlayerState) -> None:
        shown = player_status(p)
        if shown == self._shown:
            return
        old_cls = self._shown[1] if self._shown is not None else None
        self._shown = shown
        text, cls = shown
        self.query_one(".player-status", Static).update(text, layout=False)  # fixed size
        if cls != old_cls:  # the status's own class: one restyle of the row, not six
            self.remove_class(*STATUS_CLASSES, update=False)
            self.add_class(cls)


class RosterPanel(Vertical):
    def __init__(self, side: str, team: str, players: list[m.PlayerState]) -> None:
        super().__init__(id=f"roster-{side}", classes="roster")
        self.team = team
        self.players = players

    def compose(self) -> ComposeResult:
        for p in self.players:
            yield PlayerRow(p.team, p.number, p.name)

    def show(self, st: m.GameState) -> None:
        for row in self.query_children(PlayerRow):
            p = st.player(row.team, row.number)
            if p is not None:
                row.show(p)


class FlagsBar(Horizontal):
    def __init__(self, teams: tuple[str, str]) -> None:
        super().__init__(id="flags")
        self.teams = teams
        self._shown: dict[str, tuple[str, str]] = {}

    def compose(self) -> ComposeResult:
        for side, _team in zip("ab", self.teams, strict=True):
            yield Static("", id=f"flag-{side}", classes="flag")

    def show(self, st: m.GameState, namer: Namer) -> None:
        for side, team in zip("ab", self.teams, strict=True):
            f = st.flags[team]
            shown = (flag_text(st, team, namer), f.location)
            if self._shown.get(side) == shown:
                continue
            self._shown[side] = shown
            w = self.query_one(f"#flag-{side}", Static)
            w.update(shown[0], layout=False)  # fixed size
            w.set_class(f.location == m.CARRIED, "carried")
            w.set_class(f.location == m.HUNG, "hung")


class EventLogView(Static):
    """The game's log, newest first; voided events struck through, void events dimmed,
    events the engine rejected marked."""

    def show(self, session: GameSession, namer: Namer) -> None:
        events = session.events
        gone = session.voided()
        rejected = {n.event_id: session.humanize(n.text) for n in session.state.rejected}
        by_id = {e.id: e for e in events}
        out = Text(no_wrap=True, overflow="ellipsis")
        shown = events[-LOG_LINES:]
        if not shown:
            out.append(_("No events yet"), style="italic")
        for e in reversed(shown):
            line = f"{e.seq:>3} {clock(e.game_clock_ms):>5}  {describe(e, namer, by_id)}"
            style = ""
            if e.id in gone:
                style = "strike dim"
            elif e.type == VOID:
                style = "italic"
            if e.id in rejected:
                line += f"  ⚠ {rejected[e.id]}"
                style = style or "bold"
            out.append(line + "\n", style=style)
        self.update(out, layout=False)  # its height is the pane's, whatever the content
