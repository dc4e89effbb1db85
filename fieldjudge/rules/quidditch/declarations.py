"""What each player's post declares in a round, and which actions are valid now.

A player with no declaration in a round skipped his post (7: a skipped post cannot dodge a
bludger). ``post_order`` is the 1-based position of the post in the round's thread (0 = not
recorded: left out of the post order check).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from . import feints as F
from .roster import BEATER, CHASER, KEEPER, SEEKER
from .state import HELD, LOOSE, THROW_UP, MatchState

NONE = "none"  # posted, no ball action (flying, positioning, only a dodge feint)
CATCH_THROW_UP = "catch_throw_up"  # 2
PASS = "pass"  # 5 (chaser, or a keeper holding the quaffle)
SHOOT = "shoot"  # 6
STEAL = "steal"  # 4
INTERCEPT = "intercept"  # 5, target = the passer
PICK_UP = "pick_up"  # 10, a dropped quaffle
PENALTY_SHOT = "penalty_shot"  # 5.1
GUARD = "guard"  # 6, keeper names a ring
HIT_BLUDGER = "hit_bludger"  # 8, bludger = index, target = aim
SEARCH = "search"  # 9, looking for the snitch
CHASE = "chase"  # 9, chasing (or following the other seeker)
CATCH_SNITCH = "catch_snitch"  # 9
PUSH = "push"  # 10, seeker vs seeker during a catch attempt; anything else is 11.4
PUSHERS_11_4 = (CHASER, BEATER, KEEPER)  # 10, 11.4: offered, rolled like any push

ACTIONS = (
    NONE,
    CATCH_THROW_UP,
    PASS,
    SHOOT,
    STEAL,
    INTERCEPT,
    PICK_UP,
    PENALTY_SHOT,
    GUARD,
    HIT_BLUDGER,
    SEARCH,
    CHASE,
    CATCH_SNITCH,
    PUSH,
)
RINGS = ("left", "middle", "right")
RING_NAMES_RU = {"left": "левое", "middle": "среднее", "right": "правое"}
PUSH_BACK = "push_back"
DODGE_PUSH = "dodge"
RESPONSES = (PUSH_BACK, DODGE_PUSH)
# the judge's findings in a post; "5.1": a penalty the judge awards by hand against the
# poster's team (5.1: «пенальти назначается судьёй за ряд нарушений»)
FLAGS = ("11.1", "11.3", "11.4", "11.6", "5.1")

# which feint situation an action's feint serves by default
ACTION_SITUATION = {
    STEAL: F.STEAL,
    INTERCEPT: F.INTERCEPT,
    SHOOT: F.SHOT,
    PENALTY_SHOT: F.SHOT,
    GUARD: F.SAVE,
    CHASE: F.SPEED,
    CATCH_SNITCH: F.CATCH,
}


@dataclass(frozen=True)
class Declaration:
    player: str
    action: str = NONE
    target: str | None = None  # receiver / carrier / passer / aim / pushed seeker
    ring: str | None = None  # shot: told to the judge privately; guard: the keeper's ring
    zone: str | None = None  # where the post places the player (5: nearest chaser)
    feint: str | None = None
    feint_bonus: int = 0  # the judge's pick inside the feint's range
    feint_for: str | None = None  # the situation the feint is used in; None = inferred
    post_order: int = 0
    bludger: int | None = None  # hit_bludger: 0 or 1
    push: bool = False  # steal with a shoulder push (10)
    response: str | None = None  # to a push: "push_back" | "dodge" (10)
    flags: tuple[str, ...] = ()  # "11.1", "11.3", "11.4", "11.6"

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise ValueError(f"{self.player}: unknown action {self.action!r}")
        if self.ring is not None and self.ring not in RINGS:
            raise ValueError(f"{self.player}: unknown ring {self.ring!r}")
        if self.response is not None and self.response not in RESPONSES:
            raise ValueError(f"{self.player}: unknown response {self.response!r}")
        if self.feint_for is not None and self.feint_for not in F.SITUATIONS:
            raise ValueError(f"{self.player}: unknown feint situation {self.feint_for!r}")
        bad = [f for f in self.flags if f not in FLAGS]
        if bad:
            raise ValueError(f"{self.player}: unknown flags {bad}")

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "flags": list(self.flags)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Declaration:
        return cls(
            player=d["player"],
            action=d.get("action", NONE),
            target=d.get("target"),
            ring=d.get("ring"),
            zone=d.get("zone"),
            feint=d.get("feint"),
            feint_bonus=int(d.get("feint_bonus", 0)),
            feint_for=d.get("feint_for"),
            post_order=int(d.get("post_order", 0)),
            bludger=d.get("bludger"),
            push=bool(d.get("push", False)),
            response=d.get("response"),
            flags=tuple(d.get("flags", ())),
        )


def as_mapping(decls: Iterable[Declaration] | Mapping[str, Declaration]) -> dict[str, Declaration]:
    if isinstance(decls, Mapping):
        return dict(decls)
    out: dict[str, Declaration] = {}
    for d in decls:
        if d.player in out:
            raise ValueError(f"two declarations for {d.player}")
        out[d.player] = d
    return out


def feint_situation(state: MatchState, decl: Declaration) -> str | None:
    """The situation a declared feint serves: explicit, else the action's, else a dodge."""
    feint = state.setup.feints.get(decl.feint)
    if feint is None:
        return None
    if decl.feint_for is not None:
        return decl.feint_for if feint.fits(decl.feint_for) else None
    own = ACTION_SITUATION.get(decl.action)
    if own and feint.fits(own):
        return own
    for s in (F.DODGE, F.PUSH_DODGE):
        if feint.fits(s):
            return s
    return None


