"""Chronograph frames → readings. Pure: bytes in, `Reading` / `Garbled` out, no I/O, no clock.

Formats (byte examples and sources: `shared/chrono-protocols.md` of the project's design notes):

* ``plain``      number lines: ``287``, ``287.4``, ``+287.4``, ``?000``; zero is the idle frame.
* ``stalker-a``  Stalker/JUGS "A": hundreds, tens, ones [``.`` tenths]; ``   . `` or blank = idle.
* ``stalker-be`` Stalker "bE": ``0x88``, unit byte, …, ASCII block count, 15-byte blocks
  (``'4'`` live, ``'5'`` peak, ``'6'`` hit), CR.  See `stalker_be.StalkerBE` for how a shot is taken.
* ``decatur``    Decatur SI-3/SI-3C: ``+``/``-``/``?`` direction then the speed; ``OK`` command
  replies that land inside the data (``12OK3.4``) are removed.
* ``chrony``     Shooting Chrony broadcast lines (best effort, see `parse_chrony`).

Every frame is one of: a reading, idle (nothing to report), or garbled (counted, shown, never a
reading).  Parsers never raise on any input.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from .stalker_be import StalkerBE

MAX_BUFFER = 4096  # bytes kept without a CR before the splitter gives up on them
MAX_FRAME = 128  # longer frames are garbage for every supported format (bE is 53 bytes)
# A paintball marker shoots 100-500 fps at most (a field limit is about 280-300 fps): outside
# this window a "reading" is noise or a wrong unit, counted as an error, never shown.
PLAUSIBLE_FPS: tuple[float, float] = (100.0, 500.0)

# Units → fps.  The frames themselves carry no unit (bE's unit byte is not documented well
# enough to trust), so the unit is a setting; a unit suffix on a line ("287.4 FPS") wins.
# Exact factors (1 ft = 0.3048 m, 1 mi = 5280 ft, 1 nmi = 1852 m).
UNIT_TO_FPS: dict[str, float] = {
    "fps": 1.0,
    "mph": 5280 / 3600,
    "km/h": 1000 / 0.3048 / 3600,
    "m/s": 1 / 0.3048,
    "knots": 1852 / 0.3048 / 3600,
}
_UNIT_ALIASES = {
    b"FPS": "fps",
    b"FT/S": "fps",
    b"MPH": "mph",
    b"KPH": "km/h",
    b"KMH": "km/h",
    b"KM/H": "km/h",
    b"M/S": "m/s",
    b"MPS": "m/s",
    b"KTS": "knots",
    b"KN": "knots",
}

FORMATS = ("plain", "stalker-a", "stalker-be", "decatur", "chrony")
# `auto` tries these in order and locks onto the first that understands a frame (idle frames
# included).  When the locked format rejects a frame, auto tries the others and re-locks onto
# one that parses it (a Decatur gun first sending "+287.4" looks plain until a "-" frame).
# plain accepts everything stalker-a does, so under auto an "A" stream is labelled plain.
AUTO_ORDER = ("stalker-be", "chrony", "plain", "decatur", "stalker-a")


def to_fps(value: float, unit: str) -> float:
    """Convert a speed in `unit` (fps, mph, km/h, m/s, knots) to feet per second, kept at
    the device's precision: no rounding here (RULES.md "Reading precision": the rules judge
    the whole fps, rounded down, and show the value as read). Only float noise beyond 9
    decimals is trimmed, so 205.0 mph is 300.666666667 fps, not 300.7."""
    if unit == "fps":
        return float(value)
    return round(value * UNIT_TO_FPS[unit], 9)


UNTIMED = math.inf  # `Reading.lag` of a reading whose arrival time is not known


@dataclass(frozen=True, slots=True)
class Reading:
    """One shot: velocity in fps, the format that produced it, host time (monotonic s).

    `t` is the best time the laptop has for the shot: when the chunk holding the frame's line
    end was read.  `lag` (seconds) bounds how much earlier the line end may really have
    arrived: the frame arrived in ``[t - lag, t]``.  `UNTIMED` (infinite) when the time is not
    known at all: frames that arrived together in one read, a reading the judge typed.
    No supported serial format carries the device's own shot interval (chrono-protocols.md),
    so a reading has none. RULES.md "Timing a string of shots"."""

    fps: float
    format: str
    t: float
    raw: bytes = field(repr=False)
    lag: float = 0.0

    @property
    def timed(self) -> bool:
        return math.isfinite(self.lag)


@dataclass(frozen=True, slots=True)
class Garbled:
    """A frame no parser accepted (or that failed a sanity check).  Counted, never a reading."""

    raw: bytes
    reason: str
    t: float


# --------------------------------------------------------------------------- splitting


@dataclass(frozen=True, slots=True)
class Overflow:
    """A line longer than the splitter's cap: one error, and everything up to the next CR
    is dropped (the tail of an over-long line is never a frame).  `head` is its first bytes."""

    head: bytes


OVERFLOW_HEAD = 32  # bytes of an over-long line kept to show the judge


class FrameSplitter:
    """Split a byte stream on CR.  Keeps bytes (``0x88`` is not UTF-8), strips LF/NUL/spaces
    at both ends of a frame, handles glued frames and frames split across reads, and caps the
    pending buffer: a line growing past `max_buffer` bytes gives one `Overflow` and the rest
    of that line, up to and including its CR, is discarded.  The output depends only on the
    bytes, never on how they were chunked."""

    def __init__(self, max_buffer: int = MAX_BUFFER) -> None:
        self.max_buffer = max_buffer
        self._buf = bytearray()
        self._skipping = False  # inside an over-long line: drop bytes until the next CR

    def feed(self, data: bytes) -> list[bytes | Overflow]:
        out: list[bytes | Overflow] = []
        view = memoryview(data)
        start, n = 0, len(data)
        while start <= n:
            cr = data.find(b"\r", start)
            end = n if cr < 0 else cr
            if not self._skipping and end > start:
                if len(self._buf) + (end - start) > self.max_buffer:
                    head = bytes(self._buf[:OVERFLOW_HEAD])
                    head += bytes(view[start : start + OVERFLOW_HEAD - len(head)])
                    out.append(Overflow(head))
                    self._buf.clear()
                    self._skipping = True
                else:
                    self._buf += view[start:end]
            if cr < 0:
                break
            if self._skipping:
                self._skipping = False
            else:
                frame = bytes(self._buf).strip(b" \n\x00")
                if frame:
                    out.append(frame)
            self._buf.clear()
            start = cr + 1
        return out

    def clear(self) -> None:
        self._buf.clear()
        self._skipping = False

    @property
    def pending(self) -> int:
        return len(self._buf)


# --------------------------------------------------------------------------- per-format parsers
# Each returns IDLE, a (speed, unit-or-None) tuple, or None ("not this format").


class _Idle:
    def __repr__(self) -> str:
        return "IDLE"


IDLE = _Idle()

_NUM = rb"(\d{1,4}(?:\.\d{0,2})?|\.\d)"
_UNIT_RE = rb"\s*(FPS|FT/S|MPH|KPH|KMH|KM/H|M/S|MPS|KTS|KN)?"
_PLAIN_RE = re.compile(rb"^[+?]?\s*" + _NUM + _UNIT_RE + rb"$", re.IGNORECASE)
_A_RE = re.compile(rb"^0*(\d{0,3})(?:\.(\d?))?" + _UNIT_RE + rb"$", re.IGNORECASE)
_DECATUR_RE = re.compile(rb"^([+\-?])\s*(\d{1,4}(?:\.\d)?|\.\d)" + _UNIT_RE + rb"$", re.I)


def _unit(suffix: bytes | None) -> str | None:
    return _UNIT_ALIASES.get(suffix.upper()) if suffix else None


def parse_plain(frame: bytes):
    """``287``, ``287.4``, ``+287.4``, ``287.4 FPS``; ``000``/``?000``/``.`` are idle."""
    if frame == b".":
        return IDLE
    m = _PLAIN_RE.match(frame)
    if not m:
        return None
    v = float(m.group(1))
    return IDLE if v == 0 else (v, _unit(m.group(2)))


def parse_stalker_a(frame: bytes):
    """Stalker "A": up to 3 integer digits, optional ``.`` + tenths; ``.`` alone is idle
    (the frame ``   . `` after stripping).  Leading zeros or spaces allowed."""
    m = _A_RE.match(frame)
    if not m:
        return None
    whole, tenths = m.group(1), m.group(2)
    if not whole and not tenths:
        return IDLE if (frame.startswith(b".") or frame.startswith(b"0")) else None
    v = float((whole or b"0") + b"." + (tenths or b"0"))
    return IDLE if v == 0 else (v, _unit(m.group(3)))


_OK = b"OK"


def parse_decatur(frame: bytes):
    """Decatur: direction ``+`` approaching, ``-`` receding, ``?`` unknown, then the speed.
    The direction is dropped (a ball is timed either way).  ``OK`` alone is a command reply
    (idle); an ``OK`` inside the data (``12OK3.4``) is removed before parsing, because the
    reply bytes are inserted between data bytes that stay in order (SI-3 manual p.15)."""
    if frame.replace(_OK, b"").strip() == b"":
        return IDLE if _OK in frame else None
    cleaned = frame.replace(_OK, b"")
    if _OK in frame and cleaned[:1] not in b"+-?":
        cleaned = b"?" + cleaned  # SI-3 noise example carries no direction character
    m = _DECATUR_RE.match(cleaned)
    if not m:
        return None
    v = float(m.group(2))
    return IDLE if v == 0 else (v, _unit(m.group(3)))


_CHRONY_IDLE = re.compile(
    rb"(shooting chrony|rdy>|ok!|^[{}]+$|^len=|^system:|nf$|nm$|^[0-9a-f]{4}:)", re.I
)
_CHRONY_NUMS = re.compile(rb"\d+(?:\.\d+)?")
_CHRONY_LINE = re.compile(rb"^[\s,;:#\-\d.]+$")


def parse_chrony(frame: bytes):
    """Shooting Chrony broadcast (best effort).  The chrony broadcasts "the velocity that was
    just measured, the string number, and the shot number" (opgenorth.net), but no capture of
    the exact layout was found.  Assumption: a line made only of numbers and separators
    (space , ; : # -) holding at least two numbers; the velocity is the number with the most
    integer digits (ties → the last), string and shot numbers are the others.  The banner,
    ``0:rdy>``, ``{}ok!`` and memory-dump header lines are idle."""
    if _CHRONY_IDLE.search(frame):
        return IDLE
    if not _CHRONY_LINE.match(frame):
        return None
    nums = _CHRONY_NUMS.findall(frame)
    if len(nums) < 2:
        return None
    best = max(reversed(nums), key=lambda n: len(n.split(b".")[0]))
    v = float(best)
    if len(best.split(b".")[0]) < 2:
        return None
    return IDLE if v == 0 else (v, None)


_SIMPLE = {
    "plain": parse_plain,
    "stalker-a": parse_stalker_a,
    "decatur": parse_decatur,
    "chrony": parse_chrony,
}


# --------------------------------------------------------------------------- decoder


class Decoder:
    """Splitter + parser for one stream.  ``feed(chunk, t)`` → list of Reading | Garbled.

    `fmt` is one of FORMATS or ``"auto"`` (locks onto the first format that understands a
    frame, idle frames included, re-locking when the stream proves it wrong; `locked` tells
    which).  `unit` is the speed unit the device is
    set to.  Readings outside `plausible` fps (after conversion; default `PLAUSIBLE_FPS`) are
    Garbled, counted as errors, never readings."""

    def __init__(
        self,
        fmt: str = "auto",
        unit: str = "fps",
        plausible: tuple[float, float] = PLAUSIBLE_FPS,
        max_buffer: int = MAX_BUFFER,
    ) -> None:
        if fmt != "auto" and fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r}; choose from auto, {', '.join(FORMATS)}")
        if unit not in UNIT_TO_FPS:
            raise ValueError(f"unknown unit {unit!r}; choose from {', '.join(UNIT_TO_FPS)}")
        if not 0 < plausible[0] < plausible[1]:
            raise ValueError(f"plausible window {plausible!r} must be 0 < low < high fps")
        self.fmt = fmt
        self.unit = unit
        self.plausible = plausible
        self.locked: str | None = None if fmt == "auto" else fmt
        self.splitter = FrameSplitter(max_buffer)
        self._be = StalkerBE()
        self._carry: bytes = b""  # Decatur: data cut by an "OK<LF><CR>" reply
        self._lag = 0.0  # the lag of the chunk being decoded
        self._be_lags: dict[float, float] = {}  # bE: chunk stamp → its lag, while a burst runs
        self.readings = 0
        self.garbled = 0
        self.idle = 0
        self.relocks = 0

    def reset(self) -> None:
        """Forget partial data (after a reconnect).  The format lock is kept."""
        self.splitter.clear()
        self._be = StalkerBE()
        self._carry = b""
        self._be_lags.clear()

    def feed(self, data: bytes, t: float, lag: float = 0.0) -> list[Reading | Garbled]:
        """Decode one chunk read at host time `t`; its bytes arrived in ``[t - lag, t]``.
        When the chunk completes more than one frame, the frames arrived together (a backlog
        after a pause of the reader, a USB hiccup): their readings are `UNTIMED`."""
        out: list[Reading | Garbled] = []
        frames = self.splitter.feed(data)
        if len(frames) > 1:
            lag = UNTIMED
        self._lag = lag
        for frame in frames:
            if isinstance(frame, Overflow):
                self._carry = b""
                out.extend(
                    self._bad(frame.head, t, f"line longer than {self.splitter.max_buffer} bytes")
                )
            else:
                out.extend(self._frame(frame, t))
        return out

    def flush(self) -> list[Reading | Garbled]:
        """Emit what a stream end completes (a bE burst in progress)."""
        return [self._be_reading(v, t, raw) for v, t, raw in self._be.flush()]

    # -- internals

    def _frame(self, frame: bytes, t: float) -> list[Reading | Garbled]:
        try:
            if len(frame) > MAX_FRAME:
                return self._bad(frame, t, f"frame longer than {MAX_FRAME} bytes")
            if self.locked is not None:
                res = self._try(self.locked, frame, t)
                if res is not None:
                    return res
                if self.fmt != "auto":
                    return self._bad(frame, t, f"not a {self.locked} frame")
            for name in AUTO_ORDER:  # auto: lock (or re-lock) onto the first that parses
                if name == self.locked:
                    continue
                res = self._try(name, frame, t)
                if res is not None:
                    if self.locked is not None:
                        self.relocks += 1
                    self.locked = name
                    return res
            return self._bad(frame, t, "unrecognised frame")
        except (ValueError, IndexError, OverflowError) as exc:  # a broken frame of a known format
            return self._bad(frame, t, f"broken frame: {exc}")

    def _try(self, name: str, frame: bytes, t: float) -> list[Reading | Garbled] | None:
        if name == "stalker-be":
            self._be_lags[t] = max(self._lag, self._be_lags.get(t, 0.0))
            res = self._be.feed(frame, t)
            if res is None:
                self._prune_be_lags()
                return None
            out = [self._be_reading(v, t0, raw) for v, t0, raw in res]
            self._prune_be_lags()
            if not out:
                self.idle += 1
            return out
        if name == "decatur" and self._carry:
            frame, self._carry = self._carry + frame, b""
        if name == "decatur" and frame.endswith(_OK) and frame.replace(_OK, b"").strip():
            # "12OK" + LF CR: the reply cut a frame in two; join with the next frame
            self._carry = frame
            self.idle += 1
            return []
        res = _SIMPLE[name](frame)
        if res is None:
            return None
        if res is IDLE:
            self.idle += 1
            return []
        v, unit = res
        return [self._reading(v, name, t, frame, unit)]

    def _be_reading(self, v: float, t0: float, raw: bytes) -> Reading | Garbled:
        """A bE shot is stamped with the first frame of its burst: that frame's lag."""
        return self._reading(v, "stalker-be", t0, raw, lag=self._be_lags.get(t0, UNTIMED))

    def _prune_be_lags(self) -> None:
        start = self._be.burst_t0
        self._be_lags = {} if start is None else {start: self._be_lags.get(start, UNTIMED)}

    def _reading(
        self,
        v: float,
        name: str,
        t: float,
        raw: bytes,
        unit: str | None = None,
        lag: float | None = None,
    ) -> Reading | Garbled:
        fps = to_fps(v, unit or self.unit)
        lo, hi = self.plausible
        if not lo <= fps <= hi:
            self.garbled += 1
            return Garbled(raw, f"implausible speed {fps} fps", t)
        self.readings += 1
        return Reading(fps, name, t, raw, self._lag if lag is None else lag)

    def _bad(self, frame: bytes, t: float, reason: str) -> list[Reading | Garbled]:
        self.garbled += 1
        return [Garbled(frame, reason, t)]
