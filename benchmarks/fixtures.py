"""Build large tournaments fast for the benchmarks: game files are written whole (one
atomic write each) with real, verifiable hash chains and every event signed by the demo's
laptop (as the app signs them: a game that does not verify is shown damaged, issue 21),
instead of event by event."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from fieldjudge.rules.events import GENESIS_HASH, compute_hash
from fieldjudge.services import TournamentService
from fieldjudge.services.demo import create_demo
from fieldjudge.services.trust.signing import signed_message
from fieldjudge.store import lines, schema
from fieldjudge.store.keys import LaptopKeys
from fieldjudge.store.storage import atomic_write_bytes

DAY = date(2026, 6, 1)
T0 = datetime(2026, 6, 1, 10, tzinfo=UTC)


def _elimination(i: int) -> tuple[str, dict]:
    data = {"reason": "hit", "players": [{"team": "x", "number": i % 99}], "note": "бенчмарк " * 10}
    return "elimination", data


def paint_checks(team: str, numbers: list[int]) -> Callable[[int], tuple[str, dict]]:
    """A legal game: the clock started, then paint checks of ``team``'s players, each
    begun and ended "in play" (24), round the roster."""

    def body(i: int) -> tuple[str, dict]:
        if i == 0:
            return "clock_start", {}
        k, end = divmod(i - 1, 2)
        ref = {"team": team, "number": numbers[k % len(numbers)]}
        return (
            ("paint_check_end", {**ref, "outcome": "in_play"})
            if end
            else (
                "paint_check_start",
                ref,
            )
        )

    return body


def event_docs(
    n: int,
    start_seq: int = 1,
    prev: str = GENESIS_HASH,
    body: Callable[[int], tuple[str, dict]] = _elimination,
    keys: LaptopKeys | None = None,
) -> list[dict]:
    """``n`` events chained from ``prev``, signed by ``keys`` when given."""
    docs = []
    # the elimination filler keeps its old clock; a legal game began a minute ago (its
    # clock still runs when a benchmark opens it)
    legacy = body is _elimination
    t0 = T0 if legacy else datetime.now(UTC) - timedelta(minutes=1)
    step = timedelta(milliseconds=100) if legacy else timedelta(microseconds=1)
    for i in range(n):
        etype, data = body(i)
        doc = {
            "id": uuid.uuid4().hex,
            "seq": start_seq + i,
            "type": etype,
            "game_clock_ms": i * 100 if legacy else 0 if etype == "clock_start" else i,
            "wall_time": (t0 + i * step).isoformat(),
            "judge": "Судья поля 1",
            "data": data,
            "prev_hash": prev,
        }
        doc["hash"] = prev = compute_hash(doc)
        if keys is not None:
            doc["sig"] = keys.sign(signed_message("event", doc["hash"]))
            doc["signer"] = keys.laptop_id
        docs.append(doc)
    return docs


def write_game(
    path: Path,
    game: dict,
    n_events: int,
    keys: LaptopKeys | None = None,
    body: Callable[[int], tuple[str, dict]] = _elimination,
) -> None:
    meta = {
        "schema": schema.LOG_SCHEMA,
        "kind": "game",
        "owner": keys.laptop_id if keys is not None else None,
        "game_id": game["id"],
        "field": game["field"],
        "start": game["start"],
        "team_a": game["team_a"],
        "team_b": game["team_b"],
    }
    docs = event_docs(n_events, body=body, keys=keys)
    events = {str(i + 1): d for i, d in enumerate(docs)}
    head = schema.head_of(meta, docs)
    data = {"meta": {"1": meta}, "head": {"1": head}, "events": events}
    atomic_write_bytes(path, lines.file_bytes(data, schema.LOG_SCHEMA))


def build(
    folder: Path, total_events: int, per_game: int = 250, legal: bool = False
) -> TournamentService:
    """A demo tournament plus enough scheduled games holding ``total_events`` events.
    ``legal``: each game's log is one the app could have written (the clock started,
    then paint checks of the second team's players, 24), not the filler eliminations of a
    team that does not exist (every one of which the rules refuse when the game is
    folded)."""
    t = create_demo(folder, day=DAY)
    teams = [x["id"] for x in t.teams()]
    n_games = max(1, total_events // per_game)
    start = datetime(2026, 6, 2, 0, 0)  # the day after the demo's games
    extra = []
    per_slot = len(teams) // 2
    for g in range(n_games):
        slot, k = divmod(g, per_slot)
        a, b = teams[2 * k], teams[2 * k + 1]
        # fields 10.. so the benchmark games never clash with the demo schedule
        extra.append(
            {
                "field": str(10 + k),
                "start": start + slot * timedelta(minutes=20),
                "team_a": a,
                "team_b": b,
            }
        )
    t.add_games(extra)
    demo_fields = {"1", "2"}
    for g in t.games():
        if g["field"] not in demo_fields:
            numbers = [int(p["number"]) for p in t.players(g["team_b"])]
            body = paint_checks(g["team_b"], numbers) if legal else _elimination
            write_game(t.game_path(g["id"]), g, per_game, t.keys, body=body)
    return t
