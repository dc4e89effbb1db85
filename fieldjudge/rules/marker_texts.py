"""The results of the pre-game marker check (19.05, 20.02) in English and Russian.
Constructors only: the tests themselves are in ``marker_check.py``."""

from __future__ import annotations

from fieldjudge.rules.messages import Phrase, RuleMessage, catalog, joined

R = RuleMessage


@catalog
def slap_not_done() -> RuleMessage:
    return R("19.05", "slap test not done", "реактив не проверен")


@catalog
def slap_fired() -> RuleMessage:
    return R("19.05", "marker fired on the slap test", "маркер выстрелил от шлепка")


@catalog
def slap_passed() -> RuleMessage:
    return R("19.05", "slap test passed", "маркер не выстрелил")


@catalog
def no_velocity() -> RuleMessage:
    return R("19.05", "no velocity reading", "нет показаний скорости")


@catalog
def velocity_over(fps: float, limit: float) -> RuleMessage:
    return R(
        "19.05",
        "velocity {fps:g} fps is over {limit:g} fps",
        "скорость {fps:g} фпс выше {limit:g} фпс",
        fps=fps,
        limit=limit,
    )


@catalog
def velocity_ok(fps: float) -> RuleMessage:
    return R("19.05", "velocity {fps:g} fps", "скорость {fps:g} фпс", fps=fps)


@catalog
def rof_not_timed() -> RuleMessage:
    return R("20.02", "fewer than two shots timed", "засечено меньше двух выстрелов")


@catalog
def rof_interval(gap: float, minimum: float, ok: bool, tolerance: float | None) -> RuleMessage:
    """The shortest interval; ``tolerance`` given when it is within the timing tolerance."""
    under = Phrase(" is under {m:g} ms", " — меньше {m:g} мс", m=minimum)
    under = Phrase("", "") if ok else under
    near = (
        Phrase(
            " (within ±{t:g} ms timing tolerance)",
            " (в пределах погрешности времени ±{t:g} мс)",
            t=tolerance,
        )
        if tolerance is not None
        else Phrase("", "")
    )
    return R(
        "20.02",
        "shortest interval {gap:g} ms{under}{near}",
        "наименьший интервал {gap:g} мс{under}{near}",
        gap=gap,
        under=under,
        near=near,
    )


@catalog
def after_release_not_done() -> RuleMessage:
    return R("19.05", "after-release test not done", "последействие не проверено")


@catalog
def shots_after_release(shots: int, limit: int) -> Phrase:
    return Phrase(
        "{n} shots after release (at most {limit})",
        "после отпускания выстрелов: {n} (не более {limit})",
        n=shots,
        limit=limit,
    )


@catalog
def late_after_release(delay: float, limit: float) -> Phrase:
    return Phrase(
        "a shot {d:g} ms after release (at most {limit:g})",
        "выстрел через {d:g} мс после отпускания (не более {limit:g})",
        d=delay,
        limit=limit,
    )


@catalog
def after_release_failed(problems: tuple[Phrase, ...]) -> RuleMessage:
    return R("19.05", "{problems}", "{problems}", problems=joined(problems))


@catalog
def one_after_release(delay: float) -> RuleMessage:
    return R(
        "19.05",
        "1 shot {d:g} ms after release",
        "1 выстрел через {d:g} мс после отпускания",
        d=delay,
    )


@catalog
def none_after_release() -> RuleMessage:
    return R("19.05", "no shot after release", "после отпускания выстрелов нет")


@catalog
def balls_over(used: int, limit: int) -> RuleMessage:
    return R(
        "19.05",
        "{used} balls used, limit {limit}",
        "шаров: {used}, лимит {limit}",
        used=used,
        limit=limit,
    )


@catalog
def balls_ok(used: int, limit: int) -> RuleMessage:
    return R(
        "19.05",
        "{used} of {limit} balls used",
        "шаров: {used} из {limit}",
        used=used,
        limit=limit,
    )
