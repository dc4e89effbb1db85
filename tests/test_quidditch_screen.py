"""A forum quidditch judge at the keyboard: new match, a round entered by keys, resolved,
posted and stored; reopen; void and redo; a snapshot of the round screen."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import orjson
from textual.widgets import DataTable, Input, Select, Static

from fieldjudge.app import make_app
from fieldjudge.rules.events import VOID
from fieldjudge.rules.quidditch.declarations import Declaration as D
from fieldjudge.rules.quidditch.sample import sample_setup
from fieldjudge.screens.dialogs.forms import ConfirmScreen, FormScreen, MessageScreen
from fieldjudge.screens.quidditch.declare import DeclareModal
from fieldjudge.screens.quidditch.matches import MatchesScreen
from fieldjudge.screens.quidditch.result import ResultScreen
from fieldjudge.screens.quidditch.round import RoundScreen
from fieldjudge.services import create_tournament, open_tournament
from fieldjudge.services.quidditch import ROUND_RESOLVED, QuidditchSession
from tests.test_game_helpers import wait_for


async def on_screen(pilot, cls) -> None:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, cls), cls.__name__)


def _match_folder(tmp_path: Path, seed: str | None = None, rounds: int = 0) -> Path:
    data = tmp_path / "data"
    t = create_tournament(data / "quidditch", name="Quidditch matches", day=date(2026, 6, 1))
    s = QuidditchSession.create(t, sample_setup("final"), server_seed=seed)
    if rounds:
        s.resolve([D("g_c1", "catch_throw_up", post_order=1), D("g_s", "search")])
    t.close()
    return data


async def test_round_entered_by_keys_is_resolved_posted_and_stored(tmp_path: Path) -> None:
    data = tmp_path / "data"
    app = make_app(data, lang="ru")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("q")  # no tournament open: the "quidditch" folder is created
        await on_screen(pilot, MatchesScreen)
        assert app.tournament is not None and app.tournament.folder == data / "quidditch"
        await pilot.press("d")  # a demo match: Гриффиндор — Слизерин
        await on_screen(pilot, FormScreen)
        await pilot.press("enter", "enter")
        await on_screen(pilot, MessageScreen)  # the seed hash to publish
        session = app.screen_stack[-2].session
        assert session.seed_hash in app.screen.body
        await pilot.press("enter")
        await on_screen(pilot, RoundScreen)
        screen = app.screen
        # Джонсон (row 1): catch the throw-up, a feint that does not fit is refused
        await pilot.press("enter")
        await on_screen(pilot, DeclareModal)
        await pilot.press("enter", "down", "enter")  # action: catch the throw-up
        await wait_for(
            pilot, lambda: app.screen.query_one("#qd-action", Select).value == "catch_throw_up"
        )
        app.screen.query_one("#qd-feint", Select).value = "Штопор"
        app.screen.query_one("#qd-bonus", Input).value = "7"
        await pilot.press("ctrl+s")
        await wait_for(
            pilot,
            lambda: "бонус" in str(app.screen.query_one("#form-error").render()).lower(),
            "the refusal of the bonus, in Russian",
        )
        app.screen.query_one("#qd-bonus", Input).value = ""
        await pilot.press("ctrl+s")
        await on_screen(pilot, RoundScreen)
        assert screen.decls["g_c1"].action == "catch_throw_up"
        assert screen.decls["g_c1"].feint == "Штопор"
        # Флинт (row 8): catches too; Поттер (row 7) and Хиггс (row 14) just post
        table = screen.query_one("#qr-players", DataTable)
        for row, keys in ((7, ["enter", "down", "enter"]), (6, ["space"]), (13, ["space"])):
            table.move_cursor(row=row)
            if keys[0] == "enter":
                await pilot.press("enter")
                await on_screen(pilot, DeclareModal)
                await pilot.press(*keys)
                await pilot.press("ctrl+s")
                await on_screen(pilot, RoundScreen)
            else:
                await pilot.press(*keys)
        assert screen.decls["s_c1"].action == "catch_throw_up"
        assert set(screen.decls) == {"g_c1", "s_c1", "g_s", "s_s"}
        # the order of posts, by № (Флинт first, then Джонсон)
        await pilot.press("o")
        await on_screen(pilot, FormScreen)
        for ch in "8 1":
            await pilot.press("space" if ch == " " else ch)
        await pilot.press("enter")
        await on_screen(pilot, RoundScreen)
        assert screen.decls["s_c1"].post_order == 1 and screen.decls["g_c1"].post_order == 2
        await pilot.press("r")
        await on_screen(pilot, ConfirmScreen)
        assert "Хиггс" not in app.screen.question  # posted
        await pilot.press("y")
        await on_screen(pilot, ResultScreen)
        post = app.screen.resolved.post
        assert post.startswith("Круг 1. Счёт: Гриффиндор 0 : 0 Слизерин")
        assert "Розыгрыш квоффла" in post and "Проверка бросков: круг 1" in post
        assert app.clipboard == post
        path = data / "quidditch" / "quidditch" / session.match_id / "round-1.txt"
        assert path.read_text(encoding="utf-8") == post + "\n"
        rolls = app.screen.query_one("#qres-rolls", DataTable)
        assert rolls.row_count == len(app.screen.resolved.result.rolls) > 0
        outcomes = str(app.screen.query_one("#qres-outcomes", Static).render())
        assert "Квоффл · розыгрыш (п. 2)" in outcomes  # not "quaffle · throw_up"
        assert "throw_up" not in outcomes and "quaffle" not in outcomes
        shown = str(app.screen.query_one("#qres-post", Static).render())
        assert shown == post  # the whole post on the screen, as copied
        saved = str(app.screen.query_one("#qres-saved", Static).render())
        assert saved == f"Сохранено в {path}"  # the whole path, wrapped on a line of its own
        await pilot.press("escape")
        await on_screen(pilot, RoundScreen)
        assert screen.state.round_no == 2 and screen.decls == {}
        assert "круг 2" in str(screen.query_one("#qr-status").render()).lower()
    events = [e.type for e in session.log.events]
    assert events == ["match_created", ROUND_RESOLVED]


async def test_reopen_restores_the_match_then_void_and_redo(tmp_path: Path) -> None:
    data = _match_folder(tmp_path, seed="s", rounds=1)
    app = make_app(data, lang="en")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("q")
        await on_screen(pilot, MatchesScreen)
        await pilot.press("enter")
        await on_screen(pilot, RoundScreen)
        screen = app.screen
        assert screen.state.round_no == 2
        assert screen.state.quaffle.holder == "g_c1"
        assert "quaffle" in str(screen.query_one("#qr-players", DataTable).get_row("g_c1"))
        used = screen.session.consumed_rolls()
        # void round 1 by keys, then redo it
        await pilot.press("v")
        await on_screen(pilot, FormScreen)
        for ch in "typo":
            await pilot.press(ch)
        await pilot.press("enter")
        await on_screen(pilot, RoundScreen)
        await wait_for(pilot, lambda: screen.state.round_no == 1, "round 1 again")
        assert screen.session.log.events[-1].type == VOID
        screen.query_one("#qr-players", DataTable).move_cursor(row=0)
        await pilot.press("space")
        await pilot.press("r")
        await on_screen(pilot, ConfirmScreen)
        await pilot.press("y")
        await on_screen(pilot, ResultScreen)
        res = app.screen.resolved
        assert res.result.rolls[0].n == used + 1
        assert "(причина: typo)" in res.post and "пересчитан" in res.post
        await pilot.press("escape")
        await on_screen(pilot, RoundScreen)
        # a second void of the same round is fine (it is the last); export by keys
        await pilot.press("x")
        await on_screen(pilot, MessageScreen)
        export = data / "quidditch" / "quidditch" / "final" / "export.json"
        assert str(export) in app.screen.body
        exported = orjson.loads(export.read_bytes())
        assert [r["voided"] for r in exported["rounds"]] == [True, False]  # voided, then redone
        assert exported["rounds"][1]["rolls"][0]["n"] == used + 1


def test_round_screen_snapshot(snap_compare, tmp_path: Path) -> None:
    data = _match_folder(tmp_path, seed="snapshot-seed", rounds=1)
    t = open_tournament(data / "quidditch", startup_backup=False)
    drafts = [
        D("g_c1", "shoot", ring="left", feint="Вулонгонгский зигзаг", feint_bonus=12, post_order=1),
        D("s_k", "guard", ring="middle", post_order=2),
        D("s_s", "search", flags=("11.1",)),
    ]
    QuidditchSession.open(t, "final").save_draft(2, {d.player: d for d in drafts})
    t.close()
    assert snap_compare(make_app(data, lang="ru"), press=["q", "enter"], terminal_size=(100, 30))


async def test_new_match_set_up_by_keys_from_csv(tmp_path: Path) -> None:
    from fieldjudge.screens.quidditch.feints import FeintsScreen
    from fieldjudge.screens.quidditch.setup import MatchSetupScreen
    from fieldjudge.services.quidditch import default_rows

    csv_file = tmp_path / "teams.csv"
    csv_file.write_text(
        "team,name,position,matches,practices\n"
        + "\n".join(f"{r.team},{r.name},{r.position},3,1" for r in default_rows("Орлы", "Совы")),
        encoding="utf-8",
    )
    app = make_app(tmp_path / "data", lang="en")

    async def form(key: str, values: dict[str, str]) -> None:
        await pilot.press(key)
        await on_screen(pilot, FormScreen)
        for k, v in values.items():
            app.screen.query_one(f"#f-{k}", Input).value = v
        await pilot.press("ctrl+s")

    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("q")
        await on_screen(pilot, MatchesScreen)
        await pilot.press("n")
        await on_screen(pilot, MatchSetupScreen)
        setup_screen = app.screen
        await form("i", {"path": str(tmp_path / "missing.csv")})
        assert "No such file" in str(app.screen.query_one("#form-error").render())
        app.screen.query_one("#f-path", Input).value = str(csv_file)
        await pilot.press("ctrl+s")
        await on_screen(pilot, MatchSetupScreen)
        assert setup_screen.teams() == ["Орлы", "Совы"]
        await form("m", {"id": "cup final", "ia": "О", "ib": "С", "end": "points", "limit": "x"})
        assert "whole number" in str(app.screen.query_one("#form-error").render())
        app.screen.query_one("#f-limit", Input).value = "50"
        await pilot.press("ctrl+s")
        await on_screen(pilot, MatchSetupScreen)
        await form("o", {"cap": "90"})
        await on_screen(pilot, MatchSetupScreen)
        await pilot.press("f")
        await on_screen(pilot, FeintsScreen)
        await form("a", {"name": "Финт Ястреба", "situations": "steal", "min": "5", "max": "30"})
        assert "+15" in str(app.screen.query_one("#form-error").render())
        app.screen.query_one("#f-max", Input).value = "12"
        await pilot.press("ctrl+s")
        await on_screen(pilot, FeintsScreen)
        await pilot.press("ctrl+s")
        await on_screen(pilot, MatchSetupScreen)
        await form("enter", {"name": "Кэп Орлов", "matches": "7"})
        await on_screen(pilot, MatchSetupScreen)
        await pilot.press("ctrl+s")
        await on_screen(pilot, MessageScreen)
        await pilot.press("enter")
        await on_screen(pilot, RoundScreen)
        setup = app.screen.session.setup
    assert setup.match_id == "cup-final" and setup.end.kind == "points" and setup.end.limit == 50
    assert setup.settings.cap == 90 and setup.feints.get("Финт Ястреба").bonus_max == 12
    assert setup.player("a_chaser1").name == "Кэп Орлов" and setup.player("a_chaser1").matches == 7
    assert setup.player("b_seeker1").practices == 1 and setup.teams[1].short == "С"


async def test_no_matches_hint_is_whole_at_80x24_under_a_long_folder_path(tmp_path: Path):
    """The hint that says which key starts a match is on a line of its own: after the
    tournament's folder path it fell off an 80-column terminal («матчей пока»)."""
    from tests.screen_text import screen_text

    data = tmp_path / ("папка-площадки-" * 3) / "data"
    app = make_app(data, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
        await on_screen(pilot, MatchesScreen)
        hint = "матчей пока нет: нажмите n (или d для демо)"
        await wait_for(pilot, lambda: hint in screen_text(app), "the whole hint on screen")


def test_the_ring_is_typed_in_either_language_and_either_layout():
    """The shooter's private ring: l/m/r, 1/2/3, the word, or in Russian л/с/п; l, m, r
    typed with the Russian layout on (д, ь, к) are the keys in their place. Anything else
    is refused with the letters to type."""
    import pytest

    from fieldjudge.screens.quidditch.declare import parse_ring

    for typed, ring in [
        ("l", "left"), ("M", "middle"), ("3", "right"), ("middle", "middle"),
        ("л", "left"), ("С", "middle"), ("п", "right"),
        ("д", "left"), ("ь", "middle"), ("к", "right"),
    ]:  # fmt: skip
        assert parse_ring(typed) == ring, typed
    assert parse_ring("  ") is None
    with pytest.raises(ValueError, match="l, m or r"):
        parse_ring("x")
