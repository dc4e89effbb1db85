"""The CSV import flow shared by the teams and schedule screens: ask for a path, parse,
list every bad row (nothing imported), apply atomically, report warnings."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from fieldjudge.csv_import import ParseResult
from fieldjudge.i18n import _, rule_text
from fieldjudge.screens.dialogs.forms import Field, FormScreen, MessageScreen, Values
from fieldjudge.store import Refused


def read_csv_file(path_text: str) -> bytes:
    path = Path(path_text).expanduser()
    if not path.is_file():
        raise OSError(_("No such file") + f": {path}")
    return path.read_bytes()


def import_csv_flow(
    screen,
    title: str,
    header: str,
    parse: Callable[[bytes], ParseResult],
    apply: Callable[[ParseResult], str],
) -> None:
    """``apply`` stores the rows (raising :class:`Refused` changes nothing) and returns the
    message to show; ``screen.reload()`` is called after a successful import."""
    app = screen.app

    def bad_rows(lines: list[str]) -> None:
        app.push_screen(MessageScreen(_("Nothing imported: fix these rows"), "\n".join(lines)))

    def done(v: Values | None) -> None:
        if v is None:
            return
        try:
            raw = read_csv_file(v["path"])
        except OSError as exc:
            screen.notify(str(exc), severity="error")
            return
        result = parse(raw)
        if result.errors:
            bad_rows(result.errors)
            return
        try:
            msg = apply(result)
        except Refused as exc:
            bad_rows(str(exc).split("; "))
            return
        screen.reload()
        if result.warnings:
            app.push_screen(MessageScreen(msg, "\n".join(rule_text(w) for w in result.warnings)))
        else:
            screen.notify(msg)

    app.push_screen(
        FormScreen(
            title,
            [Field("path", _("File path"), placeholder="~/file.csv")],
            note=_("Header") + f": {header}",
        ),
        done,
    )
