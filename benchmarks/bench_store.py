"""Durable append latency of one event into a game of 200 events, with the tournament
already holding 1,000, 10,000 and 50,000 events in other games (issue 2).

Target: p95 <= 3 ms at every size, and the 50,000 figure within 1.5x of the 1,000 one.
Prints the figures, then one line of JSON."""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from fixtures import build, write_game  # noqa: E402

SIZES = (1_000, 10_000, 50_000)
SAMPLES = 200  # appends measured, each into its own game
GAME_EVENTS = 200


def measure(total: int, root: Path) -> dict:
    """One durable append into each of SAMPLES games that hold exactly 200 events."""
    t = build(root / f"t{total}", total)
    games = []
    for k in range(SAMPLES):
        gid = f"bench-{k:03d}"
        write_game(
            t.game_path(gid),
            {"id": gid, "field": "9", "start": "2026-06-01T09:00", "team_a": "a", "team_b": "b"},
            GAME_EVENTS,
        )
        t.game_log(gid, create=False)  # opened (chain verified) before the clock starts
        games.append(gid)
    times = []
    for i, gid in enumerate(games):
        t0 = time.perf_counter()  # through the one writer, as the app appends
        data = {"reason": "hit", "players": [{"team": "a", "number": i}]}
        t.append_game_event(gid, "elimination", data)
        times.append((time.perf_counter() - t0) * 1000)
    t.close()
    times.sort()
    return {
        "events_in_tournament": total,
        "median_ms": round(statistics.median(times), 3),
        "p95_ms": round(times[int(len(times) * 0.95) - 1], 3),
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        rows = [measure(n, Path(tmp)) for n in SIZES]
    for r in rows:
        print(
            f"{r['events_in_tournament']:>7} events in tournament: "
            f"median {r['median_ms']:.3f} ms, p95 {r['p95_ms']:.3f} ms"
        )
    ratio = rows[-1]["p95_ms"] / rows[0]["p95_ms"]
    ok = all(r["p95_ms"] <= 3.0 for r in rows) and ratio <= 1.5
    print(
        f"p95 ratio 50,000 / 1,000: {ratio:.2f} (target <= 1.5); "
        f"{'meets' if ok else 'MISSES'} the targets"
    )
    print(
        json.dumps(
            {
                "benchmark": "store_append",
                "rows": rows,
                "p95_ratio_50k_1k": round(ratio, 3),
                "meets_target": ok,
            }
        )
    )


if __name__ == "__main__":
    main()
