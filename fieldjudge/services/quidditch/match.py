"""The match as the judge runs it: opened from its event log, the state as a fold over the
effective rounds, the draft of the round being entered, resolving a round, voiding the last
one (see the package docstring for the log and the no-re-roll rule), and its exports: the
JSON everything ``fieldjudge quidditch verify`` needs except the server seed, and the plain
text of all posts, written next to the match, never overwriting."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import orjson

from fieldjudge.i18n import _, rule_text
from fieldjudge.rules.dice import seed_commitment
from fieldjudge.rules.events import VOID, Event, voided_ids
from fieldjudge.rules.quidditch.closing import SEED_REVEALED, revealed_in, roll_refusal
from fieldjudge.rules.quidditch.declarations import Declaration
from fieldjudge.rules.quidditch.outcome import RoundResult
from fieldjudge.rules.quidditch.post import render_passes_post, render_post
from fieldjudge.rules.quidditch.resolve import make_dice, resolve_passes, resolve_round
from fieldjudge.rules.quidditch.roster import MatchSetup
from fieldjudge.rules.quidditch.state import MatchState, new_match
from fieldjudge.services.tournament import TournamentService
from fieldjudge.store import EventLog, Refused, StoreError
from fieldjudge.store.storage import atomic_write_bytes, make_dirs

from .common import (
    EXPORT_FORMAT,
    MATCH_CREATED,
    PASSES_RESOLVED,
    ROUND_RESOLVED,
    STEP_TYPES,
    SessionError,
    rolls_span,
    write_text,
)


def new_server_seed() -> str:
    """OS randomness for a new match (the rules layer never draws randomness itself)."""
    return secrets.token_hex(32)


@dataclass(frozen=True)
class Resolved:
    event: Event
    result: RoundResult
    post: str
    path: Path


def redo_note(round_no: int, voided: list[tuple[list[dict], str]]) -> str:
    """The Russian sentence a redone round's verification line carries."""
    parts = [f"броски {rolls_span(rolls)} (причина: {reason})" for rolls, reason in voided]
    return (
        f"Круг {round_no} пересчитан: прежний результат аннулирован судьёй — "
        + "; ".join(parts)
        + ". Аннулированные броски израсходованы и повторно не используются; "
        "этот круг брошен новыми номерами."
    )


INTERCEPTION_RU = {
    "flat": "успешный бросок перехвата забирает мяч",
    "contest": "спор: получатель тоже бросает, большее значение забирает мяч",
}
VANISH_RU = {"per_round": "каждый круг погони", "per_chase": "один раз за погоню"}


def settings_line(settings: Any) -> str:
    """The match settings of 5 (interception) and 9 (vanishing), in Russian, as the
    exports and posts show them."""
    i, v = settings.interception, settings.vanish_mode
    return (
        f"Настройки: перехват (п. 5) — {INTERCEPTION_RU.get(i, i)}; "
        f"исчезновение снитча (п. 9) — {VANISH_RU.get(v, v)}"
    )


