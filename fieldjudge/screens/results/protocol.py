"""The game protocol (31): the senior judge reviews the result, every elimination and
penalty, submits it; each captain signs (types his name) or refuses (the senior judge
records the reason); the head judge corrects a wrong total with his secret; no-shows (32)."""

from __future__ import annotations

import re
from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Header, Static

from fieldjudge.i18n import _, rule_text
from fieldjudge.rules import protocol as pr
from fieldjudge.rules.messages import rule
from fieldjudge.rules.timefmt import format_game_clock as game_time
from fieldjudge.screens import keymap
from fieldjudge.screens.base import JudgeScreen
from fieldjudge.screens.dialogs.forms import (
    ConfirmScreen,
    Field,
    FormScreen,
    Values,
    choice,
    head_judge_form,
    typed,
)
from fieldjudge.screens.widgets.footer import Footer
from fieldjudge.services import StoreError
from fieldjudge.services.paintball import results, standings
from fieldjudge.services.paintball.event_text import Namer, describe, event_no, reason_label
from fieldjudge.services.paintball.protocol_doc import (
    local_time,
    no_show_text,
    outcome_text,
    senior_judge,
    sign_lines,
    struck_lines,
)

#: the protocol's phase in words: the standings' for a game not counted yet (the same
#: words on the screen and the paper), and the phases only the protocol screen shows
PHASE_TEXT = {
    **standings.PHASE_TEXT,
    "scheduled": "not played yet",
    "final": "game over: not submitted",
    "signed": "answered by both captains (with a refusal)",
    "locked": "signed by both captains: locked",
}
STRIKE, STRIKE_END = "\x01", "\x02"  # marks the struck-through originals in the text


def struck_text(text: str) -> Text:
    """The protocol text with each corrected original struck through."""
    out = Text()
    for i, part in enumerate(re.split(f"[{STRIKE}{STRIKE_END}]", text)):
        out.append(part, style="strike" if i % 2 else "")
    return out


