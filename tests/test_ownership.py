"""One writer per game across laptops: the pure ownership rule (results-integrity issue,
item 4) and its handovers by the head judge."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fieldjudge.i18n import rule_text
from fieldjudge.rules.messages import phrase
from fieldjudge.rules.ownership import (
    Handover,
    current_owner,
    foreign_writes,
    may_append,
)


def test_the_owner_may_append():
    assert may_append("field-1", "field-1") is None


def test_another_laptop_is_refused_and_told_who_owns_the_game():
    why = may_append("field-1", "head", ())
    assert why == (
        "this game belongs to laptop field-1: it is read-only here until the head judge "
        "hands it over"
    )
    assert rule_text(why, lang="ru") == (
        "эта игра принадлежит ноутбуку field-1: здесь её можно только смотреть, пока Главный "
        "судья не передаст её этому ноутбуку"
    )


def test_a_game_without_an_owner_yet_may_be_claimed():
    assert may_append(None, "field-2") is None
    assert may_append("", "field-2") is None


def test_a_handover_moves_the_game_to_the_new_laptop_only():
    handovers = [Handover("field-1", "field-3")]
    assert may_append("field-1", "field-3", handovers) is None
    assert may_append("field-1", "field-1", handovers) == phrase("not_owner", owner="field-3")
    assert current_owner("field-1", handovers) == "field-3"


def test_handovers_apply_in_order_and_a_chain_of_them_ends_at_the_last():
    handovers = [Handover("a", "b"), Handover("b", "c")]
    assert current_owner("a", handovers) == "c"
    assert may_append("a", "b", handovers) == phrase("not_owner", owner="c")


def test_a_handover_from_a_laptop_that_does_not_hold_the_game_is_ignored():
    handovers = [Handover("field-2", "field-2b")]  # field-2 never owned it
    assert current_owner("field-1", handovers) == "field-1"
    assert may_append("field-1", "field-2b", handovers) == phrase("not_owner", owner="field-1")


laptops = st.sampled_from(["a", "b", "c", "d"])


@given(laptops, st.lists(st.tuples(laptops, laptops), max_size=8), laptops)
def test_exactly_one_laptop_may_append_at_any_time(owner, pairs, probe):
    handovers = [Handover(f, t) for f, t in pairs]
    allowed = [x for x in "abcd" if may_append(owner, x, handovers) is None]
    assert allowed == [current_owner(owner, handovers)]
    assert (may_append(owner, probe, handovers) is None) == (probe == allowed[0])


def test_events_of_a_laptop_that_did_not_own_the_game_then_are_foreign_writes():
    """One writer per game file (issue 22): each event is checked against the owner at its
    point in the log; a hand-over moves the owner from there on, whoever appended it."""
    rows = [
        (1, "field-1", "checkin", None),
        (2, "head", "clock_start", None),  # the head judge's laptop wrote into field 1's game
        (3, "head", "handover", Handover("field-1", "field-2")),
        (4, "field-2", "elimination", None),
        (5, "field-1", "elimination", None),  # the old owner, partitioned, went on
    ]
    assert foreign_writes("field-1", rows) == [(2, "head", "field-1"), (5, "field-1", "field-2")]
    assert foreign_writes(None, rows) == []  # an older file with no recorded owner


@given(
    owner=st.sampled_from(["a", "b"]),
    signers=st.lists(st.sampled_from(["a", "b", "c"]), max_size=12),
)
def test_a_log_written_only_by_its_owner_has_no_foreign_write(owner, signers):
    rows = [(i, owner, "x", None) for i in range(len(signers))]
    assert foreign_writes(owner, rows) == []
    rows = [(i, s, "x", None) for i, s in enumerate(signers)]
    assert [seq for seq, _s, _o in foreign_writes(owner, rows)] == [
        i for i, s in enumerate(signers) if s != owner
    ]
