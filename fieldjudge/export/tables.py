"""Standings as CSV: UTF-8 with a BOM so spreadsheet programs read Cyrillic; semicolons for a
Russian document (a Russian spreadsheet splits on ";"), the tie-break in its language."""

from __future__ import annotations

import csv
import io

from fieldjudge.export.html import Tr
from fieldjudge.services import TournamentView
from fieldjudge.services.paintball.standings import STANDING_HEADERS, standing_rows


def standings_csv(
    t: TournamentView,
    by_division: dict,
    tr: Tr,
    lang: str = "ru",
    delimiter: str = ";",
    notes: list[str] | tuple[str, ...] = (),
) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator="\r\n")
    w.writerow([tr("Division"), *(tr(h) for h in STANDING_HEADERS)])
    for div, rows in by_division.items():
        for row in standing_rows(t, rows, lang):
            w.writerow([div, *row])
    if notes:
        w.writerow([])
        for line in notes:
            w.writerow([line.strip()])
    return "\ufeff".encode() + buf.getvalue().encode("utf-8")
