"""Refusals of ``checks.refusal`` about checks, chrono, flags and the inspection (24-25, 20,
22-23, 18.02), in English and Russian. Constructors only: the decisions are in ``checks.py``."""

from __future__ import annotations

from typing import Any

from fieldjudge.rules.messages import Phrase, Player, RuleMessage, Team, catalog

R = RuleMessage

# player statuses and inspection results as words (model.py / events.py codes)
STATUS = {
    "in_play": Phrase("in_play", "в игре"),
    "eliminated": Phrase("eliminated", "поражён"),
    "neutral": Phrase("neutral", "нейтральный"),
    "not_admitted": Phrase("not_admitted", "не допущен"),
    "no_marker": Phrase("no_marker", "без маркера"),
    "clean": Phrase("clean", "чисто"),
    "hit_found": Phrase("hit_found", "найдено поражение"),
    "did_not_report": Phrase("did_not_report", "не явился на осмотр"),
}
CHECK_KIND = {
    "paint": Phrase("paint check", "ПНК"),
    "neutral": Phrase("neutral check", "нейтральной проверки"),
}


def status_word(code: Any) -> Phrase:
    return STATUS.get(str(code)) or Phrase(str(code), str(code))


@catalog
def no_open_check(section: str, player: Player, kind: str) -> RuleMessage:
    return R(
        section,
        "{player} has no open {what}",
        "у игрока {player} нет незавершённой {what}",
        player=player,
        what=CHECK_KIND.get(kind, CHECK_KIND["paint"]),
    )


@catalog
def check_outcome_values(section: str) -> RuleMessage:
    return R(
        section,
        "the outcome is eliminated or in_play",
        "результат проверки: поражён (eliminated) или в игре (in_play)",
    )


# --- checks, chrono, flags, inspection -------------------------------------------------


@catalog
def already_paint_checked(player: Player) -> RuleMessage:
    return R(
        "24.02",
        "{player} is already being paint-checked",
        "{player} уже проходит ПНК",
        player=player,
    )


@catalog
def already_neutral(player: Player) -> RuleMessage:
    return R(
        "25.02", "{player} is already neutral", "{player} уже объявлен нейтральным", player=player
    )


@catalog
def carrier_not_neutral(player: Player) -> RuleMessage:
    return R(
        "25.05",
        "{player} carries the flag and is never stopped or declared neutral",
        "{player} несёт флаг: флагоносца не останавливают и не объявляют нейтральным",
        player=player,
    )


@catalog
def without_marker(player: Player) -> RuleMessage:
    return R(
        "19.07", "{player} plays without a marker", "{player} играет без маркера", player=player
    )


@catalog
def reading_needs_fps() -> RuleMessage:
    return R("20.02", "the reading needs a speed in fps", "в показании нужна скорость в фпс")


@catalog
def no_flag(section: str, player: Player) -> RuleMessage:
    return R(section, "{player} does not carry a flag", "{player} не несёт флаг", player=player)


@catalog
def already_carries(player: Player) -> RuleMessage:
    return R("22.02", "{player} already carries a flag", "{player} уже несёт флаг", player=player)


@catalog
def flag_carried_by(owner: Any, holder: Player) -> RuleMessage:
    return R(
        "22.03",
        "the flag of {owner} is carried by {holder}",
        "флаг команды «{owner}» уже несёт {holder}",
        owner=Team(str(owner)),
        holder=holder,
    )


@catalog
def flag_out_of_play(owner: Any) -> RuleMessage:
    return R(
        "23.03",
        "the flag of {owner} is no longer in play",
        "флаг команды «{owner}» уже не в игре",
        owner=Team(str(owner)),
    )


@catalog
def hand_to_another() -> RuleMessage:
    return R("22.03", "hand the flag to another player", "флаг передают другому игроку")


@catalog
def taker_eliminated(player: Player) -> RuleMessage:
    return R(
        "22.03",
        "{player} is eliminated; only unhit players may take the flag",
        "{player} поражён; флаг могут принять только непоражённые игроки",
        player=player,
    )


@catalog
def no_opponents_flag(player: Player) -> RuleMessage:
    return R(
        "23.01",
        "{player} does not carry the opponents' flag",
        "{player} не несёт флаг соперника",
        player=player,
    )


@catalog
def paint_values() -> RuleMessage:
    return R(
        "23.01",
        "the paint check result is clean or hit",
        "результат ПНК: чисто (clean) или поражён (hit)",
    )


@catalog
def hang_fps_number() -> RuleMessage:
    return R(
        "23.01",
        "the chrono reading must be a speed in fps",
        "показание хронографа — это скорость в фпс",
    )


@catalog
def hang_needs_chrono(player: Player) -> RuleMessage:
    return R(
        "23.01",
        "the marker of {player} must be chrono'd before the verdict",
        "до решения маркер игрока {player} проверяют на хронографе",
        player=player,
    )


@catalog
def already_inspected(player: Player, result: Any) -> RuleMessage:
    return R(
        "18.02",
        "{player} is already marked {result}; void that mark to change it",
        "{player} уже отмечен: {result}; чтобы изменить, аннулируйте эту отметку",
        player=player,
        result=status_word(result),
    )


@catalog
def only_unhit_inspected(player: Player, status: Any) -> RuleMessage:
    return R(
        "18.02",
        "only unhit players are inspected; {player} is {status}",
        "осматривают только непоражённых игроков; {player}: {status}",
        player=player,
        status=status_word(status),
    )


@catalog
def inspection_values() -> RuleMessage:
    return R(
        "18.02",
        "the result is clean, hit_found or did_not_report",
        "результат осмотра: чисто (clean), найдено поражение (hit_found) "
        "или не явился (did_not_report)",
    )
