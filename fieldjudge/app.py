"""The Textual application: holds the open tournament and routes between screens.

Build it with :func:`make_app` (shared by the CLI and the tests).
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any

from textual import events, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.screen import Screen
from textual.theme import Theme

from fieldjudge import i18n
from fieldjudge.i18n import _
from fieldjudge.screens.bell import GameBell
from fieldjudge.screens.dialogs.damaged import DamagedFileScreen
from fieldjudge.screens.dialogs.forms import ConfirmScreen, MessageScreen
from fieldjudge.screens.dialogs.help import HelpScreen
from fieldjudge.screens.dialogs.pit import PitPanel
from fieldjudge.screens.game.screen import GameScreen
from fieldjudge.screens.home import HomeScreen
from fieldjudge.screens.keymap import all_binding_ids
from fieldjudge.screens.keys import binding_for
from fieldjudge.screens.palette import JudgeCommands, screen_actions
from fieldjudge.serve.addresses import DEFAULT_PORT, LAN_HOST
from fieldjudge.serve.process import PitNotStarted, PitProcess
from fieldjudge.services import (
    TOURNAMENT_FILE,
    DamagedFile,
    FolderLocked,
    Refused,
    StoreError,
    TournamentService,
    open_tournament,
)
from fieldjudge.services.laptop import LaptopSettings, load_keymap
from fieldjudge.services.paintball.chrono import ChronoSession
from fieldjudge.services.paintball.game import GameSession
from fieldjudge.services.paintball.live import game_number, running_game_of_laptop
from fieldjudge.services.sync.syncthing import Rescan, SyncStatusProvider, rescan_for

STARTUP_BACKUP_DELAY_S = 1.0
#: the startup backup waits at most this long for the home screen's states
BACKUP_WAITS_FOR_STATES_S = 30.0
# Textual's key names as a keyboard prints them (the footer, F1 and the palette show them).
KEY_NAMES = {"esc": "Esc", "space": "Space", "tab": "Tab", "shift+tab": "Shift+Tab"}
#: ...and those a Russian keyboard prints in Latin letters too (never translated: "Home"
#: is also the home screen's title in the catalog)
KEY_CAPS = {"home": "Home", "end": "End", "pgup": "PgUp", "pgdn": "PgDn", "delete": "Del"}
THEMES = ("textual-dark", "textual-light", "fieldjudge-sun")
SUN_THEME = Theme(
    # Sunlight: black on white, saturated accents, no translucent greys (issue 12, item 18).
    name="fieldjudge-sun",
    primary="#0033CC",
    secondary="#000000",
    accent="#B00000",
    warning="#8A4B00",
    error="#C00000",
    success="#006400",
    foreground="#000000",
    background="#FFFFFF",
    surface="#FFFFFF",
    panel="#DDDDDD",
    boost="#000000",
    dark=False,
    variables={
        "text-muted": "#000000",
        "footer-key-foreground": "#0033CC",
        "footer-description-foreground": "#000000",
        "footer-background": "#DDDDDD",
        "block-cursor-background": "#0033CC",
        "block-cursor-foreground": "#FFFFFF",
        "input-selection-background": "#0033CC 40%",
    },
)


class FieldJudgeApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "fieldjudge"
    COMMANDS = {JudgeCommands}  # the screen's actions, "no matches" in the UI language
    BINDINGS = [
        Binding("f1", "help", "Help", id="app.help", show=False),  # home: "F1 all keys"
        Binding(
            "ctrl+t",
            "toggle_theme",
            "Theme",
            show=False,
            id="app.theme",
            tooltip="Theme: dark, light, sunlight (high contrast)",
        ),
        Binding(
            "ctrl+b",
            "toggle_bell",
            "Bell",
            show=False,
            id="app.bell",
            tooltip="Bell at one minute left and at Time! on/off",
        ),
        Binding("ctrl+q", "quit", "Quit", priority=True, id="app.quit"),
    ]

    def __init__(
        self,
        data_dir: Path,
        tournament_folder: Path | None = None,
        judge: str = "",
        chrono: ChronoSession | None = None,
        laptop: LaptopSettings | None = None,
        pit_port: int | None = None,
        sync_provider: Callable[[Path], SyncStatusProvider] | None = None,
        wall: Callable[[], float] = time.time,
        rescan: Callable[[Path], Rescan] | None = None,
        exporter: Callable[..., list[Path]] | None = None,
    ) -> None:
        super().__init__()
        self.data_dir = Path(data_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.initial_folder = tournament_folder
        self._offer_running = False  # a running game to offer once the states are known
        self._states_known = asyncio.Event()  # the home screen shows every game's state
        # the game whose screen was opened last: the home screen's games list comes back
        # on it, focused, when that screen closes (issue 25, item 8)
        self.game_left: str | None = None
        self.tournament: TournamentService | None = None
        self.wall = wall  # the clock of the head judge's secret attempts (logged, rate-limited)
        self._chrono = chrono  # the chronograph chosen in this run (made on first use)
        self.chrono_feeds: list[Any] = []  # chrono feeds on screen, newest last
        self.laptop = laptop if laptop is not None else LaptopSettings.load()
        # 31: who judges here is kept per laptop; ``--judge`` sets it (saved in set_judge)
        self.judge = judge.strip() or self.laptop.judge
        self.register_theme(SUN_THEME)
        self.theme = self.laptop.theme if self.laptop.theme in THEMES else "textual-dark"
        self.pit_port = pit_port
        self._sync_provider = sync_provider  # the home screen's status line polls one
        # asks Syncthing to send each game file this laptop appended to at once (issue 22)
        self._rescan_for = rescan or rescan_for
        self._rescan: Rescan | None = None
        self._pit: PitProcess | None = None  # the pit display's process while it runs
        self._pit_lan = False  # served on the venue network (the judge's choice)
        self._bells: dict[str, GameBell] = {}
        # games whose screen the judge left while they were in play: their clock runs on
        # and they still end at 0:00 (``tick_left_games``) until their screen opens again
        self._left_games: dict[str, GameSession] = {}
        self.bells_rung: list[str] = []  # why the bell rang, in order (minute, time)
        # what the export dialog runs: the exports sit above the app, so the command that
        # starts the app gives it (None: this app makes no export)
        self.exporter = exporter

    @property
    def chrono(self) -> ChronoSession:
        """The chronograph chosen in this run (looked up when a chrono screen asks)."""
        if self._chrono is None:
            self._chrono = ChronoSession()
        return self._chrono

    def sync_provider(self) -> Callable[[Path], SyncStatusProvider]:
        """What makes the status a folder's sync line polls (Syncthing's by default); the
        home screen's worker calls it (it touches no widget)."""
        return self._sync_provider or SyncStatusProvider

    # -- lifecycle ----------------------------------------------------------------------
    def get_default_screen(self) -> Screen:
        """The home screen is the base of the stack (no extra screen switch at startup)."""
        return HomeScreen()

    def on_mount(self) -> None:
        if self.judge != self.laptop.judge:  # --judge: remembered on this laptop
            self.set_judge(self.judge)
        self.show_subtitle()
        self.load_keymap()
        self.set_interval(1.0, self.tick_left_games)
        if self.initial_folder is not None:
            # after a restart (a crash): the game this laptop was running is offered again
            # once the home screen knows every game's state (``home_states_known``)
            self._offer_running = True
            if not self.open_tournament(self.initial_folder):
                self._offer_running = False

    def on_unmount(self) -> None:  # the pit display stops with the tournament
        # the screens are torn down: a new sub-title would reach headers whose title
        # widgets are gone (Textual's Header then raises NoMatches on the way out)
        self.close_tournament(retitle=False)

    # -- this laptop: keys, theme, bell, field (services/laptop.py) ------------------------
    def load_keymap(self) -> None:
        """The judge's keymap file: valid entries applied, the others named once."""
        km = load_keymap(all_binding_ids())
        self.set_keymap(km.keys)
        reasons = {
            "reserved": _("{id}: {key} is reserved (Ctrl+Q, F1, Ctrl+P and Esc stay)"),
            "unknown": _("{id}: no such binding id (F1 lists them)"),
            "bad": _("{id}: {keys} is not a key"),
            "file": _("the keymap file cannot be read: {detail}"),
        }
        lines = [
            reasons[p.reason].format(id=p.binding_id, key=p.detail, keys=p.keys, detail=p.detail)
            for p in km.problems
        ]
        if lines:
            self.notify(
                "\n".join(lines),
                title=_("Keymap {path}: not applied").format(path=km.path),
                severity="error",
                timeout=20,
                markup=False,
            )

    def _save_laptop(self) -> None:
        try:
            self.laptop.save()
        except OSError as exc:
            self.notify(
                _("Cannot save this laptop's settings") + f": {exc}", severity="error", markup=False
            )

    def set_laptop_field(self, field: str) -> None:
        self.laptop.field = field.strip()
        self._save_laptop()

    def game_bell(self, session: Any) -> None:
        """Ring the terminal bell at one minute left and when play stops (a setting)."""
        bell = self._bells.setdefault(session.game_id, GameBell())
        reason = bell.due(session.state.phase, session.remaining_ms())
        if reason and self.laptop.bell:
            self.bells_rung.append(reason)
            self.bell()

    def game_left_in_play(self, session: GameSession) -> None:
        """The judge left the screen of a game still in play (Esc, to the standings, say):
        its clock runs on, and the game ends at 0:00 as it does on its screen, so the pit
        display and the head judge see it over in time (and the bell still rings at one
        minute left), until its screen is opened again."""
        st = session.state
        if session.tournament is not self.tournament or not st.clock.started or st.ended:
            return  # the tournament closed (the app quitting), or nothing left to end
        try:
            mine = session.tournament.game_write_refusal(session.game_id) is None
        except StoreError:  # its file is gone or damaged: its screen says so when opened
            mine = False
        if mine:  # another laptop's game ends on that laptop
            self._left_games[session.game_id] = session

    def game_screen_opened(self, game_id: str) -> None:
        """The game's own screen keeps its clock from now on."""
        self._left_games.pop(game_id, None)

    def tick_left_games(self) -> None:
        """Once a second: each left game ends at 0:00 as its screen would end it."""
        for game_id, session in list(self._left_games.items()):
            if session.tournament is not self.tournament:  # its tournament was closed
                del self._left_games[game_id]
                continue
            try:
                end = session.tick()
            except Refused as exc:  # e.g. the head judge locked it meanwhile
                del self._left_games[game_id]
                self.notify(session.humanize(exc), severity="error", markup=False)
                continue
            self.game_bell(session)
            if end is None and not session.state.ended:
                continue
            del self._left_games[game_id]
            self.refresh_home()
            if end is not None:
                a, b = session.teams
                self.notify(
                    _("Time ran out: game «{a} — {b}» is over (0:00)").format(
                        a=session.team_name(a), b=session.team_name(b)
                    ),
                    markup=False,
                )

    def action_toggle_bell(self) -> None:
        self.laptop.bell = not self.laptop.bell
        self._save_laptop()
        self.notify(_("Bell on") if self.laptop.bell else _("Bell off"), markup=False)

    # -- the pit display (issue 14) --------------------------------------------------------
    def pit_running(self) -> bool:
        return self._pit is not None and self._pit.running

    def pit_starting(self) -> bool:
        """Started, not listening yet (it reads the whole tournament first)."""
        return self._pit is not None and not self._pit.ready

    def pit_url(self) -> str:
        """The address to type on the TV or phone ("" when stopped, or when the laptop has
        no network address while serving the venue network)."""
        return self._pit.shown if self._pit is not None and self._pit.running else ""

    def pit_qr(self) -> str:
        """The QR code of :meth:`pit_url` (made by the pit's process), "" without one."""
        return self._pit.qr if self._pit is not None and self._pit.running else ""

    def start_pit(self, lan: bool = False) -> None:
        """Serve the open tournament's pit display, in a process of its own: on this
        laptop only (127.0.0.1), or on the venue network when the judge chooses it
        (``lan``). Its panel shows once it listens (:meth:`_pit_ready`); the judge goes on
        judging meanwhile."""
        if self.tournament is None:
            return
        if self.pit_running() and lan == self._pit_lan:
            self.push_screen(PitPanel(self.pit_url()))
            return
        self.stop_pit()
        port = DEFAULT_PORT if self.pit_port is None else self.pit_port
        host = LAN_HOST if lan else "127.0.0.1"
        try:  # the next free port when this one is taken, and the note that says so
            pit = PitProcess.launch(Path(self.tournament.folder), host, port)
        except PitNotStarted as exc:
            self._pit_failed(None, str(exc))
            return
        self._pit, self._pit_lan = pit, lan
        self.notify(_("Starting the pit display…"), markup=False)
        self._wait_for_pit(pit)

    @work(thread=True, exclusive=True, group="pit", exit_on_error=False)
    def _wait_for_pit(self, pit: PitProcess) -> None:
        """Waits for the pit's line (a blocking read with a deadline); touches no widget."""
        try:
            pit.wait_ready()
        except PitNotStarted as exc:
            if self._pit is pit:  # not stopped by the judge meanwhile
                self.call_from_thread(self._pit_failed, pit, str(exc))
            return
        if self._pit is pit:
            self.call_from_thread(self._pit_ready, pit)

    def _pit_ready(self, pit: PitProcess) -> None:
        if self._pit is not pit:  # stopped (or started again) meanwhile
            return
        if pit.moved:
            self.notify(pit.moved, timeout=10, markup=False)
        self._show_pit_line()
        if isinstance(self.screen, HomeScreen):
            self.push_screen(PitPanel(self.pit_url()))
        else:  # the judge went on to judge: the address, without covering the screen
            self.notify(
                _("Pit display: {url}").format(url=self.pit_url() or "—"), timeout=10, markup=False
            )

    def _pit_failed(self, pit: PitProcess | None, why: str) -> None:
        if self._pit is pit:
            self._pit = None
        self.notify(
            _("Pit display not started") + f": {why}", severity="error", timeout=10, markup=False
        )
        self._show_pit_line()

    def _show_pit_line(self) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, HomeScreen):
                screen.show_pit()

    def pit_on_lan(self) -> bool:
        return self.pit_running() and self._pit_lan

    def stop_pit(self) -> None:
        if self._pit is not None:
            self._pit.stop()
            self._pit = None

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
            self._rescan = self._rescan_for(folder)
            t = open_tournament(
                folder,
                startup_backup=False,
                wall=self.wall,
                on_written=self._rescan.written,
            )
        except FolderLocked as exc:
            why = _("This tournament is already open in another fieldjudge on this laptop")
            why += f"\n({exc.holder}).\n\n" + _(
                "Close the other window first: two programs writing one folder can lose results."
            )
            self.push_screen(MessageScreen(_("Tournament is open elsewhere"), why))
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
        # the home screen shows every game's state, so a judge sees the schedule first.
        self._states_known.clear()
        self.set_timer(STARTUP_BACKUP_DELAY_S, lambda: self._startup_backup(t))

    @work(exclusive=True, group="startup-backup")
    async def _startup_backup(self, t: TournamentService) -> None:
        """A file at a time on the app's thread (the store is never touched by another),
        giving the event loop back between two files: the first start of a copied folder
        copies every game file, and keys and frames go on meanwhile instead of waiting for
        the whole folder. It waits for the home screen's states first (at most
        :data:`BACKUP_WAITS_FOR_STATES_S`): both read every game file, and each copy is
        an fsync that would hold the states back."""
        try:
            await asyncio.wait_for(self._states_known.wait(), BACKUP_WAITS_FOR_STATES_S)
        except TimeoutError:
            pass  # no home screen filling its states: copy now
        try:
            for _file in t.backup_steps():
                await asyncio.sleep(0)
                if self.tournament is not t:
                    return  # closed meanwhile: the next start copies the rest
        except OSError as exc:
            self.notify(_("Backup failed") + f": {exc}", severity="error", timeout=10, markup=False)

    def close_tournament(self, retitle: bool = True) -> None:
        self.stop_pit()
        if self._rescan is not None:
            self._rescan.close()
            self._rescan = None
        if self.tournament is not None:
            self.tournament.close()
            self.tournament = None
            if retitle:
                self.show_subtitle()

    def show_subtitle(self) -> None:
        """The open tournament and the judge whose name goes with every event."""
        parts = [self.tournament.name] if self.tournament is not None else []
        parts.append(_("judge: {name}").format(name=self.judge or "—"))
        self.sub_title = " · ".join(parts)

    def set_judge(self, name: str) -> None:
        """Who judges on this laptop from now on (31): recorded with every event and
        remembered in the laptop's settings across restarts."""
        self.judge = name.strip()
        if self.laptop.judge != self.judge:
            self.laptop.judge = self.judge
            self._save_laptop()
        self.show_subtitle()

    def show_damaged(self, folder: Path, exc: DamagedFile) -> None:
        t = self.tournament
        anchor = (
            t.anchor(exc.path.stem)
            if t is not None and t.folder == Path(folder) and exc.path.parent.name == "games"
            else None
        )
        self.push_screen(DamagedFileScreen(folder, exc, anchor))

    def refresh_home(self) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, HomeScreen):
                screen.reload()

    # -- navigation ---------------------------------------------------------------------
    def home_states_known(self) -> None:
        """The home screen shows every game's state: the summaries are current, so the
        running game of this laptop is found without folding any game (at most once)."""
        self._states_known.set()
        if self._offer_running:
            self._offer_running = False
            self.offer_running_game()

    def offer_running_game(self) -> None:
        """A game of this laptop still in play (the app stopped mid-game): Enter reopens
        it, Esc stays on the home screen (as a scoreboard reopens its current game)."""
        t = self.tournament
        if t is None or not isinstance(self.screen, HomeScreen):
            return  # the judge went on already (or a dialog is up): nothing is offered
        game_id = running_game_of_laptop(t)
        g = t.game(game_id) if game_id is not None else None
        if game_id is None or g is None:
            return
        names = t.team_names()
        question = _("Game «{a} — {b}» (№{n}, field {field}) is in play. Reopen it?").format(
            a=names.get(g["team_a"], g["team_a"]),
            b=names.get(g["team_b"], g["team_b"]),
            n=game_number(t, game_id),
            field=g["field"],
        )

        def done(yes: bool | None) -> None:
            if yes and self.tournament is t:
                self.open_game(game_id)

        self.push_screen(ConfirmScreen(question), done)

    def open_game(self, game_id: str) -> None:
        """Open the live game screen for a scheduled game."""
        assert self.tournament is not None
        try:
            self.push_screen(GameScreen(self.tournament, game_id, self.judge))
            self.game_left = game_id
        except DamagedFile as exc:
            self.show_damaged(self.tournament.folder, exc)

    # -- keys: the Russian layout (screens/keys.py) ---------------------------------------
    async def on_key(self, event: events.Key) -> None:
        """A key no binding and no text field took: a letter typed on the Russian layout
        acts as the key in its place on the Latin one (``е`` is ``t``). A text field keeps
        its letters (it stops the key before it reaches the app)."""
        if event.key in self.screen.active_bindings:
            return  # Textual runs it (a Cyrillic key of the judge's keymap)
        active = binding_for(self.screen, event)
        if active is not None and active.enabled:
            event.prevent_default()
            await self.run_action(active.binding.action, active.node)

    def action_command_palette(self) -> None:
        """Ctrl+P: the actions of this screen (``COMMANDS`` is :class:`JudgeCommands`), with
        the placeholder in the UI language."""
        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(CommandPalette(placeholder=_("Search for commands…")))

    def get_key_display(self, binding: Binding) -> str:
        """Key names as printed on a keyboard, in the UI language (Esc, Пробел, Enter)."""
        shown = super().get_key_display(binding)
        if re.fullmatch(r"f\d{1,2}", shown):
            return shown.upper()
        ctrl, key = ("^", shown[1:]) if shown.startswith("^") else ("", shown)  # ^pgup
        if key in KEY_CAPS:
            return ctrl + KEY_CAPS[key]
        return _(KEY_NAMES.get(shown, shown)) if shown in KEY_NAMES else shown

    # -- global actions -----------------------------------------------------------------
    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))

    def action_toggle_theme(self) -> None:
        """Dark, light, sunlight (high contrast); remembered on this laptop."""
        i = THEMES.index(self.theme) if self.theme in THEMES else -1
        self.theme = THEMES[(i + 1) % len(THEMES)]
        self.laptop.theme = self.theme
        self._save_laptop()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Every enabled action of the current screen (aliases once), then the app's own."""
        for a in screen_actions(screen):
            if a.enabled:
                yield SystemCommand(a.title, a.key, partial(a.node.run_action, a.action))


def make_app(
    data_dir: Path,
    tournament_folder: Path | None = None,
    lang: str | None = None,
    judge: str = "",
    **kwargs: Any,
) -> FieldJudgeApp:
    """The one factory the CLI and the tests use (``wall=``: the clock of the head judge's
    secret attempts)."""
    i18n.set_language(lang)
    return FieldJudgeApp(Path(data_dir), tournament_folder, judge, **kwargs)
