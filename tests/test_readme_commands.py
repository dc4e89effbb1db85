"""The README is a contract (issue 12, item 19): every command line of its ```sh blocks runs
verbatim with the installed ``fieldjudge`` on a fresh folder and exits 0.

Placeholders are replaced by real paths: ``DIR`` (a fresh folder; the data folder for
``--data-dir`` outside ``demo``), ``FOLDER`` (the demo tournament), ``ID`` (a played game),
``SOURCE`` (a copy of the tournament, as another laptop would bring it), ``EXPORT`` and
``SEED`` (an exported quidditch match and its revealed seed). The commands that open the
interactive app are listed in INTERACTIVE with the reason; the ones that run until Ctrl-C
(the chronograph, the pit display) are started, used until they work, then stopped with
SIGINT; the pit display listens on a free port (8765 may be taken on a test machine)."""

from __future__ import annotations

import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from datetime import date
from pathlib import Path

import orjson
import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BIN = Path(sys.executable).parent

# command (as written in the README) -> why the test does not run it
INTERACTIVE = {
    "python3 -m venv .venv && . .venv/bin/activate && pip install -e . && fieldjudge demo": (
        "installs into a venv and opens the interactive app (the e2e pty test opens the demo)"
    ),
    "bash tools/test.sh": "the test command itself",
    "fieldjudge": "opens the interactive app",
    "fieldjudge open FOLDER": "opens the interactive app",
    'fieldjudge --judge "Иванов" open FOLDER': "opens the interactive app",
    "python -m pytest": "the test suite itself",
    "python -m pytest --snapshot-update": "rewrites the snapshot files of the repository",
}
# run until Ctrl-C: started, read until they work, then stopped with SIGINT
UNTIL_CTRL_C = {"chrono listen", "chrono simulate"}
SEED = "readme-seed"


def readme_commands() -> list[str]:
    """Every command line of the README's ```sh blocks, without its trailing comment."""
    out: list[str] = []
    for block in re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        for line in block.splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line:
                out.append(line)
    return out


COMMANDS = readme_commands()


