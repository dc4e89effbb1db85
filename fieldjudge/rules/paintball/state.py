"""fold(setup, events) -> GameState over the effective events, and validate()."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from fieldjudge.rules.events import VOID, Event, effective, has_void
from fieldjudge.rules.messages import Team, phrase, rule, without_section
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball import model as m
from fieldjudge.rules.paintball.checks import fps_of, label, num, reading_fps, refusal
from fieldjudge.rules.paintball.chrono import chrono_verdict
from fieldjudge.rules.paintball.clock import elapsed_at
from fieldjudge.rules.paintball.reasons import ALL_REASONS, ON_ELIMINATED_REASONS
from fieldjudge.rules.paintball.setup import GameSetup, needs_second_player


def new_state(setup: GameSetup) -> m.GameState:
    players = {}
    for team in setup.teams:
        for rp in setup.rosters.get(team, ()):
            p = m.PlayerState(team, rp.number, rp.name, rp.captain)
            if (team, rp.number) in setup.disqualified:
                # 20.05: disqualified in an earlier game, for the rest of the tournament
                p.status, p.disqualified = m.DISQUALIFIED, True
            players[(team, rp.number)] = p
    return m.GameState(
        setup=setup,
        phase=m.NOT_STARTED,
        players=players,
        flags={t: m.FlagState(owner=t) for t in setup.teams},
        clock=m.ClockState(length_ms=setup.settings.game_length_ms),
    )


def disqualified_in(states: Iterable[m.GameState]) -> frozenset[tuple[str, int]]:
    """20.05: the (team, number) of every player disqualified in these games -- pass it as
    ``GameSetup.disqualified`` of every later game of the tournament."""
    return frozenset(p.key for st in states for p in st.players.values() if p.disqualified)


def fold(setup: GameSetup, events: Iterable[Event], *, recheck: bool = False) -> m.GameState:
    """The state after the effective events, in log order. Never raises on a bad log: an
    illegal event is kept in ``state.rejected`` with the refusal, an unknown type in
    ``state.ignored``, an event that cannot be applied in ``state.rejected`` too. Pure: it
    builds a new state and changes nothing it is given.

    A stored event was checked against the events before it when it was appended (the
    services refuse an illegal action), so the fold re-runs the refusal checks only where
    that check may no longer hold: every event a void or a void of a void reaches
    (:func:`unsettled`: its target and the events between them, whose history changed
    after they were checked), and every event when earlier games disqualified players
    (20.05: a disqualification can reach this game after its events were recorded, from
    another field's laptop). ``recheck=True`` checks every event (``fieldjudge verify``,
    a log from elsewhere)."""
    evs = list(events)
    check_all = recheck or bool(setup.disqualified)
    checked = set() if check_all else unsettled(evs)
    st = new_state(setup)
    for e in effective(evs):
        step(st, e, check_all or e.id in checked)
    return st


def unsettled(events: Sequence[Event]) -> set[str]:
    """Ids of the events whose standing a void may have changed after they were checked:
    for every void (effective or not), its target and every event between the two."""
    if not has_void(events):
        return set()
    pos = {e.id: i for i, e in enumerate(events)}
    out: set[str] = set()
    for i, e in enumerate(events):
        if e.type != VOID:
            continue
        target = e.data.get("target") if isinstance(e.data, Mapping) else None
        j = pos.get(target) if isinstance(target, str) else None
        if j is not None and j < i:
            out.update(x.id for x in events[j:i])
    return out


def step(st: m.GameState, e: Event, check: bool = True) -> None:
    """Apply one effective event (refused ones go to ``rejected``, unknown types to
    ``ignored``); ``check``: run the refusal checks first (see :func:`fold`). The resumable
    fold of ``checkpoints`` goes on from a copy of an earlier state with it."""
    apply = _APPLY.get(e.type)  # the appliers of ev.EVENT_TYPES, every one
    if apply is None:
        st.ignored.append(e.id)
        return
    data = e.data
    if type(data) is not dict and not isinstance(data, Mapping):
        data = {}
    if check:
        try:
            why = refusal(st, e.type, data)
        except Exception as exc:  # a malformed record must not stop the fold
            why = rule("malformed_event", error=str(exc))  # the text: a kept exception holds frames
        if why:
            st.rejected.append(m.Note(e.id, e.seq, e.type, why))
            return
    try:
        apply(st, e, data)
    except Exception as exc:  # a malformed or illegal record must not stop the fold
        st.rejected.append(m.Note(e.id, e.seq, e.type, rule("could_not_apply", error=str(exc))))


def validate(
    setup: GameSetup,
    events: Iterable[Event],
    new_event_type: str,
    data: Mapping[str, Any],
    game_clock_ms: int | None = None,
) -> str | None:
    """A refusal citing the section if the action is illegal after ``events``, else None.
    Screens holding a folded state can call ``checks.refusal(state, type, data)``."""
    return refusal(fold(setup, events), new_event_type, data, game_clock_ms)


# --- helpers ----------------------------------------------------------------------------


def _ms(st: m.GameState, e: Event) -> int | None:
    """Game time of an event: its own stamp, else derived from the clock and wall time."""
    ms = e.game_clock_ms
    if ms is not None:
        ms, length = int(ms), st.clock.length_ms
        return 0 if ms < 0 else length if ms > length else ms
    if not st.clock.started:
        return None
    try:
        return elapsed_at(st.clock, e.wall_time)
    except ValueError:
        return st.clock.elapsed_ms


def _stop_clock(st: m.GameState, at: int | None) -> None:
    if at is not None:
        st.clock.elapsed_ms = at
    st.clock.running, st.clock.anchor_wall = False, None


def _pl(st: m.GameState, team: Any, number: Any) -> m.PlayerState:
    if type(number) is int:  # as the services record it (a bool is no number)
        p = st.players.get((team, number))
        if p is not None:
            return p
    return st.players[(str(team), num(number))]  # type: ignore[index]  # None: KeyError


def _close_check(p: m.PlayerState, at: int | None, outcome: str) -> None:
    if p.check is not None:
        p.check.end_ms, p.check.outcome = at, outcome
        p.checks.append(p.check)
        p.check = None


def _restore(p: m.PlayerState) -> None:
    p.status = m.IN_PLAY if p.has_marker else m.NO_MARKER


def _eliminate(
    st: m.GameState,
    p: m.PlayerState,
    reason: str,
    section: str,
    at: int | None,
    e: Event,
    text: str = "",
) -> None:
    p.status = m.ELIMINATED
    r = ALL_REASONS.get(reason)
    p.elimination = m.Elimination(reason, section, at, e.id, text or (r.text if r else reason))
    _close_check(p, at, "eliminated")
    if p.carrying is not None:
        flag = st.flags[p.carrying]
        p.carrying = None
        flag.carrier, flag.since_ms = None, None
        flag.taken_by_judge += 1
        if st.ended:
            flag.location = m.TAKEN_BY_JUDGE  # game over: no spare goes up
        else:
            # 22.04 / 23.02: the judge takes the flag, the spare is hung at its base
            flag.location = m.AT_BASE
            flag.spares_hung += 1


def _end(st: m.GameState, reason: str, at: int | None) -> None:
    st.end_reason, st.end_ms = reason, at
    _stop_clock(st, at)
    st.phase = m.INSPECTION  # 18.02
    if not st.to_inspect():
        st.phase = m.FINAL


def _team_out(st: m.GameState, at: int | None) -> None:
    # "How a game ends" (23.03, 30.01): a team with nobody left does not end the game, the
    # other team may still capture and hang; only the setting ends it here
    if not st.setup.settings.end_when_team_out:
        return
    if st.phase not in (m.RUNNING, m.STOPPED, m.HANG_CHECK):
        return
    if any(st.alive(t) == 0 for t in st.setup.teams):
        _end(st, m.END_TEAM_OUT, at)


def _second(st, e, offender, second, section, at) -> None:
    if second is None:
        return
    p = _pl(st, offender.team, second)
    # 29.08: group removal 1+1
    text = phrase("with_group_removal", player=label(offender), section=section)
    _eliminate(st, p, "group_removal", "29.08", at, e, text)


def _apply_chrono(st, e, p, d, fps, at) -> bool:
    """Record a reading and apply its verdict (20.02-20.05). True if it eliminates."""
    forbidden = bool(d.get("forbidden_mode"))
    cv = chrono_verdict(st.setup.settings, fps, forbidden, fps_of(d.get("interval_ms")))
    st.chrono.append(
        m.ChronoRecord(
            p.team,
            p.number,
            fps,
            forbidden,
            at,
            e.id,
            cv.penalty,
            cv.text,
            str(d.get("source", "")),
        )
    )
    if cv.flagged:
        st.flagged.append(
            m.Note(e.id, e.seq, e.type, phrase("player_note", player=label(p), verdict=cv.text))
        )
    if cv.team_penalty:
        st.team_penalties.append(
            m.Note(e.id, e.seq, e.type, phrase("team_note", team=Team(p.team), verdict=cv.text))
        )
    if cv.disqualify:
        p.disqualified = True
    if not cv.eliminates:
        return False
    if p.status != m.ELIMINATED:
        _eliminate(st, p, cv.reason, cv.section, at, e, cv.text)  # type: ignore[arg-type]
    _second(st, e, p, d.get("second"), cv.section, at)
    return True


# --- appliers -------------------------------------------------------------------------


def _a_checkin(st, e, d):
    st.checkins[str(d["team"])] = bool(d.get("late"))


def _a_marker_verdict(st, e, d):
    p = _pl(st, d["team"], d["number"])
    p.marker_result = d["result"]
    p.has_marker = d["result"] != "no_marker"
    if p.status == m.DISQUALIFIED:
        return  # 20.05: stays out whatever the marker check says
    # 19.06 not admitted (may be fixed and re-checked); 19.07 plays without a marker
    p.status = {"admitted": m.IN_PLAY, "not_admitted": m.NOT_ADMITTED}.get(d["result"], m.NO_MARKER)


def _a_lineup(st, e, d):
    # 30.01: the roster's other players sit this game out; a later line-up replaces it
    team = str(d["team"])
    numbers = tuple(num(n) for n in d["numbers"])
    st.lineups[team] = numbers  # type: ignore[assignment]
    for p in st.team_players(team):
        p.benched = p.number not in numbers


def _a_old_paint(st, e, d):
    # 29.10: shown to the judge at a paint check of this player
    _pl(st, d["team"], d["number"]).old_paint.append(str(d["spot"]).strip())


def _a_no_show(st, e, d):
    st.no_show = frozenset(str(t) for t in d["absent"])  # 32.01
    st.no_show_cause = str(d.get("cause", "team"))  # 32.03
    st.end_reason, st.phase = m.END_NO_SHOW, m.FINAL


def _a_clock_start(st, e, d):
    st.clock.started, st.clock.running = True, True
    st.clock.elapsed_ms, st.clock.anchor_wall = 0, e.wall_time
    st.phase = m.RUNNING
    _team_out(st, 0)


def _a_time_stop(st, e, d):
    _stop_clock(st, _ms(st, e))
    st.phase = m.STOPPED


def _a_clock_resume(st, e, d):
    # 23.02: resumes from where it stopped (for a hang: the touch time)
    st.clock.running, st.clock.anchor_wall = True, e.wall_time
    st.phase = m.RUNNING


def _a_game_end(st, e, d):
    if d["reason"] == "clock":
        _end(st, m.END_CLOCK, st.clock.length_ms)
    else:
        st.flagged.append(
            m.Note(e.id, e.seq, e.type, phrase("ended_by_judge", note=str(d.get("note", ""))))
        )
        _end(st, m.END_JUDGE, _ms(st, e))


def _a_elimination(st, e, d):
    at = _ms(st, e)
    reason = d["reason"]
    section = ALL_REASONS[reason].section
    offenders = [_pl(st, r["team"], r["number"]) for r in d["players"]]
    if reason in ON_ELIMINATED_REASONS:
        section = str(d.get("section", section))
        if offenders[0].status == m.ELIMINATED:
            # 27.02-27.05, 28.02, 29.11: playing on while eliminated is a team penalty
            p = offenders[0]
            group = needs_second_player(st.setup.settings, reason)
            st.team_penalties.append(
                m.Note(
                    e.id,
                    e.seq,
                    e.type,
                    rule(
                        "playing_on_penalty",
                        section,
                        player=label(p),
                        what=phrase("group_1_1" if group else "no_further_removal"),
                    ),
                )
            )
            _second(st, e, p, d.get("second"), section, at)
            _team_out(st, at)
            return
    for p in offenders:
        _eliminate(st, p, reason, section, at, e, str(d.get("note", "")))
    _second(st, e, offenders[0], d.get("second"), section, at)
    _team_out(st, at)


def _a_paint_check_start(st, e, d):
    _pl(st, d["team"], d["number"]).check = m.Check("paint", _ms(st, e))


def _check_end(st, e, d, kind: str) -> m.PlayerState | None:
    """A paint (24.01) or neutral (25.02) check ends: the player is hit, or back in play
    (returned). The elimination's note is made only for a hit (most checks end in play)."""
    p, at = _pl(st, d["team"], d["number"]), _ms(st, e)
    if d["outcome"] == "eliminated":
        _close_check(p, at, "eliminated")
        paint = kind == "paint"
        note = phrase("hit_at_paint_check" if paint else "hit_at_neutral_check")
        _eliminate(st, p, "hit", "24.01" if paint else "25.02", at, e, note)
        _team_out(st, at)
        return None
    _close_check(p, at, "in_play")
    return p


