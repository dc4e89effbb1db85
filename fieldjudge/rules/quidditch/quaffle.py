"""The quaffle phase: throw-up (2), carrying (3), steals (4), passes (5), shots (6),
penalties (5.1), pick-ups of a dropped quaffle (10).

Posts are resolved in post order. A pass must name a teammate chaser placed by his own post
in the passer's zone (the nearest chaser), otherwise it is wasted and the quaffle lies loose;
opposing chasers who declared an interception of that passer roll 40 % + feint; if several
succeed, the one with the highest contest roll takes it (5: "the higher value takes it").
Without a successful interception the own pass is caught (100 %). With the match setting
``interception = "contest"`` (the literal reading of 5) the receiver of a good pass draws a
value too when an interception succeeded, and the higher value takes the ball (the
interceptor's value is his interception roll); ties are drawn again.
Passes may be resolved within the round (``resolve.resolve_passes``); the round's end then
skips them. A steal with a group feint (4: «не считая групповых финтов») is not held to the
one steal attempt per team and round.
"""

from __future__ import annotations

from . import feints as F
from .collisions import resolve_push
from .context import RoundContext
from .declarations import (
    CATCH_THROW_UP,
    GUARD,
    INTERCEPT,
    PASS,
    PENALTY_SHOT,
    PICK_UP,
    PUSH,
    SHOOT,
    STEAL,
    Declaration,
)
from .outcome import QUAFFLE
from .roster import CHASER, KEEPER, SEEKER
from .settings import INTERCEPTION_CONTEST
from .state import HELD, LOOSE, THROW_UP

PH = QUAFFLE


def resolve_quaffle(ctx: RoundContext) -> None:
    q = ctx.s.quaffle
    if ctx.s.penalties:
        _penalty(ctx)
        return
    if q.status == THROW_UP:
        _throw_up(ctx)
        return
    steal_teams: set[str] = set()
    done = set(ctx.s.passes_resolved)  # resolved within the round (5)
    passers: set[str] = set(done)
    for d in ctx.in_post_order():
        if not ctx.up(d.player):
            continue
        if d.action == PASS:
            if d.player in done:
                continue
            passers.add(d.player)
            _pass(ctx, d)
        elif d.action == STEAL:
            _steal(ctx, d, steal_teams)
        elif d.action == SHOOT:
            _shot(ctx, d)
        elif d.action == PICK_UP:
            _pick_up(ctx, d)
    for d in ctx.decls.values():
        if d.action == INTERCEPT and d.target not in passers:
            ctx.emit(PH, "intercept_no_pass", "5", (d.player,), passer=d.target)


def resolve_passes_so_far(ctx: RoundContext) -> None:
    """5: the passes posted so far, resolved within the round, in post order up to the first
    post whose ball action waits for the round's end (steal, shot, pick-up)."""
    done = ctx.s.passes_resolved
    for d in ctx.in_post_order():
        if d.action in (STEAL, SHOOT, PICK_UP):
            break
        if d.action != PASS or d.player in done or not ctx.up(d.player):
            continue
        _pass(ctx, d)
        done.append(d.player)


def resolve_illegal_pushes(ctx: RoundContext) -> None:
    """A push by anyone but a seeker is never allowed (10, 11.4); rolled all the same."""
    for d in ctx.in_post_order():
        if d.action == PUSH and d.target and ctx.p(d.player).position != SEEKER:
            if ctx.up(d.player) and d.target in ctx.active_start:
                resolve_push(ctx, PH, d.player, d.target, legal=False)


def _gain(ctx: RoundContext, pid: str, restart: bool = True) -> None:
    q = ctx.s.quaffle
    q.status, q.holder = HELD, pid
    if restart:
        q.since_round = ctx.round_no


def _throw_up(ctx: RoundContext) -> None:
    tried = [
        d.player
        for d in ctx.in_post_order()
        if d.action == CATCH_THROW_UP and ctx.p(d.player).position == CHASER and ctx.up(d.player)
    ]
    if not tried:
        ctx.emit(PH, "throw_up_nobody", "2")
        return
    who, rolls = ctx.dice.choose("розыгрыш квоффла", tried)
    _gain(ctx, who)
    ctx.emit(PH, "throw_up", "2", (who,), rolls, tried=tried)


def _pick_up(ctx: RoundContext, d: Declaration) -> None:
    q = ctx.s.quaffle
    if ctx.p(d.player).position != CHASER:
        return
    if q.status == LOOSE:
        _gain(ctx, d.player)
        ctx.emit(PH, "pick_up", "10", (d.player,))
    else:
        ctx.emit(PH, "pick_up_late", "10", (d.player,))


