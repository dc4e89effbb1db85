"""Teams screen (issue 12, item 14): rename or remove a team, edit or remove a player, by keys;
refused with the reason once the team has played (the services check it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fieldjudge.app import make_app
from fieldjudge.screens.dialogs.forms import ConfirmScreen, FormScreen, MessageScreen
from fieldjudge.screens.setup.teams import TeamsScreen
from fieldjudge.services.demo import DEMO_PASSPHRASE
from fieldjudge.services.paintball.rosters import RosterEditor
from fieldjudge.store import Refused
from tests.test_game_helpers import sign_later, signature_asked, type_text, wait_for


async def open_teams(app, pilot, team_name: str) -> TeamsScreen:
    await wait_for(pilot, lambda: app.tournament is not None)
    await pilot.press("t")
    await wait_for(pilot, lambda: isinstance(app.screen, TeamsScreen), "the teams screen")
    screen = app.screen
    names = [t["name"] for t in app.tournament.teams()]
    for _ in range(names.index(team_name)):
        await pilot.press("down")
    assert app.tournament.team(screen.selected_team())["name"] == team_name
    return screen


def foxes(t) -> dict:
    """A team that has not played: Лисы, #5 Анна (captain) and #6 Борис."""
    team = t.add_team("Лисы")
    t.add_player(team["id"], 5, "Анна", True)
    t.add_player(team["id"], 6, "Борис")
    return team


async def test_new_team_renamed_player_edited_and_removed_by_keys(demo_folder: Path) -> None:
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        t = app.tournament
        team = foxes(t)
        screen = await open_teams(app, pilot, "Лисы")
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen))
        await pilot.press("ctrl+u")  # clear the field, type the new name
        await type_text(pilot, "Лисицы")
        await pilot.press("enter")
        await wait_for(pilot, lambda: t.team(team["id"])["name"] == "Лисицы", "renamed")
        # the roster: edit #6 into #16 "Борис Б." and captain? no (A is the captain)
        await pilot.press("tab", "down")
        assert screen.selected_player()["number"] == 6
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen))
        await pilot.press("ctrl+u")
        await type_text(pilot, "16")
        await pilot.press("enter", "end")
        await type_text(pilot, " Б.")
        await pilot.press("enter", "enter")
        await wait_for(pilot, lambda: any(p["number"] == 16 for p in t.players(team["id"])))
        assert [(p["number"], p["name"], p["captain"]) for p in t.players(team["id"])] == [
            (5, "Анна", True),
            (16, "Борис Б.", False),
        ]
        assert screen.selected_player()["number"] == 16
        await pilot.press("X")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: len(t.players(team["id"])) == 1, "removed")
        # the team is in no game: it can go, with its roster
        await pilot.press("shift+tab", "D")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: t.team(team["id"]) is None, "team removed")
        assert t.players(team["id"]) == []


async def test_a_team_that_played_is_refused_with_the_reason(demo_folder: Path) -> None:
    """Renaming a team that played, or editing or removing one of its players, is refused
    before a form or a question opens (nothing typed in vain)."""
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        t = app.tournament
        bears = t.team_by_name("Медведи")
        before = t.players(bears["id"])
        await open_teams(app, pilot, "Медведи")
        refusal = (
            "Медведи уже играла (10:00 на поле 1, Медведи — Драконы): её события и протоколы "
            "называют команду и игроков, поэтому состав остаётся прежним"
        )
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen), "the refusal")
        assert str(app.screen.query_one("VerticalScroll Static").render()) == refusal
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, TeamsScreen))
        await pilot.press("tab", "e")
        await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen), "the refusal")
        assert str(app.screen.query_one("VerticalScroll Static").render()) == refusal
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, TeamsScreen))
        await pilot.press("X")
        await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen), "the refusal")
        assert str(app.screen.query_one("VerticalScroll Static").render()) == refusal
        assert t.team(bears["id"])["name"] == "Медведи"
        assert t.players(bears["id"]) == before


