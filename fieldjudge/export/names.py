"""Safe file names and writes that never overwrite an existing file silently."""

from __future__ import annotations

import os
import re
import secrets
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from fieldjudge.store.storage import TEMP_MARK, atomic_write_bytes, write_all

_RESERVED = {"con", "prn", "aux", "nul"} | {f"{p}{i}" for p in ("com", "lpt") for i in range(10)}


def safe_name(text: str, limit: int = 60) -> str:
    """A file-name part safe on every OS whatever a team is called: letters (Cyrillic kept),
    digits, ``-`` and ``_``; no path separators, dots, control characters or reserved
    Windows names."""
    text = unicodedata.normalize("NFC", str(text))
    s = re.sub(r"[^\w\-]+", "-", text, flags=re.UNICODE).strip("-_")
    s = re.sub(r"-{2,}", "-", s)[:limit].strip("-_")
    if not s or s.casefold() in _RESERVED:
        s = f"x-{s}" if s else "x"
    return s


def game_stem(t, game: dict) -> str:
    names = t.team_names()
    start = game.get("start", "").replace("-", "").replace(":", "").replace("T", "-")
    a = safe_name(names.get(game["team_a"], game["team_a"]), 30)
    b = safe_name(names.get(game["team_b"], game["team_b"]), 30)
    return f"{safe_name(start, 20)}-field{safe_name(game.get('field', ''), 8)}-{a}-vs-{b}"


def tournament_stem(t) -> str:
    return safe_name(f"{t.meta.get('date', '')}-{t.name}", 70)


def free_path(path: Path) -> Path:
    """``path`` if no file is there, else ``stem-2.ext``, ``stem-3.ext`` ..."""
    path = Path(path)
    if not path.exists():
        return path
    n = 2
    while True:
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
        if not candidate.exists():
            return candidate
        n += 1


def write_new(
    path: Path, payload: bytes | Sequence[bytes | memoryview], overwrite: bool = False
) -> Path:
    """Write ``payload`` (bytes, or parts written one after the other) atomically. An
    existing file is kept: the new one gets a free name (unless ``overwrite`` was asked
    for explicitly). Returns where it was written. An export is derived from the logs and
    can be made again: it is not fsync'd (a killed export still never leaves half a
    file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    target = path if overwrite else free_path(path)
    atomic_write_bytes(target, payload, durable=False)
    return target


class Staging:
    """The protocol pages of one export, written under temporary names while the games are
    read (by every process of the pass) and given their names once the pass is over. A
    failed or killed export leaves no page under a real name, as :func:`write_new` never
    does; creating a file, the slow part of writing it on a laptop's disk, is done in the
    pass, beside the reading, and the end of the export only renames."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = Path(out_dir)
        self.mark = f"{TEMP_MARK}{secrets.token_hex(4)}"  # this export's, not another's
        self._made = False

    def stage(self, name: str, payload: bytes) -> Path:
        """Write ``payload`` under a temporary name beside ``name``; returns that path."""
        if not self._made:
            self.out_dir.mkdir(parents=True, exist_ok=True)
            self._made = True
        tmp = self.out_dir / f"{name}{self.mark}"
        # the mark is this export's: a file of that name is this export's own, staged by a
        # process of the pass that failed before it could hand it over
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            write_all(fd, payload)
        finally:
            os.close(fd)
        return tmp

    def publish(self, staged: Path, name: str, overwrite: bool = False) -> Path:
        """Give a staged file its name (a free one: an existing file is kept, unless
        ``overwrite``); returns where it is."""
        target = self.out_dir / name
        target = target if overwrite else free_path(target)
        os.replace(staged, target)
        return target

    def drop(self, staged: Path) -> None:
        """A staged page not wanted after all (its game was read again)."""
        Path(staged).unlink(missing_ok=True)

    def discard(self) -> None:
        """Remove what this export staged and did not publish (it failed, or a process of
        its pass did)."""
        if self._made or self.out_dir.is_dir():
            for p in self.out_dir.glob(f"*{self.mark}"):
                p.unlink(missing_ok=True)