def _a_paint_check_end(st, e, d):
    _check_end(st, e, d, "paint")


def _a_neutral_start(st, e, d):
    p, at = _pl(st, d["team"], d["number"]), _ms(st, e)
    _close_check(p, at, "escalated")  # 25.01: a paint check that needs a neutral
    p.check = m.Check("neutral", at)
    p.status = m.NEUTRAL  # 25.03


def _a_neutral_end(st, e, d):
    p = _check_end(st, e, d, "neutral")
    if p is not None:
        _restore(p)


def _a_chrono_reading(st, e, d):
    p, at = _pl(st, d["team"], d["number"]), _ms(st, e)
    if _apply_chrono(st, e, p, d, reading_fps(d), at):
        _team_out(st, at)


def _a_flag_capture(st, e, d):
    p, at = _pl(st, d["team"], d["number"]), _ms(st, e)
    flag = st.flags[st.setup.opponent(p.team)]
    flag.location, flag.carrier, flag.since_ms = m.CARRIED, p.key, at
    flag.captures.append(m.Capture(p.team, p.number, at, e.seq))
    p.carrying = flag.owner
    if st.first_capture_team is None:
        st.first_capture_team = p.team  # 30.01: who captured first


def _a_flag_handover(st, e, d):
    # 22.03
    giver = _pl(st, d["team"], d["from_number"])
    taker = _pl(st, d["team"], d["to_number"])
    flag = st.flags[giver.carrying]
    flag.carrier, flag.since_ms = taker.key, _ms(st, e)
    taker.carrying, giver.carrying = giver.carrying, None


