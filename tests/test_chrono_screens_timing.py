"""The chrono screens under a laptop stall and the after-release window, with Pilot (issue 20):
RULES.md "Timing a string of shots" (19.05, 20.02, 20.05) and "After-release test (19.05):
the window".

A stall is simulated through a real pty: the frames of a legal marker are written in one
burst, as they arrive after the app was paused.  The window test injects the very message the
reader worker posts, with explicit host times."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from fieldjudge.app import make_app
from fieldjudge.devices.simulator import PtyChrono, encode_frame
from fieldjudge.screens.chrono.dialogs import FailedMarkerScreen, SecondPlayerScreen
from fieldjudge.screens.chrono.ingame import InGameChronoScreen
from fieldjudge.screens.dialogs.forms import MessageScreen
from tests.test_chrono_screens import (
    SIZE,
    _running_game,
    feed,
    judging,
    next_game,
    open_check,
    shots,
    verdicts,
)
from tests.test_game_helpers import wait_for

LEGAL = [285.2, 286.0, 284.7, 285.9, 286.3]  # 285 fps; the burst hides their 110 ms


@pytest.fixture
def sim(monkeypatch: pytest.MonkeyPatch):
    chrono = PtyChrono()
    monkeypatch.setenv("FIELDJUDGE_CHRONO_PORT", chrono.path)
    yield chrono
    chrono.close()


@pytest.fixture
def no_port(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr("fieldjudge.services.paintball.chrono.default_config", lambda: None)


def burst() -> bytes:
    return b"".join(encode_frame(v) for v in LEGAL)


async def test_in_game_chrono_a_stalled_burst_is_no_20_05(demo_folder: Path, sim) -> None:
    """20.05 is never proposed from an unknown interval: the burst is recorded as a clean
    reading (20.02) and the screen says the interval was not measured."""
    async with judging(demo_folder) as (app, pilot):
        session, _gid = await _running_game(app, pilot)
        a = session.setup.team_a
        app.push_screen(InGameChronoScreen(session, a, 7))
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, InGameChronoScreen) and app.screen.query("#feed"),
            "the chrono",
        )
        screen = app.screen
        await wait_for(pilot, lambda: feed(app).state == "connected", "the device")
        sim.write(burst())
        await wait_for(pilot, lambda: len(screen.shots) == len(LEGAL), "the burst")
        await pilot.pause()
        text = screen.query_one("#cg-analysis").render().plain
        assert "Interval not measured: readings came in a batch — repeat the string" in text
        assert "no penalty" in text and "DISQUALIFIED" not in text.upper().replace("-", "")
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.result_event is not None, "the reading recorded")
        assert not isinstance(app.screen, SecondPlayerScreen)
        data = screen.result_event.data
        assert "interval_ms" not in data and data["intervals_unknown"] == len(LEGAL) - 1
        p = session.state.player(a, 7)
        assert p.status == "in_play" and not p.disqualified
        assert not session.state.team_penalties
        assert "no penalty" in screen.query_one("#cg-result-text").render().plain


async def test_marker_check_a_stalled_burst_asks_for_another_string_ru(
    demo_folder: Path, sim
) -> None:
    """19.05 / 20.02: the burst is not a rate-of-fire failure; the Russian screen says the
    interval was not measured; a string read shot by shot then admits the marker."""
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        gid = next_game(app)
        screen = await open_check(app, pilot, gid)
        await wait_for(pilot, lambda: feed(app).state == "connected", "the device")
        await pilot.press("enter", "a", "m", "s")
        sim.write(burst())
        await wait_for(pilot, lambda: len(screen.current.shots) == len(LEGAL), "the burst")
        await wait_for(
            pilot,
            lambda: screen.last_check and len(screen.last_check.tests) == 6,
            "the tests",
        )
        await wait_for(pilot, lambda: screen.last_check.unknown_intervals == 4, "the check")
        tests = screen.query_one("#mc-tests").render().plain
        assert "интервал не измерен: показания пришли пачкой" in tests
        assert "повторите серию" in tests
        assert screen.last_check.test("rate_of_fire").outcome == "not_done"
        await pilot.press("r", "v")
        await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen), "not finished")
        assert not isinstance(app.screen, FailedMarkerScreen) and not verdicts(app.tournament, gid)
        await pilot.press("escape")
        for fps in (284.5, 287.0, 286.0):  # another string, each shot read on its own
            n = len(screen.current.shots)
            sim.write(encode_frame(fps))
            await wait_for(pilot, lambda n=n: len(screen.current.shots) == n + 1, "a shot")
            await pilot.pause(0.12)  # real time between shots: ≥ 95 ms apart (20.02)
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.last_check and screen.last_check.admitted, "admit")
        assert screen.last_check.test("rate_of_fire").outcome == "pass"
        await pilot.press("v")
        await wait_for(pilot, lambda: verdicts(app.tournament, gid), "the verdict")
        v = verdicts(app.tournament, gid)[0]
        assert v["result"] == "admitted" and v["intervals_unknown"] >= 4
        assert sum(1 for r in v["readings"] if r.get("timed") is False) >= 4


async def test_19_05_verdict_3_s_after_release_with_a_later_burst_admits(
    demo_folder: Path, no_port
) -> None:
    """RULES.md "After-release test (19.05): the window": the judge pressed r, then v three
    seconds later; the burst a second after r is a new string, not after-release fire."""
    async with judging(demo_folder) as (app, pilot):
        gid = next_game(app)
        screen = await open_check(app, pilot, gid)
        await pilot.press("enter", "a", "m", "s")
        await shots(pilot, app, [285.0, 286.0, 285.5], 110, start=time.monotonic() - 1.0)
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.current.release_t is not None)
        rel = screen.current.release_t
        await shots(pilot, app, [284.0, 285.0, 286.0, 285.0], 110, start=rel + 1.0)
        await wait_for(pilot, lambda: screen.last_check and len(screen.current.shots) == 7)
        await wait_for(pilot, lambda: screen.last_check.shots_after_release == 0, "the window")
        assert screen.last_check.test("after_release").outcome == "pass"
        table = screen.query_one("#mc-tests").render().plain
        assert "no shot after release" in table and "shots within 500 ms count" in table
        await pilot.press("v")
        await wait_for(pilot, lambda: verdicts(app.tournament, gid), "the verdict")
        assert not isinstance(app.screen, FailedMarkerScreen)
        assert verdicts(app.tournament, gid)[0]["result"] == "admitted"


async def test_19_05_a_shot_inside_the_window_still_counts(demo_folder: Path, no_port) -> None:
    async with judging(demo_folder) as (app, pilot):
        gid = next_game(app)
        screen = await open_check(app, pilot, gid)
        await pilot.press("enter", "a", "m", "s")
        await shots(pilot, app, [285.0, 286.0], 110, start=time.monotonic() - 1.0)
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.current.release_t is not None)
        rel = screen.current.release_t
        await shots(pilot, app, [284.0], 110, start=rel + 0.3)  # 300 ms: late (> 100 ms)
        await wait_for(pilot, lambda: screen.last_check.shots_after_release == 1, "counted")
        ar = screen.last_check.test("after_release")
        assert ar.outcome == "fail" and "300 ms after release" in ar.message
