"""The one way to open a tournament for the app, the CLI, the demo, the tests and the
benchmarks: the store opened with a fresh write key that only the service holds, and this
laptop's signing key (made on first use in the user's config folder, never in the
tournament folder)."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from fieldjudge.services.tournament import TournamentService, TournamentView, sign_ahead
from fieldjudge.services.trust.head_judge import DEFAULT_PARAMS, HeadJudgeKey, ScryptParams
from fieldjudge.store import Tournament, TournamentFiles, WriteKey
from fieldjudge.store.keys import LaptopKeys
from fieldjudge.store.pins import HeadJudgePins
from fieldjudge.store.sync_files import ensure_stignore


def laptop_keys(folder: Path, config_dir: Path | None = None, check: bool = True) -> LaptopKeys:
    """This laptop's key pair (made on first use), never inside the tournament folder.
    ``check=False``: its private key is checked against its public key before it signs or
    is registered, not now (a damaged key file still opens the tournament to read it)."""
    return LaptopKeys.load_or_create(config_dir, shared_folders=[Path(folder)], check=check)


def open_tournament(
    folder: Path,
    *,
    lock: bool = True,
    startup_backup: bool = True,
    wall: Callable[[], float] = time.time,
    laptop_id: str | None = None,
    config_dir: Path | None = None,
    keys: LaptopKeys | None = None,
    on_written: Callable[[Path], None] | None = None,
) -> TournamentService:
    """Open an existing tournament folder (raises ``FolderLocked``, ``DamagedFile``).
    ``laptop_id``: this laptop's id, for one writer per game (None: not checked).
    ``config_dir``: this laptop's config folder (its key and the head judge keys it
    pinned; default ``FIELDJUDGE_CONFIG`` or the user's config folder). ``on_written``:
    told the path of each file the other laptops wait for, once written (the app's
    Syncthing rescan): game files, this laptop's registration, hand-over records."""
    key = WriteKey()
    keys = keys or laptop_keys(Path(folder), config_dir, check=False)
    store = Tournament.open(Path(folder), lock=lock, startup_backup=startup_backup, key=key)
    return _service(
        store,
        key,
        keys,
        config_dir,
        wall,
        stignore=lock,  # opened for writing
        laptop_id=laptop_id,
        register=lock,
        on_written=on_written,
    )


def open_view(
    folder: Path, *, config_dir: Path | None = None, keys: LaptopKeys | None = None
) -> TournamentView:
    """An existing tournament folder to read (an export, the results CLI, a worker beside
    the app): opened without the folder lock and without a write key, so it has no write
    method and its store refuses every write (raises ``DamagedFile``)."""
    keys = keys or laptop_keys(Path(folder), config_dir, check=False)
    store = TournamentFiles.read(Path(folder))
    try:
        return TournamentView(store, keys=keys, pins=HeadJudgePins(config_dir))
    except BaseException:
        store.close()
        raise


def _service(
    store: Tournament,
    key: WriteKey,
    keys: LaptopKeys,
    config_dir: Path | None,
    wall: Callable[[], float],
    stignore: bool,
    **options: Any,
) -> TournamentService:
    """The service over a store just opened or created, with the head judge keys this
    laptop pinned; the store is closed if the service cannot start. ``stignore``: local
    files stay out of a synced folder (issue 15)."""
    try:
        if stignore:
            ensure_stignore(store.folder)
        return TournamentService(
            store,
            key,
            keys=keys,
            pins=HeadJudgePins(config_dir),
            wall=wall,
            **options,
        )
    except BaseException:
        store.close()
        raise


def create_tournament(
    folder: Path,
    *,
    name: str,
    day: date,
    head_judge_secret: str | None = None,
    venue: str = "",
    head_judge: str = "",
    settings: dict[str, Any] | None = None,
    division: str = "",
    lock: bool = True,
    wall: Callable[[], float] = time.time,
    kdf: ScryptParams = DEFAULT_PARAMS,
    config_dir: Path | None = None,
    keys: LaptopKeys | None = None,
) -> TournamentService:
    """Create a new tournament folder and open it. ``head_judge_secret`` (at least 8
    characters) seals the head judge's new signing key; this laptop pins its public key
    and registers itself signed by it; ``tournament.json`` is signed from the start."""
    record, unlocked = (None, None)
    if head_judge_secret is not None:  # a quidditch-only folder has no head judge
        # UnusableSecret, WeakSecret
        record, unlocked = HeadJudgeKey.create(head_judge_secret, kdf, (name, head_judge))
    key = WriteKey()
    keys = keys or laptop_keys(Path(folder), config_dir)
    store = Tournament.create(
        Path(folder),
        name=name,
        day=day,
        venue=venue,
        head_judge=head_judge,
        head_judge_key=record,
        settings=settings,
        division=division,
        lock=lock,
        key=key,
        # the genesis version's signature is on disk before tournament.json: a power cut
        # never leaves a new tournament that reads as tampered with
        before_write=(
            None
            if unlocked is None
            else lambda data: sign_ahead(Path(folder), unlocked, keys.laptop_id, data)
        ),
    )
    t = _service(store, key, keys, config_dir, wall, stignore=True, head_judge_key=unlocked)
    # this laptop alone writes tournament.json from now on (issue 22), signed from the start
    t.update_meta(head_laptop=keys.laptop_id)
    return t
