"""A damaged file (bad JSON, broken chain, unknown schema, truncated or missing against the
manifest): the newest good backup to offer, and restoring it on the judge's request
(DESIGN.md "Storage": never silently repaired)."""

from __future__ import annotations

from pathlib import Path

from fieldjudge.rules.events import Event
from fieldjudge.store import DamagedFile
from fieldjudge.store.backup import newest_good_backup, restore
from fieldjudge.store.schema import sorted_event_docs
from fieldjudge.store.tournament import anchor_fault
from fieldjudge.store.validate import validate_file


def good_backup(folder: Path, damaged: Path, anchor: tuple[int, str] | None = None) -> Path | None:
    """The newest backup of ``damaged`` that opens cleanly and, given the manifest's head
    ``anchor`` (count, hash), reaches it; else the newest that opens cleanly, or None."""

    def reaches(path: Path) -> None:
        data = validate_file(path)
        events = [Event.from_doc(d) for d in sorted_event_docs(data)]
        fault = anchor_fault(events, anchor)
        if fault:
            raise DamagedFile(path, fault)

    if anchor is not None:
        found = newest_good_backup(Path(folder), Path(damaged), reaches)
        if found is not None:
            return found
    return newest_good_backup(Path(folder), Path(damaged), validate_file)


def restore_backup(folder: Path, damaged: Path, backup: Path) -> Path:
    """Move the damaged file aside to ``damaged/`` (kept) and put ``backup`` in its place.
    Returns where the damaged file now is."""
    return restore(Path(folder), Path(damaged), Path(backup))
