"""The protocol's refusals and notes (31, 32.03). English templates; their Russian is in
``locale/ru/LC_MESSAGES/rules.po``. Constructors only: the decisions are in ``protocol.py``."""

from __future__ import annotations

from typing import Any

from fieldjudge.rules.messages import Phrase, RuleMessage, Team, catalog, joined

R = RuleMessage


@catalog
def locked() -> RuleMessage:
    return R(
        "31",
        "the protocol is signed by both captains and locked; only the head judge can correct "
        "a wrong total",
    )


@catalog
def submit_first() -> RuleMessage:
    return R(
        "31",
        "the senior judge submits the protocol before the captains sign",
    )


@catalog
def team_not_playing(team: Any) -> RuleMessage:
    return R(
        "31",
        "{team!r} does not play this game",
        team=Team(str(team)),
    )


@catalog
def already_answered() -> RuleMessage:
    return R(
        "31",
        "this team's captain has already signed or refused",
    )


@catalog
def name_to_sign() -> RuleMessage:
    return R("31", "the captain types his name to sign")


@catalog
def refusal_reason() -> RuleMessage:
    return R(
        "31",
        "the senior judge records the reason of the refusal",
    )


@catalog
def correct_before_answers() -> RuleMessage:
    return R(
        "31",
        "until both captains have answered, the senior judge corrects the protocol and "
        "submits it again",
    )


@catalog
def correction_reason() -> RuleMessage:
    return R("31", "a correction of the total needs a reason")


@catalog
def correction_points() -> RuleMessage:
    return R(
        "31",
        "the corrected total needs whole game points for both teams",
    )


@catalog
def correction_old_total() -> RuleMessage:
    return R("31", "the correction must name the old total")


@catalog
def correction_outcome() -> RuleMessage:
    return R(
        "30.01",
        "the outcome is a flag hang or a flag held by team 1 or 2, or a draw",
    )


@catalog
def corrected(judge: Any, reason: Any) -> RuleMessage:
    return R(
        "31",
        "total corrected by the head judge {judge}: {reason}",
        judge=judge,
        reason=reason,
    )


@catalog
def no_show_gap(team: Any, ended: str, allowed: str) -> RuleMessage:
    return R(
        "32.03",
        "{team} finished its previous game at {ended}; it cannot be ruled a no-show before "
        "{allowed}",
        team=Team(str(team)),
        ended=ended,
        allowed=allowed,
    )


@catalog
def finish_first() -> RuleMessage:
    return R(
        "30.02",
        "points are awarded after the game: finish the game first",
    )


@catalog
def new_protocol_not_needed() -> RuleMessage:
    return R(
        "31",
        "the captains have answered; a new protocol is not needed",
    )


@catalog
def pin_locked(seconds: int) -> Phrase:
    return Phrase(
        "three wrong PINs: correction is locked for {seconds} s",
        seconds=seconds,
    )


@catalog
def pin_wrong_locked() -> Phrase:
    return Phrase(
        "wrong PIN; three wrong PINs: correction is locked for a minute",
    )


@catalog
def pin_wrong(left: int) -> Phrase:
    return Phrase("wrong PIN ({left} attempts left)", left=left)


@catalog
def correction_needs_pin() -> RuleMessage:
    return R(
        "31",
        "only the head judge corrects a total, with his secret",
    )


@catalog
def no_show_needs_pin() -> RuleMessage:
    return R(
        "32.01",
        "only the head judge rules a no-show, with his secret",
    )


@catalog
def decision_needs_pin() -> RuleMessage:
    return R(
        "31",
        "only the head judge decides which copy of a game log stands, with his secret",
    )


@catalog
def approval_needs_pin() -> RuleMessage:
    return R(
        "19.05",
        "only the head judge approves a team's marker checks, with his secret",
    )


@catalog
def handover_needs_pin() -> Phrase:
    return Phrase(
        "only the head judge hands a game over to another laptop, with his secret",
    )


@catalog
def void_locked_needs_pin() -> RuleMessage:
    return R("31", "only the head judge voids an event of a signed protocol, with his secret")


@catalog
def locked_void_target() -> RuleMessage:
    return R(
        "31",
        "after the signatures the head judge voids a game event of this game, not yet voided; "
        "not a protocol step, a no-show or a correction",
    )


@catalog
def locked_void_reason() -> RuleMessage:
    return R("31", "voiding an event of a signed protocol needs a reason")


@catalog
def voided_by_head_judge(judge: Any, reason: Any) -> RuleMessage:
    return R(
        "31",
        "event voided by the head judge {judge} after the signatures: {reason}",
        judge=judge,
        reason=reason,
    )


@catalog
def locked_void_not_locked() -> RuleMessage:
    return R("31", "the protocol is not signed by both captains: void the event in the game")


@catalog
def locked_void_unfinished() -> RuleMessage:
    return R("31", "without this event the game would not be over: correct the total instead")


# --- 30.01: a correction whose points contradict the outcome recorded --------------------


@catalog
def points_count(n: int) -> Phrase:
    """``3 points`` with the plural form the Russian text needs (1 очко, 3 очка, 5 очков)."""
    n = int(n)
    if n % 10 == 1 and n % 100 != 11:
        return Phrase.in_context("points:one", "{n} point", n=n)
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return Phrase.in_context("points:few", "{n} points", n=n)
    return Phrase.in_context("points:many", "{n} points", n=n)


@catalog
def for_flag_hang() -> Phrase:
    return Phrase.in_context("30.01", "the flag hang")


@catalog
def for_flag_held() -> Phrase:
    return Phrase.in_context("30.01", "the flag held at the end")


@catalog
def for_draw() -> Phrase:
    return Phrase.in_context("30.01", "a draw")


@catalog
def for_loss() -> Phrase:
    return Phrase.in_context("30.01", "a loss")


@catalog
def points_against_rule(team: Any, expected: int, what: Phrase, given: int) -> Phrase:
    """«Медведи: 30.01 даёт 3 очка за водружение — записать 2?»"""
    return Phrase(
        "{team}: 30.01 gives {expected} for {what} — record {given}?",
        team=Team(str(team)),
        expected=points_count(expected),
        what=what,
        given=int(given),
    )


def points_against_rules(parts: list[Phrase]) -> Phrase:
    return joined(parts)


@catalog
def confirm_against_rules(why: Any) -> RuleMessage:
    return R(
        "30.01",
        "the corrected points contradict the points of the outcome recorded ({why}): the "
        "head judge confirms them",
        why=why,
    )
