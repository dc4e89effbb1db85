"""``fieldjudge-results export`` (the README's export without loading the app, the one
program that exports; ``--via fieldjudge``: ``fieldjudge export``, which loads the command's
code, then becomes that program with ``exec``) of a tournament of 120 and of 1,000
games (~300 events a game) as HTML, CSV and JSON -- three CLI processes, as a head judge
runs them -- against a
competent exporter in the same run (issue 24): one Python process a format that reads
``tournament.json`` and every game file, verifies each hash chain and every event's
Ed25519 signatures (the check issue 21 requires before an export), folds each game with
the rules engine, scores it and renders the same documents (a protocol page a game, all
protocols, the standings; the events CSV; the JSON of the games) with plain string
formatting.

The verdict is **CPU time** (user + system of each process, ``wait4``), the work the
machine does whatever else runs; wall time is printed beside it. Peak memory is the
largest ``ru_maxrss`` of fieldjudge's processes. Every process is started by a small
runner process, not by this one: a child's ``ru_maxrss`` counts the memory of the process
it was forked from (at its ``exec``), and this one holds the tournament it built. The summary index is deleted before
every fieldjudge run (every chain verified: a head judge's first export). The bytecode
is compiled once before the timing, as pip does at install. Repetitions alternate
fieldjudge and the anchor; ratios are pairwise.
Targets: CPU ≤ 1.2× the anchor, linear from 120 to 1,000 games (CPU per game printed),
peak ≤ 100 MB at 1,000 games. The last line is JSON.

    python benchmarks/bench_export.py [--repeat 3] [--quick] [--via fieldjudge] [--games 120]
"""

from __future__ import annotations

import compileall
import random
import shutil
import subprocess
import sys
import tempfile
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
from fieldjudge.store import bundle, lines, schema

SECRET = "bench head judge secret"

sys.path.insert(0, str(Path(__file__).parent))
from harness import figures, load, parser, ratios, verdict  # noqa: E402

GAMES, TEAMS = (120, 1_000), 16
FORMATS = ("html", "csv", "json")
TARGET_CPU, TARGET_MB = 1.2, 100.0
#: the command timed: ``python -m`` of the installed script's module (the same code)
COMMANDS = {
    "results": ["fieldjudge.commands.results", "export"],
    "fieldjudge": ["fieldjudge", "export"],
}

