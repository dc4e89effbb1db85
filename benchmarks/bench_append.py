"""Durable append into ONE game that already holds 100 … 50,000 events: the app's path (a
game intent through the services: the rules, the authority checks, signing, the hash
chain, fsync) and the store layer alone (``EventLog.append``), against two anchors timed
in the same run: an fsync'd append of an event-sized line to a JSON-lines file and an
insert into SQLite in WAL mode with ``synchronous=FULL`` (one transaction an event), each
holding as many events.

Each sample times the four back to back, the order turning each sample, so load hits them
alike; the ratios are pairwise (sample i over the JSON-lines sample i). Target: the app's
append ≤ 2× the fsync'd JSON lines (median pairwise ratio) at every size. The last line
is JSON.

What the anchors do, so the ratio is read for what it is: each writes an event-sized
document (a new random id, the event's fields, placeholder ``prev_hash``, ``hash`` and
``sig`` strings) -- about 500 bytes, the app's line is about 620 (its event, signature and
the file's head). They compute no hash and no signature and check nothing about the file
before writing; the app hashes the event into the chain, signs it with Ed25519 (about 35
µs of CPU on a 2.6 GHz Xeon, most of what it does beyond the store), checks the
authority, that no hand-over took the game away and that the file is still the one it
holds. The anchors are not made to do more: the ratio counts all of that against the app.

    python benchmarks/bench_append.py [--samples 300] [--sizes 100,1000] [--quick]
"""

from __future__ import annotations

import os
import sqlite3
import sys
import tempfile
import time
import uuid
from datetime import date
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).parent))
from fixtures import event_docs, paint_checks, write_game  # noqa: E402
from harness import figures, interleaved, load, parser, ratios, verdict  # noqa: E402

from fieldjudge.services import open_tournament  # noqa: E402
from fieldjudge.services.demo import create_demo  # noqa: E402
from fieldjudge.services.paintball.game import GameSession  # noqa: E402
from fieldjudge.store import EventLog  # noqa: E402

SIZES = (100, 1_000, 10_000, 50_000)
TARGET = 2.0


def anchor_doc(i: int) -> dict:
    return {
        "id": uuid.uuid4().hex,
        "seq": i,
        "type": "paint_check_start",
        "game_clock_ms": i,
        "wall_time": "2026-06-01T10:00:00.000001+00:00",
        "judge": "bench",
        "data": {"team": "a" * 32, "number": i % 99},
        "prev_hash": "0" * 64,
        "hash": "0" * 64,
        "sig": "0" * 88,
        "signer": "0" * 16,
    }


