"""Issue 11 (20.02, 20.03, 20.06) and issue 12 item 10 on the in-game chrono screen and the
flag-hang check: the judge picks one to three shots, the reading is shown as read, the game
clock runs live and the 20.06 box fits at 80x24."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fakes import FakeClock

from fieldjudge.app import make_app
from fieldjudge.rules.paintball import events as ev
from fieldjudge.screens.chrono.ingame import InGameChronoScreen
from fieldjudge.screens.chrono.show import ReadingShownScreen
from fieldjudge.services.paintball.game import GameSession
from tests.test_chrono_screens import inject, unplayed
from tests.test_game_helpers import fake_clock, game_id, game_screen, keys, wait_for


@pytest.fixture
def no_port(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr("fieldjudge.services.paintball.chrono.default_config", lambda: None)


async def _open(app, pilot, session, team, number):
    app.push_screen(InGameChronoScreen(session, team, number))
    await wait_for(
        pilot, lambda: isinstance(app.screen, InGameChronoScreen) and app.screen.query("#feed")
    )
    return app.screen


async def test_20_02_the_judge_picks_the_shots_the_verdict_is_taken_on(
    demo_folder: Path, no_port
) -> None:
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        session = GameSession(app.tournament, unplayed(app.tournament)[0]["id"], judge="t")
        session.append(ev.CLOCK_START, {})
        a = session.setup.team_a
        screen = await _open(app, pilot, session, a, 7)
        t0 = time.monotonic() - 1.0
        for i, fps in enumerate([305.4, 288.2, 290.9, 289.5]):
            inject(app, fps, t0 + i * 0.15)
        await wait_for(pilot, lambda: len(screen.shots) == 4, "readings")
        text = screen.query_one("#cg-analysis").render().plain
        assert "1:305.4  2:288.2✓  3:290.9✓  4:289.5✓" in text  # default: the last three
        await keys(pilot, "2", "3", "4")  # the judge picks 2, 3 and 4 explicitly
        await keys(pilot, "1")  # a fourth is refused (20.02: one to three)
        assert screen.readings.judged() == [1, 2, 3]
        await keys(pilot, "enter")
        await wait_for(pilot, lambda: screen.result_event is not None, "the chrono event")
        data = screen.result_event.data
        assert (data["fps"], data["shots"]) == (290.9, [288.2, 290.9, 289.5])
        assert session.state.player(a, 7).status == "in_play"  # 305.4 was not chosen
        assert screen.query_one("#cg-result-digits").value == "290.9"  # shown as read


async def test_20_03_judged_on_whole_fps_300_9_no_penalty_shown_as_read(
    demo_folder: Path, no_port
) -> None:
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        session = GameSession(app.tournament, unplayed(app.tournament)[0]["id"], judge="t")
        session.append(ev.CLOCK_START, {})
        b = session.setup.team_b
        screen = await _open(app, pilot, session, b, 11)
        inject(app, 300.96, time.monotonic())
        await wait_for(pilot, lambda: len(screen.shots) == 1, "the reading")
        await keys(pilot, "enter")
        await wait_for(pilot, lambda: screen.result_event is not None, "the chrono event")
        assert screen.result_event.data["fps"] == 300.96  # kept at the device's precision
        assert session.state.player(b, 11).status == "in_play"  # 300 whole fps: no penalty
        assert screen.query_one("#cg-result-digits").value == "300.96"


async def test_issue12_10_clock_runs_live_and_the_20_06_box_fits_at_80x24(
    demo_folder: Path, no_port
) -> None:
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        clock = FakeClock()
        session = GameSession(
            app.tournament, unplayed(app.tournament)[0]["id"], clock=clock, judge="t"
        )
        session.append(ev.CLOCK_START, {})
        a = session.setup.team_a
        screen = await _open(app, pilot, session, a, 42)
        title = screen.query_one("#cg-title")
        assert title.render().plain.endswith("7:00")
        clock.advance(75_000)
        await wait_for(pilot, lambda: title.render().plain.endswith("5:45"), "the live clock")
        inject(app, 305.0, time.monotonic())
        await wait_for(pilot, lambda: len(screen.shots) == 1, "the reading")
        await keys(pilot, "enter")
        await wait_for(pilot, lambda: screen.result_event is not None, "the chrono event")
        await pilot.pause()
        box = screen.query_one("#cg-result")
        text = screen.query_one("#cg-result-text")
        lines = text.render().plain.count("\n") + 1
        assert box.region.height > 0 and box.region.bottom <= 24 - 1  # above the footer
        assert text.region.height >= lines  # nothing of the box is cut
        assert "20.06" in text.render().plain.splitlines()[-1]


async def test_23_02_20_06_a_hang_rejected_by_the_chrono_shows_the_reading(
    demo_folder: Path, monkeypatch, no_port
) -> None:
    clock = fake_clock(monkeypatch)
    gid = game_id(demo_folder)
    async with game_screen(demo_folder, gid, size=(80, 24)) as (app, pilot, screen):
        await keys(pilot, "space")
        clock.advance(20_000)
        await keys(pilot, "f a 1 1")
        clock.advance(10_000)
        await keys(pilot, "H c 3 0 5 . 4 enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReadingShownScreen), "the 20.06 box")
        shown = app.screen
        assert shown.query_one("#shown-digits").value == "305.4"
        assert (
            shown.query_one("#shown-text")
            .render()
            .plain.startswith("20.03: 305.4 fps is over 300 fps")
        )
        box = shown.query_one("#shown-box")
        assert box.region.bottom <= 24 and box.region.right <= 80
        await keys(pilot, "enter")
        await wait_for(pilot, lambda: app.screen is screen, "back on the game")


# --- marker check: 19.03 acceptance, 19.04 modes, 19.05 balls across a restart ----------


async def test_19_05_restart_keeps_the_ball_count_and_140_is_a_notice(
    demo_folder: Path, no_port
) -> None:
    from tests.test_chrono_screens import judging, next_game, open_check, shots

    async with judging(demo_folder) as (app, pilot):
        screen = await open_check(app, pilot, next_game(app))
        await pilot.press("enter", "a", "m", "s")
        await shots(pilot, app, [285.0 + (i % 3) for i in range(100)], 150)
        await pilot.press("c")  # restart the check: 100 balls still count (19.05)
        assert screen.current.balls_before == 100 and screen.current.shots == []
        await pilot.press("a", "m", "s")
        await shots(pilot, app, [286.0] * 40, 150)
        await wait_for(pilot, lambda: screen.last_check.balls_used == 140, "140 balls")
        assert screen.last_check.balls_notice is not None
        tests = screen.query_one("#mc-tests").render().plain
        assert "balls used: 140 / 140" in tests
        assert "⚠ 19.05: " in tests  # a notice for the judges, not a failed test
        assert [t.name for t in screen.last_check.tests] == [
            "acceptance",
            "modes",
            "slap",
            "velocity",
            "rate_of_fire",
            "after_release",
        ]


async def test_19_03_foreign_object_refuses_the_marker_for_the_check(
    demo_folder: Path, no_port
) -> None:
    from fieldjudge.screens.chrono.acceptance import AcceptanceProblemScreen
    from fieldjudge.screens.chrono.dialogs import FailedMarkerScreen
    from tests.test_chrono_screens import judging, next_game, open_check, shots, verdicts

    async with judging(demo_folder) as (app, pilot):
        gid = next_game(app)
        screen = await open_check(app, pilot, gid)
        await pilot.press("enter", "A")
        await wait_for(pilot, lambda: isinstance(app.screen, AcceptanceProblemScreen))
        await pilot.press("1", "3", "enter")  # foreign object, tool-less adjuster
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press("m", "s")
        await shots(pilot, app, [285.0, 286.0], 150)
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.current.release_t is not None)
        assert screen.last_check.refused
        assert screen.last_check.test("acceptance").outcome == "fail"
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, FailedMarkerScreen), "19.06")
        assert app.screen.check.reasons == (
            "19.03: marker not accepted for the check: a foreign object in the barrel, breech "
            "or loader; a part that changes the velocity or mode without tools",
        )
        await pilot.press("f")
        await wait_for(pilot, lambda: verdicts(app.tournament, gid), "the verdict")
        v = verdicts(app.tournament, gid)[-1]
        assert v["result"] == "not_admitted" and v["tests"]["acceptance"] == "fail"
        assert v["acceptance"] == {
            "foreign_object": True,
            "loose_parts": False,
            "toolless_adjuster": True,
        }


async def test_19_04_forbidden_mode_step_fails_the_marker(demo_folder: Path, no_port) -> None:
    from tests.test_chrono_screens import judging, next_game, open_check, shots

    async with judging(demo_folder) as (app, pilot):
        screen = await open_check(app, pilot, next_game(app))
        await pilot.press("enter", "a", "s")
        await shots(pilot, app, [285.0, 286.0], 150)
        assert screen.last_check.test("modes").outcome == "not_done"  # a required step
        await pilot.press("M")
        await wait_for(pilot, lambda: screen.last_check.test("modes").outcome == "fail")
        assert "19.04: the marker fires in a forbidden mode" in screen.last_check.reasons
        assert not screen.last_check.admitted
