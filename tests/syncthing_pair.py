"""Real Syncthing instances on loopback for the sync tests and the sync benchmark: each has
its own home folder, its GUI/REST and its sync protocol on 127.0.0.1 free ports, no global
or local discovery, no relays, no NAT, no usage reports, no upgrades.

    a = Syncthing(tmp / "st-a", "field laptop"); a.start()
    b = ...; b.start()
    introduce(a, b)   # each knows the other's device ID and address
    ... a.stop(); b.stop()   # always (the fixtures do it in their finalizers)
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.parse
import xml.etree.ElementTree as ET
from pathlib import Path

from fieldjudge.services.sync.syncthing import (
    Endpoint,
    SyncthingClient,
    SyncthingUnavailable,
    add_peer,
    share_folder,
)
from fieldjudge.store import StoreError

SYNCTHING = "/usr/bin/syncthing"
HAVE_SYNCTHING = os.access(SYNCTHING, os.X_OK)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def poll(check, deadline_s: float, every_s: float = 0.05):
    """The value of ``check()`` once it is truthy; AssertionError after the deadline."""
    end = time.monotonic() + deadline_s
    last = None
    while time.monotonic() < end:
        try:
            last = check()
        except (SyncthingUnavailable, StoreError, OSError, ValueError, KeyError) as exc:
            last = exc
        else:
            if last:
                return last
        time.sleep(every_s)
    raise AssertionError(f"not within {deadline_s} s; last: {last!r}")


def _die_with_parent() -> None:
    """Linux: Syncthing gets SIGTERM if the test process dies without its finalizers."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


OPTIONS = {
    "globalAnnounceEnabled": "false",
    "localAnnounceEnabled": "false",
    "relaysEnabled": "false",
    "natEnabled": "false",
    "startBrowser": "false",
    "urAccepted": "-1",
    "crashReportingEnabled": "false",
    "autoUpgradeIntervalH": "0",
    "reconnectionIntervalS": "1",
}


