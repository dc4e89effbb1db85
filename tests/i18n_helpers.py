"""Catalogs made from .po text for the tests: compiled as tools/compile_catalogs.py compiles
them, then loaded as the app loads its catalog (gettext's parser)."""

from __future__ import annotations

import gettext
import sys
from pathlib import Path

from fieldjudge import i18n

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from compile_catalogs import compiled  # noqa: E402
from po_ids import parse_po  # noqa: E402

HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


def catalog_file(lang: str, suffix: str = ".po") -> Path:
    """The catalog of ``lang``: its ``.po`` (what translators edit) or its ``.mo``."""
    return i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}{suffix}"


def has(catalog: i18n.Catalogs, message: str, context: str = "") -> bool:
    """Whether ``catalog`` translates ``message`` (under ``context``, if given)."""
    t = catalog.translations
    return (t.pgettext(context, message) if context else t.gettext(message)) is not message


def catalogs_from_po(text: str, folder: Path) -> i18n.Catalogs:
    po = folder / "t.po"
    po.write_text(HEADER + text, encoding="utf-8")
    mo = folder / "t.mo"
    mo.write_bytes(compiled(po))
    with mo.open("rb") as fp:
        return i18n.Catalogs(gettext.GNUTranslations(fp))


def compiled_entries(lang: str) -> dict[tuple[str, str], str]:
    """{(context, message id): translation} of the compiled catalog of ``lang`` (none for
    English), read back from its .mo with polib."""
    import polib

    mo = catalog_file(lang, ".mo")
    entries = polib.mofile(str(mo)) if mo.exists() else []
    return {(e.msgctxt or "", e.msgid): e.msgstr for e in entries if e.msgstr}


__all__ = ["catalog_file", "catalogs_from_po", "compiled_entries", "has", "parse_po"]
