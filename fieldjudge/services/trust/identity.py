"""Who signed what in a tournament folder: laptops' registrations, the head judge's key,
event signatures, the manifest of game heads and the signature of ``tournament.json``.

Read-only checks shared by the one writer (:mod:`fieldjudge.services.tournament`), ``verify``
and merge. Every check returns a fault (an English sentence naming what is wrong) or None.

- A laptop registers itself in ``laptops/<id>/laptop.json`` (name, public key); the head
  judge signs that registration (``hj_sig`` over ``signed_message("key_registration",
  digest)``) when it is made on his laptop or with his secret. Registration is authority:
  in a tournament with a head judge key, the events and manifest lines of a laptop without
  that signature are faults (never anchors, never counted), whatever key it published.
- Each event carries ``sig``: the writing laptop's signature of ``signed_message("event",
  hash)``, and ``signer``: its laptop id. A head-judge action also carries ``hj_sig``
  (``signed_message("head_judge", hash)``) by the head judge's key.
- The head judge's key to trust is the one this laptop pinned when it first opened the
  tournament (``store/pins.py``), else the one ``tournament.json`` names.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fieldjudge.rules import protocol as pr
from fieldjudge.rules.chrono_checks import APPROVAL
from fieldjudge.rules.key_ids import fingerprint, is_key_id, key_id
from fieldjudge.rules.messages import Count, Phrase
from fieldjudge.rules.paintball.events import GAME_END
from fieldjudge.services.trust.signing import signed_message, verify_signature
from fieldjudge.store import DamagedFile
from fieldjudge.store.anchors import (
    canonical_digest,
    laptop_files,
    read_heads,
    read_tournament_sig,
    tournament_digest,
)
from fieldjudge.store.index import SummaryIndex
from fieldjudge.store.pins import BadTournamentId, HeadJudgePins
from fieldjudge.store.schema import HANDOVER, signed_meta_of
from fieldjudge.store.sync_files import read_handovers

#: a game file's meta fields the schedule signs, as a fault names them (the English is the
#: field's name in the file, as before)
META_FIELDS = {
    "team_a": Phrase.in_context("game meta", "team_a"),
    "team_b": Phrase.in_context("game meta", "team_b"),
    "field": Phrase.in_context("game meta", "field"),
    "start": Phrase.in_context("game meta", "start"),
}


class Unregistered(Phrase):
    """A fault that is only the signer's registration: not in the folder (Syncthing has not
    brought it yet, or it never was made) or not signed by the head judge. Nothing in the
    file is damaged; its events count once the head judge has registered the laptop, so it
    is shown as not counted yet, never as damaged (:func:`awaits_registration`)."""


def awaits_registration(fault: object) -> bool:
    """Whether ``fault`` (a file's faults as the verifier composes them: joined, each under
    its file's name or its event's number) is only signers' missing registrations."""
    if isinstance(fault, Unregistered):
        return True
    if not isinstance(fault, Phrase):
        return False
    params = fault.params
    if "fault" in params:  # "{file}: {fault}", "event #{seq} (…): {fault}"
        return awaits_registration(params["fault"])
    parts = [v for k, v in params.items() if k[:1] == "p" and k[1:].isdigit()]
    return bool(parts) and len(parts) == len(params) and all(map(awaits_registration, parts))


@functools.cache
def manifest_steps() -> frozenset[str]:
    """The steps at which a laptop records a game's head in its manifest."""
    return frozenset({GAME_END, *pr.PROTOCOL_TYPES, pr.NO_SHOW, APPROVAL, HANDOVER})


@dataclass(frozen=True)
class LaptopInfo:
    """A laptop of the tournament: its key and whether the head judge registered it."""

    laptop_id: str
    name: str
    public_key: str | None
    registered: bool  # the registration carries a valid head-judge signature
    fault: str | None = None  # e.g. the registration's head-judge signature is forged

    def label(self) -> str:
        if not self.public_key:
            return Phrase("laptop {laptop} (no public key registered)", laptop=self.laptop_id)
        fp = fingerprint(self.public_key)
        if self.registered:
            return Phrase('laptop "{name}" ({fp})', name=self.name, fp=fp)
        return Phrase('laptop "{name}" ({fp}, unregistered)', name=self.name, fp=fp)


