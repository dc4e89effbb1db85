"""No private API of Textual, TinyDB or gettext in fieldjudge (issue 23): no import of a
private module (``from textual.widgets._footer import ...``) and no ``._name`` access to an
attribute those packages keep private. A pinned upgrade may change them without notice."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import textual
import tinydb

ROOT = Path(__file__).resolve().parent.parent / "fieldjudge"
PRIVATE_IMPORT = re.compile(
    r"^\s*(?:from|import)\s+(?:textual|tinydb|gettext)(?:\.\w+)*\._\w*", re.M
)
ACCESS = re.compile(r"\.(_[A-Za-z]\w*)\b")
LIB_PRIVATE = re.compile(
    r"(?:self|cls)\.(_[A-Za-z]\w*)|^\s*(?:async\s+)?def\s+(_[A-Za-z]\w*)|^\s+(_[A-Za-z]\w*)\s*[:=]",
    re.M,
)
OWN = re.compile(
    r"(?:self|cls)\.(_[A-Za-z]\w*)\s*(?::[^=]*)?=(?!=)|def\s+(_[A-Za-z]\w*)|^\s+(_[A-Za-z]\w*)\s*[:=]",
    re.M,
)
# namedtuple's documented API (an ActiveBinding is one)
PUBLIC_UNDERSCORE = {"_replace", "_asdict", "_fields", "_make"}
# Textual's private state that fieldjudge sets as if it were its own: a violation even so
TEXTUAL_STATE = {"_bindings_ready", "_list_visible", "_no_matches_timer", "_tables", "_catalog"}


def _library_private_names() -> set[str]:
    files = [Path(gettext.__file__)]
    for pkg in (textual, tinydb):
        files += Path(pkg.__file__).parent.rglob("*.py")
    names: set[str] = set()
    for f in files:
        for m in LIB_PRIVATE.finditer(f.read_text(encoding="utf-8", errors="replace")):
            names.add(next(g for g in m.groups() if g))
    return {n for n in names if not n.startswith("__")}


def _sources() -> list[Path]:
    return sorted(ROOT.rglob("*.py"))


def violations() -> list[str]:
    sources = {p: p.read_text(encoding="utf-8") for p in _sources()}
    own: set[str] = set()
    for text in sources.values():
        for m in OWN.finditer(text):
            own.add(next(g for g in m.groups() if g))
    private = (_library_private_names() - own - PUBLIC_UNDERSCORE) | TEXTUAL_STATE
    found = []
    for path, text in sources.items():
        rel = path.relative_to(ROOT.parent)
        for m in PRIVATE_IMPORT.finditer(text):
            found.append(f"{rel}: {m.group(0).strip()}")
        for n, line in enumerate(text.splitlines(), 1):
            for m in ACCESS.finditer(line):
                if m.group(1) in private:
                    found.append(f"{rel}:{n}: .{m.group(1)}")
    return found


def test_fieldjudge_uses_no_private_textual_tinydb_or_gettext_api() -> None:
    assert violations() == []


def test_the_check_finds_a_private_import_and_a_private_attribute(tmp_path, monkeypatch) -> None:
    """The check itself fails on what it forbids (a test must be able to fail)."""
    bad = tmp_path / "fieldjudge"
    bad.mkdir()
    (bad / "bad.py").write_text(
        "from textual.widgets._footer import FooterKey\n"
        "def f(app, db):\n"
        "    app.stylesheet._parse_rules\n"
        "    db._tables.clear()\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(f"{__name__}.ROOT", bad)
    found = violations()
    assert any("textual.widgets._footer" in v for v in found)
    assert any("._tables" in v for v in found)
    assert any("._parse_rules" in v for v in found)