def _zone(ctx: RoundContext, pid: str) -> str | None:
    d = ctx.decl(pid)
    if ctx.p(pid).position == KEEPER:
        return ctx.s.zone_of(pid)
    return d.zone if d is not None and d.zone else ctx.s.zones.get(pid)


def _pass(ctx: RoundContext, d: Declaration) -> None:
    q = ctx.s.quaffle
    passer = d.player
    if q.status != HELD or q.holder != passer:
        ctx.emit(PH, "pass_no_ball", "5", (passer,))
        return
    team = ctx.p(passer).team
    recv = d.target
    rd = ctx.decl(recv)
    reason = None
    if recv is None or recv == passer:
        reason = "no_receiver"
    elif ctx.p(recv).team != team or ctx.p(recv).position != CHASER:
        reason = "not_a_chaser"
    elif not ctx.up(recv):
        reason = "receiver_out"
    elif rd is None or not rd.zone:
        reason = "receiver_no_zone"
    elif rd.zone != _zone(ctx, passer):
        reason = "receiver_elsewhere"
    # interceptions (5)
    tries = []
    for i in ctx.in_post_order():
        p = ctx.p(i.player)
        if (
            i.action == INTERCEPT
            and i.target == passer
            and p.team != team
            and p.position == CHASER
            and ctx.up(i.player)
        ):
            feint, bonus = ctx.feint(i.player, F.INTERCEPT)
            r = ctx.roll(f"перехват: {p.name}", ctx.thr(ctx.cfg.intercept, bonus))
            tries.append((i.player, feint, bonus, r))
    won = [t for t in tries if t[3].success]
    contest: list = []
    extra: dict = {}
    if won and ctx.cfg.interception == INTERCEPTION_CONTEST:
        # 5, literal: the higher value of the draw takes the ball, the receiver's included
        values = [(t[0], t[3].value) for t in won]
        if reason is None and recv is not None:
            rr = ctx.roll(f"поимка паса: {ctx.p(recv).name}")
            contest.append(rr)
            values.append((recv, rr.value))
        best = max(v for _, v in values)
        top = [pid for pid, v in values if v == best]
        if len(top) > 1:
            top, more = _contest_ids(ctx, top)
            contest += more
        extra = {"contest": [{"player": pid, "value": v} for pid, v in values]}
        won = [t for t in won if t[0] == top[0]]  # empty when the receiver won
    elif len(won) > 1:  # several successful interceptors: the highest contest roll
        top, contest = _contest_ids(ctx, [t[0] for t in won])
        won = [t for t in won if t[0] == top[0]]
    tries_data = [
        {"player": pid, "feint": f, "bonus": b, "success": bool(r.success)}
        for pid, f, b, r in tries
    ]
    rolls = [t[3] for t in tries] + contest
    if won:
        thief = won[0][0]
        _gain(ctx, thief)
        ctx.emit(
            PH,
            "pass_intercepted",
            "5",
            (passer, recv or "", thief),
            rolls,
            tries=tries_data,
            **extra,
        )
    elif reason:
        q.status, q.holder = LOOSE, None
        ctx.emit(
            PH, "pass_wasted", "5", (passer, recv or ""), rolls, reason=reason, tries=tries_data
        )
    else:
        _gain(ctx, recv, restart=False)  # type: ignore[arg-type]  # a pass keeps the count (3)
        pair = (passer, recv or "")  # the receiver is set here: no reason was found
        ctx.emit(PH, "pass_caught", "5", pair, rolls, tries=tries_data, **extra)


def _contest_ids(ctx: RoundContext, pids: list[str]) -> tuple[list[str], list]:
    """Equal values in a contest of 5: draw again among them until one is highest (ties
    re-roll)."""
    rolls = []
    field = list(pids)
    while len(field) > 1:
        scored = []
        for pid in field:
            r = ctx.roll(f"спор за мяч: {ctx.p(pid).name}")
            rolls.append(r)
            scored.append((r.value, pid))
        best = max(v for v, _ in scored)
        field = [pid for v, pid in scored if v == best]
    return field, rolls


