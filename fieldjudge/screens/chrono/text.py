"""What the chrono screens show, as text: the marker check's roster results, check-ins, test
table and verdict line (19), the in-game chrono's analysis and recorded result (20.02-20.06).

No Textual: the screens put these strings into their widgets.  Strings are translated when
the functions run (the UI language may change between calls).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fieldjudge.i18n import _, number, rule_text, translator
from fieldjudge.rules.chrono_checks import PlayerCheck
from fieldjudge.rules.events import Event
from fieldjudge.rules.marker_check import FAIL, NOT_DONE, PASS, MarkerCheck, TimingTolerance
from fieldjudge.rules.messages import Measured
from fieldjudge.rules.paintball.clock import parse_wall

RESULT_TEXT = {
    "admitted": "admitted",
    "not_admitted": "not admitted (19.06)",
    "no_marker": "plays without a marker (19.07)",
}
TEST_NAMES = {
    "acceptance": "Accepted (19.03)",
    "modes": "Modes (19.04)",
    "slap": "Slap test",
    "velocity": "Velocity",
    "rate_of_fire": "Rate of fire",
    "after_release": "After release",
    "ball_limit": "Balls",
}
OUTCOME_MARK = {PASS: "✓", FAIL: "✗", NOT_DONE: "·"}
PENALTY_TEXT = {
    "none": "no penalty (20.02)",
    "removal": "PLAYER REMOVED",
    "group_1_1": "GROUP REMOVAL 1+1",
    "disqualification": "REMOVED AND DISQUALIFIED FOR THE TOURNAMENT",
}


def decimal(value: float) -> str:
    """A measured figure to a tenth with the UI language's decimal separator ("113,4" in
    Russian), floored as the rule messages write it (never read as a limit it is under)."""
    return Measured(value).render(translator())


def player_label(team_name: str, number: int, player: Any | None) -> str:
    """ "Team #7 Name" (the name when the roster knows the player)."""
    return f"{team_name} #{number}" + (f" {player.name}" if player else "")


def result_text(result: str) -> str:
    return _(RESULT_TEXT.get(result, result))


def names_of_tests(names: Iterable[str]) -> list[str]:
    return [_(TEST_NAMES.get(n, n)) for n in names]


# --------------------------------------------------------------------------- marker check


def roster_result(marker_result: str | None, disqualified: bool) -> str:
    """The result column of the marker check's roster."""
    if disqualified:
        text = _("DISQUALIFIED (20.05)")
        if marker_result:
            text += " / " + result_text(marker_result)
        return text
    return result_text(marker_result) if marker_result else "—"


def wall_local(wall: str) -> str:
    """An event's wall time as local HH:MM:SS ("?" when it cannot be read)."""
    try:
        return parse_wall(wall).astimezone().strftime("%H:%M:%S")
    except ValueError:
        return "?"


def checkin_line(
    name: str, event: Event | None, *, deadline: str, late: bool, approved: bool
) -> str:
    """One team's line in the check-in summary (19.01, 32.01, 19.05)."""
    if event is None:
        return f"{name}: " + _("not checked in (by") + f" {deadline})"
    at = event.data.get("at") or ""
    shown = at[11:19] if len(at) >= 19 else wall_local(event.wall_time)
    text = f"{name}: " + _("checked in") + f" {shown}"
    if late:
        text += " — " + _("LATE: possible no-show for the head judge (32.01)")
    if approved:
        text += " — " + _("approved by the head judge")
    return text


def tolerance_note(tol: TimingTolerance) -> str:
    """How far the serial link blurs the timed tests."""
    return (
        _(
            "Rate of fire and after release are timed by this laptop's clock when each "
            "frame arrives (chronographs send no timestamps). The serial link adds up to"
        )
        + f" ±{number(tol.interval_ms)} {_('ms')} "
        + _("between shots and")
        + f" +{number(tol.delay_ms)} {_('ms')} "
        + _("after release; results within it are marked ≈.")
    )


def not_measured(intervals: int) -> str:
    """RULES.md "Timing a string of shots": intervals of readings that came in a batch."""
    return (
        _("Interval not measured: readings came in a batch — repeat the string")
        + f" ({intervals} "
        + _("not measured; never judged")
        + ")"
    )


