"""Issue 20, defect 5: the judge's name is kept per laptop (31: the protocol records who did
each step). Two runs of the app on the same config folder: the name asked at the first
event of the first run goes with every event of the second."""

from __future__ import annotations

from pathlib import Path

from fieldjudge.i18n import ru
from fieldjudge.services.laptop import LaptopSettings
from fieldjudge.services.paintball import results
from fieldjudge.services.paintball.protocol_doc import protocol_doc
from tests.results_fixtures import demo, finished_game
from tests.test_game_helpers import game_id, game_screen, keys, type_text, wait_for


async def test_31_judge_asked_at_the_first_event_and_kept_across_a_restart(demo_folder: Path):
    gid = game_id(demo_folder)
    async with game_screen(demo_folder, gid, lang="ru", judge="") as (app, pilot, screen):
        assert app.judge == ""
        await keys(pilot, "space")  # the first event: the name is asked before it
        assert screen.prompt.active and screen.session.events == []
        await pilot.press("enter")  # a blank name is refused with a message
        assert "Введите имя" in str(screen.query_one("#prompt-error").render())
        await type_text(pilot, "Сидоров")
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(screen.session.events) == 1, "the clock start")
        assert screen.session.events[0].type == "clock_start"
        assert screen.session.events[0].judge == "Сидоров"
        assert "Сидоров" in app.sub_title
    assert LaptopSettings.load().judge == "Сидоров"  # the laptop's config folder
    # the second run: no --judge, the same config folder
    async with game_screen(demo_folder, gid, lang="ru", judge="") as (app, pilot, screen):
        assert app.judge == "Сидоров"
        await keys(pilot, "t")  # Time!: recorded at once, no name asked
        await wait_for(pilot, lambda: len(screen.session.events) == 2, "Time!")
        assert not screen.prompt.active
        assert [e.judge for e in screen.session.events] == ["Сидоров", "Сидоров"]


async def test_31_judge_flag_is_remembered_on_the_laptop(demo_folder: Path):
    gid = game_id(demo_folder)
    async with game_screen(demo_folder, gid, judge="Орлов") as (app, _pilot, _screen):
        assert app.judge == "Орлов"
    assert LaptopSettings.load().judge == "Орлов"
    async with game_screen(demo_folder, gid, judge="") as (app, pilot, screen):
        await keys(pilot, "space")
        await wait_for(pilot, lambda: len(screen.session.events) == 1, "the clock start")
        assert screen.session.events[0].judge == "Орлов"


def test_31_every_protocol_step_names_who_recorded_it(tmp_path: Path):
    """The submission names its own judge (never an earlier one); each signature and
    refusal names the judge who recorded it."""
    t = demo(tmp_path / "cup")
    try:
        gid = finished_game(t, 4, "hang")
        a, b = results.game_view(t, gid).teams
        results.submit_protocol(t, gid, judge="Петров")
        results.sign(t, gid, a, "Иван Капитанов", judge="Петров")
        results.refuse(t, gid, b, "не согласен", captain="Пётр", judge="Сидоров")
        doc = protocol_doc(t, results.game_view(t, gid), ru, "ru")
        assert doc.submitted.startswith("Заполнен старшим судьёй: Петров,")
        statuses = [s.status for s in doc.signatures]
        assert statuses[0].endswith("записал Петров")
        assert statuses[1].endswith("записал Сидоров")
        assert doc.signatures[2].name == "Петров"
    finally:
        t.close()


def test_31_a_submission_without_a_name_does_not_borrow_an_earlier_one(tmp_path: Path):
    t = demo(tmp_path / "cup")
    try:
        gid = finished_game(t, 4, "hang")  # its events carry the demo's senior judge
        assert any(e.judge for e in results.game_view(t, gid).events)
        results.submit_protocol(t, gid, judge="")
        doc = protocol_doc(t, results.game_view(t, gid), ru, "ru")
        assert doc.submitted.startswith("Заполнен старшим судьёй: —,")
    finally:
        t.close()