def registration_digest(doc: Mapping[str, Any]) -> str:
    """What the head judge signs of a laptop's registration."""
    return canonical_digest(
        {
            "laptop_id": str(doc.get("laptop_id", "")),
            "name": str(doc.get("name", "")),
            "public_key": str(doc.get("public_key", "")),
        }
    )


def head_judge_public_key(meta: Mapping[str, Any]) -> str | None:
    record = meta.get("head_judge_key")
    if isinstance(record, dict) and isinstance(record.get("public_key"), str):
        return str(record["public_key"])
    return None


def trusted_head_judge_key(
    meta: Mapping[str, Any], pins: HeadJudgePins | None
) -> tuple[str | None, str | None]:
    """(the head judge key to check signatures against, a fault or None). The key pinned
    by this laptop wins over the one ``tournament.json`` names."""
    named = head_judge_public_key(meta)
    pinned = None
    if pins is not None:
        try:
            pinned = pins.pinned(str(meta.get("id", "")))
        except (BadTournamentId, DamagedFile):
            pinned = None
    if pinned is not None and named != pinned:
        return pinned, Phrase(
            "the head judge's key in tournament.json is not the one this laptop pinned "
            "({fp}): the key or its secret record was replaced",
            fp=fingerprint(pinned),
        )
    if named is None:
        return None, Phrase("tournament.json names no head judge key")
    return named, None


def registry(folder: Path, hj_public: str | None) -> dict[str, LaptopInfo]:
    """Every laptop registered in the folder, by id."""
    return registry_of_docs(laptop_files(folder), hj_public)


def registry_of_docs(
    docs: Mapping[str, Mapping[str, Any] | None], hj_public: str | None
) -> dict[str, LaptopInfo]:
    """Laptops from their ``laptop.json`` documents, by id."""
    out: dict[str, LaptopInfo] = {}
    for lid, doc in docs.items():
        if doc is None:
            out[lid] = LaptopInfo(lid, lid, None, False, Phrase("laptop.json is not valid JSON"))
            continue
        pub = doc.get("public_key")
        name = str(doc.get("name", lid))
        if not isinstance(pub, str) or not pub:
            out[lid] = LaptopInfo(lid, name, None, False)
            continue
        try:
            ok_id = key_id(pub) == lid
        except ValueError:
            ok_id = False
        if not ok_id:
            out[lid] = LaptopInfo(
                lid, name, None, False, Phrase("its public key is not its id's key")
            )
            continue
        sig = doc.get("hj_sig")
        registered, fault = False, None
        if sig is not None:
            msg = signed_message("key_registration", registration_digest(doc))
            registered = bool(hj_public) and verify_signature(str(hj_public), msg, str(sig))
            if not registered:
                fault = Phrase("its registration's head-judge signature is not valid")
        out[lid] = LaptopInfo(lid, name, pub, registered, fault)
    return out


def laptop_label(reg: Mapping[str, LaptopInfo], laptop_id: str | None) -> str:
    if not laptop_id:
        return Phrase("no laptop (unsigned)")
    info = reg.get(str(laptop_id))
    if info:
        return info.label()
    return Phrase("laptop {laptop} (not registered in this folder)", laptop=str(laptop_id))