def measure(n: int, root: Path, samples: int) -> dict:
    folder = root / f"t{n}" / "demo"
    create_demo(folder, day=date(2026, 6, 1)).close()
    t = open_tournament(folder, startup_backup=False)
    game = t.games()[4]
    b = game["team_b"]
    numbers = [int(p["number"]) for p in t.players(b)]
    write_game(t.game_path(game["id"]), game, n, body=paint_checks(b, numbers))
    t.close()
    t = open_tournament(folder, startup_backup=False)
    session = GameSession(t, game["id"], judge="bench")
    assert len(session.events) == n
    # the store layer alone: a log of as many events
    store_game = {**game, "id": f"s{n}"}
    store_path = root / f"store{n}.json"
    write_game(store_path, store_game, n)
    log = EventLog.open(store_path)
    # the anchors: JSON lines, SQLite WAL synchronous=FULL, as many events each
    lines_path = root / f"anchor{n}.jsonl"
    lines_path.write_bytes(b"".join(orjson.dumps(d) + b"\n" for d in event_docs(n)))
    fd = os.open(lines_path, os.O_WRONLY | os.O_APPEND)
    os.fsync(fd)
    db = sqlite3.connect(root / f"anchor{n}.sqlite", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, id TEXT, doc BLOB)")
    with db:
        db.executemany(
            "INSERT INTO events VALUES (?, ?, ?)",
            ((d["seq"], d["id"], orjson.dumps(d)) for d in event_docs(n)),
        )
    times: dict[str, list[float]] = {"app": [], "store": [], "jsonl": [], "sqlite": []}
    checked = [p.number for p in session.state.players.values() if p.check is not None]
    state = {"i": 0, "open": checked[0] if checked else None}  # the fixture's last check

    def app() -> None:
        k = state["i"]
        t0 = time.perf_counter()
        if state["open"] is None:
            session.start_check("paint", b, numbers[k % len(numbers)])
            state["open"] = numbers[k % len(numbers)]
        else:
            session.end_check(b, state["open"], "in_play")
            state["open"] = None
        times["app"].append((time.perf_counter() - t0) * 1000)

    def store() -> None:
        k = state["i"]
        t0 = time.perf_counter()
        log.append("paint_check_start", {"team": b, "number": k % 99}, judge="bench")
        times["store"].append((time.perf_counter() - t0) * 1000)

    def jsonl() -> None:
        t0 = time.perf_counter()
        os.write(fd, orjson.dumps(anchor_doc(n + state["i"] + 1)) + b"\n")
        os.fsync(fd)
        times["jsonl"].append((time.perf_counter() - t0) * 1000)

    def sqlite() -> None:
        doc = anchor_doc(n + state["i"] + 1)
        t0 = time.perf_counter()
        with db:
            db.execute(
                "INSERT INTO events VALUES (?, ?, ?)", (doc["seq"], doc["id"], orjson.dumps(doc))
            )
        times["sqlite"].append((time.perf_counter() - t0) * 1000)

    def tick() -> None:
        state["i"] += 1

    try:
        for i in range(samples):
            interleaved(
                1, *((app, store, jsonl, sqlite)[i % 4 :] + (app, store, jsonl, sqlite)[: i % 4])
            )
            tick()
    finally:
        os.close(fd)
        db.close()
        log.close()
        t.close()
    assert len(EventLog.open(t.game_path(game["id"])).events) == n + samples  # all on disk
    return {
        "events": n,
        "ms": {k: figures(v, 3) for k, v in times.items()},
        "app_vs_jsonl": ratios(times["app"], times["jsonl"]),
        "store_vs_jsonl": ratios(times["store"], times["jsonl"]),
        "app_vs_sqlite": ratios(times["app"], times["sqlite"]),
        "loadavg": load(),
    }


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--samples", type=int, help="samples at each size (300; --quick: 8)")
    ap.add_argument(
        "--sizes",
        help="events the game holds, comma-separated (100,1000,10000,50000; --quick: 100)",
    )
    args = ap.parse_args()
    samples = args.samples if args.samples is not None else 8 if args.quick else 300
    try:
        sizes = tuple(int(x) for x in args.sizes.split(",")) if args.sizes else None
    except ValueError:
        sys.exit("--sizes takes whole numbers separated by commas, e.g. 100,1000")
    sizes = sizes or ((100,) if args.quick else SIZES)
    if samples < 1 or min(sizes) < 1:
        sys.exit("--samples and every --sizes must be >= 1")
    with tempfile.TemporaryDirectory() as tmp:
        rows = [measure(n, Path(tmp), samples) for n in sizes]
    for r in rows:
        ms = r["ms"]
        print(
            f"{r['events']:>6} events (load {r['loadavg'][0]}): "
            + "  ".join(f"{k} median {v['median']:.3f} p95 {v['p95']:.3f}" for k, v in ms.items())
            + " ms"
        )
        for name in ("app_vs_jsonl", "store_vs_jsonl", "app_vs_sqlite"):
            x = r[name]
            print(
                f"        {name:15} pairwise min {x['min']:.2f} median {x['median']:.2f} "
                f"max {x['max']:.2f}; p95 ratio {x['p95']:.2f}"
            )
    worst = max(r["app_vs_jsonl"]["median"] for r in rows)
    verdict(
        "append",
        {str(r["events"]): r["ms"]["app"]["median"] for r in rows},
        {str(r["events"]): r["ms"]["jsonl"]["median"] for r in rows},
        {str(r["events"]): r["app_vs_jsonl"] for r in rows},
        f"app append ≤ {TARGET}× fsync'd JSON lines (median pairwise) at every size",
        worst <= TARGET,
        store_vs_jsonl={str(r["events"]): r["store_vs_jsonl"]["median"] for r in rows},
        app_vs_sqlite={str(r["events"]): r["app_vs_sqlite"]["median"] for r in rows},
        samples=samples,
    )


if __name__ == "__main__":
    main()
