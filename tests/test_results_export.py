"""Exports: HTML protocol parses and holds every elimination and signature; CSV with BOM;
JSON round-trips; no silent overwrite; safe names; standings; no-shows; verify."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner
from results_fixtures import demo, import_bundle

from fieldjudge.cli import main
from fieldjudge.commands.results import results_main
from fieldjudge.export import run_export
from fieldjudge.export.names import safe_name
from fieldjudge.services.demo import DEMO_PASSPHRASE
from fieldjudge.services.paintball import results
from fieldjudge.store import Refused, bundle


class Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def text_of(html: str) -> str:
    p = Text()
    p.feed(html)
    p.close()
    return " ".join(p.parts)


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    """The demo, for a laptop of its own (no test's config folder is set yet for a module's
    fixture: the user's own would be used)."""
    folder = tmp_path_factory.mktemp("exp") / "cup"
    t = demo(folder, config=folder.parent / "config")
    yield t
    t.close()


def test_demo_history_standings(tour):
    by_div = results.standings_by_division(tour)
    (rows,) = by_div.values()
    assert len(rows) == 8 and sum(r.games for r in rows) == 8
    assert sum(r.flag_hangs for r in rows) == 1 and sum(r.no_shows for r in rows) == 1
    assert sum(r.draws for r in rows) == 2
    assert rows[0].points == 3 and rows[0].diff == 5  # 32.02: the no-show's opponent
    assert rows[-1].diff == -5


def test_html_protocol_has_every_elimination_and_signature(tour, tmp_path):
    for g in tour.games()[:4]:
        v = results.game_view(tour, g["id"])
        (path,) = run_export(tour, tmp_path, "html", game_id=g["id"])
        text = text_of(path.read_text(encoding="utf-8"))
        assert "Протокол игры" in text
        for p in v.state.players.values():
            if p.elimination is not None:
                assert p.name in text
        for sig in v.protocol.signatures.values():
            assert sig.name in text
        assert v.last_hash in text
        assert "@page" in path.read_text(encoding="utf-8")


def test_all_protocols_standings_csv_bom(tour, tmp_path):
    written = run_export(tour, tmp_path, "html")
    assert len(written) == 4 + 2
    text = text_of(written[-2].read_text(encoding="utf-8"))
    assert text.count("Протокол игры") == 4
    (path,) = run_export(tour, tmp_path, "csv")
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))  # Russian
    assert len(rows) == 1 + 8 + 2  # and a blank row, then which games are counted
    assert {r[2] for r in rows[1:9]} == set(tour.team_names().values())


def test_json_round_trips(tour, tmp_path):
    (path,) = run_export(tour, tmp_path, "json")
    dest = import_bundle(path, tmp_path / "copy")
    again = bundle.build_bundle(dest)
    first = bundle.load_bundle(path)
    for key in ("tournament", "games", "quidditch"):
        assert again[key] == first[key]
    assert sum(len(d["events"]) for d in again["games"].values()) > 40


def test_existing_file_is_not_overwritten(tour, tmp_path):
    g = tour.games()[0]["id"]
    (first,) = run_export(tour, tmp_path, "html", game_id=g)
    first.write_text("judge's own notes", encoding="utf-8")
    (second,) = run_export(tour, tmp_path, "html", game_id=g)
    assert second != first and first.read_text(encoding="utf-8") == "judge's own notes"


def test_safe_names():
    for name in ["../../etc/passwd", "a/b\\c:d*?", "CON", "", "Медведи «Север»", "\x00\n"]:
        s = safe_name(name)
        assert s and "/" not in s and "\\" not in s and ".." not in s and s.lower() != "con"
    assert safe_name("Медведи «Север»") == "Медведи-Север"


