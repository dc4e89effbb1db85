"""Messages about the head judge's secret and keys (see ``rules/messages.py``)."""

from __future__ import annotations

from fieldjudge.rules.messages import Phrase, catalog


@catalog
def secret_too_short(minimum: int) -> Phrase:
    return Phrase(
        "The head judge's secret must be at least {minimum} characters long.",
        minimum=minimum,
    )


@catalog
def wrong_secret() -> Phrase:
    return Phrase("Wrong head judge's secret.")


@catalog
def wait_before_retry(seconds: int) -> Phrase:
    return Phrase(
        "Too many wrong secrets on this laptop: try again in {seconds} s.",
        seconds=seconds,
    )


@catalog
def key_not_pinned() -> Phrase:
    return Phrase(
        "This head judge's key is not the one the tournament registered: "
        "the stored secret may have been replaced.",
    )


@catalog
def damaged_head_judge_record(error: str) -> Phrase:
    return Phrase(
        "The stored head judge's key is damaged: {error}.",
        error=error,
    )


@catalog
def tournament_needs_secret() -> Phrase:
    return Phrase(
        "only the head judge signs the tournament's settings, teams and schedule, with his secret",
    )


@catalog
def registration_needs_secret() -> Phrase:
    return Phrase(
        "only the head judge registers a laptop's key, with his secret",
    )


@catalog
def tournament_decision_needs_secret() -> Phrase:
    return Phrase(
        "only the head judge decides a difference between two laptops' tournament files, "
        "with his secret",
    )


@catalog
def secret_common() -> Phrase:
    return Phrase(
        "This secret is among the most common passwords: someone with a copy of the folder"
        " tries those first. Choose a phrase of several words."
    )


@catalog
def secret_repeated() -> Phrase:
    return Phrase(
        "This secret repeats the same characters: it is guessed at once. Choose a phrase of"
        " several words."
    )


@catalog
def secret_sequence() -> Phrase:
    return Phrase(
        "This secret is a sequence (like 12345678 or abcdefgh) or a row of keys: it is"
        " guessed at once. Choose a phrase of several words."
    )


@catalog
def secret_guessable(guesses: str) -> Phrase:
    return Phrase(
        "This secret is too easy to guess (about {guesses} tries, a few days for one"
        " computer). Choose a longer phrase of several words.",
        guesses=guesses,
    )
