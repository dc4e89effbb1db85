"""The summary index: a local cache (``.cache/index.json``) of per-game summaries, keyed by
each game file's size and mtime, so startup never parses every game file. Never the source
of truth: rebuilt from the game files when missing, stale or unreadable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from fieldjudge.store.storage import atomic_write_bytes

VERSION = 1


class SummaryIndex:
    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / ".cache" / "index.json"
        self._entries: dict[str, dict[str, Any]] = {}
        # file (relative to the folder) -> its key when its newest backup was made
        self.backed_up: dict[str, list[int]] = {}
        self._dirty = False
        try:
            data = orjson.loads(self.path.read_bytes())
            if data.get("version") == VERSION:
                self._entries = data.get("games", {})
                self.backed_up = data.get("backed_up", {})
        except (OSError, orjson.JSONDecodeError, AttributeError):
            self._entries = {}

    @staticmethod
    def file_key(path: Path) -> list[int] | None:
        """(size, mtime in ns): what says a file changed without reading it."""
        try:
            st = path.stat()
        except OSError:
            return None
        return [st.st_size, st.st_mtime_ns]

    def get(self, game_id: str, path: Path) -> dict[str, Any] | None:
        entry = self._entries.get(game_id)
        if entry is None or entry.get("key") != self.file_key(path):
            return None
        return entry["summary"]

    def put(
        self,
        game_id: str,
        path: Path,
        summary: dict[str, Any],
        key: list[int] | None = None,
    ) -> None:
        """``key``: the file's key when it was read (default: now)."""
        self._entries[game_id] = {"key": key or self.file_key(path), "summary": summary}
        self._dirty = True

    def mark_backed_up(self, rel: str, key: list[int] | None) -> None:
        if key is not None and self.backed_up.get(rel) != key:
            self.backed_up[rel] = key
            self._dirty = True

    def invalidate(self, game_id: str) -> None:
        if self._entries.pop(game_id, None) is not None:
            self._dirty = True

    def save(self) -> None:
        if not self._dirty:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(
            self.path,
            orjson.dumps({"version": VERSION, "games": self._entries, "backed_up": self.backed_up}),
        )
        self._dirty = False
