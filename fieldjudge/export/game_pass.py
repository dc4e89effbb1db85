"""The pass of a whole-tournament export over every game with a log (HTML, PDF, CSV):
each game file read, its chain verified and the game folded once, in schedule order,
carrying 20.05 forward (RULES.md 20.05: a player disqualified in a game is disqualified in
his team's later games); its summary (the standings' source, and whether the game was
played at all: 30.01, 32) is taken from the same view as its protocol. Nothing asks for
a game's summary before the pass (that would fold every earlier game again, 20.05).
Before an export the folder is checked (issue 21): the pass checks each game's file from
the same read it folds (issue 24), and the rest of the folder is checked after it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fieldjudge.export import html
from fieldjudge.export.names import game_stem
from fieldjudge.services import TournamentView
from fieldjudge.services.paintball import results, summaries
from fieldjudge.services.paintball.disqualified import CarriedOver, Setups


@dataclass
class Passed:
    """What the pass gives the export: each game's summary (by id, also remembered in
    the index), the HTML protocols' sections and pages, the PDF's views."""

    summaries: dict[str, dict[str, Any]]
    sections: list[bytes]  # each protocol's section, UTF-8: the only copy of it kept
    pages: list[tuple[str, str]]  # (file name, title) of each section's page, in order
    views: list[results.GameView]


def read_played(
    t: TournamentView,
    logged: Sequence[dict],
    fmt: str,
    tr,
    lang: str,
    progress: Callable[[int, int], None],
    include_unplayed: bool = False,
    verify: Callable[[], str] | None = None,
) -> Passed:
    """Every game with a log read once, in schedule order (see the module); the games not
    played are left out of the documents unless ``include_unplayed``. ``progress`` counts
    the games read. ``verify`` (the folder's check, see :func:`fieldjudge.export.run_export`):
    each game's file is checked as it is read, ``verify`` called at the first game with a
    fault (it refuses the export, or lets a forced one read on) and after the last game;
    the summaries are remembered once it passed."""
    passed = Passed({}, [], [], [])
    setups = Setups(t)  # the rosters and settings read once
    carried = CarriedOver()  # 20.05: every earlier game's, played or not
    keys: dict[str, Any] = {}
    progress(0, len(logged))
    for done, g in enumerate(logged, 1):
        keys[g["id"]] = t.index.file_key(t.game_path(g["id"]))  # before the read: never newer
        disqualified = carried.before(g)
        checked, read = t.trust.read_game(g["id"]) if verify else (None, None)
        if verify is not None and checked is not None and checked.faults:
            verify()
        if read is not None:  # read and checked once (the file is as its laptops signed it)
            setup = setups.of({**g, "id": g["id"]}, disqualified)
            v = results.view_from_events(t, g["id"], read.events, setup, g)
        else:
            v = results.read_game_view(t, g["id"], disqualified, setups, g)
        summary = summaries.summary_of_view(v)
        carried.add(summary)
        passed.summaries[g["id"]] = summary
        if summary.get("not_played") and not include_unplayed:
            pass  # no result, never a draw (30.01, 32): not in the documents
        elif fmt == "html":
            passed.sections.append(html.protocol_section(t, v, tr, lang).encode())
            name = f"protocol-{game_stem(t, v.game)}.html"
            passed.pages.append((name, html.protocol_title(v, tr)))
        elif fmt == "pdf":
            passed.views.append(v)
        if fmt != "pdf":  # a PDF's games are counted as they are drawn, the slow part
            progress(done, len(logged))
    if verify is not None:
        verify()
    for game_id, key in keys.items():
        t.remember_game_summary(game_id, passed.summaries[game_id], key)
    return passed
