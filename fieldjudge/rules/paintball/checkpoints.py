"""The fold of one growing game log, kept current with state checkpoints.

A live game appends events one by one: each moves the state on in place. A void may take
back any earlier event, so the state after it is the fold of the whole log again -- but the
events before the first one the void reaches fold exactly as before. :class:`LiveFold`
keeps copies of the state at checkpoints (every ``every`` events, sparser further back) and
refolds from the last checkpoint before the earliest event a void reaches, never from the
start and never by undoing an event (no inverse folds: the state after a checkpoint is
always the fold of the events in log order).

Invariant (a property test holds it): after any sequence of appends and voids,
``LiveFold(setup, log).update(log) == fold(setup, log)``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from fieldjudge.rules.events import VOID, Event, voided_by
from fieldjudge.rules.paintball import model as m
from fieldjudge.rules.paintball.setup import GameSetup
from fieldjudge.rules.paintball.state import new_state, step, unsettled

#: a checkpoint every this many events near the head of the log
EVERY = 128
#: checkpoints per doubling of their spacing further back: a void ``d`` events back
#: refolds at most about ``d * (1 + 1 / PER_OCTAVE) + EVERY`` events, and a log of ``n``
#: events keeps about ``PER_OCTAVE * log2(n / EVERY)`` checkpoints
PER_OCTAVE = 4


class LiveFold:
    """``fold(setup, events)`` of a log that grows at its end, kept current by
    :meth:`update`. ``state`` is the fold of the events seen last; it is changed in place
    by the next :meth:`update` (or replaced: always use the state :meth:`update` returns).
    """

    def __init__(
        self,
        setup: GameSetup,
        events: Sequence[Event] = (),
        *,
        every: int = EVERY,
        per_octave: int = PER_OCTAVE,
    ) -> None:
        if every < 1 or per_octave < 1:
            raise ValueError("every and per_octave must be >= 1")
        self.setup = setup
        self.every, self.per_octave = every, per_octave
        # 20.05: a disqualification from an earlier game re-checks every event (as fold)
        self._check_all = bool(setup.disqualified)
        self.state = new_state(setup)
        self.voided: set[str] = set()  # ids voided by an effective void of the log
        self._marks: list[tuple[int, m.GameState]] = []  # (k, the fold of events[:k]), k up
        self._pos: dict[str, int] = {}  # event id -> its (first) index in the log
        self._irregular = False  # some id is in the log twice
        self._voids: list[int] = []  # the index of every void in the log
        self._unsettled: set[str] = set()  # unsettled(events), kept as voids come
        self._count = 0  # how many events of the log ``state`` holds
        self._last_hash = ""  # the hash of the last of them (the chain vouches the rest)
        self.update(events)

    def update(self, events: Sequence[Event]) -> m.GameState:
        """The fold of ``events``: this log moved on at its end since the last call (any
        other log: folded from the start)."""
        n, total = self._count, len(events)
        if total < n or (n and events[n - 1].hash != self._last_hash):
            self._reset()  # not this log any more: start again
            n = 0
        if total == n:
            return self.state
        start = total  # the earliest event whose standing the new events may change
        for i in range(n, total):
            e = events[i]
            if self._pos.setdefault(e.id, i) != i:
                self._irregular = True  # an id twice (a log from elsewhere): see _reach
                start = 0
            if e.type == VOID:
                start = min(start, self._reach(events, i))
                self._voids.append(i)
                self._settle(events, i)
        if start == total:  # no void among them: each new event moves the state on (one
            # whose id an earlier void named, a log from elsewhere, is in ``voided``)
            self._forward(events, n, total, set())
        else:
            self._refold(events, start)
        self._count, self._last_hash = total, events[-1].hash
        return self.state

    def voided_by(self, events: Sequence[Event]) -> dict[str, Event]:
        """``rules.events.voided_by(events)`` of the log :meth:`update` saw last, from its
        voids alone (a walk over the voids, not the whole log); of any other log, from
        the whole of it."""
        n = self._count
        if len(events) != n or (n and events[n - 1].hash != self._last_hash):
            return voided_by(events)
        return voided_by([events[i] for i in self._voids])

    def checkpoints(self) -> list[tuple[int, m.GameState]]:
        """``(k, the whole log's fold after its first k events)`` of every checkpoint kept, oldest first
        (read them, never change them)."""
        return list(self._marks)

    # -- internals --------------------------------------------------------------------
    def _reach(self, events: Sequence[Event], i: int) -> int:
        """The earliest index whose standing the void at ``i`` may change: its target and,
        when that is a void, the target's target..., each earlier than the one naming it
        (the void restores or takes back each in turn; ``unsettled`` starts no earlier)."""
        if self._irregular:  # a void names every event of an id: refold them all
            return 0
        e = events[i]
        earliest = i
        while True:
            target = e.data.get("target") if isinstance(e.data, Mapping) else None
            j = self._pos.get(target) if isinstance(target, str) else None
            if j is None or j >= earliest:
                return earliest  # a later or unknown target: folded with the rest
            earliest, e = j, events[j]
            if e.type != VOID:
                return earliest

    def _settle(self, events: Sequence[Event], i: int) -> None:
        """``unsettled(events)`` kept as voids come: the void at ``i`` unsettles its
        target and every event between them."""
        e = events[i]
        target = e.data.get("target") if isinstance(e.data, Mapping) else None
        j = self._pos.get(target) if isinstance(target, str) else None
        if j is not None and j < i:
            self._unsettled.update(x.id for x in events[j:i])

    def _refold(self, events: Sequence[Event], start: int) -> None:
        """The state again from the last checkpoint at or before ``start``."""
        while self._marks and self._marks[-1][0] > start:
            self._marks.pop()
        if self._marks:
            k, mark = self._marks[-1]
            self.state = snapshot(mark)
        else:
            k, self.state = 0, new_state(self.setup)
        # the voids decide: every one is in ``_voids`` already (not a walk of the log)
        self.voided = set(voided_by([events[i] for i in self._voids]))
        checked = unsettled(events) if self._irregular else self._unsettled
        self._forward(events, k, len(events), checked)

    def _forward(self, events: Sequence[Event], k: int, total: int, checked: set[str]) -> None:
        """Step ``state`` (the fold of ``events[:k]``) over ``events[k:total]`` as
        :func:`~fieldjudge.rules.paintball.state.fold` does: the refusal checks again for
        the events a void reaches (``checked``), or for every event after a
        disqualification in an earlier game (20.05). Keeps the checkpoints on the way."""
        st, gone, every, check_all = self.state, self.voided, self.every, self._check_all
        marked = False
        for i in range(k, total):
            if i % every == 0 and i > k and self._keeps(i, total):
                self._marks.append((i, snapshot(st)))
                marked = True
            e = events[i]
            if e.type != VOID and e.id not in gone:
                step(st, e, check_all or e.id in checked)
        if total % every == 0 and total > k:
            self._marks.append((total, snapshot(st)))
            marked = True
        if marked:  # the older ones thin out as the log grows
            self._marks = [(j, s) for j, s in self._marks if self._keeps(j, total)]

    def _keeps(self, k: int, head: int) -> bool:
        """Whether the checkpoint at ``k`` stays while the log holds ``head`` events: the
        spacing doubles every ``per_octave`` checkpoints back. A checkpoint dropped is never
        wanted again (the spacing at ``k`` only grows with the head)."""
        spacing, d = self.every, head - k
        while d >= spacing * self.per_octave:
            spacing *= 2
        return k % spacing == 0

    def _reset(self) -> None:
        self.state, self.voided = new_state(self.setup), set()
        self._marks, self._pos = [], {}
        self._irregular, self._voids, self._unsettled = False, [], set()
        self._count, self._last_hash = 0, ""


# --- copies -------------------------------------------------------------------------------
# A checkpoint must not change when the live state moves on, and the state refolded from it
# must not change the checkpoint. The fold changes players, flags, the clock and the last
# hang attempt in place (23.01: the verdict completes it); every other record it only
# appends to a list and never changes again (notes, chrono records, captures, finished
# checks), so a copy shares those. A field this module does not know is deep-copied: safe,
# only slower.

_ATOMS = (str, int, float, bool, type(None), frozenset)


def _copy_player(p: m.PlayerState) -> m.PlayerState:
    return _copy_fields(p, _PLAYER)


def _copy_flag(f: m.FlagState) -> m.FlagState:
    return _copy_fields(f, _FLAG)


def _copy_fields(obj: Any, how: Mapping[str, Any]) -> Any:
    c = copy.copy(obj)
    d = c.__dict__
    for name, value in d.items():
        if type(value) in _ATOMS:
            continue
        fn = how.get(name)
        d[name] = fn(value) if fn is not None else copy.deepcopy(value)
    return c


def _same(value: Any) -> Any:
    return value


def _maybe_copy(value: Any) -> Any:
    return None if value is None else copy.copy(value)


_PLAYER: dict[str, Any] = {
    "elimination": _same,  # replaced, never changed in place
    "check": _maybe_copy,  # the open check: closed in place
    "checks": list,  # finished checks
    "old_paint": list,
}
_FLAG: dict[str, Any] = {"carrier": _same, "captures": list}
_STATE: dict[str, Any] = {
    "setup": _same,
    "players": lambda ps: {k: _copy_player(p) for k, p in ps.items()},
    "flags": lambda fs: {k: _copy_flag(f) for k, f in fs.items()},
    "clock": copy.copy,
    "hangs": lambda hs: [copy.copy(h) for h in hs],  # the last one gets its verdict
    "chrono": list,
    "checkins": dict,
    "rejected": list,
    "flagged": list,
    "penalty_reports": list,
    "team_penalties": list,
    "inspection_points": dict,
    "ignored": list,
}


def snapshot(st: m.GameState) -> m.GameState:
    """A copy of ``st`` that folding either of the two leaves the other unchanged."""
    return _copy_fields(st, _STATE)  # type: ignore[no-any-return]
