"""Refusals of ``checks.refusal`` about checks, chrono, flags and the inspection (24-25, 20,
22-23, 18.02). English templates; their Russian is in ``locale/ru/LC_MESSAGES/rules.po``.
Constructors only: the decisions are in ``checks.py``."""

from __future__ import annotations

from typing import Any

from fieldjudge.rules.messages import Phrase, Player, RuleMessage, Team, catalog

R = RuleMessage

# player statuses and inspection results (18.02) as words (model.py / events.py codes)
STATUS = {
    "in_play": Phrase("in_play"),
    "eliminated": Phrase("eliminated"),
    "neutral": Phrase("neutral"),
    "not_admitted": Phrase("not_admitted"),
    "no_marker": Phrase("no_marker"),
    "clean": Phrase.in_context("18.02", "clean"),
    "hit_found": Phrase.in_context("18.02", "hit_found"),
    "did_not_report": Phrase.in_context("18.02", "did_not_report"),
}
CHECK_KIND = {
    "paint": Phrase("paint check"),
    "neutral": Phrase("neutral check"),
}


def status_word(code: Any) -> Phrase:
    return STATUS.get(str(code)) or Phrase(str(code))


@catalog
def no_open_check(section: str, player: Player, kind: str) -> RuleMessage:
    return R(
        section,
        "{player} has no open {what}",
        player=player,
        what=CHECK_KIND.get(kind, CHECK_KIND["paint"]),
    )


@catalog
def check_outcome_values(section: str) -> RuleMessage:
    return R(
        section,
        "the outcome is eliminated or in_play",
    )


# --- checks, chrono, flags, inspection -------------------------------------------------


@catalog
def already_paint_checked(player: Player) -> RuleMessage:
    return R(
        "24.02",
        "{player} is already being paint-checked",
        player=player,
    )


@catalog
def already_neutral(player: Player) -> RuleMessage:
    return R("25.02", "{player} is already neutral", player=player)


@catalog
def carrier_not_neutral(player: Player) -> RuleMessage:
    return R(
        "25.05",
        "{player} carries the flag and is never stopped or declared neutral",
        player=player,
    )


@catalog
def without_marker(player: Player) -> RuleMessage:
    return R("19.07", "{player} plays without a marker", player=player)


@catalog
def reading_needs_fps() -> RuleMessage:
    return R("20.02", "the reading needs a speed in fps")


@catalog
def no_flag(section: str, player: Player) -> RuleMessage:
    return R(section, "{player} does not carry a flag", player=player)


@catalog
def already_carries(player: Player) -> RuleMessage:
    return R("22.02", "{player} already carries a flag", player=player)


@catalog
def flag_carried_by(owner: Any, holder: Player) -> RuleMessage:
    return R(
        "22.03",
        "the flag of {owner} is carried by {holder}",
        owner=Team(str(owner)),
        holder=holder,
    )


@catalog
def flag_out_of_play(owner: Any) -> RuleMessage:
    return R(
        "23.03",
        "the flag of {owner} is no longer in play",
        owner=Team(str(owner)),
    )


@catalog
def hand_to_another() -> RuleMessage:
    return R("22.03", "hand the flag to another player")


@catalog
def taker_eliminated(player: Player) -> RuleMessage:
    return R(
        "22.03",
        "{player} is eliminated; only unhit players may take the flag",
        player=player,
    )


@catalog
def no_opponents_flag(player: Player) -> RuleMessage:
    return R(
        "23.01",
        "{player} does not carry the opponents' flag",
        player=player,
    )


@catalog
def paint_values() -> RuleMessage:
    return R(
        "23.01",
        "the paint check result is clean or hit",
    )


@catalog
def hang_fps_number() -> RuleMessage:
    return R(
        "23.01",
        "the chrono reading must be a speed in fps",
    )


@catalog
def hang_needs_chrono(player: Player) -> RuleMessage:
    return R(
        "23.01",
        "the marker of {player} must be chrono'd before the verdict",
        player=player,
    )


@catalog
def already_inspected(player: Player, result: Any) -> RuleMessage:
    return R(
        "18.02",
        "{player} is already marked {result}; void that mark to change it",
        player=player,
        result=status_word(result),
    )


@catalog
def only_unhit_inspected(player: Player, status: Any) -> RuleMessage:
    return R(
        "18.02",
        "only unhit players are inspected; {player} is {status}",
        player=player,
        status=status_word(status),
    )


@catalog
def inspection_values() -> RuleMessage:
    return R(
        "18.02",
        "the result is clean, hit_found or did_not_report",
    )
