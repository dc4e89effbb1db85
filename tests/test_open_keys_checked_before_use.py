"""Opening a tournament reads this laptop's key file; the private key is checked against
the public key before anything is written under it. A key file whose halves do not belong together still
opens the folder to read it, and refuses the first write, leaving the folder as it was."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fakes import FakeClock

from fieldjudge.services import DamagedFile, open_tournament
from fieldjudge.services.paintball.game import GameSession
from fieldjudge.store.keys import KEY_FILE, LaptopKeys


def _folder_files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".cache" not in p.parts
    }


def test_a_mismatched_key_opens_to_read_and_refuses_the_first_write(
    demo_folder: Path, tmp_path: Path
) -> None:
    config = Path(os.environ["FIELDJUDGE_CONFIG"])
    key_path = config / KEY_FILE
    other = LaptopKeys.load_or_create(tmp_path / "other", "x")
    doc = json.loads(key_path.read_text())
    # the public half of another key: this laptop's id and registration stay as they were
    # registered, only the private key no longer matches (a damaged or edited file)
    other_doc = json.loads(other.path.read_text())
    key_path.write_text(json.dumps({**doc, "private_key": other_doc["private_key"]}))
    before = _folder_files(demo_folder)

    t = open_tournament(demo_folder, startup_backup=False)
    try:
        games = [g["id"] for g in t.games()]
        assert t.cached_game_summary(games[-1]) == {"phase": "scheduled", "events": 0}
        with pytest.raises(DamagedFile) as info:
            GameSession(t, games[-1], clock=FakeClock(datetime(2026, 6, 1, 9, tzinfo=UTC)))
        assert info.value.fault == "the public key does not belong to the private key"
    finally:
        t.close()
    assert _folder_files(demo_folder) == before  # no game file, no event, no registration
