"""What the ``/events`` stream sends after its first full document: only what changed.

A client gets ``event: live`` (the whole ``/api/live`` document) when it connects; after
that, when one game's state changes, ``event: game`` with that game alone::

    {"as_of": "...", "live": [ids of the games in play], "game": {one game of /api/live}}

A running clock is not a change: the page counts it down itself from the last
``remaining_ms`` it got, so the server re-reads the folder every second while a clock runs
(``/api/live`` stays current) but sends nothing unless a game changed otherwise. A change
of anything but the games (the tournament's name, ``damaged``, the schedule's list of games)
sends the whole document again. ``event: standings`` goes out when the standings change
(not their ``as_of`` alone).

:class:`Feed` remembers what the clients were last sent and turns each new ``/api/live``
document into the stream's messages (no I/O here: the server writes them).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import orjson

#: a running clock this close (ms) to where the page's own count-down puts it is unchanged
CLOCK_SLACK_MS = 250

_TOP_SKIPPED = ("as_of", "games", "live")


def as_of_ms(doc: dict[str, Any]) -> int | None:
    """The document's ``as_of`` (ISO, UTC) in epoch milliseconds, or None."""
    raw = doc.get("as_of")
    if not isinstance(raw, str):
        return None
    try:
        dt = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        return None
    return int(dt.timestamp() * 1000)


def same_clock(old: Any, new: Any, dt_ms: int | None) -> bool:
    """Whether ``new`` is ``old`` counted on by ``dt_ms`` (as the page counts it down)."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        return bool(old == new)
    if not old.get("running") or not new.get("running") or dt_ms is None:
        return bool(old == new)
    if old.get("length_ms") != new.get("length_ms"):
        return False
    try:
        expect = min(int(old["elapsed_ms"]) + dt_ms, int(old["length_ms"]))
        return abs(expect - int(new["elapsed_ms"])) <= CLOCK_SLACK_MS
    except (KeyError, TypeError, ValueError):
        return False


def same_game(old: dict[str, Any], new: dict[str, Any], dt_ms: int | None) -> bool:
    if old.keys() != new.keys():
        return False
    if any(old[k] != new[k] for k in old if k != "clock"):
        return False
    return same_clock(old.get("clock"), new.get("clock"), dt_ms)


def _game_ids(doc: dict[str, Any]) -> list[Any] | None:
    games = doc.get("games")
    if not isinstance(games, list) or not all(isinstance(g, dict) for g in games):
        return None
    return [g.get("id") for g in games]


class Feed:
    """The stream's state: what every connected client was sent (modulo running clocks)."""

    def __init__(self) -> None:
        self._top: dict[str, Any] | None = None
        self._ids: list[Any] | None = None
        self._games: dict[Any, tuple[int | None, dict[str, Any]]] = {}
        self._standings: dict[str, Any] | None = None

    def standings_changed(self, doc: dict[str, Any]) -> bool:
        """Whether a new standings document differs from the last one sent (as_of aside)."""
        rest = {k: v for k, v in doc.items() if k != "as_of"}
        if rest == self._standings:
            return False
        self._standings = rest
        return True

    def changes(self, doc: dict[str, Any]) -> tuple[bool, list[bytes]]:
        """For a new live document: ``(True, [])`` when the whole document must go out,
        else ``(False, data)`` with the ``game`` messages' data (none: nothing changed)."""
        top = {k: v for k, v in doc.items() if k not in _TOP_SKIPPED}
        ids = _game_ids(doc)
        at = as_of_ms(doc)
        if ids is None or len(set(ids)) != len(ids) or top != self._top or ids != self._ids:
            self._top, self._ids = top, ids
            self._games = {g.get("id"): (at, g) for g in doc.get("games") or []} if ids else {}
            return True, []
        out = []
        for g in doc["games"]:
            gid = g.get("id")
            sent_at, old = self._games[gid]
            dt = None if at is None or sent_at is None else at - sent_at
            if same_game(old, g, dt):
                continue
            self._games[gid] = (at, g)
            out.append(
                orjson.dumps({"as_of": doc.get("as_of"), "live": doc.get("live"), "game": g})
            )
        return False, out


__all__ = ["CLOCK_SLACK_MS", "Feed", "same_clock", "same_game"]
