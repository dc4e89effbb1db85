"""Keypress-to-screen latency of an elimination on the live game screen (issue 3).

A Pilot run on a demo tournament whose game already holds 500 events. Each round types
``a 4 2`` (team A, shirt 42: the inline prompt then shows the reason menu) and times the
final ``Enter`` (reason: hit) from the moment the key is posted to the app until the
elimination is durable in the game file (the store fsyncs before ``append`` returns) and
the screen's widgets show it (team A's alive count and #42's row). ``u`` then undoes it
(not timed), so the log grows by two events a round.

A second figure waits on until Textual has painted the frame (no layout, repaint or dirty
widget pending on the screen; the screen repaints at most 60 times a second).

Target: p95 <= 50 ms. Prints the figures, then one line of JSON.
Run: ``python benchmarks/bench_game.py``.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from textual import events

from fieldjudge.app import make_app
from fieldjudge.services import open_tournament
from fieldjudge.services.demo import create_demo
from fieldjudge.services.game import GameSession

EVENTS_BEFORE = 500
ROUNDS = 60


def prepare(folder: Path) -> str:
    create_demo(folder, day=date(2026, 6, 1)).close()
    t = open_tournament(folder, startup_backup=False)
    gid = t.games()[4]["id"]
    s = GameSession(t, gid, judge="bench")
    a, b = s.teams
    s.append("clock_start")
    numbers = [p.number for p in s.setup.rosters[b]]
    i = 0
    while len(s.events) < EVENTS_BEFORE:
        n = numbers[i % len(numbers)]
        s.append("paint_check_start", {"team": b, "number": n})
        s.append("paint_check_end", {"team": b, "number": n, "outcome": "in_play"})
        i += 1
    t.close()
    return gid


async def run(folder: Path, gid: str) -> tuple[list[float], list[float]]:
    from fieldjudge.screens.game.screen import GameScreen

    app = make_app(folder.parent, folder, lang="en")
    times: list[float] = []
    idle: list[float] = []
    async with app.run_test(size=(80, 24)) as pilot:
        while app.tournament is None:
            await pilot.pause(0.01)
        app.open_game(gid)
        while not isinstance(app.screen, GameScreen):
            await pilot.pause(0.01)
        screen = app.screen
        for _ in range(500):  # children mount in their own tasks
            if screen.query("#alive-a") and screen.query(".player-row"):
                break
            await pilot.pause(0.01)
        s = screen.session
        team = s.teams[0]
        assert len(s.events) >= EVENTS_BEFORE
        alive = screen.query_one("#alive-a")
        status = next(r for r in screen.query(".player-row") if r.number == 42)
        for _ in range(ROUNDS):
            await pilot.press("a", "4", "2")
            assert screen.prompt.active and "Reason" in screen.prompt.current.title
            n = len(s.events)
            t0 = time.perf_counter()
            app.post_message(events.Key("enter", None))
            while not (
                len(s.events) == n + 1
                and alive.value == "4"
                and "✗" in str(status.query_one(".player-status").render())
            ):
                await asyncio.sleep(0.0002)
            times.append((time.perf_counter() - t0) * 1000)
            while painting(screen):  # the frame with the change has gone to the terminal
                await asyncio.sleep(0.0002)
            idle.append((time.perf_counter() - t0) * 1000)
            assert s.state.alive(team) == 4
            await pilot.press("u")
            while alive.value != "5":
                await pilot.pause(0.001)
        final_events = len(s.events)
    print(f"events in the game at the end: {final_events}")
    return times, idle


def painting(screen) -> bool:
    """True while the screen still has a repaint or layout pending (Textual internals)."""
    return bool(
        screen._layout_required  # noqa: SLF001
        or screen._repaint_required  # noqa: SLF001
        or screen._dirty_widgets  # noqa: SLF001
    )


def stats(values: list[float]) -> tuple[float, float]:
    values = sorted(values)
    return statistics.median(values), values[max(0, int(len(values) * 0.95) - 1)]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "bench" / "demo"
        gid = prepare(folder)
        times, idle = asyncio.run(run(folder, gid))
    median, p95 = stats(times)
    idle_median, idle_p95 = stats(idle)
    print(f"elimination keypress → durable + on screen, {len(times)} rounds, game of 500+ events")
    print(f"median {median:.1f} ms, p95 {p95:.1f} ms (target p95 <= 50 ms)")
    print(f"until the frame is painted: median {idle_median:.1f} ms, p95 {idle_p95:.1f} ms")
    print(
        json.dumps(
            {
                "bench": "game_elimination_keypress",
                "events_before": EVENTS_BEFORE,
                "rounds": len(times),
                "median_ms": round(median, 2),
                "p95_ms": round(p95, 2),
                "painted_median_ms": round(idle_median, 2),
                "painted_p95_ms": round(idle_p95, 2),
                "target_p95_ms": 50,
                "ok": p95 <= 50,
            }
        )
    )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
