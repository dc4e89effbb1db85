"""``fieldjudge serve``: the read-only pit display of one tournament, until Ctrl+C."""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import click

from fieldjudge import i18n
from fieldjudge.commands import data_dir
from fieldjudge.i18n import _, rule_text
from fieldjudge.serve.addresses import lan_urls
from fieldjudge.serve.qr import qr_text
from fieldjudge.serve.server import DEFAULT_MAX_PER_ADDRESS, DEFAULT_PORT, PitServer, PitServerError
from fieldjudge.services import TOURNAMENT_FILE, DamagedFile
from fieldjudge.services.pitview import PitView


def _pick_folder(data_dir: Path) -> Path:
    if (data_dir / TOURNAMENT_FILE).exists():
        return data_dir
    found = sorted(
        (p.parent for p in data_dir.glob(f"*/{TOURNAMENT_FILE}")),
        key=lambda f: (f / TOURNAMENT_FILE).stat().st_mtime,
    )
    if not found:
        raise click.ClickException(
            _(
                "No tournament in {folder}. Pass the tournament folder: fieldjudge serve FOLDER"
            ).format(folder=data_dir)
        )
    if len(found) > 1:
        click.echo(
            _(
                "Several tournaments in {folder}; showing the newest. Pass FOLDER to choose another."
            ).format(folder=data_dir)
        )
    return found[-1]


def print_qr(url: str) -> None:
    """The URL as a QR code in the terminal, for a phone's camera."""
    click.echo(qr_text(url), nl=False)


@click.command()
@click.argument(
    "folder", required=False, type=click.Path(file_okay=False, exists=True, path_type=Path)
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(0, 65535))
@click.option("--no-qr", is_flag=True, help="Do not print the QR code of the URL.")
@click.option(
    "--max-per-address",
    default=DEFAULT_MAX_PER_ADDRESS,
    show_default=True,
    type=click.IntRange(1, 200),
    help="Connections one device (one address) may hold; more are refused.",
)
@click.pass_context
def serve(
    ctx: click.Context,
    folder: Path | None,
    host: str,
    port: int,
    no_qr: bool,
    max_per_address: int,
) -> None:
    """Serve the read-only pit display (scoreboard page, /api/live, /api/standings) of a
    tournament FOLDER (default: the newest tournament in the data folder)."""
    i18n.set_language(ctx.obj.get("lang"))  # the terminal's words; the page has ?lang=
    folder = folder or _pick_folder(data_dir(ctx))
    source = PitView(folder)
    try:
        name = source.live()["tournament"]["name"]
    except DamagedFile as exc:
        raise click.ClickException(f"{exc.path}: {rule_text(exc.fault)}") from None
    server = PitServer(source, host, port, max_per_address=max_per_address)
    try:
        url = server.start()
    except PitServerError as exc:
        raise click.ClickException(rule_text(exc)) from None
    # Ctrl+C sets a flag the loop below reads: a KeyboardInterrupt can be raised inside a
    # callback the interpreter runs on its own (a weak reference's, as an object is freed),
    # which swallows it ("Exception ignored"), and the server would go on serving
    stopping = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda _sig, _frame: stopping.set())
    try:  # Ctrl+C at any moment once it listens (even while the URL or QR is printed)
        urls = [url]
        if host in ("0.0.0.0", "::", ""):
            urls = lan_urls(int(url.rsplit(":", 1)[1].strip("/"))) or [url]
        click.echo(
            _("Serving {name} ({folder}). Ctrl+C stops it.").format(name=name, folder=folder)
        )
        for u in urls:
            click.echo(_("Pit display: {url}").format(url=u))
        if host.startswith("127.") or host in ("localhost", "::1"):
            click.echo(
                _("Only this laptop can open it. To show it on the venue network: --host 0.0.0.0")
            )
        if not no_qr:
            print_qr(urls[0])
        # short waits, not one endless wait: Ctrl+C may be delivered to the server's
        # thread, and only a main thread that wakes up runs Python's handler for it
        while server.running and not stopping.wait(0.2):
            pass
    except KeyboardInterrupt:  # a Ctrl+C the handler did not take (another handler's)
        pass
    finally:
        signal.signal(signal.SIGINT, previous)
        server.stop()
