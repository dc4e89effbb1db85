"""Match settings: every probability of the rules, the skill bonuses and the end condition.

Percentages are numbers 0..100. RULES.md marks the skill bonuses and the cap as **defaults**
(not in the source); the base probabilities come from the rulebook, but are settings too so a
tournament can agree on others. A roll 1..100 succeeds when it is at or under the threshold;
thresholds are ``floor(min(cap, base + bonuses))`` -- flooring changes nothing, since a roll
is an integer (a roll is <= 50.5 exactly when it is <= 50).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

END_SNITCH = "snitch"  # 9: the match ends on a catch only
END_POINTS = "points"  # 9: ... or when a team reaches `limit` points
END_ROUNDS = "rounds"  # 9: ... or after `limit` rounds
END_KINDS = (END_SNITCH, END_POINTS, END_ROUNDS)

# 5: «квоффл получает тот, чьё значение при генерации вероятности будет выше»
INTERCEPTION_FLAT = "flat"  # default: a successful interception roll takes the ball
INTERCEPTION_CONTEST = "contest"  # the receiver draws too; both succeed → the higher value
INTERCEPTIONS = (INTERCEPTION_FLAT, INTERCEPTION_CONTEST)
# 9: «за время преследования снитч может исчезнуть с вероятностью 15%»
VANISH_PER_ROUND = "per_round"  # default: 15 % in every round of a chase
VANISH_PER_CHASE = "per_chase"  # 15 % once per chase (and in each round of catch attempts)
VANISH_MODES = (VANISH_PER_ROUND, VANISH_PER_CHASE)


@dataclass(frozen=True)
class EndCondition:
    kind: str = END_SNITCH
    limit: int = 0

    def __post_init__(self) -> None:
        if self.kind not in END_KINDS:
            raise ValueError(f"unknown end condition {self.kind!r}")
        if self.kind != END_SNITCH and self.limit <= 0:
            raise ValueError("a points or round limit must be positive")

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> EndCondition:
        return cls(kind=d.get("kind", END_SNITCH), limit=int(d.get("limit", 0)))


@dataclass(frozen=True)
class QuidditchSettings:
    # caps and skill (RULES.md defaults)
    cap: float = 95.0
    dodge_per_match: float = 1.0
    dodge_per_practice: float = 0.5
    beater_intercept_per_match: float = 2.0
    beater_accuracy_per_match: float = 1.0
    # quaffle (4, 5, 6)
    steal: float = 40.0
    intercept: float = 40.0
    own_pass: float = 100.0
    carry_rounds: int = 1
    goal_points: int = 10
    # bludgers (7, 8)
    dodge: float = 50.0
    knockdown_rounds: int = 2
    injury_ends_match: float = 5.0
    beater_intercept: float = 10.0
    beater_accuracy: float = 60.0
    # snitch (9)
    spot: float = 15.0
    spot_per_goal: float = 5.0
    chase_rounds: int = 3
    speed_feint: float = 85.0
    vanish: float = 15.0
    catch: float = 50.0
    snitch_points: int = 150
    # collisions (10)
    push_dodge: float = 50.0
    push_knock: float = 30.0
    pusher_falls: float = 20.0
    mutual_push: float = 25.0
    fallen_rounds: int = 2
    # violations (11)
    warnings_per_penalty: int = 3
    sent_off_rounds: int = 1  # 11.3
    # readings of the rulebook (RULES.md): match settings
    interception: str = INTERCEPTION_FLAT  # 5
    vanish_mode: str = VANISH_PER_ROUND  # 9

    def __post_init__(self) -> None:
        if self.interception not in INTERCEPTIONS:
            raise ValueError(f"unknown interception setting {self.interception!r}")
        if self.vanish_mode not in VANISH_MODES:
            raise ValueError(f"unknown vanish setting {self.vanish_mode!r}")

    def threshold(self, base: float, *bonuses: float) -> int:
        """floor(min(cap, base + bonuses)), never below 0 (module docstring)."""
        p = min(self.cap, base + sum(bonuses))
        return max(0, math.floor(p + 1e-9))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> QuidditchSettings:
        known = {f.name: f.type for f in fields(cls)}
        kw: dict[str, Any] = {}
        for k, v in d.items():
            if k in known:
                t = known[k]
                kw[k] = int(v) if t == "int" else str(v) if t == "str" else float(v)
        return cls(**kw)
