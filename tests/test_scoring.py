"""Game points (30.01), no-shows (32.01-32.02) and standings."""

import pytest
from fakes import LogBuilder, demo_setup, ref

from fieldjudge.rules.paintball.scoring import GameResult, game_result, no_show_result, standings
from fieldjudge.rules.paintball.setup import Settings
from fieldjudge.rules.paintball.state import fold

R, B = "red", "blue"


def finish(setup, log, inspect=True):
    log.tick(1_000)
    if fold(setup, log.events).phase == "running":
        log.add("game_end", reason="clock", game_clock_ms=setup.settings.game_length_ms)
    st = fold(setup, log.events)
    if inspect:
        for p in st.to_inspect():
            log.add("inspection", result="clean", **ref(p.team, p.number))
    return fold(setup, log.events)


def started():
    setup = demo_setup()
    log = LogBuilder()
    log.add("clock_start")
    log.tick(10_000)
    return setup, log


def test_30_01_draw_when_no_flag_captured():
    setup, log = started()
    log.add("elimination", reason="hit", players=[ref(B, 1)])
    st = finish(setup, log)
    res = game_result(setup, st)
    assert res.final and res.outcome == "draw"
    assert dict(res.points) == {R: 1, B: 1}
    assert dict(res.diff) == {R: 1, B: -1}
    assert res.winner == R  # equal points, difference breaks the tie


def test_30_01_flag_hang_3_points_and_loss_0():
    setup, log = started()
    log.add("flag_capture", **ref(B, 3))
    log.add("flag_hang", **ref(B, 3))
    log.add("hang_verdict", paint="clean", fps=290, forbidden_mode=False)
    res = game_result(setup, finish(setup, log))
    assert (res.outcome, res.flag_hang_team) == ("flag_hang", B)
    assert dict(res.points) == {R: 0, B: 3}


def test_30_01_flag_held_at_end_2_points():
    setup, log = started()
    log.add("flag_capture", **ref(R, 1))
    res = game_result(setup, finish(setup, log))
    assert res.outcome == "flag_held" and dict(res.points) == {R: 2, B: 0}


def test_30_01_both_flags_held_only_first_capturer_gets_2():
    setup, log = started()
    log.add("flag_capture", **ref(B, 4))
    log.tick(5_000)
    log.add("flag_capture", **ref(R, 1))
    res = game_result(setup, finish(setup, log))
    assert res.first_capture_team == B and res.flag_held_team == B
    assert dict(res.points) == {R: 0, B: 2}


def test_30_01_both_flags_a_flag_captured_and_lost_does_not_count():
    # 30.01 «захватили и удерживают»: the capture of the flag a team holds now decides
    setup, log = started()
    log.add("flag_capture", **ref(R, 1))  # red first
    log.add("elimination", reason="hit", players=[ref(R, 1)])  # 22.04 spare up
    log.add("flag_capture", **ref(B, 4))  # blue holds since here
    log.add("flag_capture", **ref(R, 2))  # red again, the spare: after blue's capture
    res = game_result(setup, finish(setup, log))
    assert res.first_capture_team == R
    assert res.flag_held_team == B and dict(res.points) == {R: 0, B: 2}


def test_30_01_flag_lost_before_the_end_is_a_draw():
    setup, log = started()
    log.add("flag_capture", **ref(R, 1))
    log.add("elimination", reason="hit", players=[ref(R, 1)])
    res = game_result(setup, finish(setup, log))
    assert res.outcome == "draw" and dict(res.points) == {R: 1, B: 1}


def test_30_01_difference_clamped_to_plus_minus_5():
    setup = demo_setup(Settings(diff_clamp=3))
    log = LogBuilder()
    log.add("clock_start")
    for n in range(1, 6):
        log.add("elimination", reason="hit", players=[ref(B, n)])
    res = game_result(setup, finish(setup, log))
    assert dict(res.survivors) == {R: 5, B: 0}
    assert dict(res.diff) == {R: 3, B: -3}


def test_30_02_result_is_provisional_until_inspection_done():
    setup, log = started()
    st = finish(setup, log, inspect=False)
    assert st.phase == "inspection"
    assert game_result(setup, st).final is False


