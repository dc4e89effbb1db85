"""Is an action legal now? ``refusal()`` returns a human-readable refusal citing the section,
or None. The screens call it (through ``state.validate``) before appending an event, and the
fold calls it on every logged event so an illegal one from another laptop is recorded as
rejected instead of corrupting the state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fieldjudge.rules.messages import Phrase, Player, Team, phrase, rule
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball import model as m
from fieldjudge.rules.paintball.chrono import chrono_verdict
from fieldjudge.rules.paintball.reasons import (
    ALL_REASONS,
    BEFORE_START_REASONS,
    DIRECT_REASONS,
    ON_ELIMINATED_REASONS,
    PLAYING_ON_SECTIONS,
)
from fieldjudge.rules.paintball.setup import GameSetup, needs_second_player
from fieldjudge.rules.texts import PHRASES
from fieldjudge.rules.timefmt import format_time_left

PRE_GAME = (ev.CHECKIN, ev.MARKER_VERDICT, ev.NO_SHOW, ev.CLOCK_START, ev.OLD_PAINT, ev.LINEUP)
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


def label(p: m.PlayerState) -> Player:
    """The player in a message: ``"<team> #<number>"``, rendered with the team's name."""
    return Player(p.team, p.number)


def _player(
    st: m.GameState, team: Any, number: Any, section: str
) -> tuple[m.PlayerState | None, str | None]:
    n = num(number)
    p = st.player(str(team), n) if n is not None else None
    if p is None:
        return None, rule("not_on_roster", section, player=Player(team, number))
    return p, None


def _on_field(p: m.PlayerState, section: str, *, neutral_ok: bool = False) -> str | None:
    if p.benched:  # 30.01: a substitute sits this game out
        return rule("not_in_lineup", section, player=label(p))
    if p.status == m.ELIMINATED:
        why = p.elimination.section if p.elimination else "26"
        return rule("already_eliminated", section, player=label(p), why=why)
    if p.status == m.DISQUALIFIED:
        return rule("disqualified", player=label(p))
    if p.status == m.NOT_ADMITTED:
        return rule("not_admitted", player=label(p))
    if p.status == m.NEUTRAL and not neutral_ok:
        return rule("neutral_player", player=label(p))
    return None


def second_player_candidates(state: m.GameState, team: str, number: int) -> list[m.PlayerState]:
    """20.04 / 29.08: who may be the second player of a group removal 1+1 (same team, on the
    field: in play or playing without a marker)."""
    return [
        p
        for p in state.team_players(team)
        if p.number != number and p.unhit and p.status in (m.IN_PLAY, m.NO_MARKER)
    ]


def second_refusal(
    st: m.GameState, offender: m.PlayerState, second: Any, needed: bool, section: str
) -> str | None:
    """The second player of a group removal 1+1 (29.08): same team, unhit, not neutral."""
    if not needed:
        if second is not None:
            return rule("one_player_penalty", section)
        return None
    if second is None:
        if second_player_candidates(st, offender.team, offender.number):
            return rule("name_second", team=Team(offender.team))
        return None
    p, why = _player(st, offender.team, second, "29.08")
    if why or p is None:
        return why
    if p.number == offender.number:
        return rule("second_is_offender")
    return _on_field(p, "29.08")


def game_phase_refusal(st: m.GameState, etype: str, reason: str | None = None) -> str | None:
    """Why an event of this type is refused in the game's current phase, or None (the
    game screen asks this before opening a prompt). ``reason``: the elimination reason,
    when known (20.07: "markers_down" is taken before the start only)."""
    phase = st.phase
    if st.no_show:
        return rule("no_show_recorded")
    if etype == ev.ELIMINATION and reason in BEFORE_START_REASONS:
        # 20.07 (second item): «Положить маркеры» before the start
        return None if phase == m.NOT_STARTED else rule("markers_down_before_start")
    if etype in PRE_GAME:
        if phase != m.NOT_STARTED:
            return rule("no_show_after_start" if etype == ev.NO_SHOW else "before_game_only")
        return None
    if etype == ev.INSPECTION:
        if phase != m.INSPECTION:
            if phase == m.FINAL:
                return rule("all_inspected")
            return rule("inspection_after_end")
        return None
    if etype == ev.HANG_VERDICT:
        return None if phase == m.HANG_CHECK else rule("no_hang_pending")
    if phase == m.HANG_CHECK:
        return rule("awaiting_hang")
    if phase == m.NOT_STARTED:
        return rule("not_started")
    if phase in (m.ENDED, m.INSPECTION, m.FINAL):
        return rule("game_over")
    if etype in RUNNING_ONLY and phase != m.RUNNING:
        return rule("time_called")
    return None


