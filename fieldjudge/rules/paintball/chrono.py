"""In-game chrono verdicts (20.02-20.06). Pure: a reading in, a penalty out."""

from __future__ import annotations

from dataclasses import dataclass

from fieldjudge.rules.paintball.setup import Settings

NONE = "none"
REMOVAL = "removal"
GROUP_1_1 = "group_1_1"
DISQUALIFICATION = "disqualification"


@dataclass(frozen=True)
class ChronoVerdict:
    penalty: str  # none | removal | group_1_1 | disqualification
    section: str
    reason: str | None  # elimination reason key (reasons.DERIVED_REASONS) or None
    flagged: bool = False  # to the head judge (the > 320 fps gap, 20.05)
    disqualify: bool = False  # 20.05: for the rest of the tournament
    team_penalty: bool = False  # 20.05: team penalty of section 11
    text: str = ""

    @property
    def eliminates(self) -> bool:
        return self.penalty != NONE

    @property
    def needs_second_player(self) -> bool:
        return self.penalty == GROUP_1_1


def _fmt(fps: float) -> str:
    return f"{fps:g}"


def chrono_verdict(
    settings: Settings,
    fps: float | None,
    forbidden_mode: bool = False,
    interval_ms: float | None = None,
) -> ChronoVerdict:
    """The penalty for one in-game reading. ``fps`` None means no velocity reading (only
    the mode / rate of fire is judged). Over ``limit_fps`` means strictly above it (20.03
    "свыше 300"), so 300.0 passes and 300.1 is removed."""
    c = settings.chrono
    rate_bad = interval_ms is not None and interval_ms < c.rof_min_interval_ms
    if forbidden_mode or rate_bad:
        # 20.05: removal, disqualification for the tournament, team penalty of section 11
        why = "forbidden mode" if forbidden_mode else f"shots {interval_ms:g} ms apart"
        return ChronoVerdict(
            DISQUALIFICATION,
            "20.05",
            "forbidden_mode",
            flagged=True,
            disqualify=True,
            team_penalty=True,
            text=(
                f"20.05: {why} (minimum {c.rof_min_interval_ms} ms): removal, "
                "disqualification for the tournament and a team penalty of section 11"
            ),
        )
    if fps is None or fps <= c.limit_fps:
        shown = "no reading" if fps is None else f"{_fmt(fps)} fps"
        return ChronoVerdict(NONE, "20.02", None, text=f"20.02: {shown}, no penalty")
    if fps <= c.group_above_fps:
        # 20.03
        return ChronoVerdict(
            REMOVAL,
            "20.03",
            "chrono_over_limit",
            text=f"20.03: {_fmt(fps)} fps is over {_fmt(c.limit_fps)} fps: player removed",
        )
    if fps <= c.group_upto_fps:
        # 20.04
        return ChronoVerdict(
            GROUP_1_1,
            "20.04",
            "chrono_group",
            text=f"20.04: {_fmt(fps)} fps is over {_fmt(c.group_above_fps)} fps: group removal 1+1",
        )
    # Above 320 fps the source is silent: the policy is a setting (RULES.md default).
    policy = c.above_320
    flagged = policy.endswith("_flagged")
    base = policy.removesuffix("_flagged")
    tail = "; flagged for the head judge" if flagged else ""
    if base == DISQUALIFICATION:
        return ChronoVerdict(
            DISQUALIFICATION,
            "20.04",
            "chrono_above_320",
            flagged=True,
            disqualify=True,
            text=f"20.04: {_fmt(fps)} fps is over {_fmt(c.group_upto_fps)} fps: removal and "
            f"disqualification (tournament setting){tail}",
        )
    kind = GROUP_1_1 if base == GROUP_1_1 else REMOVAL
    what = "group removal 1+1" if kind == GROUP_1_1 else "player removed"
    return ChronoVerdict(
        kind,
        "20.04",
        "chrono_above_320",
        flagged=flagged,
        text=f"20.04: {_fmt(fps)} fps is over {_fmt(c.group_upto_fps)} fps: {what}{tail}",
    )
