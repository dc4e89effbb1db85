"""Refuse a weak head-judge secret when it is set (a new tournament or a new secret).

A copy of the tournament folder lets anyone guess the secret offline at the scrypt's cost
(about 0.25 s a try on one core), so a secret from the top of a password list, a repeated
character or a sequence falls in minutes. The estimate is zxcvbn's (the maintained Python
port of Dropbox's estimator: dictionaries of the most common passwords, names and words,
keyboard rows, repeats, sequences, dates); it knows no Russian, so the commonest Russian
passwords and keyboard rows (``йцукен``) are given to it as user inputs. A secret is refused
below 10**8 estimated guesses (zxcvbn's score 3, about a year of one core at 0.25 s a try),
with the reason in the UI language. Only a secret being *set* is checked: an existing
tournament's secret always unlocks, however weak.
"""

from __future__ import annotations

from zxcvbn import zxcvbn

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


def secret_weakness(secret: str, context: tuple[str, ...] = ()) -> Phrase | None:
    """None when ``secret`` is strong enough to be set, else why not. ``context`` holds
    words an attacker knows too (the tournament's and the head judge's names)."""
    words = [w for w in (*RUSSIAN_COMMON, *context) if w]
    result = zxcvbn(secret[:_MAX_CHECKED], user_inputs=words)
    if result["guesses"] >= MIN_GUESSES:
        return None
    patterns = {m["pattern"] for m in result["sequence"]}
    whole = result["sequence"][0] if len(result["sequence"]) == 1 else None
    if whole is not None and whole["pattern"] == "repeat":
        return phrase("secret_repeated")
    if whole is not None and whole["pattern"] in ("sequence", "spatial"):
        return phrase("secret_sequence")
    if "dictionary" in patterns:
        return phrase("secret_common")
    if "repeat" in patterns:
        return phrase("secret_repeated")
    if patterns & {"sequence", "spatial"}:
        return phrase("secret_sequence")
    return phrase("secret_guessable", guesses=f"{int(result['guesses']):,}".replace(",", " "))
