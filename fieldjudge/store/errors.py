"""Errors the store raises; each names the file and what is wrong with it."""

from __future__ import annotations

from pathlib import Path


class StoreError(Exception):
    """Base class: a store problem the app shows to the judge as a message."""


class DamagedFile(StoreError):
    """A file that is not JSON, has a broken chain or an unknown schema version.

    Never overwritten: the app names it and offers the newest good backup.
    """

    def __init__(self, path: Path, fault: str) -> None:
        self.path = Path(path)
        self.fault = fault
        super().__init__(f"{self.path.name}: {fault}")


class FolderLocked(StoreError):
    """Another fieldjudge instance on this machine is writing the same folder."""

    def __init__(self, folder: Path, holder: str) -> None:
        self.folder = Path(folder)
        self.holder = holder
        super().__init__(f"{self.folder} is open in another fieldjudge ({holder})")


class Refused(StoreError):
    """An action refused by a rule (the message cites the section)."""


class WriterConflict(StoreError):
    """Someone else writes (or replaced) this file: appending now would lose events."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"{self.path.name}: {reason}")