def event_fault(
    doc: Mapping[str, Any],
    reg: Mapping[str, LaptopInfo],
    hj_public: str | None,
    head_judge_types: Iterable[str],
) -> str | None:
    """Why an event's signatures do not hold (None: the laptop's, and for a head-judge
    action the head judge's, signature of its hash are valid)."""
    h = doc.get("hash")
    signer = doc.get("signer")
    sig = doc.get("sig")
    if not isinstance(h, str) or not h:
        return Phrase("no hash")
    if not sig or not signer:
        return Phrase("unsigned: no laptop signature")
    info = reg.get(str(signer))
    # a registration not here (yet) or not signed by him (yet) is not damage; a registration
    # that is there but broken (its JSON, its key, his signature of it) is
    if info is None or not info.public_key:
        why = Unregistered(
            "signed by laptop {laptop}, which is not registered in this tournament",
            laptop=str(signer),
        )
        return why if info is None or info.fault is None else Phrase(why.en, **why.params)
    if hj_public and not info.registered:
        why = Unregistered(
            "signed by {laptop}, which the head judge has not registered", laptop=info.label()
        )
        return why if info.fault is None else Phrase(why.en, **why.params)
    if not verify_signature(info.public_key, signed_message("event", h), str(sig)):
        return Phrase(
            "the signature of {laptop} does not match the event (edited?)", laptop=info.label()
        )
    hj_types = set(head_judge_types)
    raw = doc.get("data")
    data: Mapping[str, Any] = raw if isinstance(raw, dict) else {}
    required = doc.get("type") in hj_types or (
        doc.get("type") == "void"
        and (data.get("target_type") in hj_types or data.get("after_lock") is True)
    )  # a void of his action, or his void of an event of a locked protocol (31)
    hj_sig = doc.get("hj_sig")
    if required and not hj_sig and doc.get("type") == HANDOVER and "record" in data:
        # the new owner took the game over by its own append, carrying his signed record
        return handover_record_fault(data["record"], hj_public, data)
    if required and not hj_sig:
        return Phrase("a head-judge action without the head judge's signature")
    if hj_sig and (
        not hj_public
        or not verify_signature(hj_public, signed_message("head_judge", h), str(hj_sig))
    ):
        return Phrase("a head-judge action whose head-judge signature is not valid")
    return None


def handover_digest(record: Mapping[str, Any]) -> str:
    """What the head judge signs for a hand-over of a game to another laptop (issue 22)."""
    fields = ("game", "from_laptop", "to_laptop", "at")
    return canonical_digest({k: str(record.get(k, "")) for k in fields})


def handover_record_fault(
    record: Any, hj_public: str | None, data: Mapping[str, Any] | None = None
) -> str | None:
    """Why a hand-over record does not hold (None: signed by the head judge and, with
    ``data``, naming the same laptops as the event that carries it)."""
    if not isinstance(record, dict) or not record.get("hj_sig"):
        return Phrase("a hand-over without the head judge's signature")
    if data is not None and any(record.get(k) != data.get(k) for k in ("from_laptop", "to_laptop")):
        return Phrase("a hand-over whose record names other laptops")
    msg = signed_message("head_judge", handover_digest(record))
    if not hj_public or not verify_signature(hj_public, msg, str(record["hj_sig"])):
        return Phrase("a hand-over whose head-judge signature is not valid")
    return None


def head_message(
    kind: str, log_id: str, count: int, head_hash: str, line: int = 0, prev: str = ""
) -> bytes:
    """What a laptop signs for one manifest line. A chained line (issue 21) signs its
    place too: ``line``, its number in the manifest, and ``prev``, the digest of the line
    before ("" for the first); a legacy line (written before the chain) signs neither."""
    if line:
        return signed_message("head", f"{kind}/{log_id}:{count}:{head_hash}:{line}:{prev}")
    return signed_message("head", f"{kind}/{log_id}:{count}:{head_hash}")


def manifest_tip(rows: list[tuple[int, dict[str, Any] | None]]) -> tuple[int, str]:
    """(entries, digest of the last entry, "" if none) of a manifest's parsed lines: where
    the next line chains from."""
    entries = [doc for _n, doc in rows if doc is not None]
    return len(entries), canonical_digest(entries[-1]) if entries else ""


@dataclass(frozen=True)
class Anchor:
    """The newest head of a game a laptop's signed manifest records."""

    count: int
    hash: str
    laptop: str
    step: str
    at: str = ""


@dataclass
class Manifests:
    """Every laptop's manifest as read: ``heads``, the anchor of each log (the newest of
    the manifests and this laptop's cache); ``faults`` of each manifest file; ``tips``,
    (lines, digest of the last) of each manifest that verified clean by a laptop the head
    judge registered; ``signed``, the heads those manifests' lines record (without the
    cache): what this laptop's app remembers as seen (issue 21, 4)."""

    heads: dict[tuple[str, str], Anchor]
    faults: dict[str, list[str]]
    tips: dict[str, tuple[int, str]]
    signed: dict[tuple[str, str], Anchor]


