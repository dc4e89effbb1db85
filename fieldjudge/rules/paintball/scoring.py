"""Game points (30.01), no-shows (32.01-32.02) and standings."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from fieldjudge.rules.messages import Team, phrase, rule
from fieldjudge.rules.paintball import model as m
from fieldjudge.rules.paintball.setup import GameSetup, Points, Settings

# 32.02: numbers stated by the source itself (not defaults)
NO_SHOW_WIN_POINTS = 3
NO_SHOW_DIFF = 5

FLAG_HANG = "flag_hang"
FLAG_HELD = "flag_held"
DRAW = "draw"
NO_SHOW = "no_show"


@dataclass(frozen=True)
class GameResult:
    """A game's result (30.01): the game points, the survivor difference, the outcome."""

    game_id: str
    teams: tuple[str, str]
    points: Mapping[str, int]  # game points by team
    diff: Mapping[str, int]  # survivor difference, clamped (30.01), tie-break only
    survivors: Mapping[str, int]
    outcome: str  # flag_hang | flag_held | draw | no_show
    flag_hang_team: str | None = None
    flag_held_team: str | None = None  # team credited with "flag held"
    first_capture_team: str | None = None
    no_show: frozenset[str] = frozenset()
    final: bool = True  # False while the game is not in phase "final"
    notes: tuple[str, ...] = field(default_factory=tuple)  # RuleMessages (str)
    # 18.02: penalty points for hits found at the inspection, already subtracted from points
    penalty_points: Mapping[str, int] = field(default_factory=dict)
    no_show_cause: str | None = None  # 32.03: "team" | "organisers"
    replayable: bool = False  # 32.03: an organisers' no-show (the head judge may replay it)

    def __post_init__(self) -> None:
        for name in ("points", "diff", "survivors", "penalty_points"):
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))

    def opponent(self, team: str) -> str:
        return self.teams[1] if team == self.teams[0] else self.teams[0]

    @property
    def winner(self) -> str | None:
        """Higher game points, then higher difference (30.01); None on a full tie."""
        a, b = self.teams
        ka, kb = (self.points[a], self.diff[a]), (self.points[b], self.diff[b])
        if ka == kb:
            return None
        return a if ka > kb else b


def not_played(state: m.GameState) -> bool:
    """A game not played has no result and is never a draw (30.01, 32): no team checked
    in (19.01), the clock never started and no no-show was ruled."""
    return state.phase == m.NOT_STARTED and not state.no_show and not state.checkins


def clamp_diff(settings: Settings, diff: int) -> int:
    c = settings.diff_clamp
    return max(-c, min(c, diff))  # 30.01: +5 … -5


def game_result(setup: GameSetup, state: m.GameState) -> GameResult:
    """Points proposed to the senior judge (30.02) from a folded game."""
    if state.no_show:
        return no_show_result(
            setup.settings, state.no_show, setup.teams, setup.game_id, state.no_show_cause
        )
    s = setup.settings
    pts = s.points
    a, b = setup.teams
    surv = {t: state.alive(t) for t in (a, b)}
    diff = {a: clamp_diff(s, surv[a] - surv[b]), b: clamp_diff(s, surv[b] - surv[a])}
    points = {a: pts.loss, b: pts.loss}
    notes: list[str] = []
    held_team = None
    if state.hang_team is not None:
        # 23.03 / 30.01: flag hang
        outcome = FLAG_HANG
        points[state.hang_team] = pts.flag_hang
        notes.append(rule("flag_hang_points", team=Team(state.hang_team), points=pts.flag_hang))
    else:
        holders = [t for t in (a, b) if state.flag_held_by(t) is not None]
        if len(holders) == 2:
            # 30.01 «захватили и удерживают»: only the team whose capture of the flag it now
            # holds came first; a flag captured and lost earlier does not count
            held_team = min(holders, key=lambda t: holding_capture_seq(state, t))
            notes.append(rule("both_hold", team=Team(held_team)))
        elif holders:
            held_team = holders[0]
        if held_team is not None:
            outcome = FLAG_HELD
            points[held_team] = pts.flag_held
            notes.append(rule("flag_held_points", team=Team(held_team), points=pts.flag_held))
        else:
            outcome = DRAW
            points = {a: pts.draw, b: pts.draw}
            notes.append(rule("draw_points", points=pts.draw))
    notes.append(
        rule("survivors", a=Team(a), sa=surv[a], sb=surv[b], b=Team(b), clamp=s.diff_clamp)
    )
    # 18.02: penalty points for hits found at the inspection, not below 0
    penalty = {t: state.inspection_points.get(t, 0) for t in (a, b)}
    for t in (a, b):
        if penalty[t]:
            points[t] = max(0, points[t] - penalty[t])
            notes.append(rule("inspection_points_total", team=Team(t), points=penalty[t]))
    return GameResult(
        game_id=setup.game_id,
        teams=(a, b),
        points=points,
        diff=diff,
        survivors=surv,
        outcome=outcome,
        flag_hang_team=state.hang_team,
        flag_held_team=held_team,
        first_capture_team=state.first_capture_team,
        final=state.phase == m.FINAL,
        notes=tuple(notes),
        penalty_points={t: v for t, v in penalty.items() if v},
    )


# outcomes the head judge may rule when he corrects a total (31); a no-show is ruled by 32
RULABLE_OUTCOMES = (FLAG_HANG, FLAG_HELD, DRAW)


def outcome_points(pts: Points, teams: tuple[str, str], outcome: str, team: str | None):
    """30.01: the game points of ``outcome`` (``team`` hung or holds the flag)."""
    a, b = teams
    if outcome == DRAW:
        return {a: pts.draw, b: pts.draw}
    if outcome not in (FLAG_HANG, FLAG_HELD) or team not in teams:
        raise ValueError(f"outcome {outcome!r} of team {team!r}")
    won = pts.flag_hang if outcome == FLAG_HANG else pts.flag_held
    return {t: won if t == team else pts.loss for t in teams}


