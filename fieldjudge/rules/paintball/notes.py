"""What the paintball engine writes down: chrono verdicts (20), the fold's notes and
elimination texts (``state.py``), and the scoring notes (30, 32). English templates; their
Russian is in ``locale/ru/LC_MESSAGES/rules.po``. Constructors only: the decisions are in
``chrono.py``, ``state.py`` and ``scoring.py``."""

from __future__ import annotations

from typing import Any

from fieldjudge.rules.messages import Phrase, Player, RuleMessage, Team, catalog

R = RuleMessage

FLAGGED = Phrase("; flagged for the head judge")
NO_TAIL = Phrase("")
GROUP_1_1 = Phrase("group removal 1+1")
REMOVED = Phrase("player removed")

# --- in-game chrono (20.02-20.05) ------------------------------------------------------


@catalog
def forbidden_mode() -> Phrase:
    return Phrase("forbidden mode")


@catalog
def shots_apart(interval: float) -> Phrase:
    return Phrase(
        "shots {interval:g} ms apart",
        interval=interval,
    )


@catalog
def chrono_disqualified(why: Phrase, minimum: Any) -> RuleMessage:
    return R(
        "20.05",
        "{why} (minimum {minimum} ms): removal, disqualification for the tournament and a "
        "team penalty of section 11",
        why=why,
        minimum=minimum,
    )


@catalog
def chrono_no_reading() -> RuleMessage:
    return R("20.02", "no reading, no penalty")


@catalog
def chrono_ok(fps: float) -> RuleMessage:
    return R("20.02", "{fps:g} fps, no penalty", fps=fps)


@catalog
def chrono_over_limit(fps: float, limit: float) -> RuleMessage:
    return R(
        "20.03",
        "{fps:g} fps is over {limit:g} fps: player removed",
        fps=fps,
        limit=limit,
    )


@catalog
def chrono_group(fps: float, limit: float) -> RuleMessage:
    return R(
        "20.04",
        "{fps:g} fps is over {limit:g} fps: group removal 1+1",
        fps=fps,
        limit=limit,
    )


@catalog
def chrono_above_dq(fps: float, limit: float, flagged: bool) -> RuleMessage:
    return R(
        "20.04",
        "{fps:g} fps is over {limit:g} fps: removal and disqualification (tournament setting)"
        "{tail}",
        fps=fps,
        limit=limit,
        tail=FLAGGED if flagged else NO_TAIL,
    )


@catalog
def chrono_above(fps: float, limit: float, group: bool, flagged: bool) -> RuleMessage:
    return R(
        "20.04",
        "{fps:g} fps is over {limit:g} fps: {what}{tail}",
        fps=fps,
        limit=limit,
        what=GROUP_1_1 if group else REMOVED,
        tail=FLAGGED if flagged else NO_TAIL,
    )


# --- the fold (state.py) ---------------------------------------------------------------


@catalog
def malformed_event(error: Any) -> RuleMessage:
    return R("", "malformed event: {error}", error=error)


@catalog
def could_not_apply(error: Any) -> RuleMessage:
    return R("", "could not apply: {error}", error=error)


@catalog
def with_group_removal(player: Player, section: str) -> Phrase:
    return Phrase(
        "group removal 1+1 with {player} ({section})",
        player=player,
        section=section,
    )


@catalog
def hit_at_paint_check() -> Phrase:
    return Phrase("hit found at the paint check")


@catalog
def hit_at_neutral_check() -> Phrase:
    return Phrase("hit found at the neutral check")


@catalog
def hit_at_hang_check() -> Phrase:
    return Phrase("hit found at the flag-hang check")


@catalog
def player_note(player: Player, verdict: Phrase) -> Phrase:
    return Phrase("{player}: {verdict}", player=player, verdict=verdict)


@catalog
def team_note(team: Any, verdict: Phrase) -> Phrase:
    return Phrase(
        "team {team}: {verdict}",
        team=Team(str(team)),
        verdict=verdict,
    )


@catalog
def ended_by_judge(note: Any) -> Phrase:
    return Phrase("game ended by a judge: {note}", note=note)


@catalog
def hang_counted() -> RuleMessage:
    return R("23.03", "flag hang counted")


@catalog
def carrier_hit() -> RuleMessage:
    return R("23.02", "the carrier is hit")


@catalog
def carrier_over_limit() -> RuleMessage:
    return R("23.02", "the carrier's marker is over the limit")


