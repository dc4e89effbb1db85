"""Chrono screens with Pilot: the pre-game marker check (19, 20.02, 32.01), the in-game chrono
(20.03-20.06), disqualification carried to later checks (20.05) and unplug/replug.

Streaming and unplug use a real pty (`PtyChrono`); exact 94/96 ms intervals are injected as
the very message the reader worker posts (`ChronoFeed.ReadingReceived`) with explicit host
timestamps, because pty scheduling cannot promise a millisecond."""

from __future__ import annotations

import time
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from textual.widgets import Static

from fieldjudge.app import make_app
from fieldjudge.devices.parsers import Reading
from fieldjudge.devices.simulator import PtyChrono, encode_frame
from fieldjudge.rules.paintball import events as ev
from fieldjudge.screens.chrono.dialogs import FailedMarkerScreen, SecondPlayerScreen
from fieldjudge.screens.chrono.feed import ChronoFeed
from fieldjudge.screens.chrono.ingame import InGameChronoScreen
from fieldjudge.screens.chrono.marker_check import MarkerCheckScreen
from fieldjudge.screens.dialogs.forms import FormScreen, MessageScreen
from fieldjudge.screens.widgets.prompt import PromptPanel
from fieldjudge.services.paintball.game import GameSession
from fieldjudge.services.trust.head_judge import DEMO_PASSPHRASE
from tests.test_game_helpers import type_text, wait_for

SIZE = (110, 36)


@asynccontextmanager
async def judging(folder: Path):
    """The app on the demo tournament, loaded: (app, pilot)."""
    app = make_app(folder.parent, folder, lang="en", judge="Test judge")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        yield app, pilot


@pytest.fixture
def sim(monkeypatch: pytest.MonkeyPatch):
    chrono = PtyChrono()
    monkeypatch.setenv("FIELDJUDGE_CHRONO_PORT", chrono.path)
    yield chrono
    chrono.close()


@pytest.fixture
def no_port(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr("fieldjudge.services.paintball.chrono.default_config", lambda: None)


def unplayed(t) -> list[dict]:
    return [g for g in t.games() if not t.game_path(g["id"]).exists()]


def next_game(app) -> str:
    """The id of the first game not played yet."""
    return unplayed(app.tournament)[0]["id"]


def set_now(monkeypatch, when: datetime) -> None:
    monkeypatch.setattr("fieldjudge.screens.chrono.marker_check.now_local", lambda: when)


def feed(app) -> ChronoFeed:
    return app.screen.query_one("#feed", ChronoFeed)


def inject(app, fps: float, t: float) -> None:
    """Post exactly what the reader worker posts for one reading."""
    feed(app).post_message(ChronoFeed.ReadingReceived(Reading(fps, "plain", t, b"")))


def checks(t, gid: str) -> list:
    """The marker checks of a game as the chrono station sees them: in the game's log when
    this laptop owns it, else in this laptop's marker-check log (no game file created)."""
    from fieldjudge.services.paintball.marker_check import MarkerCheckService

    return MarkerCheckService(t, gid).state()[2].events


def verdicts(t, gid: str) -> list[dict]:
    return [dict(e.data) for e in checks(t, gid) if e.type == ev.MARKER_VERDICT]


async def open_check(app, pilot, gid: str, checked_in: bool = True) -> MarkerCheckScreen:
    """The marker check of ``gid``; ``checked_in``: both teams have reported (19.01), so
    their markers may be checked."""
    app.push_screen(MarkerCheckScreen(app.tournament, gid))
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, MarkerCheckScreen) and app.screen.query("#feed"),
        "the check",
    )
    screen = app.screen
    if checked_in:
        game = app.tournament.game(gid)
        start = datetime.fromisoformat(str(game["start"]))
        for team in (game["team_a"], game["team_b"]):
            screen.service.checkin(team, start - timedelta(minutes=10), start, 3)
        screen.reload()
    return screen


def highlighted(screen) -> str | None:
    """The key ("team|number") of the marker check list's highlighted player."""
    return screen.query_one("#mc-roster").cursor_key()


