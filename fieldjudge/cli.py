"""The ``fieldjudge`` command: the app, the demo, and the tools of each area."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import click

from fieldjudge.paths import default_data_dir


def _data_dir(ctx: click.Context) -> Path:
    return ctx.obj["data_dir"] or default_data_dir()


class LazyGroup(click.Group):
    """A group whose subcommands named in ``lazy`` ("module:attribute") are imported only
    when one is run or listed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy: dict[str, str] = {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module, attr = self.lazy[cmd_name].split(":")
            command = getattr(importlib.import_module(module), attr)
            self.add_command(command, cmd_name)
            accept_global_options_of(command)
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, invoke_without_command=True)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="FIELDJUDGE_DATA",
    help="Folder holding the tournaments.",
)
@click.option(
    "--lang",
    type=click.Choice(["ru", "en"]),
    default=None,
    help="UI language (default: from the system locale).",
)
@click.option(
    "--judge", default="", help="Your name, recorded with every event (remembered on this laptop)."
)
@click.version_option(package_name="fieldjudge")
@click.pass_context
def main(ctx: click.Context, data_dir: Path | None, lang: str | None, judge: str) -> None:
    """fieldjudge: offline judging for tournament paintball and forum quidditch.

    Without a subcommand, opens the app on the data folder."""
    ctx.ensure_object(dict)
    ctx.obj.update(data_dir=data_dir, lang=lang, judge=judge)
    if ctx.invoked_subcommand is None:
        _run_app(ctx, _data_dir(ctx), None)


def _run_app(ctx: click.Context, data_dir: Path, folder: Path | None) -> None:
    from fieldjudge.app import make_app

    make_app(data_dir, folder, lang=ctx.obj["lang"], judge=ctx.obj["judge"]).run()


@main.command()
@click.argument("folder", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.pass_context
def open(ctx: click.Context, folder: Path) -> None:  # noqa: A001 - the subcommand's name
    """Open the app on one tournament FOLDER."""
    _run_app(ctx, folder.parent, folder)


@main.command()
@click.option("--no-ui", is_flag=True, help="Only create the demo and print its folder.")
@click.pass_context
def demo(ctx: click.Context, no_ui: bool) -> None:
    """Create the bundled demo tournament in a fresh folder and open it.

    Without --data-dir (or FIELDJUDGE_DATA) the folder is a new temporary one, so your real
    tournaments are never touched."""
    import tempfile

    from fieldjudge.services.demo import DEMO_PASSPHRASE, create_demo, fresh_demo_folder

    data_dir = ctx.obj["data_dir"] or Path(tempfile.mkdtemp(prefix="fieldjudge-demo-"))
    data_dir.mkdir(parents=True, exist_ok=True)
    folder = fresh_demo_folder(data_dir)
    t = create_demo(folder)
    t.close()
    click.echo(str(folder))
    click.echo(f"the demo head judge's secret: {DEMO_PASSPHRASE}", err=True)
    if not no_ui:
        _run_app(ctx, data_dir, folder)


def _register_commands() -> None:
    """Subcommand groups that live in their own modules (fieldjudge.commands), imported
    when run: ``fieldjudge export`` does not load the pit server or the serial reader."""
    main.lazy.update(
        chrono="fieldjudge.commands.chrono:chrono",
        export="fieldjudge.commands.results:export",
        verify="fieldjudge.commands.results:verify",
        merge="fieldjudge.commands.results:merge",
        quidditch="fieldjudge.commands.quidditch:quidditch",
        serve="fieldjudge.commands.serve:serve",
        sync="fieldjudge.commands.sync:sync",
    )
    main.lazy["sign-tournament"] = "fieldjudge.commands.results:sign_tournament"


def _remember(ctx: click.Context, param: click.Parameter, value):
    """A global option typed after the subcommand: it counts as if typed before it."""
    if value not in (None, ""):
        root = ctx.find_root()
        root.ensure_object(dict)
        root.obj[param.name] = value
    return value


def _global_options() -> list[click.Option]:
    return [
        click.Option(
            ["--data-dir"],
            type=click.Path(file_okay=False, path_type=Path),
            expose_value=False,
            callback=_remember,
            help="Folder holding the tournaments (as before the subcommand).",
        ),
        click.Option(
            ["--lang"],
            type=click.Choice(["ru", "en"]),
            expose_value=False,
            callback=_remember,
            help="UI language (as before the subcommand).",
        ),
        click.Option(
            ["--judge"],
            expose_value=False,
            callback=_remember,
            help="Your name, recorded with every event (as before the subcommand).",
        ),
    ]


def accept_global_options(group: click.Group) -> None:
    """Every subcommand, however deep, accepts ``--data-dir``, ``--lang`` and ``--judge``
    after its name too (``fieldjudge demo --no-ui --data-dir DIR``). A subcommand that has
    an option of the same name keeps its own (``export --lang``: the document language)."""
    for cmd in group.commands.values():
        accept_global_options_of(cmd)


def accept_global_options_of(cmd: click.Command) -> None:
    """The global options for one subcommand (and its own subcommands); a lazy one gets
    them when it is loaded."""
    taken = {opt for p in cmd.params for opt in getattr(p, "opts", ())}
    cmd.params.extend(o for o in _global_options() if not set(o.opts) & taken)
    if isinstance(cmd, click.Group):
        accept_global_options(cmd)


_register_commands()
accept_global_options(main)


def run() -> None:
    """The installed ``fieldjudge`` command and ``python -m fieldjudge``: :func:`main`, then
    out without tearing the interpreter down. Every file a command writes is closed by the
    time it returns; freeing what it read object by object (an export: every event of the
    tournament) only keeps the judge from his prompt. With another thread still running
    (or an error), the ordinary exit."""
    import os
    import sys
    import threading

    try:
        main()
        code: object = 0
    except SystemExit as exc:
        code = exc.code
    if threading.active_count() > 1:
        sys.exit(code)
    if isinstance(code, str):  # what sys.exit would print
        print(code, file=sys.stderr)
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader that went away (| head): nothing to add
            pass
    os._exit(code if isinstance(code, int) else 0 if code is None else 1)
