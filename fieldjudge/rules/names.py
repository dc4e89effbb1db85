"""Team and player names a judge can trust on screen and on paper.  Pure: no I/O.

No rulebook section governs names (RULES.md has none); the limits are the app's own, so a name
typed in or imported from a CSV always shows whole and reads the same everywhere:

* not empty (after trimming spaces);
* at most `MAX_NAME_CHARS` characters, so it fits the roster columns and the protocol at
  80×24;
* no control characters (Unicode category Cc: NUL, tab, CR, LF, DEL, C1 controls), no lone
  surrogates (text that is not valid Unicode), no line or paragraph separators (U+2028,
  U+2029), and no bidirectional formatting characters
  (U+200E/U+200F marks, U+202A-U+202E embeddings and overrides, U+2066-U+2069 isolates):
  a right-to-left override makes "Wolves" print as "sevloW" and can make one team's name look
  like another's on the signed protocol;
* no square brackets ``[`` ``]``: the screens read them as formatting, so a team called
  ``[/]`` could not be shown at all (round brackets are fine).

`name_problem` returns None for a good name, else a `Phrase` saying what is wrong (shown
with ``rule_text``, translated through ``rules.po``); callers add the line number or the field.
"""

from __future__ import annotations

import re
import unicodedata

from fieldjudge.rules.messages import Phrase

__all__ = ["MAX_NAME_CHARS", "BIDI_CONTROLS", "name_problem"]

MAX_NAME_CHARS = 40

BIDI_CONTROLS = frozenset(
    "\u200e\u200f"
    + "".join(map(chr, range(0x202A, 0x202F)))
    + "".join(map(chr, range(0x2066, 0x206A)))
)
_LINE_SEPARATORS = "\u2028\u2029"
# one search over the whole name: C0 and C1 controls and DEL (category Cc), separators, bidi
_FORBIDDEN = re.compile(
    "[\x00-\x1f\x7f-\x9f\ud800-\udfff" + _LINE_SEPARATORS + "".join(sorted(BIDI_CONTROLS)) + "]"
)


def _char_name(ch: str) -> str:
    fallback = "SURROGATE" if unicodedata.category(ch) == "Cs" else "CONTROL"
    return f"U+{ord(ch):04X} {unicodedata.name(ch, fallback)}"


def name_empty() -> Phrase:
    return Phrase("is empty")


def name_too_long(length: int, limit: int) -> Phrase:
    return Phrase(
        "is {length} characters long, at most {limit} fit on the screens",
        length=length,
        limit=limit,
    )


def name_bad_char(char: str, position: int) -> Phrase:
    return Phrase(
        "contains the invisible character {char} at position {position}",
        char=char,
        position=position,
    )


def name_bracket(char: str, position: int) -> Phrase:
    return Phrase(
        "contains the square bracket {char} at position {position}: the screens read square"
        " brackets as formatting; use round brackets ( )",
        char=char,
        position=position,
    )


_BRACKET = re.compile(r"[\[\]]")


def name_problem(name: str, limit: int = MAX_NAME_CHARS) -> Phrase | None:
    """None when `name` (already trimmed) is a good team or player name, else why not.
    Linear in the length of the name; the forbidden characters are listed above."""
    if not name:
        return name_empty()
    bad = _FORBIDDEN.search(name)
    if bad is not None:
        return name_bad_char(_char_name(bad.group()), bad.start() + 1)
    bracket = _BRACKET.search(name)
    if bracket is not None:
        return name_bracket(bracket.group(), bracket.start() + 1)
    if len(name) > limit:
        return name_too_long(len(name), limit)
    return None
