"""What the paintball engine writes down, in English and Russian: chrono verdicts (20),
the fold's notes and elimination texts (``state.py``), and the scoring notes (30, 32).
Constructors only: the decisions are in ``chrono.py``, ``state.py`` and ``scoring.py``."""

from __future__ import annotations

from typing import Any

from fieldjudge.rules.messages import Phrase, Player, RuleMessage, Team, catalog

R = RuleMessage

FLAGGED = Phrase("; flagged for the head judge", "; передано Главному судье")
NO_TAIL = Phrase("", "")
GROUP_1_1 = Phrase("group removal 1+1", "групповое удаление 1+1")
REMOVED = Phrase("player removed", "игрок удаляется")

# --- in-game chrono (20.02-20.05) ------------------------------------------------------


@catalog
def forbidden_mode() -> Phrase:
    return Phrase("forbidden mode", "запрещённый режим стрельбы")


@catalog
def shots_apart(interval: float) -> Phrase:
    return Phrase(
        "shots {interval:g} ms apart",
        "интервал между выстрелами {interval:g} мс",
        interval=interval,
    )


@catalog
def chrono_disqualified(why: Phrase, minimum: Any) -> RuleMessage:
    return R(
        "20.05",
        "{why} (minimum {minimum} ms): removal, disqualification for the tournament and a "
        "team penalty of section 11",
        "{why} (минимум {minimum} мс): удаление, дисквалификация до конца турнира и штраф "
        "команде по разделу 11",
        why=why,
        minimum=minimum,
    )


@catalog
def chrono_no_reading() -> RuleMessage:
    return R("20.02", "no reading, no penalty", "нет показания, без штрафа")


@catalog
def chrono_ok(fps: float) -> RuleMessage:
    return R("20.02", "{fps:g} fps, no penalty", "{fps:g} фпс, без штрафа", fps=fps)


@catalog
def chrono_over_limit(fps: float, limit: float) -> RuleMessage:
    return R(
        "20.03",
        "{fps:g} fps is over {limit:g} fps: player removed",
        "{fps:g} фпс — свыше {limit:g} фпс: игрок удаляется",
        fps=fps,
        limit=limit,
    )


@catalog
def chrono_group(fps: float, limit: float) -> RuleMessage:
    return R(
        "20.04",
        "{fps:g} fps is over {limit:g} fps: group removal 1+1",
        "{fps:g} фпс — выше {limit:g} фпс: групповое удаление 1+1",
        fps=fps,
        limit=limit,
    )


@catalog
def chrono_above_dq(fps: float, limit: float, flagged: bool) -> RuleMessage:
    return R(
        "20.04",
        "{fps:g} fps is over {limit:g} fps: removal and disqualification (tournament setting)"
        "{tail}",
        "{fps:g} фпс — выше {limit:g} фпс: удаление и дисквалификация (настройка турнира){tail}",
        fps=fps,
        limit=limit,
        tail=FLAGGED if flagged else NO_TAIL,
    )


@catalog
def chrono_above(fps: float, limit: float, group: bool, flagged: bool) -> RuleMessage:
    return R(
        "20.04",
        "{fps:g} fps is over {limit:g} fps: {what}{tail}",
        "{fps:g} фпс — выше {limit:g} фпс: {what}{tail}",
        fps=fps,
        limit=limit,
        what=GROUP_1_1 if group else REMOVED,
        tail=FLAGGED if flagged else NO_TAIL,
    )


# --- the fold (state.py) ---------------------------------------------------------------


@catalog
def malformed_event(error: Any) -> RuleMessage:
    return R("", "malformed event: {error}", "повреждённая запись события: {error}", error=error)


@catalog
def could_not_apply(error: Any) -> RuleMessage:
    return R("", "could not apply: {error}", "событие не применено: {error}", error=error)


@catalog
def reason_text(en: str, ru: str) -> Phrase:
    """An elimination reason of ``reasons.py`` as the elimination's text."""
    return Phrase(en, ru)


