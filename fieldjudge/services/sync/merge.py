"""Merging another laptop's tournament folder or JSON export into the open tournament.

Events are matched by id along the hash chain: a log that is a prefix of ours adds nothing
(duplicates skipped); a log that extends ours is taken (fast-forward); two logs of the same
game that both added different events after a common prefix are a conflict: ours stays, the
other copy is kept in ``conflicts/`` until the head judge chooses (with his secret; the
decision is signed with his key). Never mixed silently. Every new event must carry a valid
signature of a laptop known to the tournament, and a head-judge action a valid signature of
the head judge's (pinned) key: a log with an unsigned, forged or edited event is refused
whole. New events then pass the same protocol check as an append on this laptop (31). A
log shorter than the head its laptop's manifest records (truncated) is refused too.

The other ``tournament.json``: teams, players, schedule and settings are matched by id and
by name; what is new is added, what differs is listed as a conflict for the head judge
(kept in ``conflicts/tournament/``), never duplicated and never dropped; a game at a field
and time already taken is refused with the reason. The report lists every change."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from fieldjudge.i18n import _, rule_text
from fieldjudge.rules import protocol as pr
from fieldjudge.rules.event_names import event_type_name
from fieldjudge.rules.events import Event
from fieldjudge.rules.messages import Phrase
from fieldjudge.rules.paintball.state import fold
from fieldjudge.services.paintball.results import setup_for
from fieldjudge.services.tournament import TournamentService
from fieldjudge.services.trust import authority, identity
from fieldjudge.services.trust.authority import HeadJudge
from fieldjudge.services.trust.checks import CONFLICTS, DECISIONS
from fieldjudge.services.trust.signing import signed_message, verify_signature
from fieldjudge.store import DamagedFile, Refused, bundle
from fieldjudge.store.anchors import (
    HEADS_FILE,
    LAPTOP_FILE,
    SIG_FILE,
    canonical_digest,
    parse_heads,
)
from fieldjudge.store.auth_log import LAPTOPS_DIR
from fieldjudge.store.eventlog import write_log_file
from fieldjudge.store.storage import (
    atomic_write_bytes,
    copy_durably,
    fsync_dir,
    load_json_file,
    make_dirs,
    move_durably,
)
from fieldjudge.store.tournament import MARKER_DIR, TOURNAMENT_FILE, anchor_fault
from fieldjudge.store.validate import validate_data


@dataclass
class Conflict:
    kind: str  # "games" | "quidditch"
    log_id: str
    common: int  # events both copies share
    ours: int  # our events after the common prefix
    theirs: int
    path: Path  # the other copy, in conflicts/


@dataclass
class MergeReport:
    source: str
    added_logs: list[str] = field(default_factory=list)
    fast_forwarded: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    events_added: int = 0
    duplicates_skipped: int = 0
    schedule_added: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    #: every change made to tournament.json ("added team Медведи (id 1a2b)", ...)
    changes: list[str] = field(default_factory=list)
    #: teams, players, games and settings that differ: for the head judge
    tournament_conflicts: list[str] = field(default_factory=list)
    #: the other tournament's games refused (a field and time already taken)
    refused_games: list[str] = field(default_factory=list)
    #: laptops whose registration (and manifest) was taken from the source
    laptops_added: list[str] = field(default_factory=list)

    def counts(self) -> str:
        """How many logs and events came and were skipped, in the UI language."""
        return _(
            "{new} new game logs, {extended} extended, {unchanged} unchanged; {events} events "
            "added, {dups} duplicates skipped"
        ).format(
            new=len(self.added_logs),
            extended=len(self.fast_forwarded),
            unchanged=len(self.unchanged),
            events=self.events_added,
            dups=self.duplicates_skipped,
        )

    def added(self) -> str:
        """The rows added to tournament.json by table ("teams: 2, games: 3"), or ""."""
        added = {k: v for k, v in self.schedule_added.items() if v}
        # the tables' names ("teams", "players", "games") are the catalog's words
        return ", ".join(f"{_(table)}: {n}" for table, n in added.items())

    def lines(self) -> list[str]:
        """The report as ``fieldjudge merge`` prints it, in the UI language."""
        out = [_("merged from {source}").format(source=self.source), self.counts()]
        if added := self.added():
            out.append(_("added to the tournament: {what}").format(what=added))
        out.extend(_("change: {what}").format(what=rule_text(c)) for c in self.changes)
        out.extend(
            _("laptop registered from the source: {laptop}").format(laptop=rule_text(x))
            for x in self.laptops_added
        )
        out.extend(
            _("CONFLICT tournament: {what}").format(what=rule_text(c))
            for c in self.tournament_conflicts
        )
        out.extend(_("REFUSED game: {what}").format(what=rule_text(c)) for c in self.refused_games)
        for c in self.conflicts:
            out.append(
                _(
                    "CONFLICT {log}: {common} events in common, then {ours} here and {theirs} "
                    "there; the other copy is kept as {copy} for the head judge to choose"
                ).format(
                    log=f"{c.kind}/{c.log_id}",
                    common=c.common,
                    ours=c.ours,
                    theirs=c.theirs,
                    copy=c.path.name,
                )
            )
        out.extend(_("error: {what}").format(what=rule_text(e)) for e in self.errors)
        return out


@dataclass
class Source:
    label: str
    tournament: dict[str, Any]
    logs: dict[str, dict[str, dict[str, Any]]]  # kind -> id -> {meta, events}
    errors: list[str]
    #: laptop id -> {"laptop": laptop.json doc, "heads": heads.jsonl text}
    laptops: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: the head judge's signature of the other tournament.json (tournament.sig)
    tournament_sig: dict[str, Any] | None = None
    #: tournament.json as it is on disk (what the head judge signed), if not ``tournament``
    tournament_raw: dict[str, Any] | None = None


def load_source(path: Path) -> Source:
    """A tournament folder or a JSON export. DamagedFile if it is neither."""
    path = Path(path)
    if path.is_dir():
        tf = path / TOURNAMENT_FILE
        if not tf.exists():
            raise DamagedFile(tf, "no tournament.json in this folder")
        tournament, _ = validate_data(load_json_file(tf), tf)
        logs: dict[str, dict[str, Any]] = {}
        errors: list[str] = []
        for kind in bundle.LOG_FOLDERS:
            logs[kind] = {}
            for p in sorted((path / kind).glob("*.json")):
                try:
                    logs[kind][p.stem] = bundle.read_log_file(p)
                except DamagedFile as exc:
                    errors.append(_not_merged(f"{kind}/{p.name}", exc.fault))
        try:
            sig = load_json_file(path / SIG_FILE) if (path / SIG_FILE).exists() else None
        except DamagedFile:
            sig = None
        raw = load_json_file(tf)  # as signed: before any migration
        return Source(
            path.name,
            tournament,
            logs,
            errors,
            bundle.read_laptops_of(path),
            sig if isinstance(sig, dict) else None,
            raw if isinstance(raw, dict) else None,
        )
    data = bundle.load_bundle(path)
    logs = {kind: dict(data.get(kind) or {}) for kind in bundle.LOG_FOLDERS}
    return Source(
        path.name,
        data["tournament"],
        logs,
        [],
        dict(data.get("laptops") or {}),
        data.get("tournament_sig") if isinstance(data.get("tournament_sig"), dict) else None,
    )


def _registry(t: TournamentService, src: Source) -> dict[str, identity.LaptopInfo]:
    """The laptops known here, and those the source registers (ids are key hashes, so a
    source cannot give a known laptop another key)."""
    reg = identity.registry(t.folder, t.pinned_hj)
    for lid, entry in src.laptops.items():
        doc = entry.get("laptop") if isinstance(entry, dict) else None
        if lid in reg or not isinstance(doc, dict):
            continue
        reg.update(identity.registry_of_docs({lid: doc}, t.pinned_hj))
    return reg


def _not_merged(log: str, why: str) -> Phrase:
    """ "<log>: not merged: <why>" (``why`` a phrase, or a text already in the UI language)."""
    return Phrase("{log}: not merged: {why}", log=log, why=why)


def _signature_refusal(
    kind: str, doc: dict, start: int, reg: dict[str, identity.LaptopInfo], hj: str | None
) -> str | None:
    """The first new event (from ``start``) whose signatures do not hold."""
    hj_types = authority.HEAD_JUDGE_TYPES if kind == "games" else frozenset()
    events = doc.get("events") or []
    for d in events[start:]:
        fault = identity.event_fault(d, reg, hj, hj_types)
        if fault:
            who = identity.laptop_label(reg, d.get("signer"))
            return Phrase(
                "event #{seq} ({type}, {laptop}): {why}",
                seq=d.get("seq"),
                type=event_type_name(d.get("type")),
                laptop=who,
                why=fault,
            )
    return None


def common_prefix(ours: list[dict], theirs: list[dict]) -> int:
    """How many events two copies of a log share from the start (by hash)."""
    k = 0
    for a, b in zip(ours, theirs, strict=False):
        if a.get("hash") != b.get("hash"):
            break
        k += 1
    return k


def _write_log(path: Path, doc: dict[str, Any]) -> None:
    """A whole log (new, fast-forwarded or a kept conflict copy), in the store's format."""
    make_dirs(path.parent)
    write_log_file(path, bundle.doc_to_log(doc))


