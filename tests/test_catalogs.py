"""Every UI string has a Russian translation: the judges are Russian speakers."""

from __future__ import annotations

import gettext
import shutil
import sys
from pathlib import Path

import polib
import pytest

import fieldjudge
from fieldjudge import i18n

sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))
from i18n_helpers import catalog_file, compiled_entries, has  # noqa: E402
from po_ids import ids_in, parse_po, plural_ids_in  # noqa: E402

PKG = Path(fieldjudge.__file__).parent


def test_every_message_id_has_a_russian_translation() -> None:
    ru = i18n.load("ru")
    missing = {}
    for f in sorted(PKG.rglob("*.py")):
        for msgid in ids_in(str(f)):
            if not has(ru, msgid):
                missing.setdefault(str(f.relative_to(PKG)), []).append(msgid)
    assert missing == {}


def test_every_count_has_the_three_russian_plural_forms() -> None:
    """``ngettext`` ids (issue 25): 1 игра, 3 игры, 5 игр; each catalog holding a plural
    entry declares the Russian ``Plural-Forms``."""
    ru = i18n.load("ru")
    missing = []
    calls = [c for f in sorted(PKG.rglob("*.py")) for c in plural_ids_in(f)]
    assert len(calls) >= 4
    for singular, plural in calls:
        forms = {ru.ngettext(singular, plural, n) for n in (1, 3, 5)}
        if len(forms) < 2 or forms & {singular, plural}:  # «из 3 игр», «из 5 игр»: alike
            missing.append(singular)
    assert missing == []
    assert "Plural-Forms: nplurals=3;" in catalog_file("ru").read_text(encoding="utf-8")


def test_translations_keep_their_placeholders() -> None:
    import string

    def fields(template: str) -> set[str]:  # {name}, {fps:g}, {etype!r}: the names
        return {f for _t, f, _s, _c in string.Formatter().parse(template) if f is not None}

    ru = compiled_entries("ru")
    wrong = {k: v for k, v in ru.items() if fields(k[1]) != fields(v)}
    assert wrong == {}


def test_each_language_has_one_catalog_and_no_message_twice() -> None:
    """One gettext domain per language (issue 23): a message the code uses is filed once,
    a word needing two translations gets a msgctxt; a second entry for the same
    (msgctxt, msgid) would be silently dropped by the compiler."""
    folder = i18n.LOCALE_DIR / "ru" / "LC_MESSAGES"
    assert sorted(p.name for p in folder.iterdir()) == ["fieldjudge.mo", "fieldjudge.po"]
    assert not (i18n.LOCALE_DIR / "en").exists()  # English ids: nothing to translate
    keys = [(e.msgctxt, e.msgid) for e in polib.pofile(str(catalog_file("ru")))]
    assert len(keys) >= 1750
    assert [k for k in set(keys) if keys.count(k) > 1] == []


def test_every_compiled_catalog_is_up_to_date_with_its_po() -> None:
    """The app reads the ``.mo`` files: a ``.po`` edited without running
    ``python tools/compile_catalogs.py`` would not show its change."""
    from compile_catalogs import compiled, orphans, stale

    pos = sorted(i18n.LOCALE_DIR.glob("*/LC_MESSAGES/*.po"))
    assert pos == [catalog_file("ru")]
    assert stale() == []
    assert orphans() == []
    for po in pos:  # the comparison itself: byte for byte what polib compiles
        assert po.with_suffix(".mo").read_bytes() == compiled(po)


def test_a_po_edited_without_compiling_is_found_stale(tmp_path: Path) -> None:
    from compile_catalogs import main, orphans, stale

    folder = tmp_path / "ru" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    po = folder / "fieldjudge.po"
    po.write_text('msgid ""\nmsgstr ""\n\nmsgid "Save"\nmsgstr "Сохранить"\n', encoding="utf-8")
    assert stale(tmp_path) == [po]  # no .mo yet
    (folder / "fieldjudge.mo").write_bytes(b"")
    assert stale(tmp_path) == [po]
    assert main(["--check"], tmp_path) == 1  # lists it, compiles nothing
    assert (folder / "fieldjudge.mo").read_bytes() == b""
    assert main([], tmp_path) == 0
    assert stale(tmp_path) == []
    with (folder / "fieldjudge.mo").open("rb") as mo:
        assert i18n.Catalogs(gettext.GNUTranslations(mo)).gettext("Save") == "Сохранить"
    po.write_text(po.read_text(encoding="utf-8").replace("Сохранить", "Записать"), "utf-8")
    assert stale(tmp_path) == [po]
    (tmp_path / "en" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "en" / "LC_MESSAGES" / "fieldjudge.mo").write_bytes(b"")
    (folder / "game.po").write_text('msgid "Hit"\nmsgstr "Попадание"\n', "utf-8")
    expected = [tmp_path / "en" / "LC_MESSAGES" / "fieldjudge.mo", folder / "game.po"]
    assert orphans(tmp_path) == expected
    # a .mo with no .po, a catalog of another domain: named, never loaded silently
    assert main([], tmp_path) == 1


