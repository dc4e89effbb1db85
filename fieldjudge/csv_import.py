"""Rosters and schedules from CSV: every bad row reported with its line, nothing half-imported.

Accepts comma or semicolon, UTF-8 with or without BOM, Cyrillic names, CR, LF or CRLF line
ends.  Every problem is a line-numbered message in ``ParseResult.errors``, never an exception:
not UTF-8, a field over the csv module's limit (131,072 characters), a broken quote, a bad
name (`fieldjudge.rules.names`).  A file over `MAX_CSV_BYTES` is refused before it is read
(`read_csv_file` raises `CsvTooLarge`) or parsed.  Parsing is linear in the file size and can
report progress (for a worker thread: ``progress(lines_done, lines_total)``).
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

from fieldjudge.i18n import _, rule_text
from fieldjudge.rules.names import name_problem

TRUE_WORDS = {"1", "yes", "y", "true", "да", "д", "+", "x", "к", "капитан", "captain"}
FALSE_WORDS = {"", "0", "no", "n", "false", "нет", "н", "-"}

MAX_CSV_BYTES = 1_048_576  # 1 MB: far above a tournament's roster (a few hundred lines)
PROGRESS_EVERY = 2000  # rows between two progress calls

Progress = Callable[[int, int], object]  # (lines read, lines in the file)


class CsvImportError(ValueError):
    """A CSV file refused as a whole (the message says why, in the UI language)."""


class CsvTooLarge(CsvImportError):
    pass


def too_large_message(size: int) -> str:
    return _(
        "the file is {size} KB, more than the {limit} KB a roster or schedule can be; "
        "is it the right file?"
    ).format(size=size // 1024, limit=MAX_CSV_BYTES // 1024)


def read_csv_file(path_text: str | Path) -> bytes:
    """The bytes of a CSV file; a file over `MAX_CSV_BYTES` is refused (`CsvTooLarge`) from
    its size alone, before anything is read.  `OSError` when it cannot be read."""
    path = Path(path_text).expanduser()
    if not path.is_file():
        raise OSError(_("No such file") + f": {path}")
    size = path.stat().st_size
    if size > MAX_CSV_BYTES:
        raise CsvTooLarge(too_large_message(size))
    with path.open("rb") as f:
        raw = f.read(MAX_CSV_BYTES + 1)  # the file may have grown since the stat
    if len(raw) > MAX_CSV_BYTES:
        raise CsvTooLarge(too_large_message(len(raw)))
    return raw


@dataclass
class RosterRow:
    """One player line of an imported roster CSV."""

    line: int
    team: str
    number: int
    name: str
    captain: bool


@dataclass
class ScheduleRow:
    """One game line of an imported schedule CSV."""

    line: int
    field: str
    start: datetime
    team_a: str
    team_b: str


@dataclass
class ParseResult:
    """What reading a CSV gave: its rows, and the errors and warnings by line."""

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


def _first_line(text: str) -> str:
    ends = [i for i in (text.find("\n"), text.find("\r")) if i >= 0]
    return text[: min(ends)] if ends else text


def _reader(text: str):
    first = _first_line(text)
    delim = ";" if first.count(";") > first.count(",") else ","
    # newline="": the csv module sees CR, LF and CRLF itself (a CR-only file, a quoted newline)
    return csv.reader(io.StringIO(text, newline=""), delimiter=delim)


def _csv_error(line: int, exc: csv.Error) -> str:
    if "field larger than field limit" in str(exc):
        msg = _("line {line}: a field is longer than {limit} characters").format(
            line=line, limit=csv.field_size_limit()
        )
    else:
        msg = _("line {line}: not valid CSV ({detail})").format(line=line, detail=exc)
    return msg + "; " + _("the rest of the file was not read")


def _rows(reader) -> Iterator[tuple[int, list[str]]]:
    """``(first line of the record, cells)``; a record with a quoted newline spans lines."""
    prev = 0
    for row in reader:
        yield prev + 1, row
        prev = reader.line_num


def _data_rows(raw: bytes | str, need: list[str], res: ParseResult, progress: Progress | None):
    """Decode, check the header has the ``need`` columns, and yield ``(line, {column:
    value})`` for every non-blank row with enough columns; problems go to ``res.errors``."""
    size = len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)
    if size > MAX_CSV_BYTES:
        res.errors.append(too_large_message(size))
        return
    try:
        text = raw if isinstance(raw, str) else decode(raw)
    except ValueError as exc:
        res.errors.append(str(exc))
        return
    total = max(1, text.count("\n") + text.count("\r") - text.count("\r\n"))
    reader = _reader(text)
    rows = _rows(reader)
    done = 0  # the last line of the last complete record
    try:
        first = next(rows, None)
        if first is None:
            res.errors.append(_("the file is empty"))
            return
        head = [c.strip().lower() for c in first[1]]
        missing = [c for c in need if c not in head]
        if missing:
            res.errors.append(
                _("line 1: header must be {header} (missing: {missing})").format(
                    header=",".join(need), missing=", ".join(missing)
                )
            )
            return
        idx = {c: head.index(c) for c in need}
        done = reader.line_num
        for n, (line, row) in enumerate(rows, start=1):
            done = reader.line_num
            if progress is not None and n % PROGRESS_EVERY == 0:
                progress(min(reader.line_num, total), total)
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
    except csv.Error as exc:
        res.errors.append(_csv_error(done + 1, exc))
    if progress is not None:
        progress(total, total)


def _name_error(line: int, what: str, value: str) -> str | None:
    problem = name_problem(value)
    if problem is None:
        return None
    return _("line {line}: {what} {problem}").format(
        line=line, what=what, problem=rule_text(problem)
    )


def _number(text: str) -> int:
    """A player's number 0-999, or -1."""
    try:
        number = int(text)
    except ValueError:
        return -1
    return number if 0 <= number <= 999 else -1