def read_manifests(
    folder: Path, reg: Mapping[str, LaptopInfo], hj_public: str | None = None
) -> Manifests:
    """The newest validly signed head of each game in every laptop's manifest, and the
    faults of each manifest file (relative path -> faults), with the tips and signed heads
    of the clean manifests. ``hj_public``: the tournament's head judge key; with one, a
    laptop he has not registered anchors nothing, and a laptop he handed a game away from
    anchors nothing of it from the new owner's take-over on."""
    rows = read_heads(folder)
    records = [r for r in read_handovers(folder) if handover_record_fault(r, hj_public) is None]
    passed_over: set[tuple[str, str, int, str]] = set()
    heads, faults = manifest_of_rows(rows, reg, hj_public, records, passed_over)
    signed = dict(heads)
    _check_local_cache(folder, rows, heads, faults, reg, hj_public, passed_over)
    tips = {}
    for lid, lid_rows in rows.items():
        info = reg.get(lid)
        clean = f"laptops/{lid}/heads.jsonl" not in faults
        if clean and info is not None and (info.registered or not hj_public):
            tips[lid] = manifest_tip(lid_rows)
    return Manifests(heads, faults, tips, signed)


def _check_local_cache(
    folder: Path,
    rows: Mapping[str, list[tuple[int, dict[str, Any] | None]]],
    heads: dict[tuple[str, str], Anchor],
    faults: dict[str, list[str]],
    reg: Mapping[str, LaptopInfo],
    hj_public: str | None = None,
    passed_over: Collection[tuple[str, str, int, str]] = (),
) -> None:
    """What this laptop's local cache (``.cache/``, never synced) remembers: how long the
    manifest it wrote was, and the last head of each game it recorded; how long the other
    laptops' manifests were when its app last saw them, and the heads they recorded. A
    manifest shorter than that, or another line at its end, was cut (its newest lines
    deleted, maybe with a game's newest events); a game's anchor is the newest of the
    manifest and the cache, but for a head the manifest left out (``passed_over``:
    recorded after the head judge handed the game away from its laptop)."""
    index = SummaryIndex(folder)
    for lid, (length, digest), who in [
        *((lid, m, "wrote") for lid in index.manifests if (m := index.manifest_length(lid))),
        *(
            (lid, m, "saw")
            for lid in index.seen
            if lid not in index.manifests and (m := index.seen_length(lid))
        ),
    ]:
        entries = [doc for _n, doc in rows.get(lid, []) if doc is not None]
        rel = f"laptops/{lid}/heads.jsonl"
        if len(entries) < length:
            faults.setdefault(rel, []).append(
                Phrase(
                    "shortened: this laptop wrote {lines}, the file holds {held} (its newest "
                    "lines were deleted)",
                    lines=Count(length, "{n} line", "{n} lines"),
                    held=len(entries),
                )
                if who == "wrote"
                else Phrase(
                    "shortened: this laptop saw {lines}, the file holds {held} (its newest "
                    "lines were deleted)",
                    lines=Count(length, "{n} line", "{n} lines"),
                    held=len(entries),
                )
            )
        elif canonical_digest(entries[length - 1]) != digest:
            faults.setdefault(rel, []).append(
                Phrase("line {n} is not the line this laptop wrote there (replaced)", n=length)
                if who == "wrote"
                else Phrase("line {n} is not the line this laptop saw there (replaced)", n=length)
            )
    for (kind, gid), a in _seen_anchors(index).items():
        info = reg.get(a.laptop)
        if hj_public and (info is None or not info.registered):
            continue  # anchors nothing, as its manifest lines would not
        if (kind, gid, a.count, a.hash) in passed_over:
            continue  # recorded after the game was handed away from its laptop
        cur = heads.get((kind, gid))
        if cur is None or (a.at, a.count) > (cur.at, cur.count):
            heads[(kind, gid)] = a
    own = next(iter(index.manifests), "") if len(index.manifests) == 1 else ""
    info = reg.get(own)
    if hj_public and (info is None or not info.registered):
        return  # a laptop the head judge has not registered anchors nothing (issue 21)
    for gid in list(index.heads):
        cached = index.last_head(gid)
        cur = heads.get(("games", gid))
        if cached is None or ("games", gid, *cached) in passed_over:
            continue  # none, or recorded after the game was handed away from this laptop
        if cur is None or cached[0] > cur.count:
            heads[("games", gid)] = Anchor(cached[0], cached[1], own, "this laptop's cache")


