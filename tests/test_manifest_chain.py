"""Manifests that cannot be cut (issue 21, 4; DESIGN.md "Anchored, signed logs"): each
line of ``laptops/<id>/heads.jsonl`` signs its number and the digest of the line before;
the laptop that writes it remembers its length in its local cache, so deleting the newest
lines together with a game's newest events is a fault there, and a line removed from the
middle is a fault anywhere."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import orjson
import pytest
from demo_template import copy_demo

from fieldjudge.services import open_tournament
from fieldjudge.services.trust import identity
from fieldjudge.store import DamagedFile
from fieldjudge.store.anchors import heads_path, parse_heads
from fieldjudge.store.keys import LaptopKeys
from tests.test_tamper import run_verify


@pytest.fixture
def played(tmp_path: Path) -> tuple[Path, str, dict[str, bytes]]:
    """A demo folder where a scheduled game got two manifest steps; returns the folder,
    the game and the game file and manifest as they were after the first step."""
    folder = tmp_path / "data" / "demo"
    copy_demo(folder, date(2026, 6, 1))
    t = open_tournament(folder, startup_backup=False)
    gid = next(g["id"] for g in t.games() if not t.store.game_path(g["id"]).exists())
    t.append_game_event(gid, "note", {"text": "first"})
    t.record_step(gid, "first step")
    lid = t.keys.laptop_id
    early = {
        "game": t.store.game_path(gid).read_bytes(),
        "heads": heads_path(folder, lid).read_bytes(),
    }
    t.append_game_event(gid, "note", {"text": "second"})
    t.append_game_event(gid, "note", {"text": "third"})
    t.record_step(gid, "second step")
    t.close()
    return folder, gid, early


def _roll_back(folder: Path, gid: str, early: dict[str, bytes]) -> None:
    """What someone with a text editor does: the newest manifest lines and the game's
    newest events deleted together (the file ends where it ended after the first step)."""
    lid = LaptopKeys.load_or_create().laptop_id
    (folder / "games" / f"{gid}.json").write_bytes(early["game"])
    heads_path(folder, lid).write_bytes(early["heads"])


def test_the_demo_verifies_clean_with_chained_lines(played) -> None:
    folder, _gid, _early = played
    out = run_verify(folder)
    assert out.returncode == 0, out.stdout + out.stderr
    lid = LaptopKeys.load_or_create().laptop_id
    rows = [doc for _n, doc in parse_heads(heads_path(folder, lid).read_bytes()) if doc]
    assert [r["line"] for r in rows] == list(range(1, len(rows) + 1))


def test_a_rolled_back_manifest_fails_verify_on_the_laptop_that_wrote_it(played) -> None:
    """Issue 21 (4): the rollback passed ``verify`` and the app, even on this laptop."""
    folder, gid, early = played
    _roll_back(folder, gid, early)
    out = run_verify(folder)
    text = out.stdout + out.stderr
    assert out.returncode != 0, text
    assert "heads.jsonl" in text and "shortened" in text, text


def test_the_app_refuses_the_rolled_back_game_on_the_laptop_that_wrote_it(played) -> None:
    folder, gid, early = played
    _roll_back(folder, gid, early)
    t = open_tournament(folder, startup_backup=False)
    try:
        assert t.anchor(gid) is not None and t.anchor(gid)[0] == 3  # the cache's head
        with pytest.raises(DamagedFile):
            t.game_log(gid, create=False)
    finally:
        t.close()


def test_a_line_removed_from_the_middle_is_a_fault_on_any_laptop(played) -> None:
    """Without this laptop's cache (another laptop, a copy): the chain still shows it."""
    folder, _gid, _early = played
    shutil.rmtree(folder / ".cache")
    lid = LaptopKeys.load_or_create().laptop_id
    path = heads_path(folder, lid)
    lines = path.read_bytes().splitlines(keepends=True)
    assert len(lines) >= 2
    path.write_bytes(b"".join(lines[:-2] + lines[-1:]))
    out = run_verify(folder)
    text = out.stdout + out.stderr
    assert out.returncode != 0, text
    assert "the chain is broken" in text, text


def test_legacy_lines_are_read_as_they_are_and_new_lines_chain_from_them(
    tmp_path: Path,
) -> None:
    """A manifest written before the chain (lines signed without ``line``/``prev``)."""
    folder = tmp_path / "data" / "demo"
    copy_demo(folder, date(2026, 6, 1))
    keys = LaptopKeys.load_or_create()
    path = heads_path(folder, keys.laptop_id)
    legacy = []
    for _n, doc in parse_heads(path.read_bytes()):
        assert doc is not None
        doc = {k: v for k, v in doc.items() if k not in ("line", "prev")}
        doc["sig"] = keys.sign(
            identity.head_message(doc["kind"], doc["id"], doc["count"], doc["hash"])
        )
        legacy.append(orjson.dumps(doc) + b"\n")
    path.write_bytes(b"".join(legacy))
    shutil.rmtree(folder / ".cache")
    assert run_verify(folder).returncode == 0
    t = open_tournament(folder, startup_backup=False)
    gid = next(g["id"] for g in t.games() if not t.store.game_path(g["id"]).exists())
    t.append_game_event(gid, "note", {"text": "after the upgrade"})
    t.record_step(gid, "step")
    t.close()
    rows = [doc for _n, doc in parse_heads(path.read_bytes()) if doc]
    assert rows[-1]["line"] == len(legacy) + 1
    out = run_verify(folder)
    assert out.returncode == 0, out.stdout + out.stderr
    # a legacy-looking line after a chained one was inserted
    path.write_bytes(path.read_bytes() + legacy[0])
    out = run_verify(folder)
    assert out.returncode != 0
    assert "without the chain after chained lines" in out.stdout + out.stderr
