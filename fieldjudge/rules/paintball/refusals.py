"""The refusals of ``checks.refusal`` (why an action cannot be logged now) about the game
phase, the roster and malformed data, each citing its section. English templates; their
Russian is in ``locale/ru/LC_MESSAGES/rules.po``. Constructors only: the decisions are in
``checks.py``; checks, chrono, flags and the inspection are in ``refusals_actions.py``."""

from __future__ import annotations

from typing import Any

from fieldjudge.rules.messages import Player, RuleMessage, Team, catalog

R = RuleMessage

# --- the game phase --------------------------------------------------------------------


@catalog
def unknown_event(etype: Any) -> RuleMessage:
    return R(
        "",
        "unknown paintball event type {etype!r}",
        etype=str(etype),
    )


@catalog
def no_show_recorded() -> RuleMessage:
    return R(
        "32.01",
        "this game was recorded as a no-show; nothing more can be logged",
    )


@catalog
def before_game_only() -> RuleMessage:
    return R(
        "19.01",
        "pre-game check-in, marker checks and the start happen before the game",
    )


@catalog
def all_inspected() -> RuleMessage:
    return R(
        "18.02",
        "every unhit player has been inspected already",
    )


@catalog
def inspection_after_end() -> RuleMessage:
    return R(
        "18.02",
        "the post-game inspection starts when the game has ended",
    )


@catalog
def no_hang_pending() -> RuleMessage:
    return R("23.01", "no flag hang is awaiting a verdict")


@catalog
def awaiting_hang() -> RuleMessage:
    return R(
        "23.01",
        "awaiting the flag-hang verdict; players stay in their positions",
    )


@catalog
def not_started() -> RuleMessage:
    return R("19.01", "the game has not started")


@catalog
def game_over() -> RuleMessage:
    return R(
        "18.02",
        "the game is over; only the post-game inspection remains",
    )


@catalog
def time_called() -> RuleMessage:
    return R(
        "23.01",
        '"Time!" was called: players freeze until the clock resumes',
    )


# --- players and teams -----------------------------------------------------------------


@catalog
def not_on_roster(section: str, team: Any, number: Any) -> RuleMessage:
    return R(
        section,
        "{player} is not on the game roster",
        player=Player(team, number),
    )


@catalog
def already_eliminated(section: str, player: Player, why: str) -> RuleMessage:
    return R(
        section,
        "{player} is already eliminated ({why})",
        player=player,
        why=why,
    )


@catalog
def not_admitted(player: Player) -> RuleMessage:
    return R(
        "19.06",
        "{player} was not admitted and is not on the field",
        player=player,
    )


@catalog
def neutral_player(player: Player) -> RuleMessage:
    return R(
        "25.03",
        "{player} is neutral and cannot be eliminated or act until the check ends",
        player=player,
    )


@catalog
def team_not_playing(section: str, team: Any) -> RuleMessage:
    return R(
        section,
        "{team!r} does not play this game",
        team=Team(str(team)),
    )


@catalog
def one_player_penalty(section: str) -> RuleMessage:
    return R(
        section,
        "this penalty removes one player; no second player is named",
    )


@catalog
def name_second(team: Any) -> RuleMessage:
    return R(
        "29.08",
        "group removal 1+1: name the second player of team {team}",
        team=Team(str(team)),
    )


@catalog
def second_is_offender() -> RuleMessage:
    return R(
        "29.08",
        "the second player of a group removal must be another player",
    )


@catalog
def one_offender() -> RuleMessage:
    return R(
        "29.08",
        "a group removal 1+1 names one offender",
    )


# --- event data ------------------------------------------------------------------------


@catalog
def marker_result_values() -> RuleMessage:
    return R(
        "19.06",
        "marker result must be admitted, not_admitted or no_marker",
    )


@catalog
def name_absent() -> RuleMessage:
    return R("32.01", "name the absent team(s)")


@catalog
def clock_running() -> RuleMessage:
    return R("23.02", "the clock is already running")


@catalog
def game_end_reason() -> RuleMessage:
    return R(
        "30.01",
        "a game ends by the clock or by a judge's decision (reason clock | judge)",
    )


@catalog
def clock_stopped() -> RuleMessage:
    return R("23.01", "the clock is stopped; it cannot run out")


@catalog
def time_left(left: str) -> RuleMessage:
    return R(
        "30.01",
        "the game time has not run out ({left} left)",
        left=left,
    )


