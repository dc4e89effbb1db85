"""Compile the gettext catalog of every language, ``fieldjudge/locale/<lang>/LC_MESSAGES/
fieldjudge.po``, into the ``.mo`` file next to it (what the application reads: the standard
library's ``gettext`` parses a ``.mo`` in a fraction of the time a ``.po`` takes). Run it
after editing a ``.po``; ``tests/test_catalogs.py`` fails while a ``.mo`` is missing or
older than its ``.po``. A ``.po`` or ``.mo`` of any other name is refused: the application
reads one domain, ``fieldjudge``, and would never show its translations.

Usage:
  python tools/compile_catalogs.py            compile every catalog whose .mo is stale
  python tools/compile_catalogs.py --check    only list the stale ones (exit 1 if any)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parents[1] / "fieldjudge" / "locale"
DOMAIN = "fieldjudge"  # fieldjudge.i18n.DOMAIN


def compiled(po: Path) -> bytes:
    """The ``.mo`` bytes of the catalog ``po`` (polib: translated entries only, sorted).
    The ``.po`` files are UTF-8; a header that forgets to say so still compiles to a ``.mo``
    that says it (the standard parser would otherwise read it as ASCII and fail)."""
    catalog = polib.pofile(str(po), encoding="utf-8")
    catalog.metadata["Content-Type"] = "text/plain; charset=UTF-8"
    return catalog.to_binary()


def stale(locale: Path = LOCALE) -> list[Path]:
    """The catalogs whose ``.mo`` is missing or differs from their ``.po`` compiled now."""
    out = []
    for po in sorted(locale.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != compiled(po):
            out.append(po)
    return out


def orphans(locale: Path = LOCALE) -> list[Path]:
    """Files the application would not read as they are: a ``.mo`` with no ``.po`` (a
    catalog removed) and a catalog of another domain than ``fieldjudge``."""
    files = sorted(locale.glob("*/LC_MESSAGES/*.[mp]o"))
    return [
        f
        for f in files
        if f.stem != DOMAIN or (f.suffix == ".mo" and not f.with_suffix(".po").exists())
    ]


def main(argv: list[str] | None = None, locale: Path = LOCALE) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="list stale catalogs, change nothing")
    args = ap.parse_args(argv)
    todo, extra = stale(locale), orphans(locale)
    for f in extra:
        fix = "delete it" if f.stem == DOMAIN else f"move its entries into {DOMAIN}.po"
        print(
            f"{f.relative_to(locale.parent)}: not read by the application; {fix}", file=sys.stderr
        )
    for po in todo:
        if args.check:
            print(f"{po.relative_to(locale.parent)}: .mo is stale", file=sys.stderr)
        else:
            po.with_suffix(".mo").write_bytes(compiled(po))
            print(f"compiled {po.relative_to(locale.parent)}")
    return 1 if extra or (args.check and todo) else 0


if __name__ == "__main__":
    sys.exit(main())
