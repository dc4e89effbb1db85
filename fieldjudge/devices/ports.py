"""Serial port discovery for the chronograph picker.

USB-serial adapters come first, and each shows its stable ``/dev/serial/by-id/...`` name when
one exists (pins go stale when cables are swapped, so the picker still lists every candidate).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from serial.tools import list_ports

__all__ = ["BAUDS", "DEFAULT_BAUD", "PortInfo", "list_chrono_ports", "by_id_names"]

BAUDS: tuple[int, ...] = (1200, 4800, 9600, 19200, 38400, 57600, 115200)
DEFAULT_BAUD = 9600
# Factory defaults seen in chrono-protocols.md, shown as hints next to the baud picker.
BAUD_HINTS: dict[str, int] = {
    "Decatur SI-3C": 1200,
    "Shooting Chrony": 4800,
    "Stalker Pro II (RadarGun setup)": 115200,
}

BY_ID_DIR = "/dev/serial/by-id"


@dataclass(frozen=True, slots=True)
class PortInfo:
    device: str  # what to open, e.g. /dev/ttyUSB0 or COM3
    by_id: str | None  # /dev/serial/by-id/usb-FTDI_... when present (Linux)
    description: str
    usb: bool  # a USB adapter (has a USB vendor id)
    vid: int | None = None
    pid: int | None = None
    serial_number: str | None = None

    @property
    def label(self) -> str:
        """A one-line label for a picker: stable name first when there is one."""
        name = self.by_id or self.device
        extra = f" ({self.device})" if self.by_id else ""
        return f"{name}{extra} — {self.description}"

    @property
    def open_path(self) -> str:
        """The path to open: the by-id name survives re-enumeration (ttyUSB0 → ttyUSB1)."""
        return self.by_id or self.device


def by_id_names(directory: str = BY_ID_DIR) -> dict[str, str]:
    """Map real device path → ``/dev/serial/by-id`` symlink (empty where the dir is absent)."""
    out: dict[str, str] = {}
    try:
        entries = sorted(os.listdir(directory))
    except OSError:
        return out
    for name in entries:
        link = os.path.join(directory, name)
        try:
            out.setdefault(os.path.realpath(link), link)
        except OSError:
            continue
    return out


def list_chrono_ports(include_links: bool = False) -> list[PortInfo]:
    """Every serial port pyserial sees, USB-serial adapters first, then by device name."""
    names = by_id_names()
    ports: list[PortInfo] = []
    for p in list_ports.comports(include_links=include_links):
        real = os.path.realpath(p.device) if os.name == "posix" else p.device
        ports.append(
            PortInfo(
                device=p.device,
                by_id=names.get(real),
                description=(p.description if p.description and p.description != "n/a" else "")
                or (p.product or p.manufacturer or "serial port"),
                usb=p.vid is not None,
                vid=p.vid,
                pid=p.pid,
                serial_number=p.serial_number,
            )
        )
    ports.sort(key=lambda x: (not x.usb, x.by_id is None, x.device))
    return ports
