"""The check before an export (issue 21) and the stamp of a forced one: what
``fieldjudge export`` (the results program, :mod:`fieldjudge.commands.results`) asks of the
read-only view it exports from, whether a judge typed it or the app's export dialog
started it."""

from __future__ import annotations

from fieldjudge.i18n import load, rule_text
from fieldjudge.rules.messages import joined
from fieldjudge.services import TournamentView
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
