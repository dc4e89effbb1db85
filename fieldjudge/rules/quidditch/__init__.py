"""Forum quidditch (RULES.md "Quidditch", rulebook file 000): pure rules, no I/O.

A screen builds a :class:`MatchSetup`, starts with :func:`new_match`, offers
:func:`valid_actions` / :func:`valid_targets` per player, collects :class:`Declaration`
objects, calls :func:`resolve_round` with :func:`make_dice`, and shows :func:`render_post`.
"""

from .closing import SEED_REVEALED, reveal, revealed_in, roll_refusal
from .declarations import Declaration, valid_actions, valid_bludgers, valid_targets
from .feints import DEFAULT_FEINTS, Feint, FeintCatalogue
from .order import check_post_order
from .outcome import Outcome, RoundResult
from .post import render_passes_post, render_post
from .resolve import make_dice, resolve_passes, resolve_round
from .roster import MatchSetup, Player, Team
from .settings import EndCondition, QuidditchSettings
from .state import MatchState, new_match

__all__ = [
    "SEED_REVEALED",
    "DEFAULT_FEINTS",
    "Declaration",
    "EndCondition",
    "Feint",
    "FeintCatalogue",
    "MatchSetup",
    "MatchState",
    "Outcome",
    "Player",
    "QuidditchSettings",
    "RoundResult",
    "Team",
    "check_post_order",
    "make_dice",
    "new_match",
    "render_passes_post",
    "render_post",
    "resolve_passes",
    "resolve_round",
    "reveal",
    "revealed_in",
    "roll_refusal",
    "valid_actions",
    "valid_bludgers",
    "valid_targets",
]
