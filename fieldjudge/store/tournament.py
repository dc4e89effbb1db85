"""A tournament folder: ``tournament.json``, ``games/<id>.json``, ``quidditch/<id>.json``,
``exports/``, ``backups/`` and a local ``.cache/`` (lock, summary index).

``tournament.json`` (settings, teams, rosters, schedule) is written only by the head
judge's laptop; a game's file only by the laptop running that game (DESIGN.md).
"""

from __future__ import annotations

import contextlib
import re
import uuid
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.storages import MemoryStorage

from fieldjudge.rules.events import Event
from fieldjudge.rules.messages import Phrase
from fieldjudge.store import backup, schema
from fieldjudge.store.auth_log import LAPTOPS_DIR
from fieldjudge.store.errors import DamagedFile, NotTheWriter, Refused, WriteKey
from fieldjudge.store.eventlog import EventLog, ReadLog
from fieldjudge.store.index import SummaryIndex
from fieldjudge.store.lock import FolderLock
from fieldjudge.store.storage import AtomicJSONStorage, clean_temp_files, make_dirs
from fieldjudge.store.tables import Tables, TableWrites
from fieldjudge.store.validate import validate_data, validate_file

TOURNAMENT_FILE = "tournament.json"
#: a laptop's marker checks of games it does not own: laptops/<id>/marker_checks/<game>.json
MARKER_DIR = "marker_checks"
MARKER_KIND = "marker_check"


def slugify(text: str) -> str:
    """A folder name safe on every OS, keeping Cyrillic letters."""
    s = re.sub(r"[^\w\-]+", "-", text.strip(), flags=re.UNICODE).strip("-_")
    return s[:60] or "tournament"


def anchor_fault(events: list[Any], anchor: tuple[int, str] | None) -> Phrase | None:
    """Why a log's events do not reach the manifest's head ``anchor`` (count, hash)."""
    if anchor is None:
        return None
    n, h = anchor
    if n > len(events):
        return Phrase(
            "truncated: the manifest records {count} events, the file holds {held}",
            count=n,
            held=len(events),
        )
    if n > 0 and events[n - 1].hash != h:
        return Phrase(
            "event #{n} is not the one the manifest recorded ({hash}…): the file was "
            "replaced or rewritten",
            n=n,
            hash=str(h)[:12],
        )
    return None


def _open_anchored(
    path: Path, anchor: tuple[int, str] | None, key: WriteKey | None = None, rewrite: bool = True
) -> EventLog:
    """A game's log opened (chain verified) and checked against the manifest's newest head
    ``anchor`` (see :meth:`Tournament.game_log`): a missing file the manifest shows events
    of, or one that does not reach that head, is :class:`DamagedFile`."""
    if not path.exists() and anchor is not None and anchor[0] > 0:
        raise DamagedFile(
            path, "missing: the manifest records {count} events of this game", count=anchor[0]
        )
    log = EventLog.open(path, key=key, rewrite=rewrite)
    fault = anchor_fault(log.events, anchor)
    if fault:
        log.close()
        raise DamagedFile(path, fault)
    return log


def _tables(path: Path, migrate: bool) -> TinyDB:
    """``tournament.json``'s tables, checked (raises :class:`DamagedFile`); an old format
    is migrated on disk when ``migrate`` (the app, holding the lock), else in memory."""
    db = TinyDB(path, storage=AtomicJSONStorage, create=False)
    data, changed = validate_data(db.storage.read(), path)
    if (data.get("meta") or {}).get("1", {}).get("kind") != "tournament":
        raise DamagedFile(path, "not a tournament file")
    if changed and migrate:
        db.storage.write(data)
    elif changed:
        db.close()
        db = TinyDB(storage=MemoryStorage)
        db.storage.write(data)
    db.clear_cache()
    return db


