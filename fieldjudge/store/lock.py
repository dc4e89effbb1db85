"""One app per folder: a local lock file in ``.cache/`` (never shared by folder sync).

``filelock`` takes an OS lock on every platform (``fcntl.flock`` on Linux and macOS,
``msvcrt.locking`` on Windows), so a second fieldjudge gets the same refusal everywhere.
The holder (pid and host) is written to a separate file beside the lock, which the
refused instance can read on every OS (Windows forbids reading the locked file itself)."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import TYPE_CHECKING

from fieldjudge.store.errors import FolderLocked

if TYPE_CHECKING:
    from filelock import FileLock


class FolderLock:
    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / ".cache" / "lock"
        self.holder_path = self.folder / ".cache" / "lock.holder"
        # made when first acquired: a read-only command (an export) never imports filelock
        self._lock: FileLock | None = None

    def acquire(self) -> None:
        from filelock import FileLock, Timeout

        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self._lock is None:
            self._lock = FileLock(self.path, timeout=0, is_singleton=False)
        try:
            self._lock.acquire(timeout=0)
        except Timeout:
            try:
                holder = self.holder_path.read_text(encoding="utf-8").strip()
            except OSError:
                holder = ""
            raise FolderLocked(self.folder, holder or "unknown") from None
        self.holder_path.write_text(
            f"pid {os.getpid()} on {socket.gethostname()}", encoding="utf-8"
        )

    def release(self) -> None:
        if self._lock is not None and self._lock.is_locked:
            self._lock.release(force=True)

    @property
    def held(self) -> bool:
        return self._lock is not None and self._lock.is_locked
