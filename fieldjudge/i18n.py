"""UI language: gettext catalogs (``.po``) shipped in ``fieldjudge/locale/<lang>/LC_MESSAGES``.

Every ``*.po`` file of a language is loaded and merged, so each screen area can keep its own
catalog (``app.po``, ``game.po``, ``chrono.po`` ...). Message ids are English; Russian is the
default for documents captains sign and for the quidditch round post.

Usage: ``from fieldjudge.i18n import _`` then ``_("Start")``. The rules engines' messages
carry both languages themselves (``fieldjudge.rules.messages``): show them with
``rule_text(msg, names)``.
"""

from __future__ import annotations

import functools
import gettext
import locale
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fieldjudge.rules.messages import render

LOCALE_DIR = Path(__file__).parent / "locale"
LANGS = ("ru", "en")


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
_ESCAPE = re.compile(r"\\(.)")


def _po_string(token: str) -> str:
    """The value of one quoted .po string ("..." with C escapes)."""
    token = token.strip()
    if len(token) < 2 or token[0] != '"' or token[-1] != '"':
        raise ValueError(f"not a quoted .po string: {token!r}")
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(1)), token[1:-1])


def parse_po(text: str) -> dict[str, str]:
    """Parse a .po catalog (msgid/msgstr with continued lines; no plurals needed here)."""
    out: dict[str, str] = {}
    msgid: list[str] | None = None
    msgstr: list[str] | None = None
    current: list[str] | None = None

    def flush() -> None:
        if msgid is not None and msgstr is not None:
            key, val = "".join(msgid), "".join(msgstr)
            if key and val:
                out[key] = val

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("msgid "):
            flush()
            msgid, msgstr = [_po_string(line[6:])], None
            current = msgid
        elif line.startswith("msgstr "):
            msgstr = [_po_string(line[7:])]
            current = msgstr
        elif line.startswith('"') and current is not None:
            current.append(_po_string(line))
    flush()
    return out


class POTranslations(gettext.NullTranslations):
    def __init__(self, catalog: dict[str, str]) -> None:
        super().__init__()
        self._catalog = catalog

    def gettext(self, message: str) -> str:
        return self._catalog.get(message, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.gettext(singular if n == 1 else plural)


@functools.lru_cache(maxsize=4)
def load(lang: str) -> POTranslations:
    catalog: dict[str, str] = {}
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    for po in sorted(folder.glob("*.po")):
        catalog.update(parse_po(po.read_text(encoding="utf-8")))
    return POTranslations(catalog)


def system_lang() -> str:
    for var in ("FIELDJUDGE_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        val = os.environ.get(var, "")
        if val:
            return "ru" if val.lower().startswith("ru") else "en"
    loc = (locale.getlocale()[0] or "").lower()
    return "ru" if loc.startswith("ru") else "en"


_current: POTranslations = POTranslations({})
_lang = "en"


def set_language(lang: str | None) -> str:
    global _current, _lang
    lang = lang or system_lang()
    if lang not in LANGS:
        raise ValueError(f"language must be one of {', '.join(LANGS)}")
    _current = load(lang)
    _lang = lang
    return lang


def current_language() -> str:
    return _lang


def _(message: str) -> str:
    return _current.gettext(message)


def ru(message: str) -> str:
    """Russian regardless of the UI language (signed documents, round posts)."""
    return load("ru").gettext(message)


def _param(value: Any, names: Mapping[str, str] | None, lang: str | None) -> Any:
    """A field of a store refusal in the UI language: an engine message rendered, a
    message id (``store.errors.MsgId``) translated, anything else as it is."""
    if getattr(value, "is_msgid", False):
        return load(lang).gettext(value) if lang else _(value)
    if hasattr(value, "render"):
        return render(value, lang or _lang, names)
    return value


def rule_text(message: Any, names: Mapping[str, str] | None = None, lang: str | None = None) -> str:
    """A rules engine's message in the UI language (or ``lang``), team ids replaced by
    ``names`` ({team id: display name}). Takes a ``RuleMessage`` / ``Phrase``, an exception
    carrying one (``Refused(msg)``), a store refusal (an English message id ``template``
    and its ``params``, or several ``errors``), or a plain ``str`` (shown as it is)."""
    if isinstance(message, BaseException):
        errors = getattr(message, "errors", None)
        if isinstance(errors, list):
            return "; ".join(rule_text(e, names, lang) for e in errors)
        template = getattr(message, "template", None)
        if isinstance(template, str):
            text = load(lang).gettext(template) if lang else _(template)
            params = {k: _param(v, names, lang) for k, v in getattr(message, "params", {}).items()}
            return text.format(**params)
    return render(message, lang or _lang, names)