def valid_actions(state: MatchState, pid: str) -> list[str]:
    """The actions the screen offers ``pid`` in the round about to be played."""
    if state.ended or not state.is_active(pid):
        return []
    setup = state.setup
    p = setup.player(pid)
    q = state.quaffle
    acts = [NONE]
    holder_team = state.team_with_quaffle()
    if p.position == CHASER:
        if state.penalties:
            pen = state.penalties[0]
            if p.team != pen.team:
                acts.append(PENALTY_SHOT)
            return [*acts, PUSH]
        if q.status == THROW_UP:
            acts.append(CATCH_THROW_UP)
        elif q.status == LOOSE:
            acts.append(PICK_UP)
        elif q.holder == pid:
            acts.append(PASS)
            if state.round_no >= q.since_round + setup.settings.carry_rounds:
                acts.append(SHOOT)
        elif q.status == HELD and holder_team != p.team:
            if setup.player(q.holder).position == CHASER:  # type: ignore[arg-type]
                acts.append(STEAL)
            acts.append(INTERCEPT)
    elif p.position == KEEPER:
        acts.append(GUARD)
        if q.status == HELD and q.holder == pid and not state.penalties:
            acts.append(PASS)
    elif p.position == BEATER:
        mates = {x.id for x in setup.of_team(p.team)}
        if any(t in mates for t in state.bludger_targets()):
            acts.append(HIT_BLUDGER)
    elif p.position == SEEKER:
        me = state.seekers[pid]
        other = state.seekers[setup.seeker(setup.other_team(p.team)).id]
        if me.caught_up:
            acts.append(CATCH_SNITCH)
        elif me.chasing or other.in_chase:
            acts.append(CHASE)
        else:
            acts.append(SEARCH)
        if other.caught_up:
            acts.append(PUSH)
    if p.position in PUSHERS_11_4:
        # 10, 11.4: an illegal push is still a push the judge records and rolls (30 % / 20 %)
        acts.append(PUSH)
    return acts


def valid_targets(state: MatchState, pid: str, action: str) -> list[str]:
    """Whom the action may name (empty when it names nobody)."""
    setup = state.setup
    p = setup.player(pid)
    act = state.is_active
    other = setup.other_team(p.team)
    if action == PASS:
        return [x.id for x in setup.of_team(p.team, CHASER) if x.id != pid and act(x.id)]
    if action == STEAL:
        return [state.quaffle.holder] if state.quaffle.holder else []
    if action == INTERCEPT:
        return [x.id for x in setup.players if x.team == other and x.position in (CHASER, KEEPER)]
    if action == HIT_BLUDGER:
        partner = [x.id for x in setup.of_team(p.team, BEATER) if x.id != pid]
        return [x.id for x in setup.players if x.team == other and act(x.id)] + partner
    if action == PUSH:
        if p.position in PUSHERS_11_4:
            return [x.id for x in setup.of_team(other) if act(x.id)]  # 11.4: anyone
        return [setup.seeker(other).id]
    return []


def valid_bludgers(state: MatchState, pid: str) -> list[int]:
    """Bludgers a beater may hit away: those following him or a teammate (8) -- including
    one his partner may aim at him (7, 8: a targeted beater may hit it as well as dodge)."""
    team = state.setup.player(pid).team
    return [
        i
        for i, t in enumerate(state.bludger_targets())
        if t is not None and state.setup.player(t).team == team
    ]