def tests_table(
    check: MarkerCheck,
    cur: PlayerCheck,
    max_balls: int,
    window_ms: int | None = None,
    compact: bool = False,
) -> str:
    """The test table of a check in progress, with the readings and balls line; once the
    release is marked, the after-release window that counts (19.05, RULES.md).
    ``compact`` (an 80-column terminal): each test's result without the column of test
    names (the result names its test and section), so the table fits the pane."""
    lines = []
    for tr in check.tests:
        mark = OUTCOME_MARK.get(tr.outcome, "?") + ("≈" if tr.near_limit else " ")
        if compact:
            lines.append(f"{mark} {rule_text(tr.message)}")
            continue
        lines.append(f"{mark} {_(TEST_NAMES.get(tr.name, tr.name)):<17} {rule_text(tr.message)}")
    release = (
        _("trigger released: marked") if cur.release_t is not None else _("press r on release")
    )
    if cur.release_t is not None and window_ms is not None:
        release += " (" + _("shots within {ms} ms count").format(ms=window_ms) + ")"
    if check.unknown_intervals:
        lines.append("  ⚠ " + not_measured(check.unknown_intervals))
    lines.append(
        f"  {_('Readings')}: {len(cur.shots)}   "
        + _("balls used")
        + f": {check.balls_used} / {max_balls}   {release}"
    )
    if check.balls_notice is not None:  # 19.05: the limit binds the judges, not a test
        lines.append(f"  ⚠ {rule_text(check.balls_notice)}")
    return "\n".join(lines)


def check_verdict(check: MarkerCheck, dq: Any | None, compact: bool = False) -> tuple[str, str]:
    """The verdict line of a check in progress and its style class ("" for none);
    ``compact`` (80 columns): a check not finished does not repeat the tests' results."""
    if dq is not None:
        return (
            _("DISQUALIFIED for the tournament (20.05), game")
            + f" {dq.game_id}: {rule_text(dq.text)}. "
            + _("The marker cannot be admitted."),
            "verdict-bad",
        )
    if check.admitted:
        return _("ADMITTED — press v to record"), "verdict-good"
    done = all(tr.outcome != NOT_DONE for tr in check.tests)
    if compact and not done:
        return _("Not finished"), ""
    text = (
        (_("NOT ADMITTED") if done else _("Not finished"))
        + ": "
        + "; ".join(map(rule_text, check.reasons))
    )
    return text, "verdict-bad" if done else ""


def disqualified_message(label: str, dq: Any) -> str:
    """Why a player disqualified in an earlier game (20.05) is recorded as not admitted."""
    return (
        label
        + " "
        + _("was disqualified for the tournament in game")
        + f" {dq.game_id} ({rule_text(dq.text)}).\n"
        + _("The marker cannot be admitted; recorded as not admitted.")
    )


# --------------------------------------------------------------------------- in-game chrono


def ingame_analysis(
    shots: int, data: dict[str, Any] | None, forbidden_mode: bool, verdict_text: str = ""
) -> str:
    """The in-game chrono's readings so far and the verdict they would get (20.02-20.05)."""
    mode = _("forbidden mode: YES (20.05)") if forbidden_mode else ""
    if data is None:
        return _("Waiting for readings: let the player shoot over the radar") + (
            f"\n{mode}" if mode else ""
        )
    lines = [
        _("Readings")
        + f": {shots}   "
        + _("highest")
        + f": {number(data['fps'])} {_('fps')}"
        + (
            "   " + _("shortest interval") + f": {decimal(data['interval_ms'])} {_('ms')}"
            if "interval_ms" in data
            else ""
        ),
    ]
    if mode:
        lines.append(mode)
    if data.get("intervals_unknown"):
        lines.append(not_measured(data["intervals_unknown"]))
    lines.append(_("Verdict if recorded") + f": {rule_text(verdict_text)}")
    return "\n".join(lines)


def ingame_result(label: str, cv: Any, second_label: str | None = None) -> str:
    """The recorded reading's outcome, shown until the judge closes it (20.06)."""
    text = [label + ": " + _(PENALTY_TEXT.get(cv.penalty, cv.penalty)), rule_text(cv.text)]
    if second_label is not None:
        text.append(_("Second player (29.08)") + ": " + second_label)
    if cv.flagged:
        text.append(_("Flagged for the head judge"))
    text.append(_("Show this reading to the player (20.06). Enter / Esc: close"))
    return "\n".join(text)


def shot_list(shots: list[float], judged: list[int]) -> str:
    """20.02: the readings as read, numbered for the digit keys; ✓ marks the 1-3 shots the
    verdict is taken on."""
    cells = [f"{i}:{number(fps)}{'✓' if i - 1 in judged else ''}" for i, fps in enumerate(shots, 1)]
    return _("Shots judged (digits 1-9 pick, 20.02)") + ": " + "  ".join(cells[-9:])
