"""An export run off the app's thread (the export dialog's worker): it never shares the
app's open tournament; it opens its own read-only view of the folder, as ``fieldjudge
export`` does (no lock, no backup), exports, and closes that view."""

from __future__ import annotations

import functools
from pathlib import Path

from fieldjudge.export import Progress, no_progress, run_export
from fieldjudge.i18n import load, rule_text
from fieldjudge.rules.messages import joined
from fieldjudge.services import TournamentView
from fieldjudge.services.opening import open_view
from fieldjudge.store import Refused


def refusal(faults: list[str]) -> Refused:
    """The refusal naming every fault (``fieldjudge verify`` tells more)."""
    return Refused(
        "not exported: the tournament folder does not verify (--force writes every page "
        "stamped as not checked):\n  {faults}",
        faults=joined(faults, "\n  "),
    )


def stamp_text(faults: list[str], lang: str) -> str:
    """The stamp on every page of a forced export, in the document's language (the
    faults too: the verifier's phrases rendered through the catalogs)."""
    tr = (lambda s: s) if lang == "en" else load(lang).gettext
    return tr("NOT CHECKED: {faults}").format(faults=rule_text(joined(faults), None, lang))


def verified(
    t: TournamentView, lang: str, force: bool = False, found: list[str] | None = None
) -> str:
    """What `fieldjudge verify` finds wrong in the folder (issue 21), asked before any file
    is written: the opened tournament's own check, which does not check again the files this
    laptop found clean and that have not changed since. A fault refuses the export, unless
    ``force``: then the stamp every page takes (else ""). The faults go into ``found``."""
    faults = t.trust.faults()
    if found is not None:
        found[:] = faults
    if faults and not force:
        raise refusal(faults)
    return stamp_text(faults, lang) if faults else ""


def export_folder(
    folder: Path,
    out_dir: Path,
    fmt: str,
    game_id: str | None = None,
    lang: str = "ru",
    progress: Progress = no_progress,
    include_unplayed: bool = False,
) -> list[Path]:
    """Export one game or the whole tournament of ``folder`` into ``out_dir``; returns the
    files written. ``progress(done, total)`` after each game; it may raise to stop the
    export between two games. ``include_unplayed``: the games not played too. Raises ``StoreError`` (a refusal, a damaged file) or
    ``OSError`` (the output folder cannot be written)."""
    t = open_view(Path(folder))
    try:
        return run_export(
            t,
            Path(out_dir),
            fmt,
            game_id,
            lang,
            progress=progress,
            include_unplayed=include_unplayed,
            verify=functools.partial(verified, t, lang),
        )
    finally:
        t.close()
