"""The refusals of ``checks.refusal`` (why an action cannot be logged now) about the game
phase, the roster and malformed data, in English and Russian, each citing its section.
Constructors only: the decisions are in ``checks.py``; checks, chrono, flags and the
inspection are in ``refusals_actions.py``."""

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
        "неизвестный тип события {etype!r}",
        etype=str(etype),
    )


@catalog
def no_show_recorded() -> RuleMessage:
    return R(
        "32.01",
        "this game was recorded as a no-show; nothing more can be logged",
        "в этой игре записана неявка; больше ничего записать нельзя",
    )


@catalog
def before_game_only() -> RuleMessage:
    return R(
        "19.01",
        "pre-game check-in, marker checks and the start happen before the game",
        "явка, проверка маркеров и старт — только до начала игры",
    )


@catalog
def all_inspected() -> RuleMessage:
    return R(
        "18.02",
        "every unhit player has been inspected already",
        "все непоражённые игроки уже осмотрены",
    )


@catalog
def inspection_after_end() -> RuleMessage:
    return R(
        "18.02",
        "the post-game inspection starts when the game has ended",
        "послеигровой осмотр начинается после окончания игры",
    )


@catalog
def no_hang_pending() -> RuleMessage:
    return R("23.01", "no flag hang is awaiting a verdict", "нет водружения флага, ждущего решения")


@catalog
def awaiting_hang() -> RuleMessage:
    return R(
        "23.01",
        "awaiting the flag-hang verdict; players stay in their positions",
        "ждём решения по водружению флага; игроки остаются на своих позициях",
    )


@catalog
def not_started() -> RuleMessage:
    return R("19.01", "the game has not started", "игра ещё не началась")


@catalog
def game_over() -> RuleMessage:
    return R(
        "18.02",
        "the game is over; only the post-game inspection remains",
        "игра окончена; остался только послеигровой осмотр",
    )


@catalog
def time_called() -> RuleMessage:
    return R(
        "23.01",
        '"Time!" was called: players freeze until the clock resumes',
        "объявлено «Время!»: игроки замирают до возобновления отсчёта",
    )


# --- players and teams -----------------------------------------------------------------


@catalog
def not_on_roster(section: str, team: Any, number: Any) -> RuleMessage:
    return R(
        section,
        "{player} is not on the game roster",
        "игрока {player} нет в составе на эту игру",
        player=Player(team, number),
    )


@catalog
def already_eliminated(section: str, player: Player, why: str) -> RuleMessage:
    return R(
        section,
        "{player} is already eliminated ({why})",
        "{player} уже поражён ({why})",
        player=player,
        why=why,
    )


@catalog
def not_admitted(player: Player) -> RuleMessage:
    return R(
        "19.06",
        "{player} was not admitted and is not on the field",
        "маркер игрока {player} не допущен к игре: игрока нет на поле",
        player=player,
    )


@catalog
def neutral_player(player: Player) -> RuleMessage:
    return R(
        "25.03",
        "{player} is neutral and cannot be eliminated or act until the check ends",
        "{player} объявлен нейтральным: до конца проверки его нельзя поразить, "
        "и он не участвует в игре",
        player=player,
    )


@catalog
def team_not_playing(section: str, team: Any) -> RuleMessage:
    return R(
        section,
        "{team!r} does not play this game",
        "команда «{team}» не играет в этой игре",
        team=Team(str(team)),
    )


@catalog
def one_player_penalty(section: str) -> RuleMessage:
    return R(
        section,
        "this penalty removes one player; no second player is named",
        "по этому наказанию удаляется один игрок; второго не называют",
    )


@catalog
def name_second(team: Any) -> RuleMessage:
    return R(
        "29.08",
        "group removal 1+1: name the second player of team {team}",
        "групповое удаление 1+1: назовите второго игрока команды «{team}»",
        team=Team(str(team)),
    )


@catalog
def second_is_offender() -> RuleMessage:
    return R(
        "29.08",
        "the second player of a group removal must be another player",
        "второй игрок группового удаления должен быть другим игроком",
    )


@catalog
def one_offender() -> RuleMessage:
    return R(
        "29.08",
        "a group removal 1+1 names one offender",
        "при групповом удалении 1+1 называют одного нарушителя",
    )


# --- event data ------------------------------------------------------------------------


