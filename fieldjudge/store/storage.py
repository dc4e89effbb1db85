"""A crash-safe TinyDB storage (DESIGN.md "Storage").

Every write: serialise with orjson -> write a temp file in the same folder -> fsync it ->
``os.replace`` it over the old file -> fsync the folder. A kill at any instant leaves the
old or the new file, never a broken one; stray temp files are removed by
:func:`clean_temp_files` when a folder is opened. Reads are served from memory.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import orjson
from tinydb.storages import Storage

from fieldjudge.store.errors import DamagedFile

TEMP_MARK = ".fj-tmp-"
# Test hook (DESIGN.md "Testing"): when set, the process writes one byte to this file
# descriptor just before each durable write, so a crash test can kill it inside the write.
_HOOK_FD = os.environ.get("FIELDJUDGE_TEST_WRITE_SIGNAL_FD")


def fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - Windows cannot open folders
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, payload: bytes) -> None:
    """Write ``payload`` to ``path`` so that a crash leaves the old or the new content."""
    path = Path(path)
    tmp = path.with_name(f"{path.name}{TEMP_MARK}{secrets.token_hex(4)}")
    if _HOOK_FD:
        os.write(int(_HOOK_FD), b"w")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        view = memoryview(payload)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    os.close(fd)
    os.replace(tmp, path)
    fsync_dir(path.parent)


def clean_temp_files(folder: Path) -> list[Path]:
    """Remove temp files left by a write that was killed before its ``os.replace``."""
    removed = []
    for p in Path(folder).glob(f"*{TEMP_MARK}*"):
        try:
            p.unlink()
            removed.append(p)
        except OSError:
            pass
    return removed


def load_json_file(path: Path) -> Any:
    """Parse a JSON file or raise :class:`DamagedFile` naming the fault."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise DamagedFile(path, f"cannot be read: {exc.strerror or exc}") from exc
    if not raw.strip():
        return None
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise DamagedFile(path, f"not valid JSON ({exc})") from exc


class AtomicJSONStorage(Storage):
    """TinyDB storage with atomic, fsync'd writes and an in-memory read cache."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = Path(path)
        self._cache: dict[str, dict[str, Any]] | None = None
        if not self.path.exists():
            if not create:
                raise DamagedFile(self.path, "file does not exist")
            self.path.parent.mkdir(parents=True, exist_ok=True)

    def read(self) -> dict[str, dict[str, Any]] | None:
        if self._cache is None:
            if not self.path.exists():
                return None
            data = load_json_file(self.path)
            if data is not None and not isinstance(data, dict):
                raise DamagedFile(self.path, "top level is not a JSON object")
            self._cache = data
        return self._cache

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        try:
            atomic_write_bytes(self.path, orjson.dumps(data))
        except BaseException:
            # TinyDB mutated the cached tables before calling us: forget them, so the
            # next read shows what is really on disk.
            self._cache = None
            raise
        self._cache = data

    def close(self) -> None:
        self._cache = None