def _keep_conflict(
    t: TournamentService, kind: str, log_id: str, doc: dict, common: int, ours: int
) -> Conflict:
    events = doc["events"]
    folder = t.folder / CONFLICTS / kind
    make_dirs(folder)
    for other in sorted(folder.glob(f"{log_id}--*.json")):
        try:
            have = bundle.read_log_file(other)["events"]
        except DamagedFile:
            continue
        k = common_prefix(have, events)
        if k == len(events):  # we already keep this copy (or a longer one)
            return Conflict(kind, log_id, common, ours, len(events) - common, other)
        if k == len(have):  # the new copy extends a kept one: no information is lost
            other.unlink()
            fsync_dir(folder)
    path = folder / f"{log_id}--{events[-1]['hash'][:12]}.json"
    _write_log(path, doc)
    return Conflict(kind, log_id, common, ours, len(events) - common, path)


def _refused(t: TournamentService, kind: str, log_id: str, doc: dict, start: int) -> str | None:
    """The first of the other copy's new events this laptop would refuse (None: none).
    The protocol's lock (31) and then the game's rules: the fold trusts a stored event, so
    an event the rules refuse never gets in by a merge (``fold(..., recheck=True)``)."""
    if kind != "games":
        return None
    meta = doc.get("meta") or {}
    teams = (str(meta.get("team_a", "")), str(meta.get("team_b", "")))
    events = doc.get("events") or []
    try:
        evs = [Event.from_doc(dict(d)) for d in events]
    except (KeyError, TypeError, ValueError) as exc:
        return Phrase("malformed event ({error})", error=repr(exc))
    # head-judge actions reach here only with a valid head-judge signature
    for i, p in enumerate(pr.protocols_before(evs, teams, start), start):
        why = pr.lock_refusal(evs[:i], evs[i].type, evs[i].data, teams, p)
        if why:
            return Phrase(
                "event #{seq} ({type}): {why}",
                seq=evs[i].seq,
                type=event_type_name(evs[i].type),
                why=why,
            )
    if start < len(evs) and t.game(log_id) is not None:
        try:
            st = fold(setup_for(t, log_id), evs, recheck=True)
        except Refused as exc:
            return rule_text(exc)
        late = [n for n in st.rejected if n.seq > evs[start - 1].seq] if start else st.rejected
        if late:
            n = late[0]
            why = rule_text(n.text, t.team_names())  # the teams by their names
            return Phrase(
                "event #{seq} ({type}): {why}", seq=n.seq, type=event_type_name(n.type), why=why
            )
    return None