class QuidditchSession:
    def __init__(self, tournament: TournamentService, log: EventLog) -> None:
        self.tournament = tournament
        self.log = log
        first = log.events[0] if log.events else None
        if first is None or first.type != MATCH_CREATED:
            raise SessionError(
                _("{file}: not a quidditch match (no match_created)").format(file=log.path.name)
            )
        self.setup = MatchSetup.from_dict(first.data["setup"])
        self.match_id, self.seed_hash = self.setup.match_id, self.setup.seed_hash
        self.server_seed: str = first.data["server_seed"]
        self.folder = log.path.parent / self.setup.match_id

    # -- opening --------------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        tournament: TournamentService,
        setup: MatchSetup,
        *,
        judge: str = "",
        server_seed: str | None = None,
    ) -> QuidditchSession:
        if tournament.match_path(setup.match_id).exists():
            raise SessionError(_("a match named {id} already exists").format(id=setup.match_id))
        seed = server_seed or new_server_seed()
        setup = replace(setup, seed_hash=seed_commitment(seed))
        tournament.append_match_event(
            setup.match_id,
            MATCH_CREATED,
            {"setup": setup.to_dict(), "server_seed": seed, "seed_hash": setup.seed_hash},
            judge=judge,
            meta={"teams": [t.name for t in setup.teams], "seed_hash": setup.seed_hash},
        )
        return cls(tournament, tournament.store.match_log(setup.match_id))

    @classmethod
    def open(cls, tournament: TournamentService, match_id: str) -> QuidditchSession:
        if not tournament.match_path(match_id).exists():
            raise SessionError(_("no match {id}").format(id=match_id))
        return cls(tournament, tournament.store.match_log(match_id))

    # -- reading --------------------------------------------------------------------------
    def round_events(self) -> list[Event]:
        """Every resolving step in log order: rounds and passes resolved within a round
        (0, 5), voided ones included."""
        return [e for e in self.log.events if e.type in STEP_TYPES]

    def voided(self) -> set[str]:
        return voided_ids(self.log.events)

    def effective_rounds(self) -> list[Event]:
        gone = self.voided()
        return [e for e in self.round_events() if e.id not in gone]

    def consumed_rolls(self) -> int:
        """The highest roll number ever used, voided rounds included."""
        return max(
            (r["n"] for e in self.round_events() for r in e.data["result"]["rolls"]), default=0
        )

    @property
    def state(self) -> MatchState:
        """The fold: the state after the last effective round, numbering past every used roll."""
        rounds = self.effective_rounds()
        if rounds:
            st = MatchState.from_dict(rounds[-1].data["result"]["state"])
        else:
            st = new_match(self.setup)
        st.next_roll_n = max(st.next_roll_n, self.consumed_rolls() + 1)
        st.revealed = revealed_in(self.log.events)  # a revealed match is closed
        return st

    def void_reason(self, event_id: str) -> str:
        for e in self.log.events:
            if e.type == VOID and e.data.get("target") == event_id:
                return str(e.data.get("reason", ""))
        return ""

    def voided_runs(self, round_no: int) -> list[tuple[list[dict], str]]:
        gone = self.voided()
        return [
            (list(e.data["result"]["rolls"]), self.void_reason(e.id))
            for e in self.round_events()
            if e.id in gone and e.data["round_no"] == round_no
        ]

    def post_path(self, round_no: int) -> Path:
        return self.folder / f"round-{round_no}.txt"

    def step_path(self, event: Event) -> Path:
        """Where a step's post is written: the round's, or for passes resolved within the
        round (0, 5) one file per step, named by its first roll."""
        if event.type == PASSES_RESOLVED:
            n, first = event.data["round_no"], event.data["first_roll"]
            return self.folder / f"round-{n}-passes-{first}.txt"
        return self.post_path(event.data["round_no"])

    def passes_resolved(self) -> list[str]:
        """0, 5: the passers whose pass of the round being entered is already resolved."""
        return list(self.state.passes_resolved)

    # -- the round being entered: a draft on disk, so a dead battery loses nothing --------
    @property
    def draft_path(self) -> Path:
        return self.folder / "draft.json"

    def save_draft(self, round_no: int, decls: Mapping[str, Declaration]) -> None:
        payload = {"round_no": round_no, "declarations": [d.to_dict() for d in decls.values()]}
        make_dirs(self.folder)
        atomic_write_bytes(self.draft_path, orjson.dumps(payload))

    def load_draft(self) -> dict[str, Declaration]:
        """The declarations entered so far for the round about to be played."""
        try:
            payload = orjson.loads(self.draft_path.read_bytes())
            if payload.get("round_no") != self.state.round_no:
                return {}
            decls = [Declaration.from_dict(d) for d in payload["declarations"]]
            return {d.player: d for d in decls if d.player in {p.id for p in self.setup.players}}
        except (OSError, ValueError, KeyError, TypeError):
            return {}

    # -- writing --------------------------------------------------------------------------
    def reveal_seed(self, *, judge: str = "") -> str:
        """Publish the server seed: recorded in the log, after which no roll is possible."""
        if not revealed_in(self.log.events):
            self.tournament.append_match_event(
                self.match_id, SEED_REVEALED, {"seed_hash": self.seed_hash}, judge=judge
            )
        return self.server_seed

    def closed_refusal(self) -> str | None:
        """Why no roll is possible any more (the seed was revealed: the match is closed,
        continuing needs a new match with a new committed seed), or None."""
        state = self.state
        why = roll_refusal(state)
        if why and state.revealed:
            return (
                rule_text(why)
                + " "
                + _(
                    "Continuing needs a new match with a new committed seed (its hash published "
                    "before the first roll)."
                )
            )
        return None

    def resolve_passes(self, declarations: Iterable[Declaration], *, judge: str = "") -> Resolved:
        """0, 5: resolve and post the pass catches entered so far, within the round. Logged
        as ``passes_resolved`` (rolls numbered on; ``verify`` replays it); the round's own
        resolution later skips these passes."""
        decls = list(declarations)
        result, first_roll = self._step(
            resolve_passes, decls, lambda exc: rule_text(exc.args[0]) if exc.args else str(exc)
        )
        if not result.outcomes:
            raise SessionError(_("5: no pass to resolve yet (passes stop at a steal or a shot)"))
        post = render_passes_post(result)
        event = self._record(PASSES_RESOLVED, result, first_roll, decls, post, judge)
        path = self.step_path(event)
        write_text(path, post + "\n")
        return Resolved(event, result, post, path)

    def _step(
        self, resolver: Callable, decls: list[Declaration], fault: Callable
    ) -> tuple[Any, int]:
        """The next step resolved on the open state with the match's dice, and its first
        roll's number; the engine's refusal is a :class:`SessionError` saying ``fault``."""
        state = self._open_state()
        first_roll = state.next_roll_n
        try:
            return resolver(state, decls, make_dice(state, self.server_seed)), first_roll
        except (ValueError, KeyError) as exc:
            raise SessionError(fault(exc)) from None

    def _open_state(self) -> MatchState:
        """The match state a new step is resolved on; :class:`SessionError` when the match
        is closed to new steps or has ended."""
        why = self.closed_refusal()
        if why:
            raise SessionError(why)
        state = self.state
        if state.ended:
            raise SessionError(_("the match has ended"))
        return state

    def _record(
        self,
        etype: str,
        result: Any,
        first_roll: int,
        decls: list[Declaration],
        post: str,
        judge: str,
    ) -> Event:
        """Append a resolved step (a whole round or the passes so far) through the one
        writer, with what `quidditch verify` needs to replay it."""
        try:
            return self.tournament.append_match_event(
                self.match_id,
                etype,
                {
                    "round_no": result.round_no,
                    "first_roll": first_roll,
                    "declarations": [d.to_dict() for d in decls],
                    "result": result.to_dict(),
                    "post": post,
                },
                judge=judge,
            )
        except StoreError as exc:
            raise SessionError(_("cannot save the round: {error}").format(error=exc)) from None

    def resolve(self, declarations: Iterable[Declaration], *, judge: str = "") -> Resolved:
        decls = list(declarations)
        result, first_roll = self._step(
            resolve_round,
            decls,
            lambda exc: _("cannot resolve the round: {error}").format(error=exc),
        )
        post = render_post(result)
        runs = self.voided_runs(result.round_no)
        if runs:
            lines = post.split("\n")
            lines[-1] = lines[-1] + " " + redo_note(result.round_no, runs)
            post = "\n".join(lines)
        event = self._record(ROUND_RESOLVED, result, first_roll, decls, post, judge)
        path = self.post_path(result.round_no)
        write_text(path, post + "\n")
        self.save_draft(result.state.round_no, {})
        return Resolved(event, result, post, path)

    def can_void(self) -> str | None:
        """None when the last round may be voided, else why not."""
        rounds = self.effective_rounds()
        if not rounds:
            return _("no round to void")
        last = rounds[-1].data["round_no"]
        if any(e.data["round_no"] > last for e in self.round_events()):
            return _("a later round was already resolved")
        return None

    def void_last_round(self, reason: str, *, judge: str = "") -> Event:
        why = self.can_void()
        if why:
            raise SessionError(why)
        if not reason.strip():
            raise SessionError(_("a correction needs a reason"))
        target = self.effective_rounds()[-1]
        try:
            ev = self.tournament.append_match_event(
                self.match_id, VOID, {"target": target.id, "reason": reason}, judge=judge
            )
        except Refused as exc:
            raise SessionError(_("cannot void the round: {error}").format(error=exc)) from None
        write_text(
            self.step_path(target),
            f"[АННУЛИРОВАН: {reason.strip()}]\n\n{target.data['post']}\n",
        )
        return ev

    # -- exports ---------------------------------------------------------------------------
    def export_dict(self) -> dict[str, Any]:
        """Everything ``verify`` needs except the server seed: every round (voided ones
        marked), its declarations, every roll, the outcomes and the post."""
        gone = self.voided()
        rounds = []
        for e in self.round_events():
            v = e.id in gone
            res = e.data["result"]
            rounds.append(
                {
                    "event_id": e.id,
                    # "passes": resolved within the round (0, 5), "round": the whole round
                    "kind": "passes" if e.type == PASSES_RESOLVED else "round",
                    "round_no": e.data["round_no"],
                    "first_roll": e.data["first_roll"],
                    "voided": v,
                    "void_reason": self.void_reason(e.id) if v else "",
                    "wall_time": e.wall_time,
                    "judge": e.judge,
                    "declarations": e.data["declarations"],
                    "rolls": [{**r, "voided": v} for r in res["rolls"]],
                    "outcomes": res["outcomes"],
                    "score": res["state"]["score"],
                    "post": e.data["post"],
                }
            )
        st = self.state
        settings = self.setup.settings
        return {
            "format": EXPORT_FORMAT,
            # 5, 9: the match settings that change a result, stated plainly
            "settings": {
                "interception": settings.interception,
                "vanish_mode": settings.vanish_mode,
            },
            "version": 1,
            "match_id": self.match_id,
            "seed_hash": self.seed_hash,
            "client_seed": self.setup.client_seed,
            "setup": self.setup.to_dict(),
            "rounds": rounds,
            "final": {"score": st.score, "ended": st.ended, "end_reason": st.end_reason},
            "chain_head": self.log.last_hash,
        }

    def export_text(self) -> str:
        a, b = self.setup.teams
        head = [
            f"Матч {self.match_id}: {a.name} — {b.name}",
            f"Хэш сида (sha256): {self.seed_hash}",
            f"Клиентский сид: {self.setup.client_seed or '—'}",
            settings_line(self.setup.settings),
            "",
        ]
        gone = self.voided()
        body = []
        for e in self.round_events():
            if e.id in gone:
                rolls = e.data["result"]["rolls"]
                body.append(
                    f"[Круг {e.data['round_no']} аннулирован ({self.void_reason(e.id)}); "
                    f"броски {rolls_span(rolls)} израсходованы]"
                )
            else:
                body.append(e.data["post"])
            body.append("")
        return "\n".join(head + body).rstrip() + "\n"

    def write_export(self, path: Path) -> Path:
        """The JSON export (:meth:`export_dict`) written to ``path`` atomically."""
        atomic_write_bytes(path, orjson.dumps(self.export_dict(), option=orjson.OPT_INDENT_2))
        return path

    def write_exports(self) -> tuple[Path, Path]:
        """``export[-k].json`` and ``posts[-k].txt`` in the match folder, never overwriting."""
        k = 1
        while True:
            suffix = "" if k == 1 else f"-{k}"
            j, t = self.folder / f"export{suffix}.json", self.folder / f"posts{suffix}.txt"
            if not j.exists() and not t.exists():
                break
            k += 1
        self.folder.mkdir(parents=True, exist_ok=True)
        self.write_export(j)
        write_text(t, self.export_text())
        return j, t


def match_list(tournament: TournamentService) -> list[dict[str, Any]]:
    """One row per match file for the matches screen (unreadable files reported, not raised)."""
    out = []
    for mid in tournament.matches():
        try:
            s = QuidditchSession.open(tournament, mid)
            st = s.state
            a, b = s.setup.teams
            out.append(
                {
                    "id": mid,
                    "teams": f"{a.name} — {b.name}",
                    "round": st.round_no,
                    "score": f"{st.score[a.key]} : {st.score[b.key]}",
                    "ended": st.ended,
                }
            )
        except (SessionError, StoreError, KeyError, ValueError) as exc:
            out.append({"id": mid, "teams": f"! {exc}", "round": 0, "score": "", "ended": False})
    return out
