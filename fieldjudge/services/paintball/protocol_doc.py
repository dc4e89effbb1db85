"""What a printed game protocol (31) says, once, for every format: the HTML page, the PDF
page and the protocol screen draw the same texts from :func:`protocol_doc`.

The result is the one after the head judge's corrections; each correction keeps the
original visible (struck through) with its reason. Times use the one game-time format of
``rules.timefmt``; names are the ones typed in the app."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from fieldjudge.i18n import number, reason_label, rule_text
from fieldjudge.rules import key_ids
from fieldjudge.rules import protocol as pr
from fieldjudge.rules.events import VOID, effective
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball.clock import parse_wall
from fieldjudge.rules.paintball.reasons import ALL_REASONS
from fieldjudge.rules.paintball.setup import FPS_WHOLE, Settings
from fieldjudge.rules.timefmt import format_game_clock
from fieldjudge.services.paintball.event_text import OUTCOME_NAMES
from fieldjudge.services.tournament import TournamentView

Tr = Callable[[str], str]


def local_time(wall: str, fmt: str = "%H:%M:%S") -> str:
    try:
        return parse_wall(wall).astimezone().strftime(fmt)
    except (ValueError, TypeError):
        return str(wall)


def outcome_text(outcome: str, team: str | None, name: Callable[[str], str], tr: Tr) -> str:
    """``flag hang (Team)``, ``draw``: an outcome with the team it credits."""
    text = tr(OUTCOME_NAMES.get(outcome, outcome))
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
    notes: list[str]  # the team penalties (20.05, 28.02), under the penalties
    submitted: str
    signatures: list[SignLine]
    events: int
    head_hash: str
    fingerprint: str = ""  # the signature fingerprint, once logs are signed
    labels: dict[str, str] = field(default_factory=dict)
    #: 22-23: the flag's way: capture, hand-overs, each hang attempt and its verdict
    flag_headers: list[str] = field(default_factory=list)
    flag_rows: list[tuple] = field(default_factory=list)
    #: the game's start and end (local time), its game time and its length with the stops
    times: str = ""
    #: the settings of this game that differ from the rulebook's defaults, in plain words
    footnotes: list[str] = field(default_factory=list)
    #: a game not over yet (30.02: the points are proposed at its end): its result is
    #: provisional, said above it as the protocol screen says it; empty once it is over
    provisional: str = ""
    #: the records flagged for the head judge (a game ended by the judge's decision, a
    #: reading over 320 fps): a heading of their own, never among the penalties
    flagged: list[str] = field(default_factory=list)


def senior_judge(v) -> str:
    """The senior judge's name as the app recorded it with the events (31)."""
    return pr.senior_judge(v.events, v.protocol)


def head_judge(t: TournamentView, v) -> str:
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
                f"{local_time(c.wall_time, '%Y-%m-%d %H:%M')}: {c.reason}"
                + (f" ({tr('confirmed against 30.01')})" if c.against_rules else ""),
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


def recorded_by(judge: str, tr: Tr) -> str:
    """31: who recorded a protocol step on his laptop (``, recorded by Ivanov``)."""
    return f", {tr('recorded by')} {judge}" if judge else ""


def sign_lines(t: TournamentView, v, tr: Tr) -> list[SignLine]:
    proto = v.protocol
    lines = []
    for x in v.teams:
        sig, ref = proto.signatures.get(x), proto.refusals.get(x)
        role = f"{tr('Captain')}: {v.name(x)}"
        if sig:
            status = f"{tr('signed at')} {local_time(sig.wall_time)}" + recorded_by(sig.judge, tr)
            lines.append(SignLine(role, sig.name, status))
        elif ref:
            status = f"{tr('refused')}: {ref.reason} ({local_time(ref.wall_time)})"
            lines.append(SignLine(role, ref.captain, status + recorded_by(ref.judge, tr)))
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


def player_label(v, team: object, number: object) -> str:
    """«Медведи #7 Иван Петров»: team, shirt number and the name typed in the app."""
    try:
        p = v.state.player(str(team), int(number))  # type: ignore[call-overload]
    except (TypeError, ValueError):
        p = None
    base = f"{v.name(str(team))} #{number}"
    return f"{base} {p.name}" if p is not None and p.name else base


