"""The readings of one player at the chrono while the judge takes them: the part the pre-game
marker check (19) and the in-game chrono (20.02) share, and the in-game record (20.02-20.05).

No Textual, no TinyDB, no clock: reading times come in as arguments.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from fieldjudge.rules.marker_check import Shot, analyze_readings
from fieldjudge.rules.paintball import model as m

TYPED = "typed"
DEVICE = "device"


def parse_fps(text: str) -> float | None:
    """A speed the judge typed ("287.5" or "287,5"), or None when it is not a plausible one."""
    try:
        v = float(text.strip().replace(",", "."))
    except ValueError:
        return None
    return v if 0 < v < 1000 else None


def reading_source(reading_format: str) -> str:
    """``typed`` for a reading the judge typed, ``device`` for one the chronograph sent."""
    return TYPED if reading_format == TYPED else DEVICE


@dataclass
class PlayerReadings:
    """The readings of one player so far: `shots` hold (fps, host monotonic seconds, how
    late that time may be, the device's own interval); RULES.md "Timing a string of shots"."""

    team: str
    number: int
    shots: list[Shot] = field(default_factory=list)
    typed: int = 0  # readings typed by the judge

    def add(
        self,
        fps: float,
        t: float,
        source: str = DEVICE,
        lag: float = 0.0,
        device_ms: float | None = None,
    ) -> None:
        """One reading. A typed one has no shot time: its interval is never measured."""
        if source == TYPED:
            self.typed += 1
            lag, device_ms = math.inf, None
        self.shots.append(Shot(float(fps), float(t), float(lag), device_ms))

    def add_reading(self, reading: Any) -> None:
        """A `fieldjudge.devices.parsers.Reading` (its format says typed or device)."""
        self.add(
            reading.fps,
            reading.t,
            reading_source(reading.format),
            getattr(reading, "lag", 0.0),
            getattr(reading, "device_ms", None),
        )

    def clear(self) -> None:
        self.shots.clear()
        self.typed = 0

    @property
    def source(self) -> str:
        """``device`` when at least one reading came from the chronograph, else ``typed``."""
        return DEVICE if len(self.shots) > self.typed else TYPED


@dataclass
class InGameReadings(PlayerReadings):
    """20.02: the readings of one player in a game, and whether the judge saw a forbidden
    firing mode (20.05)."""

    forbidden_mode: bool = False
    # 20.02: the 1-3 shots the verdict is taken on (indexes into ``shots``, in the order
    # the judge picked them); empty: the last three readings
    chosen: list[int] = field(default_factory=list)

    MAX_CHOSEN = 3

    def clear(self) -> None:
        super().clear()
        self.chosen.clear()

    def judged(self) -> list[int]:
        """Indexes of the shots the verdict is taken on (20.02: one to three)."""
        if self.chosen:
            return sorted(i for i in self.chosen if i < len(self.shots))
        return list(range(max(0, len(self.shots) - self.MAX_CHOSEN), len(self.shots)))

    def toggle(self, index: int) -> bool:
        """Pick or drop shot ``index`` (0-based) for the verdict; False when it does not
        exist or three are picked already (20.02: at most three)."""
        if not 0 <= index < len(self.shots):
            return False
        if index in self.chosen:
            self.chosen.remove(index)
            return True
        if len(self.chosen) >= self.MAX_CHOSEN:
            return False
        self.chosen.append(index)
        return True

    def event_data(self) -> dict[str, Any] | None:
        """The ``chrono_reading`` event for these readings: the highest of the shots the
        judge chose (20.02, as read) with those shots, and the shortest measured interval of
        all (``interval_ms``) with the count of intervals not measured
        (``intervals_unknown``, never judged: RULES.md "Timing a string of shots"), or None
        before the first reading."""
        if not self.shots:
            return None
        a = analyze_readings(self.shots)
        shots = [self.shots[i].fps for i in self.judged()]
        data: dict[str, Any] = {
            "team": self.team,
            "number": self.number,
            "fps": max(shots),
            "shots": shots,
            "forbidden_mode": self.forbidden_mode,
            "source": self.source,
        }
        if a.min_interval_ms is not None:
            data["interval_ms"] = a.min_interval_ms
        if a.unknown_intervals:
            data["intervals_unknown"] = a.unknown_intervals
        return data


def chrono_candidates(state: m.GameState, teams: Iterable[str]) -> list[m.PlayerState]:
    """The players the in-game chrono may check: in play and carrying a marker."""
    out: list[m.PlayerState] = []
    for team in teams:
        out += [
            p
            for p in state.team_players(team)
            if p.unhit and p.status == m.IN_PLAY and p.has_marker
        ]
    return out
