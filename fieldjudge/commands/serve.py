"""``fieldjudge serve``: the pit display, a program of its own
(:mod:`fieldjudge.commands.pit`) that this command becomes once its options are read
(``exec``: the same process, its Ctrl+C, its output and its exit code). The ``fieldjudge``
command opens the app too, and the app never serves the pit display in its own process (its
``w`` starts the same program as a child): so the web server the pit program loads
(aiohttp, about 0.4 s of CPU and 12 MB on a slow laptop) is never loaded by a judge's app.
The options are read here, with their help and errors in the UI language as every
command's; the program reads them again, the same (:func:`pit_options`)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from fieldjudge.serve.addresses import DEFAULT_MAX_PER_ADDRESS, DEFAULT_PORT

#: the pit display program (``python -m``)
PIT_PROGRAM = "fieldjudge.commands.pit"


def pit_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """The pit display's FOLDER and options, the same for ``fieldjudge serve`` and for the
    program it becomes."""
    for option in reversed(
        (
            click.argument(
                "folder",
                required=False,
                type=click.Path(file_okay=False, exists=True, path_type=Path),
            ),
            click.option(
                "--host", default="127.0.0.1", show_default=True, help="Address to listen on."
            ),
            click.option(
                "--port",
                default=DEFAULT_PORT,
                show_default=True,
                type=click.IntRange(0, 65535),
                help="Port to listen on (0: any free one).",
            ),
            click.option("--no-qr", is_flag=True, help="Do not print the QR code of the URL."),
            click.option(
                "--max-per-address",
                default=DEFAULT_MAX_PER_ADDRESS,
                show_default=True,
                type=click.IntRange(1, 200),
                help="Connections one device (one address) may hold; more are refused.",
            ),
        )
    ):
        f = option(f)
    return f


def pit_command(
    root: dict, *, folder: Path | None, host: str, port: int, no_qr: bool, max_per_address: int
) -> list[str]:
    """The pit program's command line: the data folder and the language given to the
    ``fieldjudge`` command, then the options as read."""
    argv = [sys.executable, "-m", PIT_PROGRAM]
    if root.get("data_dir"):
        argv += ["--data-dir", str(root["data_dir"])]
    if root.get("lang"):
        argv += ["--lang", str(root["lang"])]
    if folder is not None:
        argv.append(str(folder))
    argv += ["--host", host, "--port", str(port), "--max-per-address", str(max_per_address)]
    return [*argv, "--no-qr"] if no_qr else argv


@click.command()
@pit_options
@click.pass_context
def serve(ctx: click.Context, **options: Any) -> None:
    """Serve the read-only pit display (scoreboard page, /api/live, /api/standings) of a
    tournament FOLDER (default: the newest tournament in the data folder)."""
    argv = pit_command(ctx.find_root().obj or {}, **options)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, argv)  # noqa: S606 - this Python, our own module, no shell
