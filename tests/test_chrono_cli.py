"""``fieldjudge chrono`` as a user runs it: subprocesses, real pseudo-terminals, SIGINT."""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
import threading
import time

import pytest
from click.testing import CliRunner
from fakes import start_reader

from fieldjudge.commands.chrono import chrono
from fieldjudge.devices.reader import ChronoReader
from fieldjudge.devices.simulator import PtyChrono, marker_shots, marker_stream, play

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals are POSIX")

CMD = [sys.executable, "-m", "fieldjudge.commands.chrono"]


def read_lines(proc: subprocess.Popen, n: int, timeout: float = 8.0) -> list[str]:
    """Read `n` lines from the child's stdout, with a deadline (no blocking forever)."""
    fd = proc.stdout.fileno()
    buf = b""
    end = time.monotonic() + timeout
    while buf.count(b"\n") < n:
        left = end - time.monotonic()
        if left <= 0 or proc.poll() is not None and not select.select([fd], [], [], 0)[0]:
            break
        ready, _, _ = select.select([fd], [], [], min(left, 0.1))
        if ready:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            buf += chunk
    return buf.decode().splitlines()[:n]


def interrupt(proc: subprocess.Popen) -> tuple[int, str]:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError("did not exit on SIGINT") from None
    return proc.returncode, proc.stderr.read().decode()


def test_listen_prints_json_lines_and_exits_cleanly_on_sigint():
    with PtyChrono() as sim:
        stop = threading.Event()
        proc = subprocess.Popen(
            [*CMD, "listen", "--port", sim.path, "--format", "plain"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        feeder = threading.Thread(
            target=play,
            args=(sim, marker_stream(marker_shots(286, 2, rng=random.Random(7)), "plain")),
            kwargs={"cancelled": stop.is_set},
            daemon=True,
        )
        try:
            first = json.loads(read_lines(proc, 1)[0])
            assert first["status"] == "connected"
            feeder.start()
            lines = [json.loads(x) for x in read_lines(proc, 3)]
            assert len(lines) == 3
            for rec in lines:
                assert rec["format"] == "plain" and 284 <= rec["fps"] <= 288
                assert isinstance(rec["t"], float)
        finally:
            stop.set()
            rc, err = interrupt(proc)
            if feeder.is_alive():
                feeder.join(2)
        assert rc == 0, err
        assert "Traceback" not in err


def test_listen_nonexistent_port_is_a_clear_error():
    proc = subprocess.run(
        [*CMD, "listen", "--port", "/dev/no-such-chrono"],
        capture_output=True,
        timeout=20,
    )
    assert proc.returncode != 0
    err = proc.stderr.decode()
    assert "/dev/no-such-chrono" in err and "does not exist" in err
    assert "Traceback" not in err


def test_simulate_prints_its_port_and_plays():
    proc = subprocess.Popen(
        [*CMD, "simulate", "--fps", "290", "--spread", "1", "--rate", "20", "--seed", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    items: list = []
    reader = None
    th = None
    try:
        path = read_lines(proc, 1)[0]
        assert os.path.islink(path)
        reader = ChronoReader(path, on_item=items.append)
        th = start_reader(reader)
        end = time.monotonic() + 8
        while sum(hasattr(i, "fps") for i in items) < 3:
            assert time.monotonic() < end, items
            time.sleep(0.01)
        assert all(289 <= i.fps <= 291 for i in items if hasattr(i, "fps"))
    finally:
        if reader:
            reader.stop()
            th.join(3)
        rc, err = interrupt(proc)
    assert rc == 0 and "Traceback" not in err
    assert not os.path.exists(path)  # the symlink is cleaned up


def test_ports_and_help_in_process():
    runner = CliRunner()
    res = runner.invoke(chrono, ["ports"])
    assert res.exit_code == 0 and "Bauds:" in res.output
    res = runner.invoke(chrono, ["listen", "--help"])
    assert "--format" in res.output and "stalker-be" in res.output