def with_outcome(
    result: GameResult, outcome: str, team: str | None, points: Mapping[str, int]
) -> GameResult:
    """``result`` as the head judge ruled it (31): another outcome, the team credited with
    the hang or the held flag, and the game points he set. The difference stays (30.01)."""
    return replace(
        result,
        outcome=outcome,
        points=dict(points),
        flag_hang_team=team if outcome == FLAG_HANG else None,
        flag_held_team=team if outcome == FLAG_HELD else None,
    )


def holding_capture_seq(state: m.GameState, team: str) -> int:
    """The log position of the capture of the flag ``team`` holds now (30.01): the latest
    capture of that flag (a handover keeps it; a lost flag's spare is a new capture)."""
    flag = state.flags[state.setup.opponent(team)]
    caps = [c for c in flag.captures if c.team == team]
    return caps[-1].seq if caps else 1 << 62


def no_show_result(
    settings: Settings,
    absent: Iterable[str],
    teams: tuple[str, str],
    game_id: str = "",
    cause: str | None = None,
) -> GameResult:
    """32.01-32.02: one absent -> 0 and -5, its opponent 3 and +5; both absent -> 0 each."""
    a, b = teams
    gone = frozenset(absent) & {a, b}
    if not gone:
        raise ValueError(rule("no_absent_team", a=Team(a), b=Team(b)))
    if len(gone) == 2:
        points, diff = {a: 0, b: 0}, {a: 0, b: 0}
        note = rule("both_absent")
    else:
        (out,) = gone
        present = b if out == a else a
        points = {out: 0, present: NO_SHOW_WIN_POINTS}
        diff = {out: -NO_SHOW_DIFF, present: NO_SHOW_DIFF}
        note = rule(
            "no_show_by",
            out=Team(out),
            present=Team(present),
            points=NO_SHOW_WIN_POINTS,
            diff=NO_SHOW_DIFF,
        )
    # 32.03: only a no-show the organisers caused may be replayed (by the head judge)
    extra = (
        tuple(rule("no_show_replayable", team=Team(t)) for t in sorted(gone))
        if cause == "organisers"
        else ()
    )
    return GameResult(
        game_id=game_id,
        teams=(a, b),
        points=points,
        diff=diff,
        survivors={a: 0, b: 0},
        outcome=NO_SHOW,
        no_show=gone,
        notes=(note, *extra),
        no_show_cause=cause,
        replayable=cause == "organisers",
    )


@dataclass(frozen=True)
class StandingRow:
    """One team's line of the standings (30.02)."""

    rank: int
    team: str
    games: int
    points: int
    diff: int
    flag_hangs: int
    wins: int
    draws: int
    losses: int
    no_shows: int
    tie_break: str = ""  # how the position against equal teams was decided


#: the counted columns of a standings row, in its order
TALLY = ("games", "points", "diff", "flag_hangs", "wins", "draws", "losses", "no_shows")


def _h2h(results: list[GameResult], group: set[str]) -> dict[str, tuple[int, int, int]]:
    """Points, difference and number of the games among ``group`` only."""
    acc = {t: [0, 0, 0] for t in group}
    for r in results:
        if set(r.teams) <= group:
            for t in r.teams:
                acc[t][0] += r.points[t]
                acc[t][1] += r.diff[t]
                acc[t][2] += 1
    return {t: (v[0], v[1], v[2]) for t, v in acc.items()}


def standings(results: Iterable[GameResult], teams: Iterable[str] = ()) -> list[StandingRow]:
    """Rows ordered by game points, then difference, then head-to-head among the teams still
    tied (points, then difference in their mutual games). Teams still equal share a rank."""
    res = list(results)
    tally: dict[str, dict[str, int]] = {}
    for t in list(teams) + [t for r in res for t in r.teams]:
        tally.setdefault(t, dict.fromkeys(TALLY, 0))
    for r in res:
        for t in r.teams:
            row, o = tally[t], r.opponent(t)
            row["games"] += 1
            row["points"] += r.points[t]
            row["diff"] += r.diff[t]
            row["flag_hangs"] += r.flag_hang_team == t
            row["no_shows"] += t in r.no_show
            if r.points[t] > r.points[o]:
                row["wins"] += 1
            elif r.points[t] < r.points[o]:
                row["losses"] += 1
            else:
                row["draws"] += 1
    primary = {t: (v["points"], v["diff"]) for t, v in tally.items()}
    groups: dict[tuple[int, int], set[str]] = {}
    for t, k in primary.items():
        groups.setdefault(k, set()).add(t)
    full_key: dict[str, tuple] = {}
    notes: dict[str, str] = {}
    for k, group in groups.items():
        h2h = _h2h(res, group) if len(group) > 1 else {t: (0, 0, 0) for t in group}
        for t in group:
            full_key[t] = (-k[0], -k[1], -h2h[t][0], -h2h[t][1])
            if len(group) > 1:  # a team that met none of them has no head-to-head figure
                notes[t] = (
                    phrase("head_to_head", points=h2h[t][0], diff=h2h[t][1])
                    if h2h[t][2]
                    else phrase("head_to_head_none")
                )
    order = sorted(tally, key=lambda t: (full_key[t], t))
    rows: list[StandingRow] = []
    for i, t in enumerate(order):
        rank = rows[-1].rank if rows and full_key[order[i - 1]] == full_key[t] else i + 1
        rows.append(StandingRow(rank=rank, team=t, tie_break=notes.get(t, ""), **tally[t]))
    return rows