def test_18_02_inspection_changes_survivor_difference():
    setup, log = started()
    log.tick(500_000)
    log.add("game_end", reason="clock")
    log.add("inspection", result="did_not_report", **ref(R, 1))
    log.add("inspection", result="hit_found", **ref(R, 2))
    st = finish(setup, log)
    assert dict(game_result(setup, st).diff) == {R: -2, B: 2}


def test_32_01_one_team_absent():
    res = no_show_result(Settings(), {B}, (R, B), "g7")
    assert dict(res.points) == {R: 3, B: 0}
    assert dict(res.diff) == {R: 5, B: -5}
    assert res.outcome == "no_show" and res.no_show == {B}


def test_32_01_both_absent_0_each():
    res = no_show_result(Settings(), {R, B}, (R, B))
    assert dict(res.points) == {R: 0, B: 0} and dict(res.diff) == {R: 0, B: 0}


def test_32_01_no_show_logged_in_game_scores_as_no_show():
    setup = demo_setup()
    log = LogBuilder()
    log.add("no_show", absent=[R])
    res = game_result(setup, fold(setup, log.events))
    assert dict(res.points) == {R: 0, B: 3}


def test_32_01_no_show_needs_an_absent_team():
    with pytest.raises(ValueError):
        no_show_result(Settings(), set(), (R, B))


def gr(a, b, pa, pb, da, gid="g"):
    return GameResult(gid, (a, b), {a: pa, b: pb}, {a: da, b: -da}, {a: 0, b: 0}, "draw")


def test_standings_points_then_difference():
    rows = standings([gr("x", "y", 3, 0, 2), gr("y", "z", 1, 1, 1), gr("x", "z", 0, 3, -1)])
    assert [(r.team, r.points, r.diff, r.rank) for r in rows] == [
        ("z", 4, 0, 1),
        ("x", 3, 1, 2),
        ("y", 1, -1, 3),
    ]
    x = rows[1]
    assert (x.games, x.wins, x.losses, x.draws) == (2, 1, 1, 0)


def test_standings_head_to_head_breaks_remaining_tie():
    # x and y equal on points (3) and difference (+1); y beat x head-to-head
    results = [gr("x", "y", 0, 3, -1), gr("x", "z", 3, 0, 2), gr("y", "z", 0, 3, 0)]
    rows = standings(results)
    assert [(r.team, r.points, r.diff, r.rank) for r in rows] == [
        ("y", 3, 1, 1),
        ("x", 3, 1, 2),
        ("z", 3, -2, 3),
    ]
    assert "head-to-head 3 pts" in rows[0].tie_break and rows[2].tie_break == ""


def test_standings_tied_teams_that_never_met_say_so():
    """Two teams level on points and difference that have not played each other: no
    head-to-head figure to show (it read «0 pts, +0 diff» as if they had drawn)."""
    from fieldjudge.i18n import rule_text

    results = [gr("a", "x", 0, 3, -2, "g1"), gr("b", "y", 0, 3, -2, "g2")]
    rows = {r.team: r for r in standings(results)}
    assert rows["a"].rank == rows["b"].rank
    for t in ("a", "b"):
        assert rule_text(rows[t].tie_break, lang="en") == (
            "head-to-head: has not played the teams level with it"
        )
        assert rule_text(rows[t].tie_break, lang="ru") == "личных встреч с равными по очкам не было"


def test_standings_full_tie_shares_rank_and_counts_flag_hangs():
    a = GameResult("g", ("x", "y"), {"x": 1, "y": 1}, {"x": 0, "y": 0}, {"x": 2, "y": 2}, "draw")
    h = GameResult(
        "h",
        ("z", "w"),
        {"z": 3, "w": 0},
        {"z": 4, "w": -4},
        {"z": 4, "w": 0},
        "flag_hang",
        flag_hang_team="z",
    )
    rows = standings([a, h], teams=["v"])
    by = {r.team: r for r in rows}
    assert by["x"].rank == by["y"].rank == 2
    assert by["z"].flag_hangs == 1 and by["z"].rank == 1
    assert by["v"].games == 0 and by["v"].rank == 4  # 0 pts, 0 diff
    assert by["w"].rank == 5  # 0 pts, -4 diff


def test_standings_no_shows_counted():
    rows = standings([no_show_result(Settings(), {"y"}, ("x", "y"))])
    by = {r.team: r for r in rows}
    assert by["y"].no_shows == 1 and by["x"].points == 3 and by["y"].diff == -5
