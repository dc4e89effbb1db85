"""The chronograph reader: a blocking loop meant for a thread.  No Textual, no TinyDB.

It opens the port with ``exclusive=True``, loops on ``read(in_waiting or 1)`` with a short
timeout, checks the cancellation callable every pass, stamps each chunk with
``time.monotonic()`` and the bound of how late that stamp may be (see `_pump`), feeds `Decoder` and hands every `Reading`, `Garbled` and `Status` to
``on_item`` (called in the reader thread).  An unplug (SerialException / OSError) gives
``Status("disconnected")``; the reader then retries with back-off (0.2 s doubling to 2 s,
``Status("reconnecting")`` before each wait) until cancelled, and calls
``reset_input_buffer()`` after every open so a stale backlog is not taken for new shots.

With ``expect`` (the `DeviceId` of the chosen chronograph) every open, the first one and each
reconnect, first asks ``identify(port)`` what is on the port now and accepts only that same
device (same USB serial number, or same ``/dev/serial/by-id`` name); another device gives
``Status("waiting", "waiting for USB serial A1B2 (…); /dev/ttyUSB0 is …")`` and the retry
loop goes on.  Readings outside ``plausible`` fps are `Garbled` (see `Decoder`).

From a Textual screen::

    @work(thread=True, exclusive=True, group="chrono")
    def run_chrono(self) -> None:
        worker = get_current_worker()
        reader = ChronoReader(
            port, baud, fmt="auto",
            on_item=lambda item: self.app.call_from_thread(self.on_chrono_item, item),
        )
        reader.run(cancelled=lambda: worker.is_cancelled)

Without Textual: ``reader.run`` on a thread … ``reader.stop(); thread.join()``.
"""

from __future__ import annotations

import errno
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import serial

from .parsers import MAX_BUFFER, PLAUSIBLE_FPS, Decoder, Garbled, Reading
from .ports import DeviceId, identify_port

CONNECTED = "connected"
DISCONNECTED = "disconnected"
RECONNECTING = "reconnecting"
WAITING = "waiting"  # the port holds another device (or none): waiting for the chosen one

# A blocked read returns within this: a stamp taken by a healthy reader lags the frame by at
# most about this much, so intervals between such stamps stay measured (20.02 needs 95 ms).
READ_TIMEOUT_S = 0.01


@dataclass(frozen=True, slots=True)
class Status:
    state: str  # "connected" | "disconnected" | "reconnecting" | "waiting"
    message: str  # the library's (or the OS's) English: for the log, never shown alone
    t: float
    code: str = ""  # the OS error's errno name ("EIO", "ENOENT"), "" when it gave none


_ERRNO_IN_TEXT = re.compile(r"\[Errno (\d+)\]")


def errno_code(exc: BaseException) -> str:
    """The errno name of an OS error, also when the serial library wrapped it in its own
    exception (its cause, its context, or "[Errno 5]" in its text); "" if none."""
    seen: BaseException | None = exc
    for _depth in range(4):
        if seen is None:
            break
        code = getattr(seen, "errno", None)
        if isinstance(code, int):
            return errno.errorcode.get(code, str(code))
        seen = seen.__cause__ or seen.__context__
    found = _ERRNO_IN_TEXT.search(str(exc))
    return errno.errorcode.get(int(found.group(1)), found.group(1)) if found else ""


Item = Reading | Garbled | Status


class ChronoOpenError(Exception):
    """The port could not be opened and the reader was told not to retry the first open."""


