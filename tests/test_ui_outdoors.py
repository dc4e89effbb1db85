"""Outdoors and this laptop (issue 12, items 18 and 18a): the sunlight theme and the bell as
laptop settings; keys remapped from the keymap file, reserved keys refused with a message,
F1, the footer and the palette showing the remapped keys."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette

from fieldjudge.app import make_app
from fieldjudge.screens.bell import MINUTE, TIME, GameBell
from fieldjudge.screens.dialogs.help import HelpScreen
from fieldjudge.screens.setup.schedule import ScheduleScreen
from fieldjudge.screens.setup.teams import TeamsScreen
from fieldjudge.services.laptop import LaptopSettings, load_keymap
from tests.test_game_helpers import fake_clock, game_id, keys, open_game, wait_for

# -- 18: theme and bell ----------------------------------------------------------------------


async def test_sunlight_theme_is_chosen_by_key_and_remembered(demo_folder: Path) -> None:
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        assert app.theme == "textual-dark"
        await pilot.press("ctrl+t", "ctrl+t")
        assert app.theme == "fieldjudge-sun"
        assert app.current_theme.background == "#FFFFFF"
        assert app.current_theme.foreground == "#000000"
    assert LaptopSettings.load().theme == "fieldjudge-sun"
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        assert app.theme == "fieldjudge-sun"


def test_bell_rings_once_at_one_minute_and_when_play_stops() -> None:
    bell = GameBell()
    assert bell.due("not_started", 420_000) is None
    assert bell.due("running", 300_000) is None
    assert bell.due("running", 60_001) is None
    assert bell.due("running", 60_000) == MINUTE
    assert bell.due("running", 59_000) is None  # once
    assert bell.due("stopped", 58_000) == TIME  # "Time!"
    assert bell.due("stopped", 58_000) is None
    assert bell.due("running", 58_000) is None  # resumed: the minute was announced
    assert bell.due("final", 0) == TIME  # the end


def test_a_game_opened_in_its_last_minute_does_not_ring_at_once() -> None:
    bell = GameBell()
    assert bell.due("running", 30_000) is None
    assert bell.due("running", 29_000) is None


@pytest.mark.parametrize("on", [True, False])
async def test_game_screen_rings_at_one_minute_left_unless_turned_off(
    demo_folder: Path, monkeypatch, on: bool
) -> None:
    clock = fake_clock(monkeypatch)
    gid = game_id(demo_folder)
    app = make_app(demo_folder.parent, demo_folder, lang="en", judge="Test judge")
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_game(app, pilot, gid)
        if not on:
            await pilot.press("ctrl+b")
        assert app.laptop.bell is on
        await keys(pilot, "space")
        length = screen.session.state.clock.length_ms
        clock.advance(length - 61_000)
        await pilot.pause(0.3)  # the screen's clock ticks (4 a second)
        assert app.bells_rung == []
        clock.advance(2_000)
        await wait_for(pilot, lambda: app.bells_rung or not on, "the minute bell")
        await keys(pilot, "t")  # "Time!"
        await wait_for(pilot, lambda: len(app.bells_rung) == 2 or not on, "the Time! bell")
        await pilot.pause(0.3)
        assert app.bells_rung == ([MINUTE, TIME] if on else [])
    assert LaptopSettings.load().bell is on


# -- 18a: keymap --------------------------------------------------------------------------


def write_keymap(tmp_path: Path, text: str) -> None:
    folder = tmp_path / "config"  # FIELDJUDGE_CONFIG of the tests (conftest)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "keymap.toml").write_text(text, encoding="utf-8")


def test_keymap_file_refuses_reserved_and_unknown(tmp_path: Path) -> None:
    write_keymap(
        tmp_path,
        '"home.teams" = "T"\n"home.schedule" = "ctrl+q"\n"home.nothing" = "z"\n'
        '[game]\nvoid = "V,м"\nback = "escape"\n',
    )
    km = load_keymap(["home.teams", "home.schedule", "game.void", "game.back"])
    assert km.keys == {"home.teams": "T", "game.void": "V,м"}
    assert [(p.binding_id, p.reason) for p in km.problems] == [
        ("home.schedule", "reserved"),
        ("home.nothing", "unknown"),
        ("game.back", "reserved"),
    ]


async def test_remapped_keys_work_and_show_in_f1_footer_and_palette(
    demo_folder: Path, tmp_path: Path
) -> None:
    write_keymap(
        tmp_path,
        '"home.teams" = "T"\n"home.open_game" = "o"\n"home.schedule" = "ctrl+q"\n',
    )
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        # the refusal is said, with the reason
        messages = [n.message for n in app._notifications]  # noqa: SLF001
        assert any("home.schedule: клавиша ctrl+q занята" in m for m in messages), messages

        # the footer shows the new key of "Игра"
        def footer() -> dict[str, str]:
            return {k.description: k.key_display for k in app.screen.query("FooterKey")}

        await wait_for(pilot, lambda: "Игра" in footer(), "the footer")
        assert footer()["Игра"] == "o"
        # F1
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        rows = str(app.screen.query_one("#help-keys").render()).splitlines()
        assert any(r.split() == ["T", "Команды"] for r in rows), rows
        assert any(r.split() == ["s", "Расписание"] for r in rows), rows  # kept its key
        await pilot.press("escape")
        # the palette
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: CommandPalette.is_open(app))
        cl = app.screen.query_one(CommandList)
        await wait_for(pilot, lambda: cl.option_count > 0)
        prompts = [str(cl.get_option_at_index(i).prompt) for i in range(cl.option_count)]
        assert "Команды\nT" in prompts and "Открыть выбранную игру\no" in prompts
        await pilot.press("escape")
        await wait_for(pilot, lambda: not CommandPalette.is_open(app))
        # the keys themselves
        await pilot.press("t")
        await pilot.pause()
        assert not isinstance(app.screen, TeamsScreen)
        await pilot.press("T")
        await wait_for(pilot, lambda: isinstance(app.screen, TeamsScreen), "teams on T")
        await pilot.press("escape", "s")
        await wait_for(pilot, lambda: isinstance(app.screen, ScheduleScreen), "schedule on s")


async def test_enter_moves_a_form_on_when_its_key_is_remapped(
    demo_folder: Path, tmp_path: Path
) -> None:
    """``form.next`` (Enter, which moves a form on where it comes among fast keys) can be
    remapped like any binding; the form's Enter still moves on, as the field's own key."""
    from fieldjudge.screens.dialogs.forms import FormScreen

    write_keymap(tmp_path, '"form.next" = "ctrl+n"\n')
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "the form")
        form = app.screen
        name, day, venue = (form.query_one(f"#f-{k}") for k in ("name", "date", "venue"))
        await wait_for(pilot, lambda: form.focused is name, "the first field")
        await pilot.press("enter")
        await wait_for(pilot, lambda: form.focused is day, "Enter: the second field")
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: form.focused is venue, "ctrl+n: the third field")
