"""Rule tests, one section each (the section is in the test name). Scripted dice: a roll
succeeds when at or under the threshold; FillDice gives 1 after the scripted values."""

from __future__ import annotations

import pytest
from quidditch_helpers import D, FillDice, kinds, make_state, only

from fieldjudge.rules.quidditch.declarations import valid_actions
from fieldjudge.rules.quidditch.post import render_post
from fieldjudge.rules.quidditch.resolve import resolve_round
from fieldjudge.rules.quidditch.settings import EndCondition
from fieldjudge.rules.quidditch.state import LOOSE, THROW_UP


def resolve(st, decls, *values, fill=1):
    return resolve_round(st, decls, FillDice(values, st, fill=fill))


def warnings_of(res, kind="player_warning"):
    return [
        (o.players[0] if o.players else None, o.section, dict(o.data))
        for o in res.outcomes
        if o.kind == kind
    ]


# 0 / 11.2 post order ------------------------------------------------------------------
def test_0_beaters_post_after_chasers():
    st = make_state(round_no=1)
    decls = [
        D("g_b1", post_order=1),
        D("g_c1", "catch_throw_up", post_order=2),
        D("s_c1", "catch_throw_up", post_order=3),
    ]
    res = resolve(st, decls)
    w = warnings_of(res)
    assert [(p, s, d["rule"]) for p, s, d in w] == [("g_b1", "11.2", "beaters_last")]
    assert res.state.player_warnings == {"g_b1": 1}


def test_0_chasers_of_the_carrying_team_first():
    st = make_state(holder="g_c1")
    decls = [D("s_c1", post_order=1), D("g_c1", post_order=2), D("s_c2", post_order=3)]
    w = warnings_of(resolve(st, decls))
    assert [(p, d["rule"]) for p, _, d in w] == [("s_c1", "carrying_team_first")]


def test_0_keeper_posts_after_the_attacking_chaser():
    st = make_state(holder="g_c1")
    decls = [
        D("s_k", "guard", ring="left", post_order=1),
        D("g_c1", "shoot", ring="right", post_order=2),
    ]
    w = warnings_of(resolve(st, decls))
    assert [(p, d["rule"]) for p, _, d in w] == [("s_k", "keeper_after_shooter")]


def test_0_targeted_seeker_posts_before_beaters():
    st = make_state()
    st.bludgers[0].target = "g_s"
    decls = [D("s_b1", post_order=1), D("g_s", feint="Штопор", post_order=2)]
    w = warnings_of(resolve(st, decls))
    assert [(p, d["rule"]) for p, _, d in w] == [("g_s", "targeted_before_beaters")]


def test_0_good_order_no_warning():
    st = make_state(holder="g_c1")
    decls = [
        D("g_c1", post_order=1),
        D("s_c1", post_order=2),
        D("g_s", "search", post_order=3),
        D("s_b1", post_order=4),
    ]
    assert warnings_of(resolve(st, decls)) == []


# 2 throw-up ---------------------------------------------------------------------------
def test_2_throw_up_random_among_those_who_tried():
    st = make_state(round_no=1)
    decls = [D("g_c1", "catch_throw_up", post_order=1), D("s_c1", "catch_throw_up", post_order=2)]
    res = resolve(st, decls, 2)  # k=2: value 2 → index 1
    assert res.state.quaffle.holder == "s_c1" and res.state.quaffle.since_round == 1
    assert st.quaffle.status == THROW_UP  # the input state is never mutated
    assert only(res, "throw_up").rolls[0].purpose.startswith("розыгрыш квоффла")


# 3 carrying ---------------------------------------------------------------------------
def test_3_shot_only_after_one_round_of_carrying():
    st = make_state(holder="g_c1", since=2)
    assert "shoot" not in valid_actions(st, "g_c1")
    res = resolve(st, [D("g_c1", "shoot", ring="left", post_order=1)])
    assert "shot_too_early" in kinds(res) and res.state.score == {"g": 0, "s": 0}
    assert "shoot" in valid_actions(res.state, "g_c1")


def test_3_steal_restarts_the_carrying_count():
    st = make_state(holder="g_c1", since=1, round_no=3)
    res = resolve(st, [D("s_c1", "steal", target="g_c1", post_order=1)], 1)
    assert (res.state.quaffle.holder, res.state.quaffle.since_round) == ("s_c1", 3)


