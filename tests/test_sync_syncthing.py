"""Two laptops, one tournament, through two REAL Syncthing instances on loopback (separate
homes, no discovery, relays or NAT): a game played on the field laptop arrives on the head
judge's laptop, verifies and counts in the standings; a game written on both laptops shows
a conflict, and nothing is lost."""

from __future__ import annotations

import shutil
import socket
from datetime import UTC, datetime
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner
from fakes import FakeClock, verify_folder
from results_fixtures import demo
from syncthing_pair import (
    HAVE_SYNCTHING,
    Syncthing,
    connected,
    idle_and_complete,
    introduce,
    poll,
    share,
)

from fieldjudge.cli import main
from fieldjudge.services import TournamentService, open_tournament
from fieldjudge.services.demo import DEMO_PASSPHRASE
from fieldjudge.services.paintball import results
from fieldjudge.services.paintball.game import GameSession
from fieldjudge.services.sync import merge
from fieldjudge.services.sync.conflicts import (
    DIVERGED,
    resolve_sync_conflict,
    scan_sync_conflicts,
)
from fieldjudge.services.sync.refresh import ChangedLogs
from fieldjudge.services.sync.syncthing import (
    SyncStatusProvider,
    folder_id_for,
    read_status,
    status_line,
)
from fieldjudge.store import backup, bundle
from fieldjudge.store.sync_files import ensure_stignore, find_conflict_copies, laptop_devices

pytestmark = pytest.mark.skipif(
    not HAVE_SYNCTHING, reason="Syncthing is not installed at /usr/bin/syncthing"
)
SYNC_S = 60  # deadline for anything Syncthing does on loopback (usually 1-3 s)


@pytest.fixture(scope="module")
def laptops(tmp_path_factory):
    """The field laptop's and the head judge's Syncthing, connected; stopped at the end."""
    tmp = tmp_path_factory.mktemp("syncthing")
    field = Syncthing(tmp / "field-home", "field laptop")
    head = Syncthing(tmp / "head-home", "head judge laptop")
    try:
        field.start()
        head.start()
        introduce(field, head)
        poll(lambda: connected(field, head) and connected(head, field), SYNC_S)
        yield field, head
    finally:
        field.stop()
        head.stop()


def open_copy(folder: Path) -> TournamentService:
    t = open_tournament(folder, lock=False, startup_backup=False)
    return t


def ref(team: str, number: int) -> dict:
    return {"team": team, "number": number}


def play(t, gid: str, judge: str) -> GameSession:
    """A whole game through the services: a flag hang by team A, 3:0."""
    clock = FakeClock(datetime(2026, 5, 16, 9, 0, tzinfo=UTC))
    s = GameSession(t, gid, clock=clock, judge=judge)
    a, b = s.teams
    ra = [p.number for p in s.setup.rosters[a]]
    rb = [p.number for p in s.setup.rosters[b]]
    for team in (a, b):
        s.append("checkin", {"team": team, "late": False})
    s.append("clock_start")
    clock.advance(30_000)
    s.append("elimination", {"reason": "hit", "players": [ref(b, rb[2])]})
    clock.advance(30_000)
    s.append("flag_capture", ref(a, ra[1]))
    clock.advance(15_000)
    s.append("flag_hang", ref(a, ra[1]))
    s.append("hang_verdict", {"paint": "clean", "fps": 280.0, "forbidden_mode": False})
    for pl in s.state.to_inspect():
        s.append("inspection", {"team": pl.team, "number": pl.number, "result": "clean"})
    assert s.state.phase == "final"
    return s


def hashes(path: Path) -> list[str]:
    return [e["hash"] for e in bundle.read_log_file(path)["events"]]


def same_files(src: Path, dst: Path) -> bool:
    files = [src / "tournament.json", *sorted((src / "games").glob("*.json"))]
    return all(
        (dst / f.relative_to(src)).is_file()
        and (dst / f.relative_to(src)).read_bytes() == f.read_bytes()
        for f in files
    )


def same_laptop_files(src: Path, dst: Path) -> bool:
    """Every laptop's synced files (its key, judges, manifest) alike on both folders."""
    files = [f for f in sorted((src / "laptops").rglob("*")) if f.is_file()]
    return bool(files) and all(
        (dst / f.relative_to(src)).is_file()
        and (dst / f.relative_to(src)).read_bytes() == f.read_bytes()
        for f in files
    )


def scheduled(t) -> list[str]:
    return [g["id"] for g in t.games() if not t.game_path(g["id"]).exists()]


