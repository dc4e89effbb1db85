"""Make the small fonts shipped for the PDF exports: DejaVu Sans (regular, bold) cut down to
Latin, Cyrillic, punctuation and the few symbols a protocol prints.

Usage: python tools/subset_font.py DEJAVU_FONT_FOLDER
(Debian: the fonts-dejavu-core package; upstream: the DejaVu fonts release archive).
fontTools comes with fpdf2. The DejaVu licence (Bitstream Vera terms, DejaVu changes in the
public domain) allows this; it is shipped beside the fonts as LICENSE-DejaVu.txt."""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset

OUT = Path(__file__).resolve().parent.parent / "fieldjudge" / "export" / "fonts"
UNICODES = (
    "U+0020-007E,U+00A0-024F,U+0300-036F,U+0400-052F,U+2000-206F,U+20AC,U+20BD,U+2116,"
    "U+2122,U+2190-21FF,U+2212,U+2260-2265,U+2500-257F,U+25A0-25FF,U+2690-2691,U+2713-2718"
)


def main(src: Path) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        subset.main(
            [
                str(src / name),
                f"--unicodes={UNICODES}",
                "--layout-features=*",
                "--name-IDs=*",
                "--notdef-outline",
                f"--output-file={OUT / name}",
            ]
        )
        print(OUT / name, (OUT / name).stat().st_size)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
