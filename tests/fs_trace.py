"""A file-system shim for the power-loss test (issue 21, 8; DESIGN.md "Testing").

:func:`record` runs an operation of the store with ``os.open/write/ftruncate/fsync/close/
replace/rename/unlink/remove/mkdir`` wrapped: every call on a path below ``root`` is
recorded as an abstract step (the real call still happens, so the operation runs as
usual). :func:`crash_states` then builds every state a power cut could leave, POSIX-style:

* a step is *durable* once a later step of the prefix syncs it: the content of a file
  (a write, a truncation) by an fsync of that file; a directory entry (a file created, a
  folder made, a rename, an unlink) by an fsync of the folder holding it (both folders for
  a rename between two);
* any subset of the steps not yet durable may have reached the disk, in any order (applied
  here in their order: an entry a step of the subset needs that did not reach the disk
  makes that step a no-op); a write that did not reach it may have reached it half
  (a torn write), so a write has three outcomes: none, half, all.

Each distinct state is written into a fresh folder for the test to open.
"""

from __future__ import annotations

import fcntl
import hashlib
import itertools
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: at most this many unsynced steps are combined exhaustively at one prefix
MAX_UNSYNCED = 9


@dataclass(frozen=True)
class Step:
    op: str  # mkdir, create, write, truncate, fsync, fsync_dir, rename, unlink
    path: str = ""  # relative to the root (create, mkdir, unlink, fsync_dir, rename source)
    dst: str = ""  # rename target
    inode: int = -1  # write, truncate, fsync, create
    offset: int = 0
    data: bytes = b""
    size: int = 0