class Syncthing:
    def __init__(self, home: Path, name: str) -> None:
        self.home = Path(home)
        self.name = name
        self.proc: subprocess.Popen | None = None
        self.gui_port = free_port()
        self.sync_port = free_port()
        self.api_key = f"fieldjudge-test-{self.gui_port}"
        self.device_id = ""
        self.log = self.home / "syncthing.log"

    @property
    def sync_address(self) -> str:
        return f"tcp://127.0.0.1:{self.sync_port}"

    @property
    def client(self) -> SyncthingClient:
        return SyncthingClient(Endpoint(f"127.0.0.1:{self.gui_port}", self.api_key), timeout=5)

    def _configure(self) -> None:
        path = self.home / "config.xml"
        tree = ET.parse(path)
        root = tree.getroot()
        me = root.find("device")
        assert me is not None
        self.device_id = me.get("id", "")
        me.set("name", self.name)
        gui = root.find("gui")
        assert gui is not None
        gui.find("address").text = f"127.0.0.1:{self.gui_port}"  # type: ignore[union-attr]
        gui.find("apikey").text = self.api_key  # type: ignore[union-attr]
        opts = root.find("options")
        assert opts is not None
        opts.find("listenAddress").text = self.sync_address  # type: ignore[union-attr]
        for key, value in OPTIONS.items():
            el = opts.find(key)
            if el is None:
                el = ET.SubElement(opts, key)
            el.text = value
        tree.write(path)

    def start(self) -> None:
        self.launch()
        self.wait_up()

    def launch(self) -> None:
        """Generate the home (keys, config) and start Syncthing, without waiting for it
        (several instances start side by side: :meth:`wait_up` each after)."""
        self.home.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [SYNCTHING, "generate", f"--home={self.home}", "--no-default-folder"],
            check=True,
            capture_output=True,
            env=self._env,
            timeout=60,
        )
        self._serve()

    @property
    def _env(self) -> dict[str, str]:
        return dict(os.environ, STNODEFAULTFOLDER="1", STNOUPGRADE="1", HOME=str(self.home))

    def _serve(self) -> None:
        self._configure()
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [
                    SYNCTHING,
                    "serve",
                    f"--home={self.home}",
                    "--no-browser",
                    "--no-restart",
                    "--no-upgrade",
                    "--no-default-folder",
                    "--skip-port-probing",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=self._env,
                preexec_fn=_die_with_parent,
            )

    def wait_up(self) -> None:
        """Wait until this instance answers. A port found free can be taken by another
        process before Syncthing binds it (the suite runs in parallel workers, each starting
        Syncthings): then it starts again on new ports, at most three times in all."""
        for attempt in range(3):
            try:
                poll(self._up, 60)
                return
            except RuntimeError as exc:
                if attempt == 2 or "address already in use" not in str(exc):
                    raise
            self.gui_port, self.sync_port = free_port(), free_port()
            self.api_key = f"fieldjudge-test-{self.gui_port}"
            self._serve()

    def _up(self) -> bool:
        if self.proc is not None and self.proc.poll() is not None:
            raise RuntimeError(f"syncthing {self.name} exited: {self.log.read_text()[-2000:]}")
        return self.client.get("/rest/system/status")["myID"] == self.device_id

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                self.client.request("POST", "/rest/system/shutdown")
                self.proc.wait(timeout=10)
            except (SyncthingUnavailable, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.proc = None


def introduce(a: Syncthing, b: Syncthing) -> None:
    add_peer(a.client, b.device_id, b.name, b.sync_address)
    add_peer(b.client, a.device_id, a.name, a.sync_address)


def share(a: Syncthing, b: Syncthing, folder_id: str, path_a: Path, path_b: Path) -> None:
    """The same folder ID on both, watcher delay 1 s, rescan every 2 s."""
    for me, other, path in ((a, b, path_a), (b, a, path_b)):
        share_folder(
            me.client, folder_id, path, [other.device_id], watcher_delay_s=1, rescan_interval_s=2
        )
        retry_pulls_soon(me, folder_id)


def retry_pulls_soon(st: Syncthing, folder_id: str) -> None:
    """A pull that failed is tried again after 1 s. Syncthing fails a pull when the file
    changed while it copied it (a game file appended to during a play, its laptop's
    manifest beside it) and tries again after ``pullerPauseS``: 60 s by default, the
    whole deadline of a test (``SYNC_S``), which then failed on a loaded machine with
    every event already there."""
    path = f"/rest/config/folders/{urllib.parse.quote(folder_id)}"
    st.client.request("PATCH", path, {"pullerPauseS": 1})
    assert st.client.get(path)["pullerPauseS"] == 1


def connected(a: Syncthing, b: Syncthing) -> bool:
    conns = a.client.get("/rest/system/connections")["connections"]
    return bool((conns.get(b.device_id) or {}).get("connected"))


def idle_and_complete(a: Syncthing, folder_id: str, peer: Syncthing) -> bool:
    st = a.client.get("/rest/db/status", folder=folder_id)
    comp = a.client.get("/rest/db/completion", folder=folder_id, device=peer.device_id)
    return st["state"] == "idle" and st["needTotalItems"] == 0 and comp["completion"] == 100


def pause(a: Syncthing, *others: Syncthing) -> None:
    """A partition: ``a`` drops and refuses its connections to ``others`` (Syncthing's
    "pause device"); both sides go on writing their own copies."""
    for o in others:
        a.client.request("POST", "/rest/system/pause", params={"device": o.device_id})
    poll(lambda: not any(connected(a, o) or connected(o, a) for o in others), 60)


def resume(a: Syncthing, *others: Syncthing) -> None:
    """The partition heals: ``a`` connects to ``others`` again."""
    for o in others:
        a.client.request("POST", "/rest/system/resume", params={"device": o.device_id})
    poll(lambda: all(connected(a, o) and connected(o, a) for o in others), 60)


def copy_tree(src: Path, dst: Path) -> None:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".cache", "backups"))
