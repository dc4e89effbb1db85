"""The live fold with state checkpoints (rules/paintball/checkpoints.py): after any sequence
of appends and voids (and voids of voids: "Corrections" of DESIGN.md), folding from the
checkpoints gives exactly the fold of the whole log from scratch."""

from dataclasses import replace

from fakes import LogBuilder
from hypothesis import given
from hypothesis import strategies as hs
from test_paintball_properties import LENGTH, PROPS, SETUP, R, candidate

from fieldjudge.rules.events import VOID, voided_by, voided_ids
from fieldjudge.rules.paintball.checkpoints import LiveFold, snapshot
from fieldjudge.rules.paintball.checks import refusal
from fieldjudge.rules.paintball.state import fold, new_state, step, unsettled

ACTIONS = ["event", "event", "event", "illegal", "void", "void_recent", "void_ahead"]


def grow(data, log, setup):
    """One action on the log: an event (legal, or any), or a void of any earlier event
    (a void of a void restores its target), of one of the last few, or of the next one."""
    action = data.draw(hs.sampled_from(ACTIONS))
    if action == "void_ahead":  # a log from elsewhere: a void naming the next event's id
        log.void(f"e{len(log.events) + 2}")
        return
    if action.startswith("void"):
        pool = log.events[-3:] if action == "void_recent" else log.events
        log.void(data.draw(hs.sampled_from(pool)))
        return
    st = fold(setup, log.events)
    etype, d = candidate(data, st)
    if etype == "tick":
        log.tick(d["ms"]) if st.clock.running and log.game_ms + d["ms"] < LENGTH else log.wait(
            d["ms"]
        )
        return
    if action == "event" and refusal(st, etype, d) is not None:
        return  # the services refuse it: never appended
    log.add(etype, game_clock_ms=LENGTH if etype == "game_end" else -1, **d)


@PROPS
@given(hs.data(), hs.integers(1, 4), hs.integers(1, 3), hs.booleans())
def test_checkpointed_fold_equals_the_whole_fold(data, every, per_octave, disqualified):
    """Appends and voids in any order, the live fold asked after one or several of them:
    its state is the whole log's fold, and every checkpoint it keeps is the fold of the
    events before it (a refold never changed one). 20.05: with a player disqualified in
    an earlier game every event is checked again, from a checkpoint too."""
    setup = replace(SETUP, disqualified=frozenset({(R, 3)})) if disqualified else SETUP
    log = LogBuilder()
    log.add("clock_start")
    live = LiveFold(setup, log.events, every=every, per_octave=per_octave)
    for _ in range(data.draw(hs.integers(1, 40))):
        grow(data, log, setup)
        if data.draw(hs.booleans()):  # else several new events at the next update
            continue
        assert live.update(log.events) == fold(setup, log.events)
    assert live.update(log.events) == fold(setup, log.events)
    assert live.voided == voided_ids(log.events)
    # the log's «Voided (#n)» marks, from the voids alone (issue 24: no walk of the log)
    assert live.voided_by(log.events) == voided_by(log.events)
    midway = whole_fold_midway(setup, log.events)
    for k, state in live.checkpoints():
        assert state == midway[k], k


def whole_fold_midway(setup, events):
    """The whole log's fold after each of its first k events, k = 0..n: the fold's own
    steps (its effective events, checked where a void reaches or after a 20.05
    disqualification), a copy kept after each."""
    gone, checked = voided_ids(events), unsettled(events)
    st = new_state(setup)
    out = [snapshot(st)]
    for e in events:
        if e.type != VOID and e.id not in gone:
            step(st, e, bool(setup.disqualified) or e.id in checked)
        out.append(snapshot(st))
    assert st == fold(setup, events)
    return out


