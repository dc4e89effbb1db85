"""The reader through a real pseudo-terminal: recorded streams, unplug and replug.

Results are awaited by polling a condition with a deadline, never by fixed sleeps; every
reader thread is stopped and joined by the fixture.
"""

from __future__ import annotations

import bisect
import itertools
import os
import select
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fakes import start_reader

from fieldjudge.devices.parsers import Garbled, Reading
from fieldjudge.devices.ports import DeviceId
from fieldjudge.devices.reader import ChronoOpenError, ChronoReader, Status
from fieldjudge.devices.simulator import PtyChrono, encode_frame, load_recording, play

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals are POSIX")

DATA = Path(__file__).parent / "data"
sys.path.insert(0, str(DATA))
from chrono_make_recordings import EXPECTED, EXPECTED_GAPS_MS, EXPECTED_GARBLED  # noqa: E402

DEADLINE_S = 5.0
JITTER_MS = 40.0  # scheduling slack of a loaded test machine on top of the recorded gaps


class Stamped:
    """The simulated chrono, each write stamped just before and just after it: when the
    bytes were really written, whatever the recording asked (a loaded test machine
    writes some late)."""

    def __init__(self, sim: PtyChrono) -> None:
        self.sim = sim
        self.writes: list[tuple[float, float, bytes]] = []

    def write(self, data: bytes) -> None:
        before = time.monotonic()
        self.sim.write(data)
        self.writes.append((before, time.monotonic(), data))


def completing_writes(writes: list[tuple[float, float, bytes]], got: list[Reading]) -> list[int]:
    """For each reading, in order, the write that ended its line (its terminator)."""
    stream = b"".join(d for _, _, d in writes)
    ends = list(itertools.accumulate(len(d) for _, _, d in writes))
    out, start = [], 0
    for r in got:
        at = stream.index(r.raw, start) + len(r.raw)
        term = next(i for i in range(at, len(stream)) if stream[i] in b"\r\n")
        out.append(bisect.bisect_right(ends, term))
        start = term + 1
    return out


def wait_for(cond: Callable[[], bool], timeout: float = DEADLINE_S, what: str = "") -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or cond}")
        time.sleep(0.005)


class Rig:
    """A simulated chrono + a reader thread collecting items."""

    def __init__(self, fmt: str, sim: PtyChrono | None = None, **kw) -> None:
        self.sim = sim or PtyChrono()
        self.items: list[Reading | Garbled | Status] = []
        kw.setdefault("backoff_start", 0.05)
        kw.setdefault("backoff_max", 0.2)
        self.reader = ChronoReader(self.sim.path, fmt=fmt, on_item=self.items.append, **kw)
        self.thread = start_reader(self.reader)

    def readings(self) -> list[Reading]:
        return [i for i in list(self.items) if isinstance(i, Reading)]

    def statuses(self) -> list[str]:
        return [i.state for i in list(self.items) if isinstance(i, Status)]

    def wait_states(self, state: str, n: int = 1) -> None:
        wait_for(lambda: self.statuses().count(state) >= n, what=f"{n}× {state}")

    def stop(self) -> None:
        self.reader.stop()
        self.thread.join(3.0)
        self.sim.close()


@pytest.fixture
def rigs():
    made: list[Rig] = []

    def make(fmt: str = "auto", **kw) -> Rig:
        rig = Rig(fmt, **kw)
        made.append(rig)
        return rig

    yield make
    for rig in made:
        rig.stop()
    assert not any(r.thread.is_alive() for r in made), "a reader thread did not stop"


