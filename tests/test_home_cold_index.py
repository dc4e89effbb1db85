"""The home screen on a cold summary index (issue 13): the games table is there at once,
the states of stale games follow a slice a frame, on the main thread, and end as the
summaries say."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fieldjudge.app import make_app
from fieldjudge.screens import home
from fieldjudge.services import open_tournament
from fieldjudge.services.game import FakeClock, GameSession


def _played_games(folder, n: int) -> list[str]:
    """``n`` more games on fields 10.., each with a clock start and one elimination."""
    t = open_tournament(folder, startup_backup=False)
    teams = [x["id"] for x in t.teams()]
    start = datetime(2026, 6, 2, 9, 0)
    t.add_games(
        [
            {
                "field": str(10 + i),
                "start": start + timedelta(minutes=20 * i),
                "team_a": teams[0],
                "team_b": teams[1],
            }
            for i in range(n)
        ]
    )
    ids = [g["id"] for g in t.games() if int(g["field"]) >= 10]
    for i, gid in enumerate(ids):
        s = GameSession(t, gid, clock=FakeClock(datetime(2026, 6, 2, 9, tzinfo=UTC)))
        s.start_clock()
        team = s.teams[i % 2]
        s.eliminate(team, s.setup.rosters[team][0].number)
    t.close()
    return ids


async def test_cold_index_fills_every_state_after_the_first_frame(demo_folder) -> None:
    ids = _played_games(demo_folder, home.SUMMARIES_BEFORE_FIRST_FRAME + 6)
    (demo_folder / ".cache" / "index.json").unlink(missing_ok=True)
    recorded = len(list((demo_folder / "games").glob("*.json")))
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        while app.tournament is None or not any(t.row_count for t in app.screen.query("#games")):
            await pilot.pause(0.01)
        table = app.screen.query_one("#games")
        states = list(table.get_column_at(4))
        assert table.row_count == len(app.tournament.games())
        # the first stale games now, the rest after the first frame
        assert states.count("…") == recorded - home.SUMMARIES_BEFORE_FIRST_FRAME
        for _ in range(500):
            if "…" not in table.get_column_at(4):
                break
            await pilot.pause(0.01)
        t = app.tournament
        for gid in ids:
            alive = t.game_summary(gid)["alive"]
            assert sorted(alive) == [4, 5]
            assert (
                table.get_cell(gid, app.screen._state_column) == f"in play {alive[0]} × {alive[1]}"
            )
        assert all(t.cached_game_summary(g["id"]) is not None for g in t.games())
