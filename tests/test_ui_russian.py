"""Russian everywhere at 80×24 (issue 12, item 11): the main screens walked by keys in one run;
any ASCII word outside the allow-list (key names, file formats, the program's name) fails,
and so does a footer key that does not fit whole."""

from __future__ import annotations

import re
from pathlib import Path

from fieldjudge.app import make_app
from fieldjudge.screens.widgets.footer import key_width
from tests.screen_text import screen_text
from tests.test_game_helpers import fake_clock, wait_for

ALLOWED = {
    "fieldjudge",  # the program's name in the header
    "Esc", "Enter", "Tab", "Shift", "Ctrl", "F1",  # key names as printed on the keys
    "Home", "End", "PgUp", "PgDn", "Del",
    "CSV", "PIN", "HTML", "JSON", "PDF",  # formats and the PIN, as Russian writes them
    "http",  # the pit display's address
}  # fmt: skip
ASCII_WORD = re.compile(r"(?<![/\w.:-])[A-Za-z][A-Za-z_]+")

# (keys pressed, the screen they lead to, keys that leave it, the screen left on)
WALK = [
    ([], "HomeScreen", [], "HomeScreen"),
    (["f1"], "HelpScreen", ["escape"], "HomeScreen"),
    (["ctrl+p"], "CommandPalette", ["escape"], "HomeScreen"),
    (["t"], "TeamsScreen", ["escape"], "HomeScreen"),
    (["s"], "ScheduleScreen", ["escape"], "HomeScreen"),
    (["S"], "StandingsScreen", ["escape"], "HomeScreen"),
    (["p"], "ProtocolScreen", ["escape"], "HomeScreen"),  # a signed game
    (["m"], "MergeScreen", ["escape"], "HomeScreen"),
    (["q"], "MatchesScreen", ["escape"], "HomeScreen"),
    (["n"], "FormScreen", ["escape"], "HomeScreen"),
    (["j"], "HomeScreen", ["escape"], "HomeScreen"),  # the judge's name, asked inline
    (["w"], "PitPanel", ["w"], "HomeScreen"),
    (["down"] * 4 + ["p"], "ProtocolScreen", ["escape"], "HomeScreen"),  # not played yet
    (["k"], "MarkerCheckScreen", ["escape"], "HomeScreen"),
    (["g"], "GameScreen", [], "GameScreen"),
    (["f1"], "HelpScreen", ["escape"], "GameScreen"),  # the game screen's keys
    (["space"], "GameScreen", [], "GameScreen"),  # running
    (["u"], "GameScreen", [], "GameScreen"),  # undo asks what it undoes
    (["enter"], "GameScreen", [], "GameScreen"),  # undone: the log says why, in Russian
    (["c"], "InGameChronoScreen", ["escape"], "GameScreen"),
]


DOTTED = re.compile(r"\b\w+(?:\.\w+)+\b")  # keymap ids and file names (home.teams, keymap.toml)
HEX = re.compile(r"\b[0-9a-f]{8,}\b")  # a protocol's hash


def ascii_words(text: str) -> set[str]:
    text = HEX.sub(" ", DOTTED.sub(" ", text))
    return {w for w in ASCII_WORD.findall(text) if w not in ALLOWED}


def cut_footer_keys(app) -> list[str]:
    """Footer keys not shown whole: past the screen's edge, narrower than their text, or
    under the palette key docked on the right."""
    keys = list(app.screen.query("FooterKey"))
    palette = [k for k in keys if "-command-palette" in k.classes]
    left_edge = palette[0].region.x if palette else app.size.width
    cut = []
    for key in keys:
        if key in palette or not key.region.width:
            continue
        if key.region.right > left_edge or key.region.width < key_width(key):
            cut.append(f"{key.key_display} {key.description}")
    return cut