def test_the_app_reads_the_compiled_catalogs_as_the_po_files_say() -> None:
    """Loading the ``.mo`` files gives exactly the translated entries of the ``.po`` files
    (contexts included: a rule message filed under its section)."""
    for lang in i18n.LANGS:
        po = catalog_file(lang)
        expected = parse_po(po) if po.exists() else {}
        assert compiled_entries(lang) == expected
        i18n.load.cache_clear()
        app = i18n.load(lang)  # and the app finds each of them as the .po says
        for (ctx, msgid), text in expected.items():
            assert (app.pgettext(ctx, msgid) if ctx else app.gettext(msgid)) == text
    ru = i18n.load("ru")
    assert ru.pgettext("19.05", "slap test not done") == "реактив не проверен"
    assert has(ru, "slap test not done", "19.05") and not has(ru, "slap test not done")
    assert ru.pgettext("29.08", "disqualified (20.05)") == "дисквалифицирован (20.05)"


def test_every_catalog_entry_is_a_text_the_code_shows() -> None:
    """No dead entry (issue 23): each msgid of the catalog is a string written in the code,
    ours or that of click and Textual (their own words, translated through the catalog);
    one filed under a section is a message the code builds under it. ``tools/po_ids.py
    --extract`` makes the others obsolete."""
    from po_ids import dead

    assert len(parse_po(catalog_file("ru"))) >= 1750
    assert [(e.msgctxt, e.msgid) for e in dead(catalog_file("ru"))] == []


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext not installed")
def test_extraction_finds_every_id_the_code_marks_already_in_the_catalog(tmp_path) -> None:
    """``tools/po_ids.py --extract``: xgettext's template of the code and the message
    tables' (rules/texts.py) folded into the catalog add nothing to translate; an id new to
    the code or to a table would be added, untranslated."""
    from po_ids import fold, tables_pot, xgettext

    pot, catalog = tmp_path / "fieldjudge.pot", tmp_path / "fieldjudge.po"
    tables = tmp_path / "tables.pot"
    xgettext(pot)
    tables_pot(tables)
    assert len(polib.pofile(str(tables))) > 150
    catalog.write_bytes(catalog_file("ru").read_bytes())
    assert fold(catalog, [pot, tables]) == []
    assert parse_po(catalog) == parse_po(catalog_file("ru"))
    assert [e.msgid for e in polib.pofile(str(catalog)).untranslated_entries()] == []
    assert len(polib.pofile(str(pot))) > 1000
    code = tmp_path / "pkg"
    code.mkdir()
    (code / "m.py").write_text(
        '_("Brand new")\nRuleMessage("25.03", "New rule {player}")\n'
        'RULES = {"new": ("20.02", "New table rule"), "any": (None, "Run-time section")}\n'
    )
    xgettext(pot, code)
    tables_pot(tables, code)
    assert fold(catalog, [pot, tables]) == []
    todo = {(e.msgctxt, e.msgid) for e in polib.pofile(str(catalog)).untranslated_entries()}
    assert todo == {
        (None, "Brand new"),
        ("25.03", "New rule {player}"),
        ("20.02", "New table rule"),
        (None, "Run-time section"),
    }


def test_folding_a_catalog_keeps_every_translation_and_names_a_collision(tmp_path) -> None:
    """``tools/po_ids.py --fold``: a catalog of a former per-area domain joins the one
    catalog; the same (context, id) translated two ways stops it, nothing written."""
    from po_ids import fold

    head = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    catalog, game = tmp_path / "fieldjudge.po", tmp_path / "game.po"
    catalog.write_text(
        head + 'msgid "Help"\nmsgstr "Справка"\n\nmsgid "Out"\nmsgstr ""\n\n'
        '#~ msgid "Back"\n#~ msgstr "Назад"\n'
    )
    game.write_text(
        head + 'msgid "Out"\nmsgstr "Выбыл"\n\nmsgctxt "26"\nmsgid "hit"\nmsgstr "поражение"\n'
        'msgid "Help"\nmsgstr "Справка"\n\nmsgid "Later"\nmsgstr ""\n\nmsgid "Back"\nmsgstr ""\n'
    )
    assert fold(catalog, [game]) == []
    assert parse_po(catalog) == {
        ("", "Help"): "Справка",
        ("", "Out"): "Выбыл",  # an untranslated entry filled
        ("26", "hit"): "поражение",
        ("", "Back"): "Назад",  # an id back in the code gets its old translation back
    }
    assert "Later" in catalog.read_text()  # to translate
    game.write_text(head + 'msgid "Help"\nmsgstr "Помощь"\n')
    before = catalog.read_text()
    assert fold(catalog, [game]) == ["('', 'Help'): 'Справка' / game.po 'Помощь'"]
    assert catalog.read_text() == before
