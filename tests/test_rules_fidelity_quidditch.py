"""Issue 11, quidditch items 13-20: each reading played through the engine, citing its
section of rulebook file 000 in the test name. Scripted dice: a roll succeeds at or under
its threshold; FillDice gives 1 after the scripted values."""

from __future__ import annotations

from dataclasses import asdict, replace
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from quidditch_helpers import D, FillDice, kinds, make_state, only

from fieldjudge.i18n import rule_text
from fieldjudge.rules.quidditch.closing import roll_refusal
from fieldjudge.rules.quidditch.declarations import valid_actions, valid_bludgers, valid_targets
from fieldjudge.rules.quidditch.feints import DEFAULT_FEINTS, Feint, FeintCatalogue
from fieldjudge.rules.quidditch.post import render_post
from fieldjudge.rules.quidditch.resolve import make_dice, resolve_passes, resolve_round
from fieldjudge.rules.quidditch.sample import sample_setup
from fieldjudge.rules.quidditch.settings import QuidditchSettings
from fieldjudge.rules.quidditch.state import SeekerState, new_match
from fieldjudge.services import create_tournament, open_tournament
from fieldjudge.services.quidditch import QuidditchSession, SessionError


def resolve(st, decls, *values, fill=1):
    return resolve_round(st, decls, FillDice(values, st, fill=fill))


PASS_G = [
    D("g_c1", "pass", target="g_c2", zone="centre", post_order=1),
    D("g_c2", zone="centre", post_order=2),
    D("s_c1", "intercept", target="g_c1", post_order=3),
]


# --- 13. interception: flat | contest (5) ----------------------------------------------


def test_5_interception_flat_default_a_successful_roll_takes_the_ball():
    st = make_state(holder="g_c1")
    assert st.setup.settings.interception == "flat"
    res = resolve(st, PASS_G, 30)
    o = only(res, "pass_intercepted")
    assert [r.value for r in o.rolls] == [30] and "contest" not in o.data
    assert res.state.quaffle.holder == "s_c1"


def test_5_interception_contest_receiver_draws_higher_value_keeps_the_ball():
    st = make_state(holder="g_c1", interception="contest")
    res = resolve(st, PASS_G, 30, 62)  # interception 30 ≤ 40 succeeds; receiver draws 62
    o = only(res, "pass_caught")
    assert o.data["contest"] == [{"player": "s_c1", "value": 30}, {"player": "g_c2", "value": 62}]
    assert [(r.value, r.threshold) for r in o.rolls] == [(30, 40), (62, None)]
    assert res.state.quaffle.holder == "g_c2"
    post = render_post(res)
    assert "Спор за мяч (п. 5, забирает большее значение): " in post
    assert "— 30" in post and "— 62" in post  # the post shows both values


def test_5_interception_contest_interceptor_higher_value_takes_it():
    st = make_state(holder="g_c1", interception="contest")
    res = resolve(st, PASS_G, 35, 20)
    o = only(res, "pass_intercepted")
    assert o.players == ("g_c1", "g_c2", "s_c1")
    assert o.data["contest"] == [{"player": "s_c1", "value": 35}, {"player": "g_c2", "value": 20}]
    assert (res.state.quaffle.holder, res.state.quaffle.since_round) == ("s_c1", 2)


def test_5_interception_contest_failed_interception_no_draw():
    st = make_state(holder="g_c1", interception="contest")
    res = resolve(st, PASS_G, 41)
    o = only(res, "pass_caught")
    assert [r.value for r in o.rolls] == [41] and "contest" not in o.data


def test_5_interception_contest_equal_values_are_drawn_again():
    st = make_state(holder="g_c1", interception="contest")
    res = resolve(st, PASS_G, 33, 33, 10, 70)  # tie 33:33, then s_c1 10, g_c2 70
    assert only(res, "pass_caught").data["contest"][1] == {"player": "g_c2", "value": 33}
    assert res.state.quaffle.holder == "g_c2"
    assert "Переброс при равенстве" in render_post(res)


def test_5_interception_setting_is_validated_and_serialised():
    with pytest.raises(ValueError, match="interception"):
        QuidditchSettings(interception="both")
    s = QuidditchSettings(interception="contest", vanish_mode="per_chase")
    assert QuidditchSettings.from_dict(asdict(s)) == s


# --- 14. passes resolved within the round (0, 5) ---------------------------------------


