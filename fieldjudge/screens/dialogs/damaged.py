"""A damaged file: say which file and what is wrong, offer the newest good backup.

The damaged file is never overwritten; restoring moves it to ``damaged/`` first."""

from __future__ import annotations

from pathlib import Path

from fieldjudge.i18n import _, rule_text
from fieldjudge.screens import keymap
from fieldjudge.screens.dialogs.forms import TextDialog
from fieldjudge.services import DamagedFile
from fieldjudge.services.recovery import good_backup, restore_backup


class DamagedFileScreen(TextDialog[None]):
    BINDINGS = keymap.bindings("damaged_file")

    def __init__(
        self, folder: Path, error: DamagedFile, anchor: tuple[int, str] | None = None
    ) -> None:
        # anchor: the manifest's head of a game, which a backup must reach to be offered first
        backup = good_backup(Path(folder), error.path, anchor)
        body = f"{error.path}\n\n{_('Fault')}: {rule_text(error.fault)}\n\n"
        body += _("The file has not been changed or moved.") + "\n"
        if backup:
            body += _("Newest good backup") + f": {backup.name}\n"
            body += _("r: move the damaged file to damaged/ and restore this backup")
        else:
            body += _("No good backup was found: call the head judge.")
        keys = _("r: restore   Esc: close") if backup else _("Esc: close")  # r: nothing to restore
        super().__init__(_("Damaged file"), body, keys)
        self.folder = Path(folder)
        self.error = error
        self.backup = backup

    def action_restore(self) -> None:
        if not self.backup:
            self.notify(_("No good backup to restore"), severity="error", markup=False)
            return
        aside = restore_backup(self.folder, self.error.path, self.backup)
        self.notify(_("Restored; the damaged file is kept at") + f" {aside}", markup=False)
        self.dismiss(None)
        if self.error.path.name == "tournament.json":
            self.app.open_tournament(self.folder)
