"""Issue 24: the game screen does the work an event changes, not more: one new line of
the log per event (two for a void: the void's and its struck-through target's), and an
inline prompt that opens or closes repaints no other widget (Pilot, the judge's keys)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fieldjudge.screens.game import widgets
from fieldjudge.screens.game.widgets import EventLogView
from tests.test_game_helpers import game_id, game_screen, keys, wait_for


@pytest.fixture
def built(monkeypatch) -> list[str]:
    """The ids of the events whose log line was built, in order."""
    seen: list[str] = []
    real = widgets._log_line

    def counted(session, namer, e, *rest):
        seen.append(e.id)
        return real(session, namer, e, *rest)

    monkeypatch.setattr(widgets, "_log_line", counted)
    return seen


async def test_24_an_event_builds_one_log_line_and_an_undo_two(
    demo_folder: Path, clock, built: list[str]
) -> None:
    """26: a hit and an undo on a game whose log fills the view: the hit's line is the only
    one built; the undo builds the void's line and the hit's, struck through."""
    async with game_screen(demo_folder, game_id(demo_folder)) as (app, pilot, screen):
        await keys(pilot, "space")
        for _ in range(8):  # Time! and the clock resumed
            clock.advance(1_000)
            await keys(pilot, "t", "space")
        await pilot.pause()
        log = screen.query_one(EventLogView)
        assert len(screen.session.events) > 12
        built.clear()
        clock.advance(1_000)
        await keys(pilot, "a 4 2 enter")
        hit = screen.session.events[-1]
        await wait_for(pilot, lambda: "#42" in log.render().plain.split("\n")[0], "the hit")
        assert built == [hit.id]
        built.clear()
        await keys(pilot, "u enter")
        void = screen.session.events[-1]
        await wait_for(pilot, lambda: void.type == "void" and "#42" in str(log.render()), "void")
        await pilot.pause()
        assert sorted(built) == sorted([void.id, hit.id])
        lines = log.render().plain.split("\n")
        assert lines[1].startswith(f"{hit.seq:>3} ") and "Voided" in lines[1]


async def test_24_the_prompt_is_laid_out_first_so_it_moves_no_other_widget(
    demo_folder: Path, clock
) -> None:
    """Textual orders a screen's children back to front when it lays them out; a prompt
    that is not the first child shifts the painting order of every widget before it when it
    opens or closes, and the whole screen is written to the terminal again (the benchmark's
    bytes). As the first child it lies over the log's bottom (game.tcss) all the same."""
    async with game_screen(demo_folder, game_id(demo_folder)) as (app, pilot, screen):
        assert screen.children[0] is screen.prompt
        await keys(pilot, "space")
        clock.advance(1_000)
        await keys(pilot, "u")  # the undo asks: the prompt opens over the log's bottom
        await wait_for(pilot, lambda: screen.prompt.display, "the prompt")
        log = screen.query_one(EventLogView)
        assert screen.prompt.region.bottom == log.region.bottom
        assert screen.get_widget_at(2, log.region.bottom - 2)[0] in screen.prompt.walk_children()
