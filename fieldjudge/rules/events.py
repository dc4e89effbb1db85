"""The immutable event every judge action becomes, and the void rule.

A game (or quidditch match) is a log of events. State is a fold over the *effective*
events: those not voided. A correction is a new ``void`` event naming its target
(``data["target"]``) and a reason; it may itself be voided, which restores the target.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from operator import attrgetter
from typing import Any

import orjson

from fieldjudge.rules.messages import Phrase

VOID = "void"
GENESIS_HASH = "0" * 64
# Stored beside the hash, outside the hashed content: the signature is over the hash.
UNHASHED = frozenset({"hash", "sig", "signer", "hj_sig", "hj_key"})


@dataclass(frozen=True)
class Event:
    """One judge action, immutable, chained to the one before by its hash."""

    id: str
    seq: int
    type: str
    game_clock_ms: int | None
    wall_time: str  # UTC ISO 8601, e.g. "2026-11-29T10:00:00.123456+00:00"
    judge: str
    data: Mapping[str, Any] = field(default_factory=dict)
    prev_hash: str = GENESIS_HASH
    hash: str = ""
    sig: str | None = None  # the writing laptop's signature of ``hash``
    signer: str | None = None  # the id of the key that made ``sig``
    hj_sig: str | None = None  # the head judge's signature of ``hash`` (his actions)
    hj_key: str | None = None  # the id of the head judge key that made ``hj_sig``

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> Event:
        # Every stored event of a game passes here when its file is opened. A well-formed
        # document (every field it holds is a field, the ones without a default are there,
        # ``data`` is an object) becomes the instance's attributes in one step: the fields
        # it lacks (``sig``, ``hj_sig``...) read the dataclass's defaults, which stay on
        # the class. Any other document takes the field-by-field path (its errors, its
        # defaults). Either way no ``object.__setattr__`` per field, and there is no
        # ``__post_init__`` to skip.
        e = object.__new__(cls)
        keys = doc.keys()
        if keys <= _FIELDS and keys >= _WITHOUT_DEFAULT and type(doc["data"]) is dict:
            e.__dict__.update(doc)
            return e
        e.__dict__.update(
            id=doc["id"],
            seq=doc["seq"],
            type=doc["type"],
            game_clock_ms=doc.get("game_clock_ms"),
            wall_time=doc["wall_time"],
            judge=doc.get("judge", ""),
            data=doc.get("data") or {},
            prev_hash=doc.get("prev_hash", GENESIS_HASH),
            hash=doc.get("hash", ""),
            sig=doc.get("sig"),
            signer=doc.get("signer"),
            hj_sig=doc.get("hj_sig"),
            hj_key=doc.get("hj_key"),
        )
        return e


def stored_doc(e: Event) -> dict[str, Any]:
    """The document ``e`` holds: its own attributes, key for key, in their order. For an
    event :func:`made_exactly` from its document, that document (a file rewritten from
    its events keeps every byte of their hashed content)."""
    return dict(e.__dict__)


def made_exactly(e: Event, doc: Mapping[str, Any]) -> bool:
    """Whether :func:`stored_doc` gives ``doc`` back: :meth:`Event.from_doc` took its
    one-step path (every document fieldjudge writes), or the other gave the same fields."""
    return e.__dict__.keys() == doc.keys() and e.data is doc.get("data")


_FIELDS = frozenset(f.name for f in fields(Event))
# the fields a stored document must hold for the one-step path (the others have defaults
# on the class: prev_hash, hash and the signatures)
_WITHOUT_DEFAULT = frozenset(
    f.name for f in fields(Event) if f.default is MISSING and f.default_factory is MISSING
) | {"data"}


def canonical(doc: Mapping[str, Any]) -> bytes:
    """Canonical JSON of an event without its hash and signature (sorted keys, UTF-8)."""
    body = dict(doc)
    for key in UNHASHED:
        body.pop(key, None)
    return orjson.dumps(body, option=orjson.OPT_SORT_KEYS)


def compute_hash(doc: Mapping[str, Any]) -> str:
    """hash = sha256(prev_hash + canonical JSON of the rest) -- DESIGN.md "Events"."""
    return hashlib.sha256(doc["prev_hash"].encode() + canonical(doc)).hexdigest()


def verify_chain(docs: Sequence[Mapping[str, Any]]) -> Phrase | None:
    """Return None if the chain is intact, else a description of the first break (its
    English text as a ``str``, rendered in the UI language above the rules).

    Every stored event of a file passes here when it is opened: :func:`compute_hash`
    inlined (the same bytes), the first failing check named."""
    prev = GENESIS_HASH
    sha256, dumps, sort, pop = hashlib.sha256, orjson.dumps, orjson.OPT_SORT_KEYS, dict.pop
    for i, doc in enumerate(docs, 1):
        if doc.get("seq") != i:
            return Phrase(
                "event #{n}: sequence number {seq}, expected {n}", n=i, seq=repr(doc.get("seq"))
            )
        if doc.get("prev_hash") != prev:
            return Phrase("event #{n}: prev_hash does not match the previous event", n=i)
        body = dict(doc)
        # UNHASHED, spelled out (a loop over the set costs a tenth of the check; a test
        # holds the two together)
        pop(body, "hash", None), pop(body, "sig", None), pop(body, "signer", None)
        pop(body, "hj_sig", None), pop(body, "hj_key", None)
        h = sha256(prev.encode())
        h.update(dumps(body, option=sort))
        if h.hexdigest() != doc.get("hash"):
            return Phrase("event #{n}: hash does not match its content", n=i)
        prev = doc["hash"]
    return None


def voided_ids(events: Iterable[Event]) -> set[str]:
    """Ids voided by an effective void (the keys of :func:`voided_by`)."""
    return set(voided_by(events))


def voided_by(events: Iterable[Event]) -> dict[str, Event]:
    """Each id voided by an effective void → that void (the earliest when two name it):
    the log says which correction struck an event through. Walks backwards: a void only
    targets earlier events, so by the time we meet an event we know whether it is voided
    itself."""
    evs = events if isinstance(events, list) else list(events)
    by: dict[str, Event] = {}
    if not has_void(evs):
        return by
    for ev in reversed(evs):
        if ev.id in by:
            continue
        if ev.type == VOID:
            target = ev.data.get("target")
            if target:
                by[str(target)] = ev  # an earlier void met later takes its place
    return by


def effective(events: Iterable[Event]) -> list[Event]:
    """The events that count: neither voided nor void events themselves."""
    evs = list(events)
    if not has_void(evs):
        return evs
    gone = voided_ids(evs)
    return [e for e in evs if e.id not in gone and e.type != VOID]


def has_void(events: Iterable[Event]) -> bool:
    """Whether a log holds a correction: most do not, and they skip the void bookkeeping
    (a pass in C over the types)."""
    return VOID in map(_TYPE, events)


_TYPE = attrgetter("type")
