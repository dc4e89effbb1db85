"""The application layer and the only writer (DESIGN.md "Layers").

Open a tournament with :func:`open_tournament` (or :func:`create_tournament`); every change
goes through the :class:`TournamentService` it returns, or through the live game
(:class:`GameSession`) and the quidditch session built on it. A reader (an export, the
results CLI) opens a :class:`TournamentView` with :func:`open_view`: no write method."""

from fieldjudge.services.opening import create_tournament, open_tournament, open_view
from fieldjudge.services.tournament import TournamentService, TournamentView
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
    "TournamentView",
    "create_tournament",
    "open_tournament",
    "open_view",
]
