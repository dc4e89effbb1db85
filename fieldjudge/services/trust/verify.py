"""``fieldjudge verify``: every file of a tournament folder checked — JSON, schema version,
hash chain, event schema, the protocol lock (31) — and who signed what: every event's
laptop signature, the head judge's signature of his actions and of ``tournament.json``,
each laptop's registration, and each game's head against the newest head the laptops'
manifests record (truncation, a missing, emptied or stripped file). Read-only: nothing
is ever written or repaired."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fieldjudge.rules import protocol as pr
from fieldjudge.rules.auth_backoff import failures_since_success
from fieldjudge.rules.events import Event
from fieldjudge.rules.key_ids import is_key_id
from fieldjudge.rules.ownership import Handover, foreign_writes
from fieldjudge.rules.paintball import disqualified_in, fold
from fieldjudge.services.paintball.disqualified import CarriedOver
from fieldjudge.services.paintball.results import setup_for
from fieldjudge.services.sync.merge import DECISIONS
from fieldjudge.services.trust import authority, identity
from fieldjudge.services.trust.signing import signed_message, verify_signature
from fieldjudge.store import HANDOVER, DamagedFile
from fieldjudge.store.anchors import canonical_digest, read_tournament_sig
from fieldjudge.store.auth_log import read_all as read_attempts
from fieldjudge.store.pins import HeadJudgePins
from fieldjudge.store.storage import load_json_file
from fieldjudge.store.tournament import MARKER_DIR, TOURNAMENT_FILE, anchor_fault
from fieldjudge.store.validate import validate_data

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


def event_faults(docs: list[Mapping]) -> list[str]:
    faults = []
    for d in docs:
        for name, typ in EVENT_FIELDS.items():
            if not isinstance(d.get(name), typ):
                faults.append(
                    f"event #{d.get('seq')}: field {name!r} missing or not {typ.__name__}"
                )
        gc = d.get("game_clock_ms")
        if gc is not None and not isinstance(gc, int):
            faults.append(f"event #{d.get('seq')}: game_clock_ms is not a whole number")
    return faults


def lock_faults(meta: Mapping, events: list[Event]) -> list[str]:
    """Events the lock guard would have refused (appended with force, or merged in)."""
    teams = (str(meta.get("team_a", "")), str(meta.get("team_b", "")))
    first = next((i for i, e in enumerate(events) if e.type in pr.PROTOCOL_TYPES), None)
    if first is None:
        return []
    faults = []
    for i, p in enumerate(pr.protocols_before(events, teams, first), first):
        e = events[i]
        why = pr.lock_refusal(events[:i], e.type, e.data, teams, p)
        if why:
            faults.append(f"event #{e.seq} ({e.type}): {why}")
    return faults


class TournamentFile:
    """Schedule, rosters and settings of ``tournament.json`` as parsed, for the rules'
    setup of each game (read-only: verify opens no tournament, so it writes nothing)."""

    def __init__(self, data: Any) -> None:
        self._data = data if isinstance(data, dict) else {}

    def _table(self, name: str) -> list[dict[str, Any]]:
        docs = self._data.get(name)
        return [dict(d) for d in docs.values()] if isinstance(docs, dict) else []

    @property
    def settings(self) -> dict[str, Any]:
        meta = (self._data.get("meta") or {}).get("1") or {}
        return dict(meta.get("settings") or {})

    def games(self) -> list[dict[str, Any]]:
        return sorted(self._table("games"), key=lambda g: (g["start"], str(g["field"])))

    def game(self, game_id: str) -> dict[str, Any] | None:
        return next((g for g in self._table("games") if g.get("id") == game_id), None)

    def players(self, team_id: str | None = None) -> list[dict[str, Any]]:
        ps = [p for p in self._table("players") if team_id is None or p["team_id"] == team_id]
        return sorted(ps, key=lambda p: (p["team_id"], p["number"]))


def rules_faults(
    folder: Path, skip: set[str] | frozenset[str] = frozenset()
) -> dict[str, list[str]]:
    """{``games/<id>.json``: faults}: every stored event of every game checked again by
    the rules engine (``fold(..., recheck=True)``), in schedule order so that 20.05
    disqualifications carry over. The fold of the app trusts a stored event (it was
    checked when appended); this is where an event the rules refuse -- merged in, written
    by another program, or made illegal by a later change of the rosters or settings --
    is found. ``skip``: files already reported damaged."""
    folder = Path(folder)
    try:
        t = TournamentFile(load_json_file(folder / TOURNAMENT_FILE))
        games = t.games()
    except (DamagedFile, KeyError, TypeError):
        return {}  # the tournament file's own report names its fault
    out: dict[str, list[str]] = {}
    carried = CarriedOver()
    for g in games:
        rel = f"games/{g['id']}.json"
        path = folder / rel
        disqualified = carried.before(g)
        if rel in skip or not path.exists():
            continue
        try:
            data, _changed = validate_data(load_json_file(path), path)
            docs = sorted(data["events"].values(), key=lambda d: d.get("seq", 0))
            events = [Event.from_doc(d) for d in docs]
            st = fold(setup_for(t, g["id"], None, disqualified), events, recheck=True)
        except (DamagedFile, KeyError, TypeError, ValueError, AttributeError):
            continue  # the file's own report names its fault
        faults = [f"event #{n.seq} ({n.type}): the rules refuse it: {n.text}" for n in st.rejected]
        if faults:
            out[rel] = faults
        carried.add({"disqualified": sorted([t_, n] for t_, n in disqualified_in([st]))})
    return out


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
        heads, mfaults = identity.manifest(folder, reg)
        return cls(hj, key_fault, reg, heads, mfaults, meta, schedule)

    def who(self, laptop_id: str | None) -> str:
        return identity.laptop_label(self.reg, laptop_id)


def _owner_of(ctx: Context, kind: str, log_id: str, docs: list[Mapping] | None = None) -> str:
    """The laptop behind a log: the manifest's, else the signer of its last event."""
    a = ctx.heads.get((kind, log_id))
    if a is not None:
        return ctx.who(a.laptop)
    for d in reversed(docs or []):
        if d.get("signer"):
            return ctx.who(str(d.get("signer")))
    return "laptop unknown"


