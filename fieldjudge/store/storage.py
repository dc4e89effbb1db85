"""A crash-safe TinyDB storage (DESIGN.md "Storage").

Every write: serialise with orjson -> write a temp file in the same folder -> fsync it ->
``os.replace`` it over the old file -> fsync the folder. A kill at any instant leaves the
old or the new file, never a broken one; stray temp files are removed by
:func:`clean_temp_files` when a folder is opened. Reads are served from memory.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import secrets
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import orjson
from tinydb.storages import Storage

from fieldjudge.rules.os_errors import os_error_of
from fieldjudge.store import lines
from fieldjudge.store.errors import DamagedFile, WriterConflict

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

TEMP_MARK = ".fj-tmp-"
# Test hook (DESIGN.md "Testing"): when set, the process writes one byte to this file
# descriptor just before each durable write, so a crash test can kill it inside the write.
# The byte names the write: a = line append, t = trim of a cut-off line, c = compaction,
# b = backup copy, r = any other atomic rewrite.
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


def make_dirs(folder: Path, mode: int = 0o777) -> Path:
    """``mkdir -p`` that survives a power cut: each folder it creates is made durable by an
    fsync of its parent (a new folder's entry lives in the parent, so without it a file
    fsync'd inside can vanish with its folder). Every folder the store creates goes
    through here."""
    folder = Path(folder)
    missing = []
    p = folder
    while not p.is_dir():
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    for d in reversed(missing):
        try:
            d.mkdir(mode=mode)
        except FileExistsError:
            if not d.is_dir():
                raise
            continue
        fsync_dir(d.parent)
    return folder


def move_durably(src: Path, dst: Path) -> None:
    """Move ``src`` to ``dst`` (a rename within one file system) and fsync both folders,
    so after a power cut the file is in exactly one of them and never lost."""
    src, dst = Path(src), Path(dst)
    os.replace(src, dst)
    fsync_dir(dst.parent)
    if src.parent != dst.parent:
        fsync_dir(src.parent)


def remove_durably(path: Path) -> None:
    """Remove ``path`` and fsync its folder: after a power cut the file is gone for good
    (an unlink lives in the folder's entry; without the fsync the file can come back)."""
    path = Path(path)
    path.unlink()
    fsync_dir(path.parent)


def copy_durably(src: Path, dst: Path) -> None:
    """Copy ``src`` to ``dst`` atomically and durably (temp file, fsync, rename, fsync)."""
    atomic_write_bytes(Path(dst), Path(src).read_bytes(), tag=b"b")


def copy_checked(src: Path, dst: Path, check: Callable[[Path], None]) -> bool:
    """Copy ``src`` to ``dst`` a block at a time (never the whole file in memory), as
    :func:`atomic_write_bytes` writes (temp file, fsync, rename, fsync folder), if
    ``check`` (raising :class:`DamagedFile`) accepts the copy before its rename: the bytes
    kept are the bytes checked. False, and nothing left behind, if it refuses them or
    ``src`` cannot be read."""
    dst = Path(dst)
    tmp = dst.with_name(f"{dst.name}{TEMP_MARK}{secrets.token_hex(4)}")
    try:
        source = open(src, "rb")  # noqa: SIM115 - closed below
    except OSError:
        return False
    with source:
        _signal_write(b"b")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            write_all(fd, iter(lambda: source.read(_READ_BUFFER), b""))
            os.fsync(fd)
        except BaseException:  # a failed write, as atomic_write_bytes's: raised
            os.close(fd)
            tmp.unlink(missing_ok=True)
            raise
    os.close(fd)
    try:
        check(tmp)
    except DamagedFile:
        tmp.unlink(missing_ok=True)
        return False
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    os.replace(tmp, dst)
    fsync_dir(dst.parent)
    return True


def _signal_write(tag: bytes) -> None:
    if _HOOK_FD:
        os.write(int(_HOOK_FD), tag)


def write_all(fd: int, payload: bytes | Iterable[bytes | memoryview]) -> None:
    """Write all of ``payload`` (bytes, or parts one after the other, e.g. made as they
    are written) to ``fd``."""
    if isinstance(payload, bytes):  # one line: written whole at once, as a rule
        written = os.write(fd, payload)
        if written == len(payload):
            return
        payload = [memoryview(payload)[written:]]
    for part in payload:
        view = memoryview(part)
        while view:
            written = os.write(fd, view)
            view = view[written:]


def append_line(path: Path, line: bytes) -> None:
    """Append ``line`` (and a newline) to a line file durably (fsync'd before returning,
    a new file's folder entry too). A torn last line a power cut left is cut off first:
    it was never acknowledged."""
    make_dirs(path.parent)
    created = not path.exists()
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        _trim_torn_tail(fd)
        write_all(fd, line + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    if created:
        fsync_dir(path.parent)


def _trim_torn_tail(fd: int) -> None:
    size = os.lseek(fd, 0, os.SEEK_END)
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return
    # a torn last line: find the end of the last complete one
    pos = size
    while pos > 0:
        start = max(0, pos - 4096)
        chunk = os.pread(fd, pos - start, start)
        nl = chunk.rfind(b"\n")
        if nl >= 0:
            os.ftruncate(fd, start + nl + 1)
            return
        pos = start
    os.ftruncate(fd, 0)


def atomic_write_bytes(
    path: Path,
    payload: bytes | Iterable[bytes | memoryview],
    *,
    tag: bytes = b"r",
    durable: bool = True,
) -> None:
    """Write ``payload`` (bytes, or parts one after the other) to ``path`` so that a crash
    leaves the old or the new content.
    ``durable=False`` (a derived file, e.g. an export, rebuilt from the logs at any time):
    the same temp file and rename, so a killed process never leaves half a file, without
    the two fsyncs that make it survive a power cut."""
    path = Path(path)
    tmp = path.with_name(f"{path.name}{TEMP_MARK}{secrets.token_hex(4)}")
    _signal_write(tag)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        write_all(fd, payload)
        if durable:
            os.fsync(fd)
    except BaseException:
        os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    os.close(fd)
    os.replace(tmp, path)
    if durable:
        fsync_dir(path.parent)


def clean_temp_files(folder: Path, recursive: bool = False) -> list[Path]:
    """Remove temp files left by a write that was killed before its ``os.replace``."""
    removed = []
    pattern = f"*{TEMP_MARK}*"
    found = Path(folder).rglob(pattern) if recursive else Path(folder).glob(pattern)
    for p in found:
        try:
            p.unlink()
            removed.append(p)
        except OSError:
            pass
    return removed


def free_path(path: Path) -> Path:
    """``path`` if no file is there, else ``stem-2.ext``, ``stem-3.ext`` ..."""
    path = Path(path)
    if not path.exists():
        return path
    n = 2
    while True:
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
        if not candidate.exists():
            return candidate
        n += 1


def read_file_bytes(path: Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except FileNotFoundError as exc:
        raise DamagedFile(path, "missing: the file does not exist") from exc
    except OSError as exc:
        raise DamagedFile(path, "cannot be read: {error}", error=os_error_of(exc)) from exc


_READ_BUFFER = 1 << 16  # a file is read in blocks of 64 KiB, its lines parsed as they come


def read_lines_or_bytes(path: Path, take: lines.TakeEvents | None = None) -> lines.Replay | bytes:
    """A file's content: replayed line by line as it is read when it is in the line
    format (its bytes are never in memory whole beside its tables: an open's peak memory,
    issue 24), else its bytes (``tournament.json``, a schema 1 game file). ``take``: as
    :func:`lines.replay_lines`'s."""
    try:
        with open(path, "rb", buffering=_READ_BUFFER) as f:
            start = f.read(len(lines.HEADER_PREFIX))
            if start != lines.HEADER_PREFIX:
                return start + f.read()
            return lines.replay_lines(itertools.chain((start + f.readline(),), f), Path(path), take)
    except FileNotFoundError as exc:
        raise DamagedFile(path, "missing: the file does not exist") from exc
    except OSError as exc:
        raise DamagedFile(path, "cannot be read: {error}", error=os_error_of(exc)) from exc


def parse_file_bytes(raw: bytes, path: Path) -> Any:
    """Parse a file's content in either format: the line format (replayed into TinyDB's
    tables, see :mod:`fieldjudge.store.lines`) or one JSON object (``tournament.json``,
    exports, game files of schema 1). Raises :class:`DamagedFile` naming the fault."""
    if lines.is_lines(raw):
        rp = lines.replay(raw, path)
        lines.require_log_tables(rp.data, rp.schema, path)
        return rp.data
    if not raw.strip():
        raise DamagedFile(path, "empty file ({size} bytes)", size=len(raw))
    return json_document(raw, path)


def json_document(raw: bytes, path: Path) -> Any:
    """One JSON document of the file at ``path``; :class:`DamagedFile` naming the line and
    column where it stops being JSON (in the UI language, never the parser's words)."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise DamagedFile(
            path,
            "not valid JSON at line {line}, column {column}",
            line=exc.lineno,
            column=exc.colno,
        ) from exc


def load_json_file(path: Path) -> Any:
    """Parse a fieldjudge file (either format) or raise :class:`DamagedFile`."""
    return tables_of(read_lines_or_bytes(path), Path(path))


def tables_of(content: lines.Replay | bytes, path: Path) -> Any:
    """:func:`load_json_file` of what :func:`read_lines_or_bytes` read."""
    if isinstance(content, bytes):
        return parse_file_bytes(content, path)
    lines.require_log_tables(content.data, content.schema, path)
    return content.data


class AtomicJSONStorage(Storage):
    """TinyDB storage with atomic, fsync'd writes and an in-memory read cache."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = Path(path)
        self._cache: dict[str, dict[str, Any]] | None = None
        # inside :meth:`batch`: None, else whether a write is waiting for its end
        self._pending: bool | None = None
        #: called with the new content before it is written (tournament.json: the head
        #: judge's signature of the new content goes to disk first)
        self.before_write: Callable[[dict[str, Any]], None] | None = None
        if not self.path.exists():
            if not create:
                raise DamagedFile(self.path, "file does not exist")
            make_dirs(self.path.parent)

    def read(self) -> dict[str, dict[str, Any]] | None:
        if self._cache is None:
            if not self.path.exists():
                return None
            data = load_json_file(self.path)
            if data is not None and not isinstance(data, dict):
                raise DamagedFile(self.path, "top level is not a JSON object")
            self._cache = data
        return self._cache

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Every write made in the block (TinyDB's inserts, updates, removals of several
        tables) goes to disk as one atomic write at its end: all or nothing. An exception
        drops them all: the next read shows what is on disk."""
        if self._pending is not None:  # nested: part of the outer batch
            yield
            return
        self._pending = False
        try:
            yield
        except BaseException:
            self._cache = None
            raise
        finally:
            pending, self._pending = self._pending, None
        if pending and self._cache is not None:
            self.write(self._cache)

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        if self._pending is not None:
            self._cache, self._pending = data, True
            return
        try:
            if self.before_write is not None:
                self.before_write(data)
            atomic_write_bytes(self.path, orjson.dumps(data))
        except BaseException:
            # TinyDB mutated the cached tables before calling us: forget them, so the
            # next read shows what is really on disk.
            self._cache = None
            raise
        self._cache = data

    def close(self) -> None:
        self._cache = None


class LineStorage(Storage):
    """TinyDB storage of the line format: each write appends one fsync'd line.

    :meth:`append` is the constant-cost path (the event log uses it: one event plus the
    head record per line); :meth:`write` is TinyDB's interface and appends the documents
    that differ from what is on disk (it serialises every document to compare: O(file)).
    A table :meth:`lend` gave to its owner (the event log's events, which it holds as
    events) is not held here a second time.
    The first append takes an exclusive ``flock`` on the file and every append checks
    that nobody else changed or replaced the file since it was read
    (:class:`WriterConflict`), so two writers cannot silently lose each other's events.
    """

    compact_min_dead = 256  # never compact small files

    def __init__(self, path: str | Path, create: bool = False, schema: int = 0) -> None:
        self.path = Path(path)
        self._path_str = os.fspath(self.path)  # stat'ed before every append
        self._schema = schema
        self._cache: lines.Data | None = None
        self._end = 0  # offset after the last complete record
        self._size = 0  # size when read (a cut-off last line included)
        self._records = 0
        self._live = 0
        self._fd: int | None = None
        self._fd_file = (0, 0)  # the (device, inode) of the file ``_fd`` holds open
        self._broken: str | None = None
        self._written: dict[str, dict[str, bytes]] | None = None  # for write()'s diff
        # tables whose documents their owner holds: table -> how to get them back
        self._lent: dict[str, Callable[[], dict[str, Any]]] = {}
        if not create and not self.path.exists():
            raise DamagedFile(self.path, "missing: the file does not exist")

    # -- reading -------------------------------------------------------------------------
    def prime(self, rp: lines.Replay) -> None:
        """Take an already parsed file as the cache (saves a second read on open)."""
        self._cache = rp.data
        self._lent = {}
        self._schema = rp.schema
        self._end, self._size, self._records = rp.end, rp.size, rp.records
        self._live = sum(len(t) for t in rp.data.values()) + rp.taken
        self._written = None

    def read(self) -> lines.Data | None:
        """TinyDB's read: TinyDB changes the documents it gets in place before it calls
        :meth:`write`, so what is on disk is remembered (serialised) before handing them
        out; :meth:`data` is the read without that cost (the event log's)."""
        data = self.data()
        if data is not None and self._written is None:
            self._written = {
                t: {k: orjson.dumps(d) for k, d in docs.items()} for t, docs in data.items()
            }
        return data

    def data(self) -> lines.Data | None:
        """Every table, a lent one's documents asked from its owner (a new dict then)."""
        cache = self._held()
        if cache is None or not self._lent:
            return cache
        return {t: self._lent[t]() if t in self._lent else docs for t, docs in cache.items()}

    def _held(self) -> lines.Data | None:
        """The tables held here (a lent one empty), read from the file the first time."""
        if self._cache is None:
            try:
                raw = self.path.read_bytes()
            except FileNotFoundError:
                return None
            if not lines.is_lines(raw):
                raise DamagedFile(self.path, "not in the line format of game files")
            self.prime(lines.replay(raw, self.path))
        return self._cache

    def lend(self, table: str, docs: Callable[[], dict[str, Any]]) -> None:
        """Stop holding ``table``'s documents: their owner holds them (the event log, as
        its events) and gives them back through ``docs`` when the whole file is wanted
        (a compaction, TinyDB's read). Each document appended to it must be a new one
        (an event's number is) and none is deleted."""
        cache = self._held()
        if cache is None:
            raise DamagedFile(self.path, "missing: the file does not exist")
        cache[table] = {}
        self._lent[table] = docs

    # -- writing -------------------------------------------------------------------------
    def create_file(self, data: lines.Data, schema: int) -> None:
        """Write a new file holding ``data`` (atomically, fsync'd)."""
        payload = lines.file_bytes(data, schema)
        atomic_write_bytes(self.path, payload)
        self._schema = schema
        self.prime(lines.replay(payload, self.path))

    def _writer(self) -> int:
        """The append descriptor, locked, with the file exactly as we read it: one
        ``stat`` of the path says both that it is still the descriptor's file (not
        replaced) and that nobody appended to it since (its size)."""
        if self._broken:
            raise WriterConflict(self.path, self._broken)
        if self._fd is None:
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
            except FileNotFoundError:
                raise DamagedFile(self.path, "missing: the file was removed") from None
            if fcntl is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    os.close(fd)
                    raise WriterConflict(
                        self.path, "another writer has this file open; nothing was written"
                    ) from None
            opened = os.fstat(fd)
            self._fd, self._fd_file = fd, (opened.st_dev, opened.st_ino)
        try:
            st = os.stat(self._path_str)
        except FileNotFoundError:
            st = None
        if st is None or (st.st_dev, st.st_ino) != self._fd_file:
            raise WriterConflict(self.path, "the file was replaced since it was read")
        if st.st_size != self._end:
            if st.st_size == self._size > self._end:
                # The cut-off last line we saw when reading: never acknowledged, trim it.
                _signal_write(b"t")
                os.ftruncate(self._fd, self._end)
                os.fsync(self._fd)
                self._size = self._end
            else:
                raise WriterConflict(self.path, "the file changed on disk since it was read")
        return self._fd

    def _append_line(self, line: bytes) -> None:
        fd = self._writer()
        _signal_write(b"a")
        try:
            write_all(fd, line)
            os.fsync(fd)
        except BaseException:
            try:  # never leave half a line for the next append to follow
                os.ftruncate(fd, self._end)
                os.fsync(fd)
            except OSError:
                self._broken = "a write failed and could not be undone; reopen the file"
            raise
        self._end += len(line)
        self._size = self._end

    def append(
        self, sets: Mapping[str, Mapping[str, Any]], dels: Mapping[str, list[str]] | None = None
    ) -> None:
        """Append one record (documents set and deleted) durably: the constant-cost path."""
        data = self._held()
        if data is None:
            raise DamagedFile(self.path, "missing: the file does not exist")
        if dels and any(table in self._lent for table in dels):
            raise ValueError("the documents of a lent table are never deleted")
        self._append_line(lines.record_bytes(sets, dels))
        self._written = None
        for table, docs in sets.items():
            self._records += len(docs)
            if table in self._lent:  # its owner holds them: each one is new
                self._live += len(docs)
                continue
            t = data.setdefault(table, {})
            for key, doc in docs.items():
                self._live += key not in t
                t[key] = doc
        for table, ids in (dels or {}).items():
            t = data.get(table, {})
            for key in ids:
                self._live -= t.pop(key, None) is not None
            self._records += len(ids)
        self.maybe_compact()

    def write(self, data: lines.Data) -> None:
        if self._cache is None and not self.path.exists():
            self.create_file(data, self._schema or lines.VERSION)
            return
        try:
            if self._written is None:
                raise RuntimeError("write() without read(): TinyDB always reads first")
            old = self._written
            sets: dict[str, dict[str, Any]] = {}
            dels: dict[str, list[str]] = {}
            new: dict[str, dict[str, bytes]] = {}
            for table, docs in data.items():
                before = old.get(table)
                now = new[table] = {}
                for key, doc in docs.items():
                    b = now[key] = orjson.dumps(doc)
                    if before is None or before.get(key) != b:
                        sets.setdefault(table, {})[key] = doc
                if before is None and not docs:
                    sets[table] = {}
                gone = [k for k in (before or {}) if k not in docs]
                if gone:
                    dels[table] = gone
            if sets or dels:
                self._append_line(lines.record_bytes(sets, dels))
                self._records += sum(len(d) for d in sets.values()) + sum(
                    len(d) for d in dels.values()
                )
        except BaseException:
            # TinyDB changed the cached tables before calling us: forget them, so the next
            # read shows what is really on disk.
            self._cache = None
            self._written = None
            raise
        self._cache = data
        self._lent = {}  # TinyDB gave every table, documents and all
        self._written = new
        self._live = sum(len(t) for t in data.values())
        self.maybe_compact()

    def maybe_compact(self) -> bool:
        dead = self._records - self._live
        if dead > self._live and dead >= self.compact_min_dead:
            self.compact()
            return True
        return False

    def compact(self) -> None:
        """Rewrite the live documents atomically (temp file, fsync, rename, fsync folder)."""
        data = self.data()
        if data is None:
            return
        self._writer()  # locked, and refusing to compact over someone else's writes
        payload = lines.file_bytes(data, self._schema)
        atomic_write_bytes(self.path, payload, tag=b"c")
        self._release()
        self._end = self._size = len(payload)
        self._records = self._live = sum(len(t) for t in data.values())

    def _release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None

    def close(self) -> None:
        self._release()
        self._cache = None
        self._lent = {}
        self._written = None


def files_stamp(folder: str | Path, name: str) -> tuple[tuple[str, int, int], ...]:
    """(subfolder's name, size, mtime_ns) of the file ``name`` in every subfolder of
    ``folder`` (e.g. every laptop's manifest), by subfolder: changes when any of them is
    written. Asked before every append (a hand-over this laptop now sees), so it is read
    with one directory listing and one ``stat`` a subfolder, on plain strings: building
    path objects cost more than the system calls (issue 24)."""
    folder = os.fspath(folder)
    try:
        subfolders = sorted(os.listdir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return ()
    out = []
    sep = os.sep
    for sub in subfolders:
        try:
            st = os.stat(f"{folder}{sep}{sub}{sep}{name}")  # os.path.join costs more
        except OSError:  # no such file there (or not a folder)
            continue
        out.append((sub, st.st_size, st.st_mtime_ns))
    return tuple(out)


def settled(mtime_ns: int, now_ns: int) -> bool:
    """Whether a timestamp read at ``now_ns`` is sure to show the next change of its file
    or folder: a change in the same tick of the clock that stamps it leaves it as it was.
    A tick is a few milliseconds on Linux, Windows and exFAT (100 ms are waited); a file
    system that keeps whole seconds (FAT, HFS+) stamps times without a fraction (2 s are
    waited). A time ahead of ``now_ns`` is never settled."""
    wait = 2_000_000_000 if mtime_ns % 1_000_000_000 == 0 else 100_000_000
    return now_ns - mtime_ns >= wait


class FilesWatch:
    """:func:`files_stamp` of the same files asked before every append (a hand-over record
    another laptop's folder now holds), with fewer system calls: one ``stat`` of the folder
    and one of each file. The folder is listed again only when its own stamp (inode, mtime,
    link count) changed: a subfolder added, removed or renamed changes it.

    :meth:`stamp` is ``(the folder's, (subfolder, inode, size, mtime_ns) of each file)``,
    or None while a timestamp in it is too recent to show the next change (:func:`settled`):
    the caller then reads the files again, each time until it is settled. ``clock``: the
    wall time in ns (the file system's clock)."""

    def __init__(
        self, folder: str | Path, name: str, clock: Callable[[], int] = time.time_ns
    ) -> None:
        self.folder, self.name, self.clock = os.fspath(folder), name, clock
        #: (the folder's stamp, (subfolder, the path of its file) of each subfolder)
        self._listed: tuple[tuple[int, int, int], list[tuple[str, str]]] | None = None
        self._present: set[str] = set()  # the subfolders whose file was there last time

    def stamp(self) -> tuple[Any, ...] | None:
        now = self.clock()  # before the stat: a change after it is later still
        try:
            st = os.stat(self.folder)
        except OSError:  # no folder (yet): nothing in it
            self._listed = None
            return ()
        own = (st.st_ino, st.st_mtime_ns, st.st_nlink)
        calm = settled(st.st_mtime_ns, now)
        listed = self._listed
        if listed is None or listed[0] != own:
            try:
                subfolders = sorted(os.listdir(self.folder))
            except OSError:  # removed since the stat: ask again next time
                self._listed = None
                return None
            sep = os.sep  # os.path.join costs more
            listed = (
                own,
                [(sub, f"{self.folder}{sep}{sub}{sep}{self.name}") for sub in subfolders],
            )
            self._listed = listed if calm else None
        out: list[Any] = [own]
        present = self._present
        for sub, path in listed[1]:
            # a file not there the last time is looked for without a stat's exception:
            # raised before every append, it cost more than the system call (issue 24)
            if sub not in present and not os.access(path, os.F_OK):
                continue
            try:
                f = os.stat(path)
            except OSError:  # no such file there (any more), or not a folder
                present.discard(sub)
                continue
            present.add(sub)
            out.append((sub, f.st_ino, f.st_size, f.st_mtime_ns))
            calm = calm and settled(f.st_mtime_ns, now)
        return tuple(out) if calm else None
