"""Verifiable dice for forum quidditch (DESIGN.md "Verifiable randomness").

Before a match the judge publishes ``seed_commitment(server_seed)``; players may add a
client seed. After the match the server seed is revealed and anyone can recompute every roll.

The exact procedure of :func:`roll`, so a player can re-implement it in a few lines:

1. ``key = server_seed`` encoded as UTF-8 (bytes are used as they are).
2. ``msg = f"{client_seed}:{match_id}:{round_no}:{n}"`` encoded as UTF-8, where ``n`` is the
   roll number (numbered from 1 across the whole match, as shown in the round post).
3. ``digest = HMAC-SHA256(key, msg)`` (32 bytes).
4. Cut the digest into eight 4-byte chunks, each read as a big-endian unsigned integer ``x``.
   Take the first chunk with ``x < 4294967200`` (the largest multiple of 100 not above
   2**32); the roll is ``x % 100 + 1``. Chunks at or above the limit are rejected, which
   removes the modulo bias.
5. If all eight chunks were rejected (probability about 1e-63), compute
   ``digest = HMAC-SHA256(key, msg + f":{k}")`` for ``k = 1, 2, ...`` and repeat step 4.

Picking one of ``k`` options (``k <= 100``) -- the throw-up, a bludger's target, an injury
description -- is done with rolls too (:meth:`Dice.choose`): roll; if the value is at most
``100 - 100 % k`` the option is ``(value - 1) % k`` (0-based, in the listed order), else the
roll is recorded as rejected and the next roll is taken. Every roll, rejected or not, is
recorded with its purpose, so the roll numbers of a round have no gaps.

This module is pure: the server seed comes in as an argument (``new_server_seed`` needs OS
randomness and lives with the caller).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

from fieldjudge.rules.messages import Phrase

T = TypeVar("T")

SIDES = 100
_CHUNK_LIMIT = (1 << 32) - ((1 << 32) % SIDES)  # 4294967200


def _key(server_seed: str | bytes) -> bytes:
    return server_seed if isinstance(server_seed, bytes) else server_seed.encode("utf-8")


def seed_commitment(server_seed: str | bytes) -> str:
    """The hash published before the match: sha256 hex of the server seed's UTF-8 bytes."""
    return hashlib.sha256(_key(server_seed)).hexdigest()


def roll(server_seed: str | bytes, client_seed: str, match_id: str, round_no: int, n: int) -> int:
    """Roll number ``n`` of round ``round_no``: an integer 1..100, see the module docstring."""
    key = _key(server_seed)
    msg = f"{client_seed}:{match_id}:{round_no}:{n}".encode()
    digest = hmac.new(key, msg, hashlib.sha256).digest()
    k = 0
    while True:
        for i in range(0, len(digest), 4):
            x = int.from_bytes(digest[i : i + 4], "big")
            if x < _CHUNK_LIMIT:
                return x % SIDES + 1
        k += 1
        digest = hmac.new(key, msg + f":{k}".encode(), hashlib.sha256).digest()


@dataclass(frozen=True)
class Roll:
    """One logged roll. ``success`` is ``value <= threshold`` when there is a threshold;
    rolls without one (draws among options) have ``threshold=None, success=None``."""

    n: int
    value: int
    purpose: str
    threshold: int | None = None
    success: bool | None = None
    round_no: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Roll:
        return cls(
            n=int(d["n"]),
            value=int(d["value"]),
            purpose=str(d.get("purpose", "")),
            threshold=None if d.get("threshold") is None else int(d["threshold"]),
            success=d.get("success"),
            round_no=int(d.get("round_no", 0)),
        )


class Dice:
    """Hands out the rolls of one round in order and records each with its purpose."""

    def __init__(
        self,
        server_seed: str | bytes,
        client_seed: str,
        match_id: str,
        round_no: int,
        start_n: int = 1,
    ) -> None:
        self.server_seed = server_seed
        self.client_seed = client_seed
        self.match_id = match_id
        self.round_no = round_no
        self.next_n = start_n
        self.rolls: list[Roll] = []

    def _value(self, n: int) -> int:
        return roll(self.server_seed, self.client_seed, self.match_id, self.round_no, n)

    def roll(self, purpose: str, threshold: int | None = None) -> Roll:
        n = self.next_n
        value = self._value(n)
        self.next_n += 1
        success = None if threshold is None else value <= threshold
        r = Roll(n, value, purpose, threshold, success, self.round_no)
        self.rolls.append(r)
        return r

    def choose(self, purpose: str, options: Sequence[T]) -> tuple[T, list[Roll]]:
        """Draw one option without bias (module docstring). One option → no roll."""
        k = len(options)
        if k == 0:
            raise ValueError("nothing to choose from")
        if k > SIDES:
            raise ValueError(f"at most {SIDES} options")
        if k == 1:
            return options[0], []
        limit = SIDES - SIDES % k
        used: list[Roll] = []
        while True:
            r = self.roll(f"{purpose} (1..{k})")
            used.append(r)
            if r.value <= limit:
                return options[(r.value - 1) % k], used


@dataclass(frozen=True)
class Mismatch:
    n: int
    round_no: int
    recorded: int
    expected: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def verify_rolls(
    server_seed: str | bytes,
    client_seed: str,
    match_id: str,
    rolls: Iterable[Roll | Mapping[str, Any]],
) -> list[Mismatch]:
    """Recompute every logged roll; return what does not match (empty list = all good).

    Checks the value, that ``success`` agrees with ``value <= threshold``, and that no roll
    number is used twice."""
    out: list[Mismatch] = []
    seen: set[int] = set()
    for item in rolls:
        r = item if isinstance(item, Roll) else Roll.from_dict(item)
        expected = roll(server_seed, client_seed, match_id, r.round_no, r.n)
        if r.n in seen:
            out.append(
                Mismatch(r.n, r.round_no, r.value, expected, Phrase("roll number used twice"))
            )
        seen.add(r.n)
        if r.value != expected:
            out.append(Mismatch(r.n, r.round_no, r.value, expected, Phrase("value differs")))
        elif r.threshold is not None and r.success != (r.value <= r.threshold):
            out.append(
                Mismatch(
                    r.n, r.round_no, r.value, expected, Phrase("success does not match threshold")
                )
            )
    return out