# 4 steals -----------------------------------------------------------------------------
def test_4_one_steal_per_team_per_round():
    st = make_state(holder="g_c1")
    decls = [
        D("g_c1", post_order=1),
        D("s_c1", "steal", target="g_c1", post_order=2),
        D("s_c2", "steal", target="g_c1", post_order=3),
    ]
    res = resolve(st, decls, 99)
    assert only(res, "steal").players[0] == "s_c1" and not only(res, "steal").data["success"]
    assert only(res, "steal_refused").players[0] == "s_c2"
    assert res.state.quaffle.holder == "g_c1"


def test_4_steal_feint_adds_bonus_within_range():
    st = make_state(holder="g_c1")
    decl = D("s_c1", "steal", target="g_c1", feint="Ложный замах", feint_bonus=30, post_order=1)
    res = resolve(st, [decl], 50)
    o = only(res, "steal")
    assert o.data["bonus"] == 10 and o.rolls[0].threshold == 50 and o.data["success"]


# 5 passes -----------------------------------------------------------------------------
def test_5_own_pass_is_caught():
    st = make_state(holder="g_c1")
    decls = [
        D("g_c1", "pass", target="g_c2", zone="centre", post_order=1),
        D("g_c2", zone="centre", post_order=2),
    ]
    res = resolve(st, decls)
    assert "pass_caught" in kinds(res)
    assert (res.state.quaffle.holder, res.state.quaffle.since_round) == ("g_c2", 1)


def test_5_pass_to_a_chaser_in_another_zone_is_wasted():
    st = make_state(holder="g_c1")
    decls = [
        D("g_c1", "pass", target="g_c2", zone="centre", post_order=1),
        D("g_c2", zone="rings:s", post_order=2),
    ]
    res = resolve(st, decls)
    assert only(res, "pass_wasted").data["reason"] == "receiver_elsewhere"
    assert res.state.quaffle.status == LOOSE and res.state.quaffle.holder is None


def test_5_pass_to_a_chaser_who_gave_no_zone_is_wasted():
    st = make_state(holder="g_c1")
    decls = [D("g_c1", "pass", target="g_c2", zone="centre", post_order=1), D("g_c2", post_order=2)]
    assert only(resolve(st, decls), "pass_wasted").data["reason"] == "receiver_no_zone"


def test_5_interception_takes_the_ball_and_restarts_carrying():
    st = make_state(holder="g_c1")
    decls = [
        D("g_c1", "pass", target="g_c2", zone="centre", post_order=1),
        D("g_c2", zone="centre", post_order=2),
        D("s_c1", "intercept", target="g_c1", post_order=3),
    ]
    res = resolve(st, decls, 40)
    assert only(res, "pass_intercepted").rolls[0].threshold == 40
    assert (res.state.quaffle.holder, res.state.quaffle.since_round) == ("s_c1", 2)


def test_5_two_successful_interceptors_highest_value_takes_it():
    st = make_state(holder="g_c1")
    decls = [
        D("g_c1", "pass", target="g_c2", zone="centre", post_order=1),
        D("g_c2", zone="centre", post_order=2),
        D("s_c1", "intercept", target="g_c1", post_order=3),
        D("s_c2", "intercept", target="g_c1", post_order=4),
    ]
    res = resolve(st, decls, 10, 20, 30, 70)  # both succeed; contest 30 vs 70
    assert res.state.quaffle.holder == "s_c2"


# 6 shots ------------------------------------------------------------------------------
def _shot(ring, keeper_ring, shot_feint=None, sb=0, save_feint=None, kb=0):
    return [
        D("g_c1", "shoot", ring=ring, feint=shot_feint, feint_bonus=sb, post_order=1),
        D("s_k", "guard", ring=keeper_ring, feint=save_feint, feint_bonus=kb, post_order=2),
    ]


def test_6_same_ring_no_feint_saved():
    st = make_state(holder="g_c1")
    res = resolve(st, _shot("left", "left"))
    o = only(res, "shot")
    assert not o.data["goal"] and o.rolls == ()
    assert res.state.score == {"g": 0, "s": 0} and res.state.quaffle.holder == "s_k"


