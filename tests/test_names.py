"""Team and player names (fieldjudge.rules.names): no control, NUL or bidi characters, a
length the screens can show; messages in both languages."""

from __future__ import annotations

import unicodedata
from datetime import date

import pytest
from demo_template import open_demo_copy
from hypothesis import given
from hypothesis import strategies as st

from fieldjudge.i18n import rule_text
from fieldjudge.rules.names import (
    BIDI_CONTROLS,
    MAX_NAME_CHARS,
    clean_name,
    confusable_with,
    name_problem,
)

DAY = date(2026, 6, 1)

BIDI = [0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]


def test_good_names_pass() -> None:
    for name in ("Волки", "Ёжики-2", "St. Petersburg Bears", "Иван Петров", "Я" * 40, "Ø"):
        assert name_problem(name) is None, name


@pytest.mark.parametrize(
    "code", [0x00, 0x09, 0x0A, 0x0D, 0x1B, 0x7F, 0x85, 0x9F, 0x2028, 0x2029, *BIDI]
)
def test_every_forbidden_character_is_named_with_its_position(code: int) -> None:
    problem = name_problem("Ab" + chr(code) + "c")
    assert problem is not None
    name = unicodedata.name(chr(code), "CONTROL")
    assert rule_text(problem, lang="en") == (
        f"contains the invisible character U+{code:04X} {name} at position 3"
    )
    assert (
        rule_text(problem, lang="ru")
        == f"содержит невидимый символ U+{code:04X} {name} в позиции 3"
    )


def test_a_lone_surrogate_is_refused() -> None:
    assert rule_text(name_problem("B\ud800"), lang="en") == (
        "contains the invisible character U+D800 SURROGATE at position 2"
    )


def test_bidi_set_is_exactly_the_listed_characters() -> None:
    assert sorted(map(ord, BIDI_CONTROLS)) == BIDI


def test_length_limit_and_empty() -> None:
    assert MAX_NAME_CHARS == 40
    assert rule_text(name_problem("Я" * 41), lang="ru") == (
        "слишком длинное: 41 зн. (на экран помещается не больше 40)"
    )
    assert rule_text(name_problem(""), lang="en") == "is empty"
    assert rule_text(name_problem("abc", limit=2), lang="en") == (
        "is 3 characters long, at most 2 fit on the screens"
    )


@given(st.text(max_size=60))
def test_any_text_gets_an_answer_and_an_accepted_name_is_clean(text: str) -> None:
    problem = name_problem(text)
    if problem is None:
        assert 0 < len(text) <= MAX_NAME_CHARS
        assert not any(unicodedata.category(c) == "Cc" or c in BIDI_CONTROLS for c in text)
        assert "\u2028" not in text and "\u2029" not in text
        assert "[" not in text and "]" not in text


def test_square_brackets_are_refused_round_ones_pass() -> None:
    """The screens read [ ] as formatting: a team called "[/]" could not be shown."""
    assert name_problem("Волки (СПб)") is None
    assert rule_text(name_problem("[/]"), lang="en") == (
        "contains the square bracket [ at position 1: the screens read square brackets as"
        " formatting; use round brackets ( )"
    )
    assert rule_text(name_problem("Волки [СПб]"), lang="ru") == (
        "содержит квадратную скобку [ в позиции 7: экраны читают квадратные скобки как"
        " оформление; используйте круглые ( )"
    )
    assert name_problem("Волки ]") is not None


def test_a_team_called_with_square_brackets_is_refused_by_the_service(tmp_path) -> None:
    from fieldjudge.store import Refused

    t = open_demo_copy(tmp_path / "cup", DAY)
    before = len(t.teams())
    with pytest.raises(Refused, match=r"square bracket \[ at position 1"):
        t.add_team("[/]")
    assert len(t.teams()) == before
    t.close()


# -- issue 21, defect 9: names that look the same are different teams ---------------------

INVISIBLE = {
    0x200B: "ZERO WIDTH SPACE",
    0x200D: "ZERO WIDTH JOINER",
    0x00AD: "SOFT HYPHEN",
    0x00A0: "NO-BREAK SPACE",
    0xFE0F: "VARIATION SELECTOR-16",
    0xE0041: "TAG LATIN CAPITAL LETTER A",
    0x2060: "WORD JOINER",
    0xFEFF: "ZERO WIDTH NO-BREAK SPACE",
    0x3000: "IDEOGRAPHIC SPACE",
    0x034F: "COMBINING GRAPHEME JOINER",
    0x3164: "HANGUL FILLER",
}


