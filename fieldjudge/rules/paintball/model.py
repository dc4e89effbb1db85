"""The state a game log folds into. Plain dataclasses, rebuilt by every fold: treat them as
read-only in screens."""

from __future__ import annotations

from dataclasses import dataclass, field

from fieldjudge.rules.paintball.setup import GameSetup

# phases
NOT_STARTED = "not_started"
RUNNING = "running"
STOPPED = "stopped"  # "Time!" by the judge
HANG_CHECK = "hang_check"  # 23.01: awaiting the flag-hang verdict
ENDED = "ended"  # transient: the fold moves on to inspection or final at once
INSPECTION = "inspection"  # 18.02: unhit players still to be marked
FINAL = "final"
PHASES = (NOT_STARTED, RUNNING, STOPPED, HANG_CHECK, ENDED, INSPECTION, FINAL)

# player statuses
IN_PLAY = "in_play"
ELIMINATED = "eliminated"
NEUTRAL = "neutral"
NOT_ADMITTED = "not_admitted"
NO_MARKER = "no_marker"
DISQUALIFIED = "disqualified"  # 20.05 in an earlier game: cannot be put in play
ON_FIELD = (IN_PLAY, NEUTRAL, NO_MARKER)  # unhit players who count as alive

# flag locations
AT_BASE = "at_base"  # original or spare (see FlagState.spares_hung)
CARRIED = "carried"
HUNG = "hung"  # counted flag hang (23.03)
TAKEN_BY_JUDGE = "taken_by_judge"  # carrier out at the post-game inspection

# end reasons
END_FLAG_HANG = "flag_hang"
END_CLOCK = "clock"
END_TEAM_OUT = "team_out"
END_JUDGE = "judge"
END_NO_SHOW = "no_show"

PlayerKey = tuple[str, int]


@dataclass
class Elimination:
    """How a player left play: the reason, its section, when and by which event."""

    reason: str
    section: str
    game_clock_ms: int | None
    event_id: str
    text: str = ""


@dataclass
class Check:
    """A paint (24) or neutral (25) check of a player: when it began and ended, and how."""

    kind: str  # "paint" (24) | "neutral" (25)
    start_ms: int | None
    end_ms: int | None = None
    outcome: str | None = None  # eliminated | in_play | escalated | interrupted


@dataclass
class PlayerState:
    """One player of the game as the events left him: in play, checked, out, disqualified..."""

    team: str
    number: int
    name: str
    captain: bool = False
    status: str = IN_PLAY
    has_marker: bool = True
    marker_result: str | None = None  # last pre-game verdict (19)
    elimination: Elimination | None = None
    check: Check | None = None  # open paint or neutral check
    checks: list[Check] = field(default_factory=list)  # finished checks
    carrying: str | None = None  # team id whose flag he carries
    disqualified: bool = False  # 20.05
    inspection: str | None = None  # 18.02 result
    old_paint: list[str] = field(default_factory=list)  # 29.10: spots reported before the game
    benched: bool = False  # 30.01: on the roster, not in this game's line-up

    @property
    def key(self) -> PlayerKey:
        return (self.team, self.number)

    @property
    def unhit(self) -> bool:
        return not self.benched and self.status in ON_FIELD


@dataclass
class Capture:
    """A flag taken from its base (22): by whom, when, by which event."""

    team: str
    number: int
    game_clock_ms: int | None
    seq: int


@dataclass
class FlagState:
    """A team's flag: where it is, who carries it, the spares hung (22-23)."""

    owner: str  # the team whose flag (and base) it is
    location: str = AT_BASE
    carrier: PlayerKey | None = None
    since_ms: int | None = None  # carried by the current carrier since
    spares_hung: int = 0  # 22.04 / 23.02
    taken_by_judge: int = 0
    captures: list[Capture] = field(default_factory=list)


@dataclass
class ClockState:
    """The game clock (17-18): its length, whether it runs, the time elapsed."""

    length_ms: int
    started: bool = False
    running: bool = False
    elapsed_ms: int = 0  # at the last start/resume while running, else where it stopped
    anchor_wall: str | None = None  # wall_time of the last start/resume while running


@dataclass
class HangAttempt:
    """A touch of the flag to the hanging point and its verdict (23)."""

    team: str
    number: int
    touch_ms: int | None
    event_id: str
    counted: bool | None = None  # None while awaiting the verdict
    text: str = ""


