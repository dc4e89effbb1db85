"""The append-only log of head-judge secret attempts, one file per laptop.

``<tournament>/laptops/<laptop_id>/auth.jsonl``: one JSON line per attempt, fsync'd before
the call returns, so a restart (or a kill) does not reset the count. Each laptop writes only
its own file (one writer per file: safe in a synced folder); the head judge can read all of
them (:func:`read_all`). Lines::

    {"t": 1796040000.0, "at": "2026-11-30T14:00:00+00:00", "laptop": "1a2b3c4d5e6f7a8b",
     "what": "head_judge", "result": "attempt"}

``result`` is ``attempt`` (written before the secret is checked), ``failure`` or
``success`` (see ``rules/auth_backoff.py`` for how they count). A torn last line (a write
killed before its fsync returned, so never acknowledged) is trimmed before the next append;
a complete line that is not a valid record is kept and reported in
:attr:`AuthLog.damaged_lines`, never dropped silently.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import orjson

from fieldjudge.rules.auth_backoff import RESULTS
from fieldjudge.rules.key_ids import is_key_id
from fieldjudge.store.errors import StoreError
from fieldjudge.store.storage import append_line

LAPTOPS_DIR = "laptops"
AUTH_FILE = "auth.jsonl"


class BadLaptopId(StoreError):
    """A laptop id that is not 16 lowercase hex characters (never used as a path)."""


@dataclass(frozen=True)
class Attempt:
    """One try of the head judge's secret, as the laptop's log holds it."""

    t: float  # POSIX seconds, as the caller's clock gave them
    laptop: str
    what: str
    result: str


class AuthLog:
    """The attempts log of one laptop in one tournament folder."""

    def __init__(self, tournament_dir: Path | str, laptop_id: str) -> None:
        if not is_key_id(laptop_id):
            raise BadLaptopId(f"not a laptop id: {laptop_id!r}")
        self.laptop_id = laptop_id
        self.path = Path(tournament_dir) / LAPTOPS_DIR / laptop_id / AUTH_FILE
        #: 1-based numbers of complete lines that are not valid records (last read)
        self.damaged_lines: list[int] = []

    def attempts(self) -> list[Attempt]:
        """Every valid record in file order (a torn last line is not one)."""
        attempts, damaged = _parse(self.path)
        self.damaged_lines = damaged
        return attempts

    def append(self, now: float, result: str, what: str = "head_judge") -> Attempt:
        """Append one record and fsync it; returns once it is durable."""
        if result not in RESULTS:
            raise ValueError(f"unknown result {result!r}")
        attempt = Attempt(float(now), self.laptop_id, str(what), result)
        line = orjson.dumps(
            {
                "t": attempt.t,
                "at": datetime.fromtimestamp(attempt.t, UTC).isoformat(),
                "laptop": attempt.laptop,
                "what": attempt.what,
                "result": attempt.result,
            }
        )
        append_line(self.path, line)
        return attempt


def read_all(tournament_dir: Path | str) -> dict[str, list[Attempt]]:
    """Every laptop's attempts, by laptop id (for the head judge and ``verify``)."""
    root = Path(tournament_dir) / LAPTOPS_DIR
    out: dict[str, list[Attempt]] = {}
    if not root.is_dir():
        return out
    for sub in sorted(root.iterdir()):
        if is_key_id(sub.name) and (sub / AUTH_FILE).is_file():
            out[sub.name] = AuthLog(tournament_dir, sub.name).attempts()
    return out


def _parse(path: Path) -> tuple[list[Attempt], list[int]]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return [], []
    lines = raw.split(b"\n")
    if lines and lines[-1] != b"":
        lines = lines[:-1]  # torn last line: never acknowledged
    attempts: list[Attempt] = []
    damaged: list[int] = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            doc = orjson.loads(line)
            attempt = Attempt(
                float(doc["t"]), str(doc["laptop"]), str(doc["what"]), str(doc["result"])
            )
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
            damaged.append(n)
            continue
        if attempt.result not in RESULTS or not math.isfinite(attempt.t):
            damaged.append(n)
            continue
        attempts.append(attempt)
    return attempts, damaged
