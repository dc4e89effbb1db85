"""A game file read in one pass (issue 24; DESIGN.md "Storage", "Events"): each appended
event is checked against its chain and made into its event as its line comes, so an open
never holds every document of the file beside its events. Anything irregular is read the
full way: the same events, the same verdict and the same message for every file."""

from __future__ import annotations

import gc
import os
import re
import tempfile
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from fakes import compact_log
from hypothesis import example, given, settings
from hypothesis import strategies as st

from fieldjudge.rules.events import ChainReader
from fieldjudge.store import EventLog
from fieldjudge.store.backup import make_backup
from fieldjudge.store.errors import DamagedFile
from fieldjudge.store.eventlog import HANDOVER, ReadLog
from fieldjudge.store.storage import TEMP_MARK
from fieldjudge.store.validate import OnePass, validate_file

_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
_APPEND = st.one_of(
    st.tuples(
        st.sampled_from(["elimination", "note", "paint_check_end"]),
        st.dictionaries(st.sampled_from(["team", "number", "note"]), _TEXT, max_size=3),
        st.booleans(),  # signed by the laptop
    ),
    st.tuples(st.just(HANDOVER), st.sampled_from(["lap-b", "lap-c"]), st.booleans()),
)
# what is done to the file after its appends (DESIGN.md "Testing": tampering)
_TAMPER = st.one_of(
    st.just(("none",)),
    st.tuples(
        st.just("byte"),
        st.integers(0, 100),  # the line
        st.floats(0, 1, exclude_max=True),  # where in it
        st.sampled_from(b'0af7 :,{}"\xd0'),  # the new byte
    ),
    st.tuples(st.just("judge"), st.integers(0, 100)),  # an event's judge edited in place
    st.tuples(st.just("meta"), st.sampled_from(["red", "blu"])),  # the meta edited
    st.tuples(st.just("owner"), st.sampled_from(["lap-a", "lap-b", "lap-z"])),  # its head
    st.tuples(st.just("rekey"), st.integers(0, 100)),  # an event stored under key "1"
    st.tuples(st.just("drop"), st.integers(0, 100)),
    st.tuples(st.just("swap"), st.integers(0, 100), st.integers(0, 100)),
    st.tuples(st.just("dup"), st.integers(0, 100), st.integers(0, 100)),
    st.tuples(st.just("cut"), st.integers(1, 200)),
)


def _tamper(raw: bytes, how: tuple) -> bytes:
    rows = raw.splitlines(keepends=True)
    kind = how[0]
    if kind == "byte":  # in a line of an event, mostly: most bytes are in their lines
        row = rows[how[1] % len(rows)]
        pos = int(how[2] * len(row))
        rows[how[1] % len(rows)] = row[:pos] + bytes([how[3]]) + row[pos + 1 :]
    if kind == "judge":
        i = how[1] % len(rows)
        rows[i] = rows[i].replace("Судья".encode(), "Судьи".encode(), 1)
    elif kind == "meta":  # line 2 (after the header) holds the meta
        rows[1] = rows[1].replace(b'"team_a":"red"', f'"team_a":"{how[1]}"'.encode(), 1)
    elif kind == "owner":  # the owner the last line's head names
        rows[-1] = re.sub(rb'"owner":("[^"]*"|null)', f'"owner":"{how[1]}"'.encode(), rows[-1])
    elif kind == "rekey":
        i = how[1] % len(rows)
        rows[i] = re.sub(rb'\{"events":\{"\d+"', b'{"events":{"1"', rows[i], count=1)
    elif kind == "drop":
        del rows[how[1] % len(rows)]
    elif kind == "swap":
        i, j = how[1] % len(rows), how[2] % len(rows)
        rows[i], rows[j] = rows[j], rows[i]
    elif kind == "dup":
        rows.insert(how[2] % (len(rows) + 1), rows[how[1] % len(rows)])
    elif kind == "cut":
        return raw[: max(0, len(raw) - how[1])]
    return b"".join(rows)


def _make(path: Path, appends: list, compact: bool) -> None:
    log = EventLog.create(path, "game", {"game_id": "g", "team_a": "red"}, owner="lap-a")
    for kind, data, signed in appends:
        if kind == HANDOVER:
            data = {"from_laptop": log.owner or "lap-a", "to_laptop": data}
        log.append(
            kind,
            data,
            judge="Судья",
            sign=(lambda h: "sig-" + h) if signed else None,
            signer="lap-a" if signed else None,
        )
    if compact:
        compact_log(log)  # the events many to a line
    log.close()


@contextmanager
def _full_path_only() -> Iterator[None]:
    """Today's full read: the one-pass read gives every file up at its first event."""

    def give_up(self: ChainReader, docs: dict[str, Any]) -> bool:
        return not docs

    with mock.patch.object(ChainReader, "take", give_up):
        yield


def _outcome(read: Callable[[], Any]) -> Any:
    try:
        return ("read", read())
    except DamagedFile as exc:
        return ("damaged", str(exc))


def _opened(path: Path) -> Any:
    log = EventLog.open(path, rewrite=False)
    st_ = log._storage
    try:
        return (
            log.events,
            log._odd,
            log.meta,
            log.head,
            st_.data(),
            (st_._end, st_._size, st_._records, st_._live, st_._schema, sorted(st_._lent)),
            st_._held(),
        )
    finally:
        log.close()


