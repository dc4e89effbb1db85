"""Generate docs/RULES-COVERAGE.md: every section of both rulebooks with the code and the
tests that cite it. Nothing in the table is typed by hand: the sections come from
docs/rules-sections.txt, the citations from the sources.

What counts as a citation (the conventions of the code base):

- a test whose name starts with section numbers: ``test_23_03_...`` (23.03),
  ``test_20_02_20_03_...`` (both), ``test_11_7_...`` / ``test_5_1_...`` (quidditch 11.7, 5.1),
  ``test_7_8_...`` (quidditch 7 and 8);
- a comment naming sections: ``# 20.04``, ``# 22.04 / 23.02: ...``, ``# 9: ...``, ``(7, 8)``;
- a string literal that is a section: ``R("20.03", ...)``, ``ctx.emit(PH, "pass", "5", ...)``
  (quidditch: in the engine only, ``fieldjudge/rules/``);
- a paintball section written ``NN.NN`` in a docstring.

A file belongs to the quidditch rulebook when its path mentions quidditch, otherwise to the
paintball one. Comments and strings inside a test function count for that test.

Usage: ``python tools/rules_table.py`` writes the table; ``--check`` exits 1 when the
committed table is not what the sources give.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECTIONS_FILE = Path("docs/rules-sections.txt")
TABLE_FILE = Path("docs/RULES-COVERAGE.md")
SCANNED = ("fieldjudge", "tests")
BOOKS = ("paintball", "quidditch")
TITLES = {"paintball": "Paintball (file 003)", "quidditch": "Quidditch (file 000)"}

PB_DOTTED = re.compile(r"(?<![\d.])((?:1[89]|2\d|3[0-2])\.\d\d)(?![\d.]\d)")
PB_BARE = re.compile(r"(?<![\d.])(26|31)(?![\d.%])(?!\s*(?:%|ms|fps|s\b|m\b|min))")
Q_NUM = r"\d{1,2}(?:\.\d)?"
Q_HEAD = re.compile(rf"^#\s*((?:{Q_NUM})(?:\s*(?:,|/|and)\s*{Q_NUM})*)\s*(?::|$|\()")
Q_PAREN = re.compile(rf"\((?:п\.\s*|sections?\s+)?((?:{Q_NUM})(?:\s*,\s*{Q_NUM})*)\)")
Q_WORD = re.compile(rf"(?:п\.|section|sections)\s*((?:{Q_NUM})(?:\s*,\s*{Q_NUM})*)")


def load_sections(root: Path = ROOT) -> dict[str, dict[str, str]]:
    """{book: {section: title}} in the order of the data file."""
    out: dict[str, dict[str, str]] = {b: {} for b in BOOKS}
    for line in (root / SECTIONS_FILE).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        book, section, title = line.split("\t", 2)
        out[book][section] = title
    return out


def book_of(path: str) -> str:
    return "quidditch" if "quidditch" in path else "paintball"


def _nums(text: str) -> list[str]:
    return re.findall(Q_NUM, text)


def in_comment(text: str, book: str, known: dict[str, str]) -> set[str]:
    if book == "paintball":
        found = set(PB_DOTTED.findall(text)) | set(PB_BARE.findall(text))
    else:
        found = set()
        m = Q_HEAD.match(text)
        if m:
            found |= set(_nums(m.group(1)))
        for rx in (Q_PAREN, Q_WORD):
            for g in rx.findall(text):
                found |= set(_nums(g))
    return {s for s in found if s in known}


def in_string(literal: str, book: str, known: dict[str, str], engine: bool) -> set[str]:
    """A literal that is a section. Quidditch sections are small numbers, so outside the
    engine (``fieldjudge/rules/``) a quidditch string like "2" is not taken for one."""
    if book == "quidditch" and not engine:
        return set()
    try:
        value = ast.literal_eval(literal)
    except (ValueError, SyntaxError):
        return set()
    if not isinstance(value, str):
        return set()
    if value in known:
        return {value}
    if book == "paintball":
        return {s for s in PB_DOTTED.findall(value) if s in known}
    return set()


def in_test_name(name: str, known: dict[str, str]) -> set[str]:
    """``test_23_03_30_01_x`` → {23.03, 30.01}; ``test_7_8_x`` → {7, 8}."""
    tokens = name.split("_")[1:]
    found: set[str] = set()
    i = 0
    while i < len(tokens) and tokens[i].isdigit():
        pair = f"{tokens[i]}.{tokens[i + 1]}" if i + 1 < len(tokens) else ""
        if pair in known and tokens[i + 1].isdigit():
            found.add(pair)
            i += 2
        elif tokens[i] in known:
            found.add(tokens[i])
            i += 1
        else:
            break
    return found


def _test_spans(tree: ast.AST) -> list[tuple[int, int, str]]:
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            end = node.end_lineno or node.lineno
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            spans.append((start, end, node.name))
    return spans


def scan_file(path: Path, rel: str, sections: dict[str, dict[str, str]]):
    """Yield (book, section, where) for every citation; ``where`` is the file, or
    ``file::test`` inside a test function."""
    book = book_of(rel)
    known = sections[book]
    source = path.read_text(encoding="utf-8")
    is_test = rel.startswith("tests/")
    spans: list[tuple[int, int, str]] = []
    if is_test:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            tree = None
        if tree is not None:
            spans = _test_spans(tree)
            for _s, _e, name in spans:
                for sec in in_test_name(name, known):
                    yield book, sec, f"{rel}::{name}"

    def where(line: int) -> str:
        for start, end, name in spans:
            if start <= line <= end:
                return f"{rel}::{name}"
        return rel

    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            found = in_comment(tok.string, book, known)
        elif tok.type == tokenize.STRING:
            found = in_string(tok.string, book, known, rel.startswith("fieldjudge/rules/"))
        else:
            continue
        for sec in found:
            yield book, sec, where(tok.start[0])


def collect(root: Path = ROOT):
    sections = load_sections(root)
    code: dict[tuple[str, str], set[str]] = defaultdict(set)
    tests: dict[tuple[str, str], set[str]] = defaultdict(set)
    for top in SCANNED:
        for path in sorted((root / top).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if "__pycache__" in rel:
                continue
            for book, sec, where in scan_file(path, rel, sections):
                (tests if rel.startswith("tests/") else code)[(book, sec)].add(where)
    return sections, code, tests


def _cell(items: set[str], strip: str = "") -> str:
    if not items:
        return "—"
    return "<br>".join(f"`{i.removeprefix(strip)}`" for i in sorted(items))


def render(root: Path = ROOT) -> str:
    sections, code, tests = collect(root)
    lines = [
        "# Rules coverage",
        "",
        "Generated by `python tools/rules_table.py` from `docs/rules-sections.txt` and the",
        "section citations in `fieldjudge/` and `tests/` (test names such as `test_23_03_…`,",
        "comments such as `# 20.04`, section strings of the rule messages). Do not edit by hand:",
        "`tests/test_rules_table.py` fails when this file is out of date.",
        "",
    ]
    for book in BOOKS:
        secs = sections[book]
        both = sum(1 for s in secs if code.get((book, s)) and tests.get((book, s)))
        none = [s for s in secs if not code.get((book, s)) and not tests.get((book, s))]
        lines += [
            f"## {TITLES[book]}",
            "",
            f"{len(secs)} sections: {both} cited by code and tests, {len(none)} by neither"
            + (f" ({', '.join(none)})." if none else "."),
            "",
            "| Section | About | Code | Tests |",
            "|---|---|---|---|",
        ]
        for sec, title in secs.items():
            c = _cell(code.get((book, sec), set()), "fieldjudge/")
            t = _cell(tests.get((book, sec), set()), "tests/")
            lines.append(f"| {sec} | {title} | {c} | {t} |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    text = render(ROOT)
    target = ROOT / TABLE_FILE
    if "--check" in argv:
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current != text:
            print(f"{TABLE_FILE} is out of date: run python tools/rules_table.py")
            return 1
        return 0
    target.write_text(text, encoding="utf-8")
    print(f"wrote {TABLE_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