@catalog
def with_group_removal(player: Player, section: str) -> Phrase:
    return Phrase(
        "group removal 1+1 with {player} ({section})",
        "групповое удаление 1+1 вместе с игроком {player} ({section})",
        player=player,
        section=section,
    )


@catalog
def hit_at_paint_check() -> Phrase:
    return Phrase("hit found at the paint check", "поражение найдено при ПНК")


@catalog
def hit_at_neutral_check() -> Phrase:
    return Phrase("hit found at the neutral check", "поражение найдено при нейтральной проверке")


@catalog
def hit_at_hang_check() -> Phrase:
    return Phrase(
        "hit found at the flag-hang check", "поражение найдено при проверке после водружения флага"
    )


@catalog
def player_note(player: Player, verdict: Phrase) -> Phrase:
    return Phrase("{player}: {verdict}", "{player}: {verdict}", player=player, verdict=verdict)


@catalog
def team_note(team: Any, verdict: Phrase) -> Phrase:
    return Phrase(
        "team {team}: {verdict}",
        "команда «{team}»: {verdict}",
        team=Team(str(team)),
        verdict=verdict,
    )


@catalog
def ended_by_judge(note: Any) -> Phrase:
    return Phrase(
        "game ended by a judge: {note}", "игра окончена решением судьи: {note}", note=note
    )


@catalog
def hang_counted() -> RuleMessage:
    return R("23.03", "flag hang counted", "водружение флага засчитано")


@catalog
def carrier_hit() -> RuleMessage:
    return R("23.02", "the carrier is hit", "флагоносец поражён")


@catalog
def carrier_over_limit() -> RuleMessage:
    return R("23.02", "the carrier's marker is over the limit", "маркер флагоносца превысил лимит")


# --- scoring (30.01, 32.01-32.02) ------------------------------------------------------


@catalog
def flag_hang_points(team: Any, points: int) -> RuleMessage:
    return R(
        "30.01",
        "flag hang by {team}: {points}",
        "водружение флага — «{team}»: {points}",
        team=Team(str(team)),
        points=points,
    )


@catalog
def both_hold(team: Any) -> RuleMessage:
    return R(
        "30.01",
        "both teams hold a flag; {team} captured first",
        "флаги удерживают обе команды; первой флаг захватила команда «{team}»",
        team=Team(str(team)),
    )


@catalog
def flag_held_points(team: Any, points: int) -> RuleMessage:
    return R(
        "30.01",
        "flag held at the end by {team}: {points}",
        "удержание флага до конца игры — «{team}»: {points}",
        team=Team(str(team)),
        points=points,
    )


@catalog
def draw_points(points: int) -> RuleMessage:
    return R(
        "30.01",
        "no flag held at the end: draw, {points} each",
        "к концу игры флаг не удержан: ничья, каждой команде {points}",
        points=points,
    )


@catalog
def survivors(a: Any, sa: int, sb: int, b: Any, clamp: int) -> RuleMessage:
    return R(
        "30.01",
        "survivors {a} {sa} : {sb} {b}, difference clamped to ±{clamp}",
        "сохранённые игроки: «{a}» {sa} : {sb} «{b}», разница в пределах ±{clamp}",
        a=Team(str(a)),
        sa=sa,
        sb=sb,
        b=Team(str(b)),
        clamp=clamp,
    )


@catalog
def no_absent_team(a: Any, b: Any) -> RuleMessage:
    return R(
        "32.01",
        "no absent team among {a}, {b}",
        "среди команд «{a}» и «{b}» нет неявившейся",
        a=Team(str(a)),
        b=Team(str(b)),
    )


@catalog
def both_absent() -> RuleMessage:
    return R("32.01", "both teams absent: 0 points each", "неявка обеих команд: по 0 очков")


@catalog
def no_show_by(out: Any, present: Any, points: int, diff: int) -> RuleMessage:
    return R(
        "32.02",
        "no-show by {out}: {present} gets {points} and +{diff}",
        "неявка команды «{out}»: команде «{present}» — очки за игру {points} и разница +{diff}",
        out=Team(str(out)),
        present=Team(str(present)),
        points=points,
        diff=diff,
    )


