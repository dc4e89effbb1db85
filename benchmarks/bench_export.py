"""``fieldjudge export`` of a 120-game tournament (~300 events a game) as HTML, CSV and
JSON -- three CLI processes, process start included -- against a floor in the same run
(issue 13).

The floor is the least any export could do, also as three separate processes: start
Python, read every game file and the tournament file (one ``orjson.loads`` a line, no
chain check, no rules), and write exactly the files fieldjudge wrote (their bytes taken
from a reference export made before the timing, read back from disk by the floor).

The summary index is deleted before every fieldjudge run: every game file is read and
its chain verified in the run (the worst case of a head judge's first export). Python
starts as an installed fieldjudge starts: with its modules' bytecode compiled (pip
compiles it at install; a development shell may set PYTHONDONTWRITEBYTECODE, which
would make every run compile fieldjudge's sources again), so the bytecode is compiled
once before the timing, never the work of a run.
Repetitions alternate fieldjudge and the floor, so machine load hits both alike.
fieldjudge's command line reads the games in one process, as the floor does. The verdict is the wall time, what the head judge waits for; the CPU
time of each (its processes and their children) is printed beside it.
Target: ratio of the medians ≤ 2. The last line is JSON; its verdict is the ratio.

    python benchmarks/bench_export.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import compileall
import json
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, datetime, timedelta
from pathlib import Path

import orjson

import fieldjudge
from fieldjudge.csv_import import RosterRow
from fieldjudge.rules.events import GENESIS_HASH, compute_hash
from fieldjudge.services import create_tournament
from fieldjudge.services.demo_history import Script, play
from fieldjudge.services.trust.signing import signed_message
from fieldjudge.settings import DEFAULTS
from fieldjudge.store import bundle

SECRET = "bench head judge secret"

GAMES, TEAMS = 120, 16
FORMATS = ("html", "csv", "json")
TARGET_RATIO = 2.0

FLOOR = """
import sys
from pathlib import Path
import orjson

folder, reference, out = (Path(a) for a in sys.argv[1:4])
for name in ["tournament.json"] + sorted("games/" + p.name for p in (folder / "games").iterdir()):
    raw = (folder / name).read_bytes()
    try:
        orjson.loads(raw)  # one JSON object
    except orjson.JSONDecodeError:  # the line format: one object a line
        for line in raw.splitlines():
            if line.strip():
                orjson.loads(line)
out.mkdir(parents=True)
for ref in sorted(reference.iterdir()):
    (out / ref.name).write_bytes(ref.read_bytes())
"""


def build(folder: Path) -> int:
    # a head judge, so the folder verifies as the app's would: the export refuses a
    # folder that does not (issue 21); the copied games are signed again below
    t = create_tournament(
        folder,
        name="Bench cup",
        day=date(2026, 5, 16),
        settings=dict(DEFAULTS),
        lock=False,
        head_judge_secret=SECRET,
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
    grant = t.head_judge(SECRET)

    def signed(e: dict) -> None:  # as the laptop (and the head judge) sign an event
        if e.get("sig"):
            e["sig"] = t.keys.sign(signed_message("event", e["hash"]))
        if e.get("hj_sig"):
            e.update(t.sign_as_head_judge(grant, "head_judge", e["hash"]))

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
            signed(e)
        (folder / "games" / f"{g['id']}.json").write_bytes(orjson.dumps(bundle.doc_to_log(doc)))
    t.close()
    return len(template["events"])


def fieldjudge_export(folder: Path, out: Path, fmt: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "fieldjudge", "export", "--tournament", str(folder)]
        + ["--format", fmt, "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"export {fmt} failed: {done.stderr}")
    return done.stdout.split()


def children_cpu() -> float:
    """CPU seconds of this process's children that have ended (their own children too)."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_fieldjudge(folder: Path, out: Path) -> float:
    (folder / ".cache" / "index.json").unlink(missing_ok=True)
    t0 = time.perf_counter()
    for fmt in FORMATS:
        fieldjudge_export(folder, out / fmt, fmt)
    return time.perf_counter() - t0


def run_floor(folder: Path, reference: Path, out: Path) -> float:
    t0 = time.perf_counter()
    for fmt in FORMATS:
        subprocess.run(
            [sys.executable, "-c", FLOOR, str(folder), str(reference / fmt), str(out / fmt)],
            check=True,
        )
    return time.perf_counter() - t0


# the HTML standings end their heading with the minute they were made ("as of ...</p>"):
# a run may fall in the next minute
STAMP = re.compile(rb" \d{4}-\d\d-\d\d \d\d:\d\d</p>")


def same_files(a: Path, b: Path) -> bool:
    names = sorted(p.name for p in a.iterdir())
    return names == sorted(p.name for p in b.iterdir()) and all(
        STAMP.sub(b"", (a / n).read_bytes()) == STAMP.sub(b"", (b / n).read_bytes())
        for n in names
        if not n.endswith(".json")
    )


def figures(values: list[float]) -> dict[str, float]:
    return {
        "min_s": round(min(values), 3),
        "median_s": round(statistics.median(values), 3),
        "max_s": round(max(values), 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if args.repeat < 1:
        sys.exit("--repeat must be >= 1")
    compileall.compile_dir(Path(fieldjudge.__file__).parent, quiet=1)  # as pip install does
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        folder = root / "bench"
        events = build(folder)
        reference = root / "reference"
        for fmt in FORMATS:  # the files the floor writes (and a check of the CLI)
            written = fieldjudge_export(folder, reference / fmt, fmt)
            expected = GAMES + 2 if fmt == "html" else 1
            assert len(written) == expected, (fmt, len(written))
        fj, floor = [], []
        fj_cpu: list[float] = []
        floor_cpu: list[float] = []
        for i in range(args.repeat):
            c0 = children_cpu()
            fj.append(run_fieldjudge(folder, root / f"fj{i}"))
            c1 = children_cpu()
            floor.append(run_floor(folder, reference, root / f"floor{i}"))
            fj_cpu.append(c1 - c0)
            floor_cpu.append(children_cpu() - c1)
            for fmt in FORMATS:  # HTML and CSV are the same run to run (JSON has a stamp)
                assert same_files(root / f"fj{i}" / fmt, root / f"floor{i}" / fmt), fmt
            shutil.rmtree(root / f"fj{i}")
            shutil.rmtree(root / f"floor{i}")
    f, a = figures(fj), figures(floor)
    ratio = f["median_s"] / a["median_s"]
    print(f"{GAMES} games, {events} events a game; HTML ({GAMES + 2} files), CSV, JSON")
    print(f"runs: {args.repeat}, each three processes (process start included)")
    fc, ac = figures(fj_cpu), figures(floor_cpu)
    for name, s, c in (("fieldjudge export", f, fc), ("floor (read + write)", a, ac)):
        print(
            f"{name:22} min {s['min_s']:.3f}  median {s['median_s']:.3f}  max {s['max_s']:.3f} s"
            f"   CPU median {c['median_s']:.3f} s"
        )
    ok = ratio <= TARGET_RATIO
    print(f"ratio {ratio:.2f} (target ≤ {TARGET_RATIO}): {'meets' if ok else 'MISSES'}")
    print(
        json.dumps(
            {
                "bench": "export_cli",
                "games": GAMES,
                "events_per_game": events,
                "runs": args.repeat,
                "fieldjudge": f,
                "floor": a,
                "cpu": {"fieldjudge": fc, "floor": ac},
                "target_ratio": TARGET_RATIO,
                "ratio": round(ratio, 3),
                "ok": ok,
            }
        )
    )


if __name__ == "__main__":
    main()