def _a_flag_hang(st, e, d):
    # 23.01: "Time!" -- the clock stops at the touch
    at = _ms(st, e)
    _stop_clock(st, at)
    st.hangs.append(m.HangAttempt(str(d["team"]), num(d["number"]), at, e.id))
    st.phase = m.HANG_CHECK


def _a_hang_verdict(st, e, d):
    hang = st.hangs[-1]
    p = st.players[(hang.team, hang.number)]
    fps = reading_fps(d)
    at = hang.touch_ms
    hit = d["paint"] == "hit"
    cv = chrono_verdict(
        st.setup.settings, fps, bool(d.get("forbidden_mode")), fps_of(d.get("interval_ms"))
    )
    if not hit and not cv.eliminates:
        # 23.03: the hang counts; the game ended at the touch, not at the verdict
        if fps is not None:
            _apply_chrono(st, e, p, d, fps, at)
        hang.counted, hang.text = True, rule("hang_counted")
        flag = st.flags[p.carrying]
        flag.location = m.HUNG  # flag.carrier stays: who hung it
        p.carrying = None
        st.hang_team = p.team
        _end(st, m.END_FLAG_HANG, at)
        return
    hang.counted = False
    if hit:
        hang.text = rule("carrier_hit")
        _eliminate(st, p, "hit", "23.02", at, e, phrase("hit_at_hang_check"))
    else:
        # 23.02 with the chrono's own section: e.g. 305 fps → "20.03: not counted"
        hang.text = rule("hang_rejected_chrono", cv.section, verdict=without_section(cv.text))
    if fps is not None or cv.eliminates:
        _apply_chrono(st, e, p, d, fps, at)  # the chrono penalty applies on top (20.03-20.05)
    # 23.02: the spare flag is up (done by _eliminate); play resumes with clock_resume
    st.phase = m.STOPPED
    _team_out(st, at)