# --- scoring (30.01, 32.01-32.02) ------------------------------------------------------


@catalog
def flag_hang_points(team: Any, points: int) -> RuleMessage:
    return R(
        "30.01",
        "flag hang by {team}: {points}",
        team=Team(str(team)),
        points=points,
    )


@catalog
def both_hold(team: Any) -> RuleMessage:
    return R(
        "30.01",
        "both teams hold a flag; {team} captured first",
        team=Team(str(team)),
    )


@catalog
def flag_held_points(team: Any, points: int) -> RuleMessage:
    return R(
        "30.01",
        "flag held at the end by {team}: {points}",
        team=Team(str(team)),
        points=points,
    )


@catalog
def draw_points(points: int) -> RuleMessage:
    return R(
        "30.01",
        "no flag held at the end: draw, {points} each",
        points=points,
    )


@catalog
def survivors(a: Any, sa: int, sb: int, b: Any, clamp: int) -> RuleMessage:
    return R(
        "30.01",
        "survivors {a} {sa} : {sb} {b}, difference clamped to ±{clamp}",
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
        a=Team(str(a)),
        b=Team(str(b)),
    )


@catalog
def both_absent() -> RuleMessage:
    return R("32.01", "both teams absent: 0 points each")


@catalog
def no_show_by(out: Any, present: Any, points: int, diff: int) -> RuleMessage:
    return R(
        "32.02",
        "no-show by {out}: {present} gets {points} and +{diff}",
        out=Team(str(out)),
        present=Team(str(present)),
        points=points,
        diff=diff,
    )


@catalog
def head_to_head(points: int, diff: int) -> Phrase:
    return Phrase(
        "head-to-head {points} pts, {diff:+d} diff",
        points=points,
        diff=diff,
    )


# --- issue 11 readings (23.03, 27-29, 20.05, 18.02, 29.10, 25.05, 32.03) ----------------


def without_section(message: Any) -> Phrase:
    """A RuleMessage's text without its section head (to embed it in another message)."""
    if isinstance(message, Phrase):
        return Phrase.in_context(message.context, message.en, **message.params)
    return Phrase(str(message))


@catalog
def chrono_disqualified_and_group(dq: Phrase, fps: float, limit: float) -> RuleMessage:
    return R(
        "20.05",
        "{dq}; {fps:g} fps is over {limit:g} fps: group removal 1+1 as well (20.05 and 20.04)",
        dq=without_section(dq),
        fps=fps,
        limit=limit,
    )


@catalog
def only_team_in_play(team: Any) -> RuleMessage:
    return R(
        "23.03",
        "only {team} is in play: the game goes on, {team} may still capture and hang the flag",
        team=Team(str(team)),
    )


@catalog
def playing_on_penalty(player: Player, section: str, group: bool) -> RuleMessage:
    return R(
        section,
        "{player} played on while eliminated: team penalty, {what}",
        player=player,
        what=GROUP_1_1 if group else Phrase("no further removal"),
    )


@catalog
def hang_rejected_chrono(section: str, verdict: Phrase) -> RuleMessage:
    return R(
        section,
        "flag hang not counted: {verdict}",
        verdict=without_section(verdict),
    )


@catalog
def inspection_points(player: Player, points: int) -> RuleMessage:
    return R(
        "18.02",
        "hit found on {player} at the inspection: {points} penalty point(s)",
        player=player,
        points=points,
    )


@catalog
def inspection_points_total(team: Any, points: int) -> RuleMessage:
    return R(
        "18.02",
        "{team}: {points} penalty point(s) for hits found at the inspection, subtracted "
        "from the game points",
        team=Team(str(team)),
        points=points,
    )


@catalog
def old_paint(player: Player, spots: str) -> RuleMessage:
    return R(
        "29.10",
        "{player} reported old paint spots before the game: {spots}",
        player=player,
        spots=spots,
    )


@catalog
def carrier_paint_check(player: Player) -> RuleMessage:
    return R(
        "25.05",
        "{player} carries the flag: judges never stop a flag carrier",
        player=player,
    )


@catalog
def no_show_replayable(team: Any) -> RuleMessage:
    return R(
        "32.03",
        "no-show of {team} caused by the organisers: the head judge may have it replayed "
        "within the round",
        team=Team(str(team)),
    )


@catalog
def no_show_not_replayed() -> RuleMessage:
    return R(
        "32.03",
        "a no-show caused by a team is not replayed",
    )
