"""Widgets of the live game screen. Each renders from the session's folded state; none keeps
a counter of its own (the clock is read from the session at every refresh)."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.visual import Visual, visualize
from textual.widget import Widget
from textual.widgets import Digits, Static

from fieldjudge.i18n import _, current_language
from fieldjudge.rules.events import VOID, Event
from fieldjudge.rules.paintball import model as m
from fieldjudge.rules.timefmt import format_time_left
from fieldjudge.screens.game.text import END_TEXT, PHASE_TEXT, flag_text, player_status
from fieldjudge.services.paintball.event_text import Namer, clock, describe, event_no, void_parts
from fieldjudge.services.paintball.game import GameSession

NAME_WIDTH = 20  # the roster's name column: "shirt name" and one space before the status
LOG_LINES = 60  # newest first, before the log has a size; then the lines that fit


def draw_line(
    widget: Widget, text: Text, width: int, style: VisualStyle, pad: bool = False
) -> Strip:
    """``text`` drawn as one line of ``widget``, ``width`` cells in ``style`` (a blank line
    for an empty text): what each line widget of the screen keeps while its line stays."""
    drawn = Visual.to_strips(widget, visualize(widget, text), width, 1, style, pad=pad)
    return drawn[0] if drawn else Strip.blank(width, style.rich_style)


class TeamHeader(Vertical):
    """A team's name and, in large digits, how many of its players are alive."""

    def __init__(self, side: str, name: str) -> None:
        super().__init__(id=f"team-head-{side}", classes="team-head")
        self.team_name = name
        self.side = side
        self._alive: int | None = None
        self._digits = Digits("0", id=f"alive-{side}", classes="alive")

    def compose(self) -> ComposeResult:
        yield Static(f"{self.side.upper()}: {self.team_name}", classes="team-name", markup=False)
        yield self._digits

    def show(self, alive: int) -> None:
        if alive == self._alive:  # most events leave the count as it was: no repaint
            return
        self._alive = alive
        self._digits.update(str(alive))


class ClockPanel(Vertical):
    """The game's phase and its clock, in large digits."""

    _shown: tuple[str, str] | None = None

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        # kept, not looked up: shown four times a second (issue 24)
        self._phase, self._digits = Static("", id="phase", markup=False), Digits("0:00", id="clock")

    def compose(self) -> ComposeResult:
        yield self._phase
        yield self._digits

    def show(self, session: GameSession) -> None:
        st = session.state
        phase = _(PHASE_TEXT.get(st.phase, st.phase))
        if st.ended and st.end_reason:
            phase = _("Over") + ": " + _(END_TEXT.get(st.end_reason, st.end_reason))
        shown = (phase, format_time_left(session.remaining_ms()))
        if shown == self._shown:  # called 4 times a second: repaint only on a change
            return
        self._shown = shown
        self._phase.update(phase, layout=False)  # fixed size
        digits = self._digits
        digits.update(shown[1])
        digits.set_class(st.phase == m.RUNNING, "running")
        digits.set_class(st.phase in (m.STOPPED, m.HANG_CHECK), "stopped")
        digits.set_class(st.ended, "over")