def parse_roster(
    raw: bytes | str, max_team_size: int | None = None, progress: Progress | None = None
) -> ParseResult:
    """Header ``team,number,name,captain``.  Team and player names must pass
    `fieldjudge.rules.names.name_problem` (no control or bidi characters, a length limit)."""
    res = ParseResult()
    seen: dict[tuple[str, int], int] = {}
    captains: dict[str, int] = {}
    rows = _data_rows(raw, ["team", "number", "name", "captain"], res, progress)
    for line, row in rows:
        team, num_s, name = row["team"], row["number"], row["name"]
        cap_s = row["captain"].lower()
        number = _number(num_s)
        errors = [
            _("line {line}: team is empty").format(line=line)
            if not team
            else _name_error(line, _("team name"), team),
            _("line {line}: name is empty").format(line=line)
            if not name
            else _name_error(line, _("player name"), name),
            None
            if number >= 0
            else _("line {line}: number {value} is not a whole number 0-999").format(
                line=line, value=repr(num_s[:20])
            ),
            None
            if cap_s in TRUE_WORDS | FALSE_WORDS
            else _("line {line}: captain {value} is not yes/no (1/0, да/нет)").format(
                line=line, value=repr(cap_s[:20])
            ),
        ]
        if any(errors):
            res.errors += [e for e in errors if e]
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
        if cap_s in TRUE_WORDS:
            if team.casefold() in captains:
                res.errors.append(
                    _("line {line}: {team} already has a captain (line {other})").format(
                        line=line, team=team, other=captains[team.casefold()]
                    )
                )
                continue
            captains[team.casefold()] = line
        res.rows.append(RosterRow(line, team, number, name, cap_s in TRUE_WORDS))
    teams = {r.team.casefold(): r.team for r in res.rows}
    sizes = Counter(r.team.casefold() for r in res.rows)  # one pass (was a pass per team)
    for key, team in teams.items():
        if key not in captains:
            res.warnings.append(_("{team}: no captain marked").format(team=team))
        size = sizes[key]
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


def parse_schedule(raw: bytes | str, day: date, progress: Progress | None = None) -> ParseResult:
    """Header ``field,start,team_a,team_b``; start is ``HH:MM`` or ``YYYY-MM-DD HH:MM``."""
    res = ParseResult()
    for line, row in _data_rows(raw, ["field", "start", "team_a", "team_b"], res, progress):
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
                _("line {line}: start {value} is not HH:MM").format(
                    line=line, value=repr(start_s[:20])
                )
            )
            continue
        res.rows.append(ScheduleRow(line, fld, start, a, b))
    if not res.rows and not res.errors:
        res.errors.append(_("no games in the file"))
    return res
