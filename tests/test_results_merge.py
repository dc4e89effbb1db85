"""Merging laptops: overlapping games merge to the same result in any order; a game that
diverged on two laptops is reported as a conflict and kept for the head judge."""

from __future__ import annotations

import itertools
import random
import shutil

import orjson
from results_fixtures import demo

from fieldjudge.services import open_tournament
from fieldjudge.services.demo import DEMO_PASSPHRASE
from fieldjudge.services.demo_history import Script, play
from fieldjudge.services.sync.merge import conflicts, merge_into, resolve
from fieldjudge.store import bundle


def open_t(folder):
    t = open_tournament(folder, lock=False, startup_backup=False)

    return t


def logs_of(folder):
    return {
        p.stem: [e["hash"] for e in bundle.read_log_file(p)["events"]]
        for p in sorted((folder / "games").glob("*.json"))
    }


def laptops(tmp_path):
    base = tmp_path / "base"
    t = demo(base)
    ids = [g["id"] for g in t.games()]
    t.close()
    lap = {n: tmp_path / n for n in "ABC"}
    for f in lap.values():
        shutil.copytree(base, f)
    # A plays game 5; B has A's game 5 half-way (synced earlier) and plays game 6;
    # C plays game 7 and has B's game 6
    ta = open_t(lap["A"])
    play(ta, ids[4], Script("draw", 1, 1), random.Random(1))
    ta.close()
    tb = open_t(lap["B"])
    tb.close()
    full = bundle.read_log_file(lap["A"] / "games" / f"{ids[4]}.json")
    half = {**full, "events": full["events"][:5]}
    (lap["B"] / "games" / f"{ids[4]}.json").write_bytes(orjson.dumps(bundle.doc_to_log(half)))
    tb = open_t(lap["B"])
    play(tb, ids[5], Script("held", 2, 1), random.Random(2))
    tb.close()
    shutil.copy(lap["B"] / "games" / f"{ids[5]}.json", lap["C"] / "games")
    tc = open_t(lap["C"])
    play(tc, ids[6], Script("hang", 1, 1), random.Random(3))
    tc.close()
    return base, lap, ids


def test_three_laptops_merge_same_in_any_order(tmp_path):
    base, lap, ids = laptops(tmp_path)
    outcomes = []
    for n, order in enumerate(itertools.permutations("ABC")):
        head = tmp_path / f"head{n}"
        shutil.copytree(base, head)
        t = open_t(head)
        for name in order:
            report = merge_into(t, lap[name])
            assert not report.conflicts and not report.errors
        t.close()
        outcomes.append(logs_of(head))
    assert all(o == outcomes[0] for o in outcomes)
    final = outcomes[0]
    assert {ids[4], ids[5], ids[6]} <= set(final)
    assert final[ids[4]] == logs_of(lap["A"])[ids[4]]  # the longer copy won (fast-forward)
    # merging again adds nothing
    t = open_t(tmp_path / "head0")
    report = merge_into(t, lap["A"])
    assert report.events_added == 0 and report.duplicates_skipped > 0
    t.close()


def two_laptops(tmp_path):
    """The demo copied to two laptops' folders A and B: (the 5th game's id, A, B)."""
    base = tmp_path / "base"
    t = demo(base)
    gid = t.games()[4]["id"]
    t.close()
    a, b = tmp_path / "A", tmp_path / "B"
    shutil.copytree(base, a)
    shutil.copytree(base, b)
    return gid, a, b


def test_diverging_game_is_a_conflict(tmp_path):
    gid, a, b = two_laptops(tmp_path)
    for folder, seed in ((a, 1), (b, 2)):
        tt = open_t(folder)
        play(tt, gid, Script("draw", 1, 2), random.Random(seed), close=False)
        tt.close()
    mine = logs_of(a)[gid]
    t = open_t(a)
    report = merge_into(t, b)
    assert len(report.conflicts) == 1 and report.conflicts[0].log_id == gid
    assert any("CONFLICT" in line for line in report.lines())
    assert logs_of(a)[gid] == mine  # ours untouched, never mixed
    (cpath,) = conflicts(t)
    again = merge_into(t, b)  # the same conflict is not duplicated
    assert len(conflicts(t)) == 1 and again.conflicts
    resolve(t, cpath, "theirs", DEMO_PASSPHRASE)
    assert logs_of(a)[gid] == logs_of(b)[gid]
    assert not conflicts(t) and list((a / "conflicts" / "resolved").glob("*.json"))
    t.close()


def test_a_game_event_the_rules_refuse_here_is_not_merged(tmp_path):
    """The fold trusts a stored event, so a merge checks the other copy's new events against
    this laptop's rules and rosters: laptop B added #99 to a team and eliminated him; on A,
    whose roster has no #99, the rules refuse that elimination and the log is not merged
    (nothing written, the reason named); a legal log from B merges."""
    from datetime import UTC, datetime

    from fakes import FakeClock

    from fieldjudge.services.paintball.game import GameSession

    gid, a, b = two_laptops(tmp_path)
    tb = open_t(b)
    s = GameSession(tb, gid, clock=FakeClock(datetime(2026, 6, 1, 12, 0, tzinfo=UTC)))
    team = s.teams[0]
    tb.add_player(team, 99, "Новичок")
    s = GameSession(tb, gid, clock=FakeClock(datetime(2026, 6, 1, 12, 0, tzinfo=UTC)))
    # six on B's roster: the line-up (30.01) names who plays, #99 among them
    s.set_lineup(team, [99, *[p.number for p in s.setup.rosters[team]][:4]])
    s.append("clock_start")
    s.eliminate(team, 99, "hit")
    tb.close()
    ta = open_t(a)
    report = merge_into(ta, b)
    name = ta.team_names()[team]
    ta.close()
    assert not (a / "games" / f"{gid}.json").exists()
    (line,) = [e for e in report.errors if e.startswith(f"games/{gid}")]
    assert line.endswith(
        f"not merged: event #1 (lineup): 30.01: {name} #99 is not on the game roster"
    )
