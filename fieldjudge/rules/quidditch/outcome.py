"""What a round produced: outcomes (each with its rolls, thresholds and section) and the
new state. Outcomes carry machine data; ``post.py`` turns them into the Russian post."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..dice import Roll
from .state import MatchState

QUAFFLE = "quaffle"
BLUDGERS = "bludgers"
SNITCH = "snitch"
WARNINGS = "warnings"
END = "end"
PHASES = (QUAFFLE, BLUDGERS, SNITCH, WARNINGS, END)


@dataclass(frozen=True)
class Outcome:
    phase: str
    kind: str
    section: str  # the rulebook section, e.g. "5", "11.7"
    players: tuple[str, ...] = ()
    rolls: tuple[Roll, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "kind": self.kind,
            "section": self.section,
            "players": list(self.players),
            "rolls": [r.to_dict() for r in self.rolls],
            "data": dict(self.data),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Outcome:
        return cls(
            phase=d["phase"],
            kind=d["kind"],
            section=d["section"],
            players=tuple(d.get("players", ())),
            rolls=tuple(Roll.from_dict(r) for r in d.get("rolls", ())),
            data=dict(d.get("data", {})),
        )


@dataclass
class RoundResult:
    round_no: int  # the round resolved
    state: MatchState  # after the round (its round_no is the next round)
    outcomes: list[Outcome]
    rolls: list[Roll]  # every roll of the round, in order, including draws

    def by_phase(self, phase: str) -> list[Outcome]:
        return [o for o in self.outcomes if o.phase == phase]

    def to_dict(self) -> dict[str, Any]:
        return {
            "round_no": self.round_no,
            "state": self.state.to_dict(),
            "outcomes": [o.to_dict() for o in self.outcomes],
            "rolls": [r.to_dict() for r in self.rolls],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> RoundResult:
        return cls(
            round_no=int(d["round_no"]),
            state=MatchState.from_dict(d["state"]),
            outcomes=[Outcome.from_dict(o) for o in d["outcomes"]],
            rolls=[Roll.from_dict(r) for r in d["rolls"]],
        )
