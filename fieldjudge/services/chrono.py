"""The chrono service: the chosen port (remembered for the run: :class:`ChronoSession`),
the timing tolerance of that link, a game's folded state and the tournament's
disqualifications.  No Textual here."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fieldjudge.devices.ports import DEFAULT_BAUD, list_chrono_ports
from fieldjudge.rules.chrono_checks import Disqualification, disqualifications
from fieldjudge.rules.events import Event
from fieldjudge.rules.marker_check import TimingTolerance, timing_tolerance
from fieldjudge.rules.paintball.model import GameState
from fieldjudge.rules.paintball.setup import GameSetup, Settings
from fieldjudge.store import EventLog

if TYPE_CHECKING:
    from fieldjudge.services.tournament import TournamentService

ENV_PORT = "FIELDJUDGE_CHRONO_PORT"  # e.g. the simulator's --link path for rehearsals

# Typical frame length (bytes, terminator included) and message period (ms) per format:
# chrono-protocols.md.  "auto" assumes the longest plain line.
FRAME_LEN = {"plain": 7, "stalker-a": 6, "decatur": 7, "chrony": 24, "stalker-be": 53, "auto": 7}
PERIOD_MS = {"stalker-be": 50.0}  # constant-on bE guns stream at about 20 Hz
FTDI_LATENCY_MS = 16.0  # default latency timer; the reader asks for 1 ms where it can


@dataclass(frozen=True)
class ChronoConfig:
    port: str
    baud: int = DEFAULT_BAUD
    fmt: str = "auto"
    unit: str = "fps"

    def tolerance(self) -> TimingTolerance:
        return link_tolerance(self.baud, self.fmt)

    @property
    def label(self) -> str:
        return f"{self.port} @ {self.baud} · {self.fmt} · {self.unit}"


def link_tolerance(baud: int, fmt: str) -> TimingTolerance:
    """The worst case of the serial link (DESIGN.md "Chronograph input")."""
    return timing_tolerance(
        max(1, int(baud)), FRAME_LEN.get(fmt, 7), FTDI_LATENCY_MS, PERIOD_MS.get(fmt, 0.0)
    )


def default_config() -> ChronoConfig | None:
    """$FIELDJUDGE_CHRONO_PORT, else the first USB-serial adapter, else None (ask)."""
    env = os.environ.get(ENV_PORT, "").strip()
    if env:
        return ChronoConfig(env)
    try:
        ports = [p for p in list_chrono_ports() if p.usb]
    except Exception:  # noqa: BLE001 - discovery must never stop a screen
        return None
    return ChronoConfig(ports[0].open_path) if ports else None


class ChronoSession:
    """The chronograph chosen in this run of the app: the default (``default_config``) is
    looked up on first use, the judge's choice replaces it. Given to the app once."""

    def __init__(self, default: Callable[[], ChronoConfig | None] | None = None) -> None:
        self._default = default
        self._config: ChronoConfig | None = None
        self._asked = False

    @property
    def config(self) -> ChronoConfig | None:
        if not self._asked:
            self._config = (self._default or default_config)()
            self._asked = True
        return self._config

    def choose(self, cfg: ChronoConfig | None) -> None:
        self._config = cfg
        self._asked = True


# --------------------------------------------------------------------------- store helpers


def tournament_settings(t: TournamentService) -> Settings:
    return Settings.from_dict(t.settings)


def game_state(t: TournamentService, game_id: str) -> tuple[GameSetup, GameState, EventLog]:
    """(setup, folded state, log) of a game; creates the log file when it is missing."""
    from fieldjudge.rules.paintball import fold
    from fieldjudge.services.results import setup_for

    log = t.game_log(game_id)
    setup = setup_for(t, game_id, log)
    return setup, fold(setup, log.events), log


def tournament_disqualifications(
    t: TournamentService, skip_game: str | None = None
) -> tuple[dict[tuple[str, int], Disqualification], list[str]]:
    """Disqualifications (20.05) over every game file of the tournament, and the game ids
    whose files could not be read (named to the judge, never silently skipped)."""
    from fieldjudge.store import DamagedFile

    games = []
    unreadable = []
    for g in t.games():
        gid = g["id"]
        if gid == skip_game or not t.game_path(gid).exists():
            continue
        try:
            events: list[Event] = list(t.game_log(gid, create=False).events)
            games.append((gid, events))
        except (DamagedFile, OSError, ValueError):
            unreadable.append(gid)
    return disqualifications(games, tournament_settings(t)), unreadable
