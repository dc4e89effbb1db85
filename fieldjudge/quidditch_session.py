"""A forum quidditch match as the judge runs it: the non-UI layer behind the screens and
``fieldjudge quidditch`` (issue 6).

The match lives in its own TinyDB event log, ``quidditch/<match-id>.json`` in a tournament
folder, with three event types:

- ``match_created``: the setup (teams, players, settings, feints, end condition, client seed,
  published seed hash) and the **server seed** (kept in the match file, never exported);
- ``round_resolved``: the round's declarations, the full :class:`RoundResult` (outcomes,
  every roll with its purpose and threshold, the state after the round) and the post text;
- ``void``: a mistaken round, voided before the next one is resolved.

The state is a fold over the effective events: the state stored with the last effective
round (or a new match). Round posts are written to ``quidditch/<match-id>/round-<n>.txt``.

**No re-roll.** A voided round's rolls stay in the log and stay *consumed*: the redo of the
round continues the roll numbering after the highest roll ever used, so no roll number is
ever drawn twice, and the redo's post says which roll numbers were voided and why. A judge
could still void a round to draw fresh rolls, but never silently: every void and its rolls
are in the export (marked ``voided``) and in the posts, so players can see and count them.
Only the last effective round may be voided, and only while no later round was resolved.
"""

from __future__ import annotations

import csv
import io
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import orjson

from fieldjudge.rules.dice import seed_commitment, verify_rolls
from fieldjudge.rules.events import VOID, Event, voided_ids
from fieldjudge.rules.quidditch import (
    Declaration,
    EndCondition,
    FeintCatalogue,
    MatchSetup,
    MatchState,
    Player,
    QuidditchSettings,
    RoundResult,
    Team,
    make_dice,
    new_match,
    render_post,
    resolve_round,
)
from fieldjudge.rules.quidditch.roster import BEATER, CHASER, KEEPER, LINEUP, POSITIONS, SEEKER
from fieldjudge.store import EventLog, Refused, StoreError, Tournament, slugify
from fieldjudge.store.storage import atomic_write_bytes

MATCH_CREATED = "match_created"
ROUND_RESOLVED = "round_resolved"
EXPORT_FORMAT = "fieldjudge-quidditch-export"

POSITION_ALIASES = {
    CHASER: CHASER,
    "охотник": CHASER,
    "c": CHASER,
    BEATER: BEATER,
    "защитник": BEATER,
    "загонщик": BEATER,
    "b": BEATER,
    KEEPER: KEEPER,
    "вратарь": KEEPER,
    "k": KEEPER,
    SEEKER: SEEKER,
    "ловец": SEEKER,
    "s": SEEKER,
}
POSITION_ORDER = {p: i for i, p in enumerate(POSITIONS)}


class SessionError(Exception):
    """A clear message for the judge (bad input, a refused correction, a missing match)."""


def new_server_seed() -> str:
    """OS randomness for a new match (the rules layer never draws randomness itself)."""
    return secrets.token_hex(32)


# -- roster ---------------------------------------------------------------------------------
@dataclass
class RosterRow:
    team: str
    name: str
    position: str
    matches: int = 0
    practices: int = 0


def default_rows(team_a: str = "Команда 1", team_b: str = "Команда 2") -> list[RosterRow]:
    """Fourteen placeholder players (3 chasers, 2 beaters, a keeper, a seeker per team)."""
    names = {CHASER: "Охотник", BEATER: "Защитник", KEEPER: "Вратарь", SEEKER: "Ловец"}
    rows = []
    for team, mark in ((team_a, "А"), (team_b, "Б")):
        for pos in POSITIONS:
            for i in range(LINEUP[pos]):
                num = f" {i + 1}" if LINEUP[pos] > 1 else ""
                rows.append(RosterRow(team, f"{names[pos]}{num} {mark}", pos))
    return rows


