"""An export run off the app's thread (the export dialog's worker): it never shares the
app's open tournament; it opens its own read-only view of the folder, as ``fieldjudge
export`` does (no lock, no backup), exports, and closes that view."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from fieldjudge.export import run_export
from fieldjudge.services.opening import open_tournament


def export_folder(
    folder: Path,
    out_dir: Path,
    fmt: str,
    game_id: str | None = None,
    lang: str = "ru",
    progress: Callable[[int, int], None] | None = None,
    include_unplayed: bool = False,
) -> list[Path]:
    """Export one game or the whole tournament of ``folder`` into ``out_dir``; returns the
    files written. ``progress(done, total)`` after each game; it may raise to stop the
    export between two games. ``include_unplayed``: the games not played too. Raises ``StoreError`` (a refusal, a damaged file) or
    ``OSError`` (the output folder cannot be written)."""
    t = open_tournament(Path(folder), lock=False, startup_backup=False)
    try:
        if progress is None:
            return run_export(
                t, Path(out_dir), fmt, game_id, lang, include_unplayed=include_unplayed
            )
        return run_export(
            t,
            Path(out_dir),
            fmt,
            game_id,
            lang,
            progress=progress,
            include_unplayed=include_unplayed,
        )
    finally:
        t.close()
