"""Printable HTML documents: the game protocol (31), all protocols in one file, and the
standings. Self-contained (inline CSS, no scripts, no external files), A4 print CSS,
Russian by default."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from html import escape

from fieldjudge import i18n
from fieldjudge.rules.timefmt import format_game_clock
from fieldjudge.services import TournamentView
from fieldjudge.services.paintball.protocol_doc import protocol_doc
from fieldjudge.services.paintball.standings import STANDING_HEADERS, standing_rows

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
.signatures th { width: 32%; }
.signatures td.name { width: 24%; }
.signatures td.sign { width: 22%; height: 22pt; border-bottom: 1px solid #000; }
.struck s { color: #555; }
.footnote { font-size: 9pt; border-top: 1px solid #000; padding-top: 3pt; }
@media print { a { color: #000; text-decoration: none; } }
"""

Tr = Callable[[str], str]


def translator(lang: str) -> Tr:
    return i18n.load(lang).gettext if lang != "en" else (lambda s: s)


game_time = format_game_clock  # the one rule of every screen and export (rules.timefmt)


#: the standings as the PDF prints them (``export.pdf.standings_pdf``): landscape A4 and
#: 10 pt, where eleven columns fit (on a portrait page the last ones were cut off)
STANDINGS_CSS = "@page { size: A4 landscape; }\nbody { font-size: 10pt; }\n"


def page_head(title: str, lang: str, css: str = "") -> str:
    """What a page holds before its body; ``css``: the page's own rules after the common."""
    return (
        f'<!DOCTYPE html>\n<html lang="{escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{CSS}{css}</style>\n</head>\n<body>\n"
    )


#: what a page holds after its body
PAGE_TAIL = "\n</body>\n</html>\n"


def page(title: str, body: str, lang: str, css: str = "") -> str:
    return page_head(title, lang, css) + body + PAGE_TAIL


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


def protocol_section(t: TournamentView, v, tr: Tr, lang: str) -> str:
    """One game's protocol as an HTML fragment (``<section class="protocol">``)."""
    d = protocol_doc(t, v, tr, lang)
    lb = d.labels
    out = [
        '<section class="protocol">',
        f"<h1>{escape(d.heading)}</h1>",
        '<p class="meta">' + "<br>".join(escape(m) for m in (*d.meta, d.times) if m) + "</p>",
        f"<h2>{escape(lb['Result'])} (30.01)</h2>",
        *([f'<p class="provisional"><b>{escape(d.provisional)}</b></p>'] if d.provisional else []),
        _table(d.result_headers, d.result_rows, num_cols=(1, 2, 3)),
        f"<p>{escape(lb['Outcome'])}: <b>{escape(d.outcome)}</b></p>",
    ]
    for s in d.struck:
        out.append(
            f'<p class="struck"><s>{escape(s.old)}</s> → {escape(s.new)}'
            f" <i>({escape(s.why)})</i></p>"
        )
    if d.no_show:
        out.append(f"<p>{escape(lb['No-show'])} (32.01–32.02): {escape(d.no_show)}</p>")
    out.append(f"<h2>{escape(lb['Eliminations'])}</h2>")
    out.append(_table(d.elim_headers, d.elim_rows, num_cols=(2,)))
    if d.flag_rows:  # 22-23: the flag's way, each hang attempt with its verdict
        out.append(f"<h2>{escape(lb['Flag'])} (22–23)</h2>")
        out.append(_table(d.flag_headers, d.flag_rows))
    out.append(f"<h2>{escape(lb['Penalties'])}</h2>")
    out.append(_table(d.pen_headers, d.pen_rows, (2,)))
    for n in d.notes:
        out.append(f"<p>{escape(n)}</p>")
    if d.flagged:
        out.append(f"<h2>{escape(lb['For the head judge'])}</h2>")
        out += [f"<p>{escape(n)}</p>" for n in d.flagged]
    out.append(f"<h2>{escape(lb['Signatures'])} (31)</h2>")
    out.append(f"<p>{escape(d.submitted)}</p>")
    out.append('<table class="signatures"><tbody>')
    for line in d.signatures:
        out.append(
            f"<tr><th>{escape(line.role)}</th>"
            f'<td class="name">{escape(line.name)}</td>'
            f'<td class="sign"></td>'
            f"<td>{escape(line.status)}</td></tr>"
        )
    out.append("</tbody></table>")
    out.append(
        f'<p class="hash">{escape(lb["Events"])}: {d.events} · '
        f"{escape(lb['Head hash of the event chain'])}: {escape(d.head_hash)}<br>"
        f"{escape(lb['Signature fingerprint'])}: {escape(d.fingerprint or '____________')}</p>"
    )
    if d.footnotes:  # the settings that differ from the rulebook, in plain words
        out.append(
            f'<p class="footnote">* {escape(lb["Settings of this tournament that differ from the rulebook"])}: '
            + " ".join(escape(f) for f in d.footnotes)
            + "</p>"
        )
    out.append("</section>")
    return "\n".join(out)


