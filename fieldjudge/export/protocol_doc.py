"""What a printed game protocol (31) says, once, for every format: the HTML page, the PDF
page and the protocol screen draw the same texts from :func:`protocol_doc`.

The result is the one after the head judge's corrections; each correction keeps the
original visible (struck through) with its reason. Times use the one game-time format of
``rules.timefmt``; names are the ones typed in the app."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from fieldjudge.i18n import reason_label, rule_text
from fieldjudge.rules import key_ids
from fieldjudge.rules import protocol as pr
from fieldjudge.rules.paintball.clock import parse_wall
from fieldjudge.rules.paintball.reasons import ALL_REASONS
from fieldjudge.rules.timefmt import format_game_clock
from fieldjudge.settings import settings_lines

Tr = Callable[[str], str]

OUTCOMES = {
    "flag_hang": "flag hang",
    "flag_held": "flag held at the end",
    "draw": "draw",
    "no_show": "no-show",
}


def local_time(wall: str, fmt: str = "%H:%M:%S") -> str:
    try:
        return parse_wall(wall).astimezone().strftime(fmt)
    except (ValueError, TypeError):
        return str(wall)


def outcome_text(outcome: str, team: str | None, name: Callable[[str], str], tr: Tr) -> str:
    """``flag hang (Team)``, ``draw``: an outcome with the team it credits."""
    text = tr(OUTCOMES.get(outcome, outcome))
    return f"{text} ({name(team)})" if team else text


def points_text(points, teams) -> str:
    return " : ".join(str(points.get(x, "")) for x in teams)


@dataclass(frozen=True)
class Struck:
    """An original the head judge corrected: shown struck through, then why."""

    old: str
    new: str
    why: str


@dataclass(frozen=True)
class SignLine:
    """A signature line of the printed protocol: role, name, what was signed."""

    role: str  # "Captain of <team>", "Senior judge", "Head judge"
    name: str  # as typed in the app; "" when nobody is known yet
    status: str  # "signed 14:02:11" / "refused: reason (14:03:00)" / ""


@dataclass
class ProtocolDoc:
    """A game protocol ready to print: every text in the document's language."""

    title: str
    heading: str
    meta: list[str]
    result_headers: list[str]
    result_rows: list[tuple]
    outcome: str
    struck: list[Struck]
    no_show: str
    elim_headers: list[str]
    elim_rows: list[tuple]
    pen_headers: list[str]
    pen_rows: list[tuple]
    notes: list[str]
    submitted: str
    signatures: list[SignLine]
    events: int
    head_hash: str
    fingerprint: str = ""  # the signature fingerprint, once logs are signed
    labels: dict[str, str] = field(default_factory=dict)


def senior_judge(v) -> str:
    """The senior judge's name as the app recorded it with the events (31)."""
    return pr.senior_judge(v.events, v.protocol)


def head_judge(t, v) -> str:
    for c in reversed(v.protocol.corrections):
        if c.head_judge:
            return c.head_judge
    return str(t.meta.get("head_judge", "") or "")


def signature_fingerprint(v) -> str:
    """Short fingerprint of the signature of the game's head (the last event's, by the
    laptop that wrote it), so the paper the captains sign anchors the file; empty for a
    game without events or an unsigned (older) log."""
    last = v.events[-1] if v.events else None
    sig = getattr(last, "sig", None)
    if not sig:
        return ""
    try:
        return key_ids.signature_fingerprint(sig)
    except ValueError:
        return ""


def struck_lines(v, tr: Tr) -> list[Struck]:
    """Every head judge correction: the original (struck), the correction, and why."""
    out = []
    teams = v.teams
    shown = v.computed
    cur_outcome = outcome_text(shown.outcome, pr.outcome_team(shown), v.name, tr)
    for c in v.protocol.corrections:
        old_outcome = (
            outcome_text(c.old_outcome, c.old_outcome_team, v.name, tr)
            if c.old_outcome
            else cur_outcome
        )
        new_outcome = (
            outcome_text(c.new_outcome, c.new_outcome_team, v.name, tr)
            if c.new_outcome
            else old_outcome
        )
        pts = tr("pts")
        out.append(
            Struck(
                old=f"{old_outcome}, {points_text(c.old_points, teams)} {pts}",
                new=f"{new_outcome}, {points_text(c.new_points, teams)} {pts}",
                why=f"{tr('corrected by the head judge')} {c.head_judge}, "
                f"{local_time(c.wall_time, '%Y-%m-%d %H:%M')}: {c.reason}",
            )
        )
        cur_outcome = new_outcome
    by_id = {e.id: e for e in v.events}
    for x in v.protocol.voids:  # 31: the head judge's voids after the signatures
        target = by_id.get(x.target_id)
        seq = target.seq if target is not None else "?"
        at = format_game_clock(target.game_clock_ms) if target and target.game_clock_ms else ""
        out.append(
            Struck(
                old=f"{tr('event')} #{seq}" + (f", {at}" if at else ""),
                new=tr("voided by the head judge"),
                why=f"{x.head_judge}, {local_time(x.wall_time, '%Y-%m-%d %H:%M')}: {x.reason}",
            )
        )
    return out


