"""Export every protocol and the standings of a 120-game tournament (~300 events a game).

Run by hand: ``python benchmarks/bench_export.py``. Prints median figures; the last line is
JSON. Target (issue 5): all protocols + standings in <= 2 s."""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from datetime import date, datetime, timedelta
from pathlib import Path

import orjson

from fieldjudge.csv_import import RosterRow
from fieldjudge.export import bundle, run_export
from fieldjudge.rules.events import GENESIS_HASH, compute_hash
from fieldjudge.services import create_tournament, open_tournament
from fieldjudge.services.demo_history import Script, play
from fieldjudge.settings import DEFAULTS

GAMES, TEAMS, RUNS = 120, 16, 5


def build(folder: Path) -> int:
    t = create_tournament(
        folder, name="Bench cup", day=date(2026, 5, 16), settings=dict(DEFAULTS), lock=False
    )
    rows = [
        RosterRow(0, f"Team {i:02d}", n, f"Player {i}-{n}", n == 7)
        for i in range(TEAMS)
        for n in (7, 11, 23, 42, 77)
    ]
    t.import_roster(rows)
    ids = [x["id"] for x in t.teams()]
    start = datetime(2026, 5, 16, 8, 0)
    games = []
    for i in range(GAMES):
        a = ids[i % TEAMS]
        b = ids[(i * 7 + 3) % TEAMS] if ids[(i * 7 + 3) % TEAMS] != a else ids[(i + 1) % TEAMS]
        games.append(
            {"field": "1", "start": start + i * timedelta(minutes=20), "team_a": a, "team_b": b}
        )
    t.add_games(games)

    gs = t.games()
    play(t, gs[0]["id"], Script("draw", 2, 2, checks=140), random.Random(1))
    template = bundle.read_log_file(t.game_path(gs[0]["id"]))
    t.close()
    ta, tb = gs[0]["team_a"], gs[0]["team_b"]
    for g in gs[1:]:
        swap = {ta: g["team_a"], tb: g["team_b"]}
        raw = orjson.dumps(template).decode()
        for old, new in swap.items():
            raw = raw.replace(f'"{old}"', f'"@@{new}"')
        doc = orjson.loads(raw.replace('"@@', '"'))
        doc["meta"].update(
            game_id=g["id"], team_a=g["team_a"], team_b=g["team_b"], start=g["start"]
        )
        prev = GENESIS_HASH
        for e in doc["events"]:
            e["prev_hash"] = prev
            e["hash"] = prev = compute_hash(e)
        (folder / "games" / f"{g['id']}.json").write_bytes(orjson.dumps(bundle.doc_to_log(doc)))
    return len(template["events"])


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "bench"
        events = build(folder)
        times, cold = [], []
        for run in range(RUNS):
            t = open_tournament(folder, lock=False, startup_backup=False)

            if run == 0:
                (folder / ".cache" / "index.json").unlink(missing_ok=True)
            t0 = time.perf_counter()
            html = run_export(t, Path(tmp) / f"out{run}", "html")
            csv = run_export(t, Path(tmp) / f"out{run}", "csv")
            dt = time.perf_counter() - t0
            (cold if run == 0 else times).append(dt)
            t.close()
            assert len(html) == GAMES + 2 and len(csv) == 1
        med = statistics.median(times)
        print(f"games {GAMES}, events per game {events}, files {GAMES + 3}")
        print(f"first run (cold summary index): {cold[0]:.3f} s")
        print(f"median of {len(times)} warm runs: {med:.3f} s (target <= 2 s)")
        print(
            json.dumps(
                {
                    "games": GAMES,
                    "events_per_game": events,
                    "cold_s": round(cold[0], 3),
                    "median_s": round(med, 3),
                    "target_s": 2.0,
                    "ok": med <= 2.0,
                }
            )
        )
    sys.exit(0)


if __name__ == "__main__":
    main()
