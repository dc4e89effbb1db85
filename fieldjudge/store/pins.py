"""This laptop's memory of each tournament's head judge key (trust on first use).

The head judge's public key is what every head-judge signature is checked against, so it
must not come only from the tournament folder that an attacker can edit: someone who
replaced both the stored secret record *and* the public key in ``tournament.json`` would
otherwise have a self-consistent forgery. Each laptop therefore remembers, in its own config
folder (next to its private key, never synced), the key it saw when it first opened a
tournament (``pinned_head_judges.json``); a later key that differs is refused until the
head judge confirms the change in person (:meth:`HeadJudgePins.replace`).
"""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from fieldjudge.rules.key_ids import public_key_bytes
from fieldjudge.store.errors import DamagedFile, StoreError
from fieldjudge.store.keys import default_config_dir
from fieldjudge.store.storage import atomic_write_bytes, load_json_file, make_dirs

PINS_FILE = "pinned_head_judges.json"
PINS_SCHEMA = 1


class BadTournamentId(StoreError):
    """A tournament id that is empty, too long or holds control characters."""


def _check_id(tournament_id: str) -> str:
    tid = str(tournament_id)
    if not tid or len(tid) > 64 or any(unicodedata.category(c)[0] in "CZ" for c in tid):
        raise BadTournamentId(f"not a tournament id: {tournament_id!r}")
    return tid


class HeadJudgePins:
    def __init__(self, config_dir: Path | str | None = None) -> None:
        folder = Path(config_dir) if config_dir is not None else default_config_dir()
        self.path = folder.expanduser().absolute() / PINS_FILE

    def _read(self) -> dict[str, Any]:
        if not self.path.exists():
            return {}
        doc = load_json_file(self.path)
        if not isinstance(doc, dict) or doc.get("schema") != PINS_SCHEMA:
            raise DamagedFile(self.path, "not a fieldjudge pin file (schema 1)")
        tournaments = doc.get("tournaments")
        if not isinstance(tournaments, dict):
            raise DamagedFile(self.path, "no tournaments table")
        return tournaments

    def pinned(self, tournament_id: str) -> str | None:
        """The head judge key this laptop pinned for the tournament, if any."""
        entry = self._read().get(_check_id(tournament_id))
        return str(entry["public_key"]) if isinstance(entry, dict) else None

    def pin(self, tournament_id: str, public_key_b64: str, name: str = "") -> str:
        """Pin ``public_key_b64`` if nothing is pinned yet; returns the pinned key (which
        the caller compares: a different one means the tournament's key was replaced)."""
        tid = _check_id(tournament_id)
        public_key_bytes(public_key_b64)  # ValueError if not a key
        current = self.pinned(tid)
        if current is not None:
            return current
        self._write(tid, public_key_b64, name)
        return public_key_b64

    def replace(self, tournament_id: str, public_key_b64: str, name: str = "") -> None:
        """Pin another key (only after the head judge confirmed the change in person)."""
        public_key_bytes(public_key_b64)
        self._write(_check_id(tournament_id), public_key_b64, name)

    def _write(self, tid: str, public_key_b64: str, name: str) -> None:
        tournaments = dict(self._read())
        tournaments[tid] = {
            "public_key": public_key_b64,
            "name": str(name),
            "pinned_at": datetime.now(UTC).isoformat(),
        }
        make_dirs(self.path.parent, mode=0o700)
        payload = {"schema": PINS_SCHEMA, "tournaments": tournaments}
        atomic_write_bytes(self.path, orjson.dumps(payload, option=orjson.OPT_INDENT_2))