def test_a_scheduled_team_cannot_be_removed(tournament) -> None:
    editor = RosterEditor(tournament)
    team = tournament.add_team("Лисы")
    g = tournament.games()[-1]
    assert editor.played(team["id"]) == []
    editor.rename_team(team["id"], "Лисицы")
    assert tournament.team(team["id"])["name"] == "Лисицы"
    with pytest.raises(Refused, match="already exists"):
        editor.rename_team(team["id"], "Медведи")
    # a team in the schedule keeps its place
    tournament.add_games([{"field": g["field"], "start": "2026-06-01T13:00:00",
                           "team_a": team["id"], "team_b": g["team_a"]}])  # fmt: skip
    with pytest.raises(Refused, match="scheduled games"):
        editor.remove_team(team["id"])


async def test_a_taken_number_is_said_in_the_form_and_nothing_typed_is_lost(demo_folder: Path):
    """Adding a player whose shirt number the team already has: the refusal is said in
    the form, which stays open with the name typed; the number corrected, he is added.
    (It once closed the form with a notification, and the judge typed it all again.)"""
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        t = app.tournament
        tigers = t.team_by_name("Тигры")
        before = t.players(tigers["id"])
        await open_teams(app, pilot, "Тигры")
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen))
        form = app.screen
        await type_text(pilot, "7")
        await pilot.press("enter")
        await type_text(pilot, "Запасной Игрок")
        await pilot.press("enter", "enter")  # captain? n (as given): save
        error = form.query_one("#form-error")
        await wait_for(pilot, lambda: "уже занят" in str(error.render()), "the refusal")
        assert app.screen is form and t.players(tigers["id"]) == before
        await pilot.press("shift+tab", "shift+tab", "ctrl+u")  # back to the number
        await type_text(pilot, "8")
        await pilot.press("enter", "enter", "enter")
        await sign_later(pilot, app)  # the demo's teams were signed: asked once
        await wait_for(pilot, lambda: isinstance(app.screen, TeamsScreen), "the form closed")
        added = [p for p in t.players(tigers["id"]) if p["number"] == 8]
        assert [(p["name"], p["captain"]) for p in added] == [("Запасной Игрок", False)]


async def test_editing_into_a_taken_number_keeps_the_form(demo_folder: Path):
    """Editing a player of a team that has not played into a number another player
    wears: said in the form, which stays open; another number is then saved."""
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        t = app.tournament
        team = foxes(t)
        screen = await open_teams(app, pilot, "Лисы")
        await pilot.press("tab", "down", "e")  # Борис, #6
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen))
        form = app.screen
        await pilot.press("ctrl+u")
        await type_text(pilot, "5")
        await pilot.press("enter", "end")
        await type_text(pilot, " Б.")
        await pilot.press("enter", "enter")
        error = form.query_one("#form-error")
        await wait_for(pilot, lambda: str(error.render()).strip() != "", "the refusal")
        assert app.screen is form
        assert [p["number"] for p in t.players(team["id"])] == [5, 6]
        await pilot.press("shift+tab", "shift+tab", "ctrl+u")
        await type_text(pilot, "16")
        await pilot.press("enter", "enter", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, TeamsScreen), "the form closed")
        assert [(p["number"], p["name"]) for p in t.players(team["id"])] == [
            (5, "Анна"),
            (16, "Борис Б."),
        ]
        assert screen.selected_player()["number"] == 16


async def test_a_team_name_in_use_is_said_in_the_rename_form(demo_folder: Path):
    """Renaming a team to another team's name: said in the form, which stays open with
    what was typed; a free name is then saved. (It closed the form, with a message box.)"""
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        t = app.tournament
        team = t.add_team("Лисы")
        screen = await open_teams(app, pilot, "Лисы")
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen))
        form = app.screen
        await pilot.press("ctrl+u")
        await type_text(pilot, "Медведи")
        await pilot.press("enter")
        error = form.query_one("#form-error")
        await wait_for(pilot, lambda: "уже есть" in str(error.render()), "the refusal")
        assert app.screen is form and t.team(team["id"])["name"] == "Лисы"
        await pilot.press("ctrl+u")
        await type_text(pilot, "Лисицы")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, TeamsScreen), "the form closed")
        assert t.team(team["id"])["name"] == "Лисицы"
        assert screen.selected_team() == team["id"]


