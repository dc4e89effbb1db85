"""List the gettext message ids used in Python files (for keeping .po catalogs full), like
xgettext: UI strings (``_("...")``, ``ru("...")``, ``Binding(..., "description")``,
``SCREEN_TITLE`` / ``HELP_TEXT``) and the rules engines' messages, with their context.

A rule message's id is the English template of a ``Phrase("...")``,
``RuleMessage("<section>", "...")`` (also spelled ``R(...)``), an elimination reason
``_r(key, "<section>", "...")`` or a damaged file's fault ``DamagedFile(path, "...")``; its context is the section when it is written as a literal,
else empty (a section chosen at run time: ``fieldjudge.i18n`` then looks it up without
context).

Usage:
  python tools/po_ids.py FILE... [--missing CATALOG.po ...]   UI ids missing from catalogs
  python tools/po_ids.py --rules [--missing CATALOG.po ...]   rule ids (of fieldjudge/rules
      and the services), with --missing only those missing from the catalogs
  python tools/po_ids.py --rules --dead CATALOG.po            entries no code uses
  python tools/po_ids.py --rules --refs CATALOG.po            rewrite its #: references
      (file:constructor) from the code
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import polib

#: a catalog's entries: {(context, English message id): translation}; "" is no context
Entries = dict[tuple[str, str], str]

PKG = Path(__file__).resolve().parents[1] / "fieldjudge"

#: rule-message constructors: name -> (index of the context argument or None, of the msgid)
RULE_KEYWORDS: dict[str, tuple[int | None, int]] = {
    "Phrase": (None, 0),
    "in_context": (0, 1),
    "RuleMessage": (0, 1),
    "R": (0, 1),
    "_r": (1, 2),
    "DamagedFile": (None, 1),  # the store's faults: DamagedFile(path, "<fault>", ...)
}
#: a template with no words (``"{player}: {verdict}"``) needs no translation
_PLACEHOLDER = re.compile(r"\{[^}]*\}")


def wordless(template: str) -> bool:
    """Whether a template has no words outside its placeholders (nothing to translate)."""
    return not re.search("[A-Za-z]", _PLACEHOLDER.sub("", template))


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


def rule_ids_in(path: str | Path) -> list[tuple[str, str, str]]:
    """``(context, msgid, where)`` of every rule message written in ``path``; ``where`` is
    ``file:function`` (the constructor, or the module-level name it is assigned to) for
    the ``#:`` reference of a catalog."""
    text = Path(path).read_text(encoding="utf-8")
    tree = ast.parse(text)
    out = []

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, child.name)
                continue
            if not where and isinstance(child, ast.Assign | ast.AnnAssign):
                target = child.targets[0] if isinstance(child, ast.Assign) else child.target
                if isinstance(target, ast.Name):  # a module-level table: STATUS = {...}
                    visit(child, target.id)
                    continue
            if isinstance(child, ast.Call):
                func = child.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                spec = RULE_KEYWORDS.get(name)
                if name == "R" and "R = RuleMessage" not in text:
                    spec = None
                if spec is not None and len(child.args) > spec[1]:
                    ctx_i, id_i = spec
                    msgid = child.args[id_i]
                    ctx = child.args[ctx_i] if ctx_i is not None else None
                    if isinstance(msgid, ast.Constant) and isinstance(msgid.value, str):
                        context = ctx.value if isinstance(ctx, ast.Constant) else ""
                        if not wordless(msgid.value):
                            out.append((str(context), msgid.value, where))
            visit(child, where)

    visit(tree, "")
    return out


def rule_ids(package: Path = PKG) -> dict[tuple[str, str], list[str]]:
    """Every rule message id of the package: ``{(context, msgid): [file:function, ...]}``."""
    found: dict[tuple[str, str], list[str]] = {}
    for f in sorted(package.rglob("*.py")):
        if f.name == "messages.py":
            continue
        rel = f.relative_to(package.parent).as_posix()
        for ctx, msgid, where in rule_ids_in(f):
            found.setdefault((ctx, msgid), []).append(f"{rel}:{where}")
    return found


def update_references(path: Path, ids: dict[tuple[str, str], list[str]]) -> None:
    """Rewrite the ``#:`` references of a catalog's entries from the code (``ids``)."""
    po = polib.pofile(str(path), wrapwidth=99)
    filed = {(e.msgctxt or "", e.msgid) for e in po}
    for e in po:
        where = list(ids.get((e.msgctxt or "", e.msgid), []))
        if not e.msgctxt:  # also the contexts with no entry of their own (found through this)
            where += [
                w for (c, m), ws in ids.items() if m == e.msgid and (c, m) not in filed for w in ws
            ]
        if where:
            e.occurrences = [tuple(w.rsplit(":", 1)) for w in dict.fromkeys(where)]
    po.save(str(path))


def parse_po(text_or_path: str | Path) -> Entries:
    """The translated entries of one .po catalog (its text, or the path of its file), as
    its compiled ``.mo`` holds them: untranslated, fuzzy and obsolete entries are left out
    (for the tools and the tests: the app reads the ``.mo`` files)."""
    po = polib.pofile(str(text_or_path), encoding="utf-8")
    return {
        (e.msgctxt or "", e.msgid): e.msgstr
        for e in po.translated_entries()
        if e.msgid and not e.msgid_plural  # plural entries: see plural_ids_in
    }


def plural_ids_in(path: str | Path) -> list[tuple[str, str]]:
    """``(singular, plural)`` of every ``ngettext("...", "...", n)`` written in ``path``."""
    out = []
    for n in ast.walk(ast.parse(Path(path).read_text(encoding="utf-8"))):
        if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "ngettext":
            if len(n.args) >= 2 and all(isinstance(a, ast.Constant) for a in n.args[:2]):
                out.append((n.args[0].value, n.args[1].value))
    return out


def _catalog(paths: list[str]) -> dict[tuple[str, str], str]:
    known: dict[tuple[str, str], str] = {}
    for c in paths:
        known.update(parse_po(Path(c)))
    return known


def main(args: list[str]) -> int:
    cats: list[str] = []
    dead, refs = "--dead" in args, "--refs" in args
    for flag in ("--missing", "--dead", "--refs"):
        if flag in args:
            k = args.index(flag)
            args, cats = args[:k], args[k + 1 :]
    known = _catalog(cats)
    if "--rules" in args:
        ids = rule_ids()
        if refs:
            for path in cats:
                update_references(Path(path), ids)
            return 0
        if dead:
            for ctx, msgid in known:
                if (ctx, msgid) not in ids and ("", msgid) not in ids:
                    print(f"{ctx!r} {msgid!r}")
            return 0
        for (ctx, msgid), where in ids.items():
            if (ctx, msgid) not in known and ("", msgid) not in known:
                print(f"{ctx!r} {msgid!r}  # {where[0]}")
        return 0
    seen: list[str] = []
    for f in args:
        for i in ids_in(f):
            if i not in seen and ("", i) not in known:
                seen.append(i)
    for i in seen:
        print(repr(i))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
