"""Match state between rounds; serialises to plain JSON dicts.

``round_no`` is the round about to be played. ``out`` counts the rounds a player still sits
out (knocked down by a bludger, fallen after a push, sent off by 11.3); ``removed`` is for
the rest of the match (a match-ending injury, 11.4). Bludger ``target`` is whom each bludger
follows in the round about to be played -- drawn at the end of the previous round so the
round post can announce it (in round 1 the bludgers are just released and follow nobody).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from .roster import KEEPER, MatchSetup

THROW_UP = "throw_up"  # 2: not yet caught
HELD = "held"
LOOSE = "loose"  # dropped by a fallen carrier or a wasted pass: first pick-up takes it (10)

CENTRE = "centre"
RINGS_PREFIX = "rings:"


def rings_zone(team_key: str) -> str:
    """The zone in front of a team's rings."""
    return f"{RINGS_PREFIX}{team_key}"


@dataclass
class QuaffleState:
    status: str = THROW_UP
    holder: str | None = None
    since_round: int = 0  # the round the holder's team gained it: carrying counts from here (3)


@dataclass
class BludgerState:
    target: str | None = None
    rest: bool = False  # hit away last round: follows nobody this round (8)


@dataclass
class SeekerState:
    chasing: bool = False
    rounds_left: int = 0
    speed_used: bool = False
    caught_up: bool = False
    catch_feint_used: bool = False

    @property
    def in_chase(self) -> bool:
        return self.chasing or self.caught_up


@dataclass
class PendingPenalty:
    team: str  # the offending team: its keeper defends (5.1)
    section: str  # why: "11.4", "11.5", "11.7"
    round_no: int  # awarded in


@dataclass
class Injury:
    round_no: int
    player: str
    text: str
    ends_match: bool


def _dc(cls, d: Mapping[str, Any]):
    return cls(**dict(d))


@dataclass
class MatchState:
    setup: MatchSetup
    round_no: int = 1
    next_roll_n: int = 1
    score: dict[str, int] = field(default_factory=dict)
    goals: dict[str, int] = field(default_factory=dict)
    quaffle: QuaffleState = field(default_factory=QuaffleState)
    zones: dict[str, str] = field(default_factory=dict)  # last zone each player declared
    out: dict[str, int] = field(default_factory=dict)
    removed: dict[str, str] = field(default_factory=dict)  # player -> reason
    injuries: list[Injury] = field(default_factory=list)
    bludgers: list[BludgerState] = field(default_factory=lambda: [BludgerState(), BludgerState()])
    seekers: dict[str, SeekerState] = field(default_factory=dict)
    team_warnings: dict[str, int] = field(default_factory=dict)
    player_warnings: dict[str, int] = field(default_factory=dict)  # non-game (11.1, 11.2)
    penalties: list[PendingPenalty] = field(default_factory=list)
    ended: bool = False
    end_reason: str | None = None  # "snitch" | "points" | "rounds"
    # passers whose pass the judge resolved within the round about to end (0, 5)
    passes_resolved: list[str] = field(default_factory=list)
    vanish_rolled: bool = False  # 9, vanish_mode "per_chase": this chase's roll was made
    revealed: bool = False  # the server seed is published: the match is closed, no roll

    # queries --------------------------------------------------------------------------
    def is_active(self, pid: str) -> bool:
        """Plays in the round about to be played."""
        return pid not in self.removed and self.out.get(pid, 0) <= 0

    def active_players(self) -> list[str]:
        return [p.id for p in self.setup.players if self.is_active(p.id)]

    @property
    def snitch_visible(self) -> bool:
        return any(s.in_chase for s in self.seekers.values())

    def team_with_quaffle(self) -> str | None:
        q = self.quaffle
        if q.status == HELD and q.holder:
            return self.setup.player(q.holder).team
        return None

    def bludger_targets(self) -> list[str | None]:
        return [None if b.rest else b.target for b in self.bludgers]

    def zone_of(self, pid: str) -> str | None:
        p = self.setup.player(pid)
        if p.position == KEEPER:
            return rings_zone(p.team)
        return self.zones.get(pid)

    def winner(self) -> str | None:
        a, b = (t.key for t in self.setup.teams)
        if self.score[a] == self.score[b]:
            return None
        return a if self.score[a] > self.score[b] else b

    # serialisation --------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        # every field as plain data; the setup in its own form (the feints as a list)
        return {**asdict(self), "setup": self.setup.to_dict()}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> MatchState:
        return cls(
            setup=MatchSetup.from_dict(d["setup"]),
            round_no=int(d["round_no"]),
            next_roll_n=int(d["next_roll_n"]),
            score=dict(d["score"]),
            goals=dict(d["goals"]),
            quaffle=_dc(QuaffleState, d["quaffle"]),
            zones=dict(d.get("zones", {})),
            out=dict(d.get("out", {})),
            removed=dict(d.get("removed", {})),
            injuries=[_dc(Injury, i) for i in d.get("injuries", [])],
            bludgers=[_dc(BludgerState, b) for b in d["bludgers"]],
            seekers={k: _dc(SeekerState, v) for k, v in d["seekers"].items()},
            team_warnings=dict(d.get("team_warnings", {})),
            player_warnings=dict(d.get("player_warnings", {})),
            penalties=[_dc(PendingPenalty, p) for p in d.get("penalties", [])],
            ended=bool(d.get("ended", False)),
            end_reason=d.get("end_reason"),
            passes_resolved=list(d.get("passes_resolved", [])),
            vanish_rolled=bool(d.get("vanish_rolled", False)),
            revealed=bool(d.get("revealed", False)),
        )

    def copy(self) -> MatchState:
        """A deep copy (the setup is immutable and shared)."""
        return MatchState(
            setup=self.setup,
            round_no=self.round_no,
            next_roll_n=self.next_roll_n,
            score=dict(self.score),
            goals=dict(self.goals),
            quaffle=replace(self.quaffle),
            zones=dict(self.zones),
            out=dict(self.out),
            removed=dict(self.removed),
            injuries=list(self.injuries),  # Injury records are never mutated
            bludgers=[replace(b) for b in self.bludgers],
            seekers={k: replace(v) for k, v in self.seekers.items()},
            team_warnings=dict(self.team_warnings),
            player_warnings=dict(self.player_warnings),
            penalties=list(self.penalties),  # never mutated, only appended/popped
            ended=self.ended,
            end_reason=self.end_reason,
            passes_resolved=list(self.passes_resolved),
            vanish_rolled=self.vanish_rolled,
            revealed=self.revealed,
        )


def new_match(setup: MatchSetup) -> MatchState:
    """The state before round 1: 0:0, the quaffle to be thrown up (1, 2)."""
    # 1: keepers start before their own rings (zone_of), everyone else in the centre
    keys = [t.key for t in setup.teams]
    return MatchState(
        setup=setup,
        score={k: 0 for k in keys},
        goals={k: 0 for k in keys},
        seekers={setup.seeker(k).id: SeekerState() for k in keys},
        team_warnings={k: 0 for k in keys},
        zones={p.id: CENTRE for p in setup.players if p.position != KEEPER},
    )
