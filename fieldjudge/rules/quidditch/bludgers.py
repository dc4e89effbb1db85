"""Bludgers (7, 8).

Each bludger follows the player drawn for it at the end of the previous round (never a keeper
by itself). A beater of the target's team -- the target himself if he is a beater -- who
declared hitting that bludger rolls 10 % + 2 %/match to hit it away before it strikes; then
accuracy 60 % + 1 %/match: a hit sends it at the aimed player (an opponent or his partner),
who is resolved as in 7, and the bludger rests next round; a miss is wasted and the bludger is
drawn at random next round. Otherwise the target escapes only with a dodge feint and a roll of
50 % + skill; no feint, a skipped post or a failed roll knocks him down for 2 rounds with an
injury (5 % of injuries end his match). A bludger hit at a keeper outside a scoring chance is
a team warning and a penalty (11.5).
"""

from __future__ import annotations

from . import feints as F
from .context import RoundContext
from .declarations import HIT_BLUDGER
from .outcome import BLUDGERS
from .roster import BEATER, KEEPER

PH = BLUDGERS
REST = "rest"
RANDOM = "random"


def resolve_bludgers(ctx: RoundContext) -> None:
    for i, b in enumerate(ctx.s.bludgers):
        if b.rest:
            ctx.emit(PH, "bludger_rest", "8", (), bludger=i + 1)
            continue
        x = b.target
        if x is None:
            continue
        if not ctx.up(x):
            ctx.emit(PH, "bludger_target_down", "7", (x,), bludger=i + 1)
            continue
        beater = _beater_for(ctx, i, x)
        if beater is not None and _hit_away(ctx, i, beater, x):
            continue
        dodge(ctx, i, x)


def _beater_for(ctx: RoundContext, i: int, target: str) -> str | None:
    team = ctx.p(target).team
    for d in ctx.in_post_order():
        p = ctx.p(d.player)
        if (
            d.action == HIT_BLUDGER
            and d.bludger == i
            and p.position == BEATER
            and p.team == team
            and ctx.up(d.player)
        ):
            return d.player
    return None


def _hit_away(ctx: RoundContext, i: int, beater: str, protected: str) -> bool:
    """Return whether the bludger was hit away from ``protected``."""
    cfg = ctx.cfg
    bp = ctx.p(beater)
    ctx.hit_away.add((i, beater))
    r1 = ctx.roll(
        f"отбитие бладжера {i + 1}: {bp.name}",
        ctx.thr(cfg.beater_intercept, cfg.beater_intercept_per_match * bp.matches),
    )
    if not r1.success:
        ctx.emit(PH, "hit_missed_ball", "8", (beater, protected), [r1], bludger=i + 1)
        return False
    aim = ctx.decl(beater).target  # type: ignore[union-attr]
    valid_aim = aim is not None and (
        ctx.p(aim).team != bp.team or (ctx.p(aim).position == BEATER and aim != beater)
    )
    r2 = ctx.roll(
        f"точность удара по бладжеру {i + 1}: {bp.name}",
        ctx.thr(cfg.beater_accuracy, cfg.beater_accuracy_per_match * bp.matches),
    )
    hit = bool(r2.success) and valid_aim
    ctx.bludger_next[i] = REST if hit else RANDOM
    ctx.emit(
        PH,
        "hit_away",
        "8",
        (beater, protected, aim or ""),
        [r1, r2],
        bludger=i + 1,
        accurate=hit,
        valid_aim=valid_aim,
    )
    if hit and aim is not None:
        if ctx.p(aim).position == KEEPER and aim not in ctx.scoring_keepers:
            ctx.team_warning(bp.team, "11.5", beater)
            ctx.penalty(bp.team, "11.5")
        if ctx.up(aim):
            if _may_hit_back(ctx, i, aim) and _hit_away(ctx, i, aim, aim):
                return True  # 7, 8: the aimed beater hit it away in turn
            dodge(ctx, i, aim, aimed=True)
    return True


def _may_hit_back(ctx: RoundContext, i: int, pid: str) -> bool:
    """7: «если бладжер наводится на защитника, он может как попытаться уклониться, так и
    отбить бладжер» -- a beater who declared hitting this bludger and has not hit it yet."""
    d = ctx.decl(pid)
    return (
        ctx.p(pid).position == BEATER
        and d is not None
        and d.action == HIT_BLUDGER
        and d.bludger == i
        and (i, pid) not in ctx.hit_away
    )


def dodge(ctx: RoundContext, i: int, pid: str, aimed: bool = False) -> None:
    """Section 7 for one player and one bludger."""
    cfg = ctx.cfg
    p = ctx.p(pid)
    d = ctx.decl(pid)
    feint, _ = ctx.feint(pid, F.DODGE)
    if d is None or feint is None:
        ctx.emit(PH, "knocked_down", "7", (pid,), bludger=i + 1, aimed=aimed, skipped=d is None)
        ctx.injure(pid, PH)
        return
    skill = cfg.dodge_per_match * p.matches + cfg.dodge_per_practice * p.practices
    r = ctx.roll(f"уклонение от бладжера {i + 1}: {p.name}", ctx.thr(cfg.dodge, skill))
    ctx.emit(
        PH, "dodge", "7", (pid,), [r], bludger=i + 1, aimed=aimed, feint=feint, success=r.success
    )
    if not r.success:
        ctx.injure(pid, PH)


def draw_targets(ctx: RoundContext) -> None:
    """Targets for the next round: a hit-away bludger rests; others follow a random player
    who plays next round, not a keeper, distinct when possible (7, 8)."""
    s = ctx.s
    eligible = [p.id for p in ctx.setup.players if p.position != KEEPER and s.is_active(p.id)]
    taken: set[str] = set()
    for i, b in enumerate(s.bludgers):
        if ctx.bludger_next.get(i) == REST:
            b.target, b.rest = None, True
            continue
        b.rest = False
        pool = [pid for pid in eligible if pid not in taken] or eligible
        if not pool:
            b.target = None
            continue
        who, rolls = ctx.dice.choose(f"цель бладжера {i + 1}", pool)
        b.target = who
        taken.add(who)
        ctx.emit(PH, "bludger_target", "7", (who,), rolls, bludger=i + 1)