def test_5_passes_resolved_within_the_round_then_the_round_skips_them():
    seed = "in-round"
    st = make_state(holder="g_c1")
    first = resolve_passes(st, PASS_G, make_dice(st, seed))
    mid = first.state
    assert kinds(first) in (["pass_caught"], ["pass_intercepted"])  # posted within the round
    assert mid.round_no == 2 and mid.passes_resolved == ["g_c1"]
    assert [r.n for r in first.rolls] == [1] and mid.next_roll_n == 2
    holder = mid.quaffle.holder
    assert holder in ("g_c2", "s_c1")
    more = [*PASS_G, D("g_s", "search", post_order=4)]
    end = resolve_round(mid, more, make_dice(mid, seed))
    assert not [x for x in kinds(end) if x.startswith("pass") or x == "intercept_no_pass"]
    assert [r.n for r in end.rolls][0] == 2  # numbering goes on, no roll drawn twice
    assert end.state.round_no == 3 and end.state.passes_resolved == []
    assert end.state.quaffle.holder == holder


def test_5_a_second_pass_in_the_same_round_is_resolved_after_the_first():
    st = make_state(holder="g_c1")
    one = resolve_passes(st, PASS_G[:2], FillDice([], st))
    assert one.state.quaffle.holder == "g_c2"
    decls = [
        *PASS_G[:2],
        D("g_c3", zone="centre", post_order=3),
        D("g_c2", "pass", target="g_c3", zone="centre", post_order=4),
    ]
    decls = [d for d in decls if not (d.player == "g_c2" and d.action == "none")]
    two = resolve_passes(one.state, decls, FillDice([], one.state))
    assert two.state.quaffle.holder == "g_c3"
    assert two.state.passes_resolved == ["g_c1", "g_c2"]


def test_5_passes_within_the_round_stop_at_a_steal_or_shot():
    st = make_state(holder="g_c1")
    decls = [
        D("s_c1", "steal", target="g_c1", post_order=1),
        D("g_c1", "pass", target="g_c2", zone="centre", post_order=2),
        D("g_c2", zone="centre", post_order=3),
    ]
    res = resolve_passes(st, decls, FillDice([], st))
    assert res.outcomes == [] and res.state.passes_resolved == []


def test_5_passes_within_the_round_refused_before_the_throw_up():
    st = make_state(round_no=1)
    with pytest.raises(ValueError, match=r"^5: passes are resolved within the round"):
        resolve_passes(st, [], FillDice([], st))


# --- 15. illegal contact (10, 11.4) -----------------------------------------------------


@pytest.mark.parametrize("pusher", ["s_c1", "s_b1", "s_k"])
def test_11_4_push_offered_to_chasers_beaters_keepers_rolled_30_20_penalty_if_victim_fell(pusher):
    st = make_state(holder="g_c1")
    assert "push" in valid_actions(st, pusher)
    assert "g_c2" in valid_targets(st, pusher, "push")
    res = resolve(st, [D(pusher, "push", target="g_c2", post_order=1)], 30, 21)
    o = only(res, "push")
    assert o.section == "11.4" and not o.data["legal"]
    assert [(r.value, r.threshold) for r in o.rolls] == [(30, 30), (21, 20)]
    assert o.data["target_fell"] and not o.data["pusher_fell"]
    assert res.state.out == {"g_c2": 2} and res.state.removed == {pusher: "11.4"}
    assert [(p.team, p.section) for p in res.state.penalties] == [("s", "11.4")]


def test_11_4_push_without_a_fall_is_a_warning_and_removal_no_penalty():
    st = make_state(holder="g_c1")
    res = resolve(st, [D("s_c1", "push", target="g_c2", post_order=1)], 31, 21)
    assert res.state.out == {} and res.state.removed == {"s_c1": "11.4"}
    assert res.state.penalties == [] and res.state.team_warnings["s"] == 1


# --- 16. partner beater (7, 8) ----------------------------------------------------------


def _partner(second_hits: bool):
    b2 = D("g_b2", "hit_bludger", bludger=0, target="s_c1", post_order=3)
    return [
        D("g_c1", feint="Штопор", post_order=1),
        D("g_b1", "hit_bludger", bludger=0, target="g_b2", post_order=2),
        b2 if second_hits else D("g_b2", post_order=3),
    ]


