"""Exports of the head judge (DESIGN.md "Exports"): printable HTML protocols, standings as
HTML and CSV, the complete JSON export. Files are never overwritten silently."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from pathlib import Path

import orjson

from fieldjudge.export import bundle, html, tables
from fieldjudge.export.names import safe_name, write_new
from fieldjudge.services import results
from fieldjudge.store import Refused

FORMATS = ("html", "csv", "json")


def played_games(t) -> list[dict]:
    """Scheduled games that have a log (something was recorded)."""
    return [g for g in t.games() if t.game_path(g["id"]).exists()]


def game_stem(t, game: dict) -> str:
    names = t.team_names()
    start = game.get("start", "").replace("-", "").replace(":", "").replace("T", "-")
    a = safe_name(names.get(game["team_a"], game["team_a"]), 30)
    b = safe_name(names.get(game["team_b"], game["team_b"]), 30)
    return f"{safe_name(start, 20)}-field{safe_name(game.get('field', ''), 8)}-{a}-vs-{b}"


def tournament_stem(t) -> str:
    return safe_name(f"{t.meta.get('date', '')}-{t.name}", 70)


def run_export(
    t,
    out_dir: Path,
    fmt: str,
    game_id: str | None = None,
    lang: str = "ru",
    overwrite: bool = False,
    now: datetime | None = None,
) -> list[Path]:
    """Export one game (``game_id``) or the whole tournament; returns the files written."""
    if fmt not in FORMATS:
        raise Refused(f"unknown format {fmt!r} (html, csv or json)")
    out_dir = Path(out_dir)
    if game_id is not None and t.game(game_id) is None:
        raise Refused(f"no game {game_id!r} in the schedule")
    if game_id is not None and not t.game_path(game_id).exists():
        raise Refused(f"game {game_id} has not been played: nothing recorded")
    written: list[Path] = []

    def put(name: str, payload: bytes) -> None:
        written.append(write_new(out_dir / name, payload, overwrite))

    stem = tournament_stem(t)
    if fmt == "json":
        data = bundle.build_bundle(t.folder, now)
        if game_id is not None:
            data["games"] = {game_id: data["games"][game_id]}
            data["quidditch"] = {}
            put(f"{stem}-{game_stem(t, t.game(game_id))}.json", bundle.dumps(data))
        else:
            put(f"{stem}.json", bundle.dumps(data))
        return written
    if game_id is not None:
        v = results.game_view(t, game_id)
        gs = game_stem(t, v.game)
        if fmt == "html":
            put(f"protocol-{gs}.html", html.protocol_html(t, v, lang).encode())
        else:
            put(f"events-{gs}.csv", events_csv(v))
        return written
    tr = html.translator(lang)
    if fmt == "html":
        # each game file read and its chain verified once: the standings come from the
        # same views as the protocols
        views = [results.read_game_view(t, g["id"]) for g in played_games(t)]
        closed = [(v.game, v.result) for v in views if v.phase in results.CLOSED_PHASES]
        by_div = results.standings_by_division(t, closed)
        for v in views:
            put(f"protocol-{game_stem(t, v.game)}.html", html.protocol_html(t, v, lang).encode())
        put(f"protocols-{stem}.html", html.protocols_html(t, views, lang).encode())
        put(f"standings-{stem}.html", html.standings_html(t, by_div, lang, now).encode())
    else:
        by_div = results.standings_by_division(t)
        put(f"standings-{stem}.csv", tables.standings_csv(t, by_div, tr))
    return written


def events_csv(v) -> bytes:
    """One game's event chain as CSV (UTF-8 with BOM)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(
        ["seq", "id", "type", "game_clock_ms", "wall_time", "judge", "data", "prev_hash", "hash"]
    )
    for e in v.events:
        data = orjson.dumps(dict(e.data), option=orjson.OPT_SORT_KEYS).decode()
        w.writerow(
            [e.seq, e.id, e.type, e.game_clock_ms, e.wall_time, e.judge, data, e.prev_hash, e.hash]
        )
    return "\ufeff".encode() + buf.getvalue().encode("utf-8")
