"""One player's declaration for the round, entered with the keyboard (issue 6).

Only the actions valid for the player now are offered (``valid_actions``), the targets valid
for the chosen action, and the feints of the catalogue with the bonus checked against the
feint's range for the situation. The ring a shooter told the judge privately goes into a
masked input, so it never shows on a screen the players might see over a stream.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Checkbox, Input, Label, Select, Static

from fieldjudge.i18n import _
from fieldjudge.rules.quidditch import declarations as DC
from fieldjudge.rules.quidditch import feints as F
from fieldjudge.rules.quidditch.declarations import (
    ACTION_SITUATION,
    Declaration,
    feint_situation,
    valid_actions,
    valid_bludgers,
    valid_targets,
)
from fieldjudge.rules.quidditch.feints import SITUATION_RANGES
from fieldjudge.rules.quidditch.roster import KEEPER
from fieldjudge.rules.quidditch.state import CENTRE, MatchState, rings_zone
from fieldjudge.screens import keymap
from fieldjudge.screens.base import JudgeModal
from fieldjudge.screens.dialogs.forms import FormInput, TypedFields
from fieldjudge.screens.keys import latin_letter

ACTION_LABELS = {
    DC.NONE: "No ball action",
    DC.CATCH_THROW_UP: "Catch the throw-up",
    DC.PASS: "Pass",
    DC.SHOOT: "Shoot",
    DC.STEAL: "Steal",
    DC.INTERCEPT: "Intercept",
    DC.PICK_UP: "Pick up the quaffle",
    DC.PENALTY_SHOT: "Penalty shot",
    DC.GUARD: "Guard a ring",
    DC.HIT_BLUDGER: "Hit a bludger",
    DC.SEARCH: "Look for the snitch",
    DC.CHASE: "Chase the snitch",
    DC.CATCH_SNITCH: "Catch the snitch",
    DC.PUSH: "Push",
}
RING_LABELS = {"left": "Left", "middle": "Middle", "right": "Right"}
RING_KEYS = {"l": "left", "m": "middle", "r": "right", "1": "left", "2": "middle", "3": "right"}
#: the same typed in Russian: левое, среднее, правое
RING_KEYS_RU = {"л": "left", "с": "middle", "п": "right"}
FLAG_LABELS = {
    "5.1": "5.1 penalty awarded by the judge (against this team)",
    "11.1": "11.1 outcome written in the post",
    "11.3": "11.3 touched another position's ball",
    "11.4": "11.4 illegal contact",
    "11.6": "11.6 shot from under 5 m",
}
SHOTS = (DC.SHOOT, DC.PENALTY_SHOT)
PUSH_LABEL = "with a shoulder push"


def action_label(action: str) -> str:
    return _(ACTION_LABELS.get(action, action))


def parse_ring(text: str) -> str | None:
    """The shooter's ring typed as l/m/r, 1/2/3, л/с/п or the English word; None if empty.
    l, m or r typed with the Russian layout on (д, ь, к) is read as the key in its place."""
    t = text.strip().lower()
    if not t:
        return None
    if t in RING_KEYS_RU:
        return RING_KEYS_RU[t]
    t = latin_letter(t) or t
    if t in RING_KEYS:
        return RING_KEYS[t]
    if t in RING_LABELS:
        return t
    raise ValueError(_("Ring: type l, m or r (left, middle, right)"))


def box_label(text: str, ticked: bool) -> str:
    """A checkbox's label with a text mark of its state: the box alone differs only by
    its colour (issue 25, as the line-up picker's «· играет» / «· в запасе»)."""
    return f"{_(text)} · " + (_("ticked") if ticked else _("not ticked"))


def _row(label: str, key: str, widget) -> Horizontal:
    """A labelled line of the form: ``#row-<key>`` (shown or hidden by the action)."""
    return Horizontal(
        Label(label, classes="qd-label", markup=False), widget, id=f"row-{key}", classes="qd-row"
    )


def plain_options(options: list) -> list:
    """Select options whose labels (a player's name, a feint named in the catalogue) show
    as written: never parsed as Rich markup (``[/b]`` raised in the list)."""
    return [(Text(label) if isinstance(label, str) else label, v) for label, v in options]


def _select_row(label: str, key: str, options: list, **kw) -> Horizontal:
    return _row(label, key, Select(plain_options(options), id=f"qd-{key}", compact=True, **kw))


def _input_row(label: str, key: str, **kw) -> Horizontal:
    return _row(label, key, FormInput(id=f"qd-{key}", compact=True, **kw))


class DeclareModal(TypedFields, JudgeModal[Declaration | None]):
    """Returns the declaration, or None when cancelled."""

    BINDINGS = keymap.bindings("declare_modal")

    def __init__(self, state: MatchState, pid: str, current: Declaration | None) -> None:
        super().__init__()
        self.state = state
        self.pid = pid
        self.current = current or Declaration(pid)
        self.setup = state.setup

    # -- building ---------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        p = self.setup.player(self.pid)
        c = self.current
        acts = valid_actions(self.state, self.pid) or [DC.NONE]
        action = c.action if c.action in acts else acts[0]
        a, b = self.setup.teams
        zones = [(_("Centre"), CENTRE)] + [
            (_("At the rings of {team}").format(team=t.name), rings_zone(t.key)) for t in (a, b)
        ]
        feints = self.feint_options(action)
        with Vertical(classes="dialog qd-dialog"):
            yield Static(
                f"{self.setup.label(self.pid)} · {_(p.position.capitalize())} · "
                + _("round {n}").format(n=self.state.round_no),
                classes="dialog-title",
                markup=False,
            )
            with VerticalScroll():
                yield _select_row(
                    _("Action"),
                    "action",
                    [(action_label(x), x) for x in acts],
                    value=action,
                    allow_blank=False,
                )
                yield _select_row(_("Target"), "target", [], prompt=_("nobody"))
                yield _select_row(_("Bludger"), "bludger", [], prompt="—")
                yield _input_row(
                    _("Ring (private)"),
                    "secret-ring",
                    value=(c.ring or "") if c.action in SHOTS else "",
                    password=True,
                    placeholder=_("l / m / r"),
                )
                yield _select_row(
                    _("Ring"),
                    "ring",
                    [(_(v), k) for k, v in RING_LABELS.items()],
                    value=c.ring if c.action == DC.GUARD and c.ring else Select.NULL,
                    prompt=_("not named"),
                )
                if p.position != KEEPER:
                    zone = c.zone or self.state.zone_of(self.pid) or Select.NULL
                    yield _select_row(_("Where"), "zone", zones, value=zone, prompt=_("not said"))
                known = c.feint in {v for _l, v in feints}
                yield _select_row(
                    _("Feint"),
                    "feint",
                    feints,
                    value=c.feint if known else Select.NULL,
                    prompt=_("no feint"),
                )
                bonus = str(c.feint_bonus) if c.feint_bonus else ""
                yield _input_row(_("Feint bonus"), "bonus", value=bonus, restrict=r"\d*")
                yield _row(
                    _("Push"),
                    "push",
                    Checkbox(box_label(PUSH_LABEL, c.push), c.push, id="qd-push", compact=True),
                )
                yield _select_row(
                    _("If pushed"),
                    "response",
                    [(_("push back"), DC.PUSH_BACK), (_("dodge"), DC.DODGE_PUSH)],
                    value=c.response or Select.NULL,
                    prompt="—",
                )
                order = str(c.post_order) if c.post_order else ""
                yield _input_row(_("Post number"), "order", value=order, restrict=r"\d*")
                for flag, text in FLAG_LABELS.items():
                    yield Checkbox(
                        box_label(text, flag in c.flags),
                        flag in c.flags,
                        id=f"qd-flag-{flag.replace('.', '_')}",
                        compact=True,
                    )
            yield Static("", id="qd-hint", classes="dialog-note", markup=False)
            yield Static("", id="form-error", classes="error", markup=False)
            yield Static(
                _("Tab: next field   Ctrl+S: save   Esc: cancel"),
                classes="dialog-keys",
                markup=False,
            )

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).can_focus = False
        self._refresh_for(self.query_one("#qd-action", Select).value, initial=True)
        self.query_one("#qd-action", Select).focus()

    def situations(self, action: str) -> list[str]:
        """12: the feint situations the player's post can serve: his action's, a dodge
        when a bludger follows him (7), a push dodge (10)."""
        out = [s for s in (ACTION_SITUATION.get(action),) if s]
        if self.pid in self.state.bludger_targets():
            out.append(F.DODGE)
        out.append(F.PUSH_DODGE)
        return out

    def feint_options(self, action: str) -> list[tuple[str, str]]:
        """12, issue 12: only the feints of the catalogue that fit this post's situations
        (``FeintCatalogue.for_situation``), in catalogue order."""
        names: set[str] = set()
        for sit in self.situations(action):
            names |= {f.name for f in self.setup.feints.for_situation(sit)}
        return [
            (f"{f.name} ({f.bonus_min}–{f.bonus_max})" if f.bonus_max else f.name, f.name)
            for f in self.setup.feints
            if f.name in names
        ]

    @on(Select.Changed, "#qd-action")
    def _action_changed(self, event: Select.Changed) -> None:
        self._refresh_for(event.value)

    @on(Checkbox.Changed)
    def _box_changed(self, event: Checkbox.Changed) -> None:
        wid = event.checkbox.id or ""
        text = PUSH_LABEL if wid == "qd-push" else FLAG_LABELS.get(wid[8:].replace("_", "."))
        if text:
            event.checkbox.label = box_label(text, event.value)

    @on(Select.Changed, "#qd-feint")
    def _feint_changed(self) -> None:
        self._show_hint()

    def _refresh_for(self, action, initial: bool = False) -> None:
        action = action if isinstance(action, str) else DC.NONE
        targets = valid_targets(self.state, self.pid, action)
        sel = self.query_one("#qd-target", Select)
        sel.set_options(plain_options([(self.setup.label(t), t) for t in targets]))
        if targets:
            keep = self.current.target if initial else None
            if keep in targets:
                sel.value = keep
            elif action in (DC.STEAL, DC.PUSH) and len(targets) == 1:
                sel.value = targets[0]
        blud = self.query_one("#qd-bludger", Select)
        idx = valid_bludgers(self.state, self.pid) if action == DC.HIT_BLUDGER else []
        blud.set_options([(_("Bludger {n}").format(n=i + 1), i) for i in idx])
        if idx:
            blud.value = self.current.bludger if self.current.bludger in idx else idx[0]
        shows = {
            "row-target": bool(targets),
            "row-bludger": bool(idx),
            "row-secret-ring": action in SHOTS,
            "row-ring": action == DC.GUARD,
            "row-push": action == DC.STEAL,
        }
        for row_id, visible in shows.items():
            self.query_one(f"#{row_id}").display = visible
        if not initial:
            feint = self.query_one("#qd-feint", Select)
            keep = feint.value
            options = self.feint_options(action)
            feint.set_options(plain_options(options))
            if keep in {v for _l, v in options}:
                feint.value = keep
        self._show_hint()

    def _show_hint(self) -> None:
        try:
            decl = self._build(check=False)
        except ValueError:
            return
        hint = ""
        if decl.feint:
            sit = feint_situation(self.state, decl)
            if sit is None:
                hint = _("This feint does not fit this action")
            else:
                lo, hi = self.setup.feints.get(decl.feint).bonus_range(sit)
                hint = (
                    _("Bonus {lo}–{hi}").format(lo=lo, hi=hi)
                    if hi
                    else _("No bonus: the feint only has to be made")
                )
        self.query_one("#qd-hint", Static).update(hint)

    # -- reading ------------------------------------------------------------------------
    def _value(self, wid: str):
        try:
            v = self.query_one(wid, Select).value
        except Exception:  # noqa: BLE001 - a row that does not exist for this position
            return None
        return None if v is Select.NULL or v is Select.BLANK else v

    def _build(self, check: bool = True) -> Declaration:
        action = self._value("#qd-action") or DC.NONE
        ring = None
        if action in SHOTS:
            ring = parse_ring(self.query_one("#qd-secret-ring", Input).value)
        elif action == DC.GUARD:
            ring = self._value("#qd-ring")
        feint = self._value("#qd-feint")
        bonus_text = self.query_one("#qd-bonus", Input).value.strip()
        order_text = self.query_one("#qd-order", Input).value.strip()
        flags = tuple(
            f
            for f in FLAG_LABELS
            if self.query_one(f"#qd-flag-{f.replace('.', '_')}", Checkbox).value
        )
        decl = Declaration(
            self.pid,
            action=action,
            target=self._value("#qd-target"),
            ring=ring,
            zone=self._value("#qd-zone"),
            feint=feint,
            feint_bonus=int(bonus_text) if bonus_text else 0,
            post_order=int(order_text) if order_text else 0,
            bludger=self._value("#qd-bludger") if action == DC.HIT_BLUDGER else None,
            push=action == DC.STEAL and self.query_one("#qd-push", Checkbox).value,
            response=self._value("#qd-response"),
            flags=flags,
        )
        if check:
            self._check(decl, bonus_text)
        return decl

    def _check(self, decl: Declaration, bonus_text: str) -> None:
        if decl.action == DC.HIT_BLUDGER and decl.bludger is None:
            raise ValueError(_("Choose the bludger to hit"))
        if decl.action in (DC.HIT_BLUDGER, DC.PUSH, DC.STEAL) and not decl.target:
            raise ValueError(_("Choose the target"))
        if decl.feint is None:
            if bonus_text:
                raise ValueError(_("A bonus needs a feint"))
            return
        sit = feint_situation(self.state, decl)
        if sit is None:
            raise ValueError(_("This feint does not fit this action"))
        lo, hi = self.setup.feints.get(decl.feint).bonus_range(sit)
        if SITUATION_RANGES[sit] == (0, 0) or hi == 0:
            if decl.feint_bonus:
                raise ValueError(_("No bonus: the feint only has to be made"))
            return
        if not lo <= decl.feint_bonus <= hi:
            raise ValueError(_("Bonus {lo}–{hi}").format(lo=lo, hi=hi))

    def action_save(self) -> None:
        try:
            decl = self._build()
        except ValueError as exc:
            self.query_one("#form-error", Static).update(str(exc))
            return
        self.dismiss(decl)

    def field_done(self, field: FormInput) -> None:
        """Enter in a text field saves, with what was typed before it (:class:`TypedFields`)."""
        self.action_save()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        """The field's own Enter, which reaches it only when ``field_enter`` is remapped to
        another key (keymap.toml): it saves as it did before that key."""
        self.action_save()