async def shots(pilot, app, fps_list, gap_ms: float, start: float | None = None) -> float:
    span = (len(fps_list) - 1) * gap_ms / 1000
    t0 = time.monotonic() - span - 0.01 if start is None else start  # all before "now"
    n = len(app.screen.current.shots)
    for i, fps in enumerate(fps_list):
        inject(app, fps, t0 + i * gap_ms / 1000)
    await wait_for(pilot, lambda: len(app.screen.current.shots) == n + len(fps_list), "shots")
    return t0 + (len(fps_list) - 1) * gap_ms / 1000


# --------------------------------------------------------------------------- pre-game


async def test_admitted_marker_from_home_with_a_streaming_device(
    demo_folder: Path, sim: PtyChrono, monkeypatch
) -> None:
    async with judging(demo_folder) as (app, pilot):
        t = app.tournament
        games = t.games()
        target = unplayed(t)[0]
        set_now(monkeypatch, datetime.fromisoformat(target["start"]) - timedelta(minutes=10))
        app.screen.query_one("#games").focus()
        for _ in range(games.index(target)):
            await pilot.press("down")
        await pilot.press("k")
        await wait_for(pilot, lambda: isinstance(app.screen, MarkerCheckScreen), "the check")
        await wait_for(pilot, lambda: feed(app).state == "connected", "the device")
        await pilot.press("i")  # the team of the highlighted player checks in
        await wait_for(pilot, lambda: app.screen.state.checkins, "the check-in")
        team = target["team_a"]
        assert app.screen.state.checkins == {team: False}
        await pilot.press("enter", "a", "m", "s")  # first player; slap test: no shot
        for fps in (284.5, 287.0, 286.0):
            sim.write(encode_frame(fps))
            await wait_for(pilot, lambda n=fps: feed(app).last and feed(app).last.fps == n)
            await pilot.pause(0.12)  # real time between shots: host stamps ≥ 95 ms apart (20.02)
        await wait_for(pilot, lambda: len(app.screen.current.shots) == 3, "3 readings")
        assert feed(app).query_one("#feed-digits").value == "286.0"
        await pilot.press("r")  # trigger released: nothing fires
        await wait_for(pilot, lambda: app.screen.last_check and app.screen.last_check.admitted)
        assert "ADMITTED" in app.screen.query_one("#mc-verdict").render().plain
        await pilot.press("v")
        await wait_for(pilot, lambda: verdicts(t, target["id"]), "the verdict")
        v = verdicts(t, target["id"])[0]
        assert (v["team"], v["number"], v["result"]) == (team, 7, "admitted")
        assert [r["fps"] for r in v["readings"]] == [284.5, 287.0, 286.0]
        assert v["tests"]["rate_of_fire"] == "pass" and v["max_fps"] == 287.0
        tol = app.screen.query_one("#mc-tolerance").render().plain
        assert "laptop's clock" in tol and "ms" in tol


async def test_over_300_not_admitted_then_fixed_and_retested(demo_folder: Path, no_port) -> None:
    async with judging(demo_folder) as (app, pilot):
        gid = next_game(app)
        screen = await open_check(app, pilot, gid)
        await pilot.press("enter", "a", "m", "s")
        await shots(pilot, app, [298.0, 301.5, 297.0], 150)
        await pilot.press("r")
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, FailedMarkerScreen), "19.06 dialog")
        assert "301.5 fps is over 300" in "\n".join(app.screen.check.reasons)
        await pilot.press("f")  # 19.06: fix and retest
        await wait_for(pilot, lambda: verdicts(app.tournament, gid), "the verdict")
        assert verdicts(app.tournament, gid)[-1]["result"] == "not_admitted"
        assert screen.current is None
        # the fixed marker is checked again
        await pilot.press("enter", "a", "m", "s")
        await shots(pilot, app, [288.0, 289.0], 150)
        await pilot.press("r", "v")
        await wait_for(pilot, lambda: len(verdicts(app.tournament, gid)) == 2)
        assert verdicts(app.tournament, gid)[-1]["result"] == "admitted"
        assert screen.state.team_players(screen.setup.team_a)[0].marker_result == "admitted"


