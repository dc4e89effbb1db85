"""Exports of the head judge (DESIGN.md "Exports"): printable HTML protocols, standings as
HTML and CSV, the complete JSON export. Files are never overwritten silently."""

from __future__ import annotations

import csv
import functools
import io
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path

import orjson

from fieldjudge import i18n
from fieldjudge.export import html, pdf, tables
from fieldjudge.export.game_pass import read_played
from fieldjudge.export.names import game_stem, tournament_stem, write_new
from fieldjudge.export.stamp import stamp_files
from fieldjudge.i18n import _
from fieldjudge.rules.events import VOID
from fieldjudge.rules.timefmt import format_game_clock
from fieldjudge.services import TournamentView
from fieldjudge.services.paintball import results
from fieldjudge.services.paintball.event_text import Namer, describe
from fieldjudge.services.paintball.protocol_doc import local_time, protocol_doc
from fieldjudge.services.paintball.standings import scope_lines
from fieldjudge.store import Refused, bundle

FORMATS = ("html", "pdf", "csv", "json")

#: ``progress(done, total)``: games read so far of those with a log (played or not: that
#: is known once a game is read), called after each game (and once with ``(0, total)``
#: before the first; a PDF's games counted again as they are drawn); it may raise to stop
#: the export between two games.
Progress = Callable[[int, int], None]


def no_progress(done: int, total: int) -> None:
    """A :data:`Progress` that shows nothing."""
    pass


def logged_games(t: TournamentView) -> list[dict]:
    """Scheduled games that have a log (something was recorded), in schedule order."""
    return [g for g in t.games() if t.game_path(g["id"]).exists()]


def run_export(
    t: TournamentView,
    out_dir: Path,
    fmt: str,
    game_id: str | None = None,
    lang: str = "ru",
    overwrite: bool = False,
    now: datetime | None = None,
    delimiter: str | None = None,
    progress: Progress = no_progress,
    include_unplayed: bool = False,
    verify: Callable[[], str] | None = None,
) -> list[Path]:
    """Export one game (``game_id``) or the whole tournament; returns the files written.
    CSV: ``delimiter`` (default: ";" for a Russian document, as a Russian spreadsheet
    expects, else ","). ``progress``: see :data:`Progress`. ``verify``: the folder's check
    before an export (issue 21), called before the first file is written; it raises to
    refuse the export, or returns the stamp ("" when the folder verifies): the text every
    page carries on top (an export forced out of a folder that does not verify; a PDF's
    pages are drawn with it, the other files stamped once written). A whole
    export's pass checks each game's file from the read it folds (issue 24), so ``verify``
    is called after it (the files it checked are not read again), and at the first game
    with a fault."""
    stamp = ""
    if verify is not None:
        verify = functools.cache(verify)  # asked again: the same answer, checked once
        if game_id is not None or fmt == "json":  # first: the JSON is written as it is read
            stamp, verify = verify(), None
    if fmt not in FORMATS:
        raise Refused(_("unknown format {fmt!r} (html, pdf, csv or json)").format(fmt=fmt))
    if delimiter is None:
        delimiter = ";" if lang == "ru" else ","
    if len(delimiter) != 1 or delimiter in '"\r\n':
        raise Refused(
            _("the CSV delimiter is one character, not {delimiter!r}").format(delimiter=delimiter)
        )
    out_dir = Path(out_dir)
    game = t.game(game_id) if game_id is not None else None
    if game_id is not None and game is None:
        raise Refused(_("no game {game!r} in the schedule").format(game=game_id))
    if game_id is not None and not t.game_path(game_id).exists():
        raise Refused(_("game {game} has not been played: nothing recorded").format(game=game_id))
    written: list[Path] = []

    def put(name: str, payload: bytes | Iterable[bytes]) -> None:
        written.append(write_new(out_dir / name, payload, overwrite))

    stem = tournament_stem(t)
    # the games with a log; whether each was played is known once it is read (the pass)
    logged = [game] if game is not None else logged_games(t)
    if fmt == "json":
        progress(0, len(logged))
        if game is not None:
            data = bundle.build_bundle(t.folder, now, only_game=game["id"])
            put(f"{stem}-{game_stem(t, game)}.json", bundle.dumps(data))
        else:  # written as it is read, a game at a time: never the whole bundle in memory
            put(f"{stem}.json", bundle.bundle_parts(t.folder, now))
        progress(len(logged), len(logged))
    elif game_id is None:
        stamp = _whole(
            t, logged, put, fmt, lang, now, delimiter, progress, include_unplayed, verify
        )
    else:
        progress(0, 1)
        tr = html.translator(lang)
        v = results.game_view(t, game_id)
        gs = game_stem(t, v.game)
        if fmt == "html":
            put(f"protocol-{gs}.html", html.protocol_html(t, v, lang).encode())
        elif fmt == "pdf":
            put(f"protocol-{gs}.pdf", pdf.protocol_pdf(protocol_doc(t, v, tr, lang), stamp)[0])
        else:
            put(f"events-{gs}.csv", events_csv(v, delimiter, lang))
        progress(1, 1)
    if stamp and fmt != "pdf":  # drawn on a PDF's pages, the other files stamped once written
        stamp_files(written, stamp)
    return written


