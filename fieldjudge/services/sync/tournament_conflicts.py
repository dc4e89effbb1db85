"""The head judge decides the differences a merge found between two laptops' tournament
files (teams, players, schedule, settings), kept in ``conflicts/tournament/`` by
:func:`fieldjudge.services.sync.merge.merge_tournament`.

Each difference is kept ("ours": ``tournament.json`` stays as it is) or taken ("theirs": the
other laptop's team, player, game or setting replaces ours, in one signed change of
``tournament.json``), only with the head judge's secret. The decision, with the whole
difference it settles, is written to ``conflicts/decisions/`` signed with his key, and the
difference leaves the list (its file is removed once every difference in it is decided).
Nothing is dropped: what was not chosen stays readable in the decision."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from fieldjudge.services.sync.merge import record_decision
from fieldjudge.services.tournament import TournamentService
from fieldjudge.services.trust import authority
from fieldjudge.services.trust.authority import HeadJudge
from fieldjudge.store import DamagedFile, Refused
from fieldjudge.store.anchors import canonical_digest, tournament_digest
from fieldjudge.store.storage import atomic_write_bytes, load_json_file, remove_durably

FOLDER = ("conflicts", "tournament")
#: settings kept in the tournament's meta itself (the rest live in ``meta.settings``)
META_KEYS = ("name", "date", "venue", "division", "head_judge")


@dataclass(frozen=True)
class TournamentConflict:
    """One difference between the two tournament files."""

    path: Path  # its file in conflicts/tournament/
    key: str  # the digest of the difference (stable while it waits)
    source: str  # the other laptop's folder or export
    what: str  # team | player | game | game_clash | setting
    ours: Any
    theirs: Any
    text: str  # as the merge report said it

    @property
    def row_key(self) -> str:
        return f"{self.path.name}#{self.key}"


def _read(path: Path) -> dict[str, Any]:
    data = load_json_file(path)
    if not isinstance(data, dict) or not isinstance(data.get("conflicts"), list):
        raise DamagedFile(path, "not a list of tournament conflicts")
    return data


def tournament_conflicts(t: TournamentService) -> list[TournamentConflict]:
    """Every difference still waiting for the head judge, file by file."""
    out = []
    for path in sorted(t.folder.joinpath(*FOLDER).glob("*.json")):
        try:
            data = _read(path)
        except DamagedFile:
            continue  # verify names a damaged file; nothing here to decide
        for entry in data["conflicts"]:
            if not isinstance(entry, dict):
                continue
            out.append(
                TournamentConflict(
                    path,
                    canonical_digest(entry)[:16],
                    str(data.get("source", "")),
                    str(entry.get("what", "")),
                    entry.get("ours"),
                    entry.get("theirs"),
                    str(entry.get("text") or _clash_text(entry)),
                )
            )
    return out


def _clash_text(entry: dict[str, Any]) -> str:
    ours, theirs = entry.get("ours") or {}, entry.get("theirs") or {}
    return (
        f"game {theirs.get('id')} not added: field {theirs.get('field')} at "
        f"{theirs.get('start')} is taken by game {ours.get('id')}"
    )


def decide(
    t: TournamentService,
    conflict: TournamentConflict,
    keep: str,
    secret: str = "",
    *,
    grant: HeadJudge | None = None,
) -> Path:
    """The head judge keeps ours or takes theirs, with his secret. Returns the signed
    decision's file. Raises :class:`Refused` (no secret, a taken field and time, a game
    already played with other teams, a difference already decided)."""
    if keep not in ("ours", "theirs"):
        raise Refused("choose ours or theirs")
    if not t.is_head_judge(grant):
        grant = t.head_judge(secret, authority.TOURNAMENT_DECISION)
    assert grant is not None
    if not conflict.path.exists():
        raise Refused("this difference is already decided")
    data = _read(conflict.path)
    entries = data["conflicts"]
    index = next(
        (
            i
            for i, e in enumerate(entries)
            if isinstance(e, dict) and canonical_digest(e)[:16] == conflict.key
        ),
        None,
    )
    if index is None:
        raise Refused("this difference is already decided")
    entry = entries[index]
    decision = {
        "kind": "tournament",
        "conflict": conflict.path.name,
        "source": data.get("source", ""),
        "difference": entry,
        "keep": keep,
        "tournament": tournament_digest(t.folder),
        "laptop": t.keys.laptop_id,
    }

    def record(ahead: dict[str, Any] | None) -> Path:
        """His signed decision, naming the content tournament.json will hold (``ahead``:
        its new content; None: as it is)."""
        if ahead is not None:
            decision["tournament"] = canonical_digest(orjson.loads(orjson.dumps(ahead)))
        name = f"tournament--{canonical_digest(decision)[:12]}"
        return record_decision(t, grant, decision, name)

    out: list[Path] = []
    if keep == "theirs":
        table, match, row, add = _taking_theirs(t, entry)
        # his signed decision is on disk before tournament.json changes: a power cut never
        # leaves the change taken without it (deciding again writes the same decision)
        t.put_row(table, match, row, add=add, before=lambda ahead: out.append(record(ahead)))
    else:
        out.append(record(None))
    rest = entries[:index] + entries[index + 1 :]
    if rest:
        body = {**data, "conflicts": rest}
        atomic_write_bytes(conflict.path, orjson.dumps(body, option=orjson.OPT_INDENT_2))
    else:
        remove_durably(conflict.path)  # a power cut never brings the decided one back
    return out[0]


def _taking_theirs(
    t: TournamentService, entry: dict[str, Any]
) -> tuple[str, dict[str, Any], dict[str, Any], bool]:
    """(table, the fields of the row to replace, the other laptop's row, whether it is
    added when missing): the change that takes the other laptop's version, checked first."""
    what = entry.get("what")
    ours, theirs = entry.get("ours"), entry.get("theirs")
    if not isinstance(ours, dict) or not isinstance(theirs, dict):
        raise Refused("this difference is damaged: nothing to take")
    if what == "team":
        return "teams", {"id": ours.get("id")}, {**theirs, "id": ours.get("id")}, False
    if what == "player":
        mine = {"team_id": ours.get("team_id"), "number": ours.get("number")}
        return "players", mine, {**theirs, **mine}, False
    if what in ("game", "game_clash"):
        _check_game(t, what, theirs)
        return "games", {"id": theirs.get("id")}, dict(theirs), True
    if what == "setting":
        return "meta", {"kind": "tournament"}, _setting(t.meta, theirs), False
    raise Refused("unknown kind of difference: {what}", what=str(what))


