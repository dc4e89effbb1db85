"""The pit display with 50 connected browsers (issue 14).

1. Update latency: a judge's event appended through the app's own non-UI API (GameSession)
   → the event's new state received by each of 50 server-sent-event clients (a separate
   process, as the TVs and phones are other machines). The pit server runs in the judging
   process, on its own thread, reading the folder as it does in the app. Anchor in the same
   run: a bare aiohttp SSE server, told directly after the append (no polling, no limits),
   pushing the same JSON (the same read of the folder) to the same 50 clients.
2. The judge's append path: durable append time of an event with no server, and with the
   pit server and 50 clients connected.
3. The judge's keypress benchmark (benchmarks/bench_game.py: elimination keypress → durable
   and on screen, target p95 <= 50 ms) run while the pit server and 50 clients are connected.

Target: update latency p95 <= 1 s to 50 clients. Prints min/median/max, then one JSON line.
Run: ``python benchmarks/bench_serve.py [--quick]``.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import aiohttp
import orjson
from aiohttp import web

sys.path.insert(0, str(Path(__file__).parent))

CLIENTS = 50
TARGET_S = 1.0


# --- the clients (a child process) ---------------------------------------------------------


async def _client(url: str, gid: str, seen: dict[int, float], ready: asyncio.Event) -> None:
    async with aiohttp.ClientSession() as s, s.get(url, timeout=None) as r:
        event = ""
        async for raw in r.content:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "live":
                now = time.monotonic()
                doc = orjson.loads(line[6:])
                ready.set()
                for g in doc.get("games", []):
                    if g["id"] == gid and g["last_events"]:
                        seen.setdefault(g["last_events"][0]["seq"], now)


async def clients_main(url: str, gid: str, n: int) -> None:
    seens: list[dict[int, float]] = [{} for _ in range(n)]
    readies = [asyncio.Event() for _ in range(n)]
    tasks = [
        asyncio.create_task(_client(url, gid, s, r)) for s, r in zip(seens, readies, strict=True)
    ]
    await asyncio.gather(*(r.wait() for r in readies))
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until closed
    for t in tasks:
        t.cancel()
    print(json.dumps([{str(k): v for k, v in s.items()} for s in seens]), flush=True)


class Clients:
    def __init__(self, url: str, gid: str, n: int = CLIENTS) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--clients", url, gid, str(n)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if line.strip() != "ready":
            raise RuntimeError(f"clients did not connect: {line!r}")

    def finish(self) -> list[dict[int, float]]:
        out, _ = self.proc.communicate("", timeout=60)
        return [{int(k): v for k, v in d.items()} for d in json.loads(out)]


# --- the anchor: a bare SSE server told directly -------------------------------------------


class BareSSE:
    def __init__(self, source) -> None:
        self.source = source
        self.queues: list[asyncio.Queue] = []
        self.loop = asyncio.new_event_loop()
        self.url = ""
        ready = threading.Event()
        threading.Thread(target=self._run, args=(ready,), daemon=True).start()
        ready.wait(10)

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)

        async def events(request: web.Request) -> web.StreamResponse:
            resp = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
            await resp.prepare(request)
            q: asyncio.Queue = asyncio.Queue()
            self.queues.append(q)
            await resp.write(b"event: live\ndata: " + orjson.dumps(self.source.live()) + b"\n\n")
            while True:
                await resp.write(await q.get())

        async def start() -> None:
            app = web.Application()
            app.router.add_get("/events", events)
            runner = web.AppRunner(app, access_log=None)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            port = runner.addresses[0][1]
            self.url = f"http://127.0.0.1:{port}/events"

        self.loop.run_until_complete(start())
        ready.set()
        self.loop.run_forever()

    def notify(self) -> None:
        def push() -> None:
            msg = b"event: live\ndata: " + orjson.dumps(self.source.live()) + b"\n\n"
            for q in self.queues:
                q.put_nowait(msg)

        self.loop.call_soon_threadsafe(push)


# --- the judge ------------------------------------------------------------------------------


class Judge:
    """Appends paint checks (start, end) to one running game through GameSession."""

    def __init__(self, t, gid: str) -> None:
        from fieldjudge.services.paintball.game import GameSession

        self.s = GameSession(t, gid, judge="bench")
        self.team = self.s.teams[1]
        self.numbers = [p.number for p in self.s.setup.rosters[self.team]]
        self.i = 0
        if not self.s.state.clock.started:
            self.s.append("clock_start")

    def append(self) -> tuple[int, float, float]:
        """One event; returns (its seq, monotonic time once durable, append seconds)."""
        n = self.numbers[(self.i // 2) % len(self.numbers)]
        kind = "paint_check_start" if self.i % 2 == 0 else "paint_check_end"
        data = {"team": self.team, "number": n}
        if kind == "paint_check_end":
            data["outcome"] = "in_play"
        self.i += 1
        t0 = time.monotonic()
        e = self.s.append(kind, data)
        t1 = time.monotonic()
        return e.seq, t1, t1 - t0


def latencies(sent: list[tuple[int, float]], seens: list[dict[int, float]]) -> list[float]:
    out = []
    for seq, at in sent:
        for seen in seens:
            if seq in seen:
                out.append(seen[seq] - at)
            else:
                out.append(float("inf"))  # never received: fails the target
    return out


def run_rounds(judge: Judge, rounds: int, after, rng: random.Random) -> tuple[list, list]:
    sent, appends = [], []
    for _ in range(rounds):
        seq, at, took = judge.append()
        after()
        sent.append((seq, at))
        appends.append(took)
        time.sleep(0.3 + rng.random() * 0.3)  # pacing between a judge's events
    time.sleep(1.5)  # the last pushes arrive
    return sent, appends


def fmt(name: str, values: list[float], unit: float = 1000) -> str:
    v = sorted(values)
    p95 = v[max(0, int(len(v) * 0.95) - 1)]
    return (
        f"{name}: n={len(v)} min {v[0] * unit:.1f} median {statistics.median(v) * unit:.1f} "
        f"p95 {p95 * unit:.1f} max {v[-1] * unit:.1f} ms"
    )


def p95(values: list[float]) -> float:
    v = sorted(values)
    return v[max(0, int(len(v) * 0.95) - 1)]


def main(quick: bool) -> None:
    from datetime import date

    from fieldjudge.serve import PitServer
    from fieldjudge.services.demo import create_demo
    from fieldjudge.services.pitview import PitView

    rounds = 3 if quick else 40
    rng = random.Random(14)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "bench" / "demo"
        t = create_demo(folder, day=date(2026, 6, 1))
        gid = t.games()[4]["id"]
        judge = Judge(t, gid)

        # 2a. the append path with no server
        _s, appends_alone = run_rounds(judge, rounds, lambda: None, rng)

        # 1. the pit server in this process, 50 clients in another
        server = PitServer(PitView(folder), "127.0.0.1", 0)
        url = server.start()
        clients = Clients(url + "events", gid)
        sent, appends_served = run_rounds(judge, rounds, lambda: None, rng)
        pit = latencies(sent, clients.finish())

        # anchor: a bare SSE server told right after each append
        bare = BareSSE(PitView(folder))
        clients = Clients(bare.url, gid)
        sent, _a = run_rounds(judge, rounds, bare.notify, rng)
        anchor = latencies(sent, clients.finish())

        t.close()

        # 3. the keypress benchmark of the game screen: alone, then with 50 clients connected
        keypress: list[float] = []
        keypress_alone: list[float] = []
        if not quick:
            import bench_game

            alone = bench_game.run_config(Path(tmp) / "bench2", 80, 24, 500, 20)
            keypress_alone = [alone["elimination"]["fieldjudge_ms"]["p95"] / 1000]
            prepared = bench_game.prepare(Path(tmp) / "bench3", 500)
            server2 = PitServer(PitView(prepared[0]), "127.0.0.1", 0)
            url2 = server2.start()
            clients = Clients(url2 + "events", prepared[1])
            served = bench_game.run_config(Path(tmp), 80, 24, 500, 20, prepared)
            keypress = [served["elimination"]["fieldjudge_ms"]["p95"] / 1000]
            received = clients.finish()
            server2.stop()
            print(f"keypress run: the 50 clients saw {min(len(r) for r in received)}+ updates each")
        server.stop()

    print(f"{CLIENTS} SSE clients, {rounds} events each run (figures taken under shared load)")
    print(fmt("pit server: event appended → client received", pit))
    print(fmt("anchor (bare SSE, told directly): appended → received", anchor))
    print(fmt("judge append, no server", appends_alone))
    print(fmt("judge append, pit server + 50 clients", appends_served))
    if keypress:
        print(fmt("game screen elimination keypress, no server", keypress_alone))
        print(fmt("game screen elimination keypress, pit server + 50 clients", keypress))
    pit_p95 = p95(pit)
    result = {
        "bench": "serve_update_latency",
        "clients": CLIENTS,
        "rounds": rounds,
        "p50_ms": round(statistics.median(pit) * 1000, 1),
        "p95_ms": round(pit_p95 * 1000, 1),
        "anchor_p50_ms": round(statistics.median(anchor) * 1000, 1),
        "anchor_p95_ms": round(p95(anchor) * 1000, 1),
        "ratio_to_anchor_p95": round(pit_p95 / p95(anchor), 2),
        "append_p95_ms_alone": round(p95(appends_alone) * 1000, 2),
        "append_p95_ms_served": round(p95(appends_served) * 1000, 2),
        "append_ratio": round(p95(appends_served) / p95(appends_alone), 2),
        "keypress_p95_ms_alone": round(p95(keypress_alone) * 1000, 1) if keypress else None,
        "keypress_p95_ms_served": round(p95(keypress) * 1000, 1) if keypress else None,
        "keypress_target_p95_ms": 50,
        "target_p95_ms": TARGET_S * 1000,
        "ratio": round(pit_p95 / TARGET_S, 3),
        "ok": pit_p95 <= TARGET_S and (not keypress or p95(keypress) <= 0.050),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--clients":
        asyncio.run(clients_main(sys.argv[2], sys.argv[3], int(sys.argv[4])))
    else:
        main("--quick" in sys.argv)