@dataclass
class Model:
    dirs: set[str] = field(default_factory=set)
    names: dict[str, int] = field(default_factory=dict)  # path -> inode
    inodes: dict[int, bytearray] = field(default_factory=dict)

    def copy(self) -> Model:
        return Model(
            set(self.dirs),
            dict(self.names),
            {k: bytearray(v) for k, v in self.inodes.items()},
        )

    def apply(self, s: Step, torn: bool = False) -> None:
        parent = os.path.dirname(s.path)
        if s.op == "mkdir":
            if parent in self.dirs or parent == "":
                self.dirs.add(s.path)
        elif s.op == "create":
            if parent in self.dirs or parent == "":
                self.names[s.path] = s.inode
                self.inodes.setdefault(s.inode, bytearray())
        elif s.op == "write":
            buf = self.inodes.setdefault(s.inode, bytearray())
            data = s.data[: max(1, len(s.data) // 2)] if torn else s.data
            if len(buf) < s.offset:
                buf.extend(b"\0" * (s.offset - len(buf)))
            buf[s.offset : s.offset + len(data)] = data
        elif s.op == "truncate":
            buf = self.inodes.setdefault(s.inode, bytearray())
            del buf[s.size :]
            if len(buf) < s.size:
                buf.extend(b"\0" * (s.size - len(buf)))
        elif s.op == "rename":
            inode = self.names.get(s.path)
            if inode is not None and os.path.dirname(s.dst) in self.dirs | {""}:
                del self.names[s.path]
                self.names[s.dst] = inode
        elif s.op == "unlink":
            self.names.pop(s.path, None)

    def key(self) -> str:
        h = hashlib.sha256()
        for d in sorted(self.dirs):
            h.update(b"D" + d.encode() + b"\0")
        for p in sorted(self.visible()):
            h.update(b"F" + p.encode() + b"\0" + hashlib.sha256(self.file(p)).digest())
        return h.hexdigest()

    def reachable(self, path: str) -> bool:
        parent = os.path.dirname(path)
        while parent:
            if parent not in self.dirs:
                return False
            parent = os.path.dirname(parent)
        return True

    def visible(self) -> list[str]:
        return [p for p in self.names if self.reachable(p)]

    def file(self, path: str) -> bytes:
        return bytes(self.inodes.get(self.names[path], b""))

    def write_to(self, folder: Path) -> None:
        folder.mkdir(parents=True)
        for d in sorted(self.dirs, key=len):
            if self.reachable(d):
                (folder / d).mkdir(exist_ok=True)
        for p in self.visible():
            (folder / p).write_bytes(self.file(p))


def snapshot(root: Path) -> Model:
    m = Model()
    n = 0
    for dirpath, _dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        rel = "" if rel == "." else rel
        if rel:
            m.dirs.add(rel)
        for f in filenames:
            n += 1
            path = os.path.join(rel, f)
            m.names[path] = n
            m.inodes[n] = bytearray((Path(dirpath) / f).read_bytes())
    return m


class Recorder:
    def __init__(self, root: Path) -> None:
        self.root = os.path.realpath(root)
        self.base = snapshot(Path(self.root))
        self.live = self.base.copy()  # the model as the calls go, for offsets and inodes
        self.next_inode = max(self.live.inodes, default=0) + 1
        self.steps: list[Step] = []
        self.fds: dict[int, tuple[str, int | None, bool]] = {}  # fd -> (path, inode, append)
        self.offsets: dict[int, int] = {}

    def rel(self, path: Any) -> str | None:
        full = os.path.realpath(os.fspath(path))
        if full == self.root:
            return ""
        if full.startswith(self.root + os.sep):
            return full[len(self.root) + 1 :]
        return None

    def add(self, step: Step) -> None:
        self.steps.append(step)
        self.live.apply(step)


@contextmanager
def record(root: Path) -> Iterator[Recorder]:
    """Record the store's file-system calls below ``root`` while the block runs."""
    rec = Recorder(root)
    real = {
        name: getattr(os, name)
        for name in (
            "open",
            "write",
            "ftruncate",
            "fsync",
            "close",
            "replace",
            "rename",
            "unlink",
            "remove",
            "mkdir",
        )
    }

    def _open(path, flags, mode=0o777, *, dir_fd=None):
        rel = rec.rel(path)
        existed = os.path.exists(path)
        fd = real["open"](path, flags, mode, dir_fd=dir_fd)
        if rel is None:
            return fd
        if os.path.isdir(path):
            rec.fds[fd] = (rel, None, False)
            return fd
        if not existed and flags & os.O_CREAT:
            inode = rec.next_inode
            rec.next_inode += 1
            rec.add(Step("create", path=rel, inode=inode))
        inode = rec.live.names.get(rel)
        if inode is None:  # opened below root but not known (e.g. the lock): not tracked
            return fd
        if flags & os.O_TRUNC:
            rec.add(Step("truncate", inode=inode, size=0))
        rec.fds[fd] = (rel, inode, bool(flags & os.O_APPEND))
        rec.offsets[fd] = 0
        return fd

    def _known(fd: int) -> None:
        """A file opened before the recording began (an open log): found by its path."""
        if fd in rec.fds:
            return
        try:
            path = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            return
        rel = rec.rel(path)
        if rel is None:
            return
        if os.path.isdir(path):
            rec.fds[fd] = (rel, None, False)
            return
        inode = rec.live.names.get(rel)
        if inode is None:
            return
        append = bool(fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_APPEND)
        rec.fds[fd] = (rel, inode, append)
        rec.offsets[fd] = os.lseek(fd, 0, os.SEEK_CUR)

    def _write(fd, data):
        _known(fd)
        n = real["write"](fd, data)
        if fd in rec.fds and rec.fds[fd][1] is not None:
            _rel, inode, append = rec.fds[fd]
            assert inode is not None
            offset = len(rec.live.inodes[inode]) if append else rec.offsets[fd]
            rec.add(Step("write", inode=inode, offset=offset, data=bytes(data[:n])))
            rec.offsets[fd] = offset + n
        return n

    def _ftruncate(fd, size):
        _known(fd)
        real["ftruncate"](fd, size)
        if fd in rec.fds and rec.fds[fd][1] is not None:
            rec.add(Step("truncate", inode=rec.fds[fd][1], size=size))

    def _fsync(fd):
        _known(fd)
        real["fsync"](fd)
        if fd in rec.fds:
            rel, inode, _append = rec.fds[fd]
            if inode is None:
                rec.add(Step("fsync_dir", path=rel))
            else:
                rec.add(Step("fsync", inode=inode))

    def _close(fd):
        rec.fds.pop(fd, None)
        rec.offsets.pop(fd, None)
        real["close"](fd)

    def _rename(which):
        def go(src, dst, **kw):
            real[which](src, dst, **kw)
            a, b = rec.rel(src), rec.rel(dst)
            if a is not None and b is not None:
                rec.add(Step("rename", path=a, dst=b))

        return go

    def _unlink(which):
        def go(path, **kw):
            real[which](path, **kw)
            rel = rec.rel(path)
            if rel is not None:
                rec.add(Step("unlink", path=rel))

        return go

    def _mkdir(path, mode=0o777, **kw):
        real["mkdir"](path, mode, **kw)
        rel = rec.rel(path)
        if rel is not None:
            rec.add(Step("mkdir", path=rel))

    patched = {
        "open": _open,
        "write": _write,
        "ftruncate": _ftruncate,
        "fsync": _fsync,
        "close": _close,
        "replace": _rename("replace"),
        "rename": _rename("rename"),
        "unlink": _unlink("unlink"),
        "remove": _unlink("remove"),
        "mkdir": _mkdir,
    }
    for name, fn in patched.items():
        setattr(os, name, fn)
    try:
        yield rec
    finally:
        for name, fn in real.items():
            setattr(os, name, fn)


def _durable(steps: list[Step], i: int) -> bool:
    s = steps[i]
    later = steps[i + 1 :]
    if s.op in ("write", "truncate"):
        return any(t.op == "fsync" and t.inode == s.inode for t in later)
    if s.op in ("create", "mkdir", "unlink"):
        parent = os.path.dirname(s.path)
        return any(t.op == "fsync_dir" and t.path == parent for t in later)
    if s.op == "rename":
        dirs = {os.path.dirname(s.path), os.path.dirname(s.dst)}
        return all(any(t.op == "fsync_dir" and t.path == d for t in later) for d in dirs)
    return True  # fsyncs themselves change nothing on disk


def crash_states(rec: Recorder) -> Iterator[tuple[int, Model]]:
    """``(prefix length, state)`` of every distinct state a power cut could leave, first
    seen at that prefix (the full prefix last: what remains after the call returned)."""
    seen: set[str] = set()
    steps = rec.steps
    for k in range(len(steps) + 1):
        prefix = steps[:k]
        unsynced = [i for i in range(k) if prefix[i].op not in ("fsync", "fsync_dir")]
        unsynced = [i for i in unsynced if not _durable(prefix, i)]
        if len(unsynced) > MAX_UNSYNCED:
            raise AssertionError(f"{len(unsynced)} unsynced steps at prefix {k}: too many")
        choices = [(0, 1, 2) if prefix[i].op == "write" else (0, 1) for i in unsynced]
        for pick in itertools.product(*choices):
            chosen = dict(zip(unsynced, pick, strict=True))
            m = rec.base.copy()
            for i, s in enumerate(prefix):
                how = chosen.get(i, 1)
                if how:
                    m.apply(s, torn=how == 2)
            key = m.key()
            if key in seen and k < len(steps):
                continue
            seen.add(key)
            yield k, m


def check_all(
    rec: Recorder, into: Path, verdict: Callable[[Path, bool], str]
) -> tuple[int, list[str]]:
    """Open every crash state with ``verdict(folder, acknowledged)``; returns the number of
    states checked and the bad verdicts. ``verdict`` returns "" for a good state, else
    what is wrong; ``acknowledged`` is True for the states left after the call returned."""
    bad = []
    n = 0
    final: set[str] = set()
    for k, m in crash_states(rec):
        acknowledged = k == len(rec.steps)
        key = m.key()
        if acknowledged:
            if key in final:
                continue
            final.add(key)
        n += 1
        folder = into / f"s{n}"
        m.write_to(folder)
        try:
            why = verdict(folder, acknowledged)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if why:
            bad.append(f"prefix {k}/{len(rec.steps)}: {why}")
    return n, bad
