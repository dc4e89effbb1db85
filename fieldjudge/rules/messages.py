"""Rule messages: the English text, the section it cites and its parameters. Pure: no I/O,
no language, no catalog.

A message *is* its English text (``Phrase`` and ``RuleMessage`` subclass ``str``), so code
that compares, tests ``startswith("25.03")`` or stores it keeps working. It also keeps its
English template (the gettext message id), its context (the rulebook section, empty for a
phrase citing none) and its parameters, so a layer above renders it in another language::

    msg = RuleMessage("25.03", "{player} is neutral", player=Player("t1", 7))
    msg == "25.03: t1 #7 is neutral"
    msg.render(translate, names={"t1": "Волки"}) == "25.03: Волки #7 объявлен нейтральным"

``translate(context, msgid)`` returns the template in the wanted language; it is
``fieldjudge.i18n``'s context-aware lookup (``pgettext``) in the catalog
``locale/<lang>/LC_MESSAGES/fieldjudge.po``: translators edit that file, never this code. Without
``translate`` a message renders in English.

Parameters are rendered by their own ``render(translate, names)`` when they have one
(``Team``, ``Player``, a nested ``Phrase``), else formatted as they are (format specs such as
``{fps:g}`` apply). Team ids appear as :class:`Team` or :class:`Player` so the display names
replace them properly. The messages are data: ``texts.py`` holds each one's id, section and
English template, and :func:`rule` and :func:`phrase` build one from its id and parameters::

    rule("neutral_player", player=Player("t1", 7)) == msg
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fieldjudge.rules.texts import PHRASES, RULES

Names = Mapping[str, str] | None
#: ``translate(context, msgid) -> template``: an English template in another language
Translate = Callable[[str, str], str]


class Team(str):
    """A team id inside a message; rendered as the team's display name."""

    def render(self, translate: Translate | None = None, names: Names = None) -> str:
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

    def render(self, translate: Translate | None = None, names: Names = None) -> str:
        return f"{Team(self.team).render(translate, names)} #{self.number}"


#: the gettext context of the decimal separator (``.`` in English, ``,`` in Russian)
DECIMAL_CONTEXT = "decimal separator"


class Measured(str):
    """A measured figure (milliseconds of a string of shots) shown to a tenth, never more:
    floored, so a figure under a limit never reads as the limit; written with the
    language's decimal separator ("81,5" in Russian)."""

    def __new__(cls, value: Any) -> Measured:
        tenths = math.floor(float(value) * 10 + 1e-6) / 10
        return super().__new__(cls, f"{tenths:.1f}".removesuffix(".0"))

    def render(self, translate: Translate | None = None, names: Names = None) -> str:
        return str(self).replace(".", separator(translate))


def separator(translate: Translate | None) -> str:
    """The decimal separator of the language of ``translate`` ("," in Russian)."""
    return translate(DECIMAL_CONTEXT, ".") if translate else "."


def decimal(value: Any, spec: str = "g", translate: Translate | None = None) -> str:
    """A number with a fraction as the language writes it ("287,5" in Russian): the one
    helper every figure shown with a fraction goes through (issue 25)."""
    return format(float(value), spec).replace(".", separator(translate))


class Decimal(float):
    """A float inside a message, formatted by the template's own spec (``{fps:g}``) with
    the language's decimal separator."""

    sep = "."

    def __format__(self, spec: str) -> str:
        text = format(float(self), spec) if spec else str(float(self))
        return text.replace(".", self.sep)


class Count(str):
    """A count with its noun inside a message ("3 events"), its plural form chosen in the
    language of the rendering (Russian has three: 1 событие, 3 события, 5 событий)."""

    n: int
    one: str
    many: str

    def __new__(cls, n: int, one: str, many: str) -> Count:
        obj = super().__new__(cls, (one if n == 1 else many).format(n=n))
        obj.n, obj.one, obj.many = int(n), one, many
        return obj

    def __getnewargs__(self) -> tuple[int, str, str]:  # type: ignore[override]
        return (self.n, self.one, self.many)

    def render(self, translate: Translate | None = None, names: Names = None) -> str:
        plural = getattr(translate, "ngettext", None)
        if callable(plural):
            return str(plural(self.one, self.many, self.n)).format(n=self.n)
        return str(self)


