"""Pure helpers of the pre-game marker check: check-in (19.01, 32.01), one player's marker
check in progress and the verdict it leads to (19.05-19.07, 20.02), the head judge's
approval (19.05) and the disqualifications of a tournament (20.05).

No Textual, no TinyDB, no clock: times come in as arguments.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from fieldjudge.rules.chrono_readings import PlayerReadings
from fieldjudge.rules.events import Event, effective
from fieldjudge.rules.marker_check import (
    ACCEPTANCE_ITEMS,
    NOT_DONE,
    MarkerCheck,
    Shot,
    check_marker,
)
from fieldjudge.rules.paintball import events as ev
from fieldjudge.rules.paintball.checks import fps_of, num
from fieldjudge.rules.paintball.chrono import chrono_verdict
from fieldjudge.rules.paintball.setup import Settings

APPROVAL = "marker_approval"
"""The head judge approved a team's pre-game marker check results (19.05). data: ``team``,
``results`` {number: result}, ``approved_by`` str. Not a paintball engine event: the fold
ignores it; it documents the approval in the game's log."""

# --------------------------------------------------------------------------- check-in


def checkin_deadline(start: datetime, minutes: int = 3) -> datetime:
    """19.01: a team reports to the chrono at least `minutes` before its scheduled start."""
    return start - timedelta(minutes=minutes)


def checkin_late(start: datetime, at: datetime, minutes: int = 3) -> bool:
    """True when a check-in at `at` is later than 19.01 allows (a possible no-show, 32.01).
    Both datetimes on the same clock (naive local, as the schedule stores them)."""
    return at > checkin_deadline(start, minutes)


def checkin_data(team: str, at: datetime, start: datetime | None, minutes: int = 3) -> dict:
    """The ``checkin`` event of `team` reporting at `at` (``late`` per 19.01 when the game's
    start is known; the deadline is recorded with it)."""
    late = bool(start and checkin_late(start, at, minutes))
    data: dict[str, Any] = {"team": team, "late": late, "at": at.isoformat(timespec="seconds")}
    if start:
        data["deadline"] = checkin_deadline(start, minutes).isoformat(timespec="minutes")
    return data


def checkin_event(events: Iterable[Event], team: str) -> Event | None:
    """The last ``checkin`` of `team` in a game's log, or None."""
    found = None
    for e in events:
        if e.type == ev.CHECKIN and str(e.data.get("team")) == team:
            found = e
    return found


def approved(events: Iterable[Event], team: str) -> bool:
    """True when the head judge approved the results of `team` (19.05)."""
    return any(e.type == APPROVAL and e.data.get("team") == team for e in events)


# --------------------------------------------------------------------------- one marker


def _settings_map(settings: Settings) -> dict[str, Any]:
    c = settings.chrono
    return {
        "fps_precision": settings.fps_precision,  # 20.02 / 20.03
        "limit_fps": c.limit_fps,
        "rof_min_interval_ms": c.rof_min_interval_ms,
        "after_release_ms": c.after_release_ms,
        "after_release_window_ms": c.after_release_window_ms,
        "after_release_shots": 1,
        "max_balls": c.max_balls,
    }


@dataclass
class PlayerCheck(PlayerReadings):
    """The marker check of one player while it runs (a retest after 19.06 starts afresh).

    `shots` hold (fps, host monotonic seconds); `release_t` is the host time the judge
    marked "trigger released"; `extra_balls` are balls the radar missed (19.05: 140)."""

    slap_fired: bool | None = None
    release_t: float | None = None
    extra_balls: int = 0
    # 19.05: balls spent on this marker before the check was restarted (not reset)
    balls_before: int = 0
    # 19.03: by item of ACCEPTANCE_ITEMS: True found (refused), False clean, None not checked
    acceptance: dict[str, bool | None] = field(
        default_factory=lambda: dict.fromkeys(ACCEPTANCE_ITEMS)
    )
    modes: str | None = None  # 19.04: "ok", "forbidden" or None (not checked yet)

    @property
    def balls_used(self) -> int:
        return len(self.shots) + self.extra_balls

    def restarted(self) -> PlayerCheck:
        """A fresh check of the same marker (19.06 retest): the balls spent so far still
        count against the limit (19.05)."""
        return PlayerCheck(self.team, self.number, balls_before=self.balls_before + self.balls_used)

    def result(self, settings: Settings, tolerance_ms: float = 0.0) -> MarkerCheck:
        return check_marker(
            self.shots,
            slap_fired=self.slap_fired,
            release_t=self.release_t,
            balls_used=self.balls_used,
            settings=_settings_map(settings),
            tolerance_ms=tolerance_ms,
            balls_before=self.balls_before,
            acceptance=self.acceptance,
            modes=self.modes,
        )

    def record(self, check: MarkerCheck) -> dict[str, Any]:
        """What goes into the ``marker_verdict`` event besides team/number/result: the tests
        and the readings (ms after the first shot), so the log shows why."""
        t0 = self.shots[0].t if self.shots else 0.0
        rel = None if self.release_t is None else round((self.release_t - t0) * 1000, 1)
        return {
            "tests": {t.name: t.outcome for t in check.tests},
            "reasons": list(check.reasons),
            "max_fps": check.max_fps,
            "min_interval_ms": check.min_interval_ms,
            "balls_used": check.balls_used,
            "readings": [_reading_record(s, t0) for s in sorted(self.shots, key=lambda s: s.t)],
            "intervals_unknown": check.unknown_intervals,
            "release_ms": rel,
            "balls_before": self.balls_before,
            "acceptance": dict(self.acceptance),
            "modes": self.modes,
        }


