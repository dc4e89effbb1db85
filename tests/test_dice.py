import hashlib
import hmac
from dataclasses import replace

import pytest
from quidditch_helpers import ScriptedDice

from fieldjudge.rules.dice import Dice, Roll, roll, seed_commitment, verify_rolls

SEED = "server-seed-for-tests"


def test_commitment_is_sha256_hex():
    assert seed_commitment(SEED) == hashlib.sha256(SEED.encode()).hexdigest()
    assert seed_commitment(SEED.encode()) == seed_commitment(SEED)


def test_same_inputs_same_roll():
    a = roll(SEED, "client", "m1", 3, 17)
    assert a == roll(SEED, "client", "m1", 3, 17)
    assert 1 <= a <= 100


def test_inputs_change_the_roll_sequence():
    base = [roll(SEED, "c", "m1", 1, n) for n in range(1, 30)]
    assert base != [roll(SEED, "c2", "m1", 1, n) for n in range(1, 30)]
    assert base != [roll(SEED, "c", "m2", 1, n) for n in range(1, 30)]
    assert base != [roll(SEED, "c", "m1", 2, n) for n in range(1, 30)]
    assert base != [roll("other", "c", "m1", 1, n) for n in range(1, 30)]


def test_documented_procedure_reimplemented():
    # a player's independent re-implementation of the documented procedure
    def mine(seed, client, match, rnd, n):
        d = hmac.new(seed.encode(), f"{client}:{match}:{rnd}:{n}".encode(), "sha256").digest()
        for i in range(8):
            x = int.from_bytes(d[4 * i : 4 * i + 4], "big")
            if x < 4294967200:
                return x % 100 + 1
        raise AssertionError("practically impossible")

    for n in range(1, 200):
        assert roll(SEED, "cl", "match-7", 5, n) == mine(SEED, "cl", "match-7", 5, n)


def test_dice_records_rolls_in_order_with_purpose():
    d = Dice(SEED, "c", "m", round_no=4, start_n=31)
    r1 = d.roll("steal", 40)
    r2 = d.roll("dodge", 55)
    assert (r1.n, r2.n, d.next_n) == (31, 32, 33)
    assert r1.value == roll(SEED, "c", "m", 4, 31)
    assert r1.success == (r1.value <= 40)
    assert d.rolls == [r1, r2]
    assert r1.round_no == 4 and r1.purpose == "steal"


def test_choose_uses_rejection_and_records_rolls():
    d = ScriptedDice([99, 97, 2])  # k=3: limit 99 → 99 ok → (99-1)%3 = 2
    assert d.choose("x", ["a", "b", "c"])[0] == "c"
    d = ScriptedDice([100, 2])  # 100 rejected for k=3, then 2 → index 1
    opt, used = d.choose("x", ["a", "b", "c"])
    assert opt == "b" and len(used) == 2 and d.next_n == 3
    assert ScriptedDice([]).choose("x", ["only"]) == ("only", [])


def test_verify_accepts_honest_and_catches_changed_roll():
    d = Dice(SEED, "c", "m", round_no=2, start_n=10)
    for i in range(20):
        d.roll(f"r{i}", 50)
    assert verify_rolls(SEED, "c", "m", d.rolls) == []
    assert verify_rolls(SEED, "c", "m", [r.to_dict() for r in d.rolls]) == []
    bad = list(d.rolls)
    v = bad[5].value
    bad[5] = replace(bad[5], value=v % 100 + 1, success=(v % 100 + 1) <= 50)
    mism = verify_rolls(SEED, "c", "m", bad)
    assert len(mism) == 1 and mism[0].n == bad[5].n and mism[0].expected == v
    # a re-roll with another seed is caught everywhere
    assert len(verify_rolls("other", "c", "m", d.rolls)) >= 15
    # success flag lying about the threshold
    lie = [replace(d.rolls[0], success=not d.rolls[0].success)]
    assert verify_rolls(SEED, "c", "m", lie)[0].reason.startswith("success")


def test_roll_round_trip_dict():
    r = Roll(3, 42, "steal", 40, False, 2)
    assert Roll.from_dict(r.to_dict()) == r


def test_chi_square_uniform_1_to_100():
    n_rolls = 100_000
    counts = [0] * 100
    for n in range(1, n_rolls + 1):
        counts[roll(SEED, "chi", "uniformity", n // 1000, n) - 1] += 1
    expected = n_rolls / 100
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < 148.2  # df = 99, p = 0.001


def test_scripted_dice_exhausted():
    with pytest.raises(IndexError):
        ScriptedDice([]).roll("x")
