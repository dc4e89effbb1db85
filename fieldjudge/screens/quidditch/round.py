"""The quidditch round screen: players and their state, the declarations of the round being
entered, resolve / void / export (issue 6). All match logic is in ``quidditch_session``."""

from __future__ import annotations

from dataclasses import replace

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Header, Static

from fieldjudge.i18n import _
from fieldjudge.rules.quidditch import declarations as DC
from fieldjudge.rules.quidditch.declarations import Declaration
from fieldjudge.rules.quidditch.order import check_post_order
from fieldjudge.rules.quidditch.state import HELD, LOOSE
from fieldjudge.screens import keymap
from fieldjudge.screens.base import JudgeScreen
from fieldjudge.screens.dialogs.forms import (
    ConfirmScreen,
    Field,
    FormScreen,
    MessageScreen,
    Values,
    parse_check,
)
from fieldjudge.screens.quidditch.declare import DeclareModal, action_label
from fieldjudge.screens.quidditch.result import ResultScreen, seed_message
from fieldjudge.screens.widgets.footer import Footer
from fieldjudge.screens.widgets.table import RowTable
from fieldjudge.services.quidditch import QuidditchSession, SessionError

ORDER_RULES = {
    "beaters_last": "beaters post last",
    "targeted_before_beaters": "a player under a bludger posts before the beaters",
    "carrying_team_first": "the chasers of the team with the quaffle post first",
    "keeper_after_shooter": "the keeper posts after the attacking chaser",
}