def _whole(
    t: TournamentView,
    logged,
    put: Callable[[str, bytes | Iterable[bytes]], None],
    fmt,
    lang,
    now,
    delimiter,
    progress,
    include_unplayed=False,
    verify=None,
) -> str:
    """The export of every ``logged`` game, each file written with ``put``, without the
    games not played unless ``include_unplayed`` (see :func:`run_export`). Returns the
    stamp the written files take (``verify``'s)."""
    tr = html.translator(lang)
    stem = tournament_stem(t)
    # every game read before the first file is written: a failed export writes nothing
    passed = read_played(t, logged, fmt, tr, lang, progress, include_unplayed, verify)
    stamp = verify() if verify is not None else ""
    sections, views = passed.sections, passed.views
    closed = results.closed_results(t, passed.summaries)
    by_div = results.standings_by_division(t, closed)
    provisional = scope_lines(t, tr, len(closed), passed.summaries)
    if fmt == "html":
        for (name, title), section in zip(passed.pages, sections, strict=True):
            put(name, html.protocol_page_parts(title, section, lang))
        put(f"protocols-{stem}.html", html.protocols_parts(t, lang, sections))
        put(
            f"standings-{stem}.html",
            html.standings_html(t, by_div, lang, now, provisional).encode(),
        )
    elif fmt == "pdf":
        title = f"{tr('Game protocols')} — {t.meta.get('name', '')}"
        pages = []
        for done, v in enumerate(views, 1):
            doc = protocol_doc(t, v, tr, lang)
            one, size = pdf.protocol_pdf(doc, stamp)
            put(f"protocol-{game_stem(t, v.game)}.pdf", one)
            pages.append((doc, size))
            progress(done, len(views))
        put(f"protocols-{stem}.pdf", pdf.combined_pdf(title, pages, stamp))
        standings = pdf.standings_pdf(t, by_div, tr, lang, now, provisional, stamp)
        put(f"standings-{stem}.pdf", standings)
    else:
        put(
            f"standings-{stem}.csv",
            tables.standings_csv(t, by_div, tr, lang, delimiter, provisional),
        )
    return stamp


#: the per-game events CSV: readable columns, then the chain as recorded (for auditors)
EVENT_HEADERS = (
    "No.",
    "Game time",
    "Time",
    "Judge",
    "Event",
    "Voided",
    "Event data (JSON)",
    "Event id",
    "Previous hash",
    "Hash",
    "Laptop",
    "Laptop signature",
    "Head judge's signature",
)


def events_csv(v, delimiter: str = ",", lang: str = "ru") -> bytes:
    """One game's events as CSV (UTF-8 with BOM) in ``lang``: each event's number, game
    and local time, judge and what happened in words (the game screen's event list), a
    mark on a voided one; then the chain as recorded (data, id, hashes, signatures) for an
    auditor to check, headed in ``lang`` too (issue 25)."""
    tr = html.translator(lang)
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator="\r\n")
    w.writerow([tr(h) for h in EVENT_HEADERS])
    voided = {str(e.data.get("target")) for e in v.events if e.type == VOID}
    by_id = {e.id: e for e in v.events}
    with i18n.speaking(lang):
        namer = Namer(v.names, v.state)
        for e in v.events:
            data = orjson.dumps(dict(e.data), option=orjson.OPT_SORT_KEYS).decode()
            w.writerow(
                [
                    e.seq,
                    format_game_clock(e.game_clock_ms) if e.game_clock_ms is not None else "",
                    local_time(e.wall_time),
                    e.judge,
                    describe(e, namer, by_id),
                    tr("yes") if e.id in voided else "",
                    data,
                    e.id,
                    e.prev_hash,
                    e.hash,
                    e.signer or "",
                    e.sig or "",
                    e.hj_sig or "",
                ]
            )
    return "\ufeff".encode() + buf.getvalue().encode("utf-8")
