"""A judge ends a game by decision (weather, injury): E, a reason, then the inspection."""

from __future__ import annotations

from pathlib import Path

from test_export_paper import flat, html_text, pdf_pages

from fieldjudge.export import run_export
from fieldjudge.export.html import protocol_html
from fieldjudge.rules.paintball import model as m
from fieldjudge.screens.dialogs.forms import FormScreen
from fieldjudge.screens.game.dialogs import InspectionDialog
from fieldjudge.services.paintball import results
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


async def test_the_judges_end_is_for_the_head_judge_never_among_the_penalties(
    demo_folder: Path, clock, tmp_path: Path
) -> None:
    """The protocol (screen, HTML, PDF) says a game ended by the judge's decision under
    «Для главного судьи», not under «Наказания» (which listed it as a penalty)."""
    gid = game_id(demo_folder)
    async with game_screen(demo_folder, gid, lang="ru") as (app, pilot, screen):
        await keys(pilot, "space")
        clock.advance(95_000)
        await keys(pilot, "E")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "the reason form")
        await type_text(pilot, "гроза")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, InspectionDialog), "18.02")
        await keys(pilot, "escape", "escape", "p")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "ProtocolScreen")
        body = str(app.screen.query_one("#protocol-body").render())
        penalties = body.split("Наказания:")[1].split("\n\n")[0]
        assert "гроза" not in penalties and penalties.strip() == "—"
        head_judge = body.split("Для главного судьи:")[1].split("\n\n")[0]
        assert "игра окончена решением судьи: гроза" in head_judge
        t = app.tournament
        v = results.game_view(t, gid)
        html = flat(" ".join(html_text(protocol_html(t, v, "ru")).parts))
        (pdf,) = run_export(t, tmp_path / "out", "pdf", game_id=gid)
    for text in (html, pdf_pages(pdf)[0]):
        penalties, rest = text.split("Наказания", 1)[1].split("Для главного судьи", 1)
        assert "гроза" not in penalties
        assert rest.split("Подписи")[0].strip().startswith("игра окончена решением судьи: гроза")
