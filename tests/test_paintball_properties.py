"""Property tests of the paintball engine (hypothesis)."""

from datetime import timedelta

from fakes import LogBuilder, demo_setup, ref
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from fieldjudge.rules.paintball.checks import refusal
from fieldjudge.rules.paintball.clock import elapsed_at
from fieldjudge.rules.paintball.reasons import BEFORE_START_REASONS, DIRECT_REASONS
from fieldjudge.rules.paintball.scoring import GameResult, game_result, no_show_result, standings
from fieldjudge.rules.paintball.setup import Settings
from fieldjudge.rules.paintball.state import fold, step

R, B = "red", "blue"
SETUP = demo_setup()
LENGTH = SETUP.settings.game_length_ms
NUMS = hs.integers(1, 5)
TEAMS = hs.sampled_from([R, B])
KINDS = [
    "hit",
    "double",
    "removal",
    "group",
    "capture",
    "capture",
    "handover",
    "neutral_start",
    "neutral_end",
    "paint_start",
    "paint_end",
    "chrono",
    "stop",
    "resume",
    "hang",
    "verdict",
    "end",
    "inspect",
    "tick",
    "tick",
]
PROPS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def other(team):
    return B if team == R else R


def candidate(data, st):
    """One random action (type, data), legal or not."""
    kind = data.draw(hs.sampled_from(KINDS))
    t, n = data.draw(TEAMS), data.draw(NUMS)
    p = ref(t, n)
    if kind == "hit":
        return "elimination", {"reason": "hit", "players": [p]}
    if kind == "double":
        return "elimination", {"reason": "hit", "players": [p, ref(other(t), data.draw(NUMS))]}
    if kind == "removal":
        reason = data.draw(hs.sampled_from(sorted(set(DIRECT_REASONS) - {"playing_on"})))
        return "elimination", {"reason": reason, "players": [p]}
    if kind == "group":
        return "elimination", {"reason": "playing_on", "players": [p], "second": data.draw(NUMS)}
    if kind == "capture":
        return "flag_capture", p
    if kind == "handover":
        return "flag_handover", {"team": t, "from_number": n, "to_number": data.draw(NUMS)}
    if kind in ("neutral_start", "paint_start"):
        return kind.replace("paint", "paint_check"), p
    if kind in ("neutral_end", "paint_end"):
        outcome = data.draw(hs.sampled_from(["eliminated", "in_play"]))
        return kind.replace("paint", "paint_check"), {**p, "outcome": outcome}
    if kind == "chrono":
        fps = data.draw(hs.sampled_from([250.0, 299.0, 305.0, 315.0, 330.0]))
        return "chrono_reading", {
            **p,
            "fps": fps,
            "forbidden_mode": False,
            "second": data.draw(NUMS),
        }
    if kind == "stop":
        return "time_stop", {}
    if kind == "resume":
        return "clock_resume", {}
    if kind == "hang":
        carriers = [q for q in st.players.values() if q.carrying]
        q = carriers[0] if carriers else st.player(t, n)
        return "flag_hang", ref(q.team, q.number)
    if kind == "verdict":
        paint = data.draw(hs.sampled_from(["clean", "hit"]))
        fps = data.draw(hs.sampled_from([280.0, 305.0]))
        return "hang_verdict", {"paint": paint, "fps": fps, "forbidden_mode": False}
    if kind == "end":
        return "game_end", {"reason": "clock"}
    if kind == "inspect":
        result = data.draw(hs.sampled_from(["clean", "clean", "hit_found", "did_not_report"]))
        return "inspection", {**p, "result": result}
    return "tick", {"ms": data.draw(hs.integers(1, 90_000))}


def random_game(data, setup=SETUP, steps=None, legal_only=True):
    log = LogBuilder()
    log.add("clock_start")
    for _ in range(steps if steps is not None else data.draw(hs.integers(0, 35))):
        st = fold(setup, log.events)
        etype, d = candidate(data, st)
        if etype == "tick":
            if st.clock.running and log.game_ms + d["ms"] < LENGTH:
                log.tick(d["ms"])
            else:
                log.wait(d["ms"])
            continue
        if legal_only and refusal(st, etype, d) is not None:
            continue
        stamp = LENGTH if etype == "game_end" else -1
        log.add(etype, game_clock_ms=stamp, **d)
    return log