def test_a_game_played_on_the_field_laptop_arrives_verifies_and_counts(laptops, tmp_path):
    field, head = laptops
    head_dir = tmp_path / "head" / "cup"
    field_dir = tmp_path / "field" / "cup"
    t_head = demo(head_dir)  # the head judge made the tournament
    tid = t_head.meta["id"]
    t_head.close()
    field_dir.mkdir(parents=True)
    for d in (head_dir, field_dir):  # what `fieldjudge sync setup` writes first
        ensure_stignore(d)
    share(field, head, folder_id_for(tid), field_dir, head_dir)
    # The tournament reaches the field laptop through Syncthing alone.
    poll(lambda: same_files(head_dir, field_dir), SYNC_S)

    # Both apps open: the head judge's keeps its tournament open all along.
    th = open_tournament(head_dir)
    changed = ChangedLogs(th)
    t = open_tournament(field_dir)  # the field laptop's app (locks its own .cache/lock)
    gid = scheduled(t)[0]
    assert gid not in {g["id"] for g, _r in results.closed_results(th)}
    s = play(t, gid, "Судья поля 1")
    played = [e.hash for e in s.events]
    assert len(played) == 16

    def on_head():
        changed.poll()
        return [e.hash for e in th.game_log(gid, create=False).events]

    try:
        # The events arrive on the head judge's laptop, in order, chain intact.
        poll(lambda: on_head() == played, SYNC_S)
        # Syncthing brings files in no set order: the game may come before the field
        # laptop's manifest and key, and shows as damaged until they are there too. Once
        # every file has arrived, the head judge's app finds the game final.
        poll(lambda: same_laptop_files(field_dir, head_dir), SYNC_S)
        assert th.game_summary(gid)["phase"] == "final"
        result = CliRunner().invoke(main, ["verify", str(head_dir)])
        assert result.exit_code == 0, result.output
        assert result.output.endswith("all files ok\n")

        # The senior judge closes the protocol on the field laptop ...
        a, b = s.teams
        results.submit_protocol(t, gid, judge="Судья поля 1")
        for team in (a, b):
            captain = next(x.name for x in s.setup.rosters[team] if x.captain)
            results.sign(t, gid, team, captain, judge="Судья поля 1")
        closed = [e.hash for e in t.game_log(gid).events]
        expected = results.standings_by_division(t)
        t.close()
        assert len(closed) == 19

        # ... and the head judge's standings include the game.
        poll(lambda: on_head() == closed, SYNC_S)
        got = {g["id"]: r for g, r in results.closed_results(th)}[gid]
        assert dict(got.points) == {a: 3, b: 0}
        assert results.standings_by_division(th) == expected
        assert results.game_view(th, gid).phase == "locked"
    finally:
        th.close()
    # Local files stayed local: the field laptop's backups of the game never left it.
    game_file = Path("games") / f"{gid}.json"
    assert backup.backup_dir(field_dir, field_dir / game_file).is_dir()
    assert not backup.backup_dir(head_dir, head_dir / game_file).exists()

    # The status line of the field laptop.
    provider = SyncStatusProvider(
        field_dir, address=field.client.endpoint.address, api_key=field.api_key
    )
    st = poll(lambda: (x := provider.status()).in_sync and x, SYNC_S)
    assert st.folder_id == folder_id_for(tid)
    assert [(p.name, p.connected, p.completion) for p in st.peers] == [
        ("head judge laptop", True, 100)
    ]
    assert status_line(st) == "in sync, 1 of 1 laptops connected: head judge laptop connected"
    # the head laptop settles too (a rescan of its own may be under way at this moment)
    poll(lambda: idle_and_complete(head, folder_id_for(tid), field), SYNC_S)


