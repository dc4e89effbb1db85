"""The only code that touches TinyDB and the file system (DESIGN.md "Storage")."""

from fieldjudge.store.errors import (
    DamagedFile,
    FolderLocked,
    NotTheWriter,
    Refused,
    StoreError,
    WriteKey,
)
from fieldjudge.store.eventlog import EventLog
from fieldjudge.store.tournament import Tournament, slugify

__all__ = [
    "DamagedFile",
    "EventLog",
    "FolderLocked",
    "NotTheWriter",
    "Refused",
    "StoreError",
    "Tournament",
    "WriteKey",
    "slugify",
]