def _reading_record(s: Shot, t0: float) -> dict[str, Any]:
    """One reading in the verdict's record: fps and ms after the first shot; how late the
    stamp may be (``lag_ms``) or ``timed`` False when its time is unknown (RULES.md)."""
    out: dict[str, Any] = {"fps": s.fps, "ms": round((s.t - t0) * 1000, 1)}
    if not s.timed:
        out["timed"] = False
    elif s.lag:
        out["lag_ms"] = round(s.lag * 1000, 1)
    if s.device_ms is not None:
        out["device_ms"] = s.device_ms
    return out


# --------------------------------------------------------------------------- the verdict

DISQUALIFIED = "disqualified"  # 20.05: recorded as not admitted, whatever the tests say
ADMITTED = "admitted"
UNFINISHED = "unfinished"  # a test is not done yet: nothing is recorded
FAILED = "failed"  # the judge chooses: fix and retest (19.06) or no marker (19.07)


def verdict_step(check: MarkerCheck, disqualified: bool) -> str:
    """What the verdict key leads to for a check in its current state."""
    if disqualified:
        return DISQUALIFIED
    if check.admitted:
        return ADMITTED
    if any(tr.outcome == NOT_DONE for tr in check.tests):
        return UNFINISHED
    return FAILED


def unfinished_tests(check: MarkerCheck) -> list[str]:
    """The names of the tests not done yet."""
    return [tr.name for tr in check.tests if tr.outcome == NOT_DONE]


def missing_verdicts(players: Iterable[Any]) -> list[int]:
    """The numbers of a team's players without a marker verdict (approval waits for them)."""
    return [p.number for p in players if p.marker_result is None]


# --------------------------------------------------------------------------- 20.05


@dataclass(frozen=True)
class Disqualification:
    """A player disqualified for the tournament in one game (20.05)."""

    team: str
    number: int
    game_id: str
    event_id: str
    text: str


def game_disqualifications(
    events: Iterable[Event], settings: Settings, game_id: str = ""
) -> list[Disqualification]:
    """Players disqualified for the tournament in one game's log (20.05): every effective
    ``chrono_reading`` or ``hang_verdict`` whose chrono verdict disqualifies."""
    out: list[Disqualification] = []
    hang_player: tuple[str, int | None] | None = None
    for e in effective(events):
        d: Mapping[str, Any] = e.data if isinstance(e.data, Mapping) else {}
        if e.type == ev.FLAG_HANG:
            hang_player = (str(d.get("team")), num(d.get("number")))
            continue
        if e.type == ev.CHRONO_READING:
            who: tuple[str, int | None] | None = (str(d.get("team")), num(d.get("number")))
        elif e.type == ev.HANG_VERDICT:
            who = hang_player
        else:
            continue
        if who is None or who[1] is None:
            continue
        try:
            cv = chrono_verdict(
                settings,
                fps_of(d.get("fps")),
                bool(d.get("forbidden_mode")),
                fps_of(d.get("interval_ms")),  # recorded only when measured (RULES.md)
            )
        except (TypeError, ValueError):  # a malformed record never blocks the scan
            continue
        if cv.disqualify:
            out.append(Disqualification(who[0], who[1], game_id, e.id, cv.text))
    return out


def disqualifications(
    games: Iterable[tuple[str, Iterable[Event]]], settings: Settings
) -> dict[tuple[str, int], Disqualification]:
    """(team, number) → the first disqualification over the games of a tournament."""
    out: dict[tuple[str, int], Disqualification] = {}
    for game_id, events in games:
        for dq in game_disqualifications(events, settings, game_id):
            out.setdefault((dq.team, dq.number), dq)
    return out
