"""``fieldjudge verify``, ``fieldjudge merge``, ``fieldjudge sign-tournament`` and
``fieldjudge register-laptop`` (issues 5, 21): the head judge's tools on a tournament
folder, in the ``fieldjudge`` command and in ``fieldjudge-results``
(:mod:`fieldjudge.commands.results`). The export is the results program's alone
(:mod:`fieldjudge.commands.exporting` says why): this module loads no PDF library.

Every bad input ends with a clear message and a non-zero exit, never a traceback."""

from __future__ import annotations

import contextlib
from pathlib import Path

import click

from fieldjudge.commands import data_dir, refusals_as_messages
from fieldjudge.i18n import _, ngettext, rule_text
from fieldjudge.services import (
    TOURNAMENT_FILE,
    DamagedFile,
    FolderLocked,
    StoreError,
    open_tournament,
    open_view,
)
from fieldjudge.services.sync.merge import load_source, merge_into
from fieldjudge.services.trust.identity import awaits_registration
from fieldjudge.services.trust.verify import team_names, verify_on_this_laptop


def _tournaments(root: Path) -> list[Path]:
    found = sorted(p.parent for p in Path(root).glob(f"*/{TOURNAMENT_FILE}"))
    if (Path(root) / TOURNAMENT_FILE).exists():
        found.insert(0, Path(root))
    return found


def _nearby(ctx: click.Context) -> list[Path]:
    """The current folder if it is a tournament, else every tournament in the data folder."""
    if (Path.cwd() / TOURNAMENT_FILE).exists():
        return [Path.cwd()]
    return _tournaments(data_dir(ctx))


def pick_folder(ctx: click.Context, folder: Path | None) -> Path:
    """The tournament a command works on: ``folder``, else the current folder or the only
    tournament in the data folder; why none, as the command's error."""
    if folder is not None:
        if not (folder / TOURNAMENT_FILE).exists():
            raise click.ClickException(
                _("{folder} holds no tournament (no {file})").format(
                    folder=folder, file=TOURNAMENT_FILE
                )
            )
        return folder
    found = _nearby(ctx)
    if len(found) == 1:
        return found[0]
    if not found:
        raise click.ClickException(_("no tournament found: name its folder with --tournament"))
    names = "\n  ".join(str(p) for p in found)
    raise click.ClickException(
        _("several tournaments; name one with --tournament:") + f"\n  {names}"
    )


@contextlib.contextmanager
def opened(folder: Path, lock: bool):
    """The tournament of ``folder``: with ``lock`` the service (merge, sign), else a
    read-only view (export)."""
    try:
        t = open_tournament(folder) if lock else open_view(folder)
    except FolderLocked as exc:
        raise click.ClickException(
            rule_text(exc) + ": " + _("close the app on this tournament first, then run this again")
        ) from None
    except DamagedFile as exc:
        raise click.ClickException(_("damaged file") + " " + rule_text(exc)) from None
    try:
        yield t
    finally:
        t.close()


