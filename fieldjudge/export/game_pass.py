"""The pass of a whole-tournament export over every played game (HTML, PDF, CSV): each
game file read and its chain verified once, in schedule order; its summary (the
standings' source, and 20.05 for the games after it) is taken from the same view as its
protocol. With ``jobs`` > 1 the games are read on several processors first
(:mod:`fieldjudge.export.fanout`), each process carrying 20.05 over the games it read: a
game whose setup lacked a player disqualified in a game another process read is read again
here, in order."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fieldjudge.export import html
from fieldjudge.export.fanout import fan_out
from fieldjudge.export.names import Staging, game_stem
from fieldjudge.services.paintball import results, summaries
from fieldjudge.services.paintball.disqualified import CarriedOver, Setups


@dataclass(frozen=True)
class GameRead:
    """What the pass over every game keeps of one (picklable, but for ``view``)."""

    key: list[int] | None  # the file's key before the read (the summary index's)
    summary: dict[str, Any]
    disqualified: frozenset[tuple[str, int]]  # 20.05: whom its setup held disqualified
    section: str | None = None  # HTML: the protocol's section and its page
    page: tuple[str, Path] | None = None  # (its name, where it is staged)
    view: results.GameView | None = None  # PDF: drawn after the pass


def read_game(
    t,
    g: dict,
    disqualified: frozenset[tuple[str, int]],
    fmt: str,
    tr,
    lang: str,
    setups,
    staging: Staging | None = None,
) -> GameRead:
    """One game read, its chain verified and folded once; what ``fmt`` needs of it (an
    HTML page: written to ``staging``)."""
    key = t.index.file_key(t.game_path(g["id"]))  # before the read: never newer
    v = results.read_game_view(t, g["id"], disqualified, setups, g)
    summary = summaries.summary_of_view(v)
    if fmt == "html":
        section = html.protocol_section(t, v, tr, lang)
        page = html.protocol_html(t, v, lang, section).encode()
        name = f"protocol-{game_stem(t, v.game)}.html"
        if staging is None:
            raise ValueError("an HTML pass stages its pages")
        return GameRead(
            key, summary, v.setup.disqualified, section, (name, staging.stage(name, page))
        )
    return GameRead(key, summary, v.setup.disqualified, view=v if fmt == "pdf" else None)


def read_games(
    t, games: Iterable[dict], fmt: str, tr, lang: str, setups, staging: Staging | None = None
) -> Iterator[GameRead]:
    """:func:`read_game` over games in schedule order, one at a time (a process of the
    fan-out takes its next game only when it is done with one), 20.05 carried over the
    games read here."""
    carried = CarriedOver()
    for g in games:
        r = read_game(t, g, carried.before(g), fmt, tr, lang, setups, staging)
        carried.add(r.summary)
        yield r


@dataclass
class Passed:
    """What the pass gives the export: each game's summary (by id, also remembered in
    the index), the HTML protocols' sections and pages, the PDF's views."""

    summaries: dict[str, dict[str, Any]]
    sections: list[str]
    pages: list[tuple[str, Path]]  # (name, where it is staged), in schedule order
    views: list[results.GameView]


def read_played(
    t,
    played: Sequence[dict],
    fmt: str,
    tr,
    lang: str,
    jobs: int,
    progress: Callable[[int, int], None],
    fan: Callable[..., list] = fan_out,
    staging: Staging | None = None,
) -> Passed:
    """Every played game read once (see the module). ``fan``: how the games are read on
    ``jobs`` processors (:func:`fieldjudge.export.fanout.fan_out`); ``staging``: where
    an HTML pass writes its pages."""
    made: dict[str, dict[str, Any]] = {}
    views = []
    sections: list[str] = []  # HTML: each protocol rendered once, its events not kept
    pages: list[tuple[str, Path]] = []
    setups = Setups(t)  # the rosters and settings read once
    ahead: list[GameRead | None] = [None] * len(played)
    if played:  # the laptops' signed manifests, verified once here, not in every child
        t.anchor(played[0]["id"])
    if jobs > 1 and fmt != "pdf" and len(played) > 1:
        ahead = list(
            fan(lambda games: read_games(t, games, fmt, tr, lang, setups, staging), played, jobs)
        )
    carried = CarriedOver()
    for done, (g, r) in enumerate(zip(played, ahead, strict=True), 1):
        disqualified = carried.before(g)
        # the part of 20.05 its setup keeps (its two teams'), as GameSetup decides it
        if r is None or r.disqualified != setups.of(g, disqualified).disqualified:
            if r is not None and r.page is not None and staging is not None:
                staging.drop(r.page[1])  # made without the earlier disqualification
            r = read_game(t, g, disqualified, fmt, tr, lang, setups, staging)
        carried.add(r.summary)
        t.remember_game_summary(g["id"], r.summary, r.key)
        made[g["id"]] = r.summary
        if r.section is not None and r.page is not None:
            sections.append(r.section)
            pages.append(r.page)
        if r.view is not None:
            views.append(r.view)
        if fmt != "pdf":  # a PDF's games are counted as they are drawn, the slow part
            progress(done, len(played))
    return Passed(made, sections, pages, views)
