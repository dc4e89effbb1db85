"""The application layer and the only writer (DESIGN.md "Layers").

Open a tournament with :func:`open_tournament` (or :func:`create_tournament`); every change
goes through the :class:`TournamentService` it returns, or through the live game
(:class:`GameSession`) and the quidditch session built on it."""

from fieldjudge.services.opening import create_tournament, open_tournament
from fieldjudge.services.tournament import TournamentService
from fieldjudge.services.trust.authority import HeadJudge
from fieldjudge.store.errors import DamagedFile, FolderLocked, Refused, StoreError
from fieldjudge.store.tournament import TOURNAMENT_FILE, slugify

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
