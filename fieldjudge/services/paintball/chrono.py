"""The chrono service: the chosen port (remembered per laptop, and for the run in a
:class:`ChronoSession` given to the app), the timing tolerance of that link, a game's folded
state and the tournament's disqualifications.  No Textual here.

The chosen port is remembered on this laptop, not in the tournament (another laptop has
another cable): ``chrono.json`` in the user config folder (platformdirs; the folder can be
set with ``FIELDJUDGE_CONFIG``, as for the laptop's key).  It holds the port, baud, format, unit, the plausible
window and the identity of the device (USB serial number or ``/dev/serial/by-id`` name), so
after a replug the reader accepts only that same chronograph.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from fieldjudge.devices.parsers import FORMATS, PLAUSIBLE_FPS, UNIT_TO_FPS
from fieldjudge.devices.ports import DEFAULT_BAUD, DeviceId, identify_port, list_chrono_ports
from fieldjudge.i18n import _, rule_text
from fieldjudge.rules.chrono_checks import Disqualification, disqualifications
from fieldjudge.rules.events import Event
from fieldjudge.rules.marker_check import TimingTolerance, timing_tolerance
from fieldjudge.rules.os_errors import os_error_phrase
from fieldjudge.rules.paintball.setup import Settings
from fieldjudge.store import DamagedFile
from fieldjudge.store.keys import default_config_dir
from fieldjudge.store.storage import atomic_write_bytes, make_dirs

if TYPE_CHECKING:
    from fieldjudge.services.tournament import TournamentService

ENV_PORT = "FIELDJUDGE_CHRONO_PORT"  # e.g. the simulator's --link path for rehearsals
REMEMBERED_FILE = "chrono.json"

# Typical frame length (bytes, terminator included) and message period (ms) per format:
# chrono-protocols.md.  "auto" assumes the longest plain line.
FRAME_LEN = {"plain": 7, "stalker-a": 6, "decatur": 7, "chrony": 24, "stalker-be": 53, "auto": 7}
PERIOD_MS = {"stalker-be": 50.0}  # constant-on bE guns stream at about 20 Hz
FTDI_LATENCY_MS = 16.0  # default latency timer; the reader asks for 1 ms where it can


@dataclass(frozen=True)
class ChronoConfig:
    """The chronograph this laptop reads: port, speed, format, unit."""

    port: str
    baud: int = DEFAULT_BAUD
    fmt: str = "auto"
    unit: str = "fps"
    device: DeviceId | None = None  # the chronograph chosen; None = whatever is on the port
    plausible: tuple[float, float] = field(default=PLAUSIBLE_FPS)  # fps; outside → error

    def tolerance(self) -> TimingTolerance:
        return link_tolerance(self.baud, self.fmt)

    @property
    def label(self) -> str:
        return f"{self.port} @ {self.baud} · {self.fmt} · {self.unit}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "port": self.port,
            "baud": self.baud,
            "fmt": self.fmt,
            "unit": self.unit,
            "device": self.device.to_dict() if self.device else None,
            "plausible": list(self.plausible),
        }

    @classmethod
    def from_dict(cls, d: Any) -> ChronoConfig | None:
        """None when `d` is not a valid saved config (a damaged file is ignored, not fatal)."""
        if not isinstance(d, dict) or not isinstance(d.get("port"), str) or not d["port"]:
            return None
        baud, fmt, unit = d.get("baud", DEFAULT_BAUD), d.get("fmt", "auto"), d.get("unit", "fps")
        lo_hi = d.get("plausible", list(PLAUSIBLE_FPS))
        ok = (
            isinstance(baud, int)
            and baud > 0
            and (fmt == "auto" or fmt in FORMATS)
            and unit in UNIT_TO_FPS
            and isinstance(lo_hi, list)
            and len(lo_hi) == 2
            and all(isinstance(v, int | float) for v in lo_hi)
            and 0 < lo_hi[0] < lo_hi[1]
        )
        if not ok:
            return None
        device = DeviceId.from_dict(d.get("device"))
        return cls(d["port"], baud, fmt, unit, device, (float(lo_hi[0]), float(lo_hi[1])))


def remembered_path() -> Path:
    """In this laptop's config folder, the one its signing key uses (``FIELDJUDGE_CONFIG``)."""
    return default_config_dir() / REMEMBERED_FILE


