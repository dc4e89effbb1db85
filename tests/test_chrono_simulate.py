"""`fieldjudge chrono simulate`: a legal marker by default, each violation one option away
(19.05, 20.02, 20.03), and the stream through a real pseudo-terminal to the reader."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner
from fakes import start_reader

from fieldjudge.cli import main
from fieldjudge.commands.chrono import chrono
from fieldjudge.devices.parsers import Decoder, Reading
from fieldjudge.devices.reader import ChronoReader
from fieldjudge.devices.simulator import marker_shots, marker_stream
from fieldjudge.rules.marker_check import check_marker
from tests.test_chrono_cli import interrupt, read_lines

CMD = [sys.executable, "-m", "fieldjudge.commands.chrono"]
RELEASE_AFTER_S = 0.3  # the judge presses r this long after the last shot of the first burst


def verdict(seed: int = 1, **kw):
    """The marker check of one trigger pull (and what follows it in the pause)."""
    kw.setdefault("count", kw.get("burst", 5) + kw.get("after_release", 0))
    shots = list(marker_shots(rng=random.Random(seed), **kw))
    burst = shots[: kw.get("burst", 5)]
    release = burst[-1][0] + RELEASE_AFTER_S
    check = check_marker([(fps, t) for t, fps in shots], slap_fired=False, release_t=release)
    return check, {t.name: t.outcome for t in check.tests}


@pytest.mark.parametrize("seed", range(20))
def test_the_default_is_a_legal_marker(seed):
    check, outcomes = verdict(seed)
    assert check.admitted, check.reasons
    assert check.min_interval_ms >= 110.0 and check.max_fps <= 288.0
    # endless by default: bursts of 5 with a 3 s pause, nothing fired in the pause
    shots = list(marker_shots(rng=random.Random(seed), count=15))
    gaps = [round(b[0] - a[0], 3) for a, b in zip(shots, shots[1:], strict=False)]
    assert all(g >= 0.110 for g in gaps)
    assert [g > 3.0 for g in gaps] == ([False] * 4 + [True]) * 2 + [False] * 4


@pytest.mark.parametrize(
    "options, failing",
    [
        ({"fps": 310.0}, {"velocity"}),
        ({"interval_ms": 80.0}, {"rate_of_fire"}),
        ({"interval_ms": 94.0, "jitter": 0.0}, {"rate_of_fire"}),
        ({"after_release": 1}, {"after_release"}),
        ({"after_release": 3}, {"after_release"}),
        ({"after_release": 3, "after_release_gap_ms": 70.0}, {"after_release", "rate_of_fire"}),
    ],
)
def test_each_violation_fails_only_its_test(options, failing):
    check, outcomes = verdict(**options)
    assert {name for name, o in outcomes.items() if o == "fail"} == failing


def test_19_05_141_balls_is_a_notice_for_the_judges_not_a_failed_test():
    # 19.05: the 140 balls limit the judges; the check is not failed by them (issue 11, item 4)
    check, outcomes = verdict(burst=141, count=141)
    assert "fail" not in outcomes.values()
    assert check.balls_notice is not None and check.admitted


def test_95_ms_exactly_passes():
    check, _ = verdict(interval_ms=95.0, jitter=0.0)
    assert check.admitted and check.min_interval_ms == 95.0


def test_help_shows_how_to_simulate_each_violation():
    # through the ``fieldjudge`` command, in English: its help texts are translated when it
    # starts, whatever language an earlier command in this process spoke
    res = CliRunner().invoke(main, ["--lang", "en", "chrono", "simulate", "--help"])
    assert res.exit_code == 0
    text = " ".join(res.output.split())
    for line in (
        "The defaults are a LEGAL marker",
        "over the velocity limit (19.05, 20.03) --fps 310",
        "rate of fire too fast (20.02) --interval-ms 80",
        "exactly 94 ms (fails) / 95 ms (passes) --interval-ms 94 --jitter-pct 0",
        "fires after trigger release (19.05) --after-release 1",
        "the 140-ball limit notice (19.05) --burst 141 --count 141",
    ):
        assert line in text, line
    res = CliRunner().invoke(main, ["--lang", "en", "chrono", "simulate", "--burst", "0"])
    assert res.exit_code == 1 and "burst >= 1" in res.output


@pytest.mark.parametrize("fmt", ["plain", "stalker-a", "decatur", "stalker-be"])
def test_every_format_decodes_to_the_shots(fmt):
    shots = list(marker_shots(rng=random.Random(4), count=7, after_release=2))
    d = Decoder(fmt)
    out = [i for _, data in marker_stream(shots, fmt) for i in d.feed(data, 0.0)] + d.flush()
    assert [i.fps for i in out if isinstance(i, Reading)] == [v for _, v in shots]
    assert d.garbled == 0


@pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals are POSIX")
def test_the_default_stream_through_a_pty_reaches_the_reader():
    # The simulator starts firing as soon as it prints its port; shots fired before the
    # reader opens the port are flushed by the open (as on a real cable), so the readings
    # must be a contiguous run of the simulated shots, not necessarily the first ones.
    proc = subprocess.Popen(
        [*CMD, "simulate", "--count", "40", "--seed", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    items: list = []
    reader = th = None
    try:
        path = read_lines(proc, 1)[0]
        reader = ChronoReader(path, on_item=items.append)
        th = start_reader(reader)
        end = time.monotonic() + 20
        while sum(isinstance(i, Reading) for i in items) < 5:
            assert time.monotonic() < end, items
            time.sleep(0.01)
        got = [i.fps for i in items if isinstance(i, Reading)][:5]
        shots = [v for _, v in marker_shots(rng=random.Random(2), count=40)]
        assert any(shots[k : k + 5] == got for k in range(len(shots) - 4)), (got, shots)
    finally:
        if reader:
            reader.stop()
            th.join(3)
        rc, err = interrupt(proc)
    assert rc == 0 and "Traceback" not in err


@pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals are POSIX")
def test_listen_without_port_uses_the_remembered_chronograph_and_its_window():
    from fieldjudge.devices.simulator import PtyChrono, encode_frame
    from fieldjudge.services.paintball.chrono import ChronoConfig, remember

    res = CliRunner().invoke(chrono, ["listen"])
    assert res.exit_code == 1 and "no chronograph chosen on this laptop" in res.output
    with PtyChrono() as sim:
        remember(ChronoConfig(sim.path))  # FIELDJUDGE_CONFIG is the test's folder
        proc = subprocess.Popen(
            [*CMD, "listen", "--format", "plain", "--min-fps", "150", "--max-fps", "320"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            assert '"status":"connected"' in read_lines(proc, 1)[0]
            sim.write(encode_frame(149.0) + encode_frame(287.4) + encode_frame(330.0))
            lines = read_lines(proc, 3)
        finally:
            rc, err = interrupt(proc)
    assert [line.split(',"t"')[0] for line in lines] == [
        '{"error":"implausible speed 149.0 fps","raw":"3134392e30"',
        '{"fps":287.4,"format":"plain"',
        '{"error":"implausible speed 330.0 fps","raw":"3333302e30"',
    ]
    assert rc == 0 and f"Listening on {sim.path}" in err
