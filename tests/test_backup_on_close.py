"""A rotating copy of a game file is made when the game is closed (issue 2, DESIGN.md)."""

from __future__ import annotations

from datetime import UTC, datetime

from fakes import FakeClock

from fieldjudge.rules.paintball import model as m
from fieldjudge.services.paintball.game import GameSession
from fieldjudge.store.backup import backups_of
from fieldjudge.store.validate import validate_file


def test_game_reaching_final_is_backed_up(tournament) -> None:
    gid = next(g["id"] for g in tournament.games() if not tournament.game_path(g["id"]).exists())
    clock = FakeClock(datetime(2026, 6, 1, 8, tzinfo=UTC))
    s = GameSession(tournament, gid, clock=clock)
    a, b = s.teams
    s.append("clock_start")
    for p in s.setup.rosters[a]:  # 23.03: a team with nobody left does not end the game
        s.append("elimination", {"reason": "hit", "players": [{"team": a, "number": p.number}]})
    assert s.state.phase != m.FINAL
    clock.advance(s.setup.settings.game_length_ms)
    assert s.tick() is not None  # 0:00 ends it; 18.02: the inspection follows
    path = tournament.game_path(gid)
    assert backups_of(tournament.folder, path) == []
    for p in s.setup.rosters[b]:
        s.append("inspection", {"team": b, "number": p.number, "result": "clean"})
    assert s.state.phase == m.FINAL
    copies = backups_of(tournament.folder, path)
    assert len(copies) == 1
    assert len(validate_file(copies[0])["events"]) == len(s.events)
