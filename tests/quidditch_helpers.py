"""Shared builders for the quidditch tests (not a test module)."""

from __future__ import annotations

from dataclasses import replace

from fieldjudge.rules.dice import Dice, ScriptedDice
from fieldjudge.rules.quidditch import Declaration, MatchState, new_match, resolve_round
from fieldjudge.rules.quidditch.sample import sample_setup
from fieldjudge.rules.quidditch.settings import EndCondition
from fieldjudge.rules.quidditch.state import HELD

D = Declaration


class FillDice(ScriptedDice):
    """Scripted values first, then ``fill`` forever (draws of targets at the round's end)."""

    def __init__(self, values=(), fill=1, round_no=1, start_n=1):
        super().__init__(values, round_no, start_n)
        self.fill = fill

    def _value(self, n):
        return super()._value(n) if self._values else self.fill


def make_state(
    round_no: int = 2,
    holder: str | None = None,
    since: int = 1,
    end: EndCondition | None = None,
    **settings,
) -> MatchState:
    setup = sample_setup(end=end)
    if settings:
        setup = replace(setup, settings=replace(setup.settings, **settings))
    st = new_match(setup)
    st.round_no = round_no
    if holder:
        st.quaffle.status, st.quaffle.holder, st.quaffle.since_round = HELD, holder, since
    return st


def run_trials(state: MatchState, decls, n: int, seed: str = "stat"):
    """Resolve the same round ``n`` times with independent verifiable dice."""
    for i in range(n):
        dice = Dice(f"{seed}-{i}", "", state.setup.match_id, state.round_no, state.next_roll_n)
        yield resolve_round(state, decls, dice)


def only(result, kind):
    found = [o for o in result.outcomes if o.kind == kind]
    assert len(found) == 1, (kind, result.kinds())
    return found[0]
