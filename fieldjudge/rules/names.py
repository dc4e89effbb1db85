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
  ``[/]`` could not be shown at all (round brackets are fine);
* no invisible or format characters: Unicode category Cf (soft hyphen, zero-width space and
  joiners, word joiner, BOM, tag characters U+E0000-U+E007F), space separators Zs other than
  the plain space (no-break space, thin space, ideographic space …), variation selectors
  (U+FE00-U+FE0F, U+E0100-U+E01EF, Mongolian U+180B-U+180F), the combining grapheme joiner
  U+034F and the Hangul fillers: each renders as nothing or as a space, so a name and
  the same name with a zero-width space inside would be two teams that print the same.

Names are compared in NFC (`clean_name`): a letter typed as one code point (U+0419) and as
its base letter and a combining mark (U+0418 U+0306) are the same name. A new team name must not be *confusable* with an existing one
(`confusable_with`): both reduce to the same skeleton in the sense of Unicode TR39 (section 4),
here over a small table of the look-alikes among Latin, Cyrillic and Greek letters, digits and
dashes (a Cyrillic word with its first letter swapped for the Latin look-alike prints
the same), after NFKD and case folding.
No maintained PyPI library computes TR39 skeletons (confusable-homoglyphs only detects mixed
scripts), and the app's names are Russian and English, so the table covers those scripts.

`name_problem` returns None for a good name, else a `Phrase` saying what is wrong (shown
with ``rule_text``, translated through ``fieldjudge.po``); callers add the line number or the field.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from fieldjudge.rules.confusables import name_skeleton
from fieldjudge.rules.messages import Phrase

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


_VARIATION_SELECTORS = (
    "".join(map(chr, range(0xFE00, 0xFE10)))
    + "".join(map(chr, range(0xE0100, 0xE01F0)))
    + "".join(map(chr, range(0x180B, 0x1810)))
)
# invisible letters and marks that are not Cf: combining grapheme joiner, Hangul fillers,
# braille blank
_OTHER_INVISIBLE = "\u034f\u115f\u1160\u3164\uffa0\u2800"


def _invisible(ch: str) -> bool:
    """A character that renders as nothing or as a space other than the plain space."""
    cat = unicodedata.category(ch)
    return (
        cat == "Cf"
        or (cat == "Zs" and ch != " ")
        or ch in _VARIATION_SELECTORS
        or ch in _OTHER_INVISIBLE
    )


def clean_name(name: str) -> str:
    """The name as stored and compared: NFC-normalised and trimmed."""
    return unicodedata.normalize("NFC", str(name)).strip()


def _char_name(ch: str) -> str:
    fallback = "SURROGATE" if unicodedata.category(ch) == "Cs" else "CONTROL"
    return f"U+{ord(ch):04X} {unicodedata.name(ch, fallback)}"


_BRACKET = re.compile(r"[\[\]]")


def name_problem(name: str, limit: int = MAX_NAME_CHARS) -> Phrase | None:
    """None when `name` (already trimmed) is a good team or player name, else why not.
    Linear in the length of the name; the forbidden characters are listed above."""
    if not name:
        return Phrase("is empty")
    bad = _FORBIDDEN.search(name)  # the first forbidden character, else the first invisible
    at = (
        bad.start()
        if bad is not None
        else next((i for i, ch in enumerate(name) if _invisible(ch)), None)
    )
    if at is not None:
        return Phrase(
            "contains the invisible character {char} at position {position}",
            char=_char_name(name[at]),
            position=at + 1,
        )
    bracket = _BRACKET.search(name)
    if bracket is not None:
        return Phrase(
            "contains the square bracket {char} at position {position}: the screens read "
            "square brackets as formatting; use round brackets ( )",
            char=bracket.group(),
            position=bracket.start() + 1,
        )
    if len(name) > limit:
        return Phrase(
            "is {length} characters long, at most {limit} fit on the screens",
            length=len(name),
            limit=limit,
        )
    return None


# a roster import asks it of every earlier team for each new one (a 1 MB roster: 1,645)
@lru_cache(maxsize=8192)
def _looks(name: str) -> tuple[str, str, str]:
    skeleton = name_skeleton(name)
    return (
        skeleton,
        name_skeleton(clean_name(name).casefold()),
        name_skeleton(skeleton.casefold()),
    )


def confusable_with(name: str, existing: Iterable[str]) -> str | None:
    """The first of `existing` that `name` could be taken for on screen or paper (the same
    skeleton as written, or after case folding), else None. The same name (NFC, case-folded)
    counts too: the caller decides whether that is the same team or a clash."""
    own = _looks(name)
    for other in existing:
        if any(a == b for a, b in zip(own, _looks(other), strict=True)):
            return other
    return None