@PROPS
@given(hs.data())
def test_void_then_fold_equals_never_logged(data):
    legal = data.draw(hs.booleans())
    log = random_game(data, legal_only=legal)
    if len(log.events) < 2:
        return
    i = data.draw(hs.integers(1, len(log.events) - 1))
    target = log.events[i]
    without = log.events[:i] + log.events[i + 1 :]
    log.void(target)
    # ``without`` was never checked in that order: every event of it is checked again
    assert fold(SETUP, log.events, recheck=True) == fold(SETUP, without, recheck=True)
    if legal:  # a log checked at every append: the void's reach is checked again
        assert fold(SETUP, log.events) == fold(SETUP, without, recheck=True)


@PROPS
@given(hs.data())
def test_voiding_the_void_restores_the_event(data):
    log = random_game(data)
    before = fold(SETUP, log.events)
    target = log.events[-1]
    v = log.void(target)
    log.void(v)
    assert fold(SETUP, log.events) == before


@PROPS
@given(hs.data())
def test_fold_never_raises_on_illegal_logs(data):
    log = random_game(data, legal_only=False)
    st = fold(SETUP, log.events)
    assert st.phase in ("running", "stopped", "hang_check", "inspection", "final")
    for team in (R, B):
        assert 0 <= st.alive(team) <= 5


IN_GAME_REASONS = sorted(set(DIRECT_REASONS) - set(BEFORE_START_REASONS))  # 20.07 aside


@PROPS
@given(hs.data(), hs.sampled_from(IN_GAME_REASONS))
def test_25_03_neutral_player_cannot_be_eliminated(data, reason):
    log = random_game(data)
    st = fold(SETUP, log.events)
    neutral = [p for p in st.players.values() if p.status == "neutral"]
    if not neutral and st.phase in ("running", "stopped"):
        cands = [p for p in st.players.values() if p.status == "in_play" and not p.carrying]
        if not cands:
            return
        p = cands[0]
        log.add("neutral_start", **ref(p.team, p.number))
        st = fold(SETUP, log.events)
        neutral = [st.players[p.key]]
    for p in neutral:
        d = {"reason": reason, "players": [ref(p.team, p.number)]}
        assert refusal(st, "elimination", d) is not None
        if st.phase in ("running", "stopped"):
            assert refusal(st, "elimination", d).startswith("25.03")
        log.add("elimination", **d)  # from elsewhere: verify checks every event again
        assert fold(SETUP, log.events, recheck=True).players[p.key].status == "neutral"


@PROPS
@given(
    capture_at=hs.integers(0, 200_000),
    carry=hs.integers(0, 200_000),
    check_wait=hs.integers(0, 900_000),
    verdict_stamp=hs.one_of(hs.none(), hs.integers(0, LENGTH)),
    fps=hs.floats(0, 300),
)
def test_23_03_flag_hang_ends_game_at_touch_time(capture_at, carry, check_wait, verdict_stamp, fps):
    log = LogBuilder()
    log.add("clock_start")
    log.tick(capture_at)
    log.add("flag_capture", **ref(B, 1))
    log.tick(carry)
    touch = log.add("flag_hang", **ref(B, 1))
    log.wait(check_wait)
    log.add(
        "hang_verdict", game_clock_ms=verdict_stamp, paint="clean", fps=fps, forbidden_mode=False
    )
    st = fold(SETUP, log.events)
    assert st.end_reason == "flag_hang" and st.hang_team == B
    assert st.end_ms == touch.game_clock_ms == capture_at + carry
    assert elapsed_at(st.clock, log.wall + timedelta(hours=2)) == capture_at + carry


@PROPS
@given(hs.data(), NUMS, NUMS)
def test_26_simultaneous_hits_eliminate_both_opponents(data, a, b):
    log = random_game(data)
    st = fold(SETUP, log.events)
    d = {"reason": "hit", "players": [ref(R, a), ref(B, b)]}
    if refusal(st, "elimination", d) is not None:
        return
    ev = log.add("elimination", **d)
    after = fold(SETUP, log.events)
    for key in ((R, a), (B, b)):
        assert after.players[key].status == "eliminated"
        assert after.players[key].elimination.event_id == ev.id
    assert after.alive(R) == st.alive(R) - 1 and after.alive(B) == st.alive(B) - 1


@PROPS
@given(hs.data(), TEAMS, NUMS, NUMS)
def test_29_08_group_removal_takes_offender_and_second(data, team, offender, second):
    log = random_game(data)
    st = fold(SETUP, log.events)
    d = {"reason": "playing_on", "players": [ref(team, offender)], "second": second}
    if refusal(st, "elimination", d) is not None:
        return
    was_out = st.players[(team, offender)].status == "eliminated"
    log.add("elimination", **d)
    after = fold(SETUP, log.events)
    assert offender != second
    assert after.players[(team, second)].elimination.reason == "group_removal"
    if was_out:
        # 28.02, 29.11: playing on while eliminated -- the team penalty takes one more player
        before = st.players[(team, offender)].elimination
        assert after.players[(team, offender)].elimination.event_id == before.event_id
        assert after.alive(team) == st.alive(team) - 1
    else:
        assert after.players[(team, offender)].elimination.reason == "playing_on"
        assert after.alive(team) == st.alive(team) - 2
    assert after.alive(other(team)) == st.alive(other(team))


