"""Merge conflicts on screen (issue 12, item 16): teams, time, field and what differs, in the
UI language, not a game id."""

from __future__ import annotations

import random
import shutil
from datetime import datetime

from results_fixtures import demo
from textual.widgets import DataTable

from fieldjudge.app import make_app
from fieldjudge.screens.dialogs.forms import FormScreen
from fieldjudge.screens.results.merge import MergeScreen
from fieldjudge.services import open_tournament
from fieldjudge.services.demo_history import Script, play
from tests.test_game_helpers import type_text, wait_for


def footer(screen) -> set[str]:
    """The actions of the keys the screen's footer shows."""
    return {str(k.action) for k in screen.query("FooterKey")}


def two_laptops(tmp_path):
    base = tmp_path / "base"
    t = demo(base)
    game = t.games()[4]
    names = t.team_names()
    t.close()
    a, b = tmp_path / "data" / "A", tmp_path / "B"
    shutil.copytree(base, a)
    shutil.copytree(base, b)
    for folder, script, seed in ((a, Script("draw", 1, 2), 1), (b, Script("held", 2, 1), 2)):
        tt = open_tournament(folder, lock=False, startup_backup=False)
        play(tt, game["id"], script, random.Random(seed), close=False)
        tt.close()
    return a, b, game, names


async def test_conflict_shows_teams_time_field_and_the_differing_events(tmp_path) -> None:
    a, b, game, names = two_laptops(tmp_path)
    app = make_app(a.parent, a, lang="ru")
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, MergeScreen))
        screen = app.screen
        decide = {"keep('ours')", "keep('theirs')"}
        # nothing to decide yet: the footer offers the import, not o and t
        await wait_for(pilot, lambda: "import_source" in footer(screen), "the footer")
        assert not decide & footer(screen)
        await pilot.press("i")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen))
        await type_text(pilot, str(b))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MergeScreen))
        table = screen.query_one("#conflicts", DataTable)
        await wait_for(pilot, lambda: table.row_count == 1, "the conflict")
        await wait_for(pilot, lambda: decide <= footer(screen), "o and t offered")
        row = [str(c) for c in table.get_row_at(0)]
        start = datetime.fromisoformat(game["start"]).strftime("%H:%M")
        teams = f"{names[game['team_a']]} — {names[game['team_b']]}"
        assert row[:3] == [start, game["field"], teams]
        assert row[3].startswith("здесь +") and "там +" in row[3]
        assert game["id"] not in " ".join(map(str, row))
        report = str(screen.query_one("#merge-report").render())
        assert report.startswith("Слито из B\n") and "Конфликтов: 1" in report
        detail = str(screen.query_one("#conflict-detail").render())
        lines = detail.splitlines()
        assert lines[0] == f"{start} · поле {game['field']} · {teams}"
        assert lines[1].startswith("В начале обеих копий совпадают событий: ")
        assert lines[1].endswith("; дальше:")  # issue 25: no «1 событий»
        assert any(line.startswith("на этом ноутбуке (") for line in lines)
        assert any(line.startswith("в другой копии (") for line in lines)
        assert lines[-1].startswith("Очки здесь ")
        assert game["id"] not in detail


async def test_tournament_differences_kept_or_taken_with_the_head_judges_secret(
    tmp_path, monkeypatch
) -> None:
    from fieldjudge.services.trust.head_judge import DEMO_PASSPHRASE
    from tests.test_merge_tournament import merged_a

    a, cfg = merged_a(tmp_path)
    monkeypatch.setenv("FIELDJUDGE_CONFIG", str(cfg))  # laptop A, which writes tournament.json
    app = make_app(a.parent, a, lang="ru")
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, MergeScreen))
        screen = app.screen
        diffs = screen.query_one("#tournament-conflicts", DataTable)
        await wait_for(pilot, lambda: diffs.row_count == 5, "the differences")
        assert diffs.has_focus
        keys = list(screen.differences)
        player = next(k for k in keys if screen.differences[k].what == "player")
        row = [str(c) for c in diffs.get_row(player)]
        assert row[0] == "игрок" and row[2] == "#7 Иван Петров-Водкин (капитан)"
        for _ in range(keys.index(player)):
            await pilot.press("down")
        detail = str(screen.query_one("#conflict-detail").render())
        assert "Другой ноутбук: #7 Иван Петров-Водкин (капитан)" in detail
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen))
        assert app.screen.form_title.startswith("Взять вариант другого ноутбука (игрок)")
        await type_text(pilot, "не тот секрет")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen) and app.screen.note)
        assert "расхождение между файлами турнира двух ноутбуков решает только главный судья" in (
            app.screen.note
        )
        await type_text(pilot, DEMO_PASSPHRASE)
        await pilot.press("enter")
        await wait_for(pilot, lambda: diffs.row_count == 4, "the decided difference gone")
        assert player not in screen.differences
        c = next(iter(screen.differences.values()))
        pid = (c.ours, c.theirs)
        assert "Иван Петров-Водкин" in [p["name"] for p in app.tournament.players()]
        decisions = list((a / "conflicts" / "decisions").glob("tournament--*.json"))
        assert len(decisions) == 1
        # o keeps this laptop's: tournament.json unchanged, the difference gone
        before = (a / "tournament.json").read_bytes()
        diffs.focus()
        diffs.move_cursor(row=0)
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen))
        await type_text(pilot, DEMO_PASSPHRASE)
        await pilot.press("enter")
        await wait_for(pilot, lambda: diffs.row_count == 3, "the kept difference gone")
        assert (a / "tournament.json").read_bytes() == before
        assert pid not in [(x.ours, x.theirs) for x in screen.differences.values()]


def test_the_merge_report_counts_the_tournament_differences() -> None:
    from fieldjudge.i18n import set_language
    from fieldjudge.screens.results.merge import report_lines
    from fieldjudge.services.sync.merge import MergeReport

    report = MergeReport("B", tournament_conflicts=["venue: here 'x', there 'y'"])
    report.refused_games.append("game g2 not added: field 3 at 2026-05-16T15:00 is taken")
    assert report_lines(report)[-1] == (
        "2 differences between the tournament files: the head judge decides below"
    )
    set_language("ru")
    try:
        assert report_lines(report)[-1] == (
            "Различий в файлах турнира: 2; решает главный судья (ниже)"
        )
    finally:
        set_language("en")
