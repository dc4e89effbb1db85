"""Subcommands of ``fieldjudge`` by area (registered in :mod:`fieldjudge.cli`)."""
