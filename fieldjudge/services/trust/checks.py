"""The checks of ``fieldjudge verify`` on who signed what -- every file's JSON, schema, hash
chain, event fields, the protocol lock (31), every event's laptop signature, the head
judge's signature of his actions, of ``tournament.json`` and of his decisions, each laptop's
registration, and each game's head against the newest head the laptops' manifests record --
and :class:`Verifier`, the one place that runs them for the app, the export and the pit
(issue 21). Read-only: nothing is ever written or repaired. (The rules engine's recheck of
every event, which ``verify`` adds, is :mod:`fieldjudge.services.trust.verify`.)"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fieldjudge.rules import protocol as pr
from fieldjudge.rules.auth_backoff import failures_since_success
from fieldjudge.rules.event_names import event_type_name
from fieldjudge.rules.events import Event, read_events
from fieldjudge.rules.key_ids import is_key_id
from fieldjudge.rules.messages import Count, Phrase
from fieldjudge.rules.ownership import Handover, foreign_writes
from fieldjudge.services.trust import authority, identity
from fieldjudge.services.trust.signing import signed_message, verify_signature
from fieldjudge.store import HANDOVER, DamagedFile
from fieldjudge.store.anchors import canonical_digest, read_tournament_sig
from fieldjudge.store.anchors import heads_stamp as anchors_stamp
from fieldjudge.store.auth_log import read_all as read_attempts
from fieldjudge.store.eventlog import ReadLog, head_owner
from fieldjudge.store.pins import HeadJudgePins
from fieldjudge.store.storage import load_json_file
from fieldjudge.store.sync_files import handovers_stamp
from fieldjudge.store.tournament import MARKER_DIR, TOURNAMENT_FILE, anchor_fault
from fieldjudge.store.validate import read_checked, validate_data

CONFLICTS = "conflicts"
#: the head judge's signed decisions on conflicts, below the tournament folder
DECISIONS = (CONFLICTS, "decisions")

EVENT_FIELDS = {
    "id": str,
    "seq": int,
    "type": str,
    "wall_time": str,
    "judge": str,
    "data": dict,
    "prev_hash": str,
    "hash": str,
}


@dataclass
class FileReport:
    faults: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # e.g. who signed the events
    head: tuple[int, str] | None = None  # a log's event count and last hash, as read


def files_of(folder: Path) -> list[Path]:
    folder = Path(folder)
    out = [folder / TOURNAMENT_FILE]
    for sub in ("games", "quidditch"):
        out += sorted((folder / sub).glob("*.json"))
    # marker checks made on a laptop that does not own the game (19)
    out += sorted(p for p in (folder / "laptops").glob(f"*/{MARKER_DIR}/*.json") if p.is_file())
    conflicts = folder / "conflicts"
    if conflicts.is_dir():
        out += sorted(
            p for p in conflicts.rglob("*.json") if p.parent.name in ("games", "quidditch")
        )
    return out


def event_faults(docs: Sequence[Mapping]) -> list[str]:
    faults: list[str] = []
    for d in docs:
        for name, typ in EVENT_FIELDS.items():
            if not isinstance(d.get(name), typ):
                faults.append(
                    Phrase(
                        "event #{seq}: field {name} missing or not {type}",
                        seq=d.get("seq"),
                        name=repr(name),
                        type=typ.__name__,
                    )
                )
        gc = d.get("game_clock_ms")
        if gc is not None and not isinstance(gc, int):
            faults.append(
                Phrase("event #{seq}: game_clock_ms is not a whole number", seq=d.get("seq"))
            )
    return faults


def lock_faults(meta: Mapping, events: list[Event]) -> list[str]:
    """Events the lock guard would have refused (appended with force, or merged in)."""
    teams = (str(meta.get("team_a", "")), str(meta.get("team_b", "")))
    first = next((i for i, e in enumerate(events) if e.type in pr.PROTOCOL_TYPES), None)
    if first is None:
        return []
    faults: list[str] = []
    for i, p in enumerate(pr.protocols_before(events, teams, first), first):
        e = events[i]
        why = pr.lock_refusal(events[:i], e.type, e.data, teams, p)
        if why:
            faults.append(
                Phrase(
                    "event #{seq} ({type}): {why}",
                    seq=e.seq,
                    type=event_type_name(e.type),
                    why=why,
                )
            )
    return faults


@dataclass
class Context:
    """What every file is checked against: the trusted head judge key, the registered
    laptops and the manifest of heads."""

    hj: str | None
    key_fault: str | None
    reg: dict[str, identity.LaptopInfo]
    heads: dict[tuple[str, str], identity.Anchor]
    manifest_faults: dict[str, list[str]]
    meta: dict[str, Any]
    #: game id -> its row of the schedule in tournament.json (signed by the head judge)
    schedule: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: each clean manifest's (lines, last digest) and the heads its lines record, by a
    #: laptop the head judge registered: what the app remembers as seen (issue 21, 4)
    tips: dict[str, tuple[int, str]] = field(default_factory=dict)
    signed: dict[tuple[str, str], identity.Anchor] = field(default_factory=dict)

    @classmethod
    def of(cls, folder: Path, pins: HeadJudgePins | None) -> Context:
        try:
            data = load_json_file(Path(folder) / TOURNAMENT_FILE)
            meta = dict(((data or {}).get("meta") or {}).get("1") or {})
            games = (data or {}).get("games") or {}
            schedule = {str(g.get("id")): dict(g) for g in games.values() if isinstance(g, dict)}
        except (DamagedFile, AttributeError):
            meta, schedule = {}, {}
        hj, key_fault = identity.trusted_head_judge_key(meta, pins)
        reg = identity.registry(folder, hj)
        m = identity.read_manifests(folder, reg, hj)
        return cls(hj, key_fault, reg, m.heads, m.faults, meta, schedule, m.tips, m.signed)

    def who(self, laptop_id: str | None) -> str:
        return identity.laptop_label(self.reg, laptop_id)


def _owner_of(ctx: Context, kind: str, log_id: str) -> str:
    """The laptop behind a log the file cannot tell (damaged): the manifest's."""
    a = ctx.heads.get((kind, log_id))
    return ctx.who(a.laptop) if a is not None else Phrase("laptop unknown")


