"""fieldjudge/rules is pure (DESIGN.md "Layers"): time comes in as an argument. What it
imports is checked by the import-linter contracts (pyproject.toml); that it never reads
the clock through a module it may import (``datetime``) is checked here."""

from __future__ import annotations

from pathlib import Path

import fieldjudge.rules

RULES = Path(fieldjudge.rules.__file__).parent


def test_rules_modules_never_read_the_clock() -> None:
    offenders = []
    files = sorted(RULES.rglob("*.py"))
    assert len(files) >= 3
    for f in files:
        text = f.read_text(encoding="utf-8")
        for clock in ("datetime.now(", ".utcnow(", "date.today("):
            if clock in text:
                offenders.append(f"{f.relative_to(RULES)}: reads the clock ({clock})")
    assert offenders == []
