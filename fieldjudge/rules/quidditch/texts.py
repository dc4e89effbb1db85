"""What the quidditch engine refuses: English templates, their Russian in
``locale/ru/LC_MESSAGES/rules.po`` (the round post itself is Russian, ``post.py``).
Constructors only: the decisions are in ``closing.py``, ``resolve.py`` and ``interim.py``."""

from __future__ import annotations

from fieldjudge.rules.messages import RuleMessage, catalog

R = RuleMessage


@catalog
def seed_revealed() -> RuleMessage:
    return R(
        "0",
        "the server seed is revealed: the match is closed, no roll is possible with that seed; "
        "continuing needs a new match with a new committed seed",
    )


@catalog
def match_ended() -> RuleMessage:
    return R("9", "the match has ended")


@catalog
def passes_not_yet() -> RuleMessage:
    return R(
        "5",
        "passes are resolved within the round once the quaffle is in play and no penalty is "
        "pending",
    )
