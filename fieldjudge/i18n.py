"""Every text of the application in the UI language: one mechanism, gettext catalogs.

One gettext domain, ``fieldjudge``, per language: translators edit
``fieldjudge/locale/<lang>/LC_MESSAGES/fieldjudge.po`` and then run
``python tools/compile_catalogs.py``, which compiles it into the ``.mo`` file next to it
(``tests/test_catalogs.py`` fails while a ``.mo`` is older than its ``.po``). The message
ids are English, so English needs no catalog: a message no catalog has comes back as it was
asked. The standard library's ``gettext.translation`` reads the ``.mo`` (no ``.po`` parsing
at start); the command line binds the same domain for click's own words (``cli.py``).
``tools/po_ids.py`` extracts the ids from the code and lists those missing from the catalog.

- UI strings: ``from fieldjudge.i18n import _`` then ``_("Start")``; ``ru("...")`` is
  Russian whatever the UI language (documents captains sign, the quidditch round post).
- Counts: ``ngettext("{n} game", "{n} games", n).format(n=n)``; Russian has three forms
  (1 игра, 3 игры, 5 игр), chosen by the ``Plural-Forms`` header of the catalog
  (``msgid_plural`` / ``msgstr[0..2]``).
- Rule messages (``fieldjudge.rules.messages``): an engine's ``RuleMessage`` / ``Phrase``
  carries its English template, its context (the rulebook section it cites, e.g. ``25.03``,
  or none) and its parameters. ``rule_text(msg, names, lang)`` renders it: each template is
  looked up with its context (``pgettext``), then without one (a message whose section is
  chosen at run time is filed without context), else shown in English.
- Store refusals carry an English message id (``template``) and ``params``; ``rule_text``
  translates them too.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gettext
import locale
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from fieldjudge.rules.messages import Translate, decimal, render
from fieldjudge.rules.paintball.reasons import ALL_REASONS

LOCALE_DIR = Path(__file__).parent / "locale"
#: the one gettext domain of the application (``locale/<lang>/LC_MESSAGES/fieldjudge.mo``)
DOMAIN = "fieldjudge"
LANGS = ("ru", "en")


class Catalogs:
    """A language's compiled catalog (``gettext``'s own translations object): a message it
    lacks comes back as it was asked (the English id). A rule message is looked up under its
    context, then without one."""

    def __init__(self, translations: gettext.NullTranslations | None = None) -> None:
        self.translations = translations or gettext.NullTranslations()

    def gettext(self, message: str) -> str:
        # "" is a catalog's header in gettext: never a message shown to anyone
        return self.translations.gettext(message) if message else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` under ``context``; failing that, under no context."""
        if context and message:
            found = self.translations.pgettext(context, message)
            if found is not message:  # gettext gives back the very message it lacks
                return found
        return self.gettext(message)

    #: the rule-message lookup (``rules.messages.Translate``); a count inside a message
    #: (``Count``) asks :meth:`ngettext` for its plural form
    __call__ = pgettext


@functools.lru_cache(maxsize=4)
def load(lang: str) -> Catalogs:
    """The compiled catalog of ``lang`` (none for English: the ids are English)."""
    return Catalogs(gettext.translation(DOMAIN, LOCALE_DIR, [lang], fallback=True))


def system_lang() -> str:
    for var in ("FIELDJUDGE_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        val = os.environ.get(var, "")
        if val:
            return "ru" if val.lower().startswith("ru") else "en"
    loc = (locale.getlocale()[0] or "").lower()
    return "ru" if loc.startswith("ru") else "en"


_current = Catalogs()
_lang = "en"
#: the language of the document being written, where it is not the UI's (a Russian
#: events CSV exported from an English UI): set by :func:`speaking` for one block of code,
#: per thread (an export runs in the app's worker thread while the UI goes on)
_document: contextvars.ContextVar[tuple[str, Catalogs] | None] = contextvars.ContextVar(
    "fieldjudge_document_language", default=None
)


def set_language(lang: str | None) -> str:
    global _current, _lang
    lang = lang or system_lang()
    if lang not in LANGS:
        raise ValueError(f"language must be one of {', '.join(LANGS)}")
    _current = load(lang)
    _lang = lang
    return lang


def current_language() -> str:
    doc = _document.get()
    return doc[0] if doc is not None else _lang


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Within the block (in this thread), ``_``, ``ngettext`` and every lookup without a
    ``lang`` speak ``lang``: a document written in its own language by code that speaks
    the UI's (the per-game events CSV uses the game screen's event texts)."""
    token = _document.set((lang, load(lang)))
    try:
        yield
    finally:
        _document.reset(token)


def _catalogs() -> Catalogs:
    doc = _document.get()
    return doc[1] if doc is not None else _current


def _(message: str) -> str:
    return _catalogs().gettext(message)


def pgettext(context: str, message: str) -> str:
    """``message`` as translated under ``context`` (a word the app uses in two senses),
    else as :func:`_` translates it."""
    return _catalogs().pgettext(context, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The plural form of ``n`` in the UI language (Russian has three: 1 игра, 3 игры,
    5 игр); format the result with ``n``."""
    return _catalogs().ngettext(singular, plural, n)


def ru(message: str) -> str:
    """Russian regardless of the UI language (signed documents, round posts)."""
    return load("ru").gettext(message)


def translator(lang: str | None = None) -> Translate:
    """The rule-message lookup ``(context, msgid) -> template`` of ``lang`` (default: the
    UI language) for ``fieldjudge.rules.messages``."""
    return load(lang) if lang else _catalogs()


def number(value: Any, lang: str | None = None, spec: str = "g") -> str:
    """A figure with a fraction in ``lang`` (default: the UI language): "287,5" in Russian
    (``rules.messages.decimal``, the one helper for it)."""
    return decimal(value, spec, translator(lang))


def _param(value: Any, names: Mapping[str, str] | None, lang: str | None) -> Any:
    """A field of a store refusal in the UI language: an engine message rendered, a
    message id (``store.errors.MsgId``) translated, anything else as it is."""
    if getattr(value, "is_msgid", False):
        return translator(lang).gettext(value)
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
            text = translator(lang).gettext(template)
            params = {k: _param(v, names, lang) for k, v in getattr(message, "params", {}).items()}
            return text.format(**params)
    return render(message, translator(lang), names)


def reason_label(key: str, lang: str | None = None) -> str:
    """An elimination reason (``rules.paintball.reasons``) by its key, in ``lang`` (default:
    the UI language); an unknown key as it is."""
    reason = ALL_REASONS.get(key)
    return rule_text(reason.text, lang=lang) if reason else key
