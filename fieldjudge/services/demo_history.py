"""A demo with history: the first round of the demo tournament already played, closed and
signed, so a newcomer sees standings and exports at once.

Every event goes through the paintball engine (refused events are skipped) and the store,
exactly as the live screens append them; the games come from a fixed seed."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from fieldjudge.rules.paintball.checks import refusal
from fieldjudge.rules.paintball.state import fold
from fieldjudge.services.paintball import results
from fieldjudge.services.tournament import TournamentService
from fieldjudge.services.trust.head_judge import DEMO_PASSPHRASE

SEED = 20260516


@dataclass
class Script:
    """How one generated game goes."""

    kind: str  # "hang" (flag hang by team A) | "draw" | "held" (B holds A's flag) | "no_show"
    elim_a: int = 1  # players of team A eliminated
    elim_b: int = 1
    checks: int = 0  # extra paint checks (in play) -- to make long logs for benchmarks


class GamePlayer:
    """Appends events to one game's log at given game times, through the engine's checks."""

    def __init__(
        self, t: TournamentService, game_id: str, judge: str = "Старший судья Демо"
    ) -> None:
        self.t = t
        self.game_id = game_id
        self.log = t.game_log(game_id)
        self.setup = results.setup_for(t, game_id, self.log)
        g = t.game(game_id)
        if g is None:
            raise ValueError(f"no game {game_id} in the schedule")
        self.start = datetime.fromisoformat(g["start"]).astimezone()  # local → aware
        self.judge = judge

    def at(self, ms: int) -> datetime:
        return self.start + timedelta(milliseconds=ms)

    def add(self, etype: str, ms: int | None, **data) -> bool:
        st = fold(self.setup, self.log.events)
        if refusal(st, etype, data, ms):
            return False
        when = self.at(ms if ms is not None else 0)
        self.t.append_game_event(
            self.game_id, etype, data, judge=self.judge, game_clock_ms=ms, wall_time=when
        )
        return True


def play(
    t: TournamentService,
    game_id: str,
    script: Script,
    rng: random.Random,
    close: bool = True,
    secret: str = DEMO_PASSPHRASE,
) -> None:
    """Play ``script`` in ``game_id``; ``close``: the protocol is submitted and both
    captains sign."""
    p = GamePlayer(t, game_id)
    a, b = p.setup.teams
    length = p.setup.settings.game_length_ms
    if script.kind == "no_show":
        results.record_no_show(
            t, game_id, [b], "late", judge=p.judge, when=p.at(-60_000), secret=secret
        )
        if close:
            _close(t, p, length)
        return
    for team in (a, b):
        p.add("checkin", None, team=team, late=False)
    p.add("clock_start", 0)
    ms = 0
    roster = {team: [x.number for x in p.setup.rosters[team]] for team in (a, b)}
    for _ in range(script.checks):
        ms += rng.randint(50, 400)
        team = rng.choice((a, b))
        num = rng.choice(roster[team])
        if p.add("paint_check_start", ms, team=team, number=num):
            p.add("paint_check_end", ms + 5, team=team, number=num, outcome="in_play")
    for team, n in ((a, script.elim_a), (b, script.elim_b)):
        # the carrier-to-be (the first non-captain) stays in play
        for num in rng.sample(roster[team][2:], n):
            ms += rng.randint(5_000, 40_000)
            reason = rng.choice(("hit", "hit", "hit", "out_of_bounds"))
            p.add(
                "elimination",
                min(ms, length - 1000),
                reason=reason,
                players=[{"team": team, "number": num}],
            )
    ms = min(ms + 20_000, length - 30_000)
    if script.kind == "hang":
        carrier = roster[a][1]
        p.add("flag_capture", ms, team=a, number=carrier)
        p.add("flag_hang", ms + 15_000, team=a, number=carrier)
        fps = round(rng.uniform(270, 295), 1)
        p.add("hang_verdict", ms + 15_000, paint="clean", fps=fps, forbidden_mode=False)
    else:
        if script.kind == "held":
            p.add("flag_capture", ms, team=b, number=roster[b][1])
        p.add("game_end", length, reason="clock")
    st = fold(p.setup, p.log.events)
    for pl in st.to_inspect():
        p.add("inspection", st.end_ms, team=pl.team, number=pl.number, result="clean")
    if close:
        _close(t, p, length)


def _close(t: TournamentService, p: GamePlayer, length: int) -> None:
    results.submit_protocol(t, p.game_id, judge=p.judge, when=p.at(length + 60_000))
    for i, team in enumerate(p.setup.teams):
        captain = next((x.name for x in p.setup.rosters[team] if x.captain), "")
        results.sign(t, p.game_id, team, captain, judge=p.judge, when=p.at(length + 120_000 + i))


SCRIPTS = (
    Script("hang", elim_a=1, elim_b=3),
    Script("draw", elim_a=2, elim_b=2),
    Script("held", elim_a=3, elim_b=1),
    Script("no_show"),
)


def add_history(t: TournamentService, seed: int = SEED) -> None:
    """Play the first round of the schedule (at most four games) from ``seed``."""
    rng = random.Random(seed)
    first_round = t.games()[: len(SCRIPTS)]
    for g, script in zip(first_round, SCRIPTS, strict=False):
        play(t, g["id"], script, rng)