@PROPS
@given(hs.data(), hs.sampled_from(IN_GAME_REASONS))
def test_22_04_carrier_out_spare_flag_hung(data, reason):
    log = random_game(data)
    st = fold(SETUP, log.events)
    carriers = [p for p in st.players.values() if p.carrying]
    if not carriers or st.phase not in ("running", "stopped"):
        return
    p = carriers[0]
    d = {"reason": reason, "players": [ref(p.team, p.number)]}
    if refusal(st, "elimination", d) is not None:
        mates = [q.number for q in st.team_players(p.team) if q.status == "in_play" and q is not p]
        d["second"] = mates[0]
    assert refusal(st, "elimination", d) is None
    log.add("elimination", **d)
    after = fold(SETUP, log.events)
    flag = after.flags[p.carrying]
    assert flag.carrier is None and after.players[p.key].carrying is None
    assert flag.spares_hung == st.flags[p.carrying].spares_hung + 1
    assert flag.location == "at_base"  # the elimination came before any game end


@PROPS
@given(
    hs.lists(hs.tuples(hs.integers(0, 200_000), hs.integers(0, 600_000)), max_size=6),
    hs.integers(0, 500_000),
)
def test_clock_across_restart_counts_only_running_time(segments, tail):
    """Alternating run/stop segments; a fresh fold (= app restart) at any later wall time gives
    the sum of running time, clamped at the game length."""
    log = LogBuilder()
    log.add("clock_start")
    running = 0
    for run, stop in segments:
        if running + run >= LENGTH:
            break
        log.tick(run)
        running += run
        log.add("time_stop")
        log.wait(stop)
        log.add("clock_resume")
    now = log.wall + timedelta(milliseconds=tail)
    expected = min(LENGTH, running + tail)
    assert elapsed_at(fold(SETUP, log.events).clock, now) == expected


@PROPS
@given(hs.data())
def test_scoring_is_symmetric_and_difference_clamped(data):
    log = random_game(data, steps=data.draw(hs.integers(0, 45)))
    no_points = Settings(inspection_penalty_points=0)  # 18.02 penalty points: see below
    ab = demo_setup(no_points)
    ba = demo_setup(no_points, team_a=B, team_b=R)
    ra, rb = game_result(ab, fold(ab, log.events)), game_result(ba, fold(ba, log.events))
    assert dict(ra.points) == dict(rb.points)
    assert dict(ra.diff) == dict(rb.diff)
    assert ra.outcome == rb.outcome and ra.winner == rb.winner
    assert ra.diff[R] == -ra.diff[B] and abs(ra.diff[R]) <= ab.settings.diff_clamp
    assert sorted(ra.points.values()) in ([1, 1], [0, 2], [0, 3])


@PROPS
@given(hs.data(), hs.integers(0, 5))
def test_difference_clamped_to_setting(data, clamp):
    setup = demo_setup(Settings(diff_clamp=clamp))
    log = random_game(data, setup=setup)
    res = game_result(setup, fold(setup, log.events))
    surv = res.survivors[R] - res.survivors[B]
    assert res.diff[R] == max(-clamp, min(clamp, surv))


@PROPS
@given(hs.data())
def test_30_01_both_flags_held_only_first_capturer_scores(data):
    log = random_game(data, steps=40)
    st = fold(SETUP, log.events)
    res = game_result(SETUP, st)
    held = [t for t in (R, B) if st.flag_held_by(t) is not None]
    if st.hang_team is None and len(held) == 2:
        # 30.01: the capture of the flag each team holds now, not its first capture
        caps = {t: st.flags[other(t)].captures[-1].seq for t in (R, B)}
        first = min((R, B), key=caps.__getitem__)
        assert res.flag_held_team == first
        assert res.points[first] == max(0, 2 - res.penalty_points.get(first, 0))
        assert res.points[other(first)] == 0


@given(hs.sets(hs.sampled_from(["x", "y"]), min_size=1), hs.booleans())
def test_32_no_show_symmetric(absent, swap):
    teams = ("y", "x") if swap else ("x", "y")
    res = no_show_result(Settings(), absent, teams)
    ref_res = no_show_result(Settings(), absent, ("x", "y"))
    assert dict(res.points) == dict(ref_res.points) and dict(res.diff) == dict(ref_res.diff)
    assert sum(res.diff.values()) == 0
    for t in absent:
        assert res.points[t] == 0


