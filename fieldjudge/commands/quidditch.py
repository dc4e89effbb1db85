"""``fieldjudge quidditch``: verify an exported match against the revealed seed, export a
match. Bad input ends with a clear message and a non-zero exit, never a traceback."""

from __future__ import annotations

from pathlib import Path

import click
import orjson

from fieldjudge.commands import data_dir
from fieldjudge.i18n import _, rule_text
from fieldjudge.rules.os_errors import os_error_phrase
from fieldjudge.services import DamagedFile, StoreError, open_tournament
from fieldjudge.services.quidditch import (
    QuidditchSession,
    SessionError,
    count_rolls,
    quidditch_folder,
    verify_export,
)


@click.group()
def quidditch() -> None:
    """Forum quidditch matches: verifiable dice."""


@quidditch.command()
@click.argument("export", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--seed", required=True, help="The server seed the judge revealed.")
def verify(export: Path, seed: str) -> None:
    """Recompute every roll of an exported match (EXPORT, JSON) from the revealed SEED.

    Checks the seed against the hash published before the match, every roll (voided ones
    too; no roll number used twice), and replays every round from its declarations.
    Exits with 1 and lists every mismatch if anything differs."""
    try:
        data = orjson.loads(export.read_bytes())
    except OSError as exc:
        raise click.ClickException(
            _("cannot read {export}: {why}").format(
                export=export, why=rule_text(os_error_phrase(exc.errno)) if exc.errno else exc
            )
        ) from None
    except orjson.JSONDecodeError as exc:
        raise click.ClickException(
            _("{export} is not JSON: {why}").format(export=export, why=exc)
        ) from None
    if not isinstance(data, dict):
        raise click.ClickException(
            _("{export} is not a fieldjudge quidditch export").format(export=export)
        )
    problems = verify_export(data, seed.strip())
    rounds, rolls, voided = count_rolls(data)
    if problems:
        click.echo(
            _("MISMATCH in match {match}:").format(match=data.get("match_id", "?")), err=True
        )
        for p in problems:
            click.echo(f"  {rule_text(p)}", err=True)
        raise SystemExit(1)
    click.echo(
        _(
            "OK: match {match}, the seed matches the published hash {hash}…, {rolls} rolls "
            "in {rounds} round results ({voided} voided) recomputed, every round replayed."
        ).format(
            match=data["match_id"],
            hash=data["seed_hash"][:16],
            rolls=rolls,
            rounds=rounds,
            voided=voided,
        )
    )


@quidditch.command()
@click.argument("match_id")
@click.option(
    "--tournament",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    help="The folder holding the match (default: the data folder's 'quidditch').",
)
@click.option(
    "-o", "--out", type=click.Path(dir_okay=False, path_type=Path), help="JSON file to write."
)
@click.pass_context
def export(ctx: click.Context, match_id: str, folder: Path | None, out: Path | None) -> None:
    """Export MATCH_ID as JSON (for verify) and print where the files are."""
    folder = folder or quidditch_folder(data_dir(ctx))
    try:
        t = open_tournament(folder, lock=False, startup_backup=False)
    except DamagedFile as exc:
        raise click.ClickException(f"{exc.path}: {rule_text(exc.fault)}") from None
    try:
        session = QuidditchSession.open(t, match_id)
        if out is not None:
            if out.exists():
                raise click.ClickException(f"{out} exists: not overwriting it")
            session.write_export(out)
            click.echo(str(out))
        else:
            for p in session.write_exports():
                click.echo(str(p))
    except (SessionError, StoreError) as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        t.close()
