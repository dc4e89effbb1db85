"""Quidditch matches of the open tournament folder (issue 6): open one, start a new one.

A forum judge at home usually has no paintball tournament. ``open_quidditch`` then opens
(or creates) a tournament folder named ``quidditch`` in the data folder, which only holds
matches: the store keeps one file per match in ``<folder>/quidditch/``, and the folder lock,
backups and chain checks work as for any tournament. If a tournament is already open, its
folder is used, so a club that runs both sports keeps everything together.
"""

from __future__ import annotations

from datetime import date

from textual import on
from textual.widgets import DataTable, Static

from fieldjudge.i18n import _, rule_text
from fieldjudge.rules.quidditch.roster import MatchSetup
from fieldjudge.rules.quidditch.sample import sample_setup
from fieldjudge.screens import keymap
from fieldjudge.screens.dialogs.forms import Field, FormScreen, MessageScreen, Values
from fieldjudge.screens.quidditch.pane import TablePane
from fieldjudge.screens.quidditch.result import seed_message
from fieldjudge.screens.quidditch.round import RoundScreen
from fieldjudge.screens.quidditch.setup import MatchSetupScreen
from fieldjudge.services import (
    TOURNAMENT_FILE,
    DamagedFile,
    FolderLocked,
    StoreError,
    create_tournament,
    slugify,
)
from fieldjudge.services.quidditch import (
    QuidditchSession,
    SessionError,
    match_list,
    quidditch_folder,
)


def open_quidditch(app) -> None:
    """From the home screen: make sure a folder is open, then show the matches."""
    if app.tournament is None:
        folder = quidditch_folder(app.data_dir)  # --data-dir …/quidditch: that folder
        if (folder / TOURNAMENT_FILE).exists():
            if not app.open_tournament(folder):
                return
        else:
            try:
                t = create_tournament(folder, name=_("Quidditch matches"), day=date.today())
            except (FileExistsError, FolderLocked, DamagedFile, OSError) as exc:
                app.push_screen(MessageScreen(_("Cannot create the folder"), rule_text(exc)))
                return
            app.install_tournament(t)
    app.push_screen(MatchesScreen())


class MatchesScreen(TablePane):
    SCREEN_TITLE = "Quidditch matches"
    HELP_TEXT = (
        "Enter opens the highlighted match where it was left. n: a new match (teams, "
        "skills, feints, end condition; the server seed is made and its hash shown to "
        "publish). d: a demo match (Гриффиндор — Слизерин)."
    )
    BINDINGS = keymap.bindings("matches")
    TITLE_ID = "qm-title"
    TABLE_ID = "qm-matches"

    def on_mount(self) -> None:
        table = self.table
        table.add_columns(_("Match"), _("Teams"), _("Round"), _("Score"), _("State"))
        self.reload()
        table.focus()

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self) -> None:
        t = self.app.tournament
        self.table.clear()  # the cursor back on the first match
        if t is None:
            return
        rows = match_list(t)
        # the title is one line: with no match yet, the hint takes the folder's place
        # (after a long folder path it fell off an 80-column terminal)
        self.query_one("#qm-title", Static).update(
            f"{t.name} · {t.folder}"
            if rows
            else f"{t.name}  —  " + _("no matches yet: press n (or d for a demo)")
        )
        self.table.refill(
            (
                (
                    r["id"],
                    r["teams"],
                    str(r["round"]),
                    r["score"],
                    _("over") if r["ended"] else _("playing"),
                )
                for r in rows
            ),
            [r["id"] for r in rows],
        )

    @on(DataTable.RowSelected, "#qm-matches")
    def _chosen(self, event: DataTable.RowSelected) -> None:
        self.open_match(str(event.row_key.value))

    def action_open(self) -> None:
        match_id = self.table.cursor_key()
        if match_id is None:
            self.notify(_("No match to open"), severity="warning", markup=False)
            return
        self.open_match(match_id)

    def open_match(self, match_id: str, show_hash: bool = False) -> None:
        try:
            session = QuidditchSession.open(self.app.tournament, match_id)
        except DamagedFile as exc:
            self.app.show_damaged(self.app.tournament.folder, exc)
            return
        except (SessionError, StoreError, KeyError, ValueError) as exc:
            self.app.push_screen(MessageScreen(_("Cannot open the match"), rule_text(exc)))
            return
        self.app.push_screen(RoundScreen(session))
        if show_hash:
            self.app.copy_to_clipboard(session.seed_hash)
            self.app.push_screen(seed_message(session))

    def start(self, setup: MatchSetup | None) -> None:
        if setup is None:
            return
        try:
            QuidditchSession.create(self.app.tournament, setup, judge=self.app.judge)
        except (SessionError, StoreError, OSError) as exc:
            self.app.push_screen(MessageScreen(_("Cannot start the match"), rule_text(exc)))
            return
        self.reload()
        self.open_match(setup.match_id, show_hash=True)

    def action_new_match(self) -> None:
        self.app.push_screen(MatchSetupScreen(), self.start)

    def action_demo_match(self) -> None:
        taken = set(self.app.tournament.matches())

        def check(v: Values) -> str | None:
            if not v["id"]:
                return _("The match needs a name")
            if slugify(v["id"]) in taken:
                return _("A match with this name exists")
            return None

        def done(v: Values | None) -> None:
            if v is not None:
                self.start(sample_setup(slugify(v["id"]), client_seed=v["client"]))

        n = 1
        while f"demo-{n}" in taken:
            n += 1
        fields = [Field("id", _("Match name"), f"demo-{n}"), Field("client", _("Client seed"))]
        title = _("Demo match: Гриффиндор — Слизерин")
        self.app.push_screen(FormScreen(title, fields, check), done)
