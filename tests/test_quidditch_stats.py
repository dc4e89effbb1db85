"""Statistical checks of every probability, over seeded resolutions with real dice.

Tolerance: ±3 percentage points at n = 5000 (the binomial standard deviation is at most
0.71 pp, so ±3 pp is over 4 sigma) unless stated. The seeds are fixed, so the tests are
deterministic; the tolerance says how far an honest implementation may land.
"""

from __future__ import annotations

from quidditch_helpers import D, kinds, make_state, run_trials

N = 5000
TOL = 3.0


def rate(results, pred, n=N):
    return 100.0 * sum(1 for r in results if pred(r)) / n


def close(observed, expected, tol=TOL):
    assert abs(observed - expected) <= tol, f"{observed:.2f} % vs {expected} % ± {tol}"


def _outcome(r, kind):
    return next((o for o in r.outcomes if o.kind == kind), None)


# 5 -----------------------------------------------------------------------------------
def _pass_decls(feint=None, bonus=0):
    return [
        D("g_c1", "pass", target="g_c2", zone="centre", post_order=1),
        D("g_c2", zone="centre", post_order=2),
        D("s_c1", "intercept", target="g_c1", feint=feint, feint_bonus=bonus, post_order=3),
    ]


def test_5_interception_40():
    st = make_state(holder="g_c1")
    close(rate(run_trials(st, _pass_decls(), N), lambda r: "pass_intercepted" in kinds(r)), 40)


def test_5_interception_40_plus_feint():
    st = make_state(holder="g_c1")
    decls = _pass_decls("Ложный замах", 10)
    close(rate(run_trials(st, decls, N, "f"), lambda r: "pass_intercepted" in kinds(r)), 50)


# 4 -----------------------------------------------------------------------------------
def test_4_steal_40():
    st = make_state(holder="g_c1")
    decls = [D("g_c1", post_order=1), D("s_c2", "steal", target="g_c1", post_order=2)]
    close(rate(run_trials(st, decls, N), lambda r: _outcome(r, "steal").data["success"]), 40)


# 7 -----------------------------------------------------------------------------------
def test_7_dodge_50_plus_skill():
    st = make_state()
    st.bludgers[0].target = "g_c1"  # Джонсон: 3 matches, 4 practices → 50 + 3 + 2 = 55
    decls = [D("g_c1", feint="Штопор", post_order=1)]
    res = list(run_trials(st, decls, N))
    assert all(_outcome(r, "dodge").rolls[0].threshold == 55 for r in res[:5])
    close(rate(res, lambda r: _outcome(r, "dodge").data["success"]), 55)


def test_7_injury_ends_match_5():
    st = make_state()
    st.bludgers[0].target = "g_c1"
    decls = [D("g_c1", post_order=1)]  # no feint → always knocked down
    close(
        rate(run_trials(st, decls, N), lambda r: _outcome(r, "injury").data["ends_match"]), 5, 1.5
    )


# 8 -----------------------------------------------------------------------------------
def test_8_beater_interception_10_plus_2_per_match():
    st = make_state()
    st.bludgers[0].target = "g_c1"  # Фред Уизли: 4 matches → 10 + 8 = 18
    decls = [
        D("g_c1", feint="Штопор", post_order=1),
        D("g_b1", "hit_bludger", bludger=0, target="s_c1", post_order=2),
    ]
    close(rate(run_trials(st, decls, N), lambda r: "hit_away" in kinds(r)), 18)


def test_8_beater_accuracy_60_plus_1_per_match():
    st = make_state(beater_intercept=100.0)  # capped at 95 → enough samples of accuracy
    st.bludgers[0].target = "g_c1"
    decls = [
        D("g_c1", feint="Штопор", post_order=1),
        D("g_b1", "hit_bludger", bludger=0, target="s_c1", post_order=2),
    ]
    hits = [_outcome(r, "hit_away") for r in run_trials(st, decls, N)]
    hits = [h for h in hits if h is not None]
    assert hits[0].rolls[0].threshold == 95 and hits[0].rolls[1].threshold == 64
    close(100.0 * sum(h.data["accurate"] for h in hits) / len(hits), 64)


