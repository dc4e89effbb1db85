"""Issue 11 on the live game screen: each situation recorded by the judge's keys (Pilot),
citing its section of rulebook file 003; the state is checked again after a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from fieldjudge.i18n import rule_text
from fieldjudge.rules.paintball import model as m
from fieldjudge.screens.dialogs.forms import FormScreen
from fieldjudge.screens.game.dialogs import InspectionDialog
from fieldjudge.screens.game.widgets import NAME_WIDTH, EventLogView, RosterPanel
from tests.test_game_helpers import (
    game_screen,
    keys,
    reopened_state,
    state_key,
    type_text,
    wait_for,
)


def notice(screen) -> str:
    return str(screen.query_one("#notice").render())


def log_text(screen) -> str:
    return screen.query_one(EventLogView).render().plain


def numbers(screen, team: str) -> list[int]:
    return [p.number for p in screen.session.setup.rosters[team]]


async def test_23_03_team_out_the_game_goes_on_and_the_screen_says_who_may_still_hang(
    demo_folder: Path, gid, clock
):
    async with game_screen(demo_folder, gid) as (app, pilot, screen):
        a, b = screen.session.teams
        await keys(pilot, "space")
        clock.advance(50_000)
        for n in numbers(screen, b):  # 23.03: team B wiped out at 0:50
            await keys(pilot, "b", *str(n))
            while screen.prompt.active:  # Enter: the number (7 waits for 77), then "hit"
                await keys(pilot, "enter")
        st = screen.session.state
        assert (st.phase, st.teams_out, st.only_team_in_play) == (m.RUNNING, [b], a)
        name = screen.session.team_name(a)
        assert notice(screen).startswith(
            f"23.03: only {name} is in play: the game goes on, {name} may still capture"
        )
        clock.advance(10_000)
        await keys(pilot, "f a 1 1")  # the game goes on: A captures and hangs (3 points)
        await keys(pilot, "H c 2 8 8 enter")
        st = screen.session.state
        assert (st.end_reason, st.end_ms, st.hang_team) == (m.END_FLAG_HANG, 60_000, a)
        before = state_key(screen.session)
    assert await reopened_state(demo_folder, gid) == before


@pytest.mark.parametrize(("key", "section"), [("1", "27.02"), ("3", "27.04"), ("6", "29.11")])
async def test_27_28_02_29_11_playing_on_while_eliminated_asks_the_section_and_the_second(
    demo_folder: Path, gid, clock, key, section
):
    async with game_screen(demo_folder, gid) as (app, pilot, screen):
        a, _b = screen.session.teams
        await keys(pilot, "space")
        clock.advance(30_000)
        await keys(pilot, "a 2 3 enter")  # #23 hit
        clock.advance(5_000)
        await keys(pilot, "a 2 3")  # already out: accepted, the reason step asks the section
        assert "already eliminated: playing on" in str(screen.prompt.current.title)
        await keys(pilot, key)
        assert "second player" in str(screen.prompt.current.title)  # 29.08: 1+1
        await keys(pilot, "4 2")
        st = screen.session.state
        assert st.player(a, 23).elimination.reason == "hit"  # his own elimination stays
        assert st.player(a, 42).elimination.reason == "group_removal"
        assert st.player(a, 42).elimination.game_clock_ms == 35_000
        assert st.alive(a) == 3 and not st.rejected
        name = screen.session.team_name(a)
        assert rule_text(st.team_penalties[-1].text, {a: name}, lang="en") == (
            f"{section}: {name} #23 played on while eliminated: team penalty, group removal 1+1"
        )
        assert f"({section}) + {name} #42 (1+1, 29.08)" in log_text(screen)
        before = state_key(screen.session)
    assert await reopened_state(demo_folder, gid) == before


async def test_20_07_markers_down_elimination_before_the_start(demo_folder: Path, gid, clock):
    async with game_screen(demo_folder, gid) as (app, pilot, screen):
        _a, b = screen.session.teams
        await keys(pilot, "b")  # before the start: only "marker not laid down" is offered
        assert "20.07" in str(screen.prompt.current.title)
        await keys(pilot, "7 7")
        p = screen.session.state.player(b, 77)
        assert (p.status, p.elimination.reason, p.elimination.section) == (
            m.ELIMINATED,
            "markers_down",
            "20.07",
        )
        assert p.elimination.game_clock_ms is None
        await keys(pilot, "space")
        clock.advance(1_000)
        st = screen.session.state
        assert st.phase == m.RUNNING and st.alive(b) == 4 and not st.rejected
        before = state_key(screen.session)
    assert await reopened_state(demo_folder, gid) == before


async def test_29_10_old_paint_noted_before_the_game_shown_at_the_paint_check(
    demo_folder: Path, gid, clock
):
    async with game_screen(demo_folder, gid) as (app, pilot, screen):
        a, _b = screen.session.teams
        await keys(pilot, "o a 1 1")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "the spot form")
        await type_text(pilot, "left sleeve")
        await keys(pilot, "enter")
        await wait_for(pilot, lambda: app.screen is screen, "back on the game")
        assert screen.session.state.player(a, 11).old_paint == ["left sleeve"]
        await keys(pilot, "space")
        clock.advance(40_000)
        await keys(pilot, "p a 1 1")
        name = screen.session.team_name(a)
        assert notice(screen) == (
            f"⚠ 29.10: {name} #11 reported old paint spots before the game: left sleeve"
        )
        await keys(pilot, "p a 2 3")  # nothing reported for #23: no warning
        assert "29.10" not in notice(screen)


async def test_25_05_paint_check_on_a_flag_carrier_is_warned(demo_folder: Path, gid, clock):
    async with game_screen(demo_folder, gid) as (app, pilot, screen):
        a, _b = screen.session.teams
        await keys(pilot, "space")
        clock.advance(20_000)
        await keys(pilot, "f a 1 1", "p a 1 1")
        name = screen.session.team_name(a)
        assert notice(screen) == (
            f"⚠ 25.05: {name} #11 carries the flag: judges never stop a flag carrier"
        )
        assert screen.session.state.player(a, 11).check is not None  # warned, not refused


async def test_24_outcome_of_a_pending_check_without_retyping_team_and_number(
    demo_folder: Path, gid, clock
):
    async with game_screen(demo_folder, gid) as (app, pilot, screen):
        a, b = screen.session.teams
        await keys(pilot, "space")
        clock.advance(20_000)
        await keys(pilot, "p a 2 3", "p b 7 enter")
        await keys(pilot, "p")  # the pending checks are offered by digit
        title = str(screen.prompt.current.title)
        assert "digit: the outcome of a pending check" in title
        await keys(pilot, "2 e")  # the second pending check: B #7 eliminated (24)
        assert screen.session.state.player(b, 7).elimination.section == "24.01"
        await keys(pilot, "p 1 i")  # A #23 in play
        p = screen.session.state.player(a, 23)
        assert p.status == m.IN_PLAY and p.checks[-1].outcome == "in_play"
        await keys(pilot, "n b 1 1", "n 1 e")  # 25: the neutral check's outcome by digit
        assert screen.session.state.player(b, 11).status == m.ELIMINATED


async def test_24_the_one_open_check_takes_its_outcome_after_enter(demo_folder: Path, gid, clock):
    """Issue 25, item 9: with one paint check open, `p` offers its outcome on Enter: the
    judge types neither the team nor the number again (24)."""
    async with game_screen(demo_folder, gid) as (app, pilot, screen):
        a, _b = screen.session.teams
        await keys(pilot, "space")
        clock.advance(20_000)
        await keys(pilot, "p a 2 3", "p enter", "i")  # A #23 in play
        p = screen.session.state.player(a, 23)
        assert p.status == m.IN_PLAY and p.checks[-1].outcome == "in_play"
        await keys(pilot, "p a 2 3", "p b 7 enter", "p enter")  # two open: Enter picks none
        assert screen.prompt.current is not None and "pending" in str(screen.prompt.current.title)


async def test_20_03_hang_rejected_at_305_fps_is_logged_under_20_03(demo_folder: Path, gid, clock):
    async with game_screen(demo_folder, gid) as (app, pilot, screen):
        a, _b = screen.session.teams
        await keys(pilot, "space")
        clock.advance(20_000)
        await keys(pilot, "f a 1 1")
        clock.advance(10_000)
        await keys(pilot, "H c 3 0 5 enter")
        st = screen.session.state
        assert st.hangs[-1].counted is False and st.player(a, 11).elimination.section == "20.03"
        text = log_text(screen)
        assert "Hang verdict: 20.03: flag hang not counted: 305 fps is over 300 fps" in text
        assert "clean" not in text


async def test_18_02_inspection_penalty_points_entered_by_the_senior_judge(
    demo_folder: Path, gid, clock
):
    async with game_screen(demo_folder, gid) as (app, pilot, screen):
        a, b = screen.session.teams
        await keys(pilot, "space")
        clock.advance(30_000)
        await keys(pilot, "f a 1 1")
        clock.advance(400_000)
        await wait_for(pilot, lambda: isinstance(app.screen, InspectionDialog), "inspection")
        first = screen.session.state.to_inspect()[0]
        await keys(pilot, "h")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "points form")
        form = app.screen
        assert form.values() == {"points": "1"}  # default 1 (18.02 setting)
        await keys(pilot, "backspace", "2", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, InspectionDialog), "back")
        for _ in range(12):
            if not screen.session.state.to_inspect():
                break
            await pilot.press("c")
        await wait_for(pilot, lambda: screen.session.state.phase == m.FINAL, "final")
        st = screen.session.state
        assert st.inspection_points == {first.team: 2}
        assert st.player(first.team, first.number).elimination.section == "18.02"
        assert "hit found, penalty points: 2" in log_text(screen)


async def test_20_05_disqualified_in_an_earlier_game_shown_and_refused_in_a_later_one(
    demo_folder: Path, clock
):
    from fakes import FakeClock

    from fieldjudge.services import open_tournament
    from fieldjudge.services.paintball.game import GameSession

    t = open_tournament(demo_folder, startup_backup=False)
    games = t.games()
    first = games[4]
    team = first["team_a"]
    later = next(
        g for g in games[5:] if team in (g["team_a"], g["team_b"]) and g["start"] > first["start"]
    )
    s = GameSession(t, first["id"], clock=FakeClock())
    number = s.setup.rosters[team][0].number
    s.start_clock()
    other = s.setup.rosters[team][1].number
    s.chrono_reading(team, number, 280.0, forbidden_mode=True, second=other)  # 20.05
    assert s.state.player(team, number).disqualified
    t.close()
    async with game_screen(demo_folder, later["id"]) as (app, pilot, screen):
        p = screen.session.state.player(team, number)
        assert p.status == m.DISQUALIFIED
        side = "a" if screen.session.teams[0] == team else "b"
        roster = screen.query_one(f"#roster-{side}", RosterPanel)
        assert roster.line(team, number).plain[NAME_WIDTH:] == "⛔ disqualified (20.05)"
        assert screen.session.state.alive(team) == 4
        await keys(pilot, "space")
        clock.advance(1_000)
        await keys(pilot, side, *str(number), "enter")
        assert "20.05" in screen.prompt.current.error
        assert "disqualified for the rest of the tournament" in screen.prompt.current.error
        # the protocol folds the same setup: he is not counted among the survivors
        from fieldjudge.services.paintball import results

        view = results.game_view(app.tournament, later["id"])
        assert view.state.player(team, number).status == m.DISQUALIFIED
        assert view.state.alive(team) == 4


async def test_23_03_20_02_18_02_settings_on_the_tournament_setup_screen(tmp_path: Path) -> None:
    """end_when_team_out (23.03), fps_precision (20.02/20.03) and the inspection's penalty
    points (18.02) are typed on the new-tournament form and stored as settings."""
    from fieldjudge.app import make_app
    from fieldjudge.rules.paintball.setup import Settings

    app = make_app(tmp_path / "data", lang="en")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "the form")
        form = app.screen
        await type_text(pilot, "Cup")
        for _ in range(4):
            await pilot.press("enter")
        await type_text(pilot, "Judge")
        await pilot.press("enter")
        await type_text(pilot, "северный-2026")  # the head judge's secret, twice
        await pilot.press("enter")
        await type_text(pilot, "северный-2026")
        for _ in range(7):  # keep team size, length and points
            await pilot.press("enter")
        assert form.values()["end_when_team_out"] == "no"
        await keys(pilot, "backspace", "backspace", "y", "enter")
        assert form.values()["fps_precision"] == "whole"
        await keys(pilot, *["backspace"] * 5)
        await type_text(pilot, "exact")
        await keys(pilot, "enter", "backspace", "2", "enter")
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament", 1000)
        s = app.tournament.settings
        assert (s["end_when_team_out"], s["fps_precision"], s["inspection_penalty_points"]) == (
            True,
            "exact",
            2,
        )
        engine = Settings.from_dict(s)
        assert engine.end_when_team_out and engine.fps_precision == "exact"


def test_23_03_setting_refuses_a_wrong_answer() -> None:
    from fieldjudge.screens.setup.tournament import validate_tournament

    v = {
        "name": "Cup",
        "date": "2026-06-01",
        "head_judge": "J",
        "pin": "северный-2026",
        "pin2": "северный-2026",
        "team_size": "5",
        "game_length": "7:00",
        "flag_hang": "3",
        "flag_held": "2",
        "draw": "1",
        "loss": "0",
        "end_when_team_out": "maybe",
        "fps_precision": "whole",
        "inspection_penalty_points": "1",
    }
    assert validate_tournament(v) == "Answer yes or no (y/n)"
    assert validate_tournament({**v, "end_when_team_out": "нет", "fps_precision": "tenths"}) == (
        "Fps precision: whole or exact"
    )
    assert validate_tournament({**v, "end_when_team_out": "да"}) is None


async def test_issue12_13_carrier_number_and_statuses_readable_at_80x24(
    demo_folder: Path, gid, clock
):
    async with game_screen(demo_folder, gid, lang="ru", size=(80, 24)) as (app, pilot, screen):
        a, b = screen.session.teams
        await keys(pilot, "space")
        clock.advance(61_000)
        await keys(pilot, "f a 1 1", "a 4 2 enter")
        flag = screen.query_one("#flag-b")
        text = str(flag.render())
        assert (
            text
            == f"Флаг {screen.session.team_name(b)}: ⚑ #11 {screen.session.team_name(a)} (1:01)"
        )
        assert flag.region.right <= 80 and len(text) <= flag.size.width  # nothing cut
        for roster in screen.query(RosterPanel):
            assert roster.region.right <= 80
            for team, number, _name in roster.players:
                line = roster.line(team, number).plain  # the name column, then the status
                assert len(line) <= roster.size.width, line


async def test_18_02_penalty_points_subtracted_and_printed_on_the_protocol(
    demo_folder: Path,
) -> None:
    from fakes import FakeClock

    from fieldjudge.app import make_app
    from fieldjudge.screens.results.protocol import ProtocolScreen
    from fieldjudge.services import open_tournament
    from fieldjudge.services.paintball.game import GameSession

    t = open_tournament(demo_folder, startup_backup=False)
    gid = t.games()[4]["id"]
    clock = FakeClock()
    s = GameSession(t, gid, clock=clock)
    a, b = s.teams
    s.start_clock()
    clock.advance(30_000)
    s.capture_flag(a, 11)  # A holds B's flag at the end: 2 points (30.01)
    clock.advance(400_000)
    s.tick()
    for p in list(s.state.to_inspect()):
        if (p.team, p.number) == (a, 23):
            s.inspect(a, 23, "hit_found", 2)  # 18.02: the senior judge enters 2
        else:
            s.inspect(p.team, p.number, "clean")
    assert s.state.phase == m.FINAL and s.state.inspection_points == {a: 2}
    names = t.team_names()
    t.close()
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(110, 40)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        app.push_screen(ProtocolScreen(gid))
        await wait_for(pilot, lambda: isinstance(app.screen, ProtocolScreen), "the protocol")
        await wait_for(pilot, lambda: app.screen.view is not None, "the view")
        body = str(app.screen.query_one("#protocol-body").render())
        assert f"  {names[a]}: 0 points · difference" in body  # flag held 2 - 2 penalty points
        assert f"18.02: hit found on {names[a]} #23 at the inspection: 2 penalty point(s)" in body
        assert app.screen.view.result.penalty_points == {a: 2}
    # the printed protocol (HTML; the PDF draws the same document) shows both
    from fieldjudge.export.html import protocol_html
    from fieldjudge.services.paintball import results

    t = open_tournament(demo_folder, startup_backup=False)
    try:
        page = protocol_html(t, results.game_view(t, gid), lang="en")
        ru = protocol_html(t, results.game_view(t, gid), lang="ru")
    finally:
        t.close()
    # issue 25: the points inside the penalties table, on the player's row
    assert (
        f'<td>{names[a]}</td><td class="num">23</td>'
        "<td>Inspection after the game: hit found (18.02)</td>"
        "<td>penalty points: 2, subtracted from the game points</td>"
    ) in page
    assert "штрафные очки: 2, вычтены из очков за игру" in ru
    # the rulebook's settings: no footnote, and never the settings screen's jargon
    assert "differ from the rulebook" not in page and "(23.03): нет" not in ru
