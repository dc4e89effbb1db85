"""A damaged file (bad JSON, broken chain, unknown schema): the newest good backup to offer,
and restoring it on the judge's request (DESIGN.md "Storage": never silently repaired)."""

from __future__ import annotations

from pathlib import Path

from fieldjudge.store.backup import newest_good_backup, restore
from fieldjudge.store.validate import validate_file


def good_backup(folder: Path, damaged: Path) -> Path | None:
    """The newest backup of ``damaged`` that opens cleanly, or None."""
    return newest_good_backup(Path(folder), Path(damaged), validate_file)


def restore_backup(folder: Path, damaged: Path, backup: Path) -> Path:
    """Move the damaged file aside to ``damaged/`` (kept) and put ``backup`` in its place.
    Returns where the damaged file now is."""
    return restore(Path(folder), Path(damaged), Path(backup))