class ChronoReader:
    """Read one chronograph port until cancelled.

    `port` is a device path (``/dev/ttyUSB0``, a ``/dev/serial/by-id`` name, a symlink, COM3)
    or a pyserial URL (``loop://``).  `fmt`/`unit` go to `Decoder`.  With
    ``retry_first_open=False`` a first open that fails raises `ChronoOpenError` from `run`
    (the CLI uses this to report a wrong port); otherwise the reader waits for the device.
    """

    def __init__(
        self,
        port: str,
        baud: int = 9600,
        fmt: str = "auto",
        unit: str = "fps",
        on_item: Callable[[Item], object] = lambda item: None,
        *,
        read_timeout: float = READ_TIMEOUT_S,
        backoff_start: float = 0.2,
        backoff_max: float = 2.0,
        retry_first_open: bool = True,
        low_latency: bool = True,
        clock: Callable[[], float] = time.monotonic,
        plausible: tuple[float, float] = PLAUSIBLE_FPS,
        max_buffer: int = MAX_BUFFER,
        expect: DeviceId | None = None,
        identify: Callable[[str], DeviceId | None] = identify_port,
    ) -> None:
        if not 0 < read_timeout <= 0.1:
            raise ValueError("read_timeout must be in (0, 0.1] s so cancellation stays prompt")
        self.port = port
        self.baud = baud
        self.decoder = Decoder(fmt, unit, plausible, max_buffer)
        self.expect = expect
        self.identify = identify
        self.on_item = on_item
        self.read_timeout = read_timeout
        self.backoff_start = backoff_start
        self.backoff_max = backoff_max
        self.retry_first_open = retry_first_open
        self.low_latency = low_latency
        self.clock = clock
        self._stop = threading.Event()
        self.connected = False
        self.callback_errors = 0
        self._reset_at = 0.0

    # -- control

    def stop(self) -> None:
        """Ask the loop to end; it returns within about one read timeout."""
        self._stop.set()

    # -- the loop

    def run(self, cancelled: Callable[[], bool] | threading.Event | None = None) -> None:
        """Blocking: read, decode and deliver until `cancelled()` is true or `stop()`."""
        if isinstance(cancelled, threading.Event):
            cancelled = cancelled.is_set
        ext = cancelled or (lambda: False)

        def done() -> bool:
            return self._stop.is_set() or bool(ext())

        delay = self.backoff_start
        first = True
        outage = False
        while not done():
            other = self._other_device()
            if other is not None:
                if first and not self.retry_first_open:
                    raise ChronoOpenError(other)
                self._emit(Status(WAITING, other, self.clock()))
                outage = True
                self._wait(delay, done)
                delay = min(delay * 2, self.backoff_max)
                continue
            try:
                ser = self._open()
            except (serial.SerialException, OSError, ValueError) as exc:
                if first and not self.retry_first_open:
                    raise ChronoOpenError(f"cannot open {self.port}: {exc}") from exc
                if not outage:
                    self._emit(
                        Status(
                            DISCONNECTED,
                            f"cannot open {self.port}: {exc}",
                            self.clock(),
                            errno_code(exc),
                        )
                    )
                    outage = True
                self._emit(Status(RECONNECTING, f"retry in {delay:.1f} s", self.clock()))
                self._wait(delay, done)
                delay = min(delay * 2, self.backoff_max)
                continue
            first = False
            outage = False
            delay = self.backoff_start
            self.connected = True
            self._emit(Status(CONNECTED, f"{self.port} @ {self.baud}", self.clock()))
            try:
                self._pump(ser, done, self._reset_at)
            except (serial.SerialException, OSError) as exc:
                for item in self.decoder.flush():
                    self._emit(item)
                self.decoder.reset()
                self.connected = False
                outage = True
                self._emit(
                    Status(
                        DISCONNECTED, str(exc) or type(exc).__name__, self.clock(), errno_code(exc)
                    )
                )
            finally:
                self.connected = False
                try:
                    ser.close()
                except Exception:  # noqa: BLE001 - closing a dead port may fail any way
                    pass
        for item in self.decoder.flush():
            self._emit(item)

    def _other_device(self) -> str | None:
        """None when the port may be opened; else why not (the chosen device is not there)."""
        if self.expect is None or not self.expect.known:
            return None
        try:
            now = self.identify(self.port)
        except Exception as exc:  # noqa: BLE001 - a failing lookup is "not there yet"
            now, why = None, str(exc)
        else:
            why = ""
        if self.expect.matches(now):
            return None
        there = now.label if now is not None else (why or "nothing")
        return f"waiting for {self.expect.label}; {self.port} is {there}"

    def _open(self) -> serial.SerialBase:
        ser = serial.serial_for_url(
            self.port,
            baudrate=self.baud,
            timeout=self.read_timeout,
            write_timeout=1.0,
            exclusive=True,
            do_not_open=True,
        )
        ser.open()
        try:
            if self.low_latency and hasattr(ser, "set_low_latency_mode"):
                ser.set_low_latency_mode(True)  # FTDI latency timer 16 ms → 1 ms (Linux)
        except (ValueError, OSError, NotImplementedError):
            pass  # not an FTDI / not Linux / a pty: keep the default latency
        self._reset_at = self.clock()  # bytes read from now on arrived after this
        ser.reset_input_buffer()  # drop a stale backlog from before (re)connect
        self.decoder.reset()
        return ser

    def _pump(self, ser: serial.SerialBase, done: Callable[[], bool], since: float) -> None:
        """Read until `done`, telling the decoder when each chunk's bytes arrived.

        Each pass notes the clock, asks how many bytes wait and reads them (or blocks for one
        byte up to the read timeout).  Bytes found waiting arrived after the previous pass
        asked (everything waiting then was read) and before this read returned; bytes a
        blocked read waited for arrived after this pass asked.  So a chunk read at ``t``
        arrived in ``[lo, t]`` and its lag is ``t - lo``: a few ms while the reader keeps up,
        the whole pause when the app stalled (GC, fsync, SIGSTOP, a loaded CPU), whether the
        stall hit during the read or between reads.  The decoder marks frames that completed
        together in one chunk as untimed.  `since` is the clock taken just before the open
        reset the input buffer (nothing older is kept).  RULES.md "Timing a string of
        shots"."""
        asked = since
        while not done():
            before = self.clock()
            waiting = ser.in_waiting
            data = ser.read(waiting or 1)
            t = self.clock()
            lo = asked if waiting else before
            asked = before
            if not data:
                continue
            for item in self.decoder.feed(data, t, max(0.0, t - lo)):
                self._emit(item)

    def _wait(self, seconds: float, done: Callable[[], bool]) -> None:
        end = time.monotonic() + seconds
        while not done():
            left = end - time.monotonic()
            if left <= 0:
                return
            self._stop.wait(min(left, self.read_timeout))

    def _emit(self, item: Item) -> None:
        try:
            self.on_item(item)
        except Exception:  # noqa: BLE001 - a UI callback must not kill the reader thread
            self.callback_errors += 1
