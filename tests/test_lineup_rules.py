"""30.01 ("игра 5х5"): the line-up -- who of a roster with substitutes plays a game. Pure
rules engine: the ``lineup`` event, the refusals, the default pick (20.05 excluded), and
survivors, inspection (18.02), group removals (29.08) and scoring counting the line-up."""

from fakes import LogBuilder, ref
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from fieldjudge.rules.paintball.checks import refusal
from fieldjudge.rules.paintball.scoring import game_result
from fieldjudge.rules.paintball.setup import GameSetup, RosterPlayer, Settings, default_lineup
from fieldjudge.rules.paintball.state import fold

R, B = "red", "blue"
PROPS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def setup_of(red: int = 6, blue: int = 5, dq=frozenset(), **s) -> GameSetup:
    rosters = {
        t: tuple(RosterPlayer(n, f"{t}-{n}") for n in range(1, size + 1))
        for t, size in ((R, red), (B, blue))
    }
    return GameSetup("g1", R, B, rosters, Settings(**s), disqualified=dq)


def test_30_01_a_roster_longer_than_team_size_cannot_start_without_a_line_up():
    setup = setup_of(red=6)
    st = fold(setup, [])
    why = refusal(st, "clock_start", {})
    assert why and why.startswith("30.01") and "red has 6 players" in why
    log = LogBuilder()
    log.add("lineup", team=R, numbers=[1, 2, 3, 4, 6])
    assert refusal(fold(setup, log.events), "clock_start", {}) is None


def test_30_01_a_roster_that_fits_plays_whole_without_a_line_up():
    """Old logs and the demo history: no lineup event, roster of 5 → everybody plays."""
    setup = setup_of(red=5, blue=4)
    log = LogBuilder()
    log.add("clock_start")
    st = fold(setup, log.events)
    assert refusal(fold(setup, []), "clock_start", {}) is None
    assert (st.alive(R), st.alive(B)) == (5, 4)


def test_30_01_line_up_over_team_size_is_refused_naming_the_team():
    st = fold(setup_of(red=7), [])
    why = refusal(st, "lineup", {"team": R, "numbers": [1, 2, 3, 4, 5, 6]})
    assert why == "30.01: red: 6 players in the line-up, at most 5 play"


def test_30_01_line_up_refuses_unknown_twice_and_empty():
    st = fold(setup_of(red=7), [])
    assert "not on the game roster" in refusal(st, "lineup", {"team": R, "numbers": [1, 9]})
    assert "twice" in refusal(st, "lineup", {"team": R, "numbers": [1, 1]})
    assert refusal(st, "lineup", {"team": R, "numbers": []}).startswith("30.01")
    assert "does not play" in refusal(st, "lineup", {"team": "green", "numbers": [1]})


def test_20_05_disqualified_player_cannot_be_in_the_line_up():
    st = fold(setup_of(red=7, dq=frozenset({(R, 2)})), [])
    why = refusal(st, "lineup", {"team": R, "numbers": [1, 2, 3]})
    assert why and why.startswith("20.05")


def test_30_01_line_up_only_before_the_start():
    setup = setup_of(red=6)
    log = LogBuilder()
    log.add("lineup", team=R, numbers=[1, 2, 3, 4, 5])
    log.add("clock_start")
    assert refusal(fold(setup, log.events), "lineup", {"team": R, "numbers": [2, 3, 4, 5, 6]})


def _game_with_sub() -> tuple[GameSetup, LogBuilder]:
    setup = setup_of(red=6)
    log = LogBuilder()
    log.add("lineup", team=R, numbers=[1, 2, 3, 4, 5])
    log.add("clock_start")
    log.tick(10_000)
    return setup, log


def test_30_01_substitute_cannot_be_eliminated_checked_or_chrono_d():
    setup, log = _game_with_sub()
    st = fold(setup, log.events)
    for etype, data in (
        ("elimination", {"reason": "hit", "players": [ref(R, 6)]}),
        ("paint_check_start", ref(R, 6)),
        ("flag_capture", ref(R, 6)),
        ("chrono_reading", {**ref(R, 6), "fps": 280.0, "forbidden_mode": False}),
    ):
        why = refusal(st, etype, data)
        assert why and "not in this game's line-up (30.01)" in why, etype
    assert st.alive(R) == 5 and [p.number for p in st.lineup(R)] == [1, 2, 3, 4, 5]


def test_29_08_group_removal_second_player_from_the_line_up_only():
    setup, log = _game_with_sub()
    st = fold(setup, log.events)
    why = refusal(st, "elimination", {"reason": "playing_on", "players": [ref(R, 1)], "second": 6})
    assert why and "line-up" in why
    ok = {"reason": "playing_on", "players": [ref(R, 1)], "second": 2}
    assert refusal(st, "elimination", ok) is None