@given(
    hs.lists(
        hs.tuples(
            hs.sampled_from("abcde"),
            hs.sampled_from("abcde"),
            hs.sampled_from([(3, 0), (0, 3), (1, 1), (2, 0), (0, 2)]),
            hs.integers(-5, 5),
        ).filter(lambda g: g[0] != g[1]),
        max_size=12,
    )
)
def test_standings_sorted_and_ranked(games):
    results = [
        GameResult(f"g{i}", (a, b), {a: pa, b: pb}, {a: d, b: -d}, {a: 0, b: 0}, "draw")
        for i, (a, b, (pa, pb), d) in enumerate(games)
    ]
    rows = standings(results)
    keys = [(r.points, r.diff) for r in rows]
    assert keys == sorted(keys, reverse=True)
    assert sum(r.games for r in rows) == 2 * len(results)
    for i, r in enumerate(rows):
        assert 1 <= r.rank <= i + 1
        if i and (rows[i - 1].points, rows[i - 1].diff) != (r.points, r.diff):
            assert r.rank == i + 1


@PROPS
@given(hs.data(), hs.integers(0, 4))
def test_18_02_inspection_penalty_points_subtracted_not_below_zero(data, per_hit):
    log = random_game(data, steps=data.draw(hs.integers(0, 45)))
    zero = demo_setup(Settings(inspection_penalty_points=0))
    base = game_result(zero, fold(zero, log.events))
    setup = demo_setup(Settings(inspection_penalty_points=per_hit))
    st = fold(setup, log.events)
    res = game_result(setup, st)
    for t in (R, B):
        hits = sum(1 for p in st.team_players(t) if p.inspection == "hit_found")
        assert res.penalty_points.get(t, 0) == hits * per_hit
        assert res.points[t] == max(0, base.points[t] - hits * per_hit)


def advance(st, e):
    """The incremental fold: ``st`` moved on by ``e``, the event appended next (never a
    void, which may take back any earlier event: the whole log is folded again then)."""
    step(st, e)
    return st


@PROPS
@given(hs.data())
def test_incremental_fold_equals_the_full_fold(data):
    """An incremental fold (``advance``: the last state moved on by the new
    event; a whole refold only after a void) gives the full fold's state after every event,
    legal or not, voids and voids of voids included."""
    from fieldjudge.rules.events import VOID
    from fieldjudge.rules.paintball.state import new_state

    log = random_game(data, legal_only=data.draw(hs.booleans()))
    for _ in range(data.draw(hs.integers(0, 3))):  # voids anywhere, then more events
        log.void(data.draw(hs.sampled_from(log.events)))
        extra = random_game(data, legal_only=data.draw(hs.booleans()))
        for e in extra.events[1:]:  # its own clock_start aside
            log.add(e.type, game_clock_ms=e.game_clock_ms, **e.data)
    st = new_state(SETUP)
    for i, e in enumerate(log.events):
        st = fold(SETUP, log.events[: i + 1], recheck=True) if e.type == VOID else advance(st, e)
        assert st == fold(SETUP, log.events[: i + 1], recheck=True)


@PROPS
@given(hs.data())
def test_a_log_checked_at_every_append_folds_the_same_trusted_or_rechecked(data):
    """The services append an event only when the engine accepts it after the events
    before it; voids go anywhere. The fold trusts such a log (it re-checks only what a
    void reaches, see ``unsettled``) and gives exactly the state of checking every event,
    and an incremental fold (``advance``, a refold after a void) agrees."""
    from fieldjudge.rules.events import VOID
    from fieldjudge.rules.paintball.state import new_state

    log = LogBuilder()
    for _ in range(data.draw(hs.integers(1, 4))):
        source = random_game(data, legal_only=data.draw(hs.booleans()))
        for e in source.events:
            if refusal(fold(SETUP, log.events), e.type, e.data) is None:  # as appended
                log.add(e.type, game_clock_ms=e.game_clock_ms, **e.data)
        if log.events and data.draw(hs.booleans()):
            log.void(data.draw(hs.sampled_from(log.events)))
    st = new_state(SETUP)
    for i, e in enumerate(log.events):
        st = fold(SETUP, log.events[: i + 1]) if e.type == VOID else advance(st, e)
        assert (
            st == fold(SETUP, log.events[: i + 1]) == fold(SETUP, log.events[: i + 1], recheck=True)
        )