@click.command()
@click.argument("folder", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.pass_context
def verify(ctx, folder: Path | None) -> None:
    """Check every file's JSON, schema, event chain, protocol lock, signatures (laptops and
    head judge) and heads against the manifest; name the laptop behind each event; exit 1
    on any fault.

    Without FOLDER: the current folder if it is a tournament, else every tournament in the
    data folder."""
    folders = [folder] if folder is not None else _nearby(ctx)
    if not folders:
        raise click.ClickException(_("no tournament to verify"))
    bad = 0
    for f in folders:
        if not Path(f).is_dir():
            raise click.ClickException(_("{folder}: no such folder").format(folder=f))
        click.echo(f"{f}:")
        with refusals_as_messages(prefix=f"{f}: "):
            reports = verify_on_this_laptop(f)
        names = team_names(f)  # a rule's message names a team by its id
        for rel, rep in reports.items():
            if rep.faults:
                bad += 1
                click.echo(f"  {_('FAULT')} {rel}")
                for fault in rep.faults:
                    click.echo(f"        {rule_text(fault, names)}")
            else:
                ok = f"  {_('ok')}    {rel}"
                notes = "; ".join(rule_text(n, names) for n in rep.notes)
                click.echo(ok + (f"  ({notes})" if notes else ""))
        waiting = [
            r for r in reports.values() if r.faults and all(map(awaits_registration, r.faults))
        ]
        if waiting:  # nothing damaged in them: what to do, not only what is wrong
            click.echo(
                "  "
                + ngettext(
                    "{n} file with faults only waits for its laptop's registration: the head "
                    "judge registers the laptop on it with his secret (key R on its home "
                    "screen, or `fieldjudge register-laptop`)",
                    "{n} files with faults only wait for their laptops' registration: the head "
                    "judge registers each laptop on it with his secret (key R on its home "
                    "screen, or `fieldjudge register-laptop`)",
                    len(waiting),
                ).format(n=len(waiting))
            )
    if bad:
        click.echo(
            ngettext("{n} file with faults", "{n} files with faults", bad).format(n=bad), err=True
        )
        ctx.exit(1)
    click.echo(_("all files ok"))


@click.command()
@click.argument("source", type=click.Path(exists=True, path_type=Path))
@click.option(
    "--into",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    help="Tournament folder to merge into (default: the one in the data folder with the "
    "same tournament).",
)
@click.pass_context
def merge(ctx, source: Path, folder: Path | None) -> None:
    """Import another laptop's tournament folder or JSON export: new events are added,
    duplicates skipped, diverging games listed as conflicts for the head judge."""
    if folder is None:
        with refusals_as_messages(DamagedFile):
            src = load_source(source)
        tid = ((src.tournament.get("meta") or {}).get("1") or {}).get("id")
        same = []
        for f in _tournaments(data_dir(ctx)):
            if f.resolve() == source.resolve():
                continue
            with contextlib.suppress(Exception), contextlib.closing(open_view(f)) as view:
                if view.meta.get("id") == tid:
                    same.append(f)
        if len(same) != 1:
            raise click.ClickException(
                _("name the tournament to merge into with --into FOLDER")
                + ("" if same else " " + _("(none in the data folder is the same tournament)"))
            )
        folder = same[0]
    with opened(pick_folder(ctx, folder), lock=True) as t, refusals_as_messages():
        report = merge_into(t, source)
    for line in report.lines():
        click.echo(line)
    if report.conflicts:
        click.echo(_("open the app (key m on the home screen) to choose each conflict"))


@click.command("sign-tournament")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--secret",
    prompt="Head judge's secret",
    hide_input=True,
    help="The head judge's secret (asked for when not given).",
)
def sign_tournament(folder: Path, secret: str) -> None:
    """The head judge signs tournament.json as it is now (after checking it)."""
    context = click.get_current_context()
    with opened(pick_folder(context, folder), lock=True) as t, refusals_as_messages(StoreError):
        t.sign_tournament(secret)
    click.echo(_("{folder}: tournament.json signed by the head judge").format(folder=folder))


@click.command("register-laptop")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path), required=False)
@click.option(
    "--laptop-name",
    default="",
    help='This laptop\'s name in the tournament ("Field 1"); the name it has when not given.',
)
@click.option(
    "--secret",
    default="",
    envvar="FIELDJUDGE_HEAD_JUDGE_SECRET",
    help="The head judge's secret (asked for when not given).",
)
def register_laptop(folder: Path | None, laptop_name: str, secret: str) -> None:
    """The head judge registers THIS laptop in the tournament, on this laptop, with his
    secret: its games count only once he has (with Syncthing or a USB stick alike)."""
    context = click.get_current_context()
    name = laptop_name.strip()
    with opened(pick_folder(context, folder), lock=True) as t:
        if not t.laptop_unregistered() and name in ("", t.keys.name):
            click.echo(
                _("{laptop}: already registered by the head judge").format(laptop=t.keys.name)
            )
            return
        if not secret:
            secret = click.prompt(_("Head judge's secret"), hide_input=True)
        with refusals_as_messages(StoreError, OSError):
            t.register_laptop(secret, name)
        click.echo(
            _("{laptop} ({fp}): registered by the head judge; its games count").format(
                laptop=t.keys.name, fp=t.keys.fingerprint
            )
        )