def merge_logs(t: TournamentService, src: Source, report: MergeReport) -> None:
    reg = _registry(t, src)
    rows = {  # the source's manifests: the newest head of each log its laptops signed
        lid: parse_heads(str(entry.get("heads") or "").encode())
        for lid, entry in src.laptops.items()
        if isinstance(entry, dict)
    }
    src_anchors, _faults = identity.manifest_of_rows(rows, reg, t.pinned_hj)
    for (kind, log_id), head in sorted(src_anchors.items()):
        if log_id not in (src.logs.get(kind) or {}):
            report.errors.append(
                Phrase(
                    "{log}: missing in {source} although its manifest records {n} events (of "
                    "{laptop}); nothing to merge",
                    log=f"{kind}/{log_id}",
                    source=src.label,
                    n=head.count,
                    laptop=identity.laptop_label(reg, head.laptop),
                )
            )
    for kind, logs in src.logs.items():
        for log_id, doc in sorted(logs.items()):
            log_id = Path(log_id).name
            path = t.folder / kind / f"{log_id}.json"
            theirs = doc.get("events") or []
            ours: list[dict] | None = None  # None: no copy here
            damaged: str | None = None  # why our copy is damaged
            if path.exists():
                try:
                    ours = bundle.read_log_file(path)["events"]
                except DamagedFile as exc:
                    damaged = exc.fault
            k = common_prefix(ours or [], theirs)
            a = src_anchors.get((kind, log_id))
            cut: str | None
            try:
                cut = anchor_fault(
                    [Event.from_doc(dict(d)) for d in theirs], (a.count, a.hash) if a else None
                )
            except (KeyError, TypeError, ValueError) as exc:
                cut = Phrase("malformed event ({error})", error=repr(exc))
            if cut:
                report.errors.append(_not_merged(f"{kind}/{log_id}", cut))
                continue
            forged = _signature_refusal(kind, doc, k, reg, t.pinned_hj)
            if forged:
                report.errors.append(_not_merged(f"{kind}/{log_id}", forged))
                continue
            why = _refused(t, kind, log_id, doc, k)
            if why:
                report.errors.append(_not_merged(f"{kind}/{log_id}", why))
                continue
            if damaged is not None:
                report.errors.append(
                    Phrase(
                        "{log}: our copy is damaged ({why}); not merged",
                        log=f"{kind}/{log_id}",
                        why=damaged,
                    )
                )
                continue
            if ours is None and kind == "games" and t.anchor(log_id):
                report.errors.append(
                    Phrase(
                        "{log}: our copy is missing although the manifest records its events; "
                        "restore it from a backup first; not merged",
                        log=f"{kind}/{log_id}",
                    )
                )
                continue
            report.duplicates_skipped += k
            if ours is not None and k == len(theirs):
                report.unchanged.append(f"{kind}/{log_id}")
            elif ours is not None and k < len(ours):
                report.conflicts.append(_keep_conflict(t, kind, log_id, doc, k, len(ours) - k))
            else:  # a new log, or ours extended
                t.release_log(kind, log_id)  # our open copy, before its file is replaced
                _write_log(path, doc)
                (report.added_logs if ours is None else report.fast_forwarded).append(
                    f"{kind}/{log_id}"
                )
                report.events_added += len(theirs) - k
                if kind == "games" and theirs:
                    t.record_head(log_id, len(theirs), theirs[-1]["hash"], "merged")


