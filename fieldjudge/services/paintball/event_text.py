"""One line per log event of a game, in the language of the text (the UI's, or a
document's: ``i18n.speaking``): what the game screen's event list shows and what the
per-game events CSV reads (issue 25). Pure formatting over the engine's state (no widgets),
translated with ``_()``; reason labels come from the engine's catalogue (``reasons.py``,
translated in ``fieldjudge.po``)."""

from __future__ import annotations

from typing import Any

from fieldjudge.i18n import _, number, rule_text
from fieldjudge.i18n import reason_label as translated_reason
from fieldjudge.rules import protocol as pr
from fieldjudge.rules.events import VOID, Event
from fieldjudge.rules.messages import rule, without_section
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball import model as m
from fieldjudge.rules.paintball.checks import fps_of, reading_fps
from fieldjudge.rules.paintball.chrono import chrono_verdict
from fieldjudge.rules.paintball.reasons import ALL_REASONS
from fieldjudge.rules.timefmt import format_game_clock

OUTCOME_TEXT = {"eliminated": "eliminated", "in_play": "in play"}
INSPECTION_TEXT = {"clean": "clean", "hit_found": "hit found", "did_not_report": "did not report"}
# 19.05-19.07: the pre-game marker check's verdicts (ev.MARKER_RESULTS)
MARKER_RESULT_TEXT = {
    "admitted": "admitted",
    "not_admitted": "not admitted",
    "no_marker": "no marker",
}
# 32.01: why a team did not play (ev.NO_SHOW's ``reason``)
NO_SHOW_REASON_TEXT = {"late": "late", "refused": "refused to play"}
# 31: the protocol's events in a game's log
OUTCOME_NAMES = {
    "flag_hang": "flag hang",
    "flag_held": "flag held at the end",
    "draw": "draw",
    "no_show": "no-show",
}


def clock(ms: int | None) -> str:
    return format_game_clock(ms)


def event_no(number: int) -> str:
    """An event's number as the log lists it: «№12» (a shirt number stays «#42»)."""
    return _("#{number}").format(number=number)


def event_line(e: Event, namer: Namer, by_id: dict[str, Event] | None = None) -> str:
    """An event named whole, for a dialog: «№12 · 0:42 · ✗ Медведи #42 …»."""
    return f"{event_no(e.seq)} · {clock(e.game_clock_ms)} · {describe(e, namer, by_id)}"


def reason_label(reason: str) -> str:
    return translated_reason(reason)


def reason_with_section(reason: str) -> str:
    r = ALL_REASONS.get(reason)
    return f"{reason_label(reason)} ({r.section})" if r else reason


class Namer:
    """Team and player names of one game."""

    def __init__(self, names: dict[str, str], state: m.GameState) -> None:
        self.names = names
        self.state = state

    def team(self, team: Any) -> str:
        return self.names.get(str(team), str(team))

    def player(self, team: Any, number: Any) -> str:
        return f"{self.team(team)} #{number}"

    def player_full(self, team: Any, number: Any) -> str:
        try:
            p = self.state.player(str(team), int(number))
        except (TypeError, ValueError):
            p = None
        base = self.player(team, number)
        return f"{base} {p.name}" if p else base


def fps_text(value: Any) -> str:
    """A chrono reading with its unit in the UI language ("287,5 фпс")."""
    try:
        return _("{fps} fps").format(fps=number(float(value)))
    except (TypeError, ValueError):
        return "—"


def _points(namer: Namer, points: Any) -> str:
    """``{team: points}`` as "A 3 : B 0"."""
    if not isinstance(points, dict):
        return ""
    return " : ".join(f"{namer.team(team)} {pts}" for team, pts in points.items())


def protocol_event_text(e: Event, namer: Namer) -> str | None:
    """31: a protocol step in the game's log, or None for any other event."""
    d = e.data if isinstance(e.data, dict) else {}
    t = e.type
    if t == pr.PROTOCOL_SUBMITTED:
        return f"{_('Protocol submitted by the senior judge')}: {_points(namer, d.get('points'))}"
    if t == pr.CAPTAIN_SIGNED:
        return (
            f"{_('Captain signed the protocol')}: {namer.team(d.get('team'))}, {d.get('name', '')}"
        )
    if t == pr.CAPTAIN_REFUSED:
        return (
            f"{_('Captain refused to sign the protocol')}: {namer.team(d.get('team'))}"
            f" — {d.get('reason', '')}"
        )
    if t == pr.TOTAL_CORRECTED:
        text = f"{_('Total corrected by the head judge')}: {_points(namer, d.get('new_points'))}"
        if d.get("new_outcome"):
            outcome = _(OUTCOME_NAMES.get(str(d["new_outcome"]), str(d["new_outcome"])))
            team = d.get("new_outcome_team")
            text += f", {outcome}" + (f" ({namer.team(team)})" if team else "")
        return text + f" — {d.get('reason', '')}"
    return None


def _refs(namer: Namer, refs: Any) -> str:
    out = []
    for r in refs or []:
        if isinstance(r, dict):
            out.append(namer.player_full(r.get("team"), r.get("number")))
    return ", ".join(out)


def hang_verdict_text(st: m.GameState, d: dict[str, Any]) -> Any:
    """23.02/23.03: a hang verdict as the engine reads it: counted, carrier hit, or
    rejected under the chrono's own section (305 fps → 20.03), never "clean" then."""
    if d.get("paint") == "hit":
        return rule("carrier_hit")
    cv = chrono_verdict(
        st.setup.settings,
        reading_fps(d),
        bool(d.get("forbidden_mode")),
        fps_of(d.get("interval_ms")),
    )
    if cv.eliminates:
        return rule("hang_rejected_chrono", cv.section, verdict=without_section(cv.text))
    fps = reading_fps(d)
    return f"{rule_text(rule('hang_counted'))}, {fps_text(fps)}"


