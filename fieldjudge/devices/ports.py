"""Serial port discovery for the chronograph picker.

USB-serial adapters come first, and each shows its stable ``/dev/serial/by-id/...`` name when
one exists (pins go stale when cables are swapped, so the picker still lists every candidate).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from serial.tools import list_ports

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
    serial_number: str | None = None

    @property
    def label(self) -> str:
        """A one-line label for a picker: stable name first when there is one."""
        name = self.by_id or self.device
        extra = f" ({self.device})" if self.by_id else ""
        return f"{name}{extra} — {self.description}" if self.description else name + extra

    @property
    def open_path(self) -> str:
        """The path to open: the by-id name survives re-enumeration (ttyUSB0 → ttyUSB1)."""
        return self.by_id or self.device


@dataclass(frozen=True, slots=True)
class DeviceId:
    """Which physical chronograph (its USB-serial adapter) a port is: the USB serial number
    when the adapter has one, else its ``/dev/serial/by-id`` name.  A port with neither (a
    built-in serial port, a pseudo-terminal) cannot be told apart from another device."""

    by_id: str | None = None
    serial_number: str | None = None
    description: str = ""

    @property
    def known(self) -> bool:
        return bool(self.serial_number or self.by_id)

    @property
    def label(self) -> str:
        """How the judge is told which device: ``USB serial A1B2 (FT232R USB UART)``."""
        if self.serial_number:
            name = f"USB serial {self.serial_number}"
        elif self.by_id:
            name = os.path.basename(self.by_id)
        else:
            name = "unidentified serial device"
        return f"{name} ({self.description})" if self.description else name

    def matches(self, other: DeviceId | None) -> bool:
        """Is `other` (what is on the port now) this device?  A device we cannot identify
        ourselves accepts any; an identified one needs the same serial number (or, without
        one, the same by-id name)."""
        if not self.known:
            return True
        if other is None:
            return False
        if self.serial_number:
            return other.serial_number == self.serial_number
        return other.by_id == self.by_id

    def to_dict(self) -> dict[str, str | None]:
        return {
            "by_id": self.by_id,
            "serial_number": self.serial_number,
            "description": self.description,
        }

    @classmethod
    def from_dict(cls, d: object) -> DeviceId | None:
        if not isinstance(d, dict):
            return None
        by_id, sn, desc = d.get("by_id"), d.get("serial_number"), d.get("description", "")
        if not all(isinstance(v, str | None) for v in (by_id, sn)) or not isinstance(desc, str):
            return None
        return cls(by_id or None, sn or None, desc)


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
                or (p.product or p.manufacturer or ""),
                usb=p.vid is not None,
                serial_number=p.serial_number,
            )
        )
    ports.sort(key=lambda x: (not x.usb, x.by_id is None, x.device))
    return ports


def identify_port(path: str) -> DeviceId | None:
    """The identity of the device now at `path` (a device path or by-id name), from
    pyserial's port list; None when no port is there (unplugged) or for a URL."""
    if "://" in path:
        return None
    real = os.path.realpath(path) if os.name == "posix" else path
    if os.name == "posix" and not os.path.exists(real):
        return None
    names = by_id_names()
    try:
        found = list_ports.comports()
    except Exception:  # noqa: BLE001 - discovery must never stop the reader
        found = []
    for p in found:
        if (os.path.realpath(p.device) if os.name == "posix" else p.device) == real:
            desc = p.description if p.description and p.description != "n/a" else ""
            return DeviceId(names.get(real), p.serial_number, desc or (p.product or ""))
    by_id = path if path.startswith(BY_ID_DIR + "/") else names.get(real)
    return DeviceId(by_id, None, "")
