"""PDF protocols (31) and standings, drawn with fpdf2: no browser on the laptop, A4, one
page per game. The texts are the HTML's (``protocol_doc``); the font is DejaVu Sans shipped
in the package (``fonts/``), so Cyrillic prints on any machine."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from fontTools.ttLib import TTFont
from fpdf import FPDF
from fpdf.fonts import FontFace

from fieldjudge.export.html import Tr
from fieldjudge.services import TournamentView
from fieldjudge.services.paintball.protocol_doc import ProtocolDoc
from fieldjudge.services.paintball.standings import STANDING_HEADERS, standing_rows

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


#: the longest stamp printed on a page (the command line names every fault)
STAMP_CHARS = 600
STAMP_RED = (176, 0, 0)


class StampedPDF(FPDF):
    """An A4 document whose every page (the ones fpdf adds on a page break too) starts
    with ``stamp`` in bold red when it is set: an export forced out of a folder that does
    not verify (issue 21) never prints as the signed results."""

    stamp: str = ""

    def header(self) -> None:
        if not self.stamp:
            return
        text = self.stamp if len(self.stamp) <= STAMP_CHARS else self.stamp[:STAMP_CHARS] + "…"
        family, style, size = self.font_family, self.font_style, self.font_size_pt
        self.set_font(FAMILY, "B", 8)
        self.set_text_color(*STAMP_RED)
        self.set_draw_color(*STAMP_RED)
        self.multi_cell(0, 4, clean(text), border=1, new_x="LMARGIN", new_y="NEXT", align="L")
        self.ln(1)
        self.set_text_color(0, 0, 0)
        self.set_draw_color(0, 0, 0)
        self.set_font(family, style, size)


def new_pdf(title: str, stamp: str = "") -> FPDF:
    """A new A4 document; ``stamp``: the line every page carries on top (see
    :class:`StampedPDF`)."""
    pdf = StampedPDF(orientation="P", unit="mm", format="A4")
    pdf.stamp = stamp
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
    **table_kw: Any,
) -> None:
    """A table with a bold header row; ``table_kw`` goes to ``FPDF.table``."""
    rows = list(rows) or [["—"] + [""] * (len(headers) - 1)]
    pdf.set_font(FAMILY, size=size)
    with pdf.table(
        col_widths=widths,
        line_height=size * 0.5,
        padding=padding,
        text_align="LEFT",
        headings_style=FontFace(emphasis="BOLD", fill_color=(235, 235, 235)),
        first_row_as_headings=True,
        **table_kw,
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
    for m in (*d.meta, d.times):
        if m:
            _p(pdf, m, size)
    pdf.ln(size * 0.3)
    _h(pdf, f"{lb['Result']} (30.01)", size)
    if d.provisional:  # a game not over yet
        _p(pdf, d.provisional, size, "B")
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
    if d.flag_rows:  # 22-23: the flag's way, each hang attempt with its verdict
        _h(pdf, f"{lb['Flag']} (22–23)", size)
        _table(pdf, d.flag_headers, d.flag_rows, size, widths=(9, 13, 78))
    _h(pdf, lb["Penalties"], size)
    _table(pdf, d.pen_headers, d.pen_rows, size, widths=(9, 20, 7, 30, 34))
    for n in d.notes:
        _p(pdf, n, size)
    if d.flagged:
        _h(pdf, lb["For the head judge"], size)
        for n in d.flagged:
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
    if d.footnotes:  # the settings that differ from the rulebook, in plain words
        pdf.ln(size * 0.3)
        label = lb["Settings of this tournament that differ from the rulebook"]
        _p(pdf, f"* {label}: " + " ".join(d.footnotes), size - 1)


def fitted(d: ProtocolDoc, stamp: str = "") -> tuple[float, FPDF]:
    """The largest font size that keeps the protocol (under ``stamp``, if any) on one A4
    page, and that page."""
    for size in SIZES:
        trial = new_pdf(d.title, stamp)
        draw_protocol(trial, d, size)
        if trial.page == 1:
            return size, trial
    return size, trial  # the smallest size: a huge protocol runs on, nothing is cut


def protocol_pdf(d: ProtocolDoc, stamp: str = "") -> tuple[bytes, float]:
    """One game's protocol on one A4 page, and the font size it needed."""
    size, pdf = fitted(d, stamp)
    return bytes(pdf.output()), size


def combined_pdf(title: str, pages: Sequence[tuple[ProtocolDoc, float]], stamp: str = "") -> bytes:
    """Several protocols, one A4 page each, at the sizes :func:`protocol_pdf` found."""
    pdf = new_pdf(title, stamp)
    for d, size in pages:
        draw_protocol(pdf, d, size)
    if not pages:
        pdf.add_page()
        _p(pdf, "—", SIZES[0])
    return bytes(pdf.output())