def describe(e: Event, namer: Namer, by_id: dict[str, Event] | None = None) -> str:
    """One log line (without the time)."""
    d = e.data if isinstance(e.data, dict) else {}
    t = e.type
    if t == ev.CLOCK_START:
        return _("Clock started")
    if t == ev.TIME_STOP:
        return _("Time! Clock stopped")
    if t == ev.CLOCK_RESUME:
        return _("Clock resumed")
    if t == ev.GAME_END:
        return _("Game over") + ": " + _("time ran out" if d.get("reason") == "clock" else "judge")
    if t == ev.ELIMINATION:
        why = reason_with_section(str(d.get("reason")))
        if d.get("section"):  # 27.02-27.05, 28.02, 29.11: the section the judge picked
            why = f"{reason_label(str(d.get('reason')))} ({d['section']})"
        text = f"✗ {_refs(namer, d.get('players'))}: {why}"
        if d.get("second") is not None:
            first = (d.get("players") or [{}])[0]
            text += " + " + namer.player(first.get("team"), d["second"]) + " (1+1, 29.08)"
        return text
    if t in (ev.PAINT_CHECK_START, ev.NEUTRAL_START):
        what = _("Paint check") if t == ev.PAINT_CHECK_START else _("Neutral")
        return f"{what}: {namer.player_full(d.get('team'), d.get('number'))}"
    if t in (ev.PAINT_CHECK_END, ev.NEUTRAL_END):
        what = _("Paint check") if t == ev.PAINT_CHECK_END else _("Neutral check")
        out = _(OUTCOME_TEXT.get(str(d.get("outcome")), str(d.get("outcome"))))
        return f"{what} {namer.player(d.get('team'), d.get('number'))}: {out}"
    if t == ev.CHRONO_READING:
        return f"{_('Chrono')} {namer.player(d.get('team'), d.get('number'))}: {fps_text(d.get('fps'))}"
    if t == ev.FLAG_CAPTURE:
        return f"⚑ {namer.player_full(d.get('team'), d.get('number'))} " + _("captured the flag")
    if t == ev.FLAG_HANDOVER:
        team = d.get("team")
        return f"⚑ {namer.player(team, d.get('from_number'))} → #{d.get('to_number')} " + _(
            "hand-over"
        )
    if t == ev.FLAG_HANG:
        who = namer.player(d.get("team"), d.get("number"))
        return f"⚑ {_('Flag hang by')} {who} — {_('Time!')}"
    if t == ev.HANG_VERDICT:
        return f"{_('Hang verdict')}: {rule_text(hang_verdict_text(namer.state, d), namer.names)}"
    if t == ev.OLD_PAINT:
        who = namer.player_full(d.get("team"), d.get("number"))
        return f"{_('Old paint (29.10)')} {who}: {d.get('spot', '')}"
    if t == ev.INSPECTION:
        res = _(INSPECTION_TEXT.get(str(d.get("result")), str(d.get("result"))))
        if d.get("result") == "hit_found":  # 18.02: the senior judge's penalty points
            pts = d.get("penalty_points", namer.state.setup.settings.inspection_penalty_points)
            res += f", {_('penalty points')}: {pts}"
        return f"{_('Inspection')} {namer.player(d.get('team'), d.get('number'))}: {res}"
    if t == VOID:
        return void_text(e, namer, by_id or {})
    if t == ev.CHECKIN:
        return f"{_('Check-in')}: {namer.team(d.get('team'))}"
    if t == ev.LINEUP:  # 30.01
        numbers = ", ".join(f"#{n}" for n in d.get("numbers") or [])
        return f"{_('Line-up')} {namer.team(d.get('team'))}: {numbers}"
    if t == ev.MARKER_VERDICT:
        result = str(d.get("result"))
        return f"{_('Marker check of')} {namer.player(d.get('team'), d.get('number'))}: " + _(
            MARKER_RESULT_TEXT.get(result, result)
        )
    if t == ev.NO_SHOW:
        text = _("No-show") + ": " + ", ".join(namer.team(x) for x in d.get("absent") or [])
        reason = str(d.get("reason") or "")
        return text + (f" ({_(NO_SHOW_REASON_TEXT.get(reason, reason))})" if reason else "")
    proto = protocol_event_text(e, namer)
    if proto is not None:
        return proto
    return _("other event")


def void_text(e: Event, namer: Namer, by_id: dict[str, Event]) -> str:
    """A void's line: «Отменено: №12 ✗ Медведи #42 …: поражение — reason»; a void of a
    void names the event that counts again."""
    return "".join(void_parts(e, namer, by_id))


def void_parts(e: Event, namer: Namer, by_id: dict[str, Event]) -> tuple[str, str, str]:
    """A void's line in three parts: «Отменено: №12 », the voided event's line (what a
    narrow log cuts first), « — reason»."""
    d = e.data if isinstance(e.data, dict) else {}
    reason = str(d.get("reason", ""))
    reason = _("undone by the judge") if reason == "undo" else reason  # UNDO_REASON
    target = by_id.get(str(d.get("target")))
    if target is None:  # a target this log does not hold (a damaged log): its id
        return f"{_('Voided')}: ", str(d.get("target")), f" — {reason}"
    head = _("Voided: {event}").format(event=event_no(target.seq))
    if target.type == VOID:  # it restores the void's own target
        back = by_id.get(str((target.data or {}).get("target")))
        again = _("{event} counts again").format(event=event_no(back.seq)) if back else ""
        return head, f" ({again})" if again else "", f" — {reason}"
    return head + " ", describe(target, namer, by_id), f" — {reason}"
