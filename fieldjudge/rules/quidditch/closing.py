"""A revealed match is closed (RULES.md "Quidditch", DESIGN.md "Verifiable randomness").

Once the judge publishes the server seed, anyone holding it can predict every later roll, so
no roll may be drawn with it any more: :func:`roll_refusal` says why (the service marks a
state ``revealed`` from its log, :func:`revealed_in`), and ``resolve_round`` /
``resolve_passes`` / ``make_dice`` refuse a closed state. Continuing needs a new match with a new committed seed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fieldjudge.rules.messages import rule

from .state import MatchState

SEED_REVEALED = "seed_revealed"  # the event type a match log records the reveal with


def revealed_in(events: Iterable[Any]) -> bool:
    """True when a log (events with a ``type``) records the reveal of the seed."""
    return any(getattr(e, "type", None) == SEED_REVEALED for e in events)


def roll_refusal(state: MatchState) -> str | None:
    """Why no roll may be drawn for this match now (a RuleMessage), or None."""
    if state.revealed:
        return rule("seed_revealed")
    if state.ended:
        return rule("match_ended")
    return None