def _steal(ctx: RoundContext, d: Declaration, steal_teams: set[str]) -> None:
    q = ctx.s.quaffle
    p = ctx.p(d.player)
    if p.position != CHASER:
        return
    catalogued = ctx.setup.feints.get(d.feint)
    group = catalogued is not None and catalogued.group and catalogued.fits(F.STEAL)
    if p.team in steal_teams and not group:
        ctx.emit(PH, "steal_refused", "4", (d.player,), team=p.team)
        return
    steal_teams.add(p.team)
    carrier = d.target
    if (
        q.status != HELD
        or carrier != q.holder
        or ctx.p(carrier).position != CHASER  # type: ignore[arg-type]
        or ctx.p(carrier).team == p.team  # type: ignore[arg-type]
    ):
        ctx.emit(PH, "steal_no_ball", "4", (d.player, carrier or ""))
        return
    if d.push:
        resolve_push(ctx, PH, d.player, carrier, legal=True)  # type: ignore[arg-type]
        if not ctx.up(d.player) or q.holder != carrier:
            return
    feint, bonus = ctx.feint(d.player, F.STEAL)
    r = ctx.roll(f"отъём: {p.name}", ctx.thr(ctx.cfg.steal, bonus))
    if r.success:
        _gain(ctx, d.player)
    pair = (d.player, carrier or "")  # carrier is set here: checked above
    ctx.emit(PH, "steal", "4", pair, [r], feint=feint, bonus=bonus, success=r.success)


def _keeper_ring(ctx: RoundContext, keeper: str) -> str | None:
    kd = ctx.decl(keeper)
    if kd is None or kd.action != GUARD or not ctx.up(keeper):
        return None
    return kd.ring


def _shoot_at(ctx: RoundContext, shooter: str, ring: str, section: str, kind: str) -> None:
    """Resolve a shot (6) or a penalty (5.1) against the other team's keeper."""
    cfg = ctx.cfg
    team = ctx.p(shooter).team
    keeper = ctx.setup.keeper(ctx.setup.other_team(team)).id
    ctx.scoring_keepers.add(keeper)
    kring = _keeper_ring(ctx, keeper)
    cf, cb = ctx.feint(shooter, F.SHOT)
    kf, kb = ctx.feint(keeper, F.SAVE) if ctx.up(keeper) else (None, 0)
    rolls = []
    if kring == ring:
        save = 100 - max(0, cb - kb)
        if save >= 100:
            saved = True
        else:
            r = ctx.roll("сейв вратаря (кольцо совпало)", ctx.thr(save))
            rolls.append(r)
            saved = bool(r.success)
    elif kb > 0:
        r = ctx.roll("сейв вратаря (финт)", ctx.thr(kb))
        rolls.append(r)
        saved = bool(r.success)
    else:
        saved = False
    if not saved:
        ctx.s.score[team] += cfg.goal_points
        ctx.s.goals[team] += 1
    q = ctx.s.quaffle
    q.status, q.holder, q.since_round = HELD, keeper, ctx.round_no
    ctx.emit(
        PH,
        kind,
        section,
        (shooter, keeper),
        rolls,
        ring=ring,
        keeper_ring=kring,
        shot_feint=cf,
        shot_bonus=cb,
        save_feint=kf,
        save_bonus=kb,
        goal=not saved,
        points=0 if saved else cfg.goal_points,
    )


def _shot(ctx: RoundContext, d: Declaration) -> None:
    q = ctx.s.quaffle
    if ctx.p(d.player).position != CHASER or q.status != HELD or q.holder != d.player:
        ctx.emit(PH, "shot_no_ball", "6", (d.player,))
        return
    if ctx.round_no < q.since_round + ctx.cfg.carry_rounds:
        ctx.emit(PH, "shot_too_early", "3", (d.player,), since=q.since_round)
        return
    if d.ring is None:
        ctx.emit(PH, "shot_no_ring", "6", (d.player,))
        return
    _shoot_at(ctx, d.player, d.ring, "6", "shot")


def _penalty(ctx: RoundContext) -> None:
    pen = ctx.s.penalties[0]
    shooters = [
        d
        for d in ctx.in_post_order()
        if d.action == PENALTY_SHOT
        and ctx.p(d.player).team != pen.team
        and ctx.p(d.player).position == CHASER
        and ctx.up(d.player)
        and d.ring is not None
    ]
    if not shooters:
        ctx.emit(PH, "penalty_waiting", "5.1", (), team=pen.team)
        return
    ctx.s.penalties.pop(0)
    _shoot_at(ctx, shooters[0].player, shooters[0].ring, "5.1", "penalty")  # type: ignore[arg-type]