def _check_game(t: TournamentService, what: str, theirs: dict) -> None:
    """Refuse their game when its field and time are taken, or when it changes the teams
    of a game already recorded."""
    gid = theirs.get("id")
    slot = (str(theirs.get("field")), str(theirs.get("start")))
    for g in t.games():
        if g.get("id") != gid and (str(g.get("field")), str(g.get("start"))) == slot:
            raise Refused(
                "field {field} at {start} is taken by game {game}: move one of the games in "
                "the schedule first",
                field=slot[0],
                start=slot[1].replace("T", " "),
                game=str(g.get("id")),
            )
    mine = t.game(str(gid)) if what == "game" else None
    if mine is not None and (mine.get("team_a"), mine.get("team_b")) != (
        theirs.get("team_a"),
        theirs.get("team_b"),
    ):
        if t.game_path(str(gid)).exists():
            raise Refused(
                "game {game} is already recorded with its teams: they stay", game=str(gid)
            )


def _setting(meta: dict[str, Any], theirs: dict[str, Any]) -> dict[str, Any]:
    """The tournament's meta with the other laptop's settings taken."""
    meta = dict(meta)
    for name, value in theirs.items():
        if name in META_KEYS:
            meta[name] = value
            continue
        settings = dict(meta.get("settings") or {})
        if value is None:
            settings.pop(name, None)
        else:
            settings[name] = value
        meta["settings"] = settings
    return meta
