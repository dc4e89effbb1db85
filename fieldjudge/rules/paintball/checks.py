"""Is an action legal now? ``refusal()`` returns a human-readable refusal citing the section,
or None. The screens call it (through ``state.validate``) before appending an event, and the
fold calls it on every logged event so an illegal one from another laptop is recorded as
rejected instead of corrupting the state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball import model as m
from fieldjudge.rules.paintball.chrono import chrono_verdict
from fieldjudge.rules.paintball.clock import format_clock
from fieldjudge.rules.paintball.reasons import DIRECT_REASONS
from fieldjudge.rules.paintball.setup import needs_second_player

PRE_GAME = (ev.CHECKIN, ev.MARKER_VERDICT, ev.NO_SHOW, ev.CLOCK_START)
RUNNING_ONLY = (ev.FLAG_CAPTURE, ev.FLAG_HANDOVER, ev.FLAG_HANG, ev.TIME_STOP)


def num(value: Any) -> int | None:
    """A shirt number from event data (int, or a digit string from a typed field)."""
    if isinstance(value, bool):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def fps_of(value: Any) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        f = float(value)
    except (TypeError, ValueError):
        return None
    return f if f >= 0 else None


def label(p: m.PlayerState) -> str:
    return f"{p.team} #{p.number}"


def _player(
    st: m.GameState, team: Any, number: Any, section: str
) -> tuple[m.PlayerState | None, str | None]:
    n = num(number)
    p = st.player(str(team), n) if n is not None else None
    if p is None:
        return None, f"{section}: {team} #{number} is not on the game roster"
    return p, None


def _on_field(p: m.PlayerState, section: str, *, neutral_ok: bool = False) -> str | None:
    if p.status == m.ELIMINATED:
        why = p.elimination.section if p.elimination else "26"
        return f"{section}: {label(p)} is already eliminated ({why})"
    if p.status == m.NOT_ADMITTED:
        return f"19.06: {label(p)} was not admitted and is not on the field"
    if p.status == m.NEUTRAL and not neutral_ok:
        return f"25.03: {label(p)} is neutral and cannot be eliminated or act until the check ends"
    return None


def second_refusal(
    st: m.GameState, offender: m.PlayerState, second: Any, needed: bool, section: str
) -> str | None:
    """The second player of a group removal 1+1 (29.08): same team, unhit, not neutral."""
    if not needed:
        if second is not None:
            return f"{section}: this penalty removes one player; no second player is named"
        return None
    available = [
        p
        for p in st.team_players(offender.team)
        if p.number != offender.number and p.status in (m.IN_PLAY, m.NO_MARKER)
    ]
    if second is None:
        if available:
            return f"29.08: group removal 1+1: name the second player of team {offender.team}"
        return None
    p, why = _player(st, offender.team, second, "29.08")
    if why:
        return why
    if p.number == offender.number:
        return "29.08: the second player of a group removal must be another player"
    return _on_field(p, "29.08")


def _game_phase_refusal(st: m.GameState, etype: str) -> str | None:
    phase = st.phase
    if st.no_show:
        return "32.01: this game was recorded as a no-show; nothing more can be logged"
    if etype in PRE_GAME:
        if phase != m.NOT_STARTED:
            return "19.01: pre-game check-in, marker checks and the start happen before the game"
        return None
    if etype == ev.INSPECTION:
        if phase != m.INSPECTION:
            if phase == m.FINAL:
                return "18.02: every unhit player has been inspected already"
            return "18.02: the post-game inspection starts when the game has ended"
        return None
    if etype == ev.HANG_VERDICT:
        return None if phase == m.HANG_CHECK else "23.01: no flag hang is awaiting a verdict"
    if phase == m.HANG_CHECK:
        return "23.01: awaiting the flag-hang verdict; players stay in their positions"
    if phase == m.NOT_STARTED:
        return "19.01: the game has not started"
    if phase in (m.ENDED, m.INSPECTION, m.FINAL):
        return "18.02: the game is over; only the post-game inspection remains"
    if etype in RUNNING_ONLY and phase != m.RUNNING:
        return '23.01: "Time!" was called: players freeze until the clock resumes'
    return None


def refusal(
    st: m.GameState, etype: str, data: Mapping[str, Any], game_clock_ms: int | None = None
) -> str | None:
    """Why ``etype`` with ``data`` cannot be logged now, citing the section; None if legal.
    ``game_clock_ms`` (optional) is the elapsed game time the screen would stamp."""
    if etype not in ev.EVENT_TYPES:
        return f"unknown paintball event type {etype!r}"
    data = data or {}
    why = _game_phase_refusal(st, etype)
    if why:
        return why
    check = _CHECKS.get(etype)
    return check(st, data, game_clock_ms) if check else None


# --- per type ---------------------------------------------------------------------------


def _team(st: m.GameState, team: Any, section: str) -> str | None:
    if str(team) not in st.setup.teams:
        return f"{section}: {team!r} does not play this game"
    return None


def _checkin(st, d, _ms):
    return _team(st, d.get("team"), "19.01")


def _marker_verdict(st, d, _ms):
    p, why = _player(st, d.get("team"), d.get("number"), "19.05")
    if why:
        return why
    if d.get("result") not in ev.MARKER_RESULTS:
        return "19.06: marker result must be admitted, not_admitted or no_marker"
    return None


def _no_show(st, d, _ms):
    absent = d.get("absent") or []
    if isinstance(absent, str) or not absent:
        return "32.01: name the absent team(s)"
    for t in absent:
        why = _team(st, t, "32.01")
        if why:
            return why
    return None


def _time_stop(st, d, _ms):
    return None


def _clock_resume(st, d, _ms):
    if st.phase != m.STOPPED:
        return "23.02: the clock is already running"
    return None


def _game_end(st, d, ms):
    reason = d.get("reason")
    if reason not in ev.GAME_END_REASONS:
        return "30.01: a game ends by the clock or by a judge's decision (reason clock | judge)"
    if reason == "clock":
        if st.phase != m.RUNNING:
            return "23.01: the clock is stopped; it cannot run out"
        length = st.clock.length_ms
        if ms is not None and ms < length:
            return f"30.01: the game time has not run out ({format_clock(length - ms)} left)"
    return None


def _elimination(st, d, _ms):
    reason = d.get("reason")
    if reason not in DIRECT_REASONS:
        return f"26: unknown elimination reason {reason!r}"
    sec = DIRECT_REASONS[reason].section
    refs = d.get("players") or []
    if not isinstance(refs, list | tuple) or not refs:
        return f"{sec}: name the eliminated player"
    if len(refs) > 2 or (len(refs) == 2 and reason != "hit"):
        return "26: only two opponents hit at once are eliminated in one entry"
    players = []
    for ref in refs:
        if not isinstance(ref, Mapping):
            return f"{sec}: a player is named by team and number"
        p, why = _player(st, ref.get("team"), ref.get("number"), sec)
        if why:
            return why
        why = _on_field(p, sec)
        if why:
            return why
        players.append(p)
    if len(players) == 2:
        if players[0].team == players[1].team:
            return "26: a simultaneous elimination names two opponents, log teammates separately"
    if reason == "flag_hidden" and players[0].carrying is None:
        return f"22.02: {label(players[0])} does not carry a flag"
    needed = needs_second_player(st.setup.settings, reason)
    if needed and len(players) != 1:
        return "29.08: a group removal 1+1 names one offender"
    return second_refusal(st, players[0], d.get("second"), needed, sec)


def _open_check(st, d, kind: str, section: str):
    p, why = _player(st, d.get("team"), d.get("number"), section)
    if why:
        return None, why
    if p.check is None or p.check.kind != kind:
        what = "paint check" if kind == "paint" else "neutral check"
        return None, f"{section}: {label(p)} has no open {what}"
    if d.get("outcome") not in ev.CHECK_OUTCOMES:
        return None, f"{section}: the outcome is eliminated or in_play"
    return p, None


def _paint_check_start(st, d, _ms):
    p, why = _player(st, d.get("team"), d.get("number"), "24.02")
    if why:
        return why
    why = _on_field(p, "24.01")
    if why:
        return why
    if p.check is not None:
        return f"24.02: {label(p)} is already being paint-checked"
    return None


def _paint_check_end(st, d, _ms):
    return _open_check(st, d, "paint", "24.01")[1]


def _neutral_start(st, d, _ms):
    p, why = _player(st, d.get("team"), d.get("number"), "25.01")
    if why:
        return why
    if p.status == m.NEUTRAL:
        return f"25.02: {label(p)} is already neutral"
    why = _on_field(p, "25.02")
    if why:
        return why
    if p.carrying is not None:
        return f"25.05: {label(p)} carries the flag and is never stopped or declared neutral"
    return None


def _neutral_end(st, d, _ms):
    return _open_check(st, d, "neutral", "25.02")[1]


def _chrono_reading(st, d, _ms):
    p, why = _player(st, d.get("team"), d.get("number"), "20.01")
    if why:
        return why
    why = _on_field(p, "20.01")
    if why:
        return why
    if not p.has_marker:
        return f"19.07: {label(p)} plays without a marker"
    fps = fps_of(d.get("fps"))
    if fps is None:
        return "20.02: the reading needs a speed in fps"
    cv = chrono_verdict(
        st.setup.settings, fps, bool(d.get("forbidden_mode")), fps_of(d.get("interval_ms"))
    )
    return second_refusal(st, p, d.get("second"), cv.needs_second_player, cv.section)


def _capturer(st, d, section):
    p, why = _player(st, d.get("team"), d.get("number"), section)
    if why:
        return None, why
    why = _on_field(p, section)
    return (None, why) if why else (p, None)


def _flag_capture(st, d, _ms):
    p, why = _capturer(st, d, "21.02")
    if why:
        return why
    if p.carrying is not None:
        return f"22.02: {label(p)} already carries a flag"
    flag = st.flags[st.setup.opponent(p.team)]
    if flag.location == m.CARRIED:
        holder = st.players[flag.carrier]
        return f"22.03: the flag of {flag.owner} is carried by {label(holder)}"
    if flag.location != m.AT_BASE:
        return f"23.03: the flag of {flag.owner} is no longer in play"
    return None


def _flag_handover(st, d, _ms):
    team = d.get("team")
    giver, why = _player(st, team, d.get("from_number"), "22.03")
    if why:
        return why
    if giver.carrying is None:
        return f"22.03: {label(giver)} does not carry a flag"
    taker, why = _player(st, team, d.get("to_number"), "22.03")
    if why:
        return why
    if taker.number == giver.number:
        return "22.03: hand the flag to another player"
    if taker.status == m.ELIMINATED:
        return f"22.03: {label(taker)} is eliminated; only unhit players may take the flag"
    return _on_field(taker, "22.03")


def _flag_hang(st, d, _ms):
    p, why = _capturer(st, d, "23.01")
    if why:
        return why
    if p.carrying is None:
        return f"23.01: {label(p)} does not carry the opponents' flag"
    return None


def _hang_verdict(st, d, _ms):
    hang = st.pending_hang
    if hang is None:
        return "23.01: no flag hang is awaiting a verdict"
    if d.get("paint") not in ("clean", "hit"):
        return "23.01: the paint check result is clean or hit"
    p = st.players[(hang.team, hang.number)]
    fps = fps_of(d.get("fps"))
    if fps is None and d.get("fps") is not None:
        return "23.01: the chrono reading must be a speed in fps"
    if fps is None and p.has_marker:
        return f"23.01: the marker of {label(p)} must be chrono'd before the verdict"
    cv = chrono_verdict(
        st.setup.settings, fps, bool(d.get("forbidden_mode")), fps_of(d.get("interval_ms"))
    )
    return second_refusal(st, p, d.get("second"), cv.needs_second_player, cv.section)


def _inspection(st, d, _ms):
    p, why = _player(st, d.get("team"), d.get("number"), "18.02")
    if why:
        return why
    if p.inspection is not None:
        return f"18.02: {label(p)} is already marked {p.inspection}; void that mark to change it"
    if not p.unhit:
        return f"18.02: only unhit players are inspected; {label(p)} is {p.status}"
    if d.get("result") not in ev.INSPECTION_RESULTS:
        return "18.02: the result is clean, hit_found or did_not_report"
    return None


_CHECKS = {
    ev.CHECKIN: _checkin,
    ev.MARKER_VERDICT: _marker_verdict,
    ev.NO_SHOW: _no_show,
    ev.TIME_STOP: _time_stop,
    ev.CLOCK_RESUME: _clock_resume,
    ev.GAME_END: _game_end,
    ev.ELIMINATION: _elimination,
    ev.PAINT_CHECK_START: _paint_check_start,
    ev.PAINT_CHECK_END: _paint_check_end,
    ev.NEUTRAL_START: _neutral_start,
    ev.NEUTRAL_END: _neutral_end,
    ev.CHRONO_READING: _chrono_reading,
    ev.FLAG_CAPTURE: _flag_capture,
    ev.FLAG_HANDOVER: _flag_handover,
    ev.FLAG_HANG: _flag_hang,
    ev.HANG_VERDICT: _hang_verdict,
    ev.INSPECTION: _inspection,
}
