"""Issue 20, defect 6: a game never played (no check-in, no start, no no-show ruled) has no
result (30.01, 32): its protocol says so, with no score; it is left out of the exports of
protocols unless asked for, and it is never a draw, not even a provisional one."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from fieldjudge.commands.results import results_main
from fieldjudge.export.names import game_stem
from fieldjudge.i18n import ru
from fieldjudge.services import open_tournament
from fieldjudge.services.paintball import results
from fieldjudge.services.paintball.game import GameSession
from fieldjudge.services.paintball.marker_check import MarkerCheckService
from fieldjudge.services.paintball.protocol_doc import protocol_doc
from fieldjudge.services.paintball.standings import provisional_games
from tests.results_fixtures import demo


def _opened_but_not_played(folder: Path) -> tuple[str, str, str]:
    """Game 4 opened on a field laptop (its log exists) and nothing played; game 5 with a
    check-in (19.01) only. Their file stems."""
    t = demo(folder)
    try:
        g4, g5 = t.games()[4], t.games()[5]
        GameSession(t, g4["id"], judge="Судья")  # the game screen opened, then closed
        s5 = GameSession(t, g5["id"], judge="Судья")
        MarkerCheckService(t, g5["id"], "Судья").checkin(s5.teams[0], *_checkin_times(t, g5))
        return g4["id"], game_stem(t, g4), game_stem(t, g5)
    finally:
        t.close()


def _checkin_times(t, g):
    from datetime import datetime

    start = datetime.fromisoformat(str(g["start"]))
    return start, start, 3


def test_30_01_32_protocol_of_a_game_not_played_says_so_with_no_score(tmp_path: Path):
    gid, _stem4, _stem5 = _opened_but_not_played(tmp_path / "cup")
    t = open_tournament(tmp_path / "cup")
    try:
        v = results.game_view(t, gid)
        assert v.not_played
        doc = protocol_doc(t, v, ru, "ru")
        assert doc.outcome == "игра не проведена"
        assert all(row[1:4] == ("—", "—", "—") for row in doc.result_rows)
        # never a draw, not even a provisional one in the standings' list
        assert gid not in [p.game["id"] for p in provisional_games(t)]
    finally:
        t.close()


def test_30_01_32_cli_export_leaves_a_game_not_played_out_unless_asked(tmp_path: Path):
    folder = tmp_path / "cup"
    _gid, stem4, stem5 = _opened_but_not_played(folder)
    runner = CliRunner()
    out = tmp_path / "out"
    args = ["export", "--tournament", str(folder), "--format", "html", "--out", str(out)]
    res = runner.invoke(results_main, args)  # what `fieldjudge export` becomes
    assert res.exit_code == 0, res.output
    names = {p.name for p in out.glob("*.html")}
    assert f"protocol-{stem4}.html" not in names  # not played: left out
    assert f"protocol-{stem5}.html" in names  # a check-in: not "not played"
    combined = next(p for p in out.glob("protocols-*.html")).read_text(encoding="utf-8")
    assert "игра не проведена" not in combined
    out2 = tmp_path / "out2"
    args2 = ["export", "--tournament", str(folder), "--format", "html", "--out", str(out2)]
    res = runner.invoke(results_main, [*args2, "--include-unplayed"])
    assert res.exit_code == 0, res.output
    page = (out2 / f"protocol-{stem4}.html").read_text(encoding="utf-8")
    assert "игра не проведена" in page
    assert "ничья" not in page and "1 : 1" not in page
