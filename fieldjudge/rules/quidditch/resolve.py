"""``resolve_round``: one round of a match, deterministic given state, declarations, dice.

Phases, in order: the quaffle (posts in post order), the bludgers, the snitch, then the post
order check and the judge's flags (warnings, penalties for the next round), the end
condition, and the bludger targets for the next round. Every roll is logged with its purpose
and the round's rolls are returned with the outcomes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from fieldjudge.rules.messages import rule

from ..dice import Dice
from .bludgers import draw_targets, resolve_bludgers
from .closing import roll_refusal
from .context import RoundContext
from .declarations import Declaration, as_mapping
from .order import apply_order_and_flags
from .outcome import END, RoundResult
from .quaffle import resolve_illegal_pushes, resolve_passes_so_far, resolve_quaffle
from .settings import END_POINTS, END_ROUNDS
from .snitch import resolve_snitch
from .state import THROW_UP, MatchState


def make_dice(state: MatchState, server_seed: str | bytes) -> Dice:
    """The dice for the round about to be played: numbering continues across the match.
    Refused (ValueError) once the seed is revealed: a revealed match is closed."""
    if state.revealed:
        raise ValueError(rule("seed_revealed"))
    setup = state.setup
    return Dice(server_seed, setup.client_seed, setup.match_id, state.round_no, state.next_roll_n)


def start_context(
    state: MatchState,
    declarations: Iterable[Declaration] | Mapping[str, Declaration],
    dice: Dice,
) -> RoundContext:
    """Checks common to every resolution and the context on a private copy of the state."""
    why = roll_refusal(state)
    if why:
        raise ValueError(why)
    if dice.round_no != state.round_no or dice.next_n != state.next_roll_n:
        raise ValueError(
            f"dice for round {dice.round_no} roll {dice.next_n}, expected round "
            f"{state.round_no} roll {state.next_roll_n} (use make_dice)"
        )
    decls = as_mapping(declarations)
    for pid in decls:
        state.setup.player(pid)  # KeyError on an unknown player
    s = state.copy()
    ctx = RoundContext(s, decls, dice)
    ctx.first_roll = len(dice.rolls)
    for pid, d in ctx.decls.items():
        if d.zone:
            s.zones[pid] = d.zone
    return ctx


def resolve_passes(
    state: MatchState,
    declarations: Iterable[Declaration] | Mapping[str, Declaration],
    dice: Dice,
) -> RoundResult:
    """0, 5: «поимки мяча при пасе рассчитываются и отписываются судьёй внутри круга ходов».
    Resolve the passes posted so far, within the round: posts in post order up to the first
    steal, shot or pick-up (those wait for the round's end). The result's state is still
    the same round (``round_no`` unchanged), the roll numbering goes on, and
    ``resolve_round`` later skips the passes resolved here. Raises ValueError before the
    throw-up, with a penalty pending, or once the match is closed."""
    ctx = start_context(state, declarations, dice)
    q = ctx.s.quaffle
    if q.status == THROW_UP or ctx.s.penalties:
        raise ValueError(rule("passes_not_yet"))
    resolve_passes_so_far(ctx)
    ctx.s.next_roll_n = dice.next_n
    return RoundResult(
        round_no=state.round_no,
        state=ctx.s,
        outcomes=ctx.outcomes,
        rolls=list(dice.rolls[ctx.first_roll :]),
    )


def resolve_round(
    state: MatchState,
    declarations: Iterable[Declaration] | Mapping[str, Declaration],
    dice: Dice,
) -> RoundResult:
    ctx = start_context(state, declarations, dice)
    s = ctx.s
    first_roll = ctx.first_roll

    resolve_quaffle(ctx)
    resolve_illegal_pushes(ctx)
    resolve_bludgers(ctx)
    if not s.ended:
        resolve_snitch(ctx)
    apply_order_and_flags(ctx, state)

    # sitting out: those who sat out this round count one down; new falls start (7, 10)
    new_out: dict[str, int] = {}
    for pid, n in s.out.items():
        left = n - 1 if pid not in ctx.active_start else n
        if left > 0:
            new_out[pid] = left
    for pid, n in ctx.fallen.items():
        if n > 0:
            new_out[pid] = max(new_out.get(pid, 0), n)
    s.out = {pid: n for pid, n in new_out.items() if pid not in s.removed}

    end = s.setup.end
    if not s.ended:
        if end.kind == END_POINTS and max(s.score.values()) >= end.limit:
            s.ended, s.end_reason = True, END_POINTS
        elif end.kind == END_ROUNDS and s.round_no >= end.limit:
            s.ended, s.end_reason = True, END_ROUNDS
        if s.ended:
            ctx.emit(END, "match_end", "9", (), reason=s.end_reason, team=s.winner())
    if not s.ended:
        draw_targets(ctx)
    s.round_no += 1
    s.next_roll_n = dice.next_n
    s.passes_resolved = []
    return RoundResult(
        round_no=state.round_no,
        state=s,
        outcomes=ctx.outcomes,
        rolls=list(dice.rolls[first_roll:]),
    )