ANCHOR = """
import csv, html, io, sys
from pathlib import Path
import base64
import orjson
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from fieldjudge.rules.events import Event, effective, verify_chain
from fieldjudge.rules.paintball.scoring import game_result, standings
from fieldjudge.rules.paintball.state import fold
from fieldjudge.rules.paintball.setup import GameSetup, RosterPlayer, Settings

folder, fmt, out = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])

def tables(raw):
    # a whole-JSON file (TinyDB's), or the store's JSON lines: a header, then records
    # that "set" whole documents and "del" them, replayed in order
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        pass
    doc = {}
    for line in raw.splitlines()[1:]:
        rec = orjson.loads(line)
        for table, rows in rec.get("set", {}).items():
            doc.setdefault(table, {}).update(rows)
        for table, ids in rec.get("del", {}).items():
            for i in ids:
                doc.get(table, {}).pop(i, None)
    return doc

t = tables((folder / "tournament.json").read_bytes())
meta = next(iter(t["meta"].values()))
# every laptop's key, and the head judge's: each event's signatures are checked, as the
# head judge's export must (issue 21)
keys = {}
for lj in (folder / "laptops").glob("*/laptop.json"):
    info = orjson.loads(lj.read_bytes())
    keys[info["laptop_id"]] = Ed25519PublicKey.from_public_bytes(base64.b64decode(info["public_key"]))
hj_key = Ed25519PublicKey.from_public_bytes(base64.b64decode(meta["head_judge_key"]["public_key"]))

def check_signatures(docs):
    for d in docs:  # raises InvalidSignature on a bad one
        keys[d["signer"]].verify(base64.b64decode(d["sig"]), f"fieldjudge/v1/event/{d['hash']}".encode())
        if d.get("hj_sig"):
            hj_key.verify(base64.b64decode(d["hj_sig"]), f"fieldjudge/v1/head_judge/{d['hash']}".encode())

settings = Settings.from_dict(meta.get("settings"))
names = {x["id"]: x["name"] for x in t["teams"].values()}
rosters = {}
for p in t["players"].values():
    rosters.setdefault(p["team_id"], []).append(RosterPlayer(p["number"], p["name"], p.get("captain", False)))
games, results, pages, rows = [], [], [], []
for g in sorted(t["games"].values(), key=lambda g: (g["start"], g["field"])):
    path = folder / "games" / f"{g['id']}.json"
    if not path.exists():
        continue
    docs = [d for _, d in sorted(tables(path.read_bytes()).get("events", {}).items(), key=lambda kv: int(kv[0]))]
    if not docs:
        raise SystemExit(f"no events read: {path}")
    if verify_chain(docs) is not None:
        raise SystemExit(f"broken chain: {path}")
    check_signatures(docs)
    events = [Event.from_doc(d) for d in docs]
    setup = GameSetup(g["id"], g["team_a"], g["team_b"],
                      {k: tuple(rosters.get(k, ())) for k in (g["team_a"], g["team_b"])}, settings)
    st = fold(setup, events)
    res = game_result(setup, st)
    results.append(res)
    a, b = names[g["team_a"]], names[g["team_b"]]
    evs = effective(events)
    if fmt == "html":
        body = "".join(f"<tr><td>{e.seq}</td><td>{e.game_clock_ms}</td><td>{html.escape(e.type)}</td>"
                       f"<td>{html.escape(str(dict(e.data)))}</td></tr>" for e in evs)
        players = "".join(f"<tr><td>{html.escape(names[p.team])}</td><td>{p.number}</td>"
                          f"<td>{html.escape(p.name)}</td><td>{p.status}</td></tr>"
                          for p in st.players.values())
        page = (f"<h2>{html.escape(a)} — {html.escape(b)} · {g['start']}</h2>"
                f"<p>{res.points}</p><table>{players}</table><table>{body}</table>")
        pages.append(page)
        (out / f"{g['id']}.html").write_text(f"<!doctype html><html><body>{page}</body></html>")
    elif fmt == "csv":
        for e in evs:
            rows.append([g["id"], a, b, e.seq, e.game_clock_ms, e.wall_time, e.type,
                         orjson.dumps(dict(e.data)).decode()])
    else:
        games.append({"game": g, "events": docs, "result": {"points": dict(res.points)}})
table = standings(results)
if fmt == "html":
    (out / "protocols.html").write_text("<!doctype html><html><body>" + "".join(pages) + "</body></html>")
    body = "".join(f"<tr><td>{r.rank}</td><td>{html.escape(names.get(r.team, r.team))}</td>"
                   f"<td>{r.points}</td><td>{r.diff}</td></tr>" for r in table)
    (out / "standings.html").write_text(f"<!doctype html><html><body><table>{body}</table></body></html>")
elif fmt == "csv":
    buf = io.StringIO()
    csv.writer(buf, delimiter=";").writerows(rows)
    (out / "events.csv").write_text(buf.getvalue())
else:
    (out / "tournament.json").write_bytes(orjson.dumps({"meta": meta, "games": games}))
"""


def build(folder: Path, n_games: int) -> int:
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
    for i in range(n_games):
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
        first = doc["events"][0]["data"]
        if schema.SIGNED_META in first:  # the meta the first event signs (issue 21)
            first[schema.SIGNED_META] = schema.meta_claim(doc["meta"])
        prev = GENESIS_HASH
        for e in doc["events"]:
            e["prev_hash"] = prev
            e["hash"] = prev = compute_hash(e)
            signed(e)
        # in the store's own line format, with its head: as the app leaves a game file (a
        # whole-JSON file would be rewritten on its first open, a one-off migration)
        data = bundle.doc_to_log(doc)
        data["head"] = {"1": schema.head_of(doc["meta"], doc["events"])}
        (folder / "games" / f"{g['id']}.json").write_bytes(
            lines.file_bytes(data, schema.LOG_SCHEMA)
        )
    t.close()
    return len(template["events"])


#: runs each command it is sent (a JSON argv a line) and answers with its wall time, its
#: rusage (``wait4``) and its exit status: a process of ~10 MB, so a child's ``ru_maxrss``
#: (which counts the memory of the process it was forked from) is the child's own peak
RUNNER = """
import json, os, subprocess, sys, time
for line in sys.stdin:
    argv = json.loads(line)
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read().decode(errors="replace")
    _pid, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    out = [wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, status, err]
    print(json.dumps(out), flush=True)
"""
_runner: list[subprocess.Popen] = []


