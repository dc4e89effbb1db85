"""Wall time from process start to the home screen being interactive, and the peak RSS,
with a tournament of 120 games x 300 events, against a bare Textual app (Header,
DataTable, Footer with as many rows) in the same run (issues 2 and 13).

Each run is a fresh process; "interactive" means the games table is filled and the app
has processed its first refresh. Warm: the summary index is current. Cold: the index is
deleted first, so every game file is read, its chain verified and its summary folded
(the first start after a copy of the folder). The startup backups are made once, before
the timing. Peak RSS is the child's own high-water mark (``VmHWM`` of
``/proc/self/status``, printed as it exits: a forked child's ``ru_maxrss`` starts at its
parent's, which built the fixture). The children run with their bytecode cached, as an
installed fieldjudge has it (``PYTHONDONTWRITEBYTECODE`` is dropped for them; the warm-up
run writes the cache). Runs interleave the three, in an order that turns each run, so
machine load hits them alike.
Targets: cold ≤ 1.5x the bare app, peak RSS ≤ 1.3x. The last line is JSON.

    python benchmarks/bench_startup.py [--runs 3]"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent
GAMES, PER_GAME = 120, 300
TARGET_COLD, TARGET_RSS = 1.5, 1.3

# Both children use the same readiness test: a Pilot waits until the games table has its
# rows and has the screen compose a frame with them, then prints READY (the keys work from
# then on: the cold app summarises the remaining games a slice a frame).
# Both children print their peak RSS (kB) last: VmHWM counts only this process.
PEAK = """
def peak_kb():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
"""

CHILD_BARE = """
import sys
from textual.app import App
from textual.widgets import DataTable, Footer, Header

class Bare(App):
    def compose(self):
        yield Header()
        yield DataTable(id="games")
        yield Footer()
    def on_mount(self):
        t = self.query_one(DataTable)
        t.add_columns("Time", "Field", "Team A", "Team B", "State")
        for i in range(int(sys.argv[1])):
            t.add_row("10:00", "1", "A", "B", "scheduled")

async def pilot_run(pilot):
    app = pilot.app
    while app.screen.query("#games").first().row_count == 0:
        await pilot.pause(0.001)
    await pilot.pause(0)  # one frame composed with the rows
    print("READY", flush=True)
    print("PEAK", peak_kb(), flush=True)
    app.exit()

Bare().run(headless=True, auto_pilot=pilot_run)
"""

CHILD_FIELDJUDGE = """
import sys
from pathlib import Path
from fieldjudge.app import make_app

folder = Path(sys.argv[1])

async def pilot_run(pilot):
    app = pilot.app
    while app.tournament is None or not any(t.row_count for t in app.screen.query("#games")):
        await pilot.pause(0.001)
    await pilot.pause(0)  # one frame composed with the rows
    print("READY", flush=True)
    table = app.screen.query_one("#games")
    while "…" in list(table.get_column_at(len(table.columns) - 1)):
        await pilot.pause(0.001)
    print("FILLED", flush=True)
    print("PEAK", peak_kb(), flush=True)
    app.exit()