def test_7_8_beater_aimed_at_by_his_partner_may_hit_the_bludger_on():
    st = make_state()
    st.bludgers[0].target = "g_c1"
    assert 0 in valid_bludgers(st, "g_b2")
    res = resolve(st, _partner(True), 1, 1, 1, 1, 1, 99)
    hits = [o for o in res.outcomes if o.kind == "hit_away"]
    assert [o.players for o in hits] == [("g_b1", "g_c1", "g_b2"), ("g_b2", "g_b2", "s_c1")]
    assert all(o.data["accurate"] for o in hits)
    assert res.state.out == {"s_c1": 2}  # s_c1 did not post: knocked down
    assert "g_b2" not in res.state.out and res.state.bludgers[0].rest


def test_7_8_aimed_beater_without_a_hit_declared_must_dodge():
    st = make_state()
    st.bludgers[0].target = "g_c1"
    res = resolve(st, _partner(False), 1, 1, 1, 99)  # g_b2 no feint: knocked down
    assert [o.players for o in res.outcomes if o.kind == "hit_away"] == [("g_b1", "g_c1", "g_b2")]
    assert res.state.out == {"g_b2": 2}


# --- 17. any three warnings (11.7) ------------------------------------------------------


def test_11_7_non_game_warnings_count_toward_the_penalty():
    st = make_state()
    decls = [
        D("g_c1", flags=("11.1",), post_order=1),
        D("g_c2", flags=("11.1",), post_order=2),
        D("g_c3", flags=("11.6",), post_order=3),
    ]
    res = resolve(st, decls)
    assert res.state.player_warnings == {"g_c1": 1, "g_c2": 1}
    assert res.state.team_warnings == {"g": 1, "s": 0}
    assert [(p.team, p.section) for p in res.state.penalties] == [("g", "11.7")]


def test_11_7_two_warnings_no_penalty_yet():
    st = make_state()
    res = resolve(st, [D("g_c1", flags=("11.1",), post_order=1), D("s_c1", flags=("11.1",))])
    assert res.state.penalties == []


# --- 18. hand-awarded penalty (5.1) and group feints (4) --------------------------------


def test_5_1_the_judge_awards_a_penalty_by_hand():
    st = make_state(holder="g_c1")
    res = resolve(st, [D("s_b1", flags=("5.1",), post_order=1)])
    o = only(res, "penalty_awarded")
    assert (o.section, o.data["team"]) == ("5.1", "s")
    assert [(p.team, p.section, p.round_no) for p in res.state.penalties] == [("s", "5.1", 2)]
    assert "Пенальти в ворота Слизерина (п. 5.1)." in render_post(res)


def test_4_group_feint_steal_is_not_held_to_one_steal_per_team():
    st = make_state(holder="g_c1")
    group = Feint("Клещи", ("steal",), 5, 10, group=True)
    st.setup = replace(st.setup, feints=FeintCatalogue([*DEFAULT_FEINTS, group]))
    decls = [
        D("s_c1", "steal", target="g_c1", post_order=1),
        D("s_c2", "steal", target="g_c1", feint="Клещи", feint_bonus=10, post_order=2),
    ]
    res = resolve(st, decls, 99, 1)
    assert [o.kind for o in res.outcomes if o.phase == "quaffle"] == ["steal", "steal"]
    assert res.state.quaffle.holder == "s_c2"
    plain = [decls[0], D("s_c2", "steal", target="g_c1", post_order=2)]
    assert "steal_refused" in kinds(resolve(make_state(holder="g_c1"), plain, 99))
    assert FeintCatalogue.from_list(st.setup.feints.to_list()).get("Клещи").group


# --- 19. snitch vanishing: per_round | per_chase (9) ------------------------------------


def _chasing(mode: str):
    st = make_state(vanish_mode=mode)
    st.seekers["g_s"] = SeekerState(chasing=True, rounds_left=3)
    return st


def calm(st):
    """No bludger follows anyone next round (so only the snitch rolls)."""
    for b in st.bludgers:
        b.target = None
    return st


def test_9_vanish_per_round_rolls_every_round_of_the_chase():
    st = _chasing("per_round")
    r1 = resolve(st, [D("g_s", "chase", post_order=1)], 99)
    r2 = resolve(calm(r1.state), [D("g_s", "chase", post_order=1)], 99)
    assert kinds(r1).count("snitch_stays") == 1 and kinds(r2).count("snitch_stays") == 1