def _norm(name: Any) -> str:
    return " ".join(str(name or "").split()).casefold()


def _player(doc: dict[str, Any]) -> Phrase:
    """A player's name as the conflict lists it: quoted, "(captain)" after a captain's."""
    if doc.get("captain"):
        return Phrase("{name} (captain)", name=repr(doc.get("name")))
    return Phrase("{name}", name=repr(doc.get("name")))


def _plain(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if not k.startswith("_")}


#: settings kept in the tournament's meta itself (the rest live in ``meta.settings``)
META_KEYS = ("name", "date", "venue", "division", "head_judge")


def merge_tournament(t: TournamentService, src: Source, report: MergeReport) -> None:
    """Teams, players, games and settings of the other tournament.json: new ones added,
    differing ones listed as conflicts (by id and by name), clashing games refused."""
    other = src.tournament
    added = {"teams": 0, "players": 0, "games": 0}
    conflicts: list[dict[str, Any]] = []

    def conflict(what: str, ours: Any, theirs: Any, text: str) -> None:
        conflicts.append({"what": what, "ours": ours, "theirs": theirs, "text": text})
        report.tournament_conflicts.append(text)

    why = _unsigned_tournament(t, src)
    if why:
        report.errors.append(
            Phrase("tournament.json of {source}: not merged: {why}", source=src.label, why=why)
        )
        return
    # what to add: their rows that are new here, compared with ours read through the tables
    new: dict[str, list[dict[str, Any]]] = {"teams": [], "players": [], "games": []}
    teams = t.teams()
    by_id = {d.get("id"): d for d in teams}
    by_name = {_norm(d.get("name")): d for d in teams}
    team_map: dict[str, str] = {}  # their team id -> ours (same team)
    for d in sorted((other.get("teams") or {}).values(), key=lambda d: str(d.get("id"))):
        tid, name = d.get("id"), d.get("name")
        mine = by_id.get(tid)
        same_name = by_name.get(_norm(name))
        if mine is not None:
            team_map[str(tid)] = str(tid)
            if _plain(mine) != _plain(d):
                conflict(
                    "team",
                    mine,
                    d,
                    Phrase(
                        "team {id}: here {ours}, there {theirs}",
                        id=tid,
                        ours=repr(mine.get("name")),
                        theirs=repr(name),
                    ),
                )
        elif same_name is not None:
            team_map[str(tid)] = str(same_name.get("id"))
            conflict(
                "team",
                same_name,
                d,
                Phrase(
                    "team {name}: id {ours} here, {theirs} there (the same name: not added twice)",
                    name=repr(name),
                    ours=same_name.get("id"),
                    theirs=tid,
                ),
            )
        else:
            new["teams"].append(d)
            by_id[tid] = d
            by_name[_norm(name)] = d
            team_map[str(tid)] = str(tid)
            added["teams"] += 1
            report.changes.append(Phrase("added team {name} (id {id})", name=repr(name), id=tid))

    have_p = {(p.get("team_id"), p.get("number")): p for p in t.players()}
    for d in sorted(
        (other.get("players") or {}).values(),
        key=lambda d: (str(d.get("team_id")), str(d.get("number"))),
    ):
        team_id = team_map.get(str(d.get("team_id")), d.get("team_id"))
        d = {**d, "team_id": team_id}
        mine = have_p.get((team_id, d.get("number")))
        if mine is None:
            new["players"].append(d)
            have_p[(team_id, d.get("number"))] = d
            added["players"] += 1
            report.changes.append(
                Phrase(
                    "added player #{number} {name} to team {team}",
                    number=d.get("number"),
                    name=repr(d.get("name")),
                    team=team_id,
                )
            )
        elif _plain(mine) != _plain(d):
            conflict(
                "player",
                mine,
                d,
                Phrase(
                    "player #{number} of team {team}: here {ours}, there {theirs}",
                    number=d.get("number"),
                    team=team_id,
                    ours=_player(mine),
                    theirs=_player(d),
                ),
            )

    games = t.games()
    g_by_id = {g.get("id"): g for g in games}
    g_by_slot = {(str(g.get("field")), str(g.get("start"))): g for g in games}
    for d in sorted((other.get("games") or {}).values(), key=lambda d: str(d.get("id"))):
        d = {
            **d,
            "team_a": team_map.get(str(d.get("team_a")), d.get("team_a")),
            "team_b": team_map.get(str(d.get("team_b")), d.get("team_b")),
        }
        mine = g_by_id.get(d.get("id"))
        slot = (str(d.get("field")), str(d.get("start")))
        if mine is not None:
            if _plain(mine) != _plain(d):
                conflict(
                    "game",
                    mine,
                    d,
                    Phrase(
                        "game {game}: here field {field} at {start}, there field {field2} at "
                        "{start2}",
                        game=d.get("id"),
                        field=mine.get("field"),
                        start=mine.get("start"),
                        field2=d.get("field"),
                        start2=d.get("start"),
                    ),
                )
            continue
        clash = g_by_slot.get(slot)
        if clash is not None:
            report.refused_games.append(
                Phrase(
                    "game {game} not added: field {field} at {start} is taken by game {other}",
                    game=d.get("id"),
                    field=slot[0],
                    start=slot[1],
                    other=clash.get("id"),
                )
            )
            conflicts.append({"what": "game_clash", "ours": clash, "theirs": d})
            continue
        new["games"].append(d)
        g_by_id[d.get("id")] = d
        g_by_slot[slot] = d
        added["games"] += 1
        report.changes.append(
            Phrase(
                "added game {game} (field {field} at {start})",
                game=d.get("id"),
                field=slot[0],
                start=slot[1],
            )
        )

    ours_meta = t.meta
    their_meta = (other.get("meta") or {}).get("1") or {}
    # (name, label, ours, theirs) of every setting the other file has
    settings = [(k, k, ours_meta.get(k), their_meta.get(k)) for k in META_KEYS if k in their_meta]
    if "settings" in their_meta:
        a, b = ours_meta.get("settings") or {}, their_meta.get("settings") or {}
        settings += [(n, f"setting {n}", a.get(n), b.get(n)) for n in sorted(set(a) | set(b))]
    for name, label, mine, theirs in settings:
        if mine != theirs:
            said = Phrase(
                "{setting}: here {ours}, there {theirs}",
                setting=label,
                ours=repr(mine),
                theirs=repr(theirs),
            )
            conflict("setting", {name: mine}, {name: theirs}, said)

    if any(new.values()):
        if t.tournament_write_refusal() is None:
            t.add_rows(new)  # one atomic write of tournament.json
        else:  # a field laptop: its copy comes from the head judge's laptop, never a merge
            report.errors.append(
                Phrase(
                    "tournament.json: {n} new rows of {source} not taken here: only the head "
                    "judge's laptop changes it; to have them here, copy his tournament.json and "
                    "tournament.sig onto this laptop (the app checks his signature)",
                    n=sum(map(len, new.values())),
                    source=src.label,
                )
            )
            added = {k: 0 for k in added}
    report.schedule_added = added
    if conflicts:
        folder = t.folder / CONFLICTS / "tournament"
        make_dirs(folder)
        body = {"source": src.label, "conflicts": conflicts}
        name = f"{Path(src.label).stem}--{canonical_digest(body)[:12]}.json"
        atomic_write_bytes(folder / name, orjson.dumps(body, option=orjson.OPT_INDENT_2))