def parse_roster_csv(text: str) -> tuple[list[RosterRow], list[str]]:
    """``team,name,position,matches,practices`` (comma or semicolon, optional header).
    Positions in English or Russian. Returns the rows and the errors (line numbers)."""
    text = text.lstrip("\ufeff")
    first = text.splitlines()[0] if text.strip() else ""
    delim = ";" if first.count(";") > first.count(",") else ","
    rows: list[RosterRow] = []
    errors: list[str] = []
    for line_no, cells in enumerate(csv.reader(io.StringIO(text), delimiter=delim), 1):
        cells = [c.strip() for c in cells]
        if not any(cells):
            continue
        if line_no == 1 and cells[0].lower() in ("team", "команда"):
            continue
        if len(cells) < 3:
            errors.append(f"line {line_no}: expected team,name,position,matches,practices")
            continue
        team, name, pos = cells[0], cells[1], cells[2].lower()
        if not team or not name:
            errors.append(f"line {line_no}: team and name are required")
            continue
        if pos not in POSITION_ALIASES:
            errors.append(f"line {line_no}: unknown position {cells[2]!r}")
            continue
        try:
            matches = int(cells[3]) if len(cells) > 3 and cells[3] else 0
            practices = int(cells[4]) if len(cells) > 4 and cells[4] else 0
        except ValueError:
            errors.append(f"line {line_no}: matches and practices must be whole numbers")
            continue
        if matches < 0 or practices < 0:
            errors.append(f"line {line_no}: matches and practices cannot be negative")
            continue
        rows.append(RosterRow(team, name, POSITION_ALIASES[pos], matches, practices))
    if not errors:
        errors.extend(lineup_errors(rows))
    return rows, errors


def lineup_errors(rows: list[RosterRow]) -> list[str]:
    teams = list(dict.fromkeys(r.team for r in rows))
    if len(teams) != 2:
        return [f"a match has two teams, found {len(teams)}: {', '.join(teams) or '-'}"]
    out = []
    for t in teams:
        got = {p: sum(1 for r in rows if r.team == t and r.position == p) for p in POSITIONS}
        if got != LINEUP:
            have = ", ".join(f"{n} {p}" for p, n in got.items())
            out.append(f"team {t}: {have}; expected 3 chaser, 2 beater, 1 keeper, 1 seeker")
    return out


def build_setup(
    match_id: str,
    rows: list[RosterRow],
    *,
    genitives: Mapping[str, str] | None = None,
    initials: Mapping[str, str] | None = None,
    settings: QuidditchSettings | None = None,
    feints: FeintCatalogue | None = None,
    end: EndCondition | None = None,
    client_seed: str = "",
) -> MatchSetup:
    """A :class:`MatchSetup` from roster rows; raises :class:`SessionError` when invalid."""
    mid = slugify(match_id) if match_id.strip() else ""
    if not mid:
        raise SessionError("the match needs a name")
    errors = lineup_errors(rows)
    if errors:
        raise SessionError("; ".join(errors))
    names = list(dict.fromkeys(r.team for r in rows))
    teams = tuple(
        Team(key, name, (initials or {}).get(name, ""), (genitives or {}).get(name, ""))
        for key, name in zip(("a", "b"), names, strict=True)
    )
    if teams[0].short == teams[1].short:
        raise SessionError("the two teams need different initials")
    key_of = {t.name: t.key for t in teams}
    counters: dict[tuple[str, str], int] = {}
    players = []
    for r in sorted(rows, key=lambda r: (names.index(r.team), POSITION_ORDER[r.position])):
        k = key_of[r.team]
        counters[(k, r.position)] = counters.get((k, r.position), 0) + 1
        pid = f"{k}_{r.position}{counters[(k, r.position)]}"
        players.append(Player(pid, r.name, k, r.position, r.matches, r.practices))
    try:
        return MatchSetup(
            match_id=mid,
            teams=(teams[0], teams[1]),
            players=tuple(players),
            settings=settings or QuidditchSettings(),
            feints=feints if feints is not None else FeintCatalogue(),
            end=end or EndCondition(),
            client_seed=client_seed,
        )
    except ValueError as exc:
        raise SessionError(str(exc)) from None


# -- the session ------------------------------------------------------------------------
@dataclass(frozen=True)
class Resolved:
    event: Event
    result: RoundResult
    post: str
    path: Path


def _rolls_span(rolls: list[Mapping[str, Any]]) -> str:
    if not rolls:
        return "бросков не было"
    a, b = rolls[0]["n"], rolls[-1]["n"]
    return f"№{a}" if a == b else f"№{a}–{b}"


