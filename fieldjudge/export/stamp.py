"""The stamp of an export forced out of a folder that does not verify (issue 21): every
page written says, on top, that it was not checked and why, so a printed protocol or
standings sheet never passes for the signed results."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from pathlib import Path

import orjson

from fieldjudge.store.storage import atomic_write_bytes

BANNER_STYLE = (
    "border:3px solid #b00;color:#b00;font-weight:bold;padding:6px;margin:0 0 8px 0;"
    "white-space:pre-wrap"
)


def stamped(path: Path, payload: bytes, text: str) -> bytes:
    """``payload`` (the bytes of one exported file) with ``text`` on top of each page: an
    HTML banner after ``<body>`` (and before each page break of a protocol book), the first
    row of a CSV, a first key of the JSON export."""
    suffix = path.suffix.lower()
    if suffix == ".html":
        banner = f'<div class="unverified" style="{BANNER_STYLE}">{escape(text)}</div>'
        body = payload.decode("utf-8")
        head, sep, rest = body.partition("<body>")
        if not sep:
            return (banner + body).encode("utf-8")
        # a book of protocols: on every protocol's page too
        pages = rest.replace('<section class="protocol">', '<section class="protocol">' + banner)
        return (head + sep + "\n" + banner + pages).encode("utf-8")
    if suffix == ".csv":
        bom = b"\xef\xbb\xbf" if payload.startswith(b"\xef\xbb\xbf") else b""
        line = '"' + text.replace('"', '""') + '"\r\n'
        return bom + line.encode("utf-8") + payload[len(bom) :]
    if suffix == ".json" and payload.lstrip().startswith(b"{"):
        start = payload.index(b"{") + 1
        return payload[:start] + b'"unverified":' + orjson.dumps(text) + b"," + payload[start:]
    return payload


def stamp_files(paths: Iterable[Path], text: str) -> None:
    """Stamp every exported file (see :func:`stamped`), each replaced atomically."""
    for p in paths:
        p = Path(p)
        atomic_write_bytes(p, stamped(p, p.read_bytes(), text))