@catalog
def head_to_head(points: int, diff: int) -> Phrase:
    return Phrase(
        "head-to-head {points} pts, {diff:+d} diff",
        "личные встречи: очки {points}, разница {diff:+d}",
        points=points,
        diff=diff,
    )


# --- issue 11 readings (23.03, 27-29, 20.05, 18.02, 29.10, 25.05, 32.03) ----------------


def without_section(message: Any) -> Phrase:
    """A RuleMessage's text without its section head (to embed it in another message)."""
    if isinstance(message, Phrase):
        en, ru = getattr(message, "en", str(message)), getattr(message, "ru", str(message))
        return Phrase(en, ru, **getattr(message, "params", {}))
    return Phrase(str(message), str(message))


@catalog
def chrono_disqualified_and_group(dq: Phrase, fps: float, limit: float) -> RuleMessage:
    return R(
        "20.05",
        "{dq}; {fps:g} fps is over {limit:g} fps: group removal 1+1 as well (20.05 and 20.04)",
        "{dq}; {fps:g} фпс — выше {limit:g} фпс: также групповое удаление 1+1 (20.05 и 20.04)",
        dq=without_section(dq),
        fps=fps,
        limit=limit,
    )


@catalog
def only_team_in_play(team: Any) -> RuleMessage:
    return R(
        "23.03",
        "only {team} is in play: the game goes on, {team} may still capture and hang the flag",
        "в игре осталась только команда «{team}»: игра продолжается, она ещё может захватить "
        "и водрузить флаг",
        team=Team(str(team)),
    )


@catalog
def playing_on_penalty(player: Player, section: str, group: bool) -> RuleMessage:
    return R(
        section,
        "{player} played on while eliminated: team penalty, {what}",
        "{player} продолжил игру в поражённом состоянии: штраф команде, {what}",
        player=player,
        what=GROUP_1_1 if group else Phrase("no further removal", "без дополнительного удаления"),
    )


@catalog
def hang_rejected_chrono(section: str, verdict: Phrase) -> RuleMessage:
    return R(
        section,
        "flag hang not counted: {verdict}",
        "водружение флага не засчитано: {verdict}",
        verdict=without_section(verdict),
    )


@catalog
def inspection_points(player: Player, points: int) -> RuleMessage:
    return R(
        "18.02",
        "hit found on {player} at the inspection: {points} penalty point(s)",
        "у игрока {player} при осмотре найдено поражение: штрафных очков {points}",
        player=player,
        points=points,
    )


@catalog
def inspection_points_total(team: Any, points: int) -> RuleMessage:
    return R(
        "18.02",
        "{team}: {points} penalty point(s) for hits found at the inspection, subtracted "
        "from the game points",
        "команда «{team}»: штрафных очков за поражения, найденные при осмотре, — {points}; "
        "вычтены из очков за игру",
        team=Team(str(team)),
        points=points,
    )


@catalog
def old_paint(player: Player, spots: str) -> RuleMessage:
    return R(
        "29.10",
        "{player} reported old paint spots before the game: {spots}",
        "игрок {player} до игры сообщил о старых пятнах: {spots}",
        player=player,
        spots=spots,
    )


@catalog
def carrier_paint_check(player: Player) -> RuleMessage:
    return R(
        "25.05",
        "{player} carries the flag: judges never stop a flag carrier",
        "{player} несёт флаг: судьи не останавливают флагоносца",
        player=player,
    )


@catalog
def no_show_replayable(team: Any) -> RuleMessage:
    return R(
        "32.03",
        "no-show of {team} caused by the organisers: the head judge may have it replayed "
        "within the round",
        "неявка команды «{team}» по вине организаторов: Главный судья может перенести игру "
        "в пределах тура",
        team=Team(str(team)),
    )


@catalog
def no_show_not_replayed() -> RuleMessage:
    return R(
        "32.03",
        "a no-show caused by a team is not replayed",
        "игра, на которой произошла неявка по вине команды, не переносится",
    )
