"""An event appended on a field laptop → visible on the head judge's laptop, through two
real Syncthing instances on loopback, folder shared as ``fieldjudge sync setup`` shares it
(:func:`share_folder`). Issue 22: the app asks Syncthing to rescan a game file right after
each append (:class:`Rescan`, ``/rest/db/scan`` with the file's path); the anchor is
Syncthing's change watcher alone, the path every file took before.

Both run in the same run, interleaved: two games of one tournament on the field laptop, one
whose appends go through the Rescan (the app's path), one whose appends do not (watcher
only); each gets one event every ``interval`` (0.5 s: a burst of eliminations; 3 s: an
ordinary game), the second game half an interval after the first. A thread on the head
judge's side reads both game files (validated: JSON, schema, hash chain) whenever they
change and notes when each event id first appears. An event's latency: from its append
returning (durable on the field laptop) to that moment.

Target: p95 <= 1 s at both rates, with the Rescan.

    python benchmarks/bench_sync.py [--events 40] [--quick]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from syncthing_pair import HAVE_SYNCTHING, Syncthing, connected, introduce, poll  # noqa: E402

from fieldjudge.export import bundle  # noqa: E402
from fieldjudge.services import open_tournament  # noqa: E402
from fieldjudge.services.demo import create_demo  # noqa: E402
from fieldjudge.services.sync.syncthing import Rescan, folder_id_for, share_folder  # noqa: E402
from fieldjudge.services.trust.head_judge import ScryptParams  # noqa: E402
from fieldjudge.store import StoreError  # noqa: E402
from fieldjudge.store.sync_files import ensure_stignore  # noqa: E402

TARGET_P95_S = 1.0
RATES_S = (0.5, 3.0)
SEEN_EVERY_S = 0.01


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


class Watch(threading.Thread):
    """The head judge's side: when each event id first appears in a validated read of a
    game file (read again whenever its size or modification time changes)."""

    def __init__(self, paths: list[Path]) -> None:
        super().__init__(daemon=True)
        self.paths = paths
        self.seen: dict[str, float] = {}
        self._stamp: dict[Path, tuple[int, int]] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(SEEN_EVERY_S):
            for p in self.paths:
                try:
                    st = p.stat()
                    stamp = (st.st_size, st.st_mtime_ns)
                    if self._stamp.get(p) == stamp:
                        continue
                    events = bundle.read_log_file(p)["events"]
                except (OSError, StoreError):  # not there yet, or being replaced
                    continue
                now = time.perf_counter()
                self._stamp[p] = stamp
                for e in events:
                    self.seen.setdefault(e["id"], now)


def run(events: dict[float, int]) -> dict[str, dict[float, list[float]]]:
    """{"rescan"|"watcher": {interval: latencies}}."""
    tmp = Path(tempfile.mkdtemp(prefix="bench-sync-"))
    field, head = Syncthing(tmp / "field-home", "field"), Syncthing(tmp / "head-home", "head")
    out: dict[str, dict[float, list[float]]] = {"rescan": {}, "watcher": {}}
    try:
        field.launch()
        head.launch()
        field.wait_up()
        head.wait_up()
        introduce(field, head)
        poll(lambda: connected(field, head) and connected(head, field), 60)
        head_dir, field_dir = tmp / "head" / "cup", tmp / "field" / "cup"
        t = create_demo(head_dir, lock=False, kdf=ScryptParams(n=2**10))
        fid = folder_id_for(t.meta["id"])
        t.close()
        shutil.copytree(head_dir, field_dir, ignore=shutil.ignore_patterns(".cache", "backups"))
        for d in (head_dir, field_dir):
            ensure_stignore(d)
        share_folder(field.client, fid, field_dir, [head.device_id])
        share_folder(head.client, fid, head_dir, [field.device_id])

        rescan = Rescan(field_dir, lambda: field.client)
        fast: set[str] = set()  # the game files whose appends ask for a rescan

        def written(path: Path) -> None:
            if path.name in fast:
                rescan.written(path)

        tf = open_tournament(field_dir, startup_backup=False, on_written=written)
        free = [g["id"] for g in tf.games() if not tf.game_path(g["id"]).exists()]
        try:
            for n_rate, (interval, n) in enumerate(events.items()):
                g_rescan, g_watch = free[2 * n_rate], free[2 * n_rate + 1]
                fast.add(f"{g_rescan}.json")
                paths = [head_dir / "games" / f"{g}.json" for g in (g_rescan, g_watch)]
                watch = Watch(paths)
                watch.start()
                appended: dict[str, list[tuple[str, float]]] = {g_rescan: [], g_watch: []}
                start = time.perf_counter() + 0.2
                for i in range(n):
                    for k, g in enumerate((g_rescan, g_watch)):  # interleaved
                        time.sleep(max(0.0, start + (i + k / 2) * interval - time.perf_counter()))
                        e = tf.append_game_event(g, "note", {"text": f"bench {i}"}, judge="b")
                        appended[g].append((e.id, time.perf_counter()))
                every = [eid for xs in appended.values() for eid, _t in xs]
                poll(lambda every=every, w=watch: all(x in w.seen for x in every), 120)
                watch.stop.set()
                watch.join()
                for mode, g in (("rescan", g_rescan), ("watcher", g_watch)):
                    out[mode][interval] = [watch.seen[eid] - t0 for eid, t0 in appended[g]]
        finally:
            tf.close()
            rescan.close()
    finally:
        field.stop()
        head.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=40, help="events per game at each rate")
    ap.add_argument("--quick", action="store_true", help="a few events: checks that it runs")
    args = ap.parse_args()
    n = 4 if args.quick else args.events
    if not HAVE_SYNCTHING:
        print(json.dumps({"bench": "sync_event_latency", "skipped": "no /usr/bin/syncthing"}))
        return
    got = run({0.5: n, 3.0: max(2, n // 2)})

    print("event appended on the field laptop → visible on the head judge's (validated read)")
    print("two Syncthing instances on loopback, folder as `sync setup` shares it")
    for interval in RATES_S:
        for mode, what in (("rescan", "Rescan after each append"), ("watcher", "watcher only")):
            xs = got[mode][interval]
            print(
                f"one event every {interval} s, {what} ({len(xs)} events): "
                f"median {statistics.median(xs):.2f} s, p95 {pct(xs, 0.95):.2f} s, "
                f"max {max(xs):.2f} s"
            )
    p95 = {m: {i: round(pct(got[m][i], 0.95), 3) for i in RATES_S} for m in got}
    worst = max(RATES_S, key=lambda i: p95["rescan"][i])
    figure, anchor = p95["rescan"][worst], p95["watcher"][worst]
    ok = all(p95["rescan"][i] <= TARGET_P95_S for i in RATES_S)
    print(
        json.dumps(
            {
                "bench": "sync_event_latency",
                "quick": args.quick,
                "events": {str(i): len(got["rescan"][i]) for i in RATES_S},
                "p95_s": {str(i): p95["rescan"][i] for i in RATES_S},
                "anchor_p95_s": {str(i): p95["watcher"][i] for i in RATES_S},
                "figure": figure,
                "anchor": anchor,
                "at_interval_s": worst,
                "ratio": round(figure / anchor, 2) if anchor else None,
                "target_p95_s": TARGET_P95_S,
                "verdict": "quick: ran" if args.quick else ("ok" if ok else "over target"),
            }
        )
    )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
