"""The command-line export's pass over every game on several processors (issue 13):
``fan_out`` gives exactly what one process gives, in order, whoever takes which item; a
slower process takes fewer; a child that fails has its items done again in the parent, so
an error is raised there as without children; no child is left behind. The export itself
is the same file for file with one process or with a child a game, and 20.05 is carried
across processes."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from results_fixtures import demo

from fieldjudge.export import run_export
from fieldjudge.export.fanout import MAX_JOBS, available_jobs, fan_out


def doubled(items):
    for x in items:
        yield (x * 2, os.getpid())


def held_until(marks: Path, n: int) -> None:
    """Hold this process until ``n`` marks are in ``marks`` (polled, 30 s at most)."""
    deadline = time.monotonic() + 30
    while len(list(marks.iterdir())) < n:
        assert time.monotonic() < deadline, "the other process never took its items"
        time.sleep(0.005)


def children() -> set[int]:
    """This process's children, running or zombies (from /proc)."""
    me, out = str(os.getpid()), set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended while listed
        if fields[1] == me:
            out.add(int(stat.parent.name))
    return out


@pytest.fixture
def no_child_left():
    """The test's fan-outs leave no child of theirs behind, running or unreaped."""
    before = children()
    yield
    assert children() <= before


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-1000, 1000), max_size=12), st.integers(1, 6))
def test_fan_out_gives_what_one_process_gives(items, jobs):
    before = children()
    got = fan_out(doubled, items, jobs)
    assert [x for x, _ in got] == [x * 2 for x in items]
    assert children() <= before


def test_a_slower_process_takes_fewer_items(tmp_path, no_child_left):
    """The items go to whichever process is free: this one, held on its first item until
    the child has done eight, computes at most two of the ten."""
    me = os.getpid()

    def work(items):
        for x in items:
            if os.getpid() == me:
                held_until(tmp_path, 8)
            else:
                (tmp_path / str(x)).touch()
            yield (x, os.getpid())

    got = fan_out(work, list(range(10)), 2)
    assert [x for x, _ in got] == list(range(10))
    assert 1 <= [pid for _, pid in got].count(me) <= 2
    assert len({pid for _, pid in got} - {me}) == 1  # the rest, one child


def test_a_childs_long_byte_strings_are_mapped_not_copied(tmp_path, no_child_left):
    """A JSON export's child returns 12 MB of serialised logs: a long byte string comes
    back as a read-only view of the child's buffer (the same bytes), a short one and any
    other result as it was."""
    me = os.getpid()

    def work(items):
        for x in items:
            if os.getpid() == me:
                held_until(tmp_path, 5)  # the child takes the other five
            else:
                (tmp_path / str(x)).touch()
            yield b"short" if x == 6 else bytes([x]) * 100_000 if x % 2 else (x, os.getpid())

    got = fan_out(work, list(range(1, 7)), 2)
    views = [r for r in got if type(r) is memoryview]
    assert views and all(v.readonly for v in views)  # the child's long ones
    for x, r in zip(range(1, 7), got, strict=True):
        if x == 6:
            assert type(r) is bytes and r == b"short"
        elif x % 2:
            assert r == bytes([x]) * 100_000
        else:
            assert r[0] == x
    assert b"".join(r for r in got if not isinstance(r, tuple))[-5:] == b"short"


def test_one_job_or_one_item_never_forks():
    me = os.getpid()
    assert fan_out(doubled, [1, 2, 3], 1) == [(2, me), (4, me), (6, me)]
    assert fan_out(doubled, [5], 4) == [(10, me)]
    assert fan_out(doubled, [], 4) == []


def test_an_error_in_a_child_is_raised_here(no_child_left):
    me = os.getpid()

    def work(items):
        for x in items:
            if x == 7:
                raise ValueError(f"item 7 in {'the parent' if os.getpid() == me else 'a child'}")
            yield x

    with pytest.raises(ValueError, match="item 7 in the parent"):
        fan_out(work, list(range(10)), 2)  # taken by a child: done again here