def test_9_vanish_per_chase_rolls_once_then_again_at_catch_attempts():
    st = _chasing("per_chase")
    r1 = resolve(st, [D("g_s", "chase", post_order=1)], 99)
    assert "snitch_stays" in kinds(r1) and r1.state.vanish_rolled
    r2 = resolve(calm(r1.state), [D("g_s", "chase", post_order=1)])
    assert "snitch_stays" not in kinds(r2) and "snitch_vanished" not in kinds(r2)
    r3 = resolve(calm(r2.state), [D("g_s", "chase", post_order=1)])
    assert "snitch_stays" not in kinds(r3) and r3.state.seekers["g_s"].caught_up
    r4 = resolve(calm(r3.state), [D("g_s", "catch_snitch", post_order=1)], 16, 99)
    snitch = [k for k in kinds(r4) if k in ("snitch_stays", "snitch_vanished", "catch")]
    assert snitch == ["snitch_stays", "catch"]  # 9: it can still vanish at a catch attempt


def test_9_vanish_per_chase_a_new_chase_rolls_again():
    st = _chasing("per_chase")
    r1 = resolve(st, [D("g_s", "chase", post_order=1)], 1)  # vanished
    assert "snitch_vanished" in kinds(r1) and not r1.state.vanish_rolled


# --- 20. a revealed match is closed (the seed) ------------------------------------------


def test_seed_revealed_no_roll_is_possible_engine():
    st = make_state(holder="g_c1")
    closed = st.copy()
    closed.revealed = True  # as the service marks a state whose log records the reveal
    assert roll_refusal(st) is None
    why = roll_refusal(closed)
    assert why.startswith("0: the server seed is revealed: the match is closed")
    assert rule_text(why, lang="ru").startswith("0: сид сервера раскрыт: матч закрыт")
    with pytest.raises(ValueError, match="server seed is revealed"):
        make_dice(closed, "seed")
    with pytest.raises(ValueError, match="server seed is revealed"):
        resolve_round(closed, [], FillDice([], closed))
    with pytest.raises(ValueError, match="server seed is revealed"):
        resolve_passes(closed, PASS_G, FillDice([], closed))
    assert type(closed).from_dict(closed.to_dict()).revealed


def test_seed_revealed_session_refuses_the_next_round(tmp_path: Path):
    folder = tmp_path / "q"
    create_tournament(folder, name="Q", day=date(2026, 6, 1)).close()
    t = open_tournament(folder, startup_backup=False)
    try:
        s = QuidditchSession.create(t, sample_setup("m1"), server_seed="published")
        s.resolve([D("g_c1", "catch_throw_up", post_order=1)])
        assert s.reveal_seed() == "published"
        again = QuidditchSession.open(t, "m1")
        assert again.state.revealed and again.state.round_no == 2
        with pytest.raises(SessionError, match="server seed is revealed"):
            again.resolve([D("g_c1", "pass", target="g_c2", zone="centre")])
        assert len(again.effective_rounds()) == 1
    finally:
        t.close()


# --- sections the issue did not name, for the coverage table (1, 12) --------------------


def test_1_start_keepers_before_their_rings_everyone_else_in_the_centre():
    st = new_match(sample_setup())
    assert st.zone_of("g_k") == "rings:g" and st.zone_of("s_k") == "rings:s"
    assert {st.zone_of(p.id) for p in st.setup.players if p.position != "keeper"} == {"centre"}
    assert st.quaffle.status == "throw_up" and st.score == {"g": 0, "s": 0}


def test_12_feint_bonus_is_clipped_into_the_feint_and_the_rulebook_range():
    st = make_state(holder="g_c1")
    steal = D("s_c1", "steal", target="g_c1", feint="Манёвр Порскова", feint_bonus=40)
    o = only(resolve(st, [steal], 99), "steal")
    assert (o.data["bonus"], o.rolls[0].threshold) == (15, 55)  # 40 % + at most 15


# --- invariants -------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(hs.text(min_size=1, max_size=8))
def test_5_resolving_passes_within_the_round_draws_each_roll_number_once(seed):
    st = make_state(holder="g_c1")
    mid = resolve_passes(st, PASS_G, make_dice(st, seed))
    end = resolve_round(mid.state, PASS_G, make_dice(mid.state, seed))
    ns = [r.n for r in mid.rolls] + [r.n for r in end.rolls]
    assert ns == list(range(1, len(ns) + 1))