#: the standings are pinned on a board and read from a step away: never smaller
STANDINGS_SIZE = 10.0  # pt
CELL_PAD = 1.0  # mm, left and right of a table cell's text
PAGE_WIDTH = {"P": 210.0, "L": 297.0}  # A4, mm


def _width(pdf: FPDF, text: object, style: str, size: float) -> float:
    pdf.set_font(FAMILY, style, size)
    return pdf.get_string_width(clean(text))


def standings_layout(
    pdf: FPDF, headers: Sequence[str], rows: Sequence[Sequence[object]], size: float
) -> tuple[list[int], list[float], str]:
    """Which columns to print (a column empty in every row is left out), their widths in
    mm and the page orientation ("P", or "L" when the table is wider than a portrait A4).

    A column is never narrower than the longest word of its header (bold) or of any of its
    cells, so a header wraps between words only; a number column is as wide as its widest
    value. Text columns wider than the page can give are narrowed, down to their longest
    word, and wrap between words."""
    keep = [i for i in range(len(headers)) if any(str(r[i]).strip() for r in rows)] or list(
        range(len(headers))
    )
    slack = 2 * CELL_PAD + 0.8  # fpdf's own rounding: a word exactly as wide would break

    def longest_word(text: object, style: str) -> float:
        return max((_width(pdf, w, style, size) for w in str(text).split()), default=0.0)

    least, want = [], []
    for i in keep:
        cells = [r[i] for r in rows]
        least.append(
            max([longest_word(headers[i], "B"), *(longest_word(c, "") for c in cells)]) + slack
        )
        want.append(max([_width(pdf, c, "", size) for c in cells] or [0.0]) + slack)
    widths = [max(lo, w) for lo, w in zip(least, want, strict=True)]
    orientation = "P" if sum(widths) <= PAGE_WIDTH["P"] - 2 * MARGIN else "L"
    room = PAGE_WIDTH[orientation] - 2 * MARGIN
    # room to spare: a header on one line reads better than one word a line
    for j, i in enumerate(keep):
        whole = _width(pdf, headers[i], "B", size) + slack
        widths[j] += max(0.0, min(whole - widths[j], room - sum(widths)))
    # too wide even in landscape: the widest wrapping columns give way, never below a word
    while sum(widths) > room + 0.01:
        k = max(range(len(widths)), key=lambda j: widths[j] - least[j])
        give = min(widths[k] - least[k], sum(widths) - room)
        if give <= 0.01:
            break  # every column at its longest word: the table runs past, nothing is cut
        widths[k] -= give
    return keep, widths, orientation


def standings_pdf(
    t: TournamentView,
    by_division: dict,
    tr: Tr,
    lang: str,
    now: datetime | None = None,
    provisional=(),
    stamp: str = "",
) -> bytes:
    """The standings as a head judge pins them: 10 pt, landscape A4 when the table is wider
    than a portrait page, headers wrapped between words only, no empty column; ``stamp``
    on top of every page (see :class:`StampedPDF`)."""
    meta = t.meta
    as_of = (now or datetime.now()).strftime("%Y-%m-%d %H:%M")
    pdf = new_pdf(f"{tr('Standings')} — {meta.get('name', '')}", stamp)
    size = STANDINGS_SIZE
    headers = [tr(h) for h in STANDING_HEADERS]
    tables = {div: standing_rows(t, rows, lang) for div, rows in by_division.items()}
    every_row = [r for rows in tables.values() for r in rows]
    keep, widths, orientation = standings_layout(pdf, headers, every_row, size)
    pdf.add_page(orientation=orientation)
    pdf.set_font(FAMILY, "B", size + 5)
    pdf.multi_cell(
        0, size * 0.8, clean(f"{tr('Standings')}: {meta.get('name', '')}"), new_x="LMARGIN"
    )
    pdf.ln(size * 0.8)
    _p(pdf, f"{meta.get('date', '')} · {meta.get('venue', '')} · {tr('as of')} {as_of}", size)
    for div, rows in tables.items():
        _h(pdf, f"{tr('Division')} {div or '—'}", size)
        _table(
            pdf,
            [headers[i] for i in keep],
            [[r[i] for i in keep] for r in rows],
            size,
            widths,
            padding=(0.6, CELL_PAD, 0.6, CELL_PAD),
            width=sum(widths),
            align="LEFT",
        )
    for line in provisional:
        _p(pdf, line, size)
    return bytes(pdf.output())
