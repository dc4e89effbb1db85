"""Syncthing's conflict copies of game and match logs: never lost, never silently mixed.

When two laptops changed the same log before they saw each other's change, Syncthing keeps
one version as the file and the other as ``<id>.sync-conflict-<date>-<time>-<device>.json``
(DESIGN.md "The venue network"). :func:`scan_sync_conflicts` compares each copy with the log
by event id along the hash chain, with the existing merge logic:

- the copy holds nothing the log lacks → ``contained``;
- the copy extends the log and every event it adds is validly signed by the laptop that
  owns the game → ``merged`` into the log, by the owning laptop only (one writer per
  game); on another laptop it is ``waiting_owner``;
- the copy extends the log but an event it adds is signed by another laptop (or by
  nobody, or not validly) → ``not_owner``: listed for the head judge, not merged;
- both have events the other lacks → ``diverged``: a merge conflict kept in ``conflicts/``
  for the head judge, as for a merge from a USB stick;
- except on the laptop that owns the game along the copy, when the copy is its own and
  the live file is not (:func:`_rightful_copy`) → ``reclaimed``: Syncthing keeps the newer
  file as the live one, so a cut-off old owner writing after the new owner took the game
  over by its hand-over would make its own events the live game everywhere and the new
  owner's take-over a copy (issue 22). The owner puts its version back as the live file
  and keeps the live one as a new conflict copy (by signatures, the other laptop's), which
  every laptop then lists for the head judge as ``diverged``.

Who wrote a copy is read from the signatures of the events it adds, never from its file
name: Syncthing names a conflict copy after the device whose version *won*, not after the
one that wrote the copy (issue 22). ``laptop`` is that signer; ``device`` (the name's
suffix) is kept only as Syncthing's own word for the head judge.

No copy is ever deleted by the scan: only :func:`resolve_sync_conflict`, the head judge's
decision, moves it to ``conflicts/resolved/`` (local, kept).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

from fieldjudge.rules.events import Event
from fieldjudge.rules.ownership import Handover, current_owner, foreign_writes, may_append
from fieldjudge.services.sync import merge as merge_logic
from fieldjudge.services.tournament import TournamentService
from fieldjudge.services.trust import authority, identity
from fieldjudge.store import HANDOVER, DamagedFile, Refused, bundle
from fieldjudge.store.sync_files import (
    ConflictCopy,
    conflict_copy_path,
    find_conflict_copies,
    keep_file,
    laptop_devices,
    parse_conflict_name,
    put_back,
)
from fieldjudge.store.tournament import anchor_fault

MERGED = "merged"
CONTAINED = "contained"
WAITING_OWNER = "waiting_owner"
NOT_OWNER = "not_owner"
DIVERGED = "diverged"
RECLAIMED = "reclaimed"
DAMAGED = "damaged"
TOURNAMENT_COPY = "tournament_copy"
TOURNAMENT = "tournament"


@dataclass(frozen=True)
class SyncConflict:
    copy: ConflictCopy
    kind: str  # "games" | "quidditch"
    status: str
    common: int = 0  # events the copy and the log share
    ours: int = 0  # the log's events after them
    theirs: int = 0  # the copy's events after them
    laptop: str | None = None  # the laptop that signed the events the copy adds (one signer)
    owner: str | None = None  # the laptop owning the game (None: not recorded)
    detail: str = ""

    @property
    def path(self) -> Path:
        return self.copy.path

    @property
    def log_id(self) -> str:
        return self.copy.log_id

    def line(self) -> str:
        who = self.laptop or f"device {self.copy.device} (unsigned)"
        head = f"{self.kind}/{self.log_id} ({self.copy.path.name}, from {who})"
        return {
            MERGED: f"{head}: {self.theirs} event(s) merged",
            CONTAINED: f"{head}: nothing new (all its events are in the log)",
            WAITING_OWNER: f"{head}: {self.theirs} new event(s); laptop {self.owner} merges them",
            NOT_OWNER: (
                f"{head}: {self.theirs} event(s) from a laptop that does not own the game "
                f"(owner {self.owner}): for the head judge"
            ),
            DIVERGED: (
                f"CONFLICT {head}: {self.common} events in common, then {self.ours} here and "
                f"{self.theirs} there: for the head judge"
            ),
            RECLAIMED: (
                f"{head}: this laptop's version, {self.theirs} event(s) after {self.common} in "
                f"common, is the game again; the {self.ours} event(s) of the other version are "
                f"kept in {self.detail} for the head judge"
            ),
            DAMAGED: f"{head}: damaged copy ({self.detail}): for the head judge",
            TOURNAMENT_COPY: (
                f"{self.copy.path.name} (from {who}): tournament.json was changed on two "
                "laptops; only the head judge's laptop should change it: for the head judge"
            ),
        }.get(self.status, f"{head}: {self.status}")

    @property
    def for_head_judge(self) -> bool:
        return self.status in (NOT_OWNER, DIVERGED, DAMAGED, TOURNAMENT_COPY)


def _laptop_of(devices: dict[str, str], short: str) -> str | None:
    return next((lap for lap, dev in devices.items() if dev.replace("-", "")[:7] == short), None)


def _signer(
    t: TournamentService, events: list[dict], reg: dict[str, identity.LaptopInfo], kind: str
) -> tuple[str | None, str]:
    """The one laptop that validly signed every event of ``events`` (the events a copy adds)
    and why not, if it is not one laptop: ``(None, fault)`` when an event is unsigned, its
    signature does not hold, or two laptops signed them."""
    hj_types = authority.HEAD_JUDGE_TYPES if kind == "games" else frozenset()
    signers = set()
    for e in events:
        fault = identity.event_fault(e, reg, t.pinned_hj, hj_types)
        if fault:
            return None, f"event #{e.get('seq', '?')}: {fault}"
        signers.add(str(e["signer"]))
    if len(signers) != 1:
        return None, "signed by " + ", ".join(sorted(signers)) if signers else ""
    return signers.pop(), ""


def _merge(
    t: TournamentService, kind: str, log_id: str, doc: dict[str, Any]
) -> merge_logic.MergeReport:
    src = merge_logic.Source(
        f"sync conflict copy of {kind}/{log_id}", {}, {kind: {log_id: doc}}, []
    )
    report = merge_logic.MergeReport(src.label)
    merge_logic.merge_logs(t, src, report)
    return report


def _handovers(
    t: TournamentService, events: list[dict], reg: dict[str, identity.LaptopInfo], kind: str
) -> list[Handover]:
    """The hand-overs in a log whose signatures hold (the head judge's among them)."""
    return [move for *_, move in _moves(t, events, reg, kind) if move is not None]


def _moves(
    t: TournamentService, events: list[dict], reg: dict[str, identity.LaptopInfo], kind: str
) -> list[tuple[int, str, str, Handover | None]]:
    """``(seq, signer, type, hand-over)`` of each event (the hand-over only when its
    signatures hold), as :func:`~fieldjudge.rules.ownership.foreign_writes` reads them."""
    hj_types = authority.HEAD_JUDGE_TYPES if kind == "games" else frozenset()
    out = []
    for e in events:
        data = e.get("data")
        move = None
        if (
            e.get("type") == HANDOVER
            and isinstance(data, dict)
            and identity.event_fault(e, reg, t.pinned_hj, hj_types) is None
        ):
            move = Handover(str(data.get("from_laptop", "")), str(data.get("to_laptop", "")))
        out.append((int(e.get("seq") or 0), str(e.get("signer") or ""), str(e.get("type")), move))
    return out


def _rightful_copy(
    t: TournamentService,
    log_id: str,
    ours: list[dict],
    theirs: list[dict],
    k: int,
    signer: str | None,
    owner: str | None,
    handovers: list[Handover],
    this_laptop: str,
    reg: dict[str, identity.LaptopInfo],
) -> bool:
    """Whether a diverged copy of a game is this laptop's own version of a game it owns
    while the live file is not (issue 22), so that this laptop, the one writer of the
    game, puts its version back:

    - every event the copy adds is validly signed by this laptop (``signer``: the one
      laptop :func:`_signer` found), and each one by the owner at its point: the owner
      where the two versions part, moved by the copy's own valid hand-overs (the take-over
      this laptop appended for the head judge's record); this laptop owns the game at the
      copy's end;
    - the live file's events after that point hold no valid hand-over (no decision of the
      head judge the copy lacks) and are not all this laptop's: another laptop wrote them
      into a game it no longer owns along the copy;
    - the copy reaches the newest head the laptops' signed manifests record for the game
      (this laptop's take-over among them): a version the head judge decided against,
      recorded later, is never put back."""
    mine, live = theirs[k:], ours[k:]
    if owner is None or signer != this_laptop or not mine or not live:
        return False
    start = current_owner(owner, handovers)
    moves = _moves(t, mine, reg, "games")
    if foreign_writes(start, moves):
        return False
    if current_owner(start, [m for *_, m in moves if m is not None]) != this_laptop:
        return False
    if _handovers(t, live, reg, "games") or all(e.get("signer") == this_laptop for e in live):
        return False
    return anchor_fault([Event.from_doc(d) for d in theirs], t.anchor(log_id)) is None


def _held_is(t: TournamentService, game_id: str, events: list[dict]) -> bool:
    """Whether this laptop holds the game's log open with exactly ``events``."""
    held = t.store.open_game_log(game_id)
    return held is not None and [e.hash for e in held.events] == [d["hash"] for d in events]


def _device_word(devices: dict[str, str], laptop: str) -> str:
    """What a conflict copy this laptop makes is named after: its Syncthing device (the
    first 7 characters of the ID), else the start of its laptop id."""
    word = (devices.get(laptop) or laptop).replace("-", "")[:7].upper()
    return word if len(word) == 7 and word.isalnum() and word.isascii() else "UNKNOWN"


def scan_sync_conflicts(
    t: TournamentService, this_laptop_id: str = "", skip: Iterable[str] = ()
) -> list[SyncConflict]:
    """Find and handle every conflict copy in the open tournament ``t`` (see the module
    docstring), by the validly signed hand-overs in each log. ``this_laptop_id``: the
    laptop running this (its games it may write; default: ``t``'s); ``skip``: ids of logs
    to leave for a later scan (a game this laptop is judging live: its open session alone
    appends to it), but for the put-back of the session's own version, which the session
    goes on with (``reclaimed``: the open log holds exactly the copy's events, and stays
    open on the file put back)."""
    devices = laptop_devices(t.folder)
    reg = identity.registry(t.folder, t.pinned_hj)
    this_laptop_id = this_laptop_id or t.owner_id
    out = []
    skipped = set(skip)
    for c in find_conflict_copies(t.folder):
        kind = c.path.parent.name
        busy = c.log_id in skipped
        if busy and kind != "games":
            continue
        if c.path.parent == Path(t.folder):  # tournament.json: the head judge decides
            # no events to read a signer from: Syncthing's device name is all there is
            laptop = _laptop_of(devices, c.device)
            out.append(SyncConflict(c, TOURNAMENT, TOURNAMENT_COPY, laptop=laptop))
            continue
        try:
            theirs_doc = bundle.read_log_file(c.path)
        except DamagedFile as exc:
            if not busy:
                out.append(SyncConflict(c, kind, DAMAGED, detail=exc.fault))
            continue
        theirs = theirs_doc["events"]
        try:
            ours_doc = bundle.read_log_file(c.original) if c.original.exists() else None
        except DamagedFile as exc:
            if not busy:
                out.append(SyncConflict(c, kind, DAMAGED, detail=f"log: {exc.fault}"))
            continue
        ours = ours_doc["events"] if ours_doc else []
        meta = (ours_doc or theirs_doc)["meta"]
        owner = meta.get("owner") or None
        k = merge_logic.common_prefix(ours, theirs)
        signer, why = _signer(t, theirs[k:], reg, kind)
        handovers = _handovers(t, ours[:k], reg, kind)
        rightful = (
            kind == "games"
            and k < min(len(ours), len(theirs))
            and _rightful_copy(
                t, c.log_id, ours, theirs, k, signer, owner, handovers, this_laptop_id, reg
            )
        )
        if busy and not (rightful and _held_is(t, c.log_id, theirs)):
            continue

        found = partial(
            SyncConflict,
            c,
            kind,
            common=k,
            ours=len(ours) - k,
            theirs=len(theirs) - k,
            laptop=signer,
            owner=owner,
        )
        if k == len(theirs):
            out.append(found(CONTAINED))
        elif k == len(ours):
            from_owner = signer is not None and may_append(owner, signer, handovers) is None
            if not from_owner:
                out.append(found(NOT_OWNER, detail=why))
            elif may_append(owner, this_laptop_id, handovers) is not None:
                out.append(found(WAITING_OWNER))
            else:
                _merge(t, kind, c.log_id, theirs_doc)
                t.written(c.original)
                out.append(found(MERGED))
        elif rightful:
            when = datetime.fromtimestamp(t.wall())  # local time, as Syncthing names copies
            new = conflict_copy_path(c.original, when, _device_word(devices, this_laptop_id))
            put_back(c, new, t.folder / merge_logic.CONFLICTS / "resolved")
            if not (busy and t.store.reseat_log(c.log_id)):
                t.release_log(kind, c.log_id)
            t.written(c.original, new, c.path)
            out.append(found(RECLAIMED, detail=new.name))
        else:
            report = _merge(t, kind, c.log_id, theirs_doc)
            out.append(
                found(DIVERGED, detail=report.conflicts[0].path.name if report.conflicts else "")
            )
    return out


class ConflictWatch:
    """The conflict copies as the app sees them while a tournament is open: scanned (and an
    owner's extension merged) when the set of copies changes, and again while a copy waits
    for a game this laptop was judging live. :meth:`poll` runs on the UI thread, where the
    store may be written."""

    def __init__(self, t: TournamentService) -> None:
        self.t = t
        self._key: tuple[str, ...] | None = None
        self._waiting = False
        self.found: list[SyncConflict] = []

    def poll(self, busy: Iterable[str] = ()) -> list[SyncConflict] | None:
        """The copies scanned again, or None when nothing changed since the last poll."""
        copies = find_conflict_copies(self.t.folder)
        key = tuple(c.path.name for c in copies)
        if key == self._key and not self._waiting:
            return None
        busy = set(busy)
        self._key = key
        self._waiting = any(c.log_id in busy for c in copies)
        self.found = scan_sync_conflicts(self.t, skip=busy)
        return self.found

    @property
    def for_head_judge(self) -> list[SyncConflict]:
        return [c for c in self.found if c.for_head_judge]


def _kept_copy(t: TournamentService, kind: str, log_id: str, doc: dict[str, Any]) -> Path | None:
    """The merge conflict entry (``conflicts/<kind>/<id>--<head>.json``) of this copy."""
    events = doc.get("events") or []
    if not events:
        return None
    p = t.folder / merge_logic.CONFLICTS / kind / f"{log_id}--{events[-1]['hash'][:12]}.json"
    return p if p.exists() else None


def resolve_sync_conflict(t: TournamentService, path: Path, keep: str, secret: str = "") -> Path:
    """The head judge decides a conflict copy: ``keep="ours"`` keeps the log as it is,
    ``"theirs"`` makes the copy the log. Whatever is not kept goes to
    ``conflicts/resolved/`` (never deleted); the copy leaves the synced folder, so Syncthing
    removes it on the other laptops too. Returns where the copy was archived.

    ``secret``: the head judge's secret; the decision is his (31), refused without it,
    and signed with his key (kept in ``conflicts/decisions/``)."""
    if keep not in ("ours", "theirs"):
        raise Refused("choose ours or theirs")
    grant = t.head_judge(secret)  # refuses without the head judge's secret (citing 31)
    path = Path(path)
    c = parse_conflict_name(path)
    if c is None or not path.is_file():
        raise Refused(f"{path.name} is not a conflict copy of this tournament")
    kind = path.parent.name
    resolved = t.folder / merge_logic.CONFLICTS / "resolved"
    if path.parent.resolve() == t.folder.resolve() and c.original.name == "tournament.json":
        if keep == "theirs":
            raise Refused(
                "a copy of tournament.json is not taken whole: keep ours, then enter again "
                "what the copy has and ours lacks (the copy stays in conflicts/resolved/)"
            )
        return keep_file(path, resolved)
    if kind not in bundle.LOG_FOLDERS or path.parent.parent.resolve() != t.folder.resolve():
        raise Refused(f"{path.name} is not a conflict copy of this tournament")
    try:
        doc = bundle.read_log_file(path)
    except DamagedFile:
        if keep == "theirs":
            raise
        doc = {}
    kept = _kept_copy(t, kind, c.log_id, doc) if doc else None
    if keep == "theirs":
        if kept is None:  # stage the copy as a merge conflict, then resolve it as one
            head = doc["events"][-1]["hash"][:12] if doc["events"] else "empty"
            kept = keep_file(
                path,
                t.folder / merge_logic.CONFLICTS / kind,
                move=False,
                name=f"{c.log_id}--{head}.json",
            )
        merge_logic.resolve(t, kept, "theirs", grant=grant)  # our log goes to conflicts/resolved/
    elif kept is not None:
        merge_logic.resolve(t, kept, "ours", grant=grant)
    target = keep_file(path, resolved)
    t.release_log(kind, c.log_id)
    t.written(c.original, path)
    return target
