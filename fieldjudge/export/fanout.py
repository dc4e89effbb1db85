"""One pass over many games on every processor: the command-line export of a whole
tournament reads, verifies and folds every game file, work that does not depend on the
other games (20.05 aside: the caller reconciles it, see :func:`fieldjudge.export.run_export`).

:func:`fan_out` splits the games into slices, computes the first here and each other in a
child forked from this process. A child shares what this process has opened (copy on
write), computes its slice with the same code and leaves the results pickled in a buffer
the parent reads once it has exited; it writes no file of the tournament the parent would
(the summary index is the parent's). A child that fails in any way (an exception, a signal, results that do not
unpickle) has its slice computed again here, so an error is raised here, exactly as a pass
without children raises it.

Only for a process with one thread (the command line): a fork copies no other thread, and a
lock another thread held stays held in the child. The app's export runs in a thread of the
app, so it passes ``jobs=1``.
"""

from __future__ import annotations

import mmap
import os
import pickle
import signal
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: at most this many processes: a 120-game export gains little from a third or fourth
#: slice, and each child copies the parent's page tables
MAX_JOBS = 4


def available_jobs() -> int:
    """The processors this process may run on, at most :data:`MAX_JOBS`."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return max(1, min(n, MAX_JOBS))


def fan_out(work: Callable[[Sequence[T]], list[R]], items: Sequence[T], jobs: int) -> list[R]:
    """``work(items)``, computed in up to ``jobs`` slices at once; the results in the order
    of ``items``. ``work`` takes a slice and returns one result an item, picklable. A
    child's result that is a long byte string comes back as a read-only ``memoryview``
    of the child's buffer (bytes-like: written, joined or compared as it is)."""
    items = list(items)
    jobs = max(1, min(jobs, len(items)))
    if jobs == 1 or not hasattr(os, "fork"):
        return work(items)
    size = -(-len(items) // jobs)
    slices = [items[i : i + size] for i in range(0, len(items), size)]
    children: list[tuple[int, int, Sequence[T]]] = []
    try:
        for part in slices[1:]:
            children.append(_fork(work, part))
        results = work(slices[0])
        while children:
            pid, fd, part = children.pop(0)  # reaped and closed here, whatever follows
            got = _collect(pid, fd)
            results += got if got is not None and len(got) == len(part) else work(part)
        return results
    finally:  # this process failed (or was interrupted): no child is left behind
        for pid, fd, _part in children:
            _stop(pid, fd)


def _fork(
    work: Callable[[Sequence[T]], list[R]], part: Sequence[T]
) -> tuple[int, int, Sequence[T]]:
    fd = _buffer()
    pid = os.fork()
    if pid == 0:  # the child: its results in the buffer, then out without the parent's exit
        code = 1
        try:
            _leave(work(part), fd)
            code = 0
        except BaseException:  # noqa: BLE001, S110 - the parent computes the slice again
            pass
        finally:
            os._exit(code)
    return pid, fd, part


def _leave(results: list, fd: int) -> None:
    """Write a child's results to its buffer: the length of a small header, the header
    (the pickled results and the lengths of their large byte strings), then those byte
    strings one after the other. The parent maps them instead of copying them (a JSON
    export's slice is 12 MB of them)."""
    large: list[pickle.PickleBuffer] = []
    wrapped = [
        pickle.PickleBuffer(r) if type(r) is bytes and len(r) >= _LARGE else r for r in results
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


def _collect(pid: int, fd: int) -> list | None:
    """A child's results (a large byte string as a read-only ``memoryview`` of its
    buffer), or None if it failed. The buffer's file is closed and the child reaped
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
    return got if isinstance(got, list) else None


def _stop(pid: int, fd: int | None) -> None:
    """Kill and reap a child that is no longer wanted; close its buffer."""
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass
    if fd is not None:
        os.close(fd)
