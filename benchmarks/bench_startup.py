"""Start-up as a judge sees it, in a real terminal (120×40): from the process start to the
first game row painted, and to every visible game's state painted (no "…" left on
screen), with a tournament of 120 and of 1,000 games (300 legal events a game: the clock
started, then paint checks; ``--filler``: eliminations the rules refuse), against a bare
Textual app reading the same ``tournament.json`` into a DataTable (issue 24).

fieldjudge is started as a judge starts it: the ``fieldjudge`` command (``fieldjudge --lang
en open FOLDER``), which loads every subcommand before the app paints (not the exports' PDF
library nor the pit's web server: their programs run as children). Beside it, the app alone
(``make_app(...).run()``, the figure of rounds 10 to 12, without the command's imports),
and the floor: the bare app
that first imports ``fieldjudge.cli`` (the time the interpreter takes to load the code the
command runs on; imports are not deferred), so the part of a start that is fieldjudge's own
work reads as the distance from it.

Each run is a fresh process in its own pty (``pyte`` reads the screen; the moment is
taken when the bytes that make it show arrive). fieldjudge starts cold (the summary index
deleted: every game file read, its chain verified, its summary folded -- the first start
after a copy of the folder) and warm (the index current). Peak memory is the child's
``VmHWM`` just before it is stopped. The runs interleave bare, cold and warm, the order
turning each run; ratios are pairwise (run i over the bare run i).
Targets: every visible state (cold) ≤ 1.5× the bare app at 120 games, ≤ 2× at 1,000.
The last line is JSON.

    python benchmarks/bench_startup.py [--runs 3] [--games 120 1000] [--quick]"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from fixtures import build  # noqa: E402
from harness import Terminal, figures, load, memory_mb, parser, ratios, verdict  # noqa: E402

GAMES = (120, 1_000)
PER_GAME = 300
COLS, ROWS = 120, 40
TARGETS = {120: 1.5, 1_000: 2.0}
#: bare: the anchor; floor: its imports plus the command's; cold and warm: the command, its
#: summary index deleted or current; app: the app alone, cold
KINDS = ("bare", "floor", "cold", "warm", "app")

CHILD_BARE = """
import sys
import orjson
from textual.app import App
from textual.widgets import DataTable, Footer, Header

doc = orjson.loads(open(sys.argv[1], "rb").read())
names = {t["id"]: t["name"] for t in doc["teams"].values()}

class Bare(App):
    def compose(self):
        yield Header()
        yield DataTable(id="games")
        yield Footer()
    def on_mount(self):
        t = self.query_one(DataTable)
        t.add_columns("Time", "Field", "Team A", "Team B", "State")
        for g in doc["games"].values():
            t.add_row(g["start"][11:16], g["field"], names[g["team_a"]], names[g["team_b"]],
                      "scheduled")

Bare().run()
"""

#: the bare app that first imports the fieldjudge command's module and does nothing else
#: with it: the floor under every start of fieldjudge (the interpreter loading the code that
#: the command runs on), shown beside the targets (none is set for it)
CHILD_FLOOR = "import fieldjudge.cli  # noqa: F401\n" + CHILD_BARE

#: the app alone, without the command's imports (the figure of rounds 10 to 12)
CHILD_APP = """
import sys
from pathlib import Path
from fieldjudge.app import make_app

