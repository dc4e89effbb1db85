"""One writer per game (results-integrity issue, item 4) and the chrono station (19): a
marker check never creates a game's file nor makes the chrono laptop the game's owner. Its
checks go into the chrono laptop's own signed log; the field laptop opens, starts and writes
the game and takes the checks into it."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest
from fakes import verify_folder
from results_fixtures import demo

from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball import model as m
from fieldjudge.services import open_tournament
from fieldjudge.services.paintball.game import GameSession
from fieldjudge.services.paintball.marker_check import MarkerCheckService
from fieldjudge.services.trust.head_judge import DEMO_PASSPHRASE
from fieldjudge.store import Refused


def unplayed_game(folder: Path) -> dict:
    t = open_tournament(folder, startup_backup=False)
    try:
        return next(g for g in reversed(t.games()) if not t.game_path(g["id"]).exists())
    finally:
        t.close()


def check_in(service: MarkerCheckService, team: str) -> None:
    """19.01: the team checks in at the chrono station 10 minutes before its start."""
    start = datetime.fromisoformat(service.t.game(service.game_id)["start"])
    service.checkin(team, start - timedelta(minutes=10), start, 3)


def chrono_laptop(folder: Path, config: Path):
    """Another laptop (its own key), registered by the head judge."""
    t = open_tournament(folder, startup_backup=False, config_dir=config)
    t.register_laptop(DEMO_PASSPHRASE)
    return t


def test_a_marker_check_creates_no_game_file_and_the_field_laptop_writes_the_game(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "cup"
    demo(folder).close()
    g = unplayed_game(folder)
    gid, team = g["id"], g["team_a"]
    start = datetime.fromisoformat(g["start"])
    chrono = chrono_laptop(folder, tmp_path / "cfg-chrono")
    try:
        game_file = chrono.game_path(gid)
        service = MarkerCheckService(chrono, gid, judge="Хронограф")
        _setup, state, _view = service.state()  # what the screen reads when it opens
        assert not game_file.exists()
        players = [p.number for p in state.team_players(team)]
        service.checkin(team, start - timedelta(minutes=10), start, 3)
        service.verdict(team, players[0], "not_admitted", note="19.05: 305 fps")
        service.verdict(team, players[1], "admitted")
        assert not game_file.exists()  # no game file: no owner made by the marker check
        mine = chrono.store.marker_log_path(chrono.keys.laptop_id, gid)
        assert mine.exists()
        _setup, state, view = service.state()
        assert state.checkins == {team: False}
        assert state.player(team, players[0]).marker_result == "not_admitted"
        assert [e.type for e in view.events] == [ev.CHECKIN, ev.MARKER_VERDICT, ev.MARKER_VERDICT]
        chrono_id = chrono.keys.laptop_id
    finally:
        chrono.close()

    field = open_tournament(folder, startup_backup=False)
    try:
        assert field.keys.laptop_id != chrono_id
        session = GameSession(field, gid, judge="Судья")  # the field laptop opens the game
        log = field.game_log(gid)
        assert log.owner == field.owner_id
        assert [(e.type, e.data["from_laptop"]) for e in log.events] == [
            (ev.CHECKIN, chrono_id),
            (ev.MARKER_VERDICT, chrono_id),
            (ev.MARKER_VERDICT, chrono_id),
        ]
        assert session.state.player(team, players[0]).status == m.NOT_ADMITTED  # 19.06
        assert session.state.checkins == {team: False}
        session.start_clock()
        assert [e.type for e in log.events][-1] == ev.CLOCK_START
        session.eliminate(team, players[1], "hit")
        assert len(log.events) == 5
        # reopening takes nothing twice
        assert GameSession(field, gid).log.events == log.events
    finally:
        field.close()
    faults = verify_folder(folder)
    assert faults[f"games/{gid}.json"] == []
    assert faults[f"laptops/{chrono_id}/marker_checks/{gid}.json"] == []

    # the chrono laptop sees the game (read-only) and never writes into it
    chrono = open_tournament(folder, startup_backup=False, config_dir=tmp_path / "cfg-chrono")
    try:
        before = chrono.game_path(gid).read_bytes()
        service = MarkerCheckService(chrono, gid)
        _setup, state, view = service.state()
        assert ev.CLOCK_START in [e.type for e in view.events]
        with pytest.raises(
            Refused, match=r"^19\.01: pre-game check-in, marker checks and the start happen before"
        ):  # the game has started (19)
            service.verdict(team, players[2], "admitted")
        assert chrono.game_path(gid).read_bytes() == before
    finally:
        chrono.close()


def test_the_laptop_that_owns_the_game_writes_its_checks_into_it(tmp_path: Path) -> None:
    folder = tmp_path / "cup"
    demo(folder).close()
    g = unplayed_game(folder)
    t = open_tournament(folder, startup_backup=False)
    try:
        GameSession(t, g["id"])  # this laptop opened the game: it owns it
        service = MarkerCheckService(t, g["id"])
        number = service.state()[1].team_players(g["team_a"])[0].number
        check_in(service, g["team_a"])  # 19.01: before its markers are checked
        service.verdict(g["team_a"], number, "admitted")
        assert [e.type for e in t.game_log(g["id"]).events] == [ev.CHECKIN, ev.MARKER_VERDICT]
        assert not t.store.marker_log_path(t.keys.laptop_id, g["id"]).exists()
    finally:
        t.close()


async def test_opening_the_marker_check_screen_creates_no_game_file(tmp_path: Path) -> None:
    from fieldjudge.app import make_app
    from fieldjudge.screens.chrono.marker_check import MarkerCheckScreen
    from tests.test_game_helpers import wait_for

    folder = tmp_path / "data" / "cup"
    demo(folder).close()
    g = unplayed_game(folder)
    app = make_app(folder.parent, folder, lang="en")
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for(pilot, lambda: app.tournament is not None, "the tournament")
        t = app.tournament
        table = app.screen.query_one("#games")
        table.focus()
        for _ in range(t.games().index(g)):
            await pilot.press("down")
        await pilot.press("k")
        await wait_for(pilot, lambda: isinstance(app.screen, MarkerCheckScreen), "the check")
        await pilot.press("i")  # the highlighted player's team checks in
        await wait_for(pilot, lambda: app.screen.state.checkins, "the check-in")
        assert not t.game_path(g["id"]).exists()
        assert t.store.marker_log_path(t.keys.laptop_id, g["id"]).exists()


def test_marker_checks_of_another_folder_arrive_by_merge_and_a_forged_one_does_not(
    tmp_path: Path,
) -> None:
    import shutil

    import orjson

    from fieldjudge.rules.events import compute_hash
    from fieldjudge.services.sync.merge import merge_into
    from fieldjudge.store import bundle

    field_folder = tmp_path / "field" / "cup"
    demo(field_folder).close()
    g = unplayed_game(field_folder)
    gid, team = g["id"], g["team_a"]
    chrono_folder = tmp_path / "chrono" / "cup"
    shutil.copytree(field_folder, chrono_folder, ignore=shutil.ignore_patterns(".cache"))
    chrono = chrono_laptop(chrono_folder, tmp_path / "cfg-chrono")
    try:
        service = MarkerCheckService(chrono, gid)
        number = service.state()[1].team_players(team)[0].number
        check_in(service, team)
        service.verdict(team, number, "not_admitted")
        rel = chrono.store.marker_log_path(chrono.keys.laptop_id, gid).relative_to(chrono_folder)
    finally:
        chrono.close()
    forged = tmp_path / "forged" / "cup"
    shutil.copytree(chrono_folder, forged)
    doc = bundle.read_log_file(forged / rel)
    checkin, verdict = doc["events"]  # 19.01: the team checked in, then the verdict
    ev1 = dict(verdict, data={**verdict["data"], "result": "admitted"})
    ev1["hash"] = compute_hash(ev1)
    (forged / rel).write_bytes(orjson.dumps(bundle.doc_to_log({**doc, "events": [checkin, ev1]})))

    field = open_tournament(field_folder, startup_backup=False)
    try:
        report = merge_into(field, forged)
        errs = [e for e in report.errors if e.startswith(rel.as_posix())]
        assert len(errs) == 1
        assert errs[0].startswith(
            f"{rel.as_posix()}: not merged: event #2 (marker_verdict): the signature of laptop"
        )
        assert errs[0].endswith("does not match the event (edited?)")
        assert not (field_folder / rel).exists()
        report = merge_into(field, chrono_folder)
        assert report.errors == [] and (field_folder / rel).exists()
        assert not field.game_path(gid).exists()  # the merge makes no game file either
        session = GameSession(field, gid)
        assert session.state.player(team, number).marker_result == "not_admitted"
        assert [e.type for e in session.events] == [ev.CHECKIN, ev.MARKER_VERDICT]
    finally:
        field.close()
    assert verify_folder(field_folder)[rel.as_posix()] == []


def test_a_damaged_marker_check_log_never_stops_the_game(tmp_path: Path) -> None:
    folder = tmp_path / "cup"
    demo(folder).close()
    g = unplayed_game(folder)
    chrono = chrono_laptop(folder, tmp_path / "cfg-chrono")
    try:
        service = MarkerCheckService(chrono, g["id"])
        number = service.state()[1].team_players(g["team_a"])[0].number
        check_in(service, g["team_a"])
        service.verdict(g["team_a"], number, "admitted")
        path = chrono.store.marker_log_path(chrono.keys.laptop_id, g["id"])
    finally:
        chrono.close()
    path.write_bytes(b"{not json")
    field = open_tournament(folder, startup_backup=False)
    try:
        session = GameSession(field, g["id"])
        assert session.events == []
        session.start_clock()
        assert [e.type for e in session.events] == [ev.CLOCK_START]
    finally:
        field.close()
    rel = path.relative_to(folder).as_posix()
    assert verify_folder(folder)[rel] != []
    assert path.read_bytes() == b"{not json"  # never rewritten