def _seen_anchors(index: SummaryIndex) -> dict[tuple[str, str], Anchor]:
    """The heads of other laptops' manifests this laptop's app saw (the local cache)."""
    out = {}
    for key, rec in index.seen_heads.items():
        kind, _sep, gid = str(key).partition("/")
        if not isinstance(rec, list):
            continue
        try:
            count, hh, lid, step, at = rec
            out[(kind, gid)] = Anchor(int(count), str(hh), str(lid), f"seen: {step}", str(at))
        except (TypeError, ValueError):
            continue  # a local cache that does not parse anchors nothing
    return out


def manifest_of_rows(
    all_rows: Mapping[str, list[tuple[int, dict[str, Any] | None]]],
    reg: Mapping[str, LaptopInfo],
    hj_public: str | None = None,
    handovers: Iterable[Mapping[str, Any]] = (),
    passed_over: set[tuple[str, str, int, str]] | None = None,
) -> tuple[dict[tuple[str, str], Anchor], dict[str, list[str]]]:
    """The heads and faults of :func:`read_manifests` over parsed manifest lines, by
    laptop id. ``handovers``: the head judge's hand-over records whose signature holds (see
    :func:`_handed_away`); each head they leave out is added to ``passed_over`` as
    ``(kind, id, count, hash)``."""
    heads: dict[tuple[str, str], Anchor] = {}
    found: dict[tuple[str, str], list[Anchor]] = {}
    faults: dict[str, list[str]] = {}
    for lid, rows in all_rows.items():
        rel = f"laptops/{lid}/heads.jsonl"
        bad = faults.setdefault(rel, [])
        info = reg.get(lid)
        place, prev, chained = 0, "", False  # the chain: each line names the one before
        for n, doc in rows:
            if doc is None:
                bad.append(Phrase("line {n}: not valid JSON", n=n))
                continue
            place += 1
            expected_prev, prev = prev, canonical_digest(doc)
            if "line" in doc:
                chained = True
                if doc.get("line") != place or doc.get("prev") != expected_prev:
                    bad.append(
                        Phrase(
                            "line {n}: the chain is broken (a line before it was removed, "
                            "changed or inserted)",
                            n=n,
                        )
                    )
                    continue
            elif chained:
                bad.append(
                    Phrase(
                        "line {n}: a line without the chain after chained lines (inserted?)", n=n
                    )
                )
                continue
            try:
                kind, gid = str(doc["kind"]), str(doc["id"])
                count, hh = int(doc["count"]), str(doc["hash"])
            except (KeyError, TypeError, ValueError):
                bad.append(Phrase("line {n}: not a manifest entry", n=n))
                continue
            if not is_key_id(lid) or info is None or not info.public_key:
                bad.append(Phrase("line {n}: laptop {laptop} is not registered", n=n, laptop=lid))
                continue
            if hj_public and not info.registered:
                bad.append(
                    Phrase(
                        "line {n}: {laptop} is not registered by the head judge",
                        n=n,
                        laptop=info.label(),
                    )
                )
                continue
            line = int(doc.get("line") or 0)
            message = head_message(kind, gid, count, hh, line, str(doc.get("prev", "")))
            if not verify_signature(info.public_key, message, str(doc.get("sig", ""))):
                bad.append(
                    Phrase(
                        "line {n}: the signature of {laptop} does not match (edited?)",
                        n=n,
                        laptop=info.label(),
                    )
                )
                continue
            at = str(doc.get("at", ""))
            found.setdefault((kind, gid), []).append(
                Anchor(count, hh, lid, str(doc.get("step", "")), at)
            )
    moved = {
        (str(r.get("game")), str(r.get("from_laptop")), str(r.get("to_laptop"))) for r in handovers
    }
    handed = {game for game, _from, _to in moved}
    for key, anchors in found.items():
        standing = anchors
        if key[1] in handed:
            standing = [a for a in anchors if not _handed_away(a, anchors, key[1], moved)]
            if passed_over is not None:
                passed_over.update((*key, a.count, a.hash) for a in anchors if a not in standing)
        # the newest entry (by its signed time) stands: after a head judge's decision
        # on a conflict the log may legitimately hold another chain than before
        for a in standing or anchors:
            cur = heads.get(key)
            if cur is None or (a.at, a.count) >= (cur.at, cur.count):
                heads[key] = a
    return heads, {k: v for k, v in faults.items() if v}


