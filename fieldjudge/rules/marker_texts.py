"""The results of the pre-game marker check (19.05, 20.02). English templates; their Russian
is in ``locale/ru/LC_MESSAGES/rules.po``. Constructors only: the tests themselves are in
``marker_check.py``."""

from __future__ import annotations

from typing import Any

from fieldjudge.rules.messages import Measured, Phrase, RuleMessage, Team, catalog, joined

R = RuleMessage


@catalog
def slap_not_done() -> RuleMessage:
    return R("19.05", "slap test not done")


@catalog
def slap_fired() -> RuleMessage:
    return R("19.05", "marker fired on the slap test")


@catalog
def slap_passed() -> RuleMessage:
    return R("19.05", "slap test passed")


@catalog
def no_velocity() -> RuleMessage:
    return R("19.05", "no velocity reading")


@catalog
def velocity_over(fps: float, limit: float) -> RuleMessage:
    return R(
        "19.05",
        "velocity {fps:g} fps is over {limit:g} fps",
        fps=fps,
        limit=limit,
    )


@catalog
def velocity_ok(fps: float) -> RuleMessage:
    return R("19.05", "velocity {fps:g} fps", fps=fps)


@catalog
def rof_not_timed() -> RuleMessage:
    return R("20.02", "fewer than two shots timed")


@catalog
def rof_unknown(unknown: int) -> RuleMessage:
    """RULES.md "Timing a string of shots": no interval measured, only unknown ones."""
    return R(
        "20.02",
        "interval not measured: readings came in a batch ({n} unknown) — repeat the string",
        n=unknown,
    )


@catalog
def rof_interval(
    gap: float, minimum: float, ok: bool, tolerance: float | None, unknown: int = 0
) -> RuleMessage:
    """The shortest measured interval; ``tolerance`` given when it is within the timing
    tolerance; ``unknown`` intervals not measured (never judged)."""
    under = Phrase(" is under {m:g} ms", m=minimum)
    under = Phrase("") if ok else under
    near = (
        Phrase(
            " (within ±{t:g} ms timing tolerance)",
            t=tolerance,
        )
        if tolerance is not None
        else Phrase("")
    )
    also = Phrase("; {n} not measured", n=unknown) if unknown else Phrase("")
    return R(
        "20.02",
        "shortest interval {gap} ms{under}{near}{also}",
        gap=Measured(gap),
        under=under,
        near=near,
        also=also,
    )


@catalog
def after_release_not_done() -> RuleMessage:
    return R("19.05", "after-release test not done")


@catalog
def after_release_unknown() -> RuleMessage:
    """RULES.md "Timing a string of shots": a shot's time cannot tell whether it came before
    the release or inside the window after it."""
    return R(
        "19.05",
        "shot times around the release not measured — press r and release again",
    )


@catalog
def shots_after_release(shots: int, limit: int) -> Phrase:
    return Phrase(
        "{n} shots after release (at most {limit})",
        n=shots,
        limit=limit,
    )


@catalog
def late_after_release(delay: float, limit: float) -> Phrase:
    return Phrase(
        "a shot {d} ms after release (at most {limit:g})",
        d=Measured(delay),
        limit=limit,
    )


@catalog
def after_release_failed(problems: tuple[Phrase, ...]) -> RuleMessage:
    return R("19.05", "{problems}", problems=joined(problems))


@catalog
def one_after_release(delay: float) -> RuleMessage:
    return R(
        "19.05",
        "1 shot {d} ms after release",
        d=Measured(delay),
    )


@catalog
def none_after_release() -> RuleMessage:
    return R("19.05", "no shot after release")


@catalog
def balls_limit_reached(used: int, limit: int) -> RuleMessage:
    return R(
        "19.05",
        "{used} balls used, the judges may use at most {limit}: the verdict is taken on the "
        "tests done",
        used=used,
        limit=limit,
    )


ACCEPTANCE = {
    "foreign_object": Phrase(
        "a foreign object in the barrel, breech or loader",
    ),
    "loose_parts": Phrase(
        "bolts, chambers, tanks or other parts affecting the velocity not fixed",
    ),
    "toolless_adjuster": Phrase(
        "a part that changes the velocity or mode without tools",
    ),
}


@catalog
def acceptance_item(key: str) -> Phrase:
    return ACCEPTANCE.get(key) or Phrase(str(key))


@catalog
def acceptance_refused(items: tuple[Phrase, ...]) -> RuleMessage:
    return R(
        "19.03",
        "marker not accepted for the check: {items}",
        items=joined(items),
    )


@catalog
def acceptance_pending(items: tuple[Phrase, ...]) -> RuleMessage:
    return R("19.03", "not checked yet: {items}", items=joined(items))


@catalog
def acceptance_ok() -> RuleMessage:
    return R(
        "19.03",
        "no foreign object, parts fixed, no tool-less adjuster",
    )


@catalog
def modes_forbidden() -> RuleMessage:
    return R("19.04", "the marker fires in a forbidden mode")


@catalog
def modes_ok() -> RuleMessage:
    return R("19.04", "no forbidden mode")


@catalog
def modes_not_done() -> RuleMessage:
    return R("19.04", "forbidden modes not checked")


# --- who may be checked (19.01, 31) --------------------------------------------------------


@catalog
def game_signed() -> RuleMessage:
    return R(
        "31",
        "the protocol of this game is signed by both captains: nothing changes, its marker "
        "checks are closed",
    )


@catalog
def team_not_checked_in(team: Any) -> RuleMessage:
    return R(
        "19.01",
        "{team} has not checked in at the chrono station: check the team in (i) before its "
        "markers are checked",
        team=Team(str(team)),
    )
