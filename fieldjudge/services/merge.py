"""Merging another laptop's tournament folder or JSON export into the open tournament.

Events are matched by id along the hash chain: a log that is a prefix of ours adds nothing
(duplicates skipped); a log that extends ours is taken (fast-forward); two logs of the same
game that both added different events after a common prefix are a conflict: ours stays, the
other copy is kept in ``conflicts/`` until the head judge chooses (with his PIN). Never
mixed silently. New events pass the same authority check as an append on this laptop
(``services.authority``): an event a locked protocol refuses is not merged (31), and a
head judge's action made elsewhere waits, as a conflict, for the head judge's decision.
The schedule, teams and players of the other ``tournament.json`` are united by id."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fieldjudge.export import bundle
from fieldjudge.i18n import rule_text
from fieldjudge.services import authority
from fieldjudge.services.tournament import TournamentService
from fieldjudge.store import DamagedFile, Refused
from fieldjudge.store.eventlog import write_log_file
from fieldjudge.store.storage import load_json_file
from fieldjudge.store.tournament import TOURNAMENT_FILE
from fieldjudge.store.validate import validate_data

CONFLICTS = "conflicts"


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

    def lines(self) -> list[str]:
        out = [f"merged from {self.source}"]
        out.append(
            f"{len(self.added_logs)} new game logs, {len(self.fast_forwarded)} extended, "
            f"{len(self.unchanged)} unchanged; {self.events_added} events added, "
            f"{self.duplicates_skipped} duplicates skipped"
        )
        added = {k: v for k, v in self.schedule_added.items() if v}
        if added:
            out.append(
                "added to the tournament: " + ", ".join(f"{v} {k}" for k, v in added.items())
            )
        for c in self.conflicts:
            out.append(
                f"CONFLICT {c.kind}/{c.log_id}: {c.common} events in common, then {c.ours} here "
                f"and {c.theirs} there; the other copy is kept as {c.path.name} for the head "
                f"judge to choose"
            )
        out.extend(f"error: {e}" for e in self.errors)
        return out


@dataclass
class Source:
    label: str
    tournament: dict[str, Any]
    logs: dict[str, dict[str, dict[str, Any]]]  # kind -> id -> {meta, events}
    errors: list[str]


def load_source(path: Path) -> Source:
    """A tournament folder or a JSON export. DamagedFile if it is neither."""
    path = Path(path)
    if path.is_dir():
        tf = path / TOURNAMENT_FILE
        if not tf.exists():
            raise DamagedFile(tf, "no tournament.json in this folder")
        tournament, _ = validate_data(load_json_file(tf), tf)
        logs: dict[str, dict[str, Any]] = {}
        errors = []
        for kind in bundle.LOG_FOLDERS:
            logs[kind] = {}
            for p in sorted((path / kind).glob("*.json")):
                try:
                    logs[kind][p.stem] = bundle.read_log_file(p)
                except DamagedFile as exc:
                    errors.append(f"{kind}/{p.name} skipped: {exc.fault}")
        return Source(path.name, tournament, logs, errors)
    data = bundle.load_bundle(path)
    logs = {kind: dict(data.get(kind) or {}) for kind in bundle.LOG_FOLDERS}
    return Source(path.name, data["tournament"], logs, [])


def _common(ours: list[dict], theirs: list[dict]) -> int:
    k = 0
    for a, b in zip(ours, theirs, strict=False):
        if a.get("hash") != b.get("hash"):
            break
        k += 1
    return k


def _write_log(path: Path, doc: dict[str, Any]) -> None:
    """A whole log (new, fast-forwarded or a kept conflict copy), in the store's format."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_log_file(path, bundle.doc_to_log(doc))


def _forget(t: TournamentService, kind: str, log_id: str) -> None:
    """Close our open copy of a log before its file is replaced."""
    t.release_log(kind, log_id)


def _keep_conflict(
    t: TournamentService, kind: str, log_id: str, doc: dict, common: int, ours: int
) -> Conflict:
    events = doc["events"]
    folder = t.folder / CONFLICTS / kind
    folder.mkdir(parents=True, exist_ok=True)
    for other in sorted(folder.glob(f"{log_id}--*.json")):
        try:
            have = bundle.read_log_file(other)["events"]
        except DamagedFile:
            continue
        k = _common(have, events)
        if k == len(events):  # we already keep this copy (or a longer one)
            return Conflict(kind, log_id, common, ours, len(events) - common, other)
        if k == len(have):  # the new copy extends a kept one: no information is lost
            other.unlink()
    path = folder / f"{log_id}--{events[-1]['hash'][:12]}.json"
    _write_log(path, doc)
    return Conflict(kind, log_id, common, ours, len(events) - common, path)


def _refused(kind: str, doc: dict, start: int) -> tuple[str | None, bool]:
    """The first of the other copy's new events this laptop would refuse: (message, whether
    it waits for the head judge) or (None, False)."""
    if kind != "games":
        return None, False
    meta = doc.get("meta") or {}
    teams = (str(meta.get("team_a", "")), str(meta.get("team_b", "")))
    events = doc.get("events") or []
    try:
        found = authority.log_refusals(events, start, teams)
    except (KeyError, TypeError, ValueError) as exc:
        return f"malformed event ({exc!r})", False
    if not found:
        return None, False
    i, why, head = found[0]
    return f"event #{events[i].get('seq')} ({events[i].get('type')}): {rule_text(why)}", head


