"""fieldjudge/rules is pure (DESIGN.md "Layers"): no Textual, no TinyDB, no I/O, no clock,
no global randomness."""

from __future__ import annotations

import ast
from pathlib import Path

import fieldjudge.rules

FORBIDDEN = {
    "textual",
    "tinydb",
    "serial",
    "os",
    "time",
    "random",
    "socket",
    "pathlib",
    "shutil",
    "subprocess",
    "threading",
    "fieldjudge.store",
    "fieldjudge.screens",
    "fieldjudge.devices",
    "fieldjudge.app",
}
RULES = Path(fieldjudge.rules.__file__).parent


def _imports(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_rules_modules_import_nothing_impure() -> None:
    offenders = []
    files = sorted(RULES.rglob("*.py"))
    assert len(files) >= 3
    for f in files:
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for name in _imports(tree):
            if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN):
                offenders.append(f"{f.relative_to(RULES)}: import {name}")
        text = f.read_text(encoding="utf-8")
        for clock in ("datetime.now(", ".utcnow(", "date.today("):
            if clock in text:
                offenders.append(f"{f.relative_to(RULES)}: reads the clock ({clock})")
    assert offenders == []
