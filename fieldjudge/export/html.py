"""Printable HTML documents: the game protocol (31), all protocols in one file, and the
standings. Self-contained (inline CSS, no scripts, no external files), A4 print CSS,
Russian by default."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from html import escape

from fieldjudge import i18n
from fieldjudge.i18n import rule_text
from fieldjudge.rules.paintball.clock import parse_wall
from fieldjudge.rules.paintball.reasons import ALL_REASONS
from fieldjudge.rules.timefmt import format_game_clock

CSS = """
@page { size: A4; margin: 14mm 12mm; }
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 11pt; color: #000; }
h1 { font-size: 15pt; margin: 0 0 4pt; }
h2 { font-size: 12pt; margin: 10pt 0 4pt; border-bottom: 1px solid #000; }
table { border-collapse: collapse; width: 100%; margin: 2pt 0 6pt; }
th, td { border: 1px solid #444; padding: 2pt 4pt; text-align: left; vertical-align: top; }
th { background: #eee; }
td.num, th.num { text-align: right; }
.meta { color: #333; margin: 0 0 6pt; }
.hash { font-family: monospace; font-size: 8pt; word-break: break-all; }
.protocol { page-break-after: always; break-after: page; }
.protocol:last-child { page-break-after: auto; break-after: auto; }
.sign { height: 18pt; }
@media print { a { color: #000; text-decoration: none; } }
"""

Tr = Callable[[str], str]


def translator(lang: str) -> Tr:
    return i18n.load(lang).gettext if lang != "en" else (lambda s: s)


def local_time(wall: str, fmt: str = "%H:%M:%S") -> str:
    try:
        return parse_wall(wall).astimezone().strftime(fmt)
    except (ValueError, TypeError):
        return str(wall)


game_time = format_game_clock  # the one rule of every screen and export (rules.timefmt)


def page(title: str, body: str, lang: str) -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="{escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        f"{body}\n</body>\n</html>\n"
    )


def _table(headers: Iterable[str], rows: Iterable[Iterable[object]], num_cols=()) -> str:
    hs = list(headers)
    head = "".join(
        f'<th class="num">{escape(h)}</th>' if i in num_cols else f"<th>{escape(h)}</th>"
        for i, h in enumerate(hs)
    )
    body = []
    for row in rows:
        cells = "".join(
            f'<td class="num">{escape(str(c))}</td>'
            if i in num_cols
            else f"<td>{escape(str(c))}</td>"
            for i, c in enumerate(row)
        )
        body.append(f"<tr>{cells}</tr>")
    if not body:
        body.append(f'<tr><td colspan="{len(hs)}">—</td></tr>')
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


OUTCOMES = {
    "flag_hang": "flag hang",
    "flag_held": "flag held at the end",
    "draw": "draw",
    "no_show": "no-show",
}


def protocol_section(t, v, tr: Tr, lang: str) -> str:
    """One game's protocol as an HTML fragment (``<section class="protocol">``)."""
    meta = t.meta
    a, b = v.teams
    name = v.name
    start = v.game.get("start", "")
    when = start.replace("T", " ") if start else ""
    out = [
        '<section class="protocol">',
        f"<h1>{escape(tr('Game protocol'))}: {escape(name(a))} — {escape(name(b))}</h1>",
        '<p class="meta">'
        + escape(f"{meta.get('name', '')} · {meta.get('venue', '')} · {meta.get('division', '')}")
        + "<br>"
        + escape(f"{tr('Game')} {v.game.get('id', '')} · {tr('Field')} {v.game.get('field', '')}")
        + escape(f" · {tr('Start')} {when}")
        + "</p>",
    ]
    r = v.result
    out.append(f"<h2>{escape(tr('Result'))} (30.01)</h2>")
    outcome = tr(OUTCOMES.get(r.outcome, r.outcome))
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
    out.append(
        _table(
            [tr("Team"), tr("Game points"), tr("Difference"), tr("Survivors"), tr("Flag hang")],
            rows,
            num_cols=(1, 2, 3),
        )
    )
    out.append(f"<p>{escape(tr('Outcome'))}: {escape(outcome)}</p>")
    if r.no_show:
        absent = ", ".join(name(x) for x in sorted(r.no_show))
        out.append(f"<p>{escape(tr('No-show'))} (32.01–32.02): {escape(absent)}</p>")
    out.append(f"<h2>{escape(tr('Eliminations'))}</h2>")
    elims = sorted(
        (p for p in v.state.players.values() if p.elimination is not None),
        key=lambda p: (p.elimination.game_clock_ms or 0, p.team, p.number),
    )
    rows = []
    for p in elims:
        e = p.elimination
        reason = ALL_REASONS.get(e.reason)
        label = (reason.ru if lang == "ru" else reason.en) if reason else e.reason
        rows.append((game_time(e.game_clock_ms), name(p.team), p.number, p.name, label, e.section))
    out.append(
        _table(
            [tr("Time"), tr("Team"), tr("No."), tr("Player"), tr("Reason"), tr("Section")],
            rows,
            num_cols=(2,),
        )
    )
    pens = [
        (
            game_time(c.game_clock_ms),
            name(c.team),
            c.number,
            f"{c.fps} fps",
            rule_text(c.text, v.names, lang),
        )
        for c in v.state.chrono
        if c.penalty != "none"
    ]
    notes = [
        rule_text(n.text, v.names, lang)
        for n in (*v.state.team_penalties, *v.state.penalty_reports, *v.state.flagged)
    ]
    out.append(f"<h2>{escape(tr('Penalties'))}</h2>")
    out.append(_table([tr("Time"), tr("Team"), tr("No."), tr("Chrono"), tr("Verdict")], pens, (2,)))
    for n in notes:
        out.append(f"<p>{escape(n)}</p>")
    out.append(_signatures(v, tr))
    proto = v.protocol
    if proto.corrections:
        out.append(f"<h2>{escape(tr('Corrections of the total'))} (31)</h2>")
        rows = [
            (
                local_time(c.wall_time, "%Y-%m-%d %H:%M:%S"),
                c.head_judge,
                " : ".join(str(c.old_points.get(x, "")) for x in (a, b)),
                " : ".join(str(c.new_points.get(x, "")) for x in (a, b)),
                c.reason,
            )
            for c in proto.corrections
        ]
        out.append(
            _table(
                [tr("Time"), tr("Head judge"), tr("Old total"), tr("New total"), tr("Reason")], rows
            )
        )
    out.append(
        f'<p class="hash">{escape(tr("Events"))}: {len(v.events)} · '
        f"{escape(tr('Final hash of the event chain'))}: {escape(v.last_hash or '—')}</p>"
    )
    out.append("</section>")
    return "\n".join(out)


def _signatures(v, tr: Tr) -> str:
    proto = v.protocol
    out = [f"<h2>{escape(tr('Signatures'))} (31)</h2>"]
    if proto.submission is not None:
        s = proto.submission
        out.append(
            f"<p>{escape(tr('Submitted by the senior judge'))}: {escape(s.judge or '—')}, "
            f"{escape(local_time(s.wall_time, '%Y-%m-%d %H:%M:%S'))}"
            + (f" ({escape(tr('outdated: the game changed after it'))})" if proto.stale else "")
            + "</p>"
        )
    else:
        out.append(f"<p>{escape(tr('Not submitted yet'))}</p>")
    rows = []
    for x in v.teams:
        sig, ref = proto.signatures.get(x), proto.refusals.get(x)
        if sig:
            rows.append((v.name(x), tr("captain signed"), sig.name, local_time(sig.wall_time), ""))
        elif ref:
            what = f"{tr('captain refused')} ({tr('recorded by')} {ref.judge or '—'})"
            rows.append((v.name(x), what, ref.captain, local_time(ref.wall_time), ref.reason))
        else:
            rows.append((v.name(x), "", "", "", ""))
    out.append(
        _table([tr("Team"), tr("Captain"), tr("Name"), tr("Time"), tr("Reason of refusal")], rows)
    )
    return "\n".join(out)


def protocol_html(t, v, lang: str = "ru") -> str:
    tr = translator(lang)
    title = f"{tr('Game protocol')} {v.name(v.teams[0])} — {v.name(v.teams[1])}"
    return page(title, protocol_section(t, v, tr, lang), lang)


def protocols_html(t, views, lang: str = "ru") -> str:
    tr = translator(lang)
    body = "\n".join(protocol_section(t, v, tr, lang) for v in views)
    return page(f"{tr('Game protocols')} — {t.meta.get('name', '')}", body or "<p>—</p>", lang)


STANDING_HEADERS = (
    "Place",
    "Team",
    "Games",
    "Game points",
    "Difference",
    "Flag hangs",
    "Wins",
    "Draws",
    "Losses",
    "No-shows",
    "Tie-break",
)


def standing_rows(t, rows, lang: str | None = None) -> list[tuple]:
    """Table rows of the standings; the tie-break note in ``lang`` (default: the UI's)."""
    names = t.team_names()
    return [
        (
            r.rank,
            names.get(r.team, r.team),
            r.games,
            r.points,
            f"{r.diff:+d}",
            r.flag_hangs,
            r.wins,
            r.draws,
            r.losses,
            r.no_shows,
            rule_text(r.tie_break, names, lang),
        )
        for r in rows
    ]


def standings_html(t, by_division: dict, lang: str = "ru", now: datetime | None = None) -> str:
    tr = translator(lang)
    meta = t.meta
    stamp = (now or datetime.now()).strftime("%Y-%m-%d %H:%M")
    parts = [
        f"<h1>{escape(tr('Standings'))}: {escape(meta.get('name', ''))}</h1>",
        f'<p class="meta">{escape(meta.get("date", ""))} · {escape(meta.get("venue", ""))} · '
        f"{escape(tr('as of'))} {escape(stamp)}</p>",
    ]
    for div, rows in by_division.items():
        parts.append(f"<h2>{escape(tr('Division'))} {escape(div or '—')}</h2>")
        parts.append(
            _table(
                [tr(h) for h in STANDING_HEADERS],
                standing_rows(t, rows, lang),
                num_cols=(0, 2, 3, 4, 5, 6, 7, 8, 9),
            )
        )
    return page(f"{tr('Standings')} — {meta.get('name', '')}", "\n".join(parts), lang)
