"""One way to translate (issue 9, item 5): the rules engines' messages carry only English
templates, their section (the gettext context) and parameters; their Russian lives in the
one catalog ``locale/ru/LC_MESSAGES/fieldjudge.po`` with the UI's, read by the same lookup."""

from __future__ import annotations

import ast
import copy
import pickle
import re
import sys
from pathlib import Path

import fieldjudge
from fieldjudge import i18n
from fieldjudge.i18n import rule_text
from fieldjudge.rules.messages import Phrase, Player, RuleMessage, phrase, rule, without_section
from fieldjudge.rules.paintball.reasons import ALL_REASONS

sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))
from i18n_helpers import catalog_file, catalogs_from_po, has  # noqa: E402
from po_ids import parse_po, rule_ids, wordless  # noqa: E402

PKG = Path(fieldjudge.__file__).parent
RULES_PO = catalog_file("ru")
CYRILLIC = re.compile("[А-Яа-яЁё]")


def test_every_rule_message_is_in_the_catalog_and_every_entry_is_used():
    ids = rule_ids(PKG)  # (section or "", English template) of every constructor call
    filed = parse_po(RULES_PO)
    assert len(ids) >= 190 and len(filed) >= 190
    missing = [k for k in ids if k not in filed and ("", k[1]) not in filed]
    # an entry filed under a section (or another context) is one the code still asks for
    dead = [k for k in filed if k[0] and k not in ids and not wordless(k[1])]
    assert missing == []
    assert dead == []


def test_a_message_is_filed_under_its_section():
    filed = parse_po(RULES_PO)
    neutral = "{player} is neutral and cannot be eliminated or act until the check ends"
    assert filed[("25.03", neutral)].startswith("{player} объявлен нейтральным")
    assert ("", neutral) not in filed
    # the same English word as a UI label ("hit" = "поражён") and as a reason (26)
    assert filed[("26", "hit")] == "поражение"
    assert i18n.load("ru").gettext("hit") == "поражён"


def test_message_catalog_modules_hold_no_russian_text():
    """A translator edits .po files only: no module that builds rule messages keeps a
    Russian string (docstrings and comments aside)."""
    found = {}
    for f in sorted((PKG / "rules").rglob("*.py")):
        text = f.read_text(encoding="utf-8")
        if "fieldjudge.rules.messages import" not in text:
            continue
        tree = ast.parse(text)
        docs = {
            id(n.body[0].value)
            for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.FunctionDef | ast.ClassDef)
            and n.body
            and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)
        }
        russian = [
            n.value
            for n in ast.walk(tree)
            if isinstance(n, ast.Constant)
            and isinstance(n.value, str)
            and id(n) not in docs
            and CYRILLIC.search(n.value)
        ]
        if russian:
            found[str(f.relative_to(PKG))] = russian
    assert found == {}


def test_every_elimination_reason_is_translated_under_its_section():
    ru = i18n.load("ru")
    for key, reason in ALL_REASONS.items():
        assert reason.text == reason.en and reason.text.context == reason.section
        assert has(ru, reason.en, reason.section) or has(ru, reason.en), key
        assert CYRILLIC.search(i18n.reason_label(key, "ru")), key
        assert i18n.reason_label(key, "en") == reason.en
    assert i18n.reason_label("hit", "ru") == "поражение"
    assert i18n.reason_label("group_removal", "ru") == "групповое удаление 1+1"
    assert i18n.reason_label("bogus", "ru") == "bogus"


def test_a_section_chosen_at_run_time_is_found_without_context():
    msg = rule("no_open_check", "23.02", player=Player("t1", 4), what=phrase("check_neutral"))
    assert msg == "23.02: t1 #4 has no open neutral check"
    assert rule_text(msg, {"t1": "Волки"}, lang="ru") == (
        "23.02: у игрока Волки #4 нет незавершённой нейтральной проверки"
    )


def test_a_translation_edited_in_the_po_text_changes_the_message_without_code(tmp_path):
    po = (
        'msgctxt "25.03"\n'
        'msgid "{player} is neutral and cannot be eliminated or act until the check ends"\n'
        'msgstr "{player} — нейтрал"\n'
    )
    tr = catalogs_from_po(po, tmp_path)
    msg = rule("neutral_player", player=Player("t1", 7))
    assert msg.render(tr.pgettext, {"t1": "Волки"}) == "25.03: Волки #7 — нейтрал"
    assert msg.render() == str(msg)  # English: no catalog needed


def test_nested_phrases_keep_their_context_through_pickle_and_copy():
    verdict = rule("chrono_over_limit", fps=305.0, limit=300.0)
    msg = rule("hang_rejected_chrono", "20.03", verdict=without_section(verdict))  # no section
    inner = msg.params["verdict"]
    assert isinstance(inner, Phrase) and not isinstance(inner, RuleMessage)
    assert inner.context == "20.03" and inner.section == ""
    ru = rule_text(msg, lang="ru")
    assert "305 фпс" in ru and "fps" not in ru
    for twin in (pickle.loads(pickle.dumps(msg)), copy.deepcopy(msg)):
        assert twin == msg and rule_text(twin, lang="ru") == ru
        assert twin.params["verdict"].context == "20.03"
