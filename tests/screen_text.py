"""The text a judge sees: the current screen (and the screens under a modal) as plain lines."""

from __future__ import annotations

import io

from rich.console import Console


def screen_text(app) -> str:
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    render = app.screen._compositor.render_update(  # noqa: SLF001 - Textual's own export path
        full=True,
        screen_stack=app._background_screens,  # noqa: SLF001
    )
    console.print(render)
    return console.export_text()
