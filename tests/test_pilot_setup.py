"""A judge sets up a tournament with the keyboard alone (Pilot presses the keys)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable

from fieldjudge.app import make_app
from fieldjudge.screens.dialogs.forms import FormScreen, MessageScreen
from fieldjudge.screens.dialogs.help import HelpScreen
from fieldjudge.services import open_tournament
from fieldjudge.services.trust.head_judge import HeadJudgeKey
from tests.test_game_helpers import name_prompt_open, sign_later, type_text, wait_for


async def test_create_tournament_by_keys(tmp_path: Path) -> None:
    data = tmp_path / "data"
    app = make_app(data, lang="ru")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "the form")
        await type_text(pilot, "Кубок Севера")
        await pilot.press("enter", "enter")  # keep today's date
        await type_text(pilot, "Полигон")
        await pilot.press("enter", "enter")  # keep division
        await type_text(pilot, "Иванов")
        await pilot.press("enter")
        await type_text(pilot, "северный-2026")
        await pilot.press("enter")
        await type_text(pilot, "северный-2026")
        await pilot.press("enter")
        await pilot.press("ctrl+s")  # keep the defaults of 30.01
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        t = app.tournament
        assert t.name == "Кубок Севера"
        assert t.meta["venue"] == "Полигон"
        assert t.settings["points"] == {"flag_hang": 3, "flag_held": 2, "draw": 1, "loss": 0}
        assert t.settings["game_length_ms"] == 420_000
        record = t.meta["head_judge_key"]
        assert "северный-2026" not in str(t.meta)
        assert HeadJudgeKey.unlock(record, "северный-2026").public_key_b64 == t.pinned_hj
        assert "Кубок Севера" in app.screen.query_one("#tournament-title").render().plain
        folder = t.folder
    reopened = open_tournament(folder)
    assert reopened.name == "Кубок Севера"
    reopened.close()


async def test_form_refuses_mismatched_secrets(tmp_path: Path) -> None:
    app = make_app(tmp_path / "data", lang="en")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen))
        await type_text(pilot, "Cup")
        for _ in range(4):
            await pilot.press("enter")
        await type_text(pilot, "Judge")
        await pilot.press("enter")
        await type_text(pilot, "11111111")
        await pilot.press("enter")
        await type_text(pilot, "22222222")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert "differ" in app.screen.query_one("#form-error").render().plain
        assert app.tournament is None


async def test_import_roster_by_keys_reports_bad_rows_then_imports(
    demo_folder: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("team;number;name;captain\nЛисы;1;Анна;да\nЛисы;x;Борис;нет\n", encoding="utf-8")
    good = tmp_path / "good.csv"
    good.write_text(
        "\ufeffteam,number,name,captain\nЛисы,1,Анна,да\nЛисы,2,Борис,нет\n", encoding="utf-8"
    )
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        before = len(app.tournament.players())
        await pilot.press("t")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "TeamsScreen")
        await pilot.press("i")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen))
        await type_text(pilot, str(bad))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen))
        assert "line 3" in app.screen.body
        assert len(app.tournament.players()) == before  # nothing half-imported
        await pilot.press("escape")
        await pilot.press("i")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen))
        await type_text(pilot, str(good))
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(app.tournament.players()) == before + 2)
        await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen), "the warnings")
        assert "fewer than 5" in app.screen.body
        await pilot.press("escape")
        await sign_later(pilot, app)  # asked under the warnings: the demo was signed
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "TeamsScreen")
        team = app.tournament.team_by_name("Лисы")
        assert [p["name"] for p in app.tournament.players(team["id"])] == ["Анна", "Борис"]
        teams_table = app.screen.query_one("#teams", DataTable)
        assert any(
            str(teams_table.get_row_at(i)[0]) == "Лисы" for i in range(teams_table.row_count)
        )


async def test_add_game_by_keys_refuses_double_booking(demo_folder: Path) -> None:
    """A team booked twice at once: refused in the form; the start corrected, added."""
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        n = len(app.tournament.games())
        await pilot.press("s")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ScheduleScreen")
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen))
        await pilot.press("backspace")
        await type_text(pilot, "3")
        await pilot.press("enter")
        await type_text(pilot, "10:00")  # every team already plays at 10:00 or is free
        await pilot.press("enter")
        first = app.tournament.games()[0]
        names = app.tournament.team_names()
        await type_text(pilot, names[first["team_a"]])
        await pilot.press("enter")
        await type_text(pilot, names[first["team_b"]])
        form = app.screen
        await pilot.press("enter")
        # said in the form, which keeps what was typed (it closed, and all was typed again)
        error = form.query_one("#form-error")
        await wait_for(pilot, lambda: "booked twice" in str(error.render()), "the refusal")
        assert app.screen is form and len(app.tournament.games()) == n
        await pilot.press("shift+tab", "shift+tab", "ctrl+u")  # back to the start
        await type_text(pilot, "13:00")
        await pilot.press("enter", "enter", "enter")
        await wait_for(pilot, lambda: len(app.tournament.games()) == n + 1, "the game added")
        await sign_later(pilot, app)
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ScheduleScreen")
        added = app.tournament.games()[-1]
        assert (added["field"], added["start"][-5:]) == ("3", "13:00")
        assert (added["team_a"], added["team_b"]) == (first["team_a"], first["team_b"])


async def test_f1_lists_the_keys_of_the_current_screen(demo_folder: Path) -> None:
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        keys = app.screen.query_one("#help-keys").render().plain
        assert "Новый турнир" in keys and "Расписание" in keys
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen))


async def test_second_app_on_the_same_folder_gets_a_clear_refusal(demo_folder: Path) -> None:
    holder = open_tournament(demo_folder)
    try:
        app = make_app(demo_folder.parent, demo_folder, lang="en")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen))
            assert "already open in another fieldjudge" in app.screen.body
            assert app.tournament is None
    finally:
        holder.close()


async def test_damaged_tournament_file_is_named_and_backup_offered(demo_folder: Path) -> None:
    t = open_tournament(demo_folder)  # startup makes a backup
    name = t.name
    t.close()
    (demo_folder / "tournament.json").write_bytes(b"{not json")
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DamagedFileScreen")
        assert (demo_folder / "tournament.json").read_bytes() == b"{not json"
        await pilot.press("r")
        await wait_for(pilot, lambda: app.tournament is not None, "the restored tournament")
        assert app.tournament.name == name
        kept = [p.read_bytes() for p in (demo_folder / "damaged").iterdir()]
        assert kept == [b"{not json"]  # the damaged file is set aside, never deleted


async def test_a_damaged_file_without_a_backup_offers_no_restore_key(demo_folder: Path) -> None:
    """No good backup: the dialog says to call the head judge and offers only Esc (it
    offered «r: restore», which answered that there was nothing to restore)."""
    import shutil

    shutil.rmtree(demo_folder / "backups", ignore_errors=True)
    (demo_folder / "tournament.json").write_bytes(b"{not json")
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DamagedFileScreen")
        assert app.screen.backup is None and app.screen.keys_line == "Esc: закрыть"
        assert "позовите главного судью" in app.screen.body


async def test_damaged_game_file_is_named_and_its_backup_restored(demo_folder: Path) -> None:
    from fieldjudge.store.backup import make_backup

    t = open_tournament(demo_folder)
    game = next(g for g in t.games() if t.game_path(g["id"]).exists())
    path = t.game_path(game["id"])
    make_backup(demo_folder, path)
    good = path.read_bytes()
    t.close()
    # A line cut short and then terminated by some other tool (a cut-off LAST line is a
    # write that was never acknowledged and is ignored; a broken complete line is damage).
    damaged = good[: len(good) // 2] + b"\n"
    path.write_bytes(damaged)
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        app.open_game(game["id"])
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DamagedFileScreen")
        assert "not valid JSON" in app.screen.error.fault
        assert path.read_bytes() == damaged  # never overwritten unasked
        await pilot.press("r")
        await wait_for(pilot, lambda: path.read_bytes() == good, "the restored file")
        app.open_game(game["id"])
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "GameScreen")


async def test_a_damaged_files_fault_is_told_in_russian(demo_folder: Path) -> None:
    """The damaged-file dialog of the Russian UI says what is wrong in Russian: the store's
    fault (an English message id and its numbers) is rendered from the catalog, as the
    rules' messages are."""
    from fieldjudge.store.eventlog import write_log_file
    from fieldjudge.store.schema import sorted_event_docs
    from fieldjudge.store.storage import load_json_file
    from tests.screen_text import screen_text

    t = open_tournament(demo_folder)
    game = next(g for g in t.games() if t.game_path(g["id"]).exists())
    path = t.game_path(game["id"])
    n = len(t.game_log(game["id"]).events)
    t.close()
    data = load_json_file(path)
    docs = sorted_event_docs(data)
    data["events"] = {str(d["seq"]): d for d in docs[:-2]}  # the last two events cut
    data.pop("head")  # made again from the last event left: a file consistent in itself
    write_log_file(path, data)
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(120, 32)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        app.open_game(game["id"])
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DamagedFileScreen")
        assert app.screen.error.fault == (
            f"truncated: the manifest records {n} events, the file holds {n - 2}"
        )
        said = f"Неисправность: обрезан: в манифесте записано событий: {n}, в файле:"
        await wait_for(pilot, lambda: said in screen_text(app), "the fault in Russian")
        assert "truncated" not in screen_text(app)


async def test_judge_name_is_recorded_with_every_event(demo_folder: Path) -> None:
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await pilot.press("j")
        await wait_for(pilot, lambda: name_prompt_open(app))
        await type_text(pilot, "Петров")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.judge == "Петров")
        assert "судья: Петров" in app.sub_title
        t = app.tournament
        gid = next(g["id"] for g in t.games() if not t.game_path(g["id"]).exists())
        app.open_game(gid)
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "GameScreen")
        await pilot.press("space")  # start the clock
        log = t.game_log(gid)
        await wait_for(pilot, lambda: len(log.events) == 1, "the clock start event")
        assert log.events[0].type == "clock_start" and log.events[0].judge == "Петров"