async def test_19_the_footer_offers_a_checks_steps_once_a_player_is_picked(
    demo_folder: Path, no_port
) -> None:
    """Before a player is picked the footer offers none of a check's steps (19.03-19.06:
    slap, trigger released, verdict…), which only say «pick a player»; once his check is
    open they are offered, and gone again after his verdict."""

    def shown(screen) -> set[str]:
        return {str(k.action) for k in screen.query("FooterKey")}

    async with judging(demo_folder) as (app, pilot):
        gid = next_game(app)
        screen = await open_check(app, pilot, gid)
        await wait_for(pilot, lambda: "checkin" in shown(screen), "the footer")
        assert not {"slap(False)", "released", "verdict"} & shown(screen)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "slap(False)" in shown(screen), "the check's steps")
        await pilot.press("a", "m", "s")
        await shots(pilot, app, [288.0, 289.0], 150)
        await pilot.press("r", "v")
        await wait_for(pilot, lambda: verdicts(app.tournament, gid), "the verdict")
        await wait_for(pilot, lambda: "slap(False)" not in shown(screen), "the steps gone")


async def test_rate_of_fire_94_ms_fails_96_ms_passes(demo_folder: Path, no_port) -> None:
    async with judging(demo_folder) as (app, pilot):
        gid = next_game(app)
        screen = await open_check(app, pilot, gid)
        # player 1: three shots 96 ms apart → rate of fire passes (20.02)
        await pilot.press("enter", "a", "m", "s")
        await shots(pilot, app, [285.0, 285.5, 286.0], 96)
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.last_check and screen.last_check.admitted)
        assert screen.last_check.test("rate_of_fire").outcome == "pass"
        assert screen.last_check.min_interval_ms == 96.0
        await pilot.press("v")
        await wait_for(pilot, lambda: len(verdicts(app.tournament, gid)) == 1)
        # player 2 (highlighted after player 1's verdict): 94 ms → fails; plays without a
        # marker (19.07)
        assert highlighted(screen) == f"{screen.setup.team_a}|11"
        await pilot.press("enter", "a", "m", "s")
        await shots(pilot, app, [285.0, 285.5, 286.0], 94)
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.last_check and not screen.last_check.admitted)
        assert screen.last_check.test("rate_of_fire").outcome == "fail"
        assert "94 ms is under 95 ms" in screen.query_one("#mc-tests").render().plain
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, FailedMarkerScreen))
        await pilot.press("w")
        await wait_for(pilot, lambda: len(verdicts(app.tournament, gid)) == 2)
        last = verdicts(app.tournament, gid)[-1]
        assert (last["number"], last["result"]) == (11, "no_marker")
        assert last["tests"]["rate_of_fire"] == "fail"
        assert [r["ms"] for r in last["readings"]] == [0.0, 94.0, 188.0]


async def test_after_release_two_shots_and_a_late_one_fail(demo_folder: Path, no_port) -> None:
    async with judging(demo_folder) as (app, pilot):
        gid = next_game(app)
        screen = await open_check(app, pilot, gid)
        await pilot.press("enter", "a", "m", "s")
        await shots(pilot, app, [285.0, 286.0], 150, start=time.monotonic() - 1.0)
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.current.release_t is not None)
        rel = screen.current.release_t
        await shots(pilot, app, [284.0, 283.0], 70, start=rel + 0.05)  # +50 ms, +120 ms
        await wait_for(
            pilot, lambda: screen.last_check and len(screen.last_check.tests) == 6
        )  # 19.03 and 19.04 steps; 19.05: the 140 balls are no test
        await wait_for(pilot, lambda: screen.last_check.shots_after_release == 2)
        ar = screen.last_check.test("after_release")
        assert ar.outcome == "fail"
        assert "2 shots after release" in ar.message and "120 ms after release" in ar.message
        assert not screen.last_check.admitted