def test_the_readme_lists_the_commands_this_test_knows():
    # a renamed or removed interactive command must be updated here, not silently dropped
    assert set(INTERACTIVE) <= set(COMMANDS)
    for cmd in (
        "fieldjudge demo --no-ui --data-dir DIR",
        "fieldjudge export --all --format pdf --out DIR",
        "fieldjudge export --all --format csv --out DIR",
        "fieldjudge quidditch verify EXPORT --seed SEED",
        "fieldjudge chrono simulate",
        "fieldjudge serve",
    ):
        assert cmd in COMMANDS


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    base = tmp_path_factory.mktemp("readme")
    data = base / "data"
    env = dict(os.environ)
    env.update(
        FIELDJUDGE_DATA=str(data),
        XDG_CONFIG_HOME=str(base / "config"),
        XDG_DATA_HOME=str(base / "xdg-data"),
        PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}",
    )
    made = subprocess.run(
        [str(BIN / "fieldjudge"), "demo", "--no-ui", "--data-dir", str(data)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    folder = Path(made.stdout.strip().splitlines()[-1])
    played = sorted(p.stem for p in (folder / "games").glob("*.json"))
    source = base / "other-laptop" / folder.name
    shutil.copytree(folder, source, ignore=shutil.ignore_patterns(".cache"))

    from fieldjudge.rules.quidditch.declarations import Declaration as D
    from fieldjudge.rules.quidditch.sample import sample_setup
    from fieldjudge.services import create_tournament
    from fieldjudge.services.quidditch import QuidditchSession

    q = create_tournament(base / "q" / "quidditch", name="Q", day=date(2026, 6, 1))
    s = QuidditchSession.create(q, sample_setup("m1", client_seed="c"), server_seed=SEED)
    s.resolve(
        [
            D("g_c1", "catch_throw_up", post_order=1),
            D("s_c1", "catch_throw_up", post_order=2),
            D("g_s", "search"),
            D("s_s", "search"),
        ]
    )
    export = base / "match.json"
    export.write_bytes(orjson.dumps(s.export_dict()))
    q.close()
    return {
        "base": base,
        "data": data,
        "env": env,
        "folder": folder,
        "id": played[0],
        "source": source,
        "export": export,
    }


def substitute(cmd: str, w: dict, fresh: Path) -> str:
    data_dir = fresh if " demo " in f" {cmd} " else w["data"]
    cmd = re.sub(r"--data-dir DIR\b", f"--data-dir {data_dir}", cmd)
    cmd = re.sub(r"--out DIR\b", f"--out {fresh / 'out'}", cmd)
    for word, value in (
        ("FOLDER", w["folder"]),
        ("ID", w["id"]),
        ("SOURCE", w["source"]),
        ("EXPORT", w["export"]),
        ("SEED", SEED),
    ):
        cmd = re.sub(rf"\b{word}\b", str(value), cmd)
    assert not re.search(r"\b(DIR|FOLDER|ID|SOURCE|EXPORT|SEED)\b", cmd), cmd
    return cmd


class Lines:
    """Lines of a process's stdout, each waited for until a deadline at most."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc, self.buf = proc, b""
        self.sel = selectors.DefaultSelector()
        self.sel.register(proc.stdout, selectors.EVENT_READ)

    def next(self, seconds: float = 30) -> str:
        deadline = time.monotonic() + seconds
        while b"\n" not in self.buf and time.monotonic() < deadline:
            if self.sel.select(timeout=0.2):
                chunk = os.read(self.proc.stdout.fileno(), 4096)
                if not chunk:
                    break
                self.buf += chunk
        if b"\n" not in self.buf:
            raise AssertionError(f"no line from {self.proc.args!r} in time; got {self.buf!r}")
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode()


def stop(proc: subprocess.Popen) -> int:
    proc.send_signal(signal.SIGINT)
    try:  # generous: under the suite's load a pit read in progress finishes first
        return proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()


def start(cmd: str, env: dict) -> subprocess.Popen:
    return subprocess.Popen(
        ["bash", "-c", f"exec {cmd}"], cwd=ROOT, env=env, stdout=subprocess.PIPE
    )


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_command_runs(command, world, tmp_path):
    if command in INTERACTIVE:
        pytest.skip(INTERACTIVE[command])
    cmd = substitute(command, world, tmp_path)
    if cmd.startswith("python benchmarks/"):
        # here its arguments and imports; tools/test.sh runs every benchmark's --quick after
        # the suite, one at a time (a benchmark under the suite's load times out its frames)
        cmd += " --help"
    env = world["env"]
    if cmd.startswith("fieldjudge serve") and "--help" not in cmd:
        cmd = re.sub(r"--port \d+", "--port 0", cmd)
        cmd += "" if "--port" in cmd else " --port 0"
        server = start(cmd, env)
        try:
            lines = Lines(server)
            line = lines.next()
            while "http://" not in line:
                line = lines.next()
            url = re.search(r"http://127\.0\.0\.1:\d+/", line)
            assert url, line
            with urllib.request.urlopen(url.group(0) + "api/standings", timeout=10) as r:
                assert r.status == 200
                assert "Медведи" in r.read().decode("utf-8")
        finally:
            assert stop(server) == 0
        return
    if any(k in cmd for k in UNTIL_CTRL_C) and "--help" not in cmd:
        sim = start(
            "fieldjudge chrono simulate" if "listen" in cmd else cmd,
            env,
        )
        try:
            port = Lines(sim).next().strip()  # simulate prints its pty's path first
            assert Path(port).exists(), port
            if "listen" in cmd:
                # the README's port is the judge's USB adapter; here the simulator's pty
                listen = start(cmd.replace("/dev/ttyUSB0", port), env)
                try:
                    lines = Lines(listen)
                    reading = orjson.loads(lines.next())
                    while "fps" not in reading:  # status lines first (connected ...)
                        reading = orjson.loads(lines.next())
                    assert 270 <= reading["fps"] <= 300, reading
                finally:
                    assert stop(listen) == 0
        finally:
            assert stop(sim) == 0
        return
    done = subprocess.run(
        ["bash", "-c", cmd], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{cmd}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
