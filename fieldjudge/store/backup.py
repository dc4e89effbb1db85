"""Rotating backups in ``backups/<file stem>/<stamp>.json`` and restoring from them.

A copy is made at startup (of files changed since their newest copy) and when a game is
closed. At most ``keep`` copies per file are kept. A copy is written atomically (a kill
leaves a temp file that opening the folder removes) and only of a file that validates: a
damaged file never takes a slot from a good copy.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

from fieldjudge.store.errors import DamagedFile
from fieldjudge.store.storage import (
    atomic_write_bytes,
    copy_checked,
    copy_durably,
    make_dirs,
    read_file_bytes,
)
from fieldjudge.store.validate import check_file, validate_bytes

DEFAULT_KEEP = 10


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")


def backup_dir(folder: Path, file: Path) -> Path:
    rel = Path(file).relative_to(folder)
    name = "__".join(rel.with_suffix("").parts)
    return Path(folder) / "backups" / name


def backups_of(folder: Path, file: Path) -> list[Path]:
    """Newest first."""
    d = backup_dir(folder, file)
    if not d.is_dir():
        return []
    return sorted(d.glob("*.json"), reverse=True)


def make_backup(folder: Path, file: Path, keep: int = DEFAULT_KEEP, only_if_changed=False):
    """Copy ``file`` into its backup folder; None if it is missing, unchanged since its
    newest copy, or damaged (the bytes copied are the bytes validated)."""
    file = Path(file)
    if not file.exists():
        return None
    existing = backups_of(folder, file)
    # Compared by content: two writes within one tick of the file system's clock share
    # an mtime, so "newer than the copy" cannot be told from timestamps.
    # (block by block, and only when the sizes match: neither file is ever in memory whole,
    # nor its tables, at the start's peak for a long game, issue 24)
    try:
        if only_if_changed and existing and _same_content(existing[0], file):
            return None
    except OSError:
        return None  # unreadable now: nothing to copy
    d = backup_dir(folder, file)
    make_dirs(d)
    target = d / f"{_stamp()}.json"
    # The copy is checked, not the file: the bytes kept are the bytes validated.
    if not copy_checked(file, target, check_file):
        return None
    for old in backups_of(folder, file)[keep:]:
        old.unlink(missing_ok=True)
    return target


def _same_content(a: Path, b: Path) -> bool:
    with open(a, "rb") as fa, open(b, "rb") as fb:
        if os.fstat(fa.fileno()).st_size != os.fstat(fb.fileno()).st_size:
            return False
        while True:
            block = fa.read(_BLOCK)
            if block != fb.read(_BLOCK):
                return False
            if not block:
                return True


_BLOCK = 1 << 16


def newest_good_backup(folder: Path, file: Path, validate) -> Path | None:
    """The newest backup that ``validate(path)`` accepts (raises DamagedFile otherwise)."""
    for candidate in backups_of(folder, file):
        try:
            validate(candidate)
        except DamagedFile:
            continue
        return candidate
    return None


def restore(folder: Path, damaged: Path, backup: Path) -> Path:
    """Move the damaged file aside to ``damaged/`` (kept, never deleted) and put the backup
    in its place. Returns where the damaged file now is. Only on the judge's request."""
    damaged = Path(damaged)
    aside_dir = Path(folder) / "damaged"
    raw = read_file_bytes(backup)
    validate_bytes(raw, backup)  # refuse to restore garbage
    make_dirs(aside_dir)
    aside = aside_dir / f"{damaged.name}.{_stamp()}"
    if damaged.exists():
        # a durable copy aside first, then the backup renamed over the damaged file: at no
        # moment is the game file missing (a missing file with no manifest line would
        # read as "scheduled")
        copy_durably(damaged, aside)
    atomic_write_bytes(damaged, raw)
    return aside