def test_23_01_a_hang_verdict_voided_after_a_checkpoint_leaves_the_checkpoint_unchanged():
    """23.01: the verdict completes the hang attempt in place; a checkpoint taken while it
    awaited its verdict must still await it after the verdict and its void."""
    log = LogBuilder()
    log.add("clock_start")
    log.tick(10_000).add("flag_capture", team=R, number=1)
    log.tick(10_000).add("flag_hang", team=R, number=1)
    live = LiveFold(SETUP, log.events, every=1)
    verdict = log.add("hang_verdict", paint="clean", fps=280.0, forbidden_mode=False)
    assert live.update(log.events).hangs[-1].counted is True
    log.void(verdict)
    st = live.update(log.events)
    assert st.pending_hang is not None and st == fold(SETUP, log.events)
    midway = whole_fold_midway(SETUP, log.events)
    for k, mark in live.checkpoints():
        assert mark == midway[k]


def test_a_void_refolds_from_the_checkpoint_before_its_target():
    """A void of a recent event steps only the events after the last checkpoint before
    it, not the whole game."""
    log = LogBuilder()
    log.add("clock_start")
    for _ in range(600):
        log.tick(100).add("paint_check_start", team=R, number=2)
        log.add("paint_check_end", team=R, number=2, outcome="in_play")
    live = LiveFold(SETUP, log.events, every=64)
    last = log.events[-1]
    log.void(last)
    kept_before = max(k for k, _ in live.checkpoints())
    assert kept_before >= len(log.events) - 1 - 64
    assert live.update(log.events) == fold(SETUP, log.events)
    # the checkpoint it refolded from is still there, the ones after the target are new
    assert kept_before in [k for k, _ in live.checkpoints()]


def test_checkpoints_thin_out_further_back():
    """A long game keeps a few checkpoints per doubling of their spacing, not one per
    ``every`` events."""
    log = LogBuilder()
    log.add("clock_start")
    for _ in range(2_000):
        log.tick(10).add("paint_check_start", team=R, number=2)
        log.add("paint_check_end", team=R, number=2, outcome="in_play")
    live = LiveFold(SETUP, log.events, every=16, per_octave=2)
    for _ in range(50):
        log.add("paint_check_start", team=R, number=3)
        log.add("paint_check_end", team=R, number=3, outcome="in_play")
        live.update(log.events)
    marks = [k for k, _ in live.checkpoints()]
    assert len(marks) <= 2 * 10 and marks == sorted(marks)
    assert live.state == fold(SETUP, log.events)


def test_another_log_is_folded_from_the_start():
    """Asked with a log that is not the one it followed (its chain differs), the live
    fold starts again."""
    a, b = LogBuilder(), LogBuilder(judge="other")
    a.add("clock_start")
    a.add("time_stop")
    b.add("clock_start")
    b.tick(5_000).add("elimination", reason="hit", players=[{"team": R, "number": 1}])
    live = LiveFold(SETUP, a.events, every=1)
    b.void(b.events[-1])
    assert live.voided_by(b.events) == voided_by(b.events)  # not the log it followed
    assert live.update(b.events) == fold(SETUP, b.events)


def test_an_id_twice_in_a_log_from_elsewhere_folds_as_the_whole_fold():
    """A void names an id; a log from elsewhere may hold it twice: both are voided."""
    log = LogBuilder()
    log.add("clock_start")
    first = log.tick(1_000).add("elimination", reason="hit", players=[{"team": R, "number": 1}])
    for _ in range(5):
        log.tick(1_000).add("time_stop")
        log.add("clock_resume")
    live = LiveFold(SETUP, log.events, every=2)
    twin = log.add("elimination", reason="hit", players=[{"team": R, "number": 2}])
    object.__setattr__(twin, "id", first.id)
    live.update(log.events)
    log.void(first)
    assert live.update(log.events) == fold(SETUP, log.events)
    assert live.voided_by(log.events) == voided_by(log.events)


def test_a_snapshot_shares_nothing_the_fold_changes():
    log = LogBuilder()
    log.add("clock_start")
    log.tick(1_000).add("flag_capture", team=R, number=1)
    log.tick(1_000).add("paint_check_start", team=R, number=2)
    log.tick(1_000).add("flag_hang", team=R, number=1)
    st = fold(SETUP, log.events)
    copy = snapshot(st)
    assert copy == st and copy is not st
    assert copy.players[(R, 2)].check is not st.players[(R, 2)].check
    assert copy.hangs[0] is not st.hangs[0]
    assert copy.flags[R] is not st.flags[R] and copy.clock is not st.clock
    assert copy.setup is st.setup
