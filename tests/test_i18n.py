from __future__ import annotations

import sys
from pathlib import Path

from fieldjudge import i18n

sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))
from i18n_helpers import catalogs_from_po  # noqa: E402
from po_ids import parse_po  # noqa: E402


def test_po_parser_handles_continued_lines() -> None:
    po = 'msgid ""\nmsgstr "Header"\n\nmsgid "Save"\nmsgstr "Сохра"\n"нить"\n'
    assert parse_po(po) == {("", "Save"): "Сохранить"}


def test_po_context_is_looked_up_first_then_no_context(tmp_path) -> None:
    """Rule messages are filed under their section (msgctxt); a message whose section is
    chosen at run time is filed without context and still found."""
    po = (
        'msgid "x"\nmsgstr "без контекста"\n\n'
        'msgctxt "25.03"\nmsgid "x"\nmsgstr "в 25.03"\n\n'
        'msgid "untranslated"\nmsgstr ""\n\n'
        '#~ msgid "old"\n#~ msgstr "устарело"\n'
    )
    entries = parse_po(po)
    assert entries == {("", "x"): "без контекста", ("25.03", "x"): "в 25.03"}
    t = catalogs_from_po(po, tmp_path)
    assert t.pgettext("25.03", "x") == "в 25.03"
    assert t.pgettext("29.08", "x") == "без контекста"
    assert t.gettext("x") == "без контекста"
    assert t.pgettext("25.03", "untranslated") == "untranslated"
    assert t.gettext("old") == "old"


def test_russian_catalog_translates_the_shell() -> None:
    i18n.set_language("ru")
    try:
        assert i18n._("New tournament") == "Новый турнир"
        assert i18n._("Help") == "Справка"
    finally:
        i18n.set_language("en")
    assert i18n._("New tournament") == "New tournament"
    assert i18n.ru("Help") == "Справка"


def test_every_shipped_catalog_parses() -> None:
    for lang in i18n.LANGS:
        assert isinstance(i18n.load(lang).gettext("x"), str)


def test_po_escapes_match_python_string_rules() -> None:
    import ast

    for raw in [r'"say \"hi\""', r'"two\nlines"', r'"tab\there"', r'"back\\slash"', '"ёжик"']:
        po = f"msgid {raw}\nmsgstr {raw}\n"
        value = ast.literal_eval(raw)
        assert parse_po(po) == {("", value): value}
