from __future__ import annotations

from fieldjudge import i18n


def test_po_parser_handles_continued_lines() -> None:
    po = 'msgid ""\nmsgstr "Header"\n\nmsgid "Save"\nmsgstr "Сохра"\n"нить"\n'
    assert i18n.parse_po(po) == {"Save": "Сохранить"}


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
        assert i18n.parse_po(po) == {value: value}