async def test_late_checkin_is_flagged_and_approval_needs_the_head_judges_secret(
    demo_folder: Path, no_port, monkeypatch
) -> None:
    async with judging(demo_folder) as (app, pilot):
        g = unplayed(app.tournament)[0]
        gid = g["id"]
        set_now(monkeypatch, datetime.fromisoformat(g["start"]) - timedelta(minutes=2))
        screen = await open_check(app, pilot, gid, checked_in=False)
        await pilot.press("i")
        await wait_for(pilot, lambda: screen.state.checkins, "the check-in")
        assert screen.state.checkins[g["team_a"]] is True  # 32.01: possible no-show
        assert "LATE" in screen.query_one("#mc-checkins").render().plain
        # approval refused while verdicts are missing
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen))
        assert "no verdict yet" in app.screen.body
        await pilot.press("escape")
        for i in range(5):  # every player of team A plays without a marker (19.07)
            await pilot.press("w")  # then the next player is highlighted
            await wait_for(pilot, lambda n=i: len(verdicts(app.tournament, gid)) == n + 1)
        assert highlighted(screen) == f"{g['team_b']}|7"  # team B's first, after team A's
        await pilot.press("up", "h")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "the secret form")
        await type_text(pilot, "wrong-secret")
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: (
                "Wrong head judge's secret" in app.screen.query_one("#form-error").render().plain
            ),
        )
        error = app.screen.query_one("#form-error").render().plain
        assert error.startswith("19.05: only the head judge approves")
        for _ in range(len("wrong-secret")):
            await pilot.press("backspace")
        await type_text(pilot, DEMO_PASSPHRASE)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen)
        approvals = [e for e in checks(app.tournament, gid) if e.type == "marker_approval"]
        assert len(approvals) == 1 and approvals[0].data["team"] == g["team_a"]
        assert set(approvals[0].data["results"].values()) == {"no_marker"}
        assert "approved by the head judge" in screen.query_one("#mc-checkins").render().plain


async def test_typed_reading_refuses_bad_input(demo_folder: Path, no_port) -> None:
    async with judging(demo_folder) as (app, pilot):
        screen = await open_check(app, pilot, next_game(app))
        await pilot.press("enter", "t")  # asked in the screen's inline prompt
        await wait_for(pilot, lambda: screen.query_one(PromptPanel).active, "the prompt")
        await type_text(pilot, "0")
        await pilot.press("enter")
        await pilot.pause()
        assert "Type a speed in fps" in screen.query_one("#prompt-error").render().plain
        for _ in range(4):
            await pilot.press("backspace")
        await type_text(pilot, "291.5")
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.current.shots, "the typed reading")
        assert screen.current.shots[0].fps == 291.5 and feed(app).last.format == "typed"


# --------------------------------------------------------------------------- in-game


async def _running_game(app, pilot) -> tuple[GameSession, str]:
    t = app.tournament
    gid = unplayed(t)[0]["id"]
    session = GameSession(t, gid, judge="test")
    session.append(ev.CLOCK_START, {})
    return session, gid


async def _ingame(app, pilot, session, team, number, fps_list, gap_ms=150.0, keys=()):
    app.push_screen(InGameChronoScreen(session, team, number))
    await wait_for(
        pilot, lambda: isinstance(app.screen, InGameChronoScreen) and app.screen.query("#feed")
    )
    screen = app.screen
    for k in keys:
        await pilot.press(k)
    t0 = time.monotonic() - 1.0
    for i, fps in enumerate(fps_list):
        inject(app, fps, t0 + i * gap_ms / 1000)
    await wait_for(pilot, lambda: len(screen.shots) == len(fps_list), "readings")
    await pilot.press("enter")
    return screen


