"""Keypress → event durable → frame painted, in a real terminal, for an elimination, an
undo and a void, on games of 500 and 5,000 events, at 80×24 and 120×40, against a minimal
Textual app doing the same per key in the same run (issue 24).

Both apps run as separate processes, each in its own pseudo-terminal, exactly as a judge
runs them; this process is the terminal: it writes the keys and feeds everything the app
writes into a VT100 screen (``pyte``). A frame counts as painted when the bytes that make
the screen show the change have arrived (taken before the emulator parses them).

- fieldjudge: the live game screen of a game that already holds the events (paint checks
  of team B, recorded through the services, signed). Each round: ``a 4 2`` (team A, shirt
  42) waits for the reason menu, then ``Enter`` (hit) is timed until #42's row shows ✗
  and the notice ✓, and the game file is checked to hold it (fsync'd before the frame);
  ``u`` asks, then ``Enter`` is timed until #42 is back (●); ``a 4 2 Enter`` again, then
  ``v`` and ↓ (the whole log, newest first), ``Enter`` (the elimination), the reason ``x``
  (typed in the screen's prompt), and that last ``Enter`` is timed until #42 is back. The game grows by four events a
  round.
- anchor: a Textual app with a DataTable of the players, a notice line and the game's log
  newest first (the events its file already holds: the very events of fieldjudge's game,
  every field, each held as a parsed JSON object; as many lines as fit, a voided one
  struck through); the same keys, the same screens to wait for; each Enter that records
  appends one JSON line and fsyncs it, then updates #42's cell, the notice and the log (a
  new line on top moves every line down, as in the game screen's log).

Rounds alternate between the two apps (and which goes first). Targets: p95 ratio ≤ 1.0
at both sizes for the elimination; undo and void p95 ≤ 16 ms (one frame) up to 5,000
events; the game screen's resident memory grows per event of the game no more than the
anchor's, which holds the same events (from the smallest game to the largest, per size:
what the screen holds beyond the log itself is flat in the number of events). The last
line is JSON.

    python benchmarks/bench_game.py [--rounds 30] [--quick] [--size 80x24] [--events 500]
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).parent))
from harness import Terminal, figures, load, memory_mb, parser, ratios, verdict  # noqa: E402

from fieldjudge.rules.events import stored_doc  # noqa: E402
from fieldjudge.services import open_tournament  # noqa: E402
from fieldjudge.services.demo import create_demo  # noqa: E402
from fieldjudge.services.paintball.game import GameSession  # noqa: E402
from fieldjudge.store import EventLog  # noqa: E402

SIZES = ((80, 24), (120, 40))
EVENTS = (500, 5_000)
OPS = ("elimination", "undo", "void")
TARGET_RATIO = 1.0
TARGET_CORRECTION_MS = 16.0
#: kB of resident memory per event of the game, fieldjudge's over the anchor's
TARGET_MEMORY_RATIO = 1.0
#: how long an app writes nothing before a timed key is sent (its last frame settled)
SETTLE_S = 0.1

CHILD_FIELDJUDGE = """
import sys
from pathlib import Path
from fieldjudge.app import make_app

folder, gid = Path(sys.argv[1]), sys.argv[2]
app = make_app(folder.parent, folder, lang="en", judge="Bench judge")

async def open_game(pilot):
    while app.tournament is None:
        await pilot.pause(0.01)
    app.open_game(gid)

app.run(auto_pilot=open_game)
"""

CHILD_ANCHOR = """
import os, sys, uuid
from datetime import UTC, datetime
import orjson
from textual.app import App
from rich.text import Text
from textual.widgets import DataTable, Footer, Header, Static

path, numbers = sys.argv[1], [int(n) for n in sys.argv[2].split(",")]

def line(doc):
    d = doc["data"]
    if doc["type"] == "void":
        return f"Voided: {d['target'][:8]} ({d['reason']})"
    if doc["type"] == "elimination":
        return f"Team A #{d['players'][0]} eliminated: {d['reason']}"
    return f"{doc['type']}: team B #{d.get('number', '')}"

