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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fieldjudge.rules.key_ids import fingerprint, is_key_id, key_id
from fieldjudge.services.trust.signing import signed_message, verify_signature
from fieldjudge.store import DamagedFile
from fieldjudge.store.anchors import (
    canonical_digest,
    laptop_files,
    read_heads,
    read_tournament_sig,
    tournament_digest,
)
from fieldjudge.store.pins import BadTournamentId, HeadJudgePins
from fieldjudge.store.schema import HANDOVER


@functools.cache
def manifest_steps() -> frozenset[str]:
    """The steps at which a laptop records a game's head in its manifest (the engines
    that name them are imported when the first event is appended, not at open)."""
    from fieldjudge.rules import protocol as pr
    from fieldjudge.rules.chrono_checks import APPROVAL
    from fieldjudge.rules.paintball.events import GAME_END

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
            return f"laptop {self.laptop_id} (no public key registered)"
        tag = "" if self.registered else ", unregistered"
        return f'laptop "{self.name}" ({fingerprint(self.public_key)}{tag})'


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
        return pinned, (
            "the head judge's key in tournament.json is not the one this laptop pinned "
            f"({fingerprint(pinned)}): the key or its secret record was replaced"
        )
    if named is None:
        return None, "tournament.json names no head judge key"
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
            out[lid] = LaptopInfo(lid, lid, None, False, "laptop.json is not valid JSON")
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
            out[lid] = LaptopInfo(lid, name, None, False, "its public key is not its id's key")
            continue
        sig = doc.get("hj_sig")
        registered, fault = False, None
        if sig is not None:
            msg = signed_message("key_registration", registration_digest(doc))
            registered = bool(hj_public) and verify_signature(str(hj_public), msg, str(sig))
            if not registered:
                fault = "its registration's head-judge signature is not valid"
        out[lid] = LaptopInfo(lid, name, pub, registered, fault)
    return out


def laptop_label(reg: Mapping[str, LaptopInfo], laptop_id: str | None) -> str:
    if not laptop_id:
        return "no laptop (unsigned)"
    info = reg.get(str(laptop_id))
    return info.label() if info else f"laptop {laptop_id} (not registered in this folder)"


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
        return "no hash"
    if not sig or not signer:
        return "unsigned: no laptop signature"
    info = reg.get(str(signer))
    if info is None or not info.public_key:
        return f"signed by laptop {signer}, which is not registered in this tournament"
    if hj_public and not info.registered:
        return f"signed by {info.label()}, which the head judge has not registered"
    if not verify_signature(info.public_key, signed_message("event", h), str(sig)):
        return f"the signature of {info.label()} does not match the event (edited?)"
    hj_types = set(head_judge_types)
    raw = doc.get("data")
    data: Mapping[str, Any] = raw if isinstance(raw, dict) else {}
    required = doc.get("type") in hj_types or (
        doc.get("type") == "void"
        and (data.get("target_type") in hj_types or data.get("after_lock") is True)
    )  # a void of his action, or his void of an event of a locked protocol (31)
    hj_sig = doc.get("hj_sig")
    if required and not hj_sig:
        return "a head-judge action without the head judge's signature"
    if hj_sig and (
        not hj_public
        or not verify_signature(hj_public, signed_message("head_judge", h), str(hj_sig))
    ):
        return "a head-judge action whose head-judge signature is not valid"
    return None


def head_message(kind: str, log_id: str, count: int, head_hash: str) -> bytes:
    return signed_message("head", f"{kind}/{log_id}:{count}:{head_hash}")


@dataclass(frozen=True)
class Anchor:
    """The newest head of a game a laptop's signed manifest records."""

    count: int
    hash: str
    laptop: str
    step: str
    at: str = ""


def manifest(
    folder: Path, reg: Mapping[str, LaptopInfo], hj_public: str | None = None
) -> tuple[dict[tuple[str, str], Anchor], dict[str, list[str]]]:
    """The newest validly signed head of each game in every laptop's manifest, and the
    faults of each manifest file (relative path -> faults). ``hj_public``: the tournament's
    head judge key; with one, a laptop he has not registered anchors nothing."""
    return manifest_of_rows(read_heads(folder), reg, hj_public)


def manifest_of_rows(
    all_rows: Mapping[str, list[tuple[int, dict[str, Any] | None]]],
    reg: Mapping[str, LaptopInfo],
    hj_public: str | None = None,
) -> tuple[dict[tuple[str, str], Anchor], dict[str, list[str]]]:
    """:func:`manifest` over parsed manifest lines, by laptop id."""
    heads: dict[tuple[str, str], Anchor] = {}
    faults: dict[str, list[str]] = {}
    for lid, rows in all_rows.items():
        rel = f"laptops/{lid}/heads.jsonl"
        bad = faults.setdefault(rel, [])
        info = reg.get(lid)
        for n, doc in rows:
            if doc is None:
                bad.append(f"line {n}: not valid JSON")
                continue
            try:
                kind, gid = str(doc["kind"]), str(doc["id"])
                count, hh = int(doc["count"]), str(doc["hash"])
            except (KeyError, TypeError, ValueError):
                bad.append(f"line {n}: not a manifest entry")
                continue
            if not is_key_id(lid) or info is None or not info.public_key:
                bad.append(f"line {n}: laptop {lid} is not registered")
                continue
            if hj_public and not info.registered:
                bad.append(f"line {n}: {info.label()} is not registered by the head judge")
                continue
            if not verify_signature(
                info.public_key, head_message(kind, gid, count, hh), str(doc.get("sig", ""))
            ):
                bad.append(f"line {n}: the signature of {info.label()} does not match (edited?)")
                continue
            at = str(doc.get("at", ""))
            cur = heads.get((kind, gid))
            # the newest entry (by its signed time) stands: after a head judge's decision
            # on a conflict the log may legitimately hold another chain than before
            if cur is None or (at, count) >= (cur.at, cur.count):
                heads[(kind, gid)] = Anchor(count, hh, lid, str(doc.get("step", "")), at)
    return heads, {k: v for k, v in faults.items() if v}


def tournament_fault(folder: Path, hj_public: str | None) -> str | None:
    """Why ``tournament.json`` is not as the head judge signed it (None: it is)."""
    try:
        sig = read_tournament_sig(folder)
    except DamagedFile as exc:
        return f"tournament.sig: {exc.fault}"
    if sig is None:
        return "not signed by the head judge (no tournament.sig)"
    try:
        digest = tournament_digest(folder)
    except DamagedFile as exc:
        return exc.fault
    if sig.get("hash") != digest:
        return "changed since the head judge signed it (edited by hand, or an unsigned change)"
    if not hj_public or not verify_signature(
        hj_public, signed_message("tournament", digest), str(sig.get("sig", ""))
    ):
        return "tournament.sig is not the head judge's signature"
    return None
