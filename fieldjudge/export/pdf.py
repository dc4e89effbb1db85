"""PDF protocols (31) and standings, drawn with fpdf2: no browser on the laptop, A4, one
page per game. The texts are the HTML's (``protocol_doc``); the font is DejaVu Sans shipped
in the package (``fonts/``), so Cyrillic prints on any machine."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from functools import cache
from pathlib import Path

from fontTools.ttLib import TTFont
from fpdf import FPDF
from fpdf.fonts import FontFace

from fieldjudge.export.html import STANDING_HEADERS, Tr, standing_rows
from fieldjudge.export.protocol_doc import ProtocolDoc, protocol_doc

FONTS = Path(__file__).with_name("fonts")
FAMILY = "DejaVuSans"
SIZES = (9.0, 8.0, 7.0, 6.0, 5.0)  # the largest that keeps a protocol on one page
MARGIN = 12  # mm


@cache
def _glyphs() -> frozenset[int]:
    with TTFont(FONTS / "DejaVuSans.ttf") as f:
        return frozenset(f.getBestCmap())


def clean(text: object) -> str:
    """The text with any character the shipped font lacks shown as "?" (never dropped)."""
    have = _glyphs()
    return "".join(c if ord(c) in have or c in "\n\t" else "?" for c in str(text))


def new_pdf(title: str) -> FPDF:
    pdf = FPDF(orientation="P", unit="mm", format="A4")
    pdf.set_margins(MARGIN, MARGIN, MARGIN)
    pdf.set_auto_page_break(auto=True, margin=MARGIN)
    pdf.add_font(FAMILY, "", str(FONTS / "DejaVuSans.ttf"))
    pdf.add_font(FAMILY, "B", str(FONTS / "DejaVuSans-Bold.ttf"))
    pdf.set_title(clean(title))
    pdf.set_creator("fieldjudge")
    pdf.set_font(FAMILY, size=SIZES[0])
    return pdf


def _table(
    pdf: FPDF,
    headers: Sequence[str],
    rows: Iterable[Sequence[object]],
    size: float,
    widths=None,
    padding: float | tuple[float, float, float, float] = 0.6,
) -> None:
    rows = list(rows) or [["—"] + [""] * (len(headers) - 1)]
    pdf.set_font(FAMILY, size=size)
    with pdf.table(
        col_widths=widths,
        line_height=size * 0.5,
        padding=padding,
        text_align="LEFT",
        headings_style=FontFace(emphasis="BOLD", fill_color=(235, 235, 235)),
        first_row_as_headings=True,
    ) as table:
        head = table.row()
        for h in headers:
            head.cell(clean(h))
        for r in rows:
            row = table.row()
            for c in r:
                row.cell(clean(c))
    pdf.ln(size * 0.3)


def _h(pdf: FPDF, text: str, size: float) -> None:
    pdf.set_font(FAMILY, "B", size + 1.5)
    pdf.cell(0, size * 0.75, clean(text), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FAMILY, size=size)


def _p(pdf: FPDF, text: str, size: float, style: str = "") -> None:
    pdf.set_font(FAMILY, style, size)
    pdf.multi_cell(0, size * 0.5, clean(text), new_x="LMARGIN", new_y="NEXT", align="L")


def draw_protocol(pdf: FPDF, d: ProtocolDoc, size: float) -> None:
    """One protocol from the top of a new page."""
    pdf.add_page()
    lb = d.labels
    pdf.set_font(FAMILY, "B", size + 5)
    pdf.multi_cell(0, size * 0.8, clean(d.heading), new_x="LMARGIN", new_y="NEXT")
    for m in d.meta:
        _p(pdf, m, size)
    pdf.ln(size * 0.3)
    _h(pdf, f"{lb['Result']} (30.01)", size)
    _table(pdf, d.result_headers, d.result_rows, size, widths=(34, 16, 14, 18, 18))
    _p(pdf, f"{lb['Outcome']}: {d.outcome}", size + 1, "B")
    for s in d.struck:
        _p(pdf, s.old, size, "S")
        _p(pdf, f"→ {s.new} ({s.why})", size)
    if d.no_show:
        _p(pdf, f"{lb['No-show']} (32.01–32.02): {d.no_show}", size)
    pdf.ln(size * 0.3)
    _h(pdf, lb["Eliminations"], size)
    _table(pdf, d.elim_headers, d.elim_rows, size, widths=(9, 20, 7, 26, 28, 10))
    _h(pdf, lb["Penalties"], size)
    _table(pdf, d.pen_headers, d.pen_rows, size, widths=(9, 20, 7, 14, 50))
    for n in d.notes:
        _p(pdf, n, size)
    _h(pdf, f"{lb['Signatures']} (31)", size)
    _p(pdf, d.submitted, size)
    pdf.ln(size * 0.3)
    _table(
        pdf,
        ["", lb["Name"], lb["Signature"], ""],
        [(s.role, s.name, "", s.status) for s in d.signatures],
        size,
        widths=(28, 28, 22, 32),
        padding=(size * 0.3, 0.6, size * 0.3, 0.6),  # room to sign by hand
    )
    _p(pdf, f"{lb['Events']}: {d.events}", size)
    _p(pdf, f"{lb['Head hash of the event chain']}: {d.head_hash}", size)
    _p(pdf, f"{lb['Signature fingerprint']}: {d.fingerprint or '____________'}", size)


def fitted(d: ProtocolDoc) -> tuple[float, FPDF]:
    """The largest font size that keeps the protocol on one A4 page, and that page."""
    for size in SIZES:
        trial = new_pdf(d.title)
        draw_protocol(trial, d, size)
        if trial.page == 1:
            return size, trial
    return size, trial  # the smallest size: a huge protocol runs on, nothing is cut


def protocol_pdf(d: ProtocolDoc) -> tuple[bytes, float]:
    """One game's protocol on one A4 page, and the font size it needed."""
    size, pdf = fitted(d)
    return bytes(pdf.output()), size


