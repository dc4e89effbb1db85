"""What every ``fieldjudge`` command line shares: the UI language (``--lang``) set before
click parses, the help texts translated, and the global options (``--data-dir``,
``--lang``, ``--judge``) accepted after a subcommand's name too. The ``fieldjudge``
command (:mod:`fieldjudge.cli`, the app and every tool) and the head judge's
``fieldjudge-results`` (:mod:`fieldjudge.commands.results`, the same export, verify, merge
and sign-tournament without loading the app) are both built from it."""

from __future__ import annotations

import gettext
import inspect
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from fieldjudge import i18n


def typed_language(args: Sequence[str]) -> str | None:
    """The ``--lang`` typed anywhere on the command line (``--lang ru``, ``--lang=ru``)."""
    for i, arg in enumerate(args):
        if arg == "--lang" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


def speak(lang: str | None) -> str:
    """The command line in ``lang`` (default: the system's): our texts through the
    catalog, click's own words ("Usage:", "Show this message and exit.", its errors)
    through the standard ``gettext`` functions bound to the same domain (``fieldjudge``),
    which read the language from ``LANGUAGE``."""
    lang = i18n.set_language(lang if lang in i18n.LANGS else None)
    os.environ["LANGUAGE"] = lang
    gettext.bindtextdomain(i18n.DOMAIN, str(i18n.LOCALE_DIR))
    gettext.textdomain(i18n.DOMAIN)
    return lang


def translate_help(cmd: click.Command) -> None:
    """Every help text of ``cmd`` and its subcommands in the UI language; the English one
    is kept beside it (``help_en``), so a later run in another language starts from it."""
    for obj in (cmd, *cmd.params):
        english = obj.__dict__.setdefault("help_en", getattr(obj, "help", None))
        if english:
            obj.help = i18n._(inspect.cleandoc(english))  # type: ignore[union-attr]
        epilog = obj.__dict__.setdefault("epilog_en", getattr(obj, "epilog", None))
        if epilog:  # kept as written: its "\b" blocks keep their lines
            obj.epilog = i18n._(epilog)  # type: ignore[union-attr]
        prompt = obj.__dict__.setdefault("prompt_en", getattr(obj, "prompt", None))
        if isinstance(prompt, str):  # an option asked for when not given
            obj.prompt = i18n._(prompt)  # type: ignore[union-attr]
        kind = getattr(obj, "type", None)
        if isinstance(kind, click.Path):  # "file", "directory" or "path", named in its errors
            name = kind.__dict__.setdefault("name_en", kind.name)
            kind.name = gettext.gettext(name)
    # click makes its --help option once per command, in the language of that moment
    help_option = cmd.get_help_option(click.Context(cmd))
    if help_option is not None:
        help_option.help = gettext.gettext("Show this message and exit.")
    if isinstance(cmd, click.Group):
        for sub in cmd.commands.values():
            translate_help(sub)


class Speaks:
    """A command line that speaks the UI language (``--lang``) before it parses, so
    ``--help`` and click's errors are already in it."""

    def main(self, args: Sequence[str] | None = None, *rest: Any, **extra: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        speak(typed_language(argv))
        translate_help(self)  # mixed into a click.Command
        return super().main(argv, *rest, **extra)


class JudgeGroup(Speaks, click.Group):
    """A ``fieldjudge`` group (the command, ``fieldjudge-results``)."""


class JudgeCommand(Speaks, click.Command):
    """A program of one command (the pit display's, :mod:`fieldjudge.commands.pit`)."""


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
    """The global options for one subcommand (and its own subcommands); given once, however
    many groups the subcommand is in."""
    taken = {opt for p in cmd.params for opt in getattr(p, "opts", ())}
    cmd.params.extend(o for o in _global_options() if not set(o.opts) & taken)
    if isinstance(cmd, click.Group):
        accept_global_options(cmd)


def root_options(f):
    """The options of a root group, before its subcommand (``--data-dir``, ``--lang``,
    ``--judge``, ``--version``)."""
    for option in reversed(
        (
            click.option(
                "--data-dir",
                type=click.Path(file_okay=False, path_type=Path),
                envvar="FIELDJUDGE_DATA",
                help="Folder holding the tournaments.",
            ),
            click.option(
                "--lang",
                type=click.Choice(["ru", "en"]),
                default=None,
                help="UI language (default: from the system locale).",
            ),
            click.option(
                "--judge",
                default="",
                help="Your name, recorded with every event (remembered on this laptop).",
            ),
            click.version_option(package_name="fieldjudge"),
        )
    ):
        f = option(f)
    return f
