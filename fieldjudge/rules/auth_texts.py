"""Bilingual messages about the head judge's secret and keys (see ``rules/messages.py``)."""

from __future__ import annotations

from fieldjudge.rules.messages import Phrase, catalog


@catalog
def secret_too_short(minimum: int) -> Phrase:
    return Phrase(
        "The head judge's secret must be at least {minimum} characters long.",
        "Секрет главного судьи должен быть не короче {minimum} символов.",
        minimum=minimum,
    )


@catalog
def wrong_secret() -> Phrase:
    return Phrase("Wrong head judge's secret.", "Неверный секрет главного судьи.")


@catalog
def wait_before_retry(seconds: int) -> Phrase:
    return Phrase(
        "Too many wrong secrets on this laptop: try again in {seconds} s.",
        "Слишком много неверных попыток на этом ноутбуке: повторите через {seconds} с.",
        seconds=seconds,
    )


@catalog
def key_not_pinned() -> Phrase:
    return Phrase(
        "This head judge's key is not the one the tournament registered: "
        "the stored secret may have been replaced.",
        "Этот ключ главного судьи не тот, что зарегистрирован в турнире: "
        "сохранённый секрет мог быть подменён.",
    )


@catalog
def damaged_head_judge_record(error: str) -> Phrase:
    return Phrase(
        "The stored head judge's key is damaged: {error}.",
        "Сохранённый ключ главного судьи повреждён: {error}.",
        error=error,
    )


@catalog
def tournament_needs_secret() -> Phrase:
    return Phrase(
        "only the head judge signs the tournament's settings, teams and schedule, with his secret",
        "настройки, команды и расписание турнира подписывает только главный судья своим секретом",
    )


@catalog
def registration_needs_secret() -> Phrase:
    return Phrase(
        "only the head judge registers a laptop's key, with his secret",
        "ключ ноутбука регистрирует только главный судья своим секретом",
    )


@catalog
def tournament_decision_needs_secret() -> Phrase:
    return Phrase(
        "only the head judge decides a difference between two laptops' tournament files, "
        "with his secret",
        "расхождение между файлами турнира двух ноутбуков решает только главный судья своим "
        "секретом",
    )