@pytest.mark.parametrize("code", sorted(INVISIBLE))
def test_invisible_and_format_characters_are_refused(code: int) -> None:
    """Cf, Zs other than the space, variation selectors, tags: a team "Вол<ZWSP>ки" would
    print exactly as "Волки"."""
    problem = name_problem("Вол" + chr(code) + "ки")
    assert problem is not None
    assert rule_text(problem, lang="en") == (
        f"contains the invisible character U+{code:04X} {INVISIBLE[code]} at position 4"
    )
    assert rule_text(problem, lang="ru").startswith("содержит невидимый символ")


def test_the_plain_space_and_combining_accents_pass() -> None:
    assert name_problem("Белые медведи") is None
    assert name_problem(unicodedata.normalize("NFD", "Йод")) is None  # the store makes NFC


def test_clean_name_is_nfc_and_trimmed() -> None:
    assert clean_name("  " + unicodedata.normalize("NFD", "Йод") + " ") == "Йод"


@pytest.mark.parametrize(
    ("new", "existing"),
    [
        ("Oрлы", "Орлы"),  # Latin O
        ("Bолки", "Волки"),  # Latin B
        ("Team A", "Team А"),  # Cyrillic А
        ("Team l", "Team 1"),
        ("Team I", "Team l"),
        ("Ястребы", "ЯСТРЕБЫ"),
        ("Пума  2", "Пума 2"),
        ("Ястребы\u2013Юг", "Ястребы-Юг"),
        ("ΑΒΓ", "ABΓ"),  # Greek Alpha and Beta
    ],
)
def test_confusable_names_are_found(new: str, existing: str) -> None:
    assert confusable_with(new, ["Медведи", existing]) == existing


@pytest.mark.parametrize(
    ("new", "existing"), [("Team 1", "Team 2"), ("Волки", "Волга"), ("Rams", "Pams")]
)
def test_different_names_are_not_confusable(new: str, existing: str) -> None:
    assert confusable_with(new, [existing]) is None


@pytest.fixture
def demo(tmp_path):
    t = open_demo_copy(tmp_path / "cup", DAY)
    yield t
    t.close()


@pytest.mark.parametrize(
    "variant",
    [
        "Вол\u200bки",
        "Вол\u200dки",
        "Вол\u00adки",
        "Вол\u00a0ки",
        "Волки\ufe0f",
        "Волки\U000e0041",
    ],
)
def test_the_service_refuses_an_invisible_twin_of_a_team(demo, variant: str) -> None:
    """Issue 21 (9): each of these was accepted as a new team printing as the demo's
    "Волки"."""
    from fieldjudge.store import Refused

    before = len(demo.teams())
    with pytest.raises(Refused, match="invisible character"):
        demo.add_team(variant)
    assert len(demo.teams()) == before


def test_nfd_and_nfc_are_one_team(demo) -> None:
    from fieldjudge.store import Refused

    demo.add_team("Йод")
    with pytest.raises(Refused, match="already exists"):
        demo.add_team(unicodedata.normalize("NFD", "Йод"))
    nfd = unicodedata.normalize("NFD", "Йогурт")
    team = demo.add_team(nfd)
    assert team["name"] == "Йогурт"  # stored in NFC


def test_the_service_refuses_a_confusable_name_naming_the_team_in_both_languages(
    demo,
) -> None:
    from fieldjudge.i18n import set_language
    from fieldjudge.store import Refused

    demo.add_team("Орлы")
    before = len(demo.teams())
    try:
        set_language("en")
        with pytest.raises(Refused) as info:
            demo.add_team("Oрлы")  # Latin O
        assert str(info.value) == ("team name 'Oрлы' looks the same as the existing team 'Орлы'")
        set_language("ru")
        with pytest.raises(Refused) as info:
            demo.add_team("Oрлы")
        assert str(info.value) == (
            "название 'Oрлы' выглядит так же, как у уже существующей команды 'Орлы'"
        )
    finally:
        set_language("en")
    assert len(demo.teams()) == before
