"""The Textual application: holds the open tournament and routes between screens.

Build it with :func:`make_app` (shared by the CLI and the tests).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from fieldjudge import i18n
from fieldjudge.i18n import _
from fieldjudge.screens.dialogs.forms import MessageScreen
from fieldjudge.screens.dialogs.help import HelpScreen, describe_keys
from fieldjudge.services import TOURNAMENT_FILE, TournamentService, open_tournament
from fieldjudge.services.chrono import ChronoSession
from fieldjudge.store import DamagedFile, FolderLocked, StoreError

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
        wall: Callable[[], float] = time.time,
    ) -> None:
        super().__init__()
        self.data_dir = Path(data_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.initial_folder = tournament_folder
        self.tournament: TournamentService | None = None
        self.judge = judge
        self.monotonic = monotonic  # kept for the screens' timers
        self.wall = wall  # the clock of the head judge's secret attempts (logged, rate-limited)
        self.chrono = chrono or ChronoSession()  # the chronograph chosen in this run
        self.chrono_feeds: list[Any] = []  # chrono feeds on screen, newest last
        self.theme = "textual-dark"

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
            t = open_tournament(
                folder, startup_backup=False, monotonic=self.monotonic, wall=self.wall
            )
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
        except StoreError as exc:  # e.g. this laptop's key folder inside the tournament
            self.push_screen(MessageScreen(_("Cannot open the tournament"), str(exc)))
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

        t = self.tournament
        anchor = (
            t.anchor(exc.path.stem)
            if t is not None and t.folder == Path(folder) and exc.path.parent.name == "games"
            else None
        )
        self.push_screen(DamagedFileScreen(folder, exc, anchor))

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
        yield SystemCommand(_("Help"), _("Keys of this screen (F1)"), self.action_help)
        yield SystemCommand(
            _("Light / dark theme"), _("Switch theme (Ctrl+T)"), self.action_toggle_theme
        )
        for active in screen.active_bindings.values():
            b = active.binding
            if b.description and b.show and active.enabled and b.action not in ("help",):
                yield SystemCommand(
                    b.description, f"{self.get_key_display(b)}", _make_runner(screen, b.action)
                )
        yield SystemCommand(_("Quit"), _("Leave fieldjudge (Ctrl+Q)"), self.exit)


def _make_runner(screen: Screen, action: str):
    async def run() -> None:
        await screen.run_action(action)

    return run


def make_app(
    data_dir: Path,
    tournament_folder: Path | None = None,
    lang: str | None = None,
    judge: str = "",
    monotonic: Callable[[], float] = time.monotonic,
    wall: Callable[[], float] = time.time,
) -> FieldJudgeApp:
    """The one factory the CLI and the tests use."""
    i18n.set_language(lang)
    return FieldJudgeApp(Path(data_dir), tournament_folder, judge, monotonic, wall=wall)