def _unsigned_tournament(t: TournamentService, src: Source) -> str | None:
    """Why the other tournament.json is not as the head judge signed it (or None)."""
    if not src.tournament:
        return None
    sig = src.tournament_sig
    if not isinstance(sig, dict):
        return Phrase("not signed by the head judge (no tournament.sig)")
    digest = canonical_digest(src.tournament_raw or src.tournament)
    if sig.get("hash") != digest:
        return Phrase(
            "changed since the head judge signed it (edited by hand, or an unsigned change)"
        )
    if not t.pinned_hj or not verify_signature(
        t.pinned_hj, signed_message("tournament", digest), str(sig.get("sig", ""))
    ):
        return Phrase("tournament.sig is not the signature of this tournament's head judge key")
    return None


def merge_laptops(t: TournamentService, src: Source, report: MergeReport) -> list[str]:
    """The source's laptop registrations (taken when absent here, never over another one)
    and marker checks; returns the laptops whose manifests :func:`merge_manifests` may
    take. Registration is authority: a laptop the head judge has not registered (no valid
    signature of his, here or in the source) brings neither its registration nor its
    manifest."""
    here = identity.registry(t.folder, t.pinned_hj)
    taken = []
    for lid, entry in sorted(src.laptops.items()):
        if not isinstance(entry, dict) or lid == t.keys.laptop_id:
            continue
        folder = t.folder / LAPTOPS_DIR / Path(lid).name
        doc = entry.get("laptop")
        theirs = (
            identity.registry_of_docs({lid: doc}, t.pinned_hj).get(lid)
            if isinstance(doc, dict)
            else None
        )
        known = here.get(lid)
        if t.pinned_hj and not (
            (known is not None and known.registered) or (theirs is not None and theirs.registered)
        ):
            label = theirs.label() if theirs else f"laptop {lid}"
            report.errors.append(
                Phrase(
                    "{log}: not merged: {laptop} is not registered by the head judge (its "
                    "games neither): he registers it on that laptop with his secret (key R on "
                    "its home screen, or `fieldjudge register-laptop`), then merge again",
                    log=f"laptops/{lid}",
                    laptop=label,
                )
            )
            continue
        if isinstance(doc, dict) and not (folder / LAPTOP_FILE).exists():
            make_dirs(folder)
            atomic_write_bytes(folder / LAPTOP_FILE, orjson.dumps(doc))
            report.laptops_added.append(theirs.label() if theirs else lid)
        _merge_marker_checks(t, src, lid, entry.get("marker_checks"), report)
        taken.append(lid)
    return taken


