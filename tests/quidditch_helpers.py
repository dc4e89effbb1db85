"""Shared builders for the quidditch tests (not a test module)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from fieldjudge.rules.dice import SIDES, Dice
from fieldjudge.rules.quidditch.declarations import Declaration
from fieldjudge.rules.quidditch.resolve import resolve_round
from fieldjudge.rules.quidditch.sample import sample_setup
from fieldjudge.rules.quidditch.settings import EndCondition
from fieldjudge.rules.quidditch.state import HELD, MatchState, new_match

D = Declaration


class ScriptedDice(Dice):
    """Dice that return preset values in order (not verifiable)."""

    def __init__(self, values: Iterable[int], round_no: int = 1, start_n: int = 1) -> None:
        super().__init__(b"", "", "", round_no, start_n)
        self._values = list(values)

    def _value(self, n: int) -> int:
        if not self._values:
            raise IndexError(f"scripted dice exhausted at roll {n}")
        v = self._values.pop(0)
        if not 1 <= v <= SIDES:
            raise ValueError(f"scripted roll {v} outside 1..{SIDES}")
        return v


class FillDice(ScriptedDice):
    """Scripted values first, then ``fill`` forever (draws of targets at the round's end),
    numbered on from ``state``'s next roll of its round."""

    def __init__(self, values, state: MatchState, fill=1):
        super().__init__(values, state.round_no, state.next_roll_n)
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


def kinds(result) -> list[str]:
    """The kinds of a round's outcomes, in order."""
    return [o.kind for o in result.outcomes]


def only(result, kind):
    found = [o for o in result.outcomes if o.kind == kind]
    assert len(found) == 1, (kind, kinds(result))
    return found[0]