def sign_lines(t, v, tr: Tr) -> list[SignLine]:
    proto = v.protocol
    lines = []
    for x in v.teams:
        sig, ref = proto.signatures.get(x), proto.refusals.get(x)
        role = f"{tr('Captain')}: {v.name(x)}"
        if sig:
            lines.append(SignLine(role, sig.name, f"{tr('signed at')} {local_time(sig.wall_time)}"))
        elif ref:
            status = f"{tr('refused')}: {ref.reason} ({local_time(ref.wall_time)})"
            lines.append(SignLine(role, ref.captain, status))
        else:
            lines.append(SignLine(role, "", ""))
    sub = proto.submission
    lines.append(
        SignLine(
            tr("Senior judge"),
            senior_judge(v),
            f"{tr('submitted at')} {local_time(sub.wall_time)}" if sub is not None else "",
        )
    )
    corr = proto.corrections[-1] if proto.corrections else None
    lines.append(
        SignLine(
            tr("Head judge"),
            head_judge(t, v),
            f"{tr('corrected at')} {local_time(corr.wall_time)}" if corr is not None else "",
        )
    )
    return lines


CAUSE_TEXT = {"team": "the team", "organisers": "the organisers"}  # 32.03


def protocol_doc(t, v, tr: Tr, lang: str) -> ProtocolDoc:
    meta = t.meta
    a, b = v.teams
    name = v.name
    start = str(v.game.get("start", "") or "")
    r = v.result
    rows = [
        (
            name(x),
            r.points[x],
            f"{r.diff[x]:+d}",
            r.survivors.get(x, 0),
            "✓" if r.flag_hang_team == x else "",
        )
        for x in (a, b)
    ]
    elims = sorted(
        (p for p in v.state.players.values() if p.elimination is not None),
        key=lambda p: (p.elimination.game_clock_ms or 0, p.team, p.number),
    )
    elim_rows = []
    for p in elims:
        e = p.elimination
        reason = ALL_REASONS.get(e.reason)
        label = reason_label(reason.key, lang) if reason else e.reason
        elim_rows.append(
            (format_game_clock(e.game_clock_ms), name(p.team), p.number, p.name, label, e.section)
        )
    pen_rows = [
        (
            format_game_clock(c.game_clock_ms),
            name(c.team),
            c.number,
            tr("{fps} fps").format(fps=f"{c.fps:g}"),
            rule_text(c.text, v.names, lang),
        )
        for c in v.state.chrono
        if c.penalty != "none"
    ]
    notes = [
        rule_text(n.text, v.names, lang)
        for n in (*v.state.team_penalties, *v.state.penalty_reports, *v.state.flagged)
    ]
    proto = v.protocol
    if proto.submission is not None:
        submitted = (
            f"{tr('Submitted by the senior judge')}: {senior_judge(v) or '—'}, "
            f"{local_time(proto.submission.wall_time, '%Y-%m-%d %H:%M:%S')}"
            + (f" ({tr('outdated: the game changed after it')})" if proto.stale else "")
        )
    else:
        submitted = tr("Not submitted yet")
    return ProtocolDoc(
        title=f"{tr('Game protocol')} {name(a)} — {name(b)}",
        heading=f"{tr('Game protocol')}: {name(a)} — {name(b)}",
        meta=[
            f"{meta.get('name', '')} · {meta.get('venue', '')} · {meta.get('division', '')}",
            # the game as the schedule names it (its id is the file's, not the paper's)
            f"{tr('Field')} {v.game.get('field', '')} · {tr('Start')} {start.replace('T', ' ')}",
            # 23.03, 20.02/20.03, 18.02: the settings that change this result
            " · ".join(settings_lines(t.settings, tr)[2:]),
        ],
        result_headers=[
            tr("Team"),
            tr("Game points"),
            tr("Difference"),
            tr("Survivors"),
            tr("Flag hang"),
        ],
        result_rows=rows,
        outcome=outcome_text(r.outcome, pr.outcome_team(r), name, tr),
        struck=struck_lines(v, tr),
        no_show=", ".join(name(x) for x in sorted(r.no_show))
        + (
            f" ({tr('Caused by (32.03)')}: {tr(CAUSE_TEXT.get(cause, cause))})"
            if r.no_show and (cause := v.state.no_show_cause or "team")
            else ""
        ),
        elim_headers=[tr("Time"), tr("Team"), tr("No."), tr("Player"), tr("Reason"), tr("Section")],
        elim_rows=elim_rows,
        pen_headers=[tr("Time"), tr("Team"), tr("No."), tr("Chrono"), tr("Verdict")],
        pen_rows=pen_rows,
        notes=notes,
        submitted=submitted,
        signatures=sign_lines(t, v, tr),
        events=len(v.events),
        head_hash=v.last_hash or "—",
        fingerprint=signature_fingerprint(v),
        labels={
            k: tr(k)
            for k in (
                "Result",
                "Outcome",
                "No-show",
                "Eliminations",
                "Penalties",
                "Signatures",
                "Events",
                "Head hash of the event chain",
                "Signature fingerprint",
                "Signature",
                "Name",
                "Corrections by the head judge",
            )
        },
    )