def merge_manifests(t: TournamentService, src: Source, laptops: list[str]) -> None:
    """The source's manifests of ``laptops`` (those :func:`merge_laptops` took): each
    taken when theirs extends ours (a manifest is append-only). Last, after the logs: a
    manifest line here never names a head before its log is here (a power cut in between
    would show the game missing, and the merge, run again, would refuse it as lost)."""
    for lid in laptops:
        entry = src.laptops[lid]
        heads = str(entry.get("heads") or "").encode()
        if heads:
            folder = t.folder / LAPTOPS_DIR / Path(lid).name
            hp = folder / HEADS_FILE
            mine = hp.read_bytes() if hp.exists() else b""
            if len(heads) > len(mine) and heads.startswith(mine):
                make_dirs(folder)
                atomic_write_bytes(hp, heads)


def _merge_marker_checks(
    t: TournamentService, src: Source, lid: str, logs: Any, report: MergeReport
) -> None:
    """Another laptop's marker-check logs (19): taken when absent here or when theirs
    extends ours, every new event signed by that laptop (and an approval by the head
    judge); the game's owner takes the checks into the game when it opens it."""
    if not isinstance(logs, dict):
        return
    reg = _registry(t, src)
    for gid, doc in sorted(logs.items()):
        gid = Path(str(gid)).name
        rel = f"{LAPTOPS_DIR}/{Path(lid).name}/{MARKER_DIR}/{gid}.json"
        theirs = (doc or {}).get("events") or [] if isinstance(doc, dict) else []
        path = t.folder / rel
        ours = bundle.read_log_file(path)["events"] if path.exists() else []
        k = common_prefix(ours, theirs)
        if k == len(theirs):
            continue  # nothing new
        if k < len(ours):
            report.errors.append(_not_merged(rel, Phrase("it differs from this folder's copy")))
            continue
        bad = None
        for d in theirs[k:]:
            fault = identity.event_fault(d, reg, t.pinned_hj, authority.HEAD_JUDGE_TYPES)
            if fault is None and d.get("signer") != lid:
                fault = Phrase("not signed by the laptop whose log it is")
            if fault:
                bad = Phrase(
                    "event #{seq} ({type}): {why}",
                    seq=d.get("seq"),
                    type=event_type_name(d.get("type")),
                    why=fault,
                )
                break
        if bad is not None:
            report.errors.append(_not_merged(rel, bad))
            continue
        _write_log(path, doc)
        report.changes.append(
            Phrase(
                "marker checks of game {game} from {laptop}",
                game=gid,
                laptop=identity.laptop_label(reg, lid),
            )
        )