class RosterPanel(Widget):
    """A team's roster, a line per player, drawn by the panel itself (one widget, not one
    per player: the screen lays out and composes far fewer widgets at every frame, issue
    24). An event touches one or two players: :meth:`show` repaints only the lines whose
    text or status changed, and each line is drawn once while it stays the same. The
    status's colours are component styles (game.tcss); the flag carrier's line is
    highlighted across the whole width."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "roster--out-name",
        "roster--out",
        "roster--warn",
        "roster--muted",
        "roster--carrier",
    }
    STYLE_OF: ClassVar[dict[str, tuple[str | None, str | None]]] = {
        # status class -> (component of the name, component of the status)
        "eliminated": ("roster--out-name", "roster--out"),
        "neutral": (None, "roster--warn"),
        "checking": (None, "roster--warn"),
        "not-admitted": ("roster--muted", "roster--muted"),
    }

    def __init__(self, side: str, players: list[m.PlayerState]) -> None:
        super().__init__(id=f"roster-{side}", classes="roster")
        self.players = [(p.team, p.number, p.name) for p in players]
        self._shown: list[tuple[str, str]] = [("", "in-play")] * len(players)
        self._strips: dict[int, tuple[Any, Strip]] = {}  # line -> (what it was drawn of, it)

    def on_mount(self) -> None:
        # one line per player, for the whole game: a fixed height, not measured at every
        # layout (issue 24: each prompt that closes lays the screen out again)
        self.styles.height = len(self.players)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()  # a new theme or class: every line drawn again

    def show(self, st: m.GameState) -> None:
        width = self.size.width
        for y, (team, number, _name) in enumerate(self.players):
            p = st.player(team, number)
            if p is None:
                continue
            shown = player_status(p)
            if shown != self._shown[y]:
                self._shown[y] = shown
                self.refresh(Region(0, y, width, 1))  # that line only: no layout

    def line(self, team: str, number: int) -> Text:
        """The line of player ``number`` of ``team`` as the roster shows it."""
        y = self.players.index(next(p for p in self.players if p[:2] == (team, number)))
        return self._line(y)

    def _line(self, y: int) -> Text:
        _team, number, player_name = self.players[y]
        text, status = self._shown[y]
        name_style, status_style = self.STYLE_OF.get(status, (None, None))
        name = Text(f"{number:>3} {player_name}")
        name.truncate(NAME_WIDTH - 1, overflow="ellipsis", pad=True)
        name.append(" ")
        if name_style:
            name.stylize(self.get_component_rich_style(name_style, partial=True))
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append_text(name)
        line.append(
            text, self.get_component_rich_style(status_style, partial=True) if status_style else ""
        )
        return line

    def render(self) -> Text:
        """The roster as one text, a line per player (what the screen shows, for reading)."""
        return Text("\n").join(self._line(y) for y in range(len(self.players)))

    def render_line(self, y: int) -> Strip:
        """Line ``y``: player ``y``, drawn once while he, the width and the style stay."""
        width = self.size.width
        if y >= len(self.players):
            return Strip.blank(width, self.visual_style.rich_style)
        carrier = self._shown[y][1] == "carrier"
        style = self.get_visual_style("roster--carrier") if carrier else self.visual_style
        key = (self._shown[y], width, style)
        kept = self._strips.get(y)
        if kept is not None and kept[0] == key:
            return kept[1]
        strip = draw_line(self, self._line(y), width, style, pad=True)
        self._strips[y] = (key, strip)
        return strip


class FlagsBar(Horizontal):
    def __init__(self, teams: tuple[str, str]) -> None:
        super().__init__(id="flags")
        self.teams = teams
        self._shown: dict[str, tuple[str, str]] = {}
        self._flags = {
            side: Static("", id=f"flag-{side}", classes="flag", markup=False) for side in "ab"
        }

    def compose(self) -> ComposeResult:
        yield from self._flags.values()

    def show(self, st: m.GameState, namer: Namer) -> None:
        for side, team in zip("ab", self.teams, strict=True):
            f = st.flags[team]
            shown = (flag_text(st, team, namer), f.location)
            if self._shown.get(side) == shown:
                continue
            self._shown[side] = shown
            w = self._flags[side]
            w.update(shown[0], layout=False)  # fixed size
            w.set_class(f.location == m.CARRIED, "carried")
            w.set_class(f.location == m.HUNG, "hung")


class EventLogView(Widget):
    """The game's log, newest first, each event by its number (``v`` and the number voids
    it); voided events struck through with «Отменено (№14)» after them (kept in view: the
    struck text is cut first), void events in italics, events the engine rejected marked.
    Only the lines that fit are built (a new size builds them again), and each line once:
    a line is kept, and drawn, while what it shows stays the same (issue 24: a new event
    builds and draws one line, a void two; the others only move down), so the work per
    event does not grow with the log."""

    _source: tuple[GameSession, Namer] | None = None

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        # event id -> (what its line shows, the line): only the lines in view are kept
        self._lines: dict[str, tuple[tuple[Any, ...], Text]] = {}
        self._rows: list[Text] = []  # the lines in view, newest first
        self._strips: dict[int, tuple[Text, Any, Strip]] = {}  # id(line) -> drawn line

    def on_resize(self) -> None:
        if self._source is not None:
            self.show(*self._source)

    def show(self, session: GameSession, namer: Namer) -> None:
        self._source = (session, namer)
        events = session.events
        shown = events[-(self.size.height or LOG_LINES) :]  # no size yet: before the layout
        gone = session.voided_by()
        notes = {n.event_id: n for n in session.state.rejected}
        width, lang = self.size.width, current_language()
        lines: dict[str, tuple[tuple[Any, ...], Text]] = {}
        rows: list[Text] = []
        if not shown:
            rows.append(Text(_("No events yet"), style="italic"))
        by_id: dict[str, Event] | None = None
        for e in reversed(shown):
            void, note = gone.get(e.id), notes.get(e.id)
            key = (lang, width, void.id if void is not None else None, note and note.text)
            kept = self._lines.get(e.id)
            if kept is not None and kept[0] == key:
                row = kept[1]
            else:
                if by_id is None and (e.type == VOID or void is not None):
                    by_id = with_targets(session, shown)  # a void's line names its target
                row = _log_line(session, namer, e, void, note, width, by_id or {})
            lines[e.id] = (key, row)
            rows.append(row)
        self._lines, self._rows = lines, rows
        ids = {id(row) for row in rows}
        self._strips = {k: v for k, v in self._strips.items() if k in ids}
        self.refresh()  # its height is the pane's, whatever the content: no layout

    def render(self) -> Text:
        """The log as one text, a line per event (what the screen shows, for reading)."""
        out = Text(no_wrap=True, overflow="ellipsis")
        for row in self._rows:
            out.append_text(row)
            out.append("\n")
        return out

    def render_line(self, y: int) -> Strip:
        """Line ``y``, drawn once while its text, the width and the style stay the same."""
        width, style = self.size.width, self.visual_style
        rows = self._rows
        if y < len(rows):
            row = rows[y]
        elif y == len(rows) and self._lines:  # below the events' lines an empty one, as a
            row = _EMPTY  # text ending with a new line draws it
        else:
            return Strip.blank(width, style.rich_style)
        kept = self._strips.get(id(row))
        if kept is not None and kept[0] is row and kept[1] == (width, style):
            return kept[2]
        strip = draw_line(self, row, width, style)
        self._strips[id(row)] = (row, (width, style), strip)
        return strip


_EMPTY = Text()


class LogPicker(ScrollView):
    """The events a judge may pick to void, newest first, a line each (a voided event is
    left out: voiding its void brings it back), the cursor on one. Shown in the game
    screen's prompt (``PromptPanel.ask_pick``), which hands it the list keys.

    Only the lines in view are built, each once while it, the width and the style stay the
    same (issue 24: a list of options built and measured an option per event of the game,
    0.25-0.46 s to open at 5,000 events, and left them all to the garbage collector)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"log-picker--cursor"}

    def __init__(self, session: GameSession, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = session
        gone = session.voided()
        # the events listed, newest first: references only, no line built yet
        self.events: list[Event] = [e for e in reversed(session.events) if e.id not in gone]
        self.cursor = 0
        self._namer = Namer(session.names, session.state)
        self._strips: dict[int, tuple[Any, Strip]] = {}  # index -> (what it was drawn of, it)
        self.virtual_size = Size(0, len(self.events))

    def on_resize(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.events))

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()  # a new theme or focus: every line drawn again

    def line(self, index: int) -> Text:
        """The line of the ``index``-th event listed (0: the newest)."""
        e = self.events[index]
        by_id = with_targets(self.session, [e])  # a void's line names its target
        text = f"{e.seq:>3} {clock(e.game_clock_ms):>5} {describe(e, self._namer, by_id)}"
        return Text(text, no_wrap=True, overflow="ellipsis")

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        if not 0 <= index < len(self.events):
            return Strip.blank(width, self.visual_style.rich_style)
        here = index == self.cursor
        style = self.get_visual_style("log-picker--cursor") if here else self.visual_style
        key = (here, width, style)
        kept = self._strips.get(index)
        if kept is not None and kept[0] == key:
            return kept[1]
        strip = draw_line(self, self.line(index), width, style, pad=True)
        if len(self._strips) > 4 * max(1, self.size.height):  # keep the lines near the view
            top = self.scroll_offset.y
            self._strips = {
                i: v for i, v in self._strips.items() if top <= i < top + self.size.height
            }
        self._strips[index] = (key, strip)
        return strip

    def move_to(self, index: int) -> None:
        """Put the cursor on the ``index``-th event listed, scrolled into view."""
        if not self.events:
            return
        index = max(0, min(index, len(self.events) - 1))
        if index == self.cursor:
            return
        old, self.cursor = self.cursor, index
        self.refresh_line(old)
        self.refresh_line(index)
        top, height = self.scroll_offset.y, self.scrollable_content_region.height
        if index < top:
            self.scroll_to(y=index, animate=False)
        elif height and index >= top + height:
            self.scroll_to(y=index - height + 1, animate=False)

    def action_cursor(self, step: int) -> None:
        self.move_to(self.cursor + step)

    def action_page(self, step: int) -> None:
        self.move_to(self.cursor + step * max(1, self.scrollable_content_region.height))

    def action_first(self) -> None:
        self.move_to(0)

    def action_last(self) -> None:
        self.move_to(len(self.events) - 1)

    def picked(self) -> str | None:
        """The id of the event under the cursor (None: no event listed)."""
        return self.events[self.cursor].id if self.events else None

    def on_click(self, event: events.Click) -> None:
        """A click puts the cursor on the line under it (Enter picks it)."""
        at = event.get_content_offset(self)
        if at is not None and 0 <= self.scroll_offset.y + at.y < len(self.events):
            self.move_to(self.scroll_offset.y + at.y)


