"""What the home screen shows of a game, computed from its log by the rules engine and
cached in the summary index (never the source of truth)."""

from __future__ import annotations

from typing import Any


def summarize(t, game_id: str, log) -> dict[str, Any]:
    types = [e.type for e in log.events]
    phase = "open" if types else "scheduled"
    return {"phase": phase, "events": len(types)}


def install(t) -> None:
    """Hook the rules engine into a freshly opened tournament."""
    t.summarize = summarize