def load_remembered() -> ChronoConfig | None:
    """The port this laptop used last time, or None (never chosen, unreadable, damaged)."""
    try:
        data = orjson.loads(remembered_path().read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    return ChronoConfig.from_dict(data)


def remember(cfg: ChronoConfig) -> None:
    """Save `cfg` for the next run (atomically: a crash leaves the old file or the new one).
    Raises OSError when the config folder cannot be written."""
    path = remembered_path()
    make_dirs(path.parent)
    atomic_write_bytes(path, orjson.dumps(cfg.to_dict(), option=orjson.OPT_INDENT_2))


def with_identity(cfg: ChronoConfig) -> ChronoConfig:
    """`cfg` with the identity of the device on its port now (kept when none is there)."""
    try:
        found = identify_port(cfg.port)
    except Exception:  # noqa: BLE001 - discovery must never stop a screen
        found = None
    if found is None or not found.known:
        return cfg
    return replace(cfg, device=found)


def link_tolerance(baud: int, fmt: str) -> TimingTolerance:
    """The worst case of the serial link (DESIGN.md "Chronograph input")."""
    return timing_tolerance(
        max(1, int(baud)), FRAME_LEN.get(fmt, 7), FTDI_LATENCY_MS, PERIOD_MS.get(fmt, 0.0)
    )


def default_config() -> ChronoConfig | None:
    """$FIELDJUDGE_CHRONO_PORT, else the port remembered on this laptop, else the first
    USB-serial adapter, else None (ask)."""
    env = os.environ.get(ENV_PORT, "").strip()
    if env:
        return ChronoConfig(env)
    saved = load_remembered()
    if saved is not None:
        return saved
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

    def choose(self, cfg: ChronoConfig | None) -> str | None:
        """Use ``cfg`` in this run and remember it on this laptop; returns why it could
        not be remembered (the config folder is not writable), or None."""
        self._config = cfg
        self._asked = True
        if cfg is None:
            return None
        try:
            remember(cfg)
        except OSError as exc:
            return str(exc)
        return None


# --------------------------------------------------------------------------- store helpers


def tournament_settings(t: TournamentService) -> Settings:
    return Settings.from_dict(t.settings)


def tournament_disqualifications(
    t: TournamentService,
) -> tuple[dict[tuple[str, int], Disqualification], list[str]]:
    """Disqualifications (20.05) over every game file of the tournament, and the game ids
    whose files could not be read (named to the judge, never silently skipped)."""
    games = []
    unreadable = []
    for g in t.games():
        gid = g["id"]
        if not t.game_path(gid).exists():
            continue
        try:
            events: list[Event] = list(t.game_log(gid, create=False).events)
            games.append((gid, events))
        except (DamagedFile, OSError, ValueError):
            unreadable.append(gid)
    return disqualifications(games, tournament_settings(t)), unreadable


#: what the serial library (or the OS) says when the link breaks, as the judge needs it:
#: a fragment of its English message → the judge's words (first match wins)
LINK_FAULTS = (
    ("permission denied", "no access to the port (the user is not in the dialout group)"),
    ("no such file", "the port is gone: is the cable plugged in?"),
    ("could not open port", "the port cannot be opened: is the cable plugged in?"),
    ("cannot open", "the port cannot be opened: is the cable plugged in?"),
    ("returned no data", "the device was unplugged"),
    ("input/output error", "the device was unplugged"),
    ("device disconnected", "the device was unplugged"),
    ("busy", "the port is busy: another program uses it"),
)


def link_fault_text(message: str, code: str = "") -> str:
    """Why the chronograph link broke, in the UI language; a library's English message
    never reaches the judge (issue 25). ``code``: the OS error's errno name, when known
    (its meaning and name are shown)."""
    if code:
        return rule_text(os_error_phrase(code))
    low = message.lower()
    for fragment, text in LINK_FAULTS:
        if fragment in low:
            return _(text)
    return _("the link to the chronograph was lost")


def port_lost_text(message: str, code: str = "") -> str:
    """«Порт хронографа пропал: устройство пропало (ENXIO)»: the port went away (cable
    pulled, simulator stopped), why in the judge's words and the errno name."""
    return _("chrono port gone: {why}").format(why=link_fault_text(message, code))
