"""List the gettext message ids used in given Python files (for keeping .po catalogs full).

Usage: python tools/po_ids.py FILE... [--missing CATALOG.po ...]"""

from __future__ import annotations

import ast
import sys


def ids_in(path: str) -> list[str]:
    out = []
    tree = ast.parse(open(path, encoding="utf-8").read())
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and getattr(n.func, "id", None) in ("_", "ru"):
            if n.args and isinstance(n.args[0], ast.Constant):
                out.append(n.args[0].value)
        if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "Binding":
            if len(n.args) >= 3 and isinstance(n.args[2], ast.Constant):
                out.append(n.args[2].value)
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant):
            if any(getattr(t, "id", "") in ("SCREEN_TITLE", "HELP_TEXT") for t in n.targets):
                out.append(n.value.value)
    return [i for i in out if isinstance(i, str) and i]


if __name__ == "__main__":
    args = sys.argv[1:]
    cats = []
    if "--missing" in args:
        k = args.index("--missing")
        args, cats = args[:k], args[k + 1 :]
    from fieldjudge.i18n import parse_po

    known: dict[str, str] = {}
    for c in cats:
        known.update(parse_po(open(c, encoding="utf-8").read()))
    seen = []
    for f in args:
        for i in ids_in(f):
            if i not in seen and i not in known:
                seen.append(i)
    for i in seen:
        print(repr(i))
