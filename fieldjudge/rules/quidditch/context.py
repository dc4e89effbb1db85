"""The working context of one round's resolution: the state being built, the declarations,
the dice, and the small helpers every phase uses (rolls, feints, falls, warnings)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..dice import Dice, Roll
from .declarations import Declaration, feint_situation
from .outcome import WARNINGS, Outcome
from .roster import Player
from .state import LOOSE, Injury, MatchState, PendingPenalty, SeekerState

INJURIES_RU: tuple[str, ...] = (
    "ушиб плеча",
    "вывих запястья",
    "трещина ребра",
    "сотрясение",
    "перелом ключицы",
    "растяжение голеностопа",
    "рассечение брови",
    "ушиб колена",
    "выбитый палец",
    "ушиб спины",
)


class RoundContext:
    def __init__(self, state: MatchState, decls: Mapping[str, Declaration], dice: Dice):
        self.s = state  # a private copy, mutated in place
        self.setup = state.setup
        self.cfg = state.setup.settings
        self.round_no = state.round_no
        self.dice = dice
        self.outcomes: list[Outcome] = []
        self.active_start = {pid for pid in state.active_players()}
        # declarations of players who play this round (others' posts do not count)
        self.decls = {pid: d for pid, d in decls.items() if pid in self.active_start}
        self.fallen: dict[str, int] = {}  # knocked down / fallen / sent off this round
        self.scoring_keepers: set[str] = set()  # keepers facing a shot this round (11.5)
        self.bludger_next: dict[int, str] = {}  # index -> "rest" | "random"
        self.first_roll = 0  # index in dice.rolls where this resolution began
        self.hit_away: set[tuple[int, str]] = set()  # (bludger, beater) hit this round (8)

    # players ----------------------------------------------------------------------------
    def p(self, pid: str) -> Player:
        return self.setup.player(pid)

    def label(self, pid: str) -> str:
        return self.setup.label(pid)

    def decl(self, pid: str | None) -> Declaration | None:
        return None if pid is None else self.decls.get(pid)

    def up(self, pid: str | None) -> bool:
        """Plays this round and has not fallen yet."""
        return pid is not None and pid in self.active_start and pid not in self.fallen

    def in_post_order(self) -> list[Declaration]:
        return sorted(self.decls.values(), key=lambda d: (d.post_order <= 0, d.post_order))

    # dice -------------------------------------------------------------------------------
    def roll(self, purpose: str, threshold: int | None = None) -> Roll:
        return self.dice.roll(purpose, threshold)

    def thr(self, base: float, *bonuses: float) -> int:
        return self.cfg.threshold(base, *bonuses)

    def feint(self, pid: str, situation: str) -> tuple[str | None, int]:
        """(feint name, bonus) if ``pid`` declared a feint for ``situation``; the bonus is
        clipped into the feint's range (12)."""
        d = self.decl(pid)
        if d is None or d.feint is None or feint_situation(self.s, d) != situation:
            return None, 0
        f = self.setup.feints.get(d.feint)
        assert f is not None
        lo, hi = f.bonus_range(situation)
        return f.name, max(lo, min(hi, d.feint_bonus))

    # outcomes ---------------------------------------------------------------------------
    def emit(
        self,
        phase: str,
        kind: str,
        section: str,
        players: tuple[str, ...] = (),
        rolls: tuple[Roll, ...] | list[Roll] = (),
        **data: Any,
    ) -> Outcome:
        o = Outcome(phase, kind, section, tuple(players), tuple(rolls), data)
        self.outcomes.append(o)
        return o

    # falls ------------------------------------------------------------------------------
    def fall(self, pid: str, rounds: int) -> None:
        """Out for ``rounds`` rounds after this one; a fallen carrier drops the quaffle (10);
        a fallen seeker loses his chase."""
        self.fallen[pid] = max(rounds, self.fallen.get(pid, 0))
        q = self.s.quaffle
        if q.holder == pid:
            q.status, q.holder = LOOSE, None
        if pid in self.s.seekers:
            self.s.seekers[pid] = SeekerState()

    def injure(self, pid: str, phase: str, section: str = "7") -> None:
        """Knocked down by a bludger: out 2 rounds with an injury; 5 % end his match."""
        self.fall(pid, self.cfg.knockdown_rounds)
        text, draw = self.dice.choose("травма", INJURIES_RU)
        ends = self.roll("травма до конца матча", self.thr(self.cfg.injury_ends_match))
        if ends.success:
            self.s.removed[pid] = "injury"
        self.s.injuries.append(Injury(self.round_no, pid, text, bool(ends.success)))
        self.emit(
            phase, "injury", section, (pid,), [*draw, ends], text=text, ends_match=ends.success
        )

    def remove(self, pid: str, reason: str) -> None:
        self.fall(pid, 0)
        self.s.removed[pid] = reason

    # warnings ---------------------------------------------------------------------------
    def all_warnings(self, team: str) -> int:
        """11.7 «после получения 3 любых предупреждений»: the team's warnings plus the
        non-game warnings of its players (11.1, 11.2)."""
        own = sum(n for pid, n in self.s.player_warnings.items() if self.p(pid).team == team)
        return self.s.team_warnings.get(team, 0) + own

    def _any_three(self, team: str) -> None:
        if self.all_warnings(team) % self.cfg.warnings_per_penalty == 0:
            self.penalty(team, "11.7")

    def team_warning(self, team: str, section: str, pid: str | None = None) -> None:
        w = self.s.team_warnings
        w[team] = w.get(team, 0) + 1
        self.emit(
            WARNINGS, "team_warning", section, (pid,) if pid else (), team=team, count=w[team]
        )
        self._any_three(team)

    def player_warning(self, pid: str, section: str, **data: Any) -> None:
        w = self.s.player_warnings
        w[pid] = w.get(pid, 0) + 1
        self.emit(WARNINGS, "player_warning", section, (pid,), count=w[pid], **data)
        self._any_three(self.p(pid).team)  # 11.7: non-game warnings count too

    def penalty(self, team: str, section: str) -> None:
        self.s.penalties.append(PendingPenalty(team, section, self.round_no))
        self.emit(WARNINGS, "penalty_awarded", section, (), team=team)