async def add_player(pilot, app, number: str, name: str) -> None:
    await pilot.press("p")
    await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "the player form")
    await type_text(pilot, number)
    await pilot.press("enter")
    await type_text(pilot, name)
    await pilot.press("enter", "enter")


async def test_a_change_of_signed_teams_asks_the_head_judge_to_sign_it(demo_folder: Path):
    """A substitute added on the head judge's laptop to teams he signed, his key not
    unlocked since the app opened: he is asked for his secret at once (it showed every
    team flagged «ПОВРЕЖДЕНО / НЕ ПОДПИСАНО» with no word on the teams screen). Signed,
    the next change of the session is signed without asking."""
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        t = app.tournament
        assert t.tournament_faults() == []
        screen = await open_teams(app, pilot, "Тигры")
        await add_player(pilot, app, "99", "Олег Запасной")
        await wait_for(pilot, lambda: signature_asked(app), "the head judge asked to sign")
        assert "не подписано" in app.screen.form_title
        assert t.tournament_faults() != []  # stored, not yet signed
        await type_text(pilot, DEMO_PASSPHRASE)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen, "back on the teams screen")
        await wait_for(pilot, lambda: t.tournament_faults() == [], "signed")
        await add_player(pilot, app, "98", "Пётр Запасной")
        tigers = t.team_by_name("Тигры")["id"]
        await wait_for(pilot, lambda: len(t.players(tigers)) == 7, "the second one added")
        await wait_for(pilot, lambda: app.screen is screen)
        assert not signature_asked(app) and t.tournament_faults() == []


async def test_a_signature_put_off_is_said_and_not_asked_again(demo_folder: Path):
    """Esc at the head judge's secret: the judge is told every team shows as changed until
    it is signed with T on the home screen; a later change does not ask again."""
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        t = app.tournament
        screen = await open_teams(app, pilot, "Тигры")
        await add_player(pilot, app, "99", "Олег Запасной")
        await sign_later(pilot, app)
        await wait_for(pilot, lambda: app.screen is screen)
        said = [str(n.message) for n in app._notifications]  # noqa: SLF001 - the toasts shown
        assert any("(T на главном экране)" in m for m in said), said
        assert t.tournament_faults() != []
        await add_player(pilot, app, "98", "Пётр Запасной")
        tigers = t.team_by_name("Тигры")["id"]
        await wait_for(pilot, lambda: len(t.players(tigers)) == 7, "the second one added")
        await wait_for(pilot, lambda: app.screen is screen)
        assert not signature_asked(app)


async def test_a_late_substitute_of_a_team_that_played_can_be_put_right(demo_folder: Path):
    """A substitute added after «Медведи» played is on no roster of a game with events:
    e opens his form (his name typed wrong is put right), where the team's other players
    are refused before it opens."""
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        t = app.tournament
        bears = t.team_by_name("Медведи")["id"]
        t.add_player(bears, 99, "Олег Запасной")
        screen = await open_teams(app, pilot, "Медведи")
        await pilot.press("tab", *["down"] * 5)
        await wait_for(pilot, lambda: screen.selected_player()["number"] == 99, "#99")
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "his form")
        await pilot.press("enter", "ctrl+u")
        await type_text(pilot, "Олег Запасный")
        await pilot.press("enter", "enter")
        await wait_for(pilot, lambda: t.players(bears)[-1]["name"] == "Олег Запасный", "saved")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press(*["up"] * 5, "e")  # #7 played at 10:00
        await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen), "the refusal")


async def test_the_russian_player_form_answers_captain_in_russian(demo_folder: Path):
    """«Капитан? (д/н)» with «н» given (it read «(y/n)» and «n» in the Russian form)."""
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await open_teams(app, pilot, "Тигры")
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "the player form")
        labels = [f.label for f in app.screen.fields]
        assert labels[-1] == "Капитан? (д/н)" and app.screen.values()["captain"] == "н"
