"""Who may append what (31, 32): the one check every append of a game goes through.

The rules engine says whether an event is legal in the game (``paintball.refusal``, asked
by the live game before it calls the writer); this module adds the protocol's authority:
a locked protocol takes nothing but the head judge's total correction (31), and the head
judge's actions (a total correction, 31; a no-show, 32.01; a conflict decision) need his
PIN, presented as a :class:`HeadJudge` grant that only :class:`TournamentService` issues."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fieldjudge.rules import protocol as pr
from fieldjudge.rules import protocol_texts as pt
from fieldjudge.rules.chrono_checks import APPROVAL
from fieldjudge.rules.events import Event
from fieldjudge.rules.messages import Phrase
from fieldjudge.store.schema import HANDOVER

#: event types only the head judge may append (with his PIN): 31, 32.01, 19.05
HEAD_JUDGE_TYPES = frozenset({pr.TOTAL_CORRECTED, pr.NO_SHOW, APPROVAL, HANDOVER})


class HeadJudge:
    """Proof that the head judge's PIN was typed (issued by ``TournamentService``).

    Constructing one elsewhere proves nothing: the service accepts only the grants it
    issued itself (kept in a private set)."""

    __slots__ = ("name", "__weakref__")

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<HeadJudge {self.name!r}>"


def head_judge_refusal(etype: str) -> Phrase:
    """The refusal of a head-judge action without his PIN, citing the section."""
    if etype == pr.NO_SHOW:
        return pt.no_show_needs_pin()
    if etype == pr.TOTAL_CORRECTED:
        return pt.correction_needs_pin()
    if etype == APPROVAL:
        return pt.approval_needs_pin()
    if etype == HANDOVER:
        return pt.handover_needs_pin()
    return pt.decision_needs_pin()


def append_refusal(
    events: Sequence[Event],
    etype: str,
    data: Mapping[str, Any],
    teams: tuple[str, str],
    head_judge: bool,
) -> str | None:
    """Why ``etype`` cannot be appended to a game log holding ``events``, or None.
    ``head_judge``: whether the append carries a valid head-judge grant."""
    if etype in HEAD_JUDGE_TYPES and not head_judge:
        return head_judge_refusal(etype)
    return pr.lock_refusal(events, etype, data, teams)


def log_refusals(
    events: Sequence[Mapping[str, Any]], start: int, teams: tuple[str, str]
) -> list[tuple[int, str, bool]]:
    """Events ``start..`` of a log (documents, e.g. from another laptop) that this laptop
    would have refused: ``(index, message, needs_head_judge)``. A head-judge action cannot
    be checked here (its PIN was typed elsewhere): it waits for the head judge's decision."""
    evs = [Event.from_doc(dict(d)) for d in events]
    out: list[tuple[int, str, bool]] = []
    for i in range(start, len(evs)):
        e = evs[i]
        if e.type in HEAD_JUDGE_TYPES:
            out.append((i, head_judge_refusal(e.type), True))
            continue
        why = pr.lock_refusal(evs[:i], e.type, e.data, teams)
        if why:
            out.append((i, why, False))
    return out
