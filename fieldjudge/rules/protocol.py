"""The signed game protocol (31), no-show rulings (32) and the lock: pure functions over a
game's events. No store, no clock: times come in as arguments.

Protocol events live in the game's own log:

- ``protocol_submitted`` -- the senior judge submits the result (30.02, 31). data:
  ``points`` {team: int}, ``diff`` {team: int}, ``outcome`` str, ``survivors`` {team: int}.
  A later game event (or a void of one) makes the submission stale: a new protocol is
  filled and submitted again (31: "при обнаружении ошибки заполняется новый протокол").
- ``captain_signed`` -- data: ``team``, ``name`` (typed by the captain). Time = wall_time.
- ``captain_refused`` -- data: ``team``, ``reason``, optional ``captain``. Recorded by the
  senior judge (31). Time = wall_time.
- ``total_corrected`` -- only once both captains answered: the head judge corrects a wrong
  total (31). data: ``old_points``, ``new_points``, ``old_diff``, ``new_diff`` ({team: int}),
  ``reason``, ``head_judge``; optionally the outcome he rules instead (30.01):
  ``old_outcome``/``new_outcome`` (flag_hang | flag_held | draw) and
  ``old_outcome_team``/``new_outcome_team`` (the team that hung or holds the flag);
  ``confirmed_against_rules: true`` when its points contradict 30.01 for the outcome it
  records and the head judge confirmed them (:func:`points_against_rules`).

Both captains signed → the protocol is locked: every event is refused except
``total_corrected`` and the head judge's void of a game event (31: "voiding a locked
event"): a ``void`` whose data carry ``after_lock: true`` and ``head_judge`` (his name),
signed with his key. It keeps the protocol locked (it is a correction, not a new game
event): the result is folded again without the voided event and the void is listed with
its reason beside the total corrections.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from fieldjudge.rules.events import VOID, Event, effective, has_void, voided_ids
from fieldjudge.rules.messages import Phrase, Team, joined, phrase, rule
from fieldjudge.rules.paintball import scoring as sc

PROTOCOL_SUBMITTED = "protocol_submitted"
CAPTAIN_SIGNED = "captain_signed"
CAPTAIN_REFUSED = "captain_refused"
TOTAL_CORRECTED = "total_corrected"
NO_SHOW = "no_show"  # the engine's type (32.01)
PROTOCOL_TYPES = frozenset({PROTOCOL_SUBMITTED, CAPTAIN_SIGNED, CAPTAIN_REFUSED, TOTAL_CORRECTED})

# protocol phases (the home screen shows them)
OPEN = "open"
SUBMITTED = "submitted"
SIGNED = "signed"  # both captains answered, at least one refused
LOCKED = "locked"  # both captains signed

LOCKED_MESSAGE = rule("locked")
#: what the head judge may not void once the protocol is locked (31): a protocol step, a
#: no-show (32: ruled and replayed by its own rules) or another void
LOCKED_VOID_BARRED = PROTOCOL_TYPES | {NO_SHOW, VOID}


@dataclass(frozen=True)
class Signature:
    """A captain's signature of the submitted protocol (31)."""

    team: str
    name: str
    wall_time: str
    event_id: str
    judge: str = ""


@dataclass(frozen=True)
class Refusal:
    """A captain's refusal to sign the protocol, with his reason (31)."""

    team: str
    reason: str
    captain: str
    wall_time: str
    event_id: str
    judge: str = ""


@dataclass(frozen=True)
class Correction:
    """The head judge's correction of a game's total (31), old and new."""

    old_points: Mapping[str, int]
    new_points: Mapping[str, int]
    old_diff: Mapping[str, int]
    new_diff: Mapping[str, int]
    reason: str
    head_judge: str
    wall_time: str
    event_id: str
    old_outcome: str = ""  # "" when the head judge changed the points only
    new_outcome: str = ""
    old_outcome_team: str | None = None
    new_outcome_team: str | None = None
    seq: int = 0
    against_rules: bool = False  # 30.01: the head judge confirmed points against the rule


