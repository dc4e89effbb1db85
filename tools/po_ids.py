"""The message ids of the code and the catalog of each language,
``fieldjudge/locale/<lang>/LC_MESSAGES/fieldjudge.po`` (the one gettext domain).

Extraction is GNU xgettext's (``--extract``): it writes the template of every id the code
marks, with its context, and folds the ids new to each catalog into it, untranslated, for
a translator to fill; nothing is ever dropped from a catalog (the words of click and
Textual, and the ids the code translates from a table, are in no call xgettext sees). The
marks: UI strings ``_("...")``, ``ru("...")``, ``tr("...")``, ``Binding(key, action,
"description")`` and the keymap's rows ``key(keys, action, "description")``
(``fieldjudge/screens/keymap.py``), counts ``ngettext("...", "...", n)``, and the rules
engines' messages ``Phrase("...")``, ``RuleMessage("<section>", "...")``, a damaged
file's fault ``DamagedFile(path, "...")``; their context is the section when it is written
as a literal, else none (``fieldjudge.i18n`` then looks it up without context).

Most rule messages are data, which xgettext cannot read: the tables
``RULES = {id: (section, "...")}``, ``PHRASES = {id: (context, "...")}`` and the elimination
reasons' ``*_TEXTS`` of ``fieldjudge/rules/texts.py`` (a section of ``None`` is chosen at
run time: no context).
``--extract`` folds their ids too, read with ``ast``.

The same marks, read with ``ast`` (and ``SCREEN_TITLE`` / ``HELP_TEXT``, which xgettext
cannot see), serve the checks of ``tests/test_catalogs.py`` and ``tests/test_rules_catalog.py``.

Usage:
  python tools/po_ids.py --extract       fold the ids new to the code into every catalog
      (untranslated), make the entries no code shows obsolete, list both
  python tools/po_ids.py --fold          fold any other .po of a language into its catalog
  python tools/po_ids.py FILE...         UI ids of FILEs missing from the Russian catalog
  python tools/po_ids.py --rules         rule ids missing from the Russian catalog
  python tools/po_ids.py --rules --refs  rewrite the #: references of the rule messages
      (file:constructor) from the code
Then ``python tools/compile_catalogs.py``.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import polib

#: a catalog's entries: {(context, English message id): translation}; "" is no context
Entries = dict[tuple[str, str], str]

PKG = Path(__file__).resolve().parents[1] / "fieldjudge"
DOMAIN = "fieldjudge"  # fieldjudge.i18n.DOMAIN
CATALOG = PKG / "locale" / "ru" / "LC_MESSAGES" / f"{DOMAIN}.po"

#: rule-message constructors: name -> (index of the context argument or None, of the msgid)
RULE_KEYWORDS: dict[str, tuple[int | None, int]] = {
    "Phrase": (None, 0),
    "Unregistered": (None, 0),  # a Phrase: a signer's registration missing (trust.identity)
    "in_context": (0, 1),
    "RuleMessage": (0, 1),
    "DamagedFile": (None, 1),  # the store's faults: DamagedFile(path, "<fault>", ...)
    "pgettext": (0, 1),  # a UI word that needs its own translation in one place
}
#: xgettext's keywords: the UI's calls, then the rule messages' constructors
XGETTEXT_KEYWORDS = ["_", "ru", "tr", "ngettext:1,2", "Binding:3", "key:3"] + [
    f"{name}:{msg + 1}" if ctx is None else f"{name}:{ctx + 1}c,{msg + 1}"
    for name, (ctx, msg) in RULE_KEYWORDS.items()
]
#: the message tables, {id: (section or context, English template)}: these and *_TEXTS
TABLES = ("RULES", "PHRASES")
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
        if isinstance(n, ast.Call) and getattr(n.func, "id", None) in ("Binding", "key"):
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
                if isinstance(target, ast.Name) and is_table(target.id):
                    out.extend(table_ids(child.value))
                    continue
                if isinstance(target, ast.Name):  # a module-level table: STATUS = {...}
                    visit(child, target.id)
                    continue
            if isinstance(child, ast.Call):
                func = child.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                spec = RULE_KEYWORDS.get(name)
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


def is_table(name: str) -> bool:
    return name in TABLES or name.endswith("_TEXTS")


def table_ids(table: ast.expr | None) -> list[tuple[str, str, str]]:
    """``(context, msgid, id)`` of every entry of a message table ``{id: (section, "...")}``
    (a section of ``None`` is chosen at run time: no context)."""
    out = []
    for key, value in zip(getattr(table, "keys", []), getattr(table, "values", []), strict=True):
        if not (isinstance(key, ast.Constant) and isinstance(value, ast.Tuple)):
            continue
        ctx, msgid = (e.value if isinstance(e, ast.Constant) else None for e in value.elts)
        if isinstance(msgid, str) and not wordless(msgid):
            out.append((ctx if isinstance(ctx, str) else "", msgid, str(key.value)))
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


def xgettext(pot: Path, package: Path = PKG) -> None:
    """Write the template ``pot`` of every message id the code of ``package`` marks."""
    if shutil.which("xgettext") is None:
        raise SystemExit("xgettext not found: install GNU gettext (apt install gettext)")
    files = sorted(str(f) for f in package.rglob("*.py"))
    keys = [f"--keyword={k}" for k in XGETTEXT_KEYWORDS]
    cmd = ["xgettext", "--language=Python", "--from-code=UTF-8", "--no-location"]
    subprocess.run([*cmd, *keys, "--output", str(pot), *files], check=True)


def tables_pot(pot: Path, package: Path = PKG) -> None:
    """Write the template ``pot`` of the message tables' ids (which xgettext cannot read)."""
    out, seen = polib.POFile(), set()
    for f in sorted(package.rglob("*.py")):
        for node in ast.parse(f.read_text(encoding="utf-8")).body:
            target = node.targets[0] if isinstance(node, ast.Assign) else None
            target = node.target if isinstance(node, ast.AnnAssign) else target
            if not (isinstance(target, ast.Name) and is_table(target.id)):
                continue
            for ctx, msgid, _id in table_ids(node.value):
                if (ctx, msgid) not in seen:
                    seen.add((ctx, msgid))
                    out.append(polib.POEntry(msgctxt=ctx or None, msgid=msgid, msgstr=""))
    out.save(str(pot))