def refusal(
    st: m.GameState, etype: str, data: Mapping[str, Any], game_clock_ms: int | None = None
) -> str | None:
    """Why ``etype`` with ``data`` cannot be logged now, citing the section; None if legal.
    ``game_clock_ms`` (optional) is the elapsed game time the screen would stamp."""
    if etype not in ev.EVENT_TYPES:
        return rule("unknown_event", etype=str(etype))
    data = data or {}
    reason = data.get("reason") if etype == ev.ELIMINATION else None
    why = game_phase_refusal(st, etype, reason if isinstance(reason, str) else None)
    if why:
        return why
    check = _CHECKS.get(etype)
    return check(st, data, game_clock_ms) if check else None


# --- per type ---------------------------------------------------------------------------


def _team(st: m.GameState, team: Any, section: str) -> str | None:
    if str(team) not in st.setup.teams:
        return rule("team_not_playing", section, team=Team(team))
    return None


def _checkin(st, d, _ms):
    return _team(st, d.get("team"), "19.01")


def _marker_verdict(st, d, _ms):
    p, why = _player(st, d.get("team"), d.get("number"), "19.05")
    if why:
        return why
    if d.get("result") not in ev.MARKER_RESULTS:
        return rule("marker_result_values")
    if p.status == m.DISQUALIFIED and d.get("result") != "not_admitted":
        return rule("disqualified", player=label(p))  # 20.05: for the rest of the tournament
    return None


def _lineup(st, d, _ms):
    # 30.01 ("игра 5х5"), 20.05
    team = d.get("team")
    why = _team(st, team, "30.01")
    if why:
        return why
    numbers = d.get("numbers")
    if not isinstance(numbers, list | tuple) or not numbers:
        return rule("lineup_numbers", team=Team(team))
    seen: set[int] = set()
    for n in numbers:
        p, why = _player(st, team, n, "30.01")
        if why or p is None:
            return why
        if p.number in seen:
            return rule("lineup_twice", player=label(p))
        seen.add(p.number)
        if p.disqualified:
            return rule("disqualified", player=label(p))
    return lineup_size_refusal(st.setup, str(team), len(seen))


def lineup_size_refusal(setup: GameSetup, team: str, count: int) -> str | None:
    """30.01: at most ``team_size`` of a team play (the size check of
    ``GameSetup.problems``, applied to the line-up)."""
    if count > setup.settings.team_size:
        return rule("lineup_too_large", team=Team(team), count=count, size=setup.settings.team_size)
    return None


def _clock_start(st, d, _ms):
    # 30.01: a team whose roster is longer than the team size plays a confirmed line-up
    for team in st.setup.teams:
        if team in st.lineups:
            continue
        count = len(st.lineup(team))
        if lineup_size_refusal(st.setup, team, count):
            return rule(
                "lineup_needed", team=Team(team), count=count, size=st.setup.settings.team_size
            )
    return None


def _old_paint(st, d, _ms):
    # 29.10
    p, why = _player(st, d.get("team"), d.get("number"), "29.10")
    if why:
        return why
    spot = d.get("spot")
    if not isinstance(spot, str) or not spot.strip():
        return rule("old_paint_text")
    return None


def _no_show(st, d, _ms):
    absent = d.get("absent") or []
    if isinstance(absent, str) or not absent:
        return rule("name_absent")
    if d.get("cause", "team") not in ev.NO_SHOW_CAUSES:
        return rule("no_show_cause_values")
    for t in absent:
        why = _team(st, t, "32.01")
        if why:
            return why
    return None


def _clock_resume(st, d, _ms):
    if st.phase != m.STOPPED:
        return rule("clock_running")
    return None


def _game_end(st, d, ms):
    reason = d.get("reason")
    if reason not in ev.GAME_END_REASONS:
        return rule("game_end_reason")
    if reason == "clock":
        if st.phase != m.RUNNING:
            return rule("clock_stopped")
        length = st.clock.length_ms
        if ms is not None and ms < length:
            return rule("time_left", left=format_time_left(length - ms))
    return None


