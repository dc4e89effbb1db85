"""A judge ends a game by decision (weather, injury): E, a reason, then the inspection."""

from __future__ import annotations

from pathlib import Path

from fieldjudge.rules.paintball import model as m
from fieldjudge.screens.dialogs.forms import FormScreen
from fieldjudge.screens.game.dialogs import InspectionDialog
from tests.test_game_helpers import game_id, game_screen, keys, type_text, wait_for


async def test_judge_ends_the_game_with_a_reason_flagged_for_the_head_judge(
    demo_folder: Path, clock
) -> None:
    gid = game_id(demo_folder)
    async with game_screen(demo_folder, gid, lang="ru") as (app, pilot, screen):
        await keys(pilot, "E")  # before the start: refused, nothing written
        assert screen.session.events == []
        await keys(pilot, "space")
        clock.advance(95_000)
        await keys(pilot, "E")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "the reason form")
        await pilot.press("enter")  # no reason: refused, the form stays
        assert isinstance(app.screen, FormScreen) and screen.session.state.phase == m.RUNNING
        await type_text(pilot, "гроза")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, InspectionDialog), "18.02")
        st = screen.session.state
        assert st.end_reason == m.END_JUDGE and st.end_ms == 95_000
        assert any("гроза" in str(n.text) for n in st.flagged)
        last = screen.session.events[-1]
        assert (last.type, last.data) == ("game_end", {"reason": "judge", "note": "гроза"})
