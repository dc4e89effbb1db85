"""Words the game screen shows: player states, flags, phases and one line per log event.

Pure formatting over the engine's state (no widgets), translated with ``_()``; reason labels
come from the engine's catalogue (``reasons.py``, translated in ``fieldjudge.po``)."""

from __future__ import annotations

from fieldjudge.i18n import _
from fieldjudge.rules.paintball import model as m
from fieldjudge.rules.paintball.reasons import DIRECT_REASONS
from fieldjudge.services.paintball.event_text import INSPECTION_TEXT, Namer, clock, reason_label

# One key per reason in the elimination menu (Enter = hit, the common case).
REASON_KEYS: tuple[tuple[str, str], ...] = (
    ("h", "hit"),
    ("p", "playing_on"),
    ("g", "picked_up_balls"),
    ("o", "out_of_bounds"),
    ("m", "no_mask"),
    ("d", "deadman"),
    ("t", "tools"),
    ("e", "equipment_over_2m"),
    ("u", "unsportsmanlike"),
    ("j", "judge_removal"),
    ("s", "imitating_signals"),
    ("f", "own_flag_touch"),
    ("v", "flag_hidden"),
    ("k", "marker_tampering"),
)
assert {r for _k, r in REASON_KEYS} == set(DIRECT_REASONS)

# 27.02-27.05, 28.02, 29.11: what a player who is already out did (the judge picks one)
PLAYING_ON_TEXT = {
    "27.02": "did not stop and signal the hit",
    "27.03": "did not ask for a paint check of a spot he cannot see",
    "27.04": "played on instead of taking cover and checking",
    "27.05": "demanded a paint check of a spot he can see",
    "28.02": "played on with an obvious hit",
    "29.11": "did not leave the field as an eliminated player",
}

PHASE_TEXT = {
    m.NOT_STARTED: "Not started",
    m.RUNNING: "Game on",
    m.STOPPED: "Time!",
    m.HANG_CHECK: "Flag hang check",
    m.ENDED: "Game over",
    m.INSPECTION: "Post-game inspection",
    m.FINAL: "Final",
}

PHASE_HINT = {
    m.NOT_STARTED: "Space: start the clock",
    m.RUNNING: "a / b: eliminate · t: Time! · H: flag hang",
    m.STOPPED: "Space: resume the clock",
    m.HANG_CHECK: "H: enter the flag-hang verdict (paint check and chrono)",
    m.INSPECTION: "i: post-game inspection of the unhit players",
    m.FINAL: "The game is over; the protocol is next: Esc, then p",
}

END_TEXT = {
    m.END_FLAG_HANG: "flag hang",
    m.END_CLOCK: "time ran out",
    m.END_TEAM_OUT: "a team has nobody left",
    m.END_JUDGE: "ended by the judge",
    m.END_NO_SHOW: "no-show",
}


def player_status(p: m.PlayerState) -> tuple[str, str]:
    """(text, css class) of a player's state for the roster."""
    extra = ""
    if p.carrying is not None:
        extra = " ⚑ " + _("flag")
    if p.disqualified:
        extra += " " + _("DQ")
    if p.status == m.ELIMINATED and p.elimination is not None:
        el = p.elimination
        label = reason_label(el.reason)
        return f"✗ {clock(el.game_clock_ms)} {el.section} {label}{extra}", "eliminated"
    if p.status == m.NEUTRAL:
        start = p.check.start_ms if p.check else None
        return f"◆ {_('neutral since')} {clock(start)}{extra}", "neutral"
    if p.status == m.NOT_ADMITTED:
        return _("not admitted (chrono)"), "not-admitted"
    if p.status == m.DISQUALIFIED:  # 20.05 in an earlier game: never in play again
        return "⛔ " + _("disqualified (20.05)"), "eliminated"
    if p.benched:  # 30.01: a substitute, not in this game's line-up
        return "– " + _("not in the line-up"), "not-admitted"
    if p.check is not None and p.check.kind == "paint":
        return f"? {_('paint check since')} {clock(p.check.start_ms)}{extra}", "checking"
    if p.inspection is not None:
        return f"✓ {_(INSPECTION_TEXT.get(p.inspection, p.inspection))}{extra}", "in-play"
    base = _("no marker") if p.status == m.NO_MARKER else _("in play")
    if p.carrying is not None:
        return f"⚑ {_('carries the flag')}", "carrier"
    return f"● {base}{extra}", "in-play"


def flag_text(st: m.GameState, owner: str, namer: Namer) -> str:
    f = st.flags[owner]
    head = _("Flag of") + f" {namer.team(owner)}: "
    if f.location == m.CARRIED and f.carrier is not None:
        # issue 12: the carrier's number first, so it survives a narrow (80x24) screen
        team, number = f.carrier
        return head + f"⚑ #{number} {namer.team(team)} ({clock(f.since_ms)})"
    if f.location == m.HUNG:
        who = namer.player(*f.carrier) if f.carrier else ""
        return head + _("HUNG") + f" {who}"
    if f.location == m.TAKEN_BY_JUDGE:
        return head + _("taken by the judge")
    if f.spares_hung:
        return head + _("spare flag at base")
    return head + _("at base")
