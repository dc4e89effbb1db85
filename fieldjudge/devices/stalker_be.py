"""Stalker "bE" binary frames (Applied Concepts Stalker Pro II speed sensor).  Pure.

Layout (Andrewiski/RadarGun ``modules/radarStalker2.js``, JUGS R2000 manual, field captures in
``chrono-protocols.md``): byte 0 ``0x88``; byte 1 unit config; byte 6 the number of 15-byte
speed blocks as ASCII ``'1'``-``'3'``; each block is id (``'4'`` live, ``'5'`` peak, ``'6'``
hit, ``'9'`` spin on newer guns), status (``'A'``/``'C'``), 3 speed digits + a tenths digit,
a second speed, padding; CR.  53 bytes with three blocks.  Real frame::

    b'\x88RD   34A 586         5A 589         6A             \r'   # live 58.6, peak 58.9

The unit is not taken from byte 1 (its unit bits are not documented in the sources); the
decoder's unit setting applies.
"""

from __future__ import annotations


def _be_speed(block: bytes) -> float | None:
    digits, tenths = block[2:5], block[5:6]
    text = digits.strip()
    if not text:
        return None
    if not text.isdigit() or tenths not in (b" ", b"") and not tenths.isdigit():
        raise ValueError("bad digits")
    return float(text + (b"." + tenths if tenths.strip() else b""))


def parse_be_frame(frame: bytes) -> dict[str, float | None] | None:
    """Decode one bE frame into ``{"live", "peak", "hit"}`` speeds (None = blank field).
    Returns None when the frame is not bE at all; raises ValueError when it is bE but broken.

    Layout (RadarGun ``radarStalker2.js``): byte 0 ``0x88``, byte 1 unit config, byte 6 block
    count ``'1'``-``'3'`` (a ``'4'`` is accepted for newer guns' spin block), then 15-byte
    blocks: id, status, 3 speed digits, tenths, second speed, padding.  Trailing spaces were
    stripped by the splitter, so the last block is padded back."""
    if not frame.startswith(b"\x88"):
        return None
    if len(frame) < 7 or frame[6:7] not in b"1234":
        raise ValueError("bE header")
    n = frame[6] - 0x30
    body = frame[7:].ljust(15 * n, b" ")
    if len(body) != 15 * n:
        raise ValueError("bE length")
    out: dict[str, float | None] = {"live": None, "peak": None, "hit": None}
    for i in range(n):
        block = body[15 * i : 15 * i + 15]
        kind = {b"4": "live", b"5": "peak", b"6": "hit", b"9": "spin"}.get(block[:1])
        if kind is None:
            raise ValueError("bE block id")
        if kind == "spin":
            continue
        out[kind] = _be_speed(block)
    return out


class StalkerBE:
    """Turn the 20 Hz bE stream into one reading per shot.

    Constant-on guns send a frame every message period whether or not anything moves, and the
    peak (and hit) fields stay latched after a shot.  So, as RadarGun does, a *burst* starts at
    the first frame whose live speed is non-zero and ends at the first frame where it is
    blank/0.  Each burst gives one reading, stamped with the time of its first frame (the
    shot).  Its speed is the highest of: the live speeds in the burst, and the peak and hit
    speeds when they changed during the burst (up to and including the frame that ends it).
    A peak or hit latched before the burst belongs to an earlier shot and is ignored; when no
    frame came before the burst they count.  A hit or peak without live speed is not a shot.
    The reading is emitted when the burst ends, or by `flush()` (end of stream, unplug).
    """

    _UNSEEN = object()  # no frame before the burst

    def __init__(self) -> None:
        self._last: tuple[object, object] = (self._UNSEEN, self._UNSEEN)  # (peak, hit)
        self._base: tuple[object, object] = (self._UNSEEN, self._UNSEEN)
        self._burst: tuple[float, bytes, float] | None = None  # (t, raw, best)

    def feed(self, frame: bytes, t: float):
        """None when `frame` is not bE; else a list of finished shots ``(speed, t0, raw)``,
        empty for idle frames and frames inside a burst.  ValueError on a broken bE frame."""
        f = parse_be_frame(frame)
        if f is None:
            return None
        live, peak, hit = f["live"], f["peak"], f["hit"]
        out: list[tuple[float, float, bytes]] = []
        moving = bool(live)
        if moving and self._burst is None:
            self._burst = (t, frame, 0.0)
            self._base = self._last
        if self._burst is not None:
            t0, raw0, best = self._burst
            cands = [best, live or 0.0]
            for value, base in ((peak, self._base[0]), (hit, self._base[1])):
                if value and (base is self._UNSEEN or value != base):
                    cands.append(value)
            self._burst = (t0, raw0, max(cands))
            if not moving:
                out.extend(self.flush())
        self._last = (peak, hit)
        return out

    @property
    def burst_t0(self) -> float | None:
        """The time of the first frame of the burst in progress (None between bursts)."""
        return None if self._burst is None else self._burst[0]

    def flush(self) -> list[tuple[float, float, bytes]]:
        if self._burst is None:
            return []
        t0, raw0, best = self._burst
        self._burst = None
        return [(best, t0, raw0)] if best > 0 else []