def test_both_laptops_writing_one_game_show_a_conflict_and_lose_nothing(laptops, tmp_path):
    field, head = laptops
    head_dir = tmp_path / "head" / "cup"
    field_dir = tmp_path / "field" / "cup"
    t = demo(head_dir)
    tid = t.meta["id"]
    t.close()
    # Carried to the field laptop on a USB stick before the sync was set up.
    shutil.copytree(head_dir, field_dir, ignore=shutil.ignore_patterns(".cache", "backups"))
    for d in (head_dir, field_dir):
        ensure_stignore(d)
    tf, th = open_copy(field_dir), open_copy(head_dir)
    gid = scheduled(tf)[0]
    ours = [e.hash for e in play(tf, gid, "Судья поля 1").events]  # the field laptop
    s = GameSession(th, gid, clock=FakeClock(datetime(2026, 5, 16, 9, 5, tzinfo=UTC)))
    a, b = s.teams
    s.append("checkin", {"team": b, "late": True})  # the head judge's laptop, by mistake
    s.append("checkin", {"team": a, "late": True})
    theirs = [e.hash for e in s.events]
    tf.close()
    th.close()
    folder_id = folder_id_for(tid) + "-conflict"
    share(field, head, folder_id, field_dir, head_dir)

    # Syncthing keeps the losing version as a conflict copy, on both laptops.
    def copies(folder: Path):
        found = find_conflict_copies(folder)
        return found if len(found) == 1 and idle_and_complete(head, folder_id, field) else None

    poll(lambda: copies(head_dir) and copies(field_dir), SYNC_S)
    th = open_copy(head_dir)
    try:
        found = scan_sync_conflicts(th, this_laptop_id="head")
        assert [(c.log_id, c.status, c.common) for c in found] == [(gid, DIVERGED, 0)]
        (c,) = found
        assert sorted((c.ours, c.theirs)) == sorted((len(ours), len(theirs)))
        assert c.for_head_judge and c.line().startswith(f"CONFLICT games/{gid} (")
        # Listed with the merge conflicts the head judge already decides, and nothing lost:
        kept = merge.conflicts(th)
        assert [p.name.split("--")[0] for p in kept] == [gid]
        both = {tuple(hashes(head_dir / "games" / f"{gid}.json")), tuple(hashes(c.path))}
        assert both == {tuple(ours), tuple(theirs)}
        provider = SyncStatusProvider(head_dir, address="127.0.0.1:9", api_key="x")
        assert status_line(provider.status()) == ("sync off; 1 conflict copies for the head judge")
        # A second scan changes nothing and deletes nothing.
        assert [x.status for x in scan_sync_conflicts(th, this_laptop_id="head")] == [DIVERGED]
        assert c.path.exists() and len(merge.conflicts(th)) == 1

        # The head judge keeps the field laptop's log: the copy is archived, not deleted.
        winner = hashes(head_dir / "games" / f"{gid}.json")
        keep = "ours" if winner == ours else "theirs"
        archived = resolve_sync_conflict(th, c.path, keep=keep, secret=DEMO_PASSPHRASE)
        assert archived.exists() and archived.parent.name == "resolved"
        assert hashes(head_dir / "games" / f"{gid}.json") == ours
        assert merge.conflicts(th) == []
    finally:
        th.close()
    # The decision reaches the field laptop: its copy goes, its log is the kept one.
    poll(lambda: not find_conflict_copies(field_dir), SYNC_S)
    poll(lambda: hashes(field_dir / "games" / f"{gid}.json") == ours, SYNC_S)
    result = CliRunner().invoke(main, ["verify", str(head_dir)])
    assert result.exit_code == 0, result.output


def test_read_status_of_a_stopped_syncthing_is_sync_off_at_once(laptops, tmp_path):
    field, _head = laptops
    st = read_status(None, tmp_path)
    assert (st.on, status_line(st)) == (False, "sync off")
    provider = SyncStatusProvider(
        tmp_path, address=field.client.endpoint.address, api_key=field.api_key
    )
    st = provider.status()
    assert (st.on, st.folder_id) == (True, "")
    assert status_line(st) == "sync on, this tournament is not shared"


def test_sync_setup_and_status_commands_on_a_real_syncthing(laptops, tmp_path):
    field, head = laptops
    folder = tmp_path / "cup"
    t = demo(folder)
    tid = t.meta["id"]
    t.close()
    conn = ["--address", field.client.endpoint.address, "--api-key", field.api_key]
    args = ["sync", "setup", "--tournament", str(folder), *conn, "--peer", head.device_id,
            "--peer-name", "head judge laptop", "--peer-address", head.sync_address,
            "--laptop-id", "field-1", "--laptop-name", "Поле 1", "--no-lan-discovery"]  # fmt: skip
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    assert f"this laptop's device ID (give it to the other laptops): {field.device_id}" in r.output
    assert f"folder ID: {folder_id_for(tid)}\n" in r.output
    assert r.output.endswith(
        "global discovery, relays and NAT: off (LAN only)\n"
        f"shared {folder_id_for(tid)} with 1 laptop; it syncs as soon as the other laptop "
        "shares the same folder ID\n"
    )
    c = field.client
    f = c.get(f"/rest/config/folders/{folder_id_for(tid)}")
    assert (f["path"], f["type"], f["fsWatcherEnabled"]) == (
        str(folder.resolve()),
        "sendreceive",
        True,
    )
    assert sorted(d["deviceID"] for d in f["devices"]) == sorted([field.device_id, head.device_id])
    opts = c.get("/rest/config/options")
    assert [
        opts[k]
        for k in ("globalAnnounceEnabled", "relaysEnabled", "natEnabled", "localAnnounceEnabled")
    ] == [False, False, False, False]
    assert (folder / ".stignore").is_file()
    assert laptop_devices(folder) == {"field-1": field.device_id}
    # The head judge has not shared it yet: connected, but the folder is not in sync.
    r = CliRunner().invoke(main, ["sync", "status", "--tournament", str(folder), *conn])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].endswith("1 of 1 laptops connected: head judge laptop connected")
    assert lines[1] == f"  this laptop: {field.device_id}"
    assert lines[2].startswith(f"  folder {folder_id_for(tid)}: ")
    assert lines[3] == f"  head judge laptop {head.device_id[:7]}: connected"