@dataclass(frozen=True)
class LockedVoid:
    """A game event the head judge voided after both captains signed (31)."""

    target_id: str
    target_type: str
    reason: str
    head_judge: str
    wall_time: str
    event_id: str
    seq: int


def is_locked_void(etype: str, data: Mapping[str, Any] | None) -> bool:
    """Whether an event claims to be the head judge's void of a locked event (31)."""
    return etype == VOID and isinstance(data, Mapping) and data.get("after_lock") is True


@dataclass
class Protocol:
    """A game's protocol folded from its events: submission, signatures, corrections."""

    teams: tuple[str, str]
    submission: Event | None = None
    stale: bool = False  # a game event came after the submission
    signatures: dict[str, Signature] = field(default_factory=dict)
    refusals: dict[str, Refusal] = field(default_factory=dict)
    corrections: list[Correction] = field(default_factory=list)
    no_show: frozenset[str] = frozenset()
    voids: list[LockedVoid] = field(default_factory=list)  # the head judge's, after the lock

    @property
    def submitted(self) -> bool:
        return self.submission is not None and not self.stale

    @property
    def locked(self) -> bool:
        return self.submitted and all(t in self.signatures for t in self.teams)

    def answered(self, team: str) -> bool:
        return team in self.signatures or team in self.refusals

    @property
    def all_answered(self) -> bool:
        return self.submitted and all(self.answered(t) for t in self.teams)

    @property
    def phase(self) -> str:
        if self.locked:
            return LOCKED
        if self.all_answered:
            return SIGNED
        if self.submitted:
            return SUBMITTED
        return OPEN


def _int_map(value: Any, teams: Sequence[str]) -> dict[str, int] | None:
    if not isinstance(value, Mapping):
        return None
    try:
        out = {t: int(value[t]) for t in teams}
    except (KeyError, TypeError, ValueError):
        return None
    return out


def fold_protocol(events: Iterable[Event], teams: tuple[str, str]) -> Protocol:
    """The protocol after ``events`` (voided events do not count)."""
    evs = list(events)
    p = Protocol(teams=tuple(teams))  # type: ignore[arg-type]
    # only the protocol's own steps and a no-show change it; any other event after the
    # newest submission makes that submission stale (what ``_apply`` does event by event)
    steps = [e for e in effective(evs) if e.type in _PROTOCOL_STEPS]
    for e in steps:
        _apply(p, e)
    if p.submission is not None:
        p.stale = _game_event_after(evs, p.submission)
    # a void after the submission that targets a game event changes the result as well
    # (31) except the head judge's void of a game event once the protocol was locked
    if p.submission is not None and has_void(evs):
        gone = voided_ids(evs)
        raw_types = {e.id: e.type for e in evs}
        for i, v in enumerate(evs):
            if v.seq <= p.submission.seq or v.type != VOID:
                continue
            target_type = raw_types.get(str(v.data.get("target", "")), "")
            if target_type in PROTOCOL_TYPES:
                continue
            if (
                is_locked_void(v.type, v.data)
                and v.id not in gone
                and target_type not in LOCKED_VOID_BARRED
                and fold_protocol(evs[:i], teams).locked
            ):
                p.voids.append(
                    LockedVoid(
                        str(v.data.get("target", "")),
                        target_type,
                        str(v.data.get("reason", "")),
                        str(v.data.get("head_judge", "") or v.judge),
                        v.wall_time,
                        v.id,
                        v.seq,
                    )
                )
            else:
                p.stale = True
    return p


#: the events :func:`_apply` reads; every other effective event only makes a submission
#: before it stale
_PROTOCOL_STEPS = PROTOCOL_TYPES | {NO_SHOW}


