"""The ``fieldjudge`` command: the app, the demo, and the tools of each area."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from fieldjudge import i18n
from fieldjudge.app import make_app
from fieldjudge.commands.chrono import chrono
from fieldjudge.commands.export_process import export_in_child
from fieldjudge.commands.exporting import export
from fieldjudge.commands.quidditch import quidditch
from fieldjudge.commands.root import JudgeGroup, accept_global_options, root_options
from fieldjudge.commands.serve import serve
from fieldjudge.commands.sync import sync
from fieldjudge.commands.tournament import merge, register_laptop, sign_tournament, verify
from fieldjudge.paths import default_data_dir
from fieldjudge.services import TOURNAMENT_FILE
from fieldjudge.services.demo import DEMO_PASSPHRASE, create_demo, fresh_demo_folder


@click.group(cls=JudgeGroup, invoke_without_command=True)
@root_options
@click.pass_context
def main(ctx: click.Context, data_dir: Path | None, lang: str | None, judge: str) -> None:
    """fieldjudge: offline judging for tournament paintball and forum quidditch.

    Without a subcommand, opens the app on the data folder."""
    ctx.ensure_object(dict)
    ctx.obj.update(data_dir=data_dir, lang=lang, judge=judge)
    if ctx.invoked_subcommand is None:
        _run_app(ctx, data_dir or default_data_dir(), None)


def _run_app(ctx: click.Context, data_dir: Path, folder: Path | None) -> None:
    # the export dialog runs the exports, which sit above the app: given here
    app = make_app(
        data_dir, folder, lang=ctx.obj["lang"], judge=ctx.obj["judge"], exporter=export_in_child
    )
    app.run()


@main.command()
@click.argument("folder", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.pass_context
def open(ctx: click.Context, folder: Path) -> None:  # noqa: A001 - the subcommand's name
    """Open the app on one tournament FOLDER."""
    if not (folder / TOURNAMENT_FILE).exists() and not (folder / "games").is_dir():
        # not a tournament at all (a typo, a stick not mounted): not a damaged file to restore
        raise click.ClickException(
            i18n._(
                "{folder} holds no tournament (no {file}): name a tournament's folder, or run "
                "`fieldjudge` and press n for a new one"
            ).format(folder=folder, file=TOURNAMENT_FILE)
        )
    _run_app(ctx, folder.parent, folder)


@main.command()
@click.option("--no-ui", is_flag=True, help="Only create the demo and print its folder.")
@click.pass_context
def demo(ctx: click.Context, no_ui: bool) -> None:
    """Create the bundled demo tournament in a fresh folder and open it.

    Without --data-dir (or FIELDJUDGE_DATA) the folder is a new temporary one, so your real
    tournaments are never touched."""
    root = ctx.obj["data_dir"] or Path(tempfile.mkdtemp(prefix="fieldjudge-demo-"))
    root.mkdir(parents=True, exist_ok=True)
    folder = fresh_demo_folder(root)
    t = create_demo(folder)
    t.close()
    click.echo(str(folder))
    click.echo(
        i18n._("the demo head judge's secret: {secret}").format(secret=DEMO_PASSPHRASE), err=True
    )
    if not no_ui:
        _run_app(ctx, root, folder)


for command in (
    chrono,
    export,
    verify,
    merge,
    quidditch,
    serve,
    sync,
    sign_tournament,
    register_laptop,
):
    main.add_command(command)


accept_global_options(main)


def run() -> None:
    """The installed ``fieldjudge`` command and ``python -m fieldjudge``."""
    main()
