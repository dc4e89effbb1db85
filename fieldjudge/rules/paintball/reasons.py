"""Elimination reasons, the section each cites, and how a penalty is applied."""

from __future__ import annotations

from dataclasses import dataclass

from fieldjudge.rules.messages import Phrase


@dataclass(frozen=True)
class Reason:
    """An elimination reason: its key, its rule section and its English text."""

    key: str
    section: str
    en: str

    @property
    def text(self) -> Phrase:
        """The reason's words; the catalog (``rules.po``) files them under the section."""
        return Phrase.in_context(self.section, self.en)


def _r(key: str, section: str, en: str) -> Reason:
    return Reason(key, section, en)


# Reasons a judge logs with an ``elimination`` event.
DIRECT_REASONS: dict[str, Reason] = {
    r.key: r
    for r in (
        _r("hit", "26", "hit"),
        _r("playing_on", "28.02", "playing on after a hit"),
        _r("picked_up_balls", "29.01", "shooting balls picked up"),
        _r("out_of_bounds", "29.02", "out of bounds"),
        _r("no_mask", "29.03", "no mask"),
        _r("deadman", "29.04", "calling out / deadman"),
        _r("tools", "29.05", "tools or forbidden equipment"),
        _r(
            "equipment_over_2m",
            "29.06",
            "more than 2 m from own equipment",
        ),
        _r("unsportsmanlike", "29.07", "unsportsmanlike conduct"),
        _r("judge_removal", "29.08", "removed by a judge"),
        _r("imitating_signals", "29.09", "imitating judge signals"),
        _r("own_flag_touch", "22.01", "touching own flag"),
        _r("flag_hidden", "22.02", "flag not carried visibly"),
        _r(
            "marker_tampering",
            "20.07",
            "acting on the marker in play",
        ),
    )
}

# Reasons a judge logs before the clock starts (20.07, second item of that number: on
# «Положить маркеры» a player who does not lay his marker down is counted eliminated).
PRE_START_REASONS: dict[str, Reason] = {
    r.key: r
    for r in (
        _r(
            "markers_down",
            "20.07",
            'marker not laid down on "Markers down"',
        ),
    )
}

# Reasons the fold assigns by itself (from checks, chrono, group removals, inspection).
DERIVED_REASONS: dict[str, Reason] = {
    r.key: r
    for r in (
        _r("group_removal", "29.08", "group removal 1+1"),
        _r("chrono_over_limit", "20.03", "marker over 300 fps"),
        _r("chrono_group", "20.04", "marker over 310 fps"),
        _r("chrono_above_320", "20.04", "marker over 320 fps"),
        _r("forbidden_mode", "20.05", "forbidden mode or rate of fire"),
        _r(
            "failed_inspection",
            "18.02",
            "hit found at post-game inspection",
        ),
        _r("did_not_report", "18.02", "did not report for inspection"),
    )
}

ALL_REASONS: dict[str, Reason] = {**DIRECT_REASONS, **PRE_START_REASONS, **DERIVED_REASONS}

# Penalty kinds of the catalogue (Settings.penalties): a reason mapped to "group_1_1"
# removes the offender and a second player of the same team (29.08).
PENALTY_REMOVAL = "removal"
PENALTY_GROUP_1_1 = "group_1_1"
PENALTY_KINDS = (PENALTY_REMOVAL, PENALTY_GROUP_1_1)

# 27.02-27.05, 28.02, 29.11: what "playing on while eliminated" may cite (reason "playing_on")
PLAYING_ON_SECTIONS = ("27.02", "27.03", "27.04", "27.05", "28.02", "29.11")
# reasons accepted for a player who is already eliminated: the penalty falls on his team
ON_ELIMINATED_REASONS = ("playing_on",)
# 20.07 (second item of that number): accepted before the clock starts, and only then
BEFORE_START_REASONS = tuple(PRE_START_REASONS)