def with_targets(session: GameSession, shown: list[Event]) -> dict[str, Event]:
    """The events in view by id, and the targets their voids name (a void's line names
    its target, a void of a void its target's target), looked up in the log only when
    they are out of view."""
    by_id = {e.id: e for e in shown}
    wanted = [e for e in shown if e.type == VOID]
    done: set[str] = set()
    while wanted:
        e = wanted.pop()
        target = e.data.get("target") if isinstance(e.data, dict) else None
        if not isinstance(target, str) or e.id in done:
            continue
        done.add(e.id)
        found = by_id.get(target) or session.log.by_id(target)
        if found is not None:
            by_id[target] = found
            if found.type == VOID:
                wanted.append(found)
    return by_id


def _log_line(
    session: GameSession,
    namer: Namer,
    e: Event,
    void: Event | None,
    note: Any,
    width: int,
    by_id: dict[str, Event],
) -> Text:
    """One line of the log: ``e`` struck through when ``void`` took it back, marked with
    the engine's ``note`` when it refused it."""
    head = f"{e.seq:>3} {clock(e.game_clock_ms):>5}  "
    if void is not None:  # struck through, and which void struck it
        mark = "  " + _("Voided ({event})").format(event=event_no(void.seq))
        row = Text(head, style="dim")
        row.append_text(_fit(Text(describe(e, namer, by_id), "strike dim"), width, row, mark))
        row.append(mark, style="italic")
    elif e.type == VOID:  # the reason kept in view: the voided event's line is cut
        first, what, reason = void_parts(e, namer, by_id)
        row = Text(head + first, style="italic")
        row.append_text(_fit(Text(what, "italic"), width, row, reason))
        row.append(reason, style="italic")
    else:
        row = Text(head + describe(e, namer, by_id))
    if note is not None and void is None:
        row.append(f"  ⚠ {session.humanize(note.text)}")
        if e.type != VOID:
            row.stylize("bold")
    return row


def _fit(middle: Text, width: int, before: Text, after: str) -> Text:
    """``middle`` cut (with an ellipsis) so that ``before``, it and ``after`` fit in
    ``width`` cells: what follows it (a void's mark or reason) stays in view."""
    if width:
        room = width - before.cell_len - cell_len(after)
        middle.truncate(max(1, room), overflow="ellipsis")
    return middle
