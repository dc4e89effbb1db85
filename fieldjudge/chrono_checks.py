"""Pure helpers of the chrono screens: check-in lateness (19.01, 32.01), one player's marker
check in progress (19.05-19.07, 20.02) and the disqualifications of a tournament (20.05).

No Textual, no TinyDB, no clock: times come in as arguments.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from fieldjudge.rules.events import Event, effective
from fieldjudge.rules.marker_check import MarkerCheck, Shot, check_marker
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


# --------------------------------------------------------------------------- one marker


def _settings_map(settings: Settings) -> dict[str, float]:
    c = settings.chrono
    return {
        "limit_fps": c.limit_fps,
        "rof_min_interval_ms": c.rof_min_interval_ms,
        "after_release_ms": c.after_release_ms,
        "after_release_shots": 1,
        "max_balls": c.max_balls,
    }


@dataclass
class PlayerCheck:
    """The marker check of one player while it runs (a retest after 19.06 starts afresh).

    `shots` hold (fps, host monotonic seconds); `release_t` is the host time the judge
    marked "trigger released"; `extra_balls` are balls the radar missed (19.05: 140)."""

    team: str
    number: int
    shots: list[Shot] = field(default_factory=list)
    slap_fired: bool | None = None
    release_t: float | None = None
    extra_balls: int = 0
    typed: int = 0  # readings typed by the judge

    def add(self, fps: float, t: float) -> None:
        self.shots.append(Shot(float(fps), float(t)))

    @property
    def balls_used(self) -> int:
        return len(self.shots) + self.extra_balls

    def result(self, settings: Settings, tolerance_ms: float = 0.0) -> MarkerCheck:
        return check_marker(
            self.shots,
            slap_fired=self.slap_fired,
            release_t=self.release_t,
            balls_used=self.balls_used,
            settings=_settings_map(settings),
            tolerance_ms=tolerance_ms,
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
            "readings": [
                {"fps": s.fps, "ms": round((s.t - t0) * 1000, 1)}
                for s in sorted(self.shots, key=lambda s: s.t)
            ],
            "release_ms": rel,
        }


# --------------------------------------------------------------------------- 20.05


@dataclass(frozen=True)
class Disqualification:
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
                fps_of(d.get("interval_ms")),
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