def owner_faults(meta: Mapping, docs: Sequence[Mapping], ctx: Context, log_id: str) -> list[str]:
    """One writer per game file (issue 22): an event appended by a laptop that did not own
    the game at that point (another laptop's events synced into the file) is a fault. A
    hand-over moves the owner: signed by the head judge on the event, or taken over by the
    new owner with his signed record of this very game (the signatures are checked by
    ``event_fault``)."""
    rows: list[Any] = []
    out: list[str] = []
    for d in docs:
        raw = d.get("data")
        data: Mapping[str, Any] = raw if isinstance(raw, dict) else {}
        move = None
        record = data.get("record")
        if d.get("type") == HANDOVER and (d.get("hj_sig") or isinstance(record, dict)):
            move = Handover(str(data.get("from_laptop", "")), str(data.get("to_laptop", "")))
            if isinstance(record, dict) and record.get("game") != log_id:
                out.append(
                    Phrase("event #{seq}: a hand-over record of another game", seq=d.get("seq"))
                )
                move = None
        rows.append((int(d.get("seq", 0)), str(d.get("signer") or ""), str(d.get("type")), move))
    return out + [
        Phrase(
            "event #{seq} ({laptop}): appended by a laptop that does not own the game (owner "
            "{owner})",
            seq=seq,
            laptop=ctx.who(signer or None),
            owner=ctx.who(owner),
        )
        for seq, signer, owner in foreign_writes(meta.get("owner"), rows)
        if is_key_id(owner)  # an owner named otherwise (tests, hand-set ids) signs as no one
    ]


