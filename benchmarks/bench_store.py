"""Durable append latency into ONE game that already holds 100, 1,000, 10,000 and 50,000
events (issue 13), against the anchor in the same run: an fsync'd append of a line of the
same size to a JSON-lines file holding as many lines.

Each sample is one ``EventLog.append`` (event built, hashed, written with its head record
and fsync'd) paired with one anchor append, the order alternating, so both see the same
load. Target: p95 of
the store within 1.5x of the anchor's p95 at every size. Prints min/median/p95/max per
size, then one line of JSON whose verdict is the worst p95 ratio.

    python benchmarks/bench_store.py [samples per size, default 300]
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).parent))
from fixtures import event_docs, write_game  # noqa: E402

from fieldjudge.store import EventLog  # noqa: E402

SIZES = (100, 1_000, 10_000, 50_000)
TARGET = 1.5


def stats(times: list[float]) -> dict[str, float]:
    s = sorted(times)
    return {
        "min_ms": round(s[0], 3),
        "median_ms": round(statistics.median(s), 3),
        "p95_ms": round(s[max(0, int(len(s) * 0.95) - 1)], 3),
        "max_ms": round(s[-1], 3),
    }


def anchor_file(path: Path, n: int) -> int:
    """A JSON-lines file of ``n`` event-sized lines; returns an append descriptor."""
    with path.open("wb") as fh:
        for d in event_docs(n):
            fh.write(orjson.dumps(d) + b"\n")
        fh.flush()
        os.fsync(fh.fileno())
    return os.open(path, os.O_WRONLY | os.O_APPEND)


def anchor_append(fd: int, i: int) -> None:
    doc = {
        "id": uuid.uuid4().hex,
        "seq": i,
        "type": "elimination",
        "game_clock_ms": i * 100,
        "wall_time": "2026-06-01T10:00:00+00:00",
        "judge": "Судья поля 1",
        "data": {"reason": "hit", "players": [{"team": "a", "number": i % 99}]},
        "prev_hash": "0" * 64,
        "hash": "0" * 64,
    }
    os.write(fd, orjson.dumps(doc) + b"\n")
    os.fsync(fd)


def measure(n: int, root: Path, samples: int) -> dict:
    game = {"id": f"g{n}", "field": "9", "start": "2026-06-01T09:00", "team_a": "a", "team_b": "b"}
    path = root / f"g{n}.json"
    write_game(path, game, n)
    log = EventLog.open(path)
    assert len(log.events) == n
    fd = anchor_file(root / f"anchor{n}.jsonl", n)
    ours, anchor = [], []
    try:
        for i in range(samples):
            for which in (0, 1) if i % 2 else (1, 0):  # alternate who goes first
                t0 = time.perf_counter()
                if which == 0:
                    log.append(
                        "elimination",
                        {"reason": "hit", "players": [{"team": "a", "number": i % 99}]},
                        judge="Судья поля 1",
                        game_clock_ms=i * 100,
                    )
                    ours.append((time.perf_counter() - t0) * 1000)
                else:
                    anchor_append(fd, n + i + 1)
                    anchor.append((time.perf_counter() - t0) * 1000)
    finally:
        os.close(fd)
        log.close()
    assert len(EventLog.open(path).events) == n + samples  # every append is on disk
    s, a = stats(ours), stats(anchor)
    return {"events": n, "store": s, "anchor": a, "p95_ratio": round(s["p95_ms"] / a["p95_ms"], 3)}


def main() -> None:
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    with tempfile.TemporaryDirectory() as tmp:
        rows = [measure(n, Path(tmp), samples) for n in SIZES]
    for r in rows:
        s, a = r["store"], r["anchor"]
        print(
            f"{r['events']:>6} events: store min {s['min_ms']:.3f} median {s['median_ms']:.3f} "
            f"p95 {s['p95_ms']:.3f} max {s['max_ms']:.3f} ms | anchor min {a['min_ms']:.3f} "
            f"median {a['median_ms']:.3f} p95 {a['p95_ms']:.3f} max {a['max_ms']:.3f} ms | "
            f"p95 ratio {r['p95_ratio']:.2f}"
        )
    worst = max(r["p95_ratio"] for r in rows)
    ok = worst <= TARGET
    print(f"worst p95 ratio {worst:.2f} (target <= {TARGET}): {'meets' if ok else 'MISSES'}")
    print(
        json.dumps(
            {
                "benchmark": "store_append",
                "samples_per_size": samples,
                "rows": rows,
                "verdict": {"worst_p95_ratio": worst, "target": TARGET, "meets_target": ok},
            }
        )
    )


if __name__ == "__main__":
    main()
