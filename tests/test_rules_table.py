"""docs/RULES-COVERAGE.md is generated from the sources (tools/rules_table.py): the committed
table must be what the sources give, and every section of both rulebooks is listed."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("rules_table", ROOT / "tools" / "rules_table.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def table() -> str:
    """The table the sources give, rendered once for the module (it reads every test)."""
    return _tool().render(ROOT)


def test_committed_coverage_table_is_up_to_date(table):
    committed = (ROOT / "docs" / "RULES-COVERAGE.md").read_text(encoding="utf-8")
    assert committed == table, "run: python tools/rules_table.py"


def test_every_section_of_both_rulebooks_has_a_row(table):
    sections = _tool().load_sections(ROOT)
    assert len(sections["paintball"]) == 62 and len(sections["quidditch"]) == 20
    for book, secs in sections.items():
        for sec in secs:
            assert f"\n| {sec} | " in table, (book, sec)


def test_section_citations_are_read_from_test_names_comments_and_strings():
    tool = _tool()
    pb = tool.load_sections(ROOT)["paintball"]
    q = tool.load_sections(ROOT)["quidditch"]
    assert tool.in_test_name("test_23_03_30_01_blue_wiped_out", pb) == {"23.03", "30.01"}
    assert tool.in_test_name("test_19_05_140_balls", pb) == {"19.05"}
    assert tool.in_test_name("test_11_7_any_three", q) == {"11.7"}
    assert tool.in_test_name("test_7_8_partner", q) == {"7", "8"}
    assert tool.in_test_name("test_seed_revealed", q) == set()
    assert tool.in_comment("# 22.04 / 23.02: the spare goes up", "paintball", pb) == {
        "22.04",
        "23.02",
    }
    assert tool.in_comment("# 30 % of the time", "paintball", pb) == set()
    assert tool.in_comment("# 9: the snitch", "quidditch", q) == {"9"}
    assert tool.in_comment("# passes resolved within the round (0, 5)", "quidditch", q) == {
        "0",
        "5",
    }
    assert tool.in_string('"20.03"', "paintball", pb, False) == {"20.03"}
    assert tool.in_string('"2"', "quidditch", q, False) == set()  # a screen's "2" is no section
    assert tool.in_string('"11.4"', "quidditch", q, True) == {"11.4"}


def test_issue_11_rows_name_their_engine_tests(table):
    row = next(line for line in table.splitlines() if line.startswith("| 23.03 |"))
    assert "test_rules_fidelity_paintball.py::test_23_03_30_01_blue_wiped_out_at_0_50" in row
    row = next(line for line in table.splitlines() if line.startswith("| 11.7 |"))
    assert "test_rules_fidelity_quidditch.py::test_11_7_non_game_warnings_count" in row