# 9 -----------------------------------------------------------------------------------
def test_9_spotting_15():
    st = make_state()
    decls = [D("g_s", "search", post_order=1)]
    close(rate(run_trials(st, decls, N), lambda r: _outcome(r, "spot").data["success"]), 15)


def test_9_spotting_plus_5_per_goal():
    st = make_state()
    st.goals["g"] = 2
    decls = [D("g_s", "search", post_order=1)]
    res = run_trials(st, decls, N, "goals")
    close(rate(res, lambda r: _outcome(r, "spot").data["success"]), 25)


def test_9_vanishing_15():
    st = make_state()
    st.seekers["g_s"].chasing, st.seekers["g_s"].rounds_left = True, 3
    decls = [D("g_s", "chase", post_order=1)]
    close(rate(run_trials(st, decls, N), lambda r: "snitch_vanished" in kinds(r)), 15)


def _caught_up(**settings):
    st = make_state(vanish=0.0, **settings)
    st.seekers["g_s"].caught_up = True
    return st


def test_9_catch_50():
    st = _caught_up()
    decls = [D("g_s", "catch_snitch", post_order=1)]
    close(rate(run_trials(st, decls, N), lambda r: r.state.end_reason == "snitch"), 50)


def test_9_catch_50_plus_feint():
    st = _caught_up()
    decls = [D("g_s", "catch_snitch", feint="Финт Вронского", feint_bonus=10, post_order=1)]
    close(rate(run_trials(st, decls, N, "cf"), lambda r: r.state.end_reason == "snitch"), 60)


def test_9_speed_feint_85():
    st = make_state(vanish=0.0)
    st.seekers["g_s"].chasing, st.seekers["g_s"].rounds_left = True, 3
    decls = [D("g_s", "chase", feint="Рывок", post_order=1)]
    close(rate(run_trials(st, decls, N), lambda r: _outcome(r, "chase").data["left"] == 1), 85)


# 10 ----------------------------------------------------------------------------------
def test_10_push_30_target_20_pusher():
    st = make_state(holder="g_c1")
    decls = [D("g_c1", post_order=1), D("s_c1", "steal", target="g_c1", push=True, post_order=2)]
    pushes = [_outcome(r, "push") for r in run_trials(st, decls, N)]
    close(100.0 * sum(p.data["target_fell"] for p in pushes) / N, 30)
    close(100.0 * sum(p.data["pusher_fell"] for p in pushes) / N, 20)


def test_10_mutual_push_25_each():
    st = make_state(holder="g_c1")
    decls = [
        D("g_c1", response="push_back", post_order=1),
        D("s_c1", "steal", target="g_c1", push=True, post_order=2),
    ]
    pushes = [_outcome(r, "push") for r in run_trials(st, decls, N)]
    assert all(p.data["mode"] == "mutual" for p in pushes)
    close(100.0 * sum(p.data["target_fell"] for p in pushes) / N, 25)
    close(100.0 * sum(p.data["pusher_fell"] for p in pushes) / N, 25)


def test_10_push_dodge_50():
    st = make_state(holder="g_c1")
    decls = [
        D("g_c1", response="dodge", feint="Штопор", feint_for="push_dodge", post_order=1),
        D("s_c1", "steal", target="g_c1", push=True, post_order=2),
    ]
    pushes = [_outcome(r, "push") for r in run_trials(st, decls, N)]
    dodged = [p.rolls[0].success for p in pushes]
    close(100.0 * sum(dodged) / N, 50)
    # after a failed dodge the push still knocks down with 30 %: 0.5 * 0.3 = 15 %
    close(100.0 * sum(p.data["target_fell"] for p in pushes) / N, 15)
