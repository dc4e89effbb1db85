"""Bilingual rule messages. Pure: no I/O, no global language.

A message *is* its English text (``Phrase`` and ``RuleMessage`` subclass ``str``), so code
that compares, tests ``startswith("25.03")`` or stores it keeps working. It also carries the
English and Russian templates and their parameters, and renders in either language::

    msg = RuleMessage("25.03", "{player} is neutral", "{player} объявлен нейтральным",
                      player=Player("t1", 7))
    msg == "25.03: t1 #7 is neutral"
    msg.render("ru", names={"t1": "Волки"}) == "25.03: Волки #7 объявлен нейтральным"

Parameters are rendered by their own ``render(lang, names)`` when they have one (``Team``,
``Player``, a nested ``Phrase``), else formatted as they are (format specs such as ``{fps:g}``
apply). Team ids appear as :class:`Team` or :class:`Player` so the display names replace
them properly. The message constructors live in catalogs (``paintball/refusals.py``,
``paintball/notes.py``, ``marker_texts.py``, ``protocol_texts.py``) and register here with
:func:`catalog` so a test can render every one of them in both languages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

LANGS = ("en", "ru")
Names = Mapping[str, str] | None

#: every message constructor, by "module.name" (filled by the @catalog decorator)
CATALOG: dict[str, Callable[..., Phrase]] = {}


def catalog(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Register a message constructor (for the tests that render every message)."""
    CATALOG[f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}"] = fn
    return fn


class Team(str):
    """A team id inside a message; rendered as the team's display name."""

    def render(self, lang: str = "en", names: Names = None) -> str:
        return (names or {}).get(str(self), str(self))


class Player(str):
    """A player inside a message: ``"<team> #<number>"``, the team by its display name."""

    team: str
    number: Any

    def __new__(cls, team: Any, number: Any) -> Player:
        obj = super().__new__(cls, f"{team} #{number}")
        obj.team, obj.number = str(team), number
        return obj

    def __getnewargs__(self) -> tuple[str, Any]:  # type: ignore[override]
        return (self.team, self.number)

    def render(self, lang: str = "en", names: Names = None) -> str:
        return f"{Team(self.team).render(lang, names)} #{self.number}"


def _arg(value: Any, lang: str, names: Names) -> Any:
    render = getattr(value, "render", None)
    if isinstance(value, str) and callable(render):
        return render(lang, names)
    return value


def fill(template: str, params: Mapping[str, Any], lang: str, names: Names = None) -> str:
    return template.format(**{k: _arg(v, lang, names) for k, v in params.items()})


class Phrase(str):
    """Bilingual text without a section (a part of a message, an elimination note)."""

    section = ""
    en: str
    ru: str
    params: dict[str, Any]

    def __new__(cls, en: str, ru: str, /, **params: Any) -> Phrase:
        obj = super().__new__(cls, fill(en, params, "en"))
        obj.en, obj.ru, obj.params = en, ru, dict(params)
        return obj

    def __getnewargs_ex__(self) -> tuple[tuple, dict[str, Any]]:
        return (self.en, self.ru), dict(self.params)

    def template(self, lang: str) -> str:
        return self.ru if lang == "ru" else self.en

    def render(self, lang: str = "en", names: Names = None) -> str:
        """The text in ``lang`` ("ru" or "en"), team ids replaced by ``names``."""
        return fill(self.template(lang), self.params, lang, names)


class RuleMessage(Phrase):
    """A message citing a rulebook section: ``"<section>: <text>"`` in both languages."""

    def __new__(cls, section: str, en: str, ru: str, /, **params: Any) -> RuleMessage:
        head = f"{section}: " if section else ""
        obj = str.__new__(cls, head + fill(en, params, "en"))
        obj.section, obj.en, obj.ru, obj.params = section, en, ru, dict(params)
        return obj

    def __getnewargs_ex__(self) -> tuple[tuple, dict[str, Any]]:
        return (self.section, self.en, self.ru), dict(self.params)

    def render(self, lang: str = "en", names: Names = None) -> str:
        head = f"{self.section}: " if self.section else ""
        return head + fill(self.template(lang), self.params, lang, names)


def joined(parts: tuple[Phrase, ...] | list[Phrase], sep: str = "; ") -> Phrase:
    """Phrases joined by ``sep``, still bilingual."""
    tpl = sep.join("{p%d}" % i for i in range(len(parts)))  # noqa: UP031 - a template
    return Phrase(tpl, tpl, **{f"p{i}": p for i, p in enumerate(parts)})


def render(message: Any, lang: str = "en", names: Names = None) -> str:
    """Any message in ``lang``: a Phrase rendered, anything else as ``str``; an exception
    by its first argument (``Refused(msg)``)."""
    if isinstance(message, BaseException):
        arg = message.args[0] if len(message.args) == 1 else None
        return render(arg, lang, names) if isinstance(arg, Phrase) else str(message)
    if isinstance(message, Phrase):
        return message.render(lang, names)
    return "" if message is None else str(message)


__all__ = [
    "CATALOG",
    "LANGS",
    "Phrase",
    "Player",
    "RuleMessage",
    "Team",
    "catalog",
    "fill",
    "joined",
    "render",
]
