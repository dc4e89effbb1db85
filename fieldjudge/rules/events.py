"""The immutable event every judge action becomes, and the void rule.

A game (or quidditch match) is a log of events. State is a fold over the *effective*
events: those not voided. A correction is a new ``void`` event naming its target
(``data["target"]``) and a reason; it may itself be voided, which restores the target.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

import orjson

from fieldjudge.rules.messages import Phrase

VOID = "void"
GENESIS_HASH = "0" * 64
# Stored beside the hash, outside the hashed content: the signature is over the hash.
UNHASHED = frozenset({"hash", "sig", "signer", "hj_sig", "hj_key"})


@dataclass(frozen=True, slots=True)
class Event:
    """One judge action, immutable, chained to the one before by its hash.

    Slotted: a game holds every event of its log while it is open, and an instance
    dict would be most of an event's memory (issue 24)."""

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
        """The event a stored document holds (a field it lacks takes its default)."""
        return _event(doc, GENESIS_HASH, None)


def read_events(
    docs: Iterable[Mapping[str, Any]], odd: dict[int, Mapping[str, Any]] | None = None
) -> list[Event]:
    """The events of a log's documents, in order, each as :meth:`Event.from_doc` makes
    it. ``odd``, when given, gets ``seq -> document`` for each document its event does
    not give back exactly (:func:`made_exactly`).

    Every stored event of a game passes here when its file is opened. What repeats in a
    log is held once: an event's ``prev_hash`` is its predecessor's ``hash`` string when
    they are equal, and the type, the judge, the key ids and the short strings of each
    ``data`` (a team id, an outcome: replaced in the document's own ``data``, which the
    event holds, by an equal string) are one string per value for this read, not a table
    that outlives it."""
    strings: dict[str, str] = {}
    prev = GENESIS_HASH
    events = []
    for doc in docs:
        e = _event(doc, prev, strings)
        events.append(e)
        if odd is not None and (
            e.data is not doc.get("data")
            or tuple(doc) != _KEYS[(e.sig is not None) + 2 * (e.hj_sig is not None)]
        ):
            odd[e.seq] = doc
        prev = e.hash
    return events


class ChainReader:
    """:func:`verify_chain` and :func:`read_events` at once, a few documents at a time:
    a file read line by line checks and makes each event as its line comes, never
    holding all its documents (issue 24).

    ``events``, ``odd``: as :func:`read_events`'s (``make=False``: none made, the file
    only checked); ``count``, ``last``: the events taken and the last one's hash;
    ``first``: the first event's document; ``marked``: the documents of type ``mark``."""

    __slots__ = (
        "_pending",
        "_strings",
        "count",
        "events",
        "first",
        "last",
        "make",
        "mark",
        "marked",
        "odd",
    )

    def __init__(self, make: bool = True, mark: str = "") -> None:
        self.events: list[Event] = []
        self.odd: dict[int, Mapping[str, Any]] = {}
        self.make, self.mark = make, mark
        self.count, self.last = 0, GENESIS_HASH
        self.first: list[Mapping[str, Any]] = []
        self.marked: list[Mapping[str, Any]] = []
        self._strings: dict[str, str] = {}
        self._pending: list[Mapping[str, Any]] = []

    def take(self, docs: Mapping[str, Any]) -> bool:
        """Take ``docs`` (key -> document, in order) as the next events, checked a few
        records at a time (:meth:`done` checks the last ones): False (and this reader
        spoilt) unless each is keyed by its number and passes every check
        :func:`verify_chain` makes of it."""
        pending = self._pending
        pending.append(docs)
        return len(pending) < _BATCH or self.done()

    def done(self) -> bool:
        """Check (and make) the events taken so far: :meth:`take`'s answer."""
        pending, self._pending = self._pending, []
        n, prev, make, strings, odd = self.count, self.last, self.make, self._strings, self.odd
        append, mark = self.events.append, self.mark
        for docs in pending:
            for key, doc in docs.items():
                n += 1
                if key != str(n) or doc.get("seq") != n or doc.get("prev_hash") != prev:
                    return False
                body = dict(doc)  # the checks of verify_chain, inlined as there
                pop = body.pop
                pop("hash", None), pop("sig", None), pop("signer", None)
                pop("hj_sig", None), pop("hj_key", None)
                h = _sha256(prev.encode())
                h.update(_dumps(body, option=_SORTED))
                if h.hexdigest() != doc.get("hash"):
                    return False
                if make:  # as read_events makes it
                    e = _event(doc, prev, strings)
                    append(e)
                    if (
                        e.data is not doc.get("data")
                        or tuple(doc) != _KEYS[(e.sig is not None) + 2 * (e.hj_sig is not None)]
                    ):
                        odd[e.seq] = doc
                prev = doc["hash"]
                if n == 1:
                    self.first.append(doc)
                if doc.get("type") == mark:
                    self.marked.append(doc)
        self.count, self.last = n, prev
        return True


