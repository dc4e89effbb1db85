"""Issue 20, defect 8: the marker check refuses a signed game (31: once both captains
signed nothing changes) and a player whose team has not checked in at the chrono station
(19.01: the team reports with its markers before they are checked), each with the rule's
reason as a clear message."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest
from results_fixtures import demo, finished_game

from fieldjudge.app import make_app
from fieldjudge.i18n import rule_text
from fieldjudge.screens.chrono.marker_check import MarkerCheckScreen
from fieldjudge.screens.dialogs.forms import MessageScreen
from fieldjudge.services import open_tournament
from fieldjudge.services.paintball import results
from fieldjudge.services.paintball.marker_check import MarkerCheckService
from fieldjudge.store import Refused
from tests.screen_text import screen_text
from tests.test_game_helpers import wait_for


def signed_game(folder: Path) -> str:
    t = demo(folder)
    try:
        gid = finished_game(t, 4, "hang")
        a, b = results.game_view(t, gid).teams
        results.submit_protocol(t, gid, judge="Старший")
        results.sign(t, gid, a, "Иван")
        results.sign(t, gid, b, "Пётр")
        return gid
    finally:
        t.close()


def unplayed(t) -> dict:
    return next(g for g in reversed(t.games()) if not t.game_path(g["id"]).exists())


def test_31_marker_check_of_a_signed_game_is_refused(tmp_path: Path):
    gid = signed_game(tmp_path / "cup")
    t = open_tournament(tmp_path / "cup", startup_backup=False)
    try:
        service = MarkerCheckService(t, gid)
        why = service.open_refusal()
        assert why is not None and why.startswith("31: the protocol of this game is signed")
        team = t.game(gid)["team_a"]
        start = datetime.fromisoformat(t.game(gid)["start"])
        n = len(results.game_view(t, gid).events)
        with pytest.raises(Refused, match=r"^31: the protocol of this game is signed"):
            service.checkin(team, start, start, 3)
        with pytest.raises(Refused, match=r"^31: the protocol of this game is signed"):
            service.verdict(team, 11, "admitted")
        assert len(results.game_view(t, gid).events) == n
    finally:
        t.close()


def test_19_01_a_player_of_a_team_not_checked_in_is_refused(tmp_path: Path):
    demo(tmp_path / "cup").close()
    t = open_tournament(tmp_path / "cup", startup_backup=False)
    try:
        g = unplayed(t)
        service = MarkerCheckService(t, g["id"])
        _setup, state, _view = service.state()
        number = state.team_players(g["team_a"])[0].number
        with pytest.raises(Refused, match=r"^19\.01: .* has not checked in") as refused:
            service.verdict(g["team_a"], number, "admitted")
        names = t.team_names()
        assert rule_text(refused.value, names, "ru").startswith(
            f"19.01: команда {names[g['team_a']]} не отметилась на хронографе"
        )
        start = datetime.fromisoformat(g["start"])
        service.checkin(g["team_a"], start - timedelta(minutes=10), start, 3)
        service.verdict(g["team_a"], number, "admitted")  # checked in: accepted
    finally:
        t.close()


async def open_check(app, pilot, gid: str) -> None:
    t = app.tournament
    table = app.screen.query_one("#games")
    table.focus()
    for _ in range([g["id"] for g in t.games()].index(gid)):
        await pilot.press("down")
    await pilot.press("k")


async def test_31_marker_check_screen_does_not_open_for_a_signed_game(tmp_path: Path):
    folder = tmp_path / "data" / "cup"
    gid = signed_game(folder)
    app = make_app(folder.parent, folder, lang="ru")
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        await open_check(app, pilot, gid)
        await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen), "the refusal")
        text = screen_text(app)
        assert "31: протокол этой игры подписан обоими капитанами" in text
        assert not any(isinstance(s, MarkerCheckScreen) for s in app.screen_stack)


async def test_19_01_marker_check_screen_refuses_a_player_of_a_team_not_checked_in(
    tmp_path: Path,
):
    folder = tmp_path / "data" / "cup"
    demo(folder).close()
    app = make_app(folder.parent, folder, lang="ru")
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        g = unplayed(app.tournament)
        await open_check(app, pilot, g["id"])
        await wait_for(pilot, lambda: isinstance(app.screen, MarkerCheckScreen), "the check")
        screen = app.screen
        await pilot.press("enter")  # the first player of the list: his team not checked in
        await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen), "the refusal")
        assert "не отметилась на хронографе" in screen_text(app)
        assert screen.current is None
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, "back to the check")
        await pilot.press("i")  # the highlighted player's team checks in
        await wait_for(pilot, lambda: screen.state.checkins, "the check-in")
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.current is not None, "the player picked")