def redo_note(round_no: int, voided: list[tuple[list[dict], str]]) -> str:
    """The Russian sentence a redone round's verification line carries."""
    parts = [f"броски {_rolls_span(rolls)} (причина: {reason})" for rolls, reason in voided]
    return (
        f"Круг {round_no} пересчитан: прежний результат аннулирован судьёй — "
        + "; ".join(parts)
        + ". Аннулированные броски израсходованы и повторно не используются; "
        "этот круг брошен новыми номерами."
    )


class QuidditchSession:
    def __init__(self, tournament: Tournament, log: EventLog) -> None:
        self.tournament = tournament
        self.log = log
        first = log.events[0] if log.events else None
        if first is None or first.type != MATCH_CREATED:
            raise SessionError(f"{log.path.name}: not a quidditch match (no match_created)")
        self.setup = MatchSetup.from_dict(first.data["setup"])
        self.server_seed: str = first.data["server_seed"]
        self.folder = log.path.parent / self.setup.match_id

    # -- opening --------------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        tournament: Tournament,
        setup: MatchSetup,
        *,
        judge: str = "",
        server_seed: str | None = None,
    ) -> QuidditchSession:
        if tournament.match_path(setup.match_id).exists():
            raise SessionError(f"a match named {setup.match_id} already exists")
        seed = server_seed or new_server_seed()
        setup = replace(setup, seed_hash=seed_commitment(seed))
        log = tournament.match_log(
            setup.match_id, {"teams": [t.name for t in setup.teams], "seed_hash": setup.seed_hash}
        )
        log.append(
            MATCH_CREATED,
            {"setup": setup.to_dict(), "server_seed": seed, "seed_hash": setup.seed_hash},
            judge=judge,
        )
        return cls(tournament, log)

    @classmethod
    def open(cls, tournament: Tournament, match_id: str) -> QuidditchSession:
        if not tournament.match_path(match_id).exists():
            raise SessionError(f"no match {match_id}")
        return cls(tournament, tournament.match_log(match_id))

    # -- reading --------------------------------------------------------------------------
    @property
    def match_id(self) -> str:
        return self.setup.match_id

    @property
    def seed_hash(self) -> str:
        return self.setup.seed_hash

    def round_events(self) -> list[Event]:
        return [e for e in self.log.events if e.type == ROUND_RESOLVED]

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

    def posts(self) -> list[tuple[int, str]]:
        return [(e.data["round_no"], e.data["post"]) for e in self.effective_rounds()]

    # -- the round being entered: a draft on disk, so a dead battery loses nothing --------
    @property
    def draft_path(self) -> Path:
        return self.folder / "draft.json"

    def save_draft(self, round_no: int, decls: Mapping[str, Declaration]) -> None:
        payload = {"round_no": round_no, "declarations": [d.to_dict() for d in decls.values()]}
        self.folder.mkdir(parents=True, exist_ok=True)
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
    def _write(self, path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, text.encode("utf-8"))

    def resolve(self, declarations: Iterable[Declaration], *, judge: str = "") -> Resolved:
        state = self.state
        if state.ended:
            raise SessionError("the match has ended")
        decls = list(declarations)
        first_roll = state.next_roll_n
        try:
            result = resolve_round(state, decls, make_dice(state, self.server_seed))
        except (ValueError, KeyError) as exc:
            raise SessionError(f"cannot resolve the round: {exc}") from None
        post = render_post(result)
        runs = self.voided_runs(result.round_no)
        if runs:
            lines = post.split("\n")
            lines[-1] = lines[-1] + " " + redo_note(result.round_no, runs)
            post = "\n".join(lines)
        try:
            event = self.log.append(
                ROUND_RESOLVED,
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
            raise SessionError(str(exc)) from None
        path = self.post_path(result.round_no)
        self._write(path, post + "\n")
        self.save_draft(result.state.round_no, {})
        return Resolved(event, result, post, path)

    def can_void(self) -> str | None:
        """None when the last round may be voided, else why not."""
        rounds = self.effective_rounds()
        if not rounds:
            return "no round to void"
        last = rounds[-1].data["round_no"]
        if any(e.data["round_no"] > last for e in self.round_events()):
            return "a later round was already resolved"
        return None

    def void_last_round(self, reason: str, *, judge: str = "") -> Event:
        why = self.can_void()
        if why:
            raise SessionError(why)
        if not reason.strip():
            raise SessionError("a correction needs a reason")
        target = self.effective_rounds()[-1]
        try:
            ev = self.log.void(target.id, reason, judge=judge)
        except Refused as exc:
            raise SessionError(str(exc)) from None
        n = target.data["round_no"]
        self._write(
            self.post_path(n),
            f"[АННУЛИРОВАН: {reason.strip()}]\n\n{target.data['post']}\n",
        )
        return ev

    # -- exports --------------------------------------------------------------------------
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
        return {
            "format": EXPORT_FORMAT,
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
            "",
        ]
        gone = self.voided()
        body = []
        for e in self.round_events():
            if e.id in gone:
                rolls = e.data["result"]["rolls"]
                body.append(
                    f"[Круг {e.data['round_no']} аннулирован ({self.void_reason(e.id)}); "
                    f"броски {_rolls_span(rolls)} израсходованы]"
                )
            else:
                body.append(e.data["post"])
            body.append("")
        return "\n".join(head + body).rstrip() + "\n"

    def write_exports(self) -> tuple[Path, Path]:
        """``export[-k].json`` and ``posts[-k].txt`` in the match folder, never overwriting."""
        k = 1
        while True:
            suffix = "" if k == 1 else f"-{k}"
            j, t = self.folder / f"export{suffix}.json", self.folder / f"posts{suffix}.txt"
            if not j.exists() and not t.exists():
                break
            k += 1
        data = orjson.dumps(self.export_dict(), option=orjson.OPT_INDENT_2)
        self.folder.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(j, data)
        self._write(t, self.export_text())
        return j, t


# -- verification -----------------------------------------------------------------------------
def _plain(x: Any) -> Any:
    return orjson.loads(orjson.dumps(x))


def verify_export(data: Mapping[str, Any], server_seed: str) -> list[str]:
    """Every problem found in an export, given the revealed server seed (empty = honest).

    Checks the seed against the published hash, recomputes every roll (voided ones too, no
    roll number twice), that each round's rolls are numbered on from ``first_roll``, and
    replays every effective round from its declarations to compare rolls and outcomes."""
    problems: list[str] = []
    try:
        if data.get("format") != EXPORT_FORMAT:
            return ["not a fieldjudge quidditch export"]
        setup = MatchSetup.from_dict(data["setup"])
        if seed_commitment(server_seed) != data["seed_hash"]:
            problems.append("the seed does not match the published hash")
            return problems
        if setup.seed_hash != data["seed_hash"]:
            problems.append("the setup's seed hash differs from the export's")
        all_rolls = [r for rnd in data["rounds"] for r in rnd["rolls"]]
        for m in verify_rolls(server_seed, setup.client_seed, setup.match_id, all_rolls):
            problems.append(
                f"round {m.round_no}, roll #{m.n}: {m.reason} "
                f"(recorded {m.recorded}, recomputed {m.expected})"
            )
        state = new_match(setup)
        for rnd in data["rounds"]:
            ns = [r["n"] for r in rnd["rolls"]]
            start = rnd["first_roll"]
            if ns != list(range(start, start + len(ns))):
                problems.append(f"round {rnd['round_no']}: roll numbers not consecutive")
            if rnd["voided"]:
                continue
            if rnd["round_no"] != state.round_no:
                problems.append(f"round {rnd['round_no']}: expected round {state.round_no}")
            st = state.copy()
            st.next_roll_n = start
            decls = [Declaration.from_dict(d) for d in rnd["declarations"]]
            result = resolve_round(st, decls, make_dice(st, server_seed))
            if _plain([r.to_dict() for r in result.rolls]) != _plain(
                [{k: v for k, v in r.items() if k != "voided"} for r in rnd["rolls"]]
            ):
                problems.append(f"round {rnd['round_no']}: replayed rolls differ")
            elif _plain([o.to_dict() for o in result.outcomes]) != _plain(rnd["outcomes"]):
                problems.append(f"round {rnd['round_no']}: replayed outcomes differ")
            state = result.state
    except (KeyError, TypeError, ValueError) as exc:
        problems.append(f"malformed export: {exc!r}")
    return problems


def count_rolls(data: Mapping[str, Any]) -> tuple[int, int, int]:
    """(rounds, rolls, voided rolls) of an export."""
    rounds = data.get("rounds", [])
    rolls = [r for rnd in rounds for r in rnd.get("rolls", [])]
    return len(rounds), len(rolls), sum(1 for r in rolls if r.get("voided"))


def match_list(tournament: Tournament) -> list[dict[str, Any]]:
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
