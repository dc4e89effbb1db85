"""Power loss (issue 21, 8): every state a power cut could leave during the store's
operations, opened as the app opens a folder (DESIGN.md "Storage").

Each operation runs with the store's file-system calls recorded through a shim
(``tests/fs_trace.py``); every prefix of the calls, with every subset of the calls not yet
made durable by an fsync (a write also torn in half), is replayed into a fresh folder and
opened. Asserted for each operation: 0 acknowledged changes lost (every state after the
call returned shows the change) and 0 silently wrong states (every state opens and shows
the data before or after the change; a state that cannot be told apart from tampering
counts as wrong too).
"""

from __future__ import annotations

import shutil
import sys
from datetime import date
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from demo_template import copy_demo  # noqa: E402
from fakes import compact_log  # noqa: E402
from fs_trace import check_all, record  # noqa: E402

from fieldjudge.services import create_tournament, open_tournament  # noqa: E402
from fieldjudge.services.recovery import restore_backup  # noqa: E402
from fieldjudge.services.sync.merge import conflicts, merge_into, resolve  # noqa: E402
from fieldjudge.services.trust import identity  # noqa: E402
from fieldjudge.services.trust.checks import Verifier  # noqa: E402
from fieldjudge.services.trust.head_judge import DEMO_PASSPHRASE, ScryptParams  # noqa: E402
from fieldjudge.store import (
    DamagedFile,  # noqa: E402
    bundle,  # noqa: E402
)
from fieldjudge.store.anchors import canonical_digest, read_heads, tournament_digest  # noqa: E402
from fieldjudge.store.backup import backup_dir, backups_of  # noqa: E402
from fieldjudge.store.pins import HeadJudgePins  # noqa: E402
from fieldjudge.store.storage import TEMP_MARK, load_json_file  # noqa: E402

FAST = ScryptParams(n=2**10, r=8, p=1)
DAY = date(2026, 6, 1)
#: operation -> number of distinct crash states opened (filled in as the tests run)
CHECKED: dict[str, int] = {}


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return copy_demo(tmp_path / "data" / "demo", DAY)


def _open(folder: Path):
    return open_tournament(folder, startup_backup=False)


def _game_with_file(t) -> str:
    """A game with a file that takes a judge's note (its protocol not signed yet): the
    demo's games are all played, so one of its scheduled games is started."""
    gid = _game_without_file(t)
    t.append_game_event(gid, "note", {"text": "before"})
    return gid


def _game_without_file(t) -> str:
    return next(g["id"] for g in t.games() if not t.store.game_path(g["id"]).exists())


def _events(folder: Path, gid: str) -> int | str:
    """The game's event count as the app opens it, or the fault it names."""
    try:
        t = _open(folder)
    except DamagedFile as exc:
        return f"the folder does not open: {exc}"
    try:
        if not t.store.game_path(gid).exists():
            return 0 if t.anchor(gid) is None else "the game file is missing"
        return len(t.game_log(gid, create=False).events)
    except DamagedFile as exc:
        return f"damaged: {exc}"
    finally:
        t.close()


def _no_temp_after_open(folder: Path) -> str:
    left = [p for p in folder.rglob(f"*{TEMP_MARK}*")]
    return f"temp files left after opening: {left}" if left else ""


def _run(folder: Path, op: Any, verdict: Any, tmp_path: Path, name: str) -> None:
    with record(folder) as rec:
        op()
    n, bad = check_all(rec, tmp_path / "states", verdict)
    CHECKED[name] = n
    assert bad == [], f"{name}: {len(bad)} of {n} crash states wrong:\n" + "\n".join(bad[:10])
    assert n > 1


def _counts(gid: str, before: int, after: int):
    def verdict(folder: Path, acknowledged: bool) -> str:
        got = _events(folder, gid)
        allowed = {after} if acknowledged else {before, after}
        if got not in allowed:
            return f"{got!r} events, expected one of {sorted(allowed)}"
        return _no_temp_after_open(folder)

    return verdict


def test_append_survives_every_crash_state(demo: Path, tmp_path: Path) -> None:
    t = _open(demo)
    gid = _game_with_file(t)
    before = len(t.game_log(gid).events)
    _run(
        demo,
        lambda: t.append_game_event(gid, "note", {"text": "power cut"}),
        _counts(gid, before, before + 1),
        tmp_path,
        "append",
    )
    t.close()


def test_a_new_game_survives_every_crash_state(demo: Path, tmp_path: Path) -> None:
    t = _open(demo)
    gid = _game_without_file(t)
    _run(
        demo,
        lambda: t.append_game_event(gid, "note", {"text": "first"}),
        _counts(gid, 0, 1),
        tmp_path,
        "new game",
    )
    t.close()