def test_6_different_ring_goal_10_points():
    st = make_state(holder="g_c1")
    res = resolve(st, _shot("left", "middle"))
    assert only(res, "shot").data["goal"]
    assert res.state.score == {"g": 10, "s": 0} and res.state.goals["g"] == 1
    # after a goal the conceding keeper has the quaffle and passes (6)
    assert res.state.quaffle.holder == "s_k" and "pass" in valid_actions(res.state, "s_k")


def test_6_same_ring_chaser_feint_lowers_the_save():
    st = make_state(holder="g_c1")
    res = resolve(st, _shot("left", "left", "Вулонгонгский зигзаг", 15), 86)
    o = only(res, "shot")
    assert o.rolls[0].threshold == 85 and o.data["goal"]


def test_6_keeper_feint_cancels_the_chaser_feint():
    st = make_state(holder="g_c1")
    res = resolve(st, _shot("left", "left", "Вулонгонгский зигзаг", 15, "Двойная восьмёрка", 15))
    o = only(res, "shot")
    assert o.rolls == () and not o.data["goal"]


def test_6_different_ring_keeper_feint_may_save():
    st = make_state(holder="g_c1")
    res = resolve(st, _shot("left", "right", save_feint="Двойная восьмёрка", kb=20), 20)
    o = only(res, "shot")
    assert o.rolls[0].threshold == 20 and not o.data["goal"]


def test_6_keeper_pass_after_goal_is_interceptable():
    st = make_state(holder="s_k", since=2, round_no=3)
    decls = [
        D("s_k", "pass", target="s_c1", post_order=1),
        D("s_c1", zone="rings:s", post_order=2),
        D("g_c1", "intercept", target="s_k", post_order=3),
    ]
    res = resolve(st, decls, 99)
    assert "pass_caught" in kinds(res) and res.state.quaffle.holder == "s_c1"
    res = resolve(st, decls, 1)
    assert res.state.quaffle.holder == "g_c1"


# 5.1 / 11.7 penalties -----------------------------------------------------------------
def test_11_7_third_team_warning_gives_a_penalty():
    st = make_state(holder="g_c1")
    st.team_warnings["g"] = 2
    res = resolve(st, [D("g_c1", post_order=1, flags=("11.6",))])
    assert res.state.team_warnings["g"] == 3
    assert [(p.team, p.section) for p in res.state.penalties] == [("g", "11.7")]
    assert "penalty_awarded" in kinds(res)


def test_5_1_penalty_resolved_as_a_shot():
    st = make_state(holder="g_c1")
    st.team_warnings["g"] = 2
    st = resolve(st, [D("g_c1", post_order=1, flags=("11.6",))]).state
    assert "penalty_shot" in valid_actions(st, "s_c2")
    decls = [
        D("s_c2", "penalty_shot", ring="left", post_order=1),
        D("g_k", "guard", ring="right", post_order=2),
    ]
    res = resolve(st, decls)
    assert only(res, "penalty").data["goal"] and res.state.score["s"] == 10
    assert res.state.penalties == [] and res.state.quaffle.holder == "g_k"


def test_11_1_outcome_in_post_is_a_non_game_warning():
    st = make_state(holder="g_c1")
    res = resolve(st, [D("g_c1", post_order=1, flags=("11.1",))])
    assert res.state.player_warnings == {"g_c1": 1} and res.state.team_warnings["g"] == 0


def test_11_3_wrong_ball_team_warning_and_out_one_round():
    st = make_state()
    res = resolve(st, [D("g_b1", post_order=1, flags=("11.3",))])
    assert res.state.team_warnings["g"] == 1 and res.state.out == {"g_b1": 1}
    assert valid_actions(res.state, "g_b1") == []
    nxt = resolve(res.state, [])
    assert nxt.state.is_active("g_b1")


# 7 bludgers ---------------------------------------------------------------------------
def test_7_skipped_post_is_knocked_down_for_two_rounds():
    st = make_state(holder="g_c1")
    st.bludgers[0].target = "g_c1"
    res = resolve(st, [], 1, 99)  # injury description roll 1, "ends match" roll 99
    assert only(res, "knocked_down").data["skipped"]
    inj = only(res, "injury")
    assert inj.data["text"] == "ушиб плеча" and not inj.data["ends_match"]
    s = res.state
    assert s.out == {"g_c1": 2} and s.quaffle.status == LOOSE  # a fallen carrier drops it
    s = resolve(s, []).state
    assert s.out == {"g_c1": 1} and not s.is_active("g_c1")
    s = resolve(s, []).state
    assert s.out == {} and s.is_active("g_c1")