class TournamentFiles(Tables):
    """A tournament folder to read: ``tournament.json``'s tables, the game, match and
    marker-check logs (each opened once, its chain verified) and the summary index. No
    write key and no write method: its logs refuse every append, it creates and migrates
    no file and takes no lock (:meth:`read`; the pit's :func:`snapshot_tournament`,
    ``verify``, the services' read-only view). :class:`Tournament` is one, with the writes."""

    def __init__(self, folder: Path, db: TinyDB) -> None:
        self.folder = Path(folder)
        self._db = db
        # the logs get a key nobody holds: they refuse every append
        self._key = WriteKey()
        self._logs: dict[str, EventLog] = {}
        self._game_paths: dict[str, Path] = {}
        self.index = SummaryIndex(self.folder)

    @classmethod
    def read(cls, folder: Path) -> TournamentFiles:
        """An existing folder opened to read (raises :class:`DamagedFile`): an old-format
        ``tournament.json`` is migrated in memory only."""
        path = Path(folder) / TOURNAMENT_FILE
        if not path.exists():
            raise DamagedFile(path, "no tournament.json in this folder")
        return cls(folder, _tables(path, migrate=False))

    def close(self) -> None:
        for log in self._logs.values():
            log.close()
        self._logs.clear()
        self._db.close()

    @property
    def writes(self) -> bool:
        """Opened by the app (holding the folder lock): it may migrate old-format files;
        a reader (export, verify, the pit) never rewrites one."""
        return False

    # -- game and match logs -------------------------------------------------------------
    def game_log(
        self, game_id: str, create: bool = False, anchor: tuple[int, str] | None = None
    ) -> EventLog:
        """The game's event log, opened (chain verified) once and kept open. ``create``: a
        reader creates no file (:class:`NotTheWriter` for a missing one).

        ``anchor`` (count, hash): the newest head the tournament's manifest records for the
        game. The file must hold at least ``count`` events, the ``count``-th with that hash
        (:class:`DamagedFile` otherwise: truncated, replaced or missing)."""
        if game_id in self._logs:
            return self._logs[game_id]
        path = self.game_path(game_id)
        if not path.exists() and not (anchor is not None and anchor[0] > 0):
            raise NotTheWriter(path.name) if create else DamagedFile(path, "no such game file")
        log = _open_anchored(path, anchor, self._key, self.writes)
        self._logs[game_id] = log
        return log

    def game_path(self, game_id: str) -> Path:
        """The game's file, its path made once: every append names it (issue 24)."""
        path = self._game_paths.get(game_id)
        if path is None:
            path = self._game_paths[game_id] = self.folder / "games" / f"{game_id}.json"
        return path

    def match_path(self, match_id: str) -> Path:
        return self.folder / "quidditch" / f"{match_id}.json"

    def game_keys(self) -> dict[str, list[int]]:
        """{game id: its file's key (size, mtime)} for every game file the folder holds
        now, from one listing of ``games/`` (a game with no file is absent)."""
        suffix = ".json"
        return {
            name[: -len(suffix)]: key
            for name, key in self.index.folder_keys(self.folder / "games").items()
            if name.endswith(suffix)
        }

    def open_game_log(self, game_id: str) -> EventLog | None:
        """The game's log if this folder holds it open (checked when it was opened)."""
        return self._logs.get(game_id)

    # -- marker checks recorded on a laptop that does not own the game (19) ---------------
    def marker_log_path(self, laptop_id: str, game_id: str) -> Path:
        return self.folder / LAPTOPS_DIR / Path(laptop_id).name / MARKER_DIR / f"{game_id}.json"

    def marker_log_paths(self, game_id: str) -> list[tuple[str, Path]]:
        """(laptop id, file) of every laptop's marker-check log of a game."""
        root = self.folder / LAPTOPS_DIR
        return [
            (p.parent.parent.name, p)
            for p in sorted(root.glob(f"*/{MARKER_DIR}/{game_id}.json"))
            if p.is_file()
        ]

    def read_marker_log(self, laptop_id: str, game_id: str) -> list[Event]:
        """The events of a laptop's marker-check log (the open one if this folder holds it,
        else read and verified once). Raises :class:`DamagedFile`."""
        key = f"{MARKER_DIR}/{laptop_id}/{game_id}"
        if key in self._logs:
            return list(self._logs[key].events)
        log = EventLog.open(self.marker_log_path(laptop_id, game_id), rewrite=self.writes)
        try:
            return list(log.events)
        finally:
            log.close()

    def matches(self) -> list[str]:
        return sorted(p.stem for p in (self.folder / "quidditch").glob("*.json"))

    def release_log(self, kind: str, log_id: str) -> None:
        """Close our open copy of a game (``kind`` "games") or match ("quidditch") log, e.g.
        before a merge replaces its file; the next access reopens and re-verifies it."""
        key = log_id if kind == "games" else f"{kind}/{log_id}"
        log = self._logs.pop(key, None)
        if log is not None:
            log.close()
        self.index.invalidate(log_id)

    @contextlib.contextmanager
    def reading_game_log(
        self, game_id: str, anchor: tuple[int, str] | None = None, read: ReadLog | None = None
    ) -> Iterator[EventLog | ReadLog]:
        """A game's log to read once (an export, a summary): the open one if this folder
        holds it, else read (chain verified) for this read and not kept, so a pass over
        every game holds one game's events at a time. ``anchor``: as for :meth:`game_log`
        (a file that does not reach it is damaged). ``read``: the file as the caller read
        and checked it just now (the services' check of its signatures), taken as it is
        instead of reading the file again. Raises :class:`DamagedFile`."""
        path = self.game_path(game_id)
        log: EventLog | ReadLog | None = self._logs.get(game_id)
        if log is None:
            log = read
        if log is None and (path.exists() or not (anchor is not None and anchor[0] > 0)):
            log = ReadLog.read(path)  # None: an older format, migrated as the log opens
        if log is not None:
            fault = anchor_fault(log.events, anchor)
            if fault:
                raise DamagedFile(log.path, fault)
            yield log
            return
        opened = _open_anchored(path, anchor, rewrite=self.writes)
        try:
            yield opened
        finally:
            opened.close()

    def game_summary(
        self,
        game_id: str,
        summarize: Callable[[EventLog | ReadLog], dict[str, Any]] | None = None,
        anchor: tuple[int, str] | None = None,
        read: ReadLog | None = None,
        key: list[int] | None = None,
    ) -> dict[str, Any]:
        """A cached summary of a game (phase, alive counts... from ``summarize(log)``, the
        services' rules) for the home screen. The game file is only parsed when it changed
        since the summary was made. ``anchor``: the manifest's newest head (see
        :meth:`game_log`): a game whose manifest shows events is never "scheduled".
        ``read``: the file as the caller read it just now (see :meth:`reading_game_log`);
        ``key``: the file's key taken before that read (else taken now, before this one):
        the cached summary is looked up, and a new one kept, under it."""
        path = self.game_path(game_id)
        if key is None:
            key = self.index.file_key(path)
        cached = self.index.get_at(game_id, key)
        if cached is not None and not (
            anchor is not None and anchor[0] > int(cached.get("events", 0) or 0)
        ):
            return cached
        if key is None and not (anchor is not None and anchor[0] > 0):  # no file, no events
            summary: dict[str, Any] = {"phase": "scheduled", "events": 0}
        else:
            # a log opened only to summarise it is closed again: the cold open of a
            # tournament never holds every game's events in memory
            try:
                with self.reading_game_log(game_id, anchor, read) as log:
                    summary = {"phase": "open", "events": len(log.events)}
                    if summarize is not None:
                        summary.update(summarize(log))
            except DamagedFile as exc:
                return {"phase": "damaged", "fault": exc.fault}
        self.index.put(game_id, path, summary, key=key)
        return summary


