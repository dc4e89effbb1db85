"""The pit display program: the read-only pit display of one tournament, until Ctrl+C
(``python -m fieldjudge.commands.pit``). ``fieldjudge serve`` becomes this program
(:mod:`fieldjudge.commands.serve`) and the app's ``w`` runs it as a child process
(``--for-app``, :mod:`fieldjudge.serve.process`): the web server is loaded by this program
alone, never by the ``fieldjudge`` command that opens the app."""

from __future__ import annotations

import errno
import json
import signal
import sys
import threading
from pathlib import Path

import click

from fieldjudge import i18n
from fieldjudge.commands import data_dir, refusals_as_messages, set_when_stdin_closes
from fieldjudge.commands.root import JudgeCommand, accept_global_options_of
from fieldjudge.commands.serve import pit_options
from fieldjudge.i18n import _, rule_text
from fieldjudge.serve.addresses import LAN_HOST, lan_urls
from fieldjudge.serve.qr import qr_text
from fieldjudge.serve.server import PitServer, PitServerError
from fieldjudge.services import TOURNAMENT_FILE, DamagedFile, StoreError
from fieldjudge.services.opening import laptop_keys
from fieldjudge.services.pitview import PitView

#: how long the pit display reads games before it answers (and between its answers while
#: games are left): a big tournament is shown within a second, filled in as it is checked
FIRST_ANSWER_S = 0.3


def pit_view(folder: Path) -> PitView:
    """The pit's view of ``folder``: trusting what this laptop's app found clean (its
    ``.cache/verified.json``, read only), answering within ``FIRST_ANSWER_S``. Without
    this laptop's key (unreadable, or inside the folder) no memory is trusted: every file
    is checked."""
    try:
        keys = laptop_keys(folder, check=False)
    except (StoreError, OSError):
        return PitView(folder, budget_s=FIRST_ANSWER_S)
    return PitView(folder, keys=keys, budget_s=FIRST_ANSWER_S)


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


#: how many ports after the chosen one the app's pit display tries when it is taken
PORTS_TRIED = 20


def start_on_free_port(source: PitView, host: str, port: int) -> tuple[PitServer, str, str]:
    """A pit display server listening on ``port``, else on the next free one (another
    program, or another fieldjudge, holds 8765): (server, its URL, a note in the UI language
    naming the port taken when it moved, else ""). Why not, in the UI language, as a
    ``click.ClickException``."""
    last = port if port == 0 else port + PORTS_TRIED
    candidate = port
    while True:
        server = PitServer(source, host, candidate)
        try:
            url = server.start()
        except PitServerError as exc:
            cause = exc.__cause__
            code = cause.errno if isinstance(cause, OSError) else None
            if code == errno.EADDRINUSE and candidate < last:
                candidate += 1  # taken: the next one
                continue
            if code == errno.EADDRINUSE:
                why = _("ports {first}-{last} are all busy").format(first=port, last=last)
            elif code == errno.EACCES:
                why = _("no permission to use port {port}").format(port=candidate)
            elif isinstance(cause, OSError):
                why = _("the address {host}:{port} cannot be used").format(
                    host=host, port=candidate
                )
            else:
                why = _("the server did not start in time")
            raise click.ClickException(why) from exc
        moved = (
            _("Port {busy} is busy: the pit display uses port {port}").format(
                busy=port, port=candidate
            )
            if candidate != port
            else ""
        )
        return server, url, moved


def typed_addresses(url: str, host: str) -> list[str]:
    """The addresses to type on a TV or phone: on every interface (the venue network),
    this laptop's own, none without a network; else the URL the server listens on."""
    if host not in (LAN_HOST, "::", ""):
        return [url]
    return lan_urls(int(url.rstrip("/").rsplit(":", 1)[1]))


def serve_for_app(folder: Path, host: str, port: int) -> None:
    """The app's pit display: one JSON line once listening (``url``; ``shown``, the address
    to type, and its ``qr`` code; ``moved``) or why not
    (``error``, exit code 1), nothing else on the terminal; it stops when the app closes
    its standard input (or dies) or terminates it."""
    try:
        server, url, moved = start_on_free_port(pit_view(folder), host, port)
    except click.ClickException as exc:
        click.echo(json.dumps({"error": exc.message}, ensure_ascii=False))
        sys.exit(1)
    urls = typed_addresses(url, host)  # "" on the venue network without a network
    shown = urls[0] if urls else ""  # the address to type on the TV or phone, its QR code
    qr = qr_text(shown) if shown else ""
    answer = {"url": url, "shown": shown, "qr": qr, "moved": moved}
    click.echo(json.dumps(answer, ensure_ascii=False))
    closed = threading.Event()
    set_when_stdin_closes(closed)
    try:
        while server.running and not closed.wait(0.2):
            pass
    finally:
        server.stop()


@click.command(cls=JudgeCommand)
@pit_options
@click.option("--for-app", is_flag=True, hidden=True, help="Started by the app's w key.")
@click.pass_context
def serve(
    ctx: click.Context,
    folder: Path | None,
    host: str,
    port: int,
    no_qr: bool,
    max_per_address: int,
    for_app: bool,
) -> None:
    """Serve the read-only pit display (scoreboard page, /api/live, /api/standings) of a
    tournament FOLDER (default: the newest tournament in the data folder)."""
    # the terminal's words; the page has ?lang=
    i18n.set_language((ctx.find_root().obj or {}).get("lang"))
    folder = folder or _pick_folder(data_dir(ctx))
    if for_app:
        serve_for_app(folder, host, port)
        return
    source = pit_view(folder)
    try:
        name = source.live()["tournament"]["name"]
    except DamagedFile as exc:
        raise click.ClickException(f"{exc.path}: {rule_text(exc.fault)}") from None
    server = PitServer(source, host, port, max_per_address=max_per_address)
    with refusals_as_messages(PitServerError):
        url = server.start()
    # Ctrl+C sets a flag the loop below reads: a KeyboardInterrupt can be raised inside a
    # callback the interpreter runs on its own (a weak reference's, as an object is freed),
    # which swallows it ("Exception ignored"), and the server would go on serving
    stopping = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda _sig, _frame: stopping.set())
    try:  # Ctrl+C at any moment once it listens (even while the URL or QR is printed)
        urls = typed_addresses(url, host) or [url]
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
            click.echo(qr_text(urls[0]), nl=False)  # for a phone's camera
        # short waits, not one endless wait: Ctrl+C may be delivered to the server's
        # thread, and only a main thread that wakes up runs Python's handler for it
        while server.running and not stopping.wait(0.2):
            pass
    except KeyboardInterrupt:  # a Ctrl+C the handler did not take (another handler's)
        pass
    finally:
        signal.signal(signal.SIGINT, previous)
        server.stop()


accept_global_options_of(serve)  # --data-dir, --lang, as after ``fieldjudge serve``


if __name__ == "__main__":  # its help and errors named as the judge types it
    serve.main(prog_name="fieldjudge serve")
