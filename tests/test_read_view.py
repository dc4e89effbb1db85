"""Readers get a read-only view of a tournament (issue 23, DESIGN.md "Layers"): the export,
``fieldjudge-results`` and the other readers are given a :class:`TournamentView`, which
has no write method, holds no write key and opens the folder without its lock; every
write stays on :class:`TournamentService` (31: only the services write)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from click.testing import CliRunner

import fieldjudge
from fieldjudge.commands import results as results_cli
from fieldjudge.services import (
    TournamentService,
    TournamentView,
    open_tournament,
    open_view,
)
from fieldjudge.store import Tournament, TournamentFiles
from fieldjudge.store.errors import NotTheWriter
from fieldjudge.store.tournament import snapshot_tournament

PACKAGE = Path(fieldjudge.__file__).parent

#: the writes a reader must never reach (every one a method of the service)
WRITES = {
    "update_meta",
    "add_team",
    "rename_team",
    "remove_team",
    "add_player",
    "update_player",
    "remove_player",
    "import_roster",
    "add_games",
    "import_schedule",
    "add_rows",
    "put_row",
    "claim_head_laptop",
    "append_game_event",
    "append_match_event",
    "append_marker_event",
    "hand_over_game",
    "register_laptop",
    "sign_tournament",
    "record_step",
    "record_head",
    "backup_game",
    "backup_steps",
    "head_judge",
}


def public_methods(cls: type) -> set[str]:
    return {n for n, _ in inspect.getmembers(cls, callable) if not n.startswith("_")}


def test_31_a_view_has_none_of_the_service_writes(demo_folder: Path) -> None:
    """Every public write of the service is absent from the view (its class and an opened
    one): a reader cannot call what it does not have."""
    assert WRITES <= public_methods(TournamentService)
    assert not WRITES & public_methods(TournamentView)
    view = open_view(demo_folder)
    try:
        assert not isinstance(view, TournamentService)
        assert not [name for name in WRITES if hasattr(view, name)]
        # the writable store (match logs, reseating, backups) is the service's alone
        assert not hasattr(view, "store")
        assert view.teams() and view.games()  # it reads
    finally:
        view.close()


def test_31_a_view_takes_no_lock_and_its_store_creates_no_file(demo_folder: Path) -> None:
    """A view opens while the app holds the folder's lock; a game file the view is asked
    to create is refused, nothing written."""
    app = open_tournament(demo_folder, startup_backup=False)
    try:
        view = open_view(demo_folder)
        try:
            game = next(g["id"] for g in view.games() if not view.game_path(g["id"]).exists())
            path = view.game_path(game)
            with pytest.raises(NotTheWriter):
                view.game_log(game, create=True)
            assert not path.exists()
        finally:
            view.close()
    finally:
        app.close()


def test_31_the_export_runs_on_a_view(demo_folder: Path, tmp_path: Path, monkeypatch) -> None:
    """``fieldjudge-results export``'s tournament is a view: the program ``fieldjudge
    export`` becomes, and the app's export dialog runs (with ``--for-app``)."""
    seen: list[object] = []

    def run_export(t, *args, **kwargs):
        seen.append(t)
        return []

    monkeypatch.setattr(results_cli, "run_export", run_export)
    out = CliRunner().invoke(
        results_cli.results_main,
        ["export", "--tournament", str(demo_folder), "--out", str(tmp_path / "cli")],
    )
    assert out.exit_code == 0, out.output
    assert len(seen) == 1
    assert all(isinstance(t, TournamentView) and not isinstance(t, TournamentService) for t in seen)


#: the store's writes (its tables', its logs' creation, its backups)
STORE_WRITES = {
    "writing",
    "before_write",
    "update_meta",
    "add_team",
    "add_rows",
    "put_row",
    "import_roster",
    "match_log",
    "marker_log",
    "reseat_log",
    "backup_all",
}


def test_31_under_a_view_and_the_pit_the_store_has_no_write(demo_folder: Path) -> None:
    """The store a view reads through, and the pit's (and verify's) snapshot, are the
    store's read-only class: not even a reader reaching below the view finds a write."""
    assert STORE_WRITES <= public_methods(Tournament)
    view = open_view(demo_folder)
    try:
        stores = [vars(view)["_store"], snapshot_tournament(demo_folder)]
        for store in stores:
            assert type(store) is TournamentFiles
            assert not [name for name in STORE_WRITES if hasattr(store, name)]
        assert stores[1].teams() == view.teams()
    finally:
        view.close()


READERS = (
    "export",
    "serve",
    "services/pitview.py",
    "services/trust/verify.py",
    "services/paintball/protocol_doc.py",
    "services/paintball/standings.py",
)


def test_readers_never_name_the_service() -> None:
    """The readers' modules name the view, never the service nor ``open_tournament``
    (which opens it for writing): the type a reader is given is the read-only one."""
    found = []
    for reader in READERS:
        path = PACKAGE / reader
        for f in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
                name = node.id if isinstance(node, ast.Name) else getattr(node, "name", None)
                if name in ("TournamentService", "open_tournament"):
                    found.append(f"{f.relative_to(PACKAGE)}:{node.lineno}: {name}")
    assert not found, found
