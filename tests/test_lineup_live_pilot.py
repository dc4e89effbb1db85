"""Pilot tests of issue 20's line-up (30.01) and of one live game per field and per team:
the judge's keys on the game screen, the home screen's ``N`` and the restart offer."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, OptionList, Static

from fieldjudge.app import make_app
from fieldjudge.rules.paintball import model as m
from fieldjudge.screens.chrono.marker_check import MarkerCheckScreen
from fieldjudge.screens.dialogs.forms import ConfirmScreen
from fieldjudge.screens.dialogs.lineup import LineupScreen
from fieldjudge.screens.game.dialogs import InspectionDialog
from fieldjudge.screens.game.screen import GameScreen
from fieldjudge.screens.home import HomeScreen
from fieldjudge.services import open_tournament
from fieldjudge.services.paintball.game import GameSession
from fieldjudge.services.paintball.marker_check import MarkerCheckService
from tests.test_game_helpers import game_screen, keys, type_text, wait_for


def prepare(folder: Path, sub: bool = False, start: str | None = None) -> dict[str, str]:
    """Game ids by the teams' names (and a sixth player for «Медведи»; ``start``: a game
    started on this laptop before the app runs)."""
    t = open_tournament(folder, startup_backup=False)
    try:
        names = t.team_names()
        ids = {f"{names[g['team_a']]}-{names[g['team_b']]}": g["id"] for g in t.games()}
        if sub:
            team = {v: k for k, v in names.items()}["Медведи"]
            t.add_player(team, 99, "Запасной")
        if start:
            GameSession(t, ids[start]).start_clock()
        return ids
    finally:
        t.close()


def listed(dialog) -> list[str]:
    """The players the inspection dialog lists (18.02), as "team|number"."""
    ol = dialog.query_one("#to-inspect", OptionList)
    return [str(ol.get_option_at_index(i).id) for i in range(ol.option_count)]


def text(widget) -> str:
    return str(widget.render())


async def test_30_01_judge_picks_five_of_six_and_the_sixth_cannot_be_eliminated_or_inspected(
    demo_folder: Path, clock
):
    ids = prepare(demo_folder, sub=True)
    async with game_screen(demo_folder, ids["Медведи-Тигры"], lang="ru") as (app, pilot, screen):
        s = screen.session
        bears = s.teams[0]
        first = s.setup.rosters[bears][0].number
        # before the start every one of the six shows in play: the hint says why
        notice = screen.query_one("#notice", Static)
        assert text(notice) == (
            "Пробел: выбрать состав Медведи на игру (в заявке 6, играют 5), затем пойдёт время"
        )
        await keys(pilot, "space")  # start: the roster has 6, so the line-up comes first
        await wait_for(pilot, lambda: isinstance(app.screen, LineupScreen), "the line-up")
        count = app.screen.query_one("#lineup-count", Static)
        assert text(count) == "5 из 5"  # the first five by default
        await keys(pilot, "space")  # the first player sits out
        assert text(count).startswith("4 из 5")
        await keys(pilot, "end", "space")  # the substitute (#99) plays
        assert text(count) == "5 из 5"
        await keys(pilot, "enter")
        await wait_for(pilot, lambda: s.state.phase == m.RUNNING, "the start")
        assert s.state.lineups[bears] == tuple([p.number for p in s.setup.rosters[bears]][1:])
        await keys(pilot, "a")
        await type_text(pilot, str(first))
        await keys(pilot, "enter")
        assert "не заявлен на эту игру (30.01)" in screen.prompt.current.error
        await keys(pilot, "escape")
        assert s.state.player(bears, first).elimination is None
        assert s.state.alive(bears) == 5
        clock.advance(420_000)  # the clock runs out: the inspection (18.02) opens
        await wait_for(pilot, lambda: isinstance(app.screen, InspectionDialog), "18.02")
        dialog = app.screen
        await wait_for(
            pilot,
            lambda: bool(dialog.query("#to-inspect")) and listed(dialog) != [],
            "the inspection list",
        )
        shown = listed(dialog)
        assert f"{bears}|{first}" not in shown and f"{bears}|99" in shown and len(shown) == 10


async def test_30_01_a_line_up_of_six_is_refused_in_the_picker(demo_folder: Path, clock):
    ids = prepare(demo_folder, sub=True)
    async with game_screen(demo_folder, ids["Медведи-Тигры"]) as (app, pilot, screen):
        await keys(pilot, "space")
        await wait_for(pilot, lambda: isinstance(app.screen, LineupScreen), "the line-up")
        await keys(pilot, "end", "space")
        assert text(app.screen.query_one("#lineup-count", Static)) == "6 of 5"
        await keys(pilot, "enter")
        assert "at most 5 play" in text(app.screen.query_one("#lineup-error", Static))
        await keys(pilot, "escape")
        assert screen.session.state.phase == m.NOT_STARTED  # nothing started, nothing written


async def test_n_goes_back_to_the_game_in_play_on_this_field(demo_folder: Path, clock):
    ids = prepare(demo_folder, start="Медведи-Тигры")
    app = make_app(demo_folder.parent, demo_folder)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the offer")
        await keys(pilot, "escape")  # the restart offer declined: N finds the game too
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "home")
        app.set_laptop_field("1")
        await keys(pilot, "N")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        assert app.screen.session.game_id == ids["Медведи-Тигры"]


async def test_start_refused_while_another_game_of_the_field_is_in_play(demo_folder: Path, clock):
    ids = prepare(demo_folder, start="Медведи-Тигры")
    async with game_screen(demo_folder, ids["Волки-Барсы"], lang="ru") as (app, pilot, screen):
        await keys(pilot, "space")
        notice = text(screen.query_one("#notice", Static))
        assert "Нельзя начать: на поле 1 идёт игра «Медведи — Тигры» (№5)" in notice
        assert screen.session.state.phase == m.NOT_STARTED


@pytest.mark.parametrize("key,reopened", [("enter", True), ("escape", False)])
async def test_restart_offers_the_running_game_of_this_laptop(
    demo_folder: Path, clock, key, reopened
):
    ids = prepare(demo_folder, start="Медведи-Тигры")
    app = make_app(demo_folder.parent, demo_folder)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, ConfirmScreen) and bool(app.screen.query(".dialog-title"))
            ),
            "the offer",
        )
        assert "№5" in text(app.screen.query_one(".dialog-title", Static))
        await keys(pilot, key)
        if reopened:
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
            assert app.screen.session.game_id == ids["Медведи-Тигры"]
        else:
            await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "home")


async def test_30_01_line_up_confirmed_at_check_in(demo_folder: Path, clock):
    """Marker check, ``i`` on a team of six: the picker opens with the first five; Enter
    records the line-up (this laptop does not own the game yet: its marker-check log,
    taken into the game by the owner); the sixth is shown as not in the line-up."""
    ids = prepare(demo_folder, sub=True)
    gid = ids["Медведи-Тигры"]
    app = make_app(demo_folder.parent, demo_folder)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        app.push_screen(MarkerCheckScreen(app.tournament, gid))
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, MarkerCheckScreen) and app.screen.query("#mc-roster"),
            "the marker check",
        )
        check = app.screen
        await keys(pilot, "i")  # the highlighted row's team (Медведи) checks in
        await wait_for(pilot, lambda: isinstance(app.screen, LineupScreen), "the line-up")
        assert text(app.screen.query_one("#lineup-count", Static)) == "5 of 5"
        await keys(pilot, "enter")
        await wait_for(pilot, lambda: app.screen is check, "back to the check")
        state = MarkerCheckService(app.tournament, gid).state()[1]
        bears = state.setup.teams[0]
        assert len(state.lineups[bears]) == 5 and 99 not in state.lineups[bears]
        row = check.query_one("#mc-roster", DataTable).get_row(f"{bears}|99")
        assert "not in the line-up" in str(row[-1])


async def test_30_01_game_screen_warns_of_a_team_of_fewer(demo_folder: Path, clock):
    ids = prepare(demo_folder)
    t = open_tournament(demo_folder, startup_backup=False)
    try:
        tigers = {v: k for k, v in t.team_names().items()}["Тигры"]
        number = int(t.players(tigers)[-1]["number"])
        t.remove_player(tigers, number)  # a player leaves the team (the roster's table)
    finally:
        t.close()
    async with game_screen(demo_folder, ids["Медведи-Тигры"], lang="ru") as (app, pilot, screen):
        notice = text(screen.query_one("#notice", Static))
        assert "«Тигры»: в заявке 4 игроков, меньше 5" in notice


async def test_a_game_left_in_play_still_ends_at_0_00(demo_folder: Path, clock):
    """The judge leaves the screen of a game in play (Esc, to the standings, say): its
    clock runs on and the game ends at 0:00 as it does on its screen, so the pit display
    and the head judge see it over in time; reopened, its screen shows it over."""
    ids = prepare(demo_folder, start="Медведи-Тигры")
    gid = ids["Медведи-Тигры"]
    app = make_app(demo_folder.parent, demo_folder)
    async with app.run_test(size=(100, 32), notifications=True) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the offer")
        await keys(pilot, "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        await keys(pilot, "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "home")
        t = app.tournament
        assert t is not None
        length = GameSession(t, gid).setup.settings.game_length_ms
        clock.advance(length - 1_000)  # 0:01 left: still in play
        app.tick_left_games()  # what the app runs once a second
        assert t.game_log(gid).events[-1].type != "game_end"
        clock.advance(1_000)  # 0:00: the app's next check ends it

        def ended() -> bool:
            last = t.game_log(gid).events[-1]
            return last.type == "game_end" and last.game_clock_ms == length

        await wait_for(pilot, ended, "the game over at 0:00")
        assert t.game_log(gid).events[-1].data == {"reason": "clock"}
        shown = "Time ran out: game «Медведи — Тигры» is over (0:00)"
        toasts = app._notifications  # noqa: SLF001 - the toasts shown
        await wait_for(pilot, lambda: shown in [str(n.message) for n in toasts], "the judge told")
        app.open_game(gid)
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game again")
        assert app.screen.session.state.ended


async def test_another_laptops_game_left_in_play_is_not_ended_here(
    demo_folder: Path, clock, tmp_path: Path
):
    """A game another laptop runs, looked at here and left: this laptop does not try to
    end it at 0:00 (it may not write it; that laptop ends it), and says nothing about it."""
    from pit_helpers import field_laptop_copy, start_on_field_laptop

    from tests.test_game_helpers import T0

    t = open_tournament(demo_folder, startup_backup=False)
    try:
        field = field_laptop_copy(t)
        gid = start_on_field_laptop(t, field, tmp_path / "field-config", 4, T0)
    finally:
        t.close()
    app = make_app(demo_folder.parent, demo_folder)
    async with app.run_test(size=(100, 32), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        app.open_game(gid)
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        await keys(pilot, "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "home")
        t = app.tournament
        assert t is not None
        clock.advance(GameSession(t, gid).setup.settings.game_length_ms + 1_000)
        app.tick_left_games()
        await pilot.pause()
        assert t.game_log(gid).events[-1].type == "clock_start"
        assert list(app._notifications) == []  # noqa: SLF001 - the toasts shown
