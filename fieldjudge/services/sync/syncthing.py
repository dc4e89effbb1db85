"""Live sync between the laptops of a venue is Syncthing's job (DESIGN.md "The venue
network"). This module only *reads* Syncthing's local REST API for the home screen's status
line and ``fieldjudge sync status``, and asks it to share a tournament folder for
``fieldjudge sync setup``. Nothing else in the app needs it: with Syncthing absent or
stopped, :func:`read_status` answers "sync off" within its short timeouts.

Where Syncthing is: its ``config.xml`` (``<gui><address>``, ``<apikey>``, ``tls``) in its
home folder — the default one of the OS (:func:`default_homes`), or ``--syncthing-home``; or
``--address`` and ``--api-key`` given directly. Only loopback addresses are contacted.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import os
import queue
import ssl
import sys
import threading
import time
import urllib.parse
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fieldjudge.i18n import _
from fieldjudge.store.sync_files import find_conflict_copies

DEFAULT_TIMEOUT_S = 0.5  # loopback answers in milliseconds; a stopped Syncthing must not stall
FOLDER_PREFIX = "fieldjudge-"


class SyncthingUnavailable(Exception):
    """Syncthing is not installed, not configured, stopped, or refused the request."""


# --- where Syncthing is ----------------------------------------------------------------------


@dataclass(frozen=True)
class Endpoint:
    """Syncthing's REST API: ``http(s)://host:port`` and its API key."""

    address: str  # host:port
    api_key: str
    tls: bool = False

    @property
    def host(self) -> str:
        return urllib.parse.urlsplit(f"//{self.address}").hostname or ""

    @property
    def port(self) -> int:
        return urllib.parse.urlsplit(f"//{self.address}").port or (443 if self.tls else 8384)


def default_homes(
    env: Mapping[str, str] | None = None, platform: str | None = None, home: Path | None = None
) -> list[Path]:
    """Where Syncthing keeps ``config.xml`` on this OS, most likely first (newer releases
    use the XDG state folder on Linux, older ones the config folder)."""
    env = os.environ if env is None else env
    platform = platform or sys.platform
    home = home or Path.home()
    if env.get("STHOMEDIR"):
        return [Path(env["STHOMEDIR"])]
    if platform.startswith("win"):
        local = env.get("LOCALAPPDATA") or str(home / "AppData" / "Local")
        return [Path(local) / "Syncthing"]
    if platform == "darwin":
        return [home / "Library" / "Application Support" / "Syncthing"]
    state = Path(env.get("XDG_STATE_HOME") or home / ".local" / "state")
    config = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
    return [state / "syncthing", config / "syncthing"]


def find_home(homes: list[Path] | None = None) -> Path:
    """The first folder holding a ``config.xml``; SyncthingUnavailable if none does."""
    homes = default_homes() if homes is None else homes
    for h in homes:
        if (h / "config.xml").is_file():
            return h
    raise SyncthingUnavailable(
        _("no Syncthing configuration found (looked in {places})").format(
            places=", ".join(str(h) for h in homes)
        )
    )


def endpoint_from_config(home: Path) -> Endpoint:
    """Address, API key and TLS of the GUI/REST listener from ``<home>/config.xml``."""
    path = Path(home) / "config.xml"
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as exc:
        raise SyncthingUnavailable(
            _("cannot read {path}: {error}").format(path=path, error=exc)
        ) from exc
    gui = root.find("gui")
    if gui is None:
        raise SyncthingUnavailable(_("{path} has no <gui> section").format(path=path))
    address = (gui.findtext("address") or "").strip()
    api_key = (gui.findtext("apikey") or "").strip()
    tls = (gui.get("tls") or "false").lower() == "true"
    if address.startswith(("http://", "https://")):
        parts = urllib.parse.urlsplit(address)
        tls = tls or parts.scheme == "https"
        address = parts.netloc
    if not address or address.startswith("unix"):
        raise SyncthingUnavailable(
            _("Syncthing's GUI address '{address}' is not a TCP address").format(address=address)
        )
    if not api_key:
        raise SyncthingUnavailable(_("{path} holds no API key").format(path=path))
    return Endpoint(_loopback(address), api_key, tls)