def _value(e: polib.POEntry) -> object:
    return sorted(e.msgstr_plural.items()) if e.msgid_plural else e.msgstr


def _done(e: polib.POEntry) -> bool:
    return e.translated() and "fuzzy" not in e.flags


def fold(catalog: Path, sources: list[Path]) -> list[str]:
    """Fold the entries of ``sources`` (.po or .pot files) into ``catalog``: an entry new to
    it is added (untranslated ones too, for a translator to fill, unless it has no words or
    the catalog has the id without context, which the lookup falls back to); a translation
    fills an untranslated entry; an obsolete one comes back. Two translations of one
    (context, id): a collision, and nothing is written. Returns the collisions."""
    po = polib.pofile(str(catalog), wrapwidth=99)
    nplurals = int(
        re.search(r"nplurals=(\d+)", po.metadata.get("Plural-Forms", "nplurals=2")).group(1)
    )
    index = {(e.msgctxt or "", e.msgid): e for e in po}
    collisions = []
    for src in sources:
        for e in polib.pofile(str(src)):
            key = (e.msgctxt or "", e.msgid)
            have = index.get(key)
            if e.obsolete or not e.msgid:
                continue
            if have is not None and have.obsolete:  # back in the code, its translation too
                have.obsolete = False
            if have is not None and not _done(e):
                continue
            if have is None:
                if not _done(e) and (wordless(e.msgid) or ("", e.msgid) in index):
                    continue
                e.msgctxt = e.msgctxt or None  # "" is a context of its own in gettext
                if e.msgid_plural and not _done(e):
                    e.msgstr_plural = {i: "" for i in range(nplurals)}
                po.append(e)
                index[key] = e
            elif not _done(have):
                have.msgstr, have.msgstr_plural, have.flags = e.msgstr, e.msgstr_plural, []
            elif _value(have) != _value(e):
                collisions.append(f"{key!r}: {_value(have)!r} / {src.name} {_value(e)!r}")
    if not collisions:
        po.save(str(catalog))
    return collisions


