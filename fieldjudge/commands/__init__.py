"""Subcommands of ``fieldjudge`` by area (registered in :mod:`fieldjudge.cli`)."""

from __future__ import annotations

from pathlib import Path

import click

from fieldjudge.paths import default_data_dir


def data_dir(ctx: click.Context) -> Path:
    """The data folder the command line was given (``--data-dir``), else the OS's."""
    obj = ctx.find_root().obj or {}
    return obj.get("data_dir") or default_data_dir()