@dataclass
class ChronoRecord:
    """An in-game chronograph reading and what it brought (20.02-20.05)."""

    team: str
    number: int
    fps: float | None
    forbidden_mode: bool
    game_clock_ms: int | None
    event_id: str
    penalty: str
    text: str
    source: str = ""


@dataclass
class Note:
    """A rejected event or a record flagged for the head judge."""

    event_id: str
    seq: int
    type: str
    text: str


@dataclass
class GameState:
    """The state of a game folded from its events: players, flags, clock, phase, notes."""

    setup: GameSetup
    phase: str
    players: dict[PlayerKey, PlayerState]
    flags: dict[str, FlagState]  # by owner team
    clock: ClockState
    end_reason: str | None = None
    end_ms: int | None = None
    hangs: list[HangAttempt] = field(default_factory=list)
    hang_team: str | None = None  # team whose flag hang counted
    chrono: list[ChronoRecord] = field(default_factory=list)
    checkins: dict[str, bool] = field(default_factory=dict)  # team -> late
    no_show: frozenset[str] = frozenset()
    no_show_cause: str | None = None  # 32.03: "team" | "organisers"
    first_capture_team: str | None = None
    rejected: list[Note] = field(default_factory=list)
    flagged: list[Note] = field(default_factory=list)  # for the head judge
    penalty_reports: list[Note] = field(default_factory=list)  # 18.02 hits found
    team_penalties: list[Note] = field(default_factory=list)  # 20.05 → section 11; 28.02
    inspection_points: dict[str, int] = field(default_factory=dict)  # 18.02: team -> points
    lineups: dict[str, tuple[int, ...]] = field(default_factory=dict)  # 30.01: recorded ones
    ignored: list[str] = field(default_factory=list)  # ids of unknown event types

    # --- queries ---------------------------------------------------------------------

    def player(self, team: str, number: int) -> PlayerState | None:
        return self.players.get((str(team), number))

    def team_players(self, team: str) -> list[PlayerState]:
        return [p for p in self.players.values() if p.team == team]

    def lineup(self, team: str) -> list[PlayerState]:
        """30.01: the players of ``team`` who play this game (the recorded line-up, else
        the whole roster); a disqualified player (20.05) is never among them."""
        return [p for p in self.team_players(team) if not p.benched and not p.disqualified]

    def alive(self, team: str) -> int:
        return sum(1 for p in self.team_players(team) if p.unhit)

    @property
    def teams_out(self) -> list[str]:
        """Teams with no unhit player left (a game in progress goes on: "How a game ends")."""
        if not self.clock.started:
            return []
        return [t for t in self.setup.teams if self.alive(t) == 0]

    @property
    def only_team_in_play(self) -> str | None:
        """23.03 / 30.01: while the game runs, the one team still in play when the other has
        nobody left -- it may still capture and hang the flag. None otherwise."""
        if self.ended or not self.clock.started:
            return None
        out = self.teams_out
        if len(out) != 1:
            return None
        return self.setup.opponent(out[0])

    @property
    def ended(self) -> bool:
        return self.phase in (ENDED, INSPECTION, FINAL)

    @property
    def pending_hang(self) -> HangAttempt | None:
        if self.phase == HANG_CHECK and self.hangs and self.hangs[-1].counted is None:
            return self.hangs[-1]
        return None

    def to_inspect(self) -> list[PlayerState]:
        """18.02: unhit players not yet marked (only once the game ended)."""
        if self.phase not in (INSPECTION, FINAL):
            return []
        return [p for p in self.players.values() if p.unhit and p.inspection is None]

    def carrier_of(self, flag_owner: str) -> PlayerState | None:
        f = self.flags.get(flag_owner)
        if f is None or f.carrier is None:
            return None
        return self.players.get(f.carrier)

    def flag_held_by(self, team: str) -> FlagState | None:
        """The opponents' flag if ``team`` holds it with an unhit carrier (30.01)."""
        f = self.flags.get(self.setup.opponent(team))
        if f is None or f.location != CARRIED or f.carrier is None or f.carrier[0] != team:
            return None
        p = self.players.get(f.carrier)
        return f if p is not None and p.unhit else None