def _elimination(st, d, _ms):
    reason = d.get("reason")
    if reason not in DIRECT_REASONS and reason not in BEFORE_START_REASONS:
        return rule("unknown_reason", reason=reason)
    sec = ALL_REASONS[reason].section
    refs = d.get("players") or []
    if not isinstance(refs, list | tuple) or not refs:
        return rule("name_eliminated", sec)
    if len(refs) > 2 or (len(refs) == 2 and reason != "hit"):
        return rule("two_at_once")
    if reason in ON_ELIMINATED_REASONS:
        section = d.get("section", sec)
        if section not in PLAYING_ON_SECTIONS:
            return rule("playing_on_section", section=section)
    players = []
    for ref in refs:
        if not isinstance(ref, Mapping):
            return rule("player_by_team_number", sec)
        p, why = _player(st, ref.get("team"), ref.get("number"), sec)
        if why:
            return why
        if not (reason in ON_ELIMINATED_REASONS and p.status == m.ELIMINATED):
            # 27.02-27.05, 28.02, 29.11: playing on is a penalty on an eliminated player too
            why = _on_field(p, sec)
            if why:
                return why
        players.append(p)
    if len(players) == 2:
        if players[0].team == players[1].team:
            return rule("teammates_separately")
    if reason == "flag_hidden" and players[0].carrying is None:
        return rule("no_flag", "22.02", player=label(players[0]))
    needed = needs_second_player(st.setup.settings, reason)
    if needed and len(players) != 1:
        return rule("one_offender")
    return second_refusal(st, players[0], d.get("second"), needed, sec)


def _open_check(st, d, kind: str, section: str) -> str | None:
    p, why = _player(st, d.get("team"), d.get("number"), section)
    if why or p is None:
        return why
    if p.check is None or p.check.kind != kind:
        what = phrase("check_neutral" if kind == "neutral" else "check_paint")
        return rule("no_open_check", section, player=label(p), what=what)
    if d.get("outcome") not in ev.CHECK_OUTCOMES:
        return rule("check_outcome_values", section)
    return None


def _paint_check_start(st, d, _ms):
    p, why = _capturer(st, d, "24.02", "24.01")
    if why or p.check is None:
        return why
    return rule("already_paint_checked", player=label(p))


def _paint_check_end(st, d, _ms):
    return _open_check(st, d, "paint", "24.01")


def _neutral_start(st, d, _ms):
    p, why = _player(st, d.get("team"), d.get("number"), "25.01")
    if why:
        return why
    if p.status == m.NEUTRAL:
        return rule("already_neutral", player=label(p))
    why = _on_field(p, "25.02")
    if why:
        return why
    if p.carrying is not None:
        return rule("carrier_not_neutral", player=label(p))
    return None


def _neutral_end(st, d, _ms):
    return _open_check(st, d, "neutral", "25.02")


def _chrono_reading(st, d, _ms):
    p, why = _capturer(st, d, "20.01")
    if why:
        return why
    if not p.has_marker:
        return rule("without_marker", player=label(p))
    shots = d.get("shots")
    if shots is not None:
        # 20.02: 1-3 readings the judge chose
        if not isinstance(shots, list | tuple) or not 1 <= len(shots) <= 3:
            return rule("shots_one_to_three")
        if any(fps_of(v) is None for v in shots):
            return rule("reading_needs_fps")
    fps = reading_fps(d)
    if fps is None:
        return rule("reading_needs_fps")
    cv = chrono_verdict(
        st.setup.settings, fps, bool(d.get("forbidden_mode")), fps_of(d.get("interval_ms"))
    )
    return second_refusal(st, p, d.get("second"), cv.needs_second_player, cv.section)


def _capturer(st, d, section, field_section=None):
    """The player ``d`` names and on the field (under ``field_section``, else ``section``),
    or the refusal."""
    p, why = _player(st, d.get("team"), d.get("number"), section)
    if why:
        return None, why
    why = _on_field(p, field_section or section)
    return (None, why) if why else (p, None)


def _flag_capture(st, d, _ms):
    p, why = _capturer(st, d, "21.02")
    if why:
        return why
    if p.carrying is not None:
        return rule("already_carries", player=label(p))
    flag = st.flags[st.setup.opponent(p.team)]
    if flag.location == m.CARRIED:
        holder = st.players[flag.carrier]
        return rule("flag_carried_by", owner=Team(flag.owner), holder=label(holder))
    if flag.location != m.AT_BASE:
        return rule("flag_out_of_play", owner=Team(flag.owner))
    return None