def protocol_title(v, tr: Tr) -> str:
    """The title of one game's protocol page."""
    return f"{tr('Game protocol')} {v.name(v.teams[0])} — {v.name(v.teams[1])}"


def protocol_html(t: TournamentView, v, lang: str = "ru") -> str:
    """One game's protocol page."""
    tr = translator(lang)
    return page(protocol_title(v, tr), protocol_section(t, v, tr, lang), lang)


def protocol_page_parts(title: str, section: bytes, lang: str) -> list[bytes]:
    """The bytes of :func:`protocol_html` from its title and its section (UTF-8), in
    parts: an export keeps each game's section once, encoded, not its page too."""
    return [page_head(title, lang).encode(), section, PAGE_TAIL.encode()]


def protocols_parts(t: TournamentView, lang: str, sections: Sequence[bytes]) -> Iterator[bytes]:
    """The page of every protocol, in bytes (UTF-8) from their :func:`protocol_section`,
    made as they are written: the page is never one string in memory (issue 24)."""
    tr = translator(lang)
    yield page_head(f"{tr('Game protocols')} — {t.meta.get('name', '')}", lang).encode()
    if not sections:
        yield "<p>—</p>".encode()
    for i, section in enumerate(sections):
        yield b"\n" + section if i else section
    yield PAGE_TAIL.encode()


def standings_html(
    t: TournamentView, by_division: dict, lang: str = "ru", now: datetime | None = None, notes=()
) -> str:
    tr = translator(lang)
    meta = t.meta
    stamp = (now or datetime.now()).strftime("%Y-%m-%d %H:%M")
    parts = [
        f"<h1>{escape(tr('Standings'))}: {escape(meta.get('name', ''))}</h1>",
        f'<p class="meta">{escape(meta.get("date", ""))} · {escape(meta.get("venue", ""))} · '
        f"{escape(tr('as of'))} {escape(stamp)}</p>",
    ]
    tables = {div: standing_rows(t, rows, lang) for div, rows in by_division.items()}
    # the tie-break column only when some team needed one (an empty column says nothing)
    tied = any(str(r[-1]).strip() for rows in tables.values() for r in rows)
    headers = [tr(h) for h in STANDING_HEADERS]
    for div, table in tables.items():
        parts.append(f"<h2>{escape(tr('Division'))} {escape(div or '—')}</h2>")
        parts.append(
            _table(
                headers if tied else headers[:-1],
                table if tied else [r[:-1] for r in table],
                num_cols=(0, 2, 3, 4, 5, 6, 7, 8, 9),
            )
        )
    parts += [f"<p>{escape(line)}</p>" for line in notes]
    title = f"{tr('Standings')} — {meta.get('name', '')}"
    return page(title, "\n".join(parts), lang, STANDINGS_CSS)
