"""The pit display's read interface: what the read-only scoreboard page and its JSON feed
show, built from read-only snapshots of a tournament folder.

``PitView(folder)`` never writes and never holds the folder lock, so it works beside the
judging app (same process or another one). Every file of a tournament is replaced
atomically by the store (temp file, fsync, ``os.replace``), so reading a file always gives
the old or the new content, never a half-written one; each read goes through the store's
own validating loader (schema, hash chain). A game file is read as the app reads it: the
store's anchored open against the newest head the laptops' signed manifests record, so a
file cut short or truncated below that head, or replaced, is damaged, never shown as the
older state it still holds. A file that fails to load keeps its last good view (if this
view saw one), marked ``damaged``. On each update the pit runs the one check of what was
signed (:class:`~fieldjudge.services.trust.checks.Verifier`, what ``fieldjudge verify``
runs, remembered per file): a game that does not verify shows its fault and no result, and
is not counted in the standings; a ``tournament.json`` not as the head judge signed it is
``damaged`` at the top.

The interface the server uses (and a future services layer may implement instead):

- ``version()`` -- a cheap token (file sizes and mtimes) that changes when any file does
  (the manifests included);
- ``live()`` -- the schedule with each game's state, and the games in play (JSON-ready);
- ``standings()`` -- standings per division over the closed games, provisional ones marked.

This is the one module of the pit display that depends on today's read functions
(``fieldjudge.services.paintball.results``, the paintball engine's state); re-point it when they move.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fieldjudge.i18n import LANGS, reason_label, rule_text
from fieldjudge.rules import protocol as pr
from fieldjudge.rules.events import Event, effective
from fieldjudge.rules.messages import Phrase, joined
from fieldjudge.rules.paintball import model as m
from fieldjudge.rules.paintball.clock import elapsed_at
from fieldjudge.rules.paintball.reasons import ALL_REASONS
from fieldjudge.rules.paintball.scoring import TALLY
from fieldjudge.rules.paintball.state import disqualified_in
from fieldjudge.services.paintball import results
from fieldjudge.services.paintball.disqualified import CarriedOver
from fieldjudge.services.pitwords import conflict_texts, event_texts, hangs_judged, player_ref
from fieldjudge.services.trust.checks import Verifier, file_key
from fieldjudge.services.trust.identity import awaits_registration
from fieldjudge.store import DamagedFile, TournamentFiles, anchors
from fieldjudge.store.eventlog import ReadLog, utc_now
from fieldjudge.store.keys import LaptopKeys
from fieldjudge.store.pins import HeadJudgePins
from fieldjudge.store.tournament import TOURNAMENT_FILE, snapshot_tournament
from fieldjudge.store.verified import load_verified

LAST_EVENTS = 5

# Game states the page and the JSON show.
SCHEDULED = "scheduled"
RUNNING = "running"
TIME_STOPPED = "time_stopped"
HANG_CHECK = "hang_check"
ENDED = "ended"  # game over, post-game inspection (18.02) still going
FINAL = "final"
#: not checked yet (the first seconds of a big tournament): no data shown, as the home
#: screen's "…"; never counted
PENDING = "pending"
LIVE_STATES = (RUNNING, TIME_STOPPED, HANG_CHECK, ENDED)
#: in play on its field (RULES.md "One live game per field and per team"): started, not over
IN_PLAY_STATES = (RUNNING, TIME_STOPPED, HANG_CHECK)

_STATE_OF_PHASE = {
    m.NOT_STARTED: SCHEDULED,
    m.RUNNING: RUNNING,
    m.STOPPED: TIME_STOPPED,
    m.HANG_CHECK: HANG_CHECK,
    m.ENDED: ENDED,
    m.INSPECTION: ENDED,
    m.FINAL: FINAL,
}
# A protocol submitted but not answered by both captains, or a no-show not yet closed:
# counted in the standings, marked provisional.
PROVISIONAL_PHASES = (pr.SUBMITTED, "no_show")

FileKey = tuple[int, int] | None
Head = tuple[int, str] | None


def _iso(dt: datetime) -> str:
    return dt.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _texts(fault: Any) -> dict[str, str] | None:
    """A fault (an English Phrase, or a refusal) in each language of the page."""
    return {lang: rule_text(fault, None, lang) for lang in LANGS} if fault else None


def _events_of(
    t: TournamentFiles, game_id: str, anchor: Head, read: ReadLog | None = None
) -> list[Event]:
    """The game's events through the store's anchored read (chain, and the manifest's
    head ``anchor``); :class:`DamagedFile` when the file does not reach that head.
    ``read``: the file as the signature check just read and checked it (not read again)."""
    if not t.game_path(game_id).exists() and not (anchor and anchor[0] > 0):
        return []  # not started (a missing file the manifest shows events of is damaged)
    with t.reading_game_log(game_id, anchor, read) as log:
        return list(log.events)


@dataclass
class _Game:
    """The cached view of one game file (``key``: the file's and its anchor's)."""

    key: Any
    view: Any
    damaged: Any = ""  # the fault: an English Phrase (a str), or a refusal
    #: the players its file disqualifies (20.05), for the setups of the later games
    disqualified: frozenset[tuple[str, int]] = frozenset()

    def fault_doc(self) -> tuple[str, dict[str, str] | None]:
        """The fault in English (``damaged``) and in each language of the page."""
        return str(self.damaged or ""), _texts(self.damaged)

    @property
    def unregistered(self) -> bool:
        """The fault is only a laptop's registration not here or not signed yet: the
        card says the game does not count yet, not that its file is damaged."""
        return bool(self.damaged) and awaits_registration(self.damaged)


class PitView:
    """Read-only state of one tournament folder for the pit display (thread-safe)."""

    def __init__(
        self,
        folder: Path,
        now: Callable[[], datetime] = utc_now,
        last_events: int = LAST_EVENTS,
        pins: HeadJudgePins | None = None,
        keys: LaptopKeys | None = None,
        budget_s: float | None = None,
    ) -> None:
        self.folder = Path(folder)
        # the files this laptop's app found clean (``.cache/verified.json``, authenticated
        # with ``keys``' local key: a record that does not match the file as it is, or a
        # memory whose MAC fails, is ignored and the file checked); read, never written
        memory = load_verified(self.folder, keys.local_mac) if keys is not None else None
        self._trust = Verifier(
            self.folder, pins if pins is not None else HeadJudgePins(), memory=memory
        )
        #: how long one update may spend reading games (None: every game, as ``verify``);
        #: the games left are ``pending`` (no data) until a later update reads them
        self.budget_s = budget_s
        self._pending: set[str] = set()
        self._now = now
        self._last_events = last_events
        self._lock = threading.Lock()
        self._t: TournamentFiles | None = None
        self._t_key: FileKey = None
        self._t_fault = ""
        self._t_damaged = ""  # tournament.json fails to load (its last good view kept)
        self._games: dict[str, _Game] = {}

    # -- the change signal ------------------------------------------------------------
    def version(self) -> tuple:
        """Changes whenever ``tournament.json`` or a game file changes (one ``stat`` each)."""
        keys: list[Any] = [
            file_key(self.folder / TOURNAMENT_FILE),
            anchors.heads_stamp(self.folder),
        ]
        games = self.folder / "games"
        try:
            names = sorted(p.name for p in games.iterdir() if p.suffix == ".json")
        except OSError:
            names = []
        keys += [(n, file_key(games / n)) for n in names]
        keys.append(self._trust.stamp())  # signatures, registrations, manifests
        return tuple(keys)

    # -- the two documents --------------------------------------------------------------
    def live(self) -> dict[str, Any]:
        with self._lock:
            t = self._refresh()
            now = self._now()
            games = [self._game_doc(t, g, now) for g in t.games()] if t else []
            _mark_conflicts(games)
        meta = t.meta if t else {}
        return {
            "as_of": _iso(now),
            "tournament": {
                "name": meta.get("name", ""),
                "venue": meta.get("venue", ""),
                "date": meta.get("date", ""),
            },
            "damaged": str(self._t_fault),
            "damaged_text": _texts(self._t_fault),
            "games": games,
            "pending": len(self._pending),
            "live": [g["id"] for g in games if g["state"] in LIVE_STATES],
        }

    def standings(self) -> dict[str, Any]:
        with self._lock:
            t = self._refresh()
            now = self._now()
            # a game not checked yet may change any row: no standings until all are
            divisions = self._standings(t) if t and not self._pending else []
            pending = len(self._pending)
        return {
            "as_of": _iso(now),
            "pending": pending,
            "damaged": str(self._t_fault),
            "damaged_text": _texts(self._t_fault),
            "divisions": divisions,
        }

    # -- reading the folder -------------------------------------------------------------
    def _refresh(self) -> TournamentFiles | None:
        self._trust.refresh()  # signatures, registrations, manifests read again if changed
        key = file_key(self.folder / TOURNAMENT_FILE)
        if key != self._t_key or self._t is None:
            try:
                self._t = snapshot_tournament(self.folder)
                self._t_damaged = ""
                self._games.clear()  # rosters or settings may have changed
            except DamagedFile as exc:
                self._t_damaged = exc.fault
            self._t_key = key
        t = self._t
        self._t_fault = self._t_damaged or joined(
            [
                Phrase("{file}: {fault}", file="tournament.json", fault=f)
                for f in self._trust.tournament_report().faults
            ]
        )  # not as the head judge signed it (edited by hand, an unsigned change)
        if t is None:
            return None
        heads = self._trust.context().heads  # the newest validly signed head of each game
        # 20.05 carried along the schedule: a game read asks no earlier game again
        carried = CarriedOver()
        deadline = None if self.budget_s is None else time.monotonic() + self.budget_s
        self._pending = set()
        read = 0  # games read by this update: at least one, so that every update gets on
        for g in t.games():
            gid = g["id"]
            anchor = heads.get(("games", gid))
            head: Head = (anchor.count, anchor.hash) if anchor else None
            gkey = (file_key(t.game_path(gid)), head)
            cached = self._games.get(gid)
            before = carried.before(g)
            fresh = cached is None or cached.key != gkey  # a file not read as it is now
            if fresh or cached is None or cached.view is None:
                late = deadline is not None and read > 0 and time.monotonic() >= deadline
                if fresh and (self._pending or late):
                    # out of time: checked on the next update, shown without data till then
                    # (and every later game read, for the players disqualified, 20.05)
                    self._pending.add(gid)
                    continue
                # the snapshot may hold the log open: stale now, never read again
                t.release_log("games", gid)
                cached = self._games[gid] = self._read_game(t, g, gkey, head, cached, before)
                read += fresh
            carried.add({"disqualified": list(cached.disqualified)})
        return t

    @property
    def pending(self) -> int:
        """How many games the last update left unchecked (``budget_s``)."""
        return len(self._pending)

    def _read_game(
        self,
        t: TournamentFiles,
        g: dict[str, Any],
        gkey: Any,
        head: Head,
        cached: _Game | None,
        disqualified: frozenset[tuple[str, int]],
    ) -> _Game:
        """A changed game read again (``disqualified``: in the earlier games, 20.05)."""
        gid = g["id"]
        old = cached.view if cached else None
        # the signature check reads the file once; a clean file's events so checked are
        # folded (the store's anchored read takes them as read: chain, head)
        _report, read = self._trust.read_game(gid) if t.game_path(gid).exists() else (None, None)
        try:  # the anchored read first: a cut or replaced file is named in both languages
            events = _events_of(t, gid, head, read)
            setup = results.setup_for(t, gid, disqualified=disqualified, game=g)
            view = results.view_from_events(t, gid, events, setup, g)
        except (DamagedFile, results.Refused) as exc:
            return _Game(gkey, old, exc.fault if isinstance(exc, DamagedFile) else exc)
        out = frozenset(disqualified_in([view.state]))
        faults = self._trust.game_faults(gid)  # signatures: the check verify runs
        if faults:  # not as its laptops signed it: the fault, its last good view
            return _Game(gkey, old, joined(faults), out)
        return _Game(gkey, view, disqualified=out)

    # -- documents ----------------------------------------------------------------------
    def _game_doc(self, t: TournamentFiles, g: dict[str, Any], now: datetime) -> dict[str, Any]:
        names = t.team_names()
        teams = (g["team_a"], g["team_b"])
        doc: dict[str, Any] = {
            "id": g["id"],
            "field": str(g.get("field", "")),
            "start": str(g.get("start", "")),
            "teams": [{"id": x, "name": names.get(x, x)} for x in teams],
            "state": SCHEDULED,
            "protocol": pr.OPEN,
            "provisional": False,
            "time_called": False,
            "no_show": [],
            "clock": None,
            "flags": [],
            "result": None,
            "last_events": [],
            "damaged": "",
            "damaged_text": None,
            "unregistered": False,  # damaged only by a registration not here or not signed
            "conflict": None,
        }
        if g["id"] in self._pending:
            doc["state"] = PENDING  # not checked yet: no data
            return doc
        cached = self._games.get(g["id"])
        if cached is None or cached.view is None:
            if cached is not None:
                doc["damaged"], doc["damaged_text"] = cached.fault_doc()
                doc["unregistered"] = cached.unregistered
            return doc
        v = cached.view
        st = v.state
        doc["damaged"], doc["damaged_text"] = cached.fault_doc()
        doc["unregistered"] = cached.unregistered
        # a game whose protocol is submitted or signed is over, whatever its events say now:
        # a head judge's void in a signed protocol (31) may fold it back to its inspection
        over = bool(st.no_show) or v.final or v.protocol.submitted
        doc["state"] = FINAL if over else _STATE_OF_PHASE.get(st.phase, SCHEDULED)
        doc["protocol"] = v.protocol.phase
        doc["no_show"] = sorted(st.no_show)
        doc["time_called"] = st.phase in (m.STOPPED, m.HANG_CHECK)
        # 30.01: the players of the line-up (substitutes sitting out are not counted)
        rosters = {x: sum(not p.benched for p in st.team_players(x)) for x in teams}
        started = st.clock.started and not st.no_show
        for i, x in enumerate(teams):
            doc["teams"][i]["players"] = rosters[x]
            doc["teams"][i]["alive"] = st.alive(x) if started else None
        if started:
            elapsed = elapsed_at(st.clock, now)
            doc["clock"] = {
                "length_ms": st.clock.length_ms,
                "elapsed_ms": elapsed,
                "remaining_ms": st.clock.length_ms - elapsed,
                "running": bool(st.clock.running),
            }
            doc["flags"] = [self._flag_doc(st, owner) for owner in teams]
        if v.final:
            r = v.result
            closed = v.phase in results.CLOSED_PHASES
            doc["provisional"] = v.phase in PROVISIONAL_PHASES
            doc["result"] = {
                "points": {x: r.points[x] for x in teams},
                "diff": {x: r.diff[x] for x in teams},
                "outcome": r.outcome,
                "winner": r.winner,
                "counted": closed,
            }
        doc["last_events"] = self._events_doc(v)
        return doc

    @staticmethod
    def _flag_doc(st: m.GameState, owner: str) -> dict[str, Any]:
        f = st.flags[owner]
        state = f.location
        if f.location == m.CARRIED and st.pending_hang is not None:
            state = HANG_CHECK
        carrier = None
        if f.carrier is not None and f.location in (m.CARRIED, m.HUNG):
            carrier = player_ref(st, *f.carrier)
        return {
            "owner": owner,
            "state": state,
            "carrier": carrier,
            "spare": f.spares_hung > 0,
        }

    def _events_doc(self, v: Any) -> list[dict[str, Any]]:
        st = v.state
        names = v.names
        events = effective(v.events)
        hangs = hangs_judged(events, st)
        out = []
        for e in reversed(events[-self._last_events :]):
            d = e.data if isinstance(e.data, dict) else {}
            refs = [r for r in (d.get("players") or []) if isinstance(r, dict)]
            if not refs and "number" in d:
                refs = [{"team": d.get("team"), "number": d.get("number")}]
            players = [player_ref(st, r.get("team"), r.get("number")) for r in refs]
            reason = d.get("reason") if e.type == "elimination" else None
            rs = ALL_REASONS.get(str(reason)) if reason else None
            out.append(
                {
                    "seq": e.seq,
                    "type": e.type,
                    "clock_ms": e.game_clock_ms,
                    "wall_time": e.wall_time,
                    "team": d.get("team"),
                    "players": players,
                    "reason": reason,
                    "reason_text": (
                        {lang: reason_label(rs.key, lang) for lang in LANGS} if rs else None
                    ),
                    "section": rs.section if rs else None,
                    "outcome": d.get("outcome") or d.get("result") or d.get("paint"),
                    # the line the page shows, in each of its languages (its consequence too)
                    "text": event_texts(e, st, players, names, hangs.get(e.id)),
                }
            )
        return out

    def _standings(self, t: TournamentFiles) -> list[dict[str, Any]]:
        names = t.team_names()
        closed = []
        counted: list[dict[str, Any]] = []
        provisional: dict[str, int] = {}
        for g in t.games():
            cached = self._games.get(g["id"])
            v = cached.view if cached else None
            if (
                v is None
                or v.phase not in results.CLOSED_PHASES
                or (cached is not None and cached.damaged)
            ):
                continue  # a game that does not verify is never counted
            closed.append((g, v.result))
            prov = v.phase in PROVISIONAL_PHASES
            for x in v.result.teams:
                provisional[x] = provisional.get(x, 0) + int(prov)
            counted.append(
                {
                    "id": g["id"],
                    "division": results.division_of(t, v.result.teams[0]),
                    "teams": list(v.result.teams),
                    "points": dict(v.result.points),
                    "diff": dict(v.result.diff),
                    "protocol": v.phase,
                    "provisional": prov,
                }
            )
        out = []
        for div, rows in results.standings_by_division(t, closed).items():
            out.append(
                {
                    "division": div,
                    "rows": [
                        {
                            "rank": r.rank,
                            "team": r.team,
                            "name": names.get(r.team, r.team),
                            **{k: getattr(r, k) for k in TALLY},
                            "provisional_games": provisional.get(r.team, 0),
                            "tie_break": {
                                lang: rule_text(r.tie_break, names, lang) if r.tie_break else ""
                                for lang in LANGS
                            },
                        }
                        for r in rows
                    ],
                    "games": [c for c in counted if c["division"] == div],
                }
            )
        return out


def _game_words(g: dict[str, Any]) -> str:
    """``10:40 Медведи — Тигры``: a game as the conflict mark names it."""
    start = g.get("start", "")
    hhmm = start[11:16] if len(start) >= 16 and start[10] == "T" else start
    return f"{hhmm} " + " — ".join(x["name"] for x in g["teams"])


def _mark_conflicts(games: list[dict[str, Any]]) -> None:
    """RULES.md "One live game per field and per team": two games in play at once on one
    field, or with one team (started on two laptops, or the schedule edited while one ran),
    each marked, naming the other."""
    playing = [g for g in games if g["state"] in IN_PLAY_STATES and not g["damaged"]]
    for g in playing:
        for other in playing:
            if other is g:
                continue
            shared = {x["id"] for x in g["teams"]} & {x["id"] for x in other["teams"]}
            if g["field"] == other["field"]:
                text = conflict_texts("field", g["field"], _game_words(other))
            elif shared:
                team = next(x["name"] for x in g["teams"] if x["id"] in shared)
                text = conflict_texts("team", g["field"], _game_words(other), team)
            else:
                continue
            g["conflict"] = {"with": other["id"], "text": text}
            break