def test_a_child_killed_has_its_items_done_here(no_child_left):
    me = os.getpid()

    def work(items):
        for x in items:
            if os.getpid() != me:
                os.kill(os.getpid(), signal.SIGKILL)  # a child dies without a word
            yield (x, os.getpid())

    got = fan_out(work, list(range(6)), 3)
    assert got == [(x, me) for x in range(6)]


def test_results_that_do_not_pickle_are_done_here(no_child_left):
    me = os.getpid()

    def work(items):
        for x in items:
            yield x if os.getpid() == me else (lambda x=x: x)  # a lambda does not pickle

    assert fan_out(work, [1, 2, 3, 4], 2) == [1, 2, 3, 4]


def test_the_parent_failing_leaves_no_child_behind(no_child_left):
    me = os.getpid()

    def work(items):
        for x in items:
            if os.getpid() == me:
                raise KeyboardInterrupt  # the judge pressed Ctrl-C during his own part
            signal.pause()  # a child that would never end by itself
            yield x

    with pytest.raises(KeyboardInterrupt):
        fan_out(work, list(range(8)), 4)


def test_available_jobs_is_bounded():
    assert 1 <= available_jobs() <= min(MAX_JOBS, len(os.sched_getaffinity(0)))


@pytest.mark.parametrize("fmt", ["html", "csv", "json"])
def test_an_export_on_every_processor_is_the_same_files(tmp_path, fmt):
    """One process, or a child a game (the most slices there can be): the same files, byte
    for byte (the JSON's stamp aside), and the same summaries in the index."""
    t = demo(tmp_path / "cup")
    try:
        played = [g for g in t.games() if t.game_path(g["id"]).exists()]
        assert len(played) >= 4
        outs = {}
        for jobs in (1, len(played)):
            t.index.path.unlink(missing_ok=True)
            written = run_export(t, tmp_path / f"out{jobs}", fmt, jobs=jobs)
            outs[jobs] = {p.name: p.read_bytes() for p in written}
            if fmt != "json":  # the pass that folds every game remembers its summary
                summaries = {g["id"]: t.cached_game_summary(g["id"]) for g in played}
                assert all(summaries.values())
                outs[jobs]["summaries"] = orjson.dumps(summaries, option=orjson.OPT_SORT_KEYS)
        one, many = outs[1], outs[len(played)]
        assert sorted(one) == sorted(many)
        for name in one:
            a, b = one[name], many[name]
            if name.endswith(".json"):
                a, b = (orjson.loads(x) for x in (a, b))
                a.pop("exported_at"), b.pop("exported_at")
            elif name.startswith("standings-") and name.endswith(".html"):
                a, b = (x.split(b"</p>", 1)[1] for x in (a, b))  # after the "as of" minute
            assert a == b, name
    finally:
        t.close()


def test_the_command_line_export_prints_every_file_and_exits_at_once(tmp_path):
    """``python -m fieldjudge export`` (as the installed command) leaves without tearing the
    interpreter down: every file it wrote is named on its output, flushed before it goes,
    and its exit status is the command's (0; 1 with the message on a bad folder)."""
    import subprocess
    import sys

    t = demo(tmp_path / "cup")
    played = len([g for g in t.games() if t.game_path(g["id"]).exists()])
    t.close()
    cmd = [sys.executable, "-m", "fieldjudge", "export", "--tournament"]
    done = subprocess.run(
        cmd + [str(tmp_path / "cup"), "--format", "html", "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    named = done.stdout.split()
    assert len(named) == played + 2 and all(Path(p).is_file() for p in named)
    assert sorted(named) == sorted(str(p) for p in (tmp_path / "out").iterdir())
    bad = subprocess.run(
        cmd + [str(tmp_path / "nowhere"), "--format", "csv", "--out", str(tmp_path / "x")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 1 and "holds no tournament" in bad.stderr