@catalog
def unknown_reason(reason: Any) -> RuleMessage:
    return R(
        "26",
        "unknown elimination reason {reason!r}",
        reason=reason,
    )


@catalog
def name_eliminated(section: str) -> RuleMessage:
    return R(section, "name the eliminated player")


@catalog
def two_at_once() -> RuleMessage:
    return R(
        "26",
        "only two opponents hit at once are eliminated in one entry",
    )


@catalog
def player_by_team_number(section: str) -> RuleMessage:
    return R(section, "a player is named by team and number")


@catalog
def teammates_separately() -> RuleMessage:
    return R(
        "26",
        "a simultaneous elimination names two opponents, log teammates separately",
    )


# --- issue 11 readings ------------------------------------------------------------------


@catalog
def disqualified(section: str, player: Player) -> RuleMessage:
    return R(
        "20.05",
        "{player} was disqualified for the rest of the tournament and cannot be put in play",
        player=player,
    )


@catalog
def markers_down_before_start() -> RuleMessage:
    return R(
        "20.07",
        'a marker not laid down on "Markers down" is recorded before the start only',
    )


@catalog
def playing_on_section(section: Any) -> RuleMessage:
    return R(
        "28.02",
        "playing on while eliminated cites 27.02-27.05, 28.02 or 29.11, not {section!r}",
        section=section,
    )


@catalog
def no_show_cause_values() -> RuleMessage:
    return R(
        "32.03",
        "the cause of a no-show is team or organisers",
    )


@catalog
def replay_not_no_show() -> RuleMessage:
    return R("32.03", "this game is not a no-show")


@catalog
def replay_team_cause() -> RuleMessage:
    return R(
        "32.03",
        "a no-show caused by a team is not replayed",
    )


@catalog
def replay_head_judge() -> RuleMessage:
    return R(
        "32.03",
        "only the head judge may have a game replayed",
    )


@catalog
def replay_round_over() -> RuleMessage:
    return R(
        "32.03",
        "the round is over: the game can no longer be replayed",
    )


@catalog
def old_paint_text() -> RuleMessage:
    return R("29.10", "describe the old paint spot")


@catalog
def inspection_points_value() -> RuleMessage:
    return R(
        "18.02",
        "penalty points are a whole number from 0",
    )


@catalog
def shots_one_to_three() -> RuleMessage:
    return R(
        "20.02",
        "the verdict is taken on 1 to 3 readings the judge chooses",
    )


# --- the line-up (30.01 "игра 5х5") ----------------------------------------------------


@catalog
def not_in_lineup(section: str, player: Player) -> RuleMessage:
    return R(
        section,
        "{player} is not in this game's line-up (30.01)",
        player=player,
    )


@catalog
def lineup_numbers(team: Any) -> RuleMessage:
    return R(
        "30.01",
        "name the players of {team} who play this game",
        team=Team(str(team)),
    )


@catalog
def lineup_twice(player: Player) -> RuleMessage:
    return R("30.01", "{player} is named twice in the line-up", player=player)


@catalog
def lineup_too_large(team: Any, count: int, size: int) -> RuleMessage:
    return R(
        "30.01",
        "{team}: {count} players in the line-up, at most {size} play",
        team=Team(str(team)),
        count=count,
        size=size,
    )


@catalog
def lineup_needed(team: Any, count: int, size: int) -> RuleMessage:
    return R(
        "30.01",
        "{team} has {count} players on the roster, at most {size} play: confirm the line-up",
        team=Team(str(team)),
        count=count,
        size=size,
    )


# --- the game's setup (``GameSetup.problems``, shown before the game) -------------------


@catalog
def plays_itself(team: Any) -> RuleMessage:
    return R("", "{team} cannot play itself", team=Team(str(team)))


@catalog
def duplicate_numbers(team: Any) -> RuleMessage:
    return R("", "{team}: two players share a shirt number", team=Team(str(team)))


@catalog
def empty_roster(team: Any) -> RuleMessage:
    return R("", "{team}: no players on the roster", team=Team(str(team)))


@catalog
def fewer_players(team: Any, count: int, size: int) -> RuleMessage:
    return R(
        "30.01",
        "{team}: {count} players on the roster, fewer than {size}: the team plays with fewer",
        team=Team(str(team)),
        count=count,
        size=size,
    )