async def test_main_screens_are_russian_at_80x24(demo_folder: Path, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("STHOMEDIR", str(tmp_path / "no-syncthing"))
    fake_clock(monkeypatch)
    app = make_app(demo_folder.parent, demo_folder, lang="ru", pit_port=0)
    found: dict[str, set[str]] = {}
    cut: dict[str, list[str]] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        for keys, expected, back, left_on in WALK:
            for k in keys:
                await pilot.press(k)
            await wait_for(
                pilot, lambda e=expected: type(app.screen).__name__ == e, f"{expected} ({keys})"
            )
            await pilot.pause()
            where = f"{' '.join(keys) or 'home'} → {expected}"
            if words := ascii_words(screen_text(app)):
                found[where] = words
            if keys_cut := cut_footer_keys(app):
                cut[where] = keys_cut
            for k in back:
                await pilot.press(k)
            await wait_for(pilot, lambda e=left_on: type(app.screen).__name__ == e, left_on)
    assert found == {}
    assert cut == {}


def test_the_walk_fails_on_an_english_word() -> None:
    """The check itself: English words are found; allowed words and paths are not."""
    text = "Протокол: not_started · Esc Назад · CSV · ./exports/cup.pdf · home.teams · хэш ab12cd34ef56"
    assert ascii_words(text) == {"not_started"}


async def test_marker_check_hint_is_whole_at_80x24(demo_folder: Path, tmp_path, monkeypatch):
    """With no player picked, the marker check says how to pick one; at 80 columns the
    line wraps rather than stopping at «выберите в списке и»."""
    monkeypatch.setenv("STHOMEDIR", str(tmp_path / "no-syncthing"))
    fake_clock(monkeypatch)
    app = make_app(demo_folder.parent, demo_folder, lang="ru", pit_port=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await pilot.press(*["down"] * 4, "k")  # the first game of round 2, not played
        await wait_for(pilot, lambda: type(app.screen).__name__ == "MarkerCheckScreen", "k")
        await wait_for(pilot, lambda: "Игрок не выбран:" in screen_text(app), "the hint")
        lines = [ln.rstrip() for ln in screen_text(app).splitlines()]
        at = next(i for i, ln in enumerate(lines) if "Игрок не выбран:" in ln)
        column = lines[at].index("Игрок не выбран:")
        shown = " ".join(ln[column:].strip() for ln in lines[at : at + 3])
        assert "Игрок не выбран: выберите в списке и нажмите Enter" in shown, lines[at : at + 3]


async def test_a_lists_keys_are_named_as_keys_in_russian_help(demo_folder: Path) -> None:
    """F1 on a screen with a table: Textual's Home and End keys read «В начало» and «В
    конец». Their English words are also the home screen's title and a game's end, and F1
    said «home  Главный экран», «end  Окончание»."""
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await pilot.press("S")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "StandingsScreen")
        await pilot.press("f1")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "HelpScreen")
        keys = {key: title for key, title, _id in app.screen.keys}
        # the keys themselves as a keyboard prints them (it said «home», «pgup», «^pgup»)
        assert (keys["Home"], keys["End"]) == ("В начало", "В конец")
        assert (keys["PgUp"], keys["PgDn"], keys["^PgUp"]) == (
            "Страница вверх",
            "Страница вниз",
            "Страница влево",
        )
        assert not {"home", "end", "pgup", "pgdn"} & set(keys)
        assert "Главный экран" not in keys.values() and "Окончание" not in keys.values()


async def test_the_protocol_names_each_figure_of_a_result(demo_folder: Path, tmp_path, monkeypatch):
    """30.01 on the protocol screen: the points in words with their Russian plural and the
    survivor difference named (it read «3 очк., +3, сохранено 5»: an abbreviation and a
    bare number)."""
    monkeypatch.setenv("STHOMEDIR", str(tmp_path / "no-syncthing"))
    fake_clock(monkeypatch)
    app = make_app(demo_folder.parent, demo_folder, lang="ru", pit_port=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        await pilot.press("p")  # the first game: Медведи 3:0 Драконы, signed
        await wait_for(pilot, lambda: type(app.screen).__name__ == "ProtocolScreen", "p")
        text = screen_text(app)
        assert "Медведи: 3 очка · разница +2 · сохранено 4" in text, text
        assert "Драконы: 0 очков · разница -2 · сохранено 2" in text, text
        assert "очк." not in text


async def test_a_code_field_takes_the_key_in_place_of_a_russian_letter(demo_folder: Path):
    """The head judge's outcome code (h1, f2, d) typed with the Russian layout on: «р1»
    is h1 (it was refused with a bell, nothing shown); a name field keeps Russian."""
    from fieldjudge.screens.dialogs.forms import Field, FormScreen

    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        form = FormScreen(
            "x",
            [Field("outcome", "код", restrict=r"[hfdHFD]?[12]?"), Field("reason", "причина")],
        )
        app.push_screen(form)  # pushed here, not by a key: typed once its field has the focus
        await wait_for(pilot, lambda: app.screen is form and form.focused is not None)
        await pilot.press("р", "1", "enter", "р", "е")
        await wait_for(pilot, lambda: form.values()["reason"] == "ре", "the reason typed")
        assert form.values()["outcome"] == "h1"