def test_a_manifest_step_survives_every_crash_state(demo: Path, tmp_path: Path) -> None:
    t = _open(demo)
    gid = _game_with_file(t)
    log = t.game_log(gid)
    count, head = len(log.events), log.events[-1].hash
    lid = t.keys.laptop_id
    lines_before = len([e for _n, e in read_heads(demo).get(lid, []) if e])

    def verdict(folder: Path, acknowledged: bool) -> str:
        lines = [e for _n, e in read_heads(folder).get(lid, []) if e]
        allowed = {lines_before + 1} if acknowledged else {lines_before, lines_before + 1}
        if len(lines) not in allowed:
            return f"{len(lines)} manifest lines, expected {sorted(allowed)}"
        got = _events(folder, gid)
        return "" if got == count else f"the game reads {got!r}"

    _run(demo, lambda: t.record_head(gid, count, head, "test"), verdict, tmp_path, "manifest step")
    t.close()


def test_the_first_backup_of_a_game_survives_every_crash_state(demo: Path, tmp_path: Path) -> None:
    t = _open(demo)
    gid = _game_with_file(t)
    path = t.store.game_path(gid)
    shutil.rmtree(backup_dir(demo, path), ignore_errors=True)
    raw = path.read_bytes()

    def verdict(folder: Path, acknowledged: bool) -> str:
        copies = backups_of(folder, folder / "games" / path.name)
        for c in copies:
            if c.read_bytes() != raw:
                return f"a backup differs from the game: {c.name}"
        if acknowledged and not copies:
            return "the acknowledged backup is lost"
        return ""

    _run(demo, lambda: t.store.backup_game(gid), verdict, tmp_path, "first backup")
    t.close()


def test_a_signed_tournament_rewrite_is_never_unsigned_or_lost(demo: Path, tmp_path: Path) -> None:
    t = _open(demo)
    t.head_judge(DEMO_PASSPHRASE)  # his key unlocked in this session: changes are signed
    hj = t.pinned_hj

    def verdict(folder: Path, acknowledged: bool) -> str:
        fault = identity.tournament_fault(folder, hj)
        if fault:
            return f"tournament.json: {fault}"
        names = {r["name"] for r in load_json_file(folder / "tournament.json")["teams"].values()}
        if acknowledged and "Пеликаны" not in names:
            return "the acknowledged team is lost"
        return ""

    _run(demo, lambda: t.add_team("Пеликаны"), verdict, tmp_path, "tournament rewrite")
    t.close()


def test_a_marker_check_log_survives_every_crash_state(demo: Path, tmp_path: Path) -> None:
    t = _open(demo)
    gid = _game_without_file(t)
    lid = "b" * 16
    store = t.store
    path = store.marker_log_path(lid, gid)

    def op() -> None:
        store.marker_log(lid, gid).append("note", {"text": "check"}, key=store._key)  # noqa: SLF001

    def verdict(folder: Path, acknowledged: bool) -> str:
        p = folder / path.relative_to(demo)
        if not p.exists():
            return "the acknowledged check is lost" if acknowledged else ""
        try:
            tt = _open(folder)
        except DamagedFile as exc:
            return f"the folder does not open: {exc}"
        try:
            events = tt.store.read_marker_log(lid, gid)
        except DamagedFile as exc:
            return f"damaged marker log: {exc}"
        finally:
            tt.close()
        if acknowledged and len(events) != 1:
            return f"{len(events)} checks after an acknowledged one"
        return ""

    _run(demo, op, verdict, tmp_path, "marker check")
    t.close()


