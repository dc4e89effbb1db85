"""The application layer and the only writer (DESIGN.md "Layers").

Open a tournament with :func:`open_tournament` (or :func:`create_tournament`); every change
goes through the :class:`TournamentService` it returns, or through the live game
(:class:`GameSession`) and the quidditch session built on it."""

from typing import TYPE_CHECKING, Any

from fieldjudge.services.opening import create_tournament, open_tournament
from fieldjudge.services.tournament import TournamentService
from fieldjudge.store.errors import DamagedFile, FolderLocked, Refused, StoreError
from fieldjudge.store.tournament import TOURNAMENT_FILE, slugify

if TYPE_CHECKING:
    from fieldjudge.services.trust.authority import HeadJudge


def __getattr__(name: str) -> Any:
    """``HeadJudge`` on first use: the authority's rule engines are not needed to open a
    tournament and show its schedule (the app's first frame)."""
    if name == "HeadJudge":
        from fieldjudge.services.trust.authority import HeadJudge

        return HeadJudge
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# The store's typed errors, as the screens see them: a refusal (citing its rule) or a
# damaged/locked folder. Screens import them from here; they never import the store.
__all__ = [
    "TOURNAMENT_FILE",
    "DamagedFile",
    "FolderLocked",
    "Refused",
    "StoreError",
    "slugify",
    "HeadJudge",
    "TournamentService",
    "create_tournament",
    "open_tournament",
]