def _read(path: Path) -> Any:
    rl = ReadLog.read(path)
    return None if rl is None else (rl.meta, rl.events)


_THREE = [("note", {"note": "a"}, True), (HANDOVER, "lap-b", True), ("note", {}, False)]


@settings(max_examples=150, deadline=None)
@example(appends=_THREE, compact=False, how=("none",))
@example(appends=_THREE, compact=True, how=("none",))
@example(appends=_THREE, compact=False, how=("judge", 3))
@example(appends=_THREE, compact=True, how=("judge", 2))
@example(appends=_THREE, compact=False, how=("byte", 3, 0.9, ord("0")))
@example(appends=_THREE, compact=False, how=("meta", "blu"))
@example(appends=_THREE, compact=True, how=("meta", "blu"))
@example(appends=_THREE, compact=False, how=("owner", "lap-a"))
@example(appends=_THREE, compact=True, how=("owner", "lap-z"))
@example(appends=_THREE, compact=False, how=("rekey", 3))
@example(appends=_THREE, compact=False, how=("drop", 3))
@example(appends=_THREE, compact=False, how=("drop", 4))
@example(appends=_THREE, compact=False, how=("swap", 2, 3))
@example(appends=_THREE, compact=False, how=("dup", 2, 4))
@example(appends=_THREE, compact=False, how=("dup", 4, 5))
@example(appends=_THREE, compact=False, how=("cut", 5))
@given(
    appends=st.lists(_APPEND, max_size=8),
    compact=st.booleans(),
    how=_TAMPER,
)
def test_24_the_one_pass_read_gives_what_the_full_read_gives(
    appends: list, compact: bool, how: tuple
) -> None:
    """A file made by appends (compacted or not), then tampered with: a byte changed, a
    line dropped, two lines swapped, a line duplicated, the end cut off. The open and the
    read give the same events, documents, head, storage state, or the same DamagedFile
    message, the one-pass way as the full way; an untouched file is read in one pass."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.json"
        _make(path, appends, compact)
        if how == ("none",):
            _content, one = OnePass.read(path)
            assert one is not None and len(one.events) == len(appends)
        path.write_bytes(_tamper(path.read_bytes(), how))
        one_pass = _outcome(lambda: _opened(path)), _outcome(lambda: _read(path))
        with _full_path_only():
            full = _outcome(lambda: _opened(path)), _outcome(lambda: _read(path))
        assert one_pass == full


def _no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # 2,000 appends without the disk


@pytest.mark.parametrize("read", ["open", "read"])
def test_24_an_opens_peak_memory_is_about_what_it_keeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, read: str
) -> None:
    """Issue 24 (game screen memory flat in the events): opening a 2,000-event game never
    holds all its documents beside its events; the open's peak is within 1.3 times what
    it keeps (the full read held every document at once: about 2.2 times)."""
    _no_fsync(monkeypatch)
    path = tmp_path / "g.json"
    log = EventLog.create(path, "game", {"game_id": "g"}, owner="lap-a")
    for i in range(2000):
        log.append("elimination", {"team": "red", "number": i % 15}, judge="j", game_clock_ms=i)
    log.close()
    del log
    gc.collect()
    tracemalloc.start()
    try:
        kept = EventLog.open(path) if read == "open" else ReadLog.read(path)
        gc.collect()
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert kept is not None and len(kept.events) == 2000
    assert peak <= 1.3 * held, (held, peak)


def test_24_a_backup_checks_its_copy_a_line_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24: the start's backup of a 2,000-event game never holds the file whole nor
    its tables (its peak stays under a quarter of the file's size); the copy is the file's
    bytes, checked before its rename."""
    _no_fsync(monkeypatch)
    folder = tmp_path / "t"
    path = folder / "games" / "g.json"
    log = EventLog.create(path, "game", {"game_id": "g"}, owner="lap-a")
    for i in range(2000):
        log.append("elimination", {"team": "red", "number": i % 15}, judge="j", game_clock_ms=i)
    log.close()
    size = path.stat().st_size
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        copy = make_backup(folder, path, only_if_changed=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert copy is not None and copy.read_bytes() == path.read_bytes()
    assert peak - before <= size / 4, (size, peak - before)
    assert make_backup(folder, path, only_if_changed=True) is None  # unchanged since


@pytest.mark.parametrize("how", [("judge", 3), ("dup", 2, 3), ("owner", "lap-z"), ("cut", 5)])
def test_24_a_backup_is_made_of_exactly_the_files_the_full_check_accepts(
    tmp_path: Path, how: tuple
) -> None:
    """DESIGN.md "Storage": a damaged file never takes a backup slot (an edited event, a
    head naming another owner); a file the full check accepts is copied, its events set
    twice (a line duplicated) or its last line cut off included. No temp file is left."""
    folder = tmp_path / "t"
    path = folder / "games" / "g.json"
    path.parent.mkdir(parents=True)
    _make(path, _THREE, False)
    path.write_bytes(_tamper(path.read_bytes(), how))
    try:
        validate_file(path)
        good = True
    except DamagedFile:
        good = False
    copy = make_backup(folder, path)
    assert (copy is not None) == good
    if copy is not None:
        assert copy.read_bytes() == path.read_bytes()
    assert not list((folder / "backups").rglob(f"*{TEMP_MARK}*"))
