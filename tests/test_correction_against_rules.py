"""Issue 20, defect 7: a correction of the total whose points contradict 30.01 for the
outcome it records (2 points for a counted flag hang) is written only once the head judge
confirms it («30.01 даёт 3 очка за водружение — записать 2?»), and the event records that
he did (31: the paper shows it with his reason)."""

from __future__ import annotations

import pytest
from results_fixtures import demo, finished_game

from fieldjudge.app import make_app
from fieldjudge.i18n import ru, rule_text
from fieldjudge.rules import protocol as pr
from fieldjudge.screens.dialogs.forms import ConfirmScreen, FormScreen
from fieldjudge.screens.results.protocol import ProtocolScreen
from fieldjudge.services.demo import DEMO_PASSPHRASE
from fieldjudge.services.paintball import results
from fieldjudge.services.paintball.protocol_doc import protocol_doc
from tests.test_game_helpers import wait_for


@pytest.fixture
def signed_hang(tmp_path):
    """A counted flag hang by team A (3 points by 30.01), signed by both captains."""
    t = demo(tmp_path / "data" / "cup")
    gid = finished_game(t, 4, "hang")
    a, b = results.game_view(t, gid).teams
    results.submit_protocol(t, gid, judge="Старший")
    results.sign(t, gid, a, "Иван")
    results.sign(t, gid, b, "Пётр")
    yield t, gid, a, b
    t.close()


def test_30_01_points_against_the_rule_are_named_in_russian(signed_hang):
    t, gid, a, b = signed_hang
    v = results.game_view(t, gid)
    assert v.result.outcome == "flag_hang" and dict(v.result.points) == {a: 3, b: 0}
    data = pr.correction_data(v.result, v.setup.settings.points, "ошибка", {a: 2})
    why = pr.points_against_rules(v.result, v.setup.settings.points, data)
    assert rule_text(why, v.names, "ru") == (
        f"{v.name(a)}: 30.01 даёт 3 очка за водружение — записать 2?"
    )
    # points of 30.01 for the outcome ruled: nothing to confirm
    held = pr.correction_data(v.result, v.setup.settings.points, "x", None, None, "flag_held", a)
    assert pr.points_against_rules(v.result, v.setup.settings.points, held) is None
    assert rule_text(pr.points_count(1), lang="ru") == "1 очко"
    assert rule_text(pr.points_count(5), lang="ru") == "5 очков"


def test_30_01_31_service_refuses_points_against_the_rule_until_confirmed(signed_hang):
    t, gid, a, b = signed_hang
    n = len(results.game_view(t, gid).events)
    with pytest.raises(results.AgainstRules) as refused:
        results.correct_total(t, gid, DEMO_PASSPHRASE, {a: 2}, "ошибка подсчёта")
    assert "30.01 даёт 3 очка за водружение — записать 2?" in rule_text(
        refused.value, results.game_view(t, gid).names, "ru"
    )
    assert len(results.game_view(t, gid).events) == n  # nothing written
    e = results.correct_total(
        t, gid, DEMO_PASSPHRASE, {a: 2}, "ошибка подсчёта", confirmed_against_rules=True
    )
    assert e.data["confirmed_against_rules"] is True
    v = results.game_view(t, gid)
    assert dict(v.result.points) == {a: 2, b: 0}
    (c,) = v.protocol.corrections
    assert c.against_rules
    (struck,) = protocol_doc(t, v, ru, "ru").struck
    assert struck.why.endswith("ошибка подсчёта (подтверждено вопреки 30.01)")
    # points as 30.01 gives them need no confirmation
    e = results.correct_total(t, gid, DEMO_PASSPHRASE, {a: 3}, "назад к 30.01")
    assert "confirmed_against_rules" not in e.data


async def test_30_01_protocol_screen_asks_the_head_judge_to_confirm(signed_hang):
    t, gid, a, _b = signed_hang
    folder = t.folder
    t.close()
    app = make_app(folder.parent, folder, lang="ru")
    async with app.run_test(size=(110, 40)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None)
        app.push_screen(ProtocolScreen(gid))
        await wait_for(pilot, lambda: isinstance(app.screen, ProtocolScreen))
        screen = app.screen

        async def correct_to_two() -> None:
            await pilot.press("c")
            await wait_for(pilot, lambda: isinstance(app.screen, FormScreen))
            for value in ("", "2", "", "ошибка", DEMO_PASSPHRASE):  # outcome kept: h1
                if value:
                    await pilot.press(*value)
                await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))

        def corrections():
            return results.game_view(app.tournament, gid).protocol.corrections

        await correct_to_two()
        question = app.screen.question
        assert "30.01 даёт 3 очка за водружение — записать 2?" in question
        await pilot.press("n")  # no: nothing recorded, and he is told so
        await wait_for(pilot, lambda: app.screen is screen)
        assert corrections() == []
        assert "Не записано" in str(screen.query_one("#protocol-message").render())
        await correct_to_two()
        await pilot.press("y")
        await wait_for(pilot, lambda: len(corrections()) == 1)
        assert corrections()[0].against_rules
        assert dict(results.game_view(app.tournament, gid).result.points)[a] == 2
