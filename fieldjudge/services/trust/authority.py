"""Who may append what (31, 32): the one check every append of a game goes through.

The rules engine says whether an event is legal in the game (``paintball.refusal``, asked
by the live game before it calls the writer); this module adds the protocol's authority:
a locked protocol takes nothing but the head judge's total correction and his void of a
game event (31), and the head judge's actions (a total correction or a void after the
lock, 31; a no-show, 32.01; a conflict decision) need his
secret (which unlocks his signing key), presented as a :class:`HeadJudge` grant that only :class:`TournamentService` issues."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fieldjudge.rules import protocol as pr
from fieldjudge.rules.chrono_checks import APPROVAL
from fieldjudge.rules.events import VOID, Event
from fieldjudge.rules.messages import Phrase, phrase, rule
from fieldjudge.store.schema import HANDOVER

#: event types only the head judge may append (with his secret, signed with his key): 31, 32.01, 19.05
HEAD_JUDGE_TYPES = frozenset({pr.TOTAL_CORRECTED, pr.NO_SHOW, APPROVAL, HANDOVER})
#: head-judge actions that are not events (their grants' names in the attempts log)
SIGN_TOURNAMENT = "sign_tournament"
#: the head judge's void of an event of a locked protocol (31), in the attempts log
LOCKED_VOID = "void_locked"
REGISTER_LAPTOP = "key_registration"
#: his decision on a difference between two laptops' tournament files (merge)
TOURNAMENT_DECISION = "tournament_decision"


class HeadJudge:
    """Proof that the head judge's secret was typed (issued by ``TournamentService``).

    Constructing one elsewhere proves nothing: the service accepts only the grants it
    issued itself (kept in a private set)."""

    __slots__ = ("name", "__weakref__")

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<HeadJudge {self.name!r}>"


#: the refusal of each head-judge action without his secret, citing its section if any
NEEDS_SECRET: dict[str, Phrase] = {
    pr.NO_SHOW: rule("no_show_needs_pin"),
    pr.TOTAL_CORRECTED: rule("correction_needs_pin"),
    APPROVAL: rule("approval_needs_pin"),
    HANDOVER: phrase("handover_needs_pin"),
    LOCKED_VOID: rule("void_locked_needs_pin"),
    SIGN_TOURNAMENT: phrase("tournament_needs_secret"),
    REGISTER_LAPTOP: phrase("registration_needs_secret"),
    TOURNAMENT_DECISION: phrase("tournament_decision_needs_secret"),
}


def head_judge_refusal(etype: str) -> Phrase:
    """The refusal of a head-judge action without his secret (a game log's decision, 31,
    unless another action)."""
    return NEEDS_SECRET.get(etype) or rule("decision_needs_pin")


def append_refusal(
    events: Sequence[Event],
    etype: str,
    data: Mapping[str, Any],
    teams: tuple[str, str],
    head_judge: bool,
    protocol: pr.Protocol | None = None,
    with_id: Callable[[str], Sequence[Event]] | None = None,
) -> str | None:
    """Why ``etype`` cannot be appended to a game log holding ``events``, or None.
    ``head_judge``: whether the append carries a valid head-judge grant. ``protocol``: the
    log's protocol as the service keeps it (``fold_protocol(events, teams)``), so that an
    append does not fold the whole game again. ``with_id``: the log's events of an id
    (``EventLog.with_id``), so that a void finds its target without walking the log."""
    if etype in HEAD_JUDGE_TYPES and not head_judge:
        return head_judge_refusal(etype)
    if etype == VOID and not head_judge:  # undoing his ruling is his too (32.03 replay)
        target = pr.first_with_id(events, str(data.get("target", "")), with_id)
        if target is not None and target.type in HEAD_JUDGE_TYPES:
            return head_judge_refusal(target.type)
        if pr.is_locked_void(etype, data):  # voiding an event of a locked protocol (31)
            return head_judge_refusal(LOCKED_VOID)
    return pr.lock_refusal(events, etype, data, teams, protocol)
