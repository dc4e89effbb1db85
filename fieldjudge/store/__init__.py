"""The only code that touches TinyDB and the file system (DESIGN.md "Storage")."""

from fieldjudge.store.errors import DamagedFile, FolderLocked, Refused, StoreError, WriterConflict
from fieldjudge.store.eventlog import HANDOVER, EventLog
from fieldjudge.store.tournament import Tournament, slugify

__all__ = [
    "DamagedFile",
    "EventLog",
    "HANDOVER",
    "FolderLocked",
    "Refused",
    "StoreError",
    "Tournament",
    "WriterConflict",
    "slugify",
]
