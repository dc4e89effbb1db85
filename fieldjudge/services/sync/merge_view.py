"""What a merge conflict is about, for the head judge who chooses (issue 12, item 16): the game
(teams, time, field), how far the two copies agree, the events each added after that, and
the result each copy gives. Read-only; the choice itself is ``merge.resolve``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fieldjudge.rules.events import Event
from fieldjudge.services.paintball import results
from fieldjudge.services.sync.merge import conflicts
from fieldjudge.services.tournament import TournamentService
from fieldjudge.store import DamagedFile, bundle


@dataclass(frozen=True)
class ConflictView:
    path: Path  # the other copy, in conflicts/
    kind: str  # "games" | "quidditch"
    log_id: str
    game: dict[str, Any] | None  # the schedule entry (None: not in this schedule)
    names: dict[str, str]  # team id -> name
    common: int  # events both copies share
    ours: list[Event]  # this laptop's events after the common ones
    theirs: list[Event]  # the other copy's
    our_view: Any = None  # results.GameView of each copy (games only; None if not computable)
    their_view: Any = None
    fault: str = ""  # the other copy is damaged: why


def _view(t: TournamentService, game_id: str, events: list[Event]) -> Any:
    try:
        return results.view_from_events(t, game_id, events, results.setup_for(t, game_id))
    except Exception:  # noqa: BLE001 - a copy the engine refuses still shows its events
        return None


def describe_conflict(t: TournamentService, path: Path) -> ConflictView:
    path = Path(path)
    kind = path.parent.name
    log_id = path.name.split("--")[0]
    game = t.game(log_id) if kind == "games" else None
    names = t.team_names()
    try:
        theirs = [Event.from_doc(e) for e in bundle.read_log_file(path)["events"]]
    except DamagedFile as exc:
        return ConflictView(path, kind, log_id, game, names, 0, [], [], fault=exc.fault)
    ours_path = t.folder / kind / f"{log_id}.json"
    ours: list[Event] = []
    if ours_path.exists():
        log = t.game_log(log_id) if kind == "games" else t.store.match_log(log_id)
        ours = list(log.events)
    pairs = zip(ours, theirs, strict=False)  # how far the two copies agree, by hash
    k = next((i for i, (a, b) in enumerate(pairs) if a.hash != b.hash), min(len(ours), len(theirs)))
    our_view = their_view = None
    if kind == "games" and game is not None:
        our_view = _view(t, log_id, ours)
        their_view = _view(t, log_id, theirs)
    return ConflictView(
        path, kind, log_id, game, names, k, ours[k:], theirs[k:], our_view, their_view
    )


def all_conflicts(t: TournamentService) -> list[ConflictView]:
    return [describe_conflict(t, p) for p in conflicts(t)]