def test_32_no_show_and_lock_guard(tour):
    g5, g6 = tour.games()[4]["id"], tour.games()[0]["id"]
    with pytest.raises(Refused, match="31"):
        tour.game_log(g6).append("elimination", {"reason": "hit"})
    team = tour.game(g5)["team_a"]
    end = results.previous_game_end(tour, g5, team)
    assert end is not None
    with pytest.raises(Refused, match="32.03"):  # inside the 12-minute gap (32.03)
        results.record_no_show(
            tour, g5, [team], when=(end + timedelta(minutes=5)).astimezone(), secret=DEMO_PASSPHRASE
        )
    results.record_no_show(
        tour, g5, [team], when=(end + timedelta(minutes=13)).astimezone(), secret=DEMO_PASSPHRASE
    )
    v = results.game_view(tour, g5)
    a, b = v.teams
    assert dict(v.result.points) == {a: 0, b: 3} and dict(v.result.diff) == {a: -5, b: 5}
    assert tour.game_summary(g5)["phase"] == "no_show"


def test_cli_verify_and_export(tour, tmp_path):
    runner = CliRunner()
    ok = runner.invoke(main, ["verify", str(tour.folder)])
    assert ok.exit_code == 0, ok.output
    out = runner.invoke(  # the program `fieldjudge export` becomes
        results_main,
        [
            "export",
            "--tournament",
            str(tour.folder),
            "--all",
            "--format",
            "csv",
            "--out",
            str(tmp_path),
        ],
    )
    assert out.exit_code == 0 and ".csv" in out.output
    bad = runner.invoke(
        results_main,
        ["export", "--tournament", str(tour.folder), "--game", "zz", "--out", str(tmp_path)],
    )
    assert bad.exit_code != 0 and "no game" in bad.output and "Traceback" not in bad.output
    # a game file broken by hand: verify names it and fails
    broken = tmp_path / "broken"
    import_bundle(run_export(tour, tmp_path, "json")[0], broken)
    gfile = next(p for p in sorted((broken / "games").glob("*.json")) if '"hit"' in p.read_text())
    gfile.write_text(gfile.read_text(encoding="utf-8").replace('"hit"', '"out_of_bounds"', 1))
    res = runner.invoke(main, ["verify", str(broken)])
    assert res.exit_code == 1 and "FAULT" in res.output and gfile.name in res.output


def _disqualify_before_a_later_game(folder):
    """The demo with a player disqualified (20.05) in a game, and a later game of his
    team started: (tournament, the game, the later game, team, number)."""
    from fieldjudge.services.demo_history import GamePlayer
    from fieldjudge.services.paintball.disqualified import disqualified_before

    t = demo(folder)
    first = next(g for g in t.games() if not t.game_path(g["id"]).exists())
    p = GamePlayer(t, first["id"])
    team = first["team_a"]
    number = p.setup.rosters[team][0].number
    assert p.add("clock_start", 0)
    assert p.add(
        "chrono_reading",
        30_000,
        team=team,
        number=number,
        fps=280.0,
        forbidden_mode=True,
        second=p.setup.rosters[team][1].number,
    )
    later = next(
        g for g in t.games() if g["start"] > first["start"] and team in (g["team_a"], g["team_b"])
    )
    assert GamePlayer(t, later["id"]).add("clock_start", 0)
    assert (team, number) in disqualified_before(t, later["id"])  # the game screen's
    return t, first, later, team, number


def test_20_05_export_carries_a_disqualification_to_the_later_games(tmp_path):
    """The export reads every game once in schedule order and carries 20.05 along
    (``CarriedOver``): each later game's setup holds the player disqualified in an earlier
    game, exactly as the game screen's setup (``disqualified_before``) does."""
    from fieldjudge.services import open_view

    t, first, later, team, number = _disqualify_before_a_later_game(tmp_path / "cup")
    try:
        before = [g for g in t.games() if g["start"] < first["start"]]
        t.index.path.unlink()  # every summary made by the export's own pass
        t.close()
        t = open_view(tmp_path / "cup")  # as the export opens it
        run_export(t, tmp_path / "out", "csv")
        assert [team, number] in t.cached_game_summary(later["id"])["disqualified"]
        assert [team, number] in t.cached_game_summary(first["id"])["disqualified"]
        for g in before:  # the games before it: nobody disqualified there
            if t.game_path(g["id"]).exists():
                assert t.cached_game_summary(g["id"])["disqualified"] == []
    finally:
        t.close()


