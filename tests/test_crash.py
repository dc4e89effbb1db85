"""Crash safety (DESIGN.md "Testing"): a child appends events, compacts and backs up its
game log, adds teams and updates the tournament's meta, acknowledging each write after it
returned; we SIGKILL it 48 times, each 0-1 ms after it signals the start of a write of the
aimed kind (line append, compaction, backup copy, atomic rewrite), so the kills land inside
those writes. Nothing acknowledged may be lost, no file damaged, no temp file left."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from crash_child import kill_many  # noqa: E402

KILLS = 48


def test_sigkill_inside_appends_compactions_and_backups_loses_and_damages_nothing(
    demo_folder: Path,
) -> None:
    acked, damage, aimed = kill_many(demo_folder, KILLS, seed=20.04)
    assert damage.damaged == []
    assert damage.lost == []
    assert damage.leftover == []
    assert aimed == {"a": 12, "c": 12, "b": 12, "r": 12}
    assert len(acked.events) > KILLS  # the kills interrupted real work