class Anchor(App):
    CSS = "#log { height: 1fr; padding: 0 1; }"

    def compose(self):
        yield Header()
        yield DataTable(id="players")
        yield Static("", id="notice")
        yield Static("", id="log")
        yield Footer()

    def on_mount(self):
        with open(path, "rb") as f:  # the game so far (its log is drawn newest first)
            self.events = [orjson.loads(raw) for raw in f]
        self.voided = {e["data"]["target"] for e in self.events if e["type"] == "void"}
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self.seq, self.typed, self.mode, self.last = len(self.events), "", "", None
        t = self.query_one(DataTable)
        t.add_column("No", key="no")
        t.add_column("Name", key="name")
        t.add_column("Status", key="status")
        for n in numbers:
            t.add_row(str(n), f"Player {n}", "in play", key=str(n))

    def on_resize(self):
        self.call_after_refresh(self.show_log)

    def show_log(self):
        log = self.query_one("#log", Static)
        text = Text(no_wrap=True, overflow="ellipsis")
        for e in reversed(self.events[-max(1, log.size.height):]):
            gone = e["id"] in self.voided
            text.append(f"{e['seq']:>4}  ")
            text.append(line(e), style="strike dim" if gone else "")
            text.append("  Voided\\n" if gone else "\\n")
        log.update(text, layout=False)  # its height is the screen's rest: no layout

    def append(self, etype, data):
        self.seq += 1
        doc = {"id": uuid.uuid4().hex, "seq": self.seq, "type": etype,
               "wall_time": datetime.now(UTC).isoformat(), "data": data}
        os.write(self.fd, orjson.dumps(doc) + b"\\n")
        os.fsync(self.fd)
        self.events.append(doc)
        if etype == "void":
            self.voided.add(data["target"])
        self.show_log()
        return doc["id"]

    def on_key(self, event):
        notice = self.query_one("#notice", Static)
        t = self.query_one(DataTable)
        key, ch = event.key, event.character
        event.stop()
        if self.mode == "reason" and key == "enter":
            number = int(self.typed[1:])
            self.last = self.append("elimination", {"reason": "hit", "players": [number]})
            t.update_cell(str(number), "status", "✗ out: hit")
            notice.update(f"✓ #{number} eliminated: hit")
            self.typed, self.mode = "", ""
        elif self.mode == "undo" and key == "enter":
            self.append("void", {"target": self.last, "reason": "undo"})
            t.update_cell("42", "status", "in play")
            notice.update("↶ Undone")
            self.mode = ""
        elif self.mode == "pick" and key == "enter":
            notice.update("Reason for the correction:")
            self.mode, self.typed = "void_reason", ""
        elif self.mode == "void_reason" and key == "enter":
            self.append("void", {"target": self.last, "reason": self.typed})
            t.update_cell("42", "status", "in play")
            notice.update("↶ Voided")
            self.mode, self.typed = "", ""
        elif self.mode == "void_reason" and ch:
            self.typed += ch
            notice.update(f"Reason for the correction: {self.typed}")
        elif self.mode == "" and ch == "u":
            notice.update("Undo: #42? Enter: undo")
            self.mode = "undo"
        elif self.mode == "" and ch == "v":
            notice.update("Void an event: pick it")
            self.mode = "pick"
        elif ch and ch in "a0123456789":
            self.typed += ch
            if len(self.typed) == 3:
                notice.update(f"Reason for #{self.typed[1:]}: Enter = hit")
                self.mode = "reason"

