"""After a resolution: every roll and outcome of the round, then the Russian post (issue 6);
and the seed hash message the judge publishes before round 1."""

from __future__ import annotations

import re

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Header, Static

from fieldjudge.i18n import _
from fieldjudge.rules.quidditch.outcome import Outcome
from fieldjudge.rules.quidditch.roster import MatchSetup
from fieldjudge.screens import keymap
from fieldjudge.screens.base import JudgeScreen
from fieldjudge.screens.dialogs.forms import MessageScreen
from fieldjudge.screens.quidditch.labels import outcome_label
from fieldjudge.screens.widgets.footer import Footer
from fieldjudge.screens.widgets.table import RowTable
from fieldjudge.services.quidditch import QuidditchSession, Resolved


def seed_message(session: QuidditchSession) -> MessageScreen:
    return MessageScreen(
        _("Publish before round 1"),
        _("Server seed hash (SHA-256)")
        + f":\n{session.seed_hash}\n\n"
        + _("Client seed")
        + f": {session.setup.client_seed or '—'}\n\n"
        + _("Copied to the clipboard. Reveal the seed after the match (Ctrl+R)."),
    )


def _outcome_line(o: Outcome, setup: MatchSetup) -> str:
    """«Квоффл · пас принят (п. 5): Джонсон (Г), Белл (Г)» (no colon when nobody took part)."""
    names = ", ".join(setup.label(p) for p in o.players if p)
    return outcome_label(o) + (f": {names}" if names else "")


_CHOICE = re.compile(r"\(1\.\.(\d+)\)$")


def choice_mapping(value: int, purpose: str) -> str:
    """How a draw among k options maps the roll to the choice (rules/dice.py): the option
    ``(value - 1) % k + 1`` in the listed order, or rejected above ``100 - 100 % k``
    (rolled again, no bias). Empty for a roll that is not a draw."""
    m = _CHOICE.search(purpose)
    if m is None:
        return ""
    k = int(m.group(1))
    limit = 100 - 100 % k
    if value > limit:
        return _("rejected: over {limit}, rolled again").format(limit=limit)
    return _("option {i} of {k}").format(i=(value - 1) % k + 1, k=k) + f" = ({value}−1) mod {k} + 1"


class ResultScreen(JudgeScreen):
    """Every roll and outcome of the round just resolved, then the Russian post."""

    CSS_PATH = "quidditch.tcss"
    SCREEN_TITLE = "Round result"
    BINDINGS = keymap.bindings("result")

    def __init__(self, resolved: Resolved) -> None:
        super().__init__()
        self.resolved = resolved

    def compose(self) -> ComposeResult:
        res = self.resolved.result
        setup = res.state.setup
        yield Header()
        with VerticalScroll(id="qres-body"):
            yield Static(
                _("Round {n}: rolls").format(n=res.round_no), classes="pane-title", markup=False
            )
            yield RowTable(id="qres-rolls")
            yield Static(_("Outcomes"), classes="pane-title", markup=False)
            yield Static(
                "\n".join(_outcome_line(o, setup) for o in res.outcomes) or "—",
                id="qres-outcomes",
                markup=False,
            )
            yield Static(_("Round post (copied and saved)"), classes="pane-title", markup=False)
            # the file's path on a line of its own, wrapped: a title is one line, and at 80
            # columns it stopped at «сохранён в»
            yield Static(
                _("Saved to {path}").format(path=self.resolved.path),
                id="qres-saved",
                classes="dialog-note",
                markup=False,
            )
            yield Static(self.resolved.post, id="qres-post", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        t = self.query_one("#qres-rolls", DataTable)
        t.add_columns("№", _("Roll"), _("Threshold"), _("Result"), _("Purpose"))
        for r in self.resolved.result.rolls:
            ok = "" if r.success is None else (_("yes") if r.success else _("no"))
            if r.threshold is None:
                ok = choice_mapping(r.value, r.purpose) or ok
            t.add_row(
                str(r.n),
                str(r.value),
                "" if r.threshold is None else str(r.threshold),
                ok,
                r.purpose,
            )
        t.focus()

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.resolved.post)
        self.notify(_("Post copied"), markup=False)
