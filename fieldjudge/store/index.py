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
        self._dirty = False
        try:
            data = orjson.loads(self.path.read_bytes())
            if data.get("version") == VERSION:
                self._entries = data.get("games", {})
        except (OSError, orjson.JSONDecodeError, AttributeError):
            self._entries = {}

    @staticmethod
    def _key(path: Path) -> list[int] | None:
        try:
            st = path.stat()
        except OSError:
            return None
        return [st.st_size, st.st_mtime_ns]

    def get(self, game_id: str, path: Path) -> dict[str, Any] | None:
        entry = self._entries.get(game_id)
        if entry is None or entry.get("key") != self._key(path):
            return None
        return entry["summary"]

    def put(self, game_id: str, path: Path, summary: dict[str, Any]) -> None:
        self._entries[game_id] = {"key": self._key(path), "summary": summary}
        self._dirty = True

    def invalidate(self, game_id: str) -> None:
        if self._entries.pop(game_id, None) is not None:
            self._dirty = True

    def save(self) -> None:
        if not self._dirty:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(self.path, orjson.dumps({"version": VERSION, "games": self._entries}))
        self._dirty = False