class ProtocolScreen(JudgeScreen):
    SCREEN_TITLE = "Game protocol"
    HELP_TEXT = (
        "31: the senior judge submits the protocol (u) once the game is over; each captain "
        "signs by typing his name (1, 2) or refuses (r, the senior judge types his name and "
        "the reason). Signed by both, the protocol is locked; only the head judge corrects a "
        "wrong outcome or total (c: h1/h2 flag hang, f1/f2 flag held, d draw; empty points "
        "follow 30.01; a reason and the head judge's secret), the original stays visible, struck through. n: "
        "the head judge rules a no-show and its cause (32.01-32.03); R: he replays an "
        "organisers' no-show within the round. v: the head judge voids an event of a signed "
        "protocol (31: its number from the list under the protocol, a reason, his secret); the "
        "result is counted again without it and the void is printed with the reason."
    )
    BINDINGS = keymap.bindings("protocol")

    def __init__(self, game_id: str) -> None:
        super().__init__()
        self.game_id = game_id
        self.view: results.GameView | None = None

    @property
    def t(self):
        return self.app.tournament

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Static("", id="protocol-body", markup=False)
        yield Static("", id="protocol-message", classes="error", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.reload()

    def reload(self) -> None:
        try:
            self.view = results.game_view(self.t, self.game_id)
        except StoreError as exc:
            self.say(rule_text(exc))  # a damaged file: its name and fault, translated
            return
        self.query_one("#protocol-body", Static).update(self.render_text(self.view))
        self.refresh_bindings()  # the footer's keys for the protocol as it is now

    def resting_actions(self) -> frozenset[str]:
        """The footer's keys with nothing to do now (``widgets/footer.py``; each still
        answers, citing 31): submitting once submitted, or before the game is over; a
        captain's signature or refusal before the protocol is submitted and once his team
        has answered; the head judge's correction before both captains answered, and his
        no-show once the game has started or ended (32.01)."""
        v = self.view
        if v is None:
            return frozenset()
        p, teams = v.protocol, v.teams
        resting = set()
        if p.submitted or not v.final:
            resting.add("submit")
        for side, team in enumerate(teams):
            if not p.submitted or p.answered(team):
                resting.add(f"sign({side})")
        if not p.submitted or p.all_answered:
            resting.add("refuse")
        if results.correction_form_refusal(v):
            resting.add("correct")
        if results.no_show_form_refusal(v):
            resting.add("no_show")
        return frozenset(resting)

    def say(self, text: str) -> None:
        self.query_one("#protocol-message", Static).update(text)
        if text:
            self.notify(text, severity="error", markup=False)

    def render_text(self, v: results.GameView) -> Text:
        a, b = v.teams
        r = v.result
        g = v.game
        lines = [
            f"{_('Field')} {g.get('field', '')} · {str(g.get('start', '')).replace('T', ' ')}",
            f"{v.name(a)} — {v.name(b)}",
            "",
            f"{_('Protocol')}: {_(PHASE_TEXT.get(v.phase, 'game in progress'))}",
        ]
        if v.not_played:  # no check-in, no start, no no-show: no result, never a draw
            lines += ["", f"{_('Result')} (30.01): {_('game not played')}"]
        elif v.provisional:
            lines.append(_("The game is not over yet: the result below is provisional"))
        if not v.not_played:
            diff, survivors = _("difference"), _("survivors")
            lines += [
                "",
                f"{_('Result')} (30.01): {outcome_text(r.outcome, pr.outcome_team(r), v.name, _)}",
                *(
                    f"  {v.name(x)}: {rule_text(pr.points_count(r.points[x]))}"
                    f" · {diff} {r.diff[x]:+d} · {survivors} {r.survivors.get(x, 0)}"
                    for x in (a, b)
                ),
            ]
        for s in struck_lines(v, _):
            lines.append(f"  {STRIKE}{s.old}{STRIKE_END} → {s.new} ({s.why})")
        if r.no_show:
            lines.append(
                f"  {_('No-show')}: {no_show_text(v, v.name, _)}"
                + (
                    " · " + _("may be replayed by the head judge within the round")
                    if v.state.no_show_cause == "organisers"  # 32.03
                    else ""
                )
            )
        lines += ["", _("Eliminations") + ":"]
        elims = [p for p in v.state.players.values() if p.elimination is not None]
        elims.sort(key=lambda p: (p.elimination.game_clock_ms or 0, p.team, p.number))
        for p in elims:
            e = p.elimination
            what = reason_label(e.reason)
            lines.append(
                f"  {game_time(e.game_clock_ms)}  {v.name(p.team)} #{p.number} {p.name}: "
                f"{what} ({e.section})"
            )
        if not elims:
            lines.append("  —")
        pens = [c for c in v.state.chrono if c.penalty != "none"]
        notes = [*v.state.team_penalties, *v.state.penalty_reports]
        lines += ["", _("Penalties") + ":"]
        for c in pens:
            verdict = rule_text(c.text, v.names)
            lines.append(f"  {game_time(c.game_clock_ms)}  {v.name(c.team)} #{c.number}: {verdict}")
        for n in notes:
            lines.append(f"  {rule_text(n.text, v.names)}")
        if not pens and not notes:
            lines.append("  —")
        if v.state.flagged:  # as the paper says it: never among the penalties
            lines += ["", _("For the head judge") + ":"]
            lines += [f"  {rule_text(n.text, v.names)}" for n in v.state.flagged]
        p = v.protocol
        lines += ["", _("Signatures") + " (31):"]
        if p.submission is not None:
            lines.append(
                f"  {_('Submitted by the senior judge')}: {senior_judge(v) or '—'}, "
                f"{local_time(p.submission.wall_time)}"
            )
        keys = {f"{_('Captain')}: {v.name(x)}": f"[{i + 1}] " for i, x in enumerate(v.teams)}
        for line in sign_lines(self.t, v, _):
            status = f" · {line.status}" if line.status else ""
            lines.append(f"  {keys.get(line.role, '')}{line.role}: {line.name or '—'}{status}")
        if p.locked:  # 31: what the head judge may void now (v)
            lines += ["", _("Events the head judge may void (v)") + ":"]
            namer = Namer(v.names, v.state)
            by_id = {e.id: e for e in v.events}
            for e in results.locked_void_targets(self.t, v):
                lines.append(
                    f"  {event_no(e.seq)}  {game_time(e.game_clock_ms)}  {describe(e, namer, by_id)}"
                )
        lines += ["", f"{_('Events')}: {len(v.events)} · {_('hash')} {v.last_hash[:16]}"]
        return struck_text("\n".join(lines))

    # -- actions ------------------------------------------------------------------------
    def _do(self, act: Callable[[], object]) -> str:
        """Run one intent of the game's protocol (:mod:`results`, as ``self.app.judge``);
        show its refusal (citing the section) and return it ("" when done)."""
        try:
            act()
        except StoreError as exc:  # in the UI language, the teams named as in this protocol
            self.say(why := _(rule_text(exc, self.view.names if self.view else None)))
            self.reload()
            return why
        self.say("")
        self.reload()
        self.app.refresh_home()
        return ""

    def action_submit(self) -> None:
        def done(ok: bool | None) -> None:
            if ok:
                self._do(
                    lambda: results.submit_protocol(self.t, self.game_id, judge=self.app.judge)
                )

        self.app.push_screen(ConfirmScreen(_("Submit the protocol with this result?")), done)

    def action_sign(self, side: int) -> None:
        v = self.view
        if v is None:
            return
        team = v.teams[side]

        def done(values: Values | None) -> None:
            if values:
                name = values["name"]
                self._do(
                    lambda: results.sign(self.t, self.game_id, team, name, judge=self.app.judge)
                )

        form = FormScreen(
            _("Captain of {team} signs").format(team=v.name(team)),
            [Field("name", _("Captain's name"))],
            lambda vals: None if vals["name"] else _("Type your name to sign"),
        )
        self.app.push_screen(form, done)

    def action_refuse(self) -> None:
        v = self.view
        if v is None:
            return

        def check(vals: Values) -> str | None:
            if vals["side"] not in ("1", "2"):
                return _("Team: 1 or 2")
            if not vals["reason"]:
                return _("Record the reason of the refusal")
            return None

        def done(values: Values | None) -> None:
            if values:
                team = v.teams[int(values["side"]) - 1]
                reason, captain = values["reason"], values["captain"]
                self._do(
                    lambda: results.refuse(
                        self.t, self.game_id, team, reason, captain, judge=self.app.judge
                    )
                )

        sides = f"{_('Team')}: 1 = {v.name(v.teams[0])}, 2 = {v.name(v.teams[1])}"
        fields = [
            Field("side", sides, restrict=r"[12]?"),
            Field("captain", _("Captain's name")),
            Field("reason", _("Reason of refusal")),
        ]
        self.app.push_screen(FormScreen(_("A captain refuses to sign"), fields, check), done)

    def refused_before_form(self, why: str | None) -> bool:
        """Say why a head judge's action is refused now, before he types its form and his
        secret (True: refused)."""
        if why:
            self.say(rule_text(why, self.view.names if self.view else None))
        return bool(why)

    def action_correct(self) -> None:
        v = self.view
        if v is None or self.refused_before_form(results.correction_form_refusal(v)):
            return
        a, b = v.teams
        now_code = outcome_code(v.result, v.teams)

        def check(vals: Values) -> str | None:
            if parse_outcome(vals["outcome"], v.teams) is None:
                return _("Outcome: h1/h2 flag hang, f1/f2 flag held by team 1/2, d draw")
            for k in ("a", "b"):
                if vals[k] and not vals[k].lstrip("-").isdigit():
                    return _("Game points are whole numbers")
            if not vals["reason"]:
                return _("A correction needs a reason")
            return None

        def run(values: Values) -> None:
            outcome, team = parse_outcome(values["outcome"], v.teams) or ("", None)
            changed = values["outcome"] != now_code
            points = {x: int(values[k]) for x, k in ((a, "a"), (b, "b")) if values[k]}

            def correct(confirmed: bool) -> None:
                results.correct_total(
                    self.t,
                    self.game_id,
                    values["pin"],
                    points,
                    values["reason"],
                    judge=self.app.judge,
                    outcome=outcome if changed else None,
                    outcome_team=team if changed else None,
                    confirmed_against_rules=confirmed,
                )

            try:
                correct(False)
            except results.AgainstRules as exc:  # 30.01: he confirms, y / n
                self.confirm_against_rules(rule_text(exc.question, v.names), correct)

        self.pin_form(
            _("Head judge: correct a wrong total (31)"),
            [
                Field(
                    "outcome",
                    f"{_('Outcome')}: h1/h2 {_('flag hang')}, f1/f2 {_('flag held at the end')}, "
                    f"d {_('draw')} (1 = {v.name(a)}, 2 = {v.name(b)})",
                    now_code,
                    restrict=r"[hfdHFD]?[12]?",
                ),
                *(
                    Field(
                        k,
                        f"{v.name(x)}: {_('game points')} ({_('empty: by 30.01')})",
                        restrict=r"-?\d*",
                    )
                    for k, x in (("a", a), ("b", b))
                ),
                Field("reason", _("Reason")),
            ],
            check,
            run,
        )

    def action_no_show(self) -> None:
        v = self.view
        if v is None or self.refused_before_form(results.no_show_form_refusal(v)):
            return
        a, b = v.teams

        def check(vals: Values) -> str | None:
            if vals["absent"] not in ("1", "2", "12"):
                return _("Absent: 1, 2 or 12 (both)")
            if choice(_REASONS, vals["reason"]) is None:
                return _("Reason: late or refused")
            if choice(_CAUSES, vals["cause"]) is None:
                return _("Caused by: team or organisers (32.03)")
            return None

        def run(values: Values) -> None:
            absent = [v.teams[int(c) - 1] for c in values["absent"]]
            cause = choice(_CAUSES, values["cause"]) or "team"
            reason = choice(_REASONS, values["reason"]) or "late"
            results.record_no_show(
                self.t,
                self.game_id,
                absent,
                reason,
                judge=self.app.judge,
                secret=values["pin"],
                cause=cause,
            )

        fields = [
            Field(
                "absent",
                f"{_('Absent')}: 1 = {v.name(a)}, 2 = {v.name(b)}, 12 = {_('both')}",
                restrict=r"[12]{0,2}",
            ),
            Field("reason", _("Reason: late or refused"), _("late")),
            Field("cause", _("Caused by: team or organisers (32.03)"), _("team")),
        ]
        self.pin_form(_("Head judge: no-show (32.01)"), fields, check, run)

    def action_replay(self) -> None:
        """32.03: only an organisers' no-show is replayed, by the head judge, within the
        round (the engine's replay_refusal says why not, before the secret is typed)."""
        v = self.view
        if v is None or self.refused_before_form(results.replay_form_refusal(self.t, v)):
            return

        def run(values: Values) -> None:
            results.replay_no_show(self.t, self.game_id, values["pin"], judge=self.app.judge)

        title = _("Head judge: replay an organisers' no-show (32.03)")
        self.pin_form(title, [], lambda _v: None, run)

    def action_void_locked(self) -> None:
        """31: the head judge voids a game event of the signed protocol (by its number)."""
        v = self.view
        if v is None:
            return
        if self.refused_before_form(None if v.protocol.locked else rule("locked_void_not_locked")):
            return
        by_seq = {str(e.seq): e.id for e in results.locked_void_targets(self.t, v)}

        def check(vals: Values) -> str | None:
            if vals["event"].lstrip("#") not in by_seq:
                return _("Type the number of an event listed under the protocol")
            if not vals["reason"]:
                return _("A correction needs a reason")
            return None

        def run(values: Values) -> None:
            target = by_seq[values["event"].lstrip("#")]
            results.void_locked_event(
                self.t, self.game_id, target, values["reason"], values["pin"], judge=self.app.judge
            )

        self.pin_form(
            _("Head judge: void an event of the signed protocol (31)"),
            [
                Field("event", _("Event number (#, listed under the protocol)"), restrict=r"#?\d*"),
                Field("reason", _("Reason")),
            ],
            check,
            run,
        )

    def confirm_against_rules(self, question: str, correct: Callable[[bool], None]) -> None:
        """30.01: points against the rule for the outcome recorded are written only once
        the head judge confirms them (y); n writes nothing."""

        def answered(yes: bool | None) -> None:
            if yes:
                self._do(lambda: correct(True))
            else:
                self.say(_("Not recorded: the correction contradicts 30.01"))

        text = f"{_('Record these points against 30.01?')}\n{question}"
        self.app.push_screen(ConfirmScreen(text), answered)

    def pin_form(self, title: str, fields: list[Field], check, run) -> None:
        """A head judge's form with his secret, opened again after a refusal; ``run``
        is one intent of the protocol."""
        head_judge_form(self.app, title, fields, check, lambda v: self._do(lambda: run(v)))


#: 32.03: who caused a no-show, as typed (English or Russian) → the stored code
_CAUSES = typed(
    {
        "team": ("team", "t", "команда", "к"),
        "organisers": ("organisers", "organizers", "o", "организаторы", "о"),
    }
)


#: 32.01: why a team did not play, as typed (English or Russian) → the stored code
_REASONS = typed(
    {
        "late": ("late", "l", "опоздание", "опоздали", "о"),
        "refused": ("refused", "r", "отказ", "отказались"),
    }
)


OUTCOME_CODES = {"h": "flag_hang", "f": "flag_held", "d": "draw"}


def outcome_code(result, teams) -> str:
    """The correction form's code of an outcome: h1/h2, f1/f2, d ("" for a no-show)."""
    team = pr.outcome_team(result)
    letter = {v: k for k, v in OUTCOME_CODES.items()}.get(result.outcome, "")
    return letter + (str(teams.index(team) + 1) if letter and team in teams else "")


def parse_outcome(code: str, teams) -> tuple[str, str | None] | None:
    """``h1`` → (flag_hang, team 1); ``d`` → (draw, None); "" → ("", None) (unchanged)."""
    code = code.strip().lower()
    if not code:
        return ("", None)
    outcome = OUTCOME_CODES.get(code[0])
    if outcome == "draw" and len(code) == 1:
        return (outcome, None)
    if outcome in ("flag_hang", "flag_held") and code[1:] in ("1", "2"):
        return (outcome, teams[int(code[1:]) - 1])
    return None