def catalogs() -> list[Path]:
    return sorted(PKG.glob(f"locale/*/LC_MESSAGES/{DOMAIN}.po"))


def written(packages: tuple[str, ...] = ("fieldjudge", "click", "textual")) -> set[str]:
    """Every string literal of the code of ``packages`` (ours, and the libraries whose own
    words the catalog translates), docstrings also as click cleans them up (help texts) and
    each capitalized (``_(p.position.capitalize())`` shows "Chaser")."""
    out: set[str] = set()
    for name in packages:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin is not None, name
        for f in Path(spec.origin).parent.rglob("*.py"):
            for n in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
                if isinstance(n, ast.Constant) and isinstance(n.value, str):
                    out |= {n.value, inspect.cleandoc(n.value), n.value.capitalize()}
    return out


def dead(catalog: Path) -> list[polib.POEntry]:
    """The entries of ``catalog`` no code shows: an id written nowhere, or one filed under a
    context (a rulebook section) the code no longer asks it under."""
    texts, ids = written(), rule_ids()
    return [
        e
        for e in polib.pofile(str(catalog))
        if not e.obsolete
        and e.msgid
        and (
            e.msgid not in texts
            or (e.msgctxt and (e.msgctxt, e.msgid) not in ids and not wordless(e.msgid))
        )
    ]


def extract() -> int:
    """Fold the ids the code marks into every catalog, list those left to translate, and
    make the entries no code shows obsolete (``#~``: kept for reference, not compiled)."""
    with tempfile.TemporaryDirectory() as tmp:
        pot, tables = Path(tmp) / f"{DOMAIN}.pot", Path(tmp) / "tables.pot"
        xgettext(pot)
        tables_pot(tables)
        for catalog in catalogs():
            where = catalog.relative_to(PKG.parent)
            fold(catalog, [pot, tables])
            po = polib.pofile(str(catalog), wrapwidth=99)
            gone = {(e.msgctxt, e.msgid) for e in dead(catalog)}
            for e in po:
                if (e.msgctxt, e.msgid) in gone and not e.obsolete:
                    e.obsolete = True
                    print(f"{where}: obsolete: {e.msgid!r}")
            po.save(str(catalog))
            for e in po.untranslated_entries():
                print(f"{where}: to translate: {e.msgid!r}")
    return 0


def fold_domains() -> int:
    """Fold every other .po of a language (a catalog of the former per-area domains, from
    an older branch) into its ``fieldjudge.po``, then delete it and its .mo."""
    status = 0
    for catalog in catalogs():
        others = sorted(p for p in catalog.parent.glob("*.po") if p != catalog)
        collisions = fold(catalog, others) if others else []
        for c in collisions:
            print(f"{catalog.relative_to(PKG.parent)}: collision {c}", file=sys.stderr)
        status |= bool(collisions)
        for p in others if not collisions else []:
            p.unlink()
            p.with_suffix(".mo").unlink(missing_ok=True)
            print(f"folded {p.relative_to(PKG.parent)} into {catalog.name}")
    return status


def main(args: list[str]) -> int:
    if "--extract" in args:
        return extract()
    if "--fold" in args:
        return fold_domains()
    known = parse_po(CATALOG)
    if "--rules" in args:
        ids = rule_ids()
        if "--refs" in args:
            update_references(CATALOG, ids)
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
