"""One app per folder: a local lock file in ``.cache/`` (never shared by folder sync).

An OS lock on every platform, so a second fieldjudge gets the same refusal everywhere: on
Linux and macOS an exclusive ``fcntl.flock`` on the lock file, taken here (the lock
``filelock`` takes there, and the one the game files' writers take in ``storage.py``); on
Windows, and where the file
system refuses ``flock`` (some network mounts), ``filelock`` (``msvcrt.locking``, or its
soft lock). The holder (pid and host) is written to a separate file beside the lock,
which the refused instance can read on every OS (Windows forbids reading the locked file
itself)."""

from __future__ import annotations

import errno
import os
import socket
from pathlib import Path

from filelock import FileLock, Timeout

from fieldjudge.store.errors import FolderLocked

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

#: what ``flock`` answers when another process holds the lock
_HELD_ELSEWHERE = frozenset({errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES})


class FolderLock:
    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / ".cache" / "lock"
        self.holder_path = self.folder / ".cache" / "lock.holder"
        self._fd: int | None = None  # the flock'd descriptor (Linux, macOS)
        self._lock: FileLock | None = None  # where flock is refused (Windows, some mounts)

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self._take():
            try:
                holder = self.holder_path.read_text(encoding="utf-8").strip()
            except OSError:
                holder = ""
            raise FolderLocked(self.folder, holder or "unknown")
        self.holder_path.write_text(
            f"pid {os.getpid()} on {socket.gethostname()}", encoding="utf-8"
        )

    def _take(self) -> bool:
        """True when this process holds the lock now, False when another one holds it."""
        if self.held:
            return True
        if fcntl is not None and self._lock is None:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                os.close(fd)
                if exc.errno in _HELD_ELSEWHERE:
                    return False
                # flock refused by this file system: filelock's fallbacks below
            else:
                self._fd = fd
                return True
        if self._lock is None:
            self._lock = FileLock(self.path, timeout=0, is_singleton=False)
        try:
            self._lock.acquire(timeout=0)
        except Timeout:
            return False
        return True

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing the descriptor drops the flock
        if self._lock is not None and self._lock.is_locked:
            self._lock.release(force=True)

    @property
    def held(self) -> bool:
        return self._fd is not None or (self._lock is not None and self._lock.is_locked)
