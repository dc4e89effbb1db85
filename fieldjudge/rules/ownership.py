"""One writer per game across laptops (results-integrity issue, item 4). Pure.

A game file records the laptop that owns it (the one that created it). Only that laptop
appends to it; every other laptop that reads the file (through a synced folder or a merge)
shows it read-only. When a laptop breaks mid-tournament the head judge hands its games over
to another laptop: a handover is a head-judge event naming the laptop that gives the game
(``from_laptop``) and the one that takes it (``to_laptop``). The services check the head
judge's signature of each handover before passing it here; this module only applies them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from fieldjudge.rules.messages import Phrase, phrase


class HandoverLike(Protocol):
    @property
    def from_laptop(self) -> str: ...

    @property
    def to_laptop(self) -> str: ...


@dataclass(frozen=True)
class Handover:
    """The head judge gives a game from one laptop to another."""

    from_laptop: str
    to_laptop: str


def current_owner(owner_id: str | None, handovers: Iterable[HandoverLike] = ()) -> str | None:
    """The laptop that owns the game now: the recorded owner, moved along each handover in
    order. A handover that does not start at the owner of that moment is ignored (it gives
    away a game its ``from_laptop`` did not hold)."""
    owner = owner_id or None
    for h in handovers:
        if owner is not None and h.from_laptop == owner and h.to_laptop:
            owner = h.to_laptop
    return owner


def may_append(
    owner_id: str | None, this_laptop_id: str, handovers: Iterable[HandoverLike] = ()
) -> Phrase | None:
    """Why ``this_laptop_id`` may not append to a game owned by ``owner_id`` (after
    ``handovers``), or None when it may. A game with no recorded owner yet may be written
    by the laptop that records itself as its owner with the first event."""
    owner = current_owner(owner_id, handovers)
    if owner is None or owner == this_laptop_id:
        return None
    return phrase("not_owner", owner=owner)


def foreign_writes(
    owner_id: str | None, events: Iterable[tuple[int, str, str, Handover | None]]
) -> list[tuple[int, str, str]]:
    """The events of a game file appended by a laptop that did not own the game at that
    point: ``(seq, signer, owner)`` each. ``events``: ``(seq, signer, ...)`` in order, with
    the hand-over each one makes (None for any other event; only hand-overs whose head-judge
    signature holds). A hand-over moves the owner from its own event on; it is the head
    judge's act, so whichever laptop appended it is not a foreign writer. A game with no
    recorded owner (older files) has none."""
    owner = owner_id or None
    out = []
    for seq, signer, _type, move in events:
        if move is not None:
            owner = current_owner(owner, [move])
            continue
        if owner is not None and signer != owner:
            out.append((seq, signer, owner))
    return out