def read_log(
    path: Path,
    ctx: Context,
    kind: str,
    anchored: bool = True,
    prefix: tuple[int, str] | None = None,
) -> tuple[FileReport, ReadLog | None]:
    """One log file's report, and its meta and events as checked when it has no fault
    (None otherwise: what a reader of the file would have read, so it need not read it
    again).
    ``prefix`` (count, head hash): the file's first events, verified before under the
    same registrations and head judge key; their signatures are not checked again if the
    file still holds them (the chain, checked on load, ties every earlier event to that
    head)."""
    rep = FileReport()
    log_id = path.stem.split("--")[0]
    anchor = ctx.heads.get((kind, log_id)) if anchored else None
    try:
        data, one = read_checked(path)  # one: the events, read as the file was checked
    except DamagedFile as exc:
        rep.faults.append(
            Phrase("{fault} ({laptop})", fault=exc.fault, laptop=_owner_of(ctx, kind, log_id))
        )
        return rep, None
    meta = (data.get("meta") or {}).get("1") or {}
    if data.get("events") is None:
        rep.faults.append(Phrase("no events table ({laptop})", laptop=_owner_of(ctx, kind, log_id)))
        return rep, None
    docs: Sequence[Mapping[str, Any]]
    if one is None:
        docs = sorted(data["events"].values(), key=lambda d: d.get("seq", 0))
    else:  # each made again when asked (the file's events are never all documents at once)
        docs = one.docs
    faults = event_faults(docs)
    if faults:
        rep.faults += faults
        return rep, None
    events = read_events(docs) if one is None else one.events
    rep.head = (len(events), events[-1].hash if events else "")
    if anchor is not None:
        cut = anchor_fault(events, (anchor.count, anchor.hash))
        if cut:
            rep.faults.append(
                Phrase("{fault} (manifest of {laptop})", fault=cut, laptop=ctx.who(anchor.laptop))
            )
    hj_types = authority.HEAD_JUDGE_TYPES if kind in ("games", MARKER_DIR) else frozenset()
    by_signer: dict[str, int] = {}
    trusted = 0
    if (
        prefix is not None
        and 0 < prefix[0] <= len(docs)
        and docs[prefix[0] - 1]["hash"] == prefix[1]
    ):
        trusted = prefix[0]
    for i, d in enumerate(docs):
        fault = identity.event_fault(d, ctx.reg, ctx.hj, hj_types) if i >= trusted else None
        if fault:
            rep.faults.append(
                Phrase(
                    "event #{seq} ({type}, {laptop}): {fault}",
                    seq=d.get("seq"),
                    type=event_type_name(d.get("type")),
                    laptop=ctx.who(d.get("signer")),
                    fault=fault,
                )
            )
        by_signer[str(d.get("signer") or "")] = by_signer.get(str(d.get("signer") or ""), 0) + 1
    if meta.get("kind") == "game":
        rep.faults += lock_faults(meta, events)
        rep.faults += owner_faults(meta, docs, ctx, log_id)
        meta_faults, meta_notes = identity.meta_problems(log_id, meta, docs, ctx.schedule)
        rep.faults += meta_faults
        rep.notes += meta_notes
    for lid, n in sorted(by_signer.items()):
        rep.notes.append(
            Phrase(
                "{events} by {laptop}",
                events=Count(n, "{n} event(s)", "{n} event(s)"),
                laptop=ctx.who(lid or None),
            )
        )
    return rep, (None if rep.faults else ReadLog(path, dict(meta), events, head_owner(data)))


def verify_decision(path: Path, ctx: Context) -> FileReport:
    """A head judge's decision on a conflict (a game log or a tournament-file difference):
    it must carry his valid signature."""
    rep = FileReport()
    try:
        doc = load_json_file(path)
    except DamagedFile as exc:
        rep.faults.append(exc.fault)
        return rep
    if not isinstance(doc, dict) or not doc.get("hj_sig"):
        rep.faults.append(Phrase("a head judge's decision without his signature"))
        return rep
    body = {k: v for k, v in doc.items() if k not in ("hj_sig", "hj_key")}
    message = signed_message("head_judge", canonical_digest(body))
    if not ctx.hj or not verify_signature(ctx.hj, message, str(doc["hj_sig"])):
        rep.faults.append(
            Phrase("the head judge's signature does not match the decision (edited?)")
        )
    else:
        rep.notes.append(Phrase("signed by the head judge key {fp}", fp=_fp(ctx.hj)))
    return rep


def verify_tournament(folder: Path, ctx: Context) -> FileReport:
    rep = FileReport()
    path = Path(folder) / TOURNAMENT_FILE
    try:
        validate_data(load_json_file(path), path)
    except DamagedFile as exc:
        rep.faults.append(exc.fault)
        return rep
    if ctx.key_fault:
        rep.faults.append(ctx.key_fault)
    games_played = any((Path(folder) / "games").glob("*.json"))
    if ctx.hj is None and not games_played and not ctx.meta.get("head_judge_key"):
        rep.notes.append(Phrase("no head judge key (a folder without paintball games)"))
        return rep
    fault = identity.tournament_fault(folder, ctx.hj)
    try:
        sig = read_tournament_sig(folder) or {}
    except DamagedFile:
        sig = {}
    on = ctx.who(sig.get("laptop")) if sig.get("laptop") else Phrase("a laptop it does not name")
    fp = _fp(ctx.hj)
    if fault:
        rep.faults.append(
            Phrase(
                "{fault} (head judge key {fp}, last signed on {laptop})",
                fault=fault,
                fp=fp,
                laptop=on,
            )
        )
    else:
        rep.notes.append(
            Phrase("signed by the head judge key {fp}, last signed on {laptop}", fp=fp, laptop=on)
        )
    return rep