def _game_event_after(evs: Sequence[Event], submission: Event) -> bool:
    """Whether an effective game event (neither a protocol step, a no-show nor a void)
    follows the newest effective submission: the protocol was submitted before the game's
    record was complete (31)."""
    after = [e for e in evs if e.seq > submission.seq]
    if not any(e.type not in _PROTOCOL_STEPS for e in after):
        return False
    gone = voided_ids(evs)
    return any(e.type not in _PROTOCOL_STEPS and e.type != VOID and e.id not in gone for e in after)


def _apply(p: Protocol, e: Event) -> None:
    """One effective event (not a void) into ``p``, in place (31, 32.01)."""
    teams = p.teams
    d = e.data if isinstance(e.data, Mapping) else {}
    if e.type == PROTOCOL_SUBMITTED:
        p.submission, p.stale = e, False
        p.signatures, p.refusals, p.corrections = {}, {}, []
        p.voids = []  # the head judge's voids are those after the newest submission
    elif e.type == CAPTAIN_SIGNED and p.submission is not None:
        team = str(d.get("team", ""))
        if team in teams and not p.answered(team):
            p.signatures[team] = Signature(team, str(d.get("name", "")), e.wall_time, e.id, e.judge)
    elif e.type == CAPTAIN_REFUSED and p.submission is not None:
        team = str(d.get("team", ""))
        if team in teams and not p.answered(team):
            p.refusals[team] = Refusal(
                team,
                str(d.get("reason", "")),
                str(d.get("captain", "")),
                e.wall_time,
                e.id,
                e.judge,
            )
    elif e.type == TOTAL_CORRECTED:
        old, new = _int_map(d.get("old_points"), teams), _int_map(d.get("new_points"), teams)
        if old is None or new is None:
            return  # a protocol step: it does not make the submission stale either
        p.corrections.append(
            Correction(
                old,
                new,
                _int_map(d.get("old_diff"), teams) or {},
                _int_map(d.get("new_diff"), teams) or {},
                str(d.get("reason", "")),
                str(d.get("head_judge", "") or e.judge),
                e.wall_time,
                e.id,
                *_outcomes(d, teams),
                seq=e.seq,
                against_rules=d.get("confirmed_against_rules") is True,
            )
        )
    elif e.type == NO_SHOW:
        absent = d.get("absent") or []
        if isinstance(absent, list | tuple):
            p.no_show = frozenset(str(t) for t in absent) & set(teams)
    if e.type not in PROTOCOL_TYPES and e.type != NO_SHOW and p.submission is not None:
        p.stale = True


def advance_protocol(
    p: Protocol,
    event: Event,
    events: Sequence[Event],
    with_id: Callable[[str], Sequence[Event]] | None = None,
) -> Protocol:
    """The protocol after one more event: ``fold_protocol(events, p.teams)``, where
    ``events`` is the log ``p`` was folded from followed by ``event`` (its last item; read
    only when ``event`` is a void). A game or protocol event is applied to a copy of ``p``
    (its cost does not grow with the game); a void may undo any earlier event, even a void
    (31: voiding a locked event), so the log is folded again. ``p`` is not changed.
    ``with_id``: the log's events of an id, when the caller keeps an index: a void of a
    game event then never walks the log."""
    if event.type == VOID:
        if p.submission is None and not _reaches_a_step(events, event, with_id):
            return p  # 31: before a submission only the steps (and a no-show) count
        return fold_protocol(events, p.teams)
    if event.type not in _PROTOCOL_STEPS and (p.submission is None or p.stale):
        return p  # a game event only makes a submission stale: none, or stale already
    q = replace(
        p,
        signatures=dict(p.signatures),
        refusals=dict(p.refusals),
        corrections=list(p.corrections),
        voids=list(p.voids),
    )
    _apply(q, event)
    return q


def first_with_id(
    events: Sequence[Event],
    event_id: str,
    with_id: Callable[[str], Sequence[Event]] | None = None,
) -> Event | None:
    """The first event of the id, by ``with_id`` (the log's index) or a walk of ``events``."""
    if with_id is not None:
        found = with_id(event_id)
        return found[0] if found else None
    return next((e for e in events if e.id == event_id), None)