class RoundScreen(JudgeScreen):
    CSS_PATH = "quidditch.tcss"
    SCREEN_TITLE = "Quidditch round"
    HELP_TEXT = (
        "Enter: the highlighted player's declaration. Space: posted, no ball action. "
        "Delete: skipped the post. o: the order of the posts as № numbers (e.g. 1 8 2 9). "
        "r: resolve the round (rolls, outcomes, the Russian post: copied and saved). "
        "v: void the last round before the next one (its rolls stay used). "
        "x: export the match (JSON for verify, text of all posts). p: resolve and post the "
        "passes so far, within the round (0, 5). Ctrl+R reveals the seed: the match is "
        "closed, no roll after it."
    )
    BINDINGS = keymap.bindings("round")

    def __init__(self, session: QuidditchSession) -> None:
        super().__init__()
        self.session = session
        self.state = session.state
        self.decls: dict[str, Declaration] = session.load_draft()

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="qr-body"):
            yield Static("", id="qr-status", classes="qr-status", markup=False)
            yield RowTable(id="qr-players")
            # the highlighted player's declaration whole: the column is cut at 80×24
            yield Static("", id="qr-declared", classes="qr-declared", markup=False)
            yield Static("", id="qr-hint", classes="qr-hint", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        t = self.table
        # issue 12: at 80x24 the Post and Warnings columns stay visible: they come before
        # the wide ones (the declaration is last, cut at the screen's edge)
        t.add_columns(
            "№", _("Player"), _("Post"), _("Warn."), _("Position"), _("State"), _("Declared")
        )
        self.refresh_all()
        t.focus()

    # -- drawing ------------------------------------------------------------------------
    def refresh_all(self) -> None:
        s = self.state
        setup = s.setup
        a, b = setup.teams
        q = s.quaffle
        if q.status == HELD and q.holder:
            quaffle = setup.label(q.holder)
        elif q.status == LOOSE:
            quaffle = _("on the ground")
        else:
            quaffle = _("throw-up")
        status = (
            _("Match {m} · round {n}").format(m=setup.match_id, n=s.round_no)
            + f" · {a.name} {s.score[a.key]} : {s.score[b.key]} {b.name}"
            + f"\n{_('Quaffle')}: {quaffle} · "
            + " · ".join(
                _("Bludger {n}").format(n=i + 1) + ": " + (setup.label(t) if t else _("nobody"))
                for i, t in enumerate(s.bludger_targets())
            )
            + f"\n{_('Seed hash')}: {self.session.seed_hash[:16]}…"
        )
        if s.ended:
            status += "  ·  " + _("MATCH OVER")
        if s.revealed:
            status += "  ·  " + _("SEED REVEALED: closed")
        if s.passes_resolved:  # 0, 5: posted within this round already
            status += "  ·  " + _("passes posted: {n}").format(n=len(s.passes_resolved))
        self.query_one("#qr-status", Static).update(status)
        rows = []
        for i, p in enumerate(setup.players, 1):
            d = self.decls.get(p.id)
            rows.append(
                (
                    str(i),
                    setup.label(p.id),
                    str(d.post_order) if d and d.post_order else "",
                    str(s.player_warnings.get(p.id, 0) or ""),
                    _(p.position.capitalize()),
                    self.state_text(p.id),
                    self.decl_text(d),
                )
            )
        self.table.refill(rows, [p.id for p in setup.players])
        self.show_declared()
        posted = sum(1 for pid in self.decls if s.is_active(pid))
        warn = ", ".join(f"{t.name} {s.team_warnings.get(t.key, 0)}" for t in setup.teams)
        self.query_one("#qr-hint", Static).update(
            _("Posts entered: {n} of {m}").format(n=posted, m=len(s.active_players()))
            + f" · {_('Team warnings')}: {warn}"
        )

    def state_text(self, pid: str) -> str:
        s = self.state
        bits = []
        if pid in s.removed:
            bits.append(_("removed"))
        elif s.out.get(pid, 0) > 0:
            bits.append(_("down {n}").format(n=s.out[pid]))
        if s.quaffle.status == HELD and s.quaffle.holder == pid:
            bits.append("● " + _("quaffle"))
        for i, t in enumerate(s.bludger_targets()):
            if t == pid:
                bits.append(_("bludger {n}").format(n=i + 1))
        sk = s.seekers.get(pid)
        if sk and sk.caught_up:
            bits.append(_("caught up"))
        elif sk and sk.chasing:
            bits.append(_("chase {n}").format(n=sk.rounds_left))
        return ", ".join(bits)

    def decl_text(self, d: Declaration | None) -> str:
        if d is None:
            return "—"
        parts = [action_label(d.action)]
        if d.target:
            parts.append("→ " + self.state.setup.label(d.target))
        if d.bludger is not None:
            parts.append(_("bludger {n}").format(n=d.bludger + 1))
        if d.action in (DC.SHOOT, DC.PENALTY_SHOT):
            parts.append(_("ring") + " ***" if d.ring else _("no ring!"))
        elif d.ring:
            parts.append(_(d.ring.capitalize()))
        if d.feint:
            parts.append(f"«{d.feint}»" + (f" +{d.feint_bonus}" if d.feint_bonus else ""))
        if d.flags:
            parts.append(" ".join(d.flags))
        return " ".join(parts)

    # -- entering -----------------------------------------------------------------------
    @on(DataTable.RowHighlighted, "#qr-players")
    def show_declared(self) -> None:
        """The highlighted player's declaration in full under the table (issue 25, item 7:
        the «Declared» column is the last, cut at the 80th column)."""
        pid = self.highlighted()
        d = self.decls.get(pid) if pid is not None else None
        label = self.state.setup.label(pid) if d else ""
        self.query_one("#qr-declared", Static).update(
            f"{_('Declared')} · {label}: {self.decl_text(d)}" if d else ""
        )

    @on(DataTable.RowSelected, "#qr-players")
    def _row_selected(self) -> None:
        self.action_declare()

    @property
    def table(self) -> RowTable:
        return self.query_one("#qr-players", RowTable)

    def highlighted(self) -> str | None:
        return self.table.cursor_key()

    def _playable(self, pid: str | None) -> bool:
        if pid is None:
            return False
        if self.state.ended:
            self.notify(_("The match is over"), severity="warning", markup=False)
            return False
        if not self.state.is_active(pid):
            self.notify(_("This player sits out this round"), severity="warning", markup=False)
            return False
        return True

    def set_decl(self, pid: str, decl: Declaration | None) -> None:
        if decl is None:
            self.decls.pop(pid, None)
        else:
            self.decls[pid] = decl
        self.session.save_draft(self.state.round_no, self.decls)
        self.refresh_all()

    def action_declare(self) -> None:
        pid = self.highlighted()
        if not self._playable(pid):
            return

        def done(decl: Declaration | None) -> None:
            if decl is not None:
                self.set_decl(pid, decl)

        self.app.push_screen(DeclareModal(self.state, pid, self.decls.get(pid)), done)

    def action_posted(self) -> None:
        pid = self.highlighted()
        if self._playable(pid):
            old = self.decls.get(pid)
            self.set_decl(pid, Declaration(pid, post_order=old.post_order if old else 0))
            # issue 12: Space moves on to the next player
            table = self.table
            if table.cursor_row < table.row_count - 1:
                table.move_cursor(row=table.cursor_row + 1)

    def action_skipped(self) -> None:
        pid = self.highlighted()
        if pid is not None:
            self.set_decl(pid, None)

    def action_order(self) -> None:
        players = self.state.setup.players
        current = sorted(
            (d.post_order, i)
            for i, p in enumerate(players, 1)
            if (d := self.decls.get(p.id)) and d.post_order
        )

        def done(v: Values | None) -> None:
            if v is None:
                return
            order = self._parse_order(v["order"])
            for pid, d in list(self.decls.items()):
                self.decls[pid] = replace(d, post_order=0)
            for n, pid in enumerate(order, 1):
                self.decls[pid] = replace(self.decls.get(pid) or Declaration(pid), post_order=n)
            self.session.save_draft(self.state.round_no, self.decls)
            self.refresh_all()

        order = " ".join(str(i) for _n, i in current)
        field = Field("order", _("№ of the players, in the order they posted"), order)
        form = FormScreen(
            _("Order of the posts"),
            [field],
            parse_check(lambda v: self._parse_order(v["order"])),
            note=_("Players listed here count as posted; the check follows rule 0 / 11.2."),
        )
        self.app.push_screen(form, done)

    def _parse_order(self, text: str) -> list[str]:
        players = self.state.setup.players
        out: list[str] = []
        for tok in text.replace(",", " ").split():
            if not tok.isdigit() or not 1 <= int(tok) <= len(players):
                raise ValueError(_("Not a player number: {x}").format(x=tok))
            pid = players[int(tok) - 1].id
            if pid in out:
                raise ValueError(_("Listed twice: {x}").format(x=tok))
            if not self.state.is_active(pid):
                raise ValueError(_("Sits out this round: {x}").format(x=tok))
            out.append(pid)
        return out

    # -- resolving ----------------------------------------------------------------------
    def resolvable(self) -> bool:
        """Whether a step may be resolved now. After the seed was revealed the match is
        closed: no roll is possible with that seed; the screen says a new match with a new
        committed seed is needed. Nor once the match is over."""
        if why := self.session.closed_refusal():
            self.app.push_screen(MessageScreen(_("The match is closed"), why))
            return False
        if self.state.ended:
            self.notify(_("The match is over"), severity="warning", markup=False)
        return not self.state.ended

    def post(self, resolve, decls: list[Declaration], failed: str, *, round_done: bool) -> None:
        """Resolve through the session (a round, or the passes so far); its post is copied
        and shown; a refusal is shown with its reason."""
        try:
            res = resolve(decls, judge=self.app.judge)
        except SessionError as exc:
            self.app.push_screen(MessageScreen(failed, str(exc)))
            return
        self.app.copy_to_clipboard(res.post)
        if round_done:
            self.decls = {}
        self.state = self.session.state
        self.refresh_all()
        self.app.push_screen(ResultScreen(res))

    def action_resolve_passes(self) -> None:
        """0, 5: resolve and post the pass catches entered so far, within the round."""
        if self.resolvable():
            decls = [d for p, d in self.decls.items() if self.state.is_active(p)]
            failed = _("Cannot resolve the passes")
            self.post(self.session.resolve_passes, decls, failed, round_done=False)

    def action_resolve(self) -> None:
        if not self.resolvable():
            return
        s = self.state
        decls = {p: d for p, d in self.decls.items() if s.is_active(p)}
        skipped = [s.setup.label(p) for p in s.active_players() if p not in decls]
        lines = [_("Resolve round {n}?").format(n=s.round_no)]
        if skipped:
            lines.append(_("Skipped the post") + ": " + ", ".join(skipped))
        for pid, rule in check_post_order(s, decls):
            lines.append(
                _("Out of order (11.2)") + f": {s.setup.label(pid)} — {_(ORDER_RULES[rule])}"
            )

        def done(yes: bool | None) -> None:
            if yes:
                failed = _("Cannot resolve the round")
                self.post(self.session.resolve, list(decls.values()), failed, round_done=True)

        self.app.push_screen(ConfirmScreen("\n".join(lines)), done)

    def action_void(self) -> None:
        why = self.session.can_void()
        if why:
            self.notify(why[:1].upper() + why[1:], severity="warning", markup=False)
            return
        n = self.session.effective_rounds()[-1].data["round_no"]

        def done(v: Values | None) -> None:
            if v is None:
                return
            try:
                self.session.void_last_round(v["reason"], judge=self.app.judge)
            except SessionError as exc:
                self.notify(str(exc), severity="error", markup=False)
                return
            self.state = self.session.state
            self.decls = self.session.load_draft()
            self.refresh_all()
            self.notify(_("Round {n} voided; its rolls stay used").format(n=n), markup=False)

        form = FormScreen(
            _("Void round {n}").format(n=n),
            [Field("reason", _("Reason (shown in the redo's post)"))],
            lambda v: None if v["reason"] else _("A correction needs a reason"),
            note=_("The round's rolls stay in the log as voided and are never used again."),
        )
        self.app.push_screen(form, done)

    def action_export(self) -> None:
        try:
            j, t = self.session.write_exports()
        except OSError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        how = _("Check it with") + f":\nfieldjudge quidditch verify {j} --seed SEED"
        self.app.push_screen(MessageScreen(_("Match exported"), f"{j}\n{t}\n\n{how}"))

    def action_seed_hash(self) -> None:
        self.app.copy_to_clipboard(self.session.seed_hash)
        self.app.push_screen(seed_message(self.session))

    def action_reveal(self) -> None:
        def show(yes: bool | None) -> None:
            if yes:
                # recorded in the log: from now on no roll is possible with this seed
                seed = self.session.reveal_seed(judge=self.app.judge)
                self.state = self.session.state
                self.refresh_all()
                self.app.copy_to_clipboard(seed)
                self.app.push_screen(MessageScreen(_("Server seed"), seed))

        if self.state.ended:
            show(True)
        else:
            self.app.push_screen(
                ConfirmScreen(_("The match is not over. Reveal the seed anyway?")), show
            )