def test_a_restore_never_leaves_the_game_file_missing(demo: Path, tmp_path: Path) -> None:
    """The damaged file is copied aside, then the backup renamed over it: a game file
    missing for a moment would read as "scheduled" (its manifest line may not exist)."""
    t = _open(demo)
    gid = _game_with_file(t)
    path = t.store.game_path(gid)
    copy = t.store.backup_game(gid)
    assert copy is not None
    count = len(t.game_log(gid).events)
    t.close()
    good = path.read_bytes()
    damaged = good[: len(good) // 2] + b"#garbage\n"
    path.write_bytes(damaged)

    def verdict(folder: Path, acknowledged: bool) -> str:
        p = folder / "games" / path.name
        if not p.exists():
            return "the game file is missing"
        aside = list((folder / "damaged").glob(f"{path.name}.*"))
        if acknowledged and not any(a.read_bytes() == damaged for a in aside):
            return "the damaged file is not kept in damaged/"
        if p.read_bytes() == damaged:
            return "" if not acknowledged else "the acknowledged restore is lost"
        got = _events(folder, gid)
        return "" if got == count else f"the restored game reads {got!r}"

    _run(
        demo,
        lambda: restore_backup(demo, path, copy),
        verdict,
        tmp_path,
        "restore",
    )


def test_a_conflict_resolution_never_puts_a_copy_in_place_without_its_decision(
    tmp_path: Path,
) -> None:
    """The head judge takes the other laptop's copy of a diverged game: at no moment is the
    game file missing, nor the chosen copy in place before his signed decision."""
    a, b, gid = _diverged(tmp_path)
    theirs = bundle.read_log_file(b / "games" / f"{gid}.json")["events"]
    t = open_tournament(a, startup_backup=False)
    merge_into(t, b)
    (cpath,) = conflicts(t)
    grant = t.head_judge(DEMO_PASSPHRASE)
    loud: list[int] = []

    def verdict(folder: Path, acknowledged: bool) -> str:
        game = folder / "games" / f"{gid}.json"
        if not game.exists():
            return "the game file is missing"
        try:
            events = bundle.read_log_file(game)["events"]
        except DamagedFile as exc:
            return f"the game file is damaged: {exc}"
        decisions = [
            load_json_file(p)
            for p in (folder / "conflicts" / "decisions").glob("*.json")
            if not p.name.count(TEMP_MARK)
        ]
        taken = events[-1]["hash"] == theirs[-1]["hash"]
        if taken and not any(d.get("hash") == theirs[-1]["hash"] for d in decisions):
            return "the chosen copy is in place without the head judge's decision"
        if acknowledged and not taken:
            return "the acknowledged choice is lost"
        if _events(folder, gid) != len(events):
            loud.append(1)  # named as damaged until the manifest holds the new head
        return ""

    _run(a, lambda: resolve(t, cpath, "theirs", grant=grant), verdict, tmp_path, "resolution")
    t.close()
    CHECKED["resolution: states named damaged"] = len(loud)


def test_a_compaction_survives_every_crash_state(demo: Path, tmp_path: Path) -> None:
    """The store's log compaction (the live records rewritten to a new file, then renamed
    over the log) leaves the log whole in every state: same events, same head, no fault."""
    t = _open(demo)
    gid = _game_with_file(t)
    for n in range(3):
        t.append_game_event(gid, "note", {"text": f"note {n}"})
    t.record_step(gid, "before compaction")
    log = t.game_log(gid)
    count = len(log.events)
    raw = t.store.game_path(gid).read_bytes()
    counts = _counts(gid, count, count)

    def verdict(folder: Path, acknowledged: bool) -> str:
        why = counts(folder, acknowledged)
        if why:
            return why
        return "; ".join(Verifier(folder, HeadJudgePins()).game_faults(gid))

    _run(demo, lambda: compact_log(log), verdict, tmp_path, "compaction")
    assert t.store.game_path(gid).read_bytes() != raw  # the file was rewritten
    t.close()


def _decision_verdict(gid_key: str, hj: str | None, config: Path, taken: Any):
    """The verdict of a head judge's decision on a tournament difference (its key):
    ``taken(folder)`` says whether tournament.json holds the change (None: keep ours).
    Before: listed, no decision, unchanged; after: decided, not listed, changed; between:
    his signed decision, the change taken or not yet, with the difference still listed (he
    sees it waiting; deciding it again writes the same decision). Wrong: tournament.json
    unsigned, the difference gone without a decision, the change taken without it, a
    decision that does not name the content it left."""
    from fieldjudge.services.sync.tournament_conflicts import tournament_conflicts

    loud: list[int] = []

    def verdict(folder: Path, acknowledged: bool) -> str:
        fault = identity.tournament_fault(folder, hj)
        if fault:
            return f"tournament.json: {fault}"
        try:
            tt = open_tournament(folder, startup_backup=False, config_dir=config)
        except DamagedFile as exc:
            return f"the folder does not open: {exc}"
        try:
            listed = any(c.key == gid_key for c in tournament_conflicts(tt))
        finally:
            tt.close()
        decided = []
        for p in (folder / "conflicts" / "decisions").glob("tournament--*.json"):
            try:
                d = load_json_file(p)
            except DamagedFile as exc:
                return f"a damaged decision: {exc}"
            if canonical_digest(d.get("difference"))[:16] == gid_key:
                decided.append(d)
        changed = taken(folder) if taken is not None else False
        if acknowledged and (listed or not decided or (taken is not None and not changed)):
            return f"the acknowledged decision is lost ({listed=}, {len(decided)=}, {changed=})"
        if not listed and not decided:
            return "the difference is gone without the head judge's decision"
        if changed and not decided:
            return "tournament.json took theirs without the head judge's decision"
        if decided and not listed and taken is not None and not changed:
            return "decided to take theirs, not listed, tournament.json without the change"
        if (changed or taken is None) and any(
            d.get("tournament") != tournament_digest(folder) for d in decided
        ):
            return "the decision does not name the content of tournament.json"
        if listed and decided:
            loud.append(1)  # still listed: he sees it waiting; deciding it again is the same
            why = _decide_again(folder, gid_key, config, "ours" if taken is None else "theirs")
            if why or (taken is not None and not taken(folder)):
                return f"deciding it again after the power cut: {why or 'the change not taken'}"
        return _no_temp_after_open(folder)

    return verdict, loud


def _decide_again(folder: Path, key: str, config: Path, keep: str) -> str:
    """The head judge decides a difference still listed after a power cut again, as he did
    before it: no other decision is written (the same one), and it leaves the list."""
    from fieldjudge.services.sync.tournament_conflicts import decide, tournament_conflicts

    decisions = folder / "conflicts" / "decisions"
    before = sorted(p.name for p in decisions.glob("*.json"))
    tt = open_tournament(folder, startup_backup=False, config_dir=config)
    try:
        grant = tt.head_judge(DEMO_PASSPHRASE)
        (c,) = [c for c in tournament_conflicts(tt) if c.key == key]
        decide(tt, c, keep, grant=grant)
        if any(c.key == key for c in tournament_conflicts(tt)):
            return "still listed"
    finally:
        tt.close()
    after = sorted(p.name for p in decisions.glob("*.json"))
    return (
        "" if after == before else f"another decision written: {sorted(set(after) - set(before))}"
    )


def test_a_tournament_decision_survives_every_crash_state(tmp_path: Path) -> None:
    """The head judge decides a difference between two laptops' tournament files, taking
    theirs (a signed rewrite of tournament.json, his signed decision, the difference's
    file rewritten) and then keeping ours on the last one (its file removed)."""
    from fieldjudge.services.sync.tournament_conflicts import decide, tournament_conflicts
    from tests.test_merge_tournament import merged_a

    a, cfg_a = merged_a(tmp_path)
    t = open_tournament(a, startup_backup=False, config_dir=cfg_a)
    grant = t.head_judge(DEMO_PASSPHRASE)
    hj = t.pinned_hj
    player = next(c for c in tournament_conflicts(t) if c.what == "player")
    pid = (player.ours["team_id"], player.ours["number"])

    def taken(folder: Path) -> bool:
        players = load_json_file(folder / "tournament.json")["players"].values()
        names = {(p["team_id"], p["number"]): p["name"] for p in players}
        return names[pid] == player.theirs["name"]

    verdict, loud = _decision_verdict(player.key, hj, cfg_a, taken)
    _run(a, lambda: decide(t, player, "theirs", grant=grant), verdict, tmp_path, "decision")
    CHECKED["decision: states still listed"] = len(loud)
    rest = tournament_conflicts(t)
    for c in rest[:-1]:
        decide(t, c, "ours", grant=grant)
    (last,) = tournament_conflicts(t)
    verdict, loud = _decision_verdict(last.key, hj, cfg_a, None)
    _run(
        a,
        lambda: decide(t, last, "ours", grant=grant),
        verdict,
        tmp_path / "last",
        "decision, the last one",
    )
    CHECKED["decision, the last one: states still listed"] = len(loud)
    assert not list((a / "conflicts" / "tournament").glob("*.json"))
    t.close()


def _diverged(tmp_path: Path) -> tuple[Path, Path, str]:
    """Two copies of a demo folder (A, B) where the same game took another note on each."""
    base = copy_demo(tmp_path / "base", DAY)
    a, b = tmp_path / "A", tmp_path / "B"
    shutil.copytree(base, a)
    shutil.copytree(base, b)
    t0 = open_tournament(a, startup_backup=False)
    gid = _game_without_file(t0)
    t0.close()
    for folder, text in ((a, "ours"), (b, "theirs")):
        tt = open_tournament(folder, startup_backup=False)
        tt.append_game_event(gid, "note", {"text": text})
        tt.close()
    return a, b, gid


def test_a_resolution_keeping_ours_never_loses_the_other_copy(tmp_path: Path) -> None:
    """The head judge keeps our log: the other copy is moved to conflicts/resolved/ (never
    lost: in one of the two folders in every state), his decision first; our game file is
    never touched."""
    a, b, gid = _diverged(tmp_path)
    t = open_tournament(a, startup_backup=False)
    merge_into(t, b)
    (cpath,) = conflicts(t)
    theirs = cpath.read_bytes()
    ours = (a / "games" / f"{gid}.json").read_bytes()
    grant = t.head_judge(DEMO_PASSPHRASE)

    def verdict(folder: Path, acknowledged: bool) -> str:
        if (folder / "games" / f"{gid}.json").read_bytes() != ours:
            return "our game file changed"
        copies = [
            p
            for sub in ("games", "resolved")
            for p in (folder / "conflicts" / sub).glob(f"{gid}--*.json")
            if p.read_bytes() == theirs
        ]
        if len(copies) != 1:
            return f"the other copy is in {len(copies)} places"
        moved = copies[0].parent.name == "resolved"
        decided = [
            p
            for p in (folder / "conflicts" / "decisions").glob("*.json")
            if TEMP_MARK not in p.name
        ]
        if moved and not decided:
            return "the copy is archived without the head judge's decision"
        if acknowledged and not moved:
            return "the acknowledged choice is lost"
        got = _events(folder, gid)
        return "" if isinstance(got, int) else f"the game reads {got!r}"

    _run(a, lambda: resolve(t, cpath, "ours", grant=grant), verdict, tmp_path, "resolution, ours")
    t.close()


def test_a_merge_survives_every_crash_state(tmp_path: Path) -> None:
    """Another laptop's folder merged in (its registration, a new game of its own, its
    manifest; our manifest records the merged head): every state opens, verifies clean
    and shows the game as before (not there) or after (all its events), never as missing."""
    from fieldjudge.services.trust.checks import Verifier

    base = copy_demo(tmp_path / "base", DAY)
    a, b = tmp_path / "A", tmp_path / "B"
    shutil.copytree(base, a)
    shutil.copytree(base, b, ignore=shutil.ignore_patterns(".cache"))
    tb = open_tournament(b, startup_backup=False, config_dir=tmp_path / "field")
    try:
        tb.register_laptop(DEMO_PASSPHRASE)
        gid = _game_without_file(tb)
        for n in range(2):
            tb.append_game_event(gid, "note", {"text": f"field {n}"})
        tb.record_step(gid, "field")
    finally:
        tb.close()
    t = _open(a)

    def verdict(folder: Path, acknowledged: bool) -> str:
        got = _events(folder, gid)
        allowed = {2} if acknowledged else {0, 2}
        if got not in allowed:
            return f"the game reads {got!r}, expected {sorted(allowed)}"
        faults = Verifier(folder, HeadJudgePins()).faults()
        return "; ".join(faults) or _no_temp_after_open(folder)

    def op() -> None:
        report = merge_into(t, b)
        assert report.added_logs == [f"games/{gid}"], report.errors

    _run(a, op, verdict, tmp_path, "merge")
    t.close()


def test_tournament_creation_survives_every_crash_state(tmp_path: Path) -> None:
    data = tmp_path / "fresh"
    data.mkdir()
    made: dict[str, Any] = {}

    def op() -> None:
        t = create_tournament(
            data / "cup",
            name="Cup",
            day=date(2026, 6, 1),
            head_judge="Петров",
            head_judge_secret=DEMO_PASSPHRASE,
            kdf=FAST,
        )
        made["hj"] = t.pinned_hj
        t.close()

    def verdict(folder: Path, acknowledged: bool) -> str:
        cup = folder / "cup"
        if not (cup / "tournament.json").exists():
            return "the acknowledged tournament is lost" if acknowledged else ""
        fault = identity.tournament_fault(cup, made["hj"])
        return f"tournament.json: {fault}" if fault else ""

    with record(data) as rec:
        op()
    n, bad = check_all(rec, tmp_path / "states", verdict)
    CHECKED["tournament creation"] = n
    assert bad == [], "\n".join(bad[:10])


def test_report_the_states_checked() -> None:
    """Printed with ``-s``: the operations and how many crash states each opened (a line
    after a colon counts states of the operation above it, not more states)."""
    rows = [f"| {k} | {v} |" for k, v in CHECKED.items()]
    total = sum(v for k, v in CHECKED.items() if ":" not in k)
    print("\n| operation | states |\n|---|---|\n" + "\n".join(rows) + f"\n| total | {total} |")