def test_18_02_inspection_lists_the_line_up_only_and_refuses_the_substitute():
    setup, log = _game_with_sub()
    log.add("game_end", reason="judge", note="rain")
    st = fold(setup, log.events)
    assert sorted(p.key for p in st.to_inspect() if p.team == R) == [(R, n) for n in range(1, 6)]
    why = refusal(st, "inspection", {**ref(R, 6), "result": "clean"})
    assert why and why.startswith("18.02") and "line-up" in why


def test_30_01_survivors_and_difference_count_the_line_up():
    """6-player red roster, line-up of 4: red plays with fewer; 4 vs 5 survive → −1."""
    setup = setup_of(red=6)
    log = LogBuilder()
    log.add("lineup", team=R, numbers=[1, 2, 3, 4])
    log.add("clock_start")
    log.tick(420_000)
    log.add("game_end", reason="clock")
    st = fold(setup, log.events)
    res = game_result(setup, st)
    assert res.survivors == {R: 4, B: 5}
    assert res.diff[R] == -1 and res.diff[B] == 1


def test_30_01_later_line_up_replaces_the_earlier():
    setup = setup_of(red=7)
    log = LogBuilder()
    log.add("lineup", team=R, numbers=[1, 2, 3, 4, 5])
    log.add("lineup", team=R, numbers=[3, 4, 5, 6, 7])
    st = fold(setup, log.events)
    assert [p.number for p in st.lineup(R)] == [3, 4, 5, 6, 7]
    assert st.player(R, 1).benched and not st.player(R, 7).benched


@PROPS
@given(
    roster=hs.lists(hs.integers(1, 99), min_size=0, max_size=12, unique=True),
    size=hs.integers(0, 7),
    dq=hs.sets(hs.integers(1, 99), max_size=4),
    previous=hs.none() | hs.lists(hs.integers(1, 99), max_size=8),
)
def test_30_01_default_line_up_never_over_size_never_disqualified(roster, size, dq, previous):
    picked = default_lineup(roster, size, dq, previous)
    assert len(picked) <= size
    assert len(set(picked)) == len(picked)
    assert not set(picked) & dq
    assert set(picked) <= set(roster)
    if previous:  # the previous line-up's players still eligible, nobody else
        assert set(picked) <= set(previous)
    else:
        assert list(picked) == [n for n in roster if n not in dq][:size]


NUMS = hs.integers(1, 8)


@PROPS
@given(data=hs.data(), red=hs.integers(1, 8), blue=hs.integers(1, 8))
def test_30_01_any_game_counts_only_its_line_up(data, red, blue):
    """Whatever legal actions follow, a player outside the line-up stays untouched, at most
    ``team_size`` are ever alive, and the survivor difference stays within ±5."""
    setup = setup_of(red=red, blue=blue)
    log = LogBuilder()
    for team, size in ((R, red), (B, blue)):
        if size > 5 or data.draw(hs.booleans()):
            picked = data.draw(hs.lists(hs.integers(1, size), min_size=1, max_size=5, unique=True))
            log.add("lineup", team=team, numbers=picked)
    assert refusal(fold(setup, log.events), "clock_start", {}) is None
    log.add("clock_start")
    for _ in range(data.draw(hs.integers(0, 25))):
        st = fold(setup, log.events)
        t = data.draw(hs.sampled_from([R, B]))
        n = data.draw(NUMS)
        etype, d = data.draw(
            hs.sampled_from(
                [
                    ("elimination", {"reason": "hit", "players": [ref(t, n)]}),
                    ("elimination", {"reason": "judge_removal", "players": [ref(t, n)]}),
                    ("flag_capture", ref(t, n)),
                    ("paint_check_start", ref(t, n)),
                    ("game_end", {"reason": "judge", "note": "x"}),
                    ("inspection", {**ref(t, n), "result": "clean"}),
                ]
            )
        )
        if etype == "elimination" and data.draw(hs.booleans()):
            d = {**d, "second": data.draw(NUMS)}
        if refusal(st, etype, d) is None:
            log.add(etype, **d)
        log.tick(1_000)
    st = fold(setup, log.events)
    for p in st.players.values():
        if p.benched:
            assert p.elimination is None and p.inspection is None and p.check is None
            assert not p.unhit and p.carrying is None
    for team in (R, B):
        assert st.alive(team) <= 5
    if st.ended:
        res = game_result(setup, st)
        assert all(-5 <= v <= 5 for v in res.diff.values())


def test_30_01_setup_problems_warn_of_a_team_of_fewer_and_accept_substitutes():
    assert setup_of(red=7, blue=5).problems() == []  # substitutes are no mistake
    (warn,) = setup_of(red=4, blue=5).problems()
    assert warn == "30.01: red: 4 players on the roster, fewer than 5: the team plays with fewer"