@catalog
def marker_result_values() -> RuleMessage:
    return R(
        "19.06",
        "marker result must be admitted, not_admitted or no_marker",
        "результат проверки маркера: допущен (admitted), не допущен (not_admitted) "
        "или без маркера (no_marker)",
    )


@catalog
def name_absent() -> RuleMessage:
    return R("32.01", "name the absent team(s)", "назовите неявившуюся команду (или обе)")


@catalog
def clock_running() -> RuleMessage:
    return R("23.02", "the clock is already running", "время уже идёт")


@catalog
def game_end_reason() -> RuleMessage:
    return R(
        "30.01",
        "a game ends by the clock or by a judge's decision (reason clock | judge)",
        "игра заканчивается по времени или по решению судьи (reason clock | judge)",
    )


@catalog
def clock_stopped() -> RuleMessage:
    return R("23.01", "the clock is stopped; it cannot run out", "время остановлено и не истечёт")


@catalog
def time_left(left: str) -> RuleMessage:
    return R(
        "30.01",
        "the game time has not run out ({left} left)",
        "время игры не истекло (осталось {left})",
        left=left,
    )


@catalog
def unknown_reason(reason: Any) -> RuleMessage:
    return R(
        "26",
        "unknown elimination reason {reason!r}",
        "неизвестная причина поражения {reason!r}",
        reason=reason,
    )


@catalog
def name_eliminated(section: str) -> RuleMessage:
    return R(section, "name the eliminated player", "назовите поражённого игрока")


@catalog
def two_at_once() -> RuleMessage:
    return R(
        "26",
        "only two opponents hit at once are eliminated in one entry",
        "одной записью поражаются только два соперника, поражённые одновременно",
    )


@catalog
def player_by_team_number(section: str) -> RuleMessage:
    return R(section, "a player is named by team and number", "игрока называют командой и номером")


@catalog
def teammates_separately() -> RuleMessage:
    return R(
        "26",
        "a simultaneous elimination names two opponents, log teammates separately",
        "одновременное поражение — это два соперника; игроков одной команды записывайте отдельно",
    )


# --- issue 11 readings ------------------------------------------------------------------


@catalog
def disqualified(section: str, player: Player) -> RuleMessage:
    return R(
        "20.05",
        "{player} was disqualified for the rest of the tournament and cannot be put in play",
        "{player} дисквалифицирован до окончания турнира и не может быть допущен к игре",
        player=player,
    )


@catalog
def markers_down_before_start() -> RuleMessage:
    return R(
        "20.07",
        'a marker not laid down on "Markers down" is recorded before the start only',
        "неположенный по команде «Положить маркеры» маркер записывают только до начала игры",
    )


@catalog
def playing_on_section(section: Any) -> RuleMessage:
    return R(
        "28.02",
        "playing on while eliminated cites 27.02-27.05, 28.02 or 29.11, not {section!r}",
        "игра в поражённом состоянии: пункт 27.02-27.05, 28.02 или 29.11, а не {section!r}",
        section=section,
    )


@catalog
def no_show_cause_values() -> RuleMessage:
    return R(
        "32.03",
        "the cause of a no-show is team or organisers",
        "причина неявки: команда (team) или организаторы (organisers)",
    )


@catalog
def replay_not_no_show() -> RuleMessage:
    return R("32.03", "this game is not a no-show", "в этой игре неявки не было")


@catalog
def replay_team_cause() -> RuleMessage:
    return R(
        "32.03",
        "a no-show caused by a team is not replayed",
        "игра, на которой произошла неявка по вине команды, не переносится",
    )


@catalog
def replay_head_judge() -> RuleMessage:
    return R(
        "32.03",
        "only the head judge may have a game replayed",
        "перенести игру может только Главный судья",
    )


@catalog
def replay_round_over() -> RuleMessage:
    return R(
        "32.03",
        "the round is over: the game can no longer be replayed",
        "тур уже закончен: игру перенести нельзя",
    )


@catalog
def old_paint_text() -> RuleMessage:
    return R("29.10", "describe the old paint spot", "опишите старое пятно")


@catalog
def inspection_points_value() -> RuleMessage:
    return R(
        "18.02",
        "penalty points are a whole number from 0",
        "штрафные очки — целое число от 0",
    )


@catalog
def shots_one_to_three() -> RuleMessage:
    return R(
        "20.02",
        "the verdict is taken on 1 to 3 readings the judge chooses",
        "решение принимается по 1-3 выстрелам на выбор судьи",
    )