def test_sync_setup_registers_this_laptop_by_its_signing_key(laptops, tmp_path):
    from fieldjudge.store.keys import LaptopKeys

    field, _head = laptops
    folder = tmp_path / "cup"
    t = demo(folder)
    t.close()
    conn = ["--address", field.client.endpoint.address, "--api-key", field.api_key]
    r = CliRunner().invoke(main, ["sync", "setup", "--tournament", str(folder), *conn])
    assert r.exit_code == 0, r.output
    keys = LaptopKeys.load_or_create()
    assert f"registered this laptop as {keys.laptop_id} in laptops/{keys.laptop_id}/" in r.output
    assert r.output.endswith("no --peer given: nothing shared yet\n")
    doc = orjson.loads((folder / "laptops" / keys.laptop_id / "laptop.json").read_bytes())
    hj = doc.pop("hj_sig")  # the head judge's signature of the registration is kept
    assert doc == {
        "laptop_id": keys.laptop_id,
        "name": keys.name,
        "syncthing_device": field.device_id,
        "public_key": keys.public_key_b64,
        "hj_key": doc["hj_key"],
    }
    from fieldjudge.services.trust.verify import verify_report

    assert hj and verify_report(folder)[f"laptops/{keys.laptop_id}/laptop.json"].notes == [
        f'laptop "{keys.name}" ({keys.fingerprint})'
    ]


@pytest.mark.parametrize("registered", [True, False])
def test_a_field_laptop_set_up_with_the_secret_verifies_clean(laptops, tmp_path, registered):
    """Registration is authority (issue 21): a field laptop set up on a copy of the folder
    with the head judge's secret typed there records games that verify clean; without it,
    its game is a fault until he registers the laptop."""
    from tests.pit_helpers import Play

    field, _head = laptops
    folder = tmp_path / "cup"
    demo(folder).close()
    field_cfg = tmp_path / "field-config"
    conn = ["--address", field.client.endpoint.address, "--api-key", field.api_key]
    secret = ["--head-judge-secret", DEMO_PASSPHRASE] if registered else []
    r = CliRunner().invoke(
        main,
        ["sync", "setup", "--tournament", str(folder), *conn, "--laptop-name", "Поле 1", *secret],
        env={"FIELDJUDGE_CONFIG": str(field_cfg)},
    )
    assert r.exit_code == 0, r.output
    assert ("registered by the head judge (signed with his key)" in r.output) == registered
    t = open_tournament(folder, startup_backup=False, config_dir=field_cfg)
    try:
        play = Play(t, 4)
        play.start()
        play.hang_by_a()
        play.submit()
        gid = play.game_id
    finally:
        t.close()
    faults = {rel: f for rel, f in verify_folder(folder).items() if f}
    if registered:
        assert faults == {}
    else:
        assert any(
            "which the head judge has not registered" in f for f in faults[f"games/{gid}.json"]
        )


def test_a_syncthing_whose_port_was_taken_starts_again_on_new_ports(tmp_path):
    """The test harness itself: a port found free and taken by another process before
    Syncthing binds it (parallel workers) must not fail a sync test."""
    st = Syncthing(tmp_path / "home", "Taken")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        st.gui_port = taken.getsockname()[1]
        st.api_key = f"fieldjudge-test-{st.gui_port}"
        try:
            st.start()
            assert st.gui_port != taken.getsockname()[1]
            assert "address already in use" in st.log.read_text()
            assert st.client.get("/rest/system/status")["myID"] == st.device_id
        finally:
            st.stop()
