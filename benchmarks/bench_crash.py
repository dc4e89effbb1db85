"""Crash safety at scale (issues 10 and 13): 1,000 SIGKILLs, each landing 0-1 ms after the
child signals the start of a write, cycling through line appends, compactions, backup
copies and atomic rewrites of tournament.json. After every kill the folder is opened as
the app opens it and checked: every file and backup validates, every acknowledged event,
team and meta update is on disk, no temp file is left.

The anchor is the ideal: 0 lost, 0 damaged, 0 leftover. Prints the counts and the kills
per kind of write, then one line of JSON (verdict: the three counts, target all 0).

    python benchmarks/bench_crash.py [kills, default 1000]
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from crash_child import kill_many  # noqa: E402

from fieldjudge.services.demo import create_demo  # noqa: E402


def main() -> None:
    quick = "--quick" in sys.argv[1:]  # only check that it runs (seconds)
    args = [a for a in sys.argv[1:] if a != "--quick"]
    kills = 5 if quick else int(args[0]) if args else 1000
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "crash"
        create_demo(folder, day=date(2026, 6, 1)).close()
        acked, damage, aimed = kill_many(folder, kills, seed=10.13)
    elapsed = time.monotonic() - t0
    done = sum(aimed.values())
    lost, damaged, leftover = len(damage.lost), len(damage.damaged), len(damage.leftover)
    print(f"kills landed inside writes: {done} of {kills} ({elapsed:.0f} s)")
    print(
        "  by kind: "
        + ", ".join(
            f"{name} {aimed[k]}"
            for k, name in (
                ("a", "line append"),
                ("c", "compaction"),
                ("b", "backup copy"),
                ("r", "tournament rewrite"),
            )
        )
    )
    print(f"acknowledged: {len(acked.events)} events, {len(acked.teams)} teams")
    print(f"lost {lost}, damaged {damaged}, leftover temp files {leftover} (target 0, 0, 0)")
    for line in (damage.damaged + damage.lost + damage.leftover)[:10]:
        print("  " + line)
    ok = done == kills and lost == damaged == leftover == 0
    print(
        json.dumps(
            {
                "benchmark": "crash",
                "kills": done,
                "kills_by_kind": aimed,
                "acknowledged_events": len(acked.events),
                "verdict": {
                    "lost": lost,
                    "damaged": damaged,
                    "leftover": leftover,
                    "target": 0,
                    "meets_target": ok,
                },
            }
        )
    )


if __name__ == "__main__":
    main()
