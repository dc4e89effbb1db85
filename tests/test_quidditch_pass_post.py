"""Issue 20, defect 9: the judge's post of passes resolved within a round (0, 5: «поимки мяча
при пасе рассчитываются и отписываются судьёй внутри круга ходов») says only what was
resolved at that point: the passes and who holds the quaffle, with the rolls. Bludgers (7),
the snitch (9) and the next round's order and bludger targets are resolved at the round's
end and are not in it."""

from __future__ import annotations

from quidditch_helpers import D, FillDice, make_state

from fieldjudge.rules.quidditch.post import render_passes_post, render_post
from fieldjudge.rules.quidditch.resolve import resolve_passes

PASS_G = [
    D("g_c1", "pass", target="g_c2", zone="centre", post_order=1),
    D("g_c2", zone="centre", post_order=2),
    D("s_c1", "intercept", target="g_c1", post_order=3),
]


def test_0_5_pass_post_within_the_round_says_only_what_was_resolved():
    st = make_state(holder="g_c1")
    st.bludgers[0].target = "s_c2"  # this round's bludger: resolved at the round's end
    res = resolve_passes(st, PASS_G, FillDice([30], st))  # 30 <= 40: intercepted
    post = render_passes_post(res)
    label = st.setup.label
    assert post.startswith("Пасы внутри круга 2 (п. 0, 5):\nСчёт:")
    assert f"{label('g_c1')} — пас, адресат {label('g_c2')}" in post
    assert "бросок 30 против порога 40" in post  # the roll and its threshold
    assert f"Квоффл: {label('s_c1')}." in post  # who holds it now
    assert "Проверка бросков: круг 2, бросок №1" in post
    for unresolved in (
        "Бладжеры никого не сбили",
        "Снитч не замечен",
        "Следующий круг",
        "бладжер 1",
        label("s_c2"),  # the bludger's target, not resolved yet
        "Предупреждения: нет",
    ):
        assert unresolved not in post, unresolved
    assert "Круг 2 продолжается" in post
    # the round post keeps its whole shape (7, 9, the next round's line)
    whole = render_post(res)
    assert "Бладжеры." in whole and "Снитч." in whole and "Следующий круг" in whole