Anchor().run()
"""


def prepare(root: Path, events: int) -> None:
    """A demo tournament under ``root`` whose game holds ``events - 1`` events, recorded
    through the services as the game screen records them (signed, the file's meta too):
    the clock started, paint checks of team B's players each ended "in play" (24), and
    Time! (the game's 7 minutes wait for :func:`resumed`, which starts them again)."""
    folder = root / "demo"
    create_demo(folder, day=date(2026, 6, 1)).close()
    t = open_tournament(folder, startup_backup=False)
    g = t.games()[4]
    b = g["team_b"]
    others = [int(p["number"]) for p in t.players(b)]
    session = GameSession(t, g["id"], judge="Bench judge")
    session.start_clock()
    checks = events - 3
    for i in range(checks // 2):
        n = others[i % len(others)]
        session.start_check("paint", b, n)
        session.end_check(b, n, "in_play")
    if checks % 2:
        session.start_check("paint", b, others[0])
    session.stop_time()
    t.close()


def resumed(root: Path) -> tuple[Path, str, Path, list[int]]:
    """The game :func:`prepare` made under ``root`` (or a copy of it), its clock resumed
    now: ``(folder, game id, game file, team A's shirt numbers)``."""
    folder = root / "demo"
    t = open_tournament(folder, startup_backup=False)
    g = t.games()[4]
    numbers = [int(p["number"]) for p in t.players(g["team_a"])]
    assert 42 in numbers
    GameSession(t, g["id"], judge="Bench judge").resume_clock()
    assert not t.game_faults(g["id"]), t.game_faults(g["id"])  # signed, shown as such
    path = t.game_path(g["id"])
    t.close()
    return folder, g["id"], path, numbers


def anchor_game(path: Path, game_file: Path) -> None:
    """The anchor's game so far: the very events of fieldjudge's game (ids, hashes,
    signatures, every field), one JSON line each, which it reads at its start and draws
    as its log: both apps hold the same log, so their memory per event compares."""
    log = EventLog.open(game_file)
    try:
        with path.open("wb") as f:
            for e in log.events:
                f.write(orjson.dumps(stored_doc(e)) + b"\n")
    finally:
        log.close()


def timed(term: Terminal, keys: bytes, until: Callable[[list[str]], bool]) -> float:
    """Milliseconds from ``keys`` to the frame ``until`` waits for, sent once the app has
    written nothing for :data:`SETTLE_S`: a key typed as a judge types it, after the frame
    before it has settled. Sent at once (within a millisecond of that frame), it also paid
    for the app finishing that frame, e.g. the second layout Textual runs after a widget
    changed size (the game screen's prompt as it opens), which no judge waits for."""
    deadline = time.monotonic() + 2.0
    seen, quiet_since = term.bytes_read, time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.01)
        if term.bytes_read != seen:
            seen, quiet_since = term.bytes_read, time.monotonic()
        elif time.monotonic() - quiet_since >= SETTLE_S:
            break
    return term.send(keys, until) * 1000


def row_of(lines: list[str], number: int, cols: int) -> str:
    """Team A's row of shirt ``number`` (the left half of the screen)."""
    for line in lines:
        left = line[: cols // 2]
        if left.lstrip().startswith(f"{number} "):
            return left
    return ""


def shown(lines: list[str], *needles: str) -> bool:
    text = "\n".join(lines)
    return all(n in text for n in needles)


def run_config(
    root: Path, cols: int, rows: int, events: int, rounds: int, prepared: tuple | None = None
) -> dict:
    """One size and game: ``rounds`` of the three keys in each app. ``prepared``: a game
    :func:`resumed` gave (e.g. one a pit server reads meanwhile); else one is made."""
    if prepared is None:
        prepare(root, events)
    folder, gid, game_file, numbers = prepared or resumed(root)
    lines_path = root / f"anchor{cols}x{rows}-{events}.jsonl"
    anchor_game(lines_path, game_file)
    fj = Terminal(
        "fieldjudge", [sys.executable, "-c", CHILD_FIELDJUDGE, str(folder), gid], cols, rows
    )
    anchor = Terminal(
        "anchor",
        [sys.executable, "-c", CHILD_ANCHOR, str(lines_path), ",".join(map(str, numbers))],
        cols,
        rows,
    )
    times: dict[str, dict[str, list[float]]] = {op: {"fieldjudge": [], "anchor": []} for op in OPS}
    out42 = lambda ls: "✗" in row_of(ls, 42, cols) and shown(ls, "✓")  # noqa: E731
    back42 = lambda ls: "●" in row_of(ls, 42, cols)  # noqa: E731
    a_row = lambda ls: next((ln for ln in ls if "Player 42" in ln), "")  # noqa: E731
    try:
        fj.wait_for(lambda ls: back42(ls) and not shown(ls, "Reason for"))
        anchor.wait_for(lambda ls: "in play" in a_row(ls))

        def round_fj() -> None:
            t = times
            fj.send(b"a42", lambda ls: shown(ls, "Reason for"))
            size = game_file.stat().st_size
            t["elimination"]["fieldjudge"].append(timed(fj, b"\r", out42))
            assert game_file.stat().st_size > size, "painted before it was on disk"
            fj.send(b"u", lambda ls: shown(ls, "Enter: undo"))
            t["undo"]["fieldjudge"].append(timed(fj, b"\r", back42))
            fj.send(b"a42", lambda ls: shown(ls, "Reason for"))
            fj.send(b"\r", out42)
            # v asks the event's number; ↓ opens the whole log, the newest event picked
            fj.send(b"v", lambda ls: shown(ls, "Void event #"))
            fj.send(b"\x1b[B", lambda ls: shown(ls, "Void an event"))
            fj.send(b"\r", lambda ls: shown(ls, "Give the reason"))
            fj.send(b"x", lambda ls: shown(ls, "› x▏"))  # typed in the screen's prompt
            t["void"]["fieldjudge"].append(timed(fj, b"\r", back42))

        def round_anchor() -> None:
            t = times
            anchor.send(b"a42", lambda ls: shown(ls, "Reason for #42"))
            size = lines_path.stat().st_size
            t["elimination"]["anchor"].append(timed(anchor, b"\r", lambda ls: "✗" in a_row(ls)))
            assert lines_path.stat().st_size > size
            anchor.send(b"u", lambda ls: shown(ls, "Enter: undo"))
            t["undo"]["anchor"].append(timed(anchor, b"\r", lambda ls: "✗" not in a_row(ls)))
            anchor.send(b"a42", lambda ls: shown(ls, "Reason for #42"))
            anchor.send(b"\r", lambda ls: "✗" in a_row(ls))
            anchor.send(b"v", lambda ls: shown(ls, "Void an event"))
            anchor.send(b"\r", lambda ls: shown(ls, "Reason for the correction"))
            anchor.send(b"x", lambda ls: shown(ls, "correction: x"))
            t["void"]["anchor"].append(timed(anchor, b"\r", lambda ls: "✗" not in a_row(ls)))

        # one round of each, not counted: the first keys after the start overlap the app's
        # own start-up work (its first frames and timers, timed by bench_startup), and with
        # ten rounds the p95 is the slowest sample, so that one round decided the verdict
        round_fj()
        round_anchor()
        times = {op: {"fieldjudge": [], "anchor": []} for op in OPS}
        for i in range(rounds):
            for run in (round_fj, round_anchor) if i % 2 == 0 else (round_anchor, round_fj):
                run()
        fj_bytes, anchor_bytes = fj.bytes_read, anchor.bytes_read
        # the resident set once every round is drawn: with the game's events in memory,
        # the screen should hold nothing per event it does not show
        rss = {"fieldjudge": memory_mb(fj.proc.pid, "VmRSS")}
        rss["anchor"] = memory_mb(anchor.proc.pid, "VmRSS")
    finally:
        fj.close()
        anchor.close()
    log = EventLog.open(game_file)
    after = len(log.events)
    log.close()
    assert after == events + 4 * (rounds + 1), after
    row: dict = {"size": f"{cols}x{rows}", "events": events, "loadavg": load()}
    for op in OPS:
        f, a = times[op]["fieldjudge"], times[op]["anchor"]
        row[op] = {"fieldjudge_ms": figures(f), "anchor_ms": figures(a), "ratio": ratios(f, a)}
    row["bytes_ratio"] = round(fj_bytes / max(1, anchor_bytes), 2)
    row["rss_mb"] = {k: round(v, 1) for k, v in rss.items()}
    return row


def per_event_kb(rows: list[dict]) -> dict[str, dict[str, float]]:
    """Per size, how much each app's resident set grew per event of the game, from the
    smallest game to the largest (kB/event): the game screen's memory should grow with
    the events it holds, not with a drawing of each one."""
    out: dict[str, dict[str, float]] = {}
    for size in sorted({r["size"] for r in rows}):
        at = sorted((r["events"], r["rss_mb"]) for r in rows if r["size"] == size)
        if len(at) > 1 and at[-1][0] > at[0][0]:
            (n0, m0), (n1, m1) = at[0], at[-1]
            out[size] = {k: round((m1[k] - m0[k]) * 1024 / (n1 - n0), 2) for k in m0}
    return out


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--size", action="append", help="only this size, e.g. 80x24 (repeatable)")
    ap.add_argument("--events", type=int, action="append", help="only games of this many")
    args = ap.parse_args()
    if args.rounds < 1:
        sys.exit("--rounds must be >= 1")
    try:
        sizes = [tuple(map(int, z.split("x"))) for z in args.size] if args.size else SIZES
    except ValueError:
        sys.exit("--size: columns x rows, e.g. 80x24")
    if any(n < 10 for n in args.events or ()):
        sys.exit("--events must be >= 10")
    configs = [(c, r, n) for c, r in sizes for n in args.events or EVENTS]
    if args.quick:
        configs = configs[:1] if args.size or args.events else [(80, 24, 500)]
    rounds = 1 if args.quick else args.rounds
    rows_out = []
    with tempfile.TemporaryDirectory() as tmp:
        games: dict[int, Path] = {}  # each game recorded once (event by event, fsync'd)
        for cols, rws, n in configs:
            root = Path(tmp) / f"{cols}x{rws}-{n}"
            if n not in games:
                games[n] = Path(tmp) / f"game-{n}"
                prepare(games[n], n)
            shutil.copytree(games[n], root)
            row = run_config(root, cols, rws, n, rounds, resumed(root))
            rows_out.append(row)
            print(
                f"{row['size']}, game of {n} events, {rounds} rounds, load {row['loadavg']}, "
                f"bytes written {row['bytes_ratio']}× the anchor's, resident "
                f"{row['rss_mb']['fieldjudge']} MB (anchor {row['rss_mb']['anchor']} MB)"
            )
            for op in OPS:
                f, a, r = row[op]["fieldjudge_ms"], row[op]["anchor_ms"], row[op]["ratio"]
                print(
                    f"  {op:11} fieldjudge median {f['median']:6.1f} p95 {f['p95']:6.1f} ms | "
                    f"anchor median {a['median']:6.1f} p95 {a['p95']:6.1f} ms | pairwise "
                    f"{r['min']:.2f}/{r['median']:.2f}/{r['max']:.2f}, p95 ratio {r['p95']:.2f}"
                )
    worst_ratio = max(r["elimination"]["ratio"]["p95"] for r in rows_out)
    worst_fix = max(r[op]["fieldjudge_ms"]["p95"] for r in rows_out for op in ("undo", "void"))
    per_event = per_event_kb(rows_out)
    # judged only with two game sizes at a screen size (not in --quick)
    memory_ratio = max(
        (v["fieldjudge"] / v["anchor"] for v in per_event.values() if v["anchor"] > 0),
        default=None,
    )
    ok = worst_ratio <= TARGET_RATIO and worst_fix <= TARGET_CORRECTION_MS
    ok = ok and (memory_ratio is None or memory_ratio <= TARGET_MEMORY_RATIO)
    key = lambda r: f"{r['size']}/{r['events']}"  # noqa: E731
    verdict(
        "game",
        {key(r): {op: r[op]["fieldjudge_ms"]["p95"] for op in OPS} for r in rows_out},
        {key(r): {op: r[op]["anchor_ms"]["p95"] for op in OPS} for r in rows_out},
        {key(r): {op: r[op]["ratio"] for op in OPS} for r in rows_out},
        f"elimination p95 ≤ {TARGET_RATIO}× anchor at every size; undo and void p95 ≤ "
        f"{TARGET_CORRECTION_MS:.0f} ms; memory per event ≤ {TARGET_MEMORY_RATIO}× the "
        "anchor's, holding the same events",
        ok,
        worst_elimination_p95_ratio=worst_ratio,
        worst_correction_p95_ms=worst_fix,
        rss_mb={key(r): r["rss_mb"] for r in rows_out},
        kb_per_event=per_event,
        worst_memory_per_event_ratio=None if memory_ratio is None else round(memory_ratio, 2),
        rounds=rounds,
    )


if __name__ == "__main__":
    main()
