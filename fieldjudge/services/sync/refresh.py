"""Game and match files that another laptop changed (through Syncthing) while this laptop has
the tournament open.

The store opens each log once and keeps it (and its parsed content) in memory, and the
summary index re-reads a file only when its size or modification time changed — but the
summary is computed from the open log, so a log opened before the change would keep showing
the old events. :class:`ChangedLogs` notices the change by the file's key (one ``stat`` per
file) and releases the stale log, so the next read reopens and re-verifies it (signatures
too: the service's one check, :class:`~fieldjudge.services.trust.checks.Verifier`, checks
again a file whose key changed, and everything when a registration, a manifest or
``tournament.json`` did).

The app polls it where it polls the sync status (a worker, about once a second) and passes
the games it is writing itself in a live session (``busy``): under the one-writer rule
nobody else changes those.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from fieldjudge.store.index import SummaryIndex

if TYPE_CHECKING:
    from fieldjudge.services.tournament import TournamentService

KINDS = ("games", "quidditch")


class ChangedLogs:
    def __init__(self, t: TournamentService) -> None:
        self.t = t
        # the files as they are now are what the open logs show
        self._keys = {k: SummaryIndex.file_key(p) for k, p in self._files().items()}
        # what every log is checked against (tournament.json and its signature, the
        # registrations, the manifests): a change shows anew what verify says (issue 21)
        self._trust = t.trust.stamp()

    def _files(self) -> dict[tuple[str, str], Path]:
        out = {}
        for kind in KINDS:
            for p in (Path(self.t.folder) / kind).glob("*.json"):
                if ".sync-conflict-" not in p.name:
                    out[(kind, p.stem)] = p
        return out

    def poll(self, busy: Iterable[str] = ()) -> list[str]:
        """``kind/id`` of each log whose file changed since the last poll (new, replaced or
        removed); each one is released so the next read shows the file's content."""
        skip = set(busy)
        files = self._files()
        changed = []
        for key in sorted(set(files) | set(self._keys)):
            now = SummaryIndex.file_key(files[key]) if key in files else None
            if key in self._keys and self._keys[key] == now:
                continue
            self._keys[key] = now
            kind, log_id = key
            if log_id in skip:
                continue
            self.t.release_log(kind, log_id)
            changed.append(f"{kind}/{log_id}")
        trust = self.t.trust.stamp()
        if trust != self._trust:
            self._trust = trust
            self.t.trust.refresh()
            changed.append("signatures")
        return changed
