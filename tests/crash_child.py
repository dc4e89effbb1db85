"""Crash safety, both sides (DESIGN.md "Testing").

As a script: the child. It appends events to a game log, compacts that log every 4th
append, copies it to its backups every 5th, inserts teams (a non-last table of
``tournament.json``) and updates the tournament's meta, printing each acknowledgement only
after the call returned. It is killed with SIGKILL by the parent.

As a module: the parent's side. :func:`run_and_kill` starts the child with the store's write
hook and kills it 0-1 ms after the n-th signal of the chosen kind of write (a = line
append, c = compaction, b = backup copy, r = atomic rewrite of tournament.json), so the
kills land inside those writes; :func:`check_folder` counts what a kill lost or damaged."""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import orjson

KINDS = (b"a", b"c", b"b", b"r")


def main(folder: str, game_id: str, start: int) -> None:
    from fakes import compact_log

    from fieldjudge.store import Tournament, WriteKey

    key = WriteKey()  # the store's own test: it holds the write key the services would
    t = Tournament.open(Path(folder), startup_backup=False, key=key)
    log = t.game_log(game_id)
    i = start
    while True:
        i += 1
        ev = log.append("hit", {"team": "A", "number": i % 99, "pad": "ж" * (i % 50)}, key=key)
        print(f"E {ev.id}", flush=True)
        if i % 4 == 0:
            compact_log(log)
        if i % 5 == 0:
            t.backup_game(game_id)
        if i % 3 == 0:
            name = f"Команда {i}"
            t.add_team(name, key=key)
            print(f"T {name}", flush=True)
        if i % 7 == 0:
            t.update_meta(key, venue=f"venue {i}")
            print(f"M {i}", flush=True)


@dataclass
class Kill:
    kind: bytes  # the kind of write the kill was aimed inside
    lines: list[str]  # the child's acknowledgements
    reached: bool  # the child got to the aimed write


def run_and_kill(folder: Path, game_id: str, start: int, kind: bytes, nth: int, rng) -> Kill:
    """Run the child; SIGKILL it 0-1 ms after its ``nth`` signal of a ``kind`` write."""
    r, w = os.pipe()
    env = dict(os.environ, FIELDJUDGE_TEST_WRITE_SIGNAL_FD=str(w))
    child = subprocess.Popen(
        [sys.executable, str(Path(__file__)), str(folder), game_id, str(start)],
        stdout=subprocess.PIPE,
        env=env,
        pass_fds=(w,),
    )
    os.close(w)
    seen = 0
    deadline = time.monotonic() + 60
    try:
        while seen < nth and time.monotonic() < deadline:
            ready, _w, _x = select.select([r], [], [], 1.0)
            if ready:
                chunk = os.read(r, 1)
                if not chunk:
                    break  # the child died
                seen += chunk == kind
        delay = rng.random() / 1000  # 0-1 ms into the write
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < delay:
            pass
        child.send_signal(signal.SIGKILL)
        out, _err = child.communicate(timeout=60)
    finally:
        os.close(r)
        if child.poll() is None:
            child.kill()
            child.wait()
    return Kill(kind, out.decode("utf-8").splitlines(), seen >= nth)


@dataclass
class Acked:
    events: list[str] = field(default_factory=list)
    teams: list[str] = field(default_factory=list)
    meta: int = 0

    def add(self, lines: list[str]) -> None:
        for line in lines:
            what, _sp, value = line.partition(" ")
            if what == "E":
                self.events.append(value)
            elif what == "T":
                self.teams.append(value)
            elif what == "M":
                self.meta = max(self.meta, int(value))


@dataclass
class Damage:
    lost: list[str] = field(default_factory=list)
    damaged: list[str] = field(default_factory=list)
    leftover: list[str] = field(default_factory=list)


def check_folder(folder: Path, game_id: str, acked: Acked) -> Damage:
    """Open the folder as the app does (cleaning temp files), then: every file and every
    backup validates, every acknowledged event, team and meta update is there, and no
    temp file is left anywhere."""
    from fieldjudge.store import DamagedFile, EventLog, Tournament
    from fieldjudge.store.validate import validate_file

    out = Damage()
    try:
        Tournament.open(folder, startup_backup=False).close()
    except DamagedFile as exc:
        out.damaged.append(f"tournament.json: {exc.fault}")
    out.leftover = [str(p.relative_to(folder)) for p in folder.rglob("*.fj-tmp-*")]
    files = [folder / "tournament.json", *folder.glob("games/*.json")]
    files += folder.glob("backups/**/*.json")
    for f in files:
        try:
            validate_file(f)
        except DamagedFile as exc:
            out.damaged.append(f"{f.relative_to(folder)}: {exc.fault}")
    try:
        log = EventLog.open(folder / "games" / f"{game_id}.json")
    except DamagedFile as exc:
        out.damaged.append(f"game: {exc.fault}")
        out.lost = list(acked.events)
        return out
    ids = [e.id for e in log.events]
    if not all(e.data.get("team") == "A" for e in log.events):
        out.damaged.append("game: an event carries another document's fields")
    log.close()
    have = set(ids)
    out.lost = [i for i in acked.events if i not in have]
    position = {i: n for n, i in enumerate(ids)}
    order = [position[i] for i in acked.events if i in position]
    if order != sorted(order):
        out.damaged.append("game: acknowledged events out of order")
    data = orjson.loads((folder / "tournament.json").read_bytes())
    names = {t["name"] for t in data["teams"].values()}
    out.lost += [f"team {n}" for n in acked.teams if n not in names]
    if not all(set(t) == {"id", "name"} for t in data["teams"].values()):
        out.damaged.append("tournament.json: a team carries another document's fields")
    venue = data["meta"]["1"]["venue"]
    if acked.meta and not (venue.startswith("venue ") and int(venue.split()[1]) >= acked.meta):
        out.lost.append(f"meta update {acked.meta}")
    return out


def prepare(folder: Path) -> str:
    """A game of the demo tournament in ``folder`` with its file created; its id."""
    from fieldjudge.store import Tournament, WriteKey

    t = Tournament.open(folder, key=WriteKey())  # a store without the key creates no file
    game_id = next(g["id"] for g in t.games() if not t.game_path(g["id"]).exists())
    t.game_log(game_id)
    t.close()
    return game_id


def kill_many(folder: Path, kills: int, seed: float) -> tuple[Acked, Damage, dict[str, int]]:
    """``kills`` targeted kills, cycling through the kinds of write; the first damage or
    loss stops the run (it is reported, not hidden by later kills)."""
    rng = random.Random(seed)
    game_id = prepare(folder)
    acked = Acked()
    aimed = {k.decode(): 0 for k in KINDS}
    damage = Damage()
    for k in range(kills):
        kind = KINDS[k % len(KINDS)]
        nth = rng.randint(1, 3)
        kill = run_and_kill(folder, game_id, k * 1000, kind, nth, rng)
        if not kill.reached:
            damage.damaged.append(f"kill {k}: the child never reached its writes")
            break
        aimed[kind.decode()] += 1
        acked.add(kill.lines)
        damage = check_folder(folder, game_id, acked)
        if damage.lost or damage.damaged or damage.leftover:
            damage.damaged.insert(0, f"after kill {k} (inside a {kind.decode()!r} write)")
            break
    return acked, damage, aimed


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
