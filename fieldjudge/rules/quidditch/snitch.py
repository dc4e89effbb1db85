"""Seekers and the snitch (9), and seeker collisions (10).

Order within the round: (0) pushes between seekers -- allowed only against a seeker who
attempts a catch (10), otherwise 11.4; (1) if a chase was on, the snitch may vanish (15 %),
resetting every chase; (2) catch attempts of seekers who caught up and still stand: if both
try, one is drawn; 50 % + a catch feint (once per chase); a catch is +150 and
ends the match; (3) chasing seekers advance one round, a speed feint (once per chase) removes
one more with 85 %; the other seeker may start following; (4) if nobody was chasing, every
seeker who posted rolls to spot it: 15 % + 5 % per goal of his team; a spot starts a 3-round
chase from the next round.

The vanish roll (1) follows the match setting ``vanish_mode``: ``per_round`` (default) rolls
in every round a chase is on; ``per_chase`` rolls once per chase, and again in each round
with a catch attempt (9: «при этом во время попыток поймать мяч снитч по-прежнему может
исчезнуть»).
"""

from __future__ import annotations

from . import feints as F
from .collisions import resolve_push
from .context import RoundContext
from .declarations import CATCH_SNITCH, CHASE, PUSH
from .outcome import SNITCH
from .roster import SEEKER
from .settings import VANISH_PER_CHASE
from .state import SeekerState

PH = SNITCH


def resolve_snitch(ctx: RoundContext) -> None:
    s = ctx.s
    cfg = ctx.cfg
    seekers = [ctx.setup.seeker(t.key).id for t in ctx.setup.teams]
    was_on = s.snitch_visible
    attempts = [
        sid
        for sid in seekers
        if ctx.up(sid) and s.seekers[sid].caught_up and _act(ctx, sid) == CATCH_SNITCH
    ]
    _pushes(ctx, seekers, attempts)
    per_chase = cfg.vanish_mode == VANISH_PER_CHASE
    if was_on and (not per_chase or not s.vanish_rolled or attempts):
        r = ctx.roll("исчезновение снитча", ctx.thr(cfg.vanish))
        s.vanish_rolled = True
        if r.success:
            for sid in seekers:
                s.seekers[sid] = SeekerState()
            s.vanish_rolled = False
            ctx.emit(PH, "snitch_vanished", "9", (), [r])
            return
        ctx.emit(PH, "snitch_stays", "9", (), [r])
    # (2) catch attempts
    attempts = [sid for sid in attempts if ctx.up(sid)]
    if attempts:
        who, draw = ctx.dice.choose("кто ловит снитч", attempts)
        st = s.seekers[who]
        feint, bonus = (None, 0) if st.catch_feint_used else ctx.feint(who, F.CATCH)
        if feint is not None:
            st.catch_feint_used = True
        r = ctx.roll(f"поимка снитча: {ctx.p(who).name}", ctx.thr(cfg.catch, bonus))
        ctx.emit(
            PH,
            "catch",
            "9",
            (who,),
            [*draw, r],
            feint=feint,
            bonus=bonus,
            success=r.success,
            contenders=attempts,
        )
        if r.success:
            team = ctx.p(who).team
            s.score[team] += cfg.snitch_points
            s.ended, s.end_reason = True, "snitch"
            ctx.emit("end", "match_end", "9", (who,), reason="snitch", team=team)
            return
    # (3) chases
    for sid in seekers:
        st = s.seekers[sid]
        if not ctx.up(sid) or _act(ctx, sid) != CHASE or st.caught_up:
            continue
        other = s.seekers[_other(seekers, sid)]
        if not st.chasing:
            if not (was_on and other.in_chase):
                continue
            st.chasing, st.rounds_left = True, cfg.chase_rounds
            ctx.emit(PH, "follow", "9", (sid,))
        st.rounds_left -= 1
        rolls = []
        feint = None
        if not st.speed_used:
            feint, _ = ctx.feint(sid, F.SPEED)
            if feint is not None:
                st.speed_used = True
                r = ctx.roll(f"рывок: {ctx.p(sid).name}", ctx.thr(cfg.speed_feint))
                rolls.append(r)
                if r.success:
                    st.rounds_left -= 1
        if st.rounds_left <= 0:
            st.rounds_left, st.chasing, st.caught_up = 0, False, True
        ctx.emit(
            PH,
            "chase",
            "9",
            (sid,),
            rolls,
            feint=feint,
            left=st.rounds_left,
            caught_up=st.caught_up,
        )
    # (4) spotting
    if not was_on:
        for sid in seekers:
            if not ctx.up(sid) or ctx.decl(sid) is None:
                continue
            team = ctx.p(sid).team
            r = ctx.roll(
                f"поиск снитча: {ctx.p(sid).name}",
                ctx.thr(cfg.spot, cfg.spot_per_goal * s.goals.get(team, 0)),
            )
            if r.success:
                s.seekers[sid] = SeekerState(chasing=True, rounds_left=cfg.chase_rounds)
                s.vanish_rolled = False  # a new chase
            ctx.emit(PH, "spot", "9", (sid,), [r], success=r.success, left=cfg.chase_rounds)


def _act(ctx: RoundContext, pid: str) -> str | None:
    d = ctx.decl(pid)
    return None if d is None else d.action


def _other(seekers: list[str], sid: str) -> str:
    return seekers[1] if sid == seekers[0] else seekers[0]


def _pushes(ctx: RoundContext, seekers: list[str], attempts: list[str]) -> None:
    for sid in seekers:
        d = ctx.decl(sid)
        if d is None or d.action != PUSH or not ctx.up(sid) or not d.target:
            continue
        legal = d.target in attempts and ctx.p(d.target).position == SEEKER
        resolve_push(ctx, PH, sid, d.target, legal=legal)
