"""The pit display's first answer on a big tournament (issue 24): from starting the app's
pit process (``python -m fieldjudge.commands.pit FOLDER --for-app``, what the ``w`` key
starts) to the first 200 of ``/api/live``, and to every game's state known (no game
``pending``), on a 120-game tournament of 300 signed events a game, as a judge's laptop
has it (its app opened the folder once: ``.cache/verified.json``) and cold (no memory).

Anchor, interleaved in the same run: a bare aiohttp server in its own process that reads
the same ``tournament.json`` and answers ``/api/live`` with its games (no signature, no
state: the floor of starting a Python web server on this folder).

Target: every game's state known, with the app's memory, <= 3x the anchor's first answer
(the pit also reads and folds every game file and checks its chain). Also printed: the
first answer and every game known without the memory (every signature checked).

Run: ``python benchmarks/bench_pit_start.py [--quick]`` (--quick: 12 small games, one
round, only to check that it runs).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from fieldjudge.services.opening import open_tournament

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fixtures import build  # noqa: E402
from harness import figures, interleaved, load, parser, ratios, verdict  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TARGET = 3.0
TIMEOUT_S = 120.0


def get_live(url: str) -> dict[str, Any] | None:
    try:
        with urllib.request.urlopen(url + "api/live", timeout=5) as r:
            return json.loads(r.read()) if r.status == 200 else None
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


def timed_start(argv: list[str]) -> tuple[float, float]:
    """Seconds from spawning ``argv`` to the first 200 of /api/live, and to no game
    pending (``pending`` absent or 0) in it."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        # -m imports from the working folder first: the tree this benchmark is in (or,
        # for a copy of it elsewhere, PYTHONPATH's), never another checkout's
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        url = json.loads(line)["url"]
        first = known = None
        deadline = t0 + TIMEOUT_S
        while known is None:
            if time.perf_counter() > deadline:
                raise TimeoutError(f"{argv}: no answer")
            doc = get_live(url)
            if doc is None:
                time.sleep(0.005)
                continue
            now = time.perf_counter()
            first = first if first is not None else now - t0
            if not doc.get("pending"):
                known = now - t0
            else:
                time.sleep(0.02)  # a TV's page asks less often still: the server's CPU
        return first, known
    finally:
        if proc.stdin is not None:
            proc.stdin.close()  # the app's way of stopping its pit
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def remember(folder: Path) -> None:
    """What the app does when it opens the folder: every game checked, the clean ones
    remembered in ``.cache/verified.json`` (under this laptop's key)."""
    t = open_tournament(folder, startup_backup=False)
    try:
        for g in t.games():
            t.game_summary(g["id"])
        t.save_checks()
    finally:
        t.close()


def main() -> None:
    args = parser(__doc__).parse_args()
    games, per_game, rounds = (12, 50, 1) if args.quick else (120, 300, 5)
    with tempfile.TemporaryDirectory() as tmp:
        warm = Path(tmp) / "warm"
        t = build(warm, games * per_game, per_game=per_game, legal=True)
        t.close()
        cold = Path(tmp) / "cold"
        shutil.copytree(warm, cold)  # before any memory: as a laptop that never opened it
        (cold / ".cache" / "verified.json").unlink(missing_ok=True)
        remember(warm)
        pit = [sys.executable, "-m", "fieldjudge.commands.pit", "--port", "0", "--for-app"]
        anchor = [sys.executable, str(Path(__file__).with_name("pit_anchor.py"))]
        got: dict[str, list[float]] = {
            k: [] for k in ("first", "known", "cold_first", "cold", "anchor")
        }

        def run_warm() -> None:
            first, known = timed_start([*pit, str(warm)])
            got["first"].append(first)
            got["known"].append(known)

        def run_cold() -> None:
            first, known = timed_start([*pit, str(cold)])
            got["cold_first"].append(first)
            got["cold"].append(known)

        def run_anchor() -> None:
            got["anchor"].append(timed_start([*anchor, str(warm)])[0])

        interleaved(rounds, run_warm, run_anchor, run_cold)
        if (cold / ".cache" / "verified.json").exists():
            raise SystemExit("the pit wrote the app's memory of verified files")
    out = {k: figures([v * 1000 for v in vs], 0) for k, vs in got.items()}
    for k, label in (
        ("first", "pit, app's memory: first 200 of /api/live"),
        ("known", "pit, app's memory: every game's state known"),
        ("cold_first", "pit, no memory: first 200 of /api/live"),
        ("cold", "pit, no memory: every game's state known"),
        ("anchor", "anchor (bare aiohttp, tournament.json): first 200"),
    ):
        print(f"{label}: median {out[k]['median']:.0f} ms (min {out[k]['min']:.0f}, "
              f"max {out[k]['max']:.0f}) load {load()}")  # fmt: skip
    ratio = ratios(got["known"], got["anchor"])
    verdict(
        "pit_start",
        {
            "known_ms": out["known"],
            "first_ms": out["first"],
            "cold_first_ms": out["cold_first"],
            "cold_known_ms": out["cold"],
        },
        {"first_ms": out["anchor"]},
        ratio,
        f"every game known (app's memory) <= {TARGET}x the anchor's first answer",
        ratio["median"] <= TARGET,
        games=games,
        events_per_game=per_game,
        rounds=rounds,
        quick=args.quick,
        first_ratio=ratios(got["first"], got["anchor"]),
        cold_first_ratio=ratios(got["cold_first"], got["anchor"]),
        cold_ratio=ratios(got["cold"], got["anchor"]),
    )


if __name__ == "__main__":
    main()
