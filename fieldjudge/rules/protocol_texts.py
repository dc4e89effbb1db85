"""The protocol's refusals and notes (31, 32.03) in English and Russian. Constructors only:
the decisions are in ``protocol.py``."""

from __future__ import annotations

from typing import Any

from fieldjudge.rules.messages import Phrase, RuleMessage, Team, catalog

R = RuleMessage


@catalog
def locked() -> RuleMessage:
    return R(
        "31",
        "the protocol is signed by both captains and locked; only the head judge can correct "
        "a wrong total",
        "протокол подписан обоими капитанами и закрыт; неверную сумму очков может исправить "
        "только Главный судья",
    )


@catalog
def submit_first() -> RuleMessage:
    return R(
        "31",
        "the senior judge submits the protocol before the captains sign",
        "капитаны подписывают протокол после того, как его заполнит Старший судья",
    )


@catalog
def team_not_playing(team: Any) -> RuleMessage:
    return R(
        "31",
        "{team!r} does not play this game",
        "команда «{team}» не играет в этой игре",
        team=Team(str(team)),
    )


@catalog
def already_answered() -> RuleMessage:
    return R(
        "31",
        "this team's captain has already signed or refused",
        "капитан этой команды уже подписал протокол или отказался",
    )


@catalog
def name_to_sign() -> RuleMessage:
    return R("31", "the captain types his name to sign", "для подписи капитан вводит своё имя")


@catalog
def refusal_reason() -> RuleMessage:
    return R(
        "31",
        "the senior judge records the reason of the refusal",
        "Старший судья записывает причину отказа",
    )


@catalog
def correct_before_answers() -> RuleMessage:
    return R(
        "31",
        "until both captains have answered, the senior judge corrects the protocol and "
        "submits it again",
        "пока оба капитана не ответили, протокол исправляет Старший судья и подаёт заново",
    )


@catalog
def correction_reason() -> RuleMessage:
    return R("31", "a correction of the total needs a reason", "исправлению суммы нужна причина")


@catalog
def correction_points() -> RuleMessage:
    return R(
        "31",
        "the corrected total needs whole game points for both teams",
        "в исправленной сумме нужны целые очки за игру обеих команд",
    )


@catalog
def correction_old_total() -> RuleMessage:
    return R(
        "31", "the correction must name the old total", "в исправлении указывают прежнюю сумму"
    )


@catalog
def correction_outcome() -> RuleMessage:
    return R(
        "30.01",
        "the outcome is a flag hang or a flag held by team 1 or 2, or a draw",
        "исход: зависание флага или удержание флага командой 1 или 2, либо ничья",
    )


@catalog
def corrected(judge: Any, reason: Any) -> RuleMessage:
    return R(
        "31",
        "total corrected by the head judge {judge}: {reason}",
        "сумма очков исправлена Главным судьёй {judge}: {reason}",
        judge=judge,
        reason=reason,
    )


@catalog
def no_show_gap(team: Any, ended: str, allowed: str) -> RuleMessage:
    return R(
        "32.03",
        "{team} finished its previous game at {ended}; it cannot be ruled a no-show before "
        "{allowed}",
        "команда «{team}» закончила предыдущую игру в {ended}; неявку ей нельзя засчитать "
        "раньше {allowed}",
        team=Team(str(team)),
        ended=ended,
        allowed=allowed,
    )


@catalog
def finish_first() -> RuleMessage:
    return R(
        "30.02",
        "points are awarded after the game: finish the game first",
        "очки начисляются по окончании игры: сначала завершите игру",
    )


@catalog
def new_protocol_not_needed() -> RuleMessage:
    return R(
        "31",
        "the captains have answered; a new protocol is not needed",
        "капитаны уже ответили; новый протокол не нужен",
    )


@catalog
def pin_locked(seconds: int) -> Phrase:
    return Phrase(
        "three wrong PINs: correction is locked for {seconds} s",
        "три неверных PIN: исправление заблокировано на {seconds} с",
        seconds=seconds,
    )


@catalog
def pin_wrong_locked() -> Phrase:
    return Phrase(
        "wrong PIN; three wrong PINs: correction is locked for a minute",
        "неверный PIN; три неверных PIN: исправление заблокировано на минуту",
    )


@catalog
def pin_wrong(left: int) -> Phrase:
    return Phrase(
        "wrong PIN ({left} attempts left)", "неверный PIN (осталось попыток: {left})", left=left
    )


@catalog
def correction_needs_pin() -> RuleMessage:
    return R(
        "31",
        "only the head judge corrects a total, with his secret",
        "исправить сумму очков может только Главный судья, введя свой секрет",
    )


@catalog
def no_show_needs_pin() -> RuleMessage:
    return R(
        "32.01",
        "only the head judge rules a no-show, with his secret",
        "неявку команды фиксирует только Главный судья, введя свой секрет",
    )


@catalog
def decision_needs_pin() -> RuleMessage:
    return R(
        "31",
        "only the head judge decides which copy of a game log stands, with his secret",
        "какая копия протокола игры верна, решает только Главный судья, введя свой секрет",
    )


@catalog
def approval_needs_pin() -> RuleMessage:
    return R(
        "19.05",
        "only the head judge approves a team's marker checks, with his secret",
        "результаты проверки маркеров команды утверждает только Главный судья, введя свой секрет",
    )


@catalog
def handover_needs_pin() -> Phrase:
    return Phrase(
        "only the head judge hands a game over to another laptop, with his secret",
        "передать игру другому ноутбуку может только Главный судья, введя свой секрет",
    )


@catalog
def void_locked_needs_pin() -> RuleMessage:
    return R(
        "31",
        "only the head judge voids an event of a signed protocol, with his secret",
        "отменить событие подписанного протокола может только Главный судья, введя свой секрет",
    )


@catalog
def locked_void_target() -> RuleMessage:
    return R(
        "31",
        "after the signatures the head judge voids a game event of this game, not yet voided; "
        "not a protocol step, a no-show or a correction",
        "после подписей Главный судья отменяет ещё не отменённое игровое событие этой игры; "
        "не шаг протокола, не неявку и не исправление",
    )


@catalog
def locked_void_reason() -> RuleMessage:
    return R(
        "31",
        "voiding an event of a signed protocol needs a reason",
        "отмене события подписанного протокола нужна причина",
    )


@catalog
def voided_by_head_judge(judge: Any, reason: Any) -> RuleMessage:
    return R(
        "31",
        "event voided by the head judge {judge} after the signatures: {reason}",
        "событие отменено Главным судьёй {judge} после подписей: {reason}",
        judge=judge,
        reason=reason,
    )


@catalog
def locked_void_not_locked() -> RuleMessage:
    return R(
        "31",
        "the protocol is not signed by both captains: void the event in the game",
        "протокол не подписан обоими капитанами: отмените событие в игре",
    )


@catalog
def locked_void_unfinished() -> RuleMessage:
    return R(
        "31",
        "without this event the game would not be over: correct the total instead",
        "без этого события игра не была бы окончена: исправьте сумму очков",
    )