def _reaches_a_step(
    events: Sequence[Event],
    void: Event,
    with_id: Callable[[str], Sequence[Event]] | None = None,
) -> bool:
    """Whether ``void`` (the last of ``events``) takes back or restores a protocol step or
    a no-show: its target, or through a void it voids, that void's target, and so on."""
    find = with_id or (lambda event_id: [e for e in events if e.id == event_id])
    seen: set[str] = set()
    todo = [void]
    while todo:
        v = todo.pop()
        target = v.data.get("target") if isinstance(v.data, Mapping) else None
        if not isinstance(target, str) or target in seen:
            continue
        seen.add(target)
        for e in find(target):  # every event of the id
            if e.type in _PROTOCOL_STEPS:
                return True
            if e.type == VOID:
                todo.append(e)
    return False


def protocols_before(
    events: Sequence[Event], teams: tuple[str, str], start: int = 0
) -> Iterator[Protocol]:
    """The protocol before each of ``events[start:]`` (``fold_protocol(events[:i], teams)``
    for each ``i`` from ``start``), advanced event by event: a check of every event of a
    log (verify, a merge) costs the log once, not once per event."""
    p = fold_protocol(events[:start], teams)
    for i in range(start, len(events)):
        yield p
        e = events[i]
        p = advance_protocol(p, e, events[: i + 1] if e.type == VOID else (e,))


def _team_or_none(value: Any, teams: Sequence[str]) -> str | None:
    return str(value) if value is not None and str(value) in teams else None


def _outcomes(
    d: Mapping[str, Any], teams: Sequence[str]
) -> tuple[str, str, str | None, str | None]:
    """(old_outcome, new_outcome, old_team, new_team) of a ``total_corrected`` event;
    an unknown new outcome counts as none (the points still apply)."""
    new = str(d.get("new_outcome") or "")
    if new not in sc.RULABLE_OUTCOMES:
        new = ""
    return (
        str(d.get("old_outcome") or ""),
        new,
        _team_or_none(d.get("old_outcome_team"), teams),
        _team_or_none(d.get("new_outcome_team"), teams),
    )


def outcome_refusal(outcome: str, team: str | None, teams: Sequence[str]) -> str | None:
    """Why the head judge cannot rule this outcome (30.01), or None."""
    if outcome not in sc.RULABLE_OUTCOMES or (outcome != sc.DRAW and team not in teams):
        return rule("correction_outcome")
    return None


def correction_data(
    result: Any,
    points_settings: Any,
    reason: str,
    new_points: Mapping[str, int] | None = None,
    new_diff: Mapping[str, int] | None = None,
    outcome: str | None = None,
    outcome_team: str | None = None,
) -> dict[str, Any]:
    """The data of a ``total_corrected`` event against ``result`` (the result as it stands,
    earlier corrections applied). A new ``outcome`` without points gets the points of 30.01
    for it; points without an outcome keep the outcome."""
    teams = tuple(result.teams)
    data: dict[str, Any] = {
        "old_points": dict(result.points),
        "old_diff": dict(result.diff),
        "new_diff": {k: int(x) for k, x in (new_diff or result.diff).items()},
        "reason": reason.strip(),
    }
    by_rule = dict(result.points)
    if outcome:
        data |= {
            "old_outcome": result.outcome,
            "old_outcome_team": result.flag_hang_team or result.flag_held_team,
            "new_outcome": outcome,
            "new_outcome_team": outcome_team if outcome != sc.DRAW else None,
        }
        if outcome_refusal(outcome, outcome_team, teams) is None:
            by_rule = sc.outcome_points(points_settings, teams, outcome, outcome_team)
    given = dict(new_points or {})
    data["new_points"] = {t: int(given[t]) if t in given else by_rule[t] for t in teams}
    return data


