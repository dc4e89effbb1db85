"""One app per folder: a local lock file in ``.cache/`` (never shared by folder sync)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

from fieldjudge.store.errors import FolderLocked

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class FolderLock:
    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / ".cache" / "lock"
        self._fd: int | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.read(fd, 200).decode("utf-8", "replace").strip() or "unknown"
                os.close(fd)
                raise FolderLocked(self.folder, holder) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"pid {os.getpid()} on {socket.gethostname()}".encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None
