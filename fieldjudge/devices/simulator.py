"""A pretend chronograph on a pseudo-terminal, for rehearsals and tests (POSIX only).

`PtyChrono` opens a pty pair, puts the slave in raw mode (otherwise ICRNL turns CR into LF)
and publishes a symlink to the slave.  The symlink is the port to open; `unplug()` closes the
pty (the reader sees the same error as a pulled USB cable) and `plug()` opens a new pty and
re-points the symlink, like a device coming back.

Streams are lists of ``(delay_s, bytes)`` chunks: `load_recording` reads JSON lines
``{"delay_s": 0.05, "hex": "3238372e340d"}``; `marker_stream` encodes the shots of
`marker_shots` (a seeded `random.Random`).  Writes never block: with nobody reading, bytes are dropped like on a real
serial line.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import tempfile
import time
import tty
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

Chunk = tuple[float, bytes]  # (delay before writing, bytes)

GEN_FORMATS = ("plain", "stalker-a", "decatur", "stalker-be")


def load_recording(path: str | os.PathLike[str]) -> list[Chunk]:
    """Read a JSONL recording; blank lines and lines starting with ``#`` are skipped."""
    out: list[Chunk] = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            rec = json.loads(line)
            out.append((float(rec.get("delay_s", 0.0)), bytes.fromhex(rec["hex"])))
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}:{n}: bad recording line: {exc}") from exc
    return out


def encode_be(live: float | None, peak: float | None, hit: float | None = None) -> bytes:
    """A 53-byte Stalker bE frame with live/peak/hit blocks (speeds with tenths, None = blank)."""

    def block(kind: bytes, v: float | None) -> bytes:
        speed = b"    " if v is None else f"{round(v * 10):4d}".encode()
        return (kind + b"A" + speed).ljust(15, b" ")

    return b"\x88RD   3" + block(b"4", live) + block(b"5", peak) + block(b"6", hit) + b"\r"


def encode_frame(fps: float, fmt: str = "plain") -> bytes:
    """One shot in a line format (plain, stalker-a, decatur)."""
    if fmt == "plain":
        return f"{fps:.1f}\r\n".encode()
    if fmt == "stalker-a":
        return f"{fps:5.1f}\r".encode()
    if fmt == "decatur":
        return f"+{fps:.1f}\r".encode()
    raise ValueError(f"cannot encode {fmt!r}")


def idle_frame(fmt: str) -> bytes:
    return {"plain": b"000\r\n", "stalker-a": b"   . \r", "decatur": b"?000\r"}[fmt]


def marker_shots(
    fps: float = 285.0,
    spread: float = 3.0,
    interval_ms: float = 110.0,
    jitter: float = 0.1,
    rng: random.Random | None = None,
    count: int | None = None,
    burst: int = 5,
    pause_s: float = 3.0,
    after_release: int = 0,
    after_release_ms: float = 450.0,
    after_release_gap_ms: float = 200.0,
) -> Iterator[tuple[float, float]]:
    """``(time s, fps)`` of each shot of a simulated marker, from time 0.

    The judge pulls the trigger for `burst` shots, at least `interval_ms` apart (up to
    `jitter` × 100 % slower at random, never faster: 20.02 needs 95 ms), then releases it
    for `pause_s` seconds.  A legal marker fires nothing in the pause; with `after_release` > 0
    it fires that many more shots, the first `after_release_ms` after the last shot of the
    burst, then `after_release_gap_ms` apart (19.05: more than one shot, or one later than
    100 ms after the release, fails; only the shots within 500 ms of the judge's "released"
    count, so the default 450 ms lands inside that window when the judge presses r within
    about 0.4 s of the burst's end).  Speeds are uniform in `fps` ± `spread`.  `count` None = endless.
    """
    if interval_ms <= 0 or burst < 1 or pause_s < 0 or after_release < 0 or jitter < 0:
        raise ValueError("interval must be > 0, burst >= 1, pause, after-release and jitter >= 0")
    rng = rng or random.Random()
    t, n = 0.0, 0
    while count is None or n < count:
        last = t
        for i in range(burst):
            if count is not None and n >= count:
                return
            if i:
                t += interval_ms / 1000 * rng.uniform(1.0, 1.0 + jitter)
            yield t, round(rng.uniform(fps - spread, fps + spread), 1)
            last, n = t, n + 1
        for k in range(after_release):
            if count is not None and n >= count:
                return
            t = last + (after_release_ms + k * after_release_gap_ms) / 1000
            yield t, round(rng.uniform(fps - spread, fps + spread), 1)
            n += 1
        t = max(t, last + pause_s) + interval_ms / 1000


