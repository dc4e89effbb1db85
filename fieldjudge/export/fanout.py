"""One pass over many games on every processor: the command-line export of a whole
tournament reads, verifies and folds every game file, work that does not depend on the
other games (20.05 aside: the caller reconciles it, see :mod:`fieldjudge.export.game_pass`).

:func:`fan_out` forks children from this process; this process and each child take the
games one at a time from a shared queue (a pipe holding their numbers), so a processor
that runs slower (another program on it, a busy host) takes fewer games and nobody waits
long for the last one. A child shares what this process has opened (copy on write),
computes its games with the same code and leaves its results pickled in a buffer this
process reads once the child has exited; it writes no file of the tournament this process
would (the summary index is the parent's). A child that fails in any way (an exception, a
signal, results that do not unpickle) has its games computed again here, so an error is
raised here, exactly as a pass without children raises it.

Only for a process with one thread (the command line): a fork copies no other thread, and a
lock another thread held stays held in the child. The app's export runs in a thread of the
app, so it passes ``jobs=1``.
"""

from __future__ import annotations

import mmap
import os
import pickle
import signal
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: at most this many processes: a 120-game export gains little from a third or fourth,
#: and each child copies the parent's page tables
MAX_JOBS = 4


def available_jobs() -> int:
    """The processors this process may run on, at most :data:`MAX_JOBS`."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return max(1, min(n, MAX_JOBS))


#: ``work(items)`` yields one result an item, in order, and takes the next item only
#: after yielding the result of the one before (a generator over ``items``)
Work = Callable[[Iterable[T]], Iterable[R]]


def fan_out(work: Work, items: Sequence[T], jobs: int) -> list[R]:
    """The results of ``work`` over ``items``, in their order, computed by up to ``jobs``
    processes at once. A child's result that is a long byte string comes back as a
    read-only ``memoryview`` of the child's buffer (bytes-like: written, joined or
    compared as it is)."""
    items = list(items)
    jobs = max(1, min(jobs, len(items)))
    queue = _Queue.holding(len(items)) if jobs > 1 and hasattr(os, "fork") else None
    if queue is None:
        return list(work(items))
    children: list[tuple[int, int]] = []
    try:
        for _ in range(jobs - 1):
            children.append(_fork(work, items, queue))
        results: list = [_MISSING] * len(items)
        for i, r in _run(work, items, queue):
            results[i] = r
        while children:
            pid, fd = children.pop(0)  # reaped and closed here, whatever follows
            for i, r in _collect(pid, fd, len(items)) or ():
                results[i] = r
        missing = [i for i, r in enumerate(results) if r is _MISSING]  # a child failed
        for i, r in zip(missing, work([items[i] for i in missing]), strict=True):
            results[i] = r
        return results
    finally:  # this process failed (or was interrupted): no child is left behind
        queue.close()
        for pid, fd in children:
            _stop(pid, fd)


_MISSING = object()


class _Queue:
    """The numbers of the items still to compute, in order, in a pipe every process
    reads: each read takes one number (4 bytes) no other process gets."""

    def __init__(self, r: int) -> None:
        self._r = r

    @classmethod
    def holding(cls, n: int) -> _Queue | None:
        """A queue of ``0 .. n-1``, or None if a pipe cannot hold them all (the pass then
        runs in this process alone)."""
        r, w = os.pipe()
        try:
            payload = b"".join(i.to_bytes(4, "little") for i in range(n))
            os.set_blocking(w, False)  # a pipe too small refuses, never waits for a reader
            if len(payload) > 65536:  # more than 16384 items: a larger pipe, if allowed
                import fcntl

                fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, len(payload))
            if os.write(w, payload) != len(payload):
                raise BlockingIOError
        except OSError:
            os.close(r)
            return None
        finally:
            os.close(w)  # every number is in: a read after the last one is the end
        return cls(r)

    def take(self) -> int | None:
        got = os.read(self._r, 4)
        return int.from_bytes(got, "little") if len(got) == 4 else None

    def close(self) -> None:
        if self._r >= 0:
            os.close(self._r)
            self._r = -1


def _run(work: Work, items: Sequence[T], queue: _Queue) -> list[tuple[int, R]]:
    """``work`` over the items this process takes from the queue: (number, result)."""
    taken: list[int] = []

    def pulled() -> Iterator[T]:
        while (i := queue.take()) is not None:
            taken.append(i)
            yield items[i]

    return [(taken[k], r) for k, r in enumerate(work(pulled()))]


def _fork(work: Work, items: Sequence[T], queue: _Queue) -> tuple[int, int]:
    fd = _buffer()
    pid = os.fork()
    if pid == 0:  # the child: its results in the buffer, then out without the parent's exit
        code = 1
        try:
            _leave(_run(work, items, queue), fd)
            code = 0
        except BaseException:  # noqa: BLE001, S110 - the parent computes its items again
            pass
        finally:
            os._exit(code)
    return pid, fd


def _leave(results: list[tuple[int, Any]], fd: int) -> None:
    """Write a child's results to its buffer: the length of a small header, the header
    (the pickled results and the lengths of their large byte strings), then those byte
    strings one after the other. The parent maps them instead of copying them (a JSON
    export's half is 12 MB of them)."""
    large: list[pickle.PickleBuffer] = []
    wrapped = [
        (i, pickle.PickleBuffer(r) if type(r) is bytes and len(r) >= _LARGE else r)
        for i, r in results
    ]
    stream = pickle.dumps(wrapped, protocol=5, buffer_callback=large.append)
    header = pickle.dumps((stream, [len(b.raw()) for b in large]), protocol=5)
    with os.fdopen(fd, "wb", closefd=False) as out:
        out.write(len(header).to_bytes(8, "little"))
        out.write(header)
        for b in large:
            out.write(b.raw())


#: a result that is a byte string at least this long is mapped, not copied
_LARGE = 64 * 1024


def _buffer() -> int:
    """Where a child leaves its results: a file in memory (Linux) or an unnamed temporary
    file, read once the child has exited. A pipe would hold the child at each 64 kB until
    this process, busy with its own slice, reads (a JSON export's slice is 12 MB)."""
    if hasattr(os, "memfd_create"):
        return os.memfd_create("fieldjudge-slice", os.MFD_CLOEXEC)
    import tempfile

    with tempfile.TemporaryFile() as f:
        return os.dup(f.fileno())


def _collect(pid: int, fd: int, n: int) -> list[tuple[int, Any]] | None:
    """A child's (number, result) pairs (a large byte string as a read-only
    ``memoryview`` of its buffer), or None if it failed. The buffer's file is closed and the child reaped
    whatever happens (interrupted while waiting: the child is killed first)."""
    try:
        _, status = os.waitpid(pid, 0)
    except BaseException:
        _stop(pid, fd)
        raise
    try:
        if os.waitstatus_to_exitcode(status) != 0:
            return None
        size = os.fstat(fd).st_size
        if size < 8:
            return None
        mapped = memoryview(mmap.mmap(fd, size, prot=mmap.PROT_READ))
        n = int.from_bytes(mapped[:8], "little")
        stream, lengths = pickle.loads(mapped[8 : 8 + n])
        views, at = [], 8 + n
        for length in lengths:
            if at + length > size:
                return None
            views.append(mapped[at : at + length])
            at += length
        got = pickle.loads(stream, buffers=views)
    except Exception:  # noqa: BLE001 - cut short or malformed: computed again here
        return None
    finally:
        os.close(fd)
    ok = isinstance(got, list) and all(
        isinstance(x, tuple) and len(x) == 2 and type(x[0]) is int and 0 <= x[0] < n for x in got
    )
    return got if ok else None


def _stop(pid: int, fd: int | None) -> None:
    """Kill and reap a child that is no longer wanted; close its buffer."""
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass
    if fd is not None:
        os.close(fd)
