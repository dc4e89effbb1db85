"""Keys and the palette (issue 12, items 8 and 9): every action of a screen in Ctrl+P with
its description in the UI language, aliases once; no key lost or misrouted when a dialog
opens or closes."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual.command import CommandInput, CommandList, CommandPalette

from fieldjudge.app import make_app
from fieldjudge.rules.paintball import model as m
from fieldjudge.screens.chrono.ingame import InGameChronoScreen
from fieldjudge.screens.chrono.marker_check import MarkerCheckScreen
from fieldjudge.screens.chrono.show import ReadingShownScreen
from fieldjudge.screens.dialogs.forms import FormInput, FormScreen
from fieldjudge.screens.game.dialogs import InspectionDialog
from fieldjudge.screens.game.screen import GameScreen
from fieldjudge.screens.home import HomeScreen
from fieldjudge.screens.setup.teams import TeamsScreen
from tests.test_game_helpers import (
    fake_clock,
    game_id,
    keys,
    name_prompt_open,
    open_game,
    sign_later,
    wait_for,
)


def typed_fast(app, *keys_: str) -> None:
    """Keys as a fast typist sends them: all queued before the app handles the first."""
    for k in keys_:
        char = k if len(k) == 1 else None
        app._driver.send_message(events.Key(k, char))  # noqa: SLF001


async def palette_titles(app, pilot) -> list[str]:
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: CommandPalette.is_open(app), "the palette")
    palette = app.screen
    cl = palette.query_one(CommandList)
    await wait_for(pilot, lambda: cl.option_count > 0, "the commands")
    titles = [str(cl.get_option_at_index(i).prompt).split("\n")[0] for i in range(cl.option_count)]
    await pilot.press("escape")
    return titles


def prompts(app) -> list[str]:
    cl = app.screen.query_one(CommandList)
    return [str(cl.get_option_at_index(i).prompt) for i in range(cl.option_count)]


async def open_palette(app, pilot) -> list[str]:
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: CommandPalette.is_open(app), "the palette")
    cl = app.screen.query_one(CommandList)
    await wait_for(pilot, lambda: cl.option_count > 0, "the commands")
    return prompts(app)


# -- item 8: the palette ------------------------------------------------------------------


async def test_palette_lists_every_home_action_in_russian(demo_folder: Path) -> None:
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        listed = await open_palette(app, pilot)
        shown = "\n".join(listed)
        assert app.screen.query_one(CommandInput).placeholder == "Найти команду…"
        assert sorted(listed) == sorted(
            [
                "Открыть выбранную игру\ng",
                "Следующая игра поля этого ноутбука\nN",
                "Проверка маркеров\nk",
                "Протокол\np",
                "Турнирная таблица\nS",
                "Команды\nt",
                "Расписание\ns",
                "Новый турнир\nn",
                "Экспорт\nx",
                "Слияние\nm",
                "Квиддич\nq",
                "Имя судьи\nj",
                "Обновить\nr",
                "Поле этого ноутбука\nF",
                "Табло для зрителей: включить / выключить\nw",
                "Главный судья регистрирует этот ноутбук (своим секретом)\nR",
                "Главный судья подписывает команды и расписание в нынешнем виде (своим секретом)\nT",
                "Справка\nF1",
                "Тема: тёмная, светлая, для солнца (контрастная)\n^t",
                "Звонок за минуту до конца и на «Время!»: вкл / выкл\n^b",
                "Выход\n^q",
            ]
        )
        assert "Copy selected text" not in shown and "Focus Next" not in shown


async def test_palette_lists_hidden_game_actions_once_and_runs_void(
    demo_folder: Path, monkeypatch
) -> None:
    fake_clock(monkeypatch)
    gid = game_id(demo_folder)
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_game(app, pilot, gid)
        listed = await open_palette(app, pilot)
        titles = [p.split("\n")[0] for p in listed]
        for title in (
            "Void by number",
            "Paint check",
            "Neutral",
            "Capture",
            "Hand-over",
            "Chrono",
            "Inspection",
            "Both hit",
            "End game (judge)",
            "Out A",
        ):
            assert titles.count(title) == 1, title
        assert not any("ф" in p.split("\n")[-1] for p in listed)  # the alias key is not shown
        # typing finds the hidden action and Enter runs it
        for ch in "void":
            await pilot.press(ch)
        cl = app.screen.query_one(CommandList)
        await wait_for(
            pilot,
            lambda: cl.option_count and str(cl.get_option_at_index(0).prompt).startswith("Void"),
            "void found",
        )
        await pilot.press("enter")
        await wait_for(pilot, lambda: not CommandPalette.is_open(app) and app.screen is screen)
        # the void ran: before the first event it says there is nothing to void
        notice = screen.query_one("#notice")
        await wait_for(pilot, lambda: "No events yet to void" in str(notice.render()))


async def test_f1_lists_home_actions_once_with_translated_navigation(demo_folder: Path) -> None:
    from fieldjudge.screens.dialogs.help import HelpScreen

    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = app.screen.query_one("#help-keys").render().plain
        assert "Расписание" in text and "Экспорт" in text
        for english in ("Scroll Left", "Focus Next", "Copy selected text", "Page Up"):
            assert english not in text


# -- item 9: no key lost or misrouted -------------------------------------------------------


async def test_a_form_field_takes_its_own_keys_in_the_order_typed(demo_folder: Path) -> None:
    """Issue 20 (day-found): in a form, Ctrl+U and Backspace typed in one burst with the
    characters around them act in order (Textual ran a field's bindings after the
    characters already queued: ``abc`` Ctrl+U ``xyz`` left the field empty)."""
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await pilot.press("n")  # the new-tournament form: its first field has the focus
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "the form")
        await pilot.pause()
        field = app.screen.focused
        typed_fast(app, "a", "b", "c", "ctrl+u", "x", "y", "z", "backspace", "w")
        await wait_for(pilot, lambda: field.value == "xyw", f"xyw, not {field.value!r}")
        typed_fast(app, "home", "q", "end", "!")
        await wait_for(pilot, lambda: field.value == "qxyw!", f"qxyw!, not {field.value!r}")
        # a character that reaches the form before any field has the focus lands in the
        # first field (the form just opened), not lost
        app.screen.set_focus(None)
        await pilot.pause()
        typed_fast(app, "К", "у")
        await wait_for(pilot, lambda: field.value == "qxyw!Ку", f"qxyw!Ку, not {field.value!r}")
        assert app.screen.focused is field


async def test_an_enter_typed_in_a_burst_moves_on_before_the_characters_after_it(
    demo_folder: Path,
) -> None:
    """Round 11's note: «Поле 2» Enter «судья-демо-2026» Enter sent as one write (a paste,
    a barcode scanner, tmux) left the focus in the first field, which read «Поле
    2судья-демо-2026»: the Enter moved the focus on only after the characters already
    queued to the first field. Each Enter now moves on where it comes in the keys, and
    the last one saves only what was typed before it."""
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "the form")
        await pilot.pause()
        form = app.screen
        name, day, venue = (form.query_one(f"#f-{k}") for k in ("name", "date", "venue"))
        typed_fast(app, "К", "у", "б", "enter", "ctrl+u", *"2026-06-01", "enter", *"Лес")
        await wait_for(pilot, lambda: venue.value == "Лес", f"Лес, not {venue.value!r}")
        assert (name.value, day.value) == ("Куб", "2026-06-01")
        assert form.focused is venue
        # the last field's Enter saves what was typed before it, however fast
        for _ in range(len(form.fields) - 3):
            await pilot.press("enter")
        await wait_for(pilot, lambda: form.focused is form.query(FormInput).last())
        last = form.focused
        typed_fast(app, "ctrl+u", "1", "2", "3", "4", "enter")
        await wait_for(pilot, lambda: form.query_one("#form-error").render().plain != "")
        assert last.value == "1234"


async def test_keys_typed_before_a_form_appears_fill_it(demo_folder: Path) -> None:
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        typed_fast(app, "j", "A", "n", "n", "a", "enter")
        await wait_for(pilot, lambda: app.judge == "Anna", "the judge's name")
        assert isinstance(app.screen, HomeScreen)


async def test_a_form_typed_in_the_same_burst_as_its_key_fills_it(demo_folder: Path) -> None:
    """Round 13's note: the key that opens a form and the form's fields typed in one burst
    (a judge typing on through a stall of the laptop): the app had handed the keys after
    ``n`` to the home screen before ``n`` opened the form, so they acted as the home
    screen's keys («Л» is ``k``: the marker check) and the form stayed empty. They go on
    to the form now, in the order typed, its Enter moving from field to field."""
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await pilot.pause()
        typed_fast(app, "n", "К", "у", "б", "enter", "ctrl+u", *"2026-06-01", "enter", *"Лес")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, FormScreen) and app.screen.query("#f-venue"),
            "the form",
        )
        form = app.screen
        venue = form.query_one("#f-venue", FormInput)
        await wait_for(pilot, lambda: venue.value == "Лес", "the third field")
        values = {k: form.query_one(f"#f-{k}", FormInput).value for k in ("name", "date")}
        assert values == {"name": "Куб", "date": "2026-06-01"}
        assert form.focused is venue
        assert app.screen_stack[-2:] == [app.screen_stack[-2], form]
        assert isinstance(app.screen_stack[-2], HomeScreen)  # nothing else was opened


async def test_a_team_typed_in_the_same_burst_as_its_key_is_added(demo_folder: Path) -> None:
    """The same on a screen without an inline prompt: ``a`` on the teams screen, the name
    and Enter in the same burst add the team by that name (the keys had reached the teams
    screen after the form covered it, and were lost)."""
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, TeamsScreen), "the teams")
        await pilot.pause()
        typed_fast(app, "a", *"Вепри", "enter")
        await wait_for(
            pilot,
            lambda: "Вепри" in app.tournament.team_names().values(),
            "the team added",
        )
        await sign_later(pilot, app)  # the demo's teams were signed: he is asked once
        assert isinstance(app.screen, TeamsScreen)


async def test_a_game_opened_and_judged_in_one_burst_takes_every_key(
    demo_folder: Path, monkeypatch
) -> None:
    """``N`` (this field's next game), Space (the clock) and ``a 4 2`` Enter (team A's #42
    out) typed in one burst from the home screen: the game opens, its clock runs and #42
    is out, in that order; the keys behind ``N`` reach the game once it is on screen, its
    inline prompt taking the digits."""
    fake_clock(monkeypatch)
    app = make_app(demo_folder.parent, demo_folder, lang="ru", judge="Судья")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        app.laptop.field = "1"
        await pilot.pause()
        typed_fast(app, "N", "space", "a", "4", "2", "enter")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, GameScreen) and len(app.screen.session.events) >= 2,
            "the game started and #42 out",
        )
        s = app.screen.session
        assert [e.type for e in s.events] == ["clock_start", "elimination"]
        team_a = s.teams[0]
        assert s.events[1].data["players"] == [{"team": team_a, "number": 42}]


async def test_typed_reading_on_the_marker_check_typed_fast(demo_folder: Path, monkeypatch) -> None:
    monkeypatch.setattr("fieldjudge.services.paintball.chrono.default_config", lambda: None)
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        t = app.tournament
        gid = next(g["id"] for g in t.games() if not t.game_path(g["id"]).exists())
        app.push_screen(MarkerCheckScreen(t, gid))
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, MarkerCheckScreen) and app.screen.query("#feed"),
        )
        screen = app.screen
        await pilot.press("i")  # 19.01: the first player's team checks in
        await wait_for(pilot, lambda: screen.state.checkins, "the check-in")
        await pilot.press("enter", "s")  # the first player; slap test: no shot
        await wait_for(pilot, lambda: screen.current is not None, "the player's check")
        typed_fast(app, "t", "2", "8", "2", "enter")
        await wait_for(pilot, lambda: len(screen.current.shots) == 1, "the typed reading")
        assert screen.current.shots[0].fps == 282.0
        assert app.screen is screen


async def test_the_key_that_closes_the_inspection_does_not_open_the_chrono(
    demo_folder: Path, monkeypatch
) -> None:
    """18.02: c marks the last player clean and closes the inspection; that same c does not
    also act on the game screen behind (its c is the in-game chrono, which after the game
    says why not). The next c does."""
    clock = fake_clock(monkeypatch)
    gid = game_id(demo_folder)
    app = make_app(demo_folder.parent, demo_folder, lang="en", judge="Test judge")
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_game(app, pilot, gid)
        await keys(pilot, "space")
        clock.advance(60_000)
        await keys(pilot, "f a 1 1")
        clock.advance(30_000)
        await keys(pilot, "H")
        clock.advance(45_000)
        await keys(pilot, "c 2 8 7 . 5 enter")
        await wait_for(pilot, lambda: isinstance(app.screen, InspectionDialog), "the inspection")
        while screen.session.state.to_inspect():
            await pilot.press("c")
        await wait_for(pilot, lambda: screen.session.state.phase == m.FINAL, "final")
        await wait_for(pilot, lambda: app.screen is screen, "back on the game screen")
        await pilot.pause()
        notice = lambda: str(screen.query_one("#notice").render())  # noqa: E731
        assert app.screen is screen and "18.02" not in notice()  # the closing c did nothing
        await pilot.press("c")  # a new press: the chrono, refused once the game is over (20)
        await wait_for(pilot, lambda: "18.02: the game is over" in notice(), "why not")
        assert app.screen is screen


@pytest.mark.parametrize("closing", ["escape", "enter"])
async def test_escape_and_enter_are_never_swallowed(demo_folder: Path, closing: str) -> None:
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await pilot.press("j")
        await wait_for(pilot, lambda: name_prompt_open(app))
        await pilot.press("A", closing)
        await wait_for(pilot, lambda: not name_prompt_open(app))
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("j")  # a different key right after: not swallowed
        await wait_for(pilot, lambda: name_prompt_open(app), "the form again")


async def test_a_key_typed_after_the_closing_key_reaches_the_screen_behind(
    demo_folder: Path,
) -> None:
    """Enter submits the form; the t typed right after it is the home screen's (teams),
    not one more letter of the name."""

    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        typed_fast(app, "j", "A", "enter", "t")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, TeamsScreen) and app.screen.is_mounted,
            "the teams screen",
        )
        await pilot.pause()
        assert app.judge == "A"


async def test_no_key_waits_after_escape_leaves_a_screen(demo_folder: Path, monkeypatch) -> None:
    """Esc removes the game screen with the key's marker in it: the next keys go on at once
    (the app's clock is frozen here, so a key waiting for a lost marker would wait forever)."""
    from fieldjudge.screens.results.protocol import ProtocolScreen

    fake_clock(monkeypatch)
    app = make_app(demo_folder.parent, demo_folder, lang="en")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        typed_fast(app, "down", "down", "down", "down", "g", "escape", "p")
        await wait_for(pilot, lambda: isinstance(app.screen, ProtocolScreen), "the protocol")
        t = app.tournament
        assert app.screen.game_id == t.games()[4]["id"]
        # the protocol's header has its title before the app closes (Textual's header
        # fails on a title it sets after its screen was torn down)
        await wait_for(
            pilot,
            lambda: any("fieldjudge" in str(h.render()) for h in app.screen.query("HeaderTitle")),
            "the protocol's header",
        )


async def test_russian_layout_letters_act_as_the_keys_in_their_place(demo_folder: Path) -> None:
    """е is where t is: the teams screen; Е (shift) is T... and a text field still gets
    Russian letters."""

    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await pilot.press("е")
        await wait_for(pilot, lambda: isinstance(app.screen, TeamsScreen), "teams on е")
        await pilot.press("escape", "о")  # о is where j is: the judge's name
        await wait_for(pilot, lambda: name_prompt_open(app), "the name form")
        for ch in "Пётр":
            await pilot.press(ch)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.judge == "Пётр", "the name typed in Russian")
        # the palette lists t once, with no Cyrillic twin
        listed = await open_palette(app, pilot)
        assert "Команды\nt" in listed and not any(p.endswith("\nе") for p in listed)


