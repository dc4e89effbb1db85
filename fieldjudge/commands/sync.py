"""``fieldjudge sync setup`` and ``fieldjudge sync status``: several laptops sharing one
tournament folder through Syncthing (README "Two fields, one tournament").

Every bad input ends with a clear message and a non-zero exit, never a traceback; with
Syncthing absent or stopped, ``status`` says "sync off" and ``setup`` prints the steps to do
by hand."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import click

from fieldjudge.commands import refusals_as_messages
from fieldjudge.i18n import _, ngettext
from fieldjudge.services import (
    TOURNAMENT_FILE,
    DamagedFile,
    Refused,
    StoreError,
    open_tournament,
    open_view,
)
from fieldjudge.services.sync import syncthing as svc
from fieldjudge.services.sync.setup import ensure_stignore, laptop_key, register_laptop

#: Syncthing's folder states (its REST API) in the judge's words
FOLDER_STATES = {
    "idle": "idle, up to date",
    "scanning": "scanning",
    "syncing": "syncing",
    "sync-preparing": "preparing to sync",
    "sync-waiting": "waiting to sync",
    "scan-waiting": "waiting to scan",
    "cleaning": "cleaning up",
    "error": "error",
}

DEVICE_ID = re.compile(r"^[A-Z2-7]{7}(-[A-Z2-7]{7}){7}$")

MANUAL_STEPS = """\
How to share this tournament with another laptop (both on the venue's network):
  1. Install Syncthing on both laptops and start it (it needs no internet).
  2. On each laptop run `fieldjudge sync setup --tournament FOLDER` and note the device ID
     it prints; then run it again with `--peer <the other laptop's device ID>`.
     The field laptops name the head judge's laptop; the head judge's laptop names each
     field laptop (repeat --peer).
  3. Use the same folder ID on every laptop: it is printed below (from the tournament's id).
     A field laptop without the tournament yet gives it with --folder-id and an empty folder.
  4. Global discovery, relays and NAT are turned off: laptops find each other on the LAN.
     If they do not, give the address: --peer-address tcp://192.168.1.20:22000.
"""


def _options(f):
    f = click.option(
        "--syncthing-home",
        type=click.Path(file_okay=False, path_type=Path),
        help="Syncthing's home folder holding config.xml (default: the OS default).",
    )(f)
    f = click.option("--address", help="Syncthing's GUI/REST address, e.g. 127.0.0.1:8384.")(f)
    f = click.option("--api-key", help="Syncthing's API key (default: from config.xml).")(f)
    f = click.option(
        "--tournament",
        "folder",
        type=click.Path(file_okay=False, path_type=Path),
        help="Tournament folder (default: the current folder).",
    )(f)
    return f


def _folder(folder: Path | None) -> Path:
    folder = Path(folder) if folder is not None else Path.cwd()
    if not folder.is_dir():
        raise click.ClickException(_("{folder}: no such folder").format(folder=folder))
    return folder


def _tournament_id(folder: Path) -> str | None:
    if not (folder / TOURNAMENT_FILE).exists():
        return None
    with refusals_as_messages(DamagedFile, prefix=_("damaged file") + " "):
        with contextlib.closing(open_view(folder)) as t:
            return str(t.meta.get("id") or "") or None


def parse_peer(text: str) -> tuple[str, str, str]:
    """``ID[=NAME][@ADDRESS]`` -> (ID, NAME, ADDRESS); the name may hold spaces."""
    text = text.strip()
    head, at, address = text.partition("@")
    dev, _eq, name = head.partition("=")
    return dev.strip().upper(), name.strip(), address.strip() if at else ""


def _head_judge_registers(folder: Path, secret: str, register: bool) -> None:
    """Registration is authority: the head judge's secret (``--head-judge-secret``, or
    asked here with ``--register``; never stored) signs this laptop's registration, else
    its events and manifest are faults wherever the tournament is checked."""
    if not (secret or register):
        click.echo(
            _(
                "not registered by the head judge yet: its games count only once he runs "
                "this again with --register"
            )
        )
        return
    if not (folder / TOURNAMENT_FILE).exists():  # the folder is still shared below
        click.echo(
            _(
                "the tournament has not arrived in this folder yet: run setup again with "
                "--register once `sync status` says in sync"
            )
        )
        return
    if not secret:
        secret = click.prompt(_("Head judge's secret"), hide_input=True)
    with refusals_as_messages(StoreError):
        with contextlib.closing(open_tournament(folder, lock=True, startup_backup=False)) as t:
            t.register_laptop(secret)
    click.echo(_("registered by the head judge (signed with his key)"))


@click.group()
def sync() -> None:
    """Share a tournament folder with the other laptops of the venue through Syncthing."""


@sync.command()
@_options
@click.option(
    "--peer",
    "peers",
    multiple=True,
    metavar="ID[=NAME][@ADDRESS]",
    help=(
        "Another laptop: its Syncthing device ID, optionally its name and its address if "
        "the LAN does not find it, e.g. 'ABC...=Field 2@tcp://192.168.1.20:22000'. "
        "Repeat for several laptops."
    ),
)
@click.option(
    "--peer-name", default="", help="With one --peer: a name for that laptop (e.g. 'Field 2')."
)
@click.option(
    "--peer-address",
    default="",
    help="With one --peer: its address if the LAN does not find it, e.g. tcp://192.168.1.20:22000.",
)
@click.option(
    "--introducer/--no-introducer",
    default=None,
    help=(
        "Take the named laptops as introducers (default: on a laptop joining with "
        "--folder-id, i.e. a field laptop naming the head judge's laptop, so the field "
        "laptops also sync with each other)."
    ),
)
@click.option(
    "--register",
    is_flag=True,
    help="Register this laptop with the head judge's secret (asked), so verify is clean.",
)
@click.option(
    "--folder-id", default="", help="The shared folder's ID (default: from the tournament)."
)
@click.option(
    "--laptop-id",
    default="",
    help="This laptop's id in laptops/<id>/ (default: the id of its signing key).",
)
@click.option("--laptop-name", default="", help="This laptop's name shown to the others.")
@click.option(
    "--head-judge-secret",
    default="",
    envvar="FIELDJUDGE_HEAD_JUDGE_SECRET",
    help="The head judge types his secret here to register this laptop (its games count "
    "only once he has; without it, register it later with this option).",
)
@click.option(
    "--lan-discovery/--no-lan-discovery",
    default=True,
    show_default=True,
    help="Let the laptops find each other on the LAN (off: give --peer-address).",
)
def setup(
    syncthing_home, address, api_key, folder, peers, peer_name, peer_address, introducer,
    register, folder_id, laptop_id, laptop_name, head_judge_secret, lan_discovery,
) -> None:  # fmt: skip
    """Explain, and where Syncthing is running do, the sharing of this tournament folder."""
    folder = _folder(folder)
    named = [parse_peer(p) for p in peers]
    if len(named) > 1 and (peer_name or peer_address):
        raise click.ClickException(
            _(
                "--peer-name and --peer-address name one laptop: with several --peer, give "
                "each its own as --peer ID=NAME@ADDRESS"
            )
        )
    if len(named) == 1:
        dev, name, addr = named[0]
        named = [(dev, name or peer_name, addr or peer_address)]
    ids = [dev for dev, _name, _addr in named]
    bad = [p for p in ids if not DEVICE_ID.match(p)]
    if bad:
        raise click.ClickException(
            _(
                "not a Syncthing device ID: {ids} (8 groups of 7 letters and digits joined "
                "by '-', as the other laptop's `fieldjudge sync setup` prints it)"
            ).format(ids=", ".join(bad))
        )
    if introducer is None:
        introducer = bool(folder_id.strip())
    tid = _tournament_id(folder)
    folder_id = folder_id.strip() or (svc.folder_id_for(tid) if tid else "")
    if not folder_id:
        raise click.ClickException(
            _(
                "{folder} holds no tournament yet: on the head judge's laptop, name the "
                "tournament's folder with --tournament FOLDER; a field laptop joining it "
                "gives the folder ID his laptop printed with --folder-id"
            ).format(folder=folder)
        )
    if ensure_stignore(folder):
        click.echo(
            _("wrote {path} (local files are never synced)").format(path=folder / ".stignore")
        )
    click.echo(_(MANUAL_STEPS))
    click.echo(_("folder ID: {id}").format(id=folder_id))
    click.echo(_("folder:    {path}").format(path=folder.resolve()))
    try:
        client = svc.SyncthingClient(
            svc.resolve_endpoint(syncthing_home, address, api_key), timeout=5
        )
        me = svc.my_device_id(client)
    except svc.SyncthingUnavailable as exc:
        raise click.ClickException(
            f"{exc}. "
            + _(
                "Start Syncthing (or give --syncthing-home / --address and --api-key), "
                "then run this again"
            )
        ) from None
    click.echo(_("this laptop's device ID (give it to the other laptops): {id}").format(id=me))
    public_key = ""
    if not laptop_id:
        with refusals_as_messages(prefix=_("this laptop's key") + ": "):
            keys = laptop_key(folder, laptop_name)
        laptop_id, public_key = keys.laptop_id, keys.public_key_b64
        laptop_name = laptop_name or keys.name
    with refusals_as_messages(Refused):
        path = register_laptop(folder, laptop_id, laptop_name or laptop_id, me, public_key)
    click.echo(
        _("registered this laptop as {id} in {path}").format(
            id=laptop_id, path=path.relative_to(folder)
        )
    )
    _head_judge_registers(folder, head_judge_secret, register)
    if not ids:
        click.echo(_("no --peer given: nothing shared yet"))
        return
    with refusals_as_messages(svc.SyncthingUnavailable):
        svc.lan_only(client, {**svc.LAN_OPTIONS, "localAnnounceEnabled": lan_discovery})
        for dev, name, addr in named:
            if dev != me:
                svc.add_peer(client, dev, name, addr, introducer=introducer)
        doc = svc.share_folder(client, folder_id, folder, [d for d in ids if d != me])
    click.echo(_("global discovery, relays and NAT: off (LAN only)"))
    if introducer:
        click.echo(
            _(
                "the laptops named here introduce the others: this laptop also syncs with "
                "every laptop they share the tournament with"
            )
        )
    others = len(doc["devices"]) - 1
    click.echo(
        ngettext(
            "shared {id} with {n} laptop; it syncs as soon as the other laptop shares the "
            "same folder ID",
            "shared {id} with {n} laptops; it syncs as soon as the other laptops share the "
            "same folder ID",
            others,
        ).format(id=folder_id, n=others)
    )


@sync.command()
@_options
def status(syncthing_home, address, api_key, folder) -> None:
    """Peers connected, whether this tournament is in sync, when each laptop was seen."""
    folder = _folder(folder)
    st = svc.SyncStatusProvider(folder, syncthing_home, address, api_key).status()
    click.echo(svc.status_line(st))
    if not st.on:
        if st.reason:
            click.echo(f"  ({st.reason})")
        return
    click.echo("  " + _("this laptop: {id}").format(id=st.device_id))
    if st.folder_id:
        comp = (
            ""
            if st.completion is None
            else ", " + _("{pct}% complete").format(pct=f"{st.completion:.0f}")
        )
        state = _(FOLDER_STATES.get(st.folder_state or "", st.folder_state or "?"))
        click.echo("  " + _("folder {id}: {state}").format(id=st.folder_id, state=state) + comp)
    for p in st.peers:
        seen = (
            _("connected")
            if p.connected
            else _("last seen {ago}").format(ago=svc.ago(p.last_seen_s))
        )
        click.echo(f"  {p.name or _('(no name)')} {p.device_id[:7]}: {seen}")