def marker_stream(shots: Iterable[tuple[float, float]], fmt: str = "plain") -> Iterator[Chunk]:
    """The chunks a chronograph in `fmt` sends for `shots` (from `marker_shots`): line
    formats send each shot and an idle frame 30 ms later (when the next shot is not sooner);
    stalker-be streams a frame every 50 ms, a moving one per shot, the peak latched."""
    if fmt not in GEN_FORMATS:
        raise ValueError(f"format must be one of {', '.join(GEN_FORMATS)}")
    now = 0.0
    if fmt == "stalker-be":
        period, frame_t, peak = 0.05, 0.0, None
        for t, v in shots:
            while frame_t + period <= t:  # idle frames until the shot's frame
                yield period, encode_be(None, peak)
                frame_t += period
            frame_t += period
            peak = v
            yield period, encode_be(v, v)
        yield period, encode_be(None, peak)  # end the last burst
        return
    pending: tuple[float, bytes] | None = None
    for t, v in shots:
        if pending is not None and pending[0] < t:
            yield pending[0] - now, pending[1]
            now = pending[0]
        yield t - now, encode_frame(v, fmt)
        now = t
        pending = (t + 0.03, idle_frame(fmt))
    if pending is not None:
        yield pending[0] - now, pending[1]


class PtyChrono:
    """A pseudo-terminal chronograph reachable at `path` (a symlink to the current slave)."""

    def __init__(self, link: str | os.PathLike[str] | None = None) -> None:
        self._tmpdir: str | None = None
        if link is None:
            self._tmpdir = tempfile.mkdtemp(prefix="fieldjudge-chrono-")
            link = os.path.join(self._tmpdir, "ttyCHRONO")
        self.path = os.fspath(link)
        if os.path.lexists(self.path) and not os.path.islink(self.path):
            raise FileExistsError(f"{self.path} exists and is not a symlink; not replacing it")
        self.master: int | None = None
        self.slave: int | None = None
        self.slave_name: str | None = None
        self.plug()

    @property
    def plugged(self) -> bool:
        return self.master is not None

    def plug(self) -> str:
        """Open a new pty and point `path` at its slave.  Returns the slave name."""
        if self.plugged:
            return self.slave_name or ""
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self.master, self.slave = master, slave
        self.slave_name = os.ttyname(slave)
        tmp = f"{self.path}.{os.getpid()}.tmp"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(self.slave_name, tmp)
        os.replace(tmp, self.path)  # atomic re-point
        return self.slave_name

    def unplug(self) -> None:
        """Close the pty: the reader's next read fails like a pulled cable."""
        slave, master = self.slave, self.master
        self.slave = self.master = None
        for fd in (slave, master):  # slave first, so the old node goes when the master closes
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass

    def write(self, data: bytes) -> int:
        """Write without blocking; returns bytes written (0 when unplugged or the pty is full)."""
        if self.master is None:
            return 0
        try:
            return os.write(self.master, data)
        except (BlockingIOError, OSError):
            return 0

    def close(self) -> None:
        self.unplug()
        try:
            if os.path.islink(self.path):
                os.unlink(self.path)
        except OSError:
            pass
        if self._tmpdir:
            shutil.rmtree(self._tmpdir, ignore_errors=True)

    def __enter__(self) -> PtyChrono:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def play(
    chrono: PtyChrono,
    chunks: Iterable[Chunk],
    cancelled: Callable[[], bool] = lambda: False,
    speed: float = 1.0,
) -> int:
    """Write `chunks` to `chrono` keeping their delays (absolute deadlines, so no drift).
    Returns the number of chunks written; stops early when `cancelled()`."""
    deadline = time.monotonic()
    written = 0
    for delay, data in chunks:
        deadline += delay / speed
        while True:
            if cancelled():
                return written
            left = deadline - time.monotonic()
            if left <= 0:
                break
            time.sleep(min(left, 0.05))
        chrono.write(data)
        written += 1
    return written
