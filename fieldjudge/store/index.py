"""The summary index: a local cache (``.cache/index.json``) of per-game summaries, keyed by
each game file's size and mtime, so startup never parses every game file. Never the source
of truth: rebuilt from the game files when missing, stale or unreadable."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import orjson

from fieldjudge.store.storage import atomic_write_bytes, make_dirs

VERSION = 1


class SummaryIndex:
    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / ".cache" / "index.json"
        self._entries: dict[str, dict[str, Any]] = {}
        # file (relative to the folder) -> its key when its newest backup was made
        self.backed_up: dict[str, list[int]] = {}
        # game id -> [count, hash]: the last head this laptop recorded (local, never synced)
        self.heads: dict[str, list[Any]] = {}
        # laptop id -> [lines, digest of the last line]: the manifest this laptop wrote, as
        # long as it was when it last appended (a shorter file was cut: issue 21)
        self.manifests: dict[str, list[Any]] = {}
        # laptop id -> [lines, digest of the last line]: another laptop's manifest as long
        # as this laptop's app last saw it verified; "<kind>/<id>" -> [count, hash, laptop,
        # step, at]: the newest head those manifests recorded (a later cut is found here)
        self.seen: dict[str, list[Any]] = {}
        self.seen_heads: dict[str, list[Any]] = {}
        self._dirty = False
        try:
            data = orjson.loads(self.path.read_bytes())
            if data.get("version") == VERSION:
                self._entries = data.get("games", {})
                self.backed_up = data.get("backed_up", {})
                self.heads = data.get("heads", {})
                self.manifests = data.get("manifests", {})
                seen, seen_heads = data.get("seen"), data.get("seen_heads")
                self.seen = seen if isinstance(seen, dict) else {}
                self.seen_heads = seen_heads if isinstance(seen_heads, dict) else {}
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

    @staticmethod
    def folder_keys(folder: Path) -> dict[str, list[int]]:
        """{file name: its key} for the files of ``folder`` (none if it cannot be read):
        one listing and one ``stat`` per file, instead of a ``stat`` for each question
        asked about each file (the home screen's list of 1,000 games, issue 24). A name
        whose ``stat`` fails (a dangling link, a file removed meanwhile) is left out, as
        :meth:`file_key` gives None for it."""
        keys: dict[str, list[int]] = {}
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    try:
                        st = entry.stat()
                    except OSError:
                        continue
                    keys[entry.name] = [st.st_size, st.st_mtime_ns]
        except OSError:
            return {}
        return keys

    def get(self, game_id: str, path: Path) -> dict[str, Any] | None:
        return self.get_at(game_id, self.file_key(path))

    def get_at(self, game_id: str, key: list[int] | None) -> dict[str, Any] | None:
        """The game's summary if it was made from its file as ``key`` (size, mtime) says
        the file is now (a key taken by the caller: :meth:`folder_keys`)."""
        entry = self._entries.get(game_id)
        if entry is None or entry.get("key") != key:
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

    def remember_head(self, game_id: str, count: int, head_hash: str) -> None:
        self.heads[game_id] = [int(count), str(head_hash)]
        self._dirty = True
        self.save()

    def remember_manifest(self, laptop_id: str, lines: int, last_digest: str) -> None:
        """This laptop appended its ``lines``-th manifest line (saved at once)."""
        self.manifests[laptop_id] = [int(lines), str(last_digest)]
        self._dirty = True
        self.save()

    def remember_seen(
        self, tips: dict[str, tuple[int, str]], heads: dict[str, tuple[int, str, str, str, str]]
    ) -> None:
        """Other laptops' manifests as this laptop's app read them, verified: each one's
        length and last line's digest (kept when longer than remembered) and the heads
        they record (kept when newer by signed time, then count); saved at once if any
        grew."""
        for lid, (lines, digest) in tips.items():
            old = self.seen_length(lid)
            if old is None or old[0] < lines:
                self.seen[lid] = [int(lines), str(digest)]
                self._dirty = True
        for key, (count, hh, lid, step, at) in heads.items():
            rec = self.seen_heads.get(key)
            try:
                newer = (str(rec[4]), int(rec[0])) < (at, count)  # type: ignore[index]
            except (TypeError, ValueError, IndexError, KeyError):
                newer = True  # none yet, or a record that does not parse
            if newer:
                self.seen_heads[key] = [int(count), str(hh), str(lid), str(step), str(at)]
                self._dirty = True
        self.save()

    def seen_length(self, laptop_id: str) -> tuple[int, str] | None:
        """(lines, digest of the last) of another laptop's manifest as this laptop last
        saw it (None: never, or a record that does not parse)."""
        m = self.seen.get(laptop_id)
        try:
            return (int(m[0]), str(m[1])) if isinstance(m, list) and len(m) == 2 else None
        except (TypeError, ValueError):
            return None

    def manifest_length(self, laptop_id: str) -> tuple[int, str] | None:
        m = self.manifests.get(laptop_id)
        if isinstance(m, list) and len(m) == 2:
            return int(m[0]), str(m[1])
        return None

    def last_head(self, game_id: str) -> tuple[int, str] | None:
        h = self.heads.get(game_id)
        if isinstance(h, list) and len(h) == 2:
            return int(h[0]), str(h[1])
        return None

    def invalidate(self, game_id: str) -> None:
        if self._entries.pop(game_id, None) is not None:
            self._dirty = True

    def save(self, merge: bool = False) -> None:
        """``merge``: this index is a reader's (a folder opened without its lock, e.g. an
        export while the app runs): the file as it is now keeps its heads, backups and
        summaries (the lock holder's, maybe newer than this copy); this one adds only the
        summaries the file lacks."""
        if not self._dirty:
            return
        entries, backed_up, heads = self._entries, self.backed_up, self.heads
        manifests, seen, seen_heads = self.manifests, self.seen, self.seen_heads
        if merge:
            now = SummaryIndex(self.path.parent.parent)
            entries = {**self._entries, **now._entries}
            backed_up, heads, manifests = now.backed_up, now.heads, now.manifests
            seen, seen_heads = now.seen, now.seen_heads
        make_dirs(self.path.parent)
        atomic_write_bytes(
            self.path,
            orjson.dumps(
                {
                    "version": VERSION,
                    "games": entries,
                    "backed_up": backed_up,
                    "heads": heads,
                    "manifests": manifests,
                    "seen": seen,
                    "seen_heads": seen_heads,
                }
            ),
        )
        self._dirty = False