def _handed_away(
    a: Anchor, anchors: list[Anchor], game: str, moved: set[tuple[str, str, str]]
) -> bool:
    """Whether the head ``a`` was recorded by a laptop the head judge had handed the game
    away from (issue 22): another laptop took it over, by a record of his from ``a``'s
    laptop, at or before ``a``'s count, and ``a``'s laptop did not take it back between.
    A laptop cut off while he did went on, and a step it recorded later than the take-over
    would otherwise vouch for its writes as the game on every laptop."""
    for b in anchors:
        if (
            b.step == HANDOVER
            and b.laptop != a.laptop
            and (game, a.laptop, b.laptop) in moved
            and b.count <= a.count
            and not any(
                c.step == HANDOVER and c.laptop == a.laptop and b.count < c.count <= a.count
                for c in anchors
            )
        ):
            return True
    return False


def tournament_fault(folder: Path, hj_public: str | None) -> str | None:
    """Why ``tournament.json`` is not as the head judge signed it (None: it is)."""
    try:
        sig = read_tournament_sig(folder)
    except DamagedFile as exc:
        return Phrase("{file}: {fault}", file="tournament.sig", fault=exc.fault)
    if sig is None:
        return Phrase("not signed by the head judge (no tournament.sig)")
    try:
        digest = tournament_digest(folder)
    except DamagedFile as exc:
        return exc.fault
    previous = sig.get("previous")
    if sig.get("hash") != digest and isinstance(previous, dict) and previous.get("hash") == digest:
        # the signature of a change that a power cut kept from reaching tournament.json:
        # the content on disk is the one he signed before (services.tournament._sign_ahead)
        sig = previous
    if sig.get("hash") != digest:
        return Phrase(
            "changed since the head judge signed it (edited by hand, or an unsigned change)"
        )
    if not hj_public or not verify_signature(
        hj_public, signed_message("tournament", digest), str(sig.get("sig", ""))
    ):
        return Phrase("tournament.sig is not the head judge's signature")
    return None


def meta_problems(
    log_id: str,
    meta: Mapping[str, Any],
    docs: Sequence[Mapping[str, Any]],
    schedule: Mapping[str, Mapping[str, Any]],
) -> tuple[list[str], list[str]]:
    """(faults, notes) of a game file's meta against its first signed event (the store's
    ``schema.SIGNED_META``; a differing meta is already a damaged file) and against the
    schedule of ``tournament.json`` (signed by the head judge): the game, its teams, field
    and start. A log written before signed meta is checked against the schedule and noted
    as "unsigned meta": its owner is signed nowhere."""
    faults: list[str] = []
    notes: list[str] = []
    if not docs:
        notes.append(Phrase("no events yet: its meta is not signed yet"))
    elif signed_meta_of(docs) is None:
        notes.append(
            Phrase("unsigned meta (written before signed meta): its owner is signed nowhere")
        )
    if str(meta.get("game_id", "")) != log_id:
        faults.append(
            Phrase(
                "the file names game {named}, not {game}",
                named=repr(meta.get("game_id")),
                game=repr(log_id),
            )
        )
    game = schedule.get(log_id)
    if game is None:
        faults.append(Phrase("game {game} is not in the schedule of tournament.json", game=log_id))
        return faults, notes
    for name, what in META_FIELDS.items():
        if meta.get(name) != game.get(name):
            faults.append(
                Phrase(
                    "{what} {value} differs from the schedule's {scheduled}",
                    what=what,
                    value=repr(meta.get(name)),
                    scheduled=repr(game.get(name)),
                )
            )
    return faults, notes