def owner_faults(meta: Mapping, docs: list[Mapping], ctx: Context, log_id: str) -> list[str]:
    """One writer per game file (issue 22): an event appended by a laptop that did not own
    the game at that point (another laptop's events synced into the file) is a fault. A
    hand-over moves the owner: signed by the head judge on the event, or taken over by the
    new owner with his signed record of this very game (the signatures are checked by
    ``event_fault``)."""
    rows, out = [], []
    for d in docs:
        raw = d.get("data")
        data: Mapping[str, Any] = raw if isinstance(raw, dict) else {}
        move = None
        record = data.get("record")
        if d.get("type") == HANDOVER and (d.get("hj_sig") or isinstance(record, dict)):
            move = Handover(str(data.get("from_laptop", "")), str(data.get("to_laptop", "")))
            if isinstance(record, dict) and record.get("game") != log_id:
                out.append(f"event #{d.get('seq')}: a hand-over record of another game")
                move = None
        rows.append((int(d.get("seq", 0)), str(d.get("signer") or ""), str(d.get("type")), move))
    return out + [
        f"event #{seq} ({ctx.who(signer or None)}): appended by a laptop that does not own the "
        f"game (owner {ctx.who(owner)})"
        for seq, signer, owner in foreign_writes(meta.get("owner"), rows)
        if is_key_id(owner)  # an owner named otherwise (tests, hand-set ids) signs as no one
    ]


def verify_log(path: Path, ctx: Context, kind: str, anchored: bool = True) -> FileReport:
    rep = FileReport()
    log_id = path.stem.split("--")[0]
    anchor = ctx.heads.get((kind, log_id)) if anchored else None
    try:
        data, _changed = validate_data(load_json_file(path), path)
    except DamagedFile as exc:
        rep.faults.append(f"{exc.fault} ({_owner_of(ctx, kind, log_id)})")
        return rep
    meta = (data.get("meta") or {}).get("1") or {}
    if data.get("events") is None:
        rep.faults.append(f"no events table ({_owner_of(ctx, kind, log_id)})")
        return rep
    docs = sorted(data["events"].values(), key=lambda d: d.get("seq", 0))
    faults = event_faults(docs)
    if faults:
        rep.faults += faults
        return rep
    events = [Event.from_doc(d) for d in docs]
    if anchor is not None:
        cut = anchor_fault(events, (anchor.count, anchor.hash))
        if cut:
            rep.faults.append(f"{cut} (manifest of {ctx.who(anchor.laptop)})")
    hj_types = authority.HEAD_JUDGE_TYPES if kind in ("games", MARKER_DIR) else frozenset()
    by_signer: dict[str, int] = {}
    for d in docs:
        fault = identity.event_fault(d, ctx.reg, ctx.hj, hj_types)
        if fault:
            rep.faults.append(
                f"event #{d.get('seq')} ({d.get('type')}, {ctx.who(d.get('signer'))}): {fault}"
            )
        by_signer[str(d.get("signer") or "")] = by_signer.get(str(d.get("signer") or ""), 0) + 1
    if meta.get("kind") == "game":
        rep.faults += lock_faults(meta, events)
        rep.faults += owner_faults(meta, docs, ctx, log_id)
        meta_faults, meta_notes = identity.meta_problems(log_id, meta, docs, ctx.schedule)
        rep.faults += meta_faults
        rep.notes += meta_notes
    for lid, n in sorted(by_signer.items()):
        rep.notes.append(f"{n} event(s) by {ctx.who(lid or None)}")
    return rep


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
        rep.faults.append("a head judge's decision without his signature")
        return rep
    body = {k: v for k, v in doc.items() if k not in ("hj_sig", "hj_key")}
    message = signed_message("head_judge", canonical_digest(body))
    if not ctx.hj or not verify_signature(ctx.hj, message, str(doc["hj_sig"])):
        rep.faults.append("the head judge's signature does not match the decision (edited?)")
    else:
        rep.notes.append(f"signed by the head judge key {_fp(ctx.hj)}")
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
        rep.notes.append("no head judge key (a folder without paintball games)")
        return rep
    fault = identity.tournament_fault(folder, ctx.hj)
    try:
        sig = read_tournament_sig(folder) or {}
    except DamagedFile:
        sig = {}
    on = ctx.who(sig.get("laptop")) if sig.get("laptop") else "a laptop it does not name"
    where = f"head judge key {_fp(ctx.hj)}, last signed on {on}"
    if fault:
        rep.faults.append(f"{fault} ({where})")
    else:
        rep.notes.append(f"signed by the {where}")
    return rep


