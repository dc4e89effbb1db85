"""The tournament folder as several laptops share it through Syncthing (README "Two fields,
one tournament"): every synced file has exactly one writing laptop, every local file is
kept out of the sync by a ``.stignore`` the app writes, and Syncthing's conflict copies
(``*.sync-conflict-*``) are found by name.

Who writes what:

- ``tournament.json`` (settings, teams, rosters, schedule): the head judge's laptop;
- ``games/<game-id>.json``, ``quidditch/<match-id>.json``: the laptop that owns the game;
- ``laptops/<laptop-id>/``: that laptop alone (its public key, its judge names, its lists);
- local, never synced: ``.cache/`` (lock, summary index), ``backups/``, ``exports/``,
  ``conflicts/`` (merge conflicts kept for the head judge on the laptop that found them),
  ``damaged/`` and the store's temp files.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from fieldjudge.store.errors import Refused
from fieldjudge.store.storage import (
    TEMP_MARK,
    FilesWatch,
    atomic_write_bytes,
    copy_durably,
    files_stamp,
    free_path,
    make_dirs,
    move_durably,
)

STIGNORE = ".stignore"
LAPTOPS = "laptops"
LAPTOP_FILE = "laptop.json"
# Folders (relative to the tournament folder) only this laptop writes or needs.
LOCAL_FOLDERS = (".cache", "backups", "exports", "conflicts", "damaged")
STIGNORE_HEADER = (
    "// Written by fieldjudge: what only this laptop writes or needs is never synced.\n"
    "// Every other file has exactly one writing laptop (README: Two fields, one tournament).\n"
)


def stignore_patterns() -> list[str]:
    """Syncthing ignore patterns: each local folder (anchored at the folder root) and the
    store's temp files (a write in progress, anywhere)."""
    return [f"/{name}" for name in LOCAL_FOLDERS] + [f"*{TEMP_MARK}*"]


def stignore_text() -> str:
    return STIGNORE_HEADER + "".join(p + "\n" for p in stignore_patterns())


def ensure_stignore(folder: Path) -> bool:
    """Write the tournament folder's ``.stignore`` if it is missing, or add the patterns a
    hand-written one lacks (its own lines are kept). True when the file was written."""
    path = Path(folder) / STIGNORE
    if not path.exists():
        atomic_write_bytes(path, stignore_text().encode())
        return True
    text = path.read_text(encoding="utf-8", errors="replace")
    have = {line.strip() for line in text.splitlines()}
    missing = [p for p in stignore_patterns() if p not in have]
    if not missing:
        return False
    if text and not text.endswith("\n"):
        text += "\n"
    atomic_write_bytes(path, (text + "".join(p + "\n" for p in missing)).encode())
    return True


# --- per-laptop files ---------------------------------------------------------------------

_LAPTOP_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


def laptop_dir(folder: Path, laptop_id: str) -> Path:
    """``laptops/<laptop_id>/``: the files only that laptop writes. Refused for an id that
    is not a plain name (no separators, no dots)."""
    if not _LAPTOP_ID.match(laptop_id or ""):
        raise Refused(f"laptop id {laptop_id!r}: letters, digits, - and _ only (at most 64)")
    return Path(folder) / LAPTOPS / laptop_id


def write_laptop_file(folder: Path, laptop_id: str, name: str, payload: bytes) -> Path:
    """Write one of this laptop's own files (atomically)."""
    if not _LAPTOP_ID.match(Path(name).stem or "") or Path(name).name != name:
        raise Refused(f"file name {name!r} is not a plain name")
    d = laptop_dir(folder, laptop_id)
    make_dirs(d)
    path = d / name
    atomic_write_bytes(path, payload)
    return path


HANDOVERS_FILE = "handovers.json"


def write_handovers(folder: Path, laptop_id: str, records: list[dict[str, Any]]) -> Path:
    """``laptops/<id>/handovers.json``: the game hand-overs the head judge signed on this
    laptop (issue 22). Written by this laptop alone; the new owner of a game reads it and
    takes the game over by its own append, so no laptop writes a game it does not own."""
    return write_laptop_file(folder, laptop_id, HANDOVERS_FILE, orjson.dumps(records))


def read_handovers(folder: Path) -> list[dict[str, Any]]:
    """Every laptop's hand-over records (unreadable files and entries left out: verify
    names what is wrong with a file, the app only acts on records whose signature holds)."""
    out: list[dict[str, Any]] = []
    root = Path(folder) / LAPTOPS
    for path in sorted(root.glob(f"*/{HANDOVERS_FILE}")) if root.is_dir() else []:
        try:
            doc = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            continue
        out += [r for r in doc if isinstance(r, dict)] if isinstance(doc, list) else []
    return out


