"""The look of a name: a TR39-style skeleton (Unicode TR39 section 4) over a small table of
the look-alikes among Latin, Cyrillic and Greek letters, digits and dashes. Pure: no I/O.

Two names with the same skeleton print the same (Cyrillic "Орлы" and "Oрлы" with a Latin O).
No maintained PyPI library computes TR39 skeletons (confusable-homoglyphs only detects mixed
scripts, confusables is unmaintained), and the app's names are Russian and English, so the
table covers those scripts, following confusables.txt's prototypes. Kept apart from
``rules/names.py``, whose messages go through the catalog (no Russian text there).
"""

from __future__ import annotations

import re
import unicodedata

# TR39-style prototypes of the look-alikes among Latin, Cyrillic and Greek (confusables.txt
# maps each to its Latin prototype; I, 1 and | to l; 0 to O); applied after NFKD, so
# fullwidth and ligature forms are already plain letters.
_CONFUSABLES = str.maketrans(
    {
        # Cyrillic capitals
        "А": "A", "В": "B", "Е": "E", "З": "3", "К": "K", "М": "M", "Н": "H", "О": "O",
        "Р": "P", "С": "C", "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "І": "l", "Ј": "J",
        "Ԛ": "Q", "Ԝ": "W", "Ү": "Y", "Ӏ": "l", "Ь": "b", "Ꙅ": "S",
        # Cyrillic small letters
        "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "ѕ": "s",
        "і": "i", "ј": "j", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "ү": "y", "ԁ": "d",
        # Greek
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "l", "Κ": "K", "Μ": "M",
        "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ν": "v",
        "α": "a", "ι": "i", "ρ": "p", "υ": "u", "κ": "k", "ϲ": "c", "ϳ": "j",
        # Latin and common signs
        "I": "l", "1": "l", "|": "l", "ı": "i", "0": "O", "ɑ": "a", "ɡ": "g", "ʏ": "y",
        "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-",
        "\u2015": "-", "\u2212": "-", "\u02bc": "'", "\u2018": "'", "\u2019": "'",
        "`": "'", "\u00b4": "'", "\u201c": "''", "\u201d": "''", '"': "''",
    }
)  # fmt: skip
_SPACES = re.compile(r"\s+")


def name_skeleton(name: str) -> str:
    """The name reduced to its look: NFKD, the look-alikes mapped to one prototype, runs of
    spaces made one, NFD again (TR39 section 4 ``skeleton``, over the table above)."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFC", str(name)).strip()).translate(
        _CONFUSABLES
    )
    return unicodedata.normalize("NFD", _SPACES.sub(" ", text))
