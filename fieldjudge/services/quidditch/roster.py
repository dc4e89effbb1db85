"""The teams of a new match: roster rows typed in or imported from CSV, checked against the
lineup (3 chasers, 2 beaters, a keeper, a seeker per team) and turned into a
:class:`MatchSetup`."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass

from fieldjudge.i18n import _, rule_text
from fieldjudge.rules.names import clean_name, name_problem
from fieldjudge.rules.quidditch.feints import FeintCatalogue
from fieldjudge.rules.quidditch.roster import (
    BEATER,
    CHASER,
    KEEPER,
    LINEUP,
    POSITIONS,
    SEEKER,
    MatchSetup,
    Player,
    Team,
)
from fieldjudge.rules.quidditch.settings import EndCondition, QuidditchSettings
from fieldjudge.store import slugify

from .common import SessionError

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
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delim)
    records: list[tuple[int, list[str]]] = []
    try:
        for cells in reader:
            records.append((reader.line_num, cells))
    except csv.Error as exc:  # a huge field: an error with its line, not a crash
        line = records[-1][0] + 1 if records else 1
        return [], [_("line {line}: not valid CSV ({detail})").format(line=line, detail=exc)]
    for line_no, cells in records:
        cells = [c.strip() for c in cells]
        if not any(cells):
            continue
        if line_no == 1 and cells[0].lower() in ("team", "команда"):
            continue
        if len(cells) < 3:
            errors.append(
                _("line {n}: expected team,name,position,matches,practices").format(n=line_no)
            )
            continue
        team, name, pos = clean_name(cells[0]), clean_name(cells[1]), cells[2].lower()
        if not team or not name:
            errors.append(_("line {n}: team and name are required").format(n=line_no))
            continue
        bad = [
            _("line {line}: {what} {problem}").format(
                line=line_no, what=what, problem=rule_text(problem)
            )
            for what, value in ((_("team name"), team), (_("player name"), name))
            if (problem := name_problem(value))
        ]
        if bad:
            errors.extend(bad)
            continue
        if pos not in POSITION_ALIASES:
            errors.append(
                _("line {n}: unknown position {position}").format(
                    n=line_no, position=repr(cells[2])
                )
            )
            continue
        try:
            matches = int(cells[3]) if len(cells) > 3 and cells[3] else 0
            practices = int(cells[4]) if len(cells) > 4 and cells[4] else 0
        except ValueError:
            errors.append(
                _("line {n}: matches and practices must be whole numbers").format(n=line_no)
            )
            continue
        if matches < 0 or practices < 0:
            errors.append(_("line {n}: matches and practices cannot be negative").format(n=line_no))
            continue
        rows.append(RosterRow(team, name, POSITION_ALIASES[pos], matches, practices))
    if not errors:
        errors.extend(lineup_errors(rows))
    return rows, errors


def lineup_errors(rows: list[RosterRow]) -> list[str]:
    teams = list(dict.fromkeys(r.team for r in rows))
    if len(teams) != 2:
        return [
            _("a match has two teams, found {n}: {teams}").format(
                n=len(teams), teams=", ".join(teams) or "-"
            )
        ]
    out = []
    for t in teams:
        got = {p: sum(1 for r in rows if r.team == t and r.position == p) for p in POSITIONS}
        if got != LINEUP:  # the positions, plural, in the UI language
            names = {
                CHASER: _("chasers"),
                BEATER: _("beaters"),
                KEEPER: _("keepers"),
                SEEKER: _("seekers"),
            }
            have = ", ".join(f"{names[p]}: {n}" for p, n in got.items())
            out.append(
                _(
                    "team {team}: {have}; a team has 3 chasers, 2 beaters, a keeper and a seeker"
                ).format(team=t, have=have)
            )
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
        raise SessionError(_("the match needs a name"))
    errors = lineup_errors(rows)
    if errors:
        raise SessionError("; ".join(errors))
    names = list(dict.fromkeys(r.team for r in rows))
    teams = tuple(
        Team(key, name, (initials or {}).get(name, ""), (genitives or {}).get(name, ""))
        for key, name in zip(("a", "b"), names, strict=True)
    )
    if teams[0].short == teams[1].short:
        raise SessionError(_("the two teams need different initials"))
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
        raise SessionError(_("the match setup is not valid: {error}").format(error=exc)) from None
