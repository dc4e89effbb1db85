"""Refuse a weak head-judge secret when it is set (a new tournament or a new secret).

A copy of the tournament folder lets anyone guess the secret offline at the scrypt's cost
(about 0.25 s a try on one core), so a secret from the top of a password list, a repeated
character or a sequence falls in minutes. The estimate is zxcvbn's (Dropbox's estimator:
dictionaries of the most common passwords, names and words, keyboard rows, repeats,
sequences, dates), in its Rust implementation, whose lists are built into the library
rather than loaded at import by every process that could set a secret (the Python port
cost each start of the app 14 MB and about 30 ms, and refused secrets longer than 72
characters with an exception). It knows no Russian, so the commonest Russian passwords and
keyboard rows (``йцукен``) are given to it as user inputs. A secret is refused
below 10**8 estimated guesses (zxcvbn's score 3, about a year of one core at 0.25 s a try),
with the reason in the UI language. Only a secret being *set* is checked: an existing
tournament's secret always unlocks, however weak.
"""

from __future__ import annotations

from zxcvbn_rs_py import Warning, zxcvbn

from fieldjudge.rules.messages import Phrase, phrase

#: the fewest estimated guesses a new secret needs (zxcvbn's score 3)
MIN_GUESSES = 10**8

#: common Russian passwords and keyboard rows zxcvbn's English lists do not hold
RUSSIAN_COMMON = (
    "пароль",
    "йцукен",
    "йцукенг",
    "фыва",
    "фывапролджэ",
    "ячсмить",
    "привет",
    "любовь",
    "солнышко",
    "наташа",
    "максим",
    "андрей",
    "россия",
    "москва",
    "турнир",
    "пейнтбол",
    "квиддич",
    "судья",
    "админ",
    "администратор",
)

# zxcvbn reads at most this many characters (longer inputs cost it quadratic time); a
# longer secret is judged by its start, which only underestimates it
_MAX_CHECKED = 100

#: the message that says why a weak secret is refused, by zxcvbn's warning (the pattern it
#: found); tuples, as the binding's warnings compare equal but do not hash
_WHY = (
    (
        phrase("secret_common"),
        (
            Warning.ThisIsATop10Password,
            Warning.ThisIsATop100Password,
            Warning.ThisIsACommonPassword,
            Warning.ThisIsSimilarToACommonlyUsedPassword,
            Warning.AWordByItselfIsEasyToGuess,
            Warning.NamesAndSurnamesByThemselvesAreEasyToGuess,
            Warning.CommonNamesAndSurnamesAreEasyToGuess,
        ),
    ),
    (
        phrase("secret_repeated"),
        (
            Warning.RepeatsLikeAaaAreEasyToGuess,
            Warning.RepeatsLikeAbcAbcAreOnlySlightlyHarderToGuess,
        ),
    ),
    (
        phrase("secret_sequence"),
        (
            Warning.SequencesLikeAbcAreEasyToGuess,
            Warning.StraightRowsOfKeysAreEasyToGuess,
            Warning.ShortKeyboardPatternsAreEasyToGuess,
        ),
    ),
)


def secret_weakness(secret: str, context: tuple[str, ...] = ()) -> Phrase | None:
    """None when ``secret`` is strong enough to be set, else why not. ``context`` holds
    words an attacker knows too (the tournament's and the head judge's names)."""
    words = [w for w in (*RUSSIAN_COMMON, *context) if w]
    checked = secret[:_MAX_CHECKED]
    result = zxcvbn(checked, user_inputs=words)
    if result.guesses >= MIN_GUESSES:
        return None
    warning = result.feedback.warning if result.feedback is not None else None
    for why, warnings in _WHY:
        if warning in warnings:
            return why
    # zxcvbn warns of nothing for a word of the user inputs (``пароль123``): one of the
    # common Russian passwords, or a name an attacker knows, is in it
    lowered = checked.casefold()
    if any(w.casefold() in lowered for w in words):
        return phrase("secret_common")
    return phrase("secret_guessable", guesses=f"{int(result.guesses):,}".replace(",", " "))