def _a_inspection(st, e, d):
    # 18.02
    p = _pl(st, d["team"], d["number"])
    result = d["result"]
    p.inspection = result
    if result == "clean":
        _close_check(p, st.end_ms, "in_play")
        _restore(p)
    elif result == "hit_found":
        _eliminate(st, p, "failed_inspection", "18.02", st.end_ms, e)
        # 18.02: penalty points per hit found, entered by the senior judge (default setting);
        # the note is printed on the protocol
        pts = d.get("penalty_points")
        pts = st.setup.settings.inspection_penalty_points if pts is None else int(pts)
        st.inspection_points[p.team] = st.inspection_points.get(p.team, 0) + pts
        note = rule("inspection_points", player=label(p), points=pts)
        st.penalty_reports.append(m.Note(e.id, e.seq, e.type, note))
    else:
        _eliminate(st, p, "did_not_report", "18.02", st.end_ms, e)
    if not st.to_inspect():
        st.phase = m.FINAL


_APPLY = {
    ev.CHECKIN: _a_checkin,
    ev.MARKER_VERDICT: _a_marker_verdict,
    ev.NO_SHOW: _a_no_show,
    ev.CLOCK_START: _a_clock_start,
    ev.TIME_STOP: _a_time_stop,
    ev.CLOCK_RESUME: _a_clock_resume,
    ev.GAME_END: _a_game_end,
    ev.ELIMINATION: _a_elimination,
    ev.PAINT_CHECK_START: _a_paint_check_start,
    ev.PAINT_CHECK_END: _a_paint_check_end,
    ev.NEUTRAL_START: _a_neutral_start,
    ev.NEUTRAL_END: _a_neutral_end,
    ev.CHRONO_READING: _a_chrono_reading,
    ev.FLAG_CAPTURE: _a_flag_capture,
    ev.FLAG_HANDOVER: _a_flag_handover,
    ev.FLAG_HANG: _a_flag_hang,
    ev.HANG_VERDICT: _a_hang_verdict,
    ev.INSPECTION: _a_inspection,
    ev.OLD_PAINT: _a_old_paint,
    ev.LINEUP: _a_lineup,
}

if _APPLY.keys() != ev.EVENT_TYPES:  # step tells an unknown type by its applier
    raise RuntimeError("every paintball event type needs its applier, and only those")
