"""Roster CSV import: what a judge waits for, against the simplest thing that reads the file.

* 1 MB roster (the size cap): read the file, parse and check every row
  (`fieldjudge.csv_import.parse_roster`) and store it in one atomic write
  (`Tournament.import_roster`) — the import the teams screen runs, without the screen.
* The anchor, in the same run on the same file: ``csv.reader`` over the decoded text with
  each row appended to a list.
* Linearity: the same import of a 256 KB roster; a linear import takes about 4× less time
  for 4× less data (the old one was quadratic: 1 MB took 15.7 s).
* 10 MB roster: the time until it is refused (`read_csv_file` raises `CsvTooLarge`).

Targets: 10 MB refused in under 2 s; the scaling exponent from 256 KB to 1 MB at most 1.3
(1.0 = linear, 2.0 = quadratic).  The verdict is the worst ratio against its target (≤ 1
meets the targets).  Figures taken on a loaded machine read high.

    python benchmarks/bench_import.py [--repeat 5]

Prints min/median/max of each; the last line is JSON.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import statistics
import tempfile
import time
from datetime import date
from pathlib import Path

REFUSE_TARGET_S = 2.0
EXPONENT_TARGET = 1.3


def write_roster(path: Path, size: int) -> int:
    lines = ["team,number,name,captain"]
    total = len(lines[0]) + 1
    n = 0
    while True:
        cap = "да" if n % 10 == 0 else "нет"
        row = f"Команда {n // 10:05d},{n % 10},Игрок {n:06d} Петров,{cap}"
        if total + len(row.encode()) + 1 > size:
            break
        lines.append(row)
        total += len(row.encode()) + 1
        n += 1
    path.write_bytes(("\n".join(lines) + "\n").encode())
    return n


def timed(fn) -> tuple[float, object]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def stats(xs: list[float]) -> str:
    return f"min {min(xs):.3f} s  median {statistics.median(xs):.3f} s  max {max(xs):.3f} s"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="only check that it runs (seconds)")
    args = ap.parse_args()
    if args.quick:
        args.repeat = 1

    from fieldjudge.csv_import import CsvTooLarge, parse_roster, read_csv_file
    from fieldjudge.services import create_tournament

    tmp = Path(tempfile.mkdtemp(prefix="bench-import-"))
    one_mb, quarter, ten_mb = tmp / "1mb.csv", tmp / "256kb.csv", tmp / "10mb.csv"
    players = write_roster(one_mb, 1_000_000)
    players_q = write_roster(quarter, 256_000)
    write_roster(ten_mb, 10_000_000)

    def import_file(path: Path, run: int) -> int:
        t = create_tournament(tmp / f"t-{path.stem}-{run}", name="bench", day=date(2026, 6, 1))
        try:
            res = parse_roster(read_csv_file(path), 10)
            assert not res.errors, res.errors[:3]
            return t.import_roster(res.rows)[1]
        finally:
            t.close()

    def anchor(path: Path) -> int:
        rows: list[list[str]] = []
        for row in csv.reader(io.StringIO(path.read_bytes().decode("utf-8-sig"))):
            rows.append(row)
        return len(rows) - 1

    def refuse(path: Path) -> bool:
        try:
            read_csv_file(path)
        except CsvTooLarge:
            return True
        return False

    imp, anc, imp_q, ref = [], [], [], []
    for run in range(args.repeat):
        s, n = timed(lambda run=run: import_file(one_mb, run))
        assert n == players, (n, players)
        imp.append(s)
        s, n = timed(lambda: anchor(one_mb))
        assert n == players
        anc.append(s)
        s, n = timed(lambda run=run: import_file(quarter, run))
        assert n == players_q
        imp_q.append(s)
        s, refused = timed(lambda: refuse(ten_mb))
        assert refused
        ref.append(s)

    med = statistics.median
    exponent = math.log(med(imp) / med(imp_q)) / math.log(players / players_q)
    ratio_anchor = med(imp) / med(anc)
    verdict = max(med(ref) / REFUSE_TARGET_S, exponent / EXPONENT_TARGET)
    print(f"1 MB roster import ({players} players): {stats(imp)}")
    print(f"anchor csv.reader + append (same file): {stats(anc)}")
    print(f"256 KB roster import ({players_q} players): {stats(imp_q)}")
    print(f"10 MB roster refused: {stats(ref)}")
    print(
        f"import / anchor: {ratio_anchor:.1f}x; scaling exponent {exponent:.2f} "
        f"(target <= {EXPONENT_TARGET}); refusal {med(ref) * 1000:.2f} ms "
        f"(target < {REFUSE_TARGET_S} s); verdict {verdict:.3f} "
        f"({'meets' if verdict <= 1 else 'MISSES'} the targets)"
    )
    print(
        json.dumps(
            {
                "benchmark": "roster_import",
                "players_1mb": players,
                "import_1mb_median_s": round(med(imp), 4),
                "anchor_1mb_median_s": round(med(anc), 4),
                "import_vs_anchor": round(ratio_anchor, 2),
                "scaling_exponent": round(exponent, 3),
                "refuse_10mb_median_s": round(med(ref), 5),
                "verdict": round(verdict, 3),
                "meets_target": verdict <= 1,
            }
        )
    )


if __name__ == "__main__":
    main()
