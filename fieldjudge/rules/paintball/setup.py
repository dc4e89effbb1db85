"""Game setup and tournament settings (every RULES.md **default** is a setting)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from types import MappingProxyType
from typing import Any

from fieldjudge.rules.messages import RuleMessage, Team, rule
from fieldjudge.rules.paintball.reasons import PENALTY_GROUP_1_1, PENALTY_KINDS

# 28.02 → 34.01 is not in the source: default group removal 1+1 (RULES.md). The team penalty
# of 20.05 ("section 11", not in the source): default group removal 1+1 from this catalogue.
DEFAULT_PENALTIES: Mapping[str, str] = MappingProxyType(
    {"playing_on": PENALTY_GROUP_1_1, "forbidden_mode": PENALTY_GROUP_1_1}
)

# 20.02 "below 301" vs 20.03 "over 300": how a reading is judged (RULES.md "Reading precision")
FPS_WHOLE = "whole"  # default: the whole fps, rounded down (300.9 → 300, no penalty)
FPS_EXACT = "exact"  # the reading as the device gave it (300.9 → over 300)
FPS_PRECISIONS = (FPS_WHOLE, FPS_EXACT)

ABOVE_320_POLICIES = (
    "group_1_1_flagged",
    "group_1_1",
    "removal_flagged",
    "removal",
    "disqualification_flagged",
)


@dataclass(frozen=True)
class Points:
    """Game points of 30.01 (numbers lost in the source: defaults of the rulebook family)."""

    flag_hang: int = 3
    flag_held: int = 2
    draw: int = 1
    loss: int = 0


@dataclass(frozen=True)
class ChronoSettings:
    """The tournament's chronograph limits (19.05, 20.02-20.05)."""

    limit_fps: float = 300.0  # 20.02 / 20.03: over this → removal
    group_above_fps: float = 310.0  # 20.04: over this → group removal 1+1
    group_upto_fps: float = 320.0  # 20.04: up to this
    above_320: str = "group_1_1_flagged"  # RULES.md default for the gap above 320 fps
    rof_min_interval_ms: int = 95  # 20.02
    after_release_ms: int = 100  # 19.05
    # 19.05: only the shots this long after "released" count (RULES.md "After-release test:
    # the window"); later ones are a new string
    after_release_window_ms: int = 500
    max_balls: int = 140  # 19.05


def _coerce(default: Any, value: Any) -> Any:
    """Cast ``value`` to the type of ``default``; on failure keep the default."""
    try:
        if isinstance(default, bool):
            return bool(value)
        if isinstance(default, int) and not isinstance(value, bool):
            return int(value)
        if isinstance(default, float):
            return float(value)
        if isinstance(default, str):
            return str(value)
    except (TypeError, ValueError):
        return default
    return default


def _flat_kwargs(cls: type, doc: Any) -> dict[str, Any]:
    """The fields of ``cls`` that ``doc`` gives, cast to the types of their defaults (a
    field holding a dataclass or a mapping keeps its default)."""
    if not isinstance(doc, Mapping):
        return {}
    base = cls()
    return {
        f.name: _coerce(getattr(base, f.name), doc[f.name]) for f in fields(cls) if f.name in doc
    }


@dataclass(frozen=True)
class Settings:
    """The tournament's rules settings: team size, game length, points, penalties."""

    team_size: int = 5
    game_length_ms: int = 420_000  # 7:00
    points: Points = field(default_factory=Points)
    diff_clamp: int = 5  # 30.01
    chrono: ChronoSettings = field(default_factory=ChronoSettings)
    # reason -> penalty kind ("removal" | "group_1_1"); the head judge edits it (34.01, 11)
    penalties: Mapping[str, str] = field(default_factory=lambda: DEFAULT_PENALTIES)
    min_gap_minutes: int = 12  # 32.03
    checkin_minutes: int = 3  # 19.01
    # 23.03 / 30.01 ("How a game ends"): a team with nobody left does not end the game
    # unless the tournament's regulations say so
    end_when_team_out: bool = False
    fps_precision: str = FPS_WHOLE  # 20.02 / 20.03
    inspection_penalty_points: int = 1  # 18.02: per hit found (not in the source)

    def __post_init__(self) -> None:
        if self.fps_precision not in FPS_PRECISIONS:
            object.__setattr__(self, "fps_precision", FPS_WHOLE)
        # the catalogue always covers the defaults; a given mapping overrides them
        merged = {**DEFAULT_PENALTIES, **dict(self.penalties)}
        object.__setattr__(self, "penalties", MappingProxyType(merged))

    def penalty_kind(self, reason: str) -> str:
        return self.penalties.get(reason, "removal")

    def to_dict(self) -> dict[str, Any]:
        flat = {f.name: getattr(self, f.name) for f in fields(self)}
        nested = {"points": asdict(self.points), "chrono": asdict(self.chrono)}
        return flat | nested | {"penalties": dict(self.penalties)}

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any] | None) -> Settings:
        """Unknown keys are ignored, missing or malformed keys take the default."""
        doc = doc if isinstance(doc, Mapping) else {}
        kwargs = _flat_kwargs(cls, doc)
        if "points" in doc:
            kwargs["points"] = Points(**_flat_kwargs(Points, doc["points"]))
        if "chrono" in doc:
            chrono = ChronoSettings(**_flat_kwargs(ChronoSettings, doc["chrono"]))
            if chrono.above_320 not in ABOVE_320_POLICIES:
                chrono = replace(chrono, above_320=ChronoSettings.above_320)
            kwargs["chrono"] = chrono
        pen = dict(DEFAULT_PENALTIES)
        if isinstance(doc.get("penalties"), Mapping):
            for k, v in doc["penalties"].items():
                if isinstance(k, str) and v in PENALTY_KINDS:
                    pen[k] = v
        kwargs["penalties"] = pen
        return cls(**kwargs)


