"""An open tournament as the screens, the CLI and the tools see it: reading delegated to the
store, every change through one method here (DESIGN.md "Layers").

Built only by :func:`fieldjudge.services.open_tournament` / :func:`create_tournament`,
which give it the store's :class:`WriteKey`: nothing else can write the folder. Every
append to a game log goes through :meth:`TournamentService.append_game_event`, which checks
the authority (:mod:`fieldjudge.services.authority`: protocol lock, head-judge actions)
before the store appends."""

from __future__ import annotations

import contextlib
import time
import weakref
from collections.abc import Callable, Iterable, Mapping
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from fieldjudge.i18n import rule_text
from fieldjudge.rules import protocol as pr
from fieldjudge.rules import protocol_texts as pt
from fieldjudge.rules.events import VOID, Event
from fieldjudge.rules.messages import joined
from fieldjudge.rules.ownership import may_append
from fieldjudge.rules.schedule import ScheduleCheck
from fieldjudge.services import authority
from fieldjudge.services.authority import HeadJudge
from fieldjudge.services.pin import check_pin
from fieldjudge.store import HANDOVER, EventLog, Refused, Tournament, WriteKey
from fieldjudge.store.index import SummaryIndex
from fieldjudge.store.tables import RosterRow, ScheduleRow


def translated(exc: Refused) -> Refused:
    """A store refusal with its message in the UI language (engine messages stay as they
    are: they render in either language)."""
    if exc.template is None and not hasattr(exc, "errors"):
        return exc
    return Refused(rule_text(exc))


