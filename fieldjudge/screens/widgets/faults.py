"""A fault shown where the data would be (issue 21): what is not as the laptops and the
head judge signed it, and which laptop — on the home row, the game screen, the standings."""

from __future__ import annotations

from fieldjudge.i18n import _, rule_text
from fieldjudge.rules.messages import Phrase, joined
from fieldjudge.services.trust.identity import awaits_registration


def fault_text(fault: str) -> str:
    """«ПОВРЕЖДЕНО / НЕ ПОДПИСАНО: <what, which laptop>» ("DAMAGED / UNSIGNED: …"); the
    fault (a ``Phrase`` of the verifier) in the UI language. A fault that is only a
    laptop's registration not here or not signed yet (a game arriving by Syncthing before
    its laptop's registration, a field laptop the head judge has still to register) is
    «НЕ ЗАСЧИТАНА: ноутбук не зарегистрирован»: nothing in the file is damaged, and
    words that fit a list's cell say so (``verify`` names each event and laptop)."""
    if not fault:
        return _("DAMAGED")
    if awaits_registration(fault):
        return _("NOT COUNTED: its laptop is not registered")
    return _("DAMAGED / UNSIGNED: {fault}").format(fault=rule_text(fault))


def fault_label(fault: str) -> str:
    """The fault in a list's cell, which a whole fault would widen beyond an 80-column
    screen: what kind it is, «ПОВРЕЖДЕНО» (damaged or unsigned) or «НЕ ЗАСЧИТАНА» (its
    laptop not registered); the line under the list says it whole (:func:`fault_text`)
    for the highlighted game."""
    if fault and awaits_registration(fault):
        return _("NOT COUNTED")
    return _("DAMAGED")


def file_faults(file: str, faults: list[str]) -> str:
    """The faults of one file, each after its name ("tournament.json: …"), as one text."""
    return joined([Phrase("{file}: {fault}", file=file, fault=f) for f in faults]) if faults else ""