async def test_palette_says_no_matches_in_russian(demo_folder: Path) -> None:
    """Words that name no action: the palette says so in the UI language."""
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await open_palette(app, pilot)
        for ch in "zzqq":
            await pilot.press(ch)
        cl = app.screen.query_one(CommandList)
        await wait_for(
            pilot,
            lambda: cl.option_count == 1 and "Ничего не найдено" in prompts(app)[0],
            "no matches, in Russian",
        )
        assert not any("No matches" in p for p in prompts(app))


async def test_russian_layout_letter_on_a_screen_without_a_prompt(demo_folder: Path) -> None:
    """The app's fallback: on the teams screen ф is where a is (add a team); in the form's
    text field that opens, ф stays a letter."""
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, TeamsScreen), "the teams")
        await pilot.press("ф")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "add a team")
        await pilot.press("ф")
        form = app.screen
        await wait_for(pilot, lambda: form.values()["name"] == "ф", "ф typed in the field")


@pytest.mark.parametrize("typed", ["fast", "one by one"])
async def test_esc_on_the_20_06_panel_closes_it_and_stays_in_the_game(
    demo_folder: Path, monkeypatch, typed: str
) -> None:
    """20.06 over the game screen (a hang rejected by the chrono, 23.02): Esc closes the
    panel and does not also act on the game screen behind (its Esc leaves the game for
    home), even when typed right behind the Enter that opened the panel."""
    monkeypatch.setattr("fieldjudge.services.paintball.chrono.default_config", lambda: None)
    clock = fake_clock(monkeypatch)
    gid = game_id(demo_folder)
    app = make_app(demo_folder.parent, demo_folder, lang="en", judge="Test judge")
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_game(app, pilot, gid)
        await keys(pilot, "space")
        clock.advance(20_000)
        await keys(pilot, "f a 1 1")
        clock.advance(10_000)
        hang = ["H", "c", "3", "0", "5", ".", "4", "enter"]
        if typed == "fast":
            typed_fast(app, *hang, "escape")
        else:
            await keys(pilot, " ".join(hang))
            await wait_for(pilot, lambda: isinstance(app.screen, ReadingShownScreen), "20.06")
            await pilot.press("escape")
        log = screen.session.log
        await wait_for(pilot, lambda: any(e.type == "hang_verdict" for e in log.events))
        await wait_for(pilot, lambda: not isinstance(app.screen, ReadingShownScreen), "closed")
        await pilot.pause()
        assert app.screen is screen  # not home: the game goes on
        assert not screen.prompt.active