class TournamentService:
    """One open tournament folder. ``monotonic`` is the clock of the PIN gate (seconds)."""

    def __init__(
        self,
        store: Tournament,
        key: WriteKey,
        *,
        monotonic: Callable[[], float] = time.monotonic,
        laptop_id: str | None = None,
    ) -> None:
        store.check_key(key)  # refuse a key that is not the store's
        self.store = store
        self._key = key
        # this laptop's id: a game file records the laptop that created it, and only that
        # laptop appends to it until the head judge hands it over (None: not checked)
        self.laptop_id = laptop_id
        self.monotonic = monotonic
        self.pin_gate = pr.PinGate()
        self._grants: weakref.WeakSet[HeadJudge] = weakref.WeakSet()

    # -- reading (the store's) --------------------------------------------------------
    @property
    def folder(self) -> Path:
        return self.store.folder

    @property
    def meta(self) -> dict[str, Any]:
        return self.store.meta

    @property
    def name(self) -> str:
        return self.store.name

    @property
    def day(self) -> date:
        return self.store.day

    @property
    def settings(self) -> dict[str, Any]:
        return self.store.settings

    @property
    def game_length(self) -> timedelta:
        return self.store.game_length

    @property
    def index(self) -> SummaryIndex:
        return self.store.index

    def games(self) -> list[dict[str, Any]]:
        return self.store.games()

    def game(self, game_id: str) -> dict[str, Any] | None:
        return self.store.game(game_id)

    def teams(self) -> list[dict[str, Any]]:
        return self.store.teams()

    def team(self, team_id: str) -> dict[str, Any] | None:
        return self.store.team(team_id)

    def team_by_name(self, name: str) -> dict[str, Any] | None:
        return self.store.team_by_name(name)

    def team_names(self) -> dict[str, str]:
        return self.store.team_names()

    def players(self, team_id: str | None = None) -> list[dict[str, Any]]:
        return self.store.players(team_id)

    def check_games(self, extra: list[dict[str, Any]]) -> ScheduleCheck:
        return self.store.check_games(extra)

    def game_path(self, game_id: str) -> Path:
        return self.store.game_path(game_id)

    def match_path(self, match_id: str) -> Path:
        return self.store.match_path(match_id)

    def matches(self) -> list[str]:
        return self.store.matches()

    def game_log(self, game_id: str, create: bool = True) -> EventLog:
        """The game's log, to read (its appends go through :meth:`append_game_event`); a new
        file records this laptop as the game's owner."""
        return self.store.game_log(game_id, create=create, owner=self.laptop_id)

    def reading_game_log(self, game_id: str) -> contextlib.AbstractContextManager[EventLog]:
        """A game's log to read once, closed after unless the folder holds it open."""
        return self.store.reading_game_log(game_id)

    def match_log(self, match_id: str, meta: dict[str, Any] | None = None) -> EventLog:
        return self.store.match_log(match_id, meta)

    def release_log(self, kind: str, log_id: str) -> None:
        self.store.release_log(kind, log_id)

    def game_summary(self, game_id: str) -> dict[str, Any]:
        """What the home screen shows of a game (the rules' summary), cached by the store's
        summary index."""
        from fieldjudge.services import summaries

        return self.store.game_summary(game_id, lambda log: summaries.summarize(self, game_id, log))

    def cached_game_summary(self, game_id: str) -> dict[str, Any] | None:
        """The game's summary if the index holds a current one (a game never recorded:
        scheduled), else None; reads no game file."""
        path = self.game_path(game_id)
        if not path.exists():
            return {"phase": "scheduled", "events": 0}
        return self.store.index.get(game_id, path)

    def remember_game_summary(
        self, game_id: str, summary: dict[str, Any], key: list[int] | None
    ) -> None:
        """Put a summary made from a read of the game's file into the index, under that
        file's ``key`` (size, mtime) taken before the read: a file changed since then
        does not match it, and its summary is made again when asked."""
        self.store.index.put(game_id, self.game_path(game_id), summary, key=key)

    def backup_game(self, game_id: str) -> Path | None:
        return self.store.backup_game(game_id)

    def backup_all(self, only_if_changed: bool = True) -> None:
        self.store.backup_all(only_if_changed)

    def close(self) -> None:
        self.store.close()

    # -- tournament changes -----------------------------------------------------------
    def update_meta(self, **fields: Any) -> None:
        self.store.update_meta(self._key, **fields)

    def add_team(self, name: str) -> dict[str, Any]:
        try:
            return self.store.add_team(name, key=self._key)
        except Refused as exc:
            raise translated(exc) from None

    def add_player(self, team_id: str, number: int, name: str, captain: bool = False) -> dict:
        try:
            return self.store.add_player(team_id, number, name, captain, key=self._key)
        except Refused as exc:
            raise translated(exc) from None

    def import_roster(self, rows: Iterable[RosterRow]) -> tuple[int, int]:
        try:
            return self.store.import_roster(rows, key=self._key)
        except Refused as exc:
            raise translated(exc) from None

    def add_games(self, games: list[dict[str, Any]]) -> list[str]:
        try:
            return self.store.add_games(games, key=self._key)
        except Refused as exc:
            raise translated(exc) from None

    def import_schedule(self, rows: Iterable[ScheduleRow]) -> list[str]:
        try:
            return self.store.import_schedule(rows, key=self._key)
        except Refused as exc:
            raise translated(exc) from None

    def transaction(self, change: Callable[[dict], None]) -> None:
        """One atomic change of ``tournament.json`` (a merge of another laptop's tables)."""
        self.store.transaction(change, self._key)

    # -- the head judge ---------------------------------------------------------------
    def head_judge(self, pin: str, action: str = "") -> HeadJudge:
        """The head judge's grant for ``action`` (an event type, "" for a conflict
        decision); raises :class:`Refused` citing the section on a wrong PIN (counted:
        three wrong lock the gate for a minute, across screens)."""
        now = self.monotonic()
        gate = self.pin_gate
        rule = authority.head_judge_refusal(action)
        wait = gate.remaining(now)
        if wait > 0:
            raise Refused(joined((rule, pt.pin_locked(int(wait + 0.999)))))
        ok = check_pin(pin, self.meta.get("pin"))
        gate.record(ok, now)
        if not ok:
            if gate.remaining(now) > 0:
                raise Refused(joined((rule, pt.pin_wrong_locked())))
            raise Refused(joined((rule, pt.pin_wrong(gate.max_failures - gate.failures))))
        grant = HeadJudge(str(self.meta.get("head_judge", "")))
        self._grants.add(grant)
        return grant

    def is_head_judge(self, grant: HeadJudge | None) -> bool:
        return grant is not None and grant in self._grants

    # -- the one writer of logs ---------------------------------------------------------
    def append_game_event(
        self,
        game_id: str,
        etype: str,
        data: Mapping[str, Any] | None = None,
        *,
        judge: str = "",
        game_clock_ms: int | None = None,
        wall_time: datetime | None = None,
        head_judge: HeadJudge | None = None,
    ) -> Event:
        """Check the authority (31, 32.01) and append one event to a game's log. The game
        rules were asked by the caller (the live game) once; raises :class:`Refused`."""
        data = dict(data or {})
        log = self.game_log(game_id)
        why = authority.append_refusal(
            log.events, etype, data, self._teams(log), self.is_head_judge(head_judge)
        )
        if why is None and self.laptop_id is not None and etype != HANDOVER:
            why = may_append(log.owner, self.laptop_id)  # one writer per game
        if why:
            raise Refused(why)
        if etype == VOID:
            target = str(data.get("target", ""))
            return log.void(
                target,
                str(data.get("reason", "")),
                judge=judge,
                game_clock_ms=game_clock_ms,
                wall_time=wall_time,
                key=self._key,
            )
        try:
            return log.append(
                etype,
                data,
                judge=judge,
                game_clock_ms=game_clock_ms,
                wall_time=wall_time,
                key=self._key,
            )
        except Refused as exc:
            raise translated(exc) from None

    def append_match_event(
        self,
        match_id: str,
        etype: str,
        data: Mapping[str, Any] | None = None,
        *,
        judge: str = "",
        meta: dict[str, Any] | None = None,
    ) -> Event:
        """Append one event to a quidditch match's log (the match rules were asked by the
        quidditch session)."""
        log = self.match_log(match_id, meta)
        try:
            if etype == VOID:
                d = dict(data or {})
                return log.void(
                    str(d.get("target", "")), str(d.get("reason", "")), judge=judge, key=self._key
                )
            return log.append(etype, dict(data or {}), judge=judge, key=self._key)
        except Refused as exc:
            raise translated(exc) from None

    def hand_over_game(self, game_id: str, to_laptop: str, pin: str, judge: str = "") -> Event:
        """The head judge gives a game to another laptop (a broken laptop's games), with his
        PIN: from then on only ``to_laptop`` appends to it."""
        grant = self.head_judge(pin, HANDOVER)
        log = self.game_log(game_id, create=False)
        data = {"from_laptop": str(log.owner or ""), "to_laptop": to_laptop}
        if not data["from_laptop"] or not to_laptop:
            raise Refused("a game with no recorded owner needs no hand-over")
        return self.append_game_event(game_id, HANDOVER, data, judge=judge, head_judge=grant)

    @staticmethod
    def _teams(log: EventLog) -> tuple[str, str]:
        return (str(log.meta.get("team_a", "")), str(log.meta.get("team_b", "")))