class Tournament(TournamentFiles, TableWrites):
    """The folder's files, with their writes. Opened with a :class:`WriteKey` (by the
    services) it can be written by whoever presents that key; without one it is
    read-only."""

    def __init__(
        self, folder: Path, db: TinyDB, lock: FolderLock | None, key: WriteKey | None = None
    ) -> None:
        super().__init__(folder, db)
        self._lock = lock
        if key is not None:
            self._key = key
        self._writable = key is not None

    def before_write(self, hook: Callable[[dict[str, Any]], None] | None) -> None:
        """Call ``hook`` with the new content of tournament.json before each write of it."""
        self._db.storage.before_write = hook  # type: ignore[attr-defined]

    def check_key(self, key: WriteKey | None) -> None:
        """Raise :class:`NotTheWriter` unless ``key`` is this tournament's write key."""
        if not self._writable or key is not self._key:
            raise NotTheWriter(TOURNAMENT_FILE)

    # -- opening ------------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        folder: Path,
        *,
        name: str,
        day: date,
        venue: str = "",
        head_judge: str = "",
        head_judge_key: dict | None = None,
        settings: dict | None = None,
        division: str = "",
        lock: bool = True,
        key: WriteKey | None = None,
        before_write: Callable[[dict[str, Any]], None] | None = None,
    ) -> Tournament:
        """A new tournament folder. ``before_write``: called with the content of
        tournament.json before each write of it (the head judge's signature first)."""
        folder = Path(folder)
        if (folder / TOURNAMENT_FILE).exists():
            raise FileExistsError(f"{folder} already holds a tournament")
        for sub in ("games", "quidditch", "exports", "backups", ".cache"):
            make_dirs(folder / sub)  # the data folder's entry of the new folder too
        fl = FolderLock(folder)
        if lock:
            fl.acquire()
        db = TinyDB(folder / TOURNAMENT_FILE, storage=AtomicJSONStorage)
        meta = {
            "schema": schema.TOURNAMENT_SCHEMA,
            "kind": "tournament",
            "id": uuid.uuid4().hex,
            "name": name,
            "date": day.isoformat(),
            "venue": venue,
            "head_judge": head_judge,
            # the head judge's key record (public key + his private key sealed by his
            # secret, services/trust/head_judge.py); never a secret in clear or as a bare hash
            "head_judge_key": head_judge_key,
            "division": division,
            "settings": settings or {},
        }
        db.storage.before_write = before_write  # type: ignore[attr-defined]
        with db.storage.batch():  # type: ignore[attr-defined]
            db.table("meta").insert(meta)
            for name in ("teams", "players", "games"):
                db.table(name).truncate()
        return cls(folder, db, fl if lock else None, key)

    @classmethod
    def open(
        cls,
        folder: Path,
        *,
        lock: bool = True,
        startup_backup: bool = True,
        key: WriteKey | None = None,
    ) -> Tournament:
        folder = Path(folder)
        path = folder / TOURNAMENT_FILE
        if not path.exists():
            raise DamagedFile(path, "no tournament.json in this folder")
        fl = FolderLock(folder)
        if lock:
            fl.acquire()
        try:
            # only the lock's holder cleans: an unlocked reader (an export) would delete
            # the temp file of a write the app is making at that moment
            for sub in (folder, folder / "games", folder / "quidditch", folder / ".cache"):
                if lock and sub.is_dir():
                    clean_temp_files(sub)
            # an interrupted backup, laptop file, decision or restore leaves one too
            for name in ("backups", "laptops", "conflicts", "damaged"):
                if lock and (folder / name).is_dir():
                    clean_temp_files(folder / name, recursive=True)
            t = cls(folder, _tables(path, migrate=lock), fl if lock else None, key)
            if startup_backup and lock:
                t.backup_all()
            return t
        except BaseException:
            fl.release()
            raise

    def close(self) -> None:
        super().close()
        if self._lock is not None:  # a reader (export, verify, the pit) writes nothing
            self.index.save()
            self._lock.release()

    @property
    def writes(self) -> bool:
        return self._lock is not None

    # -- game, match and marker-check logs: created here -----------------------------
    def game_log(
        self,
        game_id: str,
        create: bool = True,
        anchor: tuple[int, str] | None = None,
        owner: str | None = None,
    ) -> EventLog:
        """The game's event log (see :meth:`TournamentFiles.game_log`); a new file records
        ``owner`` (the id of the laptop creating it) as the game's owner. A missing file is
        never re-created when the manifest shows events."""
        path = self.game_path(game_id)
        if not create or game_id in self._logs or path.exists() or anchor and anchor[0] > 0:
            return super().game_log(game_id, anchor=anchor)
        fields = ("field", "start", "team_a", "team_b")
        return self._kept_log(
            game_id, path, "game", lambda: self._scheduled(game_id, *fields), owner
        )

    def _scheduled(self, game_id: str, *fields: str) -> dict[str, Any]:
        """A new log's meta for a game of the schedule: its id, the tournament's and the
        ``fields`` of its row."""
        g = self.game(game_id)
        if g is None:
            raise Refused("no game {game} in the schedule", game=game_id)
        return {"game_id": game_id, "tournament_id": self.meta.get("id")} | {
            f: g[f] for f in fields
        }

    def _kept_log(
        self, key: str, path: Path, kind: str, meta: Callable[[], dict], owner: str | None
    ) -> EventLog:
        """The log this folder holds open as ``key``, else its file opened and kept, else a
        new file of ``kind`` with ``meta()`` (a reader, without the write key, makes none)."""
        if key not in self._logs:
            if path.exists():
                self._logs[key] = EventLog.open(path, key=self._key, rewrite=self.writes)
            else:
                doc = meta()
                if not self._writable:
                    raise NotTheWriter(path.name)
                self._logs[key] = EventLog.create(path, kind, doc, owner=owner, key=self._key)
        return self._logs[key]

    def match_log(
        self, match_id: str, meta: dict | None = None, owner: str | None = None
    ) -> EventLog:
        doc = {"match_id": match_id, **(meta or {})}
        path = self.match_path(match_id)
        return self._kept_log(f"quidditch/{match_id}", path, "quidditch", lambda: doc, owner)

    def marker_log(self, laptop_id: str, game_id: str) -> EventLog:
        """This laptop's own log of its marker checks of a game (written only by it; the
        game's owner takes the checks into the game). Created on the first check."""
        return self._kept_log(
            f"{MARKER_DIR}/{laptop_id}/{game_id}",
            self.marker_log_path(laptop_id, game_id),
            MARKER_KIND,
            lambda: self._scheduled(game_id, "team_a", "team_b") | {"laptop": laptop_id},
            laptop_id,
        )

    def reseat_log(self, game_id: str) -> bool:
        """Keep the open log of a game (a live session holds it) on the file now at its
        path, when that file holds exactly the log's events, checked as on opening (see
        :meth:`EventLog.take_file`). Otherwise the log is released (False): the next
        access reopens and verifies the file."""
        log = self._logs.get(game_id)
        if log is not None:
            try:
                fresh = EventLog.open(self.game_path(game_id), key=self._key, rewrite=self.writes)
            except DamagedFile:
                fresh = None
            if fresh is not None and log.take_file(fresh):
                self.index.invalidate(game_id)
                return True
        self.release_log("games", game_id)
        return False

    def backup_game(self, game_id: str) -> Path | None:
        return backup.make_backup(
            self.folder,
            self.game_path(game_id),
            int(self.settings.get("backups_kept", backup.DEFAULT_KEEP)),
        )

    def backup_all(self) -> None:
        """A copy of every file changed since its last one (``backups/``)."""
        for _file in self.backup_steps():
            pass

    def backup_steps(self) -> Iterator[Path]:
        """:meth:`backup_all` a file at a time: yields each file once it is copied (or
        found unchanged), so a caller on the UI's thread can let keys and frames through
        between two files (a copied folder's first start copies every game file)."""
        keep = int(self.settings.get("backups_kept", backup.DEFAULT_KEEP))
        files = [self.folder / TOURNAMENT_FILE]
        files += sorted((self.folder / "games").glob("*.json"))
        files += sorted((self.folder / "quidditch").glob("*.json"))
        for f in files:
            rel = f.relative_to(self.folder).as_posix()
            key = self.index.file_key(f)
            if (
                key is not None
                and self.index.backed_up.get(rel) == key
                and backup.backup_dir(self.folder, f).is_dir()
            ):
                continue  # unchanged since its last copy: one stat instead of a listing
            backup.make_backup(self.folder, f, keep, only_if_changed=True)
            self.index.mark_backed_up(rel, key)
            yield f
        self.index.save()

    # -- writing -------------------------------------------------------------------------
    @contextlib.contextmanager
    def writing(self, key: WriteKey | None = None) -> Iterator[TinyDB]:
        """The tables, to change through TinyDB's API: every change made in the block is
        one atomic write of the file at its end (all or nothing). The TinyDB is never
        replaced: the services' read-only :class:`Tables` view the same one."""
        self.check_key(key)
        # a reader's migrated copy is in memory (MemoryStorage): it writes nowhere
        batch = getattr(self._db.storage, "batch", contextlib.nullcontext)
        try:
            with batch():
                yield self._db
        except BaseException:
            self._db.clear_cache()  # what its queries found in the dropped changes
            raise


def snapshot_tournament(folder: Path) -> TournamentFiles:
    """A read-only, in-memory copy of ``tournament.json`` and the folder's logs, without the
    folder lock and never closed (the pit display's)."""
    data = validate_file(Path(folder) / TOURNAMENT_FILE)
    db = TinyDB(storage=MemoryStorage)
    db.storage.write(data)
    return TournamentFiles(folder, db)  # its summary index is never used nor saved