async def test_in_game_305_removes_and_shows_the_reading(demo_folder: Path, no_port) -> None:
    async with judging(demo_folder) as (app, pilot):
        session, _gid = await _running_game(app, pilot)
        a = session.setup.team_a
        screen = await _ingame(app, pilot, session, a, 7, [298.0, 305.0])
        await wait_for(pilot, lambda: screen.result_event is not None, "the chrono event")
        p = session.state.player(a, 7)
        assert p.status == "eliminated" and p.elimination.reason == "chrono_over_limit"
        assert screen.result_event.data["fps"] == 305.0
        assert screen.result_event.data["source"] == "device"
        # 20.06: the reading stays large until dismissed, new readings do not replace it
        inject(app, 250.0, time.monotonic())
        await wait_for(pilot, lambda: feed(app).last.fps == 250.0, "the feed takes the reading")
        await pilot.pause()  # the screen has handled the same reading (it bubbles up)
        assert [s.fps for s in screen.shots] == [298.0, 305.0]  # the 250 was not taken
        assert screen.query_one("#cg-result-digits").value == "305"  # as read (20.06)
        assert "PLAYER REMOVED" in screen.query_one("#cg-result-text").render().plain
        await pilot.press("enter")  # closes the 20.06 box only (one key, one layer)
        await wait_for(pilot, lambda: not screen.query_one("#cg-result").display, "box closed")
        assert app.screen is screen
        await pilot.press("escape")  # then back to the game
        await wait_for(pilot, lambda: not isinstance(app.screen, InGameChronoScreen))


async def test_20_a_reading_in_play_redraws_only_what_it_changed(
    demo_folder: Path, no_port, monkeypatch: pytest.MonkeyPatch
) -> None:
    """20: a reading over the radar changes the analysis alone; the player's line, the
    keys and the title (its clock ticks 4 times a second) are not laid out again."""
    async with judging(demo_folder) as (app, pilot):
        session, _gid = await _running_game(app, pilot)
        app.push_screen(InGameChronoScreen(session, session.setup.team_a, 7))
        await wait_for(
            pilot, lambda: isinstance(app.screen, InGameChronoScreen) and app.screen.query("#feed")
        )
        screen = app.screen
        inject(app, 250.0, time.monotonic() - 1.0)
        await wait_for(pilot, lambda: len(screen.shots) == 1, "a reading")
        laid_out: list[str] = []
        refresh = Static.refresh

        def spy(self, *regions, layout: bool = False, **kw):
            if layout and self.id in ("cg-title", "cg-player", "cg-hint"):
                laid_out.append(self.id)
            return refresh(self, *regions, layout=layout, **kw)

        monkeypatch.setattr(Static, "refresh", spy)
        inject(app, 251.0, time.monotonic() - 0.5)
        await wait_for(pilot, lambda: len(screen.shots) == 2, "a second reading")
        await pilot.pause(0.3)  # the title's clock ticks meanwhile
        assert laid_out == []


async def test_in_game_315_group_removal_asks_the_second_player(demo_folder: Path, no_port) -> None:
    async with judging(demo_folder) as (app, pilot):
        session, _gid = await _running_game(app, pilot)
        b = session.setup.team_b
        screen = await _ingame(app, pilot, session, b, 11, [315.0])
        await wait_for(pilot, lambda: isinstance(app.screen, SecondPlayerScreen), "1+1 prompt")
        await pilot.press("down", "enter")  # the second teammate in the list: #23
        await wait_for(pilot, lambda: screen.result_event is not None)
        assert screen.result_event.data["second"] == 23
        st = session.state
        assert st.player(b, 11).elimination.reason == "chrono_group"
        assert st.player(b, 23).elimination.reason == "group_removal"
        assert st.alive(b) == 3
        assert "GROUP REMOVAL 1+1" in screen.query_one("#cg-result-text").render().plain