def _loopback(address: str) -> str:
    """A GUI listening on every interface is reached on 127.0.0.1 (never the LAN)."""
    parts = urllib.parse.urlsplit(f"//{address}")
    host, port = parts.hostname or "", parts.port or 8384
    if host in ("", "0.0.0.0", "::"):
        return f"127.0.0.1:{port}"
    return address


def resolve_endpoint(
    home: Path | None = None, address: str | None = None, api_key: str | None = None
) -> Endpoint:
    """From options (``--address`` + ``--api-key``), else a config.xml (``home`` or the
    OS default); options override what the file says."""
    if address and api_key:
        return Endpoint(_loopback(address), api_key)
    ep = endpoint_from_config(find_home([home] if home else None))
    return Endpoint(_loopback(address) if address else ep.address, api_key or ep.api_key, ep.tls)


# --- the REST client ------------------------------------------------------------------------


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class SyncthingClient:
    """A minimal JSON client of Syncthing's REST API (stdlib ``http.client``), loopback
    only, every request with a short timeout."""

    def __init__(self, endpoint: Endpoint, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        if not _is_loopback(endpoint.host):
            raise SyncthingUnavailable(
                _("Syncthing at {address} is not on this laptop (only 127.0.0.1 is used)").format(
                    address=endpoint.address
                )
            )
        self.endpoint = endpoint
        self.timeout = timeout

    def _connection(self) -> http.client.HTTPConnection:
        ep = self.endpoint
        if ep.tls:  # Syncthing's own self-signed certificate, on loopback only
            ctx = ssl.create_default_context()
            ctx.check_hostname = False
            ctx.verify_mode = ssl.CERT_NONE
            return http.client.HTTPSConnection(ep.host, ep.port, timeout=self.timeout, context=ctx)
        return http.client.HTTPConnection(ep.host, ep.port, timeout=self.timeout)

    def request(
        self, method: str, path: str, body: Any = None, params: Mapping[str, str] | None = None
    ) -> Any:
        if params:
            path += "?" + urllib.parse.urlencode(params)
        headers = {"X-API-Key": self.endpoint.api_key}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"

        conn = self._connection()
        try:
            conn.request(method, path, body=payload, headers=headers)
            resp = conn.getresponse()
            raw = resp.read()
        except (OSError, http.client.HTTPException) as exc:
            raise SyncthingUnavailable(
                _("Syncthing does not answer at {address} ({error})").format(
                    address=self.endpoint.address, error=exc.__class__.__name__
                )
            ) from exc
        finally:
            conn.close()
        if resp.status == 403:
            raise SyncthingUnavailable(_("Syncthing refused the API key (403)"))
        if resp.status >= 400:
            raise SyncthingUnavailable(
                _("Syncthing answered {status} to {method} {path}: {text}").format(
                    status=resp.status,
                    method=method,
                    path=path,
                    text=raw.decode("utf-8", "replace").strip()[:200],
                )
            )
        if not raw.strip():
            return None
        try:
            return json.loads(raw)
        except ValueError as exc:
            raise SyncthingUnavailable(
                _("Syncthing sent something that is not JSON to {path}").format(path=path)
            ) from exc

    def get(self, path: str, **params: str) -> Any:
        return self.request("GET", path, params=params or None)


# --- status ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PeerStatus:
    device_id: str
    name: str
    connected: bool
    address: str = ""
    last_seen_s: float | None = None  # seconds since last seen; None: never
    completion: float | None = None  # % of the tournament folder this peer has


@dataclass(frozen=True)
class SyncStatus:
    on: bool
    reason: str = ""  # why sync is off
    device_id: str = ""
    folder_id: str = ""
    folder_state: str = ""  # idle, scanning, syncing, error ... ("" if not shared)
    completion: float | None = None  # % over the peers sharing the folder
    need_items: int = 0
    peers: tuple[PeerStatus, ...] = field(default_factory=tuple)
    conflict_copies: int = 0  # Syncthing's conflict copies in the folder (head judge decides)

    @property
    def connected(self) -> int:
        return sum(1 for p in self.peers if p.connected)

    @property
    def in_sync(self) -> bool:
        return (
            self.on
            and bool(self.folder_id)
            and self.folder_state == "idle"
            and self.need_items == 0
            and all(p.connected and p.completion in (None, 100) for p in self.peers)
        )  # a laptop that is off may lack what this one has: never "in sync" with it


def ago(seconds: float | None) -> str:
    if seconds is None:
        return _("never")
    if seconds < 60:
        return _("{n} s ago").format(n=int(seconds))
    if seconds < 3600:
        return _("{n} min ago").format(n=int(seconds // 60))
    return _("{n} h ago").format(n=int(seconds // 3600))


def status_line(s: SyncStatus) -> str:
    """One line for the home screen."""
    tail = (
        "; " + _("{n} conflict copies for the head judge").format(n=s.conflict_copies)
        if s.conflict_copies
        else ""
    )
    if not s.on:
        return _("sync off") + tail
    if not s.folder_id:
        return _("sync on, this tournament is not shared")
    head = _("in sync") if s.in_sync else _("syncing")
    if s.connected < len(s.peers):
        head = _("not in sync")
    if s.folder_state == "error":
        head = _("sync error")
    peers = "; ".join(
        f"{p.name or p.device_id[:7]} "
        + (_("connected") if p.connected else _("seen {ago}").format(ago=ago(p.last_seen_s)))
        for p in s.peers
    )
    return (
        _("{state}, {n} of {total} laptops connected").format(
            state=head, n=s.connected, total=len(s.peers)
        )
        + (f": {peers}" if peers else "")
        + tail
    )


def _parse_time(text: str | None) -> datetime | None:
    if not text or text.startswith(("0001-01-01", "1970-01-01")):  # Syncthing's "never"
        return None
    try:  # RFC 3339 with up to nanoseconds: Python (3.11) keeps the microseconds
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def folder_for(folders: list[dict[str, Any]], path: Path) -> dict[str, Any] | None:
    """The Syncthing folder whose path is the tournament folder."""
    want = _norm(path)
    for f in folders or []:
        if _norm(Path(os.path.expanduser(str(f.get("path", ""))))) == want:
            return f
    return None


def _norm(p: Path) -> str:
    try:
        return os.path.normcase(str(Path(p).resolve()))
    except OSError:
        return os.path.normcase(str(Path(p).absolute()))


def read_status(
    client: SyncthingClient,
    folder: Path,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> SyncStatus:
    """Peers, folder state and completion of the tournament ``folder``. Never raises: any
    problem is "sync off" with the reason."""
    try:
        return _read(client, Path(folder), now())
    except SyncthingUnavailable as exc:
        return SyncStatus(on=False, reason=str(exc))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return SyncStatus(
            on=False,
            reason=_("unexpected answer from Syncthing ({error})").format(
                error=exc.__class__.__name__
            ),
        )


def _read(client: SyncthingClient, folder: Path, now: datetime) -> SyncStatus:
    me = client.get("/rest/system/status")["myID"]
    f = folder_for(client.get("/rest/config/folders"), folder)
    if f is None:
        return SyncStatus(on=True, device_id=me)
    fid = f["id"]
    devices = {d["deviceID"]: d for d in client.get("/rest/config/devices")}
    conns = (client.get("/rest/system/connections") or {}).get("connections") or {}
    stats = client.get("/rest/stats/device") or {}
    db = client.get("/rest/db/status", folder=fid) or {}
    peers = []
    for d in f.get("devices") or []:
        dev = d["deviceID"]
        if dev == me:
            continue
        c = conns.get(dev) or {}
        seen = _parse_time((stats.get(dev) or {}).get("lastSeen"))
        connected = bool(c.get("connected"))
        completion = None
        if connected:
            comp = client.get("/rest/db/completion", folder=fid, device=dev) or {}
            completion = comp.get("completion")
        peers.append(
            PeerStatus(
                device_id=dev,
                name=(devices.get(dev) or {}).get("name", ""),
                connected=connected,
                address=c.get("address", "") if connected else "",
                last_seen_s=0.0
                if connected
                else (None if seen is None else max(0.0, (now - seen).total_seconds())),
                completion=completion,
            )
        )
    comp = client.get("/rest/db/completion", folder=fid) or {}
    return SyncStatus(
        on=True,
        device_id=me,
        folder_id=fid,
        folder_state=str(db.get("state", "")),
        completion=comp.get("completion"),
        need_items=int(db.get("needTotalItems", 0) or 0),
        peers=tuple(sorted(peers, key=lambda p: (p.name, p.device_id))),
    )


class SyncStatusProvider:
    """What the home screen polls (from a worker, never the UI thread): a client made
    once from the options or config.xml, then :func:`read_status`. When Syncthing is not
    configured at all the answer is "sync off" without touching the network."""

    def __init__(
        self,
        folder: Path,
        home: Path | None = None,
        address: str | None = None,
        api_key: str | None = None,
    ) -> None:
        self.folder = Path(folder)
        self._args = (home, address, api_key)
        self._client: SyncthingClient | None = None
        self.reason = ""

    def client(self) -> SyncthingClient | None:
        if self._client is None:
            try:
                self._client = SyncthingClient(resolve_endpoint(*self._args))
            except SyncthingUnavailable as exc:
                self.reason = str(exc)
                return None
        return self._client

    def status(self) -> SyncStatus:
        """The status now; the conflict copies are counted from the folder even when
        Syncthing is off (a copy may have arrived before it stopped)."""
        copies = len(find_conflict_copies(self.folder))
        c = self.client()
        if c is None:
            return SyncStatus(on=False, reason=self.reason, conflict_copies=copies)
        return replace(read_status(c, self.folder), conflict_copies=copies)


class Rescan:
    """Asks Syncthing to rescan one file as soon as this laptop wrote it (issue 22): its
    change watcher waits a second or more, and longer while a file keeps changing (a
    burst of eliminations: p95 6.4 s to the head judge at one event every 0.5 s).

    :meth:`written` only queues the path; a thread of its own posts ``/rest/db/scan`` with
    the file's path (several paths written meanwhile go as one request each, once), so an
    append never waits for the network. Without Syncthing (not configured, or the folder
    not shared) it does nothing after the first try, which is retried every ``retry_s``."""

    def __init__(
        self,
        folder: Path,
        make_client: Callable[[], SyncthingClient | None],
        retry_s: float = 30.0,
    ) -> None:
        self.folder = Path(folder)
        self._root = self.folder.resolve()  # once: a path is resolved only when it must be
        self._make_client = make_client
        self._retry_s = retry_s
        self._queue: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._target: tuple[SyncthingClient, str] | None = None
        self._next_try = 0.0
        self.sent: list[str] = []  # the paths asked for, in order (for the tests)
        self._thread = threading.Thread(target=self._run, name="syncthing-rescan", daemon=True)
        self._thread.start()

    def written(self, path: Path) -> None:
        """``path`` (written or removed) to be rescanned. The services' own paths are under
        the folder as given (one name split from another, no system call: every append
        passes here); any other path is resolved, links and all, before it is compared."""
        path = Path(path)
        try:
            rel = path.relative_to(self.folder)
        except ValueError:
            try:
                rel = path.resolve().relative_to(self._root)
            except ValueError:
                return  # not in the shared folder
        self._queue.put(rel.as_posix())

    def close(self, timeout: float = 2.0) -> None:
        self._queue.put(None)
        self._thread.join(timeout)

    def _connect(self) -> tuple[SyncthingClient, str] | None:
        if self._target is None and time.monotonic() >= self._next_try:
            self._next_try = time.monotonic() + self._retry_s
            try:
                client = self._make_client()
                f = folder_for(client.get("/rest/config/folders"), self.folder) if client else None
            except (SyncthingUnavailable, KeyError, TypeError, ValueError):
                return None
            if client is not None and f is not None:
                self._target = (client, str(f["id"]))
        return self._target

    def _run(self) -> None:
        closing = False
        while not closing:
            first = self._queue.get()  # blocks until a path (or None: closing) comes
            if first is None:
                return
            paths = {first}
            while True:  # what else was written meanwhile goes in the same round
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:  # closing: what was written still goes first
                    closing = True
                    break
                paths.add(more)
            target = self._connect()
            if target is None:
                continue
            client, fid = target
            for rel in sorted(paths):
                try:
                    client.request("POST", "/rest/db/scan", params={"folder": fid, "sub": rel})
                    self.sent.append(rel)
                except SyncthingUnavailable:
                    self._target = None  # Syncthing stopped: found again on a later write
                    break


def rescan_for(folder: Path) -> Rescan:
    """The app's :class:`Rescan` of a tournament folder, with Syncthing's config.xml."""
    provider = SyncStatusProvider(folder)
    return Rescan(folder, provider.client)


# --- sharing a folder (setup) ----------------------------------------------------------------


def folder_id_for(tournament_id: str) -> str:
    """The Syncthing folder ID of a tournament: the same on every laptop."""
    return FOLDER_PREFIX + (tournament_id or "")[:12]


LAN_OPTIONS = {
    "globalAnnounceEnabled": False,  # no internet at the venue: no global discovery ...
    "relaysEnabled": False,  # ... no relays ...
    "natEnabled": False,  # ... and no router port mapping
    "localAnnounceEnabled": True,  # laptops on the same LAN find each other
}


def my_device_id(client: SyncthingClient) -> str:
    return str(client.get("/rest/system/status")["myID"])


def lan_only(client: SyncthingClient, options: Mapping[str, Any] = LAN_OPTIONS) -> None:
    client.request("PATCH", "/rest/config/options", dict(options))


def add_peer(
    client: SyncthingClient,
    device_id: str,
    name: str = "",
    address: str = "",
    introducer: bool = False,
) -> None:
    """Add (or update) the other laptop's device; ``address`` e.g. ``tcp://192.168.1.20:22000``
    (default: found on the LAN). ``introducer``: this laptop also takes the devices that one
    shares the folder with (a field laptop naming the head judge's laptop, so the fields
    sync with each other directly and go on while his laptop is off)."""
    client.request(
        "POST",
        "/rest/config/devices",
        {
            "deviceID": device_id,
            "name": name,
            "addresses": [address or "dynamic"],
            "introducer": introducer,
            "autoAcceptFolders": False,
        },
    )


def share_folder(
    client: SyncthingClient,
    folder_id: str,
    path: Path,
    peers: list[str],
    watcher_delay_s: float = 1,
    rescan_interval_s: int = 60,
) -> dict[str, Any]:
    """Share the tournament folder ``path`` as ``folder_id`` with ``peers`` (adds them to an
    existing folder of that ID). The change watcher is on with a short delay, so an event
    reaches the other laptops within seconds."""
    me = my_device_id(client)
    try:
        have = client.get(f"/rest/config/folders/{urllib.parse.quote(folder_id)}")
    except SyncthingUnavailable:
        have = None
    devices = {d["deviceID"] for d in (have or {}).get("devices") or []}
    devices |= {me, *peers}
    doc = {
        "id": folder_id,
        "label": (have or {}).get("label") or folder_id,
        "path": str(Path(path).resolve()),
        "type": "sendreceive",
        "devices": [{"deviceID": d} for d in sorted(devices)],
        "fsWatcherEnabled": True,
        "fsWatcherDelayS": watcher_delay_s,
        "rescanIntervalS": rescan_interval_s,
    }
    if have:
        client.request("PATCH", f"/rest/config/folders/{urllib.parse.quote(folder_id)}", doc)
    else:
        client.request("POST", "/rest/config/folders", doc)
    return doc