def test_carried_over_takes_only_games_that_started_before():
    from fieldjudge.services.paintball.disqualified import CarriedOver

    c = CarriedOver()
    assert c.before({"start": "2026-05-16T09:00"}) == frozenset()
    c.add({"disqualified": [["red", 7]]})
    # a game at the same time is on another field: not before
    assert c.before({"start": "2026-05-16T09:00"}) == frozenset()
    c.add({"phase": "open"})  # a summary without the list (nothing recorded)
    assert c.before({"start": "2026-05-16T09:20"}) == {("red", 7)}
    c.add({"disqualified": [["blue", 11]]})
    assert c.before({"start": "2026-05-16T09:40"}) == {("red", 7), ("blue", 11)}
    with pytest.raises(ValueError, match="schedule order"):
        c.before({"start": "2026-05-16T09:20"})


def test_json_export_streamed_a_log_at_a_time_is_the_bundle_byte_for_byte(tour, tmp_path):
    """The whole JSON export is written a log at a time (issue 24: no whole-tournament
    buffer), byte for byte what one ``dumps`` of the whole bundle gives: every key in
    order, every nesting indented alike, an empty log folder as ``{}``."""
    from datetime import UTC, datetime

    now = datetime(2026, 5, 16, 18, 0, tzinfo=UTC)
    whole = bundle.dumps(bundle.build_bundle(tour.folder, now))
    assert b"".join(bundle.bundle_parts(tour.folder, now)) == whole
    assert b'"quidditch": {}' in whole  # the demo records no match: the empty case
    (path,) = run_export(tour, tmp_path, "json", now=now)
    assert path.read_bytes() == whole


def test_30_01_a_whole_export_reads_and_folds_each_game_once(tmp_path, monkeypatch):
    """A whole export (20.05, 30.01, 32) makes every game's summary in its one pass, in
    schedule order: no game's summary is asked for first (that folded every earlier game
    again for each game: quadratic in the games, issue 24), each file read once."""
    from fieldjudge.services import open_view
    from fieldjudge.services.paintball import summaries
    from fieldjudge.services.tournament import TournamentView

    t, _first, later, team, number = _disqualify_before_a_later_game(tmp_path / "cup")
    t.index.path.unlink()  # a head judge's first export: no summary known
    t.close()
    t = open_view(tmp_path / "cup")
    try:
        asked: list[str] = []  # a summary made apart from the pass (it catches errors)
        summarize, before = summaries.summarize, results.disqualified_before
        monkeypatch.setattr(
            summaries,
            "summarize",
            lambda t, g, log, *dq: asked.append(g) or summarize(t, g, log, *dq),
        )
        monkeypatch.setattr(
            results, "disqualified_before", lambda t, g: asked.append(g) or before(t, g)
        )
        reads: list[str] = []
        reading = TournamentView.reading_game_log

        def counted(self, game_id):
            reads.append(game_id)
            return reading(self, game_id)

        monkeypatch.setattr(TournamentView, "reading_game_log", counted)
        for fmt in ("html", "csv"):
            reads.clear()
            run_export(t, tmp_path / fmt, fmt)
            logged = [g["id"] for g in t.games() if t.game_path(g["id"]).exists()]
            assert reads == logged
        assert asked == []
        assert [team, number] in t.cached_game_summary(later["id"])["disqualified"]
    finally:
        t.close()


def test_html_pages_written_in_parts_are_the_pages_byte_for_byte(tour):
    """The whole HTML export keeps each protocol's section once, encoded, and writes the
    pages from it in parts (issue 24): the same bytes as the pages made whole, with no
    protocol at all too (the page says "—")."""
    from fieldjudge.export import html

    tr = html.translator("ru")
    views = [results.game_view(tour, g["id"]) for g in tour.games()[:3]]
    sections = [html.protocol_section(tour, v, tr, "ru") for v in views]
    encoded = [s.encode() for s in sections]
    for v, section in zip(views, encoded, strict=True):
        parts = html.protocol_page_parts(html.protocol_title(v, tr), section, "ru")
        assert b"".join(parts) == html.protocol_html(tour, v, "ru").encode()
    for n in (0, 1, 3):
        title = f"{tr('Game protocols')} — {tour.meta.get('name', '')}"
        whole = html.page(title, "\n".join(sections[:n]) or "<p>—</p>", "ru").encode()
        assert b"".join(html.protocols_parts(tour, "ru", encoded[:n])) == whole