def points_count(n: int) -> Phrase:
    """``3 points`` with the plural form the Russian text needs (1 очко, 3 очка, 5 очков)."""
    n = int(n)
    if n % 10 == 1 and n % 100 != 11:
        return phrase("points_one", n=n)
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return phrase("points_few", n=n)
    return phrase("points_many", n=n)


def _outcome_phrase(outcome: str, won: bool) -> Any:
    if outcome == sc.DRAW:
        return phrase("for_draw")
    if not won:
        return phrase("for_loss")
    return phrase("for_flag_hang") if outcome == sc.FLAG_HANG else phrase("for_flag_held")


def points_against_rules(result: Any, points_settings: Any, data: Mapping[str, Any]) -> Any | None:
    """30.01: how the points of a correction (``data`` of :func:`correction_data`)
    contradict the points 30.01 gives for the outcome it records (the outcome the head
    judge rules, else the result's; the inspection's penalty points of 18.02 subtracted
    when the outcome stays), e.g. «30.01 даёт 3 очка за водружение — записать 2?»; None
    when they agree or the outcome has no points of 30.01 (a no-show: 32)."""
    teams = tuple(result.teams)
    ruled = str(data.get("new_outcome") or "")
    outcome = ruled or result.outcome
    team = _team_or_none(data.get("new_outcome_team"), teams) if ruled else outcome_team(result)
    if outcome_refusal(outcome, team, teams) is not None:
        return None
    new = _int_map(data.get("new_points"), teams)
    if new is None:
        return None
    by_rule = sc.outcome_points(points_settings, teams, outcome, team)
    penalty = {} if ruled else dict(getattr(result, "penalty_points", {}) or {})
    expected = {t: max(0, by_rule[t] - int(penalty.get(t, 0))) for t in teams}
    parts = [
        phrase(
            "points_against_rule",  # «Медведи: 30.01 даёт 3 очка за водружение — записать 2?»
            team=Team(x),
            expected=points_count(expected[x]),
            what=_outcome_phrase(outcome, x == team),
            given=int(new[x]),
        )
        for x in teams
        if new[x] != expected[x]
    ]
    return joined(parts) if parts else None


def lock_refusal(
    events: Sequence[Event],
    etype: str,
    data: Mapping[str, Any],
    teams: tuple[str, str],
    protocol: Protocol | None = None,
) -> str | None:
    """Why ``etype`` cannot be appended to this game's log now (the store's guard), or None.
    Game-rule checks are the engine's (``paintball.refusal``); this is the protocol (31).
    ``protocol``: ``fold_protocol(events, teams)`` when the caller keeps it (else folded
    here)."""
    p = protocol if protocol is not None else fold_protocol(events, teams)
    data = data or {}
    if p.locked and is_locked_void(etype, data):
        return locked_void_refusal(events, data)
    if p.locked and etype != TOTAL_CORRECTED:
        return LOCKED_MESSAGE
    if etype in (CAPTAIN_SIGNED, CAPTAIN_REFUSED):
        if not p.submitted:
            return rule("submit_first")
        team = str(data.get("team", ""))
        if team not in teams:
            return rule("protocol_team_not_playing", team=Team(team))
        if p.answered(team):
            return rule("already_answered")
        if etype == CAPTAIN_SIGNED and not str(data.get("name", "")).strip():
            return rule("name_to_sign")
        if etype == CAPTAIN_REFUSED and not str(data.get("reason", "")).strip():
            return rule("refusal_reason")
    if etype == TOTAL_CORRECTED:
        if not p.all_answered:
            return rule("correct_before_answers")
        if not str(data.get("reason", "")).strip():
            return rule("correction_reason")
        if _int_map(data.get("new_points"), teams) is None:
            return rule("correction_points")
        if _int_map(data.get("old_points"), teams) is None:
            return rule("correction_old_total")
        if data.get("new_outcome"):
            why = outcome_refusal(
                str(data["new_outcome"]), _team_or_none(data.get("new_outcome_team"), teams), teams
            )
            if why:
                return why
    return None


