"""The only code that touches TinyDB and the file system (DESIGN.md "Storage")."""

from fieldjudge.store.errors import (
    DamagedFile,
    FolderLocked,
    NotTheWriter,
    Refused,
    StoreError,
    WriteKey,
    WriterConflict,
)
from fieldjudge.store.eventlog import HANDOVER, EventLog
from fieldjudge.store.tournament import Tournament, TournamentFiles, slugify

__all__ = [
    "DamagedFile",
    "EventLog",
    "HANDOVER",
    "FolderLocked",
    "NotTheWriter",
    "Refused",
    "StoreError",
    "Tournament",
    "TournamentFiles",
    "WriteKey",
    "WriterConflict",
    "slugify",
]