def test_7_injury_may_end_the_match_for_the_player():
    st = make_state()
    st.bludgers[0].target = "s_c1"
    res = resolve(st, [D("s_c1", post_order=1)], 3, 5)
    assert res.state.removed == {"s_c1": "injury"} and "s_c1" not in res.state.out


def test_7_bludgers_never_target_keepers_by_themselves():
    st = make_state()
    for i in range(30):
        res = resolve(st, [], fill=i % 100 + 1)
        for t in res.state.bludger_targets():
            assert t is None or res.state.setup.player(t).position != "keeper"


# 8 beaters ----------------------------------------------------------------------------
def _hit(aim):
    return [
        D("g_c1", feint="Штопор", post_order=1),
        D("g_b1", "hit_bludger", bludger=0, target=aim, post_order=2),
    ]


def test_8_hit_away_bludger_knocks_the_aimed_and_rests_next_round():
    st = make_state()
    st.bludgers[0].target = "g_c1"
    res = resolve(st, _hit("s_c1"), 1, 1, 1, 99)  # hit, accurate; s_c1 skipped: injury, not ending
    o = only(res, "hit_away")
    assert o.data["accurate"] and [r.threshold for r in o.rolls] == [18, 64]
    assert "dodge" not in [x.kind for x in res.outcomes if x.players[:1] == ("g_c1",)]
    assert res.state.out == {"s_c1": 2}
    assert res.state.bludgers[0].rest and res.state.bludger_targets()[0] is None
    assert "бладжер 1 не наводится" in render_post(res)


def test_8_missed_hit_is_wasted_and_bludger_targets_at_random():
    st = make_state()
    st.bludgers[0].target = "g_c1"
    res = resolve(st, _hit("s_c1"), 1, 99)
    assert not only(res, "hit_away").data["accurate"]
    assert res.state.out == {} and not res.state.bludgers[0].rest
    (draw,) = [r for r in res.rolls if r.purpose.startswith("цель бладжера 1 ")]
    assert draw.value == 1 and res.state.bludgers[0].target == "g_c1"  # the first candidate


def test_8_failed_interception_leaves_the_target_to_dodge():
    st = make_state()
    st.bludgers[0].target = "g_c1"
    res = resolve(st, _hit("s_c1"), 99, 1)
    assert "hit_missed_ball" in kinds(res) and only(res, "dodge").data["success"]


def test_11_5_bludger_at_keeper_outside_scoring_chance():
    st = make_state()
    st.bludgers[0].target = "g_c1"
    res = resolve(st, _hit("s_k"), 1, 1, 1, 99)
    assert res.state.team_warnings["g"] == 1
    assert [(p.team, p.section) for p in res.state.penalties] == [("g", "11.5")]


# 9 snitch -----------------------------------------------------------------------------
def test_9_catch_gives_150_and_ends_the_match():
    st = make_state()
    st.seekers["g_s"].caught_up = True
    res = resolve(st, [D("g_s", "catch_snitch", post_order=1)], 99, 1)  # no vanish, caught
    assert res.state.score["g"] == 150 and res.state.ended and res.state.end_reason == "snitch"
    assert valid_actions(res.state, "g_c1") == []
    with pytest.raises(ValueError):
        resolve(res.state, [])


def _calm(s):
    for b in s.bludgers:
        b.target = None
    return s


def test_9_chase_takes_three_rounds_then_catch():
    st = make_state(vanish=0.0)
    s = _calm(resolve(st, [D("g_s", "search", post_order=1)], 1).state)  # spotted
    assert s.seekers["g_s"].chasing and s.seekers["g_s"].rounds_left == 3
    for left in (2, 1):
        s = _calm(resolve(s, [D("g_s", "chase", post_order=1)], 100).state)
        assert s.seekers["g_s"].rounds_left == left
    s = resolve(s, [D("g_s", "chase", post_order=1)], 100).state
    assert s.seekers["g_s"].caught_up
    assert "catch_snitch" in valid_actions(s, "g_s")