def _flag_handover(st, d, _ms):
    team = d.get("team")
    giver, why = _player(st, team, d.get("from_number"), "22.03")
    if why:
        return why
    if giver.carrying is None:
        return rule("no_flag", "22.03", player=label(giver))
    taker, why = _player(st, team, d.get("to_number"), "22.03")
    if why:
        return why
    if taker.number == giver.number:
        return rule("hand_to_another")
    if taker.status == m.ELIMINATED:
        return rule("taker_eliminated", player=label(taker))
    return _on_field(taker, "22.03")


def _flag_hang(st, d, _ms):
    p, why = _capturer(st, d, "23.01")
    if why:
        return why
    if p.carrying is None:
        return rule("no_opponents_flag", player=label(p))
    return None


def _hang_verdict(st, d, _ms):
    hang = st.pending_hang
    if hang is None:
        return rule("no_hang_pending")
    if d.get("paint") not in ("clean", "hit"):
        return rule("paint_values")
    p = st.players[(hang.team, hang.number)]
    fps = fps_of(d.get("fps"))
    if fps is None and d.get("fps") is not None:
        return rule("hang_fps_number")
    if fps is None and p.has_marker:
        return rule("hang_needs_chrono", player=label(p))
    fps = reading_fps(d)
    cv = chrono_verdict(
        st.setup.settings, fps, bool(d.get("forbidden_mode")), fps_of(d.get("interval_ms"))
    )
    return second_refusal(st, p, d.get("second"), cv.needs_second_player, cv.section)


def _status(code: Any) -> Phrase:
    """A player's status or an inspection result (18.02) as words; an unknown code as is."""
    return phrase(f"status_{code}") if f"status_{code}" in PHRASES else Phrase(str(code))


def _inspection(st, d, _ms):
    p, why = _player(st, d.get("team"), d.get("number"), "18.02")
    if why:
        return why
    if p.benched:
        return rule("not_in_lineup", "18.02", player=label(p))
    if p.inspection is not None:
        return rule("already_inspected", player=label(p), result=_status(p.inspection))
    if not p.unhit:
        return rule("only_unhit_inspected", player=label(p), status=_status(p.status))
    if d.get("result") not in ev.INSPECTION_RESULTS:
        return rule("inspection_values")
    pts = d.get("penalty_points")
    if pts is not None and (isinstance(pts, bool) or not isinstance(pts, int) or pts < 0):
        return rule("inspection_points_value")
    return None


_CHECKS = {
    ev.CHECKIN: _checkin,
    ev.MARKER_VERDICT: _marker_verdict,
    ev.NO_SHOW: _no_show,
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
    ev.OLD_PAINT: _old_paint,
    ev.LINEUP: _lineup,
    ev.CLOCK_START: _clock_start,
}


def reading_fps(d: Mapping[str, Any]) -> float | None:
    """The speed an in-game reading is judged on: the highest of the ``shots`` the judge
    chose (20.02: one, two or three), else ``fps``."""
    shots = d.get("shots")
    if isinstance(shots, list | tuple) and shots:
        vals = [fps_of(v) for v in shots]
        if all(v is not None for v in vals):
            return max(v for v in vals if v is not None)
    return fps_of(d.get("fps"))


def advisories(st: m.GameState, etype: str, data: Mapping[str, Any]) -> list[str]:
    """Warnings a legal action still deserves, each citing its section (the screen shows
    them; nothing is refused): a paint check on a flag carrier (25.05), old paint spots the
    player reported before the game (29.10)."""
    out: list[str] = []
    if etype in (ev.PAINT_CHECK_START, ev.NEUTRAL_START):
        n = num(data.get("number"))
        p = st.player(str(data.get("team")), n) if n is not None else None
        if p is None:
            return out
        if p.carrying is not None and etype == ev.PAINT_CHECK_START:
            out.append(rule("carrier_paint_check", player=label(p)))
        for spot in p.old_paint:
            out.append(rule("old_paint", player=label(p), spots=spot))
    return out


def replay_refusal(st: m.GameState, *, head_judge: bool, round_open: bool) -> str | None:
    """32.03: a no-show game may be replayed only when the organisers caused it, by the
    head judge, while its round is not over. None when the replay is allowed."""
    if not st.no_show:
        return rule("replay_not_no_show")
    if st.no_show_cause != "organisers":
        return rule("replay_team_cause")
    if not head_judge:
        return rule("replay_head_judge")
    if not round_open:
        return rule("replay_round_over")
    return None