def needs_second_player(settings: Settings, reason: str) -> bool:
    """True when the catalogue turns ``reason`` into a group removal 1+1 (29.08, 34.01):
    the screen must ask for the second player of the same team."""
    return settings.penalty_kind(reason) == PENALTY_GROUP_1_1


@dataclass(frozen=True)
class RosterPlayer:
    """A player on a team's roster: shirt number, name, captain or not."""

    number: int
    name: str
    captain: bool = False


@dataclass(frozen=True)
class GameSetup:
    """What a game is folded against: its two teams, their rosters, the settings."""

    game_id: str
    team_a: str
    team_b: str
    rosters: Mapping[str, tuple[RosterPlayer, ...]]
    settings: Settings = field(default_factory=Settings)
    # 20.05: players disqualified in an earlier game of the tournament, as (team, number);
    # they cannot be put in play in this game (see ``disqualified_in``). Only this game's
    # teams' players are kept: the others' cannot change this game (a setup depends on
    # nothing else, so a game folded with the tournament's whole set or with its teams'
    # part is the same game)
    disqualified: frozenset[tuple[str, int]] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(
            self,
            "rosters",
            MappingProxyType({str(t): tuple(ps) for t, ps in self.rosters.items()}),
        )
        teams = (self.team_a, self.team_b)
        object.__setattr__(
            self,
            "disqualified",
            frozenset((str(t), int(n)) for t, n in self.disqualified if str(t) in teams),
        )

    @property
    def teams(self) -> tuple[str, str]:
        return (self.team_a, self.team_b)

    def opponent(self, team: str) -> str:
        return self.team_b if team == self.team_a else self.team_a

    def problems(self) -> list[RuleMessage]:
        """Setup mistakes and warnings to show before the game (empty when fine). A roster
        longer than the team size is no mistake (substitutes): its line-up is checked
        against the team size (30.01, ``checks.lineup_size_refusal``)."""
        out = []
        if self.team_a == self.team_b:
            out.append(rule("plays_itself", team=Team(self.team_a)))
        for team in self.teams:
            roster = self.rosters.get(team, ())
            nums = [p.number for p in roster]
            if len(set(nums)) != len(nums):
                out.append(rule("duplicate_numbers", team=Team(team)))
            if not roster:
                out.append(rule("empty_roster", team=Team(team)))
            elif len(roster) < self.settings.team_size:  # 30.01: plays with fewer
                out.append(
                    rule(
                        "fewer_players",
                        team=Team(team),
                        count=len(roster),
                        size=self.settings.team_size,
                    )
                )
        return out


def default_lineup(
    roster: Sequence[int],
    team_size: int,
    disqualified: Collection[int] = (),
    previous: Sequence[int] | None = None,
) -> tuple[int, ...]:
    """30.01: who plays by default -- the team's previous line-up (its players still on the
    roster), else the first ``team_size`` players of the roster; never more than
    ``team_size``, never a player disqualified under 20.05."""
    on_roster = [n for n in roster if n not in disqualified]
    if previous:
        keep = set(on_roster)
        picked = list(dict.fromkeys(n for n in previous if n in keep))
    else:
        picked = on_roster
    return tuple(picked[: max(team_size, 0)])