def timed(argv: list[str]) -> tuple[float, float, float]:
    """(wall s, CPU s, peak MB) of one process (its own rusage: ``wait4``), started by
    the runner."""
    if not _runner:
        _runner.append(
            subprocess.Popen(
                [sys.executable, "-c", RUNNER],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
        )
    runner = _runner[0]
    assert runner.stdin is not None and runner.stdout is not None
    runner.stdin.write(orjson.dumps(argv).decode() + "\n")
    runner.stdin.flush()
    wall, cpu, mb, status, err = orjson.loads(runner.stdout.readline())
    if status != 0:
        raise RuntimeError(f"{argv[:4]} failed: {err}")
    return wall, cpu, mb


def run_fieldjudge(folder: Path, out: Path, via: str = "results") -> tuple[float, float, float]:
    (folder / ".cache" / "index.json").unlink(missing_ok=True)  # every chain verified
    res = [
        timed(
            [
                sys.executable,
                "-m",
                *COMMANDS[via],
                "--tournament",
                str(folder),
                "--format",
                fmt,
                "--out",
                str(out / fmt),
            ]
        )
        for fmt in FORMATS
    ]
    return sum(r[0] for r in res), sum(r[1] for r in res), max(r[2] for r in res)


def run_anchor(folder: Path, out: Path) -> tuple[float, float, float]:
    res = []
    for fmt in FORMATS:
        (out / fmt).mkdir(parents=True)
        res.append(timed([sys.executable, "-c", ANCHOR, str(folder), fmt, str(out / fmt)]))
    return sum(r[0] for r in res), sum(r[1] for r in res), max(r[2] for r in res)


def measure(root: Path, games: int, repeat: int, via: str = "results") -> dict:
    folder = root / f"t{games}"
    events = build(folder, games)
    times: dict[str, dict[str, list[float]]] = {
        k: {"wall": [], "cpu": [], "mb": []} for k in ("fieldjudge", "anchor")
    }
    runs = {"fieldjudge": lambda f, o: run_fieldjudge(f, o, via), "anchor": run_anchor}
    for i in range(repeat):
        order = ("fieldjudge", "anchor") if i % 2 == 0 else ("anchor", "fieldjudge")
        for name in order:
            out = root / f"{name}{games}-{i}"
            wall, cpu, mb = runs[name](folder, out)
            times[name]["wall"].append(wall)
            times[name]["cpu"].append(cpu)
            times[name]["mb"].append(mb)
            shutil.rmtree(out)
    f, a = times["fieldjudge"], times["anchor"]
    return {
        "games": games,
        "events_per_game": events,
        "loadavg": load(),
        "cpu_s": {k: figures(v["cpu"], 3) for k, v in times.items()},
        "wall_s": {k: figures(v["wall"], 3) for k, v in times.items()},
        "peak_mb": {k: figures(v["mb"], 1) for k, v in times.items()},
        "cpu_ratio": ratios(f["cpu"], a["cpu"]),
        "wall_ratio": ratios(f["wall"], a["wall"]),
    }


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--via", choices=sorted(COMMANDS), default="results")
    ap.add_argument("--games", type=int, nargs="+", default=list(GAMES), help="sizes to time")
    args = ap.parse_args()
    if args.repeat < 1:
        sys.exit("--repeat must be >= 1")
    compileall.compile_dir(Path(fieldjudge.__file__).parent, quiet=1)  # as pip install does
    timed([sys.executable, "-c", "pass"])  # the runner started while this process is small
    plan = (4,) if args.quick else tuple(args.games)
    repeat = 1 if args.quick else args.repeat
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for games in plan:
            r = measure(Path(tmp), games, repeat, args.via)
            rows.append(r)
            print(
                f"{games} games × {r['events_per_game']} events, HTML+CSV+JSON, {repeat} runs, "
                f"load {r['loadavg']}"
            )
            for k in ("fieldjudge", "anchor"):
                c, w, mb = r["cpu_s"][k], r["wall_s"][k], r["peak_mb"][k]
                print(
                    f"  {k:10} CPU median {c['median']:.2f} s (min {c['min']:.2f}, max "
                    f"{c['max']:.2f}); wall median {w['median']:.2f} s; peak {mb['max']:.1f} MB"
                )
            x = r["cpu_ratio"]
            print(f"  CPU ratio pairwise {x['min']:.2f}/{x['median']:.2f}/{x['max']:.2f}")
    cpu_ok = all(r["cpu_ratio"]["median"] <= TARGET_CPU for r in rows)
    mem_ok = all(r["peak_mb"]["fieldjudge"]["max"] <= TARGET_MB for r in rows)
    per_game = [r["cpu_s"]["fieldjudge"]["median"] / r["games"] for r in rows]
    verdict(
        "export",
        {str(r["games"]): r["cpu_s"]["fieldjudge"]["median"] for r in rows},
        {str(r["games"]): r["cpu_s"]["anchor"]["median"] for r in rows},
        {str(r["games"]): r["cpu_ratio"] for r in rows},
        f"CPU ≤ {TARGET_CPU}× the one-process exporter; peak ≤ {TARGET_MB} MB; linear",
        cpu_ok and mem_ok,
        cpu_s_per_game={str(r["games"]): round(x, 4) for r, x in zip(rows, per_game, strict=True)},
        peak_mb={str(r["games"]): r["peak_mb"]["fieldjudge"]["max"] for r in rows},
        repeat=repeat,
        command=" ".join(COMMANDS[args.via]),
    )


if __name__ == "__main__":
    main()