def flag_rows(v, tr: Tr, lang: str) -> list[tuple]:
    """22-23: every capture, hand-over, hang attempt and hang verdict of the game, in
    order: (game time, local time, what happened)."""
    rows = []
    verdicts = {h.event_id: h for h in v.state.hangs}  # 23.01: the touch → its verdict
    last_hang = None
    for e in effective(v.events):
        d = e.data
        if e.type == ev.FLAG_CAPTURE:
            opponent = v.setup.opponent(str(d.get("team")))
            what = tr("{player} captured the flag of {team}").format(
                player=player_label(v, d.get("team"), d.get("number")), team=v.name(opponent)
            )
        elif e.type == ev.FLAG_HANDOVER:
            what = tr("{player} handed the flag over to {to}").format(  # a teammate
                player=player_label(v, d.get("team"), d.get("from_number")),
                to=player_label(v, d.get("team"), d.get("to_number")).removeprefix(
                    v.name(str(d.get("team"))) + " "
                ),
            )
        elif e.type == ev.FLAG_HANG:
            last_hang = verdicts.get(e.id)
            what = tr("{player} touched the start banner with the flag (23.01): Time!").format(
                player=player_label(v, d.get("team"), d.get("number"))
            )
        elif e.type == ev.HANG_VERDICT:
            verdict = last_hang.text if last_hang is not None and last_hang.text else ""
            shown = rule_text(verdict, v.names, lang) if verdict else "—"
            what = f"{tr('Verdict on the hang')}: {shown}"
        else:
            continue
        rows.append((format_game_clock(e.game_clock_ms), local_time(e.wall_time), what))
    return rows


def times_line(v, tr: Tr) -> str:
    """When the game started and ended (local time), the game time played and how long it
    lasted with its stops; empty before the clock started."""
    events = effective(v.events)
    start = next((e for e in events if e.type == ev.CLOCK_START), None)
    if start is None:
        return ""
    text = f"{tr('Game started at')} {local_time(start.wall_time)}"
    end_ms = v.state.end_ms
    if end_ms is None or not v.state.ended:
        return text
    after = {ev.INSPECTION, VOID, *pr.PROTOCOL_TYPES}  # recorded after the game's end
    end = next(
        (
            e
            for e in reversed(events)
            if e.type not in after and e.game_clock_ms is not None and e.game_clock_ms <= end_ms
        ),
        None,
    )
    length = format_game_clock(v.setup.settings.game_length_ms)
    text += f" · {tr('ended at')} "
    if end is not None:
        text += local_time(end.wall_time) + " · "
    text += tr("game time {played} of {length}").format(
        played=format_game_clock(end_ms), length=length
    )
    if end is None:
        return text
    try:
        lasted = parse_wall(end.wall_time) - parse_wall(start.wall_time)
    except (ValueError, TypeError):
        return text
    minutes, seconds = divmod(max(0, int(lasted.total_seconds())), 60)
    return text + " · " + tr("with the stops {lasted}").format(lasted=f"{minutes}:{seconds:02d}")


def penalty_rows(v, tr: Tr, lang: str) -> list[tuple]:
    """Every penalty of the game in one table: the chronograph's (20.02-20.05) and the
    penalty points for a hit found at the inspection (18.02), the points in the table."""
    rows = [
        (
            format_game_clock(c.game_clock_ms),
            v.name(c.team),
            c.number,
            tr("Chrono") + ": " + tr("{fps} fps").format(fps=number(c.fps, lang)),
            rule_text(c.text, v.names, lang),
        )
        for c in v.state.chrono
        if c.penalty != "none"
    ]
    by_id = {e.id: e for e in v.events}
    default = v.setup.settings.inspection_penalty_points
    for note in v.state.penalty_reports:  # 18.02
        e = by_id.get(note.event_id)
        if e is None:
            continue
        d = e.data
        rows.append(
            (
                format_game_clock(v.state.end_ms),
                v.name(str(d.get("team"))),
                d.get("number"),
                tr("Inspection after the game: hit found (18.02)"),
                tr("penalty points: {points}, subtracted from the game points").format(
                    points=d.get("penalty_points", default)
                ),
            )
        )
    return rows


def settings_footnotes(settings: Settings, tr: Tr, lang: str = "ru") -> list[str]:
    """The settings of a game that differ from the rulebook's defaults, each one sentence
    a captain reads without the settings screen."""
    base, out = Settings(), []
    if settings.game_length_ms != base.game_length_ms:
        out.append(
            tr("The game lasts {length} (the rulebook: {default}).").format(
                length=format_game_clock(settings.game_length_ms),
                default=format_game_clock(base.game_length_ms),
            )
        )
    if settings.team_size != base.team_size:
        out.append(
            tr("{n} players a team (the rulebook: {default}).").format(
                n=settings.team_size, default=base.team_size
            )
        )
    p = settings.points
    if p != base.points:
        out.append(
            tr(
                "Game points (30.01): flag hang {hang}, flag held {held}, draw {draw}, loss {loss}."
            ).format(hang=p.flag_hang, held=p.flag_held, draw=p.draw, loss=p.loss)
        )
    if settings.end_when_team_out != base.end_when_team_out:
        out.append(
            tr("The game ends as soon as a team has nobody left (23.03).")
            if settings.end_when_team_out
            else tr(
                "A team with nobody left does not end the game: the other may still hang "
                "the flag (23.03)."
            )
        )
    if settings.fps_precision != base.fps_precision:
        out.append(
            tr("Speeds are judged as rounded down to whole fps (20.02).")
            if settings.fps_precision == FPS_WHOLE
            else tr("Speeds are judged on the exact reading, tenths included (20.02).")
        )
    if settings.chrono.limit_fps != base.chrono.limit_fps:
        out.append(
            tr("Speed limit: {limit} fps (20.02).").format(
                limit=number(settings.chrono.limit_fps, lang)
            )
        )
    if settings.inspection_penalty_points != base.inspection_penalty_points:
        out.append(
            tr(
                "A hit found at the inspection after the game costs {points} penalty "
                "points (18.02)."
            ).format(points=settings.inspection_penalty_points)
        )
    return out


