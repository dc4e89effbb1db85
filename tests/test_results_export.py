"""Exports: HTML protocol parses and holds every elimination and signature; CSV with BOM;
JSON round-trips; no silent overwrite; safe names; standings; no-shows; verify."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner
from results_fixtures import demo

from fieldjudge.cli import main
from fieldjudge.export import bundle, run_export
from fieldjudge.export.names import safe_name
from fieldjudge.services import results
from fieldjudge.services.demo import DEMO_PIN
from fieldjudge.store import Refused


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
    folder = tmp_path_factory.mktemp("exp") / "cup"
    t = demo(folder)
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
    dest = bundle.import_bundle(path, tmp_path / "copy")
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
            tour, g5, [team], when=(end + timedelta(minutes=5)).astimezone(), pin=DEMO_PIN
        )
    results.record_no_show(
        tour, g5, [team], when=(end + timedelta(minutes=13)).astimezone(), pin=DEMO_PIN
    )
    v = results.game_view(tour, g5)
    a, b = v.teams
    assert dict(v.result.points) == {a: 0, b: 3} and dict(v.result.diff) == {a: -5, b: 5}
    assert tour.game_summary(g5)["phase"] == "no_show"


def test_cli_verify_and_export(tour, tmp_path):
    runner = CliRunner()
    ok = runner.invoke(main, ["verify", str(tour.folder)])
    assert ok.exit_code == 0, ok.output
    out = runner.invoke(
        main,
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
        main, ["export", "--tournament", str(tour.folder), "--game", "zz", "--out", str(tmp_path)]
    )
    assert bad.exit_code != 0 and "no game" in bad.output and "Traceback" not in bad.output
    # a game file broken by hand: verify names it and fails
    broken = tmp_path / "broken"
    bundle.import_bundle(run_export(tour, tmp_path, "json")[0], broken)
    gfile = next(p for p in sorted((broken / "games").glob("*.json")) if '"hit"' in p.read_text())
    gfile.write_text(gfile.read_text(encoding="utf-8").replace('"hit"', '"out_of_bounds"', 1))
    res = runner.invoke(main, ["verify", str(broken)])
    assert res.exit_code == 1 and "FAULT" in res.output and gfile.name in res.output
