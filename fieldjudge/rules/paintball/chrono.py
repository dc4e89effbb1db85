"""In-game chrono verdicts (20.02-20.06). Pure: a reading in, a penalty out."""

from __future__ import annotations

from dataclasses import dataclass

from fieldjudge.rules.paintball import notes as nt
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
    text: str = ""  # a RuleMessage (a str): render(lang, names) for the UI

    @property
    def eliminates(self) -> bool:
        return self.penalty != NONE

    @property
    def needs_second_player(self) -> bool:
        return self.penalty == GROUP_1_1


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
        why = nt.forbidden_mode() if forbidden_mode else nt.shots_apart(interval_ms)
        return ChronoVerdict(
            DISQUALIFICATION,
            "20.05",
            "forbidden_mode",
            flagged=True,
            disqualify=True,
            team_penalty=True,
            text=nt.chrono_disqualified(why, c.rof_min_interval_ms),
        )
    if fps is None or fps <= c.limit_fps:
        text = nt.chrono_no_reading() if fps is None else nt.chrono_ok(fps)
        return ChronoVerdict(NONE, "20.02", None, text=text)
    if fps <= c.group_above_fps:
        # 20.03
        return ChronoVerdict(
            REMOVAL,
            "20.03",
            "chrono_over_limit",
            text=nt.chrono_over_limit(fps, c.limit_fps),
        )
    if fps <= c.group_upto_fps:
        # 20.04
        return ChronoVerdict(
            GROUP_1_1,
            "20.04",
            "chrono_group",
            text=nt.chrono_group(fps, c.group_above_fps),
        )
    # Above 320 fps the source is silent: the policy is a setting (RULES.md default).
    policy = c.above_320
    flagged = policy.endswith("_flagged")
    base = policy.removesuffix("_flagged")
    if base == DISQUALIFICATION:
        return ChronoVerdict(
            DISQUALIFICATION,
            "20.04",
            "chrono_above_320",
            flagged=True,
            disqualify=True,
            text=nt.chrono_above_dq(fps, c.group_upto_fps, flagged),
        )
    kind = GROUP_1_1 if base == GROUP_1_1 else REMOVAL
    return ChronoVerdict(
        kind,
        "20.04",
        "chrono_above_320",
        flagged=flagged,
        text=nt.chrono_above(fps, c.group_upto_fps, kind == GROUP_1_1, flagged),
    )