def handovers_stamp(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """(laptop, size, mtime_ns) of every ``handovers.json``: changes when one is written."""
    return files_stamp(os.path.join(folder, LAPTOPS), HANDOVERS_FILE)


def handovers_watch(folder: Path) -> FilesWatch:
    """Whether a ``handovers.json`` changed, asked before every append: its
    :meth:`~FilesWatch.stamp` changes when one is written, added or removed."""
    return FilesWatch(os.path.join(folder, LAPTOPS), HANDOVERS_FILE)


def register_laptop(
    folder: Path, laptop_id: str, name: str, syncthing_device: str = "", public_key: str = ""
) -> Path:
    """``laptops/<id>/laptop.json``: the laptop's name, its Syncthing device ID (so a
    conflict copy, named after the device that made it, can be traced to a laptop) and its
    public signing key (public only; trusted once the head judge registers it)."""
    doc = {
        "laptop_id": laptop_id,
        "name": name,
        "syncthing_device": syncthing_device,
        "public_key": public_key,
    }
    try:  # the head judge's signature of the registration stays while it still holds
        old = orjson.loads((laptop_dir(folder, laptop_id) / LAPTOP_FILE).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        old = None
    if isinstance(old, dict) and all(
        old.get(k) == doc[k] for k in ("laptop_id", "name", "public_key")
    ):
        for k in ("hj_sig", "hj_key"):
            if k in old:
                doc[k] = old[k]
    return write_laptop_file(folder, laptop_id, LAPTOP_FILE, orjson.dumps(doc))


def laptop_devices(folder: Path) -> dict[str, str]:
    """{laptop id: Syncthing device ID} of every registered laptop (unreadable files are
    skipped: the registry only helps to name a conflict copy's laptop)."""
    out = {}
    for p in sorted((Path(folder) / LAPTOPS).glob(f"*/{LAPTOP_FILE}")):
        try:
            doc = orjson.loads(p.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            continue
        if isinstance(doc, dict) and doc.get("syncthing_device"):
            out[p.parent.name] = str(doc["syncthing_device"])
    return out


# --- Syncthing's conflict copies -----------------------------------------------------------

# <stem>.sync-conflict-<YYYYMMDD>-<HHMMSS>-<first 7 characters of the device ID><ext>
_CONFLICT = re.compile(
    r"^(?P<stem>.+?)\.sync-conflict-(?P<date>\d{8})-(?P<time>\d{6})-(?P<device>[A-Z0-9]{7})"
    r"(?P<ext>\.[^.]*)?$"
)


@dataclass(frozen=True)
class ConflictCopy:
    """A Syncthing conflict copy: the version of ``original`` that lost a concurrent
    change, made at ``when`` (the losing change's modification time, local). ``device`` is
    the start of the ID Syncthing put in the name: the device whose version *won*, not the
    one that wrote the copy (who wrote it is read from its events' signatures)."""

    path: Path
    original: Path
    when: datetime
    device: str

    @property
    def log_id(self) -> str:
        return self.original.stem


def parse_conflict_name(path: Path) -> ConflictCopy | None:
    """The parts of a conflict copy's name, or None if ``path`` is not one."""
    path = Path(path)
    m = _CONFLICT.match(path.name)
    if m is None:
        return None
    try:
        when = datetime.strptime(m["date"] + m["time"], "%Y%m%d%H%M%S")
    except ValueError:
        return None
    original = path.with_name(m["stem"] + (m["ext"] or ""))
    return ConflictCopy(path, original, when, m["device"])


def find_conflict_copies(folder: Path, kinds: tuple[str, ...] = ("games", "quidditch")) -> list:
    """Every conflict copy of a game or match log, and of ``tournament.json`` (which only
    the head judge's laptop should write), in the tournament folder, oldest first."""
    folder = Path(folder)
    candidates = sorted(folder.glob("tournament.sync-conflict-*"))
    for kind in kinds:
        candidates += sorted((folder / kind).glob("*.sync-conflict-*"))
    out = []
    for p in candidates:
        c = parse_conflict_name(p)
        if c is not None and c.original.suffix == ".json":
            out.append(c)
    return sorted(out, key=lambda c: (c.when, c.path.name))


def conflict_copy_path(original: Path, when: datetime, device: str) -> Path:
    """A free name for a new conflict copy of ``original`` in Syncthing's form
    (``<stem>.sync-conflict-<YYYYMMDD>-<HHMMSS>-<device><ext>``), a second later while
    one of that name exists. ``device``: 7 capital letters or digits."""
    if not re.fullmatch(r"[A-Z0-9]{7}", device):
        raise Refused(f"{device!r} is not the start of a Syncthing device ID")
    original = Path(original)
    for n in range(3600):
        stamp = datetime.fromtimestamp(when.timestamp() + n).strftime("%Y%m%d-%H%M%S")
        path = original.with_name(
            f"{original.stem}.sync-conflict-{stamp}-{device}{original.suffix}"
        )
        if not path.exists():
            return path
    raise Refused(f"no free name for a conflict copy of {original.name}")


def put_back(copy: ConflictCopy, new_copy: Path, archive: Path) -> None:
    """Make a conflict copy the live file again, the live version becoming a conflict copy
    in its place (issue 22: the game's owner after a hand-over puts back its own version
    when Syncthing kept the old owner's newer one). Nothing is lost at any point of a
    power cut: the live version is first copied durably to ``new_copy`` (a name of
    :func:`conflict_copy_path`), then the copy's content replaces the live file
    atomically, and only then the copy, now the same as the live file, leaves the synced
    folder for ``archive`` (local, kept; Syncthing removes it on the other laptops)."""
    if new_copy.exists() or parse_conflict_name(new_copy) is None:
        raise Refused(f"{new_copy.name} is not a free conflict copy name")
    copy_durably(copy.original, new_copy)
    atomic_write_bytes(copy.original, copy.path.read_bytes())
    keep_file(copy.path, archive)


def keep_file(src: Path, folder: Path, move: bool = True, name: str = "") -> Path:
    """Move (or copy) ``src`` into ``folder`` (as ``name``, default its own name), never
    over an existing file (a numbered name instead): what the head judge did not keep is
    archived, not deleted."""
    make_dirs(Path(folder))
    target = free_path(Path(folder) / (name or Path(src).name))
    if move:
        move_durably(Path(src), target)
    else:
        copy_durably(Path(src), target)
    return target
