"""The pit display's words for a game's events and its conflicts, in each language of the
page (``ru``, ``en``), built here so the page's script only shows them.

An event's line names its players, its reason and section, its outcome and what it caused:
a chrono reading states its verdict (20.02-20.05: no penalty, removed, group removal 1+1,
disqualified), and every player the event put out besides the one it names (the partner of
a group removal 1+1, 29.08) is listed after it. Message ids are English, translated in the
pit's catalog (``fieldjudge.po``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fieldjudge.i18n import LANGS, Catalogs, load, reason_label, rule_text
from fieldjudge.rules.events import Event
from fieldjudge.rules.paintball import model as m
from fieldjudge.rules.paintball.reasons import ALL_REASONS
from fieldjudge.services.paintball.event_text import (
    INSPECTION_TEXT,
    MARKER_RESULT_TEXT,
    OUTCOME_TEXT,
)

EVENT_WORDS = {
    "clock_start": "Clock started",
    "time_stop": "Time! Clock stopped",
    "clock_resume": "Clock resumed",
    "game_end": "Game over",
    "elimination": "Out",
    "paint_check_start": "Paint check",
    "paint_check_end": "Paint check over",
    "neutral_start": "Neutral",
    "neutral_end": "Neutral check over",
    "chrono_reading": "Chrono",
    "flag_capture": "Flag captured",
    "flag_handover": "Flag handed over",
    "flag_hang": "Flag hang",
    "hang_verdict": "Hang verdict",
    "inspection": "Inspection",
    "checkin": "Check-in",
    "lineup": "Line-up",
    "old_paint": "Old paint (29.10)",
    "marker_verdict": "Marker check",
    "no_show": "No-show",
    "protocol_submitted": "Protocol submitted",
    "captain_signed": "Captain signed",
    "captain_refused": "Captain refused to sign",
    "total_corrected": "Total corrected by the head judge",
}
OUTCOME_WORDS = {
    **OUTCOME_TEXT,  # a paint or neutral check (24, 25)
    **INSPECTION_TEXT,  # the post-game inspection (18.02)
    **MARKER_RESULT_TEXT,  # the pre-game marker check (19.05-19.07)
    "hit": "hit",
    "flag_hang": "flag hang",
    "flag_held": "flag held",
    "draw": "draw",
    "no_show": "no-show",
}


def player_words(p: dict[str, Any], names: Mapping[str, str]) -> str:
    """``#23 Дмитрий Козлов (Медведи)``."""
    out = f"#{p.get('number')}"
    if p.get("name"):
        out += f" {p['name']}"
    return out + f" ({names.get(str(p.get('team')), str(p.get('team')))})"


def _chrono_verdict(st: m.GameState, e: Event) -> Any:
    """The verdict the engine took on this chrono reading (20.02-20.05), or None."""
    return next((r.text for r in st.chrono if r.event_id == e.id and r.text), None)


def _caused(st: m.GameState, e: Event, named: set[tuple[Any, Any]]) -> list[m.PlayerState]:
    """The players this event put out besides those it names (a 1+1 partner, 29.08)."""
    return [
        p
        for p in st.players.values()
        if p.elimination is not None
        and p.elimination.event_id == e.id
        and (p.team, p.number) not in named
    ]


def player_ref(st: m.GameState, team: Any, number: Any) -> dict[str, Any]:
    """A player as the pit names him (``name`` "" when the game has no such player)."""
    try:
        p = st.player(str(team), int(number))
    except (TypeError, ValueError):
        p = None
    return {"team": team, "number": number, "name": p.name if p else ""}


def event_line(
    e: Event,
    st: m.GameState,
    players: list[dict[str, Any]],
    names: Mapping[str, str],
    lang: str,
    hang: m.HangAttempt | None = None,
) -> str:
    """One event of the pit's card in ``lang``: what happened, to whom, and what it caused
    (``hang``: the flag hang a ``hang_verdict`` judged, 23.02/23.03)."""
    cat: Catalogs = load(lang)
    d = e.data if isinstance(e.data, dict) else {}
    text = cat.gettext(EVENT_WORDS.get(e.type, "other event"))
    if hang is not None and not players:  # the verdict names the carrier who hung it
        players = [player_ref(st, hang.team, hang.number)]
    who = ", ".join(player_words(p, names) for p in players)
    if e.type == "flag_handover":  # 22.03: from one player to another of his team
        giver = player_ref(st, d.get("team"), d.get("from_number"))
        taker = player_ref(st, d.get("team"), d.get("to_number"))
        who = f"{player_words(giver, names)} → {player_words(taker, names)}"
    if who:
        text += ": " + who
    elif d.get("team") in names:
        text += ": " + names[str(d["team"])]
    reason = d.get("reason") if e.type == "elimination" else None
    rs = ALL_REASONS.get(str(reason)) if reason else None
    if rs is not None:
        text += f" — {reason_label(rs.key, lang)} ({d.get('section') or rs.section})"
    outcome = d.get("outcome") or d.get("result") or d.get("paint")
    if hang is not None and hang.text:  # counted (23.03) or not, and why (23.02, 20.03-20.05)
        text += " — " + rule_text(hang.text, names, lang)
    elif isinstance(outcome, str) and outcome in OUTCOME_WORDS:
        text += " — " + cat.gettext(OUTCOME_WORDS[outcome])
    verdict = None
    if e.type == "chrono_reading" or (e.type == "hang_verdict" and (hang is None or hang.counted)):
        verdict = _chrono_verdict(st, e)  # a hang not counted for the chrono says it already
    if verdict is not None:
        text += " — " + rule_text(verdict, names, lang)
    named = {(p.get("team"), p.get("number")) for p in players}
    for p in _caused(st, e, named):
        el = p.elimination
        assert el is not None
        ref = {"team": p.team, "number": p.number, "name": p.name}
        text += " → " + cat.gettext("also out under {section}: {player}").format(
            player=player_words(ref, names), section=el.section
        )
    return text


def event_texts(
    e: Event,
    st: m.GameState,
    players: list[dict[str, Any]],
    names: Mapping[str, str],
    hang: m.HangAttempt | None = None,
) -> dict[str, str]:
    return {lang: event_line(e, st, players, names, lang, hang) for lang in LANGS}


def hangs_judged(events: list[Event], st: m.GameState) -> dict[str, m.HangAttempt]:
    """Each ``hang_verdict`` event's flag hang (23): the verdicts judge the hangs in turn."""
    verdicts = [e.id for e in events if e.type == "hang_verdict"]
    return dict(zip(verdicts, st.hangs, strict=False))


def conflict_texts(kind: str, field: str, other: str, team: str = "") -> dict[str, str]:
    """RULES.md "One live game per field and per team": two games in play on one field
    (``kind`` "field") or with one team (``kind`` "team"), ``other`` the second game."""
    out = {}
    for lang in LANGS:
        cat = load(lang)
        if kind == "field":
            msg = cat.gettext("CONFLICT: two games in play on field {field} (the other: {game})")
        else:
            msg = cat.gettext("CONFLICT: {team} plays two games at once (the other: {game})")
        out[lang] = msg.format(field=field, game=other, team=team)
    return out
