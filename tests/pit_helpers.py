"""Shared builders for the pit display tests: a demo tournament opened the way the app opens
it, a game played through the app's own non-UI API, and a running pit server."""

from __future__ import annotations

import shutil
from datetime import UTC, date, datetime
from pathlib import Path

from demo_template import open_demo_copy
from fakes import FakeClock

from fieldjudge.services.demo import DEMO_PASSPHRASE
from fieldjudge.services.opening import open_tournament
from fieldjudge.services.paintball import results
from fieldjudge.services.paintball.game import GameSession

DAY = date(2026, 6, 1)
GAME = 4  # the first game of round 2 (round 1 is the demo's closed history)


def open_demo(folder: Path, lock: bool = True):
    """The demo tournament (dated DAY), held open with its folder lock as the app holds it."""
    return open_demo_copy(Path(folder), DAY, lock)


def ref(team: str, number: int) -> dict:
    return {"team": team, "number": number}


class Play:
    """One game of ``t`` played event by event through GameSession (fake clock, 5 s apart)."""

    def __init__(self, t, index: int = GAME, start: datetime | None = None) -> None:
        self.t = t
        self.game_id = t.games()[index]["id"]
        self.clock = FakeClock(start or datetime.now(UTC))
        self.s = GameSession(t, self.game_id, clock=self.clock, judge="Судья")
        self.a, self.b = self.s.teams

    def add(self, etype: str, data: dict | None = None):
        self.clock.advance(5_000)
        return self.s.append(etype, data or {})

    def number(self, team: str, i: int) -> int:
        return self.s.setup.rosters[team][i].number

    def start(self) -> None:
        self.s.append("clock_start", {})

    def eliminate(self, team: str, i: int):
        return self.add(
            "elimination", {"reason": "hit", "players": [ref(team, self.number(team, i))]}
        )

    def hang_by_a(self) -> None:
        """Team A's second player captures B's flag and hangs it, clean (23.03), then the
        post-game inspection of every unhit player (18.02): the game is final."""
        carrier = self.number(self.a, 1)
        self.add("flag_capture", ref(self.a, carrier))
        self.add("flag_hang", ref(self.a, carrier))
        self.add("hang_verdict", {"paint": "clean", "fps": 280.0, "forbidden_mode": False})
        for p in self.s.state.to_inspect():
            self.add("inspection", {"team": p.team, "number": p.number, "result": "clean"})

    def submit(self) -> None:
        results.submit_protocol(self.t, self.game_id, judge="Судья")

    def sign(self, team: str) -> None:
        captain = next(p.name for p in self.s.setup.rosters[team] if p.captain)
        results.sign(self.t, self.game_id, team, captain, judge="Судья")


def team_id(t, name: str) -> str:
    return t.team_by_name(name)["id"]


def field_laptop_copy(t, name: str = "field-copy") -> Path:
    """The folder as a field laptop's copy holds it now (it receives nothing after)."""
    field = t.folder.parent / name
    shutil.copytree(t.folder, field, ignore=shutil.ignore_patterns(".cache"))
    return field


def start_on_field_laptop(t, field: Path, config: Path, index: int, start: datetime) -> str:
    """A field laptop (its own config folder, so its own key), registered by the head
    judge, starts game ``index`` on its copy ``field``: the games started since the copy
    are not in it, so its one-live-game check passes. Its game file and its laptop folder
    then reach ``t``'s folder as Syncthing brings them. Returns the game's id."""
    tf = open_tournament(field, startup_backup=False, config_dir=config)
    try:
        tf.register_laptop(DEMO_PASSPHRASE)
        gid = tf.games()[index]["id"]
        s = GameSession(tf, gid, clock=FakeClock(start), judge="Судья поля")
        s.append("clock_start", {})
        fid = tf.owner_id
    finally:
        tf.close()
    shutil.copytree(field / "laptops" / fid, t.folder / "laptops" / fid)
    shutil.copy(field / "games" / f"{gid}.json", t.game_path(gid))
    return gid
