"""Collisions (10) and illegal contact (11.4).

Allowed: a chaser pushing the carrier during a steal; a seeker pushing the other seeker
during a catch attempt. The pushed one may push back (mutual: 25 % each falls) or dodge with
a feint (50 %). Otherwise the push knocks the target down with 30 % and the pusher falls with
20 % (a dodged push still risks the pusher's fall). Every push is rolled, allowed or not; an
illegal one is also a team warning and the pusher's removal, and a penalty if the victim fell.
Fallen players sit out 2 rounds; a fallen carrier drops the quaffle.
"""

from __future__ import annotations

from . import feints as F
from .context import RoundContext
from .declarations import DODGE_PUSH, PUSH_BACK


def resolve_push(ctx: RoundContext, phase: str, pusher: str, target: str, legal: bool) -> bool:
    """Roll a push; return whether the target fell."""
    cfg = ctx.cfg
    td = ctx.decl(target)
    section = "10" if legal else "11.4"
    rolls = []
    target_fell = pusher_fell = False
    dodge_feint = None
    mode = "push"
    if td is not None and td.response == PUSH_BACK and ctx.up(target):
        mode = "mutual"
        rt = ctx.roll("толчок: падение толкнутого (обоюдный)", ctx.thr(cfg.mutual_push))
        rp = ctx.roll("толчок: падение толкнувшего (обоюдный)", ctx.thr(cfg.mutual_push))
        rolls += [rt, rp]
        target_fell, pusher_fell = bool(rt.success), bool(rp.success)
    else:
        dodged = False
        if td is not None and td.response == DODGE_PUSH:
            dodge_feint, _ = ctx.feint(target, F.PUSH_DODGE)
            if dodge_feint is not None:
                mode = "dodge"
                rd = ctx.roll("уклонение от толчка", ctx.thr(cfg.push_dodge))
                rolls.append(rd)
                dodged = bool(rd.success)
        if not dodged:
            rt = ctx.roll("толчок: падение толкнутого", ctx.thr(cfg.push_knock))
            rolls.append(rt)
            target_fell = bool(rt.success)
        rp = ctx.roll("толчок: падение толкнувшего", ctx.thr(cfg.pusher_falls))
        rolls.append(rp)
        pusher_fell = bool(rp.success)
    ctx.emit(
        phase,
        "push",
        section,
        (pusher, target),
        rolls,
        mode=mode,
        legal=legal,
        feint=dodge_feint,
        target_fell=target_fell,
        pusher_fell=pusher_fell,
    )
    if target_fell:
        ctx.fall(target, cfg.fallen_rounds)
    if pusher_fell:
        ctx.fall(pusher, cfg.fallen_rounds)
    if not legal:
        team = ctx.p(pusher).team
        ctx.team_warning(team, "11.4", pusher)
        ctx.remove(pusher, "11.4")
        ctx.emit("warnings", "removed", "11.4", (pusher,))
        if target_fell:
            ctx.penalty(team, "11.4")
    return target_fell