async def test_enter_on_the_20_06_box_then_esc_stays_in_the_game(
    demo_folder: Path, monkeypatch
) -> None:
    """Issue 25, item 8: the in-game chrono's 20.06 box closes on Enter and the chrono
    screen stays (one key, one layer); the judge's Esc then goes back to the game, not home
    in the middle of the game."""
    monkeypatch.setattr("fieldjudge.services.paintball.chrono.default_config", lambda: None)
    clock = fake_clock(monkeypatch)
    gid = game_id(demo_folder)
    app = make_app(demo_folder.parent, demo_folder, lang="en", judge="Test judge")
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_game(app, pilot, gid)
        await keys(pilot, "space")
        clock.advance(20_000)
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, InGameChronoScreen), "the chrono")
        chrono = app.screen
        await wait_for(pilot, lambda: chrono.query("#feed"), "the chrono mounted")
        await pilot.press("l", "down", "enter")  # the list, its first player
        await wait_for(pilot, lambda: chrono.readings is not None, "the player")
        typed_fast(app, "t", "3", "0", "5", "enter")  # the digits are the reading, not shots
        await wait_for(pilot, lambda: len(chrono.shots) == 1, "the typed reading")
        assert chrono.shots[0].fps == 305.0 and app.screen is chrono
        await pilot.press("enter")  # 20.03: removed; 20.06: the reading shown large
        await wait_for(pilot, lambda: chrono.result_event is not None, "the chrono event")
        await pilot.press("enter")  # closes the box
        await wait_for(pilot, lambda: not chrono.query_one("#cg-result").display, "box closed")
        assert app.screen is chrono
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, "back on the game")
        await pilot.pause()
        assert app.screen is screen