def _fp(key: str | None) -> str:
    return identity.fingerprint(key) if key else Phrase("none")


def _kind_and_id(rel: str) -> tuple[str, str]:
    """(the folder a log file is in, its id) from its path relative to the tournament
    folder, as ``PurePosixPath(rel)``'s parent's name and stem up to ``--`` say, without
    making a path (a thousand games' files at each home list reload, issue 24). Every
    check that names a log file by its folder and id reads them here."""
    folder, _sep, name = rel.rpartition("/")
    dot = name.rfind(".")
    stem = name[:dot] if 0 < dot < len(name) - 1 else name
    return folder.rpartition("/")[2], stem.split("--")[0]


def file_key(path: Path) -> tuple[int, int] | None:
    """(size, mtime in ns): what says a file changed without reading it."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns)


class Verifier:
    """The checks of ``fieldjudge verify`` with a memory of what they found: the one check
    the app (on opening a tournament and whenever a file changes), the export (before it
    writes) and the pit (on each update) run. Read-only.

    Each file's report is kept under its key (size, mtime) and the manifest's head for it;
    the context (head judge key, registrations, manifests) under the keys of the files it
    is read from; the verified prefix of a clean file (count, head hash) is not checked
    again while the registrations and the head judge key stay the same: a file that grew
    has only its new events' signatures checked. ``fieldjudge verify`` uses a fresh one (everything
    checked)."""

    def __init__(
        self,
        folder: Path,
        pins: HeadJudgePins | None = None,
        memory: dict[str, Any] | None = None,
        persist: bool = False,
        on_context: Callable[[Context], None] | None = None,
    ) -> None:
        self.folder = Path(folder)
        self.pins = pins
        self._ctx: tuple[Any, Context] | None = None
        self._logs: dict[str, tuple[Any, FileReport]] = {}
        #: the clean files: {rel: {"key", "anchor", "ctx", "count", "head"}}; the app's
        #: is kept across restarts (``store.verified``: ``persist``), the export reads it
        #: (never writes it), the pit's lives in its process
        self.memory: dict[str, Any] = memory if memory is not None else {}
        self.persist = persist
        self.memory_changed = False
        #: told each context once read (the app: remembers the manifests it saw)
        self.on_context = on_context

    def stamp(self) -> tuple[Any, ...]:
        """Changes when a file the context is read from does (``tournament.json``, its
        signature, a registration, a manifest, a hand-over record): one ``stat`` each."""
        return (*self._stamp(), file_key(self.folder / "tournament.sig"))

    def _stamp(self) -> tuple[Any, ...]:
        root = self.folder / "laptops"
        laptops = sorted(root.glob("*/laptop.json")) if root.is_dir() else []
        return (
            file_key(self.folder / TOURNAMENT_FILE),
            tuple((p.parent.name, file_key(p)) for p in laptops),
            anchors_stamp(self.folder),
            handovers_stamp(self.folder),  # who a game was handed away from (issue 22)
        )

    def context(self) -> Context:
        """The head judge key, registrations and manifests as last read (read on first
        use; :meth:`refresh` reads them again if their files changed)."""
        if self._ctx is None:
            self._ctx = (self._stamp(), Context.of(self.folder, self.pins))
            if self.on_context is not None:
                self.on_context(self._ctx[1])
        return self._ctx[1]

    @property
    def has_context(self) -> bool:
        """The context was read (the first frame of the app's home screen reads none)."""
        return self._ctx is not None

    def unchanged_since_clean(self, rel: str, fkey: tuple[int, int] | None) -> bool:
        """The memory found the file clean and it has not changed since (size, mtime),
        without reading the context: what the home screen's first frame may show, to be
        confirmed against the context (:meth:`known_faults`) right after. ``fkey``: the
        file's key as the caller just took it (:func:`file_key`; one listing of the
        folder gives every game's, issue 24)."""
        rec = self.memory.get(rel)
        return isinstance(rec, dict) and fkey is not None and rec.get("key") == list(fkey)

    def refresh(self) -> None:
        """Read the context again if a file it comes from changed (a few ``stat`` calls):
        on each update of the pit, on the app's file-change refresh and after the app's
        own writes of a manifest, a registration or ``tournament.json``. Each log file is
        checked again by its own key whenever it is asked for."""
        if self._ctx is not None and self._ctx[0] != self._stamp():
            self._ctx = None

    @staticmethod
    def _ctx_digest(ctx: Context) -> str:
        """What a remembered verification holds under: the head judge key and every
        laptop's key and registration."""
        regs = sorted((lid, i.public_key, i.registered, i.fault) for lid, i in ctx.reg.items())
        return canonical_digest([ctx.hj, ctx.key_fault, regs])

    def _remembered(self, rel: str, ctx: Context) -> dict[str, Any] | None:
        """The memory's record of ``rel`` if it was made under the same registrations and
        head judge key (else None)."""
        rec = self.memory.get(rel)
        if not isinstance(rec, dict) or rec.get("ctx") != self._ctx_digest(ctx):
            return None
        return rec

    @staticmethod
    def _anchor_doc(a: identity.Anchor | None) -> list[Any] | None:
        return [a.count, a.hash] if a is not None else None

    @staticmethod
    def _row_digest(ctx: Context, rel: str) -> str:
        """The digest of the schedule's row a game file's signed meta is checked against
        (its teams, field, start): an edit of the row checks the file again."""
        kind, log_id = _kind_and_id(rel)
        row = ctx.schedule.get(log_id) if kind == "games" else None
        return canonical_digest(row)

    def _key(self, ctx: Context, rel: str, fkey: Any, a: identity.Anchor | None) -> tuple:
        """What a report of ``rel`` holds under: the file as it is, its manifest head, the
        head judge key, the registrations and its row of the schedule."""
        return (fkey, a, ctx.hj, tuple(sorted(ctx.reg.items())), self._row_digest(ctx, rel))

    def known_faults(self, rel: str, fkey: tuple[int, int] | None) -> list[str] | None:
        """The faults of a log file if known without reading it (a report of the file as
        it is now, or the memory of it clean under the same manifest head, registrations
        and key); None: it must be read (:meth:`log_report`). ``fkey``: the file's key
        (size, mtime) as the caller just took it (:func:`file_key`)."""
        ctx = self.context()
        a = ctx.heads.get(_kind_and_id(rel))  # asked of every game of the home list
        cached = self._logs.get(rel)
        if cached is not None and cached[0] == self._key(ctx, rel, fkey, a):
            return cached[1].faults
        return [] if self._still_clean(rel, ctx, fkey, a) else None

    def _still_clean(self, rel: str, ctx: Context, fkey: Any, a: Any) -> bool:
        """The memory found the file clean as it is now (same size and mtime), against the
        same manifest head, under the same registrations and head judge key."""
        rec = self._remembered(rel, ctx)
        return (
            rec is not None
            and fkey is not None
            and rec.get("key") == list(fkey)
            and rec.get("anchor") == self._anchor_doc(a)
            and rec.get("row") == self._row_digest(ctx, rel)
        )

    def tournament_report(self) -> FileReport:
        ctx = self.context()
        key = ("tournament", file_key(self.folder / TOURNAMENT_FILE),
               file_key(self.folder / "tournament.sig"), ctx.hj, ctx.key_fault,
               any((self.folder / "games").glob("*.json")))  # fmt: skip
        cached = self._logs.get(TOURNAMENT_FILE)
        if cached is None or cached[0] != key:
            cached = (key, verify_tournament(self.folder, ctx))
            self._logs[TOURNAMENT_FILE] = cached
        return cached[1]

    def log_report(self, rel: str) -> FileReport:
        """The report of one log file (``games/<id>.json``, a marker check, a conflict
        copy), or of the file the manifest names and the folder no longer holds."""
        return self._log_report(rel)[0]

    def read_game(self, game_id: str) -> tuple[FileReport, ReadLog | None]:
        """The report of a game's file (as :meth:`log_report`, and kept as its), and the
        log (meta, events) this call read and checked when the file has no fault: a whole
        export, and a summary, verify and fold each game from one read (issue 24). None:
        the file has faults, or its report was known already (unchanged since checked):
        read it as usual."""
        return self._log_report(f"games/{game_id}.json")

    def _log_report(self, rel: str) -> tuple[FileReport, ReadLog | None]:
        ctx = self.context()
        path = self.folder / rel
        kind, log_id = _kind_and_id(rel)
        anchored = not rel.startswith("conflicts/") and kind != MARKER_DIR
        a = ctx.heads.get((kind, log_id)) if anchored else None
        fkey = file_key(path)
        key = self._key(ctx, rel, fkey, a)
        cached = self._logs.get(rel)
        if cached is not None and cached[0] == key:
            return cached[1], None
        if self._still_clean(rel, ctx, fkey, a):  # the app's memory: unchanged since checked
            rep = FileReport()
            self._logs[rel] = (key, rep)
            return rep, None
        read = None
        if fkey is None:
            rep = FileReport()
            if a is not None:
                rep.faults.append(
                    Phrase(
                        "missing: the manifest of {laptop} records {events} (step {step})",
                        laptop=ctx.who(a.laptop),
                        events=Count(a.count, "{n} event", "{n} events"),
                        step=a.step,
                    )
                )
        else:
            rec = self._remembered(rel, ctx)
            prefix = (int(rec["count"]), str(rec["head"])) if rec and rec.get("head") else None
            rep, read = read_log(path, ctx, kind, anchored=anchored, prefix=prefix)
            if not rep.faults and rep.head is not None:
                self.memory[rel] = {  # a clean file: its key, anchor and verified prefix
                    "key": list(fkey),
                    "anchor": self._anchor_doc(a),
                    "ctx": self._ctx_digest(ctx),
                    "row": self._row_digest(ctx, rel),
                    "count": rep.head[0],
                    "head": rep.head[1],
                }
                self.memory_changed = True
        self._logs[rel] = (key, rep)
        return rep, read

    def game_faults(self, game_id: str) -> list[str]:
        """The faults of a game's file (none: it is as its laptops signed it)."""
        return self.log_report(f"games/{game_id}.json").faults

    def report(self) -> dict[str, FileReport]:
        """{relative path: report} for every file, laptop registration and manifest."""
        folder = self.folder
        ctx = self.context()
        out: dict[str, FileReport] = {TOURNAMENT_FILE: self.tournament_report()}
        attempts = read_attempts(folder)
        for lid, info in sorted(ctx.reg.items()):
            rep = FileReport(notes=[info.label()])
            if info.fault:
                rep.faults.append(
                    Phrase("{laptop}: {fault}", laptop=info.label(), fault=info.fault)
                )
            failed = failures_since_success((a.t, a.result) for a in attempts.get(lid, []))
            if failed:  # for the head judge: someone typed wrong secrets on this laptop
                rep.notes.append(
                    Phrase(
                        "{secrets} since the last right one",
                        secrets=Count(
                            len(failed),
                            "{n} wrong head judge's secret(s)",
                            "{n} wrong head judge's secret(s)",
                        ),
                    )
                )
            out[f"laptops/{lid}/laptop.json"] = rep
        for rel, faults in sorted(ctx.manifest_faults.items()):
            out[rel] = FileReport(faults=list(faults))
        for p in files_of(folder)[1:]:
            rel = p.relative_to(folder).as_posix()
            out[rel] = self.log_report(rel)
        decisions = folder.joinpath(*DECISIONS)
        for p in sorted(decisions.glob("*.json")) if decisions.is_dir() else []:
            rel = p.relative_to(folder).as_posix()
            key = ("decision", file_key(p), ctx.hj)
            cached = self._logs.get(rel)
            if cached is None or cached[0] != key:
                cached = (key, verify_decision(p, ctx))
                self._logs[rel] = cached
            out[rel] = cached[1]
        for kind, log_id in sorted(ctx.heads):
            rel = f"{kind}/{log_id}.json"
            if rel not in out:
                out[rel] = self.log_report(rel)
        return out

    def faults(self) -> list[str]:
        """Every fault as ``"<file>: <fault>"`` (empty: the folder is as signed)."""
        return [
            Phrase("{file}: {fault}", file=rel, fault=f)
            for rel, rep in self.report().items()
            for f in rep.faults
        ]
