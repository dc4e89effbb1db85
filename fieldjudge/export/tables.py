"""Standings as CSV: UTF-8 with a BOM so spreadsheet programs read Cyrillic."""

from __future__ import annotations

import csv
import io

from fieldjudge.export.html import STANDING_HEADERS, Tr, standing_rows


def standings_csv(t, by_division: dict, tr: Tr) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow([tr("Division"), *(tr(h) for h in STANDING_HEADERS)])
    for div, rows in by_division.items():
        for row in standing_rows(t, rows):
            w.writerow([div, *row])
    return "\ufeff".encode() + buf.getvalue().encode("utf-8")