def _event(doc: Mapping[str, Any], prev: str, strings: dict[str, str] | None) -> Event:
    # The slots are filled through their descriptors: a frozen dataclass's ``__init__``
    # sets each field through ``object.__setattr__``, twice as slow. ``prev``: the hash
    # before (its string is shared when equal); ``strings``: the read's, if any.
    e = _new(Event)
    get = doc.get
    data = get("data")
    kind, judge, signer, hj_key = doc["type"], get("judge", ""), get("signer"), get("hj_key")
    if strings is not None:
        keep = strings.setdefault
        if type(data) is dict:
            for k, v in data.items():
                if type(v) is str and len(v) < _SHORT:
                    data[k] = keep(v, v)
        if type(kind) is str:
            kind = keep(kind, kind)
        if type(judge) is str:
            judge = keep(judge, judge)
        if type(signer) is str:
            signer = keep(signer, signer)
        if type(hj_key) is str:
            hj_key = keep(hj_key, hj_key)
    ph = get("prev_hash", GENESIS_HASH)
    _set_id(e, doc["id"])
    _set_seq(e, doc["seq"])
    _set_type(e, kind)
    _set_clock(e, get("game_clock_ms"))
    _set_wall(e, doc["wall_time"])
    _set_judge(e, judge)
    _set_data(e, data if type(data) is dict else (data or {}))
    _set_prev(e, prev if ph == prev else ph)
    _set_hash(e, get("hash", ""))
    _set_sig(e, get("sig"))
    _set_signer(e, signer)
    _set_hj_sig(e, get("hj_sig"))
    _set_hj_key(e, hj_key)
    return e


_new = object.__new__
_BATCH = 64  # records a ChainReader holds before it checks them
_sha256, _dumps, _SORTED = hashlib.sha256, orjson.dumps, orjson.OPT_SORT_KEYS
_SHORT = 32  # shorter than an event id (which a void's data names): shared within a read


def _setter(name: str) -> Callable[[Event, Any], None]:
    """The setter of a slot (a frozen dataclass refuses ``setattr``: these make an
    event's values once, in :func:`_event`)."""
    setter: Callable[[Event, Any], None] = vars(Event)[name].__set__
    return setter


_set_id, _set_seq, _set_type, _set_clock, _set_wall, _set_judge, _set_data = map(
    _setter, ("id", "seq", "type", "game_clock_ms", "wall_time", "judge", "data")
)
_set_prev, _set_hash, _set_sig, _set_signer, _set_hj_sig, _set_hj_key = map(
    _setter, ("prev_hash", "hash", "sig", "signer", "hj_sig", "hj_key")
)

# The keys of the documents fieldjudge writes (``EventLog.append``), in their order: the
# nine every event has, then the laptop's signature and the head judge's when present.
_BASE = ("id", "seq", "type", "game_clock_ms", "wall_time", "judge", "data", "prev_hash", "hash")
_KEYS: tuple[tuple[str, ...], ...] = (
    _BASE,
    (*_BASE, "sig", "signer"),
    (*_BASE, "hj_sig", "hj_key"),
    (*_BASE, "sig", "signer", "hj_sig", "hj_key"),
)


def stored_doc(e: Event) -> dict[str, Any]:
    """The document ``e`` holds: the keys an appended event's document has, in their
    order (its signatures when it has them). For an event :func:`made_exactly` from its
    document, that document (a file rewritten from its events keeps every byte of their
    hashed content)."""
    doc = {
        "id": e.id,
        "seq": e.seq,
        "type": e.type,
        "game_clock_ms": e.game_clock_ms,
        "wall_time": e.wall_time,
        "judge": e.judge,
        "data": e.data,
        "prev_hash": e.prev_hash,
        "hash": e.hash,
    }
    if e.sig is not None:
        doc["sig"], doc["signer"] = e.sig, e.signer
    if e.hj_sig is not None:
        doc["hj_sig"], doc["hj_key"] = e.hj_sig, e.hj_key
    return doc


def made_exactly(e: Event, doc: Mapping[str, Any]) -> bool:
    """Whether :func:`stored_doc` gives ``doc`` back: ``e`` was made from ``doc`` and the
    document has exactly the keys, in the order, :func:`stored_doc` gives (every document
    fieldjudge writes). Its values are then ``e``'s: none was a default."""
    keys = _KEYS[(e.sig is not None) + 2 * (e.hj_sig is not None)]
    return tuple(doc) == keys and e.data is doc.get("data")


def canonical(doc: Mapping[str, Any]) -> bytes:
    """Canonical JSON of an event without its hash and signature (sorted keys, UTF-8)."""
    if type(doc) is dict and doc.keys().isdisjoint(UNHASHED):  # an event being appended
        return orjson.dumps(doc, option=orjson.OPT_SORT_KEYS)
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
