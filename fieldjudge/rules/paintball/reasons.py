"""Elimination reasons, the section each cites, and how a penalty is applied."""

from __future__ import annotations

from dataclasses import dataclass

from fieldjudge.rules.messages import Phrase
from fieldjudge.rules.texts import (
    DERIVED_REASON_TEXTS,
    DIRECT_REASON_TEXTS,
    PRE_START_REASON_TEXTS,
)


@dataclass(frozen=True)
class Reason:
    """An elimination reason: its key, its rule section and its English text."""

    key: str
    section: str
    en: str

    @property
    def text(self) -> Phrase:
        """The reason's words; the catalog (``fieldjudge.po``) files them under the section."""
        return Phrase.in_context(self.section, self.en)


def _reasons(texts: dict[str, tuple[str, str]]) -> dict[str, Reason]:
    return {key: Reason(key, section, en) for key, (section, en) in texts.items()}


DIRECT_REASONS = _reasons(DIRECT_REASON_TEXTS)
PRE_START_REASONS = _reasons(PRE_START_REASON_TEXTS)
DERIVED_REASONS = _reasons(DERIVED_REASON_TEXTS)
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
