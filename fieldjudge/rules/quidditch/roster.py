"""Match setup: two teams of seven (3 chasers, 2 beaters, a keeper, a seeker), names, skill.

Skill (7, 8) is counted in matches played and practices attended. Names are the Russian
names used in the round post; each team has an initial shown after a name, e.g. «Флинт (С)».
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from .feints import FeintCatalogue
from .settings import EndCondition, QuidditchSettings

CHASER = "chaser"
BEATER = "beater"
KEEPER = "keeper"
SEEKER = "seeker"
POSITIONS = (CHASER, BEATER, KEEPER, SEEKER)
LINEUP = {CHASER: 3, BEATER: 2, KEEPER: 1, SEEKER: 1}


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    team: str  # Team.key
    position: str
    matches: int = 0
    practices: int = 0

    def __post_init__(self) -> None:
        if self.position not in POSITIONS:
            raise ValueError(f"{self.id}: unknown position {self.position!r}")

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Player:
        matches, practices = int(d.get("matches", 0)), int(d.get("practices", 0))
        return cls(d["id"], d["name"], d["team"], d["position"], matches, practices)


@dataclass(frozen=True)
class Team:
    key: str
    name: str  # «Гриффиндор»
    initial: str = ""  # «Г»; defaults to the first letter of the name
    genitive: str = ""  # «Гриффиндора», for «у колец Гриффиндора»; defaults to the name

    @property
    def short(self) -> str:
        return self.initial or self.name[:1].upper()

    @property
    def of(self) -> str:
        return self.genitive or self.name

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Team:
        return cls(d["key"], d["name"], d.get("initial", ""), d.get("genitive", ""))


@dataclass(frozen=True)
class MatchSetup:
    match_id: str
    teams: tuple[Team, Team]
    players: tuple[Player, ...]
    settings: QuidditchSettings = field(default_factory=QuidditchSettings)
    feints: FeintCatalogue = field(default_factory=FeintCatalogue)
    end: EndCondition = field(default_factory=EndCondition)
    client_seed: str = ""
    seed_hash: str = ""  # the published sha256 of the server seed

    def __post_init__(self) -> None:
        if len(self.teams) != 2 or self.teams[0].key == self.teams[1].key:
            raise ValueError("a match has two teams with different keys")
        ids = [p.id for p in self.players]
        if len(set(ids)) != len(ids):
            raise ValueError("player ids must be unique")
        keys = {t.key for t in self.teams}
        for t in keys:
            got = Counter(p.position for p in self.players if p.team == t)
            if dict(got) != LINEUP:
                raise ValueError(f"team {t}: lineup {dict(got)}, expected {LINEUP}")
        stray = [p.id for p in self.players if p.team not in keys]
        if stray:
            raise ValueError(f"players of no team: {stray}")

    # lookups --------------------------------------------------------------------------
    def player(self, pid: str) -> Player:
        for p in self.players:
            if p.id == pid:
                return p
        raise KeyError(pid)

    def team(self, key: str) -> Team:
        for t in self.teams:
            if t.key == key:
                return t
        raise KeyError(key)

    def other_team(self, key: str) -> str:
        return self.teams[1].key if key == self.teams[0].key else self.teams[0].key

    def of_team(self, key: str, position: str | None = None) -> list[Player]:
        return [
            p
            for p in self.players
            if p.team == key and (position is None or p.position == position)
        ]

    def keeper(self, key: str) -> Player:
        return self.of_team(key, KEEPER)[0]

    def seeker(self, key: str) -> Player:
        return self.of_team(key, SEEKER)[0]

    def label(self, pid: str) -> str:
        """«Флинт (С)»."""
        p = self.player(pid)
        return f"{p.name} ({self.team(p.team).short})"

    # serialisation --------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "teams": [asdict(t) for t in self.teams],
            "players": [asdict(p) for p in self.players],
            "settings": asdict(self.settings),
            "feints": self.feints.to_list(),
            "end": asdict(self.end),
            "client_seed": self.client_seed,
            "seed_hash": self.seed_hash,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> MatchSetup:
        teams = tuple(Team.from_dict(t) for t in d["teams"])
        return cls(
            match_id=d["match_id"],
            teams=(teams[0], teams[1]),
            players=tuple(Player.from_dict(p) for p in d["players"]),
            settings=QuidditchSettings.from_dict(d.get("settings", {})),
            feints=FeintCatalogue.from_list(d["feints"]) if "feints" in d else FeintCatalogue(),
            end=EndCondition.from_dict(d.get("end", {})),
            client_seed=d.get("client_seed", ""),
            seed_hash=d.get("seed_hash", ""),
        )
