"""Crash safety (DESIGN.md "Testing"): a child appends events and prints each id after the
append returns; we SIGKILL it 50 times, each time 0-1 ms after it signals that a write is
about to start, so the kills land inside writes. Every file must parse and verify, and
every acknowledged event, team and meta update must be there."""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson

from fieldjudge.store import EventLog, Tournament
from fieldjudge.store.validate import validate_file

KILLS = 50


def _run_and_kill(folder: Path, game_id: str, start: int, rng: random.Random) -> list[str]:
    r, w = os.pipe()
    env = dict(os.environ, FIELDJUDGE_TEST_WRITE_SIGNAL_FD=str(w))
    child = subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__).with_name("crash_child.py")),
            str(folder),
            game_id,
            str(start),
        ],
        stdout=subprocess.PIPE,
        env=env,
        pass_fds=(w,),
    )
    os.close(w)
    target = rng.randint(1, 12)  # kill during the target-th write
    seen = 0
    deadline = time.monotonic() + 30
    try:
        while seen < target and time.monotonic() < deadline:
            ready, _w, _x = select.select([r], [], [], 1.0)
            if ready:
                seen += len(os.read(r, 64))
        delay = rng.random() / 1000  # 0-1 ms into the write
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < delay:
            pass
        child.send_signal(signal.SIGKILL)
        out, _err = child.communicate(timeout=30)
    finally:
        os.close(r)
        if child.poll() is None:
            child.kill()
    assert seen >= target, "the child never reached its writes"
    return out.decode("utf-8").splitlines()


def test_sigkill_inside_writes_loses_and_damages_nothing(demo_folder: Path) -> None:
    rng = random.Random(20.04)
    t = Tournament.open(demo_folder)
    game_id = next(g["id"] for g in t.games() if not t.game_path(g["id"]).exists())
    t.game_log(game_id)  # create the game file
    t.close()
    acked_events: list[str] = []
    acked_teams: list[str] = []
    acked_meta = 0
    for kill in range(KILLS):
        lines = _run_and_kill(demo_folder, game_id, kill * 1000, rng)
        for line in lines:
            kind, _sp, value = line.partition(" ")
            if kind == "E":
                acked_events.append(value)
            elif kind == "T":
                acked_teams.append(value)
            elif kind == "M":
                acked_meta = max(acked_meta, int(value))
        # Every file parses and its chain verifies (opening cleans stray temp files).
        for f in [demo_folder / "tournament.json", *demo_folder.glob("games/*.json")]:
            validate_file(f)
        log = EventLog.open(demo_folder / "games" / f"{game_id}.json")
        ids = {e.id for e in log.events}
        missing = [i for i in acked_events if i not in ids]
        assert missing == [], f"kill {kill}: lost acknowledged events {missing[:3]}"
        assert all(e.data["team"] == "A" for e in log.events)  # no neighbour's fields
        log.close()
        data = orjson.loads((demo_folder / "tournament.json").read_bytes())
        names = {t["name"] for t in data["teams"].values()}
        assert set(acked_teams) <= names, f"kill {kill}: lost a team"
        assert all(set(t) == {"id", "name"} for t in data["teams"].values())
        venue = data["meta"]["1"]["venue"]
        if acked_meta:
            assert int(venue.split()[1]) >= acked_meta
    assert len(acked_events) > KILLS  # the kills interrupted real work
    Tournament.open(demo_folder).close()
    assert not list(demo_folder.rglob("*.fj-tmp-*"))
