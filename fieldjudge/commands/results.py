"""``fieldjudge-results`` (``python -m fieldjudge.commands.results``): the head judge's
export, verify, merge, sign-tournament and register-laptop without loading the app. The
one program that exports: ``fieldjudge export`` becomes it, and the app's export dialog
runs it as a child (``--for-app``, :mod:`fieldjudge.commands.exporting`).

Every bad input ends with a clear message and a non-zero exit, never a traceback."""

from __future__ import annotations

import contextlib
import functools
import json
import signal
import threading
from pathlib import Path

import click

from fieldjudge.commands import set_when_stdin_closes
from fieldjudge.commands.exporting import EXPORT_HELP, export_options, failure_text
from fieldjudge.commands.root import JudgeGroup, accept_global_options, root_options
from fieldjudge.commands.tournament import (
    merge,
    opened,
    pick_folder,
    register_laptop,
    sign_tournament,
    verify,
)
from fieldjudge.export import Progress, no_progress, run_export
from fieldjudge.export.job import verified
from fieldjudge.i18n import _, rule_text
from fieldjudge.services import StoreError


class _Stop(Exception):
    """The app asked the export to stop (between two games)."""


def _tell_app(message: dict) -> None:
    try:
        click.echo(json.dumps(message, ensure_ascii=False))
    except BrokenPipeError:  # the app is gone: nobody to export for
        raise _Stop from None


def _for_app(ctx: click.Context, run, out: Path) -> None:
    """The app's export: one JSON line a game done, then the files written or why not
    (the UI language), nothing else on the terminal. It stops between two games when the
    app terminates it or closes its standard input (or dies)."""
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda _sig, _frame: stop.set())
    set_when_stdin_closes(stop)

    def progress(done: int, total: int) -> None:
        if stop.is_set():
            raise _Stop
        _tell_app({"progress": [done, total]})

    try:
        answer = {"written": [str(p) for p in run(progress)]}
    except _Stop:
        ctx.exit(1)
    except Exception as exc:  # noqa: BLE001 - every failure is said to the app
        answer = {"error": failure_text(exc, out)}
    with contextlib.suppress(_Stop):  # an app gone meanwhile hears nothing
        _tell_app(answer)
    if "error" in answer:
        ctx.exit(1)


@click.command(help=EXPORT_HELP)
@export_options
@click.option("--for-app", is_flag=True, hidden=True, help="Started by the app's export.")
@click.pass_context
def export(
    ctx,
    folder,
    game_id,
    all_games,
    fmt,
    out,
    lang,
    delimiter,
    overwrite,
    include_unplayed,
    force,
    for_app,
) -> None:
    if game_id and all_games:
        raise click.ClickException(_("choose --game ID or --all, not both"))
    lang = lang or (ctx.find_root().obj or {}).get("lang") or "ru"
    if delimiter == "\\t":
        delimiter = "\t"
    faults: list[str] = []

    def run(progress: Progress = no_progress) -> list[Path]:
        with opened(pick_folder(ctx, folder), lock=False) as t:
            return run_export(
                t,
                out,
                fmt,
                game_id,
                lang,
                overwrite,
                delimiter=delimiter,
                progress=progress,
                include_unplayed=include_unplayed,
                verify=functools.partial(verified, t, lang, force, faults),
            )

    if for_app:
        _for_app(ctx, run, out)
        return
    try:
        written = run()
    except (StoreError, OSError) as exc:
        raise click.ClickException(failure_text(exc, out)) from None
    for p in written:
        click.echo(str(p))
    if faults:
        click.echo(_("written, stamped as not checked: the folder does not verify:"), err=True)
        for f in faults:
            click.echo(f"  {rule_text(f)}", err=True)
        ctx.exit(1)


@click.group(cls=JudgeGroup, name="fieldjudge-results")
@root_options
@click.pass_context
def results_main(ctx: click.Context, data_dir: Path | None, lang: str | None, judge: str) -> None:
    """The head judge's export, verify, merge, sign-tournament and register-laptop: the
    same commands as in fieldjudge, without loading the app, so they start sooner and take
    less memory."""
    ctx.ensure_object(dict)
    ctx.obj.update(data_dir=data_dir, lang=lang, judge=judge)


for _command in (export, verify, merge, sign_tournament, register_laptop):
    results_main.add_command(_command)
accept_global_options(results_main)


def run() -> None:
    """The installed ``fieldjudge-results`` command and ``python -m
    fieldjudge.commands.results``."""
    results_main()


if __name__ == "__main__":
    run()
