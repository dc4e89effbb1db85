"""``fieldjudge export`` and the app's export dialog: both run the export in the results
program (:mod:`fieldjudge.commands.results`, ``fieldjudge-results export``), the one program
that loads the PDF library (fpdf2, with fontTools and Pillow: about 0.45 s of CPU and 22 MB
of every start on a slow laptop, for a document printed a few times a day).

- ``fieldjudge export`` reads its options here (their help and errors in the UI language,
  as every command's), then becomes that program with ``exec``: the same process, its
  output and its exit code, as ``fieldjudge serve`` becomes the pit display's program.
- The app's export dialog runs it as a child process (``--for-app``,
  :mod:`fieldjudge.commands.export_process`): the child prints one JSON line a game done
  (``{"progress": [done, total]}``), then ``{"written": [paths]}`` or ``{"error": text}``
  (the UI language); it stops between two games when terminated, or when its standard
  input closes (the app ended). A PDF of a whole tournament takes seconds of CPU: in a
  process of its own it never shares the app's interpreter with the judge's screen.

Neither this module nor what it imports loads the export's code (an import contract):
the ``fieldjudge`` command imports it."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from fieldjudge.i18n import _, rule_text
from fieldjudge.rules.os_errors import os_error_phrase
from fieldjudge.services import StoreError

#: the program that exports (``python -m``)
RESULTS_PROGRAM = "fieldjudge.commands.results"

EXPORT_HELP = """Printable protocols (HTML, PDF: one A4 page per game), standings (HTML, PDF, CSV) or
the complete JSON export. A folder that does not verify (what fieldjudge verify
checks) is not exported: the faults are named, exit 1; --force writes it anyway,
every page stamped "НЕ ПРОВЕРЕНО: …", and still exits 1."""  # noqa: E501 - the message id


def export_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """The export's options, the same for ``fieldjudge export`` and for the program it
    becomes."""
    for option in reversed(
        (
            click.option(
                "--tournament",
                "folder",
                type=click.Path(file_okay=False, path_type=Path),
                help="Tournament folder (default: the current folder or the only one in the "
                "data folder).",
            ),
            click.option("--game", "game_id", help="Export this game only."),
            click.option(
                "--all", "all_games", is_flag=True, help="Export the whole tournament (default)."
            ),
            click.option(
                "--format",
                "fmt",
                type=click.Choice(["html", "pdf", "csv", "json"]),
                default="html",
                show_default=True,
                help="html or pdf to print, csv for a spreadsheet, json: everything.",
            ),
            click.option(  # a file of that name: said as the export's own failure
                "--out",
                type=click.Path(path_type=Path),
                required=True,
                help="Output folder.",
            ),
            click.option(
                "--lang",
                type=click.Choice(["ru", "en"]),
                default=None,
                help="Language of the documents (default: the global --lang, else ru).",
            ),
            click.option(
                "--delimiter",
                default=None,
                help='CSV field separator (default: ";" for Russian documents, "," for English).',
            ),
            click.option(
                "--overwrite",
                is_flag=True,
                help="Replace files of the same name (else: new names).",
            ),
            click.option(
                "--include-unplayed",
                is_flag=True,
                help="Also the protocols of games not played (no check-in, no start, no no-show).",
            ),
            click.option(
                "--force",
                is_flag=True,
                help="Export a folder that does not verify: every page stamped as not checked "
                "(exit 1).",
            ),
        )
    ):
        f = option(f)
    return f


def export_command(
    root: dict,
    *,
    folder: Path | None,
    game_id: str | None,
    all_games: bool,
    fmt: str,
    out: Path,
    lang: str | None,
    delimiter: str | None,
    overwrite: bool,
    include_unplayed: bool,
    force: bool,
) -> list[str]:
    """The results program's command line: the data folder and the UI language given to
    the ``fieldjudge`` command, then the export's options as read (each as ``--name=value``:
    a value that starts with a dash stays a value)."""
    argv = [sys.executable, "-m", RESULTS_PROGRAM]
    if root.get("data_dir"):
        argv.append(f"--data-dir={root['data_dir']}")
    if root.get("lang"):
        argv.append(f"--lang={root['lang']}")
    argv += ["export", f"--format={fmt}", f"--out={out}"]
    given = {"--tournament": folder, "--game": game_id, "--lang": lang, "--delimiter": delimiter}
    argv += [f"{name}={value}" for name, value in given.items() if value is not None]
    flags = {
        "--all": all_games,
        "--overwrite": overwrite,
        "--include-unplayed": include_unplayed,
        "--force": force,
    }
    return argv + [name for name, on in flags.items() if on]


@click.command(help=EXPORT_HELP)
@export_options
@click.pass_context
def export(ctx: click.Context, **options: Any) -> None:
    argv = export_command(ctx.find_root().obj or {}, **options)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, argv)  # noqa: S606 - this Python, our own module, no shell


def failure_text(exc: BaseException, out: Path) -> str:
    """What the judge reads when an export fails, in the UI language (never a traceback):
    a refusal or a damaged file as the services say it, an output folder that cannot be
    written named with the system's reason."""
    if isinstance(exc, StoreError):
        return rule_text(exc)
    if isinstance(exc, OSError):
        where = exc.filename or out
        return _("Cannot write the files to {folder}").format(folder=where) + (
            f" ({rule_text(os_error_phrase(exc.errno))})" if exc.errno else ""
        )
    if isinstance(exc, click.ClickException):
        return exc.format_message()
    return f"{type(exc).__name__}: {exc}"  # a bug still gives a message, not a crash
