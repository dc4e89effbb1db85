"""Two laptops through two real Syncthing instances on loopback: an event appended on the
field laptop (GameSession, durable) → visible in the head judge laptop's read of the game
(the store's game_log, reopened and chain-verified). Sequential events, each timed alone.

Anchor, in the same run and through the same Syncthing pair: a plain JSON-lines file in the
same shared folder, one fsync'd line appended, polled on the other side until the line is
there — the simplest thing that could carry an event across.

Target: p95 <= 3 s on loopback with the watcher delay at its minimum (1 s).

    python benchmarks/bench_sync.py [--events 50]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fakes import FakeClock  # noqa: E402
from syncthing_pair import (  # noqa: E402
    HAVE_SYNCTHING,
    Syncthing,
    connected,
    introduce,
    poll,
    share,
)

from fieldjudge.services import TournamentService, open_tournament  # noqa: E402
from fieldjudge.services.demo import create_demo  # noqa: E402
from fieldjudge.services.paintball.game import GameSession  # noqa: E402
from fieldjudge.services.sync.refresh import ChangedLogs  # noqa: E402
from fieldjudge.store import StoreError  # noqa: E402
from fieldjudge.store.sync_files import ensure_stignore  # noqa: E402

TARGET_P95_S = 3.0
POLL_S = 0.01


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def seen_in_log(t_head: TournamentService, changed: ChangedLogs, gid: str, event_id: str) -> bool:
    changed.poll()  # what the head judge's app does about once a second
    try:
        log = t_head.game_log(gid, create=False)
    except StoreError:  # not there yet, or Syncthing is replacing it right now
        return False
    return bool(log.events) and log.events[-1].id == event_id


def seen_in_lines(path: Path, event_id: str) -> bool:
    try:
        raw = path.read_bytes()
    except OSError:
        return False
    last = raw.rstrip(b"\n").rsplit(b"\n", 1)[-1]
    return event_id.encode() in last


def timed(append, seen, n: int) -> list[float]:
    out = []
    for i in range(n):
        key = append(i)
        t0 = time.perf_counter()
        poll(lambda k=key: seen(k), 60, every_s=POLL_S)
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=50)
    ap.add_argument("--quick", action="store_true", help="only check that it runs (seconds)")
    parsed = ap.parse_args()
    n = 2 if parsed.quick else parsed.events
    if not HAVE_SYNCTHING:
        print(json.dumps({"bench": "sync_event_latency", "skipped": "no /usr/bin/syncthing"}))
        return
    tmp = Path(tempfile.mkdtemp(prefix="bench-sync-"))
    field, head = Syncthing(tmp / "field-home", "field"), Syncthing(tmp / "head-home", "head")
    try:
        field.start()
        head.start()
        introduce(field, head)
        poll(lambda: connected(field, head) and connected(head, field), 60)
        head_dir, field_dir = tmp / "head" / "cup", tmp / "field" / "cup"
        t = create_demo(head_dir, lock=False)
        tid = t.meta["id"]
        t.close()
        shutil.copytree(head_dir, field_dir, ignore=shutil.ignore_patterns(".cache", "backups"))
        for d in (head_dir, field_dir):
            ensure_stignore(d)
        share(field, head, f"fieldjudge-{tid[:12]}", field_dir, head_dir)

        tf = open_tournament(field_dir)
        th = open_tournament(head_dir, lock=False, startup_backup=False)
        changed = ChangedLogs(th)
        gid = next(g["id"] for g in tf.games() if not tf.game_path(g["id"]).exists())
        clock = FakeClock(datetime(2026, 6, 1, 9, tzinfo=UTC))
        s = GameSession(tf, gid, clock=clock, judge="bench")
        s.append("clock_start")
        poll(lambda: seen_in_log(th, changed, gid, s.events[-1].id), 60, every_s=POLL_S)
        a = s.teams[0]
        number = s.setup.rosters[a][0].number

        def append_event(i: int) -> str:
            clock.advance(1000)
            etype = "paint_check_start" if i % 2 == 0 else "paint_check_end"
            data = {"team": a, "number": number}
            if etype == "paint_check_end":
                data["outcome"] = "in_play"
            return s.append(etype, data).id

        app = timed(append_event, lambda k: seen_in_log(th, changed, gid, k), n)

        lines_src = field_dir / "anchor.jsonl"
        lines_dst = head_dir / "anchor.jsonl"

        def append_line(i: int) -> str:
            key = uuid.uuid4().hex
            with open(lines_src, "ab") as f:
                f.write(json.dumps({"id": key, "seq": i}).encode() + b"\n")
                f.flush()
                os.fsync(f.fileno())
            return key

        anchor = timed(append_line, lambda k: seen_in_lines(lines_dst, k), n)
        tf.close()
        th.close()
    finally:
        field.stop()
        head.stop()
        shutil.rmtree(tmp, ignore_errors=True)

    def line(name: str, xs: list[float]) -> None:
        print(
            f"{name}: min {min(xs):.2f} s, median {statistics.median(xs):.2f} s, "
            f"p95 {pct(xs, 0.95):.2f} s, max {max(xs):.2f} s"
        )

    print(f"event appended on the field laptop → visible on the head judge's, {n} events")
    print("two Syncthing instances on loopback, watcher delay 1 s (figures under shared load)")
    line("game event (GameSession → head's game_log)", app)
    line("anchor: JSON-lines append → last line", anchor)
    p50, p95, ap95 = statistics.median(app), pct(app, 0.95), pct(anchor, 0.95)
    print(
        json.dumps(
            {
                "bench": "sync_event_latency",
                "events": n,
                "p50_s": round(p50, 3),
                "p95_s": round(p95, 3),
                "anchor_p50_s": round(statistics.median(anchor), 3),
                "anchor_p95_s": round(ap95, 3),
                "vs_anchor_p95": round(p95 / ap95, 2),
                "target_p95_s": TARGET_P95_S,
                "ratio": round(p95 / TARGET_P95_S, 2),
                "ok": p95 <= TARGET_P95_S,
            }
        )
    )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
