"""Services of issue 20's line-up (30.01) and of one live game per field and per team:
GameSession's line-up intents and start refusal, the marker check's line-up taken into the
game by its owner, ``N``'s choice and the running game offered after a restart."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from fakes import FakeClock

from fieldjudge.export.html import protocol_html
from fieldjudge.services.paintball import live, results
from fieldjudge.services.paintball.game import GameSession
from fieldjudge.services.paintball.lineup import previous_lineup
from fieldjudge.services.paintball.marker_check import MarkerCheckService
from fieldjudge.store import Refused

T0 = datetime(2026, 6, 1, 8, 40, tzinfo=UTC)


def by_teams(t, a: str, b: str) -> str:
    ids = {v: k for k, v in t.team_names().items()}
    return next(g["id"] for g in t.games() if (g["team_a"], g["team_b"]) == (ids[a], ids[b]))


def add_substitute(t, team_name: str) -> tuple[str, int]:
    team = {v: k for k, v in t.team_names().items()}[team_name]
    number = max(int(p["number"]) for p in t.players(team)) + 1
    t.add_player(team, number, "Запасной")
    return team, number


def test_30_01_six_player_roster_needs_a_line_up_and_the_sixth_sits_out(tournament):
    t = tournament
    team, sub = add_substitute(t, "Медведи")
    gid = by_teams(t, "Медведи", "Тигры")
    s = GameSession(t, gid, clock=FakeClock(T0), judge="J")
    assert s.lineup_needed() == team
    with pytest.raises(Refused, match="30.01"):
        s.start_clock()
    choice = s.lineup_choice(team)
    assert len(choice.selected) == 5 and sub not in choice.selected and not choice.recorded
    with pytest.raises(Refused, match="at most 5 play"):
        s.set_lineup(team, [p.number for p in choice.roster])
    s.set_lineup(team, list(choice.selected))
    assert s.lineup_needed() is None
    s.start_clock()
    with pytest.raises(Refused, match="line-up"):
        s.eliminate(team, sub)
    assert s.state.alive(team) == 5


def test_30_01_default_line_up_is_the_previous_game_s(tournament):
    t = tournament
    team, sub = add_substitute(t, "Медведи")
    first = GameSession(t, by_teams(t, "Медведи", "Тигры"), clock=FakeClock(T0))
    picked = [p.number for p in first.lineup_choice(team).roster][1:]  # #1 sits out
    first.set_lineup(team, picked)
    later = by_teams(t, "Медведи", "Ястребы")
    assert previous_lineup(t, later, team) == tuple(picked)
    s = GameSession(t, later, clock=FakeClock(T0))
    assert s.lineup_choice(team).selected == tuple(picked)


def test_30_01_line_up_at_check_in_on_a_laptop_not_owning_the_game_is_taken_in(tournament):
    """The chrono laptop's line-up goes to its own marker-check log; the game's owner
    takes it into the game when it opens it (like check-ins and verdicts)."""
    t = tournament
    team, sub = add_substitute(t, "Медведи")
    gid = by_teams(t, "Медведи", "Тигры")
    mc = MarkerCheckService(t, gid, judge="chrono")
    numbers = [n for n in mc.lineup_choice(team).selected][:4] + [sub]
    mc.lineup(team, numbers)
    assert not t.game_path(gid).exists()  # nothing written into the game by the check-in
    s = GameSession(t, gid, clock=FakeClock(T0))
    assert s.state.lineups[team] == tuple(numbers)
    assert any(e.type == "lineup" and e.data.get("from_event") for e in s.events)


def test_one_live_game_per_field_and_per_team_refusal_names_the_game(tournament):
    t = tournament
    names = t.team_names()
    clock = FakeClock(T0)
    g4 = by_teams(t, "Медведи", "Тигры")  # field 1, 10:40, row 5
    s4 = GameSession(t, g4, clock=clock)
    s4.start_clock()
    same_field = GameSession(t, by_teams(t, "Волки", "Барсы"), clock=clock)
    why = same_field.start_refusal()
    assert why == "Cannot start: game «Медведи — Тигры» (№5) is in play on field 1"
    with pytest.raises(Refused, match="№5"):
        same_field.start_clock()
    with pytest.raises(Refused, match="№5"):  # the generic append is held to it too
        same_field.append("clock_start")
    shared_team = GameSession(t, by_teams(t, "Тигры", "Барсы"), clock=clock)  # field 2
    assert shared_team.start_refusal() == why
    free = GameSession(t, by_teams(t, "Драконы", "Ястребы"), clock=clock)  # field 2
    assert free.start_refusal() is None
    s4.stop_time()  # "Время!": still live
    assert same_field.start_refusal() == why
    s4.end_by_judge("rain")
    assert same_field.start_refusal() is None
    assert names  # the teams are named by their display names above


def test_n_goes_to_the_unfinished_game_first_then_the_next(tournament):
    t = tournament
    clock = FakeClock(T0)
    g4 = by_teams(t, "Медведи", "Тигры")
    g6 = by_teams(t, "Волки", "Барсы")
    assert live.next_game(t, "1") == g4
    s4 = GameSession(t, g4, clock=clock)
    s4.start_clock()
    assert live.next_game(t, "1") == g4
    s4.stop_time()  # a crash here left it at "Время!": it is still the field's game
    assert live.next_game(t, "1") == g4
    assert live.running_game_of_laptop(t) == g4
    s4.end_by_judge("rain")
    for p in list(s4.state.to_inspect()):
        s4.inspect(p.team, p.number, "clean")
    assert live.next_game(t, "1") == g6
    assert live.running_game_of_laptop(t) is None


def test_the_game_offered_after_a_restart_is_found_without_opening_a_log(tournament, monkeypatch):
    """After a restart the app offers this laptop's live game once the home screen's
    summaries are current: each summary names its file's owner, so no log is opened (a
    head judge's laptop holds every field's live games, each a whole log to read); a
    summary that names none (an export's) still has the log say."""
    t = tournament
    g4 = by_teams(t, "Медведи", "Тигры")
    GameSession(t, g4, clock=FakeClock(T0)).start_clock()
    for g in t.games():  # the home screen's pass
        t.game_summary(g["id"])
    opened: list[str] = []
    game_log = t.game_log

    def opening(game_id: str, create: bool = False):
        opened.append(game_id)
        return game_log(game_id, create=create)

    monkeypatch.setattr(t, "game_log", opening)
    assert live.running_game_of_laptop(t) == g4 and opened == []
    cached = t.cached_game_summary
    monkeypatch.setattr(
        t,
        "cached_game_summary",
        lambda gid: {k: v for k, v in (cached(gid) or {}).items() if k != "owner"},
    )
    assert live.running_game_of_laptop(t) == g4 and opened == [g4]


def test_30_01_protocol_shows_the_line_up_and_a_team_playing_with_fewer(tournament):
    t = tournament
    team, sub = add_substitute(t, "Медведи")
    gid = by_teams(t, "Медведи", "Тигры")
    s = GameSession(t, gid, clock=FakeClock(T0))
    four = [p.number for p in s.setup.rosters[team]][2:]  # #99 plays, two sit out
    s.set_lineup(team, four)
    s.start_clock()
    s.end_by_judge("rain")
    html = protocol_html(t, results.game_view(t, gid), "ru")
    played = ", ".join(f"#{n}" for n in four)
    assert f"Состав на игру (30.01): Медведи: {played} (4 из 5) · Тигры:" in html
    assert "(5 из 5)" in html


def test_30_01_a_substitute_added_after_a_game_is_not_in_its_roster(demo_folder):
    """A player added to a team that has played (a substitute arriving later in the day)
    joins the roster of its games still to come only: the game it played keeps the roster
    it was started with. Folded with six players and no line-up, its start had become
    illegal (30.01) and every later event with it: ``verify`` failed the signed game and
    its result could change."""
    from fakes import verify_folder

    from fieldjudge.services import open_tournament

    t = open_tournament(demo_folder)
    try:
        played = by_teams(t, "Соколы", "Ястребы")  # 10:20, locked in the demo
        before = results.game_view(t, played)
        assert verify_folder(demo_folder)[f"games/{played}.json"] == []
        team, sub = add_substitute(t, "Ястребы")
        assert t.players(team)[-1].get("joined_after") == [played]
        after = results.game_view(t, played)
        assert not after.state.rejected
        assert (after.result.points, after.result.survivors) == (
            before.result.points,
            before.result.survivors,
        )
        assert sub not in {p.number for p in after.state.team_players(team)}
        assert verify_folder(demo_folder)[f"games/{played}.json"] == []
        # the game still to come has him: the line-up is chosen before its start
        later = GameSession(t, by_teams(t, "Драконы", "Ястребы"), clock=FakeClock(T0))
        assert sub in {p.number for p in later.lineup_choice(team).roster}
        assert later.lineup_needed() == team
    finally:
        t.close()


def test_30_01_a_player_added_during_a_game_does_not_join_it(tournament):
    t = tournament
    gid = by_teams(t, "Медведи", "Тигры")
    s = GameSession(t, gid, clock=FakeClock(T0), judge="J")
    s.start_clock()
    team, sub = add_substitute(t, "Медведи")
    again = GameSession(t, gid, clock=FakeClock(T0), judge="J")
    assert sub not in {p.number for p in again.state.team_players(team)}
    assert not again.state.rejected and again.state.alive(team) == 5
    with pytest.raises(Refused):
        again.eliminate(team, sub)


def test_30_01_a_roster_imported_after_a_game_joins_only_the_games_to_come(tournament):
    from fieldjudge.csv_import import RosterRow

    t = tournament
    played = by_teams(t, "Соколы", "Ястребы")
    t.import_roster([RosterRow(2, "Ястребы", 98, "Поздний Игрок", False)])
    team = {v: k for k, v in t.team_names().items()}["Ястребы"]
    (late,) = [p for p in t.players(team) if p["number"] == 98]
    assert late["joined_after"] == [played]
    assert 98 not in {p.number for p in results.game_view(t, played).state.team_players(team)}


def test_30_01_verify_names_the_team_of_a_roster_edited_by_hand(demo_folder):
    """A sixth player written into a team's roster by hand, after it played (no record of
    the games he joined after): ``verify`` fails the tournament file and the game whose
    start it makes illegal, naming the team as the app does («Ястребы», not its id)."""
    import json

    from click.testing import CliRunner

    from fieldjudge.commands.results import results_main

    path = demo_folder / "tournament.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    team = next(k for k, v in data["teams"].items() if v["name"] == "Ястребы")
    team_id = data["teams"][team]["id"]
    data["players"]["999"] = {"team_id": team_id, "number": 99, "name": "Вписан", "captain": False}
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    res = CliRunner().invoke(results_main, ["verify", "--lang", "ru", str(demo_folder)])
    assert res.exit_code == 1
    assert "30.01: в заявке «Ястребы» 6 игроков" in res.output, res.output
    assert f"«{team_id}»" not in res.output


def test_30_01_a_late_substitute_typed_wrong_is_put_right_until_he_could_play(tournament):
    """A substitute added after his team played is on no roster of a game with events yet:
    his number or name typed wrong can be put right, or he can go. Once a game he could
    play has events (its line-up), he stays as he is, as the team's other players do."""
    from fieldjudge.services.paintball.rosters import RosterEditor

    t = tournament
    editor = RosterEditor(t)
    team, sub = add_substitute(t, "Ястребы")
    editor.edit_player(team, sub, 98, "Олег Исправленный", False)
    (fixed,) = [p for p in t.players(team) if p["number"] == 98]
    assert fixed["name"] == "Олег Исправленный" and fixed["joined_after"]
    with pytest.raises(Refused, match="already played"):
        editor.edit_player(team, 7, 7, "Другое Имя", True)  # played at 10:20
    s = GameSession(t, by_teams(t, "Драконы", "Ястребы"), clock=FakeClock(T0), judge="J")
    s.set_lineup(team, [7, 11, 23, 42, 98])
    with pytest.raises(Refused, match="#98 Олег Исправленный was on the roster"):
        editor.remove_player(team, 98)
    assert any(p["number"] == 98 for p in t.players(team))
