"""Every text of the application in the UI language: one mechanism, gettext catalogs.

Translators edit the ``.po`` files in ``fieldjudge/locale/<lang>/LC_MESSAGES`` and then run
``python tools/compile_catalogs.py``, which compiles each into the ``.mo`` file next to it
(``tests/test_catalogs.py`` fails while a ``.mo`` is older than its ``.po``). The message
ids are English; every ``*.mo`` file of a language is read (by the standard library's
``gettext``, no ``.po`` parsing at start) and merged, so each area keeps its own catalog:
``app.po``, ``game.po``, ``chrono.po`` ... for the screens, ``rules.po`` for the rules
engines' messages.

- UI strings: ``from fieldjudge.i18n import _`` then ``_("Start")``; ``ru("...")`` is
  Russian whatever the UI language (documents captains sign, the quidditch round post).
- Counts: ``ngettext("{n} game", "{n} games", n).format(n=n)``; Russian has three forms
  (1 игра, 3 игры, 5 игр), chosen by the ``Plural-Forms`` header of the catalog that holds
  the entry (``msgid_plural`` / ``msgstr[0..2]``).
- Rule messages (``fieldjudge.rules.messages``): an engine's ``RuleMessage`` / ``Phrase``
  carries its English template, its context (the rulebook section it cites, e.g. ``25.03``,
  or none) and its parameters. ``rule_text(msg, names, lang)`` renders it: each template is
  looked up with its context (``pgettext``), then without one (a message whose section is
  chosen at run time is filed without context), else shown in English.
- Store refusals carry an English message id (``template``) and ``params``; ``rule_text``
  translates them too.
"""

from __future__ import annotations

import functools
import gettext
import locale
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fieldjudge.rules.messages import Translate, render
from fieldjudge.rules.paintball.reasons import ALL_REASONS

LOCALE_DIR = Path(__file__).parent / "locale"
LANGS = ("ru", "en")

#: a catalog's entries: {(context, English message id): translation}; "" is no context
Entries = dict[tuple[str, str], str]
#: how a compiled catalog keys a message with a context: ``context + EOT + message id``
CONTEXT_SEP = "\x04"


class POTranslations(gettext.NullTranslations):
    """A language's merged catalogs, with gettext's lookups (missing: the English id).
    ``messages`` is keyed as in a ``.mo`` file: the message id, or ``context\x04id``."""

    def __init__(self, entries: Entries | None = None) -> None:
        super().__init__()
        self.messages: dict[str, str] = {
            f"{ctx}{CONTEXT_SEP}{msgid}" if ctx else msgid: text
            for (ctx, msgid), text in (entries or {}).items()
        }
        #: the compiled catalogs themselves, for the plural forms (each with its own rule)
        self.catalogs: list[gettext.GNUTranslations] = []

    @classmethod
    def from_mo(cls, paths: list[Path]) -> POTranslations:
        """The compiled catalogs ``paths`` merged (a later file wins a clash, which
        ``tests/test_catalogs.py`` forbids)."""
        merged = cls()
        for path in paths:
            with path.open("rb") as fp:
                # the standard parser; its catalog holds the header under "" and plural
                # forms under (id, n) keys (kept apart: ``ngettext`` asks the catalog)
                translations = gettext.GNUTranslations(fp)
            merged.catalogs.append(translations)
            catalog = translations._catalog
            merged.messages.update(
                (k, v) for k, v in catalog.items() if k and isinstance(k, str) and v
            )
        return merged

    @property
    def entries(self) -> Entries:
        out: Entries = {}
        for key, text in self.messages.items():
            ctx, sep, msgid = key.partition(CONTEXT_SEP)
            out[(ctx, msgid) if sep else ("", key)] = text
        return out

    def gettext(self, message: str) -> str:
        return self.messages.get(message, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of ``n`` by the plural rule of the catalog holding the entry; the
        English form when no catalog has it."""
        for catalog in reversed(self.catalogs):  # a later file wins, as for messages
            text = catalog.ngettext(singular, plural, n)
            if text is not singular and text is not plural:  # gettext returns ours: missing
                return text
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str) -> str:
        """``message`` under ``context``; failing that, under no context."""
        found = self.messages.get(f"{context}{CONTEXT_SEP}{message}") if context else None
        return found if found is not None else self.gettext(message)

    def has(self, message: str, context: str = "") -> bool:
        return (f"{context}{CONTEXT_SEP}{message}" if context else message) in self.messages


def catalog_dir(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES"


@functools.lru_cache(maxsize=4)
def load(lang: str) -> POTranslations:
    """The compiled catalogs (``*.mo``) of ``lang``, merged."""
    return POTranslations.from_mo(sorted(catalog_dir(lang).glob("*.mo")))


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


def ngettext(singular: str, plural: str, n: int) -> str:
    """The plural form of ``n`` in the UI language (Russian has three: 1 игра, 3 игры,
    5 игр); format the result with ``n``."""
    return _current.ngettext(singular, plural, n)


def ru(message: str) -> str:
    """Russian regardless of the UI language (signed documents, round posts)."""
    return load("ru").gettext(message)


def translator(lang: str | None = None) -> Translate:
    """The rule-message lookup ``(context, msgid) -> template`` of ``lang`` (default: the
    UI language) for ``fieldjudge.rules.messages``."""
    return load(lang or _lang).pgettext


def _param(value: Any, names: Mapping[str, str] | None, lang: str | None) -> Any:
    """A field of a store refusal in the UI language: an engine message rendered, a
    message id (``store.errors.MsgId``) translated, anything else as it is."""
    if getattr(value, "is_msgid", False):
        return load(lang).gettext(value) if lang else _(value)
    if hasattr(value, "render"):
        return render(value, translator(lang), names)
    return value


def rule_text(message: Any, names: Mapping[str, str] | None = None, lang: str | None = None) -> str:
    """A rules engine's message in the UI language (or ``lang``), team ids replaced by
    ``names`` ({team id: display name}). Takes a ``RuleMessage`` / ``Phrase``, an exception
    carrying one (``Refused(msg)``), a store refusal (an English message id ``template``
    and its ``params``, or several ``errors``), a damaged file (its name and its fault),
    or a plain ``str`` (shown as it is)."""
    if isinstance(message, BaseException):
        fault, path = getattr(message, "fault", None), getattr(message, "path", None)
        if hasattr(fault, "render") and path is not None:  # a damaged file: name and fault
            return f"{Path(path).name}: {render(fault, translator(lang), names)}"
        errors = getattr(message, "errors", None)
        if isinstance(errors, list):
            return "; ".join(rule_text(e, names, lang) for e in errors)
        template = getattr(message, "template", None)
        if isinstance(template, str):
            text = load(lang).gettext(template) if lang else _(template)
            params = {k: _param(v, names, lang) for k, v in getattr(message, "params", {}).items()}
            return text.format(**params)
    return render(message, translator(lang), names)


def reason_label(key: str, lang: str | None = None) -> str:
    """An elimination reason (``rules.paintball.reasons``) by its key, in ``lang`` (default:
    the UI language); an unknown key as it is."""
    reason = ALL_REASONS.get(key)
    return rule_text(reason.text, lang=lang) if reason else key
