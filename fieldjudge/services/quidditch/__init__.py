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

The parts: ``roster`` (teams typed in or imported, the :class:`MatchSetup`), ``match`` (the
log, the fold, drafts, resolve and void, the JSON and posts exports), ``verify`` (an export
against the revealed seed), ``common`` (the error type and event types). Everything the
screens, the CLI and the tests use is importable from here.
"""

from __future__ import annotations

from .common import MATCH_CREATED, ROUND_RESOLVED, SessionError, quidditch_folder
from .match import QuidditchSession, Resolved, match_list
from .roster import (
    RosterRow,
    build_setup,
    default_rows,
    parse_roster_csv,
)
from .verify import count_rolls, verify_export

__all__ = [
    "MATCH_CREATED",
    "ROUND_RESOLVED",
    "QuidditchSession",
    "Resolved",
    "RosterRow",
    "SessionError",
    "build_setup",
    "count_rolls",
    "default_rows",
    "match_list",
    "parse_roster_csv",
    "quidditch_folder",
    "verify_export",
]
