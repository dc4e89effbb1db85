"""Print-ready PDF of every protocol and the standings of a 120-game tournament (~300 events
a game): what the head judge waits for before printing. Anchor in the same run: the HTML
export of the same tournament (the simplest export that does the job with a browser).

Run by hand: ``python benchmarks/bench_pdf.py [RUNS]``. Prints min/median/max; the last line
is JSON. Target (proposed; the issue sets none): the whole PDF export within 20 s on this
machine class, i.e. a tournament's paper while the next round is being called."""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_export import build

from fieldjudge.export import run_export
from fieldjudge.services import open_tournament

GAMES = 120
TARGET_S = 20.0


def timed(folder: Path, out: Path, fmt: str) -> tuple[float, int]:
    t = open_tournament(folder, lock=False, startup_backup=False)
    try:
        t0 = time.perf_counter()
        written = run_export(t, out, fmt)
        return time.perf_counter() - t0, len(written)
    finally:
        t.close()


def main() -> None:
    quick = "--quick" in sys.argv[1:]  # only check that it runs (seconds)
    args = [a for a in sys.argv[1:] if a != "--quick"]
    runs = 1 if quick else int(args[0]) if args else 3
    games = 4 if quick else GAMES
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "bench"
        events = build(folder, games)
        timed(folder, Path(tmp) / "warm", "html")  # the summary index, once
        pdf, html = [], []
        for run in range(runs):
            dt, n = timed(folder, Path(tmp) / f"pdf{run}", "pdf")
            assert n == games + 2
            pdf.append(dt)
            dt, n = timed(folder, Path(tmp) / f"html{run}", "html")
            assert n == games + 2
            html.append(dt)

    def row(name: str, xs: list[float]) -> str:
        return f"{name}: min {min(xs):.2f} s, median {statistics.median(xs):.2f} s, max {max(xs):.2f} s"

    print(f"games {games}, events per game {events}, {runs} runs (under load: shared cores)")
    print(row("pdf (one A4 page per game + combined + standings)", pdf))
    print(row("anchor: html export", html))
    med = statistics.median(pdf)
    print(
        json.dumps(
            {
                "benchmark": "pdf_export",
                "games": games,
                "pdf_median_s": round(med, 2),
                "html_anchor_median_s": round(statistics.median(html), 2),
                "target_s": TARGET_S,
                "ratio": round(med / TARGET_S, 3),
                "meets_target": med <= TARGET_S,
            }
        )
    )


if __name__ == "__main__":
    main()