@pytest.mark.parametrize("name", list(EXPECTED))
def test_recorded_stream_every_reading_arrives(rigs, name):
    fmt = name.replace("_", "-")
    rig = rigs(fmt)
    rig.wait_states("connected")
    stamped = Stamped(rig.sim)
    play(stamped, load_recording(DATA / f"chrono_{name}.jsonl"))  # type: ignore[arg-type]
    want = EXPECTED[name]
    wait_for(lambda: len(rig.readings()) >= len(want), what=f"{len(want)} readings")
    got = rig.readings()
    assert [r.fps for r in got] == want
    assert all(r.format == fmt for r in got)
    assert all(a.t <= b.t for a, b in itertools.pairwise(got))
    garbled = [i for i in rig.items if isinstance(i, Garbled)]
    assert len(garbled) == len(EXPECTED_GARBLED[name]), garbled
    if name in EXPECTED_GAPS_MS:
        # the recording's gaps (94/95/96 ms …) as written: each reading's host window
        # [t - lag, t] holds the moment the write ending its line was made (RULES.md
        # "Timing a string of shots"), whichever thread a loaded machine held up
        writes = stamped.writes
        for r, w in zip(got, completing_writes(writes, got), strict=True):
            before, after, _data = writes[w]
            assert r.t - r.lag - JITTER_MS / 1000 <= after and before <= r.t, (r, writes[w])
        assert sorted(r.lag for r in got)[len(got) // 2] * 1000 < JITTER_MS  # stamped, not late


def test_unplug_and_replug_mid_stream(rigs):
    rig = rigs("plain")
    rig.wait_states("connected")
    first = [280.1, 285.2, 290.3]
    play(rig.sim, [(0.01, encode_frame(v)) for v in first])
    wait_for(lambda: len(rig.readings()) >= 3, what="readings before the unplug")
    rig.sim.write(b"29")  # half a frame in flight when the cable goes
    rig.sim.unplug()
    rig.wait_states("disconnected")
    rig.sim.plug()  # a new pty; the symlink now points at the new slave
    assert os.path.realpath(rig.sim.path) == os.path.realpath(rig.sim.slave_name)
    rig.wait_states("connected", 2)
    second = [295.4, 296.0, 297.1]
    play(rig.sim, [(0.01, encode_frame(v)) for v in second])
    wait_for(lambda: len(rig.readings()) >= 6, what="readings after the replug")
    assert [r.fps for r in rig.readings()] == first + second  # the half frame is dropped
    states = rig.statuses()
    assert states[0] == "connected" and states[-1] == "connected"
    assert states.index("disconnected") < len(states) - 1
    assert not any(isinstance(i, Garbled) for i in rig.items)


def test_device_absent_at_start_then_plugged(rigs):
    sim = PtyChrono()
    sim.unplug()
    os.unlink(sim.path)
    rig = rigs("plain", sim=sim)
    rig.wait_states("reconnecting", 2)
    assert rig.statuses()[0] == "disconnected"
    sim.plug()
    rig.wait_states("connected")
    play(sim, [(0.0, encode_frame(288.0))])
    wait_for(lambda: len(rig.readings()) == 1)
    assert [r.fps for r in rig.readings()] == [288.0]


def test_port_is_opened_exclusively(rigs):
    rig = rigs("plain")
    rig.wait_states("connected")
    second = ChronoReader(rig.sim.path, retry_first_open=False)
    with pytest.raises(ChronoOpenError):
        second.run()


def test_cancellation_callable_stops_the_loop_promptly():
    with PtyChrono() as sim:
        flag = threading.Event()
        items: list = []
        reader = ChronoReader(sim.path, on_item=items.append)
        th = threading.Thread(target=reader.run, kwargs={"cancelled": flag.is_set}, daemon=True)
        th.start()
        wait_for(lambda: any(isinstance(i, Status) for i in items))
        started = time.monotonic()
        flag.set()
        th.join(2.0)
        assert not th.is_alive()
        assert time.monotonic() - started < 1.0


def test_simulator_never_replaces_a_regular_file(tmp_path):
    victim = tmp_path / "ttyCHRONO"
    victim.write_text("keep me")
    with pytest.raises(FileExistsError):
        PtyChrono(victim)
    assert victim.read_text() == "keep me"
    with PtyChrono(tmp_path / "link") as sim:  # a chosen symlink path works
        assert os.path.islink(sim.path)
    assert not os.path.lexists(tmp_path / "link")


def write_all(sim: PtyChrono, data: bytes, timeout: float = 60.0) -> None:
    """Write every byte (the pty buffer is small: loop while the reader drains it)."""
    view = memoryview(data)
    end = time.monotonic() + timeout
    while view:
        n = sim.write(bytes(view[:65536]))
        view = view[n:]
        if not n:
            left = end - time.monotonic()
            assert left > 0, "the reader stopped draining the pty"
            select.select([], [sim.master], [], min(left, 0.1))  # until the pty has room


def test_overlong_line_through_a_pty_is_one_error_then_frames_read_normally(rigs):
    # issue 10: 10 MB of "A" then "287\r" gave a reading of 287 fps
    rig = rigs("auto")
    rig.wait_states("connected")
    write_all(rig.sim, b"A" * 10_000_000 + b"287\r")
    play(rig.sim, [(0.0, encode_frame(288.5))])
    wait_for(lambda: len(rig.readings()) >= 1, timeout=60, what="the reading after the flood")
    assert [r.fps for r in rig.readings()] == [288.5]
    garbled = [i for i in rig.items if isinstance(i, Garbled)]
    assert [(g.reason, g.raw) for g in garbled] == [("line longer than 4096 bytes", b"A" * 32)]


def test_out_of_window_readings_are_errors_through_a_pty(rigs):
    rig = rigs("plain", plausible=(150.0, 320.0))
    rig.wait_states("connected")
    play(rig.sim, [(0.0, b"149.9\r"), (0.0, b"287.4\r"), (0.0, b"320.1\r"), (0.0, b"290\r")])
    wait_for(lambda: len(rig.readings()) >= 2 and len(rig.items) >= 5, what="4 frames")
    assert [r.fps for r in rig.readings()] == [287.4, 290.0]
    assert [i.reason for i in rig.items if isinstance(i, Garbled)] == [
        "implausible speed 149.9 fps",
        "implausible speed 320.1 fps",
    ]


class FakeIdentities:
    """What pyserial's list_ports would say about each pty: set per plug, keyed by the
    slave's real path (pty names are reused after a close)."""

    def __init__(self) -> None:
        self.by_path: dict[str, DeviceId] = {}
        self.asked = 0

    def set(self, sim: PtyChrono, ident: DeviceId) -> None:
        self.by_path = {os.path.realpath(sim.slave_name or ""): ident}

    def __call__(self, path: str) -> DeviceId | None:
        self.asked += 1
        return self.by_path.get(os.path.realpath(path))


def test_reconnect_accepts_only_the_same_device(rigs):
    chosen = DeviceId(None, "CHRONO-A", "FT232R USB UART")
    other = DeviceId(None, "OTHER-B", "CP2102 USB to UART")
    ids = FakeIdentities()
    sim = PtyChrono()
    ids.set(sim, chosen)
    rig = rigs("plain", sim=sim, expect=chosen, identify=ids)
    rig.wait_states("connected")
    play(sim, [(0.0, encode_frame(280.1))])
    wait_for(lambda: len(rig.readings()) == 1, what="a reading from the chosen device")

    sim.unplug()
    ids.by_path = {}
    rig.wait_states("disconnected")
    sim.plug()  # another chronograph on the same path
    ids.set(sim, other)
    wanted = "waiting for USB serial CHRONO-A (FT232R USB UART); "
    wait_for(
        lambda: any(
            isinstance(i, Status) and i.message.startswith(wanted) and "OTHER-B" in i.message
            for i in list(rig.items)
        ),
        what="the reader names the device it waits for and the one it found",
    )
    asked = ids.asked
    wait_for(lambda: ids.asked > asked + 1, what="another look at the port")
    sim.write(encode_frame(290.0))  # the wrong device's shots are never read
    assert rig.statuses().count("connected") == 1

    sim.unplug()
    sim.plug()  # the chosen one is back
    ids.set(sim, chosen)
    rig.wait_states("connected", 2)
    play(sim, [(0.0, encode_frame(285.2))])
    wait_for(lambda: len(rig.readings()) == 2, what="a reading after the right device returns")
    assert [r.fps for r in rig.readings()] == [280.1, 285.2]


def test_a_different_device_at_first_open_is_a_clear_error_without_retry():
    with PtyChrono() as sim:
        ids = FakeIdentities()
        ids.set(sim, DeviceId("/dev/serial/by-id/usb-OTHER-if00-port0", None, ""))
        chosen = DeviceId("/dev/serial/by-id/usb-FTDI_CHRONO-if00-port0", None, "")
        reader = ChronoReader(sim.path, retry_first_open=False, expect=chosen, identify=ids)
        with pytest.raises(ChronoOpenError) as err:
            reader.run()
        assert str(err.value) == (
            f"waiting for usb-FTDI_CHRONO-if00-port0; {sim.path} is usb-OTHER-if00-port0"
        )