make_app(folder.parent, folder, lang="ru").run(headless=True, auto_pilot=pilot_run)
"""


def time_child(code: str, *args: str) -> tuple[float, float, float]:
    """(seconds until READY, until every game's state is shown, peak RSS in MB) of one
    fresh process."""
    t0 = time.perf_counter()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    proc = subprocess.Popen(
        [sys.executable, "-c", PEAK + code, *args], stdout=subprocess.PIPE, text=True, env=env
    )
    assert proc.stdout is not None
    elapsed = filled = peak = None
    for line in proc.stdout:
        if line.startswith("READY"):
            elapsed = filled = time.perf_counter() - t0
        elif line.startswith("FILLED"):
            filled = time.perf_counter() - t0
        elif line.startswith("PEAK"):
            peak = int(line.split()[1]) / 1024  # kB
    if elapsed is None or filled is None or peak is None:
        raise RuntimeError("the child never became ready")
    if proc.wait() != 0:
        raise RuntimeError(f"the child exited with {proc.returncode}")
    return elapsed, filled, peak


def figures(values: list[float], scale: float = 1.0, digits: int = 0) -> dict[str, float]:
    return {
        "min": round(min(values) * scale, digits),
        "median": round(statistics.median(values) * scale, digits),
        "max": round(max(values) * scale, digits),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    if args.runs < 1:
        sys.exit("--runs must be >= 1")
    sys.path.insert(0, str(HERE))
    from fixtures import build

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "big"
        t = build(folder, GAMES * PER_GAME, per_game=PER_GAME)
        rows = len(t.games())
        played = sum(1 for g in t.games() if t.game_path(g["id"]).exists())
        t.close()
        index = folder / ".cache" / "index.json"
        time_child(CHILD_FIELDJUDGE, str(folder))  # the startup backups, once
        bare: list[float] = []
        warm: list[float] = []
        cold: list[float] = []
        cold_filled: list[float] = []
        rss: dict[str, list[float]] = {"bare": [], "warm": [], "cold": []}
        kinds = [
            ("bare", bare, CHILD_BARE, [str(rows)]),
            ("cold", cold, CHILD_FIELDJUDGE, [str(folder)]),
            ("warm", warm, CHILD_FIELDJUDGE, [str(folder)]),
        ]
        for run in range(args.runs):
            # the order turns each run: no kind always follows the cold start (which
            # leaves a freshly written index and a busier machine behind)
            for name, times, code, argv in kinds[run % 3 :] + kinds[: run % 3]:
                if name == "cold":
                    index.unlink(missing_ok=True)
                elapsed, filled, peak = time_child(code, *argv)
                times.append(elapsed)
                if name == "cold":
                    cold_filled.append(filled)
                rss[name].append(peak)
    mb, mw, mc = (statistics.median(x) for x in (bare, warm, cold))
    rb, rw, rc = (statistics.median(rss[k]) for k in ("bare", "warm", "cold"))
    ratio_cold, ratio_warm = mc / mb, mw / mb
    ratio_rss = max(rw, rc) / rb
    print(f"{played} played games x {PER_GAME} events, {rows} rows; {args.runs} runs each")
    for name, xs in (
        ("bare Textual app", bare),
        ("fieldjudge warm", warm),
        ("fieldjudge cold", cold),
    ):
        f = figures(xs, 1000)
        r = figures(rss[name.split()[-1] if name != "bare Textual app" else "bare"], 1, 1)
        print(
            f"{name:18} min {f['min']:5.0f}  median {f['median']:5.0f}  max {f['max']:5.0f} ms"
            f"   peak RSS median {r['median']:5.1f} MB (min {r['min']}, max {r['max']})"
        )
    f = figures(cold_filled, 1000)
    print(
        f"{'  every state shown':18} min {f['min']:5.0f}  median {f['median']:5.0f}  "
        f"max {f['max']:5.0f} ms   (cold: summaries after the first frame)"
    )
    ok = ratio_cold <= TARGET_COLD and ratio_rss <= TARGET_RSS
    print(
        f"cold/bare {ratio_cold:.2f} (target ≤ {TARGET_COLD}), warm/bare {ratio_warm:.2f}, "
        f"RSS {ratio_rss:.2f} (target ≤ {TARGET_RSS}): {'meets' if ok else 'MISSES'}"
    )
    print(
        json.dumps(
            {
                "benchmark": "startup",
                "games": played,
                "events_per_game": PER_GAME,
                "runs": args.runs,
                "bare_ms": figures(bare, 1000),
                "warm_ms": figures(warm, 1000),
                "cold_ms": figures(cold, 1000),
                "cold_every_state_ms": figures(cold_filled, 1000),
                "ratio_cold_every_state": round(statistics.median(cold_filled) / mb, 3),
                "rss_mb": {k: figures(v, 1, 1) for k, v in rss.items()},
                "ratio_warm": round(ratio_warm, 3),
                "ratio_cold": round(ratio_cold, 3),
                "ratio_rss": round(ratio_rss, 3),
                "target_cold": TARGET_COLD,
                "target_rss": TARGET_RSS,
                "ok": ok,
            }
        )
    )


if __name__ == "__main__":
    main()