folder = Path(sys.argv[1])
make_app(folder.parent, folder, lang="en").run()
"""

ROW = re.compile(r"\d\d:\d\d\s+\d+\s+\S+\s+\S+\s+\S")


def first_row(lines: list[str]) -> bool:
    return any(ROW.search(ln) for ln in lines)


def every_state(lines: list[str]) -> bool:
    rows = [ln for ln in lines if ROW.search(ln)]
    return len(rows) >= 10 and not any("…" in ln for ln in rows)


def command(folder: Path) -> list[str]:
    """The ``fieldjudge`` command on one tournament folder, as a judge types it."""
    return [sys.executable, "-m", "fieldjudge", "--lang", "en", "open", str(folder)]


def child(code: str, arg: Path) -> list[str]:
    return [sys.executable, "-c", code, str(arg)]


def one(name: str, argv: list[str]) -> tuple[float, float, float]:
    """(first row, every visible state, peak MB) of one fresh process."""
    term = Terminal(name, argv, COLS, ROWS)
    try:
        first = term.wait_for(first_row)
        every = term.wait_for(every_state, seconds=120)
        if term.repaints:
            print(
                f"  ({name}: repainted {term.repaints}× while waiting; figure maybe at a repaint)"
            )
        return first * 1000, every * 1000, memory_mb(term.proc.pid)
    finally:
        term.close()


def measure(root: Path, games: int, per_game: int, runs: int, legal: bool = True) -> dict:
    folder = root / f"t{games}"
    t = build(folder, games * per_game, per_game=per_game, legal=legal)
    t.close()
    tj, index = folder / "tournament.json", folder / ".cache" / "index.json"
    one("warm-up", command(folder))  # the startup backups and bytecode
    one("warm-up", child(CHILD_BARE, tj))
    res: dict[str, dict[str, list[float]]] = {
        k: {"first": [], "every": [], "mb": []} for k in KINDS
    }
    kinds = [
        ("bare", child(CHILD_BARE, tj)),
        ("floor", child(CHILD_FLOOR, tj)),
        ("cold", command(folder)),
        ("warm", command(folder)),
        ("app", child(CHILD_APP, folder)),
    ]
    for run in range(runs):
        for name, argv in kinds[run % len(kinds) :] + kinds[: run % len(kinds)]:
            if name in ("cold", "app"):
                index.unlink(missing_ok=True)
            first, every, mb = one(name, argv)
            res[name]["first"].append(first)
            res[name]["every"].append(every)
            res[name]["mb"].append(mb)
    bare = res["bare"]["every"]
    return {
        "games": games,
        "events_per_game": per_game,
        "loadavg": load(),
        "ms": {k: {m: figures(v[m], 0) for m in ("first", "every")} for k, v in res.items()},
        "peak_mb": {k: figures(v["mb"], 1) for k, v in res.items()},
        "ratio": {
            f"{k}_{m}": ratios(res[k][m], bare)
            for k in ("cold", "warm")
            for m in ("first", "every")
        }
        | {
            "floor_every": ratios(res["floor"]["every"], bare),
            "app_every": ratios(res["app"]["every"], bare),
        },
    }


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--games", type=int, nargs="+", default=list(GAMES), help="tournament sizes")
    ap.add_argument(
        "--filler",
        action="store_true",
        help="the games hold eliminations the rules refuse (as before), not legal events",
    )
    args = ap.parse_args()
    if args.runs < 1:
        sys.exit("--runs must be >= 1")
    plan = [(120, 20)] if args.quick else [(g, PER_GAME) for g in args.games]
    runs = 1 if args.quick else args.runs
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for games, per_game in plan:
            r = measure(Path(tmp), games, per_game, runs, legal=not args.filler)
            rows.append(r)
            print(f"{games} games × {per_game} events, {runs} runs, load {r['loadavg']}")
            for k in KINDS:
                f, e, mb = r["ms"][k]["first"], r["ms"][k]["every"], r["peak_mb"][k]
                print(
                    f"  {k:5} first row median {f['median']:6.0f} ms, every state median "
                    f"{e['median']:6.0f} ms (min {e['min']:.0f}, max {e['max']:.0f}); "
                    f"peak {mb['median']:.1f} MB"
                )
            for k, x in r["ratio"].items():
                print(f"  {k:11} / bare: pairwise {x['min']:.2f}/{x['median']:.2f}/{x['max']:.2f}")
    ok = all(r["ratio"]["cold_every"]["median"] <= TARGETS.get(r["games"], 1.5) for r in rows)
    verdict(
        "startup",
        {str(r["games"]): r["ms"]["cold"]["every"]["median"] for r in rows},
        {str(r["games"]): r["ms"]["bare"]["every"]["median"] for r in rows},
        {str(r["games"]): r["ratio"]["cold_every"] for r in rows},
        "every visible state (cold) ≤ 1.5× the bare app at 120 games, ≤ 2× at 1,000",
        ok,
        warm_every={str(r["games"]): r["ratio"]["warm_every"]["median"] for r in rows},
        first_row={str(r["games"]): r["ratio"]["cold_first"]["median"] for r in rows},
        import_floor={str(r["games"]): r["ratio"]["floor_every"]["median"] for r in rows},
        app_alone_every={str(r["games"]): r["ratio"]["app_every"]["median"] for r in rows},
        peak_mb={str(r["games"]): r["peak_mb"] for r in rows},
        runs=runs,
    )


if __name__ == "__main__":
    main()
