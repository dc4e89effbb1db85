"""The pit display's URL as a QR code in text (half blocks), for a terminal or a screen."""

from __future__ import annotations

import io

import segno


def qr_text(url: str) -> str:
    """The QR code of ``url`` as lines of "█", "▀", "▄" and spaces (quiet zone included)."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()
