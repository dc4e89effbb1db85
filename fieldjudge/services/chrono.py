"""Non-UI glue of the chrono screens: the chosen port (remembered for the session), the
timing tolerance of that link, and the store helpers (a game's folded state, the
tournament's disqualifications).  No Textual here."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from fieldjudge.devices.ports import DEFAULT_BAUD, list_chrono_ports
from fieldjudge.rules.chrono_checks import Disqualification, disqualifications
from fieldjudge.rules.marker_check import TimingTolerance, timing_tolerance
from fieldjudge.rules.paintball.setup import Settings

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


_UNSET = object()


def session_config(app: Any) -> ChronoConfig | None:
    """The port chosen in this run of the app (the first call picks the default)."""
    cfg = getattr(app, "_fieldjudge_chrono_config", _UNSET)
    if cfg is _UNSET:
        cfg = default_config()
        app._fieldjudge_chrono_config = cfg
    return cfg  # type: ignore[return-value]


def set_session_config(app: Any, cfg: ChronoConfig | None) -> None:
    app._fieldjudge_chrono_config = cfg


# --------------------------------------------------------------------------- store helpers


def tournament_settings(t) -> Settings:
    return Settings.from_dict(t.settings)


def game_state(t, game_id: str):
    """(setup, folded state, log) of a game; creates the log file when it is missing."""
    from fieldjudge.rules.paintball import fold
    from fieldjudge.services.results import setup_for

    log = t.game_log(game_id)
    setup = setup_for(t, game_id, log)
    return setup, fold(setup, log.events), log


def tournament_disqualifications(
    t, skip_game: str | None = None
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
            games.append((gid, list(t.game_log(gid, create=False).events)))
        except (DamagedFile, OSError, ValueError):
            unreadable.append(gid)
    return disqualifications(games, tournament_settings(t)), unreadable
