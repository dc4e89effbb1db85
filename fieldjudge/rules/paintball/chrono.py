"""In-game chrono verdicts (20.02-20.06). Pure: a reading in, a penalty out."""

from __future__ import annotations

import math
from dataclasses import dataclass

from fieldjudge.rules.messages import Phrase, phrase, rule, without_section
from fieldjudge.rules.paintball.reasons import PENALTY_GROUP_1_1
from fieldjudge.rules.paintball.setup import FPS_EXACT, Settings

NONE = "none"
REMOVAL = "removal"
GROUP_1_1 = "group_1_1"
DISQUALIFICATION = "disqualification"


@dataclass(frozen=True)
class ChronoVerdict:
    """What one chronograph reading brings (20.02-20.05): the penalty, its section, flags."""

    penalty: str  # none | removal | group_1_1 | disqualification
    section: str
    reason: str | None  # elimination reason key (reasons.DERIVED_REASONS) or None
    flagged: bool = False  # to the head judge (the > 320 fps gap, 20.05)
    disqualify: bool = False  # 20.05: for the rest of the tournament
    team_penalty: bool = False  # 20.05: team penalty of section 11
    text: str = ""  # a RuleMessage (a str): render(lang, names) for the UI
    # 20.05 team penalty from the catalogue, or 20.04 together with 20.05: a second player
    second_player: bool = False
    judged_fps: float | None = None  # the value the limits were applied to (fps_precision)

    @property
    def eliminates(self) -> bool:
        return self.penalty != NONE

    @property
    def needs_second_player(self) -> bool:
        return self.penalty == GROUP_1_1 or self.second_player


def judged_fps(fps: float | None, precision: str = "whole") -> float | None:
    """The value a reading is judged on (RULES.md "Reading precision", 20.02 / 20.03): its
    whole fps rounded down by default (300.9 → 300), or as read with ``exact``. The reading
    itself is kept and shown as the device gave it. Float noise of a unit conversion
    (300.99999999 for 301) is rounded away first."""
    if fps is None:
        return None
    if precision == FPS_EXACT:
        return fps
    return float(math.floor(round(fps, 6)))


def chrono_verdict(
    settings: Settings,
    fps: float | None,
    forbidden_mode: bool = False,
    interval_ms: float | None = None,
    *,
    interval_measured: bool = True,
) -> ChronoVerdict:
    """The penalty for one in-game reading. ``fps`` None means no velocity reading (only
    the mode / rate of fire is judged). ``interval_ms`` is the shortest interval measured
    between the shots; with ``interval_measured`` False it is unknown and never judged: no
    20.05 from it (RULES.md "Timing a string of shots"). Over ``limit_fps`` means strictly above it (20.03
    "свыше 300"), applied to ``judged_fps`` (``Settings.fps_precision``): by default 300.9
    passes (whole 300) and 301.0 is removed; with ``exact`` 300.1 is removed."""
    c = settings.chrono
    rate_bad = interval_measured and interval_ms is not None and interval_ms < c.rof_min_interval_ms
    read = fps
    fps = judged_fps(fps, settings.fps_precision)
    if forbidden_mode or rate_bad:
        # 20.05: removal, disqualification for the tournament, team penalty of section 11
        # (the catalogue's, default group removal 1+1); over 310 fps 20.04 applies as well
        why = (
            phrase("forbidden_mode")
            if forbidden_mode
            else phrase("shots_apart", interval=interval_ms)
        )
        team_group = settings.penalty_kind("forbidden_mode") == PENALTY_GROUP_1_1
        over_group = fps is not None and fps > c.group_above_fps
        text = rule("chrono_disqualified", why=why, minimum=c.rof_min_interval_ms)
        if over_group:
            text = rule(
                "chrono_disqualified_and_group",
                dq=without_section(text),
                fps=read,
                limit=c.group_above_fps,
            )
        return ChronoVerdict(
            DISQUALIFICATION,
            "20.05",
            "forbidden_mode",
            flagged=True,
            disqualify=True,
            team_penalty=True,
            text=text,
            second_player=team_group or over_group,
            judged_fps=fps,
        )
    if fps is None or fps <= c.limit_fps:
        text = rule("chrono_no_reading") if read is None else rule("chrono_ok", fps=read)
        return ChronoVerdict(NONE, "20.02", None, text=text, judged_fps=fps)
    if fps <= c.group_above_fps:  # 20.03
        text = rule("chrono_over_limit", fps=read, limit=c.limit_fps)
        return ChronoVerdict(REMOVAL, "20.03", "chrono_over_limit", text=text, judged_fps=fps)
    if fps <= c.group_upto_fps:  # 20.04
        text = rule("chrono_group", fps=read, limit=c.group_above_fps)
        return ChronoVerdict(GROUP_1_1, "20.04", "chrono_group", text=text, judged_fps=fps)
    # Above 320 fps the source is silent: the policy is a setting (RULES.md default).
    policy = c.above_320
    flagged = policy.endswith("_flagged")
    base = policy.removesuffix("_flagged")
    tail = phrase("flagged") if flagged else Phrase("")
    if base == DISQUALIFICATION:
        return ChronoVerdict(
            DISQUALIFICATION,
            "20.04",
            "chrono_above_320",
            flagged=True,
            disqualify=True,
            text=rule("chrono_above_dq", fps=read, limit=c.group_upto_fps, tail=tail),
            judged_fps=fps,
        )
    kind = GROUP_1_1 if base == GROUP_1_1 else REMOVAL
    return ChronoVerdict(
        kind,
        "20.04",
        "chrono_above_320",
        flagged=flagged,
        text=rule(
            "chrono_above",
            fps=read,
            limit=c.group_upto_fps,
            what=phrase("group_1_1" if kind == GROUP_1_1 else "removed"),
            tail=tail,
        ),
        judged_fps=fps,
    )
