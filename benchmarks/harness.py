"""What every benchmark here shares: a real terminal (a pty read into a VT100 screen,
``pyte``), the figures (min/median/p95/max), the pairwise ratios against the anchor timed
in the same run, the machine's load average, and the closing JSON line.

A benchmark times its figure and its anchor alternately (which goes first turns), so load
hits both alike; each figure is reported beside the load average it was taken under."""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import queue
import signal
import statistics
import struct
import subprocess
import termios
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import pyte

TIMEOUT_S = 60.0
#: how often :meth:`Terminal.wait_for` looks at the screen itself
POLL_S = 0.05
#: an app silent this long while the screen does not show what is waited for is repainted
REPAINT_QUIET_S = 3.0
#: ... and one writing all the time (a clock) is repainted this often while it does not
REPAINT_EVERY_S = 10.0


def load() -> list[float]:
    """The machine's load average (1, 5, 15 minutes)."""
    return [round(x, 2) for x in os.getloadavg()]


def memory_mb(pid: int, field: str = "VmHWM") -> float:
    """A live process's memory from ``/proc``: ``VmHWM`` its peak resident set, ``VmRSS``
    the resident set now (MB)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def pct(values: Sequence[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * len(s)) - 1))]


def figures(values: Sequence[float], digits: int = 2) -> dict[str, float]:
    return {
        "min": round(min(values), digits),
        "median": round(statistics.median(values), digits),
        "p95": round(pct(values, 0.95), digits),
        "max": round(max(values), digits),
    }


def ratios(ours: Sequence[float], anchor: Sequence[float]) -> dict[str, float]:
    """min/median/max of the pairwise ratios (sample i of ours over sample i of the
    anchor, taken back to back), and the ratio of the two p95s."""
    pairs = [a / b for a, b in zip(ours, anchor, strict=True) if b > 0]
    return {
        "min": round(min(pairs), 3),
        "median": round(statistics.median(pairs), 3),
        "max": round(max(pairs), 3),
        "p95": round(pct(ours, 0.95) / pct(anchor, 0.95), 3),
    }


def interleaved(n: int, *runs: Callable[[], Any]) -> None:
    """``n`` rounds of every run, the order turning each round."""
    for i in range(n):
        k = i % len(runs)
        for run in runs[k:] + runs[:k]:
            run()


def parser(doc: str | None) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="only check that it runs (seconds)")
    return ap


def verdict(
    bench: str, figure: Any, anchor: Any, ratio: Any, target: str, ok: bool, **extra: Any
) -> None:
    """The closing line: one JSON object (figure, anchor, ratio, verdict, load)."""
    doc = {
        "bench": bench,
        "figure": figure,
        "anchor": anchor,
        "ratio": ratio,
        "target": target,
        "verdict": "meets" if ok else "misses",
        "loadavg": load(),
        "cores": os.cpu_count(),
        **extra,
    }
    print(json.dumps(doc, ensure_ascii=False))


class _Screen(pyte.Screen):
    """pyte's screen, taking a cursor position with more parameters than two as Textual
    may send it (pyte raised TypeError and its parser stopped: a frozen screen)."""

    def cursor_position(self, line: Any = None, column: Any = None, *_more: Any) -> None:
        super().cursor_position(line, column)


class Terminal:
    """One app in its own pty of ``cols``×``rows``, its output read by one thread and fed
    into a VT100 screen by another. :meth:`send` times keys until the screen shows what is
    wanted; the moment is taken when the bytes that make it show arrive, stamped by the
    reader before the emulator parses them (its own cost is not counted, nor does parsing
    a big frame delay the read of the next one)."""

    def __init__(
        self, name: str, argv: list[str], cols: int = 80, rows: int = 24, env: Any = None
    ) -> None:
        self.name, self.cols, self.rows = name, cols, rows
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "COLORTERM": "truecolor", **(env or {})}
        env.pop("TEXTUAL", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: bytecode cached
        self.started = time.perf_counter()

        def controlling_tty() -> None:  # a terminal of its own: SIGHUP when it goes away
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.proc = subprocess.Popen(
            argv,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            preexec_fn=controlling_tty,  # noqa: PLW1509 - before exec, only setsid + ioctl
        )
        os.close(slave)
        self.master = master
        self.screen = _Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.lock = threading.Lock()
        self.bytes_read = 0
        self.repaints = 0  # repaints forced by wait_for (an emulator that lost a sequence)
        self.parse_errors = 0  # sequences pyte could not parse (its parser restarted)
        self._want: Callable[[list[str]], bool] | None = None
        self._seen_at: float | None = None
        self._last_chunk = self.started  # when the app last wrote
        self._done = threading.Event()
        # one thread reads the pty and stamps each chunk as it arrives, another feeds the
        # emulator: a big frame's parsing (pure Python, slow under load) never delays the
        # read of the chunk that follows it, so the emulator's cost is not counted
        self._arrived = self._parsed = 0  # chunks read, chunks on the screen
        self._chunks: queue.SimpleQueue[tuple[float, bytes] | None] = queue.SimpleQueue()
        self.reader = threading.Thread(target=self._read, name=f"pty-{name}", daemon=True)
        self.parser = threading.Thread(target=self._parse, name=f"vt-{name}", daemon=True)
        self.reader.start()
        self.parser.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                self._chunks.put(None)
                return
            self._arrived += 1
            self._chunks.put((time.perf_counter(), chunk))

    def _parse(self) -> None:
        while (item := self._chunks.get()) is not None:
            at, chunk = item
            with self.lock:
                self._last_chunk = at
                self.bytes_read += len(chunk)
                try:
                    self.stream.feed(chunk)
                except Exception:  # pyte failed on a sequence: a new parser, same screen
                    self.parse_errors += 1
                    self.stream = pyte.ByteStream(self.screen)
                want = self._want
                if want is not None and want(self.screen.display):
                    self._seen_at, self._want = at, None
                    self._done.set()
                self._parsed += 1

    def _drain(self) -> None:
        """Wait until every chunk read so far is on the emulator's screen."""
        deadline = time.monotonic() + TIMEOUT_S
        while self._parsed < self._arrived and time.monotonic() < deadline:
            time.sleep(0.001)

    def lines(self) -> list[str]:
        with self.lock:
            return list(self.screen.display)

    def send(self, keys: bytes, until: Callable[[list[str]], bool]) -> float:
        """Write ``keys``; the seconds until the screen satisfies ``until``."""
        self._drain()  # the screen as it is before the keys
        with self.lock:
            self._done.clear()
            if until(self.screen.display):
                raise AssertionError(f"{self.name}: the screen already shows it:\n" + self.text())
            self._want = until
            t0 = time.perf_counter()
            os.write(self.master, keys)
        if not self._done.wait(TIMEOUT_S):
            raise TimeoutError(f"{self.name}: the screen never showed it:\n" + self.text())
        assert self._seen_at is not None
        return self._seen_at - t0

    def wait_for(
        self,
        until: Callable[[list[str]], bool],
        seconds: float = TIMEOUT_S,
        quiet_s: float = REPAINT_QUIET_S,
    ) -> float:
        """Seconds since the process started until the screen satisfies ``until``; a
        ``TimeoutError`` after ``seconds`` (or at once if the app exits). The reader
        takes the moment the bytes that make it show arrive; meanwhile the screen's text
        is polled too. When the app has written nothing for ``quiet_s`` (half a second
        after pyte failed on a sequence), or every :data:`REPAINT_EVERY_S` while the
        screen still does not show it, the app is made to repaint its whole screen (a
        resize): the emulator may have lost a sequence and kept a stale cell under load. Repaints are counted in ``repaints``;
        a figure reached through one is taken at the repaint."""
        with self.lock:
            self._done.clear()
            if until(self.screen.display):
                return time.perf_counter() - self.started
            self._want = until
            errors, self._last_chunk = self.parse_errors, time.perf_counter()
        deadline = last_repaint = time.perf_counter()
        deadline += seconds
        while not self._done.wait(POLL_S):
            now = time.perf_counter()
            with self.lock:
                if self._want is None:
                    break  # the reader saw it between the wait and the lock
                if until(self.screen.display):
                    self._seen_at, self._want = now, None
                    break
                quiet = now - self._last_chunk
                garbled, errors = self.parse_errors > errors, self.parse_errors
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited ({self.proc.returncode}):\n" + self.text())
            if now >= deadline:
                with self.lock:
                    self._want = None
                raise TimeoutError(f"{self.name} never showed it:\n" + self.text())
            stale = now - last_repaint >= REPAINT_EVERY_S  # an app that never goes quiet
            if quiet >= quiet_s or (garbled and quiet >= POLL_S * 10) or stale:
                self.repaints += 1
                self.resize(self.cols, self.rows)
                last_repaint = time.perf_counter()
                with self.lock:
                    self._last_chunk = last_repaint
        assert self._seen_at is not None
        return self._seen_at - self.started

    def resize(self, cols: int, rows: int) -> None:
        """Set the pty's size and tell the app (SIGWINCH): it lays out and paints again."""
        for c in (cols - 1, cols):  # a real change, then back
            fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, c, 0, 0))
            os.killpg(self.proc.pid, signal.SIGWINCH)
            time.sleep(0.05)

    def text(self) -> str:
        return "\n".join(self.lines())

    def close(self) -> None:
        """Stop the app (SIGTERM, then SIGKILL to its whole session after 5 s)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        os.close(self.master)
