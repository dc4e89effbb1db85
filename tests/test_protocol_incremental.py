"""The protocol advanced event by event equals the protocol folded over the whole log (31,
32.01): the service keeps it between appends instead of folding every event again."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as hs

from fieldjudge.rules import protocol as pr
from fieldjudge.rules.events import VOID, Event

TEAMS = ("A", "B")
PROPS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

team = hs.sampled_from(["A", "B", "Z", ""])
points = hs.one_of(
    hs.fixed_dictionaries({"A": hs.integers(0, 3), "B": hs.integers(0, 3)}),
    hs.just({"A": 1}),  # a malformed map: the correction does not count
    hs.none(),
)
# (type, data, void target): a void targets an earlier event (its index modulo the events
# so far), or one that is missing (-1)
step = hs.one_of(
    hs.tuples(hs.just(pr.PROTOCOL_SUBMITTED), hs.just({"points": {"A": 3, "B": 0}}), hs.none()),
    hs.tuples(
        hs.just(pr.CAPTAIN_SIGNED), hs.fixed_dictionaries({"team": team, "name": hs.just("Ivan")})
    ),
    hs.tuples(
        hs.just(pr.CAPTAIN_REFUSED), hs.fixed_dictionaries({"team": team, "reason": hs.just("r")})
    ),
    hs.tuples(
        hs.just(pr.TOTAL_CORRECTED),
        hs.fixed_dictionaries(
            {
                "old_points": points,
                "new_points": points,
                "new_outcome": hs.sampled_from(["", "draw", "flag_hang", "bogus"]),
                "new_outcome_team": team,
            }
        ),
    ),
    hs.tuples(hs.just(pr.NO_SHOW), hs.fixed_dictionaries({"absent": hs.lists(team, max_size=2)})),
    hs.tuples(hs.sampled_from(["clock_start", "elimination", "flag_hang"]), hs.just({})),
    hs.tuples(hs.just(VOID), hs.booleans(), hs.integers(0, 1000)),  # an earlier event
    hs.tuples(hs.just(VOID), hs.booleans(), hs.just(-1)),  # an event that is not there
).map(lambda s: s if len(s) == 3 else (*s, None))


def build(steps: list[tuple]) -> list[Event]:
    events: list[Event] = []
    for i, (etype, data, target) in enumerate(steps):
        if etype == VOID:
            after_lock = data
            gone = events[target % len(events)].id if events and target >= 0 else "missing"
            data = {"target": gone, "reason": "r"}
            if after_lock:
                data |= {"after_lock": True, "head_judge": "HJ"}
        events.append(
            Event(
                id=f"e{i}",
                seq=i + 1,
                type=etype,
                game_clock_ms=None,
                wall_time=f"2026-05-16T10:00:{i % 60:02d}+00:00",
                judge="j",
                data=data,
            )
        )
    return events


LOCKED = [
    ("elimination", {}, None),
    (pr.PROTOCOL_SUBMITTED, {}, None),
    (pr.CAPTAIN_SIGNED, {"team": "A", "name": "Ivan"}, None),
    (pr.CAPTAIN_SIGNED, {"team": "B", "name": "Oleg"}, None),
]


@PROPS
@given(hs.lists(step, max_size=40))
# the head judge's void after the lock (31), then a new submission: his voids were those of
# the old one; a signature voided, then the same captain signs again
@example([*LOCKED, (VOID, True, 0), (pr.PROTOCOL_SUBMITTED, {}, None)])
@example([*LOCKED, (VOID, False, 3), (pr.CAPTAIN_SIGNED, {"team": "B", "name": "O"}, None)])
def test_31_advancing_the_protocol_equals_folding_the_whole_log(steps) -> None:
    events = build(steps)
    p = pr.fold_protocol([], TEAMS)
    for i, e in enumerate(events):
        before = pr.fold_protocol(events[:i], TEAMS)
        q = pr.advance_protocol(p, e, events[: i + 1])
        assert q == pr.fold_protocol(events[: i + 1], TEAMS)
        assert p == before  # the protocol it advanced from is not changed
        p = q


@PROPS
@given(hs.lists(step, max_size=30), hs.integers(0, 30))
@example([*LOCKED, (VOID, True, 0), (pr.PROTOCOL_SUBMITTED, {}, None)], 2)
def test_31_the_protocol_before_each_event_as_verify_checks_a_log(steps, start) -> None:
    events = build(steps)
    start = min(start, len(events))
    got = list(pr.protocols_before(events, TEAMS, start))
    assert got == [pr.fold_protocol(events[:i], TEAMS) for i in range(start, len(events))]


def test_31_a_lock_kept_by_advancing_refuses_what_the_fold_refuses() -> None:
    steps = LOCKED
    events = build(steps)
    p = pr.fold_protocol([], TEAMS)
    for i, e in enumerate(events):
        p = pr.advance_protocol(p, e, events[: i + 1])
    assert p.locked and p.phase == pr.LOCKED
    kept = pr.lock_refusal(events, "elimination", {}, TEAMS, p)
    assert kept == pr.lock_refusal(events, "elimination", {}, TEAMS) == pr.LOCKED_MESSAGE
    # the head judge's void of the game event keeps it locked (31): folded again
    void = build([*steps, (VOID, True, 0)])[-1]
    after = pr.advance_protocol(p, void, [*events, void])
    assert after.locked and [v.target_id for v in after.voids] == ["e0"]