def combined_pdf(title: str, pages: Sequence[tuple[ProtocolDoc, float]]) -> bytes:
    """Several protocols, one A4 page each, at the sizes :func:`protocol_pdf` found."""
    pdf = new_pdf(title)
    for d, size in pages:
        draw_protocol(pdf, d, size)
    if not pages:
        pdf.add_page()
        _p(pdf, "—", SIZES[0])
    return bytes(pdf.output())


def protocols_pdf(t, views, tr: Tr, lang: str, title: str) -> bytes:
    """One A4 page per game, in ``views``' order."""
    docs = [protocol_doc(t, v, tr, lang) for v in views]
    if len(docs) == 1:
        return protocol_pdf(docs[0])[0]
    return combined_pdf(title, [(d, fitted(d)[0]) for d in docs])


def standings_pdf(
    t, by_division: dict, tr: Tr, lang: str, now: datetime | None = None, provisional=()
) -> bytes:
    meta = t.meta
    stamp = (now or datetime.now()).strftime("%Y-%m-%d %H:%M")
    pdf = new_pdf(f"{tr('Standings')} — {meta.get('name', '')}")
    pdf.add_page()
    size = 8.0
    pdf.set_font(FAMILY, "B", size + 5)
    pdf.multi_cell(
        0, size * 0.8, clean(f"{tr('Standings')}: {meta.get('name', '')}"), new_x="LMARGIN"
    )
    pdf.ln(size * 0.8)
    _p(pdf, f"{meta.get('date', '')} · {meta.get('venue', '')} · {tr('as of')} {stamp}", size)
    for div, rows in by_division.items():
        _h(pdf, f"{tr('Division')} {div or '—'}", size)
        _table(
            pdf,
            [tr(h) for h in STANDING_HEADERS],
            standing_rows(t, rows, lang),
            size - 1,
            widths=(9, 28, 10, 13, 13, 13, 10, 10, 12, 11, 40),
        )
    for line in provisional:
        _p(pdf, line, size)
    return bytes(pdf.output())
