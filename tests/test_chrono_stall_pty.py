"""A laptop stall never disqualifies a legal marker (issue 20, RULES.md "Timing a string of
shots", 19.05, 20.02, 20.05), through real pseudo-terminals: frames written in one burst, and
the reading process stopped (SIGSTOP) while the chronograph keeps sending.

Results are awaited by polling a condition with a deadline; the stall itself is the stimulus
(the process is stopped until the chronograph has sent three more shots)."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from fakes import start_reader

from fieldjudge.devices.parsers import Reading
from fieldjudge.devices.reader import ChronoReader
from fieldjudge.devices.simulator import PtyChrono, encode_frame, play
from fieldjudge.rules.chrono_readings import InGameReadings
from fieldjudge.rules.marker_check import FAIL, NOT_DONE, check_marker
from fieldjudge.rules.paintball.chrono import chrono_verdict
from fieldjudge.rules.paintball.setup import Settings
from tests.test_chrono_cli import interrupt, read_lines
from tests.test_chrono_pty import wait_for

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals are POSIX")

CMD = [sys.executable, "-m", "fieldjudge.commands.chrono"]
LEGAL = [285.2, 286.0, 284.7, 285.9, 286.3, 285.1, 284.9, 285.5]  # 285 fps, 110 ms apart


def readings_of(sim: PtyChrono):
    items: list = []
    reader = ChronoReader(sim.path, fmt="plain", on_item=items.append)
    return items, reader, start_reader(reader)


def got(items) -> list[Reading]:
    return [i for i in list(items) if isinstance(i, Reading)]


def no_20_05(readings) -> bool:
    r = InGameReadings("A", 7)
    for reading in readings:
        r.add_reading(reading)
    data = r.event_data()
    return not chrono_verdict(Settings(), data["fps"], False, data.get("interval_ms")).disqualify


def test_a_legal_burst_written_at_once_is_an_unknown_interval_not_a_violation():
    with PtyChrono() as sim:
        items, reader, th = readings_of(sim)
        try:
            wait_for(lambda: reader.connected, what="the reader")
            sim.write(b"".join(encode_frame(v) for v in LEGAL[:5]))  # queued during a stall
            wait_for(lambda: len(got(items)) == 5, what="5 readings")
        finally:
            reader.stop()
            th.join(3)
    readings = got(items)
    assert [r.fps for r in readings] == LEGAL[:5]
    check = check_marker(readings, slap_fired=False, release_t=None)
    rof = check.test("rate_of_fire")
    assert rof.outcome == NOT_DONE and "interval not measured" in rof.message
    assert check.unknown_intervals == 4 and check.min_interval_ms is None
    assert no_20_05(readings)


def send_spaced(sim: PtyChrono, values: list[float], gap_s: float, sent: list[float]) -> None:
    """Write one frame per shot, each at least `gap_s` after the previous write really went
    out (a late write never shortens the next gap: the stream stays legal)."""
    last = None
    for v in values:
        if last is not None:
            while time.monotonic() < last + gap_s:
                time.sleep(0.002)
        sim.write(encode_frame(v))
        last = time.monotonic()
        sent.append(last)


def test_sigstop_of_the_reading_process_during_a_string_is_no_violation():
    """The repro of issue 20: `kill -STOP` the app reading the chrono while a legal marker
    (285 fps, 110 ms) fires; the frames queue and arrive together after `kill -CONT`."""
    with PtyChrono() as sim:
        proc = subprocess.Popen(
            [*CMD, "listen", "--port", sim.path, "--format", "plain"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        sent: list[float] = []
        writer = threading.Thread(target=send_spaced, args=(sim, LEGAL, 0.110, sent), daemon=True)
        try:
            assert json.loads(read_lines(proc, 1)[0])["status"] == "connected"
            writer.start()
            wait_for(lambda: len(sent) >= 3, what="three shots before the stall")
            os.kill(proc.pid, signal.SIGSTOP)
            try:
                wait_for(lambda: len(sent) >= 6, what="three shots during the stall")
            finally:
                os.kill(proc.pid, signal.SIGCONT)
            writer.join(5)
            lines = [json.loads(x) for x in read_lines(proc, len(LEGAL))]
        finally:
            rc, err = interrupt(proc)
    assert rc == 0 and "Traceback" not in err
    assert [rec["fps"] for rec in lines] == LEGAL
    readings = [
        Reading(
            rec["fps"], rec["format"], rec["t"], b"", math.inf if rec["lag"] is None else rec["lag"]
        )
        for rec in lines
    ]
    assert any(not r.timed for r in readings)  # the frames queued by the stall
    check = check_marker(readings, slap_fired=False, release_t=None)
    assert check.test("rate_of_fire").outcome != FAIL, check.test("rate_of_fire").message
    assert check.unknown_intervals >= 1
    assert no_20_05(readings)


def test_a_genuinely_fast_marker_through_a_pty_still_fails():
    """20.02: shots 70 ms apart, each frame on its own, are measured and fail."""
    with PtyChrono() as sim:
        items, reader, th = readings_of(sim)
        try:
            wait_for(lambda: reader.connected, what="the reader")
            play(sim, [(0.07, encode_frame(v)) for v in LEGAL])
            wait_for(lambda: len(got(items)) == len(LEGAL), what="the readings")
        finally:
            reader.stop()
            th.join(3)
    readings = got(items)
    check = check_marker(readings, slap_fired=False, release_t=None)
    assert check.test("rate_of_fire").outcome == FAIL
    assert check.min_interval_ms is not None and check.min_interval_ms < 95
    assert not no_20_05(readings)  # in game: 20.05