async def test_forbidden_mode_disqualifies_and_a_later_check_refuses(
    demo_folder: Path, no_port
) -> None:
    async with judging(demo_folder) as (app, pilot):
        t = app.tournament
        session, gid = await _running_game(app, pilot)
        a = session.setup.team_a
        screen = await _ingame(app, pilot, session, a, 42, [289.0, 290.0], keys=["m"])
        # 20.05: the team penalty from the catalogue, group removal 1+1 by default
        await wait_for(pilot, lambda: isinstance(app.screen, SecondPlayerScreen), "1+1 prompt")
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.result_event is not None)
        p = session.state.player(a, 42)
        assert p.disqualified and p.elimination.reason == "forbidden_mode"
        (penalty,) = session.state.team_penalties  # 20.05: team penalty of section 11
        assert penalty.event_id == screen.result_event.id
        assert str(penalty.text).startswith(f"team {a}: 20.05")
        await pilot.press("escape")
        # a later game of the same team: the marker check cannot admit #42
        later = next(g for g in unplayed(t) if g["id"] != gid and a in (g["team_a"], g["team_b"]))
        check = await open_check(app, pilot, later["id"])
        row = [
            i for i, key in enumerate(check.query_one("#mc-roster").rows) if key.value == f"{a}|42"
        ][0]
        for _ in range(row):
            await pilot.press("down")
        await pilot.press("enter")
        assert "DISQUALIFIED" in check.query_one("#mc-verdict").render().plain
        await pilot.press("a", "m", "s")
        await shots(pilot, app, [280.0, 281.0], 150)
        await pilot.press("r", "v")
        await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen), "the refusal")
        assert "20.05" in app.screen.msg_title
        await pilot.press("escape")
        await wait_for(pilot, lambda: verdicts(t, later["id"]))
        v = verdicts(t, later["id"])[-1]
        assert (v["number"], v["result"]) == (42, "not_admitted") and "20.05" in v["note"]


# --------------------------------------------------------------------------- the device


async def test_unplug_shows_disconnected_then_recovers(demo_folder: Path, sim: PtyChrono) -> None:
    async with judging(demo_folder) as (app, pilot):
        await open_check(app, pilot, next_game(app))
        f = feed(app)
        await wait_for(pilot, lambda: f.state == "connected", "connected")
        assert f.state_text == f"Chrono connected: {sim.path}, 9600 baud"  # not "@ 9600"
        sim.write(encode_frame(281.0) + b"\x07garbage\r")
        await wait_for(pilot, lambda: f.readings == 1 and f.garbled == 1, "reading + garbled")
        sim.unplug()
        await wait_for(pilot, lambda: f.state == "disconnected", "disconnected")
        text = f.query_one("#feed-state").render().plain
        assert "CHRONO DISCONNECTED" in text and f.has_class("-disconnected")
        sim.plug()
        await wait_for(pilot, lambda: f.state == "connected", "reconnected", tries=500)
        sim.write(encode_frame(283.5))
        await wait_for(pilot, lambda: f.readings == 2, "a reading after the replug")
        assert f.last.fps == 283.5


async def test_port_dialog_switches_the_feed(demo_folder: Path, sim: PtyChrono, no_port) -> None:
    async with judging(demo_folder) as (app, pilot):
        await open_check(app, pilot, next_game(app))
        f = feed(app)
        assert f.state == "none" and "press p" in f.state_text
        await pilot.press("p")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChronoSetupScreen")
        app.screen.query_one("#port").value = sim.path
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: f.state == "connected", "connected to the new port")
        assert f.config.port == sim.path
        sim.write(encode_frame(279.0))
        await wait_for(pilot, lambda: f.readings == 1)
        assert f.last.fps == 279.0


