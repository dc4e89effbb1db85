"""The Textual application: holds the open tournament and routes between screens.

Build it with :func:`make_app` (shared by the CLI and the tests).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.screen import Screen

from fieldjudge import i18n
from fieldjudge.i18n import _
from fieldjudge.screens.dialogs.forms import MessageScreen
from fieldjudge.screens.dialogs.help import HelpScreen, describe_keys
from fieldjudge.screens.keyrouting import KeyDone, KeyRouter
from fieldjudge.screens.palette import JudgePalette, iter_commands
from fieldjudge.services import TOURNAMENT_FILE, TournamentService, open_tournament
from fieldjudge.services.chrono import ChronoSession
from fieldjudge.store import DamagedFile, FolderLocked

STARTUP_BACKUP_DELAY_S = 1.0


class FieldJudgeApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "fieldjudge"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("ctrl+t", "toggle_theme", "Theme", show=False),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(
        self,
        data_dir: Path,
        tournament_folder: Path | None = None,
        judge: str = "",
        monotonic: Callable[[], float] = time.monotonic,
        chrono: ChronoSession | None = None,
    ) -> None:
        super().__init__()
        self.data_dir = Path(data_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.initial_folder = tournament_folder
        self.tournament: TournamentService | None = None
        self.judge = judge
        self.monotonic = monotonic  # the head judge's PIN gate counts on this clock
        self.chrono = chrono or ChronoSession()  # the chronograph chosen in this run
        self.chrono_feeds: list[Any] = []  # chrono feeds on screen, newest last
        self.theme = "textual-dark"
        self.keys = KeyRouter(
            lambda: self.screen,
            self._deliver_key,
            lambda delay, callback: (
                self.set_timer(delay, callback) if delay > 0 else self.call_later(callback)
            ),
            self.monotonic,
            self._key_swallowed,
        )

    # -- lifecycle ----------------------------------------------------------------------
    def get_default_screen(self) -> Screen:
        """The home screen is the base of the stack (no extra screen switch at startup)."""
        from fieldjudge.screens.home import HomeScreen

        return HomeScreen()

    def on_mount(self) -> None:
        self.show_subtitle()
        if self.initial_folder is not None:
            self.open_tournament(self.initial_folder)

    def on_unmount(self) -> None:
        self.close_tournament()

    # -- tournaments --------------------------------------------------------------------
    def tournament_folders(self) -> list[Path]:
        found = [p.parent for p in self.data_dir.glob(f"*/{TOURNAMENT_FILE}")]
        if (self.data_dir / TOURNAMENT_FILE).exists():
            found.append(self.data_dir)
        return sorted(found)

    def open_tournament(self, folder: Path) -> bool:
        folder = Path(folder)
        if self.tournament is not None and self.tournament.folder == folder:
            return True
        self.close_tournament()
        try:
            t = open_tournament(folder, startup_backup=False, monotonic=self.monotonic)
        except FolderLocked as exc:
            self.push_screen(
                MessageScreen(
                    _("Tournament is open elsewhere"),
                    _("This tournament is already open in another fieldjudge on this laptop")
                    + f"\n({exc.holder}).\n\n"
                    + _(
                        "Close the other window first: two programs writing one folder can lose results."
                    ),
                )
            )
            return False
        except DamagedFile as exc:
            self.show_damaged(folder, exc)
            return False
        self.install_tournament(t)
        return True

    def install_tournament(self, t: TournamentService) -> None:
        self.tournament = t
        self.show_subtitle()
        self.refresh_home()
        # The startup backup (files changed since their newest copy) runs a moment after
        # the home screen is drawn, so a judge sees the schedule first.
        self.set_timer(STARTUP_BACKUP_DELAY_S, lambda: self._startup_backup(t))

    def _startup_backup(self, t: TournamentService) -> None:
        if self.tournament is t:
            try:
                t.backup_all(only_if_changed=True)
            except OSError as exc:
                self.notify(_("Backup failed") + f": {exc}", severity="error", timeout=10)

    def close_tournament(self) -> None:
        if self.tournament is not None:
            self.tournament.close()
            self.tournament = None
            self.show_subtitle()

    def show_subtitle(self) -> None:
        """The open tournament and the judge whose name goes with every event."""
        parts = [self.tournament.name] if self.tournament is not None else []
        parts.append(_("judge: {name}").format(name=self.judge or "—"))
        self.sub_title = " · ".join(parts)

    def set_judge(self, name: str) -> None:
        self.judge = name.strip()
        self.show_subtitle()

    def show_damaged(self, folder: Path, exc: DamagedFile) -> None:
        from fieldjudge.screens.dialogs.damaged import DamagedFileScreen

        self.push_screen(DamagedFileScreen(folder, exc))

    def refresh_home(self) -> None:
        from fieldjudge.screens.home import HomeScreen

        for screen in self.screen_stack:
            if isinstance(screen, HomeScreen):
                screen.reload()

    # -- navigation ---------------------------------------------------------------------
    def open_game(self, game_id: str) -> None:
        """Open the live game screen for a scheduled game."""
        from fieldjudge.screens.game.screen import GameScreen

        assert self.tournament is not None
        try:
            self.push_screen(GameScreen(self.tournament, game_id))
        except DamagedFile as exc:
            self.show_damaged(self.tournament.folder, exc)

    # -- keys: none lost, none misrouted (screens/keyrouting.py) -------------------------
    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            await self.keys.route(event)
            return
        await super().on_event(event)

    async def _deliver_key(self, event: events.Key):
        """Textual's own delivery; returns the node the key was handed to, if any."""
        await super().on_event(event)
        return (self.focused or self.screen) if event.is_forwarded else None

    def on_key_done(self, message: KeyDone) -> None:
        self.keys.done(message)

    def _key_swallowed(self, event: events.Key) -> None:
        self.notify(
            _("Key {key} ignored: the dialog had just closed").format(
                key=event.character or event.key
            ),
            timeout=2,
        )

    def pop_screen(self):  # type: ignore[override]
        result = super().pop_screen()
        self.keys.screen_closed(self.screen)
        return result

    def action_command_palette(self) -> None:
        """Ctrl+P: the actions of this screen, in the UI language."""
        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(JudgePalette(placeholder=_("Search for commands…")))

    # -- global actions -----------------------------------------------------------------
    def action_help(self) -> None:
        screen = self.screen
        if isinstance(screen, HelpScreen):
            return
        title = getattr(screen, "SCREEN_TITLE", "") or screen.__class__.__name__
        self.push_screen(
            HelpScreen(_(title), describe_keys(screen), _(getattr(screen, "HELP_TEXT", "") or ""))
        )

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.theme == "textual-dark" else "textual-dark"

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Every action of the current screen (aliases once), then the app's own."""
        for a in iter_commands(screen):
            yield SystemCommand(a.title, a.key, _make_runner(a.node, a.action))


def _make_runner(node: Any, action: str):
    async def run() -> None:
        await node.run_action(action)

    return run


def make_app(
    data_dir: Path,
    tournament_folder: Path | None = None,
    lang: str | None = None,
    judge: str = "",
    monotonic: Callable[[], float] = time.monotonic,
) -> FieldJudgeApp:
    """The one factory the CLI and the tests use."""
    i18n.set_language(lang)
    return FieldJudgeApp(Path(data_dir), tournament_folder, judge, monotonic)
