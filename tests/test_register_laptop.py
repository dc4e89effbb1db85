"""A venue without Syncthing: the laptops share the tournament on a USB stick. A field
laptop's games count only once the head judge has registered it; he does it on that laptop
with his secret, by `fieldjudge register-laptop` or key R on its home screen, after or
before its games were played. Before, `merge` refuses its games and says how to register it;
after, they merge and `verify` finds every file as its laptop signed it."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner
from fakes import FakeClock

from fieldjudge.app import make_app
from fieldjudge.cli import main
from fieldjudge.export import bundle
from fieldjudge.i18n import set_language
from fieldjudge.screens.dialogs.forms import FormScreen
from fieldjudge.screens.home import HomeScreen
from fieldjudge.screens.widgets.faults import fault_text
from fieldjudge.services import Refused, open_tournament
from fieldjudge.services.paintball.game import GameSession
from fieldjudge.services.pitview import PitView
from fieldjudge.services.trust.head_judge import DEMO_PASSPHRASE
from fieldjudge.store.anchors import read_laptop_file
from tests.screen_text import screen_text
from tests.test_game_helpers import type_text, wait_for


@pytest.fixture
def venue(demo_folder: Path, tmp_path: Path) -> tuple[Path, Path, Path]:
    """(the head judge's folder, a field laptop's copy from the stick, its config folder:
    its own key, never registered)."""
    field = tmp_path / "field" / "demo"
    shutil.copytree(demo_folder, field, ignore=shutil.ignore_patterns(".cache"))
    return demo_folder, field, tmp_path / "field-config"


def play_on_field_laptop(field: Path, config: Path, start: bool = True) -> tuple[str, str]:
    """The field judge checks both teams of an unplayed game in on his laptop (registered
    or not) and, with ``start``, starts its clock: (its id, the laptop's id)."""
    tf = open_tournament(field, startup_backup=False, config_dir=config)
    try:
        gid = next(g["id"] for g in tf.games() if not tf.game_path(g["id"]).exists())
        s = GameSession(tf, gid, clock=FakeClock(datetime(2026, 6, 1, 14, tzinfo=UTC)))
        for team in s.teams:
            s.append("checkin", {"team": team, "late": False})
        if start:
            s.append("clock_start", {})
        return gid, tf.keys.laptop_id
    finally:
        tf.close()


def cli(args: list[str], config: Path | None = None, secret: str = ""):
    env = {"FIELDJUDGE_CONFIG": str(config)} if config else {}
    return CliRunner().invoke(main, args, input=secret + "\n" if secret else None, env=env)


def test_a_usb_stick_day_counts_the_field_laptops_game_once_registered(venue) -> None:
    head, field, config = venue
    gid, fid = play_on_field_laptop(field, config)  # played before anyone registered it
    # the stick to the head judge's laptop: refused, and he is told what to do
    out = cli(["merge", str(field), "--into", str(head)]).output
    assert f"laptops/{fid}: not merged:" in out
    assert "fieldjudge register-laptop" in out and "key R" in out
    assert f"games/{gid}: not merged:" in out
    assert not (head / "games" / f"{gid}.json").exists()
    # the same report in Russian, as the head judge reads it: no English word left
    ru = cli(["--lang", "ru", "merge", str(field), "--into", str(head)]).output
    assert f"ошибка: laptops/{fid}: не принят: ноутбук" in ru
    assert "не зарегистрирован главным судьёй (и его игры тоже)" in ru
    assert f"ошибка: games/{gid}: не принят: событие №1" in ru
    assert ru.startswith("слияние из demo\nновых журналов игр: 0")
    assert not any(w in ru for w in ("merged", "error", "event #", "checkin")), ru
    # verify on the field laptop: its game is a fault, and what to do is said
    checked = cli(["--lang", "ru", "verify", str(field)], config)
    assert checked.exit_code == 1
    assert f"ОШИБКА games/{gid}.json" in checked.output
    assert "1 файл с ошибками ждёт только регистрации своего ноутбука" in checked.output
    # on the field laptop: a wrong secret registers nothing
    wrong = cli(["register-laptop", str(field)], config, secret="не тот секрет")
    assert wrong.exit_code == 1
    assert "Wrong head judge's secret" in wrong.output and "Traceback" not in wrong.output
    assert "hj_sig" not in (read_laptop_file(field, fid) or {})
    # his secret: registered, under the name he gives it
    done = cli(["register-laptop", str(field), "--laptop-name", "Поле 2"], config, DEMO_PASSPHRASE)
    assert done.exit_code == 0, done.output
    assert "Поле 2" in done.output and "registered by the head judge" in done.output
    assert (read_laptop_file(field, fid) or {}).get("hj_sig")
    again = cli(["register-laptop", str(field)], config)  # nothing asked the second time
    assert again.exit_code == 0 and "already registered" in again.output
    # the stick again: the game and the laptop come in, and every file holds
    out = cli(["merge", str(field), "--into", str(head)]).output
    assert "error" not in out, out
    assert 'laptop registered from the source: laptop "Поле 2"' in out
    checked = cli(["verify", str(head)])
    assert checked.exit_code == 0, checked.output
    assert f"ok    games/{gid}.json" in checked.output and '"Поле 2"' in checked.output
    t = open_tournament(head, startup_backup=False)
    try:
        assert t.game_faults(gid) == []
        assert not t.laptop_unregistered()  # the head judge's own laptop
    finally:
        t.close()


def test_register_laptop_names_a_folder_that_is_no_tournament(tmp_path: Path) -> None:
    out = cli(["register-laptop", str(tmp_path)])
    assert out.exit_code == 1
    assert "holds no tournament" in out.output and "Traceback" not in out.output


async def test_the_field_laptops_home_says_it_is_unregistered_until_r_and_his_secret(
    venue, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In Russian, as the judges read it: the warning under the games, R, a wrong secret
    refused in the form, his secret: the warning gone and the registration signed."""
    _head, field, config = venue
    # his game so far (not started: a running one is offered to resume over the list)
    play_on_field_laptop(field, config, start=False)
    monkeypatch.setenv("FIELDJUDGE_CONFIG", str(config))
    app = make_app(field.parent, field, lang="ru", judge="Судья поля")
    async with app.run_test(size=(100, 32)) as pilot:
        line = lambda: app.screen.query_one("#laptop-line")  # noqa: E731
        await wait_for(
            pilot, lambda: isinstance(app.screen, HomeScreen) and line().display, "the warning"
        )
        said = "не зарегистрирован главным судьёй"  # painted a frame after it is shown
        await wait_for(pilot, lambda: said in screen_text(app), "the warning painted")
        # the row says what kind of fault in a word that fits (the line under the games
        # says it whole for the highlighted game, as the game's screen does); painted, its
        # label (under load the table was once seen drawing the widened column at its old
        # width for a while)
        games = app.screen.query_one("#games")
        await wait_for(
            pilot,
            lambda: "НЕ ЗАСЧИТАНА" in [str(c) for c in games.get_column(app.screen._state_column)],
            "the row not counted",
        )
        await wait_for(pilot, lambda: "Тигры      НЕ ЗАСЧИТАНА" in screen_text(app))
        assert "ПОВРЕЖДЕНО" not in screen_text(app)
        assert "R" in str(line().render())
        await pilot.press("R")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "the secret asked")
        assert app.screen.form_title.startswith("Зарегистрировать этот ноутбук в турнире")
        name = app.tournament.keys.name
        # the name he gives it (the one it has, written over), then a wrong secret
        await pilot.press(*["backspace"] * len(name))
        await type_text(pilot, "Поле 2")
        await pilot.press("enter")
        await type_text(pilot, "не тот секрет")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen) and app.screen.note)
        assert "неверный секрет главного судьи" in app.screen.note.lower()
        assert app.tournament.laptop_unregistered()
        assert app.tournament.keys.name == name  # a wrong secret renames nothing
        await pilot.press("enter")  # the name kept, to the secret
        await type_text(pilot, DEMO_PASSPHRASE)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "home again")
        await wait_for(pilot, lambda: not line().display, "the warning gone")
        row = "Медведи    Тигры      готова "  # its state once counted
        await wait_for(pilot, lambda: row in screen_text(app), "counted")
        assert "НЕ ЗАСЧИТАНА" not in screen_text(app)
        assert not app.tournament.laptop_unregistered()
        lid = app.tournament.keys.laptop_id
        doc = read_laptop_file(field, lid) or {}
        assert doc.get("hj_sig") and doc.get("name") == "Поле 2"
        await pilot.press("R")  # nothing more to do: said so, nothing asked
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


def hashes(path: Path) -> list[str]:
    return [e["hash"] for e in bundle.read_log_file(path)["events"]]


def pit_game(folder: Path, gid: str) -> dict:
    live = PitView(folder).live()
    while live["pending"]:
        live = PitView(folder).live()
    return next(g for g in live["games"] if g["id"] == gid)


def state_of(folder: Path, gid: str, config: Path | None = None) -> str:
    """The game's state cell on the home screen of the laptop of ``config``, in English."""
    t = open_tournament(folder, startup_backup=False, config_dir=config)
    try:
        summary = t.game_summary(gid)
        return fault_text(summary["fault"]) if summary["phase"] == "damaged" else summary["phase"]
    finally:
        t.close()


def test_a_game_waiting_for_its_laptops_registration_is_not_counted_never_damaged(venue):
    """The field judge's own game before the head judge registered his laptop, and the same
    game on the head judge's laptop when it arrives before the laptop's registration (as
    Syncthing may bring them): «НЕ ЗАСЧИТАНА», not «ПОВРЕЖДЕНО». A registration that is
    there but whose signature is forged is damage, and says so."""
    head, field, config = venue
    gid, fid = play_on_field_laptop(field, config)
    assert state_of(field, gid, config) == "NOT COUNTED: its laptop is not registered"
    set_language("ru")
    try:
        said = state_of(field, gid, config)
        assert said == "НЕ ЗАСЧИТАНА: ноутбук не зарегистрирован"
    finally:
        set_language("en")
    # the game file reaches the head judge's laptop before the laptop's folder
    shutil.copy(field / "games" / f"{gid}.json", head / "games" / f"{gid}.json")
    assert state_of(head, gid) == "NOT COUNTED: its laptop is not registered"
    card = pit_game(head, gid)
    assert card["damaged"] and card["unregistered"] is True
    # then its registration, signed by no head judge (a hand-made one): damage
    shutil.copytree(field / "laptops" / fid, head / "laptops" / fid)
    doc = orjson.loads((head / "laptops" / fid / "laptop.json").read_bytes())
    doc["hj_sig"] = doc.get("hj_sig") or "A" * 88
    (head / "laptops" / fid / "laptop.json").write_bytes(orjson.dumps(doc))
    forged = state_of(head, gid)
    assert forged.startswith("DAMAGED / UNSIGNED: "), forged
    card = pit_game(head, gid)
    assert card["damaged"] and card["unregistered"] is False
    # registered by the head judge on the field laptop: counted there and, once it has
    # arrived, here
    assert cli(["register-laptop", str(field)], config, DEMO_PASSPHRASE).exit_code == 0
    assert state_of(field, gid, config) == "running"
    shutil.copy(field / "laptops" / fid / "laptop.json", head / "laptops" / fid / "laptop.json")
    assert state_of(head, gid) == "running"
    assert pit_game(head, gid)["damaged"] == ""


def test_the_head_judges_stick_brings_his_games_to_a_field_laptop(venue) -> None:
    """The other way: the head judge's folder merged on a field laptop. His games come in;
    a game he added to the schedule is not written into this laptop's tournament.json
    (only his laptop changes it) and the report says so; nothing else is refused."""
    head, field, config = venue
    assert cli(["register-laptop", str(field)], config, DEMO_PASSPHRASE).exit_code == 0
    t = open_tournament(head, startup_backup=False)
    try:
        gid = next(g["id"] for g in t.games() if not t.game_path(g["id"]).exists())
        s = GameSession(t, gid, clock=FakeClock(datetime(2026, 6, 1, 14, tzinfo=UTC)))
        for team in s.teams:
            s.append("checkin", {"team": team, "late": False})
    finally:
        t.close()
    out = cli(["merge", str(head), "--into", str(field)], config)
    assert out.exit_code == 0 and "error" not in out.output, out.output
    assert "1 new game logs" in out.output
    assert hashes(field / "games" / f"{gid}.json") == hashes(t.game_path(gid))
    # a game added on his laptop afterwards: not taken here, said so, the rest merged
    t = open_tournament(head, startup_backup=False)
    try:
        a, b = (x["id"] for x in t.teams()[:2])
        t.add_games(
            [{"field": "9", "start": datetime(2026, 6, 1, 18, 0), "team_a": a, "team_b": b}]
        )
        t.sign_tournament(DEMO_PASSPHRASE)  # as his app signs each change once unlocked
        s = GameSession(t, gid, clock=FakeClock(datetime(2026, 6, 1, 14, 1, tzinfo=UTC)))
        s.append("clock_start", {})
    finally:
        t.close()
    out = cli(["merge", str(head), "--into", str(field)], config)
    assert "error: tournament.json: 1 new rows of demo not taken here: only the head" in out.output
    assert "copy his tournament.json and tournament.sig onto this laptop" in out.output
    assert "1 extended" in out.output  # his game's new event came in all the same
    assert hashes(field / "games" / f"{gid}.json") == hashes(t.game_path(gid))
    assert cli(["verify", str(field)], config).exit_code == 0
    # as the report says: his two files copied over, and the new game is scheduled here
    for name in ("tournament.json", "tournament.sig"):
        shutil.copy(head / name, field / name)
    assert cli(["verify", str(field)], config).exit_code == 0
    t = open_tournament(field, startup_backup=False, config_dir=config)
    try:
        assert [g["field"] for g in t.games()].count("9") == 1
    finally:
        t.close()


def test_a_laptop_name_that_cannot_be_one_is_refused_in_russian(venue) -> None:
    _head, field, config = venue
    out = cli(
        ["--lang", "ru", "register-laptop", str(field), "--laptop-name", "П" * 41],
        config,
        DEMO_PASSPHRASE,
    )
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert "имя ноутбука 'ППППП" in out.output and "длиннее 40 символов" in out.output
    t = open_tournament(field, startup_backup=False, config_dir=config)
    try:
        assert t.laptop_unregistered()  # refused before the secret: nothing signed
    finally:
        t.close()


async def test_the_registration_form_refuses_a_name_by_the_services_check(
    venue, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The form's check is the service's (one check of a laptop's name), said in Russian
    before the secret is tried."""
    _head, field, config = venue
    monkeypatch.setenv("FIELDJUDGE_CONFIG", str(config))
    app = make_app(field.parent, field, lang="ru", judge="Судья поля")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.tournament)
        await pilot.press("R")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "the form")
        await pilot.press(*["backspace"] * len(app.tournament.keys.name))
        await type_text(pilot, "П" * 41)
        await pilot.press("enter")
        await type_text(pilot, DEMO_PASSPHRASE)
        await pilot.press("enter")
        said = "имя ноутбука 'ПППП"  # the service's words, in the form's error line
        await wait_for(pilot, lambda: said in screen_text(app), "the name refused")
        assert isinstance(app.screen, FormScreen)
        assert app.tournament.laptop_unregistered()


async def test_the_head_judge_signs_a_team_added_without_his_secret_in_the_app(
    demo_folder: Path,
) -> None:
    """A team added on the head judge's laptop in a session where he has not typed his
    secret leaves tournament.json unsigned: every team flagged and the fault under the
    games, which now says T signs it. T, a wrong secret (refused in the form), his secret:
    the fault is gone and the names are shown as signed."""
    app = make_app(demo_folder.parent, demo_folder, lang="ru")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.tournament)
        app.tournament.add_team("Вепри")
        app.screen._check_tournament()
        fault = lambda: str(app.screen.query_one("#fault-line").render())  # noqa: E731
        await wait_for(pilot, lambda: "T: главный судья подписывает как есть" in fault())
        assert "tournament.json: изменён после подписи главного судьи" in fault()
        await pilot.press("T")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen), "his secret asked")
        assert app.screen.form_title.startswith("Подписать команды и расписание")
        await type_text(pilot, "не тот секрет")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen) and app.screen.note)
        assert "неверный секрет главного судьи" in app.screen.note.lower()
        assert app.tournament.tournament_faults()  # still unsigned
        await type_text(pilot, DEMO_PASSPHRASE)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen), "home again")
        await wait_for(pilot, lambda: not app.screen.query_one("#fault-line").display)
        assert app.tournament.tournament_faults() == []
        await wait_for(pilot, lambda: "⚠" not in screen_text(app), "the names as signed")
        await pilot.press("T")  # nothing left to sign: said, no form
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


def test_a_field_laptop_does_not_sign_the_tournament(venue) -> None:
    """Only the laptop that writes tournament.json signs it (a field laptop's
    tournament.sig would be a Syncthing conflict with the head judge's)."""
    _head, field, config = venue
    t = open_tournament(field, startup_backup=False, config_dir=config)
    try:
        before = (field / "tournament.sig").read_bytes()
        with pytest.raises(Refused) as refused:
            t.sign_tournament(DEMO_PASSPHRASE)
        assert "only on the head judge's laptop" in str(refused.value)
        assert (field / "tournament.sig").read_bytes() == before
    finally:
        t.close()
