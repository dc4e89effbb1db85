"""`ChronoFeed`: the chronograph on screen — the last reading in large digits, the link state
("chrono disconnected" while unplugged), garbled frames counted.

The feed owns the reader: a thread worker (``group="chrono"``) runs
`fieldjudge.devices.reader.ChronoReader`, which reads with a short timeout (10 ms) and checks
the worker's ``is_cancelled`` on every pass; the thread only ``post_message``s one message per
item (`ChronoFeed.ReadingReceived`, `GarbledReceived`, `StatusReceived`), never touches a
widget.  The feed shows a reading, then hands it to its screen, which handles
``on_chrono_feed_reading_received`` on the app thread (where all TinyDB access happens):
straight to the screen, not bubbling through every container between them (each hop is a
message and an idle event more, 100 times a second).  Garbled frames and the link state
stay with the feed.  Unmounting the feed cancels the worker.

Only one reader may hold the port (``exclusive=True`` open): a feed mounted while another is
running (a screen pushed over a screen) pauses the older one and resumes it when it goes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Digits, Static
from textual.worker import get_current_worker

from fieldjudge.devices.parsers import UNTIMED, Garbled, Reading
from fieldjudge.devices.reader import (
    CONNECTED,
    DISCONNECTED,
    WAITING,
    ChronoReader,
    Status,
    errno_code,
)
from fieldjudge.i18n import _, number
from fieldjudge.services.paintball.chrono import ChronoConfig, port_lost_text

NONE = "none"  # no port chosen


def typed_reading(fps: float) -> Reading:
    """A reading the judge typed: stamped now to keep the order, but its shot time is
    unknown (RULES.md "Timing a string of shots": it is never part of a measured interval)."""
    return Reading(float(fps), "typed", time.monotonic(), b"", UNTIMED)


class ChronoFeed(Vertical):
    """The last reading large, the connection state and the garbled count."""

    class ReadingReceived(Message):
        def __init__(self, reading: Reading, gen: int | None = None) -> None:
            super().__init__()
            self.reading = reading
            self.gen = gen

    class GarbledReceived(Message):
        bubble = False  # the feed alone counts them

        def __init__(self, garbled: Garbled, gen: int | None = None) -> None:
            super().__init__()
            self.garbled = garbled
            self.gen = gen

    class StatusReceived(Message):
        bubble = False  # the feed alone shows the link state

        def __init__(self, status: Status, gen: int | None = None) -> None:
            super().__init__()
            self.status = status
            self.gen = gen

    def __init__(
        self, *, on_reading: Callable[[Reading], object] | None = None, id: str | None = None
    ) -> None:
        """`on_reading` (optional) is called on the app thread for every reading shown —
        for hosts that cannot handle the bubbling message (a dialog of another module)."""
        super().__init__(id=id, classes="chrono-feed")
        self.on_reading = on_reading
        self.config: ChronoConfig | None = None
        self.state = NONE
        self.state_text = ""
        self.readings = 0
        self.garbled = 0
        self.last: Reading | None = None
        self._gen = 0
        self._reader: ChronoReader | None = None
        self._released: threading.Event | None = None
        self._paused = False

    def compose(self) -> ComposeResult:
        yield Digits("---.-", id="feed-digits")
        yield Static(_("fps"), id="feed-unit", markup=False)
        yield Static("", id="feed-state", markup=False)
        yield Static("", id="feed-counts", markup=False)

    # -- lifecycle ------------------------------------------------------------------------
    def on_mount(self) -> None:
        stack = self.app.chrono_feeds  # the feeds on screen, newest last
        for other in stack:
            other.pause()
        stack.append(self)
        self._render_state()
        self._render_counts()
        self.start()

    def on_unmount(self) -> None:
        self.stop()
        stack = self.app.chrono_feeds
        was_top = bool(stack) and stack[-1] is self
        if self in stack:
            stack.remove(self)
        if was_top and stack and stack[-1].is_attached:
            stack[-1].resume(after=self._released)

    # -- control (app thread) --------------------------------------------------------------
    def start(self, config: ChronoConfig | None = None, after: threading.Event | None = None):
        """(Re)start reading `config` (default: the port chosen for this session)."""
        if config is not None:
            self.config = config
        elif self.config is None:
            self.config = session_config(self.app)
        previous = self._released
        self.stop()
        self._paused = False
        if self.config is None:
            self._set_state(NONE, _("No chronograph chosen: press p to choose the port"))
            return
        self._gen += 1
        self._released = threading.Event()
        waits = [e for e in (previous, after) if e is not None]
        self._set_state(DISCONNECTED, _("Connecting to {link}…").format(link=self._link()))
        self._read(self.config, self._gen, waits, self._released)

    def stop(self) -> None:
        reader, self._reader = self._reader, None
        if reader is not None:
            reader.stop()
        self.workers.cancel_group(self, "chrono")
        self._gen += 1  # late messages of the old reader are dropped

    def pause(self) -> None:
        if not self._paused:
            self.stop()
            self._paused = True

    def resume(self, after: threading.Event | None = None) -> None:
        if self._paused:
            self.start(after=after)

    # -- the worker (reader thread) --------------------------------------------------------
    @work(thread=True, exclusive=True, group="chrono", exit_on_error=False)
    def _read(
        self,
        config: ChronoConfig,
        gen: int,
        waits: list[threading.Event],
        released: threading.Event,
    ) -> None:
        worker = get_current_worker()
        try:
            for e in waits:  # the previous reader lets go of the port first
                e.wait(1.0)
            if worker.is_cancelled:
                return
            reader = ChronoReader(
                config.port,
                config.baud,
                config.fmt,
                config.unit,
                on_item=lambda item: self._post(item, gen),
                plausible=config.plausible,
                expect=config.device,
            )
            self._reader = reader
            reader.run(cancelled=lambda: worker.is_cancelled)
        except Exception as exc:  # noqa: BLE001 - shown on screen, never a traceback
            self.post_message(
                ChronoFeed.StatusReceived(
                    Status(
                        DISCONNECTED,
                        f"{type(exc).__name__}: {exc}",
                        time.monotonic(),
                        errno_code(exc),
                    ),
                    gen,
                )
            )
        finally:
            released.set()

    def _post(self, item: Reading | Garbled | Status, gen: int) -> None:
        if isinstance(item, Reading):
            self.post_message(ChronoFeed.ReadingReceived(item, gen))
        elif isinstance(item, Garbled):
            self.post_message(ChronoFeed.GarbledReceived(item, gen))
        else:
            self.post_message(ChronoFeed.StatusReceived(item, gen))

    # -- messages (app thread) -------------------------------------------------------------
    def _stale(self, message: ReadingReceived | GarbledReceived | StatusReceived) -> bool:
        if message.gen is not None and message.gen != self._gen:
            message.stop()
            return True
        return False

    def on_chrono_feed_reading_received(self, message: ReadingReceived) -> None:
        message.stop()  # the screen gets it straight from here
        if self._stale(message):
            return
        self.show(message.reading)
        if self.is_attached:
            self.screen.post_message(ChronoFeed.ReadingReceived(message.reading, message.gen))

    def on_chrono_feed_garbled_received(self, message: GarbledReceived) -> None:
        if self._stale(message):
            return
        self.garbled += 1
        self._render_counts()

    def _link(self) -> str:
        """«/dev/ttyUSB0, 9600 бод» in the UI language (the config's own label says
        ``@ 9600 · auto · fps``, words of the command line)."""
        c = self.config
        return "" if c is None else _("{port}, {baud} baud").format(port=c.port, baud=c.baud)

    def on_chrono_feed_status_received(self, message: StatusReceived) -> None:
        if self._stale(message):
            return
        st = message.status
        if st.state == CONNECTED:
            self._set_state(CONNECTED, _("Chrono connected: {link}").format(link=self._link()))
        elif st.state == DISCONNECTED:
            self._set_state(
                DISCONNECTED,
                _("CHRONO DISCONNECTED — reconnecting")
                + f" ({port_lost_text(st.message, st.code)})",
            )
        elif st.state == WAITING and self.config is not None and self.config.device:
            # another device (or none) is on the port: say which one we wait for
            self._set_state(
                DISCONNECTED,
                _("CHRONO: waiting for {device} on {port}").format(
                    device=self.config.device.label, port=self.config.port
                ),
            )
        # "reconnecting" keeps the disconnected text: it repeats every retry

    # -- display ----------------------------------------------------------------------------
    def show(self, reading: Reading) -> None:
        self.readings += 1
        self.last = reading
        self.query_one("#feed-digits", Digits).update(number(reading.fps, spec=".1f"))
        self._render_counts()
        if self.on_reading is not None:
            self.on_reading(reading)

    def _set_state(self, state: str, text: str) -> None:
        self.state = state
        self.state_text = text
        if self.is_mounted:
            self._render_state()

    def _render_state(self) -> None:
        label = self.query_one("#feed-state", Static)
        label.update(self.state_text)
        label.set_class(self.state != CONNECTED, "-down")
        self.set_class(self.state == DISCONNECTED, "-disconnected")

    def _render_counts(self) -> None:
        text = _("readings") + f": {self.readings}   " + _("garbled frames") + f": {self.garbled}"
        # one line of fixed height: no layout pass per reading (100 readings/s stay cheap)
        self.query_one("#feed-counts", Static).update(text, layout=False)


def session_config(app: Any) -> ChronoConfig | None:
    """The port chosen in this run of the app (``FieldJudgeApp.chrono``)."""
    return app.chrono.config
