"""Catalogs made from .po text for the tests: compiled as tools/compile_catalogs.py compiles
them, then loaded as the app loads its catalogs (gettext's parser, chained)."""

from __future__ import annotations

import sys
from pathlib import Path

from fieldjudge import i18n

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from compile_catalogs import compiled  # noqa: E402
from po_ids import parse_po  # noqa: E402

HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


def catalogs_from_po(text: str, folder: Path) -> i18n.Catalogs:
    po = folder / "t.po"
    po.write_text(HEADER + text, encoding="utf-8")
    mo = folder / "t.mo"
    mo.write_bytes(compiled(po))
    return i18n.Catalogs([mo])


def compiled_entries(lang: str) -> dict[tuple[str, str], str]:
    """{(context, message id): translation} of every compiled catalog of ``lang``, read
    back from its .mo with polib."""
    import polib

    out: dict[tuple[str, str], str] = {}
    for mo in sorted(i18n.catalog_dir(lang).glob("*.mo")):
        for e in polib.mofile(str(mo)):
            if e.msgstr:
                out[(e.msgctxt or "", e.msgid)] = e.msgstr
    return out


__all__ = ["catalogs_from_po", "compiled_entries", "parse_po"]
