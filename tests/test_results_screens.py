"""Pilot tests of the protocol screen (31): keys a judge presses."""

from __future__ import annotations

from results_fixtures import FakeClock, demo, finished_game

from fieldjudge.app import make_app
from fieldjudge.rules import protocol as pr
from fieldjudge.screens.results.protocol import ProtocolScreen
from fieldjudge.services.demo import DEMO_PIN


async def wait_for(pilot, cond, tries: int = 100) -> None:
    for _ in range(tries):
        if cond():
            return
        await pilot.pause(0.02)
    assert cond()


def setup_folder(tmp_path):
    folder = tmp_path / "data" / "cup"
    t = demo(folder)
    game_id = finished_game(t)
    t.close()
    return folder, game_id


async def open_protocol(pilot, app, row: int) -> None:
    await wait_for(pilot, lambda: app.tournament is not None)
    table = app.screen.query_one("#games")
    table.focus()
    for _ in range(row):
        await pilot.press("down")
    await pilot.press("p")
    await wait_for(pilot, lambda: isinstance(app.screen, ProtocolScreen))


def proto(app, game_id):
    log = app.tournament.game_log(game_id)
    teams = (log.meta["team_a"], log.meta["team_b"])
    return pr.fold_protocol(log.events, teams), log


async def type_form(pilot, *values: str) -> None:
    for v in values:
        await pilot.press(*v) if v else None
        await pilot.press("enter")


async def test_31_close_sign_lock_correct_with_pin(tmp_path):
    folder, game_id = setup_folder(tmp_path)
    clock = FakeClock()
    app = make_app(tmp_path / "data", folder, lang="en", monotonic=clock)
    async with app.run_test(size=(110, 40)) as pilot:
        await open_protocol(pilot, app, 4)
        screen = app.screen
        await pilot.press("u")
        await pilot.press("y")
        await wait_for(pilot, lambda: proto(app, game_id)[0].submitted)
        await pilot.press("1")
        await type_form(pilot, "Ivan")
        await wait_for(pilot, lambda: len(proto(app, game_id)[0].signatures) == 1)
        await pilot.press("2")
        await type_form(pilot, "Oleg")
        await wait_for(pilot, lambda: proto(app, game_id)[0].locked)
        assert "locked" in str(screen.query_one("#protocol-body").render())
        # any event on a locked game is refused with a message
        p, log = proto(app, game_id)
        n = len(log.events)
        await pilot.press("n")
        await type_form(pilot, "1", "", DEMO_PIN)
        await wait_for(
            pilot, lambda: "locked" in str(screen.query_one("#protocol-message").render())
        )
        assert len(log.events) == n
        # the head judge corrects the total: wrong PIN refused, three wrong -> a minute
        a, b = log.meta["team_a"], log.meta["team_b"]
        msg = screen.query_one("#protocol-message")
        gate = app.tournament.pin_gate
        for i in range(3):
            await pilot.press("c")
            await type_form(pilot, "", "", "", "miscounted", "9999")
            await wait_for(pilot, lambda i=i: gate.failures == i + 1)
            assert "PIN" in str(msg.render())
        assert "locked for a minute" in str(msg.render())
        await pilot.press("c")
        await type_form(pilot, "", "", "", "miscounted", DEMO_PIN)
        await wait_for(pilot, lambda: "locked for" in str(msg.render()))
        assert len(log.events) == n
        clock.now += 61
        await pilot.press("c")
        await type_form(pilot, "", "2", "", "miscounted", DEMO_PIN)  # outcome kept
        await wait_for(pilot, lambda: proto(app, game_id)[0].corrections)
        c = proto(app, game_id)[0].corrections[-1]
        assert c.new_points[a] == 2 and c.old_points[a] == 3
        assert c.new_points[b] == c.old_points[b]
        assert c.reason == "miscounted" and c.head_judge
        assert len(log.events) == n + 1


async def test_31_captain_refuses(tmp_path):
    folder, game_id = setup_folder(tmp_path)
    app = make_app(tmp_path / "data", folder, lang="en")
    async with app.run_test(size=(110, 40)) as pilot:
        await open_protocol(pilot, app, 4)
        await pilot.press("u", "y")
        await wait_for(pilot, lambda: proto(app, game_id)[0].submitted)
        await pilot.press("r")
        await type_form(pilot, "2", "Petr", "the hang was late")
        await wait_for(pilot, lambda: proto(app, game_id)[0].refusals)
        await pilot.press("1")
        await type_form(pilot, "Ivan")
        await wait_for(pilot, lambda: proto(app, game_id)[0].phase == pr.SIGNED)
        p, log = proto(app, game_id)
        ref = next(iter(p.refusals.values()))
        assert ref.reason == "the hang was late" and ref.captain == "Petr" and ref.wall_time
        assert not p.locked


async def test_home_keys_open_standings_and_merge(tmp_path):
    folder, _game = setup_folder(tmp_path)
    app = make_app(tmp_path / "data", folder, lang="en")
    async with app.run_test(size=(110, 40)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await pilot.press("S")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "StandingsScreen")
        table = app.screen.query_one("#standings")
        assert table.row_count == 8
        await pilot.press("escape", "m")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "MergeScreen")
