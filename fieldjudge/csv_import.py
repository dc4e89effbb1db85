"""Rosters and schedules from CSV: every bad row reported with its line, nothing half-imported.

Accepts comma or semicolon, UTF-8 with or without BOM, Cyrillic names.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from datetime import date, datetime

from fieldjudge.i18n import _

TRUE_WORDS = {"1", "yes", "y", "true", "да", "д", "+", "x", "к", "капитан", "captain"}
FALSE_WORDS = {"", "0", "no", "n", "false", "нет", "н", "-"}


@dataclass
class RosterRow:
    line: int
    team: str
    number: int
    name: str
    captain: bool


@dataclass
class ScheduleRow:
    line: int
    field: str
    start: datetime
    team_a: str
    team_b: str


@dataclass
class ParseResult:
    rows: list = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(
            _("the file is not UTF-8 (byte {byte}); save it as 'CSV UTF-8' and try again").format(
                byte=exc.start
            )
        ) from None


def _reader(text: str):
    first = text.splitlines()[0] if text.strip() else ""
    delim = ";" if first.count(";") > first.count(",") else ","
    return csv.reader(io.StringIO(text), delimiter=delim)


def _header(row: list[str]) -> list[str]:
    return [c.strip().lower() for c in row]


def _data_rows(raw: bytes | str, need: list[str], res: ParseResult):
    """Decode, check the header has the ``need`` columns, and yield ``(line, {column:
    value})`` for every non-blank row with enough columns; problems go to ``res.errors``."""
    try:
        text = raw if isinstance(raw, str) else decode(raw)
    except ValueError as exc:
        res.errors.append(str(exc))
        return
    rows = list(_reader(text))
    if not rows:
        res.errors.append(_("the file is empty"))
        return
    head = _header(rows[0])
    missing = [c for c in need if c not in head]
    if missing:
        res.errors.append(
            _("line 1: header must be {header} (missing: {missing})").format(
                header=",".join(need), missing=", ".join(missing)
            )
        )
        return
    idx = {c: head.index(c) for c in need}
    for line, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        if len(row) < len(head):
            res.errors.append(
                _("line {line}: {n} columns, expected {m}").format(
                    line=line, n=len(row), m=len(head)
                )
            )
            continue
        yield line, {c: row[idx[c]].strip() for c in need}


def parse_roster(raw: bytes | str, max_team_size: int | None = None) -> ParseResult:
    """Header ``team,number,name,captain``."""
    res = ParseResult()
    seen: dict[tuple[str, int], int] = {}
    captains: dict[str, int] = {}
    for line, row in _data_rows(raw, ["team", "number", "name", "captain"], res):
        team, num_s, name = row["team"], row["number"], row["name"]
        cap_s = row["captain"].lower()
        bad = False
        if not team:
            res.errors.append(_("line {line}: team is empty").format(line=line))
            bad = True
        if not name:
            res.errors.append(_("line {line}: name is empty").format(line=line))
            bad = True
        try:
            number = int(num_s)
            if not 0 <= number <= 999:
                raise ValueError
        except ValueError:
            res.errors.append(
                _("line {line}: number {value} is not a whole number 0-999").format(
                    line=line, value=repr(num_s)
                )
            )
            bad = True
            number = -1
        if cap_s in TRUE_WORDS:
            captain = True
        elif cap_s in FALSE_WORDS:
            captain = False
        else:
            res.errors.append(
                _("line {line}: captain {value} is not yes/no (1/0, да/нет)").format(
                    line=line, value=repr(cap_s)
                )
            )
            bad = True
            captain = False
        if bad:
            continue
        key = (team.casefold(), number)
        if key in seen:
            res.errors.append(
                _("line {line}: {team} number {number} already on line {other}").format(
                    line=line, team=team, number=number, other=seen[key]
                )
            )
            continue
        seen[key] = line
        if captain:
            if team.casefold() in captains:
                res.errors.append(
                    _("line {line}: {team} already has a captain (line {other})").format(
                        line=line, team=team, other=captains[team.casefold()]
                    )
                )
                continue
            captains[team.casefold()] = line
        res.rows.append(RosterRow(line, team, number, name, captain))
    teams = {r.team.casefold(): r.team for r in res.rows}
    for key, team in teams.items():
        if key not in captains:
            res.warnings.append(_("{team}: no captain marked").format(team=team))
        size = sum(1 for r in res.rows if r.team.casefold() == key)
        if max_team_size and size < max_team_size:
            res.warnings.append(
                _("{team}: {n} players, fewer than {m}").format(team=team, n=size, m=max_team_size)
            )
    if not res.rows and not res.errors:
        res.errors.append(_("no players in the file"))
    return res


def parse_time(value: str, day: date) -> datetime:
    value = value.strip()
    for fmt in ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%d.%m.%Y %H:%M"):
        try:
            return datetime.strptime(value, fmt)
        except ValueError:
            pass
    t = datetime.strptime(value, "%H:%M").time()
    return datetime.combine(day, t)


def parse_schedule(raw: bytes | str, day: date) -> ParseResult:
    """Header ``field,start,team_a,team_b``; start is ``HH:MM`` or ``YYYY-MM-DD HH:MM``."""
    res = ParseResult()
    for line, row in _data_rows(raw, ["field", "start", "team_a", "team_b"], res):
        fld, start_s, a, b = row["field"], row["start"], row["team_a"], row["team_b"]
        if not fld or not a or not b:
            res.errors.append(
                _("line {line}: field, team_a and team_b must not be empty").format(line=line)
            )
            continue
        try:
            start = parse_time(start_s, day)
        except ValueError:
            res.errors.append(
                _("line {line}: start {value} is not HH:MM").format(line=line, value=repr(start_s))
            )
            continue
        res.rows.append(ScheduleRow(line, fld, start, a, b))
    if not res.rows and not res.errors:
        res.errors.append(_("no games in the file"))
    return res