async def test_flag_hang_check_takes_the_speed_from_the_device(
    demo_folder: Path, no_port, monkeypatch
) -> None:
    from fieldjudge.screens.chrono.hang import attach_hang_chrono
    from tests.test_game_helpers import fake_clock, game_id, keys, open_game

    clock = fake_clock(monkeypatch)
    gid = game_id(demo_folder)
    app = make_app(demo_folder.parent, demo_folder, lang="en", judge="Test judge")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(app, pilot, gid)
        a, _b = screen.session.teams
        await keys(pilot, "space")
        clock.advance(60_000)
        await keys(pilot, "f a 1 1", "H", "c")  # capture, hang (23.01), paint clean
        feed_ = attach_hang_chrono(screen)  # what the game screen's hang fps prompt calls
        await wait_for(pilot, lambda: feed_.is_mounted, "the hang feed")
        t0 = time.monotonic() - 1
        for i, fps in enumerate((288.5, 291.0)):
            feed_.post_message(ChronoFeed.ReadingReceived(Reading(fps, "plain", t0 + i, b"")))
        await wait_for(pilot, lambda: feed_.readings == 2, "the readings")
        await keys(pilot, "enter")
        await wait_for(pilot, lambda: screen.session.state.hangs[-1].counted is not None)
        verdict = [e for e in screen.session.events if e.type == ev.HANG_VERDICT][-1]
        assert verdict.data["fps"] == 291.0 and verdict.data["source"] == "device"
        st = screen.session.state  # clean paint, 291 fps: the hang counts (23.03)
        assert st.hangs[-1].counted is True and st.hang_team == a
        assert (st.end_reason, st.end_ms) == ("flag_hang", 60_000)
        await wait_for(pilot, lambda: not feed_.is_attached, "the feed leaves with the prompt")


async def test_in_game_chrono_enter_picks_the_first_player_at_once(
    demo_folder: Path, no_port
) -> None:
    """Opened with no player named, the list's first player is highlighted: Enter picks
    him and ``t`` types his reading (Enter once did nothing and ``t`` said «pick a player
    first»)."""
    async with judging(demo_folder) as (app, pilot):
        session, _gid = await _running_game(app, pilot)
        app.push_screen(InGameChronoScreen(session, None, None))
        await wait_for(pilot, lambda: isinstance(app.screen, InGameChronoScreen), "the screen")
        screen = app.screen
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.readings is not None, "a player picked")
        first = next(iter(session.state.team_players(session.teams[0])))
        assert (screen.readings.team, screen.readings.number) == (first.team, first.number)


async def test_the_feed_says_its_link_in_russian(demo_folder: Path, sim: PtyChrono) -> None:
    """«Хронограф подключён: <порт>, 9600 бод»: it said «… @ 9600», and while connecting
    «@ 9600 · auto · fps», the command line's words in the Russian UI."""
    app = make_app(demo_folder.parent, demo_folder, lang="ru", judge="Судья")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        await open_check(app, pilot, next_game(app))
        f = feed(app)
        await wait_for(pilot, lambda: f.state == "connected", "connected")
        assert f.state_text == f"Хронограф подключён: {sim.path}, 9600 бод"


async def test_19_after_a_verdict_the_next_player_is_highlighted(demo_folder: Path, no_port):
    """A judge checks a team's markers one after another: after a player's verdict the
    highlight is on the next player without one, so Enter starts his check (it stayed on
    the player just checked: Down, Enter each time). A marker that failed (19.06, to be
    fixed and checked again) keeps the highlight on its player."""
    async with judging(demo_folder) as (app, pilot):
        gid = next_game(app)
        screen = await open_check(app, pilot, gid)
        a = screen.setup.team_a
        await pilot.press("enter", "a", "m", "s")
        await shots(pilot, app, [288.0, 289.0], 150)
        await pilot.press("r", "v")
        await wait_for(pilot, lambda: len(verdicts(app.tournament, gid)) == 1, "#7 admitted")
        assert highlighted(screen) == f"{a}|11"
        await pilot.press("enter", "a", "m", "s")  # #11: over 300 fps, to be fixed (19.06)
        await shots(pilot, app, [301.0, 302.0], 150)
        await pilot.press("r", "v")
        await wait_for(pilot, lambda: isinstance(app.screen, FailedMarkerScreen), "19.06")
        await pilot.press("f")
        await wait_for(pilot, lambda: len(verdicts(app.tournament, gid)) == 2, "#11 refused")
        assert highlighted(screen) == f"{a}|11"
        await pilot.press("enter", "a", "m", "s")  # fixed: checked again, admitted
        await shots(pilot, app, [290.0, 291.0], 150)
        await pilot.press("r", "v")
        await wait_for(pilot, lambda: len(verdicts(app.tournament, gid)) == 3, "#11 admitted")
        assert highlighted(screen) == f"{a}|23"
