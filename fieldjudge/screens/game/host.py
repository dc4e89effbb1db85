"""What the game screen's action groups (checks, corrections, flags) may use of it: an
explicit interface instead of mixins that assume each other's attributes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from textual.app import App

from fieldjudge.rules.events import Event
from fieldjudge.screens.widgets.prompt import PromptPanel
from fieldjudge.services.paintball.game import GameSession


class GameHost(Protocol):
    """The game screen, as its action groups see it."""

    session: GameSession
    notice_text: str

    @property
    def app(self) -> App[Any]: ...

    @property
    def prompt(self) -> PromptPanel: ...

    def record(self, act: Callable[[], Event], done: str = "") -> bool:
        """Run one intent of the live game; show the refusal if any."""
        ...

    def with_second(
        self,
        team: str,
        offender: int,
        act: Callable[[int | None], Event],
        probe: Callable[[int], str | None],
        after: Callable[[Event], None] | None = None,
    ) -> None:
        """Run ``act``; ask for the second player of a group removal 1+1 (29.08) if needed."""
        ...

    def refuse(self, why: Any) -> None: ...

    def say(self, text: str) -> None: ...

    def refresh_all(self) -> None: ...

    def phase_refused(self, etype: str) -> bool: ...

    def ask_team(self, title: str, then: Callable[[str], None]) -> None: ...

    def ask_number(
        self,
        title: str,
        team: str,
        then: Callable[[int], None],
        validate: Callable[[int], str | None] | None = None,
    ) -> None: ...

    def humane(
        self, validate: Callable[[Any], str | None] | None
    ) -> Callable[[Any], str | None] | None: ...

    def label(self, team: str, number: int) -> str: ...

    def time_left(self) -> str: ...