def test_9_other_seeker_may_follow_without_spotting():
    st = make_state(vanish=0.0)
    st.seekers["g_s"].chasing, st.seekers["g_s"].rounds_left = True, 2
    assert "chase" in valid_actions(st, "s_s")
    res = resolve(st, [D("g_s", "chase", post_order=1), D("s_s", "chase", post_order=2)])
    assert "follow" in kinds(res) and res.state.seekers["s_s"].rounds_left == 2


def test_9_vanish_resets_every_chase():
    st = make_state()
    st.seekers["g_s"].chasing, st.seekers["g_s"].rounds_left = True, 1
    res = resolve(st, [D("g_s", "chase", post_order=1)], 15)
    assert "snitch_vanished" in kinds(res) and not res.state.snitch_visible


def test_9_both_caught_up_one_drawn():
    st = make_state(vanish=0.0)
    st.seekers["g_s"].caught_up = st.seekers["s_s"].caught_up = True
    decls = [D("g_s", "catch_snitch", post_order=1), D("s_s", "catch_snitch", post_order=2)]
    res = resolve(st, decls, 50, 2, 1)  # no vanish; draw: index 1 → s_s; caught
    assert only(res, "catch").players == ("s_s",) and res.state.score["s"] == 150


# 10 collisions ------------------------------------------------------------------------
def test_10_fallen_carrier_drops_quaffle_first_pick_up_gets_it():
    st = make_state(holder="g_c1")
    decls = [
        D("g_c1", post_order=1),
        D("s_c1", "steal", target="g_c1", push=True, post_order=2),
        D("g_c2", "pick_up", post_order=3),
        D("s_c2", "pick_up", post_order=4),
    ]
    res = resolve(st, decls, 30, 21)  # carrier falls (30 ≤ 30), pusher stays (21 > 20)
    assert only(res, "push").data["target_fell"] and "steal" not in kinds(res)
    assert res.state.quaffle.holder == "g_c2" and res.state.out == {"g_c1": 2}


def test_11_4_push_outside_allowed_situations():
    st = make_state()
    res = resolve(st, [D("s_c1", "push", target="g_s", post_order=1)], 1, 99)  # victim falls
    o = only(res, "push")
    assert not o.data["legal"] and o.section == "11.4"
    s = res.state
    assert s.removed == {"s_c1": "11.4"} and s.team_warnings["s"] == 1
    assert [(p.team, p.section) for p in s.penalties] == [("s", "11.4")]


def test_10_seeker_push_during_catch_attempt_is_legal():
    st = make_state(vanish=0.0)
    st.seekers["g_s"].caught_up = True
    decls = [D("g_s", "catch_snitch", post_order=1), D("s_s", "push", target="g_s", post_order=2)]
    res = resolve(st, decls, 1, 99)  # g_s falls → no catch
    assert only(res, "push").data["legal"] and "catch" not in kinds(res)
    assert res.state.team_warnings["s"] == 0 and not res.state.seekers["g_s"].caught_up


# end conditions (9) -------------------------------------------------------------------
def test_9_points_limit_ends_the_match():
    st = make_state(holder="g_c1", end=EndCondition("points", 10))
    res = resolve(st, _shot("left", "middle"))
    assert res.state.ended and res.state.end_reason == "points"


def test_9_round_limit_ends_the_match():
    st = make_state(round_no=5, end=EndCondition("rounds", 5))
    res = resolve(st, [])
    assert res.state.ended and res.state.end_reason == "rounds"


def test_valid_actions_for_the_screen():
    st = make_state(holder="g_c1", since=1)
    # 10, 11.4: an (illegal) push is offered to chasers, beaters and keepers, last
    assert valid_actions(st, "g_c1") == ["none", "pass", "shoot", "push"]
    assert valid_actions(st, "s_c1") == ["none", "steal", "intercept", "push"]
    assert valid_actions(st, "g_k") == ["none", "guard", "push"]
    assert valid_actions(st, "g_s") == ["none", "search"]
    assert valid_actions(st, "g_b1") == ["none", "push"]
    st.bludgers[0].target = "g_c2"
    assert valid_actions(st, "g_b1") == ["none", "hit_bludger", "push"]
    assert valid_actions(make_state(round_no=1), "g_c1") == ["none", "catch_throw_up", "push"]
