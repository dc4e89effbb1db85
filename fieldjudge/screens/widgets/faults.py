"""A fault shown where the data would be (issue 21): what is not as the laptops and the
head judge signed it, and which laptop — on the home row, the game screen, the standings."""

from __future__ import annotations

from fieldjudge.i18n import _


def fault_text(fault: str) -> str:
    """«ПОВРЕЖДЕНО / НЕ ПОДПИСАНО: <what, which laptop>» ("DAMAGED / UNSIGNED: …")."""
    return _("DAMAGED / UNSIGNED: {fault}").format(fault=fault) if fault else _("DAMAGED")