def _fp(key: str | None) -> str:
    return identity.fingerprint(key) if key else "none"


def verify_report(folder: Path, pins: HeadJudgePins | None = None) -> dict[str, FileReport]:
    """{relative path: report} for every file, laptop registration and manifest."""
    folder = Path(folder)
    ctx = Context.of(folder, pins)
    out: dict[str, FileReport] = {TOURNAMENT_FILE: verify_tournament(folder, ctx)}
    attempts = read_attempts(folder)
    for lid, info in sorted(ctx.reg.items()):
        rep = FileReport(notes=[info.label()])
        if info.fault:
            rep.faults.append(f"{info.label()}: {info.fault}")
        failed = failures_since_success((a.t, a.result) for a in attempts.get(lid, []))
        if failed:  # for the head judge: someone typed wrong secrets on this laptop
            rep.notes.append(f"{len(failed)} wrong head judge's secret(s) since the last right one")
        out[f"laptops/{lid}/laptop.json"] = rep
    for rel, faults in sorted(ctx.manifest_faults.items()):
        out[rel] = FileReport(faults=list(faults))
    for p in files_of(folder)[1:]:
        rel = p.relative_to(folder).as_posix()
        in_conflicts = rel.startswith("conflicts/")
        kind = p.parent.name
        out[rel] = verify_log(p, ctx, kind, anchored=not in_conflicts and kind != MARKER_DIR)
    decisions = folder.joinpath(*DECISIONS)
    for p in sorted(decisions.glob("*.json")) if decisions.is_dir() else []:
        out[p.relative_to(folder).as_posix()] = verify_decision(p, ctx)
    damaged = {rel for rel, rep in out.items() if rep.faults}
    for rel, faults in rules_faults(folder, damaged).items():
        out[rel].faults += faults
    for (kind, log_id), a in sorted(ctx.heads.items()):
        rel = f"{kind}/{log_id}.json"
        if rel not in out:
            out[rel] = FileReport(
                faults=[
                    f"missing: the manifest of {ctx.who(a.laptop)} records {a.count} events "
                    f"(step {a.step})"
                ]
            )
    return out


def verify_folder(folder: Path, pins: HeadJudgePins | None = None) -> dict[str, list[str]]:
    """{relative path: faults} for every file (an empty list: fine)."""
    return {rel: rep.faults for rel, rep in verify_report(folder, pins).items()}


def verify_file(path: Path) -> list[str]:
    """The faults of one log file on its own (no manifest, no registry: chain, fields and
    lock only; signatures need the folder: :func:`verify_report`)."""
    path = Path(path)
    try:
        data, _changed = validate_data(load_json_file(path), path)
    except DamagedFile as exc:
        return [exc.fault]
    meta = (data.get("meta") or {}).get("1") or {}
    events = data.get("events")
    if meta.get("kind") == "tournament" or events is None:
        return [] if meta.get("kind") == "tournament" else ["no events table"]
    docs = sorted(events.values(), key=lambda d: d.get("seq", 0))
    faults = event_faults(docs)
    if faults:
        return faults
    if meta.get("kind") == "game":
        faults += lock_faults(meta, [Event.from_doc(d) for d in docs])
    return faults