def merge_logs(t: TournamentService, src: Source, report: MergeReport) -> None:
    for kind, logs in src.logs.items():
        for log_id, doc in sorted(logs.items()):
            log_id = Path(log_id).name
            path = t.folder / kind / f"{log_id}.json"
            theirs = doc.get("events") or []
            k0 = 0
            if path.exists():
                try:
                    k0 = _common(bundle.read_log_file(path)["events"], theirs)
                except DamagedFile:
                    k0 = 0
            why, for_head_judge = _refused(kind, doc, k0)
            if why and not for_head_judge:
                report.errors.append(f"{kind}/{log_id}: not merged: {why}")
                continue
            if why and for_head_judge:
                ours_n = 0
                if path.exists():
                    try:
                        ours_n = len(bundle.read_log_file(path)["events"])
                    except DamagedFile:
                        ours_n = 0
                report.conflicts.append(_keep_conflict(t, kind, log_id, doc, k0, ours_n - k0))
                report.errors.append(f"{kind}/{log_id}: waits for the head judge: {why}")
                continue
            if not path.exists():
                _write_log(path, doc)
                report.added_logs.append(f"{kind}/{log_id}")
                report.events_added += len(theirs)
                continue
            try:
                ours = bundle.read_log_file(path)["events"]
            except DamagedFile as exc:
                report.errors.append(
                    f"{kind}/{log_id}: our copy is damaged ({exc.fault}); not merged"
                )
                continue
            k = _common(ours, theirs)
            report.duplicates_skipped += k
            if k == len(theirs):
                report.unchanged.append(f"{kind}/{log_id}")
            elif k == len(ours):
                _forget(t, kind, log_id)
                _write_log(path, doc)
                report.fast_forwarded.append(f"{kind}/{log_id}")
                report.events_added += len(theirs) - k
            else:
                report.conflicts.append(_keep_conflict(t, kind, log_id, doc, k, len(ours) - k))


def merge_tournament(t: TournamentService, src: Source, report: MergeReport) -> None:
    """Teams, players and games of the other tournament.json missing here (by id)."""
    other = src.tournament
    added = {"teams": 0, "players": 0, "games": 0}

    def key(table: str, doc: dict) -> Any:
        if table == "players":
            return (doc.get("team_id"), doc.get("number"))
        return doc.get("id")

    def change(data: dict) -> None:
        for table in added:
            mine = data.setdefault(table, {})
            have = {key(table, d) for d in mine.values()}
            for d in sorted((other.get(table) or {}).values(), key=lambda d: str(key(table, d))):
                if key(table, d) not in have:
                    mine[str(max((int(i) for i in mine), default=0) + 1)] = d
                    have.add(key(table, d))
                    added[table] += 1

    t.transaction(change)  # one atomic write of tournament.json
    report.schedule_added = added


def merge_into(t: TournamentService, source: Path) -> MergeReport:
    """Merge a folder or a JSON export into the open tournament ``t``."""
    src = load_source(Path(source))
    ours_id = t.meta.get("id")
    theirs_id = ((src.tournament.get("meta") or {}).get("1") or {}).get("id")
    if theirs_id and ours_id and theirs_id != ours_id:
        raise Refused(
            f"{src.label} holds another tournament "
            f"({((src.tournament.get('meta') or {}).get('1') or {}).get('name', '?')}); not merged"
        )
    if Path(source).resolve() == t.folder.resolve():
        raise Refused("this is the tournament's own folder")
    report = MergeReport(src.label, errors=list(src.errors))
    merge_tournament(t, src, report)
    merge_logs(t, src, report)
    return report


def conflicts(t: TournamentService) -> list[Path]:
    folder = t.folder / CONFLICTS
    return sorted(p for kind in bundle.LOG_FOLDERS for p in (folder / kind).glob("*--*.json"))


def resolve(t: TournamentService, conflict_path: Path, keep: str, pin: str = "") -> Path:
    """The head judge chooses, with his PIN: ``keep="ours"`` keeps our log, ``"theirs"``
    takes the other copy. The copy not chosen is moved to ``conflicts/resolved/`` (never
    deleted)."""
    conflict_path = Path(conflict_path)
    if keep not in ("ours", "theirs"):
        raise Refused("choose ours or theirs")
    t.head_judge(pin)  # refuses without the head judge's PIN (citing 31)
    kind = conflict_path.parent.name
    log_id = conflict_path.name.split("--")[0]
    ours = t.folder / kind / f"{log_id}.json"
    resolved = t.folder / CONFLICTS / "resolved"
    resolved.mkdir(parents=True, exist_ok=True)
    if keep == "ours":
        target = resolved / conflict_path.name
        shutil.move(str(conflict_path), target)
        return target
    if keep != "theirs":
        raise Refused("choose ours or theirs")
    doc = bundle.read_log_file(conflict_path)  # refuse a damaged copy
    _forget(t, kind, log_id)
    mine = bundle.read_log_file(ours)["events"] if ours.exists() else []
    tag = mine[-1]["hash"][:12] if mine else "empty"
    target = resolved / f"{log_id}--{tag}.json"
    if ours.exists():
        shutil.move(str(ours), target)
    _write_log(ours, doc)
    conflict_path.unlink()
    return target
