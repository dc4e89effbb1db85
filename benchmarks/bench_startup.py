"""Wall time from process start to the home screen being interactive with a 50,000-event
tournament, against a bare Textual app (Header, DataTable, Footer) in the same run
(issue 2). Target: ratio <= 1.5.

Each run is a fresh process; "interactive" means the games table is filled and the app
has processed its first refresh. The first fieldjudge run (which builds the summary
index and the startup backups) is reported separately as the cold start.
Prints the figures, then one line of JSON."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent
RUNS = 7

# Both children use the same readiness test: a Pilot waits until the games table has its
# rows, lets the app process one more round of messages, then prints READY.
CHILD_BARE = """
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
        for i in range(212):
            t.add_row("10:00", "1", "A", "B", "scheduled")

async def pilot_run(pilot):
    app = pilot.app
    while app.screen.query("#games").first().row_count == 0:
        await pilot.pause(0.001)
    await pilot.pause()
    print("READY", flush=True)
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
    await pilot.pause()
    print("READY", flush=True)
    app.exit()

make_app(folder.parent, folder, lang="ru").run(headless=True, auto_pilot=pilot_run)
"""


def time_child(code: str, *args: str) -> float:
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("READY"):
            elapsed = time.perf_counter() - t0
            break
    else:
        raise RuntimeError("the child never became ready")
    proc.wait(timeout=60)
    return elapsed


def main() -> None:
    sys.path.insert(0, str(HERE))
    from fixtures import build

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "big"
        build(folder, 50_000).close()
        cold = time_child(CHILD_FIELDJUDGE, str(folder))
        bare, fj = [], []
        for _ in range(RUNS):  # interleaved, so machine load hits both alike
            bare.append(time_child(CHILD_BARE))
            fj.append(time_child(CHILD_FIELDJUDGE, str(folder)))
    mb, mf = statistics.median(bare), statistics.median(fj)
    ratio = mf / mb
    print(f"bare Textual app (Header, DataTable, Footer): median {mb * 1000:.0f} ms")
    print(f"fieldjudge home, 50,000-event tournament:     median {mf * 1000:.0f} ms")
    print(f"cold start (builds the summary index and backups): {cold * 1000:.0f} ms")
    print(f"ratio {ratio:.2f} (target <= 1.5): {'meets' if ratio <= 1.5 else 'MISSES'}")
    print(
        json.dumps(
            {
                "benchmark": "startup",
                "runs": RUNS,
                "bare_median_ms": round(mb * 1000),
                "fieldjudge_median_ms": round(mf * 1000),
                "cold_ms": round(cold * 1000),
                "ratio": round(ratio, 3),
                "meets_target": ratio <= 1.5,
            }
        )
    )


if __name__ == "__main__":
    main()