def _arg(value: Any, translate: Translate | None, names: Names) -> Any:
    render = getattr(value, "render", None)
    if isinstance(value, str) and callable(render):
        return render(translate, names)
    if translate is not None and isinstance(value, float):
        num = Decimal(value)
        num.sep = separator(translate)
        return num
    return value


def fill(
    template: str,
    params: Mapping[str, Any],
    translate: Translate | None = None,
    names: Names = None,
) -> str:
    return template.format(**{k: _arg(v, translate, names) for k, v in params.items()})


class Phrase(str):
    """Text without a section (a part of a message, an elimination note); its gettext
    context is empty unless made by :meth:`in_context`."""

    section = ""
    context = ""
    en: str
    params: dict[str, Any]

    def __new__(cls, en: str, /, **params: Any) -> Phrase:
        obj = super().__new__(cls, fill(en, params))
        obj.en, obj.params = en, dict(params)
        return obj

    @staticmethod
    def in_context(context: str, en: str, /, **params: Any) -> Phrase:
        """A phrase looked up under ``context`` (a section's text without its section, an
        elimination reason under the section it cites)."""
        obj = Phrase(en, **params)
        obj.context = context
        return obj

    def __getnewargs_ex__(self) -> tuple[tuple, dict[str, Any]]:
        return (self.en,), dict(self.params)

    def template(self, translate: Translate | None = None) -> str:
        """The template in the language of ``translate`` (English without one)."""
        return translate(self.context, self.en) if translate else self.en

    def render(self, translate: Translate | None = None, names: Names = None) -> str:
        """The text in the language of ``translate``, team ids replaced by ``names``."""
        return fill(self.template(translate), self.params, translate, names)


class RuleMessage(Phrase):
    """A message citing a rulebook section: ``"<section>: <text>"`` in every language; the
    section is also its gettext context."""

    def __new__(cls, section: str, en: str, /, **params: Any) -> RuleMessage:
        head = f"{section}: " if section else ""
        obj = str.__new__(cls, head + fill(en, params))
        obj.section = obj.context = section
        obj.en, obj.params = en, dict(params)
        return obj

    def __getnewargs_ex__(self) -> tuple[tuple, dict[str, Any]]:
        return (self.section, self.en), dict(self.params)

    def render(self, translate: Translate | None = None, names: Names = None) -> str:
        head = f"{self.section}: " if self.section else ""
        return head + fill(self.template(translate), self.params, translate, names)


def rule(id: str, section: str | None = None, /, **params: Any) -> RuleMessage:
    """The message ``id`` of ``texts.RULES`` citing its section, or ``section`` when the
    table leaves it to the caller (``None``: a section chosen at run time)."""
    cited, en = RULES[id]
    cited = cited if section is None else section
    if cited is None:
        raise ValueError(f"rule message {id!r} needs the section it cites")
    return RuleMessage(cited, en, **params)


def phrase(id: str, /, **params: Any) -> Phrase:
    """The phrase ``id`` of ``texts.PHRASES``, looked up under its context."""
    context, en = PHRASES[id]
    return Phrase.in_context(context, en, **params)


def without_section(message: Any) -> Phrase:
    """A RuleMessage's text without its section head (to embed it in another message)."""
    if isinstance(message, Phrase):
        return Phrase.in_context(message.context, message.en, **message.params)
    return Phrase(str(message))


def joined(parts: Sequence[str], sep: str = "; ") -> Phrase:
    """Phrases (or plain texts) joined by ``sep`` (a template with no words: nothing to
    translate)."""
    tpl = sep.join("{p%d}" % i for i in range(len(parts)))  # noqa: UP031 - a template
    return Phrase(tpl, **{f"p{i}": p for i, p in enumerate(parts)})


def render(message: Any, translate: Translate | None = None, names: Names = None) -> str:
    """Any message in the language of ``translate``: a Phrase rendered, anything else as
    ``str``; an exception by its first argument (``Refused(msg)``)."""
    if isinstance(message, BaseException):
        arg = message.args[0] if len(message.args) == 1 else None
        return render(arg, translate, names) if isinstance(arg, Phrase) else str(message)
    if isinstance(message, Phrase):
        return message.render(translate, names)
    return "" if message is None else str(message)


def phrases(message: Any) -> list[Phrase]:
    """``message`` and every Phrase nested in its parameters (what a catalog must hold)."""
    if not isinstance(message, Phrase):
        return []
    out = [message]
    for value in message.params.values():
        out += phrases(value)
    return out
