"""Widget helpers of the chrono screens."""

from __future__ import annotations

from rich.text import Text
from textual.app import RenderResult
from textual.geometry import Size
from textual.widgets import Digits, Static


def set_text(widget: Static, text: str) -> None:
    """Update a Static only when its text changed, with a layout pass only when the number
    of rows it needs changed (the marker check refreshes while readings stream in)."""
    old = getattr(widget, "_fj_text", None)
    if old == text:
        return
    widget._fj_text = text  # type: ignore[attr-defined]
    width = max(1, widget.content_size.width)

    def rows(t: str | None) -> int:
        if t is None:
            return -1
        return sum(max(1, -(-len(line) // width)) for line in t.split("\n"))

    widget.update(text, layout=rows(old) != rows(text))


#: a block font, 5 rows high, for a reading shown to a player across the field (20.06)
_FONT: dict[str, tuple[str, ...]] = {
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"),
    "3": ("###", "..#", "###", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "###", "..#", "###"),
    "6": ("###", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", "..#", "..#", "..#"),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "###"),
    ".": (".", ".", ".", ".", "#"),
    ",": (".", ".", ".", ".", "#"),
    "-": ("...", "...", "###", "...", "..."),
    " ": ("..", "..", "..", "..", ".."),
}
FONT_ROWS = 5


def big_lines(value: str, width: int, height: int) -> list[str] | None:
    """``value`` in the block font, scaled to fill ``width`` × ``height`` cells (a cell is
    about twice as tall as wide: a pixel is ``2k`` cells wide, ``k`` high), centred; None
    when even the smallest size does not fit or a character has no glyph."""
    glyphs = [_FONT.get(c) for c in value]
    if not value or any(g is None for g in glyphs):
        return None
    rows = [".".join(g[r] for g in glyphs if g is not None) for r in range(FONT_ROWS)]
    k = min(height // FONT_ROWS, width // (2 * len(rows[0])))
    if k < 1:
        return None
    pad_left = (width - 2 * k * len(rows[0])) // 2
    pad_top = (height - k * FONT_ROWS) // 2
    out = [""] * pad_top
    for row in rows:
        line = " " * pad_left + "".join(("█" if p == "#" else " ") * 2 * k for p in row)
        out += [line.rstrip()] * k
    return out


class BigDigits(Digits):
    """A reading as large as the room it has (20.06: the player reads it from where he
    stands); the usual 3-row digits when the room is too small."""

    DEFAULT_CSS = """
    BigDigits { width: 1fr; height: 1fr; min-height: 3; }
    """

    def render(self) -> RenderResult:
        size = self.content_size
        lines = big_lines(self.value, size.width, size.height)
        if lines is None:
            return super().render()
        return Text("\n".join(lines), style=self.rich_style, no_wrap=True, overflow="crop")

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(3, container.height)
