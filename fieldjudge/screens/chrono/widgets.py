"""Widget helpers of the chrono screens."""

from __future__ import annotations

from textual.widgets import Static


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