CAUSE_TEXT = {"team": "the team", "organisers": "the organisers"}  # 32.03


def no_show_text(v, name: Callable[[str], str], tr: Tr) -> str:
    """Who did not show up and through whose fault: «Барсы — по вине команды (32.03)»
    ("" when both teams came)."""
    absent = sorted(v.result.no_show)
    if not absent:
        return ""
    cause = v.state.no_show_cause or "team"  # 32.03: the team's, unless the judge said
    whose = tr("caused by {whom} (32.03)").format(whom=tr(CAUSE_TEXT.get(cause, cause)))
    return f"{', '.join(name(x) for x in absent)} — {whose}"


def lineup_line(v, name: Callable[[str], str], tr: Tr) -> str:
    """30.01: who played, for a game with a recorded line-up or a team of fewer than the
    team size ("" otherwise: a full roster that played whole needs no line)."""
    st = v.state
    size = st.setup.settings.team_size
    played = {x: st.lineup(x) for x in v.teams}
    if not st.lineups and all(len(ps) >= size for ps in played.values()):
        return ""
    parts = [
        f"{name(x)}: {', '.join(f'#{p.number}' for p in played[x])} "
        f"({tr('{picked} of {size}').format(picked=len(played[x]), size=size)})"
        for x in v.teams
    ]
    return f"{tr('Line-up (30.01)')}: " + " · ".join(parts)


def protocol_doc(t: TournamentView, v, tr: Tr, lang: str) -> ProtocolDoc:
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
        if not v.not_played  # no result: no score at all, never a draw (30.01, 32)
        else (name(x), "—", "—", "—", "")
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
    pen_rows = penalty_rows(v, tr, lang)
    # 20.05 / 28.02 team penalties under the penalties (the 18.02 points are in their
    # table); what the head judge must look at under a heading of its own
    notes = [rule_text(n.text, v.names, lang) for n in v.state.team_penalties]
    flagged = [rule_text(n.text, v.names, lang) for n in v.state.flagged]
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
            *([line] if (line := lineup_line(v, name, tr)) else []),
        ],
        result_headers=[
            tr("Team"),
            tr("Game points"),
            tr("Difference"),
            tr("Survivors"),
            tr("Flag hang"),
        ],
        result_rows=rows,
        outcome=(
            tr("game not played")
            if v.not_played
            else outcome_text(r.outcome, pr.outcome_team(r), name, tr)
        ),
        provisional=(
            tr("The game is not over yet: the result below is provisional") if v.provisional else ""
        ),
        struck=struck_lines(v, tr),
        no_show=no_show_text(v, name, tr),
        elim_headers=[tr("Time"), tr("Team"), tr("No."), tr("Player"), tr("Reason"), tr("Section")],
        elim_rows=elim_rows,
        pen_headers=[tr("Time"), tr("Team"), tr("No."), tr("Cause"), tr("Penalty")],
        pen_rows=pen_rows,
        notes=notes,
        flagged=flagged,
        submitted=submitted,
        signatures=sign_lines(t, v, tr),
        events=len(v.events),
        head_hash=v.last_hash or "—",
        fingerprint=signature_fingerprint(v),
        flag_headers=[tr("Time"), tr("Clock time"), tr("Flag")],
        flag_rows=flag_rows(v, tr, lang),
        times=times_line(v, tr),
        footnotes=settings_footnotes(v.setup.settings, tr, lang),
        labels={
            k: tr(k)
            for k in (
                "Result",
                "Outcome",
                "No-show",
                "Eliminations",
                "Penalties",
                "For the head judge",
                "Signatures",
                "Events",
                "Head hash of the event chain",
                "Signature fingerprint",
                "Signature",
                "Name",
                "Corrections by the head judge",
                "Flag",
                "Settings of this tournament that differ from the rulebook",
            )
        },
    )