def locked_void_refusal(events: Sequence[Event], data: Mapping[str, Any]) -> str | None:
    """Why the head judge cannot void this event of a locked protocol (31), or None: a
    game event of this log, not voided yet, not a protocol step, a no-show or a void; a
    reason is required. (His secret is the service's check.)"""
    target_id = str(data.get("target", ""))
    target = first_with_id(events, target_id)
    if target is None or target.type in LOCKED_VOID_BARRED or target_id in voided_ids(events):
        return rule("locked_void_target")
    if not str(data.get("reason", "")).strip():
        return rule("locked_void_reason")
    return None


def apply_corrections(result: Any, protocol: Protocol) -> Any:
    """The engine's GameResult with the head judge's latest correction of the total (31).
    ``result`` is folded without the events he voided after the lock; a void later than
    his last total correction supersedes it (the total follows the game's events again)."""
    void_notes = tuple(
        rule("voided_by_head_judge", judge=v.head_judge, reason=v.reason) for v in protocol.voids
    )
    if void_notes:
        result = replace(result, notes=(*tuple(result.notes), *void_notes))
    if not protocol.corrections:
        return result
    c = protocol.corrections[-1]
    if protocol.voids and protocol.voids[-1].seq > c.seq:
        return result
    diff = {**dict(result.diff), **dict(c.new_diff)}
    note = rule("corrected", judge=c.head_judge, reason=c.reason)
    fixed = replace(result, diff=diff, notes=(*tuple(result.notes), note))
    # the latest outcome the head judge ruled, in any correction up to the last one
    ruled = next((x for x in reversed(protocol.corrections) if x.new_outcome), None)
    if ruled is not None:
        return sc.with_outcome(fixed, ruled.new_outcome, ruled.new_outcome_team, c.new_points)
    return replace(fixed, points=dict(c.new_points))


def outcome_team(result: Any) -> str | None:
    """The team that hung the flag or holds it (30.01); None on a draw or a no-show."""
    return result.flag_hang_team or result.flag_held_team


def snapshot(result: Any) -> dict[str, Any]:
    """What a ``protocol_submitted`` event records of an engine GameResult."""
    return {
        "points": dict(result.points),
        "diff": dict(result.diff),
        "survivors": dict(result.survivors),
        "outcome": result.outcome,
        "flag_hang_team": result.flag_hang_team,
        "flag_held_team": result.flag_held_team,
        "no_show": sorted(result.no_show),
        # 18.02: penalty points for hits found at the inspection (already in "points")
        "penalty_points": dict(getattr(result, "penalty_points", {}) or {}),
    }


# --- 32.03: no no-show inside a team's 12-minute gap -------------------------------------


def no_show_gap_refusal(
    team_label: str, previous_end: datetime | None, now: datetime, gap_minutes: int
) -> str | None:
    """32.03: a team cannot be ruled a no-show within ``gap_minutes`` after its previous
    game ended. ``previous_end`` None: no previous game."""
    if previous_end is None:
        return None
    allowed = previous_end + timedelta(minutes=gap_minutes)
    if now < allowed:
        return rule(
            "no_show_gap",
            team=Team(team_label),
            ended=f"{previous_end:%H:%M}",
            allowed=f"{allowed:%H:%M}",
        )
    return None


def senior_judge(events: Sequence[Event], protocol: Protocol) -> str:
    """The senior judge's name for the protocol (31): who submitted it ("" when the
    submission names nobody: never another judge's name); before a submission, the judge
    the app recorded with the game's own events (the latest named one)."""
    if protocol.submission is not None:
        return protocol.submission.judge
    for e in reversed(list(effective(events))):
        if e.judge and e.type not in PROTOCOL_TYPES:
            return e.judge
    return ""