def merge_into(t: TournamentService, source: Path) -> MergeReport:
    """Merge a folder or a JSON export into the open tournament ``t``."""
    src = load_source(Path(source))
    ours_id = t.meta.get("id")
    theirs = (src.tournament.get("meta") or {}).get("1") or {}
    if theirs.get("id") and ours_id and theirs.get("id") != ours_id:
        raise Refused(
            f"{src.label} holds another tournament ({theirs.get('name', '?')}); not merged"
        )
    if Path(source).resolve() == t.folder.resolve():
        raise Refused("this is the tournament's own folder")
    report = MergeReport(src.label, errors=list(src.errors))
    laptops = merge_laptops(t, src, report)
    merge_tournament(t, src, report)
    merge_logs(t, src, report)
    merge_manifests(t, src, laptops)
    return report


def conflicts(t: TournamentService) -> list[Path]:
    folder = t.folder / CONFLICTS
    return sorted(p for kind in bundle.LOG_FOLDERS for p in (folder / kind).glob("*--*.json"))


def resolve(
    t: TournamentService,
    conflict_path: Path,
    keep: str,
    secret: str = "",
    *,
    grant: HeadJudge | None = None,
) -> Path:
    """The head judge chooses, with his secret: ``keep="ours"`` keeps our log, ``"theirs"``
    takes the other copy. The copy not chosen is moved to ``conflicts/resolved/`` (never
    deleted); the decision is kept in ``conflicts/decisions/``, signed with his key, and the new head goes
    into this laptop's manifest."""
    conflict_path = Path(conflict_path)
    if keep not in ("ours", "theirs"):
        raise Refused("choose ours or theirs")
    if not t.is_head_judge(grant):
        grant = t.head_judge(secret)  # refuses without the head judge's secret (citing 31)
    assert grant is not None
    kind = conflict_path.parent.name
    log_id = conflict_path.name.split("--")[0]
    ours = t.folder / kind / f"{log_id}.json"
    resolved = t.folder / CONFLICTS / "resolved"
    theirs: dict[str, Any] | None = None
    if keep == "ours":
        events = bundle.read_log_file(ours)["events"] if ours.exists() else []
        target = resolved / conflict_path.name
    else:
        theirs = bundle.read_log_file(conflict_path)  # refuse a damaged copy
        mine = bundle.read_log_file(ours)["events"] if ours.exists() else []
        events = theirs["events"]
        target = resolved / f"{log_id}--{mine[-1]['hash'][:12] if mine else 'empty'}.json"
    decision = {
        "conflict": conflict_path.name,
        "kind": kind,
        "id": log_id,
        "keep": keep,
        "count": len(events),
        "hash": events[-1]["hash"] if events else "",
        "archived": target.name,
    }
    # the signed decision is on disk before any file moves: a power cut never leaves the
    # chosen copy in place without it
    record_decision(t, grant, decision, target.name)
    # the copy not chosen is archived in target and the chosen one put in place; the game
    # file is never missing (our copy is archived by a durable copy, then the other one is
    # renamed over it)
    make_dirs(target.parent)
    if theirs is None:
        move_durably(conflict_path, target)
    else:
        t.release_log(kind, log_id)
        if ours.exists():
            copy_durably(ours, target)
        _write_log(ours, theirs)
        conflict_path.unlink()
        fsync_dir(conflict_path.parent)
    if kind == "games" and events:
        t.record_head(log_id, len(events), events[-1]["hash"], "head_judge_decision")
    return target


def record_decision(t: TournamentService, grant: HeadJudge, decision: dict, name: str) -> Path:
    """Sign ``decision`` with the head judge's key and write it as
    ``conflicts/decisions/<name>.json``: the record of a game conflict or a tournament-file
    difference he settled."""
    decision |= t.sign_as_head_judge(grant, "head_judge", canonical_digest(decision))
    folder = t.folder.joinpath(*DECISIONS)
    make_dirs(folder)
    out = folder / f"{name}.json"
    atomic_write_bytes(out, orjson.dumps(decision, option=orjson.OPT_INDENT_2))
    return out
