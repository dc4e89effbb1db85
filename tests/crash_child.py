"""Child process of the crash test: appends events (a game log), inserts teams (a
non-last table of tournament.json) and updates the tournament's meta, printing each
acknowledgement only after the call returned. Killed with SIGKILL by the test."""

from __future__ import annotations

import sys
from pathlib import Path

from fieldjudge.store import Tournament, WriteKey


def main(folder: str, game_id: str, start: int) -> None:
    key = WriteKey()  # the store's own test: it holds the write key the services would
    t = Tournament.open(Path(folder), startup_backup=False, key=key)
    log = t.game_log(game_id)
    i = start
    while True:
        i += 1
        ev = log.append("hit", {"team": "A", "number": i % 99, "pad": "ж" * (i % 50)}, key=key)
        print(f"E {ev.id}", flush=True)
        if i % 3 == 0:
            name = f"Команда {i}"
            t.add_team(name, key=key)
            print(f"T {name}", flush=True)
        if i % 4 == 0:
            t.update_meta(key, venue=f"venue {i}")
            print(f"M {i}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
